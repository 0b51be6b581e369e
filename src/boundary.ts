import { createIssue } from './errors/issue.js'
import type { Issue } from './errors/types.js'
import { Areas } from './areas/areas.js'
import { Artifacts } from './artifacts/detect.js'
import { DeterministicAnswers } from './deterministic/answers.js'
import { ErrorCodes } from './errors/index.js'
import { fileUrlOf as fileUrlOfUnguarded } from './grade/loader.js'
import { gradeSelection } from './grade/selection.js'
import { gradeSingleSchema } from './grade/single-schema.js'
import { Grading } from './grading/grading.js'
import { validateGradingEntry } from './grading/validate-entry.js'
import { HashGenerator } from './hashing/hash-generator.js'
import { Island } from './island/island.js'
import { ProviderProof } from './island/proof.js'
import { SourceSnapshot } from './island/snapshot.js'
import { parseJson } from './json/guard.js'
import { selectLatest } from './naming/latest.js'
import { formatSnapshotFilename, parseSnapshotFilename, stripSnapshotFilename } from './naming/snapshot-filename.js'
import { DataPretest } from './pretest/data-pretest.js'
import { PromptBuilder } from './prompts/prompt-builder.js'
import { Redact } from './prompts/redact.js'
import { TaskId } from './prompts/task-id.js'
import { ScoringProtocol } from './protocol/scoring-protocol.js'
import { PreConditionCheck } from './rollup/pre-condition.js'
import { RebuildIndex } from './rollup/rebuild-index.js'
import { StablePromotion } from './rollup/stable-promotion.js'
import { KeyDomain, Tos } from './schema/key-domain.js'
import { SchemaCheck } from './schema/schema-check.js'
import { SecurityScan } from './schema/security-scan.js'
import { readModuleSource } from './schema/source-loader.js'
import { Scoring } from './scoring/scoring.js'
import { Veto } from './veto/veto.js'

/**
 * The one boundary of every public entry point. The input object is read once, inside a guard: its
 * own enumerable properties are copied into a plain snapshot, so a throwing getter or a hostile
 * Proxy fails here, as INT-002, and the function only ever sees plain data at its top level. Any
 * exception still escaping the function (a bug, or a nested hostile value) becomes INT-001 in the
 * function's own failure shape, never a throw or a rejection.
 */

// Any function; `guardFunction` hands back the exact type it was given.
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
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return { value: input, issue: null }
    try {
        const keys = Object.keys(input)
        // Define semantics: a `__proto__` key stays an own property of the copy.
        return { value: Object.fromEntries(keys.map((k) => [k, (input as Record<string, unknown>)[k]])), issue: null }
    } catch (cause) {
        return { value: undefined, issue: createIssue('INT-002', '', { fn, detail: detailOf(cause) }) }
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
    const shaped = (value: unknown): unknown => (value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value, errors: [issue] } : { errors: [issue] })
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
        const internal = (cause: unknown): unknown => failureOf(fn, createIssue('INT-001', '', { fn: name, detail: detailOf(cause) }), fallback)
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
        Object.defineProperty(cls, key, { value: guardFunction(`${name}.${key}`, method.bind(cls) as AnyFn), writable: true, configurable: true })
    }
    return cls
}

// The public classes, guarded in place (internal callers share the boundary).
guardStatics(Areas, 'Areas')
guardStatics(Artifacts, 'Artifacts')
guardStatics(DataPretest, 'DataPretest')
guardStatics(DeterministicAnswers, 'DeterministicAnswers')
guardStatics(ErrorCodes, 'ErrorCodes')
guardStatics(Grading, 'Grading')
guardStatics(HashGenerator, 'HashGenerator')
guardStatics(Island, 'Island')
guardStatics(KeyDomain, 'KeyDomain')
guardStatics(PreConditionCheck, 'PreConditionCheck')
guardStatics(PromptBuilder, 'PromptBuilder')
guardStatics(ProviderProof, 'ProviderProof')
guardStatics(RebuildIndex, 'RebuildIndex')
guardStatics(Redact, 'Redact')
guardStatics(SchemaCheck, 'SchemaCheck')
guardStatics(Scoring, 'Scoring')
guardStatics(ScoringProtocol, 'ScoringProtocol')
guardStatics(SecurityScan, 'SecurityScan')
guardStatics(SourceSnapshot, 'SourceSnapshot')
guardStatics(StablePromotion, 'StablePromotion')
guardStatics(TaskId, 'TaskId')
guardStatics(Tos, 'Tos')
guardStatics(Veto, 'Veto')

const fileUrlOfGuarded = guardFunction('fileUrlOf', ((path: unknown) => (typeof path === 'string' ? fileUrlOfUnguarded(path) : null)) as typeof fileUrlOfUnguarded, () => null)
const formatSnapshotFilenameGuarded = guardFunction('formatSnapshotFilename', formatSnapshotFilename)
const gradeSelectionGuarded = guardFunction('gradeSelection', gradeSelection)
const gradeSingleSchemaGuarded = guardFunction('gradeSingleSchema', gradeSingleSchema)
const parseJsonGuarded = guardFunction('parseJson', parseJson)
const parseSnapshotFilenameGuarded = guardFunction('parseSnapshotFilename', parseSnapshotFilename, () => null)
const readModuleSourceGuarded = guardFunction('readModuleSource', readModuleSource)
const selectLatestGuarded = guardFunction('selectLatest', selectLatest)
const stripSnapshotFilenameGuarded = guardFunction('stripSnapshotFilename', stripSnapshotFilename, () => null)
const validateGradingEntryGuarded = guardFunction('validateGradingEntry', validateGradingEntry)

export {
    Areas,
    Artifacts,
    DataPretest,
    DeterministicAnswers,
    ErrorCodes,
    Grading,
    HashGenerator,
    Island,
    KeyDomain,
    PreConditionCheck,
    PromptBuilder,
    ProviderProof,
    RebuildIndex,
    Redact,
    SchemaCheck,
    Scoring,
    ScoringProtocol,
    SecurityScan,
    SourceSnapshot,
    StablePromotion,
    TaskId,
    Tos,
    Veto,
    fileUrlOfGuarded as fileUrlOf,
    formatSnapshotFilenameGuarded as formatSnapshotFilename,
    gradeSelectionGuarded as gradeSelection,
    gradeSingleSchemaGuarded as gradeSingleSchema,
    parseJsonGuarded as parseJson,
    parseSnapshotFilenameGuarded as parseSnapshotFilename,
    readModuleSourceGuarded as readModuleSource,
    selectLatestGuarded as selectLatest,
    stripSnapshotFilenameGuarded as stripSnapshotFilename,
    validateGradingEntryGuarded as validateGradingEntry
}
