import { AREA_CATALOGUE, isArea, questionsOf } from '../areas/catalogue.js'
import { Areas } from '../areas/areas.js'
import * as v from 'valibot'
import { createIssue, describeValue, rebaseIssues } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { inspectJson, DEFAULT_JSON_LIMITS } from '../json/guard.js'
import {
    AREAS,
    NA_REASONS,
    TIER_MAX_GRADE,
    type Area,
    type GradingTier,
    type MaxAttainableGrade,
    type NaReason
} from '../model/constants.js'
import { isIsoDateTime } from '../time.js'
import { SCORING_PROTOCOL_VERSION } from '../version.js'
import {
    buildAreaPrompt,
    catalogueQuestions,
    checkPersona,
    type AreaPromptMetadata,
    type PredecessorGrade,
    type PromptPersona
} from './compose.js'
import { buildGoalBlock } from './goal-block.js'
import { describeRedactions, redactTrusted } from './redact.js'
import { TaskId } from './task-id.js'
import { isObject } from '../model/object.js'
import { objectArg, parseArgs, says, wholeArg } from '../validation/args.js'
import { definedFields } from '../model/fields.js'

/** The role of each file placeholder the question catalogue uses (06 §19.13, plus `selectionIndexPath`). */
export const FILE_PLACEHOLDER_ROLES: Readonly<Record<string, string>> = Object.freeze({
    schemaPath: 'the schema source (.mjs)',
    responseFixturePath: 'a captured test response of the tool',
    providerDocsPath: 'the provider API documentation',
    namespacePath: 'the namespace folder with all its schemas',
    domainKnowledgePath: 'the Domain-Knowledge document (the selection About)',
    aboutPath: 'the About resource',
    personaPath: 'the base persona description',
    lensPath: 'the lens definition',
    skillPath: 'the skill under grading',
    l1SkillsPath: 'the L1 skills of the selection',
    l2SkillsPath: 'the L2 skills of the selection',
    selectionIndexPath: 'the selection index.json (lockSnapshot and member-resolution manifest)'
})

/** A composed area entry of prompts.json v2. */
export interface ComposedArea {
    readonly area: Area
    readonly prompt: string
    readonly metadata: AreaPromptMetadata
    readonly questionCount: number
    readonly personaRequired: boolean
    readonly deferred: false
}

/** A persona-bound area emitted without a prompt because no persona was supplied for it. */
export interface DeferredArea {
    readonly area: Area
    readonly prompt: null
    readonly personaRequired: true
    readonly deferred: true
    readonly reason: string
}

/** prompts.json v2, keys in the CLI's write order (05 §1.6). */
export interface PromptsV2 {
    readonly target: string
    readonly flow: 'provider' | 'selection'
    readonly tier: GradingTier
    readonly maxGrade: MaxAttainableGrade
    readonly namespace: string
    readonly scoringProtocol: 'v1'
    readonly maxIterations: number
    readonly taskId: string
    readonly goal: { readonly condition: string; readonly maxTurns: number; readonly goalBlock: string }
    readonly emitSkill?: string
    readonly areas: ReadonlyArray<ComposedArea | DeferredArea>
    readonly skippedAreas: ReadonlyArray<{ readonly area: Area; readonly naReason: NaReason; readonly note?: string }>
    readonly gatedAreas: ReadonlyArray<{ readonly area: Area; readonly reason: string }>
    readonly payloadSkeleton: {
        readonly taskId: string
        readonly areas: ReadonlyArray<{ readonly area: Area; readonly results: readonly [] }>
    }
    readonly pretests?: ReadonlyArray<Record<string, unknown>>
}

/** state.json at emit time (the baton, 04 ⚠ D8 / 05 §1.6). */
export interface EmitState {
    readonly target: string
    readonly flow: 'provider' | 'selection'
    readonly tier: GradingTier
    readonly taskId: string
    readonly runId: string
    readonly scopeName: string | null
    readonly emittedAreaSet: readonly Area[]
    readonly askedByArea: Readonly<Partial<Record<Area, number>>>
    readonly taskComplete: false
    readonly consumedAreas: readonly Area[]
    readonly status: 'prompts-emitted'
    readonly createdAt: string
    readonly lastUpdatedAt: string
    readonly phases: {
        readonly promptsEmitted: string
        readonly scoresReceived: null
        readonly gradeComputed: null
        readonly indexRebuilt: null
    }
    readonly dependencyChain: readonly []
}

/** Input of {@link emitAreaPrompts}. */
export interface EmitInput {
    /** The target as typed (`demoapi` or `demoapi/prices`); also the task-id slug. */
    readonly target?: unknown
    readonly flow?: unknown
    /** Basename of the target folder; the first segment of `target` when omitted. */
    readonly namespace?: unknown
    /** Areas to emit, in order (already filtered for applicability and gates). */
    readonly areas?: unknown
    readonly persona?: unknown
    /** Persona-bound areas that may be composed with `persona`; all of them when omitted. */
    readonly personaAreas?: unknown
    /** Real paths for the file placeholders, e.g. `{ schemaPath: '/island/providers/demo/prices/schema/…mjs' }`. */
    readonly files?: unknown
    readonly policies?: unknown
    readonly predecessorGrades?: unknown
    readonly goal?: unknown
    readonly skippedAreas?: unknown
    readonly gatedAreas?: unknown
    readonly maxIterations?: unknown
    /** Expected result counts for the per-unit areas: `{ tools, schemas }` (05 §1.6 askedByArea). */
    readonly counts?: unknown
    readonly scopeName?: unknown
    readonly emitSkill?: unknown
    readonly pretests?: unknown
    readonly serverParams?: unknown
    /** ISO 8601; stamps state.json only. */
    readonly now?: unknown
}

type Obj = Record<string, unknown>
const FORBIDDEN_KEYS = new Set(['request', '_allParams'])

function findForbidden(value: unknown, path: string, out: Issue[]): void {
    if (Array.isArray(value))
        value.forEach((v, i) => {
            findForbidden(v, path + pointer(i), out)
        })
    else if (isObject(value)) {
        for (const [k, v] of Object.entries(value)) {
            if (FORBIDDEN_KEYS.has(k)) out.push(createIssue('PB-018', path + pointer(k), { field: k }))
            else findForbidden(v, path + pointer(k), out)
        }
    }
}

function filesFor(area: Area, paths: Obj, warnings: Issue[]): Array<{ path: string; role: string }> {
    const placeholders: string[] = []
    for (const q of questionsOf(area))
        for (const f of q.filesToRead) if (!placeholders.includes(f)) placeholders.push(f)
    return placeholders.map((token) => {
        const name = token.replace(/^\{\{|\}\}$/g, '')
        const given = paths[name]
        if (typeof given === 'string' && given.length > 0)
            return { path: given, role: FILE_PLACEHOLDER_ROLES[name] ?? name }
        warnings.push(createIssue('PB-WARN-002', pointer('files', name), { value: token, area }))
        return { path: token, role: FILE_PLACEHOLDER_ROLES[name] ?? name }
    })
}

function checkSide(list: readonly Area[], flow: 'provider' | 'selection', path: string, errors: Issue[]): void {
    list.forEach((a, i) => {
        if (AREA_CATALOGUE[a].side !== flow)
            errors.push(createIssue('PB-015', `${path}/${i}`, { area: a, side: AREA_CATALOGUE[a].side, flow }))
    })
}

/** The codes of every argument check of the emit input: a wrong type is PB-002, an absent required field PB-001. */
const ARGS = { missing: 'PB-001', mismatch: 'PB-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const

const AREA_LIST = v.array(v.unknown(), says('array'))

function checkAreaList(value: unknown, path: string, field: string, required: boolean, errors: Issue[]): Area[] {
    if (value === undefined && !required) return []
    const list = parseArgs(AREA_LIST, value, ARGS, { ...STYLE, at: [field] })
    if (list.value === null) {
        errors.push(...list.errors)
        return []
    }
    // An empty list, an unknown area and an area named twice are rules of their own (PB-003, PB-004, PB-016).
    if (required && list.value.length === 0) errors.push(createIssue('PB-003', path, { field }))
    const out: Area[] = []
    list.value.forEach((a, i) => {
        if (!isArea(a))
            errors.push(createIssue('PB-004', `${path}/${i}`, { value: describeValue(a), expected: AREAS.join(', ') }))
        else if (out.includes(a))
            errors.push(createIssue('PB-016', `${path}/${i}`, { area: a, detail: `twice in ${field}` }))
        else out.push(a)
    })
    return out
}

type Flow = 'provider' | 'selection'
type SkippedArea = { area: Area; naReason: NaReason; note?: string }
type GatedArea = { area: Area; reason: string }

/** The input once every field is known to be well formed: what the composing stages work from. */
interface CheckedEmit {
    readonly target: string
    readonly flow: Flow
    readonly maxIterations: number
    readonly areas: Area[]
    /** The persona allow-list; `null` when the caller gave none (every persona-bound area may use the persona). */
    readonly personaAreas: Area[] | null
    readonly persona: PromptPersona | null
    readonly files: Obj
    readonly policies: Obj[]
    readonly predecessors: Obj
    readonly skipped: SkippedArea[]
    readonly gated: GatedArea[]
    readonly counts: Obj
}

/** The tier, task id and Goal-Block every emitted prompt shares. */
interface TaskPlan {
    readonly tier: GradingTier
    readonly maxGrade: MaxAttainableGrade
    readonly taskId: string
    readonly goal: { readonly condition: string; readonly maxTurns: number; readonly goalBlock: string }
}

/** The area entries in emit order, and per composed area how many results the run expects back (05 §1.6). */
interface ComposedAreas {
    readonly entries: Array<ComposedArea | DeferredArea>
    readonly askedByArea: Partial<Record<Area, number>>
}

/** emitSkill and pretests after redaction; each only when the caller gave it. */
interface RedactedExtras {
    readonly emitSkill?: string
    readonly pretests?: Array<Record<string, unknown>>
}

const nonEmpty = (x: unknown): boolean => typeof x === 'string' && x !== ''
const TARGET = v.looseObject({ target: v.string() })
const SCALARS = v.looseObject({
    flow: v.picklist(['provider', 'selection'], says({ expected: "'provider' | 'selection'", actual: 'value' })),
    namespace: v.optional(
        v.custom(
            (x) => typeof x === 'string' && /^\S+$/.test(x),
            says({ expected: 'non-empty string', actual: 'value' })
        )
    ),
    now: v.custom(isIsoDateTime, says({ expected: 'ISO 8601 date-time', actual: 'value' })),
    // Absent or null is the default of 1.
    maxIterations: v.nullish(
        v.custom(
            (n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1,
            says({ expected: 'positive integer', actual: 'value' })
        )
    ),
    scopeName: v.nullish(v.custom(nonEmpty, says({ expected: 'non-empty string or null', actual: 'value' })))
})

/** The scalar fields: target, flow, namespace, now, maxIterations and scopeName, in that order. */
function checkScalars(input: EmitInput, errors: Issue[]): void {
    const target = parseArgs(TARGET, input, ARGS, STYLE)
    errors.push(...target.errors)
    if (target.value !== null && !/^\S+$/.test(target.value.target))
        errors.push(createIssue('PB-003', '/target', { field: 'target (non-empty, no whitespace)' }))
    errors.push(...parseArgs(SCALARS, input, ARGS, STYLE).errors)
}

function checkOptionalPersona(value: unknown, errors: Issue[]): PromptPersona | null {
    if (value === undefined) return null
    const checked = checkPersona(value, '/persona')
    errors.push(...checked.errors)
    return checked.persona
}

const isAreaList = (a: unknown): boolean => Array.isArray(a) && a.every(isArea)
const POLICY = v.pipe(objectArg(), v.looseObject({ appliesTo: v.custom((a) => a === 'all' || isAreaList(a)) }))
/** The caller's material; the keys of `files` are checked against the placeholders where it is read. */
const MATERIAL = v.looseObject({
    files: v.optional(objectArg({ expected: 'object of placeholder → path', actual: 'type' })),
    policies: v.optional(
        v.array(
            wholeArg(POLICY, { expected: "{ id, summary, appliesTo: 'all' | area[] }", actual: 'type' }),
            says('array')
        )
    ),
    predecessorGrades: v.optional(
        wholeArg(
            v.pipe(
                objectArg(),
                v.check((o) => Object.keys(o).every(isArea))
            ),
            {
                expected: 'object keyed by area',
                actual: 'type'
            }
        )
    )
})
const FILE_PATH = v.looseObject({ files: v.record(v.string(), v.custom(nonEmpty, says('non-empty string'))) })

/** files, policies and predecessorGrades: the caller's material the prompts quote. */
function checkMaterial(input: EmitInput, errors: Issue[]): Pick<CheckedEmit, 'files' | 'policies' | 'predecessors'> {
    const files = input.files === undefined ? {} : input.files
    const checked = parseArgs(MATERIAL, input, ARGS, STYLE)
    errors.push(...checked.errors.filter((e) => e.path.startsWith('/files')))
    if (isObject(files)) {
        for (const [k, v] of Object.entries(files)) {
            if (!(k in FILE_PLACEHOLDER_ROLES))
                errors.push(
                    createIssue('PB-002', pointer('files', k), {
                        field: `files.${k}`,
                        expected: Object.keys(FILE_PLACEHOLDER_ROLES).join(' | '),
                        actual: k
                    })
                )
            // A known placeholder's path: the first finding for the key is the one reported.
            else errors.push(...parseArgs(FILE_PATH, { files: { [k]: v } }, ARGS, STYLE).errors)
        }
    }
    errors.push(...checked.errors.filter((e) => !e.path.startsWith('/files')))
    const policies = input.policies === undefined ? [] : input.policies
    const predecessors = input.predecessorGrades === undefined ? {} : input.predecessorGrades
    return { files: files as Obj, policies: policies as Obj[], predecessors: predecessors as Obj }
}

const AREA_NOTES = v.looseObject({
    skippedAreas: v.optional(v.array(v.unknown(), says('array'))),
    gatedAreas: v.optional(v.array(v.unknown(), says('array')))
})
const SKIPPED_AREA = wholeArg(v.pipe(objectArg(), v.looseObject({ area: v.custom<Area>(isArea) })), {
    expected: '{ area, naReason, note? }',
    actual: 'type'
})
const NOTE = v.looseObject({ note: v.optional(v.string(says({ expected: 'string', field: 'note' }))) })
const GATED_AREA = wholeArg(
    v.pipe(objectArg(), v.looseObject({ area: v.custom<Area>(isArea), reason: v.custom<string>(nonEmpty) })),
    { expected: '{ area, reason }', actual: 'type' }
)

/** skippedAreas and gatedAreas: each area may appear once across areas, skippedAreas and gatedAreas. */
function checkSkippedAndGated(
    input: EmitInput,
    areas: readonly Area[],
    errors: Issue[]
): Pick<CheckedEmit, 'skipped' | 'gated'> {
    const lists = parseArgs(AREA_NOTES, input, ARGS, STYLE)
    errors.push(...lists.errors)
    const skipped = Array.isArray(input.skippedAreas)
        ? input.skippedAreas
        : input.skippedAreas === undefined
          ? []
          : null
    const gated = Array.isArray(input.gatedAreas) ? input.gatedAreas : input.gatedAreas === undefined ? [] : null
    const seen = new Map<Area, string>(areas.map((a) => [a, 'areas']))
    const skippedOut: SkippedArea[] = []
    ;(skipped ?? []).forEach((s, i) => {
        const at = `/skippedAreas/${i}`
        const item = parseArgs(SKIPPED_AREA, s, ARGS, { ...STYLE, at: ['skippedAreas', i] })
        if (item.value === null) {
            errors.push(...item.errors)
            return
        }
        // The closed set of reasons is a rule of the spec with its own code, not an argument's shape.
        if (!(NA_REASONS as readonly unknown[]).includes(s.naReason))
            errors.push(createIssue('NA-001', `${at}/naReason`, { detail: describeValue(s.naReason) }))
        errors.push(...parseArgs(NOTE, s, ARGS, { ...STYLE, at: ['skippedAreas', i] }).errors)
        if (seen.has(s.area))
            errors.push(
                createIssue('PB-016', `${at}/area`, { area: s.area, detail: `also in ${seen.get(s.area) as string}` })
            )
        seen.set(s.area, 'skippedAreas')
        skippedOut.push({
            area: s.area,
            naReason: s.naReason as NaReason,
            ...(typeof s.note === 'string' ? { note: s.note } : {})
        })
    })
    const gatedOut: GatedArea[] = []
    ;(gated ?? []).forEach((g, i) => {
        const at = `/gatedAreas/${i}`
        const item = parseArgs(GATED_AREA, g, ARGS, { ...STYLE, at: ['gatedAreas', i] })
        if (item.value === null) {
            errors.push(...item.errors)
            return
        }
        if (seen.has(g.area))
            errors.push(
                createIssue('PB-016', `${at}/area`, { area: g.area, detail: `also in ${seen.get(g.area) as string}` })
            )
        seen.set(g.area, 'gatedAreas')
        gatedOut.push({ area: g.area, reason: g.reason })
    })
    return { skipped: skippedOut, gated: gatedOut }
}

const GOAL = v.looseObject({ goal: v.optional(objectArg()) })
const EXTRAS = v.looseObject({
    counts: v.optional(objectArg({ expected: '{ tools?, schemas? }', actual: 'type' })),
    emitSkill: v.optional(v.string()),
    pretests: v.optional(v.array(v.unknown(), says('array')))
})

/** counts, emitSkill and pretests; a pretest may never carry its request or `_allParams` into a prompt. */
function checkExtras(input: EmitInput, errors: Issue[]): Obj {
    const extras = parseArgs(EXTRAS, input, ARGS, STYLE)
    errors.push(...extras.errors)
    if (Array.isArray(input.pretests)) findForbidden(input.pretests, '/pretests', errors)
    return (input.counts ?? {}) as Obj
}

/** Every field of the input, in field order; `checked` only when no field is wrong. */
function checkEmitInput(input: EmitInput): { checked: CheckedEmit | null; errors: Issue[] } {
    const errors: Issue[] = []
    checkScalars(input, errors)
    const areas = checkAreaList(input.areas, '/areas', 'areas', true, errors)
    const personaAreas = checkAreaList(input.personaAreas, '/personaAreas', 'personaAreas', false, errors)
    const persona = checkOptionalPersona(input.persona, errors)
    const material = checkMaterial(input, errors)
    const listed = checkSkippedAndGated(input, areas, errors)
    const counts = checkExtras(input, errors)
    const flow = input.flow
    if (flow === 'provider' || flow === 'selection') {
        checkSide(areas, flow, '/areas', errors)
        checkSide(
            listed.skipped.map((s) => s.area),
            flow,
            '/skippedAreas',
            errors
        )
        checkSide(
            listed.gated.map((g) => g.area),
            flow,
            '/gatedAreas',
            errors
        )
    }
    if (errors.length > 0) return { checked: null, errors }
    const checked: CheckedEmit = {
        target: input.target as string,
        flow: flow as Flow,
        maxIterations: (input.maxIterations ?? 1) as number,
        areas,
        personaAreas: input.personaAreas === undefined ? null : personaAreas,
        persona,
        ...material,
        ...listed,
        counts
    }
    return { checked, errors }
}

/** The tier from the flow, the task id binding the area set, and the Goal-Block. */
function planTask(checked: CheckedEmit, goalInput: unknown): { plan: TaskPlan | null; errors: Issue[] } {
    const tier: GradingTier = checked.flow === 'provider' ? 'autonomous' : 'group-bound'
    const maxGrade = TIER_MAX_GRADE[tier]
    const taskId = TaskId.generate({ schemaIdSlug: checked.target, areas: checked.areas })
    if (taskId.taskId === null) return { plan: null, errors: taskId.errors }
    const goalIn = isObject(goalInput) ? goalInput : {}
    const goalArg = parseArgs(GOAL, { goal: goalInput }, ARGS, STYLE)
    if (goalArg.value === null) return { plan: null, errors: goalArg.errors }
    const condition =
        goalIn.condition ??
        `Grade the ${checked.flow} "${checked.target}" (tier ${tier}, max grade ${maxGrade}) across all required areas until every area has a schema-valid grading file`
    const goal = buildGoalBlock(condition, undefined, goalIn.maxTurns)
    if (goal.goalBlock === null) return { plan: null, errors: rebaseIssues(goal.errors, '/goal') }
    // buildGoalBlock gives condition and maxTurns whenever it gives a block.
    return {
        plan: {
            tier,
            maxGrade,
            taskId: taskId.taskId,
            goal: { condition: goal.condition as string, maxTurns: goal.maxTurns as number, goalBlock: goal.goalBlock }
        },
        errors: []
    }
}

/** Why a persona-bound area is emitted without a prompt, or `null` when it can be composed. */
function deferralOf(area: Area, checked: CheckedEmit): string | null {
    if (!AREA_CATALOGUE[area].personaRequired) return null
    if (checked.persona === null) return 'persona required: no persona was supplied for this area'
    if (checked.personaAreas !== null && !checked.personaAreas.includes(area))
        return 'persona required: the area is not in the persona allow-list'
    return null
}

/** A per-unit area's result count, written as it came when wrong. */
const UNIT_COUNT = v.custom<number>(
    (n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1,
    says({ expected: 'positive integer', actual: 'value' })
)

/** How many results the run expects for a composed area: its question count, or the unit count of a per-unit area. */
function expectedResults(area: Area, questionCount: number, counts: Obj, errors: Issue[]): number | null {
    const perUnit = area === 'single-test' ? 'tools' : area === 'tools-aggregate-schema' ? 'schemas' : null
    if (perUnit === null) return questionCount
    const n = parseArgs(UNIT_COUNT, counts[perUnit], ARGS, { ...STYLE, at: ['counts', perUnit] })
    errors.push(...n.errors)
    return n.value
}

/** One area's prompt; its composing errors are rebased onto the caller's fields, its warnings onto the area entry. */
function composeArea(
    area: Area,
    index: number,
    checked: CheckedEmit,
    plan: TaskPlan,
    serverParams: unknown,
    errors: Issue[],
    warnings: Issue[]
): ComposedArea | null {
    const d = AREA_CATALOGUE[area]
    const built = buildAreaPrompt({
        area,
        ...(d.personaRequired && checked.persona !== null ? { persona: checked.persona } : {}),
        files: filesFor(area, checked.files, warnings),
        questions: catalogueQuestions(area),
        outputSchema: Areas.outputSchema({ area, selfContained: true }).schema as object,
        policies: checked.policies
            .filter((p) => p.appliesTo === 'all' || (p.appliesTo as string[]).includes(area))
            .map((p) => ({ id: p.id, summary: p.summary })),
        predecessorGrades: (checked.predecessors[area] ?? []) as PredecessorGrade[],
        goal: { condition: plan.goal.condition, maxTurns: plan.goal.maxTurns },
        serverParams
    })
    if (built.prompt === null || built.metadata === null) {
        // Policies and predecessor grades are the caller's data; everything else is about the area entry.
        errors.push(
            ...built.errors.map((e) => ({
                ...e,
                path: e.path.startsWith('/predecessorGrades')
                    ? e.path.replace('/predecessorGrades', pointer('predecessorGrades', area))
                    : e.path.startsWith('/policies')
                      ? '/policies'
                      : `/areas/${index}`
            }))
        )
        return null
    }
    warnings.push(...built.errors.map((e) => ({ ...e, path: `/areas/${index}` })))
    return {
        area,
        prompt: built.prompt,
        metadata: built.metadata,
        questionCount: d.questionCount,
        personaRequired: d.personaRequired,
        deferred: false
    }
}

/** Every area in order: deferred when its persona is missing, else composed and counted. */
function composeAreas(
    checked: CheckedEmit,
    plan: TaskPlan,
    serverParams: unknown,
    errors: Issue[],
    warnings: Issue[]
): ComposedAreas {
    const askedByArea: Partial<Record<Area, number>> = {}
    const entries: Array<ComposedArea | DeferredArea> = []
    for (const [index, area] of checked.areas.entries()) {
        const deferral = deferralOf(area, checked)
        if (deferral !== null) {
            entries.push({ area, prompt: null, personaRequired: true, deferred: true, reason: deferral })
            continue
        }
        const composed = composeArea(area, index, checked, plan, serverParams, errors, warnings)
        if (composed === null) continue
        entries.push(composed)
        const asked = expectedResults(area, composed.questionCount, checked.counts, errors)
        if (asked !== null) askedByArea[area] = asked
    }
    return { entries, askedByArea }
}

/** emitSkill and pretests with the server's secrets replaced; a warning names what was redacted. */
function redactExtras(input: EmitInput, errors: Issue[], warnings: Issue[]): RedactedExtras {
    if (typeof input.emitSkill !== 'string' && input.pretests === undefined) return {}
    const extra = redactTrusted(
        { emitSkill: input.emitSkill ?? null, pretests: input.pretests ?? null },
        input.serverParams
    )
    if (extra.errors.length > 0) {
        errors.push(...extra.errors)
        return {}
    }
    const v = extra.value as { emitSkill: string | null; pretests: Array<Record<string, unknown>> | null }
    if (extra.redactions.length > 0)
        warnings.push(createIssue('PB-WARN-001', '', { detail: describeRedactions(extra.redactions) }))
    return {
        ...(v.emitSkill !== null ? { emitSkill: v.emitSkill } : {}),
        ...(v.pretests !== null ? { pretests: v.pretests } : {})
    }
}

function assemblePrompts(
    input: EmitInput,
    checked: CheckedEmit,
    plan: TaskPlan,
    entries: ComposedAreas['entries'],
    extras: RedactedExtras
): PromptsV2 {
    return {
        target: checked.target,
        flow: checked.flow,
        tier: plan.tier,
        maxGrade: plan.maxGrade,
        namespace: typeof input.namespace === 'string' ? input.namespace : (checked.target.split('/')[0] as string),
        scoringProtocol: SCORING_PROTOCOL_VERSION,
        maxIterations: checked.maxIterations,
        taskId: plan.taskId,
        goal: plan.goal,
        ...definedFields({ emitSkill: extras.emitSkill }),
        areas: entries,
        skippedAreas: checked.skipped,
        gatedAreas: checked.gated,
        payloadSkeleton: { taskId: plan.taskId, areas: checked.areas.map((area) => ({ area, results: [] as [] })) },
        ...definedFields({ pretests: extras.pretests })
    }
}

function assembleState(
    input: EmitInput,
    checked: CheckedEmit,
    plan: TaskPlan,
    askedByArea: ComposedAreas['askedByArea']
): EmitState {
    const now = input.now as string
    return {
        target: checked.target,
        flow: checked.flow,
        tier: plan.tier,
        taskId: plan.taskId,
        runId: plan.taskId,
        scopeName: typeof input.scopeName === 'string' ? input.scopeName : null,
        emittedAreaSet: [...checked.areas],
        askedByArea,
        taskComplete: false,
        consumedAreas: [],
        status: 'prompts-emitted',
        createdAt: now,
        lastUpdatedAt: now,
        phases: { promptsEmitted: now, scoresReceived: null, gradeComputed: null, indexRebuilt: null },
        dependencyChain: []
    }
}

/**
 * Builds the prompts.json v2 object the CLI writes at emit time, plus the state.json baton. Every
 * persona-bound area without a usable persona is emitted as deferred; the task id binds the emitted
 * area set. Identical inputs give identical objects (no clock besides `now`, which only stamps state).
 */
export function emitAreaPrompts(input: EmitInput): {
    prompts: PromptsV2 | null
    state: EmitState | null
    errors: Issue[]
} {
    const guard = inspectJson(input, DEFAULT_JSON_LIMITS)
    if (guard.length > 0) return { prompts: null, state: null, errors: guard }
    const { checked, errors } = checkEmitInput(input)
    if (checked === null) return { prompts: null, state: null, errors }
    const { plan, errors: planErrors } = planTask(checked, input.goal)
    if (plan === null) return { prompts: null, state: null, errors: planErrors }
    const warnings: Issue[] = []
    const composed = composeAreas(checked, plan, input.serverParams, errors, warnings)
    const extras = redactExtras(input, errors, warnings)
    if (errors.length > 0) return { prompts: null, state: null, errors }
    return {
        prompts: assemblePrompts(input, checked, plan, composed.entries, extras),
        state: assembleState(input, checked, plan, composed.askedByArea),
        errors: warnings
    }
}
