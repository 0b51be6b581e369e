import type { SEVERITIES } from '../model/constants.js'
import type { ErrorCode } from './catalogue/index.js'

/** How serious an issue is. `error` makes a result invalid; `warning` and `info` never do. */
export type Severity = (typeof SEVERITIES)[number]

/**
 * One finding about an input, as plain JSON.
 *
 * `path` is a JSON Pointer (RFC 6901) into the input the function received; `''` means the whole input.
 */
export interface Issue {
    /** A code of the catalogue (docs/errors.md). */
    readonly code: ErrorCode
    readonly severity: Severity
    readonly message: string
    readonly path: string
}

/** An issue whose code may come from outside the catalogue (read back from a file another tool wrote). */
export type IssueLike = Omit<Issue, 'code'> & { readonly code: string }

/** One row of the error catalogue. */
export interface ErrorCodeDefinition {
    /** Stable code, `PREFIX-NNN` (optionally `PREFIX-WARN-NNN` / `PREFIX-INFO-NNN`). */
    readonly code: string
    readonly severity: Severity
    /** Message template; `{name}` placeholders are filled from the issue's params. */
    readonly template: string
    /** The spec rule or contract the code enforces (chapter, rule id, or library contract). */
    readonly rule: string
}
