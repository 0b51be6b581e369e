import type { ErrorCodeDefinition, Severity } from './definition.js'

type Row = readonly [severity: Severity, template: string, rule: string]

/**
 * Builds a frozen group of catalogue rows from a compact `{ code: [severity, template, rule] }` table.
 * The literal keys are kept in the type so that issue factories only accept known codes.
 */
export function defineCodes<const T extends Record<string, Row>>(table: T): { readonly [K in keyof T]: ErrorCodeDefinition } {
    const out: Record<string, ErrorCodeDefinition> = {}
    for (const [code, [severity, template, rule]] of Object.entries(table)) {
        out[code] = Object.freeze({ code, severity, template, rule })
    }
    return Object.freeze(out) as { readonly [K in keyof T]: ErrorCodeDefinition }
}
