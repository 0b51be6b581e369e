import { SEVERITY } from '../../model/constants.js'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { recordingHttpPort } from '../../ports/record.js'
import { readModuleSource } from '../../schema/source-loader.js'
import { judgeFromCliOptions, type JudgeCliValues } from '../judge-command.js'
import { judgeForRun } from '../../grade/judge-call.js'
import { importSchemaLoader } from '../../grade/loader.js'
import { FixList, FixRules, getVersion, gradeNamespace, renderIslandReport, Sarif, sourceLocations, JudgeCost, type FixItem, type GradingEntry, type GradeNamespaceResult, type Recording, type GraderInput, type Judge, type RuntimePort } from '../../index.js'
import { EXIT, redacted, table, type CliIo } from '../io.js'
import { aboutBeside, absolute, httpPort, nodeFs, schemaFiles } from '../node.js'
import { fixEntriesOf } from '../../fix/fix-list.js'
import { runBoundary } from '../../injection/boundary.js'
import { runtimePortFromChildProcess, type ChildRuntimePort } from '../runtime-process.js'
import type { ChildNetwork } from '../runtime-protocol.js'
import { estimateText, FIX_ITEMS_SHOWN, jsonReport, textReport, type RuntimeView, type SchemaRow } from './grade-render.js'

export { FIX_ITEMS_SHOWN }

/** `--runtime` and its options: the FlowMCP runtime that runs the tests of handler schemas, in a child process. */
export interface GradeRuntimeOptions {
    /** The flowmcp-core folder (`--runtime`). */
    readonly folder: string
    /** The folder whose `node_modules` holds the schemas' libraries (`--runtime-libraries`); default: the runtime folder. */
    readonly libraries?: string
    /** The shared lists folder (`--runtime-lists`). */
    readonly lists?: string
    /** The child script; default: `runtime-child.js` beside the CLI (tests pass a build of their own). */
    readonly childScript?: string
}

export interface GradeCommandOptions {
    readonly json: boolean
    /** Namespaces graded at once (default 1). */
    readonly concurrency?: number
    /** Working tests a tool needs to be graded (default 3, the spec's SHOULD; a parameterless tool needs 1). */
    readonly minWorkingTests?: number
    /** Grade schemas again that the island already holds graded for the same content. */
    readonly force?: boolean
    /** `--judge-command` and its options: any LLM command line as the judge (docs/judges.md). */
    readonly judgeCli?: JudgeCliValues
    /** Where to write the HTML report of the island after grading (needs `island`). */
    readonly report?: string
    readonly island?: string
    readonly answers?: string
    readonly live: boolean
    readonly recordings?: string
    readonly now?: string
    /** Import (run) each schema module instead of reading its syntax tree; only for trusted sources. */
    readonly trustedImport?: boolean
    /** Print the judge calls and input tokens the grading would cost (total and prefix-cacheable), calling no judge and writing nothing. */
    readonly estimate?: boolean
    /** Every item of each schema's fix list, not only the worst few. */
    readonly verbose?: boolean
    /** Write every fix item as SARIF 2.1.0 to this file (code-scanning results). */
    readonly sarif?: string
    /** Run the tests of handler schemas through the FlowMCP runtime, in a child process (`--runtime`). */
    readonly runtime?: GradeRuntimeOptions
    /** The config file's rules (`{ "<code>": "off" | "warning" | "error" }`), applied to what is shown, never to a grade. */
    readonly rules?: Readonly<Record<string, unknown>>
    /** With `live`: write every HTTP exchange into this folder as recordings `--recordings` replays (docs/recordings.md). */
    readonly record?: string
    /** With `estimate`: US dollars per million input and output tokens. */
    readonly prices?: { readonly input?: number; readonly output?: number }
}
/** What the runtime ran in this grading run: per schema file, per tool, its tests and how many returned data. */
export type RuntimeRuns = Map<string, Map<string, { tests: number; ok: number }>>

/**
 * The runtime port of `grade --runtime`: the child-process port, its network following the grade
 * mode (`--live`: the real fetch; `--recordings <dir>`: those recordings replayed; otherwise a fetch
 * that rejects), wrapped to note which tests it ran (the table and `--json` mark them).
 * @returns the port (call `close()` when grading is done) and what it ran, or the problems with the options
 */
export function runtimeForGrade(options: Pick<GradeCommandOptions, 'runtime' | 'live' | 'recordings'>, cwd: string): { port: (RuntimePort & { close(): Promise<void> }) | null; runs: RuntimeRuns; errors: string[] } {
    const runs: RuntimeRuns = new Map()
    if (options.runtime === undefined) return { port: null, runs, errors: [] }
    const network: ChildNetwork = options.live ? { mode: 'live' } : options.recordings !== undefined ? { mode: 'recordings', dir: absolute(options.recordings, cwd) } : { mode: 'offline' }
    const built = runtimePortFromChildProcess({
        runtime: absolute(options.runtime.folder, cwd),
        ...(options.runtime.libraries !== undefined ? { libraries: absolute(options.runtime.libraries, cwd) } : {}),
        ...(options.runtime.lists !== undefined ? { lists: absolute(options.runtime.lists, cwd) } : {}),
        ...(options.runtime.childScript !== undefined ? { childScript: options.runtime.childScript } : {}),
        network
    })
    if (built.port === null) return { port: null, runs, errors: built.errors }
    const child: ChildRuntimePort = built.port
    const port: RuntimePort & { close(): Promise<void> } = {
        ...(child.version !== undefined ? { version: child.version } : {}),
        isolation: child.isolation,
        async run(request) {
            const outcome = await child.run(request)
            if (request.schemaPath !== null) {
                const tools = runs.get(request.schemaPath) ?? new Map<string, { tests: number; ok: number }>()
                const seen = tools.get(request.tool) ?? { tests: 0, ok: 0 }
                tools.set(request.tool, { tests: seen.tests + 1, ok: seen.ok + (outcome.ok ? 1 : 0) })
                runs.set(request.schemaPath, tools)
            }
            return outcome
        },
        close: () => child.close()
    }
    return { port, runs, errors: [] }
}


/** The answers file: the grader identity and, per schema id, the area outputs keyed by unit. */
interface AnswersFile {
    readonly grader?: GraderInput
    readonly answers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}


/** The `requiredServerParams` of every schema file, read from their syntax trees (never run). */
async function requiredServerParamsOf(files: readonly string[]): Promise<string[]> {
    const names = new Set<string>()
    for (const file of files) {
        try {
            const main = readModuleSource({ source: await readFile(file, 'utf8') }).module?.main as { requiredServerParams?: unknown } | undefined
            if (Array.isArray(main?.requiredServerParams)) for (const n of main.requiredServerParams) if (typeof n === 'string') names.add(n)
        } catch {
            // Unreadable here means unreadable for grading too; it is reported there.
        }
    }
    return [...names]
}

/** What a grading run of the CLI produced: per namespace its result, per schema its row. */
export interface GradingRun {
    readonly now: string
    readonly namespaces: GradeNamespaceResult[]
    readonly results: SchemaRow[]
    /** The runtime of `--runtime` and what it ran, or null. */
    readonly runtime: RuntimeView | null
    /** Interrupted (Ctrl-C): what was skipped, in words; null when the run finished. */
    readonly interrupted: readonly string[] | null
}

/** `grade <schema.mjs|dir…>`: grades each schema (offline by default) and prints one row per schema. */
export async function gradeCommand(paths: readonly string[], options: GradeCommandOptions, io: CliIo): Promise<number> {
    const run = await runGrading(paths, options, io, 'grade')
    if (typeof run === 'number') return run
    const { now, namespaces, results, runtime } = run
    if (options.estimate === true) {
        const cost = JudgeCost.estimate({ calls: JudgeCost.callsOf({ namespaces }), ...(options.prices !== undefined ? { prices: options.prices } : {}) })
        io.stdout(options.json ? JSON.stringify({ now, estimate: { calls: cost.calls, inputTokens: cost.inputTokens, cachedTokens: cost.cachedTokens, uncachedTokens: cost.uncachedTokens, outputTokens: cost.outputTokens, charsPerToken: cost.charsPerToken, cost: cost.cost, byKey: cost.byKey } }, null, 2) + '\n' : estimateText(cost))
        return EXIT.OK
    }
    await writeReport(options, io, 'grade')
    const fixes = await fixListsOf(results, options.rules)
    if (!(await writeSarif(options, [...fixes.values()].flat(), io, 'grade'))) return EXIT.USAGE
    if (options.json) io.stdout(JSON.stringify(jsonReport(now, namespaces, results, fixes, runtime), null, 2) + '\n')
    else io.stdout(textReport(namespaces, results, fixes, options.verbose === true, runtime))
    if (run.interrupted !== null) return EXIT.INTERRUPTED
    return incomplete(run) ? EXIT.FINDINGS : EXIT.OK
}

/**
 * Whether the grading has holes a re-run fills: a schema that could not be graded, or a unit that
 * failed (a judge that failed, a reply refused, a write that failed). Findings, vetoes and tools not
 * tested for a missing key are what the grading says, not holes in it: `check` gates on those.
 * The same state gives the same answer, whether this run graded it or kept it from the island.
 */
export function incomplete(run: Pick<GradingRun, 'namespaces' | 'results'>): boolean {
    return run.results.some(({ result }) => result.grading === null || result.grading.units.some((u) => u.status === 'error')) || run.namespaces.some((result) => result.units.some((u) => u.status === 'error'))
}

/** The HTML report of the island, when asked for (`--report`, with `--island`). */
export async function writeReport(options: Pick<GradeCommandOptions, 'report' | 'island' | 'rules'>, io: CliIo, command: string): Promise<void> {
    if (options.report === undefined || options.island === undefined) return
    const report = await renderIslandReport({ fs: nodeFs(), root: absolute(options.island, io.cwd), ...(options.rules !== undefined ? { rules: options.rules } : {}) })
    try {
        await writeFile(absolute(options.report, io.cwd), redacted(io, report.html))
        io.stderr(`report: ${absolute(options.report, io.cwd)}\n`)
    } catch (cause) {
        io.stderr(`${command}: cannot write the report: ${cause instanceof Error ? cause.message : String(cause)}\n`)
    }
}

/**
 * Reads the schemas, builds the judge, and grades namespace by namespace (the `grade` and `check`
 * commands share it): the results, or an exit code for wrong usage.
 */
export async function runGrading(paths: readonly string[], options: GradeCommandOptions, io: CliIo, command: string): Promise<GradingRun | number> {
    if (paths.length === 0) {
        io.stderr(`${command}: name at least one schema file or folder\n`)
        return EXIT.USAGE
    }
    let files: string[] = []
    try {
        for (const p of paths) files.push(...(await schemaFiles(absolute(p, io.cwd))))
    } catch (cause) {
        io.stderr(`${command}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
    files = [...new Set(files)]
    if (files.length === 0) {
        io.stderr(`${command}: no .mjs schema files found\n`)
        return EXIT.USAGE
    }
    let answersFile: AnswersFile = {}
    if (options.answers !== undefined) {
        try {
            answersFile = JSON.parse(await readFile(absolute(options.answers, io.cwd), 'utf8')) as AnswersFile
        } catch (cause) {
            io.stderr(`${command}: cannot read answers ${options.answers}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
            return EXIT.USAGE
        }
    }
    const fs = nodeFs()
    const now = options.now ?? new Date().toISOString()
    if (options.report !== undefined && options.island === undefined) {
        io.stderr(`${command}: --report needs --island (the report is of the island)\n`)
        return EXIT.USAGE
    }
    // The judge command never sees a server param, even one named with --judge-env.
    const denyEnv = await requiredServerParamsOf(files)
    const built = judgeFromCliOptions(options.judgeCli ?? {}, io.env, { denyEnv })
    if (built.errors.length > 0) {
        for (const e of built.errors) io.stderr(`${command}: ${e}\n`)
        return EXIT.USAGE
    }
    // One judge for the whole command: every namespace shares its count of failures in a row (judge-call.ts).
    const judge: Judge | undefined = judgeForRun(built.judge ?? undefined)
    io.addSecrets?.(denyEnv.flatMap((k) => (typeof io.env[k] === 'string' ? [io.env[k] as string] : [])))
    // A judge's answers need a grader with a persona (GRA-009): the judge command's, recorded with the
    // model and harness its options name (never guessed from the command line) and the answers file's
    // persona when it has one; without a judge, the answers file's grader.
    const estimate = options.estimate === true
    const defaultPersona = { basePersonaId: 'schema-maintainer', lensId: 'neutral' } as const
    const grader: GraderInput | undefined =
        judge !== undefined && built.model !== null
            ? { name: 'judge-command', version: '1', llmModel: built.model, harness: built.harness, persona: answersFile.grader?.persona ?? defaultPersona }
            : estimate
              ? // The persona a judge run would use, so the estimated requests are the ones it would send.
                { name: 'estimate', version: '1', llmModel: 'none', persona: answersFile.grader?.persona ?? defaultPersona }
              : answersFile.grader
    const serverParams = (keys: readonly string[]): Record<string, string> => Object.fromEntries(keys.filter((k) => typeof io.env[k] === 'string').map((k) => [k, io.env[k] as string]))
    const live = await httpPort({ live: options.live, ...(options.recordings !== undefined ? { recordings: absolute(options.recordings, io.cwd) } : {}) })
    // --record: the live exchanges kept, server params as placeholders, written when the run ends.
    const recorder = options.record !== undefined && live !== undefined ? recordingHttpPort({ http: live, serverParams: serverParams(denyEnv), recordedAt: now }) : null
    const http = recorder?.port ?? live
    // One data-block boundary for the whole command, so every judge call of it opens with the same system message.
    const boundary = runBoundary(undefined)
    const runtime = runtimeForGrade(options, io.cwd)
    if (runtime.errors.length > 0) {
        for (const e of runtime.errors) io.stderr(`${command}: ${e}\n`)
        return EXIT.USAGE
    }
    // Offline the runtime still runs the handler tools' tests: its child has no network (a test that tries it fails, DPT-021).
    if (runtime.port !== null && http === undefined) io.stderr(`${command}: --runtime offline: the handler tools' tests run with no network (a test that needs it fails as network not granted: pass --live or --recordings); other tools are not tested\n`)
    // One namespace per folder: its schemas graded one by one, its namespace areas once (gradeNamespace).
    const groups = new Map<string, string[]>()
    for (const file of files) {
        const dir = file.slice(0, file.lastIndexOf('/'))
        groups.set(dir, [...(groups.get(dir) ?? []), file])
    }
    const dirs = [...groups.keys()].sort()
    const tree: Array<{ dir: string; result: GradeNamespaceResult } | undefined> = new Array(dirs.length)
    // Ctrl-C: no namespace starts after it, the judge call under way is abandoned (its process group
    // killed); what was written is whole (every write is atomic). A second Ctrl-C ends the process.
    const abort = new AbortController()
    const signal = abort.signal
    const onSigint = (): void => abort.abort('interrupted (Ctrl-C)')
    process.once('SIGINT', onSigint)
    let next = 0
    let done = 0
    const worker = async (): Promise<void> => {
        while (next < dirs.length && !signal.aborted) {
            const index = next
            next += 1
            const dir = dirs[index] as string
            const about = await aboutBeside(groups.get(dir) ?? [])
            // The answers file is data read at run time: the library checks the grader and answers it holds (GRA-001/002/009).
            const result = await gradeNamespace({
                schemas: (groups.get(dir) ?? []).map((schemaPath) => ({ schemaPath })),
                ...(grader !== undefined ? { grader } : {}),
                options: {
                    sourceFs: fs,
                    now,
                    ...(options.trustedImport === true ? { trustedLoader: importSchemaLoader } : {}),
                    serverParams,
                    ...(http !== undefined ? { http } : {}),
                    ...(options.minWorkingTests !== undefined ? { minWorkingTests: options.minWorkingTests } : {}),
                    ...(runtime.port !== null ? { runtime: runtime.port } : {}),
                    ...(boundary !== undefined ? { boundary } : {}),
                    ...(about !== undefined ? { about } : {}),
                    ...(answersFile.answers !== undefined ? { answers: answersFile.answers as Record<string, Record<string, unknown>> } : {}),
                    // An estimate calls no judge and writes nothing: the prompts it gets back are the requests a judge would receive.
                    ...(judge !== undefined && !estimate ? { judge, signal, sleep: abortableSleep(signal) } : {}),
                    ...(options.island !== undefined && !estimate ? { fs, root: absolute(options.island, io.cwd), resume: options.force !== true } : {})
                }
            } as Parameters<typeof gradeNamespace>[0])
            tree[index] = { dir, result }
            done += 1
            const name = result.namespace ?? dir.split('/').pop() ?? dir
            // A bar on a terminal; one quiet line per namespace otherwise.
            if (io.isTTY) io.stderr(`\r[${'#'.repeat(Math.round((done / dirs.length) * 20)).padEnd(20)}] ${done}/${dirs.length} ${name}`.padEnd(80))
            else if (dirs.length > 1) io.stderr(`graded ${name} (${done}/${dirs.length})\n`)
        }
    }
    try {
        await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 1, dirs.length) }, () => worker()))
    } finally {
        await runtime.port?.close()
    }
    process.removeListener('SIGINT', onSigint)
    if (io.isTTY) io.stderr('\n')
    if (recorder !== null && !(await writeRecordings(recorder.recordings(), absolute(options.record as string, io.cwd), io, command))) return EXIT.USAGE
    const skipped = signal.aborted ? skippedBy(dirs, tree, io.cwd) : []
    if (signal.aborted) io.stderr(`${command}: interrupted; skipped: ${skipped.join('; ') || 'nothing'}; the island is consistent\n`)
    const namespaces = tree.filter((t): t is { dir: string; result: GradeNamespaceResult } => t !== undefined).map((t) => t.result)
    return { now, namespaces, results: namespaces.flatMap((n) => n.schemas), runtime: runtime.port !== null ? { version: runtime.port.version ?? null, runs: runtime.runs } : null, interrupted: signal.aborted ? skipped : null }
}

/** Writes each host's recording as `<dir>/<host name>.json` (replacing an earlier one), the files `--recordings <dir>` reads. */
async function writeRecordings(recordings: readonly Recording[], dir: string, io: CliIo, command: string): Promise<boolean> {
    try {
        await mkdir(dir, { recursive: true })
        for (const recording of recordings) {
            const name = recording.host.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]/g, '_')
            await writeFile(join(dir, `${name}.json`), redacted(io, JSON.stringify(recording, null, 2)) + '\n')
        }
        io.stderr(`recorded: ${recordings.reduce((n, r) => n + r.exchanges.length, 0)} exchanges of ${recordings.length} host${recordings.length === 1 ? '' : 's'} in ${dir}\n`)
        return true
    } catch (cause) {
        io.stderr(`${command}: cannot write the recordings: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return false
    }
}

/** A sleep for the judge's backoff that Ctrl-C cuts short. */
function abortableSleep(signal: AbortSignal): (ms: number) => Promise<void> {
    return (ms) =>
        new Promise<void>((resolve) => {
            const done = (): void => {
                clearTimeout(timer)
                resolve()
            }
            const timer = setTimeout(done, ms)
            signal.addEventListener('abort', done, { once: true })
        })
}

/** What an interrupted run left out: the namespaces never started, and the units of started ones no judge answered. */
function skippedBy(dirs: readonly string[], tree: ReadonlyArray<{ dir: string; result: GradeNamespaceResult } | undefined>, cwd: string): string[] {
    const name = (dir: string): string => (dir.startsWith(`${cwd}/`) ? dir.slice(cwd.length + 1) : dir)
    const out: string[] = []
    const notStarted = dirs.filter((_, i) => tree[i] === undefined).map(name)
    if (notStarted.length > 0) out.push(`not started: ${notStarted.join(', ')}`)
    for (const t of tree) {
        if (t === undefined) continue
        const open = [...t.result.schemas.flatMap((s) => s.result.grading?.units ?? []), ...t.result.units].filter((u) => u.status === 'error' && /aborted/.test(u.reason ?? ''))
        if (open.length > 0) out.push(`${open.length} unit${open.length === 1 ? '' : 's'} of ${t.result.namespace ?? name(t.dir)} not answered`)
    }
    return out
}

/**
 * Each schema's fix list: its findings, its untested tools and the judge's low answers (entries of
 * this run, and of kept units read back from the island), most costly first.
 */
export async function fixListsOf(results: readonly SchemaRow[], rules?: Readonly<Record<string, unknown>>): Promise<Map<SchemaRow, FixItem[]>> {
    const out = new Map<SchemaRow, FixItem[]>()
    for (const row of results) {
        const g = row.result.grading
        if (g === null) continue
        const entries = fixEntriesOf(g.units, row.result.entries)
        for (const unit of g.units) {
            if (unit.kept !== true || unit.written === null) continue
            try {
                entries.push({ unit: unit.unit, entry: JSON.parse(await readFile(unit.written, 'utf8')) as GradingEntry })
            } catch {
                // A kept entry that cannot be read back adds no answers; the island's rebuild reports it.
            }
        }
        // Where each item is in the source: the schema file's syntax tree (read again; never run).
        let places: { locate: (pointer: string) => { line: number; column: number } | null; resolve: (pointer: string) => { line: number; column: number } | null } | undefined
        try {
            const found = sourceLocations({ source: await readFile(row.file, 'utf8') })
            places = { locate: found.locate, resolve: found.resolve }
        } catch {
            places = undefined
        }
        const items = FixList.build({ schemaId: g.schemaId, file: row.file, errors: row.result.errors, units: g.units, entries, ...(places ?? {}) }).items
        // The config's rules, on what is shown (the fix list, SARIF, the summary): the grade is already computed.
        out.set(row, FixRules.apply({ items, rules }).items)
    }
    return out
}

/**
 * Writes the fix items as SARIF 2.1.0 (`--sarif <file>`), paths relative to the working folder so a
 * code host places them on the lines of the repository. False when the file cannot be written.
 */
export async function writeSarif(options: Pick<GradeCommandOptions, 'sarif'>, items: readonly FixItem[], io: CliIo, command: string): Promise<boolean> {
    if (options.sarif === undefined) return true
    const cwd = io.cwd.endsWith('/') ? io.cwd : `${io.cwd}/`
    const relative = items.map((i) => (i.file !== null && i.file.startsWith(cwd) ? { ...i, file: i.file.slice(cwd.length) } : i))
    const built = Sarif.fromFixItems({ items: relative, tool: { name: 'flowmcp-grading', version: getVersion().packageVersion } })
    for (const e of built.errors.filter((x) => x.severity === SEVERITY.error)) io.stderr(`${command}: SARIF: ${e.message}\n`)
    if (built.log === null) return false
    try {
        await writeFile(absolute(options.sarif, io.cwd), redacted(io, JSON.stringify(built.log, null, 2)) + '\n')
        io.stderr(`sarif: ${absolute(options.sarif, io.cwd)}\n`)
        return true
    } catch (cause) {
        io.stderr(`${command}: cannot write the SARIF file: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return false
    }
}
