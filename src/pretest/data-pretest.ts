import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isIsoDateTime } from '../time.js'
import { redactSecretsDeep, redactSecretText, secretForms } from '../prompts/redact.js'
import { checkKeyDomains, type KeyDomainResult } from '../schema/key-domain.js'
import {
    isParameterless,
    isRecord,
    keysOf,
    own,
    requiredServerParamsOf,
    serverParamsUsedBy,
    testInputKeys,
    testsOf,
    testSignature
} from '../schema/shape.js'
import { validateMain } from '../schema/validate-main.js'
import { maskServerParams } from '../ports/fetch-bridge.js'
import { isMissingRecording } from '../ports/replay.js'
import type { RuntimePort, RuntimeRequestRecord } from '../ports/types.js'
import type { HttpPort, HttpRequest, HttpResponse } from './http.js'
import { checkAgainstSchema, isEmptyData, shapeOf, utf8Length, type Shape } from './output-check.js'
import { buildRequest } from './request.js'

import {
    SEVERITY,
    BLOCKED_REASONS,
    fewerThanWorkingTests,
    MIN_WORKING_TESTS,
    type BlockedReason
} from '../model/constants.js'
import { guardStatics } from '../errors/guard.js'

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

/**
 * Why a tool cannot be graded, first match wins: never called (state-changing), key withheld, key
 * missing, no tests, fewer buildable tests than the bar (certain before anything is sent, so offline
 * too), then, once the tests ran, fewer working tests than the bar. `detail` names the cause.
 */
function blockerOf(
    meta: {
        cls: ToolClass
        missing: readonly string[]
        withheld: readonly string[]
        parameterless: boolean
        distinct: number
        unbuildable: ReadonlyArray<{ index: number; detail: string }>
        runtime: 'needed' | 'used' | null
    },
    run: {
        ran: boolean
        working: number
        bar: number
        invalid: string | null
        notGranted: number
        failed: readonly PretestTestResult[]
    }
): { reason: BlockedReason; detail: string } | null {
    const names = (list: readonly string[]): string => list.join(', ')
    if (run.invalid !== null) return { reason: BLOCKED_REASONS.invalidSchema, detail: run.invalid }
    if (meta.cls === 'state-changing')
        return {
            reason: BLOCKED_REASONS.stateChanging,
            detail: 'the tool changes state (PUT/DELETE or meta says so); graders never call it'
        }
    if (meta.cls === 'withheld')
        return {
            reason: BLOCKED_REASONS.keyDomainMismatch,
            detail:
                `the key ${names(meta.withheld)} is not sent to this host (its name belongs to another company's ` +
                `domain)`
        }
    if (meta.cls === 'key-gated')
        return {
            reason: BLOCKED_REASONS.keyGated,
            detail:
                `not tested: set ${names(meta.missing)} (required server ` +
                `param${meta.missing.length > 1 ? 's' : ''} of the schema) to test it`
        }
    if (meta.cls === 'needs-tests')
        return {
            reason: BLOCKED_REASONS.noTests,
            detail: 'the tool declares no tests; add at least one test to main.tools.<tool>.tests'
        }
    if (meta.runtime === 'needed')
        return {
            reason: BLOCKED_REASONS.handlersNeedRuntime,
            detail:
                'not tested: the schema exports handlers, which the FlowMCP runtime runs on every call of this ' +
                'tool; pass a runtime (options.runtime, CLI --runtime <flowmcp-core folder>) to test it as the ' +
                'runtime runs it'
        }
    const buildable = meta.distinct - meta.unbuildable.length
    if (meta.unbuildable.length > 0 && buildable < run.bar) {
        // One line per distinct cause, naming its tests: the same undeclared param on every test is said once.
        const byCause = new Map<string, number[]>()
        for (const u of meta.unbuildable) byCause.set(u.detail, [...(byCause.get(u.detail) ?? []), u.index])
        const causes = [...byCause.entries()].map(
            ([detail, tests]) => `${tests.length > 1 ? 'tests' : 'test'} ${tests.join(', ')}: ${detail}`
        )
        return {
            reason: BLOCKED_REASONS.unbuildableTests,
            detail:
                `only ${buildable} of ${meta.distinct} distinct tests can be built, ${run.bar} needed ` +
                `(${causes.join('; ')})`
        }
    }
    // A tool is graded only on tests that ran: offline or in a dry run nothing says it works.
    if (!run.ran) return { reason: BLOCKED_REASONS.untested, detail: UNTESTED_DETAIL }
    if (run.working < run.bar && run.notGranted > 0) {
        return {
            reason: BLOCKED_REASONS.networkNotGranted,
            detail:
                `not tested: ${run.notGranted} of its tests tried the network, which the runtime child is not ` +
                `granted offline (nor under --recordings, beyond fetch answered from the recordings); pass --live ` +
                `to test it against its API, or --recordings <dir> with recordings of its requests`
        }
    }
    const environment = environmentBlocker(run)
    if (environment !== null) return environment
    if (run.working < run.bar)
        return meta.parameterless
            ? {
                  reason: BLOCKED_REASONS.noWorkingTest,
                  detail: `the test did not return data${notWorkingDetail(run.failed)}`
              }
            : {
                  reason: fewerThanWorkingTests(run.bar),
                  detail:
                      `${run.working} of ${meta.distinct} distinct tests returned data, ${run.bar} ` +
                      `needed${notWorkingDetail(run.failed)}`
              }
    return null
}

/**
 * The test verdicts of the environment, in the order they name a blocked tool's reason: a library that does not load
 * fails every test, shared lists not given fail every handler that reads them, a missing recording one request.
 */
const ENVIRONMENT_VERDICTS: ReadonlyArray<readonly [TestVerdict, BlockedReason]> = [
    ['library-not-installed', BLOCKED_REASONS.libraryNotInstalled],
    ['shared-lists-not-given', BLOCKED_REASONS.sharedListsNotGiven],
    ['missing-recording', BLOCKED_REASONS.missingRecording]
]

/**
 * A tool below its bar only because of where it ran: had its tests that failed for the environment (a missing
 * recording, no shared lists, a library not installed) worked, it would have reached the bar. Null when its own
 * failures keep it below the bar anyway (then it is blocked for its working count, its detail naming every test).
 */
function environmentBlocker(run: {
    working: number
    bar: number
    failed: readonly PretestTestResult[]
}): { reason: BlockedReason; detail: string } | null {
    if (run.working >= run.bar) return null
    const held = run.failed.filter((r) => ENVIRONMENT_VERDICTS.some(([v]) => v === r.verdict))
    if (held.length === 0 || run.working + held.length < run.bar) return null
    const [verdict, reason] = ENVIRONMENT_VERDICTS.find(([v]) => held.some((r) => r.verdict === v)) as [
        TestVerdict,
        BlockedReason
    ]
    const first = held.find((r) => r.verdict === verdict) as PretestTestResult
    const count = `${run.working} of its tests returned data, ${run.bar} needed`
    if (reason === BLOCKED_REASONS.missingRecording) {
        const lacking = `the recordings lack requests of ${held.length} of its tests (${count})`
        return { reason, detail: `not tested here: ${lacking}; ${RECORD_HINT}${notWorkingDetail(run.failed)}` }
    }
    const said = `test ${first.testIndex}: ${(first.error ?? '').replace(/^DPT-\d{3}: /, '')}`
    const why = reason === BLOCKED_REASONS.sharedListsNotGiven ? LISTS_HINT : LIBRARY_HINT
    return { reason, detail: `not tested here: ${why} (${count}; ${said})` }
}

/** What to do about a tool below its bar for missing recordings. */
const RECORD_HINT = 'record them (grade --live --record <dir>) to test it'
/** What to do about a tool whose handlers need the shared lists. */
const LISTS_HINT = 'the schema declares shared lists, the runtime has none; pass --runtime-lists <folder> (listsDir)'
/** What to do about a tool whose library is not installed. */
const LIBRARY_HINT = 'a library the schema requires is not installed here; install it in the --runtime-libraries folder'

/** Most failed tests a blocked tool's detail names one by one; the rest are counted. */
const FAILED_TESTS_NAMED = 5

/**
 * The sent tests that did not return data, named with why (`; not working: test 1: the recordings
 * lack GET …; test 2: http-error (HTTP 500)`), so a tool below its bar says which tests to look at and
 * whether a recording is missing. Empty when none failed.
 */
function notWorkingDetail(failed: readonly PretestTestResult[]): string {
    if (failed.length === 0) return ''
    const named = failed.slice(0, FAILED_TESTS_NAMED).map((r) => {
        const missing = (r.requests ?? []).find((q) => q.missingRecording)
        if (missing !== undefined)
            return (
                `test ${r.testIndex}: the recordings lack ${missing.method} ` +
                `${missing.url.length > 300 ? `${missing.url.slice(0, 297)}...` : missing.url} (re-record it)`
            )
        return (
            `test ${r.testIndex}: ` +
            `${r.verdict ?? 'failed'}${r.httpStatus !== null && r.httpStatus !== 200 ? ` (HTTP ${r.httpStatus})` : ''}`
        )
    })
    const more = failed.length > FAILED_TESTS_NAMED ? `; and ${failed.length - FAILED_TESTS_NAMED} more` : ''
    return `; not working: ${named.join('; ')}${more}`
}

/** How to get an untested tool tested, in words (the CLI flags and the library options). */
export const UNTESTED_DETAIL =
    'not tested: its tests did not run, so nothing shows the tool works; run them live (CLI --live, ' +
    'options.http) or from recorded responses (CLI --recordings <dir>, a replay HTTP port) to grade it'

/** Why the runtime would refuse the schema: every error-level structural finding, with its place. */
function invalidDetail(structural: readonly Issue[]): string {
    const listed = structural.map((i) => `${i.code} at ${i.path === '' ? '/' : i.path}: ${i.message}`)
    return (
        `the FlowMCP runtime refuses this schema (${structural.length} structural ` +
        `error${structural.length === 1 ? '' : 's'}): ${listed.join('; ')}. Fix ` +
        `${structural.length === 1 ? 'it' : 'them'} and grade again`
    )
}

type Job =
    | {
          readonly kind: 'test' | 'docs'
          readonly tool: string
          readonly testIndex: number
          readonly request: HttpRequest
      }
    | {
          readonly kind: 'runtime'
          readonly tool: string
          readonly testIndex: number
          readonly userParams: Readonly<Record<string, unknown>>
      }

/** A test's user parameters for the runtime: every key but `_description`, values as written. */
function userParamsOf(test: unknown): Record<string, unknown> {
    return Object.fromEntries(testInputKeys(test).map((k) => [k, own(test, k)]))
}

/** Codes a failed test can carry in its `error` text. */
const FAILURE_CODES = ['DPT-004', 'DPT-010', 'DPT-011', 'DPT-017', 'DPT-020', 'DPT-021'] as const
type FailureCode = (typeof FAILURE_CODES)[number]

/** `CODE: message`, the error-string form the CLI surfaces (05 §1.6). */
function coded(
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

function failureCodeOf(error: string): FailureCode {
    const code = error.slice(0, 7)
    return (FAILURE_CODES as readonly string[]).includes(code) ? (code as FailureCode) : 'DPT-004'
}

/** A port error turned into a short message: no URLs, no secrets, bounded length. */
// What a failed request's system error code means, and the next step; fetch (undici) puts the code on `cause`.
const NETWORK_FAILURES: ReadonlyArray<readonly [RegExp, string]> = [
    [/^(?:ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, 'DNS: the host name did not resolve; check the host in root'],
    [
        /^ECONNREFUSED$/,
        'connection refused: nothing answers at that host and port; check the port, or whether the API is up'
    ],
    [
        /^(?:ECONNRESET|EPIPE|UND_ERR_SOCKET)$/,
        'connection reset by the server; try again, or check for a proxy in the way'
    ],
    [
        /^(?:ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/,
        'timed out: the API did not answer in time; try again, or check the network'
    ],
    [
        /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(?:VERIFY|GET)/,
        'TLS certificate not trusted here; behind a proxy that inspects TLS, give Node its CA with NODE_EXTRA_CA_CERTS'
    ]
]

/** The named network failure behind a rejected request (`DNS: …`, `connection refused: …`), or null. */
function networkFailure(cause: unknown): string | null {
    const codes: string[] = []
    let at: unknown = cause
    // The error, then its causes (fetch's TypeError holds the system error), at most a few levels down.
    for (let depth = 0; depth < 4 && at !== null && typeof at === 'object'; depth += 1) {
        const code = (at as { code?: unknown }).code
        const name = (at as { name?: unknown }).name
        if (typeof code === 'string') codes.push(code)
        if (name === 'TimeoutError') codes.push('ETIMEDOUT')
        at = (at as { cause?: unknown }).cause
    }
    for (const code of codes) {
        const found = NETWORK_FAILURES.find(([pattern]) => pattern.test(code))
        if (found !== undefined) return `${found[1]} (${code})`
    }
    return null
}

function portErrorText(cause: unknown, secrets: readonly string[]): string {
    let named: string | null = null
    try {
        named = networkFailure(cause)
    } catch {
        named = null
    }
    if (named !== null) return named

    let name = 'Error'
    let message = ''
    try {
        if (cause instanceof Error) {
            name = cause.name
            message = cause.message
        } else {
            message = typeof cause === 'string' ? cause : typeOfValue(cause)
        }
    } catch {
        message = 'unreadable error'
    }
    const cleaned = redactSecretText(String(message), secrets).replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
    const text = `${redactSecretText(String(name), secrets)}: ${cleaned}`
    return text.length > 200 ? `${text.slice(0, 197)}...` : text
}

function isResponse(value: unknown): value is HttpResponse {
    return (
        isRecord(value) &&
        typeof value.status === 'number' &&
        Number.isInteger(value.status) &&
        typeof value.body === 'string'
    )
}

/** The counts and durations: whole numbers (throttleMs may be 0), concurrency at most the cap. */
function checkCountOptions(input: Record<string, unknown>, errors: Issue[]): void {
    const positiveInt = (field: string, allowZero: boolean): void => {
        const v = input[field]
        if (v === undefined) return
        if (typeof v !== 'number' || !Number.isInteger(v) || v < (allowZero ? 0 : 1)) {
            errors.push(
                createIssue('DPT-002', `/${field}`, {
                    field,
                    expected: allowZero ? 'integer >= 0' : 'integer >= 1',
                    actual: describeValue(v)
                })
            )
        }
    }
    positiveInt('minWorkingTests', false)
    positiveInt('parameterlessMinWorkingTests', false)
    positiveInt('concurrency', false)
    positiveInt('timeoutMs', false)
    positiveInt('throttleMs', true)
    if (typeof input.concurrency === 'number' && input.concurrency > PRETEST_DEFAULTS.maxConcurrency) {
        errors.push(
            createIssue('DPT-002', '/concurrency', {
                field: 'concurrency',
                expected: `integer 1..${PRETEST_DEFAULTS.maxConcurrency}`,
                actual: describeValue(input.concurrency)
            })
        )
    }
}

/** `now` (required), the boolean flags and the two callbacks. */
function checkNowFlagsAndCallbacks(input: Record<string, unknown>, errors: Issue[]): void {
    if (input.now === undefined) errors.push(createIssue('DPT-001', '/now', { field: 'now' }))
    else if (!isIsoDateTime(input.now))
        errors.push(
            createIssue('DPT-002', '/now', {
                field: 'now',
                expected: 'ISO-8601 date-time',
                actual: describeValue(input.now)
            })
        )
    for (const field of ['dryRun', 'checkDocs'] as const) {
        if (input[field] !== undefined && typeof input[field] !== 'boolean')
            errors.push(
                createIssue('DPT-002', `/${field}`, { field, expected: 'boolean', actual: typeOfValue(input[field]) })
            )
    }
    for (const field of ['sleep', 'transform'] as const) {
        if (input[field] !== undefined && typeof input[field] !== 'function')
            errors.push(
                createIssue('DPT-002', `/${field}`, { field, expected: 'function', actual: typeOfValue(input[field]) })
            )
    }
}

/** The HTTP port (absent or null means no live calls) and the server params, each value a string. */
function checkHttpAndServerParams(input: Record<string, unknown>, errors: Issue[]): void {
    const http = input.http
    if (http !== undefined && http !== null) {
        if (typeof http !== 'object' && typeof http !== 'function')
            errors.push(
                createIssue('DPT-002', '/http', { field: 'http', expected: 'HttpPort', actual: typeOfValue(http) })
            )
        else if (typeof (http as { send?: unknown }).send !== 'function')
            errors.push(
                createIssue('DPT-002', '/http/send', {
                    field: 'http.send',
                    expected: 'function',
                    actual: typeOfValue((http as { send?: unknown }).send)
                })
            )
    }
    const serverParams = input.serverParams
    if (serverParams !== undefined && !isRecord(serverParams)) {
        errors.push(
            createIssue('DPT-002', '/serverParams', {
                field: 'serverParams',
                expected: 'object of strings',
                actual: typeOfValue(serverParams)
            })
        )
    } else if (isRecord(serverParams)) {
        for (const key of Object.keys(serverParams)) {
            if (typeof serverParams[key] !== 'string')
                errors.push(
                    createIssue('DPT-002', pointer('serverParams', key), {
                        field: `serverParams.${key}`,
                        expected: 'string',
                        actual: typeOfValue(serverParams[key])
                    })
                )
        }
    }
}

/** Every option, always in this order so the error list is stable; a throttle needs a sleep to wait with. */
function checkOptions(input: Record<string, unknown>): { errors: Issue[] } {
    const errors: Issue[] = []
    checkCountOptions(input, errors)
    checkNowFlagsAndCallbacks(input, errors)
    checkHttpAndServerParams(input, errors)
    if (typeof input.throttleMs === 'number' && input.throttleMs > 0 && typeof input.sleep !== 'function') {
        errors.push(createIssue('DPT-001', '/sleep', { field: 'sleep (required when throttleMs > 0)' }))
    }
    return { errors }
}

function emptyResult(
    reason: PretestResult['reason'],
    minWorkingTests: number,
    errors: Issue[],
    now: unknown
): PretestResult {
    return {
        ran: false,
        reason,
        dryRun: false,
        checkedAt: typeof now === 'string' && isIsoDateTime(now) ? now : null,
        minWorkingTests,
        results: [],
        tools: {},
        docs: [],
        blocked: [],
        ok: false,
        findings: [],
        errors
    }
}

/** Runs jobs with at most `concurrency` in flight, each start spaced by `throttleMs` through `sleep`. */
async function runJobs<T>(
    jobs: readonly Job[],
    concurrency: number,
    throttleMs: number,
    sleep: ((ms: number) => Promise<void>) | undefined,
    work: (job: Job) => Promise<T>
): Promise<T[]> {
    const results: T[] = new Array<T>(jobs.length)
    let next = 0
    let gate: Promise<void> = Promise.resolve()
    let started = 0
    const acquire = async (): Promise<void> => {
        if (throttleMs <= 0 || sleep === undefined) return
        const mine = started
        started += 1
        if (mine === 0) return
        gate = gate.then(async () => {
            try {
                await sleep(throttleMs)
            } catch {
                // A failing sleep only loses the spacing; the run goes on.
            }
        })
        await gate
    }
    const worker = async (): Promise<void> => {
        while (next < jobs.length) {
            const index = next
            next += 1
            await acquire()
            results[index] = await work(jobs[index] as Job)
        }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, () => worker()))
    return results
}

/** What the planning stage knows of one tool: its class, keys, tests and how they run. */
interface ToolMeta {
    readonly cls: ToolClass
    readonly missing: string[]
    readonly withheld: string[]
    readonly parameterless: boolean
    readonly total: number
    readonly distinct: number
    readonly unbuildable: Array<{ index: number; detail: string }>
    readonly runtime: 'needed' | 'used' | null
}

/** The run's settings, read once from the checked input (defaults filled in). */
interface PretestSettings {
    readonly now: string
    readonly serverParams: Readonly<Record<string, string>>
    readonly secrets: readonly string[]
    readonly http: HttpPort | null
    readonly dryRun: boolean
    readonly parameterlessBar: number
    readonly concurrency: number
    readonly timeoutMs: number
    readonly throttleMs: number
    readonly sleep: ((ms: number) => Promise<void>) | undefined
    readonly transform: PretestInput['transform']
    readonly checkDocs: boolean
    readonly runtime: RuntimePort | null
    readonly runtimeFor: 'all' | 'handlers' | 'none'
    readonly schemaPath: string | null
}

/** The input once checked: its fields, `main` as an object and the working-test bar. */
interface CheckedInput {
    readonly args: Record<string, unknown>
    readonly main: Record<string, unknown>
    readonly minWorkingTests: number
}

/** Stage "check input": the arguments as read, or the result that ends the run (DPT-001, DPT-002). */
function checkInput(input: unknown): { checked: CheckedInput; early: null } | { checked: null; early: PretestResult } {
    if (!isRecord(input) && !(typeof input === 'object' && input !== null)) {
        return {
            checked: null,
            early: emptyResult(
                'invalid-input',
                MIN_WORKING_TESTS,
                [createIssue('DPT-002', '', { field: 'input', expected: 'object', actual: typeOfValue(input) })],
                undefined
            )
        }
    }
    const args = input as Record<string, unknown>
    const minWorkingTests =
        typeof args.minWorkingTests === 'number' && Number.isInteger(args.minWorkingTests) && args.minWorkingTests >= 1
            ? args.minWorkingTests
            : MIN_WORKING_TESTS
    const main = args.main
    const optionErrors = checkOptions(args).errors
    if (main === undefined) optionErrors.unshift(createIssue('DPT-001', '/main', { field: 'main' }))
    else if (!isRecord(main))
        optionErrors.unshift(
            createIssue('DPT-002', '/main', { field: 'main', expected: 'object', actual: typeOfValue(main) })
        )
    if (optionErrors.length > 0)
        return { checked: null, early: emptyResult('invalid-input', minWorkingTests, optionErrors, args.now) }
    return { checked: { args, main: main as Record<string, unknown>, minWorkingTests }, early: null }
}

/**
 * Stage "structure": why the runtime would refuse the schema (`invalid`, null when it would not) and its DPT-009 error.
 */
function structuralOf(
    args: Record<string, unknown>,
    main: Record<string, unknown>
): { invalid: string | null; structuralErrors: Issue[] } {
    // A caller that validated `main` already (gradeSingleSchema) passes the result: nothing is computed twice.
    const given =
        isRecord(args.validation) && Array.isArray(args.validation.errors) ? (args.validation.errors as Issue[]) : null
    const structural = (given ?? validateMain(main)).filter((i) => i.severity === SEVERITY.error)
    // A schema the runtime would refuse is never tested or graded, but its tools are still classified
    // (keys, handlers, tests), so damage elsewhere never hides why a tool could not be tested.
    const invalid = structural.length > 0 ? invalidDetail(structural) : null
    const structuralErrors =
        structural.length > 0
            ? [
                  createIssue('DPT-009', '/main', {
                      detail:
                          `${structural.length} structural error(s), first ${structural[0]?.code ?? ''} at ` +
                          `${structural[0]?.path ?? ''}`
                  })
              ]
            : []
    return { invalid, structuralErrors }
}

/** Stage "settings": every option with its default. */
function settingsOf(args: Record<string, unknown>): PretestSettings {
    const serverParams = (isRecord(args.serverParams) ? args.serverParams : {}) as Readonly<Record<string, string>>
    return {
        now: args.now as string,
        serverParams,
        // Every value the host gave, however short, is erased at any depth of what the pretest keeps. A placeholder
        // given for a key (a replay without it) is no secret (secretForms skips it): request records keep it as
        // recordings do.
        secrets: secretForms(serverParams, 1),
        http: (args.http ?? null) as HttpPort | null,
        dryRun: args.dryRun === true,
        parameterlessBar:
            typeof args.parameterlessMinWorkingTests === 'number'
                ? args.parameterlessMinWorkingTests
                : PARAMETERLESS_MIN_WORKING_TESTS,
        concurrency: typeof args.concurrency === 'number' ? args.concurrency : PRETEST_DEFAULTS.concurrency,
        timeoutMs: typeof args.timeoutMs === 'number' ? args.timeoutMs : PRETEST_DEFAULTS.timeoutMs,
        throttleMs: typeof args.throttleMs === 'number' ? args.throttleMs : PRETEST_DEFAULTS.throttleMs,
        sleep: typeof args.sleep === 'function' ? (args.sleep as (ms: number) => Promise<void>) : undefined,
        transform: typeof args.transform === 'function' ? (args.transform as PretestInput['transform']) : undefined,
        checkDocs: args.checkDocs !== false,
        runtime:
            isRecord(args.runtime) && typeof (args.runtime as { run?: unknown }).run === 'function'
                ? (args.runtime as unknown as RuntimePort)
                : null,
        runtimeFor: args.runtimeTools === 'all' ? 'all' : args.hasHandlers === true ? 'handlers' : 'none',
        schemaPath: typeof args.schemaPath === 'string' ? args.schemaPath : null
    }
}

/** The plan of a run: every test as it would go (`planned`) or why it will not, the jobs to send, each tool's meta. */
interface TestPlan {
    /** `main.tools`, read once. */
    readonly tools: unknown
    readonly toolNames: string[]
    readonly toolMeta: Map<string, ToolMeta>
    readonly planned: PretestTestResult[]
    readonly jobs: Job[]
    readonly findings: Issue[]
}

/** What classifying a tool needs besides the tool: the schema's keys and the run's settings. */
interface ClassifyScope {
    readonly main: Record<string, unknown>
    readonly settings: PretestSettings
    readonly declaredParams: readonly string[]
    readonly mismatched: ReadonlySet<string>
    readonly findings: Issue[]
}

/** A tool once classified: its class, the keys it lacks or withholds, and whether the runtime runs its tests. */
interface ToolClassification {
    readonly cls: ToolClass
    readonly missing: string[]
    readonly withheld: string[]
    readonly parameterless: boolean
    readonly viaRuntime: boolean
}

/** Stage "classify": a tool's class, with its DPT-019/013/007/005/015/006/020 findings in that order. */
function classifyTool(name: string, tool: unknown, testCount: number, scope: ClassifyScope): ToolClassification {
    const { main, settings, findings } = scope
    const parameterless = isParameterless(tool)
    const used = serverParamsUsedBy(main, tool)
    // An undeclared one is not a key the host could give: such tests are reported unbuildable (DPT-012).
    const missing = used
        .filter((p) => scope.declaredParams.includes(p) && !Object.hasOwn(settings.serverParams, p))
        .sort()
    const withheld = used.filter((p) => scope.mismatched.has(p)).sort()
    const method = own(tool, 'method')
    const meta = own(tool, 'meta')
    // 02 §2.1: graders make read-only calls only. PUT/DELETE, or a tool that says it is destructive, is never called.
    const stateChanging =
        method === 'PUT' ||
        method === 'DELETE' ||
        own(meta, 'isDestructive') === true ||
        own(meta, 'isReadOnly') === false
    const cls: ToolClass = stateChanging
        ? 'state-changing'
        : withheld.length > 0
          ? 'withheld'
          : missing.length > 0
            ? 'key-gated'
            : testCount === 0
              ? 'needs-tests'
              : parameterless
                ? 'parameterless'
                : 'normal'
    const base = pointer('tools', name)
    if (cls === 'state-changing')
        findings.push(createIssue('DPT-019', base, { tool: name, method: describeValue(method) }))
    if (cls === 'withheld') findings.push(createIssue('DPT-013', base, { tool: name, params: withheld.join(', ') }))
    if (cls === 'key-gated') {
        findings.push(createIssue('DPT-007', base, { tool: name, params: missing.join(', ') }))
        for (const p of missing) findings.push(createIssue('DPT-005', base, { param: p }))
    }
    if (cls === 'needs-tests') findings.push(createIssue('DPT-015', `${base}/tests`, { tool: name }))
    if (cls === 'parameterless')
        findings.push(createIssue('DPT-006', base, { tool: name, bar: settings.parameterlessBar }))
    // The runtime runs this tool's handlers on every call: a plain request would test something else.
    const viaRuntime = settings.runtimeFor !== 'none' && (cls === 'normal' || cls === 'parameterless')
    if (viaRuntime && settings.runtime === null)
        findings.push(
            createIssue('DPT-020', base, {
                tool: name,
                detail: 'the schema exports handlers; pass a runtime to run its tests'
            })
        )
    return { cls, missing, withheld, parameterless, viaRuntime }
}

/** Why a distinct test of a tool is not sent, as its planned status and coded error; null when it may be sent. */
function heldBack(
    c: ToolClassification,
    invalid: string | null,
    runtime: RuntimePort | null
): { status: TestStatus; error: string } | null {
    if (c.cls === 'state-changing')
        return { status: 'not-sent', error: coded('DPT-019', 'state-changing tool, not called') }
    if (c.cls === 'withheld')
        return {
            status: 'withheld',
            error: coded('DPT-013', `key withheld (api-key-domain-mismatch): ${c.withheld.join(', ')}`)
        }
    if (c.cls === 'key-gated')
        return { status: 'key-gated', error: coded('DPT-007', `missing server param ${c.missing.join(', ')}`) }
    if (invalid !== null)
        return { status: 'not-sent', error: coded('DPT-009', 'the schema has structural errors: nothing is sent') }
    if (c.viaRuntime && runtime === null)
        return {
            status: 'not-sent',
            error: coded('DPT-020', 'the schema exports handlers: this test runs only through the FlowMCP runtime')
        }
    return null
}

/**
 * Stage "plan tests": each test of one tool planned (duplicates, held back, unbuildable) and the jobs to send, in test
 * order.
 */
function planToolTests(
    name: string,
    tool: unknown,
    tests: readonly unknown[],
    c: ToolClassification,
    scope: ClassifyScope,
    invalid: string | null,
    out: { planned: PretestTestResult[]; jobs: Job[] }
): { distinct: number; unbuildable: Array<{ index: number; detail: string }> } {
    const { main, settings, findings } = scope
    const base = pointer('tools', name)
    const seen = new Map<string, number>()
    let distinct = 0
    const unbuildable: Array<{ index: number; detail: string }> = []
    tests.forEach((test, testIndex) => {
        const signature = testSignature(test)
        const first = seen.get(signature)
        // Built as one literal (same key order as a spread of the common fields): one object per test, not two.
        const stub = (status: TestStatus, error: string | null): PretestTestResult => ({
            tool: name,
            testIndex,
            httpStatus: null,
            hasData: false,
            working: false,
            responseBytes: null,
            shape: null,
            outputSchemaMatch: null,
            status,
            error
        })
        if (first !== undefined) {
            findings.push(createIssue('DPT-008', `${base}/tests/${testIndex}`, { tool: name, index: testIndex, first }))
            out.planned.push(stub('duplicate', coded('DPT-008', `duplicate of test ${first}`)))
            return
        }
        seen.set(signature, testIndex)
        distinct += 1
        const held = heldBack(c, invalid, settings.runtime)
        if (held !== null) {
            out.planned.push(stub(held.status, held.error))
            return
        }
        if (c.viaRuntime) {
            out.planned.push(stub('planned', null))
            out.jobs.push({ kind: 'runtime', tool: name, testIndex, userParams: userParamsOf(test) })
            return
        }
        const built = buildRequest(main, tool, test, settings.serverParams, settings.timeoutMs)
        if (built.request === null) {
            const detail =
                built.problems.length > 0
                    ? built.problems.join('; ')
                    : `missing server param ${built.missingServerParams.join(', ')}`
            findings.push(
                createIssue('DPT-012', `${base}/tests/${testIndex}`, { tool: name, index: testIndex, detail })
            )
            unbuildable.push({ index: testIndex, detail })
            out.planned.push(stub('unbuildable', coded('DPT-012', detail)))
            return
        }
        out.planned.push(stub('planned', null))
        out.jobs.push({ kind: 'test', tool: name, testIndex, request: built.request })
    })
    return { distinct, unbuildable }
}

/** Stage "plan": every tool classified and its tests planned, then the docs checks (HEAD requests) queued. */
function planRun(
    main: Record<string, unknown>,
    args: Record<string, unknown>,
    settings: PretestSettings,
    invalid: string | null
): TestPlan {
    const tools = own(main, 'tools')
    const toolNames = keysOf(tools)
    const keyDomain =
        isRecord(args.keyDomain) && Array.isArray(args.keyDomain.mismatches)
            ? (args.keyDomain as unknown as KeyDomainResult)
            : checkKeyDomains(main)
    const scope: ClassifyScope = {
        main,
        settings,
        declaredParams: requiredServerParamsOf(main),
        mismatched: new Set(keyDomain.mismatches.map((m) => m.param)),
        findings: []
    }
    const out = { planned: [] as PretestTestResult[], jobs: [] as Job[] }
    const toolMeta = new Map<string, ToolMeta>()
    for (const name of toolNames) {
        const tool = own(tools, name)
        const tests = testsOf(tool)
        const c = classifyTool(name, tool, tests.length, scope)
        const { distinct, unbuildable } = planToolTests(name, tool, tests, c, scope, invalid, out)
        toolMeta.set(name, {
            cls: c.cls,
            missing: c.missing,
            withheld: c.withheld,
            parameterless: c.parameterless,
            total: tests.length,
            distinct,
            unbuildable,
            runtime: c.viaRuntime ? (settings.runtime === null ? 'needed' : 'used') : null
        })
    }
    const docsList = own(main, 'docs')
    const docsUrls: Array<[number, string]> = Array.isArray(docsList)
        ? docsList.flatMap((u, i) =>
              typeof u === 'string' && /^https?:\/\//i.test(u) ? [[i, u] as [number, string]] : []
          )
        : []
    if (settings.checkDocs) {
        for (const [index, url] of docsUrls)
            out.jobs.push({
                kind: 'docs',
                tool: '',
                testIndex: index,
                request: { url, method: 'HEAD', headers: {}, timeoutMs: settings.timeoutMs }
            })
    }
    return { tools, toolNames, toolMeta, planned: out.planned, jobs: out.jobs, findings: scope.findings }
}

/** What summarising needs: the plan, the bars, and whether only the runtime's tests ran. */
interface SummaryScope {
    readonly plan: TestPlan
    readonly minWorkingTests: number
    readonly parameterlessBar: number
    readonly invalid: string | null
    readonly offlineRuntime: boolean
}

/** One tool's summary row and its blocker (DPT-003 pushed for a tested tool below its bar). */
function summariseTool(
    name: string,
    results: readonly PretestTestResult[],
    ran: boolean,
    scope: SummaryScope,
    blocked: Array<{ tool: string; reason: BlockedReason; detail: string }>
): PretestToolSummary {
    const meta = scope.plan.toolMeta.get(name) as ToolMeta
    const mine = results.filter((r) => r.tool === name)
    const working = mine.filter((r) => r.working).length
    const bar = meta.parameterless ? scope.parameterlessBar : scope.minWorkingTests
    const matches = mine.filter((r) => r.working && r.outputSchemaMatch !== null).map((r) => r.outputSchemaMatch)
    const maxResponseBytes = Math.max(0, ...mine.map((r) => r.responseBytes ?? 0))
    const notGranted = mine.filter((r) => r.error?.startsWith('DPT-021')).length
    // Offline with a runtime only the runtime's tests ran: a tool tested by plain requests did not.
    const toolRan = ran && (!scope.offlineRuntime || meta.runtime === 'used')
    const blocker = blockerOf(meta, {
        ran: toolRan,
        working,
        bar,
        invalid: scope.invalid,
        notGranted,
        failed: mine.filter((r) => r.status === 'failed')
    })
    if (blocker !== null) {
        blocked.push({ tool: name, ...blocker })
        if (ran && (meta.cls === 'normal' || meta.cls === 'parameterless')) {
            scope.plan.findings.push(createIssue('DPT-003', pointer('tools', name), { tool: name, bar, working }))
        }
    }
    const reason = blocker?.reason ?? null
    return {
        class: meta.cls,
        total: meta.total,
        distinct: meta.distinct,
        working,
        bar,
        parameterless: meta.parameterless,
        blocked: reason !== null,
        reason,
        detail: blocker?.detail ?? null,
        missingServerParams: meta.missing,
        viaRuntime: meta.runtime !== null,
        outputSchemaMatch: matches.length === 0 ? null : matches.every((m) => m === true),
        maxResponseBytes,
        large: maxResponseBytes > RESPONSE_SIZE_LIMITS.large,
        extreme: maxResponseBytes > RESPONSE_SIZE_LIMITS.extreme
    }
}

/** Stage "summarise": every tool's row, the blocked tools and whether the whole pretest is ok. */
function summarise(
    results: readonly PretestTestResult[],
    ran: boolean,
    scope: SummaryScope
): Pick<PretestResult, 'tools' | 'blocked' | 'ok'> {
    const blocked: Array<{ tool: string; reason: BlockedReason; detail: string }> = []
    const entries = scope.plan.toolNames.map((name): [string, PretestToolSummary] => [
        name,
        summariseTool(name, results, ran, scope, blocked)
    ])
    return {
        tools: Object.fromEntries(entries),
        blocked,
        ok: ran && scope.plan.toolNames.length > 0 && blocked.length === 0
    }
}

/** What sending a job needs: the schema, the ports and how to scrub what comes back. */
interface JobEnv {
    readonly main: Record<string, unknown>
    readonly tools: unknown
    readonly settings: PretestSettings
}

/** One request through the HTTP port: its response, or a coded DPT-010/DPT-011 error. */
async function send(
    env: JobEnv,
    request: HttpRequest
): Promise<{ response: HttpResponse | null; error: string | null }> {
    const { http, secrets } = env.settings
    if (http === null) return { response: null, error: coded('DPT-010', 'no HTTP port') }
    try {
        const response: unknown = await http.send(request)
        if (!isResponse(response))
            return {
                response: null,
                error: coded(
                    'DPT-011',
                    `the HTTP port returned ${typeOfValue(response)} without an integer status and a string body`
                )
            }
        return { response, error: null }
    } catch (cause) {
        return { response: null, error: coded('DPT-010', portErrorText(cause, secrets)) }
    }
}

/**
 * Judges the data of one answered test (HTTP 200, or the runtime's success): present, its shape, its output-schema
 * verdict.
 */
async function judgeData(
    env: JobEnv,
    job: { tool: string; testIndex: number },
    raw: unknown,
    responseBytes: number,
    httpStatus: number | null,
    via: 'runtime' | null,
    requests: readonly TestRequestRecord[]
): Promise<PretestTestResult> {
    const { transform, secrets } = env.settings
    const tool = own(env.tools, job.tool)
    const output = own(tool, 'output')
    const mimeType = own(output, 'mimeType')
    let data = raw
    let transformError: string | null = null
    if (transform !== undefined) {
        try {
            data = await transform({ tool: job.tool, data })
        } catch (cause) {
            transformError = coded('DPT-017', portErrorText(cause, secrets))
        }
    }
    // Redact before anything is cut or summarised (response keys are shortened to 97 characters).
    data = redactSecretsDeep(data, secrets, Infinity)
    const hasData = transformError === null && !isEmptyData(data)
    const schema = own(output, 'schema')
    let outputSchemaMatch: boolean | null = null
    let mismatch: string | null = null
    if (hasData && isRecord(schema)) {
        const problems =
            mimeType === 'application/json' && typeof data === 'string'
                ? ['(root): response is not JSON']
                : checkAgainstSchema(schema, data)
        outputSchemaMatch = problems.length === 0
        if (!outputSchemaMatch) mismatch = problems.slice(0, 3).join('; ')
    }
    const errorText =
        transformError ??
        (hasData
            ? null
            : coded('DPT-004', via === 'runtime' ? 'the runtime returned no data' : 'HTTP 200 without data'))
    return {
        tool: job.tool,
        testIndex: job.testIndex,
        status: hasData ? 'passed' : 'failed',
        httpStatus,
        hasData,
        working: hasData,
        responseBytes,
        shape: typeof data === 'string' ? 'string' : shapeOf(data),
        outputSchemaMatch,
        error: errorText ?? (mismatch === null ? null : coded('DPT-018', `output schema mismatch: ${mismatch}`)),
        ...(via !== null ? { via } : {}),
        verdict: hasData
            ? 'working'
            : transformError !== null
              ? 'output-transform-failed'
              : requests.some((r) => r.missingRecording)
                ? 'missing-recording'
                : 'no-data',
        requests
    }
}

/** The fields of a test that produced no data: no size, shape or output-schema verdict. */
const NO_DATA = { hasData: false, working: false, responseBytes: null, shape: null, outputSchemaMatch: null } as const

/** A runtime test that failed, with its coded error and verdict. */
function runtimeFailed(
    job: { tool: string; testIndex: number },
    httpStatus: number | null,
    error: string,
    verdict: TestVerdict,
    requests: readonly TestRequestRecord[] = []
): PretestTestResult {
    const { tool, testIndex } = job
    return { tool, testIndex, status: 'failed', httpStatus, ...NO_DATA, error, via: 'runtime', verdict, requests }
}

/** The handler's calls the runtime refused (outside the granted network), as it reported them. */
function networkNotGrantedOf(outcome: Record<string, unknown>): string[] {
    const doors = outcome.networkNotGranted
    return Array.isArray(doors) ? doors.filter((d): d is string => typeof d === 'string') : []
}

/**
 * The runtime's own words for a required library it cannot load here (flowmcp-core's LibraryLoader: not installed in
 * any base), and Node's for a native addon that does not load on this machine.
 */
const LIBRARY_NOT_LOADED = /\bLibrary "[^"]+" not resolvable\b|\blibrar(?:y|ies) not resolvable\b|\bERR_DLOPEN_FAILED\b/

/**
 * The shared lists the schema declares (`main.sharedLists[].ref`, comma-separated) when the runtime says it was given
 * no lists folder; null otherwise (none declared, or a runtime that has them or does not say).
 */
function listsNotGiven(env: JobEnv): string | null {
    if (env.settings.runtime?.hasLists !== false) return null
    const declared = own(env.main, 'sharedLists')
    if (!Array.isArray(declared) || declared.length === 0) return null
    const refs = declared.map((d) => own(d, 'ref')).filter((r): r is string => typeof r === 'string')
    return refs.length > 0 ? refs.join(', ') : 'of main.sharedLists'
}

/**
 * A failure the runtime reported: its first messages scrubbed and bounded; a missing recording, a library not
 * installed or shared lists not given decide the verdict.
 */
function reportedFailure(
    outcome: Record<string, unknown>,
    httpStatus: number | null,
    requests: readonly TestRequestRecord[],
    env: JobEnv
): { error: string; verdict: TestVerdict } {
    const given = outcome.messages
    const messages = Array.isArray(given) ? given.filter((m): m is string => typeof m === 'string') : []
    const redacted = redactSecretText(messages.slice(0, 3).join('; '), env.settings.secrets)
    const said = redacted.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
    const missing = requests.find((r) => r.missingRecording)
    const lists = listsNotGiven(env)
    const verdict: TestVerdict =
        missing !== undefined
            ? 'missing-recording'
            : LIBRARY_NOT_LOADED.test(messages.join('\n'))
              ? 'library-not-installed'
              : httpStatus !== null
                ? 'http-error'
                : lists !== null
                  ? 'shared-lists-not-given'
                  : 'handler-error'
    const detail =
        missing !== undefined
            ? `; the recordings lack ${missing.method} ${missing.url}`
            : verdict === 'shared-lists-not-given'
              ? `; the schema declares the shared lists ${lists} and the runtime was given none (--runtime-lists)`
              : ''
    const status = httpStatus !== null ? ` (HTTP ${httpStatus})` : ''
    const text = said.length > 300 ? `${said.slice(0, 297)}...` : said || 'no message'
    return { error: coded('DPT-020', `the runtime reported a failure${status}: ${text}${detail}`), verdict }
}

/** The size of the runtime's data in UTF-8 bytes (as JSON unless a string); 0 when it cannot be serialised. */
function runtimeDataBytes(data: unknown): number {
    try {
        return utf8Length(typeof data === 'string' ? data : (JSON.stringify(data) ?? ''))
    } catch {
        return 0
    }
}

/** One test through the FlowMCP runtime port: its verdict decides, as a 200 with data does for a request. */
async function runThroughRuntime(
    env: JobEnv,
    job: { tool: string; testIndex: number; userParams: Readonly<Record<string, unknown>> }
): Promise<PretestTestResult> {
    const { runtime, schemaPath, serverParams, timeoutMs, secrets } = env.settings
    let outcome: unknown
    try {
        outcome = await (runtime as RuntimePort).run({
            schemaPath,
            main: env.main as Readonly<Record<string, unknown>>,
            tool: job.tool,
            testIndex: job.testIndex,
            userParams: job.userParams,
            serverParams: { ...serverParams },
            timeoutMs
        })
    } catch (cause) {
        const error = coded('DPT-020', `the runtime port failed: ${portErrorText(cause, secrets)}`)
        return runtimeFailed(job, null, error, 'port-error')
    }
    if (!isRecord(outcome) || typeof outcome.ok !== 'boolean') {
        const error = coded('DPT-020', `the runtime port returned ${typeOfValue(outcome)} without a boolean ok`)
        return runtimeFailed(job, null, error, 'port-error')
    }
    const status = outcome.httpStatus
    const httpStatus = typeof status === 'number' && Number.isInteger(status) ? status : null
    const requests = requestRecordsOf(outcome.requests, serverParams)
    const doors = networkNotGrantedOf(outcome)
    if (doors.length > 0) {
        const more = doors.length > 3 ? ` and ${doors.length - 3} more` : ''
        const error = coded('DPT-021', `the handler tried ${doors.slice(0, 3).join(', ')}${more}`)
        return runtimeFailed(job, null, error, 'network-not-granted', requests)
    }
    if (outcome.ok !== true) {
        const { error, verdict } = reportedFailure(outcome, httpStatus, requests, env)
        return runtimeFailed(job, httpStatus, error, verdict, requests)
    }
    return judgeData(env, job, outcome.data, runtimeDataBytes(outcome.data), httpStatus, 'runtime', requests)
}

/**
 * The request records a runtime outcome carries, checked and with every key value masked again (a port may not have).
 */
function requestRecordsOf(value: unknown, serverParams: Readonly<Record<string, string>>): TestRequestRecord[] {
    if (!Array.isArray(value)) return []
    return value
        .filter(
            (r): r is Record<string, unknown> =>
                isRecord(r) && typeof r.method === 'string' && typeof r.url === 'string'
        )
        .slice(0, 20)
        .map((r) => ({
            method: (r.method as string).slice(0, 20),
            url: maskServerParams(r.url as string, serverParams).slice(0, 2000),
            status: typeof r.status === 'number' && Number.isInteger(r.status) ? r.status : null,
            missingRecording: r.missingRecording === true
        }))
}

/** One docs URL: HEAD, then GET when the server does not allow HEAD (405/501). */
async function checkDocsUrl(env: JobEnv, job: { testIndex: number; request: HttpRequest }): Promise<DocsCheck> {
    let { response, error } = await send(env, job.request)
    if (response !== null && (response.status === 405 || response.status === 501))
        ({ response, error } = await send(env, { ...job.request, method: 'GET' }))
    return {
        index: job.testIndex,
        reachable: response?.status === 200,
        httpStatus: response?.status ?? null,
        error:
            error ?? (response !== null && response.status !== 200 ? coded('DPT-016', `HTTP ${response.status}`) : null)
    }
}

/**
 * One test as a plain HTTP request: a non-200 fails it, a 200 body is parsed (JSON unless the tool says otherwise) and
 * judged.
 */
async function runTestRequest(
    env: JobEnv,
    job: { tool: string; testIndex: number; request: HttpRequest }
): Promise<PretestTestResult> {
    const base = { tool: job.tool, testIndex: job.testIndex }
    const { response, error } = await send(env, job.request)
    const record = {
        method: job.request.method.toUpperCase(),
        url: maskServerParams(job.request.url, env.settings.serverParams)
    }
    if (response === null) {
        return {
            ...base,
            status: 'failed',
            httpStatus: null,
            hasData: false,
            working: false,
            responseBytes: null,
            shape: null,
            outputSchemaMatch: null,
            error,
            verdict: 'port-error',
            requests: [{ ...record, status: null, missingRecording: false }]
        }
    }
    const responseBytes = utf8Length(response.body)
    const requests = [{ ...record, status: response.status, missingRecording: isMissingRecording(response) }]
    if (response.status !== 200) {
        const note =
            response.status === 401 || response.status === 403
                ? ' (authentication is never a pass)'
                : response.status === 429
                  ? ' (rate limited)'
                  : requests[0]?.missingRecording === true
                    ? ' (no recorded response for this request)'
                    : ''
        return {
            ...base,
            status: 'failed',
            httpStatus: response.status,
            hasData: false,
            working: false,
            responseBytes,
            shape: null,
            outputSchemaMatch: null,
            error: coded('DPT-004', `HTTP ${response.status}${note}`),
            verdict: requests[0]?.missingRecording === true ? 'missing-recording' : 'http-error',
            requests
        }
    }
    const mimeType = own(own(own(env.tools, job.tool), 'output'), 'mimeType')
    let data: unknown = response.body
    if (mimeType === undefined || mimeType === 'application/json') {
        try {
            data = JSON.parse(response.body) as unknown
        } catch {
            data = response.body
        }
    }
    return judgeData(env, job, data, responseBytes, 200, null, requests)
}

/** Stage "send": every job, at most `concurrency` at a time, each as its kind asks. */
function sendJobs(jobs: readonly Job[], env: JobEnv): Promise<Array<PretestTestResult | DocsCheck>> {
    const { concurrency, throttleMs, sleep } = env.settings
    return runJobs(jobs, concurrency, throttleMs, sleep, async (job): Promise<PretestTestResult | DocsCheck> => {
        if (job.kind === 'runtime') return runThroughRuntime(env, job)
        if (job.kind === 'docs') return checkDocsUrl(env, job)
        return runTestRequest(env, job)
    })
}

/** Stage "collect": the outcomes back in plan order, the docs checks apart, each failure as its finding. */
function collectOutcomes(
    jobs: readonly Job[],
    outcomes: ReadonlyArray<PretestTestResult | DocsCheck>,
    planned: readonly PretestTestResult[],
    findings: Issue[]
): { results: PretestTestResult[]; docs: DocsCheck[] } {
    const live = new Map<string, PretestTestResult>()
    const docs: DocsCheck[] = []
    outcomes.forEach((outcome, i) => {
        const job = jobs[i] as Job
        if (job.kind === 'docs') docs.push(outcome as DocsCheck)
        else live.set(`${job.tool}\u0000${job.testIndex}`, outcome as PretestTestResult)
    })
    const results = planned.map((p) => (p.status === 'planned' ? (live.get(`${p.tool}\u0000${p.testIndex}`) ?? p) : p))
    for (const r of results) {
        if (r.status === 'failed' && r.error !== null)
            findings.push(
                createIssue(failureCodeOf(r.error), pointer('tools', r.tool, 'tests', r.testIndex), {
                    tool: r.tool,
                    index: r.testIndex,
                    detail: r.error
                })
            )
        if (r.status === 'passed' && r.outputSchemaMatch === false)
            findings.push(
                createIssue('DPT-018', pointer('tools', r.tool, 'tests', r.testIndex), {
                    tool: r.tool,
                    index: r.testIndex
                })
            )
    }
    for (const d of docs) {
        if (!d.reachable)
            findings.push(
                createIssue('DPT-016', pointer('docs', d.index), { index: d.index, detail: d.error ?? 'unreachable' })
            )
    }
    return { results, docs }
}

/**
 * Runs each tool's `tests[]` against the live API through the host's {@link HttpPort}
 * (02 §2.1, 06 §19.5) and keeps only what grading needs. Never throws and never rejects: a port
 * that throws or answers garbage becomes a failed test with a coded reason.
 */
export async function runPretest(input: unknown): Promise<PretestResult> {
    const { checked, early } = checkInput(input)
    if (checked === null) return early
    const { args, main, minWorkingTests } = checked
    const { invalid, structuralErrors } = structuralOf(args, main)
    if (invalid !== null && !isRecord(own(main, 'tools')))
        return emptyResult('structural-validation-failed', minWorkingTests, structuralErrors, args.now)
    const settings = settingsOf(args)
    const { now, secrets, dryRun, http } = settings
    const plan = planRun(main, args, settings, invalid)
    const { findings, planned } = plan

    // Offline with a runtime, the runtime's tests still run: its child has no network, no HTTP port is
    // needed. Every test that could be sent is a runtime job then (the docs checks need HTTP: dropped).
    const offlineRuntime = invalid === null && !dryRun && http === null && plan.jobs.some((j) => j.kind === 'runtime')
    const scope: SummaryScope = {
        plan,
        minWorkingTests,
        parameterlessBar: settings.parameterlessBar,
        invalid,
        offlineRuntime
    }
    if (!offlineRuntime && (dryRun || http === null || invalid !== null)) {
        const reason = invalid !== null ? 'structural-validation-failed' : dryRun ? 'dry-run' : 'no-http-port'
        if (!dryRun && invalid === null) findings.push(createIssue('DPT-014', '/http'))
        const summary = summarise(planned, false, scope)
        return redactSecretsDeep(
            {
                ran: false,
                reason,
                dryRun,
                checkedAt: now,
                minWorkingTests,
                results: planned,
                ...summary,
                docs: [],
                findings,
                errors: structuralErrors
            },
            secrets,
            Infinity
        )
    }
    const jobs = offlineRuntime ? plan.jobs.filter((j) => j.kind === 'runtime') : plan.jobs
    const outcomes = await sendJobs(jobs, { main, tools: plan.tools, settings })
    const { results, docs } = collectOutcomes(jobs, outcomes, planned, findings)
    const summary = summarise(results, true, scope)
    return redactSecretsDeep(
        {
            ran: true,
            reason: null,
            dryRun: false,
            checkedAt: now,
            minWorkingTests,
            results,
            ...summary,
            docs,
            findings,
            errors: []
        },
        secrets,
        Infinity
    )
}

/**
 * The live data pretest (02 §2.1, 06 §19.5): runs each tool's tests through an injected
 * {@link HttpPort} and keeps only what grading needs — status, data present, working, size, a
 * type sketch, the output-schema verdict, and each test's requests (method, URL with every key
 * written `{{SERVER_PARAM:<KEY>}}`, status) with its verdict. Headers, key values and bodies are
 * never kept, and every string is scrubbed of `serverParams` values.
 */
export class DataPretest {
    private constructor() {}

    /**
     * Runs the pretest. Key-gated tools (a server param they use is absent) and tools whose key
     * fails the key-domain check are never called. A tool below its working-test bar (3, ⚠ B4;
     * 1 for a parameterless tool) is `blocked` with `fewer-than-3-working-tests`. Duplicate tests
     * (same inputs, `_description` ignored) count once. Without `http` nothing is sent
     * (`ran: false`, `reason: 'no-http-port'`); `dryRun` returns the plan.
     * @param input - `{ main, http, serverParams, now, dryRun, minWorkingTests = 3, concurrency = 4, timeoutMs = 15000,
     *   throttleMs = 0, sleep?, checkDocs = true, transform? }`
     * @returns `Promise<{ ran, reason, dryRun, checkedAt, minWorkingTests, results, tools, docs, blocked, ok, findings,
     *   errors }>`; never rejects. Errors DPT-001/DPT-002 (arguments), DPT-009 (structural); findings DPT-003…DPT-008,
     *   DPT-010…DPT-021.
     * @example
     * const result = await DataPretest.run({
     *     main,
     *     http,
     *     serverParams: { ETHERSCAN_API_KEY: key },
     *     now: '2026-05-29T10:00:00Z'
     * })
     */
    static async run(input: PretestInput): Promise<PretestResult> {
        try {
            return await runPretest(input)
        } catch {
            // Reached only through a bug or a hostile getter on the input; still no rejection.
            return emptyResult(
                'invalid-input',
                MIN_WORKING_TESTS,
                [
                    createIssue('DPT-002', '', {
                        field: 'input',
                        expected: 'readable plain object',
                        actual: 'unreadable value'
                    })
                ],
                undefined
            )
        }
    }

    // The public boundary, part of the class: it holds in any bundle that keeps the class (src/errors/guard.ts).
    static {
        guardStatics(DataPretest, 'DataPretest')
    }
}
