export { WorkflowRubric } from './workflow-rubric.js'
export {
    WORKFLOW_SYSTEM_VERSION,
    WORKFLOW_FORMULA_IDS,
    WORKFLOW_CATEGORIES,
    WORKFLOW_DEFAULT_FLOORS,
    WORKFLOW_DEFAULT_PASS_THRESHOLD,
    WORKFLOW_DEFAULT_PRIOR,
    WORKFLOW_DEFAULT_K,
    WORKFLOW_GRADE_BANDS,
    WORKFLOW_NEAR_EQUAL,
    WORKFLOW_INCONSISTENCY_WARNING
} from './constants.js'
export type { WorkflowCategory, WorkflowFormulaId, WorkflowGrade } from './constants.js'
export { WORKFLOW_FORMULAS } from './formulas.js'
export type { WorkflowFormula } from './formulas.js'
export { WORKFLOW_PROFILES, WORKFLOW_PROFILE_IDS, WORKFLOW_DEFAULT_SEVERE_GATES } from './profiles.js'
export type { WorkflowProfile, WorkflowProfileCriterion, WorkflowProfileGate, WorkflowProfileId } from './profiles.js'
export { WORKFLOW_PROMOTION_TOLERANCES } from './promotion.js'
export type { WorkflowPromotion, WorkflowPromotionReason, WorkflowPromotionTolerances } from './promotion.js'
export { WORKFLOW_BOOTSTRAP_DEFAULTS } from './reporting.js'
export type {
    WorkflowCriterionDistribution,
    WorkflowRate,
    WorkflowReportBundle,
    WorkflowReportResult
} from './reporting.js'
export { WORKFLOW_RUBRIC_SCHEMA_ID } from './rubric-document.js'
export type { WorkflowRubricValidation } from './rubric-document.js'
export type { WorkflowCompareRule, WorkflowComparison, WorkflowRunSummary } from './compare.js'
export type {
    PairOrder,
    PairOutcome,
    PairSide,
    PairVerdict,
    PairwiseAdjudication,
    PairwiseOrderResult
} from './pairwise.js'
export type { WorkflowAdjustment, WorkflowNormalization, WorkflowProfileResult } from './normalize.js'
export type {
    WorkflowCriterionInput,
    WorkflowEvaluateInput,
    WorkflowEvaluation,
    WorkflowFailureReason,
    WorkflowFloorFailure,
    WorkflowGateFailure,
    WorkflowNormalizedCriterion,
    WorkflowPlacement,
    WorkflowPlacementCheck,
    WorkflowRawScore,
    WorkflowTraceStep
} from './types.js'
