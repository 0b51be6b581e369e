// `grade`: grades schema files namespace by namespace and prints one row per schema. `runGrading`
// (shared with `check`) reads as its stages: find the files, read the answers, build the judge, the
// network and the runtime, grade the folders, write the recordings, say what an interrupt skipped.
import { stat } from 'node:fs/promises'
import { runBoundary } from '../../injection/boundary.js'
import type { GradeNamespaceResult, HttpPort, Recording } from '../../index.js'
import { UNIT_STATUS } from '../../model/constants.js'
import { recordingHttpPort } from '../../ports/record.js'
import { colourEnabled, paint } from '../colour.js'
import { EXIT, type CliIo } from '../io.js'
import { absolute, httpPort, nodeFs, schemaFiles } from '../node.js'
import { gradeFolders, groupByFolder, skippedBy, type GradedFolder, type GradingSetup } from './grade-folders.js'
import { judgeOf, readAnswers } from './grade-judge.js'
import type { GradeCommandOptions } from './grade-options.js'
import { fixListsOf, writeRecordings, writeReport, writeSarif } from './grade-outputs.js'
import { estimateOutput } from './grade-estimate.js'
import { jsonReport } from './grade-json.js'
import { namespaceFixListsOf } from './grade-namespace.js'
import { textReport, type RuntimeView, type SchemaRow } from './grade-render.js'
import { watchGrade, type GradePass } from './grade-watch.js'
import { runtimeForGrade } from './grade-runtime.js'
import { readSigningKey, signEntries } from './grade-sign.js'

/** What a grading run of the CLI produced: per namespace its result, per schema its row. */
export interface GradingRun {
    readonly now: string
    readonly namespaces: GradeNamespaceResult[]
    readonly results: SchemaRow[]
    /** The runtime of `--runtime` and what it ran, or null. */
    readonly runtime: RuntimeView | null
    /** Interrupted (Ctrl-C): what was skipped, in words; null when the run finished. */
    readonly interrupted: readonly string[] | null
    /** Interrupted: the schema files of the folders never started (no result of theirs above). */
    readonly notStarted: readonly string[]
}

/** `grade <schema.mjs|dir…>`: grades each schema (offline by default) and prints one row per schema. */
export async function gradeCommand(paths: readonly string[], options: GradeCommandOptions, io: CliIo): Promise<number> {
    if (options.watch === true && options.estimate !== true) return watchGrade(paths, options, io, gradePass)
    return (await gradePass(paths, options, io)).code
}

/** Grades, writes the outputs and prints the report once. */
export async function gradePass(paths: readonly string[], options: GradeCommandOptions, io: CliIo): Promise<GradePass> {
    const none = (code: number): GradePass => ({ code, results: [], fixes: new Map() })
    // A key that cannot sign is a usage error before anything is graded.
    const signing = options.estimate === true ? null : await readSigningKey(options, io, 'grade')
    if (typeof signing === 'number') return none(signing)
    const run = await runGrading(paths, options, io, 'grade')
    if (typeof run === 'number') return none(run)
    const { now, namespaces, results, runtime } = run
    if (options.estimate === true) {
        io.stdout(estimateOutput(options, now, namespaces))
        return none(EXIT.OK)
    }
    const signedAll = signing === null || (await signEntries(namespaces, signing, io, 'grade'))
    await writeReport(options, io, 'grade')
    const fixes = await fixListsOf(
        results,
        options.rules,
        options.recordings !== undefined ? { recordings: options.recordings, cwd: io.cwd, run: options } : undefined
    )
    if (!(await writeSarif(options, [...fixes.values()].flat(), io, 'grade'))) return none(EXIT.USAGE)
    const all = { schemas: fixes, namespaces: await namespaceFixListsOf(namespaces, options.rules) }
    if (options.json) io.stdout(`${JSON.stringify(jsonReport(now, namespaces, results, all, runtime), null, 2)}\n`)
    else
        io.stdout(
            paint(
                textReport(namespaces, results, all, options.verbose === true, runtime),
                colourEnabled(io.env, io.stdoutIsTTY === true)
            )
        )
    const code = run.interrupted !== null ? EXIT.INTERRUPTED : incomplete(run) || !signedAll ? EXIT.FINDINGS : EXIT.OK
    return { code, results, fixes }
}

/**
 * Whether the grading has holes a re-run fills: a schema that could not be graded, or a unit that
 * failed (a judge that failed, a reply refused, a write that failed). Findings, vetoes and tools not
 * tested for a missing key are what the grading says, not holes in it: `check` gates on those.
 * The same state gives the same answer, whether this run graded it or kept it from the island.
 */
export function incomplete(run: Pick<GradingRun, 'namespaces' | 'results'>): boolean {
    return (
        run.results.some(
            ({ result }) => result.grading === null || result.grading.units.some((u) => u.status === UNIT_STATUS.error)
        ) || run.namespaces.some((result) => result.units.some((u) => u.status === UNIT_STATUS.error))
    )
}

/**
 * Reads the schemas, builds the judge, and grades namespace by namespace (the `grade` and `check`
 * commands share it): the results, or an exit code for wrong usage.
 */
export async function runGrading(
    paths: readonly string[],
    options: GradeCommandOptions,
    io: CliIo,
    command: string
): Promise<GradingRun | number> {
    if (paths.length === 0 && options.pathsListed === true) {
        io.stderr(`${command}: no schema file or folder to ${command}\n`)
        return {
            now: options.now ?? new Date().toISOString(),
            namespaces: [],
            results: [],
            runtime: null,
            interrupted: null,
            notStarted: []
        }
    }
    const files = await findSchemaFiles(paths, io, command)
    if (typeof files === 'number') return files
    const answers = await readAnswers(options, io, command)
    if (typeof answers === 'number') return answers
    const fs = nodeFs()
    const now = options.now ?? new Date().toISOString()
    if (options.report !== undefined && options.island === undefined) {
        io.stderr(`${command}: --report needs --island (the report is of the island)\n`)
        return EXIT.USAGE
    }
    const judging = await judgeOf(files, options, io, answers.file, command)
    if (typeof judging === 'number') return judging
    const serverParams = serverParamsOf(options, io)
    const network = await networkOf(options, io, now, () => serverParams(judging.denyEnv))
    // One data-block boundary for the whole command, so every judge call of it opens with the same system message.
    const boundary = runBoundary(undefined)
    const runtime = runtimeOf(options, io, command, network.http)
    if (typeof runtime === 'number') return runtime
    const setup: GradingSetup = {
        fs,
        now,
        estimate: options.estimate === true,
        answers: answers.file.answers,
        grader: judging.grader,
        judge: judging.judge,
        serverParams,
        http: network.http,
        boundary,
        runtime: runtime.port
    }
    const graded = await gradeFolders(groupByFolder(files), setup, options, io, await wholeFolders(paths, io))
    if (
        network.recorder !== null &&
        !(await writeRecordings(network.recorder.recordings(), absolute(options.record as string, io.cwd), io, command))
    )
        return EXIT.USAGE
    const skipped = graded.aborted ? skippedBy(graded.dirs, graded.tree, io.cwd) : []
    if (graded.aborted)
        io.stderr(`${command}: interrupted; skipped: ${skipped.join('; ') || 'nothing'}; the island is consistent\n`)
    const namespaces = graded.tree.filter((t): t is GradedFolder => t !== undefined).map((t) => t.result)
    const notStarted = graded.dirs.flatMap((d, i) =>
        graded.tree[i] === undefined ? (groupByFolder(files).get(d) ?? []) : []
    )
    return {
        now,
        namespaces,
        results: namespaces.flatMap((n) => n.schemas),
        runtime: runtime.port !== null ? { version: runtime.port.version ?? null, runs: runtime.runs } : null,
        interrupted: graded.aborted ? skipped : null,
        notStarted
    }
}

/**
 * The folders named as folders (each with the folders under it): their schema files are the whole tree there, so an
 * island schema that is not among them has left it (marked removed). A folder of files named one by one is not whole.
 */
async function wholeFolders(paths: readonly string[], io: CliIo): Promise<(dir: string) => boolean> {
    const folders: string[] = []
    for (const p of paths) {
        const path = absolute(p, io.cwd)
        const info = await stat(path).catch(() => null)
        if (info?.isDirectory() === true) folders.push(path.replace(/\/+$/, ''))
    }
    return (dir) => folders.some((f) => dir === f || dir.startsWith(`${f}/`))
}

/**
 * Every schema file the paths name, each once; or the exit code when there is none or a path cannot be read (the reason
 * on stderr).
 */
async function findSchemaFiles(paths: readonly string[], io: CliIo, command: string): Promise<string[] | number> {
    if (paths.length === 0) {
        io.stderr(`${command}: name at least one schema file or folder\n`)
        return EXIT.USAGE
    }
    const files: string[] = []
    try {
        for (const p of paths) files.push(...(await schemaFiles(absolute(p, io.cwd))))
    } catch (cause) {
        io.stderr(`${command}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
    const unique = [...new Set(files)]
    if (unique.length === 0) {
        io.stderr(`${command}: no .mjs schema files found\n`)
        return EXIT.USAGE
    }
    return unique
}

/**
 * The HTTP port of a run (live, replayed from `--recordings`, or none) and, with `--record`, the recorder in front of
 * it.
 */
async function networkOf(
    options: GradeCommandOptions,
    io: CliIo,
    now: string,
    serverParams: () => Record<string, string>
): Promise<{ http: HttpPort | undefined; recorder: { port: HttpPort; recordings: () => Recording[] } | null }> {
    const live = await httpPort({
        live: options.live,
        ...(options.recordings !== undefined ? { recordings: absolute(options.recordings, io.cwd) } : {})
    })
    // --record: the live exchanges kept, server params as placeholders, written when the run ends.
    const recorder =
        options.record !== undefined && live !== undefined
            ? recordingHttpPort({ http: live, serverParams: serverParams(), recordedAt: now })
            : null
    return { http: recorder?.port ?? live, recorder }
}

/**
 * The server params of a schema's keys, from the environment. Under `--recordings` without
 * `--live` a key the environment lacks is given as `{{SERVER_PARAM:<KEY>}}`, the placeholder the
 * recordings hold and match with any value: a replay needs no key (CI, fork pull requests).
 */
function serverParamsOf(options: GradeCommandOptions, io: CliIo): (keys: readonly string[]) => Record<string, string> {
    const keyless = options.recordings !== undefined && !options.live
    return (keys) =>
        Object.fromEntries(
            keys.flatMap(
                (k): Array<[string, string]> =>
                    typeof io.env[k] === 'string'
                        ? [[k, io.env[k] as string]]
                        : keyless
                          ? [[k, `{{SERVER_PARAM:${k}}}`]]
                          : []
            )
        )
}

/** The runtime of `--runtime` (its port null without one), or the exit code when its options are wrong. */
function runtimeOf(
    options: GradeCommandOptions,
    io: CliIo,
    command: string,
    http: HttpPort | undefined
): ReturnType<typeof runtimeForGrade> | number {
    const offline = http === undefined
    // Its children's requests go through the run's network: the same port, recorder and replay as plain requests.
    const runtime = runtimeForGrade(options, io.cwd, http)
    if (runtime.errors.length > 0) {
        for (const e of runtime.errors) io.stderr(`${command}: ${e}\n`)
        return EXIT.USAGE
    }
    // Offline the runtime still runs the handler tools' tests: its child has no network (a test that tries it fails,
    // DPT-021).
    if (runtime.port !== null && offline)
        io.stderr(
            `${command}: --runtime offline: the handler tools' tests run with no network (a test that needs it fails as network not granted: pass --live or --recordings); other tools are not tested\n`
        )
    return runtime
}
