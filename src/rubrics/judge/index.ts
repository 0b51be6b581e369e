export { JudgeRubric } from './judge-rubric.js'
export {
    JUDGE_SYSTEM_VERSION,
    JUDGE_DIMENSIONS,
    JUDGE_DEFAULT_WEIGHTS,
    JUDGE_GRADE_BANDS,
    JUDGE_TIE_BREAKERS,
    JUDGE_WEIGHT_TOLERANCE
} from './constants.js'
export type { JudgeDecidingRule, JudgeDimension, JudgeGrade, JudgeGradeBand, JudgeScores } from './constants.js'
export type { JudgeRubricValidation } from './rubric-document.js'
export type {
    JudgeBonusInput,
    JudgeComparison,
    JudgeEvaluateInput,
    JudgeEvaluation,
    JudgeHistoricalFlag,
    JudgeHistoryDimension,
    JudgeRankEntry,
    JudgeRanking,
    JudgeRedFlagInput,
    JudgeReport,
    JudgeReportBonus,
    JudgeReportRedFlag,
    JudgeTraceStep
} from './types.js'
