import { AREA_CATALOGUE, isArea, MAX_ITERATIONS } from '../areas/catalogue.js'
import { validateAreaOutput, type AreaAnswer, type AreaOutput, type ImprovementHint } from '../areas/output.js'
import type { ErrorCode } from '../errors/catalogue/index.js'
import * as v from 'valibot'
import { createIssue, describeValue, typeOfValue, type IssueParams } from '../errors/issue.js'
import { objectArg, parseArgs, says, type ArgCodes } from '../validation/args.js'
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

/** The results of one area, grouped by the unit they grade; `from` is the result index (null: the whole area). */
interface AnswerGroup {
    readonly tool: string | null
    readonly answers: AreaAnswer[]
    readonly from: number | null
}

type PayloadResult = { outputs: PayloadOutput[]; errors: Issue[] }

// PB-001 absent, PB-002 a wrong type; an unknown area (PB-004), an unknown n/a reason (NA-001) and the envelope's
// own fields are the payload's rules, checked by hand in the order they report.
const ARGS: ArgCodes<'PB-001' | 'PB-002'> = { missing: 'PB-001', mismatch: 'PB-002', create: createIssue }
const KEY_STYLE = { field: 'key', actual: 'type' } as const
const RESULTS = v.object({
    results: v.custom<unknown[]>(
        (x) => Array.isArray(x) && x.length > 0,
        says({ expected: 'non-empty array', actual: 'type' })
    )
})
const ENVELOPE = v.object({
    envelope: objectArg({
        expected: '{ schemaHash, timestamp, iteration, persona?, improvementHints? }',
        actual: 'type'
    })
})

/**
 * Converts the results of one accepted payload area (`[{ tool?, scores: { qid: 1..5 | 'n/a' }, reasoning, naReasons?
 * }]`) into area output envelopes that {@link validateAreaOutput} accepts and `Areas.toGradingEntry` converts: one per
 * result for the per-unit areas (single-test, tools-aggregate-schema), one for the whole area otherwise. An `n/a` needs
 * its reason from `naReasons` or an explicit `defaultNaReason`.
 */
export function payloadToAreaOutputs(
    area: unknown,
    results: unknown,
    envelope: unknown,
    defaultNaReason: unknown,
    limits: JsonLimits
): { outputs: PayloadOutput[]; errors: Issue[] } {
    const errors: Issue[] = []
    const fail = (list: Issue[]): PayloadResult => ({ outputs: [], errors: list })
    if (!isArea(area)) {
        const code = area === undefined ? 'PB-001' : 'PB-004'
        return fail([
            createIssue(code, '/area', { field: 'area', value: describeValue(area), expected: AREAS.join(', ') })
        ])
    }
    const guard = inspectJson({ results, envelope: envelope ?? null }, limits)
    if (guard.length > 0) return fail(guard)
    const given = parseArgs(RESULTS, { results }, ARGS, KEY_STYLE)
    if (given.value === null) return fail(given.errors)
    const list = given.value.results
    if (defaultNaReason !== undefined && !(NA_REASONS as readonly unknown[]).includes(defaultNaReason)) {
        errors.push(createIssue('NA-001', '/defaultNaReason', { detail: describeValue(defaultNaReason) }))
    }
    const shape = parseArgs(ENVELOPE, { envelope }, ARGS, KEY_STYLE)
    if (shape.value === null) return fail([...errors, ...shape.errors])
    errors.push(...checkEnvelope(area, shape.value.envelope))
    const groups = groupAnswers(area, list, defaultNaReason, errors)
    if (errors.length > 0) return fail(errors)
    const built = buildOutputs(area, shape.value.envelope, groups, limits)
    return built.errors.length > 0 ? fail(built.errors) : built
}

/** The envelope's own fields, in field order; the persona must match whether the area is persona-bound. */
function checkEnvelope(area: Area, envelope: Obj): Issue[] {
    const errors: Issue[] = []
    const add = (code: ErrorCode, field: string, params: IssueParams): void => {
        errors.push(createIssue(code, `/envelope/${field}`, params))
    }
    const { schemaHash, iteration, improvementHints } = envelope
    if (typeof schemaHash !== 'string' || !/^[a-f0-9]{8}$/.test(schemaHash)) {
        add('ARE-009', 'schemaHash', { field: 'schemaHash', expected: '8 lowercase hex' })
    }
    if (!isIsoDateTime(envelope.timestamp)) {
        add('ARE-009', 'timestamp', { field: 'timestamp', expected: 'ISO 8601 date-time' })
    }
    const isRound = typeof iteration === 'number' && Number.isInteger(iteration)
    if (!(isRound && iteration >= 1 && iteration <= MAX_ITERATIONS))
        add('GRD-030', 'iteration', { max: MAX_ITERATIONS, value: describeValue(iteration) })
    if (improvementHints !== undefined && !Array.isArray(improvementHints)) {
        add('GRD-031', 'improvementHints', { detail: `expected an array, got ${typeOfValue(improvementHints)}` })
    }
    const personaBound = AREA_CATALOGUE[area].personaRequired
    if (personaBound && envelope.persona === undefined) {
        add('ARE-010', 'persona', { detail: `{basePersonaId, lensId} is required for persona-bound area ${area}` })
    }
    if (!personaBound && envelope.persona !== undefined) {
        add('ARE-010', 'persona', { detail: `must not be given for neutral area ${area}` })
    }
    return errors
}

/** One group per result for the per-unit areas, one group for the whole area otherwise; issues go to `errors`. */
function groupAnswers(area: Area, results: unknown[], defaultNaReason: unknown, errors: Issue[]): AnswerGroup[] {
    const perUnit = PER_UNIT.includes(area)
    const whole: AnswerGroup = { tool: null, answers: [], from: null }
    const groups: AnswerGroup[] = perUnit ? [] : [whole]
    results.forEach((r, i) => {
        const answers = resultAnswers(r, i, defaultNaReason, errors)
        if (answers === null || !isObject(r)) return
        if (perUnit) groups.push({ tool: typeof r.tool === 'string' ? r.tool : null, answers, from: i })
        else whole.answers.push(...answers)
    })
    return groups
}

/** The answers of result `i`, or null when it is not an object with scores. */
function resultAnswers(r: unknown, i: number, defaultNaReason: unknown, errors: Issue[]): AreaAnswer[] | null {
    const at = (...t: Array<string | number>): string => pointer('results', i, ...t)
    if (!isObject(r) || !isObject(r.scores)) {
        const detail = 'must be { tool?, scores, reasoning, naReasons? }'
        errors.push(createIssue('PB-026', at(), { field: `results[${i}]`, detail }))
        return null
    }
    if (typeof r.reasoning !== 'string' || r.reasoning.trim() === '') {
        errors.push(
            createIssue('PB-026', at('reasoning'), { field: 'reasoning', detail: 'must be a non-empty string' })
        )
    }
    if (r.tool !== undefined && (typeof r.tool !== 'string' || r.tool === '')) {
        errors.push(createIssue('PB-026', at('tool'), { field: 'tool', detail: 'must be a non-empty string' }))
    }
    const reasons = isObject(r.naReasons) ? r.naReasons : {}
    const reasoning = typeof r.reasoning === 'string' ? r.reasoning : ''
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
                const missing = `no naReason for ${questionId} and no defaultNaReason`
                const detail = reason === undefined ? missing : describeValue(reason)
                errors.push(createIssue('NA-001', at('naReasons', questionId), { detail }))
                continue
            }
            naReason = reason as NaReason
        }
        const answer: AreaAnswer = { questionId, score: score as number | 'n/a', reasoning }
        answers.push(naReason !== undefined ? { ...answer, naReason } : answer)
    }
    return answers
}

/** One validated area output per group; runs only on an envelope that passed {@link checkEnvelope}. */
function buildOutputs(area: Area, envelope: Obj, groups: readonly AnswerGroup[], limits: JsonLimits): PayloadResult {
    const errors: Issue[] = []
    const stamp = toFileTimestamp(envelope.timestamp as string) as string
    const outputs: PayloadOutput[] = []
    for (const group of groups) {
        const output = {
            gradingId: `${envelope.schemaHash as string}--${stamp}`,
            schemaHash: envelope.schemaHash as string,
            area,
            iteration: envelope.iteration as number,
            timestamp: envelope.timestamp as string,
            persona: AREA_CATALOGUE[area].personaRequired ? (envelope.persona as Persona) : null,
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
    return { outputs, errors }
}
