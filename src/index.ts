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
export { Areas } from './areas/areas.js'
export type { DependencyGraphEntry } from './areas/areas.js'
export { AREA_CATALOGUE, QUESTIONS, LEVEL_LADDER, MAX_ITERATIONS, QUESTION_CATALOGUE_VERSION, SCHEMA_HOST } from './areas/catalogue.js'
export type { AreaDescriptor, AreaQuestion, AreaSide, AreaClassification, BlockingCondition, DependsOnKind, Level, SurfacingTarget } from './areas/catalogue.js'
export type { GateResult, GateSignals } from './areas/gates.js'
export type { AreaAnswer, AreaBlocker, AreaOutput, AreaOutputValidation, ImprovementHint } from './areas/output.js'
export type { AreaSidecar, DeterministicAnswer, GradingContext, ToGradingEntryResult } from './areas/to-entry.js'
export { ScoringProtocol, SCORING_INSTRUCTIONS_V1, NO_SKILL_WHEN_TO_USE, TRANSPORT_QUESTION_IDS, TRANSPORT_DIMENSIONS } from './protocol/scoring-protocol.js'
export type { GradeReportV1, ReportDimension, ReportTraceStep, SchemaValidation, EvalPrompt, PromptsV1, ScoresV1, TransportCreator, TransportHarness, TransportDimension } from './protocol/scoring-protocol.js'
export { PromptBuilder } from './prompts/prompt-builder.js'
export { Redact, REDACTED, MIN_SECRET_LENGTH } from './prompts/redact.js'
export type { Redaction, RedactionKind } from './prompts/redact.js'
export { TaskId } from './prompts/task-id.js'
export { DEFAULT_MAX_TURNS, MAX_GOAL_CONDITION_LENGTH } from './prompts/goal-block.js'
export type { GoalBlock } from './prompts/goal-block.js'
export type { AreaPromptInput, AreaPromptMetadata, EntryPointInput, PredecessorGrade, PromptFile, PromptPersona, PromptPolicy } from './prompts/compose.js'
export { FILE_PLACEHOLDER_ROLES } from './prompts/emit.js'
export type { ComposedArea, DeferredArea, EmitInput, EmitState, PromptsV2 } from './prompts/emit.js'
export type { PayloadEnvelope, PayloadOutput } from './prompts/payload.js'
export type { SurfacingEvent, TranscriptAudit } from './prompts/surfacing.js'
export type { PayloadResult, ScoresPayload, VerifyResult } from './prompts/verify.js'
