import * as v from 'valibot'
import { createIssue, dedupeIssues, describeValue, rebaseIssues } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import type { AggregateResult } from '../grading/aggregate.js'
import { createEntry as createGradingEntry } from '../grading/grading.js'
import { validateGradingEntry } from '../grading/validate-entry.js'
import { inspectJson, type JsonLimits } from '../json/guard.js'
import { BASE_PERSONAS, NA_REASONS, SCORE_ENUMS, type Area, type NaReason, type Score } from '../model/constants.js'
import type { GradingAnswer, GradingEntry, Persona, SelectionContext } from '../model/types.js'
import { isIsoDateTime } from '../time.js'
import { objectArg, parseArgs, says } from '../validation/args.js'
import { FLOWMCP_VERSION_REGEX } from '../version.js'
import { AREA_CATALOGUE, isArea, questionsOf } from './catalogue.js'
import { validateAreaOutput, type AreaBlocker, type AreaOutput, type ImprovementHint } from './output.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'

/** One answer computed by code for a deterministic question of the area. */
export interface DeterministicAnswer {
    readonly questionId: string
    readonly score: Score
    readonly reasoning?: string
    readonly evidence?: string | Readonly<Record<string, unknown>>
    readonly naReason?: NaReason
    /** When the code computed it; the entry's `now` when omitted. */
    readonly timestamp?: string
}

/** Who graded, and in which setting; everything the area output does not carry. */
export interface GradingContext {
    /** `<namespace>.<schema>` (01-model ⚠ A14). */
    readonly schemaId: string
    /** `flowmcp/4.x.y`. */
    readonly version: string
    /** 8-hex hash of the graded schema; must equal the output's `schemaHash`. */
    readonly schemaHash: string
    readonly gradingMode: 'full' | 'partial'
    /** ISO 8601; timestamp of code answers without their own. */
    readonly now: string
    /** Identity of the LLM grader that produced the harness answers. */
    readonly grader: { readonly name: string; readonly version: string }
    readonly llmModel: string
    /** Identity of the code that produced the deterministic answers; required when there are any. */
    readonly scriptGrader?: { readonly name: string; readonly version: string }
    /** Group context every non-deterministic answer carries (01-model ⚠ A17). */
    readonly selectionContext: {
        readonly groupId: string
        readonly personaIds: readonly string[]
        readonly domainDocId?: string
    }
    /** Required for the selection-side (group-bound) areas. */
    readonly selectionId?: string
    /** Required for the per-skill areas. */
    readonly skillId?: string
    /** Required for the About areas. */
    readonly aboutHash?: string
    /** Required for the persona-bound areas; must equal the output's persona. */
    readonly persona?: Persona
    /** Required for `partial` entries: the node's last full grade. */
    readonly previousFullGrade?: 'A' | 'B' | 'C' | 'D' | 'F' | 'REJECTED'
    /**
     * Selection areas only: the selection's distinct member namespaces and whether it has its About
     * (Domain-Knowledge content). Recorded in the evidence of the entry's first answer, so the size
     * cap and the no-A-without-About cap travel with the entry (01-model §4 step 8, 02-areas §8).
     */
    readonly selectionScope?: { readonly memberNamespaces: number; readonly domainKnowledge: boolean }
}

/** What the improvement loop keeps beside the entry (04 ⚠ D4: not part of the chapter 08 entry). */
export interface AreaSidecar {
    readonly iteration: number
    readonly improvementHints: readonly ImprovementHint[]
}

/** Result of {@link toGradingEntry}. */
export interface ToGradingEntryResult {
    readonly entry: GradingEntry | null
    /** Set when the harness answered with the blocker shortcut; then there is no entry and no error. */
    readonly blocker: AreaBlocker | null
    readonly sidecar: AreaSidecar | null
    readonly aggregate: AggregateResult | null
    readonly errors: Issue[]
}

const nonEmpty = v.pipe(v.string(), v.minLength(1))
const hash8 = v.pipe(v.string(), v.regex(/^[a-f0-9]{8}$/, '8 lowercase hex'))
const identity = v.strictObject({ name: nonEmpty, version: nonEmpty })

const ContextArgs = v.object({
    schemaId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+$/, '<namespace>.<schema>')),
    version: v.pipe(v.string(), v.regex(FLOWMCP_VERSION_REGEX, 'flowmcp/4.x.y')),
    schemaHash: hash8,
    gradingMode: v.picklist(['full', 'partial'] as const),
    now: v.pipe(
        v.string(),
        v.check((s: string) => isIsoDateTime(s), 'ISO 8601 date-time')
    ),
    grader: identity,
    llmModel: nonEmpty,
    scriptGrader: v.optional(identity),
    selectionContext: v.strictObject({
        groupId: nonEmpty,
        personaIds: v.pipe(v.array(nonEmpty), v.minLength(1)),
        domainDocId: v.optional(nonEmpty)
    }),
    selectionId: v.optional(nonEmpty),
    skillId: v.optional(nonEmpty),
    aboutHash: v.optional(hash8),
    persona: v.optional(v.strictObject({ basePersonaId: v.picklist(BASE_PERSONAS), lensId: nonEmpty })),
    previousFullGrade: v.optional(v.picklist(['A', 'B', 'C', 'D', 'F', 'REJECTED'] as const)),
    selectionScope: v.optional(
        v.strictObject({
            memberNamespaces: v.pipe(v.number(), v.integer(), v.minValue(0)),
            domainKnowledge: v.boolean()
        })
    )
})

type Obj = Record<string, unknown>
const DET_KEYS = new Set(['questionId', 'score', 'reasoning', 'evidence', 'naReason', 'timestamp'])

/** The codes and wording of the code answers' checks: a list item by its index, an answer's field by its key. */
const DET_ARGS = { missing: 'ARE-002', mismatch: 'ARE-003', create: createIssue } as const
const DET_STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const
const DET_LIST = v.looseObject({ deterministic: v.optional(v.array(v.unknown(), says('array'))) })
const DET_QUESTION = v.looseObject({ questionId: v.string() })
const DET_EXTRAS = v.looseObject({
    reasoning: v.optional(v.string()),
    evidence: v.optional(
        v.custom<string | Obj>(
            (e) => (typeof e === 'string' ? e.length > 0 : isObject(e)),
            says('non-empty string or object')
        )
    )
})

function checkDeterministic(
    area: Area,
    list: unknown,
    limits: JsonLimits
): { answers: DeterministicAnswer[]; errors: Issue[] } {
    const given = parseArgs(DET_LIST, { deterministic: list }, DET_ARGS, DET_STYLE)
    if (given.value === null) return { answers: [], errors: given.errors }
    if (given.value.deterministic === undefined) return { answers: [], errors: [] }
    const guard = inspectJson(list, limits, '/deterministic')
    if (guard.length > 0) return { answers: [], errors: guard }
    const errors: Issue[] = []
    const seen = new Set<string>()
    given.value.deterministic.forEach((a, i) => {
        errors.push(...codeAnswerIssues(area, a, i, seen))
    })
    return errors.length > 0 ? { answers: [], errors } : { answers: list as DeterministicAnswer[], errors }
}

/** Pointer into the `i`-th code answer. */
type AnswerAt = (...tail: Array<string | number>) => string

/** One code answer: an object of known keys, a question of the area given once, its score, and well-typed extras. */
function codeAnswerIssues(area: Area, item: unknown, i: number, seen: Set<string>): Issue[] {
    const at: AnswerAt = (...t) => pointer('deterministic', i, ...t)
    const style = { ...DET_STYLE, at: ['deterministic', i] }
    const answer = parseArgs(objectArg(), item, DET_ARGS, style)
    if (answer.value === null) return answer.errors
    const a = answer.value
    const errors: Issue[] = []
    for (const key of Object.keys(a)) {
        if (!DET_KEYS.has(key)) errors.push(createIssue('ARE-004', at(key), { field: key }))
    }
    const question = parseArgs(DET_QUESTION, a, DET_ARGS, { ...style, field: 'key' })
    errors.push(...question.errors)
    // The question of the area (ARE-014), given once (ARE-015): rules of their own once it is a string.
    const known = question.value === null ? null : codeQuestionIssue(area, question.value.questionId, seen, at)
    if (known !== null) errors.push(known)
    errors.push(...codeScoreIssues(a, at))
    errors.push(...parseArgs(DET_EXTRAS, a, DET_ARGS, { ...style, field: 'key' }).errors)
    if (a.timestamp !== undefined && !isIsoDateTime(a.timestamp)) {
        errors.push(createIssue('ARE-009', at('timestamp'), { field: 'timestamp', expected: 'ISO 8601 date-time' }))
    }
    return errors
}

/** A code answer's question: one of the area's code-answered questions (ARE-014), given once (ARE-015). */
function codeQuestionIssue(area: Area, questionId: string, seen: Set<string>, at: AnswerAt): Issue | null {
    if (!AREA_CATALOGUE[area].deterministicQuestionIds.includes(questionId)) {
        return createIssue('ARE-014', at('questionId'), { value: questionId, area })
    }
    if (seen.has(questionId)) return createIssue('ARE-015', at('questionId'), { questionId })
    seen.add(questionId)
    return null
}

/** A code answer's score (1–5 or an enum value) and the naReason that goes with `n/a` only. */
function codeScoreIssues(a: Obj, at: AnswerAt): Issue[] {
    const errors: Issue[] = []
    const score = a.score
    if (score === undefined) errors.push(createIssue('ARE-002', at('score'), { field: 'score' }))
    else if (typeof score === 'number') {
        if (!(score >= 1 && score <= 5)) {
            errors.push(createIssue('SCO-001', at('score'), { value: describeValue(score) }))
        }
    } else if (typeof score !== 'string' || !(SCORE_ENUMS as readonly string[]).includes(score)) {
        errors.push(createIssue('SCO-003', at('score'), { value: describeValue(score) }))
    }
    if (score === 'n/a' && !(NA_REASONS as readonly unknown[]).includes(a.naReason)) {
        const detail = a.naReason === undefined ? 'naReason is required when score is n/a' : describeValue(a.naReason)
        errors.push(createIssue('NA-001', at('naReason'), { detail }))
    }
    if (score !== 'n/a' && a.naReason !== undefined) {
        errors.push(createIssue('GRD-017', at('naReason'), { score: describeValue(score) }))
    }
    return errors
}

function requiredByArea(area: Area, ctx: v.InferOutput<typeof ContextArgs>, hasDeterministic: boolean): Issue[] {
    const d = AREA_CATALOGUE[area]
    const issues: Issue[] = []
    const need = (present: boolean, field: string): void => {
        if (!present) issues.push(createIssue('ARE-011', `/context/${field}`, { field }))
    }
    if (d.tier === 'group-bound') need(ctx.selectionId !== undefined, 'selectionId')
    if (d.perSkill) need(ctx.skillId !== undefined, 'skillId')
    if (d.aboutHashRequired) need(ctx.aboutHash !== undefined, 'aboutHash')
    if (d.personaRequired) need(ctx.persona !== undefined, 'persona')
    if (!d.personaRequired && ctx.persona !== undefined)
        issues.push(
            createIssue('ARE-010', '/context/persona', { detail: `must not be given for neutral area ${area}` })
        )
    if (hasDeterministic) need(ctx.scriptGrader !== undefined, 'scriptGrader')
    if (ctx.selectionScope !== undefined && d.tier !== 'group-bound')
        issues.push(
            createIssue('ARE-010', '/context/selectionScope', { detail: `must not be given for provider area ${area}` })
        )
    return issues
}

/** Where each `gradings[]` element came from, to map entry issues back onto the input. */
type Source =
    | { readonly from: 'output'; readonly index: number }
    | { readonly from: 'deterministic'; readonly index: number }

const CONTEXT_FIELDS = new Set([
    'schemaId',
    'version',
    'schemaHash',
    'gradingMode',
    'selectionId',
    'skillId',
    'aboutHash',
    'persona'
])

function mapEntryIssue(issue: Issue, sources: readonly Source[]): Issue {
    const m = /^\/gradings\/(\d+)(\/.*)?$/.exec(issue.path)
    if (m !== null) {
        const source = sources[Number(m[1])]
        const rest = m[2] ?? ''
        if (source === undefined) return { ...issue, path: '/output/answers' }
        const base =
            source.from === 'output'
                ? pointer('output', 'answers', source.index)
                : pointer('deterministic', source.index)
        const field = rest.split('/')[1] ?? ''
        const own = ['questionId', 'score', 'reasoning', 'evidence', 'naReason'].includes(field)
        const fromContext = ['selectionContext', 'llmModel', 'graderIdentity'].includes(field)
        // Harness answers carry the envelope's one timestamp; a code answer its own.
        if (field === 'timestamp')
            return { ...issue, path: source.from === 'output' ? '/output/timestamp' : base + rest }
        return {
            ...issue,
            path: own
                ? base + rest
                : fromContext
                  ? `/context${field === 'graderIdentity' ? '/grader' : `/${field}`}`
                  : base
        }
    }
    const top = issue.path.split('/')[1] ?? ''
    if (CONTEXT_FIELDS.has(top)) return { ...issue, path: `/context${issue.path}` }
    if (top === 'gradingId') return { ...issue, path: '/output/gradingId' }
    return { ...issue, path: '' }
}

/**
 * The deterministic questions of `area` the code answers list names, so the output may leave them
 * out. Only a list that can be valid is read (no more answers than the area has deterministic
 * questions); anything else is reported by the deterministic check after the output's.
 */
function codeAnswered(area: unknown, deterministic: unknown): ReadonlySet<string> {
    if (!isArea(area) || !Array.isArray(deterministic)) return new Set()
    const ids = AREA_CATALOGUE[area].deterministicQuestionIds
    if (deterministic.length > ids.length) return new Set()
    return new Set(
        deterministic
            .map((a: unknown) =>
                isObject(a) && typeof a.questionId === 'string' && ids.includes(a.questionId) ? a.questionId : null
            )
            .filter((id): id is string => id !== null)
    )
}

type EntryContext = v.InferOutput<typeof ContextArgs>
type QuestionDef = ReturnType<typeof questionsOf>[number]

/** The context and the code answers, checked against each other and against the output. */
function checkContext(
    areaId: Area,
    out: AreaOutput,
    deterministic: unknown,
    context: unknown,
    limits: JsonLimits
): { ctx: EntryContext | null; det: DeterministicAnswer[]; errors: Issue[] } {
    const { value: ctx, errors: ctxErrors } = parseArgs(ContextArgs, context, {
        missing: 'ARE-011',
        mismatch: 'ARE-012',
        create: createIssue
    })
    const det = checkDeterministic(areaId, deterministic, limits)
    if (ctx === null || det.errors.length > 0) {
        return { ctx: null, det: [], errors: [...rebaseIssues(ctxErrors, '/context'), ...det.errors] }
    }
    const issues = requiredByArea(areaId, ctx, det.answers.length > 0)
    if (ctx.schemaHash !== out.schemaHash) {
        issues.push(
            createIssue('ARE-013', '/context/schemaHash', {
                field: 'schemaHash',
                expected: ctx.schemaHash,
                actual: out.schemaHash
            })
        )
    }
    if (
        ctx.persona !== undefined &&
        out.persona !== null &&
        (ctx.persona.basePersonaId !== out.persona.basePersonaId || ctx.persona.lensId !== out.persona.lensId)
    ) {
        issues.push(
            createIssue('ARE-013', '/context/persona', {
                field: 'persona',
                expected: `${ctx.persona.basePersonaId}--${ctx.persona.lensId}`,
                actual: `${out.persona.basePersonaId}--${out.persona.lensId}`
            })
        )
    }
    return issues.length > 0 ? { ctx: null, det: [], errors: issues } : { ctx, det: det.answers, errors: [] }
}

/** The entry's answers in catalogue order, where each came from, and the notes on answers the code replaced. */
interface AssembledAnswers {
    readonly gradings: GradingAnswer[]
    readonly sources: Source[]
    readonly notes: Issue[]
}

function codeGrading(question: QuestionDef, a: DeterministicAnswer, ctx: EntryContext): GradingAnswer {
    return {
        questionId: question.id,
        score: a.score,
        ...definedFields({ naReason: a.naReason }),
        weight: question.weight,
        determinism: 'deterministic',
        graderIdentity: {
            kind: 'script',
            name: (ctx.scriptGrader as { name: string }).name,
            version: (ctx.scriptGrader as { version: string }).version
        },
        timestamp: a.timestamp ?? ctx.now,
        ...definedFields({ evidence: a.evidence, reasoning: a.reasoning })
    }
}

function harnessGrading(
    question: QuestionDef,
    a: AreaOutput['answers'][number],
    out: AreaOutput,
    ctx: EntryContext,
    selectionContext: SelectionContext
): GradingAnswer {
    return {
        questionId: question.id,
        score: a.score,
        ...definedFields({ naReason: a.naReason }),
        weight: question.weight,
        // The harness (an LLM) produced it, whatever the question's nominal determinism.
        determinism: 'non-deterministic',
        graderIdentity: { kind: 'llm', name: ctx.grader.name, version: ctx.grader.version },
        llmModel: ctx.llmModel,
        selectionContext,
        timestamp: out.timestamp,
        ...definedFields({ evidence: a.evidence }),
        reasoning: a.reasoning
    }
}

/**
 * One answer per catalogue question: the code's when it has one (ARE-INFO-001 when the output answered too), else the
 * output's.
 */
function assembleAnswers(
    areaId: Area,
    out: AreaOutput,
    det: readonly DeterministicAnswer[],
    ctx: EntryContext
): AssembledAnswers {
    const notes: Issue[] = []
    const sources: Source[] = []
    const gradings: GradingAnswer[] = []
    const byCode = new Map(det.map((a, i) => [a.questionId, { answer: a, index: i }]))
    const selectionContext = {
        groupId: ctx.selectionContext.groupId,
        personaIds: [...ctx.selectionContext.personaIds],
        ...definedFields({ domainDocId: ctx.selectionContext.domainDocId })
    }
    for (const question of questionsOf(areaId)) {
        const harnessIndex = out.answers.findIndex((a) => a.questionId === question.id)
        const code = byCode.get(question.id)
        if (code !== undefined) {
            if (harnessIndex >= 0)
                notes.push(
                    createIssue('ARE-INFO-001', pointer('output', 'answers', harnessIndex), { questionId: question.id })
                )
            sources.push({ from: 'deterministic', index: code.index })
            gradings.push(codeGrading(question, code.answer, ctx))
            continue
        }
        const a = out.answers[harnessIndex]
        // Unreachable: every question is answered by code or by the output (ARE-006/ARE-020).
        if (a === undefined) continue
        if (question.determinism === 'deterministic')
            notes.push(
                createIssue('ARE-WARN-001', pointer('output', 'answers', harnessIndex), { questionId: question.id })
            )
        sources.push({ from: 'output', index: harnessIndex })
        gradings.push(harnessGrading(question, a, out, ctx, selectionContext))
    }
    return { gradings, sources, notes }
}

/**
 * The selection scope is recorded in the first answer's evidence, so the caps are part of the entry (01-model §4 step
 * 8).
 */
function recordSelectionScope(gradings: GradingAnswer[], ctx: EntryContext): void {
    if (ctx.selectionScope === undefined || gradings.length === 0) return
    // A string evidence is kept under `text` so the scope can sit beside it.
    const first = gradings[0] as GradingAnswer
    const ev = first.evidence
    const kept = ev === undefined ? {} : typeof ev === 'string' ? { text: ev } : ev
    gradings[0] = {
        ...first,
        evidence: {
            ...kept,
            memberNamespaces: ctx.selectionScope.memberNamespaces,
            domainKnowledge: ctx.selectionScope.domainKnowledge
        }
    }
}

function createEntry(
    areaId: Area,
    out: AreaOutput,
    ctx: EntryContext,
    gradings: GradingAnswer[]
): ReturnType<typeof createGradingEntry> {
    return createGradingEntry({
        schemaId: ctx.schemaId,
        area: areaId,
        version: ctx.version,
        schemaHash: ctx.schemaHash,
        gradingMode: ctx.gradingMode,
        now: ctx.now,
        ...definedFields({
            selectionId: ctx.selectionId,
            aboutHash: ctx.aboutHash,
            persona: ctx.persona,
            skillId: ctx.skillId,
            previousFullGrade: ctx.previousFullGrade
        }),
        harness: out.harness,
        gradings
    })
}

function failEntry(errors: Issue[]): ToGradingEntryResult {
    return { entry: null, blocker: null, sidecar: null, aggregate: null, errors }
}

/**
 * Converts one harness area output plus the code-computed deterministic answers into one chapter
 * 08 grading entry (04 §2 conversion; ⚠ D4: the entry is the durable artefact, `iteration` and
 * `improvementHints` go to the sidecar). Answers follow the catalogue order; weights come from the
 * question catalogue; a blocker reply yields `blocker` and no entry. The output may leave out the
 * deterministic questions `deterministic` answers (they are not asked of the harness); an answer it
 * gives to one of them anyway is replaced by the code's (ARE-INFO-001).
 */
export function toGradingEntry(
    area: unknown,
    output: unknown,
    deterministic: unknown,
    context: unknown,
    limits: JsonLimits
): ToGradingEntryResult {
    const checked = validateAreaOutput(area, output, limits, codeAnswered(area, deterministic))
    if (checked.kind === 'blocker' && checked.valid) {
        return { entry: null, blocker: checked.blocker, sidecar: null, aggregate: null, errors: [] }
    }
    if (!checked.valid || checked.output === null) {
        return failEntry(checked.errors)
    }
    const out: AreaOutput = checked.output
    const { ctx, det, errors } = checkContext(out.area, out, deterministic, context, limits)
    if (ctx === null) return failEntry(errors)
    const { gradings, sources, notes } = assembleAnswers(out.area, out, det, ctx)
    recordSelectionScope(gradings, ctx)
    const created = createEntry(out.area, out, ctx, gradings)
    const mapped = (issues: readonly Issue[]): Issue[] => issues.map((i) => mapEntryIssue(i, sources))
    if (created.entry === null) return failEntry(mapped(created.errors))
    if (created.entry.aggregateGrade === null) {
        const reason = created.aggregate?.noGradeReason ?? 'no grade'
        return failEntry([createIssue('ARE-019', '/output/answers', { reason }), ...mapped(created.errors)])
    }
    // The entry keeps the harness's gradingId (04 §2: copied, not regenerated).
    const entry = { ...created.entry, gradingId: out.gradingId } as GradingEntry
    // No `now` here: the context's now dates the code answers and may precede the harness reply.
    const final = validateGradingEntry({ entry, limits })
    if (!final.valid) return failEntry(mapped(final.errors))
    return {
        entry,
        blocker: null,
        sidecar: { iteration: out.iteration, improvementHints: out.improvementHints },
        aggregate: created.aggregate,
        errors: dedupeIssues([...notes, ...mapped(created.errors), ...mapped(final.errors)], { byMessage: true })
    }
}
