// `grade --watch`: the author's edit loop. Grades once, then again whenever a schema, a recording or an About under
// the watched paths is saved, into the same island, so the island's reuse keys decide which units the judge is asked
// about again (only those whose inputs changed). After each pass it prints what moved: each schema's grade and score
// before → after, the findings fixed and the new ones. Ctrl-C (or the io's signal) ends it with 130.
import { watch, type FSWatcher } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { FIX_ITEMS_SHOWN, type FixItem } from '../../fix/types.js'
import { EXIT, type CliIo } from '../io.js'
import { absolute } from '../node.js'
import type { GradeCommandOptions } from './grade-options.js'
import type { SchemaRow } from './grade-render.js'
import { gradeText } from './grade-status.js'

/** One pass of `grade`: its exit code, and for a finished pass the rows and fix lists it printed (what --watch compares). */
export interface GradePass {
    readonly code: number
    readonly results: readonly SchemaRow[]
    readonly fixes: ReadonlyMap<SchemaRow, FixItem[]>
}

/** What a save must touch to start a pass: schema modules, recordings and configs, Abouts and skills. */
const WATCHED = /\.(?:mjs|js|json|md)$/
/** Saves closer together than this are one change (an editor writes a file in several steps). */
const SETTLE_MS = 150

/** A schema's grade and fix lines after a pass, as the delta compares them. */
interface Seen {
    readonly grade: string
    readonly findings: ReadonlyMap<string, string>
}

function findingKey(item: FixItem): string {
    return `${item.code}\u0000${item.tool ?? ''}\u0000${item.message}`
}

function findingText(item: FixItem): string {
    return `${item.code}${item.tool !== undefined ? ` tool ${item.tool}` : ''}: ${item.message}`
}

function seenOf(pass: GradePass): Map<string, Seen> {
    const out = new Map<string, Seen>()
    for (const row of pass.results) {
        const id = row.result.grading?.schemaId ?? row.file
        const g = row.result.grading
        const grade = g === null ? 'error' : g.grade !== null ? gradeText(g) : g.status
        const items = pass.fixes.get(row) ?? []
        out.set(id, { grade, findings: new Map(items.map((i) => [findingKey(i), findingText(i)])) })
    }
    return out
}

/** What moved between two passes, in lines: per schema its grade before → after, findings fixed and new. */
export function deltaText(before: ReadonlyMap<string, Seen>, after: ReadonlyMap<string, Seen>): string {
    const lines: string[] = []
    for (const [id, now] of after) {
        const was = before.get(id)
        if (was === undefined) {
            lines.push(`  ${id}: new, ${now.grade}`)
            continue
        }
        const fixed = [...was.findings].filter(([k]) => !now.findings.has(k)).map(([, t]) => t)
        const added = [...now.findings].filter(([k]) => !was.findings.has(k)).map(([, t]) => t)
        if (was.grade === now.grade && fixed.length === 0 && added.length === 0) continue
        lines.push(`  ${id}: ${was.grade} → ${now.grade}`)
        const list = (label: string, texts: string[]): void => {
            for (const t of texts.slice(0, FIX_ITEMS_SHOWN)) lines.push(`    ${label}  ${t}`)
            if (texts.length > FIX_ITEMS_SHOWN) lines.push(`    ${label}  … and ${texts.length - FIX_ITEMS_SHOWN} more`)
        }
        list('fixed', fixed)
        list('new  ', added)
    }
    for (const id of before.keys()) if (!after.has(id)) lines.push(`  ${id}: gone from the tree`)
    return lines.length === 0 ? 'what moved: nothing\n' : `what moved:\n${lines.join('\n')}\n`
}

/** Watches each path (a folder recursively) and calls `onChange` with the file saved. */
async function watchPaths(paths: readonly string[], onChange: (file: string) => void): Promise<FSWatcher[]> {
    const watchers: FSWatcher[] = []
    for (const path of paths) {
        const folder = await stat(path).then(
            (s) => s.isDirectory(),
            () => null
        )
        if (folder === null) continue
        watchers.push(
            watch(path, { recursive: folder }, (_event, name) => {
                const file = typeof name === 'string' ? (folder ? join(path, name) : path) : path
                if (WATCHED.test(file)) onChange(file)
            })
        )
    }
    return watchers
}

/**
 * `grade --watch`: the first pass, then a pass after each settled change, until Ctrl-C or `io.signal`. Without
 * `--island` it grades into a temporary island it removes at the end, so units are still reused between passes.
 */
export async function watchGrade(
    paths: readonly string[],
    options: GradeCommandOptions,
    io: CliIo,
    gradePass: (paths: readonly string[], options: GradeCommandOptions, io: CliIo) => Promise<GradePass>
): Promise<number> {
    const temporary = options.island === undefined ? await mkdtemp(join(tmpdir(), 'flowmcp-watch-')) : null
    const passOptions: GradeCommandOptions = {
        ...options,
        watch: false,
        island: options.island ?? (temporary as string)
    }
    const watched = [...paths, ...(options.recordings !== undefined ? [options.recordings] : [])].map((p) =>
        absolute(io.cwd, p)
    )
    const say = (): void => io.stderr(`watching ${watched.length} path(s) for changes (Ctrl-C ends)\n`)
    let last = seenOf(await gradePass(paths, passOptions, io))
    say()
    let running: Promise<void> | null = null
    let pending: string | null = null
    let timer: ReturnType<typeof setTimeout> | null = null
    const pass = async (file: string): Promise<void> => {
        io.stderr(`\n${basename(file)} changed: grading again\n`)
        const next = seenOf(await gradePass(paths, passOptions, io))
        io.stdout(deltaText(last, next))
        last = next
        say()
    }
    const start = (file: string): void => {
        if (running !== null) {
            pending = file
            return
        }
        running = pass(file).finally(() => {
            running = null
            const again = pending
            pending = null
            if (again !== null) start(again)
        })
    }
    const watchers = await watchPaths(watched, (file) => {
        if (timer !== null) clearTimeout(timer)
        timer = setTimeout(() => start(file), SETTLE_MS)
    })
    await new Promise<void>((resolve) => {
        const stop = (): void => resolve()
        process.once('SIGINT', stop)
        io.signal?.addEventListener('abort', stop, { once: true })
        if (io.signal?.aborted === true) stop()
    })
    if (timer !== null) clearTimeout(timer)
    for (const w of watchers) w.close()
    await running
    if (temporary !== null) await rm(temporary, { recursive: true, force: true })
    return EXIT.INTERRUPTED
}
