import type { ImprovementHint } from '../areas/output.js'

/**
 * One thing a maintainer can fix in a schema: a finding of the checks (its issue code), an answer
 * of the judge that cost grade points (its question id), or an improvement hint of a unit, pointing
 * at the place in the schema source it is about. The fix list orders them by what they cost.
 */
export interface FixItem {
    readonly schemaId: string
    /** The schema source file as the host named it (a path), or `null` when the schema came as an object. */
    readonly file: string | null
    readonly kind: 'finding' | 'answer' | 'hint'
    /**
     * The rule the item is filed under: the issue code (`SCH-WARN-011`, `DPT-004`, `SRC-002`, …), for
     * an answer its question id (`Q-single-test-05`), for a hint `HINT-<area>` (`HINT-single-test`).
     */
    readonly code: string
    readonly severity: 'error' | 'warning' | 'info'
    /**
     * What is wrong, in words a maintainer can act on, whole (the catalogue message, the question and
     * the answer's reasoning, or the hint's suggestion). The tool is not repeated here: it is `tool`.
     */
    readonly message: string
    /** JSON Pointer into the schema's `main` (`/tools/getPrice/description`); `''` for the schema as a whole. */
    readonly pointer: string
    /** 1-based line and column of the place in the source, when the syntax tree has it. */
    readonly line: number | null
    readonly column: number | null
    /**
     * Grade points it costs, the order of the list: an answer's shortfall from 5 times its weight
     * share; a finding's fixed cost; for a hint, its unit's costliest answer (what following it may
     * win back; 0 when no answer of the unit cost points).
     */
    readonly cost: number
    readonly unit?: string
    readonly area?: string
    /** The tool the item is about: its unit's tool, or the tool its pointer lies under. */
    readonly tool?: string
    readonly score?: number | string
    /** For an answer: the question it answers, as the catalogue asks it. */
    readonly question?: string
    /** For an answer: the grader's reasoning (for a deterministic answer, the evidence of its check). */
    readonly reasoning?: string
    /** For a hint: the hint as its unit gave it. */
    readonly hint?: ImprovementHint
    /**
     * For a hint: `target` when its `targetField` was found in the source (or, without a source,
     * read as a pointer), `unit` when it was not and the item sits at its unit's tool or area instead.
     */
    readonly placed?: 'target' | 'unit'
    /**
     * For a stale recording (DPT-022): the test whose request the recordings lack, that request
     * (method, URL with every key written `{{SERVER_PARAM:<KEY>}}`) and the command that records it
     * again (`null` when the host gave none).
     */
    readonly recording?: StaleRecording
}

/** A test's request a replay had no exchange for, and how to record it again. */
export interface StaleRecording {
    readonly testIndex: number
    readonly method: string
    readonly url: string
    readonly command: string | null
}

/**
 * How many fix items a short view shows before it counts the rest: the terminal without `--verbose`, the check's
 * Markdown summary by default, the open lines of the HTML report's "What to fix", and `--watch`'s fixed/new lines.
 */
export const FIX_ITEMS_SHOWN = 5
