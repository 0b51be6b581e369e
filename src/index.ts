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
export { createMemoryFs } from './ports/memory-fs.js'
export type { MemoryFs } from './ports/memory-fs.js'
export { fsPortFromNodeLike } from './ports/node-fs.js'
export type { NodeFsPromisesLike } from './ports/node-fs.js'
export { httpPortFromFetch } from './ports/http.js'
export type { FetchLike, FetchResponseLike, HttpPortOptions } from './ports/http.js'
export { fixedClock } from './ports/clock.js'
export type { Clock, FsDirEntry, FsEntryKind, FsPort, FsStat, HttpPort, HttpRequest, HttpResponse, LoadedModule, SchemaLoader } from './ports/types.js'
export { formatSnapshotFilename, parseSnapshotFilename, stripSnapshotFilename, SNAPSHOT_NAME_REGEX, SNAPSHOT_EXT_REGEX, SNAPSHOT_HASH_REGEX } from './naming/snapshot-filename.js'
export type { SnapshotFilenameParts } from './naming/snapshot-filename.js'
export { selectLatest } from './naming/latest.js'
export type { LatestKind, LatestPick } from './naming/latest.js'
export { Island } from './island/island.js'
export type { StartRunResult } from './island/island.js'
export { SourceSnapshot } from './island/snapshot.js'
export type { SnapshotCreateResult, SnapshotHashKind, SnapshotInfo } from './island/snapshot.js'
export { ProviderProof } from './island/proof.js'
export type { ProofMonitoring, ProviderProofDocument } from './island/proof.js'
export { AREA_TARGET_FIELDS } from './island/targets.js'
export type { GradingFolder, GradingTarget, TargetScope } from './island/targets.js'
export { GRADING_DATA_ENV } from './island/root.js'
export type { ResolveRootResult, RootSource } from './island/root.js'
export { LAYOUT, NAME_PATTERNS } from './island/paths.js'
export type { NameKind } from './island/paths.js'
export type { ResolveLatestResult } from './island/resolve-latest.js'
export type { ImportedArtefact, ImportedSchema, ImportResult, SourceFile } from './island/import.js'
export type { ExportedFile, ExportResult, ExportTarget } from './island/export.js'
export type { WriteGradingResult } from './island/write-grading.js'
export { RebuildIndex } from './rollup/rebuild-index.js'
export type { RebuildResult } from './rollup/rebuild-index.js'
export { DEFAULT_READ_CONCURRENCY } from './rollup/read-listing.js'
export { INDEX_KEY_ORDER } from './rollup/index-json.js'
export { MIN_WORKING_TESTS, PENDING_REASONS } from './rollup/nodes.js'
export { PreConditionCheck } from './rollup/pre-condition.js'
export type { BlockedMember, PreConditionResult } from './rollup/pre-condition.js'
export { StablePromotion, STABLE_THRESHOLD } from './rollup/stable-promotion.js'
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
