// `grade --estimate`: what a grading run would cost, printed as a table with what its figures mean.
import { OUTPUT_TOKENS } from '../../grade/estimate.js'
import { JudgeCost, type CostEstimate, type GradeEstimateJson, type GradeNamespaceResult } from '../../index.js'
import { definedFields } from '../../model/fields.js'
import type { GradeCommandOptions } from './grade-options.js'
import { table } from '../io.js'

/** The estimate as a table: calls and input tokens per schema and namespace, then the run. */
export function estimateText(cost: CostEstimate): string {
    const n = (v: number): string => v.toLocaleString('en-US')
    const rows = [
        ...cost.byKey.map((r) => ({
            key: r.key,
            calls: String(r.calls),
            input: n(r.inputTokens),
            cached: n(r.cachedTokens),
            uncached: n(r.uncachedTokens),
            output: n(r.outputTokens)
        })),
        {
            key: 'run',
            calls: String(cost.calls),
            input: n(cost.inputTokens),
            cached: n(cost.cachedTokens),
            uncached: n(cost.uncachedTokens),
            output: n(cost.outputTokens)
        }
    ]
    const usd = (v: number): string => `$${v.toFixed(v < 1 ? 4 : 2)}`
    const missing =
        cost.cost !== null && cost.cost.missing.length > 0
            ? `; no ${cost.cost.missing.join(' or ')} price given, counted as 0`
            : ''
    const money =
        cost.cost === null
            ? 'cost: pass --price-input and --price-output (US dollars per million tokens) for one.\n'
            : `cost: ${usd(cost.cost.total)} (input ${usd(cost.cost.input)}, output ${usd(cost.cost.output)}; cached input at the input price, an upper bound${missing}).\n`
    return (
        table(rows, ['key', 'calls', 'input', 'cached', 'uncached', 'output']) +
        `\ninput = input tokens of the judge calls (characters / ${cost.charsPerToken}); cached = the part equal to the start of an earlier call of the run, which a prefix cache serves; uncached = billed at full price; output = expected output tokens of the replies (${OUTPUT_TOKENS.perAnswer} per answer, ${OUTPUT_TOKENS.perCall} per call). No judge was called, nothing was written. about-namespace is counted as asked (a judge run asks it once the schema is stable).\n` +
        money +
        `repair turns: a reply that breaks its contract gets one more call for its unit, so at most ${n(cost.repairs.maxCalls)} more calls; with the prefix cached each is billed for its own follow-up: together at most ${n(cost.repairs.uncachedTokens)} uncached and ${n(cost.repairs.cachedTokens)} cached input tokens, ${n(cost.repairs.outputTokens)} output tokens${cost.repairs.cost !== null ? `, ${usd(cost.repairs.cost)}` : ''} (not in the figures above).\n`
    )
}

/** What `--estimate` prints: the calls, tokens and cost the grading would take. */
export function estimateOutput(options: GradeCommandOptions, now: string, namespaces: GradeNamespaceResult[]): string {
    const cost = JudgeCost.estimate({
        calls: JudgeCost.callsOf({ namespaces }),
        ...definedFields({ prices: options.prices })
    })
    if (!options.json) return estimateText(cost)
    const { calls, inputTokens, cachedTokens, uncachedTokens, outputTokens, charsPerToken, byKey } = cost
    const estimate: GradeEstimateJson['estimate'] = {
        calls,
        inputTokens,
        cachedTokens,
        uncachedTokens,
        outputTokens,
        charsPerToken,
        cost: cost.cost,
        byKey
    }
    const document: GradeEstimateJson = { now, estimate }
    return `${JSON.stringify(document, null, 2)}\n`
}
