// Public surface: every export is listed explicitly.
export {
    getVersion,
    GRADING_SPEC_VERSION,
    SCORING_SYSTEM_VERSION,
    GRADING_SYSTEM_VERSION,
    SCORING_PROTOCOL_VERSION,
    PACKAGE_VERSION,
    SCORING_SYSTEM_REGEX,
    GRADING_SYSTEM_REGEX,
    GRADING_SPEC_REGEX,
    FLOWMCP_VERSION_REGEX
} from './version.js'
export type { VersionInfo } from './version.js'
export { ErrorCodes } from './errors/index.js'
export type { ErrorCode, ErrorCodeDefinition, Issue, Severity } from './errors/index.js'
export { HashGenerator } from './hashing/hash-generator.js'
export type { HashResult } from './hashing/hash-generator.js'
export { DEFAULT_JSON_LIMITS } from './json/guard.js'
export type { JsonLimits } from './json/guard.js'
export { Scoring, SCORE_MAPPING_V1 } from './scoring/scoring.js'
export type { WeightedMeanResult, ExclusionReason } from './scoring/scoring.js'
export { Grading } from './grading/grading.js'
export type { CreateEntryInput, EntryResult } from './grading/grading.js'
export { GRADE_BANDS_V1, GRADER_KIND_PRECEDENCE, SELECTION_MEMBER_THRESHOLDS } from './grading/aggregate.js'
export type { AggregateResult, AggregateOptions, GradeTraceStep, NoGradeReason } from './grading/aggregate.js'
export { AGING_DEFAULTS, TIME_DEPENDENT_QUESTIONS } from './grading/aging.js'
export type { AgingDefaults } from './grading/aging.js'
export type { LegacyMapping } from './grading/legacy.js'
export { validateGradingEntry } from './grading/validate-entry.js'
export { Veto } from './veto/veto.js'
export type { GradingFilenameParts } from './naming/grading-filename.js'
export * from './model/constants.js'
export type * from './model/types.js'
export { Artifacts, ARTIFACT_HANDLERS } from './artifacts/detect.js'
export type { ArtifactHandler } from './artifacts/detect.js'
