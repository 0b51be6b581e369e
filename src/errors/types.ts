import type { ErrorCode } from './catalogue/index.js'
import type { Severity } from './definition.js'

// The catalogue's row types live apart (definition.ts), so the catalogue never imports the code union it defines.
export type { ErrorCodeDefinition, Severity } from './definition.js'

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
