import { createEntryIssue } from './errors/entry-issue.js'
import type { Issue } from './errors/types.js'
import { Areas as AreasUnguarded } from './areas/areas.js'
import { Artifacts as ArtifactsUnguarded } from './artifacts/detect.js'
import { DeterministicAnswers as DeterministicAnswersUnguarded } from './deterministic/answers.js'
import { ErrorCodes as ErrorCodesUnguarded } from './errors/index.js'
import { fileUrlOf as fileUrlOfUnguarded } from './grade/loader.js'
import { gradeSelection as gradeSelectionUnguarded } from './grade/selection.js'
import { gradeSingleSchema as gradeSingleSchemaUnguarded } from './grade/single-schema.js'
import { gradeNamespace as gradeNamespaceUnguarded, gradeTree as gradeTreeUnguarded } from './grade/namespace.js'
import { Grading as GradingUnguarded } from './grading/grading.js'
import { isGradingEntry as isGradingEntryUnguarded } from './grading/validate-entry.js'
import { validateGradingEntry as validateGradingEntryUnguarded } from './intake/validate.js'
import { acceptGradingEntry as acceptGradingEntryUnguarded } from './intake/accept.js'
import { signGradingEntry as signGradingEntryUnguarded } from './grading/sign.js'
import { isQuestionId as isQuestionIdUnguarded } from './model/question-ids.js'
import { HashGenerator as HashGeneratorUnguarded } from './hashing/hash-generator.js'
import { Island as IslandUnguarded } from './island/island.js'
import { ProviderProof as ProviderProofUnguarded } from './island/proof.js'
import { SourceSnapshot as SourceSnapshotUnguarded } from './island/snapshot.js'
import { parseJson as parseJsonUnguarded } from './json/guard.js'
import { selectLatest as selectLatestUnguarded } from './naming/latest.js'
import {
    formatSnapshotFilename as formatSnapshotFilenameUnguarded,
    parseSnapshotFilename as parseSnapshotFilenameUnguarded,
    stripSnapshotFilename as stripSnapshotFilenameUnguarded
} from './naming/snapshot-filename.js'
import { DataPretest as DataPretestUnguarded } from './pretest/data-pretest.js'
import { FixList as FixListUnguarded } from './fix/fix-list.js'
import { FixRules as FixRulesUnguarded } from './fix/rules.js'
import { JudgeCost as JudgeCostUnguarded } from './grade/estimate.js'
import { PromptBuilder as PromptBuilderUnguarded } from './prompts/prompt-builder.js'
import { Redact as RedactUnguarded } from './prompts/redact.js'
import { TaskId as TaskIdUnguarded } from './prompts/task-id.js'
import { ScoringProtocol as ScoringProtocolUnguarded } from './protocol/scoring-protocol.js'
import { PreConditionCheck as PreConditionCheckUnguarded } from './rollup/pre-condition.js'
import { RebuildIndex as RebuildIndexUnguarded } from './rollup/rebuild-index.js'
import { StablePromotion as StablePromotionUnguarded } from './rollup/stable-promotion.js'
import { Standing as StandingUnguarded } from './rollup/standing.js'
import { KeyDomain as KeyDomainUnguarded, Tos as TosUnguarded } from './schema/key-domain.js'
import { SchemaCheck as SchemaCheckUnguarded } from './schema/schema-check.js'
import { SecurityScan as SecurityScanUnguarded } from './schema/security-scan.js'
import { InjectionScan as InjectionScanUnguarded } from './injection/scan.js'
import { neutraliseInvisible as neutraliseInvisibleUnguarded } from './injection/invisible.js'
import { readModuleSource as readModuleSourceUnguarded } from './schema/source-loader.js'
import { sourceLocations as sourceLocationsUnguarded } from './schema/locations.js'
import { Sarif as SarifUnguarded } from './report/sarif.js'
import { renderIslandReport as renderIslandReportUnguarded } from './report/html-report.js'
import { checkSummaryMarkdown as checkSummaryMarkdownUnguarded } from './report/check-summary.js'
import { Scoring as ScoringUnguarded } from './scoring/scoring.js'
import { Veto as VetoUnguarded } from './veto/veto.js'
import { SelectionDefinition as SelectionDefinitionUnguarded } from './selection/definition.js'
import { SelectionSkills as SelectionSkillsUnguarded } from './selection/skills.js'
import { isObject } from './model/object.js'

/**
 * The one boundary of every public entry point. The input object is read once, inside a guard: its
 * own enumerable properties are copied into a plain snapshot, so a throwing getter or a hostile
 * Proxy fails here, as INT-002, and the function only ever sees plain data at its top level. Any
 * exception still escaping the function (a bug, or a nested hostile value) becomes INT-001 in the
 * function's own failure shape, never a throw or a rejection.
 */

// Any function; `guardFunction` hands back the exact type it was given.
// biome-ignore lint/suspicious/noExplicitAny: only any[] parameters accept every typed parameter list
type AnyFn = (...args: any[]) => unknown

function detailOf(cause: unknown): string {
    try {
        if (cause instanceof Error) return `${cause.name}: ${String(cause.message).slice(0, 200)}`
    } catch {
        return 'unreadable error'
    }
    return typeof cause === 'string' ? cause.slice(0, 200) : 'non-error thrown'
}

/** A plain copy of the top level of `input`, or the issue reading it raised. */
export function snapshotInput(input: unknown, fn: string): { value: unknown; issue: Issue | null } {
    if (input === null || typeof input !== 'object') return { value: input, issue: null }
    try {
        // Inside the try: Array.isArray throws on a revoked Proxy.
        if (Array.isArray(input)) return { value: input, issue: null }
        const keys = Object.keys(input)
        // Define semantics: a `__proto__` key stays an own property of the copy. Every other key is
        // assigned, several times cheaper than building entries for Object.fromEntries on each call.
        if (keys.includes('__proto__'))
            return {
                value: Object.fromEntries(keys.map((k) => [k, (input as Record<string, unknown>)[k]])),
                issue: null
            }
        const value: Record<string, unknown> = {}
        for (let i = 0; i < keys.length; i++)
            value[keys[i] as string] = (input as Record<string, unknown>)[keys[i] as string]
        return { value, issue: null }
    } catch (cause) {
        return { value: undefined, issue: createEntryIssue('INT-002', '', { fn, detail: detailOf(cause) }) }
    }
}

/** The function's failure result for `issue`: its answer to no input, with `errors: [issue]`. */
function failureOf(fn: AnyFn, issue: Issue, fallback: (() => unknown) | undefined): unknown {
    if (fallback !== undefined) return fallback()
    let shape: unknown
    try {
        shape = fn(undefined)
    } catch {
        shape = undefined
    }
    const shaped = (value: unknown): unknown => (isObject(value) ? { ...value, errors: [issue] } : { errors: [issue] })
    if (shape instanceof Promise) return shape.then(shaped, () => ({ errors: [issue] }))
    return shaped(shape)
}

/**
 * Wraps one entry point: input snapshot, then the call; a throw or a rejection becomes INT-001.
 * @param name - how issues name the function
 * @param fn - the unguarded function (first argument = the input object)
 * @param fallback - the failure value when the function's result is not an object with `errors`
 */
export function guardFunction<F extends AnyFn>(name: string, fn: F, fallback?: () => unknown): F {
    const guarded = function (this: unknown, ...args: unknown[]): unknown {
        const snap = snapshotInput(args[0], name)
        if (snap.issue !== null) return failureOf(fn, snap.issue, fallback)
        const internal = (cause: unknown): unknown =>
            failureOf(fn, createEntryIssue('INT-001', '', { fn: name, detail: detailOf(cause) }), fallback)
        try {
            const result = fn.call(this, snap.value, ...args.slice(1))
            return result instanceof Promise ? result.catch(internal) : result
        } catch (cause) {
            return internal(cause)
        }
    }
    Object.defineProperty(guarded, 'name', { value: fn.name })
    return guarded as F
}

/** Guards every static method of a public class in place, so internal callers get the same boundary. */
export function guardStatics<C extends object>(cls: C, name: string): C {
    for (const key of Object.getOwnPropertyNames(cls)) {
        if (key === 'prototype' || key === 'length' || key === 'name') continue
        const method = (cls as Record<string, unknown>)[key]
        if (typeof method !== 'function') continue
        Object.defineProperty(cls, key, {
            value: guardFunction(`${name}.${key}`, method.bind(cls) as AnyFn),
            writable: true,
            configurable: true
        })
    }
    return cls
}

// The public entry points. Each guard is a pure call, so a bundler drops the ones a consumer does not
// import (and their modules); a guarded class is guarded in place, so internal callers share the boundary.
export const Areas = /* @__PURE__ */ guardStatics(AreasUnguarded, 'Areas')
export const Artifacts = /* @__PURE__ */ guardStatics(ArtifactsUnguarded, 'Artifacts')
export const DataPretest = /* @__PURE__ */ guardStatics(DataPretestUnguarded, 'DataPretest')
export const FixList = /* @__PURE__ */ guardStatics(FixListUnguarded, 'FixList')
export const FixRules = /* @__PURE__ */ guardStatics(FixRulesUnguarded, 'FixRules')
export const JudgeCost = /* @__PURE__ */ guardStatics(JudgeCostUnguarded, 'JudgeCost')
export const DeterministicAnswers = /* @__PURE__ */ guardStatics(DeterministicAnswersUnguarded, 'DeterministicAnswers')
export const ErrorCodes = /* @__PURE__ */ guardStatics(ErrorCodesUnguarded, 'ErrorCodes')
export const Grading = /* @__PURE__ */ guardStatics(GradingUnguarded, 'Grading')
export const HashGenerator = /* @__PURE__ */ guardStatics(HashGeneratorUnguarded, 'HashGenerator')
export const Island = /* @__PURE__ */ guardStatics(IslandUnguarded, 'Island')
export const KeyDomain = /* @__PURE__ */ guardStatics(KeyDomainUnguarded, 'KeyDomain')
export const PreConditionCheck = /* @__PURE__ */ guardStatics(PreConditionCheckUnguarded, 'PreConditionCheck')
export const PromptBuilder = /* @__PURE__ */ guardStatics(PromptBuilderUnguarded, 'PromptBuilder')
export const ProviderProof = /* @__PURE__ */ guardStatics(ProviderProofUnguarded, 'ProviderProof')
export const RebuildIndex = /* @__PURE__ */ guardStatics(RebuildIndexUnguarded, 'RebuildIndex')
export const Redact = /* @__PURE__ */ guardStatics(RedactUnguarded, 'Redact')
export const Sarif = /* @__PURE__ */ guardStatics(SarifUnguarded, 'Sarif')
export const SchemaCheck = /* @__PURE__ */ guardStatics(SchemaCheckUnguarded, 'SchemaCheck')
export const Scoring = /* @__PURE__ */ guardStatics(ScoringUnguarded, 'Scoring')
export const ScoringProtocol = /* @__PURE__ */ guardStatics(ScoringProtocolUnguarded, 'ScoringProtocol')
export const SecurityScan = /* @__PURE__ */ guardStatics(SecurityScanUnguarded, 'SecurityScan')
export const InjectionScan = /* @__PURE__ */ guardStatics(InjectionScanUnguarded, 'InjectionScan')
export const SelectionDefinition = /* @__PURE__ */ guardStatics(SelectionDefinitionUnguarded, 'SelectionDefinition')
export const SelectionSkills = /* @__PURE__ */ guardStatics(SelectionSkillsUnguarded, 'SelectionSkills')
export const SourceSnapshot = /* @__PURE__ */ guardStatics(SourceSnapshotUnguarded, 'SourceSnapshot')
export const StablePromotion = /* @__PURE__ */ guardStatics(StablePromotionUnguarded, 'StablePromotion')
export const Standing = /* @__PURE__ */ guardStatics(StandingUnguarded, 'Standing')
export const TaskId = /* @__PURE__ */ guardStatics(TaskIdUnguarded, 'TaskId')
export const Tos = /* @__PURE__ */ guardStatics(TosUnguarded, 'Tos')
export const Veto = /* @__PURE__ */ guardStatics(VetoUnguarded, 'Veto')

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
