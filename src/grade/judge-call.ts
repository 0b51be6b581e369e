import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { redactMessage } from '../prompts/redact.js'
import type { AbortSignalLike, GradeOptionsBase, Judge, JudgeRequest } from './types.js'

/**
 * Defaults of a run's judge calls: two minutes per call (as the CLI's `--judge-timeout`), two further
 * tries, a second's backoff doubling, three failed units in a row stop the run's calls.
 */
export const JUDGE_CALL_DEFAULTS = Object.freeze({
    timeoutMs: 120_000,
    retries: 2,
    backoffMs: 1000,
    maxConsecutiveFailures: 3,
    maxBackoffMs: 60_000
})

/**
 * The pointer every judge-path issue of a unit is reported at: `/units/<unit>` (the unit id escaped,
 * `single-test~1getX`).
 */
export function unitPath(unit: string, ...rest: ReadonlyArray<string | number>): string {
    return pointer('units', unit, ...rest)
}

/** The judge options a call reads, as `GradeOptions` holds them. */
export type JudgeCallOptions = Pick<
    GradeOptionsBase,
    'judge' | 'judgeTimeoutMs' | 'judgeRetries' | 'judgeBackoffMs' | 'maxConsecutiveJudgeFailures' | 'signal' | 'sleep'
>

/** The judge options of an options object, and nothing else (the judge itself left to the caller). */
export function pickJudgeOptions(options: JudgeCallOptions): Omit<JudgeCallOptions, 'judge'> {
    const keys = [
        'judgeTimeoutMs',
        'judgeRetries',
        'judgeBackoffMs',
        'maxConsecutiveJudgeFailures',
        'signal',
        'sleep'
    ] as const
    return Object.fromEntries(keys.filter((k) => options[k] !== undefined).map((k) => [k, options[k]])) as Omit<
        JudgeCallOptions,
        'judge'
    >
}

/** What one run knows of its judge: failures in a row, and whether it stopped calling it (and said so). */
interface JudgeSession {
    failures: number
    stopped: boolean
    announced: boolean
    abortAnnounced: boolean
    last: string
    /** Notes said once per run (the text around a reply's JSON object), by key. */
    readonly noted: Set<string>
}

// The session of each judge a run wraps (judgeForRun): every unit of the run shares it.
const SESSIONS = new WeakMap<Judge, JudgeSession>()

const freshSession = (): JudgeSession => ({
    failures: 0,
    stopped: false,
    announced: false,
    abortAnnounced: false,
    last: '',
    noted: new Set()
})

// The session of a judge no run wrapped (a direct call), apart from the runs' so judgeForRun still wraps it.
const LOOSE = new WeakMap<Judge, JudgeSession>()

function sessionOf(judge: Judge): JudgeSession {
    const known = SESSIONS.get(judge) ?? LOOSE.get(judge)
    if (known !== undefined) return known
    const fresh = freshSession()
    LOOSE.set(judge, fresh)
    return fresh
}

/**
 * The judge of one run: the same function, wrapped once so every unit of the run (every schema of
 * a namespace, every namespace of a tree or of a CLI command) shares one count of failures in a
 * row. A judge already wrapped is returned as it is, so a nested call stays in its caller's run.
 */
export function judgeForRun(judge: Judge | undefined): Judge | undefined {
    if (typeof judge !== 'function' || SESSIONS.has(judge)) return judge
    const wrapped: Judge = (request, context) => judge(request, context)
    SESSIONS.set(wrapped, freshSession())
    return wrapped
}

/** The judge options that are not what they should be, one GRA-002 each. */
export function judgeOptionIssues(options: Readonly<Record<string, unknown>>): Issue[] {
    const issues: Issue[] = []
    const count = (
        key: 'judgeTimeoutMs' | 'judgeRetries' | 'judgeBackoffMs' | 'maxConsecutiveJudgeFailures',
        min: number
    ): void => {
        const v = options[key]
        if (v !== undefined && !(typeof v === 'number' && Number.isSafeInteger(v) && v >= min))
            issues.push(
                createIssue('GRA-002', `/options/${key}`, {
                    field: key,
                    expected: `a whole number from ${min}`,
                    actual: typeof v === 'number' ? String(v) : typeof v
                })
            )
    }
    // 0 turns the limit off, explicitly; omitted is the two-minute default.
    count('judgeTimeoutMs', 0)
    count('judgeRetries', 0)
    count('judgeBackoffMs', 0)
    count('maxConsecutiveJudgeFailures', 1)
    const signal = options.signal
    if (
        signal !== undefined &&
        !(
            signal !== null &&
            typeof signal === 'object' &&
            typeof (signal as { aborted?: unknown }).aborted === 'boolean'
        )
    )
        issues.push(
            createIssue('GRA-002', '/options/signal', {
                field: 'signal',
                expected: 'an AbortSignal (or { aborted })',
                actual: typeof signal
            })
        )
    return issues
}

/** How one try ended. */
type Attempt =
    | { kind: 'text'; text: unknown }
    | { kind: 'failed'; cause: unknown }
    | { kind: 'timeout' }
    | { kind: 'aborted' }

/** What the platform offers for aborting (feature-detected: the core compiles without DOM or Node typings). */
interface ControllerLike {
    readonly signal: AbortSignalLike
    abort(reason?: unknown): void
}
type Platform = {
    AbortController?: new () => ControllerLike
    AbortSignal?: { timeout?: (ms: number) => AbortSignalLike }
}
const platform = (): Platform => globalThis as unknown as Platform

/** A controller: the platform's (so a judge can hand its signal to `fetch`), or a small one where there is none. */
function controller(): ControllerLike {
    const Native = platform().AbortController
    if (typeof Native === 'function') return new Native()
    const listeners = new Set<() => void>()
    const signal = {
        aborted: false,
        reason: undefined as unknown,
        addEventListener: (_t: 'abort', l: () => void) => void listeners.add(l),
        removeEventListener: (_t: 'abort', l: () => void) => void listeners.delete(l)
    }
    return {
        signal,
        abort(reason) {
            if (signal.aborted) return
            signal.aborted = true
            signal.reason = reason
            for (const l of listeners) l()
        }
    }
}

/** Calls `listener` once when `signal` aborts; returns the function that stops listening. */
function onAbort(signal: AbortSignalLike | undefined, listener: () => void): () => void {
    if (signal === undefined || typeof signal.addEventListener !== 'function') return () => undefined
    signal.addEventListener('abort', listener, { once: true })
    return () => signal.removeEventListener?.('abort', listener)
}

/**
 * One try: the judge's promise raced against the run's signal and the timeout. The timeout is the
 * platform's `AbortSignal.timeout` (Node ≥ 20, browsers, workers), so the core sets no timer of its
 * own; where the platform has none, `judgeTimeoutMs` cannot be honoured (the run's `signal` still can).
 */
function attempt(
    judge: Judge,
    request: JudgeRequest,
    timeoutMs: number | undefined,
    signal: AbortSignalLike | undefined
): Promise<Attempt> {
    return new Promise<Attempt>((resolve) => {
        const call = controller()
        let stops: Array<() => void> = []
        let settled = false
        const finish = (result: Attempt): void => {
            if (settled) return
            settled = true
            for (const stop of stops) stop()
            stops = []
            // The judge hears that its answer is no longer wanted, so it can stop its work.
            if (result.kind === 'timeout' || result.kind === 'aborted') call.abort(result.kind)
            resolve(result)
        }
        if (signal?.aborted === true) return finish({ kind: 'aborted' })
        stops.push(onAbort(signal, () => finish({ kind: 'aborted' })))
        const timeout = timeoutMs !== undefined ? platform().AbortSignal?.timeout?.(timeoutMs) : undefined
        stops.push(onAbort(timeout, () => finish({ kind: 'timeout' })))
        let pending: Promise<string>
        try {
            pending = judge(request, { signal: call.signal })
        } catch (cause) {
            return finish({ kind: 'failed', cause })
        }
        Promise.resolve(pending).then(
            (text) => finish({ kind: 'text', text }),
            (cause: unknown) => finish({ kind: 'failed', cause })
        )
    })
}

/** Whether a failure is worth another try: a rate limit, a 5xx, a timeout, or a judge that says so. */
export function isRetryable(cause: unknown): boolean {
    if (cause === null || typeof cause !== 'object') return false
    const c = cause as { retryable?: unknown; status?: unknown; statusCode?: unknown; name?: unknown; code?: unknown }
    if (typeof c.retryable === 'boolean') return c.retryable
    const status = typeof c.status === 'number' ? c.status : typeof c.statusCode === 'number' ? c.statusCode : null
    if (status !== null) return status === 408 || status === 429 || (status >= 500 && status <= 599)
    return c.name === 'TimeoutError' || c.code === 'ETIMEDOUT' || c.code === 'ECONNRESET'
}

/** The text of a failure, redacted before anything cuts it. */
function failureText(cause: unknown, forms: readonly string[]): string {
    const raw =
        cause instanceof Error ? String(cause.message) : typeof cause === 'string' ? cause : 'the judge rejected'
    return redactMessage(raw, forms).slice(0, 500)
}

/** The wait before retry `n` (1-based): the backoff doubled per try, or the judge's `retryAfterMs` when longer. */
function backoff(n: number, base: number, cause: unknown): number {
    const after =
        cause !== null && typeof cause === 'object' ? (cause as { retryAfterMs?: unknown }).retryAfterMs : undefined
    const wanted = Math.max(base * 2 ** (n - 1), typeof after === 'number' && Number.isFinite(after) ? after : 0)
    return Math.min(wanted, JUDGE_CALL_DEFAULTS.maxBackoffMs)
}

/** Waits `ms` through the host's `sleep`, else the platform's timer signal; an abort ends the wait. */
function wait(
    ms: number,
    sleep: ((ms: number) => Promise<void>) | undefined,
    signal: AbortSignalLike | undefined
): Promise<void> {
    if (ms <= 0 || signal?.aborted === true) return Promise.resolve()
    return new Promise<void>((resolve) => {
        const stops: Array<() => void> = []
        const done = (): void => {
            for (const stop of stops) stop()
            resolve()
        }
        stops.push(onAbort(signal, done))
        if (typeof sleep === 'function') {
            // A failing sleep only loses the wait; the retry still comes.
            Promise.resolve()
                .then(() => sleep(ms))
                .then(done, done)
            return
        }
        const timer = platform().AbortSignal?.timeout?.(ms)
        if (timer === undefined) return done()
        stops.push(onAbort(timer, done))
    })
}

/**
 * What asking the judge for one unit gave: its reply text, or why the unit has none (its issue already
 * added). `failure` names what failed when it counts toward the stop after failures in a row
 * ({@link settleUnit}); an abort, or a judge the run stopped calling, counts for nothing.
 */
export type JudgeAsked = { kind: 'text'; text: unknown } | { kind: 'error'; reason: string; failure: string | null }

/** The timeout of one try: `judgeTimeoutMs`, two minutes when omitted, none for 0. */
export function judgeTimeoutOf(options: Pick<JudgeCallOptions, 'judgeTimeoutMs'>): number | undefined {
    const ms = options.judgeTimeoutMs ?? JUDGE_CALL_DEFAULTS.timeoutMs
    return ms === 0 ? undefined : ms
}

/**
 * How a unit the judge was asked for ended, counted toward `maxConsecutiveJudgeFailures`: `null` for a
 * unit graded (or blocked by the judge's own blocker reply), which starts the count again; otherwise
 * what failed (no answer, a reply that is not JSON, a reply still wrong after its repair turn). The
 * failure that reaches the limit stops the run's calls and says so once (GRA-025, naming it).
 */
export function settleUnit(options: JudgeCallOptions, unit: string, failure: string | null, errors: Issue[]): void {
    if (typeof options.judge !== 'function') return
    const session = sessionOf(options.judge)
    if (failure === null) {
        session.failures = 0
        return
    }
    const limit = options.maxConsecutiveJudgeFailures ?? JUDGE_CALL_DEFAULTS.maxConsecutiveFailures
    session.failures += 1
    session.last = `${unit}: ${failure}`
    if (session.failures >= limit) {
        session.stopped = true
        if (!session.announced)
            errors.push(createIssue('GRA-025', unitPath(unit), { count: limit, detail: session.last }))
        session.announced = true
    }
}

/** Whether the run already said `key` (a note said once per run); marks it said. */
export function firstTimeInRun(options: JudgeCallOptions, key: string): boolean {
    if (typeof options.judge !== 'function') return true
    const session = sessionOf(options.judge)
    if (session.noted.has(key)) return false
    session.noted.add(key)
    return true
}

/**
 * Asks the run's judge for one unit: a timeout per try (`judgeTimeoutMs`, two minutes by default),
 * up to `judgeRetries` further tries with a doubling backoff for a retryable failure, none for the
 * rest; the run's `signal` ends it at once. A unit that gets no reply adds one issue (GRA-006) and
 * names its failure for {@link settleUnit}; an aborted run says so once (GRA-026). Every text is redacted.
 */
export async function askJudge(
    unit: string,
    request: JudgeRequest,
    options: JudgeCallOptions,
    errors: Issue[],
    forms: readonly string[]
): Promise<JudgeAsked> {
    const judge = options.judge as Judge
    const session = sessionOf(judge)
    const limit = options.maxConsecutiveJudgeFailures ?? JUDGE_CALL_DEFAULTS.maxConsecutiveFailures
    if (session.stopped)
        return {
            kind: 'error',
            reason: `the judge was not called: it failed ${limit} units in a row in this run`,
            failure: null
        }
    const aborted = (): JudgeAsked => {
        if (!session.abortAnnounced)
            errors.push(
                createIssue('GRA-026', unitPath(unit), {
                    unit,
                    detail: failureText(options.signal?.reason ?? 'aborted', forms)
                })
            )
        session.abortAnnounced = true
        return { kind: 'error', reason: 'the run was aborted before the judge answered', failure: null }
    }
    const retries = options.judgeRetries ?? JUDGE_CALL_DEFAULTS.retries
    const timeoutMs = judgeTimeoutOf(options)
    let detail = ''
    let tries = 0
    for (let n = 0; ; n++) {
        tries = n + 1
        const result = await attempt(judge, request, timeoutMs, options.signal)
        if (result.kind === 'aborted') return aborted()
        if (result.kind === 'text') return result
        const cause = result.kind === 'timeout' ? { retryable: true } : result.cause
        detail = result.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : failureText(result.cause, forms)
        if (n >= retries || !isRetryable(cause)) break
        await wait(
            backoff(n + 1, options.judgeBackoffMs ?? JUDGE_CALL_DEFAULTS.backoffMs, cause),
            options.sleep,
            options.signal
        )
        if (options.signal?.aborted === true) return aborted()
    }
    const said = tries > 1 ? `${tries} tries, the last: ${detail}` : detail
    errors.push(createIssue('GRA-006', unitPath(unit), { unit, detail: said }))
    return { kind: 'error', reason: 'the judge failed', failure: said }
}
