// Stage "send": every job through its port (HTTP, the runtime, a docs HEAD), at most `concurrency` at a time, each
// outcome judged (working, data, size, shape) and every failure coded.
import { typeOfValue } from '../errors/issue.js'
import { redactSecretsDeep, redactSecretText } from '../prompts/redact.js'
import { isRecord, own } from '../schema/shape.js'
import { maskServerParams } from '../ports/fetch-bridge.js'
import { isMissingRecording } from '../ports/replay.js'
import type { RuntimePort } from '../ports/types.js'
import type { HttpRequest, HttpResponse } from './http.js'
import { checkAgainstSchema, isEmptyData, shapeOf, utf8Length } from './output-check.js'
import { coded, type TestRequestRecord, type TestVerdict, type PretestTestResult, type DocsCheck } from './types.js'
import type { PretestSettings } from './check.js'
import type { Job } from './plan.js'

// What a failed request's system error code means, and the next step; fetch (undici) puts the code on `cause`.
export const NETWORK_FAILURES: ReadonlyArray<readonly [RegExp, string]> = [
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
export function networkFailure(cause: unknown): string | null {
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

/** A port error turned into a short message: no URLs, no secrets, bounded length. */
export function portErrorText(cause: unknown, secrets: readonly string[]): string {
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

export function isResponse(value: unknown): value is HttpResponse {
    return (
        isRecord(value) &&
        typeof value.status === 'number' &&
        Number.isInteger(value.status) &&
        typeof value.body === 'string'
    )
}

/** Runs jobs with at most `concurrency` in flight, each start spaced by `throttleMs` through `sleep`. */
export async function runJobs<T>(
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

/** What sending a job needs: the schema, the ports and how to scrub what comes back. */
export interface JobEnv {
    readonly main: Record<string, unknown>
    readonly tools: unknown
    readonly settings: PretestSettings
}

/** One request through the HTTP port: its response, or a coded DPT-010/DPT-011 error. */
export async function send(
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
export async function judgeData(
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
export const NO_DATA = {
    hasData: false,
    working: false,
    responseBytes: null,
    shape: null,
    outputSchemaMatch: null
} as const

/** A runtime test that failed, with its coded error and verdict. */
export function runtimeFailed(
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
export function networkNotGrantedOf(outcome: Record<string, unknown>): string[] {
    const doors = outcome.networkNotGranted
    return Array.isArray(doors) ? doors.filter((d): d is string => typeof d === 'string') : []
}

/**
 * The runtime's own words for a required library it cannot load here (flowmcp-core's LibraryLoader: not installed in
 * any base), and Node's for a native addon that does not load on this machine.
 */
export const LIBRARY_NOT_LOADED =
    /\bLibrary "[^"]+" not resolvable\b|\blibrar(?:y|ies) not resolvable\b|\bERR_DLOPEN_FAILED\b/

/**
 * The shared lists the schema declares (`main.sharedLists[].ref`, comma-separated) when the runtime says it was given
 * no lists folder; null otherwise (none declared, or a runtime that has them or does not say).
 */
export function listsNotGiven(env: JobEnv): string | null {
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
export function reportedFailure(
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
export function runtimeDataBytes(data: unknown): number {
    try {
        return utf8Length(typeof data === 'string' ? data : (JSON.stringify(data) ?? ''))
    } catch {
        return 0
    }
}

/** One test through the FlowMCP runtime port: its verdict decides, as a 200 with data does for a request. */
export async function runThroughRuntime(
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
export function requestRecordsOf(value: unknown, serverParams: Readonly<Record<string, string>>): TestRequestRecord[] {
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
export async function checkDocsUrl(env: JobEnv, job: { testIndex: number; request: HttpRequest }): Promise<DocsCheck> {
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
export async function runTestRequest(
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
export function sendJobs(jobs: readonly Job[], env: JobEnv): Promise<Array<PretestTestResult | DocsCheck>> {
    const { concurrency, throttleMs, sleep } = env.settings
    return runJobs(jobs, concurrency, throttleMs, sleep, async (job): Promise<PretestTestResult | DocsCheck> => {
        if (job.kind === 'runtime') return runThroughRuntime(env, job)
        if (job.kind === 'docs') return checkDocsUrl(env, job)
        return runTestRequest(env, job)
    })
}
