import type { SEVERITIES } from '../model/constants.js'

/** How serious an issue is. `error` makes a result invalid; `warning` and `info` never do. */
export type Severity = (typeof SEVERITIES)[number]

/**
 * What a code does to a schema's grade: the one place the deterministic answers and the fix list read it.
 * - `blocks`: the schema cannot be graded (its errors);
 * - `lowers`: it lowers the answer of `question` (the spec-strict warnings lower `Q-schema-structure`);
 * - `none`: shown, but no answer reads it;
 * - `run`: a notice of the run itself (prompts, gates, island files, the judge command), never a thing to fix in the
 *   schema.
 */
export type GradeEffectKind = 'blocks' | 'lowers' | 'none' | 'run'

/** A code's grade effect and its weight in the fix list's order. */
export interface GradeEffect {
    readonly kind: GradeEffectKind
    /** The question whose answer it lowers (`lowers` only). */
    readonly question?: string
    /**
     * Where the fix list ranks a finding of the code at its catalogue severity (an error 2, a warning 0.5 and
     * a note 0 unless the row says otherwise). A finding whose level the rules changed is ranked by that level.
     */
    readonly cost: number
}

/** One row of the error catalogue (`T`: its message template, kept literal by `defineCodes`). */
export interface ErrorCodeDefinition<T extends string = string> {
    /** Stable code, `PREFIX-NNN` (optionally `PREFIX-WARN-NNN` / `PREFIX-INFO-NNN`). */
    readonly code: string
    readonly severity: Severity
    /** Message template; `{name}` placeholders are filled from the params. */
    readonly template: T
    /** The spec rule or contract the code enforces (chapter, rule id, or library contract). */
    readonly rule: string
    /** What the code does to the grade. */
    readonly grade: GradeEffect
}
