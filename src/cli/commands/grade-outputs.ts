// The files a grading run writes besides the island: the HTML report (`--report`), SARIF (`--sarif`)
// and recordings (`--record`); and each schema's fix list, which the text, `--json`, SARIF and
// `check`'s summary show.

import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { SEVERITY } from '../../model/constants.js'
import { fixEntriesOf } from '../../fix/fix-list.js'
import {
    FixList,
    FixRules,
    getVersion,
    renderIslandReport,
    Sarif,
    sourceLocations,
    type FixItem,
    type GradingEntry,
    type Recording
} from '../../index.js'
import { createIssue as issueOf } from '../../errors/issue.js'
import { mergeRecordings } from '../../ports/recording-merge.js'
import { redacted, type CliIo } from '../io.js'
import { absolute, nodeFs } from '../node.js'
import type { GradeCommandOptions } from './grade-options.js'
import type { SchemaRow } from './grade-render.js'
import { definedFields } from '../../model/fields.js'

/** The HTML report of the island, when asked for (`--report`, with `--island`). */
export async function writeReport(
    options: Pick<GradeCommandOptions, 'report' | 'island' | 'rules'>,
    io: CliIo,
    command: string
): Promise<void> {
    if (options.report === undefined || options.island === undefined) return
    const report = await renderIslandReport({
        fs: nodeFs(),
        root: absolute(options.island, io.cwd),
        ...definedFields({ rules: options.rules })
    })
    try {
        await writeFile(absolute(options.report, io.cwd), redacted(io, report.html))
        io.stderr(`report: ${absolute(options.report, io.cwd)}\n`)
    } catch (cause) {
        io.stderr(`${command}: cannot write the report: ${cause instanceof Error ? cause.message : String(cause)}\n`)
    }
}

/**
 * Each schema's fix list: its findings, its untested tools and the judge's low answers (entries of
 * this run, and of kept units read back from the island), most costly first.
 */
export async function fixListsOf(
    results: readonly SchemaRow[],
    rules?: Readonly<Record<string, unknown>>,
    replay?: { readonly recordings: string; readonly cwd: string; readonly run?: RerecordOptions }
): Promise<Map<SchemaRow, FixItem[]>> {
    const out = new Map<SchemaRow, FixItem[]>()
    for (const row of results) {
        const g = row.result.grading
        if (g === null) continue
        const entries = fixEntriesOf(g.units, row.result.entries)
        for (const unit of g.units) {
            if (unit.kept !== true || unit.written === null) continue
            try {
                entries.push({
                    unit: unit.unit,
                    entry: JSON.parse(await readFile(unit.written, 'utf8')) as GradingEntry
                })
            } catch {
                // A kept entry that cannot be read back adds no answers; the island's rebuild reports it.
            }
        }
        // Where each item is in the source: the schema file's syntax tree (read again; never run).
        let places:
            | {
                  locate: (pointer: string) => { line: number; column: number } | null
                  resolve: (pointer: string) => { line: number; column: number } | null
              }
            | undefined
        try {
            const found = sourceLocations({ source: await readFile(row.file, 'utf8') })
            places = { locate: found.locate, resolve: found.resolve }
        } catch {
            places = undefined
        }
        const recordCommand =
            replay !== undefined ? rerecordCommand(row.file, replay.recordings, replay.cwd, replay.run) : undefined
        const items = FixList.build({
            schemaId: g.schemaId,
            file: row.file,
            errors: row.result.errors,
            units: g.units,
            entries,
            tests: g.pretest.tests,
            ...definedFields({ recordCommand }),
            ...(places ?? {})
        }).items
        // The config's rules, on what is shown (the fix list, SARIF, the summary): the grade is already computed.
        out.set(row, FixRules.apply({ items, rules }).items)
    }
    return out
}

/**
 * A path as a shell reads it: relative to the working folder when under it, quoted when it holds more than plain
 * characters.
 */
function shellPath(path: string, cwd: string): string {
    const base = cwd.endsWith('/') ? cwd : `${cwd}/`
    const shown = path === cwd ? '.' : path.startsWith(base) ? path.slice(base.length) : path
    return /^[\w@%+=:,./-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`
}

/** What of a run the command that records a schema again repeats: every option that shapes the schema's requests. */
export type RerecordOptions = Pick<GradeCommandOptions, 'runtime' | 'minWorkingTests' | 'trustedImport'>

/**
 * The command that records a schema's requests again, as the run was made: the schema file graded live into the
 * recordings folder this run replayed, with every option of the run that shapes its tests (`--runtime` and its
 * `--runtime-libraries` and `--runtime-lists`, `--min-working-tests`, `--trusted-import`), paths relative to the
 * working folder. Through `npx`, as a local install puts no binary on the PATH. The schema alone suffices: `--record`
 * merges by request, so the exchanges of the host's other tests and schemas stay in the folder.
 */
export function rerecordCommand(file: string, recordings: string, cwd: string, run: RerecordOptions = {}): string {
    const path = (p: string): string => shellPath(absolute(p, cwd), cwd)
    const runtime = run.runtime
    return [
        `npx flowmcp-grading grade ${path(file)} --live --record ${path(recordings)}`,
        ...(runtime !== undefined ? [`--runtime ${path(runtime.folder)}`] : []),
        ...(runtime?.libraries !== undefined ? [`--runtime-libraries ${path(runtime.libraries)}`] : []),
        ...(runtime?.lists !== undefined ? [`--runtime-lists ${path(runtime.lists)}`] : []),
        ...(run.minWorkingTests !== undefined ? [`--min-working-tests ${run.minWorkingTests}`] : []),
        ...(run.trustedImport === true ? ['--trusted-import'] : [])
    ].join(' ')
}

/**
 * Writes the fix items as SARIF 2.1.0 (`--sarif <file>`), paths relative to the working folder so a
 * code host places them on the lines of the repository. False when the file cannot be written.
 */
export async function writeSarif(
    options: Pick<GradeCommandOptions, 'sarif'>,
    items: readonly FixItem[],
    io: CliIo,
    command: string
): Promise<boolean> {
    if (options.sarif === undefined) return true
    const cwd = io.cwd.endsWith('/') ? io.cwd : `${io.cwd}/`
    const relative = items.map((i) => (i.file?.startsWith(cwd) ? { ...i, file: i.file.slice(cwd.length) } : i))
    const built = Sarif.fromFixItems({
        items: relative,
        tool: { name: 'flowmcp-grading', version: getVersion().packageVersion }
    })
    for (const e of built.errors.filter((x) => x.severity === SEVERITY.error))
        io.stderr(`${command}: SARIF: ${e.message}\n`)
    if (built.log === null) return false
    try {
        await writeFile(absolute(options.sarif, io.cwd), `${redacted(io, JSON.stringify(built.log, null, 2))}\n`)
        io.stderr(`sarif: ${absolute(options.sarif, io.cwd)}\n`)
        return true
    } catch (cause) {
        io.stderr(
            `${command}: cannot write the SARIF file: ${cause instanceof Error ? cause.message : String(cause)}\n`
        )
        return false
    }
}

/** One file of a recordings folder as read before a run's recordings are merged into it. */
type FolderFile = { readonly name: string; readonly recording: Recording | null; readonly problem: string }

/** The `*.json` files of a recordings folder in the order replay reads them (by name), each parsed or null. */
async function folderFiles(dir: string): Promise<FolderFile[]> {
    const names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()
    return Promise.all(
        names.map(async (name): Promise<FolderFile> => {
            try {
                const parsed = JSON.parse(await readFile(join(dir, name), 'utf8')) as Recording
                return typeof parsed?.host === 'string'
                    ? { name, recording: parsed, problem: '' }
                    : { name, recording: null, problem: 'no host' }
            } catch (cause) {
                return { name, recording: null, problem: cause instanceof Error ? cause.message : String(cause) }
            }
        })
    )
}

/** Writes `text` to `path` atomically: an exclusively created temp file beside it, renamed onto it. */
async function writeFileAtomic(path: string, text: string): Promise<void> {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomUUID()}.tmp`)
    try {
        await writeFile(temp, text, { flag: 'wx' })
        await rename(temp, path)
    } catch (cause) {
        await rm(temp, { force: true }).catch(() => undefined)
        throw cause
    }
}

/**
 * Writes each host's recording into `dir`, merged by request with what the folder already holds (docs/recordings.md,
 * "Recording into a folder"): the file that holds the host first in the order replay reads the folder, else
 * `<host name>.json`. An earlier exchange is replaced only by this run's answer to the same request; the others stay.
 * Each file is written whole or not at all (a temp file renamed onto it); a file of the host that is not a readable
 * recording is never overwritten (its host is not written, and the run says so). False when anything was not written.
 */
export async function writeRecordings(
    recordings: readonly Recording[],
    dir: string,
    io: CliIo,
    command: string
): Promise<boolean> {
    const fail = (what: string, cause: unknown): false => {
        io.stderr(`${command}: ${what}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return false
    }
    let files: FolderFile[]
    try {
        await mkdir(dir, { recursive: true })
        files = await folderFiles(dir)
    } catch (cause) {
        return fail('cannot write the recordings', cause)
    }
    const tally = { exchanges: 0, hosts: 0, kept: 0, replaced: 0 }
    let ok = true
    for (const recording of recordings) {
        const host = recording.host.replace(/\/+$/, '')
        const holder = files.find((f) => f.recording !== null && f.recording.host.replace(/\/+$/, '') === host)
        const name = holder?.name ?? `${host.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]/g, '_')}.json`
        const unreadable = holder === undefined ? files.find((f) => f.name === name) : undefined
        if (unreadable !== undefined) {
            const e = issueOf('REC-003', '', { path: join(dir, name), host, detail: unreadable.problem })
            io.stderr(`${command}: ${e.code} ${e.message}\n`)
            ok = false
            continue
        }
        const merged =
            holder !== undefined && holder.recording !== null
                ? await mergeRecordings({ earlier: holder.recording, newer: recording })
                : null
        if (merged !== null && merged.recording === null) {
            for (const e of merged.errors) io.stderr(`${command}: ${join(dir, name)}: ${e.code} ${e.message}\n`)
            ok = false
            continue
        }
        const written = merged?.recording ?? recording
        try {
            await writeFileAtomic(join(dir, name), `${redacted(io, JSON.stringify(written, null, 2))}\n`)
        } catch (cause) {
            ok = fail(`cannot write the recording of ${host}`, cause)
            continue
        }
        tally.hosts += 1
        tally.exchanges += recording.exchanges.length
        tally.kept += merged?.kept ?? 0
        tally.replaced += merged?.replaced ?? 0
    }
    io.stderr(
        `recorded: ${tally.exchanges} exchanges of ${tally.hosts} host${tally.hosts === 1 ? '' : 's'} in ${dir}` +
            (tally.kept + tally.replaced > 0
                ? ` (merged by request: ${tally.kept} earlier exchange${tally.kept === 1 ? '' : 's'} kept, ${tally.replaced} replaced by this run's answer)`
                : '') +
            '\n'
    )
    return ok
}
