import type { Issue } from '../errors/types.js'
import type { AggregateResult } from '../grading/aggregate.js'
import type { Area, BasePersonaId } from '../model/constants.js'
import type { CategoricalVeto, GradingEntry } from '../model/types.js'
import type { Clock, FsPort, HttpPort, SchemaLoader } from '../ports/types.js'

/** Identity of the LLM grader whose answers a judge or pre-collected `answers` carry. */
export interface GraderInput {
    /** Name of the grader (e.g. the harness skill), recorded in `graderIdentity.name`. */
    readonly name: string
    readonly version: string
    /** The model that answered, recorded as `llmModel` (GRD-007). */
    readonly llmModel: string
    /** Base persona and lens of the grading run (01-model ⚠ A17): `persona` on persona-bound areas, `personaIds` everywhere. */
    readonly persona?: { readonly basePersonaId: BasePersonaId; readonly lensId: string }
    /** `selectionContext.groupId` of provider answers; the namespace when omitted (documented neutral lens, ⚠ A17). */
    readonly groupId?: string
}

/** What a judge is asked: one area unit, with everything it needs inline. */
export interface JudgeRequest {
    /** Stable id of the unit: `<area>` or `<area>/<tool|skill>`; key of `options.answers`. */
    readonly unit: string
    readonly area: Area
    /** The composed area prompt (secrets redacted). */
    readonly prompt: string
    readonly questions: ReadonlyArray<{ readonly id: string; readonly question: string }>
    /** The JSON Schema the reply must match. */
    readonly outputSchema: object
    /** Envelope fields the reply must carry (they identify the grading); filled in when omitted. */
    readonly envelope: {
        readonly gradingId: string
        readonly schemaHash: string
        readonly area: Area
        readonly persona: { readonly basePersonaId: string; readonly lensId: string } | null
        readonly harness: 'claude-code'
        readonly iteration: number
        readonly timestamp: string
    }
    /** The files the prompt refers to, inline (redacted), for judges that cannot read files. */
    readonly attachments: ReadonlyArray<{ readonly name: string; readonly role: string; readonly content: string }>
}

/** A host function that sends one area prompt to an LLM and returns its raw reply (JSON text). */
export type Judge = (request: JudgeRequest) => Promise<string>

/** Options of {@link gradeSingleSchema}. */
export interface GradeOptions {
    /** Island storage; with `root`, the schema is imported, entries are written and the index rebuilt. */
    readonly fs?: FsPort
    readonly root?: string
    /** Where `schemaPath` is read from; `fs` when omitted. */
    readonly sourceFs?: FsPort
    /**
     * Imports `schemaPath` instead of reading it from its syntax tree. Importing runs the module's
     * top level, so pass one (e.g. `importSchemaLoader`) only for sources you trust; by default the
     * source is parsed and never executed.
     */
    readonly trustedLoader?: SchemaLoader
    /** Live pretest; without it the live answers are `n/a` (blocked-by-precondition). */
    readonly http?: HttpPort
    readonly clock?: Clock
    /** The time of the run (ISO 8601); `clock.now()` when omitted. One of the two is required. */
    readonly now?: string
    /**
     * Server parameter values for the pretest; never written anywhere. A function is called with the
     * schema's `requiredServerParams` once the schema is loaded, so a host hands over only those keys.
     */
    readonly serverParams?: Readonly<Record<string, string>> | ((requiredKeys: readonly string[]) => Readonly<Record<string, string>>)
    readonly judge?: Judge
    /** Pre-collected area outputs (chapter 24 envelopes or `{ blocker, reason }`), keyed by unit id. */
    readonly answers?: Readonly<Record<string, unknown>>
    /** The namespace About markdown (for `about-namespace`), when the schema declares one. */
    readonly about?: { readonly name?: string; readonly text: string }
    /** Namespace skill files (`namespace-skills`, one unit per skill). */
    readonly skills?: ReadonlyArray<{ readonly name: string; readonly text: string; readonly skill?: unknown }>
    /** Raw schema source when `schema` is passed as an object (for the scan and the snapshot). */
    readonly source?: string
    /** Pretest tuning. */
    readonly minWorkingTests?: number
    readonly concurrency?: number
    readonly timeoutMs?: number
    readonly throttleMs?: number
    readonly sleep?: (ms: number) => Promise<void>
}

/** How one unit ended. */
export type UnitStatus = 'graded' | 'rejected' | 'provisional' | 'blocked' | 'gated' | 'skipped' | 'error'

/** One area unit of a run. */
export interface UnitResult {
    readonly unit: string
    readonly area: Area
    readonly target: Readonly<Record<string, string>>
    readonly status: UnitStatus
    readonly aggregateGrade: string | null
    readonly rawGrade: string | null
    readonly normalizedScore: number | null
    readonly reason: string | null
    /** Island path of the written entry. */
    readonly written: string | null
}

/** An area prompt to send, when no judge or answer covered the unit. */
export interface EmittedPrompt extends JudgeRequest {}

/** Summary of a graded schema. */
export interface SchemaGrading {
    readonly schemaId: string
    readonly namespace: string
    readonly schema: string
    readonly schemaHash: string
    readonly version: string
    readonly gradingTier: 'autonomous'
    readonly maxAttainableGrade: 'B'
    /** `full`: every unit has its non-deterministic block; `provisional`: deterministic answers only. */
    readonly mode: 'full' | 'provisional'
    /** The schema node's grade: its `tools-aggregate-schema` grading, or REJECTED. */
    readonly aggregateGrade: string | null
    readonly rawGrade: string | null
    readonly veto: CategoricalVeto | null
    readonly units: UnitResult[]
    readonly pretest: { readonly ran: boolean; readonly reason: string | null; readonly ok: boolean; readonly blocked: ReadonlyArray<{ tool: string; reason: string }> }
    /** Present when written into an island. */
    readonly indexPath: string | null
    readonly rollupStatus: string | null
}

/** Result of {@link gradeSingleSchema}. */
export interface GradeSingleSchemaResult {
    readonly grading: SchemaGrading | null
    /** Entries that pass `validateGradingEntry` (written when an island was given). */
    readonly entries: GradingEntry[]
    /** Area prompts still to be answered (no judge, no answer for the unit). */
    readonly prompts: EmittedPrompt[]
    /** Deterministic-only aggregates per unit when the run is provisional. */
    readonly provisional: Record<string, AggregateResult>
    readonly errors: Issue[]
}
