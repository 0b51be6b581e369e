import { createIssue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { JudgeMessage } from './messages.js'

/** Characters per token of the estimate: the rule of thumb for English text and code. */
export const CHARS_PER_TOKEN = 4

/** One judge call of a run, in the order the calls are made, with the key it is counted under (a schema id, a namespace). */
export interface CostCall {
    readonly key: string
    readonly messages: readonly JudgeMessage[]
}

/** Input tokens of a group of calls: all, the part a prefix cache can serve, and what is billed at full price. */
export interface CostFigures {
    readonly calls: number
    readonly inputTokens: number
    /** The part of each call equal to the start of an earlier call of the run (its longest common prefix with any of them). */
    readonly cachedTokens: number
    /** `inputTokens - cachedTokens`: what a provider bills at full price. */
    readonly uncachedTokens: number
}

/** {@link JudgeCost.estimate}'s result: per key (in first-seen order) and for the whole run. */
export interface CostEstimate extends CostFigures {
    readonly byKey: ReadonlyArray<CostFigures & { readonly key: string }>
    readonly charsPerToken: number
    readonly errors: Issue[]
}

/** How a call is laid out for a model: each message's role line, then its text (the provider's template is close enough for an estimate). */
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

/**
 * What the judge calls of a run cost in input tokens, before any is made. A call's cached part is
 * its longest common prefix with any earlier call of the run — what a prefix cache (OpenAI's
 * automatic one, Anthropic's `cache_control`, a local server's KV cache) can serve; the rest is
 * billed at full price. Found message by message: the longest run of whole messages an earlier call
 * opened with, then the longest shared start of the next message among those calls.
 */
export class JudgeCost {
    private constructor() {}

    /**
     * The judge calls of graded namespaces in the order a run makes them (each schema's units, then
     * the namespace's), keyed by schema id and `<namespace> (namespace)`: the prompts a run without a
     * judge returns are exactly the requests a judge would receive.
     * @param input - `{ namespaces }`: results of `gradeNamespace` / `gradeTree` run without a judge
     * @returns the calls, ready for {@link JudgeCost.estimate}
     */
    static callsOf(input: { readonly namespaces: ReadonlyArray<{ readonly namespace: string | null; readonly schemas: ReadonlyArray<{ readonly result: { readonly grading: { readonly schemaId: string } | null; readonly prompts: ReadonlyArray<{ readonly messages: readonly JudgeMessage[] }> } }>; readonly prompts: ReadonlyArray<{ readonly messages: readonly JudgeMessage[] }> }> }): CostCall[] {
        const calls: CostCall[] = []
        for (const ns of Array.isArray(input?.namespaces) ? input.namespaces : []) {
            for (const row of ns.schemas) for (const p of row.result.prompts) calls.push({ key: row.result.grading?.schemaId ?? 'unknown', messages: p.messages })
            for (const p of ns.prompts) calls.push({ key: `${ns.namespace ?? 'unknown'} (namespace)`, messages: p.messages })
        }
        return calls
    }

    /**
     * @param input - `{ calls: [{ key, messages }] }` in call order (e.g. `JudgeRequest.messages` of every prompt of a run)
     * @returns `{ calls, inputTokens, cachedTokens, uncachedTokens, byKey, charsPerToken, errors }`; GRA-002 for a malformed call (left out)
     * @example JudgeCost.estimate({ calls: result.prompts.map((p) => ({ key: p.unit, messages: p.messages })) })
     */
    static estimate(input: { readonly calls: readonly CostCall[] }): CostEstimate {
        const errors: Issue[] = []
        const calls = Array.isArray(input?.calls) ? input.calls : []
        if (!Array.isArray(input?.calls)) errors.push(createIssue('GRA-002', '/calls', { field: 'calls', expected: 'array of { key, messages }', actual: typeOfValue(input?.calls) }))
        const ids = new Map<string, number>()
        // Under each run of leading message ids, the texts of the message that followed it.
        const followers = new Map<string, string[]>()
        const byKey = new Map<string, { calls: number; input: number; cached: number }>()
        calls.forEach((call, index) => {
            if (call === null || typeof call !== 'object' || typeof call.key !== 'string' || !Array.isArray(call.messages) || !(call.messages as readonly unknown[]).every((m) => m !== null && typeof m === 'object' && typeof (m as { content?: unknown }).content === 'string')) {
                errors.push(createIssue('GRA-002', `/calls/${index}`, { field: `calls[${index}]`, expected: '{ key, messages: [{ role, content }] }', actual: typeOfValue(call) }))
                return
            }
            const texts: string[] = call.messages.map(messageText)
            let prefix = ''
            let cached = 0
            let k = 0
            while (k < texts.length) {
                const next = followers.get(prefix)
                const text = texts[k] as string
                if (next === undefined) break
                if (next.includes(text)) {
                    cached += text.length
                    prefix += `${ids.get(text)},`
                    k += 1
                    continue
                }
                cached += Math.max(0, ...next.map((t) => commonPrefix(t, text)))
                break
            }
            // Remember every leading run of this call for the calls after it.
            let key = ''
            for (const text of texts) {
                if (!ids.has(text)) ids.set(text, ids.size)
                const list = followers.get(key)
                if (list === undefined) followers.set(key, [text])
                else if (!list.includes(text)) list.push(text)
                key += `${ids.get(text)},`
            }
            const total = texts.reduce((n, t) => n + t.length, 0)
            const row = byKey.get(call.key) ?? { calls: 0, input: 0, cached: 0 }
            row.calls += 1
            row.input += total
            row.cached += cached
            byKey.set(call.key, row)
        })
        const figures = (r: { calls: number; input: number; cached: number }): CostFigures => ({ calls: r.calls, inputTokens: tokens(r.input), cachedTokens: Math.floor(r.cached / CHARS_PER_TOKEN), uncachedTokens: tokens(r.input) - Math.floor(r.cached / CHARS_PER_TOKEN) })
        const all = [...byKey.values()].reduce((a, r) => ({ calls: a.calls + r.calls, input: a.input + r.input, cached: a.cached + r.cached }), { calls: 0, input: 0, cached: 0 })
        return { ...figures(all), byKey: [...byKey.entries()].map(([key, r]) => ({ key, ...figures(r) })), charsPerToken: CHARS_PER_TOKEN, errors }
    }
}
