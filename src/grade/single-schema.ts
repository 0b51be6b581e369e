// One schema's run as its stages: start, read, check, pretest and answer, attach and scan, judge, write, roll up
// (docs/contributing.md); each stage's work lives in its own module beside this one.
import { DeterministicAnswers } from '../deterministic/answers.js'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { UNIT_STATUS } from '../model/constants.js'
import { isStableGrade } from '../model/grades.js'
import type { CategoricalVeto } from '../model/types.js'
import type { FsPort } from '../ports/types.js'
import { DataPretest, testRecordsOf, type PretestResult } from '../pretest/data-pretest.js'
import { redactSecretsDeep } from '../prompts/redact.js'
import { judgeForRun } from './judge-call.js'
import { KeyDomain } from '../schema/key-domain.js'
import { aboutDeclarationIssues, declaredAboutFile } from './about.js'
import type { GradeSingleSchemaInput, GradeSingleSchemaResult, Judge } from './types.js'
import { keptUnits, schemaNodeIn, writeIsland, type KeptUnit, type UnitKeys } from './island-state.js'
import { namespaceInputsKey, runtimeInputsOf, schemaInputsKey, type RunInputs } from './inputs-key.js'
import { judgeCallCountOf } from './judge-call.js'
import { namespacePrecondition, runPlans } from './run-plans.js'
import { isObject } from '../model/object.js'
import { promptMaterialOf, plansFor } from './prompt-material.js'
import { questionRows } from '../deterministic/answers.js'
import { ARGS, STYLE, startRun, type SchemaRunOptions } from './run-input.js'
import { objectArg, parseArgs } from '../validation/args.js'
import { readSchema, identifySchema, type ReadSchema, type SchemaIdentity } from './schema-read.js'
import { resultFromIsland, allOwnUnitsKept, schemaGradingOf, type SchemaRunContext } from './schema-result.js'
import { definedFields } from '../model/fields.js'

type Obj = Record<string, unknown>

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

/**
 * One schema, with or without the namespace-level areas: `gradeSingleSchema` grades them from this
 * schema's view; `gradeNamespace` grades them once for all its schemas and asks for the schema's own
 * areas only.
 */
export async function gradeSchemaCore(
    input: GradeSingleSchemaInput,
    mode: { namespaceAreas: boolean; resumable?: boolean }
): Promise<SchemaRun> {
    return gradeSchemaInner(input, mode)
}

/**
 * A schema's run: its result, what a namespace run needs of it (null when it stopped early), and whether the island
 * answered it.
 */
interface SchemaRun {
    readonly result: GradeSingleSchemaResult
    readonly context: SchemaRunContext | null
    readonly resumed: boolean
}

/** Stage "pretest": the schema's tests through the host's HTTP port (or its runtime, for handler schemas). */
function pretestOf(args: {
    main: Obj
    validation: { valid: boolean; errors: readonly Issue[] }
    keyDomain: ReturnType<typeof KeyDomain.check>
    options: SchemaRunOptions
    serverParams: Readonly<Record<string, string>>
    now: string
    hasHandlers: boolean
    schemaPath: string | null
}): Promise<PretestResult> {
    const { main, validation, keyDomain, options, serverParams, now } = args
    return DataPretest.run({
        main,
        validation,
        keyDomain,
        http: options.http ?? null,
        serverParams,
        now,
        ...definedFields({
            minWorkingTests: options.minWorkingTests,
            concurrency: options.concurrency,
            timeoutMs: options.timeoutMs,
            throttleMs: options.throttleMs,
            sleep: options.sleep,
            runtime: options.runtime,
            runtimeTools: options.runtimeTools
        }),
        hasHandlers: args.hasHandlers,
        schemaPath: args.schemaPath
    })
}

/**
 * What the code answers before any judge: the pretest, the deterministic answers of the schema and its namespace, a
 * veto.
 */
interface DeterministicStage {
    readonly pretest: PretestResult
    readonly deterministic: ReturnType<typeof DeterministicAnswers.build>
    readonly namespaceAnswers: ReturnType<typeof DeterministicAnswers.buildNamespace>
    readonly veto: CategoricalVeto | null
}

/**
 * Stage "pretest and answer": the key check, the live pretest, then every deterministic answer (their issues in
 * `errors`).
 */
async function answerDeterministic(args: {
    input: GradeSingleSchemaInput
    read: ReadSchema
    options: SchemaRunOptions
    id: SchemaIdentity
    now: string
    namespaceAreas: boolean
    aboutDeclared: boolean
    errors: Issue[]
}): Promise<DeterministicStage> {
    const { input, read, options, id, now, aboutDeclared, errors } = args
    const { main, validation, resolved } = read
    const keyDomain = KeyDomain.check({ main })
    const pretest = await pretestOf({
        main,
        validation,
        keyDomain,
        options,
        serverParams: id.serverParams,
        now,
        hasHandlers: resolved.hasHandlers === true,
        schemaPath: typeof input.schemaPath === 'string' ? input.schemaPath : null
    })
    errors.push(...pretest.errors)
    const questions = questionRows()
    // An About without its declaration (or the reverse) is never graded: say so and how to fix it.
    if (args.namespaceAreas)
        errors.push(
            ...aboutDeclarationIssues({
                declared: declaredAboutFile(main),
                about: options.about,
                namespace: id.namespace,
                path: '/options/about'
            })
        )
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
    const namespaceAnswers = DeterministicAnswers.buildNamespace({
        schemas: [{ main, schemaId: id.schemaId }],
        questions,
        now,
        ...(aboutDeclared ? { aboutFileExists: options.about !== undefined } : {})
    })
    errors.push(...namespaceAnswers.errors)
    return { pretest, deterministic, namespaceAnswers, veto: deterministic.veto }
}

/**
 * Stages "start" and "read" done: the checked start, the schema read and identified, and what later stages read of it.
 */
interface OpenedSchema {
    readonly start: NonNullable<ReturnType<typeof startRun>>
    readonly read: ReadSchema
    readonly id: SchemaIdentity
    readonly tools: string[]
    readonly schemaText: string
    readonly aboutDeclared: boolean
}

/** Stages "start" and "read": null when the input, its options or its schema stops the run (the issues in `errors`). */
async function openSchema(input: GradeSingleSchemaInput, errors: Issue[]): Promise<OpenedSchema | null> {
    // An absent input is a wrong type too (GRA-002, never GRA-001): STYLE reports only a key as missing.
    const given = parseArgs(objectArg(), input, ARGS, STYLE)
    if (given.value === null) {
        errors.push(...given.errors)
        return null
    }
    const start = startRun(input, errors)
    if (start === null) return null
    const options = start.island.options
    const read = await readSchema(input, options, errors)
    if (read === null) return null
    const { main, resolved } = read
    const id = identifySchema(input, main, resolved.fileBase, options, errors)
    if (id === null) return null
    // identifySchema checked that main.tools is an object.
    const tools = Object.keys(main.tools as Obj)
    const schemaText = resolved.source ?? `export const main = ${JSON.stringify(main, null, 4)}\n`
    const aboutDeclared = isObject(main.resources) && isObject(main.resources.about)
    return { start, read, id, tools, schemaText, aboutDeclared }
}

/** Resume: units whose entry for the same inputs is in the island are kept, not graded (or paid for) again. */
async function keptFor(
    opened: OpenedSchema,
    resumable: boolean,
    inputsKey: string | null
): Promise<Map<string, KeptUnit>> {
    const options = opened.start.island.options
    if (!resumable || options.fs === undefined || options.root === undefined) return new Map<string, KeptUnit>()
    const { namespace, schemaFolder, schemaHash } = opened.id
    return keptUnits(options.fs, options.root, namespace, { schemaFolder, schemaHash, tools: opened.tools }, inputsKey)
}

/** Whether a unit (an answers key) is one of a schema's own: a tool's single-test or the tools aggregate. */
export const isOwnSchemaUnit = (unit: string): boolean =>
    unit.startsWith('single-test/') || unit === 'tools-aggregate-schema'

/** What a run shares between its units' keys (inputs-key.ts), with the answers `pick` selects. */
export function runInputsOf(
    options: SchemaRunOptions,
    grader: RunInputs['grader'],
    serverParams: Readonly<Record<string, string>>,
    pick: (unit: string) => boolean
): RunInputs {
    const answers = isObject(options.answers)
        ? Object.fromEntries(Object.entries(options.answers).filter(([unit]) => pick(unit)))
        : undefined
    return {
        grader,
        judgeGiven: typeof options.judge === 'function',
        ...definedFields({ answers, about: options.about }),
        ...(options.skills !== undefined
            ? { skills: options.skills.map((s) => ({ name: s.name, text: s.text })) }
            : {}),
        runtime: runtimeInputsOf(options.runtime),
        runtimeTools: options.runtimeTools === 'all' ? 'all' : 'handlers',
        serverParamNames: Object.keys(serverParams).filter((k) => serverParams[k] !== '')
    }
}

/**
 * The inputs keys of a schema's run: its own units', and (run with its namespace areas) the namespace's, of which it
 * is the only member.
 */
function unitKeysOf(opened: OpenedSchema, pretest: PretestResult, namespaceAreas: boolean): UnitKeys {
    const { start, id, schemaText } = opened
    const options = start.island.options
    const schema = schemaInputsKey({
        ...runInputsOf(options, start.grader, id.serverParams, isOwnSchemaUnit),
        schemaHash: id.schemaHash,
        schemaText,
        pretest
    })
    if (!namespaceAreas) return { schema, namespace: null }
    const namespace = namespaceInputsKey({
        ...runInputsOf(options, start.grader, id.serverParams, (unit) => !isOwnSchemaUnit(unit)),
        namespace: id.namespace,
        members: [{ schemaFolder: id.schemaFolder, inputsKey: schema }]
    })
    return { schema, namespace }
}

/** A schema whose own units the island holds for this content: its result read back from there, nothing graded. */
async function resumedRun(
    opened: OpenedSchema,
    kept: ReadonlyMap<string, KeptUnit>,
    errors: Issue[],
    inputsKey: string | null,
    pretest: PretestResult
): Promise<SchemaRun> {
    const { start, read, id, tools, schemaText, aboutDeclared } = opened
    const island = start.island
    const node = await schemaNodeIn(island.options, id.namespace, id.schemaFolder)
    const fromIsland = resultFromIsland({
        id,
        version: id.version,
        main: read.main,
        schemaText,
        tools,
        kept,
        aboutDeclared,
        errors,
        node,
        inputsKey,
        pretest: {
            ran: pretest.ran,
            reason: pretest.reason,
            ok: pretest.ok,
            blocked: pretest.blocked,
            tests: testRecordsOf(pretest.results)
        }
    })
    return { result: island.finish(fromIsland.result), context: fromIsland.context, resumed: true }
}

/** What stage "judge" hands on: the prompt material of the run and every unit's outcome. */
interface JudgedUnits {
    readonly material: ReturnType<typeof promptMaterialOf>
    readonly ran: Awaited<ReturnType<typeof runPlans>>
}

/** Stages "plan", "attach and scan" and "judge": each unit graded by the judge, taken from the answers, or a prompt. */
async function judgeUnits(args: {
    input: GradeSingleSchemaInput
    opened: OpenedSchema
    answered: DeterministicStage
    kept: Map<string, KeptUnit>
    namespaceAreas: boolean
    errors: Issue[]
}): Promise<JudgedUnits> {
    const { input, opened, answered, kept, namespaceAreas, errors } = args
    const { start, read, id, tools, schemaText, aboutDeclared } = opened
    const { namespace, version, schemaId, schemaFolder, serverParams, secrets, schemaHash } = id
    const { options } = start.island
    const { pretest, deterministic, namespaceAnswers, veto } = answered
    // The units of this run, in the order they are graded.
    const skills = options.skills ?? []
    const plans = plansFor(
        { tools, namespace, schemaFolder, deterministic, namespaceAnswers, skills, namespaceAreas },
        options.answers,
        errors
    )
    const material = promptMaterialOf({ input, main: read.main, schemaText, options, id, namespaceAreas, errors })
    const blockedTools = new Map(pretest.blocked.map((b) => [b.tool, `${b.reason} — ${b.detail}`]))
    // Seen from this schema, the namespace aggregate rests on its tools aggregate, which rests on every tool.
    const preconditions = namespaceAreas ? namespacePrecondition(blockedTools.size > 0 ? [schemaId] : []) : undefined
    const { aboutHash, attachments, boundary, flagged } = material
    const ran = await runPlans(plans, {
        schemaId,
        version,
        schemaHash,
        now: start.now,
        grader: start.grader,
        options,
        answersGiven: start.answersGiven,
        attachments,
        serverParams,
        secrets,
        errors,
        veto,
        blockedTools,
        aboutDeclared,
        namespace,
        aboutHash,
        stable: false,
        kept,
        boundary,
        flagged,
        ...definedFields({ preconditions })
    })
    if (ran.units.some((u) => u.status === UNIT_STATUS.provisional)) errors.push(createIssue('GRA-014', ''))
    return { material, ran }
}

/** What a namespace run needs of this schema once its units are graded. */
function runContextOf(
    opened: OpenedSchema,
    veto: CategoricalVeto | null,
    judged: JudgedUnits,
    inputsKey: string | null
): SchemaRunContext {
    const { id, read, schemaText, aboutDeclared } = opened
    const { schemaId, namespace, slug, schemaFolder, schemaHash, version, serverParams } = id
    const schemaUnit = judged.ran.units.find((u) => u.area === 'tools-aggregate-schema')
    return {
        schemaId,
        namespace,
        slug,
        schemaFolder,
        schemaHash,
        version,
        main: read.main,
        schemaText,
        redacted: { serverParams, text: judged.material.redactedText },
        veto,
        stable: isStableGrade(schemaUnit?.aggregateGrade),
        aboutDeclared,
        flagged: judged.material.flagged,
        inputsKey
    }
}

/** Stage "write and roll up": the entries into the island, then the standing from its rebuilt index. */
async function writeAndRollUp(
    opened: OpenedSchema,
    answered: DeterministicStage,
    judged: JudgedUnits,
    keys: UnitKeys,
    errors: Issue[]
): Promise<SchemaRun> {
    const { start, read, id, schemaText } = opened
    const { island, now } = start
    const options = island.options
    const { namespace, version, schemaId, slug, secrets, schemaHash } = id
    const { pretest, veto } = answered
    const { units, entries, prompts, provisional, judgeCalls } = judged.ran
    const written = await writeIsland({
        fs: options.fs as FsPort,
        root: options.root as string,
        now,
        namespace,
        slug,
        schemaHash,
        schemaText,
        main: read.main,
        options,
        pretest,
        entries,
        units,
        errors,
        secrets,
        judgeCalls: judgeCallCountOf(judgeCalls),
        keys
    })
    const { indexPath, rollupStatus, rollupGrade, schemaNode } = written
    const context = runContextOf(opened, veto, judged, keys.schema)
    const { ran, reason, ok, blocked } = pretest
    const grading = {
        ...schemaGradingOf({
            schemaId,
            namespace,
            slug,
            schemaHash,
            version,
            units,
            veto,
            pretest: { ran, reason, ok, blocked, tests: testRecordsOf(pretest.results) },
            indexPath,
            rollupStatus,
            rollupGrade,
            node: schemaNode
        }),
        judgeCalls: judgeCallCountOf(judgeCalls)
    }
    const result = { grading, entries: entries.map((e) => e.entry), prompts, provisional, errors }
    return { result: island.finish(redactSecretsDeep(result, secrets)), context, resumed: false }
}

/** The stages in order: read, check, pretest and answer, judge, write and roll up. */
async function gradeSchemaInner(
    input: GradeSingleSchemaInput,
    scope: { namespaceAreas: boolean; resumable?: boolean }
): Promise<SchemaRun> {
    const errors: Issue[] = []
    const opened = await openSchema(input, errors)
    if (opened === null) {
        return {
            result: { grading: null, entries: [], prompts: [], provisional: {}, errors },
            context: null,
            resumed: false
        }
    }
    const { start, read, id, aboutDeclared } = opened
    // The pretest runs first: the evidence it gathers is an input of every unit (a changed recording is a change).
    const answered = await answerDeterministic({
        input,
        read,
        options: start.island.options,
        id,
        now: start.now,
        namespaceAreas: scope.namespaceAreas,
        aboutDeclared,
        errors
    })
    const keys = unitKeysOf(opened, answered.pretest, scope.namespaceAreas)
    const kept = await keptFor(opened, scope.resumable === true, keys.schema)
    // A vetoed schema runs again (its veto must reach the namespace units) but writes no new veto entry.
    if (!scope.namespaceAreas && allOwnUnitsKept(opened.tools, kept))
        return resumedRun(opened, kept, errors, keys.schema, answered.pretest)
    const judged = await judgeUnits({ input, opened, answered, kept, namespaceAreas: scope.namespaceAreas, errors })
    return writeAndRollUp(opened, answered, judged, keys, errors)
}
