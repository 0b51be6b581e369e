import { Areas } from '../areas/areas.js'
import { DeterministicAnswers, type QuestionRow } from '../deterministic/answers.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { HashGenerator, schemaHashOfInspected } from '../hashing/hash-generator.js'
import { islandName } from '../store/paths.js'
import { inspectJson } from '../json/guard.js'
import { SEVERITY, AREAS, HARNESSES, NODE_STATUS, UNIT_STATUS, isAggregateGrade, type AggregateGrade, type NodeStatus } from '../model/constants.js'
import { isStableGrade } from '../model/grades.js'
import type { CategoricalVeto } from '../model/types.js'
import type { FsPort, LoadedModule } from '../ports/types.js'
import { DataPretest, testRecordsOf, type PretestResult } from '../pretest/data-pretest.js'
import { Redact, redactSecretsDeep, secretForms } from '../prompts/redact.js'
import { judgeForRun, judgeOptionIssues } from './judge-call.js'
import { rollupGrade as worstNodeGrade } from '../rollup/nodes.js'
import { standingOfSchemaNode } from '../rollup/standing.js'
import { createMemoryFs } from '../ports/memory-fs.js'
import { KeyDomain } from '../schema/key-domain.js'
import { SchemaCheck } from '../schema/schema-check.js'
import { kebabCase } from '../naming/case.js'
import { isIsoDateTime } from '../time.js'
import { readModuleSource } from '../schema/source-loader.js'
import { validateInspectedMain } from '../schema/validate-main.js'
import { chooseBoundary, isBoundary } from '../injection/boundary.js'
import { scanInjection } from '../injection/scan.js'
import { aboutDeclarationIssues, declaredAboutFile } from './about.js'
import type { UnitPlan } from './units.js'
import type { EmittedPrompt, GradeOptionsBase, GradeSingleSchemaInput, GradeSingleSchemaResult, GraderInput, Judge, SchemaGrading, UnitResult } from './types.js'
import { keptUnits, schemaNodeIn, writeIsland, type KeptUnit } from './island-state.js'
import { keptResult, namespacePrecondition, runPlans } from './run-plans.js'
import { isObject } from '../model/object.js'

/** The options as read at run time: every field may be missing or wrong (the types cannot promise it). */
type SchemaRunOptions = GradeOptionsBase

type Obj = Record<string, unknown>

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
async function resolveSchema(input: { schemaPath?: unknown; schema?: unknown }, options: SchemaRunOptions, errors: Issue[]): Promise<{ main: Obj | null; source: string | null; fileBase: string | null; refused: boolean; hasHandlers?: boolean }> {
    if (input.schema !== undefined) {
        const mod = input.schema
        if (!isObject(mod)) {
            errors.push(createIssue('GRA-002', '/schema', { field: 'schema', expected: '{ main } or a main object', actual: typeOfValue(mod) }))
            return { main: null, source: null, fileBase: null, refused: false }
        }
        const main = isObject(mod.main) ? mod.main : isObject(mod.schema) ? mod.schema : mod
        const hasHandlers = main !== mod && Object.hasOwn(mod, 'handlers')
        return { main, source: options.source ?? null, fileBase: typeof input.schemaPath === 'string' ? baseName(input.schemaPath) : null, refused: false, hasHandlers }
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
    let hasHandlers = false
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
        hasHandlers = read.hasHandlers
    }
    const main = isObject(mod) ? (isObject(mod.main) ? mod.main : isObject(mod.schema) ? mod.schema : null) : null
    if (main === null) errors.push(trusted !== undefined ? createIssue('GRA-003', '/schemaPath', { detail: 'the module exports neither main nor schema' }) : createIssue('SRC-005', '/schemaPath'))
    return { main, source, fileBase: baseName(path), refused: false, hasHandlers: hasHandlers || (isObject(mod) && Object.hasOwn(mod, 'handlers')) }
}

function isStringRecord(value: unknown): value is Record<string, string> {
    return isObject(value) && Object.values(value).every((v) => typeof v === 'string')
}

/** Why a schema slug (the id after `<namespace>.`) cannot name a folder, or null. */
function slugProblem(slug: string): string | null {
    if (slug.length === 0) return 'empty file base'
    if (slug.includes('/') || slug.includes('\\')) return 'contains a path separator'
    if (slug.includes('..')) return 'contains ..'
    if (/[\u0000-\u001f\u007f]/.test(slug)) return 'contains a control character'
    return null
}

/** Resolves `options.serverParams` for the loaded schema's required keys. */
export function serverParamsFor(option: SchemaRunOptions['serverParams'], main: Obj, errors: Issue[]): Record<string, string> {
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

function checkOptions(options: unknown, errors: Issue[]): SchemaRunOptions {
    if (options === undefined) return {}
    if (!isObject(options)) {
        errors.push(createIssue('GRA-002', '/options', { field: 'options', expected: 'object', actual: typeOfValue(options) }))
        return {}
    }
    const o = options as SchemaRunOptions
    const fn = (key: 'judge' | 'sleep'): void => {
        if (o[key] !== undefined && typeof o[key] !== 'function') errors.push(createIssue('GRA-002', `/options/${key}`, { field: key, expected: 'function', actual: typeOfValue(o[key]) }))
    }
    fn('judge')
    fn('sleep')
    errors.push(...judgeOptionIssues(o as Readonly<Record<string, unknown>>))
    if (o.runtime !== undefined && !(isObject(o.runtime) && typeof o.runtime.run === 'function')) errors.push(createIssue('GRA-002', '/options/runtime', { field: 'runtime', expected: '{ run(request) } (a RuntimePort)', actual: typeOfValue(o.runtime) }))
    if (o.runtimeTools !== undefined && o.runtimeTools !== 'handlers' && o.runtimeTools !== 'all') errors.push(createIssue('GRA-002', '/options/runtimeTools', { field: 'runtimeTools', expected: "'handlers' or 'all'", actual: describeValue(o.runtimeTools) }))
    if (o.trustedLoader !== undefined && !(isObject(o.trustedLoader) && typeof o.trustedLoader.load === 'function')) errors.push(createIssue('GRA-002', '/options/trustedLoader', { field: 'trustedLoader', expected: '{ load(path) }', actual: typeOfValue(o.trustedLoader) }))
    if ((o.fs === undefined) !== (o.root === undefined)) errors.push(createIssue('GRA-001', o.fs === undefined ? '/options/fs' : '/options/root', { field: o.fs === undefined ? 'fs (with root)' : 'root (with fs)' }))
    if (o.answers !== undefined && !isObject(o.answers)) errors.push(createIssue('GRA-002', '/options/answers', { field: 'answers', expected: 'object keyed by unit', actual: typeOfValue(o.answers) }))
    if (o.serverParams !== undefined && typeof o.serverParams !== 'function' && !isStringRecord(o.serverParams)) {
        errors.push(createIssue('GRA-002', '/options/serverParams', { field: 'serverParams', expected: 'object of strings or a function', actual: typeOfValue(o.serverParams) }))
    }
    // One issue per wrong option, never one per character or item.
    if (o.about !== undefined && !(isObject(o.about) && typeof o.about.text === 'string')) errors.push(createIssue('GRA-002', '/options/about', { field: 'about', expected: '{ name?, text }', actual: typeOfValue(o.about) }))
    if (o.skills !== undefined) {
        const skills: unknown = o.skills
        const bad = Array.isArray(skills) ? skills.findIndex((s: unknown) => !(isObject(s) && typeof s.name === 'string' && typeof s.text === 'string')) : -2
        if (bad !== -1) errors.push(createIssue('GRA-002', bad >= 0 ? `/options/skills/${bad}` : '/options/skills', { field: 'skills', expected: 'array of { name, text, skill? }', actual: typeOfValue(bad >= 0 ? (skills as unknown[])[bad] : skills) }))
    }
    if (o.root !== undefined && typeof o.root !== 'string') errors.push(createIssue('GRA-002', '/options/root', { field: 'root', expected: 'string', actual: typeOfValue(o.root) }))
    if (o.boundary !== undefined && !isBoundary(o.boundary)) errors.push(boundaryIssue(o.boundary))
    return o
}

/** Checks the LLM grader identity; `needed` when a judge or answers will supply non-deterministic answers. */
export function checkGrader(grader: unknown, needed: boolean, errors: Issue[]): GraderInput | null {
    if (grader === undefined && !needed) return null
    if (!isObject(grader)) {
        errors.push(createIssue(grader === undefined ? 'GRA-001' : 'GRA-002', '/grader', { field: 'grader', expected: '{ name, version, llmModel, persona }', actual: typeOfValue(grader) }))
        return null
    }
    for (const key of ['name', 'version', 'llmModel'] as const) {
        if (typeof grader[key] !== 'string' || (grader[key] as string).length === 0) errors.push(createIssue('GRA-002', `/grader/${key}`, { field: key, expected: 'non-empty string', actual: typeOfValue(grader[key]) }))
    }
    if (needed && !isObject(grader.persona)) errors.push(createIssue('GRA-009', '/grader/persona', { detail: 'grader.persona is required when a judge or answers supply non-deterministic answers' }))
    if (grader.harness !== undefined && !(HARNESSES as readonly unknown[]).includes(grader.harness)) errors.push(createIssue('GRA-002', '/grader/harness', { field: 'harness', expected: HARNESSES.join(' | '), actual: describeValue(grader.harness) }))
    return grader as unknown as GraderInput
}

/** The time of the run: `now`, else `clock.now()` (a throwing clock counts as none). */
export function nowOf(options: Pick<SchemaRunOptions, 'now' | 'clock'>, errors: Issue[]): string | null {
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

/**
 * The worst grade over the units that have one, as `index.json` rolls its nodes up (03 ⚠ C15);
 * provisional units count with their deterministic aggregate. Shared with gradeNamespace.
 */
export function headlineGrade(units: readonly UnitResult[]): AggregateGrade | null {
    const nodes = units
        .filter((u) => u.aggregateGrade !== null && (u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.provisional || u.status === UNIT_STATUS.rejected))
        .map((u) => ({ status: (u.status === UNIT_STATUS.rejected ? NODE_STATUS.rejected : NODE_STATUS.graded) as NodeStatus, grade: u.aggregateGrade as AggregateGrade }))
    return worstNodeGrade(nodes) ?? null
}

/** GRA-002 for an `options.boundary` that is not `<PREFIX>-<16 hex>`. */
export function boundaryIssue(value: unknown): Issue {
    return createIssue('GRA-002', '/options/boundary', { field: 'boundary', expected: 'a string like FLOWMCP-DATA-1a2b3c4d5e6f7a8b (^[A-Z][A-Z0-9-]{3,40}-[0-9a-f]{16}$)', actual: describeValue(value) })
}

/**
 * The injection scan of one schema: its `main` and source, the About and skills of the run, with the
 * paths of this function's input (`/schema/main/…`, the source at `sourcePath`, `/options/about/text`,
 * `/options/skills/<i>/text`).
 */
export function injectionOf(main: Obj, source: { name: string; text: string; path: string }, options: Pick<SchemaRunOptions, 'about' | 'skills'>, aboutName: string): { findings: Issue[]; flagged: string[] } {
    const about = options.about
    const skills = options.skills ?? []
    return scanInjection(
        main,
        [{ name: source.name, text: source.text, source: true }, ...(about !== undefined ? [{ name: aboutName, text: about.text }] : []), ...skills.map((sk) => ({ name: `skills/${sk.name}.mjs`, text: sk.text }))],
        { mainPath: '/schema/main', filePaths: [source.path, ...(about !== undefined ? ['/options/about/text'] : []), ...skills.map((_, i) => `/options/skills/${i}/text`)] }
    )
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
    return (await gradeSchemaCore(withRunJudge(input), { namespaceAreas: true })).result
}

/** The input with its judge wrapped for one run (judge-call.ts), so its units share one count of failures in a row. */
export function withRunJudge<T>(input: T): T {
    const options = (input as { options?: { judge?: unknown } } | null)?.options
    if (options === null || typeof options !== 'object' || typeof options.judge !== 'function') return input
    return { ...input, options: { ...options, judge: judgeForRun(options.judge as Judge) } }
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
    /** Where the injection scan found text aimed at the grader in this schema's requests (its `main`, source, About and skills). */
    readonly flagged?: readonly string[]
}

/**
 * One schema, with or without the namespace-level areas: `gradeSingleSchema` grades them from this
 * schema's view; `gradeNamespace` grades them once for all its schemas and asks for the schema's own
 * areas only.
 */
export async function gradeSchemaCore(input: GradeSingleSchemaInput, mode: { namespaceAreas: boolean; resumable?: boolean }): Promise<SchemaRun> {
    return gradeSchemaInner(input, mode)
}

/** A schema's run: its result, what a namespace run needs of it (null when it stopped early), and whether the island answered it. */
interface SchemaRun {
    readonly result: GradeSingleSchemaResult
    readonly context: SchemaRunContext | null
    readonly resumed: boolean
}

/** Who the schema is: its namespace, version, id, island folder, the host's values for it, and its content hash (GRA-017, GRA-002, GRA-020). */
interface SchemaIdentity {
    readonly namespace: string
    readonly version: string
    readonly schemaId: string
    readonly slug: string
    readonly schemaFolder: string
    readonly serverParams: Record<string, string>
    readonly secrets: readonly string[]
    readonly schemaHash: string
}

/** Stage "identify": the schema's id, island folder and content hash, or null (its issues in `errors`). */
function identifySchema(input: GradeSingleSchemaInput, main: Obj, resolvedFileBase: string | null, options: SchemaRunOptions, errors: Issue[]): SchemaIdentity | null {
    const namespace = typeof main.namespace === 'string' ? main.namespace : null
    if (namespace === null || !isObject(main.tools)) return null
    const version = SchemaCheck.normalizeVersion({ version: main.version }).version
    if (version === null) return null
    // One id everywhere (01-model ⚠ A14, the public registry): `<namespace>.<file base>`.
    const fileBase = resolvedFileBase ?? (typeof input.fileName === 'string' ? baseName(input.fileName) : null)
    if (input.schemaId !== undefined && !input.schemaId.startsWith(`${namespace}.`)) {
        errors.push(createIssue('GRA-017', '/schemaId', { value: input.schemaId, namespace }))
        return null
    }
    // The slug is everything after `<namespace>.`: a file base, never a path (it names an island folder).
    let slug = input.schemaId !== undefined ? input.schemaId.slice(namespace.length + 1) : fileBase
    const badSlug = slug === null ? null : slugProblem(slug)
    if (badSlug !== null) {
        errors.push(createIssue('GRA-002', input.schemaId !== undefined ? '/schemaId' : '/fileName', { field: input.schemaId !== undefined ? 'schemaId' : 'fileName', expected: '<namespace>.<file base>, the file base without path separators, .. or control characters', actual: `${describeValue(input.schemaId ?? input.fileName ?? input.schemaPath)} (${badSlug})` }))
        return null
    }
    if (slug === null) {
        slug = kebabCase(typeof main.name === 'string' ? main.name : 'schema')
        errors.push(createIssue('GRA-020', '/fileName', { schemaId: `${namespace}.${slug}` }))
    }
    const schemaId = input.schemaId ?? `${namespace}.${slug}`
    // Folder names in the island: the runtime's names mapped through the reversible islandName.
    const schemaFolder = islandName(slug, 'schema')
    if (schemaFolder === null) {
        errors.push(createIssue('GRA-002', '/schemaId', { field: 'schema slug', expected: 'a name of at most 200 characters once escaped', actual: describeValue(slug) }))
        return null
    }
    const serverParams = serverParamsFor(options.serverParams, main, errors)
    // Every host-given value is erased from whatever leaves the library or reaches a file.
    const secrets = secretForms(serverParams)
    // The island stores a source holding a key redacted, so the hash is of that stored form. `main`
    // passed inspectJson above, and redacting strings keeps it plain JSON.
    const hashed = schemaHashOfInspected(redactSecretsDeep(main, secrets))
    if (hashed.short === null) {
        errors.push(...hashed.errors)
        return null
    }
    return { namespace, version, schemaId, slug, schemaFolder, serverParams, secrets, schemaHash: hashed.short }
}

/** Stage "pretest": the schema's tests through the host's HTTP port (or its runtime, for handler schemas). */
function pretestOf(args: { main: Obj; validation: { valid: boolean; errors: readonly Issue[] }; keyDomain: ReturnType<typeof KeyDomain.check>; options: SchemaRunOptions; serverParams: Readonly<Record<string, string>>; now: string; hasHandlers: boolean; schemaPath: string | null }): Promise<PretestResult> {
    const { main, validation, keyDomain, options, serverParams, now } = args
    return DataPretest.run({
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
        ...(options.sleep !== undefined ? { sleep: options.sleep } : {}),
        ...(options.runtime !== undefined ? { runtime: options.runtime } : {}),
        ...(options.runtimeTools !== undefined ? { runtimeTools: options.runtimeTools } : {}),
        hasHandlers: args.hasHandlers,
        schemaPath: args.schemaPath
    })
}

/** Stage "plan": the units of a schema's run, in the order they are graded (its own areas; with `namespaceAreas`, the namespace's too). */
function unitPlansOf(args: { tools: readonly string[]; namespace: string; schemaFolder: string; deterministic: ReturnType<typeof DeterministicAnswers.build>; namespaceAnswers: ReturnType<typeof DeterministicAnswers.buildNamespace>; skills: NonNullable<SchemaRunOptions['skills']>; namespaceAreas: boolean }): UnitPlan[] {
    const { tools, namespace, schemaFolder, deterministic, namespaceAnswers } = args
    const plans: UnitPlan[] = [
        ...tools.map((tool): UnitPlan => {
            const notes = deterministic.deferred.filter((d) => d.area === 'single-test' && (d.tool === undefined || d.tool === tool)).map((d) => d.note)
            return { unit: `single-test/${tool}`, area: 'single-test', target: { namespace, schema: schemaFolder, tool: islandName(tool, 'tool') ?? tool }, deterministic: deterministic.byArea['single-test'][tool] ?? [], focus: tool, ...(notes.length > 0 ? { notes } : {}) }
        }),
        { unit: 'tools-aggregate-schema', area: 'tools-aggregate-schema', target: { namespace, schema: schemaFolder }, deterministic: deterministic.byArea['tools-aggregate-schema'], focus: null },
        { unit: 'tools-aggregate-namespace', area: 'tools-aggregate-namespace', target: { namespace }, deterministic: namespaceAnswers.byArea['tools-aggregate-namespace'], focus: null },
        { unit: 'namespace-description', area: 'namespace-description', target: { namespace }, deterministic: [], focus: null },
        ...args.skills.map((s): UnitPlan => ({ unit: `namespace-skills/${s.name}`, area: 'namespace-skills', target: { namespace, schema: schemaFolder, skill: s.name }, deterministic: [], focus: s.name, skillId: s.name })),
        { unit: 'about-namespace', area: 'about-namespace', target: { namespace, schema: schemaFolder }, deterministic: deterministic.byArea['about-namespace'], focus: null }
    ]
    return args.namespaceAreas ? plans : plans.filter((p) => p.area === 'single-test' || p.area === 'tools-aggregate-schema')
}

/** Stage "attach": the files a judge reads for a schema's units, each redacted: the schema, the About, the skills. */
function attachmentsOf(args: { slug: string; namespace: string; redactedText: string; about: SchemaRunOptions['about']; skills: NonNullable<SchemaRunOptions['skills']>; serverParams: Readonly<Record<string, string>> }): EmittedPrompt['attachments'] {
    return [{ name: `${args.slug}.mjs`, role: 'the FlowMCP v4 schema under grading', content: args.redactedText }, ...namespaceAttachments(args)]
}

/** The About and the skills as a judge reads them, redacted: the same for a schema's run and its namespace's. */
export function namespaceAttachments(args: { namespace: string; about: SchemaRunOptions['about']; skills: NonNullable<SchemaRunOptions['skills']>; serverParams: Readonly<Record<string, string>> }): EmittedPrompt['attachments'] {
    const { about, serverParams } = args
    return [
        ...(about !== undefined ? [{ name: about.name ?? `${args.namespace}-about.md`, role: 'the namespace About', content: Redact.text({ text: about.text, serverParams }).text ?? '' }] : []),
        ...args.skills.map((s) => ({ name: `skills/${s.name}.mjs`, role: `namespace skill ${s.name}`, content: Redact.text({ text: s.text, serverParams }).text ?? '' }))
    ]
}

/**
 * Stage "resume": every own unit of the schema is current in the island, so the island is the answer —
 * nothing is sent, tested or written; the namespace run still gets the schema's context.
 */
function resultFromIsland(args: { id: SchemaIdentity; version: string; main: Obj; schemaText: string; tools: readonly string[]; kept: ReadonlyMap<string, KeptUnit>; aboutDeclared: boolean; errors: Issue[]; node: unknown }): { result: GradeSingleSchemaResult; context: SchemaRunContext } {
    const { id, errors } = args
    const { schemaId, namespace, slug, schemaFolder, schemaHash, serverParams, secrets } = id
    const units = ownPlans(args.tools, namespace, schemaFolder).map((plan) => keptResult(plan, args.kept.get(plan.unit) as KeptUnit))
    const schemaUnit = units.find((u) => u.area === 'tools-aggregate-schema')
    const context: SchemaRunContext = { schemaId, namespace, slug, schemaFolder, schemaHash, version: args.version, main: args.main, schemaText: args.schemaText, redacted: { serverParams, text: Redact.text({ text: args.schemaText, serverParams }).text ?? '' }, veto: null, stable: isStableGrade(schemaUnit?.aggregateGrade), aboutDeclared: args.aboutDeclared }
    errors.push(createIssue('GRA-012', '', { unit: schemaId, reason: `kept: the island holds every unit graded for schema hash ${schemaHash}; pass force to grade again` }))
    const grading = schemaGradingOf({ schemaId, namespace, slug, schemaHash, version: args.version, units, veto: null, pretest: { ran: false, reason: 'kept', ok: false, blocked: [], tests: [] }, indexPath: null, rollupStatus: null, rollupGrade: null, node: args.node })
    return { result: redactSecretsDeep({ grading, entries: [], prompts: [], provisional: {}, errors }, secrets), context }
}

/** The checked start of a run: the options on their island, who grades, and when. */
interface RunStart {
    readonly island: ReturnType<typeof runIsland<SchemaRunOptions>>
    readonly answersGiven: boolean
    readonly grader: GraderInput | null
    readonly now: string
}

/** Stage "start": the options, the grader, the time and the id fields checked (their issues in `errors`); null when any is wrong. */
function startRun(input: GradeSingleSchemaInput, errors: Issue[]): RunStart | null {
    // Without a host island the run writes to a private in-memory one: the standing is read from files the same way.
    const island = runIsland(checkOptions(input.options, errors))
    const options = island.options
    const answersGiven = options.judge !== undefined || options.answers !== undefined
    const grader = checkGrader(input.grader, answersGiven, errors)
    const now = nowOf(options, errors)
    if (input.schemaId !== undefined && typeof input.schemaId !== 'string') errors.push(createIssue('GRA-002', '/schemaId', { field: 'schemaId', expected: 'string', actual: typeOfValue(input.schemaId) }))
    if (input.fileName !== undefined && typeof input.fileName !== 'string') errors.push(createIssue('GRA-002', '/fileName', { field: 'fileName', expected: 'string', actual: typeOfValue(input.fileName) }))
    if (errors.length > 0 || now === null) return null
    return { island, answersGiven, grader, now }
}

/** A schema read and checked: the module as resolved, its `main`, and the structural validation of `main`. */
interface ReadSchema {
    readonly resolved: Awaited<ReturnType<typeof resolveSchema>>
    readonly main: Obj
    readonly validation: { readonly valid: boolean; readonly errors: Issue[] }
}

/** Stage "read and check": the schema resolved, guarded as plain JSON and validated; null when it cannot be graded at all. */
async function readSchema(input: GradeSingleSchemaInput, options: SchemaRunOptions, errors: Issue[]): Promise<ReadSchema | null> {
    const resolved = await resolveSchema(input, options, errors)
    if (resolved.main === null) return null
    const main = resolved.main
    const guard = inspectJson(main, undefined, '/schema/main')
    if (guard.length > 0) {
        errors.push(...guard)
        return null
    }
    // main passed inspectJson just above: validated without walking it again.
    const structural = validateInspectedMain(main)
    const validation = { valid: !structural.some((i) => i.severity === SEVERITY.error), errors: structural }
    errors.push(...validation.errors.map((i) => ({ ...i, path: '/schema/main' + i.path })))
    return { resolved, main, validation }
}

/** What the code answers before any judge: the pretest, the deterministic answers of the schema and its namespace, a veto. */
interface DeterministicStage {
    readonly pretest: PretestResult
    readonly deterministic: ReturnType<typeof DeterministicAnswers.build>
    readonly namespaceAnswers: ReturnType<typeof DeterministicAnswers.buildNamespace>
    readonly veto: CategoricalVeto | null
}

/** Stage "pretest and answer": the key check, the live pretest, then every deterministic answer (their issues in `errors`). */
async function answerDeterministic(args: { input: GradeSingleSchemaInput; read: ReadSchema; options: SchemaRunOptions; id: SchemaIdentity; now: string; namespaceAreas: boolean; aboutDeclared: boolean; errors: Issue[] }): Promise<DeterministicStage> {
    const { input, read, options, id, now, aboutDeclared, errors } = args
    const { main, validation, resolved } = read
    const keyDomain = KeyDomain.check({ main })
    const pretest = await pretestOf({ main, validation, keyDomain, options, serverParams: id.serverParams, now, hasHandlers: resolved.hasHandlers === true, schemaPath: typeof input.schemaPath === 'string' ? input.schemaPath : null })
    errors.push(...pretest.errors)
    const questions = questionRows()
    // An About without its declaration (or the reverse) is never graded: say so and how to fix it.
    if (args.namespaceAreas) errors.push(...aboutDeclarationIssues({ declared: declaredAboutFile(main), about: options.about, namespace: id.namespace, path: '/options/about' }))
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
    const namespaceAnswers = DeterministicAnswers.buildNamespace({ schemas: [{ main, schemaId: id.schemaId }], questions, now, ...(aboutDeclared ? { aboutFileExists: options.about !== undefined } : {}) })
    errors.push(...namespaceAnswers.errors)
    return { pretest, deterministic, namespaceAnswers, veto: deterministic.veto }
}

/** What every prompt of a schema's run carries: the redacted files, the boundary, the places the injection scan flagged. */
interface PromptMaterial {
    readonly aboutHash: string | undefined
    readonly redactedText: string
    readonly attachments: EmittedPrompt['attachments']
    readonly flagged: string[]
    readonly boundary: string
}

/** Stage "attach and scan": the attachments, the injection scan (its findings in `errors`) and the run's data boundary. */
function promptMaterialOf(args: { input: GradeSingleSchemaInput; main: Obj; schemaText: string; options: SchemaRunOptions; id: SchemaIdentity; namespaceAreas: boolean; errors: Issue[] }): PromptMaterial {
    const { input, main, schemaText, options, errors } = args
    const { slug, namespace, serverParams } = args.id
    const aboutHash = options.about !== undefined ? HashGenerator.hashBytes({ text: options.about.text }).short ?? undefined : undefined
    const redactedText = Redact.text({ text: schemaText, serverParams }).text ?? ''
    const attachments = attachmentsOf({ slug, namespace, redactedText, about: options.about, skills: options.skills ?? [], serverParams })
    // Text aimed at the grader: warnings here (the About and skills once per namespace run), the places in every request.
    const injection = injectionOf(main, { name: `${slug}.mjs`, text: schemaText, path: input.schemaPath !== undefined ? '/schemaPath' : '/options/source' }, options, options.about?.name ?? `${namespace}-about.md`)
    errors.push(...(args.namespaceAreas ? injection.findings : injection.findings.filter((f) => !f.path.startsWith('/options/about') && !f.path.startsWith('/options/skills'))))
    const boundary = chooseBoundary({ given: options.boundary, texts: attachments.flatMap((a) => [a.name, a.content]) }).boundary
    return { aboutHash, redactedText, attachments, flagged: injection.flagged, boundary }
}

/** Stage "plan": the units of the run, and GRA-015 for every answer keyed by a unit the run does not have. */
function plansFor(args: Parameters<typeof unitPlansOf>[0], answers: SchemaRunOptions['answers'], errors: Issue[]): UnitPlan[] {
    const plans = unitPlansOf(args)
    const known = new Set(plans.map((p) => p.unit))
    for (const key of Object.keys(answers ?? {})) {
        if (!known.has(key)) errors.push(createIssue('GRA-015', pointer('options', 'answers', key), { unit: key }))
    }
    return plans
}

/** Whether every own unit of the schema is held graded (not vetoed) for this content, so the island answers for it. */
function allOwnUnitsKept(tools: readonly string[], kept: ReadonlyMap<string, KeptUnit>): boolean {
    return [...tools.map((t) => `single-test/${t}`), 'tools-aggregate-schema'].every((u) => kept.has(u) && kept.get(u)?.aggregateGrade !== 'REJECTED')
}

async function gradeSchemaInner(input: GradeSingleSchemaInput, scope: { namespaceAreas: boolean; resumable?: boolean }): Promise<SchemaRun> {
    const errors: Issue[] = []
    const fail = (): SchemaRun => ({ result: { grading: null, entries: [], prompts: [], provisional: {}, errors }, context: null, resumed: false })
    if (!isObject(input)) {
        errors.push(createIssue('GRA-002', '', { field: 'input', expected: 'object', actual: typeOfValue(input) }))
        return fail()
    }
    const start = startRun(input, errors)
    if (start === null) return fail()
    const { island, answersGiven, grader, now } = start
    const options = island.options
    const read = await readSchema(input, options, errors)
    if (read === null) return fail()
    const { main, resolved } = read
    const id = identifySchema(input, main, resolved.fileBase, options, errors)
    if (id === null) return fail()
    const { namespace, version, schemaId, slug, schemaFolder, serverParams, secrets, schemaHash } = id
    // identifySchema checked that main.tools is an object.
    const tools = Object.keys(main.tools as Obj)
    // Resume: units whose entry for this content is in the island are kept, not graded (or paid for) again.
    const kept = scope.resumable === true && options.fs !== undefined && options.root !== undefined ? await keptUnits(options.fs, options.root, namespace, { schemaFolder, schemaHash, tools }) : new Map<string, KeptUnit>()
    const schemaText = resolved.source ?? `export const main = ${JSON.stringify(main, null, 4)}\n`
    const aboutDeclared = isObject(main.resources) && isObject(main.resources.about)
    // A vetoed schema runs again (its veto must reach the namespace units) but writes no new veto entry.
    if (!scope.namespaceAreas && allOwnUnitsKept(tools, kept)) {
        const node = await schemaNodeIn(options, namespace, schemaFolder)
        const fromIsland = resultFromIsland({ id, version, main, schemaText, tools, kept, aboutDeclared, errors, node })
        return { result: island.finish(fromIsland.result), context: fromIsland.context, resumed: true }
    }

    const { pretest, deterministic, namespaceAnswers, veto } = await answerDeterministic({ input, read, options, id, now, namespaceAreas: scope.namespaceAreas, aboutDeclared, errors })
    // The units of this run, in the order they are graded.
    const plans = plansFor({ tools, namespace, schemaFolder, deterministic, namespaceAnswers, skills: options.skills ?? [], namespaceAreas: scope.namespaceAreas }, options.answers, errors)
    const material = promptMaterialOf({ input, main, schemaText, options, id, namespaceAreas: scope.namespaceAreas, errors })
    const blockedTools = new Map(pretest.blocked.map((b) => [b.tool, `${b.reason} — ${b.detail}`]))
    // Seen from this schema, the namespace aggregate rests on its tools aggregate, which rests on every tool.
    const preconditions = scope.namespaceAreas ? namespacePrecondition(blockedTools.size > 0 ? [schemaId] : []) : undefined
    const { aboutHash, attachments, boundary, flagged } = material
    const ran = await runPlans(plans, { schemaId, version, schemaHash, now, grader, options, answersGiven, attachments, serverParams, secrets, errors, veto, blockedTools, aboutDeclared, namespace, aboutHash, stable: false, kept, boundary, flagged, ...(preconditions !== undefined ? { preconditions } : {}) })
    const { units, entries, prompts, provisional } = ran
    if (units.some((u) => u.status === UNIT_STATUS.provisional)) errors.push(createIssue('GRA-014', ''))

    // Stage "write and roll up": the entries into the island, then the standing from its rebuilt index.
    const written = await writeIsland({ fs: options.fs as FsPort, root: options.root as string, now, namespace, slug, schemaHash, schemaText, main, options, pretest, entries, units, errors, secrets, judgeCalls: ran.judgeCalls })
    const { indexPath, rollupStatus, rollupGrade, schemaNode } = written
    const schemaUnit = units.find((u) => u.area === 'tools-aggregate-schema')
    const context: SchemaRunContext = { schemaId, namespace, slug, schemaFolder, schemaHash, version, main, schemaText, redacted: { serverParams, text: material.redactedText }, veto, stable: isStableGrade(schemaUnit?.aggregateGrade), aboutDeclared, flagged }
    const grading = { ...schemaGradingOf({ schemaId, namespace, slug, schemaHash, version, units, veto, pretest: { ran: pretest.ran, reason: pretest.reason, ok: pretest.ok, blocked: pretest.blocked, tests: testRecordsOf(pretest.results) }, indexPath, rollupStatus, rollupGrade, node: schemaNode }), judgeCalls: { ...ran.judgeCalls } }
    return { result: island.finish(redactSecretsDeep({ grading, entries: entries.map((e) => e.entry), prompts, provisional, errors }, secrets)), context, resumed: false }
}

/** The run's island: the host's `fs` and `root`, or a fresh in-memory island (sources still read from the host's `sourceFs ?? fs`). */
export function runIsland<O extends GradeOptionsBase>(options: O): { options: O & { readonly fs: FsPort; readonly root: string }; host: boolean; finish(result: GradeSingleSchemaResult): GradeSingleSchemaResult } {
    if (options.fs !== undefined && typeof options.root === 'string') return { options: options as O & { fs: FsPort; root: string }, host: true, finish: (r) => r }
    const sourceFs = options.sourceFs ?? options.fs
    const own = { ...options, ...(sourceFs !== undefined ? { sourceFs } : {}), fs: createMemoryFs(), root: PRIVATE_ISLAND_ROOT }
    return { options: own, host: false, finish: withoutIslandPaths }
}

/** Where a run without a host island keeps its private in-memory island. */
const PRIVATE_ISLAND_ROOT = '/island'

/** A result without the paths of a private island: they would name files the host never sees. */
export function withoutIslandPaths(result: GradeSingleSchemaResult): GradeSingleSchemaResult {
    const g = result.grading
    if (g === null) return result
    return { ...result, grading: { ...g, indexPath: null, rollupStatus: null, rollupGrade: null, units: g.units.map((u) => (u.written === null ? u : { ...u, written: null })) } }
}

/** The schema's own units (single-test per tool, tools-aggregate-schema) with their island targets. */
function ownPlans(tools: readonly string[], namespace: string, schemaFolder: string): UnitPlan[] {
    return [
        ...tools.map((tool): UnitPlan => ({ unit: `single-test/${tool}`, area: 'single-test', target: { namespace, schema: schemaFolder, tool: islandName(tool, 'tool') ?? tool }, deterministic: [], focus: tool })),
        { unit: 'tools-aggregate-schema', area: 'tools-aggregate-schema', target: { namespace, schema: schemaFolder }, deterministic: [], focus: null }
    ]
}

/**
 * The schema's result: its standing read from its `index.json` node by the one function every surface
 * uses (`standingOfSchemaNode`: status, the grade, `schemaGrade`), the deterministic-only figures under
 * names that say so, and how many units were kept or graded.
 */
export function schemaGradingOf(run: {
    schemaId: string
    namespace: string
    slug: string
    schemaHash: string
    version: string
    units: UnitResult[]
    veto: CategoricalVeto | null
    pretest: SchemaGrading['pretest']
    indexPath: string | null
    rollupStatus: string | null
    rollupGrade: string | null
    /** The schema's node of the rebuilt `index.json`. */
    node: unknown
}): SchemaGrading {
    const { units, veto } = run
    const schemaUnit = units.find((u) => u.area === 'tools-aggregate-schema')
    const provisional = units.some((u) => u.status === UNIT_STATUS.provisional)
    const mode: SchemaGrading['mode'] = provisional ? 'provisional' : units.some((u) => u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected) ? 'full' : 'none'
    const standing = standingOfSchemaNode(run.node, mode)
    const rejected = standing.status === NODE_STATUS.rejected
    return {
        schemaId: run.schemaId,
        namespace: run.namespace,
        schema: run.slug,
        schemaHash: run.schemaHash,
        version: run.version,
        gradingTier: 'autonomous',
        maxAttainableGrade: 'B',
        mode,
        status: standing.status,
        grade: standing.grade,
        schemaGrade: standing.schemaGrade,
        provisionalGrade: provisional && !rejected ? headlineGrade(units) : null,
        provisionalSchemaGrade: provisional && !rejected ? (schemaUnit?.aggregateGrade ?? null) : null,
        unitCounts: { kept: units.filter((u) => u.kept === true).length, graded: units.filter((u) => u.kept !== true && (u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected)).length },
        rawGrade: standing.grade !== null ? (schemaUnit?.rawGrade ?? null) : null,
        unitGrades: Object.fromEntries(units.map((u) => [u.unit, u.aggregateGrade])),
        rollupGrade: isAggregateGrade(run.rollupGrade) ? run.rollupGrade : null,
        veto,
        units,
        pretest: run.pretest,
        indexPath: run.indexPath,
        rollupStatus: run.rollupStatus,
        reason: standing.status === NODE_STATUS.graded || standing.status === NODE_STATUS.stable ? null : standing.reason,
        standing
    }
}
