// The face's one boundary: every public entry point comes through here (guards in src/errors/guard.ts). The input
// object is read once, inside a guard, and any exception still escaping becomes INT-001 in the function's own
// failure shape, never a throw or a rejection.
import { fileUrlOf as fileUrlOfUnguarded } from './grade/loader.js'
import { gradeSelection as gradeSelectionUnguarded } from './grade/selection.js'
import { gradeSingleSchema as gradeSingleSchemaUnguarded } from './grade/single-schema.js'
import { gradeNamespace as gradeNamespaceUnguarded, gradeTree as gradeTreeUnguarded } from './grade/namespace.js'
import { isGradingEntry as isGradingEntryUnguarded } from './grading/validate-entry.js'
import { validateGradingEntry as validateGradingEntryUnguarded } from './intake/validate.js'
import { acceptGradingEntry as acceptGradingEntryUnguarded } from './intake/accept.js'
import { signGradingEntry as signGradingEntryUnguarded } from './grading/sign.js'
import { isQuestionId as isQuestionIdUnguarded } from './model/question-ids.js'
import { parseJson as parseJsonUnguarded } from './json/guard.js'
import { selectLatest as selectLatestUnguarded } from './naming/latest.js'
import {
    formatSnapshotFilename as formatSnapshotFilenameUnguarded,
    parseSnapshotFilename as parseSnapshotFilenameUnguarded,
    stripSnapshotFilename as stripSnapshotFilenameUnguarded
} from './naming/snapshot-filename.js'
import { neutraliseInvisible as neutraliseInvisibleUnguarded } from './injection/invisible.js'
import { readModuleSource as readModuleSourceUnguarded } from './schema/source-loader.js'
import { sourceLocations as sourceLocationsUnguarded } from './schema/locations.js'
import { renderIslandReport as renderIslandReportUnguarded } from './report/html-report.js'
import { checkSummaryMarkdown as checkSummaryMarkdownUnguarded } from './report/check-summary.js'
import { guardFunction } from './errors/guard.js'

// The public classes are guarded where they are defined (their one export is `guardStatics(XUnguarded, 'X')`), so
// the guard comes with every use a bundler keeps, internal callers' included (test/bundle-guard.test.ts bundles a
// consumer of gradeSingleSchema alone and holds it).
export { Areas } from './areas/areas.js'
export { Artifacts } from './artifacts/detect.js'
export { DeterministicAnswers } from './deterministic/answers.js'
export { ErrorCodes } from './report/error-codes.js'
export { Grading } from './grading/grading.js'
export { HashGenerator } from './hashing/hash-generator.js'
export { Island } from './island/island.js'
export { ProviderProof } from './island/proof.js'
export { SourceSnapshot } from './island/snapshot.js'
export { DataPretest } from './pretest/data-pretest.js'
export { FixList } from './fix/fix-list.js'
export { FixRules } from './fix/rules.js'
export { JudgeCost } from './grade/estimate.js'
export { PromptBuilder } from './prompts/prompt-builder.js'
export { Redact } from './prompts/redact.js'
export { TaskId } from './prompts/task-id.js'
export { ScoringProtocol } from './protocol/scoring-protocol.js'
export { PreConditionCheck } from './rollup/pre-condition.js'
export { RebuildIndex } from './rollup/rebuild-index.js'
export { StablePromotion } from './rollup/stable-promotion.js'
export { Standing } from './rollup/standing.js'
export { KeyDomain, Tos } from './schema/key-domain.js'
export { SchemaCheck } from './schema/schema-check.js'
export { SecurityScan } from './schema/security-scan.js'
export { InjectionScan } from './injection/scan.js'
export { Sarif } from './report/sarif.js'
export { Scoring } from './scoring/scoring.js'
export { Veto } from './veto/veto.js'
export { SelectionDefinition } from './selection/definition.js'
export { SelectionSkills } from './selection/skills.js'

// The public functions are wrapped here: each guard is a pure call, so a bundler drops the ones a consumer does
// not import (and their modules); internal callers call the unwrapped function and answer to their caller's guard.
export const checkSummaryMarkdown = /* @__PURE__ */ guardFunction('checkSummaryMarkdown', checkSummaryMarkdownUnguarded)
export const fileUrlOf = /* @__PURE__ */ guardFunction(
    'fileUrlOf',
    ((path: unknown) => (typeof path === 'string' ? fileUrlOfUnguarded(path) : null)) as typeof fileUrlOfUnguarded,
    () => null
)
export const formatSnapshotFilename = /* @__PURE__ */ guardFunction(
    'formatSnapshotFilename',
    formatSnapshotFilenameUnguarded
)
export const gradeSelection = /* @__PURE__ */ guardFunction('gradeSelection', gradeSelectionUnguarded)
export const gradeSingleSchema = /* @__PURE__ */ guardFunction('gradeSingleSchema', gradeSingleSchemaUnguarded)
export const gradeNamespace = /* @__PURE__ */ guardFunction('gradeNamespace', gradeNamespaceUnguarded)
export const gradeTree = /* @__PURE__ */ guardFunction('gradeTree', gradeTreeUnguarded)
export const neutraliseInvisible = /* @__PURE__ */ guardFunction(
    'neutraliseInvisible',
    neutraliseInvisibleUnguarded,
    () => ({ text: '', found: [], count: 0 })
)
export const parseJson = /* @__PURE__ */ guardFunction('parseJson', parseJsonUnguarded)
export const parseSnapshotFilename = /* @__PURE__ */ guardFunction(
    'parseSnapshotFilename',
    parseSnapshotFilenameUnguarded,
    () => null
)
export const renderIslandReport = /* @__PURE__ */ guardFunction('renderIslandReport', renderIslandReportUnguarded)
export const readModuleSource = /* @__PURE__ */ guardFunction('readModuleSource', readModuleSourceUnguarded)
export const sourceLocations = /* @__PURE__ */ guardFunction('sourceLocations', sourceLocationsUnguarded)
export const selectLatest = /* @__PURE__ */ guardFunction('selectLatest', selectLatestUnguarded)
export const stripSnapshotFilename = /* @__PURE__ */ guardFunction(
    'stripSnapshotFilename',
    stripSnapshotFilenameUnguarded,
    () => null
)
export const validateGradingEntry = /* @__PURE__ */ guardFunction('validateGradingEntry', validateGradingEntryUnguarded)
export const acceptGradingEntry = /* @__PURE__ */ guardFunction('acceptGradingEntry', acceptGradingEntryUnguarded)
export const signGradingEntry = /* @__PURE__ */ guardFunction('signGradingEntry', signGradingEntryUnguarded)
// A type guard answers false, never an issue, when its input cannot even be read.
export const isGradingEntry = /* @__PURE__ */ guardFunction('isGradingEntry', isGradingEntryUnguarded, () => false)
export const isQuestionId = /* @__PURE__ */ guardFunction('isQuestionId', isQuestionIdUnguarded, () => false)
