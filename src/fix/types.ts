import type { ImprovementHint } from '../areas/output.js'

/**
 * One thing a maintainer can fix in a schema: a finding of the checks (its issue code) or an answer
 * of the judge that cost grade points (its question id), pointing at the place in the schema
 * source it is about. The fix list orders them by what they cost.
 */
export interface FixItem {
    readonly schemaId: string
    /** The schema source file as the host named it (a path), or `null` when the schema came as an object. */
    readonly file: string | null
    readonly kind: 'finding' | 'answer'
    /** The issue code (`SCH-WARN-011`, `DPT-004`, `SRC-002`, …) or, for an answer, its question id (`Q-single-test-05`). */
    readonly code: string
    readonly severity: 'error' | 'warning' | 'info'
    /** What is wrong, in words a maintainer can act on (the catalogue message, or the judge's reasoning). */
    readonly message: string
    /** JSON Pointer into the schema's `main` (`/tools/getPrice/description`); `''` for the schema as a whole. */
    readonly pointer: string
    /** 1-based line and column of the place in the source, when the syntax tree has it. */
    readonly line: number | null
    readonly column: number | null
    /** Grade points it costs (the answer's shortfall from 5 times its weight share; a finding's fixed cost): the order of the list. */
    readonly cost: number
    readonly unit?: string
    readonly area?: string
    readonly tool?: string
    readonly score?: number | string
    /** The area's improvement hints, for an answer. */
    readonly hints?: readonly ImprovementHint[]
}
