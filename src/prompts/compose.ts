import { AREA_CATALOGUE, isArea, questionsOf } from '../areas/catalogue.js'
import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { AREAS, BASE_PERSONAS, type Area, type BasePersonaId } from '../model/constants.js'
import { GRADING_SPEC_VERSION } from '../version.js'
import { buildGoalBlock } from './goal-block.js'
import { describeRedactions, Redact, redactSections, SECTION_JOINER } from './redact.js'
import { isObject } from '../model/object.js'
import { objectArg, parseArgs, says, wholeArg } from '../validation/args.js'

/** A persona for a persona-bound area: one of the four base personas refined by a lens. */
export interface PromptPersona {
    readonly basePersonaId: BasePersonaId
    readonly lensId: string
    /** Optional one-line focus shown to the evaluator. */
    readonly focus?: string
}

/** A file the evaluator must read before answering. */
export interface PromptFile {
    readonly path: string
    readonly role: string
}

/** A binding policy line. */
export interface PromptPolicy {
    readonly id: string
    readonly summary: string
}

/** The grade of a predecessor (an L1 skill before an L2, an L2 before an L3). */
export interface PredecessorGrade {
    readonly id: string
    readonly grade: string
    readonly status: string
}

/** What {@link buildAreaPrompt} reports besides the text. */
export interface AreaPromptMetadata {
    readonly area: Area
    /** `neutral` or `<basePersonaId>--<lensId>`. */
    readonly persona: string
    readonly fileCount: number
    readonly questionCount: number
    readonly personaRequired: boolean
    readonly predecessorGradeCount: number
    readonly goalBlockLength: number
    readonly goalConditionLength: number
    readonly goalMaxTurns: number
    readonly redactionCount: number
}

type Obj = Record<string, unknown>
const LENS = /^[a-z0-9][a-z0-9-]*$/

/** The codes of every argument check of a prompt's input: an absent required field is PB-001, a wrong one PB-002. */
const ARGS = { missing: 'PB-001', mismatch: 'PB-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const
type Keys = ReadonlyArray<string | number>

/** A string at `at` (PB-001/PB-002), then not blank (PB-003, a rule of its own). */
function nonEmptyString(value: unknown, at: Keys, errors: Issue[]): value is string {
    const checked = parseArgs(v.string(), value, ARGS, { ...STYLE, at })
    errors.push(...checked.errors)
    if (checked.value === null) return false
    if (checked.value.trim() === '') {
        errors.push(createIssue('PB-003', pointer(...at), { field: fieldOf(at) }))
        return false
    }
    return true
}

/** How a message names the field at `at`: `files[0].path`. */
function fieldOf(at: Keys): string {
    return at.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('')
}

const PERSONA_OBJECT = objectArg({
    expected: '{ basePersonaId, lensId }',
    actual: 'type',
    field: 'persona',
    missing: false
})
const LIST = v.array(v.unknown(), says('array'))

/** Checks `{ basePersonaId, lensId, focus? }`; PB-006 for each bad field. */
export function checkPersona(value: unknown, path: string): { persona: PromptPersona | null; errors: Issue[] } {
    const checked = parseArgs(PERSONA_OBJECT, value, ARGS, { ...STYLE, at: path.split('/').slice(1) })
    if (checked.value === null) return { persona: null, errors: checked.errors }
    const persona = checked.value
    const errors: Issue[] = []
    if (!(BASE_PERSONAS as readonly unknown[]).includes(persona.basePersonaId)) {
        errors.push(
            createIssue('PB-006', `${path}/basePersonaId`, {
                field: 'basePersonaId',
                detail: `${describeValue(persona.basePersonaId)} is not one of ${BASE_PERSONAS.join(', ')}`
            })
        )
    }
    if (typeof persona.lensId !== 'string' || !LENS.test(persona.lensId) || persona.lensId.includes('--')) {
        errors.push(
            createIssue('PB-006', `${path}/lensId`, {
                field: 'lensId',
                detail: `${describeValue(persona.lensId)} is not a lens slug (lower-case, digits, single hyphens)`
            })
        )
    }
    if (persona.focus !== undefined && (typeof persona.focus !== 'string' || persona.focus.trim() === '')) {
        errors.push(
            createIssue('PB-006', `${path}/focus`, { field: 'focus', detail: 'must be a non-empty string when given' })
        )
    }
    for (const key of Object.keys(persona)) {
        if (!['basePersonaId', 'lensId', 'focus'].includes(key))
            errors.push(createIssue('PB-006', `${path}/${key}`, { field: key, detail: 'unknown field' }))
    }
    return errors.length > 0 ? { persona: null, errors } : { persona: persona as unknown as PromptPersona, errors }
}

function numbered(lines: readonly string[]): string {
    return lines.map((line, i) => `${i + 1}. ${line}`).join('\n')
}

function checkList<T>(
    value: unknown,
    field: string,
    keys: readonly string[],
    required: boolean,
    allowEmpty: boolean,
    errors: Issue[]
): T[] {
    if (value === undefined && !required) return []
    const list = parseArgs(LIST, value, ARGS, { ...STYLE, at: [field] })
    if (list.value === null) {
        errors.push(...list.errors)
        return []
    }
    if (!allowEmpty && list.value.length === 0) errors.push(createIssue('PB-003', `/${field}`, { field }))
    list.value.forEach((one, i) => {
        const item = parseArgs(objectArg(), one, ARGS, { ...STYLE, at: [field, i] })
        if (item.value === null) {
            errors.push(...item.errors)
            return
        }
        for (const key of keys) nonEmptyString(item.value[key], [field, i, key], errors)
    })
    return list.value as T[]
}

/** Input of {@link buildAreaPrompt}. */
export interface AreaPromptInput {
    readonly area?: unknown
    readonly persona?: unknown
    readonly files?: unknown
    readonly questions?: unknown
    /**
     * Deterministic questions of the area that code has answered: left out of `questions` (the
     * evaluator is not asked them) and named in the prompt as answered by code.
     */
    readonly answeredByCode?: unknown
    readonly outputSchema?: unknown
    readonly policies?: unknown
    readonly predecessorGrades?: unknown
    readonly goal?: unknown
    readonly serverParams?: unknown
}

/** The lists and schema every area prompt quotes, checked before the area is known. */
interface PromptLists {
    readonly files: PromptFile[]
    readonly questions: Array<{ id: string; question: string }>
    readonly policies: PromptPolicy[]
    readonly predecessors: PredecessorGrade[]
}

const SCHEMA_AND_GOAL = v.looseObject({ outputSchema: objectArg(), goal: v.optional(objectArg()) })

/** area, files, questions, policies, predecessorGrades, outputSchema and goal, in that order. */
function checkPromptFields(input: AreaPromptInput, errors: Issue[]): PromptLists {
    const area = input.area
    if (area === undefined) errors.push(createIssue('PB-001', '/area', { field: 'area' }))
    else if (!isArea(area))
        errors.push(createIssue('PB-004', '/area', { value: describeValue(area), expected: AREAS.join(', ') }))
    const files = checkList<PromptFile>(input.files, 'files', ['path', 'role'], true, false, errors)
    const questions = checkList<{ id: string; question: string }>(
        input.questions,
        'questions',
        ['id', 'question'],
        true,
        false,
        errors
    )
    const policies = checkList<PromptPolicy>(input.policies, 'policies', ['id', 'summary'], true, true, errors)
    const predecessors = checkList<PredecessorGrade>(
        input.predecessorGrades,
        'predecessorGrades',
        ['id', 'grade', 'status'],
        false,
        true,
        errors
    )
    errors.push(...parseArgs(SCHEMA_AND_GOAL, input, ARGS, STYLE).errors)
    return { files, questions, policies, predecessors }
}

/** The persona a persona-bound area requires (PB-005 without one); neutral areas take none. */
function areaPersona(area: Area, value: unknown, errors: Issue[]): PromptPersona | null {
    if (!AREA_CATALOGUE[area].personaRequired) return null
    if (value === undefined || value === null) {
        errors.push(createIssue('PB-005', '/persona', { area }))
        return null
    }
    const checked = checkPersona(value, '/persona')
    errors.push(...checked.errors)
    return checked.persona
}

const ANSWERED_BY_CODE = v.looseObject({
    answeredByCode: v.optional(wholeArg(v.array(v.string()), { expected: 'array of question ids', actual: 'type' }))
})

/**
 * The question ids code has answered: each must be a deterministic question of the area; `null` when not a list of ids.
 */
function checkAnsweredByCode(value: unknown, area: Area, errors: Issue[]): string[] | null {
    const checked = parseArgs(ANSWERED_BY_CODE, { answeredByCode: value }, ARGS, STYLE)
    errors.push(...checked.errors)
    const byCode = checked.value === null ? null : (checked.value.answeredByCode ?? [])
    if (byCode !== null) {
        const notDeterministic = byCode.filter((id) => !AREA_CATALOGUE[area].deterministicQuestionIds.includes(id))
        if (notDeterministic.length > 0)
            errors.push(
                createIssue('PB-009', '/answeredByCode', {
                    area,
                    detail: `not a deterministic question of the area: ${notDeterministic.join(', ')}`
                })
            )
    }
    return byCode
}

/** The asked questions together with the code's answers cover the area's questions exactly once (PB-009). */
function checkQuestionSet(
    area: Area,
    questions: ReadonlyArray<{ id: string }>,
    byCode: readonly string[],
    errors: Issue[]
): void {
    const expected = AREA_CATALOGUE[area].questionIds
    const given = questions.map((q) => q.id)
    const unknown = given.filter((id) => !expected.includes(id))
    const missing = expected.filter((id) => !given.includes(id) && !byCode.includes(id))
    const repeated = given.filter((id, i) => given.indexOf(id) !== i)
    const both = given.filter((id) => byCode.includes(id))
    const parts = [
        unknown.length > 0 ? `not in the area: ${unknown.join(', ')}` : '',
        missing.length > 0 ? `missing: ${missing.join(', ')}` : '',
        repeated.length > 0 ? `repeated: ${[...new Set(repeated)].join(', ')}` : '',
        both.length > 0 ? `asked and answered by code: ${[...new Set(both)].join(', ')}` : ''
    ].filter((p) => p !== '')
    if (parts.length > 0) errors.push(createIssue('PB-009', '/questions', { area, detail: parts.join('; ') }))
}

/** Role, persona, file preparation, then policies and predecessor grades when there are any. */
function headSections(area: Area, persona: PromptPersona | null, lists: PromptLists): string {
    const d = AREA_CATALOGUE[area]
    const side = d.side === 'provider' ? 'provider namespace' : 'selection'
    const sections: string[] = [
        `# FlowMCP grading: area ${area}`,
        `You grade one area of a FlowMCP ${side}: ${d.evaluates}. Tier ${d.tier}; the highest grade this area can reach is ${d.maxGrade}. Work only from the files listed below, use read-only tools only, answer every question in one pass and reply with strict JSON.`,
        persona !== null
            ? [
                  '## Persona',
                  '',
                  `Base persona: ${persona.basePersonaId}`,
                  `Lens: ${persona.lensId}`,
                  ...(persona.focus !== undefined ? [`Focus: ${persona.focus}`] : [])
              ].join('\n')
            : '## Persona\n\nNeutral area: no persona. Judge what the text says, not who would use it.',
        [
            '## File preparation (mandatory, in this order)',
            '',
            'Read these files before answering anything. If one of them is missing or unreadable, reply only with',
            '{ "blocker": "<file path>", "reason": "<what is wrong>" } and stop.',
            '',
            numbered(lists.files.map((f) => `${f.path} — ${f.role}`))
        ].join('\n')
    ]
    if (lists.policies.length > 0)
        sections.push(
            ['## Policies (binding)', '', numbered(lists.policies.map((p) => `${p.id} — ${p.summary}`))].join('\n')
        )
    if (lists.predecessors.length > 0)
        sections.push(
            [
                '## Predecessor grades',
                '',
                numbered(lists.predecessors.map((p) => `${p.id} — grade ${p.grade}, status ${p.status}`))
            ].join('\n')
        )
    return sections.join(SECTION_JOINER)
}

/**
 * The questions and the output schema: the same for every unit of an area, so redacted once per
 * distinct text (redactSections gives the bytes and redactions a redaction of the whole prompt gives).
 */
function questionsAndSchema(
    ordered: ReadonlyArray<{ id: string; question: string }>,
    answeredByCode: readonly string[],
    outputSchemaJson: string
): string {
    return [
        [
            '## Questions',
            '',
            'Answer every question exactly once, under its id.' +
                (answeredByCode.length > 0
                    ? ` Code has answered the deterministic questions ${answeredByCode.join(', ')}; they are not asked here.`
                    : ''),
            '',
            numbered(ordered.map((q) => `[${q.id}] ${q.question}`))
        ].join('\n'),
        [
            '## Output schema (binding)',
            '',
            'Reply with one JSON object that matches this schema and nothing else: no Markdown fence, no text before or after it.',
            '',
            outputSchemaJson
        ].join('\n')
    ].join(SECTION_JOINER)
}

/**
 * Composes one area prompt (our own template): role, persona, mandatory file preparation with the
 * blocker shortcut, policies, predecessor grades, the area's questions, the binding output schema and
 * the Goal-Block. Secrets are redacted from the finished text. `rendered.outputSchemaJson`, for callers
 * that render the same schema for many prompts: `JSON.stringify(input.outputSchema, null, 2)`, computed once.
 */
export function buildAreaPrompt(
    input: AreaPromptInput,
    rendered?: { readonly outputSchemaJson: string }
): { prompt: string | null; metadata: AreaPromptMetadata | null; errors: Issue[] } {
    const errors: Issue[] = []
    const lists = checkPromptFields(input, errors)
    const area = input.area
    if (!isArea(area)) return { prompt: null, metadata: null, errors }
    const d = AREA_CATALOGUE[area]
    const persona = areaPersona(area, input.persona, errors)
    const byCode = checkAnsweredByCode(input.answeredByCode, area, errors)
    if (Array.isArray(input.questions) && errors.every((e) => !e.path.startsWith('/questions')))
        checkQuestionSet(area, lists.questions, byCode ?? [], errors)
    const goalInput = (isObject(input.goal) ? input.goal : {}) as Obj
    const goal = buildGoalBlock(goalInput.condition, area, goalInput.maxTurns)
    errors.push(...goal.errors.map((e) => ({ ...e, path: e.path === '/area' ? e.path : `/goal${e.path}` })))
    if (errors.length > 0 || goal.goalBlock === null) return { prompt: null, metadata: null, errors }

    // Questions are shown in catalogue order, whatever order the caller passed them in.
    const ordered = [...lists.questions].sort((a, b) => d.questionIds.indexOf(a.id) - d.questionIds.indexOf(b.id))
    const answeredByCode = d.questionIds.filter((id) => (byCode ?? []).includes(id))
    const block = questionsAndSchema(
        ordered,
        answeredByCode,
        rendered?.outputSchemaJson ?? JSON.stringify(input.outputSchema, null, 2)
    )
    const redacted = redactSections(
        headSections(area, persona, lists),
        block,
        `${goal.goalBlock.trimEnd()}\n`,
        input.serverParams
    )
    if (redacted.text === null) return { prompt: null, metadata: null, errors: redacted.errors }
    const warnings =
        redacted.redactions.length > 0
            ? [createIssue('PB-WARN-001', '', { detail: describeRedactions(redacted.redactions) })]
            : []
    return {
        prompt: redacted.text,
        metadata: {
            area,
            persona: persona === null ? 'neutral' : `${persona.basePersonaId}--${persona.lensId}`,
            fileCount: lists.files.length,
            questionCount: ordered.length,
            personaRequired: d.personaRequired,
            predecessorGradeCount: lists.predecessors.length,
            goalBlockLength: goal.goalBlock.length,
            goalConditionLength: goal.conditionLength,
            goalMaxTurns: goal.maxTurns as number,
            redactionCount: redacted.redactions.length
        },
        errors: warnings
    }
}

/** Input of {@link buildEntryPointPrompt}. */
export interface EntryPointInput {
    /** `selection` for a selection run, `single` for one schema. */
    readonly kind?: unknown
    /** A persona id (base or lens id, as in `selection.json.personaIds`) or `{ basePersonaId, lensId }`. */
    readonly persona?: unknown
    /** Selection runs: `{ selectionId, selectionHash, personaIds }` from the frozen lockSnapshot and selection.json. */
    readonly selection?: unknown
    /** Single runs: `<namespace>.<schema>` (01-model ⚠ A14). */
    readonly schemaId?: unknown
    readonly gradingMode?: unknown
    /** Free text after the mode, e.g. `initial baseline`. */
    readonly modeNote?: unknown
    readonly areas?: unknown
    readonly serverParams?: unknown
}

/** Line 1's persona: its label, the ids a selection may list it under, and the object form when given as one. */
interface PersonaLabel {
    readonly label: string | null
    readonly ids: string[]
    readonly object: PromptPersona | null
}

function personaLabel(persona: unknown): PersonaLabel {
    if (typeof persona === 'string') return { label: persona, ids: [persona], object: null }
    if (isObject(persona) && typeof persona.basePersonaId === 'string' && typeof persona.lensId === 'string') {
        const slug = `${persona.basePersonaId}--${persona.lensId}`
        return {
            label: slug,
            ids: [slug, persona.lensId, persona.basePersonaId],
            object: persona as unknown as PromptPersona
        }
    }
    return { label: null, ids: [], object: null }
}

function outputFormat(areas: readonly Area[], persona: PromptPersona | null): string {
    const bound = areas.filter((a) => AREA_CATALOGUE[a].personaRequired)
    const personaPart = persona !== null ? `--${persona.basePersonaId}--${persona.lensId}` : '--<basePersona>--<lens>'
    const name = (area: string, withPersona: boolean): string =>
        `_gradings/${area}${withPersona ? personaPart : ''}--<timestamp>.json`
    if (areas.length === 1) return name(areas[0] as Area, bound.length === 1)
    if (bound.length === 0) return name('<area>', false)
    if (bound.length === areas.length) return name('<area>', true)
    return `${name('<area>', false)} (neutral areas), ${name('<area>', true)} (persona-bound areas)`
}

/**
 * The entry-point prompt (chapter 20, 04 §3): six numbered lines (the single variant drops line 5
 * and keeps the numbers) plus line 7 listing the areas in scope. Generated from data, not typed by
 * hand (04 ⚠ D5): line 2 carries the lockSnapshot's `selectionHash`, line 3 maps to `gradingMode`,
 * line 4 is this library's spec version, line 6 renders the real file-name grammar.
 */
export function buildEntryPointPrompt(input: EntryPointInput): { prompt: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const { kind, gradingMode: mode } = input
    checkRunHeader(input, errors)
    const areas = checkAreas(input.areas, errors)
    checkAreaSides(areas, kind, errors)
    const persona = personaLabel(input.persona)
    checkEntryPersona(input.persona, persona, errors)
    const warnings: Issue[] = []
    let line2 = ''
    if (kind === 'selection') line2 = selectionLine(input, persona, errors)
    else if (kind === 'single') {
        if (nonEmptyString(input.schemaId, ['schemaId'], errors)) {
            line2 = `2. Single-Schema: ${input.schemaId as string}, ${areas.length === 1 ? 'area' : 'areas'}: ${areas.join(', ')}`
        }
        if (input.persona === undefined) warnings.push(createIssue('PB-WARN-004', '/persona'))
    }
    if (errors.length > 0) return { prompt: null, errors }
    const defaultNote = mode === 'full' ? 'initial baseline' : 're-grading a subset of the areas'
    const note = typeof input.modeNote === 'string' ? input.modeNote.trim() : defaultNote
    const lines = [
        'You are performing a FlowMCP grading. Instructions:',
        '',
        `1. Persona: ${persona.label ?? 'none (neutral grading)'}`,
        line2,
        `3. Mode: ${mode === 'full' ? 'Full' : 'Partial'} (${note})`,
        `4. Spec version: ${GRADING_SPEC_VERSION}`,
        ...(kind === 'selection' ? ['5. Pre-condition: all member schemas have gradingStatus: stable'] : []),
        `6. Output format: ${outputFormat(areas, persona.object)}`,
        `7. Areas in scope: ${areas.join(', ')}`
    ]
    const redacted = Redact.text({ text: `${lines.join('\n')}\n`, serverParams: input.serverParams })
    if (redacted.text === null) return { prompt: null, errors: redacted.errors }
    if (redacted.redactions.length > 0) {
        warnings.push(createIssue('PB-WARN-001', '', { detail: describeRedactions(redacted.redactions) }))
    }
    return { prompt: redacted.text, errors: warnings }
}

/** `kind`, `gradingMode` and `modeNote`: what lines 2, 3 and 5 are built from (a wrong one is written as it came). */
const RUN_HEADER = v.looseObject({
    kind: v.picklist(['selection', 'single'], says({ expected: "'selection' | 'single'", actual: 'value' })),
    gradingMode: v.picklist(['full', 'partial'], says({ expected: "'full' | 'partial'", actual: 'value' })),
    modeNote: v.optional(
        v.custom<string>(
            (note) => typeof note === 'string' && note.trim() !== '' && !note.includes('\n'),
            says({ expected: 'one line of text', actual: 'value' })
        )
    )
})

function checkRunHeader(input: EntryPointInput, errors: Issue[]): void {
    errors.push(...parseArgs(RUN_HEADER, input, ARGS, STYLE).errors)
}

/** A selection run grades selection-side areas, a single run provider-side ones (no check for an invalid kind). */
function checkAreaSides(areas: readonly Area[], kind: unknown, errors: Issue[]): void {
    const flow = kind === 'selection' ? 'selection' : 'provider'
    areas.forEach((a, i) => {
        const side = AREA_CATALOGUE[a].side
        if (side !== flow && (kind === 'selection' || kind === 'single')) {
            errors.push(createIssue('PB-015', `/areas/${i}`, { area: a, side, flow }))
        }
    })
}

/** A persona line 1 can name: an id, or an object with both ids. */
const ENTRY_PERSONA = v.custom(
    (value) => personaLabel(value).label !== null,
    says({ expected: 'persona id or { basePersonaId, lensId }', actual: 'type' })
)

function checkEntryPersona(value: unknown, persona: PersonaLabel, errors: Issue[]): void {
    if (value !== undefined && persona.label === null)
        errors.push(...parseArgs(ENTRY_PERSONA, value, ARGS, { ...STYLE, at: ['persona'] }).errors)
    if (isObject(value)) errors.push(...checkPersona(value, '/persona').errors)
    if (typeof value === 'string' && !/^[a-z0-9][a-z0-9-]*$/.test(value)) {
        const detail = `${describeValue(value)} is not a persona id`
        errors.push(createIssue('PB-006', '/persona', { field: 'persona', detail }))
    }
}

const SELECTION = v.looseObject({
    selection: objectArg({ expected: '{ selectionId, selectionHash, personaIds }', actual: 'type' })
})

/** Line 2 of a selection run ('' when the selection is unusable; its issues go to `errors`). */
function selectionLine(input: EntryPointInput, persona: PersonaLabel, errors: Issue[]): string {
    const sel = input.selection
    const checked = parseArgs(SELECTION, { selection: sel }, ARGS, STYLE)
    if (checked.value === null || !isObject(sel)) {
        errors.push(...checked.errors)
        return ''
    }
    const okId = nonEmptyString(sel.selectionId, ['selection', 'selectionId'], errors)
    const okHash = nonEmptyString(sel.selectionHash, ['selection', 'selectionHash'], errors)
    const ids = checkStrings(sel.personaIds, ['selection', 'personaIds'], errors)
    // Persona obligation of selection gradings: in selection.json and on line 1 (04 §3).
    if (input.persona === undefined) errors.push(createIssue('PB-001', '/persona', { field: 'persona' }))
    else if (ids !== null && persona.label !== null && !persona.ids.some((id) => ids.includes(id))) {
        errors.push(createIssue('PB-017', '/persona', { value: persona.label, expected: ids.join(', ') }))
    }
    if (!okId || !okHash) return ''
    return `2. Selection: ${sel.selectionId as string}, lockSnapshot hash: ${sel.selectionHash as string}`
}

const AREA_LIST = v.array(v.unknown(), says('array of areas'))

function checkAreas(value: unknown, errors: Issue[]): Area[] {
    const list = parseArgs(AREA_LIST, value, ARGS, { ...STYLE, at: ['areas'] })
    if (list.value === null) {
        errors.push(...list.errors)
        return []
    }
    // An empty list, an unknown area and an area named twice are rules of their own (PB-003, PB-004, PB-016).
    if (list.value.length === 0) errors.push(createIssue('PB-003', '/areas', { field: 'areas' }))
    const out: Area[] = []
    list.value.forEach((a, i) => {
        if (!isArea(a))
            errors.push(createIssue('PB-004', `/areas/${i}`, { value: describeValue(a), expected: AREAS.join(', ') }))
        else if (out.includes(a))
            errors.push(createIssue('PB-016', `/areas/${i}`, { area: a, detail: 'twice in areas' }))
        else out.push(a)
    })
    return out
}

const STRINGS = wholeArg(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1)), {
    expected: 'non-empty array of non-empty strings',
    actual: 'type'
})

function checkStrings(value: unknown, at: Keys, errors: Issue[]): string[] | null {
    const checked = parseArgs(STRINGS, value, ARGS, { ...STYLE, at })
    errors.push(...checked.errors)
    return checked.value
}

/** The questions of an area in the shape {@link buildAreaPrompt} expects. */
export function catalogueQuestions(area: Area): Array<{ id: string; question: string }> {
    return questionsOf(area).map((q) => ({ id: q.id, question: q.question }))
}

export { checkAreas }
