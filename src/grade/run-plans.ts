import { Areas } from '../areas/areas.js'
import { DEFAULT_GRADER } from '../deterministic/answers.js'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { addGrading, computeAggregateGrade, createEntry } from '../grading/grading.js'
import type { AggregateResult } from '../grading/aggregate.js'
import { PROVIDER_AREAS, UNIT_STATUS, type Area } from '../model/constants.js'
import { isStableGrade } from '../model/grades.js'
import type { CategoricalVeto, GradingAnswer, GradingEntry } from '../model/types.js'
import { PromptBuilder } from '../prompts/prompt-builder.js'
import { toFileTimestamp } from '../time.js'
import { unitPath } from './judge-call.js'
import { answerUnit, newJudgeTally, type JudgeTally, type UnitReply } from './judge-reply.js'
import type { KeptUnit } from './island-state.js'
import type { PlannedEntry } from './units.js'
import { askForOutput, envelopeFor, type UnitPlan } from './units.js'
import type { EmittedPrompt, GradeOptionsBase, GraderInput, UnitResult } from './types.js'
import { definedFields } from '../model/fields.js'

/** The options as read at run time: every field may be missing or wrong (the types cannot promise it). */
type GradeOptions = GradeOptionsBase

/**
 * Splits deterministic answers into the catalogue's (merged by the area conversion) and the extras (added after it).
 */
function splitAnswers(
    area: Area,
    answers: readonly GradingAnswer[]
): { catalogue: GradingAnswer[]; extra: GradingAnswer[] } {
    const ids = new Set<string>(
        Areas.questions({ area })
            .questions.filter((q) => q.determinism === 'deterministic')
            .map((q) => q.id)
    )
    return {
        catalogue: answers.filter((a) => ids.has(a.questionId)),
        extra: answers.filter((a) => !ids.has(a.questionId))
    }
}

function toDeterministicInput(answers: readonly GradingAnswer[]): Array<Record<string, unknown>> {
    return answers.map((a) => ({
        questionId: a.questionId,
        score: a.score,
        ...definedFields({ naReason: a.naReason, reasoning: a.reasoning, evidence: a.evidence }),
        timestamp: a.timestamp
    }))
}

/** The result row of one unit. */
export function unitResult(plan: UnitPlan, status: UnitResult['status'], extra: Partial<UnitResult> = {}): UnitResult {
    return {
        unit: plan.unit,
        area: plan.area,
        target: plan.target,
        status,
        aggregateGrade: null,
        rawGrade: null,
        normalizedScore: null,
        reason: null,
        written: null,
        ...extra
    }
}

/** The result row of a kept unit: graded, with the grade its index node holds. */
export function keptResult(plan: UnitPlan, kept: KeptUnit): UnitResult {
    return unitResult(plan, kept.aggregateGrade === 'REJECTED' ? UNIT_STATUS.rejected : UNIT_STATUS.graded, {
        aggregateGrade: kept.aggregateGrade,
        rawGrade: kept.rawGrade,
        normalizedScore: kept.normalizedScore,
        written: kept.written,
        kept: true,
        ...(kept.improvementHints !== undefined && kept.improvementHints.length > 0
            ? { improvementHints: kept.improvementHints }
            : {})
    })
}

/** What one run of area units needs: the identity of the entries it writes and the sources of its answers. */
export interface PlanContext {
    readonly schemaId: string
    readonly version: string
    readonly schemaHash: string
    readonly now: string
    readonly grader: GraderInput | null
    readonly options: GradeOptions
    readonly answersGiven: boolean
    readonly attachments: EmittedPrompt['attachments']
    readonly serverParams: Readonly<Record<string, string>>
    readonly secrets: readonly string[]
    readonly errors: Issue[]
    readonly veto: CategoricalVeto | null
    readonly blockedTools: ReadonlyMap<string, string>
    readonly aboutDeclared: boolean
    readonly namespace: string
    readonly aboutHash: string | undefined
    /** Whether the schema the About hangs on is already stable (02-areas ⚠ B8) before this run. */
    readonly stable: boolean
    /** Answers keyed by unit for this run; `options.answers` when omitted. */
    readonly answers?: Readonly<Record<string, unknown>>
    /** Units the island already holds graded for this content (a resumed run): reported, not graded again. */
    readonly kept?: ReadonlyMap<string, KeptUnit>
    /** Units blocked before they run, with the reason (blocked-by-precondition: what they rest on is blocked). */
    readonly preconditions?: ReadonlyMap<string, string>
    /** The run's data-block boundary, and the places the injection scan flagged (told to the judge). */
    readonly boundary?: string
    readonly flagged?: readonly string[]
}

/** What a run of units has produced so far; each stage adds to it, in plan order. */
interface UnitsSoFar {
    readonly units: UnitResult[]
    readonly entries: PlannedEntry[]
    readonly prompts: EmittedPrompt[]
    readonly provisional: Record<string, AggregateResult>
    /** The judge calls made, repair turns among them. */
    readonly judgeCalls: JudgeTally
    /** Whether the schema's tools aggregate is A or B (the About waits for it, 02-areas ⚠ B8). */
    schemaStable: boolean
}

/**
 * Grades each planned unit in order: veto cascade, blocked tools, gates, then the judge, an answer or a returned
 * prompt.
 */
export async function runPlans(
    plans: readonly UnitPlan[],
    ctx: PlanContext
): Promise<{
    units: UnitResult[]
    entries: PlannedEntry[]
    prompts: EmittedPrompt[]
    provisional: Record<string, AggregateResult>
    judgeCalls: JudgeTally
}> {
    const options: GradeOptions = ctx.answers !== undefined ? { ...ctx.options, answers: ctx.answers } : ctx.options
    const stamp = toFileTimestamp(ctx.now) as string
    const run: UnitsSoFar = {
        units: [],
        entries: [],
        prompts: [],
        provisional: {},
        judgeCalls: newJudgeTally(),
        schemaStable: ctx.stable
    }
    const provider = new Set<string>(PROVIDER_AREAS)
    for (const plan of plans) {
        if (!provider.has(plan.area)) continue
        const before = ctx.errors.length
        if (ctx.veto !== null) carryVeto(plan, ctx, ctx.veto, run)
        else if (!settledBeforeAsking(plan, ctx, options, run)) await askUnit(plan, ctx, options, stamp, run)
        withOwnIssues(run.units, plan.unit, ctx.errors.slice(before))
    }
    const { units, entries, prompts, provisional, judgeCalls } = run
    return { units, entries, prompts, provisional, judgeCalls }
}

/** The unit's row with the issues its run added (additive: a unit without any has no `issues`). */
export function withOwnIssues(units: UnitResult[], unit: string, issues: readonly Issue[]): void {
    const at = units.findIndex((u) => u.unit === unit)
    if (at < 0 || issues.length === 0) return
    units[at] = { ...(units[at] as UnitResult), issues: [...issues] }
}

/** Stage "veto": cascade stop (02-areas §3.3): the schema's own areas carry the veto, the rest do not run. */
function carryVeto(plan: UnitPlan, ctx: PlanContext, veto: CategoricalVeto, run: UnitsSoFar): void {
    const { units } = run
    const { errors } = ctx
    if (plan.area !== 'single-test' && plan.area !== 'tools-aggregate-schema') {
        errors.push(createIssue('GRA-013', '', { unit: plan.unit, trigger: veto.triggeredBy }))
        units.push(unitResult(plan, UNIT_STATUS.skipped, { reason: `cascade stop after the ${veto.triggeredBy} veto` }))
        return
    }
    // The island already holds this veto for this content: reported, not written again.
    const keptVeto = ctx.kept?.get(plan.unit)
    if (keptVeto?.aggregateGrade === 'REJECTED') {
        units.push({ ...keptResult(plan, keptVeto), reason: `categorical veto: ${veto.triggeredBy}` })
        return
    }
    const answers = plan.deterministic.length > 0 ? plan.deterministic : []
    if (answers.length === 0) {
        units.push(unitResult(plan, UNIT_STATUS.skipped, { reason: 'no deterministic answer to carry the veto' }))
        return
    }
    const created = createEntry({
        schemaId: ctx.schemaId,
        area: plan.area,
        version: ctx.version,
        schemaHash: ctx.schemaHash,
        gradingMode: 'full',
        now: ctx.now,
        gradings: answers,
        categoricalVeto: veto
    })
    if (created.entry === null || created.entry.aggregateGrade === null) {
        errors.push(...created.errors)
        units.push(unitResult(plan, UNIT_STATUS.error, { reason: 'the vetoed entry did not validate' }))
        return
    }
    run.entries.push({ plan, entry: created.entry as GradingEntry })
    units.push(
        unitResult(plan, UNIT_STATUS.rejected, {
            aggregateGrade: 'REJECTED',
            reason: `categorical veto: ${veto.triggeredBy}`
        })
    )
}

/**
 * Stage "gate": a unit settled before any prompt is built — its tool blocked, what it rests on blocked,
 * kept from the island, the About not gradable yet, or no persona for a persona-bound area. True when settled.
 */
function settledBeforeAsking(plan: UnitPlan, ctx: PlanContext, options: GradeOptions, run: UnitsSoFar): boolean {
    const { errors, blockedTools } = ctx
    const block = (reason: string): true => {
        errors.push(createIssue('GRA-011', '', { unit: plan.unit, reason }))
        run.units.push(unitResult(plan, UNIT_STATUS.blocked, { reason }))
        return true
    }
    if (plan.area === 'single-test' && plan.focus !== null && blockedTools.has(plan.focus))
        return block(blockedTools.get(plan.focus) as string)
    // An aggregate rests on the units below it (02-areas §3.1): one of them blocked blocks it too, and the judge is not
    // asked.
    const precondition =
        ctx.preconditions?.get(plan.unit) ??
        (plan.area === 'tools-aggregate-schema' ? toolsPrecondition(blockedTools) : null)
    if (precondition !== null) return block(precondition)
    const kept = ctx.kept?.get(plan.unit)
    if (kept !== undefined) {
        run.units.push(keptResult(plan, kept))
        if (plan.area === 'tools-aggregate-schema') run.schemaStable = isStableGrade(kept.aggregateGrade)
        return true
    }
    if (plan.area === 'about-namespace') {
        // Without a judge or answers stability is unknown yet: the prompt is returned so a harness can answer it ahead.
        const stabilityKnown = ctx.answersGiven
        const why = !ctx.aboutDeclared
            ? 'the schema declares no about resource'
            : options.about === undefined
              ? 'no About text was supplied (options.about)'
              : stabilityKnown && !run.schemaStable
                ? 'the schema is not stable yet (02-areas ⚠ B8)'
                : null
        if (why !== null) {
            errors.push(createIssue('GRA-012', '', { unit: plan.unit, reason: why }))
            run.units.push(
                unitResult(plan, !ctx.aboutDeclared ? UNIT_STATUS.skipped : UNIT_STATUS.gated, { reason: why })
            )
            return true
        }
    }
    if (isPersonaBound(plan) && ctx.grader?.persona === undefined) {
        // Only reachable without a judge or answers (checkGrader requires a persona then): no persona, no prompt.
        const reason = 'a persona-bound area needs grader.persona to build its prompt'
        errors.push(createIssue('GRA-012', '', { unit: plan.unit, reason }))
        run.units.push(unitResult(plan, UNIT_STATUS.gated, { reason }))
        return true
    }
    return false
}

function isPersonaBound(plan: UnitPlan): boolean {
    return PromptBuilder.isPersonaRequired({ area: plan.area }).personaRequired === true
}

/** Stage "ask": the unit's prompt, then the judge's reply, a given answer, or the prompt returned (provisional). */
async function askUnit(
    plan: UnitPlan,
    ctx: PlanContext,
    options: GradeOptions,
    stamp: string,
    run: UnitsSoFar
): Promise<void> {
    const { grader, now, errors } = ctx
    const persona = grader?.persona
    const envelope = envelopeFor({
        plan,
        schemaHash: ctx.schemaHash,
        stamp,
        now,
        persona: isPersonaBound(plan) ? (persona ?? null) : null,
        harness: grader?.harness
    })
    const request = askForOutput({
        plan,
        envelope,
        attachments: ctx.attachments,
        serverParams: ctx.serverParams,
        errors,
        ...definedFields({ boundary: ctx.boundary, flagged: ctx.flagged })
    })
    if (request === null) {
        run.units.push(unitResult(plan, UNIT_STATUS.error, { reason: 'the area prompt could not be built' }))
        return
    }
    const reply = await answerUnit(
        plan,
        request,
        options,
        errors,
        ctx.secrets,
        (given) => convertReply(plan, given, ctx),
        run.judgeCalls
    )
    if (reply.kind === 'none') {
        run.prompts.push(request)
        // A deterministic-only entry is not a valid area grading (S7), so only its aggregate is reported.
        const aggregate =
            plan.deterministic.length > 0
                ? computeAggregateGrade({
                      entry: {
                          area: plan.area,
                          gradingTier: 'autonomous',
                          gradingMode: 'full',
                          categoricalVeto: null,
                          gradings: plan.deterministic
                      }
                  })
                : null
        if (aggregate !== null) run.provisional[plan.unit] = aggregate
        run.units.push(
            unitResult(plan, UNIT_STATUS.provisional, {
                aggregateGrade: aggregate?.aggregateGrade ?? null,
                rawGrade: aggregate?.rawGrade ?? null,
                normalizedScore: aggregate?.normalizedScore ?? null,
                reason: 'waiting for the non-deterministic answers'
            })
        )
        return
    }
    if (reply.kind === 'error') {
        run.units.push(unitResult(plan, UNIT_STATUS.error, { reason: reply.reason }))
        return
    }
    recordReply(plan, reply.converted, ctx, run)
}

/** The area output turned into an entry with the deterministic answers code gave (or the blocker, or why not). */
function convertReply(plan: UnitPlan, reply: UnitReply, ctx: PlanContext): ReturnType<typeof Areas.toGradingEntry> {
    const { grader } = ctx
    const persona = grader?.persona
    const { catalogue } = splitAnswers(plan.area, plan.deterministic)
    return Areas.toGradingEntry({
        output: reply.output,
        deterministic: toDeterministicInput(catalogue),
        context: {
            schemaId: ctx.schemaId,
            version: ctx.version,
            schemaHash: ctx.schemaHash,
            gradingMode: 'full',
            now: ctx.now,
            grader: { name: (grader as GraderInput).name, version: (grader as GraderInput).version },
            llmModel: reply.model ?? (grader as GraderInput).llmModel,
            scriptGrader: { name: DEFAULT_GRADER.name, version: DEFAULT_GRADER.version },
            selectionContext: {
                groupId: grader?.groupId ?? ctx.namespace,
                personaIds: persona !== undefined ? [persona.basePersonaId] : []
            },
            ...areaExtras(plan, persona, ctx.aboutHash)
        }
    })
}

/**
 * Stage "judge": the converted reply recorded: an entry (with the deterministic answers outside the catalogue), or the
 * unit blocked by the judge.
 */
function recordReply(
    plan: UnitPlan,
    converted: ReturnType<typeof Areas.toGradingEntry>,
    ctx: PlanContext,
    run: UnitsSoFar
): void {
    const { errors } = ctx
    const { extra } = splitAnswers(plan.area, plan.deterministic)
    if (converted.blocker !== null || converted.entry === null) {
        const reason =
            converted.blocker !== null
                ? `the grader reported a blocker: ${converted.blocker.blocker} (${converted.blocker.reason})`
                : 'the area output was rejected'
        errors.push(createIssue('GRA-011', unitPath(plan.unit), { unit: plan.unit, reason }))
        run.units.push(unitResult(plan, UNIT_STATUS.blocked, { reason }))
        return
    }
    const entry = withExtraAnswers(converted.entry, extra, errors)
    const aggregate = computeAggregateGrade({ entry })
    run.entries.push({ plan, entry, ...(converted.sidecar !== null ? { sidecar: converted.sidecar } : {}) })
    if (plan.area === 'tools-aggregate-schema') run.schemaStable = isStableGrade(entry.aggregateGrade)
    const hints = converted.sidecar?.improvementHints ?? []
    run.units.push(
        unitResult(plan, entry.aggregateGrade === 'REJECTED' ? UNIT_STATUS.rejected : UNIT_STATUS.graded, {
            aggregateGrade: entry.aggregateGrade,
            rawGrade: aggregate.rawGrade,
            normalizedScore: aggregate.normalizedScore,
            ...(hints.length > 0 ? { improvementHints: hints } : {})
        })
    )
}

/**
 * The entry with the deterministic answers outside the catalogue added one by one; a refused one is reported and left
 * out.
 */
function withExtraAnswers(converted: GradingEntry, extra: readonly GradingAnswer[], errors: Issue[]): GradingEntry {
    let entry = converted
    for (const answer of extra) {
        const added = addGrading({ entry, grading: answer })
        if (added.entry === null) {
            errors.push(...added.errors)
            continue
        }
        entry = added.entry as GradingEntry
    }
    return entry
}

/**
 * The namespace aggregate rests on every schema's tools aggregate: the schemas whose aggregate is blocked block it (an
 * empty map when none is).
 */
export function namespacePrecondition(blockedSchemas: readonly string[]): Map<string, string> {
    if (blockedSchemas.length === 0) return new Map()
    return new Map([
        [
            'tools-aggregate-namespace',
            `blocked-by-precondition — the namespace aggregate rests on every schema's tools aggregate, and that of ${blockedSchemas.join(', ')} is blocked`
        ]
    ])
}

/** Why a schema's tools aggregate cannot be graded: the tools it rests on that are blocked; `null` when none is. */
export function toolsPrecondition(blockedTools: ReadonlyMap<string, string>): string | null {
    if (blockedTools.size === 0) return null
    const names = [...blockedTools.keys()]
    return `blocked-by-precondition — the tools aggregate rests on every tool's single-test, and ${names.length === 1 ? `tool ${names[0]} is` : `tools ${names.join(', ')} are`} blocked; test ${names.length === 1 ? 'it' : 'them'} first`
}

function areaExtras(
    plan: UnitPlan,
    persona: GraderInput['persona'],
    aboutHash: string | undefined
): Record<string, unknown> {
    const personaRequired = PromptBuilder.isPersonaRequired({ area: plan.area }).personaRequired === true
    return {
        ...(personaRequired && persona !== undefined ? { persona } : {}),
        ...definedFields({ skillId: plan.skillId }),
        ...(plan.area === 'about-namespace' && aboutHash !== undefined ? { aboutHash } : {})
    }
}
