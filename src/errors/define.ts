import { SEVERITY } from '../model/constants.js'
import type { ErrorCodeDefinition, GradeEffect, GradeEffectKind, Severity } from './definition.js'
import { definedFields } from '../model/fields.js'

/** A row's grade effect as written in a catalogue table: the kind, and the question or cost when not the default. */
type EffectCell = { readonly kind: GradeEffectKind; readonly question?: string; readonly cost?: number }

type Row = readonly [severity: Severity, template: string, rule: string, effect?: EffectCell]

/**
 * The fix list's weight of a finding at each level: an error blocks grading, a warning is fixed after it, a note costs
 * nothing.
 */
export const SEVERITY_COST: Readonly<Record<Severity, number>> = Object.freeze({ error: 2, warning: 0.5, info: 0 })

/** A notice of the run itself: never a thing to fix in the schema. */
export const RUN_NOTICE: EffectCell = Object.freeze({ kind: 'run', cost: 0 })

/** A spec-strict warning: the runtime accepts it; each distinct code lowers `Q-schema-structure`. */
export const LOWERS_STRUCTURE: EffectCell = Object.freeze({ kind: 'lowers', question: 'Q-schema-structure' })

/** The effect a row states, or the one its severity implies (an error blocks; a warning or note lowers nothing). */
function effectOf(severity: Severity, cell: EffectCell | undefined): GradeEffect {
    const kind = cell?.kind ?? (severity === SEVERITY.error ? 'blocks' : 'none')
    const cost = cell?.cost ?? SEVERITY_COST[severity]
    return Object.freeze({ kind, ...definedFields({ question: cell?.question }), cost })
}

/**
 * Builds a frozen group of catalogue rows from a compact `{ code: [severity, template, rule, effect?] }` table.
 * The literal keys and templates are kept in the type, so that issue factories accept only known codes and, for each,
 * exactly the params its message names (src/errors/params.ts).
 */
export function defineCodes<const T extends Record<string, Row>>(
    table: T
): { readonly [K in keyof T]: ErrorCodeDefinition<T[K][1]> } {
    const out: Record<string, ErrorCodeDefinition> = {}
    for (const [code, [severity, template, rule, effect]] of Object.entries(table)) {
        out[code] = Object.freeze({ code, severity, template, rule, grade: effectOf(severity, effect) })
    }
    return Object.freeze(out) as { readonly [K in keyof T]: ErrorCodeDefinition<T[K][1]> }
}
