import { Areas } from '../areas/areas.js'
import { DeterministicAnswers, DEFAULT_GRADER, type QuestionRow } from '../deterministic/answers.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { Grading } from '../grading/grading.js'
import type { AggregateResult } from '../grading/aggregate.js'
import { HashGenerator, schemaHashOfInspected } from '../hashing/hash-generator.js'
import { Island } from '../island/island.js'
import { Journal, writeAtomic } from '../island/fs-ops.js'
import { islandName, joinPath, LAYOUT } from '../island/paths.js'
import { inspectJson } from '../json/guard.js'
import { AREAS, HARNESSES, PROVIDER_AREAS, type AggregateGrade, type Area, type NodeStatus } from '../model/constants.js'
import type { CategoricalVeto, GradingAnswer, GradingEntry } from '../model/types.js'
import type { FsPort, LoadedModule } from '../ports/types.js'
import { DataPretest, type PretestResult } from '../pretest/data-pretest.js'
import { PromptBuilder } from '../prompts/prompt-builder.js'
import { Redact, redactSecretsDeep, redactSecretText, secretForms } from '../prompts/redact.js'
import { rollupGrade as worstNodeGrade } from '../rollup/nodes.js'
import { RebuildIndex } from '../rollup/rebuild-index.js'
import { KeyDomain } from '../schema/key-domain.js'
import { SchemaCheck } from '../schema/schema-check.js'
import { kebabCase } from '../naming/case.js'
import { isIsoDateTime, toFileTimestamp } from '../time.js'
import { readModuleSource } from '../schema/source-loader.js'
import { validateInspectedMain } from '../schema/validate-main.js'
import { askForOutput, envelopeFor, takeReplyModel, type UnitPlan } from './units.js'
import type { EmittedPrompt, GradeOptionsBase, GradeSingleSchemaInput, GradeSingleSchemaResult, GraderInput, SchemaGrading, UnitResult } from './types.js'

/** The options as read at run time: every field may be missing or wrong (the types cannot promise it). */
type GradeOptions = GradeOptionsBase

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)

// Derived from the catalogue constants, so built once; frozen, so the deterministic answers check it once.
let QUESTION_ROWS: readonly QuestionRow[] | null = null

/** All question rows of the catalogue, in the shape the deterministic answers take (one frozen list). */
export function questionRows(): readonly QuestionRow[] {
    QUESTION_ROWS ??= Object.freeze(AREAS.flatMap((area) => Areas.questions({ area }).questions.map((q) => Object.freeze({ id: q.id, area: q.area, weight: q.weight, determinism: q.determinism, dimension: q.dimension }))))
    return QUESTION_ROWS
}

/** A schema file's base: no folder, no `.mjs`/`.js`/`.json`. */
export function baseName(path: string): string {
    const name = path.replace(/\\/g, '/').split('/').pop() ?? path
    return name.replace(/\.(mjs|js|json)$/i, '')
}

/** Resolves the schema module: given as an object, or read from the syntax tree of `schemaPath` (never run unless the host passes a trustedLoader). */
async function resolveSchema(input: { schemaPath?: unknown; schema?: unknown }, options: GradeOptions, errors: Issue[]): Promise<{ main: Obj | null; source: string | null; fileBase: string | null; refused: boolean }> {
    if (input.schema !== undefined) {
        const mod = input.schema
        if (!isObj(mod)) {
            errors.push(createIssue('GRA-002', '/schema', { field: 'schema', expected: '{ main } or a main object', actual: typeOfValue(mod) }))
            return { main: null, source: null, fileBase: null, refused: false }
        }
        const main = isObj(mod.main) ? mod.main : isObj(mod.schema) ? mod.schema : mod
        return { main, source: options.source ?? null, fileBase: typeof input.schemaPath === 'string' ? baseName(input.schemaPath) : null, refused: false }
    }
    const path = input.schemaPath
    if (typeof path !== 'string' || path.length === 0) {
        errors.push(path === undefined ? createIssue('GRA-001', '/schemaPath', { field: 'schemaPath or schema' }) : createIssue('GRA-002', '/schemaPath', { field: 'schemaPath', expected: 'non-empty string', actual: typeOfValue(path) }))
        return { main: null, source: null, fileBase: null, refused: false }
    }
    const reader = options.sourceFs ?? options.fs
    if (reader === undefined) {
        errors.push(createIssue('GRA-004', '/options/sourceFs', { detail: 'pass options.sourceFs (or fs) so the source can be read' }))
        return { main: null, source: null, fileBase: null, refused: false }
    }
    let source: string | null
    try {
        source = await reader.readFile(path)
    } catch (cause) {
        errors.push(createIssue('GRA-004', '/schemaPath', { detail: cause instanceof Error ? cause.message : 'read failed' }))
        return { main: null, source: null, fileBase: null, refused: false }
    }
    if (source === null) {
        errors.push(createIssue('GRA-004', '/schemaPath', { detail: `no file at ${path}` }))
        return { main: null, source: null, fileBase: null, refused: false }
    }
    // The source is read from its syntax tree, never run; only a host's explicit trustedLoader imports it.
    const trusted = options.trustedLoader
    let mod: LoadedModule
    if (trusted !== undefined) {
        try {
            mod = await trusted.load(path)
        } catch (cause) {
            errors.push(createIssue('GRA-003', '/schemaPath', { detail: cause instanceof Error ? cause.message : 'load failed' }))
            return { main: null, source, fileBase: baseName(path), refused: false }
        }
    } else {
        const read = readModuleSource({ source })
        errors.push(...read.errors.map((e) => ({ ...e, path: '/schemaPath' })))
        if (read.module === null) return { main: null, source, fileBase: baseName(path), refused: true }
        mod = read.module
    }
    const main = isObj(mod) ? (isObj(mod.main) ? mod.main : isObj(mod.schema) ? mod.schema : null) : null
    if (main === null) errors.push(trusted !== undefined ? createIssue('GRA-003', '/schemaPath', { detail: 'the module exports neither main nor schema' }) : createIssue('SRC-005', '/schemaPath'))
    return { main, source, fileBase: baseName(path), refused: false }
}

function isStringRecord(value: unknown): value is Record<string, string> {
    return isObj(value) && Object.values(value).every((v) => typeof v === 'string')
}

/** Resolves `options.serverParams` for the loaded schema's required keys. */
export function serverParamsFor(option: GradeOptions['serverParams'], main: Obj, errors: Issue[]): Record<string, string> {
    if (option === undefined) return {}
    if (typeof option !== 'function') return { ...option }
    const keys = Array.isArray(main.requiredServerParams) ? main.requiredServerParams.filter((k): k is string => typeof k === 'string') : []
    try {
        const values: unknown = option(keys)
        if (isStringRecord(values)) return { ...values }
        errors.push(createIssue('GRA-002', '/options/serverParams', { field: 'serverParams()', expected: 'object of strings', actual: typeOfValue(values) }))
    } catch (cause) {
        errors.push(createIssue('GRA-002', '/options/serverParams', { field: 'serverParams()', expected: 'a function that returns', actual: cause instanceof Error ? cause.name : 'a throw' }))
    }
    return {}
}

function checkOptions(options: unknown, errors: Issue[]): GradeOptions {
    if (options === undefined) return {}
    if (!isObj(options)) {
        errors.push(createIssue('GRA-002', '/options', { field: 'options', expected: 'object', actual: typeOfValue(options) }))
        return {}
    }
    const o = options as GradeOptions
    const fn = (key: 'judge' | 'sleep'): void => {
        if (o[key] !== undefined && typeof o[key] !== 'function') errors.push(createIssue('GRA-002', `/options/${key}`, { field: key, expected: 'function', actual: typeOfValue(o[key]) }))
    }
    fn('judge')
    fn('sleep')
    if (o.trustedLoader !== undefined && !(isObj(o.trustedLoader) && typeof o.trustedLoader.load === 'function')) errors.push(createIssue('GRA-002', '/options/trustedLoader', { field: 'trustedLoader', expected: '{ load(path) }', actual: typeOfValue(o.trustedLoader) }))
    if ((o.fs === undefined) !== (o.root === undefined)) errors.push(createIssue('GRA-001', o.fs === undefined ? '/options/fs' : '/options/root', { field: o.fs === undefined ? 'fs (with root)' : 'root (with fs)' }))
    if (o.answers !== undefined && !isObj(o.answers)) errors.push(createIssue('GRA-002', '/options/answers', { field: 'answers', expected: 'object keyed by unit', actual: typeOfValue(o.answers) }))
    if (o.serverParams !== undefined && typeof o.serverParams !== 'function' && !isStringRecord(o.serverParams)) {
        errors.push(createIssue('GRA-002', '/options/serverParams', { field: 'serverParams', expected: 'object of strings or a function', actual: typeOfValue(o.serverParams) }))
    }
    // One issue per wrong option, never one per character or item.
    if (o.about !== undefined && !(isObj(o.about) && typeof o.about.text === 'string')) errors.push(createIssue('GRA-002', '/options/about', { field: 'about', expected: '{ name?, text }', actual: typeOfValue(o.about) }))
    if (o.skills !== undefined) {
        const skills: unknown = o.skills
        const bad = Array.isArray(skills) ? skills.findIndex((s: unknown) => !(isObj(s) && typeof s.name === 'string' && typeof s.text === 'string')) : -2
        if (bad !== -1) errors.push(createIssue('GRA-002', bad >= 0 ? `/options/skills/${bad}` : '/options/skills', { field: 'skills', expected: 'array of { name, text, skill? }', actual: typeOfValue(bad >= 0 ? (skills as unknown[])[bad] : skills) }))
    }
    if (o.root !== undefined && typeof o.root !== 'string') errors.push(createIssue('GRA-002', '/options/root', { field: 'root', expected: 'string', actual: typeOfValue(o.root) }))
    return o
}

/** Checks the LLM grader identity; `needed` when a judge or answers will supply non-deterministic answers. */
export function checkGrader(grader: unknown, needed: boolean, errors: Issue[]): GraderInput | null {
    if (grader === undefined && !needed) return null
    if (!isObj(grader)) {
        errors.push(createIssue(grader === undefined ? 'GRA-001' : 'GRA-002', '/grader', { field: 'grader', expected: '{ name, version, llmModel, persona }', actual: typeOfValue(grader) }))
        return null
    }
    for (const key of ['name', 'version', 'llmModel'] as const) {
        if (typeof grader[key] !== 'string' || (grader[key] as string).length === 0) errors.push(createIssue('GRA-002', `/grader/${key}`, { field: key, expected: 'non-empty string', actual: typeOfValue(grader[key]) }))
    }
    if (needed && !isObj(grader.persona)) errors.push(createIssue('GRA-009', '/grader/persona', { detail: 'grader.persona is required when a judge or answers supply non-deterministic answers' }))
    if (grader.harness !== undefined && !(HARNESSES as readonly unknown[]).includes(grader.harness)) errors.push(createIssue('GRA-002', '/grader/harness', { field: 'harness', expected: HARNESSES.join(' | '), actual: describeValue(grader.harness) }))
    return grader as unknown as GraderInput
}

/** The time of the run: `now`, else `clock.now()` (a throwing clock counts as none). */
export function nowOf(options: Pick<GradeOptions, 'now' | 'clock'>, errors: Issue[]): string | null {
    let now: unknown = options.now
    if (now === undefined && options.clock !== undefined) {
        try {
            now = options.clock.now()
        } catch {
            now = undefined
        }
    }
    if (now === undefined) {
        errors.push(createIssue('GRA-001', '/options/now', { field: 'now (or clock)' }))
        return null
    }
    if (!isIsoDateTime(now)) {
        errors.push(createIssue('GRD-046', '/options/now', { value: describeValue(now) }))
        return null
    }
    return now
}

/** Splits deterministic answers into the catalogue's (merged by the area conversion) and the extras (added after it). */
function splitAnswers(area: Area, answers: readonly GradingAnswer[]): { catalogue: GradingAnswer[]; extra: GradingAnswer[] } {
    const ids = new Set(Areas.questions({ area }).questions.filter((q) => q.determinism === 'deterministic').map((q) => q.id))
    return { catalogue: answers.filter((a) => ids.has(a.questionId)), extra: answers.filter((a) => !ids.has(a.questionId)) }
}

function toDeterministicInput(answers: readonly GradingAnswer[]): Array<Record<string, unknown>> {
    return answers.map((a) => ({
        questionId: a.questionId,
        score: a.score,
        ...(a.naReason !== undefined ? { naReason: a.naReason } : {}),
        ...(a.reasoning !== undefined ? { reasoning: a.reasoning } : {}),
        ...(a.evidence !== undefined ? { evidence: a.evidence } : {}),
        timestamp: a.timestamp
    }))
}

/**
 * The headline grade: the worst grade over the units that have one, as `index.json` rolls its nodes
 * up (03 ⚠ C15); provisional units count with their deterministic aggregate. Shared with gradeNamespace.
 */
export function headlineGrade(units: readonly UnitResult[], kept: readonly string[] = []): string | null {
    const nodes = units
        .filter((u) => u.aggregateGrade !== null && (u.status === 'graded' || u.status === 'provisional' || u.status === 'rejected'))
        .map((u) => ({ status: (u.status === 'rejected' ? 'rejected' : 'graded') as NodeStatus, grade: u.aggregateGrade as AggregateGrade }))
    // Grades kept from an earlier run (a resumed schema) count as graded nodes.
    const earlier = kept.map((grade) => ({ status: (grade === 'REJECTED' ? 'rejected' : 'graded') as NodeStatus, grade: grade as AggregateGrade }))
    return worstNodeGrade([...nodes, ...earlier]) ?? null
}

/** The result row of one unit. */
export function unitResult(plan: UnitPlan, status: UnitResult['status'], extra: Partial<UnitResult> = {}): UnitResult {
    return { unit: plan.unit, area: plan.area, target: plan.target, status, aggregateGrade: null, rawGrade: null, normalizedScore: null, reason: null, written: null, ...extra }
}

/**
 * Grades one FlowMCP v4 schema end to end: reads it from its syntax tree (never run; handlers never called),
 * validates it, scans it, checks its key names against its host, runs the live pretest when an
 * `http` port is given, computes every deterministic answer, and for each provider area unit either
 * asks the injected `judge`, takes a pre-collected answer, or returns the area prompt to send. With a
 * judge or answers every unit becomes a spec-conformant entry (checked by `validateGradingEntry`);
 * without them the result is provisional: deterministic aggregates, prompts, nothing written. With
 * `fs` and `root` the schema is imported into the island, entries are written, and the index rebuilt.
 * Never throws.
 * @param input - `{ schemaPath | schema, schemaId?, grader, options }`
 * @returns `{ grading, entries, prompts, provisional, errors }`; GRA-* plus the codes of every step
 * @example await gradeSingleSchema({ schema: { main }, grader, options: { now: '2026-11-22T10:00:00Z', judge } })
 */
export async function gradeSingleSchema(input: GradeSingleSchemaInput): Promise<GradeSingleSchemaResult> {
    return (await gradeSchemaCore(input, { namespaceAreas: true })).result
}

/** What a namespace run needs to know of one graded schema. */
export interface SchemaRunContext {
    readonly schemaId: string
    readonly namespace: string
    readonly slug: string
    readonly schemaFolder: string
    readonly schemaHash: string
    readonly version: string
    readonly main: Readonly<Record<string, unknown>>
    readonly schemaText: string
    /** `schemaText` as redacted for this schema's prompts, and the server params it was redacted with. */
    readonly redacted: { readonly serverParams: Readonly<Record<string, string>>; readonly text: string }
    readonly veto: CategoricalVeto | null
    /** Its tools-aggregate-schema grade is A or B. */
    readonly stable: boolean
    readonly aboutDeclared: boolean
}

/**
 * One schema, with or without the namespace-level areas: `gradeSingleSchema` grades them from this
 * schema's view; `gradeNamespace` grades them once for all its schemas and asks for the schema's own
 * areas only.
 */
export async function gradeSchemaCore(input: GradeSingleSchemaInput, mode: { namespaceAreas: boolean; resumable?: boolean }): Promise<{ result: GradeSingleSchemaResult; context: SchemaRunContext | null; resumed: boolean }> {
    let context: SchemaRunContext | null = null
    let resumed = false
    const result = await gradeSchemaInner(input, mode, (c) => {
        context = c
    }, () => {
        resumed = true
    })
    return { result, context, resumed }
}

async function gradeSchemaInner(input: GradeSingleSchemaInput, scope: { namespaceAreas: boolean; resumable?: boolean }, expose: (c: SchemaRunContext) => void, markResumed: () => void): Promise<GradeSingleSchemaResult> {
    const errors: Issue[] = []
    const fail = (): GradeSingleSchemaResult => ({ grading: null, entries: [], prompts: [], provisional: {}, errors })
    if (!isObj(input)) {
        errors.push(createIssue('GRA-002', '', { field: 'input', expected: 'object', actual: typeOfValue(input) }))
        return fail()
    }
    const options = checkOptions(input.options, errors)
    const answersGiven = options.judge !== undefined || options.answers !== undefined
    const grader = checkGrader(input.grader, answersGiven, errors)
    const now = nowOf(options, errors)
    if (input.schemaId !== undefined && typeof input.schemaId !== 'string') errors.push(createIssue('GRA-002', '/schemaId', { field: 'schemaId', expected: 'string', actual: typeOfValue(input.schemaId) }))
    if (input.fileName !== undefined && typeof input.fileName !== 'string') errors.push(createIssue('GRA-002', '/fileName', { field: 'fileName', expected: 'string', actual: typeOfValue(input.fileName) }))
    if (errors.length > 0 || now === null) return fail()

    const resolved = await resolveSchema(input, options, errors)
    if (resolved.main === null) return fail()
    const main = resolved.main
    const guard = inspectJson(main, undefined, '/schema/main')
    if (guard.length > 0) {
        errors.push(...guard)
        return fail()
    }
    // main passed inspectJson just above: validated without walking it again.
    const structural = validateInspectedMain(main)
    const validation = { valid: !structural.some((i) => i.severity === 'error'), errors: structural }
    errors.push(...validation.errors.map((i) => ({ ...i, path: '/schema/main' + i.path })))
    const namespace = typeof main.namespace === 'string' ? main.namespace : null
    if (namespace === null || !isObj(main.tools)) return fail()
    const version = SchemaCheck.normalizeVersion({ version: main.version }).version
    if (version === null) return fail()
    // One id everywhere (01-model ⚠ A14, the public registry): `<namespace>.<file base>`.
    const fileBase = resolved.fileBase ?? (typeof input.fileName === 'string' ? baseName(input.fileName) : null)
    let slug = input.schemaId?.split('.')[1] ?? fileBase
    if (slug === undefined || slug === null) {
        slug = kebabCase(typeof main.name === 'string' ? main.name : 'schema')
        errors.push(createIssue('GRA-020', '/fileName', { schemaId: `${namespace}.${slug}` }))
    }
    const schemaId = input.schemaId ?? `${namespace}.${slug}`
    if (schemaId.split('.')[0] !== namespace) {
        errors.push(createIssue('GRA-017', '/schemaId', { value: schemaId, namespace }))
        return fail()
    }
    // Folder names in the island: the runtime's names mapped through the reversible islandName.
    const schemaFolder = islandName(slug, 'schema')
    if (schemaFolder === null) {
        errors.push(createIssue('GRA-002', '/schemaId', { field: 'schema slug', expected: 'a name of at most 200 characters once escaped', actual: describeValue(slug) }))
        return fail()
    }
    const serverParams = serverParamsFor(options.serverParams, main, errors)
    // Every host-given value is erased from whatever leaves the library or reaches a file.
    const secrets = secretForms(serverParams)
    // The island stores a source holding a key redacted, so the hash is of that stored form. `main`
    // passed inspectJson above, and redacting strings keeps it plain JSON.
    const hashed = schemaHashOfInspected(redactSecretsDeep(main, secrets))
    if (hashed.short === null) {
        errors.push(...hashed.errors)
        return fail()
    }
    const schemaHash = hashed.short
    if (scope.resumable === true && options.fs !== undefined && options.root !== undefined) {
        const previous = await gradedBefore(options.fs, options.root, namespace, schemaFolder, schemaHash)
        if (previous !== null) {
            markResumed()
            errors.push(createIssue('GRA-012', '', { unit: schemaId, reason: `already graded for schema hash ${schemaHash} (${previous.grade ?? 'no grade'}); pass force to grade again` }))
            const units: UnitResult[] = []
            return {
                grading: { schemaId, namespace, schema: slug, schemaHash, version, gradingTier: 'autonomous', maxAttainableGrade: 'B', mode: 'full', grade: previous.grade, schemaGrade: previous.grade, rawGrade: null, unitGrades: {}, rollupGrade: null, veto: null, units, pretest: { ran: false, reason: null, ok: false, blocked: [] }, indexPath: null, rollupStatus: null },
                entries: [],
                prompts: [],
                provisional: {},
                errors
            }
        }
    }

    const keyDomain = KeyDomain.check({ main })
    const pretest: PretestResult = await DataPretest.run({
        main,
        validation,
        keyDomain,
        http: options.http ?? null,
        serverParams,
        now,
        ...(options.minWorkingTests !== undefined ? { minWorkingTests: options.minWorkingTests } : {}),
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.throttleMs !== undefined ? { throttleMs: options.throttleMs } : {}),
        ...(options.sleep !== undefined ? { sleep: options.sleep } : {})
    })
    errors.push(...pretest.errors)
    const questions = questionRows()
    const aboutDeclared = isObj(main.resources) && isObj(main.resources.about)
    const deterministic = DeterministicAnswers.build({
        main,
        ...(resolved.source !== null ? { source: resolved.source } : {}),
        pretest,
        validation,
        keyDomain,
        questions,
        now,
        ...(aboutDeclared ? { aboutFileExists: options.about !== undefined } : {})
    })
    errors.push(...deterministic.errors)
    const namespaceAnswers = DeterministicAnswers.buildNamespace({ schemas: [{ main, schemaId }], questions, now, ...(aboutDeclared ? { aboutFileExists: options.about !== undefined } : {}) })
    errors.push(...namespaceAnswers.errors)
    const veto: CategoricalVeto | null = deterministic.veto

    // The units of this run, in the order they are graded.
    const tools = Object.keys(main.tools)
    const plans: UnitPlan[] = [
        ...tools.map((tool): UnitPlan => {
            const notes = deterministic.deferred.filter((d) => d.area === 'single-test' && (d.tool === undefined || d.tool === tool)).map((d) => d.note)
            return { unit: `single-test/${tool}`, area: 'single-test', target: { namespace, schema: schemaFolder, tool: islandName(tool, 'tool') ?? tool }, deterministic: deterministic.byArea['single-test'][tool] ?? [], focus: tool, ...(notes.length > 0 ? { notes } : {}) }
        }),
        { unit: 'tools-aggregate-schema', area: 'tools-aggregate-schema', target: { namespace, schema: schemaFolder }, deterministic: deterministic.byArea['tools-aggregate-schema'], focus: null },
        { unit: 'tools-aggregate-namespace', area: 'tools-aggregate-namespace', target: { namespace }, deterministic: namespaceAnswers.byArea['tools-aggregate-namespace'], focus: null },
        { unit: 'namespace-description', area: 'namespace-description', target: { namespace }, deterministic: [], focus: null },
        ...(options.skills ?? []).map((s): UnitPlan => ({ unit: `namespace-skills/${s.name}`, area: 'namespace-skills', target: { namespace, schema: schemaFolder, skill: s.name }, deterministic: [], focus: s.name, skillId: s.name })),
        { unit: 'about-namespace', area: 'about-namespace', target: { namespace, schema: schemaFolder }, deterministic: deterministic.byArea['about-namespace'], focus: null }
    ]
    if (!scope.namespaceAreas) plans.splice(0, plans.length, ...plans.filter((p) => p.area === 'single-test' || p.area === 'tools-aggregate-schema'))
    const known = new Set(plans.map((p) => p.unit))
    for (const key of Object.keys(options.answers ?? {})) {
        if (!known.has(key)) errors.push(createIssue('GRA-015', pointer('options', 'answers', key), { unit: key }))
    }

    const aboutHash = options.about !== undefined ? HashGenerator.hashBytes({ text: options.about.text }).short ?? undefined : undefined
    const schemaText = resolved.source ?? `export const main = ${JSON.stringify(main, null, 4)}\n`
    const redactedText = Redact.text({ text: schemaText, serverParams }).text ?? ''
    const attachments = [
        { name: `${slug}.mjs`, role: 'the FlowMCP v4 schema under grading', content: redactedText },
        ...(options.about !== undefined ? [{ name: options.about.name ?? `${namespace}-about.md`, role: 'the namespace About', content: Redact.text({ text: options.about.text, serverParams }).text ?? '' }] : []),
        ...(options.skills ?? []).map((s) => ({ name: `skills/${s.name}.mjs`, role: `namespace skill ${s.name}`, content: Redact.text({ text: s.text, serverParams }).text ?? '' }))
    ]
    const ran = await runPlans(plans, { schemaId, version, schemaHash, now, grader, options, answersGiven, attachments, serverParams, secrets, errors, veto, blockedTools: new Map(pretest.blocked.map((b) => [b.tool, b.reason])), aboutDeclared, namespace, aboutHash, stable: false })
    const { units, entries, prompts, provisional } = ran

    const mode: 'full' | 'provisional' = units.some((u) => u.status === 'provisional') ? 'provisional' : 'full'
    if (mode === 'provisional') errors.push(createIssue('GRA-014', ''))

    let indexPath: string | null = null
    let rollupStatus: string | null = null
    let rollupGrade: string | null = null
    if (options.fs !== undefined && options.root !== undefined) {
        const written = await writeIsland({ fs: options.fs, root: options.root, now, namespace, slug, schemaText, main, options, pretest, entries, units, errors, secrets })
        indexPath = written.indexPath
        rollupStatus = written.rollupStatus
        rollupGrade = written.rollupGrade
    }
    const schemaUnit = units.find((u) => u.area === 'tools-aggregate-schema')
    expose({ schemaId, namespace, slug, schemaFolder, schemaHash, version, main, schemaText, redacted: { serverParams, text: redactedText }, veto, stable: schemaUnit?.aggregateGrade === 'A' || schemaUnit?.aggregateGrade === 'B', aboutDeclared })
    const grading: SchemaGrading = {
        schemaId,
        namespace,
        schema: slug,
        schemaHash,
        version,
        gradingTier: 'autonomous',
        maxAttainableGrade: 'B',
        mode,
        grade: veto !== null ? 'REJECTED' : headlineGrade(units),
        schemaGrade: veto !== null ? 'REJECTED' : (schemaUnit?.aggregateGrade ?? null),
        rawGrade: schemaUnit?.rawGrade ?? null,
        unitGrades: Object.fromEntries(units.map((u) => [u.unit, u.aggregateGrade])),
        rollupGrade,
        veto,
        units,
        pretest: { ran: pretest.ran, reason: pretest.reason, ok: pretest.ok, blocked: pretest.blocked },
        indexPath,
        rollupStatus
    }
    return redactSecretsDeep({ grading, entries: entries.map((e) => e.entry), prompts, provisional, errors }, secrets)
}

/** The grade of a schema node already graded for this hash (its `tools-aggregate-schema` entry), or null. */
async function gradedBefore(fs: FsPort, root: string, namespace: string, folder: string, schemaHash: string): Promise<{ grade: string | null } | null> {
    const nsDir = joinPath(root.replace(/\/+$/, ''), LAYOUT.providers, namespace)
    try {
        const text = await fs.readFile(joinPath(nsDir, LAYOUT.index))
        if (text === null) return null
        const index = JSON.parse(text) as { schemas?: Record<string, { status?: string; grade?: string; toolsAggregate?: { boundTo?: string } }> }
        const node = index.schemas?.[folder]
        // Graded and bound to this very content: the same inputs were graded before.
        if (node === undefined || (node.status !== 'graded' && node.status !== 'stable') || node.toolsAggregate?.boundTo !== schemaHash) return null
        return { grade: typeof node.grade === 'string' ? node.grade : null }
    } catch {
        // Unreadable or not JSON: not known as graded, so it is graded again.
        return null
    }
}

/** What one run of area units needs: the identity of the entries it writes and the sources of its answers. */
export interface PlanContext {
    readonly schemaId: string
    readonly version: string
    readonly schemaHash: string
    readonly now: string
    readonly grader: GraderInput | null
    readonly options: GradeOptions
    readonly answersGiven: boolean
    readonly attachments: EmittedPrompt['attachments']
    readonly serverParams: Readonly<Record<string, string>>
    readonly secrets: readonly string[]
    readonly errors: Issue[]
    readonly veto: CategoricalVeto | null
    readonly blockedTools: ReadonlyMap<string, string>
    readonly aboutDeclared: boolean
    readonly namespace: string
    readonly aboutHash: string | undefined
    /** Whether the schema the About hangs on is already stable (02-areas ⚠ B8) before this run. */
    readonly stable: boolean
    /** Answers keyed by unit for this run; `options.answers` when omitted. */
    readonly answers?: Readonly<Record<string, unknown>>
}

/** Grades each planned unit in order: veto cascade, blocked tools, gates, then the judge, an answer or a returned prompt. */
export async function runPlans(plans: readonly UnitPlan[], ctx: PlanContext): Promise<{ units: UnitResult[]; entries: Array<{ plan: UnitPlan; entry: GradingEntry }>; prompts: EmittedPrompt[]; provisional: Record<string, AggregateResult> }> {
    const { schemaId, version, schemaHash, now, grader, answersGiven, attachments, serverParams, secrets, errors, veto, blockedTools, aboutDeclared, namespace, aboutHash } = ctx
    const options: GradeOptions = ctx.answers !== undefined ? { ...ctx.options, answers: ctx.answers } : ctx.options
    const stamp = toFileTimestamp(now) as string
    const units: UnitResult[] = []
    const entries: Array<{ plan: UnitPlan; entry: GradingEntry }> = []
    const prompts: EmittedPrompt[] = []
    const provisional: Record<string, AggregateResult> = {}
    const provider = new Set<string>(PROVIDER_AREAS)
    let schemaStable = ctx.stable

    for (const plan of plans) {
        if (!provider.has(plan.area)) continue
        if (veto !== null) {
            // Cascade stop (02-areas §3.3): the schema's own areas carry the veto, the rest do not run.
            if (plan.area === 'single-test' || plan.area === 'tools-aggregate-schema') {
                const answers = plan.deterministic.length > 0 ? plan.deterministic : []
                if (answers.length === 0) {
                    units.push(unitResult(plan, 'skipped', { reason: 'no deterministic answer to carry the veto' }))
                    continue
                }
                const created = Grading.createEntry({ schemaId, area: plan.area, version, schemaHash, gradingMode: 'full', now, gradings: answers, categoricalVeto: veto })
                if (created.entry === null || created.entry.aggregateGrade === null) {
                    errors.push(...created.errors)
                    units.push(unitResult(plan, 'error', { reason: 'the vetoed entry did not validate' }))
                    continue
                }
                entries.push({ plan, entry: created.entry as GradingEntry })
                units.push(unitResult(plan, 'rejected', { aggregateGrade: 'REJECTED', reason: `categorical veto: ${veto.triggeredBy}` }))
            } else {
                errors.push(createIssue('GRA-013', '', { unit: plan.unit, trigger: veto.triggeredBy }))
                units.push(unitResult(plan, 'skipped', { reason: `cascade stop after the ${veto.triggeredBy} veto` }))
            }
            continue
        }
        if (plan.area === 'single-test' && plan.focus !== null && blockedTools.has(plan.focus)) {
            const reason = blockedTools.get(plan.focus) as string
            errors.push(createIssue('GRA-011', '', { unit: plan.unit, reason }))
            units.push(unitResult(plan, 'blocked', { reason }))
            continue
        }
        if (plan.area === 'about-namespace') {
            // Without a judge or answers stability is unknown yet: the prompt is returned so a harness can answer it ahead.
            const stabilityKnown = answersGiven
            const why = !aboutDeclared ? 'the schema declares no about resource' : options.about === undefined ? 'no About text was supplied (options.about)' : stabilityKnown && !schemaStable ? 'the schema is not stable yet (02-areas ⚠ B8)' : null
            if (why !== null) {
                errors.push(createIssue('GRA-012', '', { unit: plan.unit, reason: why }))
                units.push(unitResult(plan, !aboutDeclared ? 'skipped' : 'gated', { reason: why }))
                continue
            }
        }
        const persona = grader?.persona
        const personaRequired = PromptBuilder.isPersonaRequired({ area: plan.area }).personaRequired === true
        if (personaRequired && persona === undefined) {
            // Only reachable without a judge or answers (checkGrader requires a persona then): no persona, no prompt.
            const reason = 'a persona-bound area needs grader.persona to build its prompt'
            errors.push(createIssue('GRA-012', '', { unit: plan.unit, reason }))
            units.push(unitResult(plan, 'gated', { reason }))
            continue
        }
        const envelope = envelopeFor({ plan, schemaHash, stamp, now, persona: personaRequired ? (persona ?? null) : null, harness: grader?.harness })
        const request = askForOutput({ plan, envelope, attachments, serverParams, errors })
        if (request === null) {
            units.push(unitResult(plan, 'error', { reason: 'the area prompt could not be built' }))
            continue
        }
        const reply = await obtainOutput(plan, request, options, errors, secrets)
        if (reply.kind === 'none') {
            prompts.push(request)
            // A deterministic-only entry is not a valid area grading (S7), so only its aggregate is reported.
            const aggregate = plan.deterministic.length > 0 ? Grading.computeAggregateGrade({ entry: { area: plan.area, gradingTier: 'autonomous', gradingMode: 'full', categoricalVeto: null, gradings: plan.deterministic } }) : null
            if (aggregate !== null) provisional[plan.unit] = aggregate
            units.push(unitResult(plan, 'provisional', { aggregateGrade: aggregate?.aggregateGrade ?? null, rawGrade: aggregate?.rawGrade ?? null, normalizedScore: aggregate?.normalizedScore ?? null, reason: 'waiting for the non-deterministic answers' }))
            continue
        }
        if (reply.kind === 'error') {
            units.push(unitResult(plan, 'error', { reason: reply.reason }))
            continue
        }
        const { catalogue, extra } = splitAnswers(plan.area, plan.deterministic)
        const converted = Areas.toGradingEntry({
            output: reply.output,
            deterministic: toDeterministicInput(catalogue),
            context: {
                schemaId,
                version,
                schemaHash,
                gradingMode: 'full',
                now,
                grader: { name: (grader as GraderInput).name, version: (grader as GraderInput).version },
                llmModel: reply.model ?? (grader as GraderInput).llmModel,
                scriptGrader: { name: DEFAULT_GRADER.name, version: DEFAULT_GRADER.version },
                selectionContext: { groupId: grader?.groupId ?? namespace, personaIds: persona !== undefined ? [persona.basePersonaId] : [] },
                ...areaExtras(plan, persona, aboutHash)
            }
        })
        if (converted.blocker !== null) {
            const reason = `the grader reported a blocker: ${converted.blocker.blocker} (${converted.blocker.reason})`
            errors.push(createIssue('GRA-011', '', { unit: plan.unit, reason }))
            units.push(unitResult(plan, 'blocked', { reason }))
            continue
        }
        if (converted.entry === null) {
            const detail = converted.errors.slice(0, 3).map((e) => `${e.code} at ${e.path || '/'}: ${e.message}`).join('; ') + (converted.errors.length > 3 ? `; +${converted.errors.length - 3} more` : '')
            errors.push(createIssue('GRA-018', '', { unit: plan.unit, detail }), ...converted.errors.map((e) => ({ ...e, path: `/units/${plan.unit.replace(/\//g, '~1')}${e.path}` })))
            units.push(unitResult(plan, 'error', { reason: 'the area output was rejected' }))
            continue
        }
        let entry: GradingEntry = converted.entry
        for (const answer of extra) {
            const added = Grading.addGrading({ entry, grading: answer })
            if (added.entry === null) {
                errors.push(...added.errors)
                continue
            }
            entry = added.entry as GradingEntry
        }
        const aggregate = Grading.computeAggregateGrade({ entry })
        entries.push({ plan, entry })
        if (plan.area === 'tools-aggregate-schema') schemaStable = entry.aggregateGrade === 'A' || entry.aggregateGrade === 'B'
        units.push(unitResult(plan, entry.aggregateGrade === 'REJECTED' ? 'rejected' : 'graded', { aggregateGrade: entry.aggregateGrade, rawGrade: aggregate.rawGrade, normalizedScore: aggregate.normalizedScore }))
    }

    return { units, entries, prompts, provisional }
}

function areaExtras(plan: UnitPlan, persona: GraderInput['persona'], aboutHash: string | undefined): Record<string, unknown> {
    const personaRequired = PromptBuilder.isPersonaRequired({ area: plan.area }).personaRequired === true
    return {
        ...(personaRequired && persona !== undefined ? { persona } : {}),
        ...(plan.skillId !== undefined ? { skillId: plan.skillId } : {}),
        ...(plan.area === 'about-namespace' && aboutHash !== undefined ? { aboutHash } : {})
    }
}

export async function obtainOutput(plan: UnitPlan, request: EmittedPrompt, options: GradeOptions, errors: Issue[], secrets: readonly string[] = []): Promise<{ kind: 'none' } | { kind: 'error'; reason: string } | { kind: 'output'; output: unknown; model?: string }> {
    if (options.answers !== undefined && Object.hasOwn(options.answers, plan.unit)) {
        // The model a reply names is provenance, not part of the area output.
        const named = takeReplyModel(plan.unit, redactSecretsDeep(options.answers[plan.unit], secrets), errors)
        return { kind: 'output', output: fillEnvelope(plan, request, named.output, errors), ...(named.model !== undefined ? { model: named.model } : {}) }
    }
    if (options.judge === undefined) {
        if (options.answers !== undefined) errors.push(createIssue('GRA-010', '', { unit: plan.unit }))
        return { kind: 'none' }
    }
    let text: unknown
    try {
        text = await options.judge(request)
    } catch (cause) {
        errors.push(createIssue('GRA-006', '', { unit: plan.unit, detail: redactSecretText(cause instanceof Error ? String(cause.message) : 'the judge rejected', secrets).slice(0, 500) }))
        return { kind: 'error', reason: 'the judge failed' }
    }
    if (typeof text !== 'string') {
        errors.push(createIssue('GRA-006', '', { unit: plan.unit, detail: `the judge returned ${typeOfValue(text)}, not a string` }))
        return { kind: 'error', reason: 'the judge returned no text' }
    }
    const parsed = parseReply(text)
    if (parsed.error !== null) {
        errors.push(createIssue('GRA-007', '', { unit: plan.unit, detail: parsed.error }))
        return { kind: 'error', reason: 'the judge reply is not JSON' }
    }
    // A reply echoing a key never reaches an entry: redacted as parsed, before any check or cut.
    const named = takeReplyModel(plan.unit, redactSecretsDeep(parsed.value, secrets), errors)
    const output = fillEnvelope(plan, request, named.output, errors)
    return output === undefined ? { kind: 'error', reason: 'the judge reply was refused (see the errors)' } : { kind: 'output', output, ...(named.model !== undefined ? { model: named.model } : {}) }
}

/** A reply is one JSON object; a Markdown fence around it is tolerated, any other text is not. */
function parseReply(text: string): { value: unknown; error: string | null } {
    const trimmed = text.trim()
    const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(trimmed)
    const body = fenced !== null ? (fenced[1] as string) : trimmed
    if (body.length > 2_000_000) return { value: undefined, error: 'reply longer than 2,000,000 characters' }
    try {
        return { value: JSON.parse(body) as unknown, error: null }
    } catch (cause) {
        return { value: undefined, error: cause instanceof Error ? cause.message : 'unparseable' }
    }
}

/**
 * Fills the envelope fields the library itself issued when a reply omits them, and refuses a reply
 * that contradicts them: they identify the grading, they are not the grader's judgement.
 */
function fillEnvelope(plan: UnitPlan, request: EmittedPrompt, output: unknown, errors: Issue[]): unknown {
    if (!isObj(output) || 'blocker' in output) return output
    const env = request.envelope as unknown as Obj
    // The obvious default: a reply without improvement hints has none.
    const filled: Obj = { ...output, ...(output.improvementHints === undefined ? { improvementHints: [] } : {}) }
    const answers = Array.isArray(output.answers) ? (output.answers as unknown[]) : []
    const misnamed = answers.findIndex((a) => isObj(a) && a.questionId === undefined && a.id !== undefined)
    if (misnamed >= 0) {
        // Say precisely what is wrong rather than leave the reader with a schema error about a missing key.
        errors.push(createIssue('GRA-021', pointer('units', plan.unit, 'answers', misnamed), { unit: plan.unit, index: misnamed }))
        return undefined
    }
    for (const [key, expected] of Object.entries(env)) {
        if (!(key in output)) {
            filled[key] = expected
            continue
        }
        const actual = output[key]
        const same = key === 'iteration' || key === 'timestamp' ? true : JSON.stringify(actual) === JSON.stringify(expected)
        if (!same) {
            errors.push(createIssue('GRA-008', '', { unit: plan.unit, field: key, actual: describeValue(JSON.stringify(actual)), expected: describeValue(JSON.stringify(expected)) }))
            return undefined
        }
    }
    return filled
}

async function writeIsland(args: {
    fs: FsPort
    root: string
    now: string
    namespace: string
    slug: string
    schemaText: string
    main: Obj
    options: GradeOptions
    pretest: PretestResult
    entries: ReadonlyArray<{ plan: UnitPlan; entry: GradingEntry }>
    units: UnitResult[]
    errors: Issue[]
    secrets: readonly string[]
}): Promise<{ indexPath: string | null; rollupStatus: string | null; rollupGrade: string | null }> {
    const { fs, root, now, namespace, slug, schemaText, main, options, pretest, entries, units, errors, secrets } = args
    const aboutName = isObj(main.resources) && isObj(main.resources.about) && typeof main.resources.about.name === 'string' ? main.resources.about.name : `${namespace}-about.md`
    const files = [
        { name: `${slug}.mjs`, text: schemaText, main },
        ...(options.about !== undefined ? [{ name: `resources/${aboutName}`, text: options.about.text }] : []),
        ...(options.skills ?? []).map((s) => ({ name: `skills/${s.name}.mjs`, text: s.text, ...(s.skill !== undefined ? { skill: s.skill } : {}) }))
    ]
    const imported = await Island.importProvider({ fs, root, now, files, secrets })
    errors.push(...imported.errors)
    if (!imported.status) return { indexPath: null, rollupStatus: null, rollupGrade: null }
    if (pretest.ran) {
        // The pretest summary is derived data like index.json: rewritten each run, never a secret in it.
        const summary = {
            namespace,
            schema: slug,
            checkedAt: pretest.checkedAt,
            minWorkingTests: pretest.minWorkingTests,
            ok: pretest.ok,
            perTool: Object.fromEntries(Object.entries(pretest.tools).map(([tool, t]) => [tool, { working: t.working, total: t.total, bar: t.bar, class: t.class, blocked: t.blocked, reason: t.reason }]))
        }
        const journal = new Journal(root.replace(/\/+$/, ''))
        const path = joinPath(root.replace(/\/+$/, ''), LAYOUT.providers, namespace, islandName(slug, 'schema') ?? slug, LAYOUT.summary)
        const written = await writeAtomic(fs, path, JSON.stringify(summary, null, 4) + '\n', { overwrite: true, journal })
        errors.push(...written)
    }
    for (const { plan, entry } of entries) {
        const result = await Island.writeGrading({ fs, root, target: plan.target, entry: redactSecretsDeep(entry, secrets), now })
        const at = units.findIndex((u) => u.unit === plan.unit)
        if (!result.status) {
            errors.push(createIssue('GRA-016', '', { unit: plan.unit, detail: result.errors.map((e) => e.code).join(', ') }), ...result.errors)
            continue
        }
        if (at >= 0) units[at] = { ...(units[at] as UnitResult), written: result.path }
    }
    const rebuilt = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: joinPath(root.replace(/\/+$/, ''), LAYOUT.providers, namespace), now })
    errors.push(...rebuilt.errors.filter((e) => e.severity === 'error'))
    const index = rebuilt.index as { status?: unknown; grade?: unknown } | null
    return { indexPath: rebuilt.indexPath, rollupStatus: typeof index?.status === 'string' ? index.status : null, rollupGrade: typeof index?.grade === 'string' ? index.grade : null }
}
