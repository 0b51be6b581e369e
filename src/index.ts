// Public surface: every export is listed explicitly, no wildcard. The root entry point holds what a host
// calls (grading, validation, ports, the static classes, reports, the error catalogue) and the status
// vocabulary it compares results against; the tables and constants for inspection are in
// `flowmcp-grading/catalogue` (src/catalogue.ts). Every type stays here.
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
    acceptGradingEntry,
    signGradingEntry,
    isGradingEntry,
    isQuestionId
} from './boundary.js'
export { getVersion } from './version.js'
export type { VersionInfo } from './version.js'
export type { ErrorCode, ErrorCodeDefinition, Issue, IssueLike, Severity } from './errors/index.js'
export type { HashResult } from './hashing/hash-generator.js'
export { DEFAULT_JSON_LIMITS } from './json/guard.js'
export type { JsonLimits } from './json/guard.js'
export type { WeightedMeanResult, ExclusionReason } from './scoring/scoring.js'
export type { CreateEntryInput, EntryResult } from './grading/grading.js'
export type {
    EntryCheckOptions,
    GradingEntryValidation,
    InvalidEntryResult,
    ValidEntryResult,
    ValidateEntryInput
} from './grading/validate-entry.js'
export type { EntryRule, RuleLevel } from './grading/entry-levels.js'
export type { EntryExpectation } from './grading/binding.js'
export type { AnswerProvenance, AnswerStanding, EntryProvenance } from './grading/provenance.js'
export type { AcceptEntryInput } from './intake/accept.js'
export type { SignEntryResult } from './grading/sign.js'
export type { DsseEnvelope, DsseSignature, Ed25519Jwk, TrustedKey } from './hashing/attest.js'
export type { CrossAreaDeterminism, CrossAreaQuestion } from './grading/question-index.js'
export type { CatalogueQuestionId, CrossAreaQuestionId, QuestionId } from './model/question-ids.js'
export type { AggregateResult, AggregateOptions, GradeTraceStep, NoGradeReason } from './grading/aggregate.js'
export type { AgingDefaults } from './grading/aging.js'
export type { LegacyMapping } from './grading/legacy.js'
export type { GradingFilenameParts } from './naming/grading-filename.js'
export {
    BLOCKED_REASONS,
    NODE_STATUS,
    ROLLUP_STATUS,
    SEVERITY,
    UNIT_STATUS,
    fewerThanWorkingTests,
    isAggregateGrade,
    isWorkingCountReason
} from './model/constants.js'
export { ENVIRONMENT_BLOCKED_REASONS, isEnvironmentReason } from './model/environment.js'
export type {
    AggregateGrade,
    Area,
    BasePersonaId,
    BlockedReason,
    Determinism,
    GraderKind,
    GradingMode,
    GradingTier,
    Harness,
    LetterGrade,
    MaxAttainableGrade,
    NaReason,
    NodeStatus,
    RegradingTriggerKind,
    RollupStatus,
    Score,
    ScoreEnum,
    VetoTrigger
} from './model/constants.js'
export type {
    CategoricalVeto,
    GraderIdentity,
    GradingAnswer,
    GradingEntry,
    GradingEntryDraft,
    Persona,
    RegradingTrigger,
    SelectionContext
} from './model/types.js'
export type { ArtifactHandler } from './artifacts/detect.js'
export type { MainValidation } from './schema/schema-check.js'
export type { IdStyle, ParsedId } from './schema/ids.js'
export type {
    SecurityCode,
    SecurityFinding,
    SecurityScanResult,
    ModuleReference,
    VetoClass
} from './schema/security-scan.js'
export type {
    KeyCheck,
    KeyDomainResult,
    KeyMismatch,
    KeyUncertain,
    KeyVerdict,
    MatchRule,
    TosMatch
} from './schema/key-domain.js'
export type {
    PretestInput,
    PretestResult,
    PretestTestRecord,
    PretestTestResult,
    PretestToolSummary,
    TestRequestRecord,
    TestVerdict,
    DocsCheck,
    TestStatus,
    ToolClass
} from './pretest/data-pretest.js'
export type { Shape } from './pretest/output-check.js'
export type {
    BlockedArea,
    BuildInput,
    BuildNamespaceInput,
    DeferredQuestion,
    DeterministicResult,
    QuestionRow
} from './deterministic/answers.js'
export type { DependencyGraphEntry } from './areas/areas.js'
export type {
    AreaDescriptor,
    AreaQuestion,
    AreaSide,
    AreaClassification,
    BlockingCondition,
    DependsOnKind,
    Level,
    SurfacingTarget
} from './areas/catalogue.js'
export type { GateResult, GateSignals } from './areas/gates.js'
export type { AreaAnswer, AreaBlocker, AreaOutput, AreaOutputValidation, ImprovementHint } from './areas/output.js'
export type { AreaSidecar, DeterministicAnswer, GradingContext, ToGradingEntryResult } from './areas/to-entry.js'
export type {
    GradeReportV1,
    ReportDimension,
    ReportTraceStep,
    SchemaValidation,
    EvalPrompt,
    PromptsV1,
    ScoresV1,
    TransportCreator,
    TransportHarness,
    TransportDimension
} from './protocol/scoring-protocol.js'
export type { RegistryReportV1, ReportKind, ReportToEntryInput, ReportValidation } from './protocol/report.js'
export type { Redaction, RedactionKind } from './prompts/redact.js'
export type { GoalBlock } from './prompts/goal-block.js'
export type {
    AreaPromptInput,
    AreaPromptMetadata,
    EntryPointInput,
    PredecessorGrade,
    PromptFile,
    PromptPersona,
    PromptPolicy
} from './prompts/compose.js'
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
export type { FixListInput, Locate } from './fix/fix-list.js'
export type { RuleSetting, RulesMap } from './fix/rules.js'
export type { FixItem, StaleRecording } from './fix/types.js'
export type { CostCall, CostEstimate, CostFigures, CostInDollars, TokenPrices } from './grade/estimate.js'
export type { JudgeCallOptions } from './grade/judge-call.js'
export type { InvisibleFound, InvisibleKind, NeutralisedText } from './injection/invisible.js'
export type { InjectionFile, InjectionScanResult } from './injection/scan.js'
export type { JudgeMessage } from './grade/messages.js'
export type { FlowMCPCoreLike, FlowMCPRuntimeOptions } from './ports/runtime.js'
export type { FetchLike, FetchResponseLike, HttpPortOptions } from './ports/http.js'
export { fixedClock } from './ports/clock.js'
export type {
    Clock,
    FsDirEntry,
    FsEntryKind,
    FsPort,
    FsStat,
    HttpPort,
    HttpRequest,
    HttpResponse,
    LoadedModule,
    RuntimePort,
    RuntimeRequestRecord,
    RuntimeTestOutcome,
    RuntimeTestRequest,
    SchemaLoader
} from './ports/types.js'
export type { SnapshotFilenameParts } from './naming/snapshot-filename.js'
export type { LatestKind, LatestPick } from './naming/latest.js'
export type { StartRunResult } from './island/island.js'
export type { SnapshotCreateResult, SnapshotHashKind, SnapshotInfo } from './island/snapshot.js'
export type { ProofMonitoring, ProviderProofDocument } from './island/proof.js'
export type { GradingFolder, GradingTarget, TargetScope } from './island/targets.js'
export type { ResolveRootResult, RootSource } from './island/root.js'
export type { NameKind } from './store/paths.js'
export type { ResolveLatestResult } from './store/resolve-latest.js'
export type { ImportedArtefact, ImportedSchema, ImportResult, SourceFile } from './island/import.js'
export type { ExportedFile, ExportResult, ExportTarget } from './island/export.js'
export type { WriteGradingResult } from './island/write-grading.js'
export type { RebuildResult } from './rollup/rebuild-index.js'
export type { BlockedTool, IndexStandings, SchemaStanding, SchemaStatus, StandingChange } from './rollup/standing.js'
export type { BlockedMember, PreConditionResult } from './rollup/pre-condition.js'
export type { PromotionReason, PromotionResult } from './rollup/stable-promotion.js'
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
export { mergeRecordings, type RecordingMerge } from './ports/recording-merge.js'
export type { RecordedExchange, Recording } from './ports/replay.js'
export { importSchemaLoader } from './grade/loader.js'
export type {
    GradeNamespaceOptions,
    GradeNamespaceResult,
    GradeTreeResult,
    NamespaceSchemaInput,
    NamespaceSchemaRow,
    TreeProgress
} from './grade/namespace.js'
export { sourceSchemaLoader } from './schema/source-loader.js'
export type { SourceModuleResult } from './schema/source-loader.js'
export type { SourceLocations, SourcePosition } from './schema/locations.js'
export type { IslandReport, IslandReportInput, ReportFsPort } from './report/html-report.js'
export type { CheckSummary, CheckSummaryInput, CheckSummaryRow } from './report/check-summary.js'
export type {
    SarifFromFixItemsResult,
    SarifInput,
    SarifLevel,
    SarifLog,
    SarifMessage,
    SarifResult,
    SarifRule,
    SarifRun,
    SarifTool
} from './report/sarif.js'
export type {
    AnsweringGrader,
    GradeOptions,
    GradeOptionsBase,
    GradeSingleSchemaInput,
    GradeSingleSchemaResult,
    GraderInput,
    SchemaInput,
    SchemaModuleInput,
    TimeSource,
    Judge,
    JudgeAnswer,
    JudgeCallContext,
    JudgeCallCount,
    JudgeResponse,
    JudgeUsage,
    AbortSignalLike,
    PlatformAbortSignal,
    JudgeReply,
    JudgeRequest,
    EmittedPrompt,
    SchemaGrading,
    GradeBasis,
    SchemaRunStatus,
    UnitResult,
    UnitStatus
} from './grade/types.js'
export type { SelectionDefinitionDocument } from './selection/definition.js'
export type { SelectionSkillInput, SkillCrossReferences } from './selection/skills.js'
export type { GradeSelectionOptions, GradeSelectionResult } from './grade/selection.js'
export type {
    AffectedJson,
    AffectedJsonReason,
    CheckJson,
    CheckJsonSchema,
    ConsumeScoresJson,
    ConsumeScoresJsonError,
    ExportJson,
    GradeEstimateJson,
    GradeJson,
    GradeJsonNamespace,
    GradeJsonSchema,
    GradeJsonUnit,
    RebuildIndexJson,
    ReportJson,
    ValidateJson,
    VersionJson
} from './report/cli-documents.js'
