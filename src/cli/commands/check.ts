import { appendFile, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { collapseFixItems, countFixItems, countsLine, fixLine, fixListText, groupFixItems } from '../../fix/fix-list.js'
import type { FixItem } from '../../index.js'
import { compareStandings, ENVIRONMENT_CAUSES, standingsOfIndex, type SchemaStanding } from '../../rollup/standing.js'
import { GRADE_RANK, type LetterGrade } from '../../model/constants.js'
import { EXIT, table, type CliIo } from '../io.js'
import { absolute } from '../node.js'
import { FIX_ITEMS_SHOWN, fixListsOf, runGrading, writeReport, writeSarif, type GradeCommandOptions } from './grade.js'

export interface CheckCommandOptions extends GradeCommandOptions {
    /** A schema below this grade (or without a grade) fails the check. */
    readonly minGrade?: string
    /** An island folder or one `index.json`: a schema whose grade fell below the one there fails the check. */
    readonly baseline?: string
    /** Fail on tools that could not be tested for a missing key too (they are only reported by default). */
    readonly failOnUntested?: boolean
    /** Append a Markdown summary to this file (a CI job summary, e.g. `$GITHUB_STEP_SUMMARY`). */
    readonly summary?: string
    /** Fail the check when the fix lists hold more warnings than this, over all schemas (eslint's `--max-warnings`). */
    readonly maxWarnings?: number
}

/** A schema as the check compares it: its standing (the one every surface reads), its fix list, and the tools this environment could not test. */
interface Standing {
    readonly id: string
    readonly file: string | null
    readonly standing: SchemaStanding
    readonly note: string | null
    readonly fixes: readonly FixItem[]
    readonly untested: readonly string[]
}

/** What a baseline says of a schema: its standing, and the error findings it had. */
interface BaselineNode {
    readonly standing: SchemaStanding
    readonly findings: ReadonlySet<string> | null
}

const ORDER = ['REJECTED', 'F', 'D', 'C', 'B', 'A']
const rank = (grade: string | null): number => (grade === null ? -1 : ORDER.indexOf(grade))
const isLetter = (value: string): value is LetterGrade => Object.hasOwn(GRADE_RANK, value)
const findingKey = (f: { code: string; pointer: string }): string => `${f.code}|${f.pointer}`

/** The tools a standing names as not tested here (a missing key, offline, no runtime). */
function untestedOf(standing: SchemaStanding): string[] {
    return standing.blockedTools.filter((t) => t.cause !== null && ENVIRONMENT_CAUSES.includes(t.cause)).map((t) => t.tool)
}

/** A note for a schema that has no grade for a reason of the environment, not of the schema. */
function noteOf(standing: SchemaStanding): string | null {
    if (standing.status === 'provisional') return 'provisional: deterministic answers only'
    if (!standing.untestedHere) return null
    const n = untestedOf(standing).length
    return `${n} tool${n === 1 ? '' : 's'} not tested here (a missing key, offline, or no runtime)`
}

function standingOf(id: string, file: string | null, standing: SchemaStanding, fixes: readonly FixItem[]): Standing {
    return { id, file, standing, note: noteOf(standing), fixes, untested: untestedOf(standing) }
}

/** Reads a baseline: an island (every `providers/<ns>/index.json` and `state.json`) or one `index.json`. */
async function readBaseline(path: string): Promise<Map<string, BaselineNode> | string> {
    const out = new Map<string, BaselineNode>()
    const add = async (indexPath: string): Promise<void> => {
        const index: unknown = JSON.parse(await readFile(indexPath, 'utf8'))
        type State = { findings?: Record<string, Array<{ code: string; pointer: string; severity: string }>> }
        let state: State | null = null
        try {
            state = JSON.parse(await readFile(join(indexPath, '..', 'state.json'), 'utf8')) as State
        } catch {
            // No state beside the index: its findings are unknown, so every error finding counts as new.
        }
        const read = standingsOfIndex(index)
        for (const [id, standing] of read.schemas) {
            const found = state?.findings?.[id.slice((read.namespace ?? '').length + 1)]
            out.set(id, { standing, findings: Array.isArray(found) ? new Set(found.filter((f) => f.severity === 'error').map(findingKey)) : null })
        }
    }
    try {
        if (path.endsWith('.json')) await add(path)
        else for (const ns of (await readdir(join(path, 'providers'), { withFileTypes: true })).filter((e) => e.isDirectory())) await add(join(path, 'providers', ns.name, 'index.json')).catch(() => undefined)
    } catch (cause) {
        return cause instanceof Error ? cause.message : String(cause)
    }
    return out
}

/** The standings of an island already graded: each schema node of each `index.json` (no grading, no fix list). */
async function standingsOfIsland(root: string): Promise<Standing[] | string> {
    const baseline = await readBaseline(root)
    if (typeof baseline === 'string') return baseline
    return [...baseline.entries()].map(([id, node]) => standingOf(id, null, node.standing, []))
}

/** Why a schema fails the check, in words; empty when it passes. */
function failures(s: Standing, options: CheckCommandOptions, baseline: Map<string, BaselineNode> | null, failOnUntested: boolean): string[] {
    const out: string[] = []
    const { grade, status } = s.standing
    // A schema only this environment could not test has no grade to hold against --min-grade: it is reported, not failed.
    const excused = s.standing.untestedHere && !failOnUntested
    if (options.minGrade !== undefined && !excused) {
        if (grade === null) out.push(`no grade (${status}${s.standing.reason !== null ? `: ${s.standing.reason}` : ''}); --min-grade ${options.minGrade} needs one`)
        else if (rank(grade) < rank(options.minGrade)) out.push(`grade ${grade} is below --min-grade ${options.minGrade}`)
    }
    const before = baseline?.get(s.id)
    // The same comparison as `report --baseline`.
    out.push(...compareStandings(before?.standing, s.standing).messages)
    const errors = s.fixes.filter((f) => f.kind === 'finding' && f.severity === 'error')
    const fresh = before?.findings === null || before === undefined ? errors : errors.filter((f) => !(before.findings as ReadonlySet<string>).has(findingKey(f)))
    for (const f of fresh) out.push(`new error ${fixLine(f)}`)
    if (failOnUntested && s.untested.length > 0) out.push(`tools not tested here: ${s.untested.join(', ')}`)
    return out
}

/** How a baseline shows a schema in a table: its grade, else its status, else a dash. */
function baselineLabel(node: BaselineNode | undefined): string {
    return node === undefined ? '—' : (node.standing.grade ?? node.standing.status)
}

const md = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The Markdown job summary: a table of every schema, then what fails and what to fix first. */
function summaryOf(rows: ReadonlyArray<{ s: Standing; before: string; fails: string[] }>, failed: number, tooManyWarnings: string | null): string {
    const lines = [
        `## flowmcp-grading check: ${failed === 0 && tooManyWarnings === null ? 'passed' : failed === 0 ? 'too many warnings' : `${failed} schema${failed === 1 ? '' : 's'} failed`}`,
        '',
        `${countsLine(countFixItems(rows.flatMap((r) => r.s.fixes)))}${tooManyWarnings !== null ? `: ${tooManyWarnings}` : ''}`,
        '',
        '| schema | grade | baseline | status | verdict |',
        '|---|---|---|---|---|',
        ...rows.map(({ s, before, fails }) => `| ${md(s.id)} | ${s.standing.grade ?? '—'} | ${before} | ${md(s.standing.status + (s.note !== null ? ` (${s.note})` : ''))} | ${fails.length === 0 ? 'ok' : '**fails**'} |`)
    ]
    for (const { s, fails } of rows.filter((r) => r.fails.length > 0)) {
        lines.push('', `### ${md(s.id)}`, '', ...fails.map((f) => `- ${md(f)}`))
        // The costliest lines, the same message across tools once, as the terminal prints them.
        const first = collapseFixItems(s.fixes).slice(0, FIX_ITEMS_SHOWN)
        if (first.length > 0) lines.push('', `What to fix first (${countsLine(countFixItems(s.fixes))}):`, '', ...first.map((l) => `- \`${md(l.code)}\` ${md(l.message)}${l.tools.length > 0 ? ` — ${l.tools.length === 1 ? 'tool' : 'tools'} ${md(l.tools.join(', '))}` : ''}${l.items[0] !== undefined && l.items[0].line !== null ? ` (line ${l.items[0].line})` : ''}`))
    }
    return lines.join('\n') + '\n'
}

/**
 * `check [<schema.mjs|dir…>]`: grades the schemas as `grade` does (or reads `--island` when no path is
 * given) and exits 1 when a schema is below `--min-grade`, when its grade fell from `--baseline`, or
 * when it has an error-level finding the baseline did not have; 0 otherwise, keys or not (tools not
 * tested for a missing key are reported, and fail only with `--fail-on-untested`).
 */
export async function checkCommand(paths: readonly string[], options: CheckCommandOptions, io: CliIo): Promise<number> {
    if (options.minGrade !== undefined && !(isLetter(options.minGrade) || options.minGrade === 'REJECTED')) {
        io.stderr(`check: --min-grade must be one of A, B, C, D, F, got ${JSON.stringify(options.minGrade)}\n`)
        return EXIT.USAGE
    }
    if (options.maxWarnings !== undefined && !(Number.isInteger(options.maxWarnings) && options.maxWarnings >= 0)) {
        io.stderr('check: --max-warnings must be a whole number of 0 or more\n')
        return EXIT.USAGE
    }
    const failOnUntested = options.failOnUntested === true
    let standings: Standing[]
    if (paths.length > 0) {
        const run = await runGrading(paths, options, io, 'check')
        if (typeof run === 'number') return run
        await writeReport(options, io, 'check')
        const fixes = await fixListsOf(run.results)
        if (!(await writeSarif(options, [...fixes.values()].flat(), io, 'check'))) return EXIT.USAGE
        standings = run.results.flatMap((row) => (row.result.grading === null ? [] : [standingOf(row.result.grading.schemaId, row.file, row.result.grading.standing, fixes.get(row) ?? [])]))
        const unreadable = run.results.filter((row) => row.result.grading === null)
        for (const row of unreadable) io.stderr(`check: ${row.file} could not be graded: ${row.result.errors.find((e) => e.severity === 'error')?.message ?? 'unknown error'}\n`)
        if (unreadable.length > 0) return EXIT.FINDINGS
    } else if (options.island !== undefined) {
        const read = await standingsOfIsland(absolute(options.island, io.cwd))
        if (typeof read === 'string') {
            io.stderr(`check: cannot read the island ${options.island}: ${read}\n`)
            return EXIT.USAGE
        }
        standings = read
    } else {
        io.stderr('check: name schema files or folders to grade, or --island <dir> to check an island as it is\n')
        return EXIT.USAGE
    }
    let baseline: Map<string, BaselineNode> | null = null
    if (options.baseline !== undefined) {
        const read = await readBaseline(absolute(options.baseline, io.cwd))
        if (typeof read === 'string') {
            io.stderr(`check: cannot read the baseline ${options.baseline}: ${read}\n`)
            return EXIT.USAGE
        }
        baseline = read
    }
    const rows = standings.map((s) => ({ s, before: baselineLabel(baseline?.get(s.id)), fails: failures(s, options, baseline, failOnUntested) }))
    const failed = rows.filter((r) => r.fails.length > 0).length
    const tooManyWarnings = warningGate(rows.flatMap((r) => r.s.fixes), options.maxWarnings)
    if (options.json) io.stdout(JSON.stringify({ passed: failed === 0 && tooManyWarnings === null, ...(tooManyWarnings !== null ? { maxWarnings: tooManyWarnings } : {}), schemas: rows.map(({ s, before, fails }) => ({ schemaId: s.id, file: s.file, grade: s.standing.grade, schemaGrade: s.standing.schemaGrade, status: s.standing.status, reason: s.standing.reason, note: s.note, baseline: before, failures: fails, untested: s.untested, fixList: s.fixes })) }, null, 2) + '\n')
    else {
        io.stdout(table(rows.map(({ s, before, fails }) => ({ schema: s.id, grade: s.standing.grade ?? '-', baseline: before, status: s.standing.status + (s.note !== null ? ` (${s.note})` : ''), verdict: fails.length === 0 ? 'ok' : 'FAILS' })), ['schema', 'grade', 'baseline', 'status', 'verdict']))
        for (const { s, fails } of rows) {
            for (const f of fails) io.stdout(`  ${s.id}: ${f}\n`)
            // A failing schema says what to fix, and where, as eslint prints it; every schema does when the warnings fail the gate.
            if (fails.length > 0 || tooManyWarnings !== null) for (const schema of groupFixItems(s.fixes)) io.stdout(fixListText(schema, { indent: '  ', ...(options.verbose === true ? {} : { limit: FIX_ITEMS_SHOWN }), more: `for ${s.id} (--verbose lists them all)` }).join(''))
        }
        const all = rows.flatMap((r) => r.s.fixes)
        if (all.length > 0) io.stdout(`\n${countsLine(countFixItems(all))}\n`)
        if (tooManyWarnings !== null) io.stdout(`${tooManyWarnings}\n`)
        io.stdout(failed === 0 && tooManyWarnings === null ? '\ncheck passed\n' : `\ncheck failed: ${failed} schema${failed === 1 ? '' : 's'}${tooManyWarnings !== null ? ', too many warnings' : ''}\n`)
    }
    if (options.summary !== undefined) {
        try {
            // Appended, as a CI job summary file collects several steps.
            await appendFile(absolute(options.summary, io.cwd), summaryOf(rows, failed, tooManyWarnings))
        } catch (cause) {
            io.stderr(`check: cannot write the summary: ${cause instanceof Error ? cause.message : String(cause)}\n`)
            return EXIT.USAGE
        }
    }
    return failed === 0 && tooManyWarnings === null ? EXIT.OK : EXIT.FINDINGS
}

/** `--max-warnings <n>`: why the check fails for the warnings of the fix lists, or null when they are within the bound (or no bound is set). */
function warningGate(fixes: readonly FixItem[], max: number | undefined): string | null {
    if (max === undefined) return null
    const warnings = countFixItems(fixes).warnings
    return warnings > max ? `${warnings} warning${warnings === 1 ? '' : 's'} in the fix lists, more than --max-warnings ${max}` : null
}
