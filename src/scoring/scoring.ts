import { describeValue, typeOfValue } from '../errors/issue.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { SCORE_ENUMS, type Score } from '../model/constants.js'
import { guardStatics } from '../errors/guard.js'
import * as v from 'valibot'
import { nullAsMissing, objectArg, parseArgs, says } from '../validation/args.js'

/** The codes of the argument checks: an entry's (GRD-001 missing, GRD-002 wrong type). */
const ARGS = { missing: 'GRD-001', mismatch: 'GRD-002', create: createEntryIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const
const GRADINGS = v.looseObject({ gradings: nullAsMissing(v.array(v.unknown(), says('array'))) })

/**
 * Numeric value of each score in the weighted mean for `gradingSystem/1.0.0` (chapter 07).
 * `null` = excluded from numerator and denominator. Kept as a versioned table (01-model ⚠ A3):
 * a later grading system may change it, never an inline literal.
 */
export const SCORE_MAPPING_V1: Readonly<Record<'pass' | 'fail' | 'stale' | 'n/a', number | null>> = Object.freeze({
    pass: 5.0,
    fail: 1.0,
    stale: null,
    'n/a': null
})

export const SCORE_MIN = 1.0
export const SCORE_MAX = 5.0

/** Why an answer did not enter the mean. */
export type ExclusionReason = 'n/a' | 'stale'

/** One answer as the mean sees it. */
export interface MeanInput {
    readonly score: unknown
    readonly weight?: unknown
}

/** Result of {@link Scoring.computeWeightedMean}. */
export interface WeightedMeanResult {
    /** Σ(w·v)/Σw over included answers; `null` when nothing is included or the weights sum to 0. */
    readonly mean: number | null
    readonly weightSum: number
    /** Number of answers that entered the mean. */
    readonly included: number
    readonly excluded: { readonly na: number; readonly stale: number }
    readonly errors: Issue[]
}

function scoreIssues(score: unknown, at: string | (() => string)): Issue[] {
    // Fast path for valid scores; the pointer is only built when there is something to report.
    if (
        typeof score === 'number'
            ? Number.isFinite(score) && score >= SCORE_MIN && score <= SCORE_MAX
            : typeof score === 'string' && (SCORE_ENUMS as readonly string[]).includes(score)
    ) {
        return []
    }
    const path = typeof at === 'string' ? at : at()
    if (score === undefined || score === null) {
        return [createEntryIssue('GRD-001', path, { field: 'score' })]
    }
    if (typeof score === 'number') {
        if (!Number.isFinite(score) || score < SCORE_MIN || score > SCORE_MAX) {
            return [createEntryIssue('SCO-001', path, { value: describeValue(score) })]
        }
        return []
    }
    if (typeof score === 'string') {
        if ((SCORE_ENUMS as readonly string[]).includes(score)) {
            return []
        }
        if (score.trim() !== '' && Number.isFinite(Number(score))) {
            return [createEntryIssue('SCO-005', path, { value: score })]
        }
        return [createEntryIssue('SCO-003', path, { value: score })]
    }
    return [
        createEntryIssue('GRD-002', path, { field: 'score', expected: 'number or string', actual: typeOfValue(score) })
    ]
}

function weightIssues(weight: unknown, at: () => string): Issue[] {
    if (typeof weight === 'number' && Number.isFinite(weight) && weight >= 0) {
        return []
    }
    const path = at()
    if (weight === undefined) {
        // No silent default (01-model ⚠ A8): a missing weight is an error, not 1.0.
        return [createEntryIssue('GRD-001', path, { field: 'weight' })]
    }
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
        return [createEntryIssue('SCO-004', path, { value: describeValue(weight) })]
    }
    return []
}

/**
 * Scores and their numeric mapping (Scoring System, chapter 07). Scores are evidence; grades are
 * computed from them by {@link Grading}.
 */
class ScoringUnguarded {
    private constructor() {}

    /**
     * Checks one score: a number in [1.0, 5.0] or one of `pass`, `fail`, `stale`, `n/a`.
     * @param input - `{ score }`
     * @returns `{ valid, errors }`; GRD-001 (missing), SCO-001 (out of range or not finite),
     *   SCO-003 (unknown string), SCO-005 (numeric string such as `"3.0"`), GRD-002 (other types).
     * @example Scoring.validateScore({ score: 4.5 }).valid // true
     */
    static validateScore(input: { score?: unknown }): { valid: boolean; errors: Issue[] } {
        const errors = scoreIssues(input?.score, '/score')
        return { valid: errors.length === 0, errors }
    }

    /**
     * Maps a score to its value in the mean: `pass` → 5, `fail` → 1, a number as is; `n/a` and
     * `stale` are excluded (never coerced to a number).
     * @param input - `{ score }`
     * @returns `{ value, excluded, errors }`; `value` is `null` when excluded or invalid.
     * @example Scoring.toNumeric({ score: 'pass' }).value // 5
     */
    static toNumeric(input: { score?: unknown }): {
        value: number | null
        excluded: ExclusionReason | null
        errors: Issue[]
    } {
        const score = input?.score
        const errors = scoreIssues(score, '/score')
        if (errors.length > 0) {
            return { value: null, excluded: null, errors }
        }
        if (typeof score === 'number') {
            // -0 is not a valid score value but is below range anyway; numbers pass through unchanged.
            return { value: score, excluded: null, errors }
        }
        const key = score as keyof typeof SCORE_MAPPING_V1
        const value = SCORE_MAPPING_V1[key]
        return value === null
            ? { value: null, excluded: key as ExclusionReason, errors }
            : { value, excluded: null, errors }
    }

    /**
     * Weighted mean over the included answers: Σ(weight·value)/Σ(weight). `n/a` and `stale` are
     * counted and excluded; every answer is validated first, and any invalid score or weight
     * makes the mean `null` (a broken answer is never silently dropped).
     * @param input - `{ gradings: Array<{ score, weight }> }`
     * @returns `{ mean, weightSum, included, excluded: { na, stale }, errors }`; GRD-001/GRD-002
     *   for a missing or non-array list, plus the codes of {@link Scoring.validateScore} and SCO-004.
     * @example
     * Scoring.computeWeightedMean({
     *     gradings: [
     *         { score: 'pass', weight: 1 },
     *         { score: 4, weight: 1 }
     *     ]
     * }).mean // 4.5
     */
    static computeWeightedMean(input: { gradings?: unknown }): WeightedMeanResult {
        const empty = (errors: Issue[]): WeightedMeanResult => ({
            mean: null,
            weightSum: 0,
            included: 0,
            excluded: { na: 0, stale: 0 },
            errors
        })
        const list = parseArgs(GRADINGS, { gradings: input?.gradings }, ARGS, STYLE)
        if (list.value === null) return empty(list.errors)
        const gradings = list.value.gradings
        const errors: Issue[] = []
        // Item by item: a wrong item and the score and weight rules of the others keep the list order.
        gradings.forEach((item: unknown, i) => {
            const checked = parseArgs(objectArg(), item, ARGS, { ...STYLE, at: ['gradings', i] })
            if (checked.value === null) {
                errors.push(...checked.errors)
                return
            }
            const answer = checked.value as unknown as MeanInput
            errors.push(
                ...scoreIssues(answer.score, () => pointer('gradings', i, 'score')),
                ...weightIssues(answer.weight, () => pointer('gradings', i, 'weight'))
            )
        })
        if (errors.length > 0) {
            return empty(errors)
        }
        const { mean, weightSum, included, excluded } = foldWeightedMean(gradings as readonly MeanInput[])
        return { mean, weightSum, included, excluded, errors }
    }
}

/**
 * The public Scoring: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Scoring = /* @__PURE__ */ guardStatics(ScoringUnguarded, 'Scoring')

/** The fold over answers already known to be valid; shared by the mean and the aggregation. */
export interface MeanFold {
    readonly numerator: number
    readonly weightSum: number
    readonly mean: number | null
    readonly included: number
    readonly excluded: { readonly na: number; readonly stale: number }
}

/** Σ(w·v) and Σw over included answers; `n/a` and `stale` are counted, not included. */
export function foldWeightedMean(answers: readonly MeanInput[]): MeanFold {
    let numerator = 0
    let weightSum = 0
    let included = 0
    let na = 0
    let stale = 0
    for (const answer of answers) {
        const score = answer.score as Score
        if (score === 'n/a') {
            na += 1
        } else if (score === 'stale') {
            stale += 1
        } else {
            const weight = answer.weight as number
            numerator += weight * (typeof score === 'number' ? score : (SCORE_MAPPING_V1[score] as number))
            weightSum += weight
            included += 1
        }
    }
    return {
        numerator,
        weightSum,
        mean: included > 0 && weightSum > 0 ? numerator / weightSum : null,
        included,
        excluded: { na, stale }
    }
}
