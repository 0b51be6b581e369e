/** The judge rubric's version string; it appears as `system` in every judge result. */
export const JUDGE_SYSTEM_VERSION = 'judgeSystem/1.0.0'

/** The seven dimensions of seed 002, in the order of the composite formula. */
export const JUDGE_DIMENSIONS = Object.freeze([
    'correctness',
    'completeness',
    'adherence',
    'actionability',
    'efficiency',
    'safety',
    'consistency'
] as const)

/** One of the seven judge dimensions. */
export type JudgeDimension = (typeof JUDGE_DIMENSIONS)[number]

/** Dimension scores (or weights) keyed by dimension. */
export type JudgeScores = Readonly<Record<JudgeDimension, number>>

/** Default weights of the weighted composite (seed 002); they sum to exactly 1. */
export const JUDGE_DEFAULT_WEIGHTS: JudgeScores = Object.freeze({
    correctness: 0.25,
    completeness: 0.2,
    adherence: 0.15,
    actionability: 0.15,
    efficiency: 0.1,
    safety: 0.1,
    consistency: 0.05
})

/** How far custom weights may sum from 1.0 (exact decimal arithmetic, inclusive). */
export const JUDGE_WEIGHT_TOLERANCE = 0.000001

/** Lowest score of a dimension and of the final score. */
export const JUDGE_SCORE_MIN = 1
/** Highest score of a dimension and of the final score. */
export const JUDGE_SCORE_MAX = 10

/** Deduction per unique red flag (seed 002). */
export const JUDGE_RED_FLAG_DEDUCTION = 0.5
/** Cap on all red-flag deductions of one evaluation (seed 002). */
export const JUDGE_MAX_DEDUCTION = 2
/** Bonus per unique bonus (seed 002). */
export const JUDGE_BONUS = 0.25
/** Cap on all bonuses of one evaluation (seed 002). */
export const JUDGE_MAX_BONUS = 1

/** Historical consistency looks at this many most recent evaluations. */
export const JUDGE_HISTORY_WINDOW = 10
/** A dimension further than this many standard deviations from its historical mean is flagged. */
export const JUDGE_HISTORY_SIGMAS = 2

/** A judge letter grade. */
export type JudgeGrade = 'A+' | 'A' | 'A-' | 'B+' | 'B' | 'B-' | 'C+' | 'C' | 'C-' | 'D+' | 'D' | 'F'

/** One row of the grade table: `min` inclusive, `max` exclusive except for A+ (inclusive at 10.00). */
export interface JudgeGradeBand {
    readonly grade: JudgeGrade
    readonly min: number
    readonly max: number
    readonly label: string
    readonly description: string
}

/** The twelve grades of seed 002, best first. */
export const JUDGE_GRADE_BANDS: readonly JudgeGradeBand[] = Object.freeze(
    [
        {
            grade: 'A+',
            min: 9.5,
            max: 10,
            label: 'Exceptional',
            description: 'Virtually flawless. Exceeds expectations in every dimension.'
        },
        {
            grade: 'A',
            min: 9,
            max: 9.5,
            label: 'Excellent',
            description: 'Outstanding quality with only the most trivial imperfections.'
        },
        {
            grade: 'A-',
            min: 8.5,
            max: 9,
            label: 'Very Good',
            description: 'High quality across all dimensions. Minor issues only.'
        },
        {
            grade: 'B+',
            min: 8,
            max: 8.5,
            label: 'Good',
            description: 'Solid output with a few noticeable but non-critical issues.'
        },
        {
            grade: 'B',
            min: 7.5,
            max: 8,
            label: 'Above Average',
            description: 'Competent output that meets expectations with room for improvement.'
        },
        {
            grade: 'B-',
            min: 7,
            max: 7.5,
            label: 'Satisfactory',
            description: 'Meets basic requirements. Some dimensions need improvement.'
        },
        {
            grade: 'C+',
            min: 6.5,
            max: 7,
            label: 'Adequate',
            description: 'Acceptable but clearly below professional standards.'
        },
        {
            grade: 'C',
            min: 6,
            max: 6.5,
            label: 'Mediocre',
            description: 'Barely meets minimum requirements. Multiple areas need work.'
        },
        {
            grade: 'C-',
            min: 5.5,
            max: 6,
            label: 'Below Average',
            description: 'Falls short of expectations in several dimensions.'
        },
        {
            grade: 'D+',
            min: 5,
            max: 5.5,
            label: 'Poor',
            description: 'Significant deficiencies. Output requires major rework.'
        },
        {
            grade: 'D',
            min: 4,
            max: 5,
            label: 'Very Poor',
            description: 'Fails to meet most requirements. Fundamental issues present.'
        },
        {
            grade: 'F',
            min: 1,
            max: 4,
            label: 'Failing',
            description: 'Output is unusable or severely flawed. Does not fulfill the task.'
        }
    ].map((band) => Object.freeze(band as JudgeGradeBand))
)

/** The tie-breaking rules of seed 002 after the final score, in order. */
export const JUDGE_TIE_BREAKERS = Object.freeze([
    'correctness',
    'safety',
    'completeness',
    'actionability',
    'adherence',
    'efficiency',
    'consistency',
    'fewerRedFlags',
    'moreBonuses'
] as const)

/** The rule that decided a comparison: the final score, one of the tie-breakers, or none. */
export type JudgeDecidingRule = 'finalScore' | (typeof JUDGE_TIE_BREAKERS)[number]
