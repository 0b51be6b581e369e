// The data pretest's public vocabulary: its input, its result and each test's record, the defaults it reads, and
// the coded form of a test's error.
import type { Issue } from '../errors/types.js'
import type { KeyDomainResult } from '../schema/key-domain.js'
import type { RuntimePort, RuntimeRequestRecord } from '../ports/types.js'
import type { HttpPort } from './http.js'
import type { Shape } from './output-check.js'
import type { BlockedReason } from '../model/constants.js'

/**
 * The bar of a parameterless tool. Such a tool has one distinct request at most (every other test
 * is a DPT-008 duplicate), so the parameter space is covered by one working call; a bar of 3
 * would block it forever.
 */
export const PARAMETERLESS_MIN_WORKING_TESTS = 1
/** Defaults of {@link DataPretest.run}. */
export const PRETEST_DEFAULTS = Object.freeze({ concurrency: 4, timeoutMs: 15_000, throttleMs: 0, maxConcurrency: 32 })
/** Response sizes that mark a tool `large` / `extreme` (06 §19.5). */
export const RESPONSE_SIZE_LIMITS = Object.freeze({ large: 1_048_576, extreme: 10_485_760 })

/** What happened to one test. */
export type TestStatus =
    | 'passed'
    | 'failed'
    | 'key-gated'
    | 'withheld'
    | 'duplicate'
    | 'unbuildable'
    | 'not-sent'
    | 'planned'
/** A tool's class (05 §1.6 `perTool.class`, plus `withheld` for a key-domain mismatch). */
export type ToolClass = 'normal' | 'parameterless' | 'key-gated' | 'needs-tests' | 'withheld' | 'state-changing'

/**
 * One request a test sent, as kept: method, URL (every server-param value written
 * `{{SERVER_PARAM:<KEY>}}`), the status answered and whether the recordings lacked it.
 */
export type TestRequestRecord = RuntimeRequestRecord

/**
 * Why a test that was sent did or did not count as working:
 * - `working`: data came back (an output-schema mismatch is said apart, DPT-018);
 * - `no-data`: an answer without data (HTTP 200 or the runtime's success with nothing in it);
 * - `output-transform-failed`: the host's `transform` threw on the data;
 * - `http-error`: the API answered a status other than 200 (the runtime: its `HTTP <code>` failure);
 * - `handler-error`: the runtime failed without an HTTP status (a handler threw, the schema did not load), its message
 *   in `error`;
 * - `missing-recording`: a request the recordings lack (replay's 404), named in `requests`;
 * - `library-not-installed`: the runtime could not load a library the schema requires (`requiredLibraries`) here;
 * - `shared-lists-not-given`: a handler failed where the schema declares `sharedLists` and the runtime has none;
 * - `network-not-granted`: the runtime child tried the network offline (DPT-021);
 * - `port-error`: the HTTP or runtime port failed (network failure, timeout, a malformed answer).
 */
export type TestVerdict =
    | 'working'
    | 'no-data'
    | 'output-transform-failed'
    | 'http-error'
    | 'handler-error'
    | 'missing-recording'
    | 'library-not-installed'
    | 'shared-lists-not-given'
    | 'network-not-granted'
    | 'port-error'

/**
 * One test, as kept. Headers, key values and response bodies are never kept; a request's URL only with its keys masked.
 */
export interface PretestTestResult {
    readonly tool: string
    readonly testIndex: number
    readonly status: TestStatus
    readonly httpStatus: number | null
    readonly hasData: boolean
    readonly working: boolean
    readonly responseBytes: number | null
    readonly shape: Shape | null
    /** `null` when the tool declares no `output.schema` or no data came back. */
    readonly outputSchemaMatch: boolean | null
    /** `'runtime'` when the FlowMCP runtime ran the test (handlers included); absent for a plain HTTP request. */
    readonly via?: 'runtime'
    /**
     * `CODE: message` (DPT-004, DPT-010, …); `null` for a passed test whose data matched (DPT-018 names an output
     * mismatch).
     */
    readonly error: string | null
    /** Why the sent test did or did not count as working; absent for a test that was not sent. */
    readonly verdict?: TestVerdict
    /**
     * The requests the sent test made, in order (a plain test: its one request; a runtime test: what its fetch sent).
     */
    readonly requests?: readonly TestRequestRecord[]
}

/**
 * One test's truth, as `summary.json` (`perTool.<tool>.tests`), the grading result
 * (`pretest.tests`), `--json` and `--verbose` show it: what the test asked, what came back and why
 * it did or did not count as working. A test whose request the recordings lack has
 * `verdict: 'missing-recording'` and that request in `requests` with `missingRecording: true`.
 */
export interface PretestTestRecord {
    readonly tool: string
    readonly testIndex: number
    /** What happened to it (`passed`, `failed`; `key-gated`, `duplicate`, … for a test not sent). */
    readonly status: TestStatus
    readonly working: boolean
    /** `runtime`: the FlowMCP runtime ran it (handlers included); `http`: a plain request. */
    readonly via: 'runtime' | 'http'
    /** Why it did or did not count as working; `null` for a test not sent (its `error` says why). */
    readonly verdict: TestVerdict | null
    readonly httpStatus: number | null
    /** `CODE: message`, or `null` for a working test whose data matched. */
    readonly error: string | null
    /** Its requests, keys masked (none for a test not sent, or a runtime test that computed offline). */
    readonly requests: readonly TestRequestRecord[]
}

/** Every test of a pretest as its {@link PretestTestRecord}, in plan order. */
export function testRecordsOf(results: readonly PretestTestResult[]): PretestTestRecord[] {
    return results.map((r) => ({
        tool: r.tool,
        testIndex: r.testIndex,
        status: r.status,
        working: r.working,
        via: r.via === 'runtime' ? 'runtime' : 'http',
        verdict: r.verdict ?? null,
        httpStatus: r.httpStatus,
        error: r.error,
        requests: r.requests ?? []
    }))
}

/** Per-tool summary. */
export interface PretestToolSummary {
    readonly class: ToolClass
    readonly total: number
    /** Tests left after DPT-008 duplicates. */
    readonly distinct: number
    readonly working: number
    readonly bar: number
    readonly parameterless: boolean
    readonly blocked: boolean
    readonly reason: string | null
    /**
     * The cause in words a maintainer can act on (the missing variable names, the unbuildable tests); `null` when not
     * blocked.
     */
    readonly detail: string | null
    /** Server params the tool needs but `serverParams` lacks (names only). */
    readonly missingServerParams: string[]
    /** Its tests go through the FlowMCP runtime (the schema exports `handlers`, or the host asked for every tool). */
    readonly viaRuntime: boolean
    /** `true`: every working test matched `output.schema`; `false`: one did not; `null`: nothing to compare. */
    readonly outputSchemaMatch: boolean | null
    readonly maxResponseBytes: number
    readonly large: boolean
    readonly extreme: boolean
}

/** One docs URL check (`Q-single-test-01`); the URL itself stays in `main.docs[index]`. */
export interface DocsCheck {
    readonly index: number
    readonly reachable: boolean
    readonly httpStatus: number | null
    readonly error: string | null
}

/** Result of {@link DataPretest.run}. */
export interface PretestResult {
    /** `true` when requests were sent. */
    readonly ran: boolean
    /**
     * Why nothing was sent: `no-http-port`, `dry-run`, `invalid-input`, `structural-validation-failed`; `null` when it
     * ran.
     */
    readonly reason: 'no-http-port' | 'dry-run' | 'invalid-input' | 'structural-validation-failed' | null
    readonly dryRun: boolean
    /** `now` as passed: when the live data was observed. */
    readonly checkedAt: string | null
    readonly minWorkingTests: number
    /** Every test with what would happen to it (`planned`) or what did (`passed`, `failed`, …). */
    readonly results: PretestTestResult[]
    readonly tools: Readonly<Record<string, PretestToolSummary>>
    readonly docs: DocsCheck[]
    /**
     * Tools that cannot be graded: a coded `reason` and its `detail` in words (names of missing variables, why tests
     * cannot be built).
     */
    readonly blocked: Array<{ tool: string; reason: BlockedReason; detail: string }>
    /** `true` when it ran, at least one tool exists and no tool is blocked. */
    readonly ok: boolean
    /** DPT-003…DPT-008, DPT-010…DPT-016 findings about the API and the tests, with pointers into `main`. */
    readonly findings: Issue[]
    /** Input problems (DPT-001, DPT-002, DPT-009); a failing API is a finding, not an error. */
    readonly errors: Issue[]
}

/** Arguments of {@link DataPretest.run}. */
export interface PretestInput {
    readonly main: unknown
    readonly http?: HttpPort | null
    readonly serverParams?: Readonly<Record<string, string>>
    /** ISO-8601 time of the run (the core reads no clock). */
    readonly now: string
    readonly dryRun?: boolean
    readonly minWorkingTests?: number
    readonly parameterlessMinWorkingTests?: number
    readonly concurrency?: number
    readonly timeoutMs?: number
    readonly throttleMs?: number
    /** Waits `ms` milliseconds; required when `throttleMs > 0` (the core has no timers). */
    readonly sleep?: (ms: number) => Promise<void>
    /** Check `main.docs[]` URLs (HEAD, then GET on 405/501) for `Q-single-test-01`. Default `true`. */
    readonly checkDocs?: boolean
    /** `SchemaCheck.validateMain` of this `main`, when the caller has it; computed otherwise. */
    readonly validation?: { readonly valid: boolean; readonly errors: readonly Issue[] } | null
    /** `KeyDomain.check` of this `main`, when the caller has it; computed otherwise. */
    readonly keyDomain?: KeyDomainResult | null
    /**
     * Reshapes a 200 response's data before the data and output-schema checks (e.g. a schema's postRequest handler).
     */
    readonly transform?: (input: { tool: string; data: unknown }) => unknown
    /**
     * The FlowMCP runtime: the tests of a schema that exports `handlers` (or of every tool, with
     * `runtimeTools: 'all'`) run through it instead of a plain request, with an `http` port or
     * without one (offline: the runtime is expected to have no network; a test that tried it
     * reports `networkNotGranted`, fails with DPT-021 and blocks its tool as `network-not-granted`).
     * Without it such tools are blocked (`handlers-need-runtime`).
     */
    readonly runtime?: RuntimePort | null
    /** Which tools go through the runtime: those of a schema exporting `handlers` (default), or all. */
    readonly runtimeTools?: 'handlers' | 'all'
    /** Whether the schema's source exports `handlers` (`readModuleSource(...).hasHandlers`). */
    readonly hasHandlers?: boolean
    /** The schema file, for the runtime to load it with its handlers; `null` when `main` came as an object. */
    readonly schemaPath?: string | null
}

/** Codes a failed test can carry in its `error` text. */
export const FAILURE_CODES = ['DPT-004', 'DPT-010', 'DPT-011', 'DPT-017', 'DPT-020', 'DPT-021'] as const
export type FailureCode = (typeof FAILURE_CODES)[number]

/** `CODE: message`, the error-string form the CLI surfaces (05 §1.6). */
export function coded(
    code:
        | FailureCode
        | 'DPT-009'
        | 'DPT-020'
        | 'DPT-007'
        | 'DPT-008'
        | 'DPT-012'
        | 'DPT-013'
        | 'DPT-016'
        | 'DPT-018'
        | 'DPT-019',
    message: string
): string {
    return `${code}: ${message}`
}

export function failureCodeOf(error: string): FailureCode {
    const code = error.slice(0, 7)
    return (FAILURE_CODES as readonly string[]).includes(code) ? (code as FailureCode) : 'DPT-004'
}
