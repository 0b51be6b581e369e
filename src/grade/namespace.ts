import {
    NODE_STATUS,
    ROLLUP_STATUSES,
    SEVERITY,
    UNIT_STATUS,
    isNamespaceUnit,
    type RollupStatus
} from '../model/constants.js'
import { DeterministicAnswers } from '../deterministic/answers.js'
import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { listDir, readText, type PortResult } from '../store/fs-ops.js'
import { islandName, joinPath, LAYOUT, normalizeDir } from '../store/paths.js'
import { writeGrading } from '../island/write-grading.js'
import type { CategoricalVeto, GradingEntry } from '../model/types.js'
import type { FsPort } from '../ports/types.js'
import { Redact, redactSecretsDeep, secretForms } from '../prompts/redact.js'
import { RebuildIndex } from '../rollup/rebuild-index.js'
import { readModuleSource } from '../schema/source-loader.js'
import { aboutDeclarationIssues, aboutFileIn, declaredAboutFile } from './about.js'
import { chooseBoundary, runBoundary } from '../injection/boundary.js'
import { scanInjection } from '../injection/scan.js'
import { addJudgeCallCounts, judgeCallCountOf, judgeForRun } from './judge-call.js'
import { namespaceAttachments } from './prompt-material.js'
import { questionRows } from '../deterministic/answers.js'
import { BOUNDARY_OPTION, baseName, boundaryIssues, checkGrader, nowOf, serverParamsFor } from './run-input.js'
import { runIsland, withoutIslandPaths } from './run-island.js'
import { headlineGrade, type SchemaRunContext } from './schema-result.js'
import { gradeSchemaCore } from './single-schema.js'
import { keptUnits, markNotWritten, markRemovedSchemas, writeUnitState } from './island-state.js'
import { namespaceInputsKey } from './inputs-key.js'
import { runInputsOf } from './single-schema.js'
import { namespacePrecondition, runPlans } from './run-plans.js'
import type {
    EmittedPrompt,
    GradeOptions,
    GradeOptionsBase,
    GradeSingleSchemaInput,
    Judge,
    JudgeCallCount,
    GradeSingleSchemaResult,
    GraderInput,
    SchemaModuleInput,
    UnitResult
} from './types.js'
import { namespaceUnitPlans, type UnitPlan } from './units.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'
import { objectArg, parseArgs, says } from '../validation/args.js'

/** The codes and wording of this module's argument checks (an `undefined` item or input is a wrong type). */
const ARGS = { missing: 'GRA-001', mismatch: 'GRA-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const
const INPUT = objectArg()
// Given as a present key: an absent one is then this wrong type, not valibot's missing key.
const OPTIONS = v.looseObject({ options: objectArg({ expected: 'object', actual: 'type', missing: false }) })
const SCHEMA_LIST = v.looseObject({
    schemas: v.optional(v.array(v.unknown(), says('array of { schemaPath } or { schema, fileName }')))
})
/** One given schema: a path to read, or a module object with its file name. */
const SCHEMA_ITEM = v.custom<{ schemaPath?: unknown; schema?: unknown; fileName?: unknown }>(
    (s) => isObject(s) && (typeof s.schemaPath === 'string' || (isObject(s.schema) && typeof s.fileName === 'string')),
    says('{ schemaPath } or { schema, fileName }')
)
// The options are part of the one finding: a tree run's input without them is worded as a whole.
const TREE_INPUT = v.custom<Record<string, unknown> & { options: Record<string, unknown> }>(
    (input) => isObject(input) && isObject(input.options),
    says({ expected: '{ root, grader?, options }', actual: 'type', missing: false })
)

/** What a tree run reads besides: the boundary, then how many namespaces it grades at once (1 when not given). */
const TREE_RUN = v.looseObject({
    options: v.looseObject({
        boundary: BOUNDARY_OPTION,
        concurrency: v.nullish(
            v.custom<number>(
                (n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 32,
                says({ expected: 'integer 1..32', actual: 'number' })
            )
        )
    })
})

/** One schema of a namespace: a file, or the module as an object with its file name. */
export type NamespaceSchemaInput =
    | { readonly schemaPath: string }
    | { readonly schema: SchemaModuleInput; readonly fileName: string }

/**
 * Options of {@link gradeNamespace} and {@link gradeTree}: those of `gradeSingleSchema`, answers keyed by schema id
 * (and the namespace for its own units).
 */
export type GradeNamespaceOptions = Omit<GradeOptions, 'answers'> & {
    /** Pre-collected area outputs: `{ <schemaId>: { <unit>: output }, <namespace>: { <unit>: output } }`. */
    readonly answers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>
    /**
     * Skip a schema whose node in the island is already graded for the same content (default false; `gradeTree` resumes
     * by default).
     */
    readonly resume?: boolean
    /**
     * The schemas given are every schema of the namespace's tree (default: true with `dir`, false with `schemas`): a
     * schema folder of the island that is not among them is marked removed — its entries stay as history, and it no
     * longer counts toward the namespace's `index.json` (docs/island.md, "Removed nodes").
     */
    readonly complete?: boolean
}

/** One schema's row: the file, the usual single-schema result, and whether an earlier grading was kept. */
export interface NamespaceSchemaRow {
    readonly file: string
    readonly result: GradeSingleSchemaResult
    readonly resumed: boolean
}

/** Result of {@link gradeNamespace}. */
export interface GradeNamespaceResult {
    readonly namespace: string | null
    readonly schemas: NamespaceSchemaRow[]
    /**
     * The namespace-level units (tools-aggregate-namespace, namespace-description, namespace-skills, about-namespace),
     * graded once.
     */
    readonly units: UnitResult[]
    readonly entries: GradingEntry[]
    readonly prompts: GradeSingleSchemaResult['prompts']
    /**
     * The headline grade of the namespace, by the rule of its `index.json` (03 ⚠ C15): the worst over
     * its graded tools, graded or stable schemas and namespace units (REJECTED under a veto); `null`
     * when the run is provisional or nothing is graded.
     */
    readonly grade: string | null
    /**
     * With `mode: 'provisional'`: the same worst grade over deterministic answers alone — never a headline; `null`
     * otherwise.
     */
    readonly provisionalGrade: string | null
    /** `provisional` when any unit waits for non-deterministic answers; `none` when no unit could be graded. */
    readonly mode: 'full' | 'provisional' | 'none'
    readonly indexPath: string | null
    readonly rollupStatus: RollupStatus | null
    readonly rollupGrade: string | null
    /**
     * The judge calls of the whole namespace run (every schema's and the namespace units'), and the
     * repair turns among them (at most one per unit); absent when the run did not reach its namespace units.
     */
    readonly judgeCalls?: JudgeCallCount
    readonly errors: Issue[]
}

/** The judge calls of a namespace run: its schemas' and its own units'. */
function namespaceJudgeCalls(rows: readonly NamespaceSchemaRow[], own: JudgeCallCount): JudgeCallCount {
    return rows.reduce((sum, row) => addJudgeCallCounts(sum, row.result.grading?.judgeCalls), own)
}

/**
 * The About of a namespace folder: `resources/<name>` as a schema there declares it (the runtime's inline origin), else
 * the first `resources/*-about.md` (then GRA-022 says it is not declared).
 */
async function aboutIn(
    fs: FsPort,
    dir: string,
    files: readonly string[]
): Promise<{ name: string; text: string } | undefined> {
    const declared: string[] = []
    for (const file of files) {
        const read = await readText(fs, file)
        const name =
            read.ok && read.value !== null
                ? declaredAboutFile(mainOf(readModuleSource({ source: read.value }).module))
                : null
        if (name !== null) declared.push(name)
    }
    const listing = await listDir(fs, joinPath(dir, LAYOUT.resources))
    const name = listing.ok
        ? aboutFileIn(
              (listing.value ?? []).filter((e) => e.kind === 'file').map((e) => e.name),
              declared
          )
        : undefined
    if (name === undefined) return undefined
    const read = await readText(fs, joinPath(dir, LAYOUT.resources, name))
    return read.ok && read.value !== null ? { name, text: read.value } : undefined
}

const mainOf = (mod: unknown): unknown => (isObject(mod) ? (isObject(mod.main) ? mod.main : mod.schema) : undefined)

/** Whether two flat server-param records hold the same keys and values (a schema's redacted text is then reused). */
function sameParams(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
}

/** The schema files of a namespace folder: top-level `*.mjs`, except `_*`, sorted. */
async function schemaFilesIn(fs: FsPort, dir: string): Promise<{ files: string[]; issue: Issue | null }> {
    const listing = await listDir(fs, dir)
    if (!listing.ok) return { files: [], issue: listing.issue }
    if (listing.value === null)
        return { files: [], issue: createIssue('GRA-004', '/dir', { detail: `no folder at ${dir}` }) }
    return {
        files: listing.value
            .filter((e) => e.kind === 'file' && e.name.endsWith('.mjs') && !e.name.startsWith('_'))
            .map((e) => joinPath(dir, e.name))
            .sort(),
        issue: null
    }
}

/**
 * The answers of one key without the open units: a null answer (as emit-prompts --areas writes them) leaves its unit
 * open.
 */
function givenAnswers(record: unknown): Readonly<Record<string, unknown>> | undefined {
    return isObject(record) ? Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null)) : undefined
}

function answersFor(
    answers: GradeNamespaceOptions['answers'],
    base: string
): Readonly<Record<string, unknown>> | undefined {
    if (answers === undefined) return undefined
    return givenAnswers(Object.entries(answers).find(([id]) => id.endsWith(`.${base}`))?.[1])
}

/**
 * Grades every schema of one namespace as `gradeSingleSchema` does, then the namespace-level areas
 * once with every schema and tool in view (the prompts attach every schema; `tools-aggregate-namespace`
 * is computed over all of them), then rebuilds `index.json`. A schema that fails is reported on its
 * row and the others go on. Never throws.
 * @param input - `{ dir | schemas, namespace?, grader, options }`; `dir` is read through `options.sourceFs ??
 *   options.fs`
 * @returns `{ namespace, schemas: [{ file, result, resumed }], units, entries, prompts, grade, mode, indexPath,
 *   rollupStatus, rollupGrade, errors }`
 * @example await gradeNamespace({ dir: '/src/providers/openmeteo', grader, options: { sourceFs, now, judge } })
 */
export async function gradeNamespace(input: {
    dir?: string
    schemas?: readonly NamespaceSchemaInput[]
    namespace?: string
    grader?: GraderInput
    options: GradeNamespaceOptions
}): Promise<GradeNamespaceResult> {
    const errors: Issue[] = []
    const empty = (namespace: string | null = null): GradeNamespaceResult => ({
        namespace,
        schemas: [],
        units: [],
        entries: [],
        prompts: [],
        grade: null,
        provisionalGrade: null,
        mode: 'none',
        indexPath: null,
        rollupStatus: null,
        rollupGrade: null,
        errors
    })
    const root = parseArgs(INPUT, input, ARGS, STYLE)
    if (root.value === null) {
        errors.push(...root.errors)
        return empty()
    }
    const start = startNamespaceRun(input, errors)
    if (start === null) return empty()
    const { island, grader, now, boundary } = start
    const options = island.options
    const listed = await schemaItemsOf(input, options, errors)
    if (listed === null) return empty()
    const { items, about } = listed
    const shared = sharedOptionsOf(options, boundary)
    const { rows, graded } = await gradeEachSchema(items, { grader, options, shared, about })
    const { namespace, members } = membersOf(graded, input.namespace, errors)
    if (namespace === null || members.length === 0)
        return hostView({ ...empty(namespace), schemas: rows, ...headline(rows, [], null), errors }, island.host)

    await markRemovedFromTree(input, options, namespace, items, now, errors)
    const scope: NamespaceScope = {
        input,
        options,
        shared,
        about,
        members,
        rows,
        namespace,
        now,
        grader,
        answersGiven: start.answersGiven,
        boundary,
        errors
    }
    const { ran, veto, secrets, inputsKey } = await gradeNamespaceUnits(scope)
    const { indexPath, rollupStatus, rollupGrade } = await writeNamespaceUnits(
        options,
        namespace,
        now,
        { ran, inputsKey },
        errors
    )
    return hostView(
        redactSecretsDeep(
            {
                namespace,
                schemas: rows,
                units: ran.units,
                entries: ran.entries.map((e) => e.entry),
                prompts: ran.prompts,
                ...(veto !== null
                    ? { grade: 'REJECTED', provisionalGrade: null, mode: 'full' as const }
                    : headline(rows, ran.units, rollupGrade)),
                indexPath,
                rollupStatus,
                rollupGrade,
                judgeCalls: namespaceJudgeCalls(rows, judgeCallCountOf(ran.judgeCalls)),
                errors
            },
            secrets
        ),
        island.host
    )
}

/**
 * Stage "follow the tree": with the whole tree given (`dir`, or `complete`), the island's schema folders not in it are
 * marked removed.
 */
async function markRemovedFromTree(
    input: NamespaceInput,
    options: NamespaceRunOptions,
    namespace: string,
    items: readonly SchemaItem[],
    now: string,
    errors: Issue[]
): Promise<void> {
    const complete = options.complete ?? input.dir !== undefined
    if (!complete) return
    const present = new Set(items.map((i) => islandName(baseName(i.file), 'schema') ?? baseName(i.file)))
    const marked = await markRemovedSchemas(options.fs, options.root, namespace, present, now)
    errors.push(...marked.errors)
}

/** The input of {@link gradeNamespace}, as the stages read it. */
type NamespaceInput = Parameters<typeof gradeNamespace>[0]
/** The options of a namespace run on its island (the host's, or a private in-memory one). */
type NamespaceRunOptions = GradeNamespaceOptions & GradeOptionsBase & { readonly fs: FsPort; readonly root: string }
/**
 * The options every schema and the namespace units share: the run's judge and boundary, without the per-schema fields.
 */
type SharedOptions = Omit<NamespaceRunOptions, 'answers' | 'resume' | 'complete' | 'about' | 'skills'>
/** A schema to grade: its file (for the row) and how `gradeSingleSchema` reads it. */
type SchemaItem = { file: string; single: Omit<GradeSingleSchemaInput, 'options' | 'grader'> }

/**
 * Stage "start": the options on their island, the grader, the time and the run's boundary; null when any input is wrong
 * (issues in `errors`).
 */
function startNamespaceRun(
    input: NamespaceInput,
    errors: Issue[]
): {
    island: ReturnType<typeof runIsland<GradeNamespaceOptions & GradeOptionsBase>>
    answersGiven: boolean
    grader: GraderInput | null
    now: string
    boundary: string | undefined
} | null {
    errors.push(...parseArgs(OPTIONS, { options: input.options }, ARGS, STYLE).errors)
    // Without a host island the run writes to a private in-memory one, so every standing is read from an index.
    const island = runIsland((isObject(input.options) ? input.options : {}) as GradeNamespaceOptions & GradeOptionsBase)
    const options = island.options
    const answersGiven = options.judge !== undefined || options.answers !== undefined
    const grader = checkGrader(input.grader, answersGiven, errors)
    const now = nowOf(options, errors)
    if (input.dir === undefined && input.schemas === undefined)
        errors.push(createIssue('GRA-001', '/dir', { field: 'dir or schemas' }))
    errors.push(...parseArgs(SCHEMA_LIST, input, ARGS, STYLE).errors)
    errors.push(...boundaryIssues(options))
    if (errors.length > 0 || now === null) return null
    // One boundary for the whole run, so every call opens with the same system message.
    return { island, answersGiven, grader, now, boundary: runBoundary(options.boundary) }
}

/**
 * Stage "list": the schemas, listed in the folder (with its About) or given; null when there is none to grade (issues
 * in `errors`).
 */
async function schemaItemsOf(
    input: NamespaceInput,
    options: NamespaceRunOptions,
    errors: Issue[]
): Promise<{ items: SchemaItem[]; about: NamespaceRunOptions['about'] } | null> {
    let items: SchemaItem[] = []
    let about = options.about
    if (input.dir !== undefined) {
        const reader = (options.sourceFs ?? options.fs) as FsPort | undefined
        const { dir, issue } = normalizeDir(input.dir, '/dir', 'dir')
        if (reader === undefined || dir === null) {
            errors.push(
                issue ??
                    createIssue('GRA-004', '/options/sourceFs', {
                        detail: 'pass options.sourceFs (or fs) to read the namespace folder'
                    })
            )
            return null
        }
        const listed = await schemaFilesIn(reader, dir)
        if (listed.issue !== null) {
            errors.push(listed.issue)
            return null
        }
        items = listed.files.map((file) => ({ file, single: { schemaPath: file } }))
        about ??= await aboutIn(reader, dir, listed.files)
    } else {
        items = (input.schemas as readonly unknown[]).flatMap((item, i): SchemaItem[] => {
            const checked = parseArgs(SCHEMA_ITEM, item, ARGS, { ...STYLE, at: ['schemas', i] })
            errors.push(...checked.errors)
            const s = checked.value
            if (s === null) return []
            if (typeof s.schemaPath === 'string') return [{ file: s.schemaPath, single: { schemaPath: s.schemaPath } }]
            const fileName = s.fileName as string
            return [{ file: fileName, single: { schema: s.schema as SchemaModuleInput, fileName } }]
        })
    }
    if (items.length === 0) {
        errors.push(
            createIssue('GRA-004', input.dir !== undefined ? '/dir' : '/schemas', { detail: 'no schema to grade' })
        )
        return null
    }
    return { items, about }
}

/** The options every schema run and the namespace units share. */
function sharedOptionsOf(options: NamespaceRunOptions, boundary: string | undefined): SharedOptions {
    const {
        answers: _allAnswers,
        resume: _resume,
        complete: _complete,
        about: _about,
        skills: _skills,
        boundary: _boundary,
        ...rest
    } = options
    // One judge for the namespace's run: its schemas and namespace units share one count of failures in a row.
    return {
        ...rest,
        ...definedFields({ boundary }),
        ...(rest.judge !== undefined ? { judge: judgeForRun(rest.judge) as Judge } : {})
    }
}

/**
 * Stage "schemas": each schema's own areas, in order; the namespace areas come once afterwards, with every schema in
 * view.
 */
async function gradeEachSchema(
    items: readonly SchemaItem[],
    run: {
        grader: GraderInput | null
        options: NamespaceRunOptions
        shared: SharedOptions
        about: NamespaceRunOptions['about']
    }
): Promise<{ rows: NamespaceSchemaRow[]; graded: SchemaRunContext[] }> {
    const { grader, options, shared, about } = run
    const rows: NamespaceSchemaRow[] = []
    const graded: SchemaRunContext[] = []
    for (const item of items) {
        // The schema's own units only: its namespace-level answers are taken once, below.
        const own = answersFor(options.answers, baseName(item.file))
        const schemaAnswers =
            own === undefined
                ? undefined
                : Object.fromEntries(Object.entries(own).filter(([unit]) => !isNamespaceUnit(unit)))
        const result = await gradeSchemaCore(
            {
                ...item.single,
                ...(grader !== null ? { grader } : {}),
                // The About and skills go with every schema so the island import places them (beside the schema
                // declaring the About).
                options: {
                    ...shared,
                    ...definedFields({ about, skills: options.skills, answers: schemaAnswers })
                }
            } as GradeSingleSchemaInput,
            { namespaceAreas: false, resumable: options.resume === true }
        )
        rows.push({ file: item.file, result: result.result, resumed: result.resumed })
        if (result.context !== null) graded.push(result.context)
    }
    return { rows, graded }
}

/**
 * Stage "members": the namespace (given, else the first schema's), GRA-017 for each schema of another, and its schemas
 * by slug.
 */
function membersOf(
    graded: readonly SchemaRunContext[],
    given: string | undefined,
    errors: Issue[]
): { namespace: string | null; members: SchemaRunContext[] } {
    const namespaces = [...new Set(graded.map((g) => g.namespace))]
    const namespace = given ?? namespaces[0] ?? null
    for (const g of graded) {
        if (g.namespace !== namespace)
            errors.push(createIssue('GRA-017', '/schemas', { value: g.schemaId, namespace: String(namespace) }))
    }
    const members = graded
        .filter((g) => g.namespace === namespace)
        .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    return { namespace, members }
}

/** What the namespace units need: the run, its schemas graded, and the namespace they share. */
interface NamespaceScope {
    readonly input: NamespaceInput
    readonly options: NamespaceRunOptions
    readonly shared: SharedOptions
    readonly about: NamespaceRunOptions['about']
    readonly members: readonly SchemaRunContext[]
    readonly rows: readonly NamespaceSchemaRow[]
    readonly namespace: string
    readonly now: string
    readonly grader: GraderInput | null
    readonly answersGiven: boolean
    readonly boundary: string | undefined
    readonly errors: Issue[]
}

/**
 * Stage "namespace plan": the anchor schema, the host's values for every member's keys, the veto, and the namespace
 * units with their deterministic answers.
 */
function namespacePlanOf(scope: NamespaceScope): {
    anchor: SchemaRunContext
    serverParams: Record<string, string>
    secrets: string[]
    veto: CategoricalVeto | null
    aboutDeclared: boolean
    plans: UnitPlan[]
} {
    const { input, options, about, members, namespace, now, errors } = scope
    // The namespace units: identified by the schema that holds the About (else the first by name).
    const anchor = members.find((m) => m.aboutDeclared) ?? (members[0] as SchemaRunContext)
    // The values of every member's keys, so a host's function form is redacted here as in each schema's run.
    const requiredServerParams = [
        ...new Set(
            members.flatMap((m) =>
                Array.isArray(m.main.requiredServerParams)
                    ? m.main.requiredServerParams.filter((k): k is string => typeof k === 'string')
                    : []
            )
        )
    ]
    const serverParams = serverParamsFor(options.serverParams, { requiredServerParams }, errors)
    const secrets = secretForms(serverParams)
    const veto: CategoricalVeto | null = members.find((m) => m.veto !== null)?.veto ?? null
    const questions = questionRows()
    const aboutDeclared = members.some((m) => m.aboutDeclared)
    // An About without its declaration (or the reverse) is never graded: say so and how to fix it.
    errors.push(
        ...aboutDeclarationIssues({
            declared: declaredAboutFile(anchor.main),
            about,
            namespace,
            path: options.about === undefined && input.dir !== undefined ? '/dir' : '/options/about'
        })
    )
    const namespaceAnswers = DeterministicAnswers.buildNamespace({
        schemas: members.map((m) => ({ main: m.main, schemaId: m.schemaId })),
        questions,
        now,
        ...(aboutDeclared ? { aboutFileExists: about !== undefined } : {})
    })
    errors.push(...namespaceAnswers.errors)
    const plans = namespaceUnitPlans({
        namespace,
        schemaFolder: anchor.schemaFolder,
        coverage: namespaceAnswers.byArea['tools-aggregate-namespace'],
        about: namespaceAnswers.byArea['about-namespace'],
        skills: options.skills ?? []
    })
    return { anchor, serverParams, secrets, veto, aboutDeclared, plans }
}

/**
 * Stage "namespace attach and scan": every schema and the About and skills as the judge reads them, and what the
 * injection scan flagged.
 */
function namespaceMaterialOf(
    scope: NamespaceScope,
    serverParams: Readonly<Record<string, string>>
): { attachments: EmittedPrompt['attachments']; flagged: string[] } {
    const { input, options, about, members, namespace, errors } = scope
    const attachments = [
        ...members.map((m) => ({
            name: `${m.slug}.mjs`,
            role: `schema ${m.schemaId} of the namespace (tools ${Object.keys(isObject(m.main.tools) ? m.main.tools : {}).join(', ')})`,
            content: sameParams(m.redacted.serverParams, serverParams)
                ? m.redacted.text
                : (Redact.text({ text: m.schemaText, serverParams }).text ?? '')
        })),
        ...namespaceAttachments({ namespace, about, skills: options.skills ?? [], serverParams })
    ]
    // The About and skills are scanned once here (each schema's run reports its own main and source).
    const aboutPath = options.about === undefined && input.dir !== undefined ? '/dir' : '/options/about/text'
    const sharedScan = scanInjection(
        null,
        [
            ...(about !== undefined ? [{ name: about.name ?? `${namespace}-about.md`, text: about.text }] : []),
            ...(options.skills ?? []).map((sk) => ({ name: `skills/${sk.name}.mjs`, text: sk.text }))
        ],
        {
            mainPath: '',
            filePaths: [
                ...(about !== undefined ? [aboutPath] : []),
                ...(options.skills ?? []).map((_, i) => `/options/skills/${i}/text`)
            ]
        }
    )
    errors.push(...sharedScan.findings)
    const flagged = [...new Set([...members.flatMap((m) => m.flagged ?? []), ...sharedScan.flagged])]
    return { attachments, flagged }
}

/** Stage "namespace units": planned, kept (resume), attached and run once for the whole namespace. */
async function gradeNamespaceUnits(scope: NamespaceScope): Promise<{
    ran: Awaited<ReturnType<typeof runPlans>>
    veto: CategoricalVeto | null
    secrets: string[]
    inputsKey: string | null
}> {
    const { options, shared, about, members, namespace, now, grader, answersGiven, boundary, errors } = scope
    const { anchor, serverParams, secrets, veto, aboutDeclared, plans } = namespacePlanOf(scope)
    const answers =
        options.answers !== undefined
            ? (givenAnswers(options.answers[namespace]) ?? answersFor(options.answers, anchor.slug) ?? {})
            : undefined
    const runOptions = { ...shared, ...definedFields({ about }) } as GradeOptionsBase
    // The namespace units rest on every schema of the tree (by its inputs key) and on what the run shares.
    const inputsKey = namespaceInputsKey({
        ...runInputsOf(
            {
                ...runOptions,
                ...definedFields({ skills: options.skills, answers })
            },
            grader,
            serverParams,
            () => true
        ),
        namespace,
        members: members.map((m) => ({ schemaFolder: m.schemaFolder, inputsKey: m.inputsKey }))
    })
    // Resume: namespace units the island holds graded from the same inputs are kept, not asked again.
    const kept =
        options.resume === true && options.fs !== undefined && options.root !== undefined
            ? await keptUnits(
                  options.fs,
                  options.root,
                  namespace,
                  { namespaceUnits: plans.map((p) => p.unit), anchorFolder: anchor.schemaFolder },
                  inputsKey
              )
            : undefined
    const toolList = members
        .map((m) => `${m.slug}: ${Object.keys(isObject(m.main.tools) ? m.main.tools : {}).join(', ')}`)
        .join('; ')
    const { attachments, flagged } = namespaceMaterialOf(scope, serverParams)
    const ran = await runPlans(
        plans.map((p) => ({
            ...p,
            notes: [`The namespace has ${members.length} schema(s); every tool: ${toolList}.`]
        })),
        {
            schemaId: anchor.schemaId,
            version: anchor.version,
            schemaHash: anchor.schemaHash,
            now,
            grader,
            options: runOptions,
            answersGiven,
            attachments,
            serverParams,
            secrets,
            errors,
            veto,
            blockedTools: new Map(),
            preconditions: namespacePreconditions(scope.rows),
            aboutDeclared,
            namespace,
            aboutHash:
                about !== undefined ? (HashGenerator.hashBytes({ text: about.text }).short ?? undefined) : undefined,
            stable: anchor.stable || !answersGiven,
            ...definedFields({ kept }),
            boundary: chooseBoundary({ given: boundary, texts: attachments.flatMap((a) => [a.name, a.content]) })
                .boundary,
            flagged,
            // Namespace units are answered under the namespace, or (as single-schema answer files have them) under the
            // anchor schema.
            ...definedFields({ answers })
        }
    )
    return { ran, veto, secrets, inputsKey }
}

/** Stage "write and roll up": the namespace entries, `state.json`, then one rebuild of the namespace index. */
async function writeNamespaceUnits(
    options: NamespaceRunOptions,
    namespace: string,
    now: string,
    graded: { ran: Awaited<ReturnType<typeof runPlans>>; inputsKey: string | null },
    errors: Issue[]
): Promise<{ indexPath: string | null; rollupStatus: RollupStatus | null; rollupGrade: string | null }> {
    const { ran, inputsKey } = graded
    const fs = options.fs
    const root = options.root.replace(/\/+$/, '')
    for (const { plan, entry } of ran.entries) {
        const written = await writeGrading({ fs, root, target: plan.target, entry, now })
        const at = ran.units.findIndex((u) => u.unit === plan.unit)
        if (!written.status) {
            errors.push(
                createIssue('GRA-016', '', { unit: plan.unit, detail: written.errors.map((e) => e.code).join(', ') }),
                ...written.errors
            )
            markNotWritten(ran.units, plan.unit, written.errors)
        } else if (at >= 0) ran.units[at] = { ...(ran.units[at] as UnitResult), written: written.path }
    }
    errors.push(
        ...(await writeUnitState(fs, root, namespace, ran.units, ran.entries, undefined, {
            schema: null,
            namespace: inputsKey
        }))
    )
    const rebuilt = await RebuildIndex.rebuildNamespaceIndex({
        fs,
        namespaceDir: joinPath(root, LAYOUT.providers, namespace),
        now
    })
    errors.push(...rebuilt.errors.filter((e) => e.severity === SEVERITY.error))
    const index = rebuilt.index as { status?: unknown; grade?: unknown } | null
    return {
        indexPath: rebuilt.indexPath,
        rollupStatus: (ROLLUP_STATUSES as readonly unknown[]).includes(index?.status)
            ? (index?.status as RollupStatus)
            : null,
        rollupGrade: typeof index?.grade === 'string' ? index.grade : null
    }
}

/** The result as the host sees it: without a host island, no path or rollup of the private one. */
function hostView(result: GradeNamespaceResult, host: boolean): GradeNamespaceResult {
    if (host) return result
    return {
        ...result,
        schemas: result.schemas.map((r) => ({ ...r, result: withoutIslandPaths(r.result) })),
        units: result.units.map((u) => (u.written === null ? u : { ...u, written: null })),
        indexPath: null,
        rollupStatus: null,
        rollupGrade: null
    }
}

/**
 * The namespace aggregate rests on every schema's tools aggregate: a blocked one blocks it (blocked-by-precondition).
 */
function namespacePreconditions(rows: readonly NamespaceSchemaRow[]): Map<string, string> {
    return namespacePrecondition(
        rows.flatMap((r) =>
            r.result.grading?.units.some((u) => u.area === 'tools-aggregate-schema' && u.status === UNIT_STATUS.blocked)
                ? [r.result.grading.schemaId]
                : []
        )
    )
}

/**
 * The namespace's headline: its `index.json` grade (03 ⚠ C15, the worst over its graded nodes,
 * REJECTED under a veto) — the same value the index holds. Provisional when any unit waits for
 * answers: then the grade is null and the deterministic-only figure is `provisionalGrade`.
 */
function headline(
    rows: readonly NamespaceSchemaRow[],
    units: readonly UnitResult[],
    indexGrade: string | null
): Pick<GradeNamespaceResult, 'grade' | 'provisionalGrade' | 'mode'> {
    const gradings = rows.flatMap((r) => (r.result.grading !== null ? [r.result.grading] : []))
    const counted = [...gradings.flatMap((g) => g.units), ...units]
    const provisional = counted.some((u) => u.status === UNIT_STATUS.provisional)
    const rejected =
        gradings.some((g) => g.status === NODE_STATUS.rejected) || units.some((u) => u.status === UNIT_STATUS.rejected)
    const mode = provisional
        ? 'provisional'
        : counted.some((u) => u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected)
          ? 'full'
          : 'none'
    if (rejected) return { grade: 'REJECTED', provisionalGrade: null, mode }
    return provisional
        ? { grade: null, provisionalGrade: headlineGrade(counted), mode }
        : { grade: indexGrade, provisionalGrade: null, mode }
}

/** Progress of {@link gradeTree}: one event as each namespace starts and ends. */
export interface TreeProgress {
    readonly namespace: string
    readonly phase: 'start' | 'done'
    readonly done: number
    readonly total: number
}

/** Result of {@link gradeTree}. */
export interface GradeTreeResult {
    /** One result per namespace, in name order whatever the concurrency. */
    readonly namespaces: GradeNamespaceResult[]
    /** True when the signal aborted the run: namespaces not started are absent; what was written stays consistent. */
    readonly cancelled: boolean
    readonly errors: Issue[]
}

/**
 * Grades every namespace folder under `root` (a folder with `*.mjs` files; `root` itself when it has
 * some) with {@link gradeNamespace}, `concurrency` namespaces at a time, into one island. Resumes
 * by default: a schema whose node is already graded for the same content is kept (`force: true`
 * grades everything again). Results come in namespace order; `onProgress` hears each namespace start
 * and end; an aborted `signal` starts nothing new and leaves every written file whole. Never throws.
 * @param input - `{ root, grader, options: { sourceFs | fs, now, judge?, answers?, concurrency = 1, force?, signal?,
 *   onProgress?, … } }`
 * @returns `{ namespaces, cancelled, errors }`
 * @example
 * await gradeTree({
 *     root: '/src/providers',
 *     grader,
 *     options: { sourceFs, fs, root: '/island', now, judge, concurrency: 4 }
 * })
 */
export async function gradeTree(input: {
    root: string
    grader?: GraderInput
    options: GradeNamespaceOptions & {
        readonly concurrency?: number
        readonly force?: boolean
        readonly signal?: { readonly aborted: boolean }
        readonly onProgress?: (event: TreeProgress) => void
    }
}): Promise<GradeTreeResult> {
    const errors: Issue[] = []
    const start = startTree(input)
    if (!start.ok) return { namespaces: [], cancelled: false, errors: [start.issue] }
    const { reader, root, concurrency } = start.value
    const found = await namespaceDirsOf(reader, root)
    if (!found.ok) return { namespaces: [], cancelled: false, errors: [found.issue] }
    const { results, cancelled } = await gradeNamespacesOf(found.value, input, concurrency)
    return { namespaces: results, cancelled, errors }
}

type TreeInput = Parameters<typeof gradeTree>[0]

/** Stage "check" of a tree run: its reader, root folder and concurrency, else the one issue that stops it. */
function startTree(input: TreeInput): PortResult<{ reader: FsPort; root: string; concurrency: number }> {
    const stop = (issue: Issue): { ok: false; issue: Issue } => ({ ok: false, issue })
    const checked = parseArgs(TREE_INPUT, input, ARGS, STYLE)
    if (checked.value === null) return stop(checked.errors[0] as Issue)
    const options = input.options
    const reader = (options.sourceFs ?? options.fs) as FsPort | undefined
    const { dir: root, issue } = normalizeDir(input.root, '/root', 'root')
    if (reader === undefined || root === null) {
        return stop(
            issue ??
                createIssue('GRA-004', '/options/sourceFs', {
                    detail: 'pass options.sourceFs (or fs) to read the tree'
                })
        )
    }
    const run = parseArgs(TREE_RUN, { options }, ARGS, { ...STYLE, field: 'key' })
    if (run.value === null) return stop(run.errors[0] as Issue)
    return { ok: true, value: { reader, root, concurrency: run.value.options.concurrency ?? 1 } }
}

/**
 * Stage "find": the namespace folders that hold a schema, in name order (the root itself when it holds schema files).
 */
async function namespaceDirsOf(reader: FsPort, root: string): Promise<PortResult<string[]>> {
    const listing = await listDir(reader, root)
    if (!listing.ok) return listing
    if (listing.value === null) {
        return { ok: false, issue: createIssue('GRA-004', '/root', { detail: `no folder at ${root}` }) }
    }
    const hasSchemas = listing.value.some((e) => e.kind === 'file' && e.name.endsWith('.mjs'))
    const dirs = hasSchemas
        ? [root]
        : listing.value
              .filter((e) => e.kind === 'directory' && !e.name.startsWith('.'))
              .map((e) => joinPath(root, e.name))
              .sort()
    const candidates: string[] = []
    for (const dir of dirs) {
        const files = await schemaFilesIn(reader, dir)
        if (files.files.length > 0) candidates.push(dir)
    }
    return { ok: true, value: candidates }
}

/** The progress callback as the tree calls it: one that throws is ignored. */
function progressOf(onProgress: ((event: TreeProgress) => void) | undefined): (event: TreeProgress) => void {
    return (event) => {
        try {
            onProgress?.(event)
        } catch {
            // A failing progress callback only loses its display.
        }
    }
}

/**
 * Stage "grade": the folders by `concurrency` workers, results in folder order; an aborted signal starts none after.
 */
async function gradeNamespacesOf(
    candidates: readonly string[],
    input: TreeInput,
    concurrency: number
): Promise<{ results: GradeNamespaceResult[]; cancelled: boolean }> {
    const options = input.options
    const results: Array<GradeNamespaceResult | undefined> = new Array(candidates.length)
    let next = 0
    let done = 0
    let cancelled = false
    const {
        concurrency: _c,
        force: _f,
        signal,
        onProgress,
        ...namespaceOptions
    } = { ...options, ...(options.judge !== undefined ? { judge: judgeForRun(options.judge) as Judge } : {}) }
    // One boundary for every namespace of the tree.
    const boundary = runBoundary(options.boundary)
    const notify = progressOf(onProgress)
    const worker = async (): Promise<void> => {
        while (next < candidates.length) {
            if (signal?.aborted === true) {
                cancelled = true
                return
            }
            const index = next
            next += 1
            const dir = candidates[index] as string
            const name = dir.split('/').pop() ?? dir
            notify({ namespace: name, phase: 'start', done, total: candidates.length })
            results[index] = await gradeNamespace({
                dir,
                ...definedFields({ grader: input.grader }),
                options: {
                    ...namespaceOptions,
                    ...definedFields({ signal, boundary }),
                    resume: options.force !== true
                }
            })
            done += 1
            notify({ namespace: name, phase: 'done', done, total: candidates.length })
        }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, candidates.length)) }, () => worker()))
    return { results: results.filter((r): r is GradeNamespaceResult => r !== undefined), cancelled }
}
