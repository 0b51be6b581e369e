import { NODE_STATUS, SEVERITY, UNIT_STATUS } from '../model/constants.js'
import { Areas } from '../areas/areas.js'
import { DeterministicAnswers, DEFAULT_GRADER } from '../deterministic/answers.js'
import * as v from 'valibot'
import { createIssue, rebaseIssues } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { SELECTION_MEMBER_THRESHOLDS } from '../grading/aggregate.js'
import { computeAggregateGrade } from '../grading/grading.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { Island } from '../island/island.js'
import { writeGrading } from '../island/write-grading.js'
import { joinPath, LAYOUT } from '../store/paths.js'
import { SourceSnapshot } from '../island/snapshot.js'
import type { AggregateGrade, Area, LetterGrade, RollupStatus } from '../model/constants.js'
import type { GradingAnswer, GradingEntry } from '../model/types.js'
import type { CatalogueQuestionId } from '../model/question-ids.js'
import type { Clock, FsPort } from '../ports/types.js'
import { PreConditionCheck } from '../rollup/pre-condition.js'
import { BELOW_SOFT_THRESHOLD_REASON } from '../rollup/build-selection.js'
import { RebuildIndex } from '../rollup/rebuild-index.js'
import type { SelectionIndex } from '../rollup/types.js'
import { SchemaCheck } from '../schema/schema-check.js'
import { checkSelectionDefinition } from '../selection/definition.js'
import { SelectionSkills } from '../selection/skills.js'
import { toFileTimestamp } from '../time.js'
import { checkGrader, nowOf } from './run-input.js'
import { unitResult, withOwnIssues } from './run-plans.js'
import { answerUnit, judgeCallCountOf, newJudgeTally, type JudgeTally, type UnitReply } from './judge-reply.js'
import { judgeForRun, judgeOptionIssues, pickJudgeOptions, type JudgeCallOptions } from './judge-call.js'
import type { EmittedPrompt, GraderInput, Judge, JudgeCallCount, UnitResult } from './types.js'
import { askForOutput, envelopeFor, harnessOf, type UnitPlan } from './units.js'
import { chooseBoundary } from '../injection/boundary.js'
import { scanInjection } from '../injection/scan.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'
import { objectArg, parseArgs, says } from '../validation/args.js'

/** The codes and wording of this module's argument checks (a field named by its key, an item by its index). */
const ARGS = { missing: 'GRA-001', mismatch: 'GRA-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const
const INPUT = objectArg()
// Length first: the pattern never runs on a string longer than any folder name.
const SELECTION_ID = v.looseObject({
    selectionId: v.custom<string>(
        (id) => typeof id === 'string' && id.length <= 200 && /^[a-z0-9](?:[a-z0-9]|-(?!-))*$/.test(id),
        says({ expected: 'selection id ([a-z0-9-]+)', actual: 'value' })
    )
})
const ROOT_AND_ABOUT = v.looseObject({
    root: v.optional(v.string()),
    about: v.optional(v.custom<{ text: string }>((a) => isObject(a) && typeof a.text === 'string', says('{ text }')))
})
const SKILLS_WORDING = 'array of { name, level: L1|L2|L3, text }'
const SKILLS = v.looseObject({
    skills: v.optional(
        v.array(
            v.custom(
                (s) =>
                    isObject(s) &&
                    typeof s.name === 'string' &&
                    typeof s.text === 'string' &&
                    (s.level === 'L1' || s.level === 'L2' || s.level === 'L3'),
                says(SKILLS_WORDING)
            ),
            says(SKILLS_WORDING)
        )
    )
})
const SELECTION = v.looseObject({ selection: v.optional(objectArg()) })

type Obj = Record<string, unknown>

/**
 * Options of {@link gradeSelection}; the judge's timeout, retries, abort signal and stop after failures in a row as in
 * `gradeSingleSchema`.
 */
export interface GradeSelectionOptions extends JudgeCallOptions {
    /** The island holding the member providers; selection grading reads its frozen lockSnapshot. */
    readonly fs: FsPort
    readonly root: string
    readonly clock?: Clock
    readonly now?: string
    readonly judge?: Judge
    readonly answers?: Readonly<Record<string, unknown>>
    /** The selection About (= Domain-Knowledge document, 02-areas §8). */
    readonly about?: { readonly text: string }
    /** Selection skills, at most four; the level decides the area (`selection-skills-L1/L2/L3`). */
    readonly skills?: ReadonlyArray<{
        readonly name: string
        readonly level: 'L1' | 'L2' | 'L3'
        readonly text: string
    }>
}

/** Result of {@link gradeSelection}. */
export interface GradeSelectionResult {
    readonly grading: {
        readonly selectionId: string
        readonly schemaId: string
        readonly selectionHash: string
        readonly gradingTier: 'group-bound'
        readonly maxAttainableGrade: 'A' | 'B'
        readonly memberNamespaces: number
        /** "M of N members PASS" from the member-resolution manifest (⚠ B14). */
        readonly membersPassing: { readonly passing: number; readonly total: number }
        readonly preCondition: {
            readonly passed: boolean
            readonly blockedMembers: ReadonlyArray<{ schemaId: string; gradingStatus: string | null }>
        }
        readonly mode: 'full' | 'provisional' | 'blocked'
        /** The selection's grade: its `selection-aggregate` grading. */
        readonly aggregateGrade: AggregateGrade | null
        /** The untrimmed band of the selection aggregate's mean. */
        readonly rawGrade: LetterGrade | null
        readonly units: UnitResult[]
        readonly indexPath: string | null
        readonly rollupStatus: RollupStatus | null
        /**
         * The judge calls this run sent (first asks, repair turns and retries apart), the usage the judge reported and
         * the estimate beside it; absent when the run stopped before its units.
         */
        readonly judgeCalls?: JudgeCallCount
    } | null
    readonly entries: GradingEntry[]
    readonly prompts: EmittedPrompt[]
    readonly errors: Issue[]
}

const LEVEL_AREA: Readonly<Record<'L1' | 'L2' | 'L3', Area>> = {
    L1: 'selection-skills-L1',
    L2: 'selection-skills-L2',
    L3: 'selection-skills-L3'
}

function deterministicAnswer(
    id: CatalogueQuestionId,
    score: 'pass' | 'fail',
    evidence: Record<string, unknown>,
    now: string
): GradingAnswer {
    const row = Areas.questions({ area: 'selection-aggregate' }).questions.find((q) => q.id === id)
    return {
        questionId: id,
        score,
        weight: row?.weight ?? 1,
        determinism: 'deterministic',
        graderIdentity: DEFAULT_GRADER,
        timestamp: now,
        evidence
    }
}

/**
 * Grades a selection on the group-bound areas 7–11 (about-selection, selection-skills-L1/L2/L3 per
 * skill, selection-aggregate). First checks the whole definition (chapter 16, 03 ⚠ C24) and the
 * skill list (≤ 4); any error there and nothing is written. Then freezes a new `lockSnapshot` for
 * the run and gates on it: every member must be `stable` (chapter 21), else nothing runs. Fewer
 * than 5 distinct member namespaces: no selection entries at all (02-areas ⚠ B10); 5–6: every
 * selection-side entry is capped at B; ≥ 7: A reachable, but only with the About (02-areas §8).
 * Skills follow Rules A/B and the ⚠ B13 predecessor chain. The selection-aggregate thresholds and
 * "M of N members PASS" answers are computed from the frozen snapshot and the member-resolution
 * manifest. Never throws.
 * @param input - `{ selectionId, schemaIds | selection, grader, options: { fs, root, now | clock, judge?, answers?,
 *   about?, skills? } }`
 * @returns `{ grading, entries, prompts, errors }`; GRA-*, PRE-*, SEL-*, SKL-018, SKC-001, SKC-002,
 *   plus the codes of every step
 * @example await gradeSelection({ selectionId: 'weather-core', schemaIds, grader, options: { fs, root, now, judge } })
 */
export async function gradeSelection(input: {
    selectionId?: string
    schemaIds?: readonly string[]
    selection?: unknown
    grader?: GraderInput
    options?: GradeSelectionOptions
}): Promise<GradeSelectionResult> {
    const root = parseArgs(INPUT, input, ARGS, STYLE)
    if (root.value === null) return stopped(root.errors)
    const errors: Issue[] = []
    const prepared = await prepareSelection(input, errors)
    if (!prepared.ok) return stopped(prepared.errors)
    const gated = await gateSelection(prepared.value, errors)
    if (!gated.ok) return gated.result
    return gradeGatedSelection(prepared.value, gated.value, errors)
}

type SelectionInput = Parameters<typeof gradeSelection>[0]
type SelectionSkill = NonNullable<GradeSelectionOptions['skills']>[number]

/** A run that stopped before its units: no grading, the issues that stopped it. */
function stopped(errors: Issue[]): GradeSelectionResult {
    return { grading: null, entries: [], prompts: [], errors }
}

/** A selection checked and snapshotted: the run's start, the skills' cross-references, its folder and its hash. */
interface PreparedSelection {
    readonly start: SelectionStart
    readonly references: ReturnType<typeof SelectionSkills.crossReferences>
    readonly selDir: string
    readonly selectionHash: string
}

/** Stages "check input", "check definition" and "snapshot"; else the issues to stop with (an error stops it all). */
async function prepareSelection(
    input: SelectionInput,
    errors: Issue[]
): Promise<{ ok: true; value: PreparedSelection } | { ok: false; errors: Issue[] }> {
    const start = checkSelectionInput(input, errors)
    if (start === null) return { ok: false, errors }
    const { options, selectionId, definition, now: at } = start
    const references = checkDefinitionAndSkills(input, definition, selectionId, options, errors)
    if (errors.some((e) => e.severity === SEVERITY.error)) return { ok: false, errors }
    const { fs, root } = options
    const selDir = joinPath(root.replace(/\/+$/, ''), LAYOUT.selections, selectionId)
    const selectionHash = HashGenerator.computeSelectionHash({ selection: definition })
    if (selectionHash.short === null) return { ok: false, errors: selectionHash.errors }
    await snapshotSources({ fs, selDir, selectionId, definition, hash: selectionHash.short, options, at, errors })
    if (errors.some((e) => e.severity === SEVERITY.error)) return { ok: false, errors }
    return { ok: true, value: { start, references, selDir, selectionHash: selectionHash.short } }
}

/** A selection past its gate: the index of its frozen member set and what that set says. */
interface GatedSelection {
    readonly index: SelectionIndex
    readonly facts: SelectionFacts
}

/** Stage "gate": step 0 freezes the member set for this run (chapter 21); blocked when the gate or threshold fails. */
async function gateSelection(
    prepared: PreparedSelection,
    errors: Issue[]
): Promise<{ ok: true; value: GatedSelection } | { ok: false; result: GradeSelectionResult }> {
    const { options, selectionId, definition, now: at } = prepared.start
    const started = await Island.startGradingRun({
        fs: options.fs,
        root: options.root,
        target: { selection: selectionId },
        now: at
    })
    errors.push(...started.errors.filter((e) => e.severity === SEVERITY.error))
    const index = started.index as SelectionIndex | null
    if (index === null) return { ok: false, result: stopped(errors) }
    const facts = selectionFactsOf(definition, index, options, selectionId, prepared.selectionHash)
    const { gate, base, memberNamespaces } = facts
    const blocked = (reason: string): { ok: false; result: GradeSelectionResult } => {
        errors.push(createIssue('GRA-019', '', { selection: selectionId, detail: reason }))
        return {
            ok: false,
            result: {
                grading: {
                    ...base,
                    mode: 'blocked',
                    aggregateGrade: null,
                    rawGrade: null,
                    units: [],
                    indexPath: started.indexPath,
                    rollupStatus: index.status
                },
                entries: [],
                prompts: [],
                errors
            }
        }
    }
    if (!gate.passed) {
        errors.push(...gate.errors)
        const notStable = gate.blockedMembers.map((m) => `${m.schemaId} (${m.gradingStatus ?? 'not graded'})`)
        return blocked(`pre-condition failed: not stable: ${notStable.join(', ')}`)
    }
    if (memberNamespaces < SELECTION_MEMBER_THRESHOLDS.SOFT) {
        const reason = `${memberNamespaces} member namespaces; no selection areas run (02-areas ⚠ B10)`
        return blocked(`${BELOW_SOFT_THRESHOLD_REASON}: ${reason}`)
    }
    return { ok: true, value: { index, facts } }
}

/** Stages "plan", "units", "write" and "roll up" of a selection that passed its gate. */
async function gradeGatedSelection(
    prepared: PreparedSelection,
    gated: GatedSelection,
    errors: Issue[]
): Promise<GradeSelectionResult> {
    const { start, references, selDir, selectionHash } = prepared
    const { facts } = gated
    const { options, now: at } = start
    const planned = selectionPlansOf(start, facts, errors)
    const material = selectionMaterialOf(start, gated.index, errors)
    const ctx: SelectionUnitContext = {
        start,
        facts,
        planned,
        material,
        references,
        selectionHash,
        errors,
        tally: newJudgeTally()
    }
    const { units, entries, prompts } = await gradeSelectionUnits(planned.plans, ctx)
    await writeSelectionEntries(options, entries, units, at, errors)
    const rebuilt = await RebuildIndex.rebuildSelectionIndex({
        fs: options.fs,
        selectionDir: selDir,
        providersRoot: joinPath(options.root.replace(/\/+$/, ''), LAYOUT.providers),
        now: at
    })
    errors.push(...rebuilt.errors.filter((e) => e.severity === SEVERITY.error))
    const agg = units.find((u) => u.area === 'selection-aggregate')
    const mode = units.some((u) => u.status === UNIT_STATUS.provisional) ? 'provisional' : 'full'
    if (mode === 'provisional') errors.push(createIssue('GRA-014', ''))
    return {
        grading: {
            ...facts.base,
            mode,
            aggregateGrade: agg?.aggregateGrade ?? null,
            rawGrade: agg?.rawGrade ?? null,
            units,
            indexPath: rebuilt.indexPath,
            rollupStatus: (rebuilt.index as { status?: RollupStatus } | null)?.status ?? null,
            judgeCalls: judgeCallCountOf(ctx.tally)
        },
        entries: entries.map((e) => e.entry),
        prompts,
        errors
    }
}

/** The checked start of a selection run: its options, id, grader, time, definition and the run's judge. */
interface SelectionStart {
    readonly options: GradeSelectionOptions
    readonly selectionId: string
    readonly grader: GraderInput | undefined
    readonly now: string
    readonly definition: Obj
    readonly judgeCalls: JudgeCallOptions
}

/**
 * Stage "check input": every argument checked, one issue per wrong one; null when any is wrong (issues in `errors`).
 */
function checkSelectionInput(input: SelectionInput, errors: Issue[]): SelectionStart | null {
    const options = (isObject(input.options) ? input.options : {}) as GradeSelectionOptions
    if (!isObject(input.options))
        errors.push(createIssue('GRA-001', '/options', { field: 'options { fs, root, now }' }))
    const selectionId = input.selectionId
    checkSelectionOptions(selectionId, options, errors)
    const answersGiven = options.judge !== undefined || options.answers !== undefined
    errors.push(...judgeOptionIssues(options as unknown as Readonly<Record<string, unknown>>))
    // One judge for the selection's run: its units share one count of failures in a row.
    const judgeCalls: JudgeCallOptions = {
        ...pickJudgeOptions(options),
        ...(options.judge !== undefined ? { judge: judgeForRun(options.judge) as Judge } : {})
    }
    const grader = input.grader
    // The grader identity is only used for the answers; selection areas are all persona-bound.
    if (answersGiven) checkGrader(grader, true, errors)
    const now = nowOf(
        {
            ...definedFields({ now: options.now, clock: options.clock })
        },
        errors
    )
    const definition = definitionOf(input, selectionId, grader, errors)
    if (errors.length > 0 || definition === null || typeof selectionId !== 'string' || now === null) return null
    return { options, selectionId, grader, now, definition, judgeCalls }
}

/**
 * The selection id, the island, the About and the skills: one issue per wrong option, never one per character or item
 * of a wrong type.
 */
function checkSelectionOptions(selectionId: unknown, options: GradeSelectionOptions, errors: Issue[]): void {
    errors.push(...parseArgs(SELECTION_ID, { selectionId }, ARGS, STYLE).errors)
    // fs and root go together (the island): one finding for either absent, a rule of its own.
    const island = options.fs !== undefined && options.root !== undefined
    if (!island)
        errors.push(createIssue('GRA-001', '/options/fs', { field: 'fs and root (the island holding the members)' }))
    // The options are named by their own keys (`root`, `skills[2]`) and placed under /options.
    const given = { root: island ? options.root : undefined, about: options.about }
    errors.push(...rebaseIssues(parseArgs(ROOT_AND_ABOUT, given, ARGS, STYLE).errors, '/options'))
    // One finding for a wrong list of skills: the list, or its first wrong item.
    const skills = parseArgs(SKILLS, { skills: options.skills }, ARGS, STYLE).errors.slice(0, 1)
    errors.push(...rebaseIssues(skills, '/options'))
}

/**
 * The selection definition: given, or built from the member list as the reference does (06 §2.4); null with its issue
 * when neither.
 */
function definitionOf(input: SelectionInput, selectionId: unknown, grader: unknown, errors: Issue[]): Obj | null {
    if (input.selection !== undefined) {
        const given = parseArgs(SELECTION, input, ARGS, STYLE)
        errors.push(...given.errors)
        return given.value?.selection ?? null
    }
    if (Array.isArray(input.schemaIds) && input.schemaIds.every((s) => typeof s === 'string')) {
        return {
            selectionId,
            namespace: selectionId,
            name: selectionId,
            version: 'flowmcp/4.0.0',
            description: `Selection ${String(selectionId)} of ${input.schemaIds.length} member schemas.`,
            whenToUse: `Use selection ${String(selectionId)} for tasks that span its ${input.schemaIds.length} member schemas.`,
            personaIds: isObject(grader) && isObject(grader.persona) ? [grader.persona.basePersonaId] : [],
            members: input.schemaIds.map((schemaId) => ({ schemaId })),
            skills: []
        }
    }
    errors.push(createIssue('GRA-001', '/schemaIds', { field: 'schemaIds or selection' }))
    return null
}

/**
 * Stage "check definition": chapter 16 with ⚠ C24, the whole definition checked before anything is written, then the
 * skills' cross-references.
 */
function checkDefinitionAndSkills(
    input: SelectionInput,
    definition: Obj,
    selectionId: string,
    options: GradeSelectionOptions,
    errors: Issue[]
): ReturnType<typeof SelectionSkills.crossReferences> {
    const fromList = input.selection === undefined
    const where = (path: string): string => {
        if (!fromList) return `/selection${path}`
        const member = /^\/members\/(\d+)/.exec(path)
        return member !== null
            ? `/schemaIds/${member[1]}`
            : path === '/members'
              ? '/schemaIds'
              : path.startsWith('/personaIds')
                ? '/grader/persona'
                : ''
    }
    errors.push(...checkSelectionDefinition(definition, selectionId).map((i) => ({ ...i, path: where(i.path) })))
    const references = SelectionSkills.crossReferences({ skills: options.skills ?? [] })
    // SKL-018 and unusable skills stop the run; rule A/B findings block single skills further down.
    errors.push(
        ...references.errors
            .filter((i) => i.code !== 'SKC-001' && i.code !== 'SKC-002')
            .map((i) => ({ ...i, path: `/options${i.path}` }))
    )
    return references
}

/** Stage "snapshot": the definition, the About and the skills become snapshots beside older versions (IN). */
async function snapshotSources(args: {
    fs: FsPort
    selDir: string
    selectionId: string
    definition: Obj
    hash: string
    options: GradeSelectionOptions
    at: string
    errors: Issue[]
}): Promise<void> {
    const { fs, selDir, selectionId, options, at, errors } = args
    const snap = await SourceSnapshot.create({
        fs,
        dir: joinPath(selDir, LAYOUT.selectionSnapshots),
        name: selectionId,
        ext: 'json',
        text: `${JSON.stringify(args.definition, null, 4)}\n`,
        hash: args.hash,
        now: at
    })
    errors.push(...snap.errors)
    if (options.about !== undefined)
        errors.push(
            ...(
                await SourceSnapshot.create({
                    fs,
                    dir: joinPath(selDir, LAYOUT.resources, LAYOUT.about),
                    name: `${selectionId}-about`,
                    ext: 'md',
                    text: options.about.text,
                    now: at
                })
            ).errors
        )
    for (const skill of options.skills ?? [])
        errors.push(
            ...(
                await SourceSnapshot.create({
                    fs,
                    dir: joinPath(selDir, LAYOUT.skills, skill.name),
                    name: skill.name,
                    ext: 'mjs',
                    text: skill.text,
                    now: at
                })
            ).errors
        )
}

/**
 * What the frozen member set says: the gate, how many members pass, the member namespaces, and the grading's fixed
 * fields.
 */
interface SelectionFacts {
    readonly gate: ReturnType<typeof PreConditionCheck.check>
    readonly members: Array<[string, SelectionIndex['members'][string]]>
    readonly passing: number
    readonly namespaces: ReadonlySet<string | undefined>
    readonly memberNamespaces: number
    readonly version: string
    readonly schemaId: string
    readonly base: Omit<
        NonNullable<GradeSelectionResult['grading']>,
        'mode' | 'aggregateGrade' | 'rawGrade' | 'units' | 'indexPath' | 'rollupStatus'
    >
}

/** Stage "gate": the pre-condition on the frozen lockSnapshot and the figures every selection entry rests on. */
function selectionFactsOf(
    definition: Obj,
    index: SelectionIndex,
    options: GradeSelectionOptions,
    selectionId: string,
    selectionHash: string
): SelectionFacts {
    const gate = PreConditionCheck.check({ index })
    const members = Object.entries(index.members ?? {})
    const passing = members.filter(([, m]) => m.status === NODE_STATUS.stable).length
    const namespaces = new Set(
        ((definition.members as unknown[] | undefined) ?? [])
            .map((m) =>
                isObject(m) && typeof m.schemaId === 'string'
                    ? m.schemaId.split('.')[0]
                    : typeof m === 'string'
                      ? m.split('.')[0]
                      : ''
            )
            .filter((n) => n !== '')
    )
    const memberNamespaces = namespaces.size
    const version = SchemaCheck.normalizeVersion({ version: definition.version }).version ?? 'flowmcp/4.0.0'
    const selectionNamespace =
        typeof definition.namespace === 'string' && /^[a-zA-Z0-9_-]+$/.test(definition.namespace)
            ? definition.namespace
            : selectionId
    const schemaId = `${selectionNamespace}.${selectionId}`
    const base = {
        selectionId,
        schemaId,
        selectionHash,
        gradingTier: 'group-bound' as const,
        // A needs ≥ 7 namespaces (01-model §4 step 8) and the Domain-Knowledge content (02-areas §8).
        maxAttainableGrade: (memberNamespaces >= SELECTION_MEMBER_THRESHOLDS.HARD && options.about !== undefined
            ? 'A'
            : 'B') as 'A' | 'B',
        memberNamespaces,
        membersPassing: { passing, total: members.length },
        preCondition: {
            passed: gate.passed,
            blockedMembers: gate.blockedMembers.map((m) => ({ schemaId: m.schemaId, gradingStatus: m.gradingStatus }))
        }
    }
    return { gate, members, passing, namespaces, memberNamespaces, version, schemaId, base }
}

/**
 * Stage "plan": the About, one unit per skill (L1, then L2, then L3) and the aggregate, with their deterministic
 * answers.
 */
function selectionPlansOf(
    start: SelectionStart,
    facts: SelectionFacts,
    errors: Issue[]
): { plans: UnitPlan[]; aboutText: string | undefined; aboutHash: string | undefined } {
    const { options, selectionId, now: at } = start
    const { memberNamespaces, namespaces, passing, members } = facts
    const aboutText = options.about?.text
    const aboutHash =
        aboutText !== undefined ? (HashGenerator.hashBytes({ text: aboutText }).short ?? undefined) : undefined
    const about = DeterministicAnswers.buildSelection({
        aboutFileExists: aboutText !== undefined,
        questions: Areas.questions({ area: 'about-selection' }).questions,
        now: at
    })
    errors.push(...about.errors)
    const aggregateAnswers = [
        deterministicAnswer(
            'Q-selection-aggregate-01',
            'pass',
            {
                memberNamespaces,
                soft: SELECTION_MEMBER_THRESHOLDS.SOFT,
                hard: SELECTION_MEMBER_THRESHOLDS.HARD,
                namespaces: [...namespaces].sort()
            },
            at
        ),
        // The cascade-stop question also asks for a valid Domain-Knowledge document (the About).
        deterministicAnswer(
            'Q-selection-aggregate-06',
            passing === members.length && aboutText !== undefined ? 'pass' : 'fail',
            {
                passing,
                total: members.length,
                members: Object.fromEntries(members.map(([id, m]) => [id, m.status])),
                domainKnowledge: aboutText !== undefined
            },
            at
        )
    ]
    const plans: UnitPlan[] = [
        {
            unit: 'about-selection',
            area: 'about-selection',
            target: { selection: selectionId },
            deterministic: (about.byArea as Record<string, GradingAnswer[]>)['about-selection'] ?? [],
            focus: null
        },
        ...(['L1', 'L2', 'L3'] as const).flatMap((level) =>
            (options.skills ?? [])
                .filter((s) => s.level === level)
                .map(
                    (s): UnitPlan => ({
                        unit: `${LEVEL_AREA[level]}/${s.name}`,
                        area: LEVEL_AREA[level],
                        target: { selection: selectionId, skill: s.name },
                        deterministic: [],
                        focus: s.name,
                        skillId: s.name
                    })
                )
        ),
        {
            unit: 'selection-aggregate',
            area: 'selection-aggregate',
            target: { selection: selectionId },
            deterministic: aggregateAnswers,
            focus: null
        }
    ]
    return { plans, aboutText, aboutHash }
}

/**
 * What every selection prompt carries: the persona, the files, the run's boundary and what the injection scan flagged.
 */
interface SelectionMaterial {
    readonly persona: { basePersonaId: string; lensId: string } | null
    readonly attachments: EmittedPrompt['attachments']
    readonly boundary: string
    readonly flagged: string[]
}

/**
 * Stage "attach and scan": the definition, About, skills and member manifest; the About and skills scanned for text
 * aimed at the grader.
 */
function selectionMaterialOf(start: SelectionStart, index: SelectionIndex, errors: Issue[]): SelectionMaterial {
    const { options, selectionId, grader, definition } = start
    const aboutText = options.about?.text
    const persona =
        isObject(grader) && isObject(grader.persona)
            ? (grader.persona as unknown as { basePersonaId: string; lensId: string })
            : null
    const attachments = [
        {
            name: `selection/${selectionId}.json`,
            role: 'the selection definition',
            content: JSON.stringify(definition, null, 2)
        },
        ...(aboutText !== undefined
            ? [
                  {
                      name: `resources/about/${selectionId}-about.md`,
                      role: 'the selection About (Domain-Knowledge)',
                      content: aboutText
                  }
              ]
            : []),
        ...(options.skills ?? []).map((s) => ({
            name: `skills/${s.name}.mjs`,
            role: `selection skill ${s.name} (${s.level})`,
            content: s.text
        })),
        {
            name: 'index.json#members',
            role: 'the member-resolution manifest',
            content: JSON.stringify(index.members, null, 2)
        }
    ]
    // Graded text in the requests: one boundary for the run, the About and skills scanned for text aimed at the grader.
    const boundary = chooseBoundary({ texts: attachments.flatMap((a) => [a.name, a.content]) }).boundary
    const written = [
        ...(aboutText !== undefined
            ? [{ name: `resources/about/${selectionId}-about.md`, text: aboutText, path: '/options/about/text' }]
            : []),
        ...(options.skills ?? []).map((sk, i) => ({
            name: `skills/${sk.name}.mjs`,
            text: sk.text,
            path: `/options/skills/${i}/text`
        }))
    ]
    const injection = scanInjection(null, written, { mainPath: '', filePaths: written.map((w) => w.path) })
    errors.push(...injection.findings)
    return { persona, attachments, boundary, flagged: injection.flagged }
}

/**
 * Everything a selection unit needs: the checked run, the gate's figures, the plans, the prompt material and the
 * skills' cross-references.
 */
interface SelectionUnitContext {
    readonly start: SelectionStart
    readonly facts: SelectionFacts
    readonly planned: ReturnType<typeof selectionPlansOf>
    readonly material: SelectionMaterial
    readonly references: ReturnType<typeof SelectionSkills.crossReferences>
    readonly selectionHash: string
    readonly errors: Issue[]
    /** The judge calls of the run, repair turns among them. */
    readonly tally: JudgeTally
}

/** Stage "units": each unit in plan order, gated (About, Rules A/B, ⚠ B13 predecessors), then asked and judged. */
async function gradeSelectionUnits(
    plans: readonly UnitPlan[],
    ctx: SelectionUnitContext
): Promise<{ units: UnitResult[]; entries: Array<{ plan: UnitPlan; entry: GradingEntry }>; prompts: EmittedPrompt[] }> {
    const units: UnitResult[] = []
    const entries: Array<{ plan: UnitPlan; entry: GradingEntry }> = []
    const prompts: EmittedPrompt[] = []
    const skillLevel = new Map((ctx.start.options.skills ?? []).map((sk: SelectionSkill) => [sk.name, sk.level]))
    const outcome = new Map<string, UnitResult['status']>()
    for (const plan of plans) {
        const before = ctx.errors.length
        const gated = gateSelectionUnit(plan, ctx, outcome, skillLevel)
        const asked = gated === null ? await askSelectionUnit(plan, ctx) : null
        if (asked?.prompt !== undefined) prompts.push(asked.prompt)
        if (asked?.entry !== undefined) entries.push({ plan, entry: asked.entry })
        const unit = gated ?? (asked as { unit: UnitResult }).unit
        units.push(unit)
        withOwnIssues(units, plan.unit, ctx.errors.slice(before))
        if (plan.skillId !== undefined) outcome.set(plan.skillId, unit.status)
    }
    return { units, entries, prompts }
}

/**
 * A unit settled before it is asked: no About, a skill breaking Rule A/B, a blocked or ungraded predecessor; null when
 * it may be asked.
 */
function gateSelectionUnit(
    plan: UnitPlan,
    ctx: SelectionUnitContext,
    outcome: ReadonlyMap<string, UnitResult['status']>,
    skillLevel: ReadonlyMap<string, string>
): UnitResult | null {
    const { errors, references } = ctx
    if (plan.area === 'about-selection' && ctx.planned.aboutText === undefined) {
        errors.push(
            createIssue('GRA-012', '', { unit: plan.unit, reason: 'no selection About was supplied (options.about)' })
        )
        return unitResult(plan, UNIT_STATUS.skipped, { reason: 'no selection About' })
    }
    if (plan.skillId === undefined) return null
    const name = plan.skillId
    // Rules A/B (02-areas §11.3): a skill that breaks one is not graded.
    const broken = references.violations[name]
    if (broken !== undefined && broken.length > 0) {
        const violation = broken.map((i) => `${i.code}: ${i.message}`).join('; ')
        errors.push(...broken.map((i) => ({ ...i, path: `/options${i.path}` })))
        errors.push(createIssue('GRA-011', '', { unit: plan.unit, reason: violation }))
        return unitResult(plan, UNIT_STATUS.blocked, { reason: violation })
    }
    // ⚠ B13: an L2 needs every L1 graded and not blocked; an L3 every L2 that names it.
    const preds = references.predecessors[name] ?? []
    const blockedBy = preds.find(
        (p) => outcome.get(p) === UNIT_STATUS.blocked || outcome.get(p) === UNIT_STATUS.rejected
    )
    const ungraded = preds.find((p) => outcome.get(p) !== UNIT_STATUS.graded)
    if (blockedBy !== undefined) {
        const reason = `predecessor ${blockedBy} (${skillLevel.get(blockedBy) ?? '?'}) is ${outcome.get(blockedBy) === UNIT_STATUS.rejected ? 'rejected' : 'blocked'}`
        errors.push(createIssue('GRA-011', '', { unit: plan.unit, reason }))
        return unitResult(plan, UNIT_STATUS.blocked, { reason })
    }
    if (ungraded !== undefined) {
        const reason = `predecessor ${ungraded} (${skillLevel.get(ungraded) ?? '?'}) has no grade`
        errors.push(createIssue('GRA-012', '', { unit: plan.unit, reason }))
        return unitResult(plan, UNIT_STATUS.gated, { reason })
    }
    return null
}

/**
 * One unit asked: its prompt, the judge's reply or a given answer, the entry it becomes (or the prompt returned,
 * provisional).
 */
async function askSelectionUnit(
    plan: UnitPlan,
    ctx: SelectionUnitContext
): Promise<{ unit: UnitResult; entry?: GradingEntry; prompt?: EmittedPrompt }> {
    const { start, material, errors } = ctx
    const { persona } = material
    const envelope = envelopeFor({
        plan,
        schemaHash: ctx.selectionHash,
        stamp: toFileTimestamp(start.now) as string,
        now: start.now,
        persona,
        harness: harnessOf(start.grader)
    })
    const request = askForOutput({
        plan,
        envelope,
        attachments: material.attachments,
        serverParams: {},
        errors,
        boundary: material.boundary,
        flagged: material.flagged
    })
    if (request === null)
        return {
            unit: unitResult(plan, UNIT_STATUS.error, {
                reason:
                    persona === null
                        ? 'persona-bound area: pass grader.persona to compose its prompt'
                        : 'the area prompt could not be built'
            })
        }
    const options = {
        ...start.judgeCalls,
        ...definedFields({ answers: start.options.answers })
    }
    const reply = await answerUnit(
        plan,
        request,
        options,
        errors,
        [],
        (given) => selectionEntryOf(plan, given, ctx),
        ctx.tally
    )
    if (reply.kind === 'none')
        return {
            unit: unitResult(plan, UNIT_STATUS.provisional, { reason: 'waiting for the non-deterministic answers' }),
            prompt: request
        }
    if (reply.kind === 'error') return { unit: unitResult(plan, UNIT_STATUS.error, { reason: reply.reason }) }
    const converted = reply.converted
    if (converted.entry === null) {
        const reason =
            converted.blocker !== null
                ? `blocker: ${converted.blocker.blocker} (${converted.blocker.reason})`
                : 'the area output was rejected'
        return { unit: unitResult(plan, UNIT_STATUS.blocked, { reason }) }
    }
    const aggregate = computeAggregateGrade({ entry: converted.entry })
    return {
        unit: unitResult(plan, UNIT_STATUS.graded, {
            aggregateGrade: converted.entry.aggregateGrade,
            rawGrade: aggregate.rawGrade,
            normalizedScore: aggregate.normalizedScore,
            trace: aggregate.trace
        }),
        entry: converted.entry
    }
}

/** The area output turned into a group-bound entry with the selection's context. */
function selectionEntryOf(
    plan: UnitPlan,
    reply: UnitReply,
    ctx: SelectionUnitContext
): ReturnType<typeof Areas.toGradingEntry> {
    const { start, facts, material } = ctx
    const { selectionId, now: at } = start
    const { persona } = material
    const { aboutText, aboutHash } = ctx.planned
    const g = start.grader as GraderInput
    return Areas.toGradingEntry({
        output: reply.output,
        deterministic: plan.deterministic.map((a) => ({
            questionId: a.questionId,
            score: a.score,
            ...definedFields({ naReason: a.naReason, evidence: a.evidence }),
            timestamp: a.timestamp
        })),
        context: {
            schemaId: facts.schemaId,
            version: facts.version,
            schemaHash: ctx.selectionHash,
            gradingMode: 'full',
            now: at,
            grader: { name: g.name, version: g.version },
            llmModel: reply.model ?? g.llmModel,
            scriptGrader: { name: DEFAULT_GRADER.name, version: DEFAULT_GRADER.version },
            selectionContext: {
                groupId: g.groupId ?? selectionId,
                personaIds: [(persona as { basePersonaId: string }).basePersonaId]
            },
            selectionId,
            ...(persona !== null ? { persona } : {}),
            ...definedFields({ skillId: plan.skillId }),
            ...(plan.area === 'about-selection' && aboutHash !== undefined ? { aboutHash } : {}),
            selectionScope: { memberNamespaces: facts.memberNamespaces, domainKnowledge: aboutText !== undefined }
        }
    })
}

/**
 * Stage "write": each entry into the island; its unit row names the file, a failed write is GRA-016 with the island's
 * issues.
 */
async function writeSelectionEntries(
    options: GradeSelectionOptions,
    entries: ReadonlyArray<{ plan: UnitPlan; entry: GradingEntry }>,
    units: UnitResult[],
    at: string,
    errors: Issue[]
): Promise<void> {
    const { fs, root } = options
    for (const { plan, entry } of entries) {
        const written = await writeGrading({ fs, root, target: plan.target, entry, now: at })
        const i = units.findIndex((u) => u.unit === plan.unit)
        if (!written.status)
            errors.push(
                createIssue('GRA-016', '', { unit: plan.unit, detail: written.errors.map((e) => e.code).join(', ') }),
                ...written.errors
            )
        else if (i >= 0) units[i] = { ...(units[i] as UnitResult), written: written.path }
    }
}
