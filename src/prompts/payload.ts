import { AREA_CATALOGUE, isArea, MAX_ITERATIONS } from '../areas/catalogue.js'
import { validateAreaOutput, type AreaAnswer, type AreaOutput, type ImprovementHint } from '../areas/output.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { inspectJson, type JsonLimits } from '../json/guard.js'
import { AREAS, NA_REASONS, type Area, type NaReason } from '../model/constants.js'
import type { Persona } from '../model/types.js'
import { isIsoDateTime, toFileTimestamp } from '../time.js'
import { isObject } from '../model/object.js'

/** Envelope fields a scores payload does not carry; the caller supplies them. */
export interface PayloadEnvelope {
    /** 8-hex hash of the graded schema (also the gradingId prefix). */
    readonly schemaHash: string
    /** When the harness answered (ISO 8601); also the gradingId timestamp. */
    readonly timestamp: string
    /** Inner-loop round, 1–5. */
    readonly iteration: number
    /** Required for persona-bound areas, absent for neutral ones. */
    readonly persona?: Persona
    /** A payload has no hints; pass them when the loop produced some. */
    readonly improvementHints?: readonly ImprovementHint[]
}

/** One area output built from the payload, with the tool it is about (per-tool areas). */
export interface PayloadOutput {
    readonly tool: string | null
    readonly output: AreaOutput
}

type Obj = Record<string, unknown>

/** Areas whose payload has one result per unit (tool or schema) rather than one per area. */
const PER_UNIT: readonly Area[] = ['single-test', 'tools-aggregate-schema']

/**
 * Converts the results of one accepted payload area (`[{ tool?, scores: { qid: 1..5 | 'n/a' }, reasoning, naReasons? }]`)
 * into area output envelopes that {@link validateAreaOutput} accepts and `Areas.toGradingEntry`
 * converts: one per result for the per-unit areas (single-test, tools-aggregate-schema), one for
 * the whole area otherwise. An `n/a` needs its reason from `naReasons` or an explicit `defaultNaReason`.
 */
export function payloadToAreaOutputs(area: unknown, results: unknown, envelope: unknown, defaultNaReason: unknown, limits: JsonLimits): { outputs: PayloadOutput[]; errors: Issue[] } {
    const errors: Issue[] = []
    const fail = (list: Issue[]): { outputs: PayloadOutput[]; errors: Issue[] } => ({ outputs: [], errors: list })
    if (!isArea(area)) return fail([createIssue(area === undefined ? 'PB-001' : 'PB-004', '/area', { field: 'area', value: describeValue(area), expected: AREAS.join(', ') })])
    const guard = inspectJson({ results, envelope: envelope ?? null }, limits)
    if (guard.length > 0) return fail(guard)
    if (!Array.isArray(results) || results.length === 0) return fail([createIssue(results === undefined ? 'PB-001' : 'PB-002', '/results', { field: 'results', expected: 'non-empty array', actual: typeOfValue(results) })])
    if (defaultNaReason !== undefined && !(NA_REASONS as readonly unknown[]).includes(defaultNaReason)) errors.push(createIssue('NA-001', '/defaultNaReason', { detail: describeValue(defaultNaReason) }))
    if (!isObject(envelope)) return fail([...errors, createIssue(envelope === undefined ? 'PB-001' : 'PB-002', '/envelope', { field: 'envelope', expected: '{ schemaHash, timestamp, iteration, persona?, improvementHints? }', actual: typeOfValue(envelope) })])
    if (typeof envelope.schemaHash !== 'string' || !/^[a-f0-9]{8}$/.test(envelope.schemaHash)) errors.push(createIssue('ARE-009', '/envelope/schemaHash', { field: 'schemaHash', expected: '8 lowercase hex' }))
    if (!isIsoDateTime(envelope.timestamp)) errors.push(createIssue('ARE-009', '/envelope/timestamp', { field: 'timestamp', expected: 'ISO 8601 date-time' }))
    if (!(typeof envelope.iteration === 'number' && Number.isInteger(envelope.iteration) && envelope.iteration >= 1 && envelope.iteration <= MAX_ITERATIONS)) {
        errors.push(createIssue('GRD-030', '/envelope/iteration', { max: MAX_ITERATIONS, value: describeValue(envelope.iteration) }))
    }
    if (envelope.improvementHints !== undefined && !Array.isArray(envelope.improvementHints)) errors.push(createIssue('GRD-031', '/envelope/improvementHints', { detail: `expected an array, got ${typeOfValue(envelope.improvementHints)}` }))
    const personaBound = AREA_CATALOGUE[area].personaRequired
    if (personaBound && envelope.persona === undefined) errors.push(createIssue('ARE-010', '/envelope/persona', { detail: `{basePersonaId, lensId} is required for persona-bound area ${area}` }))
    if (!personaBound && envelope.persona !== undefined) errors.push(createIssue('ARE-010', '/envelope/persona', { detail: `must not be given for neutral area ${area}` }))

    const perUnit = PER_UNIT.includes(area)
    const groups: Array<{ tool: string | null; answers: AreaAnswer[]; from: number | null }> = perUnit ? [] : [{ tool: null, answers: [], from: null }]
    results.forEach((r, i) => {
        const at = (...t: Array<string | number>): string => pointer('results', i, ...t)
        if (!isObject(r) || !isObject(r.scores)) return errors.push(createIssue('PB-026', at(), { field: `results[${i}]`, detail: 'must be { tool?, scores, reasoning, naReasons? }' }))
        if (typeof r.reasoning !== 'string' || r.reasoning.trim() === '') errors.push(createIssue('PB-026', at('reasoning'), { field: 'reasoning', detail: 'must be a non-empty string' }))
        if (r.tool !== undefined && (typeof r.tool !== 'string' || r.tool === '')) errors.push(createIssue('PB-026', at('tool'), { field: 'tool', detail: 'must be a non-empty string' }))
        const reasons = isObject(r.naReasons) ? r.naReasons : {}
        const answers: AreaAnswer[] = []
        for (const [questionId, score] of Object.entries(r.scores)) {
            const valid = (typeof score === 'number' && score >= 1 && score <= 5) || score === 'n/a'
            if (!valid) {
                errors.push(createIssue('PB-023', at('scores', questionId), { value: describeValue(score), questionId }))
                continue
            }
            let naReason: NaReason | undefined
            if (score === 'n/a') {
                const reason = reasons[questionId] ?? defaultNaReason
                if (!(NA_REASONS as readonly unknown[]).includes(reason)) {
                    errors.push(createIssue('NA-001', at('naReasons', questionId), { detail: reason === undefined ? `no naReason for ${questionId} and no defaultNaReason` : describeValue(reason) }))
                    continue
                }
                naReason = reason as NaReason
            }
            answers.push({ questionId, score: score as number | 'n/a', reasoning: typeof r.reasoning === 'string' ? r.reasoning : '', ...(naReason !== undefined ? { naReason } : {}) })
        }
        if (perUnit) groups.push({ tool: typeof r.tool === 'string' ? r.tool : null, answers, from: i })
        else (groups[0] as { answers: AreaAnswer[] }).answers.push(...answers)
        return undefined
    })
    if (errors.length > 0) return fail(errors)

    const stamp = toFileTimestamp(envelope.timestamp as string) as string
    const outputs: PayloadOutput[] = []
    for (const group of groups) {
        const output = {
            gradingId: `${envelope.schemaHash as string}--${stamp}`,
            schemaHash: envelope.schemaHash as string,
            area,
            iteration: envelope.iteration as number,
            timestamp: envelope.timestamp as string,
            persona: personaBound ? (envelope.persona as Persona) : null,
            answers: group.answers,
            improvementHints: (envelope.improvementHints ?? []) as ImprovementHint[],
            harness: 'claude-code' as const
        }
        const checked = validateAreaOutput(area, output, limits)
        if (checked.output === null) {
            // Missing or surplus questions show up here; point at the result (or the area's results) they came from.
            const base = group.from === null ? '/results' : pointer('results', group.from)
            errors.push(...checked.errors.map((e) => ({ ...e, path: base })))
            continue
        }
        outputs.push({ tool: group.tool, output: checked.output })
    }
    return errors.length > 0 ? fail(errors) : { outputs, errors: [] }
}
