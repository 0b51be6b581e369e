// The files a grading run writes besides the island: the HTML report (`--report`), SARIF (`--sarif`)
// and recordings (`--record`); and each schema's fix list, which the text, `--json`, SARIF and
// `check`'s summary show.

import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
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
import { redacted, type CliIo } from '../io.js'
import { absolute, nodeFs } from '../node.js'
import type { GradeCommandOptions } from './grade-options.js'
import type { SchemaRow } from './grade-render.js'

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
        ...(options.rules !== undefined ? { rules: options.rules } : {})
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
    replay?: { readonly recordings: string; readonly cwd: string }
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
            replay !== undefined ? rerecordCommand(row.file, replay.recordings, replay.cwd) : undefined
        const items = FixList.build({
            schemaId: g.schemaId,
            file: row.file,
            errors: row.result.errors,
            units: g.units,
            entries,
            tests: g.pretest.tests,
            ...(recordCommand !== undefined ? { recordCommand } : {}),
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

/**
 * The command that records a schema's requests again: its namespace folder graded live into the
 * recordings folder this run replayed. The whole folder, as `--record` replaces a host's file with
 * what the run sent, so the other schemas of the namespace keep their exchanges.
 */
export function rerecordCommand(file: string, recordings: string, cwd: string): string {
    return (
        `flowmcp-grading grade ${shellPath(dirname(file), cwd)} --live --record ` +
        `${shellPath(absolute(recordings, cwd), cwd)}`
    )
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
        await writeFile(absolute(options.sarif, io.cwd), redacted(io, JSON.stringify(built.log, null, 2)) + '\n')
        io.stderr(`sarif: ${absolute(options.sarif, io.cwd)}\n`)
        return true
    } catch (cause) {
        io.stderr(
            `${command}: cannot write the SARIF file: ${cause instanceof Error ? cause.message : String(cause)}\n`
        )
        return false
    }
}

/**
 * Writes each host's recording as `<dir>/<host name>.json` (replacing an earlier one), the files `--recordings <dir>`
 * reads.
 */
export async function writeRecordings(
    recordings: readonly Recording[],
    dir: string,
    io: CliIo,
    command: string
): Promise<boolean> {
    try {
        await mkdir(dir, { recursive: true })
        for (const recording of recordings) {
            const name = recording.host.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]/g, '_')
            await writeFile(join(dir, `${name}.json`), redacted(io, JSON.stringify(recording, null, 2)) + '\n')
        }
        io.stderr(
            `recorded: ${recordings.reduce((n, r) => n + r.exchanges.length, 0)} exchanges of ` +
                `${recordings.length} host${recordings.length === 1 ? '' : 's'} in ${dir}\n`
        )
        return true
    } catch (cause) {
        io.stderr(
            `${command}: cannot write the recordings: ${cause instanceof Error ? cause.message : String(cause)}\n`
        )
        return false
    }
}
