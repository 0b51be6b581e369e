import { isObject } from '../model/object.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import * as v from 'valibot'
import { nullAsMissing, objectArg, parseArgs, says, type ArgCodes } from '../validation/args.js'
import { lookup } from '../json/own.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import {
    GRADE_RANK,
    GRADING_TIERS,
    SELECTION_AREAS,
    TIER_MAX_GRADE,
    type AggregateGrade,
    type GradingTier,
    type LetterGrade,
    type MaxAttainableGrade,
    type Score
} from '../model/constants.js'
import { foldWeightedMean, SCORE_MAPPING_V1, Scoring, type MeanInput } from '../scoring/scoring.js'
import { bandOf } from '../model/grades.js'
import { AGING_DEFAULTS, ageInDays, isExpired, TIME_DEPENDENT_QUESTIONS, type AgingDefaults } from './aging.js'
import { definedFields } from '../model/fields.js'

// The bands live with the grade order and the stable threshold.
export { GRADE_BANDS_V1, bandOf } from '../model/grades.js'

/** Selection size thresholds (chapters 05/10/24): below SOFT no selection grade; below HARD capped at B. */
export const SELECTION_MEMBER_THRESHOLDS = Object.freeze({ SOFT: 5, HARD: 7 })

/**
 * Tie order when two answers to the same question share a timestamp (⚠ A9): the higher kind wins
 * (a human overrides an LLM, an LLM a script), then the greater `name`, then `version`, then the
 * later position in `gradings[]`.
 */
export const GRADER_KIND_PRECEDENCE: Readonly<Record<string, number>> = Object.freeze({ human: 3, llm: 2, script: 1 })

/** One step that shaped a grade, in the order applied. Plain JSON. */
export type GradeTraceStep =
    | { readonly step: 'mode'; readonly mode: 'partial'; readonly carried: AggregateGrade | null }
    | { readonly step: 'veto'; readonly triggeredBy: string }
    | {
          readonly step: 'answer'
          readonly index: number
          readonly questionId: string
          readonly score: Score
          readonly weight: number
          readonly outcome: 'included' | 'excluded' | 'superseded'
          readonly value?: number
          readonly reason?: string
      }
    | {
          readonly step: 'aging'
          readonly index: number
          readonly questionId: string
          readonly ageDays: number
          readonly windowDays: number
          readonly window: string
      }
    | {
          readonly step: 'mean'
          readonly numerator: number
          readonly weightSum: number
          readonly mean: number | null
          readonly included: number
          readonly excluded: { readonly na: number; readonly stale: number }
      }
    | { readonly step: 'no-grade'; readonly reason: NoGradeReason }
    | { readonly step: 'band'; readonly mean: number; readonly grade: LetterGrade; readonly min: number }
    | {
          readonly step: 'trim'
          readonly tier: GradingTier
          readonly max: MaxAttainableGrade
          readonly from: LetterGrade
          readonly to: LetterGrade
      }
    | {
          readonly step: 'selection-size'
          readonly memberCount: number
          readonly from: LetterGrade | null
          readonly to: LetterGrade | null
      }
    | {
          readonly step: 'domain-knowledge'
          readonly present: false
          readonly from: LetterGrade
          readonly to: LetterGrade
          readonly reason: string
      }
    | { readonly step: 'warning'; readonly code: string }

export type NoGradeReason = 'no-answers' | 'all-excluded' | 'zero-weight' | 'too-few-members'

/** Result of the aggregation. */
export interface AggregateResult {
    readonly aggregateGrade: AggregateGrade | null
    /** Band before the tier trim; `null` when vetoed, partial or without a grade. */
    readonly rawGrade: LetterGrade | null
    /** The unrounded weighted mean; `null` when there is none. */
    readonly normalizedScore: number | null
    readonly maxAttainableGrade: MaxAttainableGrade | null
    readonly noGradeReason: NoGradeReason | null
    readonly trace: GradeTraceStep[]
    readonly errors: Issue[]
}

/** Options of the aggregation. */
export interface AggregateOptions {
    /** When given, time-dependent answers older than their window count as `stale` (⚠ A22: a derived view). */
    readonly now?: string
    readonly agingDefaults?: AgingDefaults
    /** Number of member namespaces, for selection-side entries (size cap). */
    readonly memberCount?: number
    /** Whether the selection has its About (Domain-Knowledge content); `false` caps a selection-side entry at B. */
    readonly domainKnowledge?: boolean
}

/** Question whose evidence records the selection's distinct member namespaces (02-areas §9.4 thresholds). */
export const MEMBER_THRESHOLD_QUESTION_ID = 'Q-selection-aggregate-01'

/** Reason recorded in the trace when a selection-side grade is capped for a missing About (02-areas §8). */
export const NO_DOMAIN_KNOWLEDGE_REASON = 'no Domain-Knowledge content (selection About): no A (02-areas §8)'

/**
 * The selection scope a selection-side entry records in an answer's evidence object:
 * `memberNamespaces` (distinct member namespaces) and `domainKnowledge` (`false` when the selection
 * has no About). A `selection-aggregate` entry reads its thresholds answer first; every selection
 * area then takes the first answer carrying the field, so the caps are part of the entry and of
 * its recomputation (01-model §4 step 8, 02-areas §8).
 */
function selectionScopeFromEvidence(e: Record<string, unknown>): {
    memberNamespaces?: number
    domainKnowledge?: boolean
} {
    if (
        typeof e.area !== 'string' ||
        !(SELECTION_AREAS as readonly string[]).includes(e.area) ||
        !Array.isArray(e.gradings)
    )
        return {}
    const evidences = (e.gradings as unknown[])
        .map((g) => (g !== null && typeof g === 'object' ? (g as { questionId?: unknown; evidence?: unknown }) : null))
        .filter((g): g is { questionId?: unknown; evidence?: unknown } => g !== null)
        .sort(
            (a, b) =>
                Number(b.questionId === MEMBER_THRESHOLD_QUESTION_ID) -
                Number(a.questionId === MEMBER_THRESHOLD_QUESTION_ID)
        )
        .map((g) => g.evidence)
        .filter(isObject)
    const count = evidences
        .map((ev) => ev.memberNamespaces)
        .find((n) => typeof n === 'number' && Number.isInteger(n) && n >= 0) as number | undefined
    const knowledge = evidences.map((ev) => ev.domainKnowledge).find((k) => typeof k === 'boolean') as
        | boolean
        | undefined
    return {
        ...definedFields({ memberNamespaces: count, domainKnowledge: knowledge })
    }
}

/** The lower of two letter grades. */
export function capGrade(grade: LetterGrade, max: LetterGrade): LetterGrade {
    return GRADE_RANK[grade] > GRADE_RANK[max] ? max : grade
}

interface AnswerView {
    readonly index: number
    readonly questionId: string
    readonly score: Score
    readonly weight: number
    readonly determinism: unknown
    readonly timestamp: unknown
    readonly kind: unknown
    readonly name: unknown
    readonly version: unknown
}

// Locale-free, so the tie rule gives the same answer on every machine.
function compareCodeUnits(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0
}

function precedes(a: AnswerView, b: AnswerView): boolean {
    // true when `a` is older/weaker than `b`, i.e. `b` supersedes `a`.
    const ta = typeof a.timestamp === 'string' ? Date.parse(a.timestamp) : Number.NaN
    const tb = typeof b.timestamp === 'string' ? Date.parse(b.timestamp) : Number.NaN
    if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) {
        return ta < tb
    }
    const ka = lookup(GRADER_KIND_PRECEDENCE, a.kind) ?? 0
    const kb = lookup(GRADER_KIND_PRECEDENCE, b.kind) ?? 0
    if (ka !== kb) {
        return ka < kb
    }
    const byName = compareCodeUnits(String(a.name), String(b.name))
    if (byName !== 0) {
        return byName < 0
    }
    const byVersion = compareCodeUnits(String(a.version), String(b.version))
    if (byVersion !== 0) {
        return byVersion < 0
    }
    return a.index < b.index
}

/** An aggregate that could not be computed: no grade, only why (and the tier's ceiling when the tier is known). */
export function noAggregate(errors: Issue[], tier: GradingTier | null = null): AggregateResult {
    return {
        aggregateGrade: null,
        rawGrade: null,
        normalizedScore: null,
        maxAttainableGrade: tier === null ? null : TIER_MAX_GRADE[tier],
        noGradeReason: null,
        trace: [],
        errors
    }
}

/** Where the stages record what they did: the trace (only when traced) and the issues. */
interface GradeLog {
    readonly trace: GradeTraceStep[]
    readonly errors: Issue[]
    readonly traced: boolean
}

/** An entry with a known tier and an answer list. */
interface CheckedEntry {
    readonly e: Record<string, unknown>
    readonly tier: GradingTier
    readonly max: MaxAttainableGrade
    readonly gradings: unknown[]
}

// GRD-001 absent, GRD-002 a wrong type; an unknown gradingTier (GRD-003) is the catalogue's rule, checked between.
const ENTRY_ARGS: ArgCodes<'GRD-001' | 'GRD-002'> = {
    missing: 'GRD-001',
    mismatch: 'GRD-002',
    create: createEntryIssue
}
/** The entry as a whole: `null` is an absent entry, as the aggregate always read it. */
const ENTRY = nullAsMissing(objectArg({ expected: 'object', actual: 'type', field: 'entry' }))
const GRADINGS = v.looseObject({ gradings: v.array(v.unknown(), says({ expected: 'array', actual: 'type' })) })

/** The entry, its tier and its answer list; the first problem ends the aggregation. */
function checkEntry(entry: unknown): { checked: CheckedEntry } | { failed: AggregateResult } {
    const given = parseArgs(ENTRY, entry, ENTRY_ARGS)
    if (given.value === null) return { failed: noAggregate(given.errors) }
    const e = given.value
    const tier = e.gradingTier
    if (typeof tier !== 'string' || !(GRADING_TIERS as readonly string[]).includes(tier)) {
        return {
            failed: noAggregate([
                tier === undefined
                    ? createEntryIssue('GRD-001', '/gradingTier', { field: 'gradingTier' })
                    : createEntryIssue('GRD-003', '/gradingTier', { value: String(tier) })
            ])
        }
    }
    const gradingTier = tier as GradingTier
    const answers = parseArgs(GRADINGS, e, ENTRY_ARGS, { field: 'key' })
    if (answers.value === null) return { failed: noAggregate(answers.errors, gradingTier) }
    return { checked: { e, tier: gradingTier, max: TIER_MAX_GRADE[gradingTier], gradings: answers.value.gradings } }
}

/** What is decided before any answer counts: a partial entry, a veto, or no answers at all. */
function decidedBeforeCounting(c: CheckedEntry, log: GradeLog): AggregateResult | null {
    const { trace, errors, traced } = log
    const { e, max } = c
    if (e.gradingMode === 'partial') {
        // A partial entry never changes the aggregate: it carries the last full value (⚠ A15).
        const carried = (typeof e.aggregateGrade === 'string' ? e.aggregateGrade : null) as AggregateGrade | null
        if (traced) trace.push({ step: 'mode', mode: 'partial', carried })
        return {
            aggregateGrade: carried,
            rawGrade: null,
            normalizedScore: null,
            maxAttainableGrade: max,
            noGradeReason: null,
            trace,
            errors
        }
    }
    if (e.categoricalVeto !== null && e.categoricalVeto !== undefined) {
        const triggeredBy = String((e.categoricalVeto as { triggeredBy?: unknown }).triggeredBy ?? 'unknown')
        if (traced) trace.push({ step: 'veto', triggeredBy })
        errors.push(createEntryIssue('VET-INFO-001', '/categoricalVeto', { trigger: triggeredBy }))
        return {
            aggregateGrade: 'REJECTED',
            rawGrade: null,
            normalizedScore: null,
            maxAttainableGrade: max,
            noGradeReason: null,
            trace,
            errors
        }
    }
    if (c.gradings.length === 0) {
        if (traced) trace.push({ step: 'no-grade', reason: 'no-answers' })
        return {
            aggregateGrade: null,
            rawGrade: null,
            normalizedScore: null,
            maxAttainableGrade: max,
            noGradeReason: 'no-answers',
            trace,
            errors: [createEntryIssue('GRD-023', '/gradings')]
        }
    }
    return null
}

function answerViews(gradings: ReadonlyArray<Record<string, unknown>>): AnswerView[] {
    return gradings.map((g, index) => {
        const grader = (g.graderIdentity ?? {}) as Record<string, unknown>
        return {
            index,
            questionId: typeof g.questionId === 'string' ? g.questionId : `#${index}`,
            score: g.score as Score,
            weight: g.weight as number,
            determinism: g.determinism,
            timestamp: g.timestamp,
            kind: grader.kind,
            name: grader.name,
            version: grader.version
        }
    })
}

/** Newest valid answer per questionId (⚠ A9). */
function newestPerQuestion(views: readonly AnswerView[]): Map<string, AnswerView> {
    const winner = new Map<string, AnswerView>()
    for (const view of views) {
        const current = winner.get(view.questionId)
        if (current === undefined || precedes(current, view)) {
            winner.set(view.questionId, view)
        }
    }
    return winner
}

/** An answer's score after aging: a time-dependent answer older than its window counts as `stale` (⚠ A22). */
function agedScore(view: AnswerView, now: string | undefined, aging: AgingDefaults, log: GradeLog): Score {
    const { trace, errors, traced } = log
    const windowKey = lookup(TIME_DEPENDENT_QUESTIONS, view.questionId)
    if (
        now === undefined ||
        windowKey === undefined ||
        view.score === 'n/a' ||
        view.score === 'stale' ||
        typeof view.timestamp !== 'string'
    )
        return view.score
    const ageDays = ageInDays(view.timestamp, now)
    const windowDays = aging[windowKey]
    if (ageDays === null || !isExpired(ageDays, windowDays)) return view.score
    if (traced)
        trace.push({
            step: 'aging',
            index: view.index,
            questionId: view.questionId,
            ageDays,
            windowDays,
            window: windowKey
        })
    errors.push(
        createEntryIssue('SCO-WARN-001', pointer('gradings', view.index, 'score'), {
            days: windowDays,
            questionId: view.questionId
        })
    )
    return 'stale'
}

/** Every answer in order: superseded ones are dropped, the rest aged and counted (n/a and stale as excluded). */
function countAnswers(
    views: readonly AnswerView[],
    options: AggregateOptions,
    log: GradeLog
): Array<MeanInput & { view: AnswerView }> {
    const { trace, errors, traced } = log
    const winner = newestPerQuestion(views)
    const aging = options.agingDefaults ?? AGING_DEFAULTS
    const counted: Array<MeanInput & { view: AnswerView }> = []
    for (const view of views) {
        const base = { index: view.index, questionId: view.questionId, score: view.score, weight: view.weight }
        const best = winner.get(view.questionId)
        if (best !== view) {
            if (traced)
                trace.push({
                    ...base,
                    step: 'answer',
                    outcome: 'superseded',
                    reason: `answer #${best?.index ?? -1} is newer or ranks higher`
                })
            errors.push(
                createEntryIssue('GRD-027', pointer('gradings', view.index), {
                    questionId: view.questionId,
                    detail: `superseded by /gradings/${best?.index ?? -1}`
                })
            )
            continue
        }
        const score = agedScore(view, options.now, aging, log)
        if (score === 'n/a' || score === 'stale') {
            if (traced) trace.push({ ...base, score, step: 'answer', outcome: 'excluded', reason: score })
            errors.push(
                createEntryIssue('SCO-INFO-001', pointer('gradings', view.index), {
                    questionId: view.questionId,
                    reason: score
                })
            )
        } else {
            const value = typeof score === 'number' ? score : (SCORE_MAPPING_V1[score] as number)
            if (traced) trace.push({ ...base, step: 'answer', outcome: 'included', value })
        }
        counted.push({ score, weight: view.weight, view })
    }
    return counted
}

/**
 * The caps of a selection-side entry (01-model §4 step 8, 02-areas §8): below the soft member
 * threshold there is no grade; below the hard one, or without Domain-Knowledge content, no A.
 */
function applySelectionCaps(
    e: Record<string, unknown>,
    options: AggregateOptions,
    trimmed: LetterGrade,
    log: GradeLog
): { grade: LetterGrade; tooFewMembers: boolean } {
    const { trace, errors, traced } = log
    let grade = trimmed
    const scope = selectionScopeFromEvidence(e)
    const selectionSide = typeof e.area === 'string' && (SELECTION_AREAS as readonly string[]).includes(e.area)
    const memberCount = options.memberCount ?? scope.memberNamespaces
    if (memberCount !== undefined && selectionSide) {
        if (memberCount < SELECTION_MEMBER_THRESHOLDS.SOFT) {
            if (traced) trace.push({ step: 'selection-size', memberCount, from: grade, to: null })
            errors.push(createEntryIssue('GRD-051', '', { count: memberCount, min: SELECTION_MEMBER_THRESHOLDS.SOFT }))
            return { grade, tooFewMembers: true }
        }
        if (memberCount < SELECTION_MEMBER_THRESHOLDS.HARD && GRADE_RANK[grade] > GRADE_RANK.B) {
            if (traced) trace.push({ step: 'selection-size', memberCount, from: grade, to: 'B' })
            errors.push(createEntryIssue('GRD-049', '', { count: memberCount }))
            grade = 'B'
        }
    }
    // 02-areas §8: without Domain-Knowledge content no group-bound entry may claim A.
    const domainKnowledge = options.domainKnowledge ?? scope.domainKnowledge
    if (domainKnowledge === false && selectionSide && GRADE_RANK[grade] > GRADE_RANK.B) {
        if (traced)
            trace.push({
                step: 'domain-knowledge',
                present: false,
                from: grade,
                to: 'B',
                reason: NO_DOMAIN_KNOWLEDGE_REASON
            })
        errors.push(createEntryIssue('GRD-052', ''))
        grade = 'B'
    }
    return { grade, tooFewMembers: false }
}

/**
 * Aggregates the answers of one entry into a grade, gradingSystem/1.0.0 (chapter 07/08):
 * partial-mode gate → veto short-circuit → newest answer per question → aging (optional) →
 * weighted mean over included answers → band → tier trim → selection size cap → warnings.
 * `traced = false` leaves `trace` empty: entry validation needs only the grade and the issues, and
 * building a step per answer was most of its cost.
 */
export function computeAggregate(entry: unknown, options: AggregateOptions = {}, traced = true): AggregateResult {
    const checkedEntry = checkEntry(entry)
    if ('failed' in checkedEntry) return checkedEntry.failed
    const c = checkedEntry.checked
    const { max } = c
    const trace: GradeTraceStep[] = []
    const errors: Issue[] = []
    const log: GradeLog = { trace, errors, traced }
    const decided = decidedBeforeCounting(c, log)
    if (decided !== null) return decided
    // Every answer must be sound before any is counted: a broken answer is an error, never dropped.
    const checked = Scoring.computeWeightedMean({ gradings: c.gradings })
    if (checked.errors.length > 0) {
        return noAggregate(checked.errors, c.tier)
    }
    const counted = countAnswers(answerViews(c.gradings as Array<Record<string, unknown>>), options, log)

    const mean = foldWeightedMean(counted)
    if (traced)
        trace.push({
            step: 'mean',
            numerator: mean.numerator,
            weightSum: mean.weightSum,
            mean: mean.mean,
            included: mean.included,
            excluded: mean.excluded
        })
    if (mean.mean === null) {
        const reason: NoGradeReason = mean.included === 0 ? 'all-excluded' : 'zero-weight'
        if (traced) trace.push({ step: 'no-grade', reason })
        errors.push(
            reason === 'all-excluded'
                ? createEntryIssue('GRD-024', '/gradings', { na: mean.excluded.na, stale: mean.excluded.stale })
                : createEntryIssue('GRD-025', '/gradings')
        )
        return {
            aggregateGrade: null,
            rawGrade: null,
            normalizedScore: null,
            maxAttainableGrade: max,
            noGradeReason: reason,
            trace,
            errors
        }
    }

    const band = bandOf(mean.mean)
    if (traced) trace.push({ step: 'band', mean: mean.mean, grade: band.grade, min: band.min })
    const trimmed = capGrade(band.grade, max)
    if (trimmed !== band.grade && traced) trace.push({ step: 'trim', tier: c.tier, max, from: band.grade, to: trimmed })
    const { grade, tooFewMembers } = applySelectionCaps(c.e, options, trimmed, log)
    if (tooFewMembers) {
        return {
            aggregateGrade: null,
            rawGrade: band.grade,
            normalizedScore: mean.mean,
            maxAttainableGrade: max,
            noGradeReason: 'too-few-members',
            trace,
            errors
        }
    }

    // Minimum-LLM rule (SHOULD): B or better without any included non-deterministic answer.
    if (
        GRADE_RANK[grade] >= GRADE_RANK.B &&
        !counted.some((a) => a.view.determinism === 'non-deterministic' && a.score !== 'n/a' && a.score !== 'stale')
    ) {
        if (traced) trace.push({ step: 'warning', code: 'GRD-026' })
        errors.push(createEntryIssue('GRD-026', '/gradings', { grade }))
    }
    return {
        aggregateGrade: grade,
        rawGrade: band.grade,
        normalizedScore: mean.mean,
        maxAttainableGrade: max,
        noGradeReason: null,
        trace,
        errors
    }
}
