import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { redactMessage } from '../prompts/redact.js'
import { isObject } from '../model/object.js'
import { parseArgs, says } from '../validation/args.js'
import { estimateOfCall } from './estimate.js'
import type {
    AbortSignalLike,
    GradeOptionsBase,
    Judge,
    JudgeCallContext,
    JudgeCallCount,
    JudgeRequest,
    JudgeUsage
} from './types.js'

/**
 * Defaults of a run's judge calls: two minutes per call (as the CLI's `--judge-timeout`), five minutes per schema,
 * two further tries, a second's backoff doubling, three failed units in a row stop the run's calls.
 */
export const JUDGE_CALL_DEFAULTS = Object.freeze({
    timeoutMs: 120_000,
    budgetMs: 300_000,
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
    | 'judge'
    | 'judgeTimeoutMs'
    | 'judgeBudgetMs'
    | 'judgeRetries'
    | 'judgeBackoffMs'
    | 'maxConsecutiveJudgeFailures'
    | 'signal'
    | 'sleep'
>

/** The judge options of an options object, and nothing else (the judge itself left to the caller). */
export function pickJudgeOptions(options: JudgeCallOptions): Omit<JudgeCallOptions, 'judge'> {
    const keys = [
        'judgeTimeoutMs',
        'judgeBudgetMs',
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

// A limit is a whole number from its least value; 0 turns a limit off, explicitly (omitted is the default).
const limit = (min: number) =>
    v.optional(
        v.custom<number>(
            (x) => typeof x === 'number' && Number.isSafeInteger(x) && x >= min,
            says({ expected: `a whole number from ${min}`, actual: 'number' })
        )
    )
const JUDGE_OPTIONS = v.looseObject({
    options: v.looseObject({
        judgeTimeoutMs: limit(0),
        judgeBudgetMs: limit(0),
        judgeRetries: limit(0),
        judgeBackoffMs: limit(0),
        maxConsecutiveJudgeFailures: limit(1),
        signal: v.optional(
            v.custom<{ aborted: boolean }>(
                (x) => isObject(x) && typeof x.aborted === 'boolean',
                says({ expected: 'an AbortSignal (or { aborted })', actual: 'type' })
            )
        )
    })
})
/** Every judge option is optional: a wrong one is GRA-002, never a missing one. */
const JUDGE_ARGS = { mismatch: 'GRA-002', create: createIssue } as const

/** The judge options that are not what they should be, one GRA-002 each. */
export function judgeOptionIssues(options: Readonly<Record<string, unknown>>): Issue[] {
    return parseArgs(JUDGE_OPTIONS, { options }, JUDGE_ARGS, { field: 'key' }).errors
}

/** How one try ended; `sent` says whether the judge was called at all (an abort before it, or a budget spent, is not). */
type Ended =
    | { kind: 'text'; value: unknown }
    | { kind: 'failed'; cause: unknown }
    | { kind: 'timeout' }
    | { kind: 'aborted' }
    | { kind: 'budget' }
type Attempt = Ended & { sent: boolean }

/** What the platform offers for aborting (feature-detected: the core compiles without DOM or Node typings). */
interface ControllerLike {
    readonly signal: AbortSignalLike
    abort(reason?: unknown): void
}
type Platform = {
    AbortController?: new () => ControllerLike
    AbortSignal?: { timeout?: (ms: number) => AbortSignalLike }
    setTimeout?: (callback: () => void, ms: number) => unknown
    clearTimeout?: (handle: unknown) => void
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

/** A timer of the platform; `hold(false)` lets a Node process end while it is set, `hold(true)` keeps it alive. */
interface Timer {
    stop(): void
    hold(alive: boolean): void
}

/**
 * Calls `fire` after `ms` with the platform's `setTimeout`, whose handle keeps a Node process alive while it is set
 * (a judge call nothing else holds never ends the process silently); `AbortSignal.timeout` where there is none.
 */
function timer(ms: number, fire: () => void): Timer {
    const p = platform()
    if (typeof p.setTimeout === 'function') {
        const handle = p.setTimeout(fire, ms) as { ref?: () => unknown; unref?: () => unknown } | undefined
        return {
            stop: () => p.clearTimeout?.(handle),
            hold: (alive) => void (alive ? handle?.ref?.() : handle?.unref?.())
        }
    }
    const stop = onAbort(p.AbortSignal?.timeout?.(ms), fire)
    return { stop, hold: () => undefined }
}

/**
 * The judge budget of one schema's units: started at its first call, it aborts the call waiting when it runs out.
 * Its timer holds the process only while a call or a backoff of the schema is waiting.
 */
interface JudgeBudget {
    readonly ms: number
    readonly signal: AbortSignalLike
    readonly timer: Timer
    announced: boolean
    holders: number
}

/**
 * The judge calls of one schema's units (or a selection's, or a namespace's own), counted as they are sent, with the
 * usage the judge reported and the estimate beside it; it also holds the schema's judge budget once started.
 */
export interface JudgeTally {
    calls: number
    firstAsks: number
    repairs: number
    retries: number
    usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number; reportedCalls: number } | null
    readonly estimated: { inputTokens: number; outputTokens: number }
    budget: JudgeBudget | null
}

/** A tally with nothing counted yet: one per schema run (its budget starts with its first call). */
export function newJudgeTally(): JudgeTally {
    return {
        calls: 0,
        firstAsks: 0,
        repairs: 0,
        retries: 0,
        usage: null,
        estimated: { inputTokens: 0, outputTokens: 0 },
        budget: null
    }
}

/** What a tally counted, as the result, `summary.json` and `--json` show it (a copy: the tally stays the run's). */
export function judgeCallCountOf(tally: JudgeTally): JudgeCallCount {
    const { calls, firstAsks, repairs, retries, usage, estimated } = tally
    return {
        calls,
        firstAsks,
        repairs,
        retries,
        usage: usage === null ? null : { ...usage },
        estimated: { ...estimated }
    }
}

/** Two counts added up (a namespace's schemas and its own units; a tree's namespaces). */
export function addJudgeCallCounts(a: JudgeCallCount, b: JudgeCallCount | undefined): JudgeCallCount {
    if (b === undefined) return a
    const usage =
        a.usage === null
            ? b.usage
            : b.usage === null
              ? a.usage
              : {
                    inputTokens: a.usage.inputTokens + b.usage.inputTokens,
                    outputTokens: a.usage.outputTokens + b.usage.outputTokens,
                    cachedInputTokens: a.usage.cachedInputTokens + b.usage.cachedInputTokens,
                    reportedCalls: a.usage.reportedCalls + b.usage.reportedCalls
                }
    return {
        calls: a.calls + b.calls,
        firstAsks: a.firstAsks + b.firstAsks,
        repairs: a.repairs + b.repairs,
        retries: a.retries + b.retries,
        usage: usage === null ? null : { ...usage },
        estimated: {
            inputTokens: a.estimated.inputTokens + b.estimated.inputTokens,
            outputTokens: a.estimated.outputTokens + b.estimated.outputTokens
        }
    }
}

/**
 * A count as `summary.json` writes it (`judge`): the calls, the repair turns under their older name `repairCalls`,
 * the retries, the usage reported (absent when none was) and the estimate.
 */
export function judgeSummaryOf(count: JudgeCallCount): Record<string, unknown> {
    return {
        calls: count.calls,
        firstAsks: count.firstAsks,
        repairCalls: count.repairs,
        retries: count.retries,
        ...(count.usage !== null ? { usage: { ...count.usage } } : {}),
        estimated: { ...count.estimated }
    }
}

/** The schema's budget, started now when it has none yet; null when budgets are off (`judgeBudgetMs: 0`). */
function budgetOf(tally: JudgeTally, options: Pick<JudgeCallOptions, 'judgeBudgetMs'>): JudgeBudget | null {
    if (tally.budget !== null) return tally.budget
    const ms = options.judgeBudgetMs ?? JUDGE_CALL_DEFAULTS.budgetMs
    if (ms === 0) return null
    const spent = controller()
    const budget: JudgeBudget = {
        ms,
        signal: spent.signal,
        timer: timer(ms, () => spent.abort('budget')),
        announced: false,
        holders: 0
    }
    budget.timer.hold(false)
    tally.budget = budget
    return budget
}

/** Holds the process alive on the budget's timer while `work` waits (nested holds counted). */
async function holding<T>(budget: JudgeBudget | null, work: () => Promise<T>): Promise<T> {
    if (budget === null) return work()
    budget.holders += 1
    budget.timer.hold(true)
    try {
        return await work()
    } finally {
        budget.holders -= 1
        if (budget.holders === 0) budget.timer.hold(false)
    }
}

/**
 * One try: the judge's promise raced against the run's signal, the schema's budget and the timeout. The timeout is a
 * platform timer that keeps a Node process alive while the call waits, and is cleared when it settles.
 */
function attempt(
    judge: Judge,
    request: JudgeRequest,
    timeoutMs: number | undefined,
    signal: AbortSignalLike | undefined,
    budget: AbortSignalLike | undefined
): Promise<Attempt> {
    return new Promise<Attempt>((resolve) => {
        const call = controller()
        let stops: Array<() => void> = []
        let settled = false
        let sent = false
        const finish = (result: Ended): void => {
            if (settled) return
            settled = true
            for (const stop of stops) stop()
            stops = []
            // The judge hears that its answer is no longer wanted, so it can stop its work.
            if (result.kind === 'timeout' || result.kind === 'aborted' || result.kind === 'budget')
                call.abort(result.kind)
            resolve({ ...result, sent })
        }
        if (signal?.aborted === true) return finish({ kind: 'aborted' })
        if (budget?.aborted === true) return finish({ kind: 'budget' })
        stops.push(onAbort(signal, () => finish({ kind: 'aborted' })))
        stops.push(onAbort(budget, () => finish({ kind: 'budget' })))
        if (timeoutMs !== undefined) {
            const limit = timer(timeoutMs, () => finish({ kind: 'timeout' }))
            stops.push(() => limit.stop())
        }
        let pending: Promise<unknown>
        sent = true
        try {
            pending = judge(request, { signal: call.signal } as JudgeCallContext)
        } catch (cause) {
            return finish({ kind: 'failed', cause })
        }
        Promise.resolve(pending).then(
            (value) => finish({ kind: 'text', value }),
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

/** Waits `ms` through the host's `sleep`, else a platform timer; an abort or the schema's budget ends the wait. */
function wait(
    ms: number,
    sleep: ((ms: number) => Promise<void>) | undefined,
    signals: ReadonlyArray<AbortSignalLike | undefined>
): Promise<void> {
    if (ms <= 0 || signals.some((s) => s?.aborted === true)) return Promise.resolve()
    return new Promise<void>((resolve) => {
        const stops: Array<() => void> = []
        const done = (): void => {
            for (const stop of stops) stop()
            resolve()
        }
        for (const s of signals) stops.push(onAbort(s, done))
        if (typeof sleep === 'function') {
            // A failing sleep only loses the wait; the retry still comes.
            Promise.resolve()
                .then(() => sleep(ms))
                .then(done, done)
            return
        }
        const backoffTimer = timer(ms, done)
        stops.push(() => backoffTimer.stop())
    })
}

/**
 * What asking the judge for one unit gave: its reply text, or why the unit has none (its issue already
 * added). `failure` names what failed when it counts toward the stop after failures in a row
 * ({@link settleUnit}); an abort, or a judge the run stopped calling, counts for nothing.
 */
export type JudgeAsked = { kind: 'text'; text: unknown } | { kind: 'error'; reason: string; failure: string | null }

/** A whole number from 0, as usage counts are. */
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/**
 * What a judge returned, read: a string is the reply text; `{ text, usage? }` the text with the tokens the call used.
 * Usage that is not whole numbers from 0 is not counted and said (GRA-031); anything else is passed on as it is.
 */
function readReturned(
    unit: string,
    value: unknown,
    tally: JudgeTally,
    errors: Issue[]
): { kind: 'text'; text: unknown } {
    if (value === null || typeof value !== 'object' || typeof (value as { text?: unknown }).text !== 'string')
        return { kind: 'text', text: value }
    const { text, usage } = value as { text: string; usage?: unknown }
    if (usage === undefined) return { kind: 'text', text }
    const u = (usage ?? {}) as Partial<Record<keyof JudgeUsage, unknown>>
    if (
        typeof usage !== 'object' ||
        !isCount(u.inputTokens) ||
        !isCount(u.outputTokens) ||
        !(u.cachedInputTokens === undefined || isCount(u.cachedInputTokens))
    ) {
        const detail = `usage must be { inputTokens, outputTokens, cachedInputTokens? }, whole numbers from 0`
        errors.push(createIssue('GRA-031', unitPath(unit, 'usage'), { unit, detail }))
        return { kind: 'text', text }
    }
    const sum = tally.usage ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reportedCalls: 0 }
    tally.usage = {
        inputTokens: sum.inputTokens + u.inputTokens,
        outputTokens: sum.outputTokens + u.outputTokens,
        cachedInputTokens: sum.cachedInputTokens + ((u.cachedInputTokens as number | undefined) ?? 0),
        reportedCalls: sum.reportedCalls + 1
    }
    return { kind: 'text', text }
}

/** Counts one call the judge was sent: a first ask, a repair turn, or a retry of either; its estimate beside it. */
function countSent(tally: JudgeTally, request: JudgeRequest, turn: 'first' | 'repair', retry: boolean): void {
    tally.calls += 1
    if (retry) tally.retries += 1
    else if (turn === 'repair') tally.repairs += 1
    else tally.firstAsks += 1
    const estimate = estimateOfCall(request)
    tally.estimated.inputTokens += estimate.inputTokens
    tally.estimated.outputTokens += estimate.outputTokens
}

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

/** The unit the schema's budget ran out on: said once per schema (GRA-030), counted as that unit's failure. */
function budgetSpent(unit: string, budget: JudgeBudget, errors: Issue[]): JudgeAsked {
    const detail = `the judge budget of ${budget.ms} ms for this schema ran out`
    if (budget.announced) return { kind: 'error', reason: `the judge was not called: ${detail}`, failure: null }
    budget.announced = true
    errors.push(createIssue('GRA-030', unitPath(unit), { unit, budget: budget.ms }))
    return { kind: 'error', reason: detail, failure: detail }
}

/**
 * Asks the run's judge for one unit: a timeout per try (`judgeTimeoutMs`, two minutes by default),
 * up to `judgeRetries` further tries with a doubling backoff for a retryable failure, none for the
 * rest; the run's `signal` ends it at once, and so does the schema's judge budget (`judgeBudgetMs`,
 * GRA-030). Every call sent is counted on `tally` (`turn` says whether it is a first ask or a repair
 * turn, a further try is a retry), with the usage it reported. A unit that gets no reply adds one
 * issue (GRA-006) and names its failure for {@link settleUnit}; an aborted run says so once (GRA-026).
 * Every text is redacted.
 */
export async function askJudge(
    unit: string,
    request: JudgeRequest,
    options: JudgeCallOptions,
    errors: Issue[],
    forms: readonly string[],
    tally: JudgeTally,
    turn: 'first' | 'repair'
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
    if (options.signal?.aborted === true) return aborted()
    const budget = budgetOf(tally, options)
    if (budget?.signal.aborted === true) return budgetSpent(unit, budget, errors)
    return holding(budget, () => tries(unit, request, options, errors, forms, tally, turn, budget, aborted))
}

/** The tries of one ask, retried as {@link askJudge} says. */
async function tries(
    unit: string,
    request: JudgeRequest,
    options: JudgeCallOptions,
    errors: Issue[],
    forms: readonly string[],
    tally: JudgeTally,
    turn: 'first' | 'repair',
    budget: JudgeBudget | null,
    aborted: () => JudgeAsked
): Promise<JudgeAsked> {
    const retries = options.judgeRetries ?? JUDGE_CALL_DEFAULTS.retries
    const timeoutMs = judgeTimeoutOf(options)
    let detail = ''
    let made = 0
    for (let n = 0; ; n++) {
        const result = await attempt(options.judge as Judge, request, timeoutMs, options.signal, budget?.signal)
        if (result.sent) {
            countSent(tally, request, turn, n > 0)
            made += 1
        }
        if (result.kind === 'aborted') return aborted()
        if (result.kind === 'budget') return budgetSpent(unit, budget as JudgeBudget, errors)
        if (result.kind === 'text') return readReturned(unit, result.value, tally, errors)
        const cause = result.kind === 'timeout' ? { retryable: true } : result.cause
        detail = result.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : failureText(result.cause, forms)
        if (n >= retries || !isRetryable(cause)) break
        await wait(backoff(n + 1, options.judgeBackoffMs ?? JUDGE_CALL_DEFAULTS.backoffMs, cause), options.sleep, [
            options.signal,
            budget?.signal
        ])
        if (options.signal?.aborted === true) return aborted()
        if (budget?.signal.aborted === true) return budgetSpent(unit, budget, errors)
    }
    const said = made > 1 ? `${made} tries, the last: ${detail}` : detail
    errors.push(createIssue('GRA-006', unitPath(unit), { unit, detail: said }))
    return { kind: 'error', reason: 'the judge failed', failure: said }
}
