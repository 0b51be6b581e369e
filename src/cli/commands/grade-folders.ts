// `grade` and `check`'s folder stage: every folder one namespace, graded `--concurrency` at a time,
// with a progress line and Ctrl-C stopping the run between namespaces (grade.ts sets up the run).
import { importSchemaLoader } from '../../grade/loader.js'
import { gradeNamespace } from '../../index.js'
import type { FsPort, GradeNamespaceResult, GraderInput, HttpPort, Judge, RuntimePort } from '../../index.js'
import { UNIT_STATUS } from '../../model/constants.js'
import type { CliIo } from '../io.js'
import { aboutBeside, absolute } from '../node.js'
import type { AnswersFile } from './grade-judge.js'
import type { GradeCommandOptions } from './grade-options.js'
import { definedFields } from '../../model/fields.js'

/** What every namespace of a run is graded with, set up once before the first one starts. */
export interface GradingSetup {
    readonly fs: FsPort
    readonly now: string
    readonly estimate: boolean
    readonly answers: AnswersFile['answers']
    readonly grader: GraderInput | undefined
    readonly judge: Judge | undefined
    readonly serverParams: (keys: readonly string[]) => Record<string, string>
    readonly http: HttpPort | undefined
    readonly boundary: string | undefined
    readonly runtime: (RuntimePort & { close(): Promise<void> }) | null
}

/** One namespace per folder: its schema files, in the order found. */
export function groupByFolder(files: readonly string[]): Map<string, string[]> {
    const groups = new Map<string, string[]>()
    for (const file of files) {
        const dir = file.slice(0, file.lastIndexOf('/'))
        groups.set(dir, [...(groups.get(dir) ?? []), file])
    }
    return groups
}

export type GradedFolder = { dir: string; result: GradeNamespaceResult }

/** The folders in name order, each one's result (undefined: never started), and whether Ctrl-C cut the run short. */
interface GradedFolders {
    readonly dirs: readonly string[]
    readonly tree: ReadonlyArray<GradedFolder | undefined>
    readonly aborted: boolean
}

/**
 * Grades the folders, `--concurrency` at a time, each as one namespace: its schemas one by one, its
 * namespace areas once (gradeNamespace). The runtime is closed when the last one ends.
 */
export async function gradeFolders(
    groups: ReadonlyMap<string, readonly string[]>,
    setup: GradingSetup,
    options: GradeCommandOptions,
    io: CliIo,
    whole: (dir: string) => boolean = () => false
): Promise<GradedFolders> {
    const dirs = [...groups.keys()].sort()
    const tree: Array<GradedFolder | undefined> = new Array(dirs.length)
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
            const schemas = groups.get(dir) ?? []
            const about = await aboutBeside(schemas)
            const input = namespaceInput(schemas, about, setup, options, io, signal)
            // A folder named whole: an island schema not among its files has left the tree.
            const result = await gradeNamespace(
                whole(dir) ? { ...input, options: { ...input.options, complete: true } } : input
            )
            tree[index] = { dir, result }
            done += 1
            showProgress(io, result.namespace ?? dir.split('/').pop() ?? dir, done, dirs.length)
        }
    }
    try {
        await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 1, dirs.length) }, () => worker()))
    } finally {
        await setup.runtime?.close()
    }
    process.removeListener('SIGINT', onSigint)
    if (io.isTTY) io.stderr('\n')
    return { dirs, tree, aborted: signal.aborted }
}

/** What one namespace is graded with: its schemas and About, and what every namespace of the run shares. */
function namespaceInput(
    schemas: readonly string[],
    about: { name: string; text: string } | undefined,
    setup: GradingSetup,
    options: GradeCommandOptions,
    io: CliIo,
    signal: AbortSignal
): Parameters<typeof gradeNamespace>[0] {
    // The answers file is data read at run time: the library checks the grader and answers it holds (GRA-001/002/009).
    return {
        schemas: schemas.map((schemaPath) => ({ schemaPath })),
        ...definedFields({ grader: setup.grader }),
        options: {
            sourceFs: setup.fs,
            now: setup.now,
            ...(options.trustedImport === true ? { trustedLoader: importSchemaLoader } : {}),
            serverParams: setup.serverParams,
            ...definedFields({ http: setup.http, minWorkingTests: options.minWorkingTests }),
            ...(setup.runtime !== null ? { runtime: setup.runtime } : {}),
            ...definedFields({ boundary: setup.boundary, about }),
            ...(setup.answers !== undefined
                ? { answers: setup.answers as Record<string, Record<string, unknown>> }
                : {}),
            // An estimate calls no judge and writes nothing: the prompts it gets back are the requests a judge would
            // receive. The judge command keeps its own timer (--judge-timeout, which kills its process group), so the
            // library's is off.
            ...(setup.judge !== undefined && !setup.estimate
                ? { judge: setup.judge, judgeTimeoutMs: 0, signal, sleep: abortableSleep(signal) }
                : {}),
            ...(options.island !== undefined && !setup.estimate
                ? { fs: setup.fs, root: absolute(options.island, io.cwd), resume: options.force !== true }
                : {})
        }
    } as Parameters<typeof gradeNamespace>[0]
}

/** Progress after each namespace: a bar on a terminal; one quiet line per namespace otherwise. */
function showProgress(io: CliIo, name: string, done: number, total: number): void {
    if (io.isTTY)
        io.stderr(`\r[${'#'.repeat(Math.round((done / total) * 20)).padEnd(20)}] ${done}/${total} ${name}`.padEnd(80))
    else if (total > 1) io.stderr(`graded ${name} (${done}/${total})\n`)
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
export function skippedBy(
    dirs: readonly string[],
    tree: ReadonlyArray<{ dir: string; result: GradeNamespaceResult } | undefined>,
    cwd: string
): string[] {
    const name = (dir: string): string => (dir.startsWith(`${cwd}/`) ? dir.slice(cwd.length + 1) : dir)
    const out: string[] = []
    const notStarted = dirs.filter((_, i) => tree[i] === undefined).map(name)
    if (notStarted.length > 0) out.push(`not started: ${notStarted.join(', ')}`)
    for (const t of tree) {
        if (t === undefined) continue
        const open = [...t.result.schemas.flatMap((s) => s.result.grading?.units ?? []), ...t.result.units].filter(
            (u) => u.status === UNIT_STATUS.error && /aborted/.test(u.reason ?? '')
        )
        if (open.length > 0)
            out.push(
                `${open.length} unit${open.length === 1 ? '' : 's'} of ${t.result.namespace ?? name(t.dir)} not answered`
            )
    }
    return out
}
