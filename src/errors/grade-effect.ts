import { CATALOGUE } from './catalogue/index.js'
import { SEVERITY_COST } from './define.js'
import type { ErrorCodeDefinition, GradeEffect, Severity } from './definition.js'

const ROWS: Readonly<Record<string, ErrorCodeDefinition>> = CATALOGUE

/** A code's grade effect as its catalogue row states it; null for a code the catalogue lacks. */
export function gradeEffectOf(code: string): GradeEffect | null {
    return Object.hasOwn(ROWS, code) ? (ROWS[code]?.grade ?? null) : null
}

/**
 * Where the fix list ranks a finding: its row's cost when it comes at the row's level; by its level
 * alone when the rules changed that level or the code is not in the catalogue.
 */
export function findingCost(code: string, severity: Severity): number {
    const row = Object.hasOwn(ROWS, code) ? ROWS[code] : undefined
    return row !== undefined && row.severity === severity ? row.grade.cost : SEVERITY_COST[severity]
}

/** The codes that lower the answer of `question`, in catalogue order. */
export function codesLowering(question: string): readonly string[] {
    return Object.freeze(
        Object.values(ROWS).flatMap((row) =>
            row.grade.kind === 'lowers' && row.grade.question === question ? [row.code] : []
        )
    )
}
