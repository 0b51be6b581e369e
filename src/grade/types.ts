import type { ImprovementHint } from '../areas/output.js'
import type { JudgeMessage } from './messages.js'
import type { Issue } from '../errors/types.js'
import type { AggregateResult, GradeTraceStep } from '../grading/aggregate.js'
import type {
    AggregateGrade,
    Area,
    BasePersonaId,
    BlockedReason,
    Harness,
    LetterGrade,
    RollupStatus,
    UnitStatus
} from '../model/constants.js'
import type { GradeBasis, SchemaStanding, SchemaStatus } from '../rollup/standing.js'
import type { QuestionId } from '../model/question-ids.js'
import type { CategoricalVeto, GradingEntry } from '../model/types.js'
import type { Clock, FsPort, HttpPort, RuntimePort, SchemaLoader } from '../ports/types.js'
import type { PretestTestRecord } from '../pretest/data-pretest.js'

/** Identity of the LLM grader whose answers a judge or pre-collected `answers` carry. */
export interface GraderInput {
    /** Name of the grader (e.g. the harness skill), recorded in `graderIdentity.name`. */
    readonly name: string
    readonly version: string
    /**
     * The model that answered, recorded as `llmModel` (GRD-007); a judge reply that names its `model` is recorded with
     * that one.
     */
    readonly llmModel: string
    /**
     * The harness that drove the non-deterministic answers, recorded as the entries' `harness`. The
     * grading spec enumerates one value, `claude-code` (chapter 08, 04 §5), which is also the default;
     * any other name is refused (GRA-002) rather than written into an entry no reader accepts.
     */
    readonly harness?: Harness
    /**
     * Base persona and lens of the grading run (01-model ⚠ A17): `persona` on persona-bound areas, `personaIds`
     * everywhere.
     */
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
    /**
     * The questions the judge answers, each once by the same `questionId`: the area's non-deterministic
     * questions, plus any deterministic one code left to the judge (a policy line of the prompt says why).
     * The deterministic questions code answered are not asked; an answer to one is ignored (ARE-INFO-001).
     */
    readonly questions: ReadonlyArray<{ readonly questionId: QuestionId; readonly question: string }>
    /** The JSON Schema the reply must match: `answers` holds exactly the ids of `questions`. */
    readonly outputSchema: object
    /**
     * The reply's JSON Schema in the form a provider enforces (OpenAI `response_format` `json_schema`
     * with `strict: true`, Anthropic tool use `input_schema`, Ollama `format`), derived from
     * `outputSchema`: a closed object of `answers` and `improvementHints`, every property required, an
     * optional one nullable (`null` reads as not given). It leaves out the envelope (filled in), the
     * blocker form and `evidence` (docs/judges.md, "Constrained replies").
     */
    readonly responseSchema: object
    /**
     * Set on a repair turn only: the problems of the unit's first reply, quoted in the one message
     * appended to `messages` (and to `prompt`); everything before it is the first request's, byte for byte.
     */
    readonly repair?: { readonly problems: readonly string[] }
    /** Envelope fields the reply must carry (they identify the grading); filled in when omitted. */
    readonly envelope: {
        readonly gradingId: string
        readonly schemaHash: string
        readonly area: Area
        readonly persona: { readonly basePersonaId: string; readonly lensId: string } | null
        /** `grader.harness`; the spec's only harness, `claude-code`, when the grader names none. */
        readonly harness: Harness
        readonly iteration: number
        readonly timestamp: string
    }
    /** The files the prompt refers to, inline (redacted), for judges that cannot read files. */
    readonly attachments: ReadonlyArray<{ readonly name: string; readonly role: string; readonly content: string }>
    /**
     * The complete model input as chat messages, ordered for a provider's prefix cache: the system
     * message (the same for every call), the files (the same for every unit of a schema), the area's
     * questions, then the unit's own part; each says whether it is `cacheable`. Send these — or
     * `prompt` with `attachments` to a tool that reads files itself — never both.
     */
    readonly messages: readonly JudgeMessage[]
}

/** One answer of a {@link JudgeReply}. */
export interface JudgeAnswer {
    /** The `questionId` of a question of the request. */
    readonly questionId: QuestionId
    /** 1–5 (decimals allowed), `'pass'`/`'fail'` for boolean questions, or `'n/a'` with a closed `naReason`. */
    readonly score: number | 'pass' | 'fail' | 'n/a'
    readonly naReason?:
        | 'not-applicable-to-tool-type'
        | 'requires-private-data'
        | 'blocked-by-precondition'
        | 'out-of-scope-resource'
    /** Why this score: required, a score without a reason is refused (ARE-002). */
    readonly reasoning: string
    readonly evidence?: unknown
}

/**
 * What a judge replies, as JSON text: every question of the request answered once, plus optional
 * improvement hints (`[]` when omitted). Envelope fields may be echoed; they are filled in when
 * omitted and a reply that contradicts them is refused (GRA-008). `{ blocker, reason }` instead marks
 * the unit blocked. `model` names the model that answered: recorded as the unit's `llmModel` instead
 * of `grader.llmModel` (a non-empty string of at most 200 characters; otherwise GRA-024 and the grader's is kept).
 */
export type JudgeReply =
    | ({
          readonly answers: readonly JudgeAnswer[]
          readonly improvementHints?: readonly ImprovementHint[]
          readonly model?: string
      } & Partial<JudgeRequest['envelope']>)
    | { readonly blocker: string; readonly reason: string; readonly model?: string }

/**
 * An abort signal as the library reads it: a platform `AbortSignal` fits, and so does any object
 * with `aborted` (the listeners, when present, end a waiting call at once instead of at its end).
 */
export interface AbortSignalLike {
    readonly aborted: boolean
    readonly reason?: unknown
    addEventListener?(type: 'abort', listener: () => void, options?: { once?: boolean }): void
    removeEventListener?(type: 'abort', listener: () => void): void
}

/**
 * The platform's `AbortSignal` where the host's typings declare one (the DOM lib, `@types/node`, workers), so a judge
 * hands `context.signal` to `fetch` as it is; {@link AbortSignalLike} where they declare none.
 */
export type PlatformAbortSignal = typeof globalThis extends { readonly AbortSignal: { readonly prototype: infer S } }
    ? S
    : AbortSignalLike

/**
 * What a judge call is given besides its request: the signal that says when to give up (its timeout, the schema's
 * judge budget or the run's abort): the platform's own `AbortSignal`, ready for `fetch`.
 */
export interface JudgeCallContext {
    readonly signal: PlatformAbortSignal
}

/**
 * The tokens one judge call used, as the provider reported them (OpenAI `usage.prompt_tokens`, Anthropic
 * `usage.input_tokens`, Ollama `prompt_eval_count`; docs/judges.md). `cachedInputTokens` is the part of
 * `inputTokens` a prefix cache served. Whole numbers from 0.
 */
export interface JudgeUsage {
    readonly inputTokens: number
    readonly outputTokens: number
    readonly cachedInputTokens?: number
}

/** A judge's reply with what it cost: the reply text, and the provider's token counts. */
export interface JudgeResponse {
    readonly text: string
    readonly usage?: JudgeUsage
}

/**
 * A host function that sends one area prompt to an LLM and returns its raw reply: the JSON text of a {@link JudgeReply}
 * (a fence or prose around the object is set aside; a reply that breaks the contract, or holds no JSON at all, gets
 * one repair turn, a request with `repair` set: docs/judges.md, "Replies"), or `{ text, usage }` to report the tokens
 * the call used. A failure worth another try (a rate limit, a 5xx, a timeout) rejects with an error carrying `status`
 * (429, 5xx) or `retryable: true`, optionally `retryAfterMs` (docs/judges.md).
 */
export type Judge = (request: JudgeRequest, context: JudgeCallContext) => Promise<string | JudgeResponse>

/**
 * The judge calls a run sent, each one counted once: the first asks of its units, the repair turns, and the retries
 * of either after a failure (`calls` is their sum). `usage` totals what the judge reported (`null` when no call
 * reported any; `reportedCalls` says how many did); `estimated` is the library's own estimate of the same calls
 * (characters / 4 for the input, the rule of thumb of `JudgeCost` for the output), beside it.
 */
export interface JudgeCallCount {
    readonly calls: number
    readonly firstAsks: number
    readonly repairs: number
    readonly retries: number
    readonly usage: {
        readonly inputTokens: number
        readonly outputTokens: number
        readonly cachedInputTokens: number
        readonly reportedCalls: number
    } | null
    readonly estimated: { readonly inputTokens: number; readonly outputTokens: number }
}

/** Options of {@link gradeSingleSchema} other than the time source. */
export interface GradeOptionsBase {
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
    /**
     * The FlowMCP runtime (a host-given port, e.g. `runtimePortFromFlowMCP`): with `http`, the tests of
     * a schema whose source exports `handlers` run through it, handlers included. Without it those
     * tools are `blocked` (`handlers-need-runtime`): a plain request would test something else.
     */
    readonly runtime?: RuntimePort
    /** Which tools go through `runtime`: those of a schema exporting `handlers` (default), or `'all'`. */
    readonly runtimeTools?: 'handlers' | 'all'
    readonly clock?: Clock
    /** The time of the run (ISO 8601); `clock.now()` when omitted. One of the two is required (GRA-001). */
    readonly now?: string
    /**
     * Server parameter values for the pretest; never written anywhere. A function is called with the
     * schema's `requiredServerParams` once the schema is loaded, so a host hands over only those keys.
     */
    readonly serverParams?:
        | Readonly<Record<string, string>>
        | ((requiredKeys: readonly string[]) => Readonly<Record<string, string>>)
    readonly judge?: Judge
    /**
     * Give up a judge call after this many milliseconds (a timeout is retried like a rate limit); 120,000 (two minutes,
     * as the CLI) when omitted, no limit for 0.
     */
    readonly judgeTimeoutMs?: number
    /** Further tries of a judge call that failed in a retryable way (default 2; 0 turns retries off). */
    readonly judgeRetries?: number
    /** The wait before the first retry, doubled for each further one (default 1000 ms; waited through `sleep`). */
    readonly judgeBackoffMs?: number
    /**
     * The most time the judge may take for one schema's units, all calls, retries and backoffs together (default
     * 300,000: five minutes; no limit for 0). When it runs out the call waiting is aborted, that unit and the units
     * not asked yet end in one error (GRA-030), and the next schema gets a budget of its own. Counted from the
     * schema's first judge call; a pending call's timers keep a Node process alive until it settles or is aborted.
     */
    readonly judgeBudgetMs?: number
    /**
     * After this many units in a row failed at the judge (no answer after its retries, a reply that is
     * not JSON, a reply still wrong after its repair turn) the run stops calling the judge and says so
     * once, naming the last failure (GRA-025; default 3).
     */
    readonly maxConsecutiveJudgeFailures?: number
    /** Aborts the run's judge calls and backoffs: the units not asked yet are reported, nothing is written half. */
    readonly signal?: AbortSignalLike | PlatformAbortSignal
    /**
     * Pre-collected area outputs (chapter 24 envelopes or `{ blocker, reason }`; a `model` is taken as in a {@link
     * JudgeReply}), keyed by unit id.
     */
    readonly answers?: Readonly<Record<string, unknown>>
    /** The namespace About markdown (for `about-namespace`), when the schema declares one. */
    readonly about?: { readonly name?: string; readonly text: string }
    /** Namespace skill files (`namespace-skills`, one unit per skill). */
    readonly skills?: ReadonlyArray<{ readonly name: string; readonly text: string; readonly skill?: unknown }>
    /** Raw schema source when `schema` is passed as an object (for the scan and the snapshot). */
    readonly source?: string
    /**
     * The boundary of the data blocks that fence graded text in every judge request of the run
     * (`^[A-Z][A-Z0-9-]{3,40}-[0-9a-f]{16}$`, e.g. `FLOWMCP-DATA-1a2b3c4d5e6f7a8b`; GRA-002 otherwise).
     * Random per run when omitted; replaced for a request whose text holds it (docs/judges.md).
     */
    readonly boundary?: string
    /** Pretest tuning. */
    readonly minWorkingTests?: number
    readonly concurrency?: number
    readonly timeoutMs?: number
    readonly throttleMs?: number
    /**
     * Waits `ms`: the pretest's throttle (no throttle without it) and the judge's backoff (the platform's timer without
     * it).
     */
    readonly sleep?: (ms: number) => Promise<void>
}

/** The time of a run: `now` (ISO 8601) or a `clock`; one of the two is required. */
export type TimeSource =
    | { readonly now: string; readonly clock?: Clock }
    | { readonly clock: Clock; readonly now?: string }

/**
 * Options of {@link gradeSingleSchema}: storage, ports, judge or answers, and the time of the run (`now` or `clock`,
 * required).
 */
export type GradeOptions = GradeOptionsBase & TimeSource

/** A grader that supplies non-deterministic answers: the persona is required then (GRA-009). */
export type AnsweringGrader = GraderInput & { readonly persona: NonNullable<GraderInput['persona']> }

/**
 * The schema module: `{ main }` (or the legacy `{ schema }`), or `main` itself. Checked at run time (GRA-002, SCH-*).
 */
export type SchemaModuleInput =
    | { readonly main: Readonly<Record<string, unknown>> }
    | { readonly schema: Readonly<Record<string, unknown>> }
    | Readonly<Record<string, unknown>>

/** Where the schema comes from: a file path, or the module as an object (with `fileName` or `schemaId` for its id). */
export type SchemaInput =
    | { readonly schema: SchemaModuleInput; readonly schemaPath?: string }
    | { readonly schemaPath: string; readonly schema?: undefined }

/**
 * Arguments of {@link gradeSingleSchema}. A `judge` or `answers` needs a `grader` with a persona;
 * without either the run is provisional and `grader` is optional.
 *
 * The order of the union members is deliberate: when an argument fits none, TypeScript reports
 * against the last member that shares its property names, so the schema-path form and the branch
 * that requires `grader` come last, and a judge given without `grader` is reported as
 * "Property 'grader' is missing" (test/grade/input-types.test.ts), not as a missing `schema`.
 */
export type GradeSingleSchemaInput = SchemaInput & {
    /** The file name (or path) of a schema given as an object: its base is the id's slug, `<namespace>.<file base>`. */
    readonly fileName?: string
    /** `<namespace>.<file base>`; derived from the file when omitted. */
    readonly schemaId?: string
} & (
        | {
              readonly grader?: GraderInput
              readonly options: GradeOptions & { readonly judge?: undefined; readonly answers?: undefined }
          }
        | { readonly grader: AnsweringGrader; readonly options: GradeOptions }
    )

/** How one unit ended (the list and the named constants live in `model/constants.ts`). */
export type { UnitStatus }

/** Where a schema's grade comes from: {@link SchemaGrading.basis}, read from its index node (`basisOfSchemaNode`). */
export type { GradeBasis }

/** One area unit of a run. */
export interface UnitResult {
    readonly unit: string
    readonly area: Area
    readonly target: Readonly<Record<string, string>>
    readonly status: UnitStatus
    readonly aggregateGrade: AggregateGrade | null
    readonly rawGrade: LetterGrade | null
    readonly normalizedScore: number | null
    readonly reason: string | null
    /** Island path of the written entry. */
    readonly written: string | null
    /** How the grade was reached, step by step (`Grading.computeAggregateGrade`); set on graded selection units. */
    readonly trace?: readonly GradeTraceStep[]
    /**
     * `true` when the unit was not graded again: the island already holds its entry for this content (a resumed run).
     */
    readonly kept?: boolean
    /**
     * The judge's improvement hints for this unit (04 ⚠ D4: kept in `state.json` beside the index, not in the entry).
     */
    readonly improvementHints?: readonly ImprovementHint[]
    /**
     * The issues this run added for the unit (the same objects as in the result's `errors`, each at
     * `/units/<unit>` or below when it came from the judge path); absent when there are none.
     */
    readonly issues?: readonly Issue[]
}

/**
 * Where a schema stands after a run: its `index.json` node's status (03 §6.2 as this library applies
 * it, the rollup of its subtree), plus `provisional` for a run without non-deterministic answers
 * whose node is `pending`. Read by `standingOfSchemaNode`, the one function every surface uses.
 */
export type SchemaRunStatus = SchemaStatus

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
    /**
     * `full`: the units graded have their non-deterministic block; `provisional`: some unit has
     * deterministic answers only (no judge, no answers); `none`: no unit could be graded at all.
     */
    readonly mode: 'full' | 'provisional' | 'none'
    /**
     * Where the schema stands: its `index.json` node's status; see {@link SchemaRunStatus} and docs/guide.md, "Which
     * grade to quote".
     */
    readonly status: SchemaRunStatus
    /** Why the schema is blocked, pending or rejected, as its index node says; `null` when graded or stable. */
    readonly reason: string | null
    /**
     * The whole standing `status`, `grade`, `schemaGrade` and `reason` are read from, with the blocked tools and their
     * causes.
     */
    readonly standing: SchemaStanding
    /**
     * **The grade** to quote: the schema's `index.json` node grade, the worst grade of its subtree
     * (every tool's single-test and the tools aggregate; REJECTED under a veto, 03 ⚠ C15). `null`
     * unless the schema is `graded`, `stable` or `rejected`: a blocked, pending or provisional schema
     * shows no letter.
     */
    readonly grade: AggregateGrade | null
    /**
     * The schema's own `tools-aggregate-schema` grade (`index.json` `schemas[<schema>].toolsAggregate.grade`), or
     * REJECTED; `null` wherever `grade` is.
     */
    readonly schemaGrade: AggregateGrade | null
    /**
     * With `mode: 'provisional'`: the worst grade over the deterministic answers alone — never a headline; `null`
     * otherwise.
     */
    readonly provisionalGrade: AggregateGrade | null
    /**
     * With `mode: 'provisional'`: the tools-aggregate-schema grade from deterministic answers alone; `null` otherwise.
     */
    readonly provisionalSchemaGrade: AggregateGrade | null
    /** Units kept from an earlier run (the island held their entry for this content) and units graded by this run. */
    readonly unitCounts: { readonly kept: number; readonly graded: number }
    /** The untrimmed band of the tools aggregate's mean (before the autonomous B cap); `null` wherever `grade` is. */
    readonly rawGrade: LetterGrade | null
    /**
     * The score the grade comes from: the graded unit (a tool or the tools aggregate) with the lowest normalized score
     * (1–5), that score, and its untrimmed band (`A` where the autonomous cap made it `B`). It moves with every edit
     * that changes the weakest unit, where the capped letter may not. `null` without a grade, or under a veto. The same
     * object as `standing.basis`: read from the schema's `index.json` node, as every surface reads it.
     */
    readonly basis: GradeBasis | null
    /** Each unit's grade (`null` when it has none: blocked, gated, skipped, error). */
    readonly unitGrades: Readonly<Record<string, AggregateGrade | null>>
    /**
     * The namespace rollup of `index.json` after this run (every schema of the namespace); `null` without an island.
     */
    readonly rollupGrade: AggregateGrade | null
    readonly veto: CategoricalVeto | null
    readonly units: UnitResult[]
    /**
     * The pretest's outcome: whether it ran, each tool it blocked with its coded reason and the cause in words
     * (`detail`), and every test's truth (`tests`; empty when the units were kept from an earlier run).
     */
    readonly pretest: {
        readonly ran: boolean
        readonly reason: string | null
        readonly ok: boolean
        readonly blocked: ReadonlyArray<{
            readonly tool: string
            readonly reason: BlockedReason
            readonly detail: string
        }>
        readonly tests: readonly PretestTestRecord[]
    }
    /** Present when written into an island. */
    readonly indexPath: string | null
    readonly rollupStatus: RollupStatus | null
    /**
     * The judge calls this run sent for the schema's units: first asks, repair turns (at most one per unit:
     * docs/judges.md, "Replies") and retries apart, the tokens the judge reported and the estimate beside them; also
     * in the schema's `summary.json` as `judge`. Absent when the run did not reach its units (every unit kept).
     */
    readonly judgeCalls?: JudgeCallCount
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
