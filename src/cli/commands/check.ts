import { appendFile, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fixLine } from '../../fix/fix-list.js'
import type { FixItem, Issue, SchemaGrading } from '../../index.js'
import { GRADE_RANK, type LetterGrade } from '../../model/constants.js'
import { EXIT, redacted, table, type CliIo } from '../io.js'
import { absolute } from '../node.js'
import { fixListsOf, runGrading, writeReport, writeSarif, type GradeCommandOptions } from './grade.js'

export interface CheckCommandOptions extends GradeCommandOptions {
    /** A schema below this grade (or without a grade) fails the check. */
    readonly minGrade?: string
    /** An island folder or one `index.json`: a schema whose grade fell below the one there fails the check. */
    readonly baseline?: string
    /** Fail on tools that could not be tested for a missing key too (they are only reported by default). */
    readonly failOnUntested?: boolean
    /** Append a Markdown summary to this file (a CI job summary, e.g. `$GITHUB_STEP_SUMMARY`). */
    readonly summary?: string
}

/** A schema's standing as the check compares it. */
export interface Standing {
    readonly id: string
    readonly file: string | null
    /** The grade compared: the headline, or, where only keys are missing or no judge answered, the figure the run has. */
    readonly grade: string | null
    readonly status: string
    readonly note: string | null
    readonly fixes: readonly FixItem[]
    readonly untested: readonly string[]
}

/** What a baseline says of a schema: its grade and status, and the error findings it had. */
interface BaselineNode {
    readonly grade: string | null
    readonly status: string
    readonly findings: ReadonlySet<string> | null
}

const ORDER = ['REJECTED', 'F', 'D', 'C', 'B', 'A']
const rank = (grade: string | null): number => (grade === null ? -1 : ORDER.indexOf(grade))
const isLetter = (value: string): value is LetterGrade => Object.hasOwn(GRADE_RANK, value)
const findingKey = (f: { code: string; pointer: string }): string => `${f.code}|${f.pointer}`

/** The standing of a graded schema: a key-gated-only block or a provisional run still has a figure to compare. */
function standingOf(id: string, file: string | null, g: SchemaGrading, fixes: readonly FixItem[], failOnUntested: boolean): Standing {
    const blocked = g.units.filter((u) => u.area === 'single-test' && u.status === 'blocked')
    const keyed = blocked.filter((u) => (u.reason ?? '').startsWith('key-gated-missing-server-param'))
    const untested = keyed.map((u) => u.unit.slice('single-test/'.length))
    let grade = g.grade
    let note: string | null = null
    if (g.status === 'provisional') {
        grade = g.provisionalGrade
        note = 'provisional: deterministic answers only'
    } else if (g.status === 'blocked' && blocked.length === keyed.length && !failOnUntested) {
        // Only keys are missing: the tested part is compared; the untested tools are reported.
        const graded = g.units.filter((u) => u.status === 'graded' && u.aggregateGrade !== null).map((u) => u.aggregateGrade as string)
        grade = graded.length === 0 ? null : graded.reduce((worst, x) => (rank(x) < rank(worst) ? x : worst))
        note = `${keyed.length} tool${keyed.length === 1 ? '' : 's'} not tested for a missing key`
    }
    return { id, file, grade, status: g.status, note, fixes, untested }
}

/** Reads a baseline: an island (every `providers/<ns>/index.json` and `state.json`) or one `index.json`. */
async function readBaseline(path: string): Promise<Map<string, BaselineNode> | string> {
    const out = new Map<string, BaselineNode>()
    const add = async (indexPath: string): Promise<void> => {
        const index = JSON.parse(await readFile(indexPath, 'utf8')) as { namespace?: string; schemas?: Record<string, { grade?: string; status?: string }> }
        type State = { findings?: Record<string, Array<{ code: string; pointer: string; severity: string }>> }
        let state: State | null = null
        try {
            state = JSON.parse(await readFile(join(indexPath, '..', 'state.json'), 'utf8')) as State
        } catch {
            // No state beside the index: its findings are unknown, so every error finding counts as new.
        }
        for (const [schema, node] of Object.entries(index.schemas ?? {})) {
            const found = state?.findings?.[schema]
            out.set(`${index.namespace ?? ''}.${schema}`, { grade: typeof node.grade === 'string' ? node.grade : null, status: node.status ?? 'unknown', findings: Array.isArray(found) ? new Set(found.filter((f) => f.severity === 'error').map(findingKey)) : null })
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
    return [...baseline.entries()].map(([id, node]) => ({ id, file: null, grade: node.status === 'graded' || node.status === 'stable' || node.status === 'rejected' ? node.grade : null, status: node.status, note: null, fixes: [], untested: [] }))
}

/** Why a schema fails the check, in words; empty when it passes. */
function failures(s: Standing, options: CheckCommandOptions, baseline: Map<string, BaselineNode> | null, failOnUntested: boolean): string[] {
    const out: string[] = []
    if (options.minGrade !== undefined) {
        if (s.grade === null) out.push(`no grade (${s.status}); --min-grade ${options.minGrade} needs one`)
        else if (rank(s.grade) < rank(options.minGrade)) out.push(`grade ${s.grade} is below --min-grade ${options.minGrade}`)
    }
    const before = baseline?.get(s.id)
    if (before !== undefined && before.grade !== null && (before.status === 'graded' || before.status === 'stable')) {
        if (s.grade === null) out.push(`was ${before.grade}, now ${s.status} with no grade`)
        else if (rank(s.grade) < rank(before.grade)) out.push(`grade fell from ${before.grade} to ${s.grade}`)
    }
    const errors = s.fixes.filter((f) => f.kind === 'finding' && f.severity === 'error')
    const fresh = before?.findings === null || before === undefined ? errors : errors.filter((f) => !(before.findings as ReadonlySet<string>).has(findingKey(f)))
    for (const f of fresh) out.push(`new error ${fixLine(f)}`)
    if (failOnUntested && s.untested.length > 0) out.push(`tools not tested for a missing key: ${s.untested.join(', ')}`)
    return out
}

const md = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The Markdown job summary: a table of every schema, then what fails and what to fix first. */
function summaryOf(rows: ReadonlyArray<{ s: Standing; before: string; fails: string[] }>, failed: number): string {
    const lines = [
        `## flowmcp-grading check: ${failed === 0 ? 'passed' : `${failed} schema${failed === 1 ? '' : 's'} failed`}`,
        '',
        '| schema | grade | baseline | status | verdict |',
        '|---|---|---|---|---|',
        ...rows.map(({ s, before, fails }) => `| ${md(s.id)} | ${s.grade ?? '—'} | ${before} | ${md(s.status + (s.note !== null ? ` (${s.note})` : ''))} | ${fails.length === 0 ? 'ok' : '**fails**'} |`)
    ]
    for (const { s, fails } of rows.filter((r) => r.fails.length > 0)) {
        lines.push('', `### ${md(s.id)}`, '', ...fails.map((f) => `- ${md(f)}`))
        const first = s.fixes.slice(0, 5)
        if (first.length > 0) lines.push('', 'What to fix first:', '', ...first.map((f) => `- \`${md(f.code)}\` ${md(fixLine(f))}`))
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
    // Whatever happens below, the SARIF file and the summary are written (a CI step uploads them `if: always()`).
    const problems: string[] = []
    const said = { ...io, stderr: (text: string) => {
        problems.push(text.trim())
        io.stderr(text)
    } }
    const outcome = await checkOutcome(paths, options, said)
    if (typeof outcome === 'number') {
        const wrote = await writeOutputs(options, [], [], io, { failed: 0, problem: problems.join(' ') || 'the check could not run', interrupted: null })
        return wrote ? outcome : EXIT.USAGE
    }
    const { rows, items, interrupted } = outcome
    const failed = rows.filter((r) => r.fails.length > 0).length
    if (options.json) io.stdout(JSON.stringify({ passed: failed === 0 && interrupted === null, ...(interrupted !== null ? { interrupted: { skipped: interrupted } } : {}), schemas: rows.map(({ s, before, fails }) => ({ schemaId: s.id, file: s.file, grade: s.grade, status: s.status, note: s.note, baseline: before, failures: fails, untested: s.untested, fixList: s.fixes })) }, null, 2) + '\n')
    else {
        io.stdout(table(rows.map(({ s, before, fails }) => ({ schema: s.id, grade: s.grade ?? '-', baseline: before, status: s.status + (s.note !== null ? ` (${s.note})` : ''), verdict: fails.length === 0 ? 'ok' : 'FAILS' })), ['schema', 'grade', 'baseline', 'status', 'verdict']))
        for (const { s, fails } of rows) {
            for (const f of fails) io.stdout(`  ${s.id}: ${f}\n`)
            // A failing schema says what to fix first, and where.
            if (fails.length > 0) for (const item of s.fixes.slice(0, options.verbose === true ? undefined : 3)) io.stdout(`  fix ${fixLine(item)}\n`)
        }
        io.stdout(interrupted !== null ? `\ncheck interrupted; skipped: ${interrupted.join('; ')}\n` : failed === 0 ? '\ncheck passed\n' : `\ncheck failed: ${failed} schema${failed === 1 ? '' : 's'}\n`)
    }
    const wrote = await writeOutputs(options, rows, items, io, { failed, problem: null, interrupted })
    if (interrupted !== null) return EXIT.INTERRUPTED
    if (!wrote) return EXIT.USAGE
    return failed === 0 ? EXIT.OK : EXIT.FINDINGS
}

type CheckRow = { s: Standing; before: string; fails: string[] }

/** What the check found: a row per schema, the fix items for SARIF, and what an interruption skipped; or the exit code of a usage or environment error. */
async function checkOutcome(paths: readonly string[], options: CheckCommandOptions, io: CliIo): Promise<{ rows: CheckRow[]; items: FixItem[]; interrupted: readonly string[] | null } | number> {
    if (options.minGrade !== undefined && !(isLetter(options.minGrade) || options.minGrade === 'REJECTED')) {
        io.stderr(`check: --min-grade must be one of A, B, C, D, F, got ${JSON.stringify(options.minGrade)}\n`)
        return EXIT.USAGE
    }
    const failOnUntested = options.failOnUntested === true
    let standings: Standing[]
    let items: FixItem[] = []
    let interrupted: readonly string[] | null = null
    if (paths.length > 0) {
        const run = await runGrading(paths, options, io, 'check')
        if (typeof run === 'number') return run
        interrupted = run.interrupted
        await writeReport(options, io, 'check')
        const fixes = await fixListsOf(run.results, options.rules)
        standings = run.results.flatMap((row) => (row.result.grading === null ? [] : [standingOf(row.result.grading.schemaId, row.file, row.result.grading, fixes.get(row) ?? [], failOnUntested)]))
        // A schema that does not parse (or cannot be read) is a finding at its file and line; the others are still checked.
        standings.push(...run.results.filter((row) => row.result.grading === null).map((row) => unreadableStanding(row.file, row.result.errors, io.cwd)))
        items = standings.flatMap((s) => s.fixes)
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
    const rows = standings.map((s) => ({ s, before: baseline?.get(s.id)?.grade ?? baseline?.get(s.id)?.status ?? '—', fails: failures(s, options, baseline, failOnUntested) }))
    return { rows, items, interrupted }
}

/**
 * The standing of a schema that could not be graded: no grade, and one error finding at its file and
 * line (the parser's line when it does not parse), so the table, SARIF and the summary all show it.
 * Its id is the one grading would give it, `<folder>.<file base>`, so a baseline still finds it.
 */
export function unreadableStanding(file: string, errors: readonly Issue[], cwd: string): Standing {
    const first = errors.find((e) => e.severity === 'error')
    const message = first?.message ?? 'the schema could not be graded'
    const at = /\((\d+):(\d+)\)/.exec(message) ?? /at line (\d+)/.exec(message)
    const parts = file.split('/')
    const id = `${parts.at(-2) ?? ''}.${(parts.at(-1) ?? file).replace(/\.mjs$/, '')}`
    const item: FixItem = { schemaId: id, file, kind: 'finding', code: first?.code ?? 'SRC-001', severity: 'error', message, pointer: '', line: at !== null ? Number(at[1]) : 1, column: at?.[2] !== undefined ? Number(at[2]) + 1 : 1, cost: 0 }
    const shown = file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file
    return { id, file, grade: null, status: 'unreadable', note: `${shown}: ${message}`, fixes: [item], untested: [] }
}

/** Writes the SARIF file and appends the summary, each attempted whatever the other did; false when one failed. */
async function writeOutputs(options: CheckCommandOptions, rows: readonly CheckRow[], items: readonly FixItem[], io: CliIo, state: { failed: number; problem: string | null; interrupted: readonly string[] | null }): Promise<boolean> {
    let ok = await writeSarif(options, items, io, 'check')
    if (options.summary === undefined) return ok
    const text = state.problem !== null ? `## flowmcp-grading check: could not run\n\n${md(state.problem)}\n` : summaryOf(rows, state.failed) + (state.interrupted !== null ? `\n**Interrupted** (Ctrl-C); skipped: ${md(state.interrupted.join('; '))}\n` : '')
    try {
        // Appended, as a CI job summary file collects several steps.
        await appendFile(absolute(options.summary, io.cwd), redacted(io, text))
    } catch (cause) {
        io.stderr(`check: cannot write the summary: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        ok = false
    }
    return ok
}
