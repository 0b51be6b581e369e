import { AREA_CATALOGUE, isArea } from '../areas/catalogue.js'
import { createIssue, dedupeIssues, describeValue, typeOfValue } from '../errors/issue.js'
import { joinPointer, pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { inspectJson, parseJsonText, type JsonLimits } from '../json/guard.js'
import type { Area } from '../model/constants.js'
import { validatePromptsV2, validateScoresV2 } from '../validation/validators.js'
import type { ErrorObject } from '../validation/types.js'
import type { PromptsV2 } from './emit.js'
import { isObject } from '../model/object.js'

/** One result of an area in the scores payload. */
export interface PayloadResult {
    readonly tool?: string
    readonly scores: Readonly<Record<string, number | 'n/a'>>
    readonly reasoning: string
    readonly naReasons?: Readonly<Record<string, string>>
}

/** The scores payload answering a prompts.json v2. */
export interface ScoresPayload {
    readonly scores: readonly unknown[]
    readonly scoringProtocol?: 'v1'
    readonly taskId?: string
    readonly areas?: ReadonlyArray<{ readonly area: Area; readonly results: readonly PayloadResult[] }>
}

/** Result of {@link verifyScoresPayload}. */
export interface VerifyResult {
    readonly accepted: boolean
    /** No taskId: the legacy path, where nothing is verified (05 §1.6 step 1). */
    readonly legacy: boolean
    readonly acceptedAreas: Area[] | null
    readonly missingAreas: Area[] | null
    readonly taskComplete: boolean | null
    readonly payload: ScoresPayload | null
    readonly errors: Issue[]
}

type Obj = Record<string, unknown>

function readDoc(value: unknown, field: string, limits: JsonLimits): { doc: unknown; errors: Issue[] } {
    if (value === undefined) return { doc: undefined, errors: [createIssue('PB-001', `/${field}`, { field })] }
    if (typeof value === 'string') {
        const parsed = parseJsonText(value, limits)
        return { doc: parsed.value, errors: parsed.errors.map((i) => ({ ...i, path: `/${field}${i.path}` })) }
    }
    return { doc: value, errors: inspectJson(value, limits, `/${field}`) }
}

function mapScoresError(err: ErrorObject): Issue | null {
    const at = `/scores${err.instancePath}`
    const params = err.params as Obj
    if (err.schemaPath.includes('/oneOf/')) return null
    const score = /^\/scores\/areas\/\d+\/results\/\d+\/scores\/([^/]+)$/.exec(at)
    if (score !== null && err.keyword === 'oneOf') {
        return createIssue('PB-023', at, {
            value: describeValue(err.data),
            questionId: (score[1] as string).replace(/~1/g, '/').replace(/~0/g, '~')
        })
    }
    switch (err.keyword) {
        case 'required':
            return createIssue('PB-026', joinPointer(at, String(params.missingProperty)), {
                field: String(params.missingProperty),
                detail: 'is missing'
            })
        case 'additionalProperties':
            return createIssue('PB-026', joinPointer(at, String(params.additionalProperty)), {
                field: String(params.additionalProperty),
                detail: 'is not allowed here'
            })
        case 'propertyNames':
        case 'oneOf':
            return null
        case 'pattern':
            if (/\/taskId$/.test(at)) return createIssue('TID-007', at, { value: describeValue(err.data) })
            return createIssue('PB-026', at, {
                field: String(params.propertyName ?? at),
                detail: `does not match ${String(params.pattern)}`
            })
        case 'enum':
            if (/\/area$/.test(at))
                return createIssue('PB-004', at, {
                    value: describeValue(err.data),
                    expected: Object.keys(AREA_CATALOGUE).join(', ')
                })
            if (/\/naReasons\//.test(at)) return createIssue('NA-001', at, { detail: describeValue(err.data) })
            return createIssue('PB-026', at, {
                field: at,
                detail: `must be one of ${((params.allowedValues as unknown[]) ?? []).join(', ')}`
            })
        case 'const':
            return createIssue('PB-026', at, { field: at, detail: `must be ${describeValue(params.allowedValue)}` })
        default:
            return createIssue('PB-026', at, { field: at, detail: `${err.keyword}: ${err.message ?? 'invalid'}` })
    }
}

function checkPrompts(doc: unknown): { prompts: PromptsV2 | null; errors: Issue[] } {
    const validate = validatePromptsV2
    if (validate(doc)) return { prompts: doc as PromptsV2, errors: [] }
    const errors = (validate.errors ?? [])
        .filter((e) => e.keyword !== 'oneOf' && !e.schemaPath.includes('/oneOf/'))
        .map((e) =>
            createIssue('PB-024', `/prompts${e.instancePath}`, {
                detail: `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`
            })
        )
    if (errors.length === 0)
        errors.push(
            createIssue('PB-024', '/prompts/areas', {
                detail: 'an area entry is neither a composed nor a deferred entry'
            })
        )
    return { prompts: null, errors: dedupeIssues(errors) }
}

/** The open emit as the state records it. */
interface OpenEmit {
    taskId: string
    emittedAreaSet: Area[]
    askedByArea: Partial<Record<Area, number>>
    consumedAreas: Area[]
}

function checkState(doc: unknown): { state: OpenEmit | null; errors: Issue[] } {
    if (!isObject(doc))
        return {
            state: null,
            errors: [createIssue('PB-025', '/state', { detail: `expected an object, got ${typeOfValue(doc)}` })]
        }
    if (typeof doc.taskId !== 'string' || !Array.isArray(doc.emittedAreaSet)) {
        return {
            state: null,
            errors: [createIssue('PB-020', '/state', { detail: 'the state has no taskId or emittedAreaSet' })]
        }
    }
    const errors: Issue[] = []
    doc.emittedAreaSet.forEach((a, i) => {
        if (!isArea(a))
            errors.push(
                createIssue('PB-025', `/state/emittedAreaSet/${i}`, { detail: `unknown area ${describeValue(a)}` })
            )
    })
    const asked = doc.askedByArea ?? {}
    if (!isObject(asked))
        errors.push(createIssue('PB-025', '/state/askedByArea', { detail: 'expected an object of counts' }))
    else {
        for (const [k, v] of Object.entries(asked)) {
            if (!isArea(k) || !(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0))
                errors.push(
                    createIssue('PB-025', pointer('state', 'askedByArea', k), {
                        detail: `expected an area and a count, got ${describeValue(v)}`
                    })
                )
        }
    }
    const consumed = doc.consumedAreas ?? []
    if (!Array.isArray(consumed) || !consumed.every(isArea))
        errors.push(createIssue('PB-025', '/state/consumedAreas', { detail: 'expected an array of areas' }))
    if (errors.length > 0) return { state: null, errors }
    return {
        state: {
            taskId: doc.taskId,
            emittedAreaSet: doc.emittedAreaSet as Area[],
            askedByArea: asked as Partial<Record<Area, number>>,
            consumedAreas: consumed as Area[]
        },
        errors
    }
}

/**
 * Verifies a scores payload against the open emit, in the CLI's order (05 §1.6
 * verifyConsumePayload): `scores` must be an array; without `taskId` nothing is verified (legacy);
 * otherwise the state must hold an open emit, the taskId must match it, `areas` must be an array of
 * emitted areas, and every non-empty `results` must have the asked length. Stricter than the CLI:
 * every answer must be a score 1–5 or `"n/a"` (a `null` from the skeleton is not an answer), and
 * every question id must belong to its area.
 */
export function verifyScoresPayload(
    prompts: unknown,
    state: unknown,
    scores: unknown,
    limits: JsonLimits
): VerifyResult {
    const read = readScoresPayload(scores, limits)
    if (read.payload === null) return read.legacy ? legacy() : reject(read.errors)
    const { payload } = read
    const emit = readOpenEmit(prompts, state, limits)
    if (emit.open === null) return reject(emit.errors)
    const { open } = emit
    if (payload.taskId !== open.taskId) {
        return reject([
            createIssue('TID-008', '/scores/taskId', { value: describeValue(payload.taskId), expected: open.taskId })
        ])
    }
    const list = payload.areas
    // The payload schema already made `areas` an array when present.
    if (list === undefined) {
        return reject([
            createIssue('PB-019', '/scores/areas', { detail: '"areas" must be an array when a taskId is given' })
        ])
    }
    const errors = checkPayloadAreas(list, open)
    if (errors.length > 0) return reject(errors)
    const answered = list.filter((a) => a.results.length > 0).map((a) => a.area)
    const acceptedAreas = open.emittedAreaSet.filter((a) => open.consumedAreas.includes(a) || answered.includes(a))
    const missingAreas = open.emittedAreaSet.filter((a) => !acceptedAreas.includes(a))
    const taskComplete = missingAreas.length === 0
    return { accepted: true, legacy: false, acceptedAreas, missingAreas, taskComplete, payload, errors: [] }
}

const UNVERIFIED = { acceptedAreas: null, missingAreas: null, taskComplete: null, payload: null } as const

function legacy(): VerifyResult {
    return { accepted: true, legacy: true, ...UNVERIFIED, errors: [] }
}

function reject(errors: Issue[]): VerifyResult {
    return { accepted: false, legacy: false, ...UNVERIFIED, errors }
}

type ReadPayload = { payload: ScoresPayload | null; legacy: boolean; errors: Issue[] }
type ReadEmit = { open: OpenEmit | null; errors: Issue[] }

/** Stage 1: the scores document alone; no taskId means the legacy path, checked no further. */
function readScoresPayload(scores: unknown, limits: JsonLimits): ReadPayload {
    const fail = (errors: Issue[]): ReadPayload => ({ payload: null, legacy: false, errors })
    const s = readDoc(scores, 'scores', limits)
    if (s.errors.length > 0) return fail(s.errors)
    const doc = s.doc
    if (!isObject(doc) || !Array.isArray(doc.scores)) {
        return fail([
            createIssue('PB-019', isObject(doc) ? '/scores/scores' : '/scores', { detail: '"scores" must be an array' })
        ])
    }
    if (doc.taskId === undefined) return { payload: null, legacy: true, errors: [] }
    const validate = validateScoresV2
    if (!validate(doc)) {
        const errors = dedupeIssues((validate.errors ?? []).map(mapScoresError).filter((i): i is Issue => i !== null))
        const detail = 'does not match the payload schema'
        return fail(errors.length > 0 ? errors : [createIssue('PB-026', '/scores', { field: 'scores', detail })])
    }
    return { payload: doc as unknown as ScoresPayload, legacy: false, errors: [] }
}

/** Stage 2: the state's open emit, then the prompts it emitted, which must carry the same taskId. */
function readOpenEmit(prompts: unknown, state: unknown, limits: JsonLimits): ReadEmit {
    const fail = (errors: Issue[]): ReadEmit => ({ open: null, errors })
    const st = readDoc(state, 'state', limits)
    if (st.errors.length > 0) return fail(st.errors)
    const checkedState = checkState(st.doc)
    if (checkedState.state === null) return fail(checkedState.errors)
    const open = checkedState.state
    const p = readDoc(prompts, 'prompts', limits)
    if (p.errors.length > 0) return fail(p.errors)
    const checkedPrompts = checkPrompts(p.doc)
    if (checkedPrompts.prompts === null) return fail(checkedPrompts.errors)
    const { taskId } = checkedPrompts.prompts
    if (taskId !== open.taskId) {
        return fail([createIssue('TID-008', '/prompts/taskId', { value: taskId, expected: open.taskId })])
    }
    return { open, errors: [] }
}

/** Stage 3: each area emitted and named once, each answered with the asked count and its own question ids. */
function checkPayloadAreas(list: NonNullable<ScoresPayload['areas']>, open: OpenEmit): Issue[] {
    const errors: Issue[] = []
    const outside = list.map((a) => a.area).filter((a) => !open.emittedAreaSet.includes(a))
    if (outside.length > 0)
        errors.push(createIssue('PB-021', '/scores/areas', { value: [...new Set(outside)].join(', ') }))
    const named = new Set<Area>()
    list.forEach((entry, i) => {
        const { area, results } = entry
        if (named.has(area)) {
            errors.push(createIssue('PB-016', `/scores/areas/${i}/area`, { area, detail: 'twice in the payload' }))
        }
        named.add(area)
        const asked = open.askedByArea[area]
        if (results.length > 0 && asked !== undefined && results.length !== asked) {
            const counts = { actual: results.length, expected: asked }
            errors.push(createIssue('PB-022', `/scores/areas/${i}/results`, { area, ...counts }))
        }
        const ids = AREA_CATALOGUE[area].questionIds
        results.forEach((r, j) => {
            for (const qid of Object.keys(r.scores)) {
                const at = pointer('scores', 'areas', i, 'results', j, 'scores', qid)
                if (!ids.includes(qid)) errors.push(createIssue('ARE-007', at, { value: qid, area }))
            }
        })
    })
    return errors
}

/** Validates a prompts.json v2 document (value or JSON text); paths under `/prompts`. */
export function validatePromptsV2Doc(
    prompts: unknown,
    limits: JsonLimits
): { valid: boolean; prompts: PromptsV2 | null; errors: Issue[] } {
    const p = readDoc(prompts, 'prompts', limits)
    if (p.errors.length > 0) return { valid: false, prompts: null, errors: p.errors }
    const checked = checkPrompts(p.doc)
    return { valid: checked.prompts !== null, prompts: checked.prompts, errors: checked.errors }
}
