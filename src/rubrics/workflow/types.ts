import type { Issue } from '../../errors/types.js'
import type { WorkflowCategory, WorkflowFormulaId, WorkflowGrade } from './constants.js'
import type { WorkflowProfileId } from './profiles.js'

/** A raw score: a number, pairwise counts or test counts, depending on the formula. */
export type WorkflowRawScore =
    | number
    | { readonly wins: number; readonly losses: number; readonly ties: number }
    | { readonly passed: number; readonly total: number }

/** One criterion of `WorkflowRubric.evaluate` (seed 004 §5.1 INPUT). */
export interface WorkflowCriterionInput {
    /** Unique within the evaluation; 1–200 characters. */
    readonly name: string
    readonly rawScore: WorkflowRawScore
    readonly formulaId: WorkflowFormulaId
    /** >= 0; the score divides by the sum of weights, so weights need not sum to 1. */
    readonly weight: number
    /** Floor on the normalised 0..1 scale. */
    readonly criticalFloor?: number
    /** Floor on the raw scale, normalised with this criterion's formula (not both floors at once). */
    readonly rawCriticalFloor?: number
    /** `correctness` gets a default floor of 0.70, `safety`/`validation` 0.80, unless a floor is given. */
    readonly category?: WorkflowCategory
    /** `{ good, bad }` SLO bounds for `lower-is-better`. */
    readonly params?: { readonly good: number; readonly bad: number }
    /** Sample count for the reliability adjustment; pairwise and test counts imply their own. */
    readonly samples?: number
}

/** The input of `WorkflowRubric.evaluate`. */
export interface WorkflowEvaluateInput {
    /** Gate id → passed. */
    readonly hardGates: Readonly<Record<string, boolean>>
    readonly criteria: readonly WorkflowCriterionInput[]
    /** 0..100, default 70. */
    readonly passThreshold?: number
    /** Gates that must be reported; a missing one fails as `not-reported`. */
    readonly requiredGates?: readonly string[]
    /** Adds the profile's hard gates to `requiredGates`. */
    readonly profile?: WorkflowProfileId
    /** Reliability shrinkage: prior in 0..1 (default 0.5), k > 0 (default 20). */
    readonly reliability?: { readonly prior?: number; readonly k?: number }
    /** Pairwise inconsistency rate of the judge that produced the rubric scores (for placement only). */
    readonly judgeInconsistencyRate?: number
}

/** A criterion after normalisation: raw, normalised and formula id side by side. */
export interface WorkflowNormalizedCriterion {
    readonly name: string
    readonly formulaId: WorkflowFormulaId
    readonly category: WorkflowCategory | null
    readonly raw: WorkflowRawScore
    /** Nearest number to the exact normalised value, in 0..1. */
    readonly normalized: number
    /** Reliability-adjusted value, or `null` when no sample count is known. */
    readonly adjusted: number | null
    readonly samples: number | null
    readonly weight: number
    /** The floor on the normalised scale, or `null` when the criterion has none. */
    readonly criticalFloor: number | null
    readonly floorSource: 'criterion' | 'raw-scale' | 'category-default' | null
    readonly floorFailed: boolean
    /** `normalized − criticalFloor`, or `null` without a floor. */
    readonly floorMargin: number | null
}

/** A failed (or unreported required) hard gate. */
export interface WorkflowGateFailure {
    readonly gate: string
    readonly reason: 'reported-false' | 'not-reported'
}

/** A missed critical floor. */
export interface WorkflowFloorFailure {
    readonly criterion: string
    readonly normalized: number
    readonly floor: number
    readonly floorSource: 'criterion' | 'raw-scale' | 'category-default'
}

/** Why a failed evaluation did not pass (`null` when it passed). */
export type WorkflowFailureReason = 'hard_gate_failure' | 'critical_floor_failure' | 'below_pass_threshold'

/** One check of the placement guide (seed 004 §5.2). */
export interface WorkflowPlacementCheck {
    readonly check: 'hard-gates' | 'critical-floors' | 'floor-margin' | 'judge-agreement'
    readonly status: 'pass' | 'fail' | 'near-boundary' | 'not-applicable' | 'not-assessed'
    readonly detail: string
}

/** Why the run landed in its band (seed 004 §5.2). */
export interface WorkflowPlacement {
    readonly grade: WorkflowGrade
    readonly range: string
    /** What fixed the grade: the score band, the floor cap, or a hard-gate failure. */
    readonly determinedBy: 'score-band' | 'floor-cap' | 'hard-gate-failure'
    readonly checks: readonly WorkflowPlacementCheck[]
    /** Where the run falls short of the guide's description of its band (never changes the grade). */
    readonly notes: readonly string[]
    readonly summary: string
}

/** One step of the workflow trace, in the order of seed 004 §5.1. */
export type WorkflowTraceStep =
    | {
          readonly step: 'hard-gates'
          readonly gates: ReadonlyArray<{
              readonly gate: string
              readonly passed: boolean
              readonly reason: 'reported' | 'reported-false' | 'not-reported'
          }>
          readonly failed: number
      }
    | {
          readonly step: 'normalize'
          readonly criteria: ReadonlyArray<{
              readonly name: string
              readonly formulaId: WorkflowFormulaId
              readonly normalized: number
              readonly adjusted: number | null
              readonly floor: number | null
              readonly floorFailed: boolean
          }>
      }
    | {
          readonly step: 'aggregate'
          readonly terms: ReadonlyArray<{
              readonly name: string
              readonly weight: number
              readonly normalized: number
              readonly product: number
          }>
          readonly weightSum: number
          readonly weighted01: number
          readonly weighted100: number
      }
    | { readonly step: 'band'; readonly score: number; readonly grade: WorkflowGrade; readonly min: number }
    | {
          readonly step: 'floor-cap'
          readonly failed: readonly string[]
          readonly before: WorkflowGrade
          readonly after: WorkflowGrade
      }
    | {
          readonly step: 'gate-override'
          readonly applied: boolean
          readonly before: WorkflowGrade
          readonly after: WorkflowGrade
      }
    | {
          readonly step: 'pass-decision'
          readonly score: number
          readonly threshold: number
          readonly meetsThreshold: boolean
          readonly floorsPassed: boolean
          readonly gatesPassed: boolean
          readonly passed: boolean
          readonly reason: WorkflowFailureReason | null
      }

/** The result of `WorkflowRubric.evaluate`; values are `null` when `errors` holds an error. */
export interface WorkflowEvaluation {
    readonly system: string
    readonly passed: boolean | null
    readonly grade: WorkflowGrade | null
    /** The band of the weighted score before the floor cap and the gate override. */
    readonly provisionalGrade: WorkflowGrade | null
    /** 0..100, two decimals; kept for diagnostics when a gate fails. */
    readonly weightedScore: number | null
    /** The same aggregate over reliability-adjusted values where a sample count is known (for promotion). */
    readonly adjustedWeightedScore: number | null
    readonly reason: WorkflowFailureReason | null
    readonly gateFailures: readonly WorkflowGateFailure[]
    readonly floorFailures: readonly WorkflowFloorFailure[]
    readonly normalized: readonly WorkflowNormalizedCriterion[]
    readonly placement: WorkflowPlacement | null
    readonly trace: readonly WorkflowTraceStep[]
    readonly errors: readonly Issue[]
}
