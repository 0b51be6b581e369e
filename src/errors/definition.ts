import type { SEVERITIES } from '../model/constants.js'

/** How serious an issue is. `error` makes a result invalid; `warning` and `info` never do. */
export type Severity = (typeof SEVERITIES)[number]

/** One row of the error catalogue. */
export interface ErrorCodeDefinition {
    /** Stable code, `PREFIX-NNN` (optionally `PREFIX-WARN-NNN` / `PREFIX-INFO-NNN`). */
    readonly code: string
    readonly severity: Severity
    /** Message template; `{name}` placeholders are filled from the params. */
    readonly template: string
    /** The spec rule or contract the code enforces (chapter, rule id, or library contract). */
    readonly rule: string
}
