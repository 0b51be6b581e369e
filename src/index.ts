// Public surface: every export is listed explicitly.
// Entry points come through the boundary: inputs read once inside a guard, never a throw (src/boundary.ts).
export {
    Areas,
    Artifacts,
    DataPretest,
    FixList,
    FixRules,
    JudgeCost,
    DeterministicAnswers,
    ErrorCodes,
    Grading,
    HashGenerator,
    InjectionScan,
    Island,
    KeyDomain,
    PreConditionCheck,
    PromptBuilder,
    ProviderProof,
    RebuildIndex,
    Redact,
    Sarif,
    SchemaCheck,
    Scoring,
    ScoringProtocol,
    SecurityScan,
    SelectionDefinition,
    SelectionSkills,
    SourceSnapshot,
    StablePromotion,
    Standing,
    TaskId,
    Tos,
    Veto,
    fileUrlOf,
    formatSnapshotFilename,
    gradeNamespace,
    gradeSelection,
    gradeSingleSchema,
    gradeTree,
    neutraliseInvisible,
    parseJson,
    parseSnapshotFilename,
    readModuleSource,
    renderIslandReport,
    checkSummaryMarkdown,
    selectLatest,
    sourceLocations,
    stripSnapshotFilename,
    validateGradingEntry,
    isGradingEntry,
    isQuestionId
} from './boundary.js'
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
export type { ErrorCode, ErrorCodeDefinition, Issue, IssueLike, Severity } from './errors/index.js'
export type { HashResult } from './hashing/hash-generator.js'
export { DEFAULT_JSON_LIMITS } from './json/guard.js'
export type { JsonLimits } from './json/guard.js'
export { SCORE_MAPPING_V1 } from './scoring/scoring.js'
export type { WeightedMeanResult, ExclusionReason } from './scoring/scoring.js'
export type { CreateEntryInput, EntryResult } from './grading/grading.js'
export type { EntryCheckOptions, GradingEntryValidation, InvalidEntryResult, ValidEntryResult, ValidateEntryInput } from './grading/validate-entry.js'
export { ENTRY_RULES } from './grading/entry-levels.js'
export type { EntryRule, RuleLevel } from './grading/entry-levels.js'
export { CROSS_AREA_QUESTIONS } from './grading/question-index.js'
export type { CrossAreaDeterminism, CrossAreaQuestion } from './grading/question-index.js'
export { CATALOGUE_QUESTION_IDS, CROSS_AREA_QUESTION_IDS } from './model/question-ids.js'
export type { CatalogueQuestionId, CrossAreaQuestionId, QuestionId } from './model/question-ids.js'
export { GRADE_BANDS_V1, GRADER_KIND_PRECEDENCE, SELECTION_MEMBER_THRESHOLDS } from './grading/aggregate.js'
export type { AggregateResult, AggregateOptions, GradeTraceStep, NoGradeReason } from './grading/aggregate.js'
export { AGING_DEFAULTS, TIME_DEPENDENT_QUESTIONS } from './grading/aging.js'
export type { AgingDefaults } from './grading/aging.js'
export type { LegacyMapping } from './grading/legacy.js'
export type { GradingFilenameParts } from './naming/grading-filename.js'
export * from './model/constants.js'
export type * from './model/types.js'
export { ARTIFACT_HANDLERS } from './artifacts/detect.js'
export type { ArtifactHandler } from './artifacts/detect.js'
export {
    JudgeRubric,
    JUDGE_SYSTEM_VERSION,
    JUDGE_DIMENSIONS,
    JUDGE_DEFAULT_WEIGHTS,
    JUDGE_GRADE_BANDS,
    JUDGE_TIE_BREAKERS,
    JUDGE_WEIGHT_TOLERANCE,
    WorkflowRubric,
    WORKFLOW_SYSTEM_VERSION,
    WORKFLOW_FORMULA_IDS,
    WORKFLOW_FORMULAS,
    WORKFLOW_CATEGORIES,
    WORKFLOW_DEFAULT_FLOORS,
    WORKFLOW_DEFAULT_PASS_THRESHOLD,
    WORKFLOW_DEFAULT_PRIOR,
    WORKFLOW_DEFAULT_K,
    WORKFLOW_GRADE_BANDS,
    WORKFLOW_NEAR_EQUAL,
    WORKFLOW_INCONSISTENCY_WARNING,
    WORKFLOW_PROFILES,
    WORKFLOW_PROFILE_IDS,
    WORKFLOW_DEFAULT_SEVERE_GATES,
    WORKFLOW_PROMOTION_TOLERANCES,
    WORKFLOW_BOOTSTRAP_DEFAULTS,
    WORKFLOW_RUBRIC_SCHEMA_ID,
    RUBRIC_SYSTEMS,
    evaluateRubricInput,
    validateRubricDocument
} from './rubrics/index.js'
export type {
    JudgeBonusInput,
    JudgeComparison,
    JudgeDecidingRule,
    JudgeDimension,
    JudgeEvaluateInput,
    JudgeEvaluation,
    JudgeGrade,
    JudgeGradeBand,
    JudgeHistoricalFlag,
    JudgeHistoryDimension,
    JudgeRankEntry,
    JudgeRanking,
    JudgeRedFlagInput,
    JudgeReport,
    JudgeReportBonus,
    JudgeReportRedFlag,
    JudgeRubricValidation,
    JudgeScores,
    JudgeTraceStep,
    PairOrder,
    PairOutcome,
    PairSide,
    PairVerdict,
    PairwiseAdjudication,
    PairwiseOrderResult,
    RubricDocumentValidation,
    RubricEvaluationResult,
    RubricSystem,
    WorkflowAdjustment,
    WorkflowCategory,
    WorkflowCompareRule,
    WorkflowComparison,
    WorkflowCriterionDistribution,
    WorkflowCriterionInput,
    WorkflowEvaluateInput,
    WorkflowEvaluation,
    WorkflowFailureReason,
    WorkflowFloorFailure,
    WorkflowFormula,
    WorkflowFormulaId,
    WorkflowGateFailure,
    WorkflowGrade,
    WorkflowNormalization,
    WorkflowNormalizedCriterion,
    WorkflowPlacement,
    WorkflowPlacementCheck,
    WorkflowProfile,
    WorkflowProfileCriterion,
    WorkflowProfileGate,
    WorkflowProfileId,
    WorkflowProfileResult,
    WorkflowPromotion,
    WorkflowPromotionReason,
    WorkflowPromotionTolerances,
    WorkflowRate,
    WorkflowRawScore,
    WorkflowReportBundle,
    WorkflowReportResult,
    WorkflowRubricValidation,
    WorkflowRunSummary,
    WorkflowTraceStep
} from './rubrics/index.js'
export type { MainValidation } from './schema/schema-check.js'
export type { IdStyle, ParsedId } from './schema/ids.js'
export { MAX_TOOLS, RECOMMENDED_TESTS, LIBRARY_ALLOWLIST } from './schema/validate-main.js'
export { CODE_PATTERNS as SECURITY_PATTERNS } from './schema/security-scan.js'
export type { SecurityCode, SecurityFinding, SecurityScanResult, ModuleReference, VetoClass } from './schema/security-scan.js'
export { GENERIC_KEY_TOKENS, GENERIC_HOST_LABELS, BRAND_ALIASES, KEY_GATEWAYS } from './schema/key-domain.js'
export type { KeyCheck, KeyDomainResult, KeyMismatch, KeyUncertain, KeyVerdict, MatchRule, TosMatch } from './schema/key-domain.js'
export { PARAMETERLESS_MIN_WORKING_TESTS, PRETEST_DEFAULTS, RESPONSE_SIZE_LIMITS } from './pretest/data-pretest.js'
export type { PretestInput, PretestResult, PretestTestRecord, PretestTestResult, PretestToolSummary, TestRequestRecord, TestVerdict, DocsCheck, TestStatus, ToolClass } from './pretest/data-pretest.js'
export type { Shape } from './pretest/output-check.js'
export { DEFAULT_EXTRA_WEIGHTS, DEFAULT_GRADER, EXTRA_QUESTION_IDS, SECURITY_SCORE_V1, SCHEMA_STRUCTURE_SCORE_V1, SPEC_STRICT_CODES } from './deterministic/answers.js'
export type { BlockedArea, BuildInput, BuildNamespaceInput, DeferredQuestion, DeterministicResult, QuestionRow } from './deterministic/answers.js'
export type { DependencyGraphEntry } from './areas/areas.js'
export { AREA_CATALOGUE, QUESTIONS, LEVEL_LADDER, MAX_ITERATIONS, QUESTION_CATALOGUE_VERSION, SCHEMA_HOST } from './areas/catalogue.js'
export type { AreaDescriptor, AreaQuestion, AreaSide, AreaClassification, BlockingCondition, DependsOnKind, Level, SurfacingTarget } from './areas/catalogue.js'
export type { GateResult, GateSignals } from './areas/gates.js'
export type { AreaAnswer, AreaBlocker, AreaOutput, AreaOutputValidation, ImprovementHint } from './areas/output.js'
export type { AreaSidecar, DeterministicAnswer, GradingContext, ToGradingEntryResult } from './areas/to-entry.js'
export { SCORING_INSTRUCTIONS_V1, NO_SKILL_WHEN_TO_USE, TRANSPORT_QUESTION_IDS, TRANSPORT_DIMENSIONS } from './protocol/scoring-protocol.js'
export type { GradeReportV1, ReportDimension, ReportTraceStep, SchemaValidation, EvalPrompt, PromptsV1, ScoresV1, TransportCreator, TransportHarness, TransportDimension } from './protocol/scoring-protocol.js'
export type { RegistryReportV1, ReportKind, ReportToEntryInput, ReportValidation } from './protocol/report.js'
export { REDACTED, MIN_SECRET_LENGTH } from './prompts/redact.js'
export type { Redaction, RedactionKind } from './prompts/redact.js'
export { DEFAULT_MAX_TURNS, MAX_GOAL_CONDITION_LENGTH } from './prompts/goal-block.js'
export type { GoalBlock } from './prompts/goal-block.js'
export type { AreaPromptInput, AreaPromptMetadata, EntryPointInput, PredecessorGrade, PromptFile, PromptPersona, PromptPolicy } from './prompts/compose.js'
export { FILE_PLACEHOLDER_ROLES } from './prompts/emit.js'
export type { ComposedArea, DeferredArea, EmitInput, EmitState, PromptsV2 } from './prompts/emit.js'
export type { PayloadEnvelope, PayloadOutput } from './prompts/payload.js'
export type { SurfacingEvent, TranscriptAudit } from './prompts/surfacing.js'
export type { PayloadResult, ScoresPayload, VerifyResult } from './prompts/verify.js'
export { createMemoryFs } from './ports/memory-fs.js'
export type { MemoryFs } from './ports/memory-fs.js'
export { fsPortFromNodeLike } from './ports/node-fs.js'
export type { NodeFsLike, NodeFsPromisesLike } from './ports/node-fs.js'
export { httpPortFromFetch } from './ports/http.js'
export { runtimePortFromFlowMCP } from './ports/runtime.js'
export { CHARS_PER_TOKEN } from './grade/estimate.js'
export type { FixListInput, Locate } from './fix/fix-list.js'
export type { RuleSetting, RulesMap } from './fix/rules.js'
export type { FixItem, StaleRecording } from './fix/types.js'
export type { CostCall, CostEstimate, CostFigures, CostInDollars, TokenPrices } from './grade/estimate.js'
export type { JudgeCallOptions } from './grade/judge-call.js'
export { BOUNDARY_PATTERN, BOUNDARY_PREFIX } from './injection/boundary.js'
export { MAX_LISTED_INVISIBLE } from './injection/invisible.js'
export type { InvisibleFound, InvisibleKind, NeutralisedText } from './injection/invisible.js'
export { INJECTION_RULE_IDS, MAX_INJECTION_FINDINGS, MAX_SCAN_LENGTH } from './injection/scan.js'
export type { InjectionFile, InjectionScanResult } from './injection/scan.js'
export type { JudgeMessage } from './grade/messages.js'
export type { FlowMCPCoreLike, FlowMCPRuntimeOptions } from './ports/runtime.js'
export type { FetchLike, FetchResponseLike, HttpPortOptions } from './ports/http.js'
export { fixedClock } from './ports/clock.js'
export type { Clock, FsDirEntry, FsEntryKind, FsPort, FsStat, HttpPort, HttpRequest, HttpResponse, LoadedModule, RuntimePort, RuntimeRequestRecord, RuntimeTestOutcome, RuntimeTestRequest, SchemaLoader } from './ports/types.js'
export { SNAPSHOT_NAME_REGEX, SNAPSHOT_EXT_REGEX, SNAPSHOT_HASH_REGEX } from './naming/snapshot-filename.js'
export type { SnapshotFilenameParts } from './naming/snapshot-filename.js'
export type { LatestKind, LatestPick } from './naming/latest.js'
export type { StartRunResult } from './island/island.js'
export type { SnapshotCreateResult, SnapshotHashKind, SnapshotInfo } from './island/snapshot.js'
export type { ProofMonitoring, ProviderProofDocument } from './island/proof.js'
export { AREA_TARGET_FIELDS } from './island/targets.js'
export type { GradingFolder, GradingTarget, TargetScope } from './island/targets.js'
export { GRADING_DATA_ENV } from './island/root.js'
export type { ResolveRootResult, RootSource } from './island/root.js'
export { LAYOUT, NAME_PATTERNS } from './store/paths.js'
export type { NameKind } from './store/paths.js'
export type { ResolveLatestResult } from './store/resolve-latest.js'
export type { ImportedArtefact, ImportedSchema, ImportResult, SourceFile } from './island/import.js'
export type { ExportedFile, ExportResult, ExportTarget } from './island/export.js'
export type { WriteGradingResult } from './island/write-grading.js'
export type { RebuildResult } from './rollup/rebuild-index.js'
export { DEFAULT_READ_CONCURRENCY } from './rollup/read-listing.js'
export { INDEX_KEY_ORDER } from './rollup/index-json.js'
export { PENDING_REASONS } from './rollup/nodes.js'
export { ENVIRONMENT_CAUSES, type BlockedTool, type IndexStandings, type SchemaStanding, type SchemaStatus, type StandingChange } from './rollup/standing.js'
export type { BlockedMember, PreConditionResult } from './rollup/pre-condition.js'
export { STABLE_THRESHOLD } from './rollup/stable-promotion.js'
export type { PromotionReason, PromotionResult } from './rollup/stable-promotion.js'
export { OVERRIDE_KEYS } from './rollup/lock-snapshot.js'
export type {
    Blocker,
    GradingFacts,
    GradingFileInput,
    IndexNode,
    LockMember,
    LockSnapshot,
    MemberNode,
    MemberSchemaListing,
    NamespaceIndex,
    NamespaceListing,
    NamespaceSummary,
    NodeVeto,
    PrimitiveListing,
    RollupIndex,
    SchemaListing,
    SchemaNode,
    SelectionIndex,
    SelectionListing,
    SelectionSummary,
    SkillListing,
    SnapshotRef,
    ToolListing
} from './rollup/types.js'
export { httpPortFromRecordings, isMissingRecording } from './ports/replay.js'
export { recordingHttpPort } from './ports/record.js'
export type { RecordedExchange, Recording } from './ports/replay.js'
export { importSchemaLoader } from './grade/loader.js'
export type { GradeNamespaceOptions, GradeNamespaceResult, GradeTreeResult, NamespaceSchemaInput, NamespaceSchemaRow, TreeProgress } from './grade/namespace.js'
export { sourceSchemaLoader } from './schema/source-loader.js'
export type { SourceModuleResult } from './schema/source-loader.js'
export type { SourceLocations, SourcePosition } from './schema/locations.js'
export { MAX_SARIF_ITEMS, SARIF_FINGERPRINT_KEY, SARIF_SCHEMA_URI, SARIF_SOURCE_ROOT } from './report/sarif.js'
export type { IslandReport, IslandReportInput, ReportFsPort } from './report/html-report.js'
export type { CheckSummary, CheckSummaryInput, CheckSummaryRow } from './report/check-summary.js'
export type { SarifFromFixItemsResult, SarifInput, SarifLevel, SarifLog, SarifMessage, SarifResult, SarifRule, SarifRun, SarifTool } from './report/sarif.js'
export type { AnsweringGrader, GradeOptions, GradeOptionsBase, GradeSingleSchemaInput, GradeSingleSchemaResult, GraderInput, SchemaInput, SchemaModuleInput, TimeSource, Judge, JudgeAnswer, JudgeCallContext, AbortSignalLike, JudgeReply, JudgeRequest, EmittedPrompt, SchemaGrading, SchemaRunStatus, UnitResult, UnitStatus } from './grade/types.js'
export { MAX_SELECTION_SKILLS, MIN_SELECTION_DESCRIPTION } from './selection/definition.js'
export type { SelectionDefinitionDocument } from './selection/definition.js'
export type { SelectionSkillInput, SkillCrossReferences } from './selection/skills.js'
export { BELOW_SOFT_THRESHOLD_REASON } from './rollup/build-selection.js'
export { NO_DOMAIN_KNOWLEDGE_REASON } from './grading/aggregate.js'
export type { GradeSelectionOptions, GradeSelectionResult } from './grade/selection.js'
