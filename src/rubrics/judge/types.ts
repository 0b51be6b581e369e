import type { Issue } from '../../errors/types.js'
import type { JudgeDecidingRule, JudgeDimension, JudgeGrade, JudgeScores } from './constants.js'

/** A red flag raised by a domain-specific rubric; the explanation is required by seed 002 "Reporting". */
export interface JudgeRedFlagInput {
    /** Stable id; the same id twice is counted once. 1–200 characters. */
    readonly id: string
    /** A brief explanation for the report. 1–2000 characters. */
    readonly explanation: string
}

/** A domain-specific bonus; the same id twice is counted once. */
export interface JudgeBonusInput {
    readonly id: string
    readonly explanation?: string
}

/** The input of `JudgeRubric.evaluate`. */
export interface JudgeEvaluateInput {
    /** All seven dimensions, each on 1–10 (decimals allowed). */
    readonly scores: JudgeScores
    /** Custom weights: all seven dimensions, each in 0–1, summing to 1.0 within 0.000001. */
    readonly weights?: JudgeScores
    readonly redFlags?: readonly JudgeRedFlagInput[]
    readonly bonuses?: readonly JudgeBonusInput[]
    /** Earlier evaluations' dimension scores of the same skill, oldest first; the last 10 are used. */
    readonly history?: readonly JudgeScores[]
}

/** A dimension more than two standard deviations from its historical mean. */
export interface JudgeHistoricalFlag {
    readonly dimension: JudgeDimension
    readonly current: number
    /** Mean of the window, rounded to 4 decimals (the decision itself is exact). */
    readonly mean: number
    /** Sample standard deviation (n − 1) of the window, rounded to 4 decimals. */
    readonly stdDev: number
    /** `current − mean`, rounded to 4 decimals. */
    readonly deviation: number
    /** `deviation / stdDev` rounded to 4 decimals; `null` when the window has no spread (σ = 0). */
    readonly zScore: number | null
    /** Number of historical evaluations in the window. */
    readonly samples: number
}

/** One red flag line of the report. */
export interface JudgeReportRedFlag {
    readonly id: string
    readonly explanation: string
    /** 0.5, or 0 once the 2.0 cap is reached. */
    readonly deduction: number
    readonly counted: boolean
}

/** One bonus line of the report. */
export interface JudgeReportBonus {
    readonly id: string
    readonly explanation: string | null
    /** 0.25, or 0 once the 1.0 cap is reached. */
    readonly bonus: number
    readonly counted: boolean
}

/** The evaluation report of seed 002 "Reporting", structured and as text lines. */
export interface JudgeReport {
    readonly originalComposite: number
    readonly redFlags: readonly JudgeReportRedFlag[]
    readonly totalDeduction: number
    readonly scoreAfterDeductions: number
    readonly bonuses: readonly JudgeReportBonus[]
    readonly totalBonus: number
    readonly finalScore: number
    readonly grade: JudgeGrade
    readonly label: string
    /** The same content as human-readable lines. */
    readonly lines: readonly string[]
}

/** Per-dimension statistics of the historical check. */
export interface JudgeHistoryDimension {
    readonly dimension: JudgeDimension
    readonly current: number
    readonly mean: number
    readonly stdDev: number
    readonly flagged: boolean
}

/** One step of the judge trace, in the order applied. */
export type JudgeTraceStep =
    | {
          readonly step: 'weights'
          readonly source: 'default' | 'custom'
          readonly weights: JudgeScores
          readonly sum: number
      }
    | {
          readonly step: 'composite'
          readonly terms: ReadonlyArray<{
              readonly dimension: JudgeDimension
              readonly score: number
              readonly weight: number
              readonly product: number
          }>
          readonly exact: number
          readonly rounded: number
      }
    | {
          readonly step: 'deductions'
          readonly redFlags: number
          readonly perFlag: number
          readonly uncapped: number
          readonly cap: number
          readonly applied: number
          readonly before: number
          readonly after: number
          readonly flooredAtMinimum: boolean
      }
    | {
          readonly step: 'bonuses'
          readonly bonuses: number
          readonly perBonus: number
          readonly uncapped: number
          readonly cap: number
          readonly applied: number
          readonly before: number
          readonly after: number
          readonly cappedAtMaximum: boolean
      }
    | {
          readonly step: 'clamp'
          readonly min: number
          readonly max: number
          readonly before: number
          readonly after: number
      }
    | {
          readonly step: 'grade'
          readonly score: number
          readonly grade: JudgeGrade
          readonly label: string
          readonly min: number
          readonly max: number
          readonly maxInclusive: boolean
      }
    | {
          readonly step: 'history'
          readonly status: 'checked' | 'insufficient-history'
          readonly window: number
          readonly samples: number
          readonly sigma: 'sample'
          readonly dimensions: readonly JudgeHistoryDimension[]
      }

/** The result of `JudgeRubric.evaluate`; every value is `null` (and `report` too) when `errors` holds an error. */
export interface JudgeEvaluation {
    readonly system: string
    /** Weighted composite, rounded to 2 decimals (before deductions and bonuses). */
    readonly compositeScore: number | null
    /** Total red-flag deduction after the 2.0 cap (before the 1.0 floor). */
    readonly deductions: number | null
    /** Total bonus after the 1.0 cap (before the 10.0 ceiling). */
    readonly bonuses: number | null
    readonly finalScore: number | null
    readonly grade: JudgeGrade | null
    readonly label: string | null
    /** Supplementary only: never changes the score. */
    readonly historicalFlags: readonly JudgeHistoricalFlag[]
    readonly report: JudgeReport | null
    readonly trace: readonly JudgeTraceStep[]
    /** Errors and warnings (duplicate red flags or bonuses are warnings). */
    readonly errors: readonly Issue[]
}

/** The result of `JudgeRubric.compare`. */
export interface JudgeComparison {
    readonly system: string
    /** `null` when `errors` holds an error. */
    readonly winner: 'a' | 'b' | 'equivalent' | null
    /** The rule that decided; `null` when equivalent or on error. */
    readonly decidedBy: JudgeDecidingRule | null
    /** The rules looked at, in order, up to and including the deciding one. */
    readonly steps: ReadonlyArray<{ readonly rule: JudgeDecidingRule; readonly a: number; readonly b: number }>
    readonly errors: readonly Issue[]
}

/** One place of a ranking. */
export interface JudgeRankEntry {
    /** Position of the evaluation in the input array. */
    readonly index: number
    /** Competition rank: equivalent evaluations share a rank (1, 2, 2, 4). */
    readonly rank: number
    readonly finalScore: number
    readonly grade: JudgeGrade
    /** What separated it from the entry above: a rule, `'equivalent'`, or `null` for the first. */
    readonly decidedBy: JudgeDecidingRule | 'equivalent' | null
}

/** The result of `JudgeRubric.rank`. */
export interface JudgeRanking {
    readonly system: string
    readonly ranking: readonly JudgeRankEntry[] | null
    readonly errors: readonly Issue[]
}
