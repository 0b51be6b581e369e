import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { JudgeMessage } from './messages.js'
import { repairMessage } from './reply.js'
import { guardStatics } from '../errors/guard.js'
import { definedFields } from '../model/fields.js'
import { parseArgs, says } from '../validation/args.js'

/** Characters per token of the estimate: the rule of thumb for English text and code. */
export const CHARS_PER_TOKEN = 4

/**
 * Expected output tokens of a reply: per answer (its questionId, score and a reasoning of a sentence
 * or three) and per call (the braces, and the improvement hints). Rules of thumb, like {@link CHARS_PER_TOKEN}.
 */
export const OUTPUT_TOKENS = Object.freeze({ perAnswer: 80, perCall: 120 })

/**
 * One judge call of a run, in the order the calls are made, with the key it is counted under (a schema id, a
 * namespace).
 */
export interface CostCall {
    readonly key: string
    readonly messages: readonly JudgeMessage[]
    /** How many questions the call asks (its answers make the output); one when omitted. */
    readonly questions?: number
}

/**
 * Prices in US dollars per million tokens; cached input at the input price when `cachedInput` is omitted (an upper
 * bound).
 */
export interface TokenPrices {
    readonly input?: number
    readonly output?: number
    readonly cachedInput?: number
}

/**
 * What the run would cost in US dollars, for the prices given (a price not given counts as 0 and is named in
 * `missing`).
 */
export interface CostInDollars {
    readonly input: number
    readonly output: number
    readonly total: number
    readonly missing: ReadonlyArray<'input' | 'output'>
}

/** Input tokens of a group of calls: all, the part a prefix cache can serve, and what is billed at full price. */
export interface CostFigures {
    readonly calls: number
    readonly inputTokens: number
    /**
     * The part of each call equal to the start of an earlier call of the run (its longest common prefix with any of
     * them).
     */
    readonly cachedTokens: number
    /** `inputTokens - cachedTokens`: what a provider bills at full price. */
    readonly uncachedTokens: number
    /** Expected output tokens of the replies ({@link OUTPUT_TOKENS}). */
    readonly outputTokens: number
}

/**
 * The worst case of the repair turns: a reply that breaks its contract gets one more call for its
 * unit (docs/judges.md, "Replies"), so at most one per call. A repair call repeats its call's
 * messages (served by a prefix cache) and adds one follow-up, billed at full price.
 */
export interface RepairFigures {
    /** At most this many more calls: one per call of the run. */
    readonly maxCalls: number
    /** Their input a prefix cache serves: each call's messages again. */
    readonly cachedTokens: number
    /** Their input billed at full price: the follow-ups (one quoted problem each, {@link REPAIR_PROBLEM_CHARS}). */
    readonly uncachedTokens: number
    /** Their expected output: each reply again. */
    readonly outputTokens: number
    /** What they would add in US dollars for the prices given; null without prices. */
    readonly cost: number | null
}

/** The length of the problem a repair follow-up quotes, in the estimate (one problem, as a typical slip has). */
export const REPAIR_PROBLEM_CHARS = 160

/** {@link JudgeCost.estimate}'s result: per key (in first-seen order) and for the whole run. */
export interface CostEstimate extends CostFigures {
    /** What the repair turns could add on top of the figures above, at most (they are not in them). */
    readonly repairs: RepairFigures
    readonly byKey: ReadonlyArray<CostFigures & { readonly key: string }>
    readonly charsPerToken: number
    /** The cost of the run for `prices`; null without prices. */
    readonly cost: CostInDollars | null
    readonly errors: Issue[]
}

/**
 * How a call is laid out for a model: each message's role line, then its text (the provider's template is close enough
 * for an estimate).
 */
function messageText(m: JudgeMessage): string {
    return `${m.role}\n${m.content}\n`
}

function commonPrefix(a: string, b: string): number {
    const n = Math.min(a.length, b.length)
    let i = 0
    while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1
    return i
}

const tokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN)

/** A returned prompt as the estimate reads it: its messages, and its questions when it lists them. */
type PromptLike = { readonly messages: readonly JudgeMessage[]; readonly questions?: readonly unknown[] }
const questionCount = (p: PromptLike): { questions?: number } =>
    Array.isArray(p.questions) ? { questions: p.questions.length } : {}

/** How many questions a call asks: its count when a whole number from 0, else one. */
const askedOf = (questions: unknown): number =>
    typeof questions === 'number' && Number.isSafeInteger(questions) && questions >= 0 ? questions : 1

const outputOf = (questions: unknown): number => OUTPUT_TOKENS.perCall + OUTPUT_TOKENS.perAnswer * askedOf(questions)

/** The codes of this module's argument checks; an absent call list is a wrong type, never missing. */
const ARGS = { missing: 'GRA-001', mismatch: 'GRA-002', create: createIssue } as const
const STYLE = { actual: 'type' } as const

const PRICE = v.optional(
    v.custom<number>(
        (p) => typeof p === 'number' && Number.isFinite(p) && p >= 0,
        says('a number from 0 (US dollars per million tokens)')
    )
)
// Any object, an array too (it names no price): the old check asked only for `typeof 'object'`.
const PRICES = v.looseObject({
    prices: v.optional(
        v.pipe(
            v.custom<Record<string, unknown>>(
                (p) => p !== null && typeof p === 'object',
                says('{ input?, output?, cachedInput? } in US dollars per million tokens')
            ),
            v.looseObject({ input: PRICE, output: PRICE, cachedInput: PRICE })
        )
    )
})
const CALLS = v.looseObject({
    calls: v.array(v.unknown(), says({ expected: 'array of { key, messages }', missing: false }))
})
const CALL = v.custom<CostCall>(
    isWellFormedCall,
    says({ expected: '{ key, messages: [{ role, content }] }', missing: false })
)

/** The prices checked: each a finite number from 0, one GRA-002 per one that is not. */
function checkPrices(prices: unknown, errors: Issue[]): TokenPrices | null {
    const parsed = parseArgs(PRICES, { prices }, ARGS, STYLE)
    errors.push(...parsed.errors)
    const given = parsed.value?.prices
    if (given === undefined) return null
    return definedFields({ input: given.input, output: given.output, cachedInput: given.cachedInput })
}

/**
 * The run's cost for the prices: uncached input at the input price, cached input at its own (or the input) price,
 * output at the output price.
 */
function costOf(figures: CostFigures, prices: TokenPrices): CostInDollars {
    const perToken = (p: number | undefined): number => (p ?? 0) / 1_000_000
    const input =
        figures.uncachedTokens * perToken(prices.input) +
        figures.cachedTokens * perToken(prices.cachedInput ?? prices.input)
    const output = figures.outputTokens * perToken(prices.output)
    const missing = (['input', 'output'] as const).filter((k) => prices[k] === undefined)
    return { input, output, total: input + output, missing }
}

/** What the earlier calls of a run leave a prefix cache: an id per message text, and under each run of leading
 * message ids the texts of the message that followed it. */
interface SeenCalls {
    readonly ids: Map<string, number>
    readonly followers: Map<string, string[]>
}

/** A call's characters a prefix cache can serve: whole messages an earlier call opened with, then the next's start. */
function cachedChars(texts: readonly string[], seen: SeenCalls): number {
    let prefix = ''
    let cached = 0
    let k = 0
    while (k < texts.length) {
        const next = seen.followers.get(prefix)
        const text = texts[k] as string
        if (next === undefined) break
        if (next.includes(text)) {
            cached += text.length
            prefix += `${seen.ids.get(text)},`
            k += 1
            continue
        }
        cached += Math.max(0, ...next.map((t) => commonPrefix(t, text)))
        break
    }
    return cached
}

/** Remembers every leading run of this call for the calls after it. */
function rememberCall(texts: readonly string[], seen: SeenCalls): void {
    let key = ''
    for (const text of texts) {
        if (!seen.ids.has(text)) seen.ids.set(text, seen.ids.size)
        const list = seen.followers.get(key)
        if (list === undefined) seen.followers.set(key, [text])
        else if (!list.includes(text)) list.push(text)
        key += `${seen.ids.get(text)},`
    }
}

/** A call the estimate can read: a string key, messages that each have a string content (types cannot promise it). */
function isWellFormedCall(value: unknown): value is CostCall {
    const call = value as CostCall
    if (call === null || typeof call !== 'object' || typeof call.key !== 'string') return false
    const hasText = (m: unknown): boolean =>
        m !== null && typeof m === 'object' && typeof (m as { content?: unknown }).content === 'string'
    return Array.isArray(call.messages) && (call.messages as readonly unknown[]).every(hasText)
}

/** The characters of a call's repair follow-up: its message asking its questions again, quoting one typical problem. */
function repairFollowUpChars(questions: unknown): number {
    const asked = askedOf(questions)
    const ids = Array.from({ length: asked }, (_, i) => `Q-question-${String(i + 1).padStart(2, '0')}`)
    return messageText(repairMessage(ids, ['x'.repeat(REPAIR_PROBLEM_CHARS)])).length
}

/** Characters of a group of calls, counted as they come: calls, input, its cached part, expected output tokens. */
type Tally = { calls: number; input: number; cached: number; output: number }

/** The figures of a tally: its characters as tokens, the cached part rounded down. */
function figuresOf(r: Tally): CostFigures {
    return {
        calls: r.calls,
        inputTokens: tokens(r.input),
        cachedTokens: Math.floor(r.cached / CHARS_PER_TOKEN),
        uncachedTokens: tokens(r.input) - Math.floor(r.cached / CHARS_PER_TOKEN),
        outputTokens: r.output
    }
}

/** The tallies of every key added up: the run's tally. */
function sumOf(rows: readonly Tally[]): Tally {
    const sum = { calls: 0, input: 0, cached: 0, output: 0 }
    for (const r of rows) {
        sum.calls += r.calls
        sum.input += r.input
        sum.cached += r.cached
        sum.output += r.output
    }
    return sum
}

/** The repair turns' worst case: one per call, its messages again (cached) and a follow-up (not), for `calls` calls. */
function repairsOf(
    repair: { cached: number; uncached: number; output: number },
    calls: number,
    prices: TokenPrices | null
): RepairFigures {
    const inputTokens = tokens(repair.cached + repair.uncached)
    const cachedTokens = Math.floor(repair.cached / CHARS_PER_TOKEN)
    const repairFigures: CostFigures = {
        calls,
        inputTokens,
        cachedTokens,
        uncachedTokens: inputTokens - cachedTokens,
        outputTokens: repair.output
    }
    return {
        maxCalls: calls,
        cachedTokens,
        uncachedTokens: repairFigures.uncachedTokens,
        outputTokens: repair.output,
        cost: prices === null ? null : costOf(repairFigures, prices).total
    }
}

/**
 * What the judge calls of a run cost in input tokens, before any is made. A call's cached part is
 * its longest common prefix with any earlier call of the run — what a prefix cache (OpenAI's
 * automatic one, Anthropic's `cache_control`, a local server's KV cache) can serve; the rest is
 * billed at full price. Found message by message: the longest run of whole messages an earlier call
 * opened with, then the longest shared start of the next message among those calls.
 */
class JudgeCostUnguarded {
    private constructor() {}

    /**
     * The judge calls of graded namespaces in the order a run makes them (each schema's units, then
     * the namespace's), keyed by schema id and `<namespace> (namespace)`: the prompts a run without a
     * judge returns are exactly the requests a judge would receive.
     * @param input - `{ namespaces }`: results of `gradeNamespace` / `gradeTree` run without a judge
     * @returns the calls, ready for {@link JudgeCost.estimate}
     */
    static callsOf(input: {
        readonly namespaces: ReadonlyArray<{
            readonly namespace: string | null
            readonly schemas: ReadonlyArray<{
                readonly result: {
                    readonly grading: { readonly schemaId: string } | null
                    readonly prompts: readonly PromptLike[]
                }
            }>
            readonly prompts: readonly PromptLike[]
        }>
    }): CostCall[] {
        const calls: CostCall[] = []
        for (const ns of Array.isArray(input?.namespaces) ? input.namespaces : []) {
            for (const row of ns.schemas)
                for (const p of row.result.prompts)
                    calls.push({
                        key: row.result.grading?.schemaId ?? 'unknown',
                        messages: p.messages,
                        ...questionCount(p)
                    })
            for (const p of ns.prompts)
                calls.push({
                    key: `${ns.namespace ?? 'unknown'} (namespace)`,
                    messages: p.messages,
                    ...questionCount(p)
                })
        }
        return calls
    }

    /**
     * @param input - `{ calls: [{ key, messages, questions? }], prices? }` in call order (e.g. `JudgeRequest.messages`
     *   of every prompt of a run); `prices` in US dollars per million tokens
     * @returns `{ calls, inputTokens, cachedTokens, uncachedTokens, outputTokens, byKey, charsPerToken, cost, repairs,
     *   errors }`; GRA-002 for a malformed call (left out) or price. `repairs`: a repair turn may add at most one call
     *   per unit (not in the other figures): its worst case
     * @example JudgeCost.estimate({ calls: result.prompts.map((p) => ({ key: p.unit, messages: p.messages })) })
     */
    static estimate(input: { readonly calls: readonly CostCall[]; readonly prices?: TokenPrices }): CostEstimate {
        const errors: Issue[] = []
        const prices = checkPrices(input?.prices, errors)
        const list = parseArgs(CALLS, { calls: input?.calls }, ARGS, STYLE)
        errors.push(...list.errors)
        const calls = list.value?.calls ?? []
        const seen: SeenCalls = { ids: new Map(), followers: new Map() }
        const byKey = new Map<string, Tally>()
        const repair = { cached: 0, uncached: 0, output: 0 }
        calls.forEach((item, index) => {
            const checked = parseArgs(CALL, item, ARGS, { ...STYLE, field: 'indexed', at: ['calls', index] })
            if (checked.value === null) {
                errors.push(...checked.errors)
                return
            }
            const call = checked.value
            const texts: string[] = call.messages.map(messageText)
            const cached = cachedChars(texts, seen)
            rememberCall(texts, seen)
            const total = texts.reduce((n, t) => n + t.length, 0)
            // Its repair turn: the same messages (a prefix cache holds them now) and one follow-up.
            repair.cached += total
            repair.uncached += repairFollowUpChars(call.questions)
            repair.output += outputOf(call.questions)
            const row = byKey.get(call.key) ?? { calls: 0, input: 0, cached: 0, output: 0 }
            row.calls += 1
            row.input += total
            row.cached += cached
            row.output += outputOf(call.questions)
            byKey.set(call.key, row)
        })
        const all = figuresOf(sumOf([...byKey.values()]))
        const repairs = repairsOf(repair, all.calls, prices)
        return {
            ...all,
            byKey: [...byKey.entries()].map(([key, r]) => ({ key, ...figuresOf(r) })),
            charsPerToken: CHARS_PER_TOKEN,
            cost: prices === null ? null : costOf(all, prices),
            repairs,
            errors
        }
    }
}

/**
 * The public JudgeCost: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const JudgeCost = /* @__PURE__ */ guardStatics(JudgeCostUnguarded, 'JudgeCost')

/**
 * The estimate of one judge call that was sent: its input tokens (its messages' characters / {@link CHARS_PER_TOKEN})
 * and its expected output ({@link OUTPUT_TOKENS}), beside the usage a judge reports for it.
 */
export function estimateOfCall(request: PromptLike): { inputTokens: number; outputTokens: number } {
    const messages = Array.isArray(request?.messages) ? request.messages : []
    const chars = messages.reduce((n, m) => n + (typeof m?.content === 'string' ? messageText(m).length : 0), 0)
    return { inputTokens: tokens(chars), outputTokens: outputOf(questionCount(request).questions) }
}
