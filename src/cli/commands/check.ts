import { appendFile, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { countFixItems, countsLine, fixLine, fixListText, groupFixItems } from '../../fix/fix-list.js'
import { checkSummaryMarkdown, type FixItem, type Issue } from '../../index.js'
import { compareStandings, ENVIRONMENT_CAUSES, standingOfSchemaNode, standingsOfIndex, type SchemaStanding } from '../../rollup/standing.js'
import { SEVERITY, GRADE_RANK, type LetterGrade } from '../../model/constants.js'
import { EXIT, redacted, table, type CliIo } from '../io.js'
import { absolute } from '../node.js'
import { runGrading } from './grade.js'
import type { GradeCommandOptions } from './grade-options.js'
import { fixListsOf, writeReport, writeSarif } from './grade-outputs.js'
import { FIX_ITEMS_SHOWN } from './grade-render.js'

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
export interface Standing {
    readonly id: string
    readonly file: string | null
    readonly standing: SchemaStanding
    /** What the status column says instead of the standing's status (`unreadable`: the schema could not be read or parsed). */
    readonly label?: string
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
            out.set(id, { standing, findings: Array.isArray(found) ? new Set(found.filter((f) => f.severity === SEVERITY.error).map(findingKey)) : null })
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
    const errors = s.fixes.filter((f) => f.kind === 'finding' && f.severity === SEVERITY.error)
    const fresh = before?.findings === null || before === undefined ? errors : errors.filter((f) => !(before.findings as ReadonlySet<string>).has(findingKey(f)))
    for (const f of fresh) out.push(`new error ${fixLine(f)}`)
    if (failOnUntested && s.untested.length > 0) out.push(`tools not tested here: ${s.untested.join(', ')}`)
    return out
}

/** The status a row shows: the standing's, or `unreadable`. */
function statusOf(s: Standing): string {
    return s.label ?? s.standing.status
}

/** How a baseline shows a schema in a table: its grade, else its status, else a dash. */
function baselineLabel(node: BaselineNode | undefined): string {
    return node === undefined ? '—' : (node.standing.grade ?? node.standing.status)
}

/**
 * `check [<schema.mjs|dir…>]`: grades the schemas as `grade` does (or reads `--island` when no path is
 * given) and exits 1 when a schema is below `--min-grade`, when it got worse than `--baseline`, when it
 * has an error-level finding the baseline did not have, or when the fix lists hold more warnings than
 * `--max-warnings`; 0 otherwise, keys or not (tools not tested here are reported, and fail only with
 * `--fail-on-untested`); 130 when interrupted; 2 for a usage or environment error.
 */
export async function checkCommand(paths: readonly string[], options: CheckCommandOptions, io: CliIo): Promise<number> {
    // Whatever happens below, the SARIF file and the summary are written (a CI step uploads them `if: always()`).
    const problems: string[] = []
    const said = {
        ...io,
        stderr: (text: string) => {
            problems.push(text.trim())
            io.stderr(text)
        }
    }
    const outcome = await checkOutcome(paths, options, said)
    if (typeof outcome === 'number') {
        const wrote = await writeOutputs(options, [], [], io, { failed: 0, tooManyWarnings: null, problem: problems.join(' ') || 'the check could not run', interrupted: null })
        return wrote ? outcome : EXIT.USAGE
    }
    const { rows, items, interrupted } = outcome
    const failed = rows.filter((r) => r.fails.length > 0).length
    const tooManyWarnings = warningGate(rows.flatMap((r) => r.s.fixes), options.maxWarnings)
    const passed = failed === 0 && tooManyWarnings === null && interrupted === null
    if (options.json) io.stdout(JSON.stringify({ passed, ...(tooManyWarnings !== null ? { maxWarnings: tooManyWarnings } : {}), ...(interrupted !== null ? { interrupted: { skipped: interrupted } } : {}), schemas: rows.map(({ s, before, fails }) => ({ schemaId: s.id, file: s.file, grade: s.standing.grade, schemaGrade: s.standing.schemaGrade, status: statusOf(s), reason: s.standing.reason, note: s.note, baseline: before, failures: fails, untested: s.untested, fixList: s.fixes })) }, null, 2) + '\n')
    else io.stdout(checkText(rows, options, { failed, tooManyWarnings, interrupted }))
    const wrote = await writeOutputs(options, rows, items, io, { failed, tooManyWarnings, problem: null, interrupted })
    if (interrupted !== null) return EXIT.INTERRUPTED
    if (!wrote) return EXIT.USAGE
    return failed === 0 && tooManyWarnings === null ? EXIT.OK : EXIT.FINDINGS
}

/** The table, why each schema fails, what to fix (as eslint prints it), and the verdict. */
function checkText(rows: readonly CheckRow[], options: CheckCommandOptions, state: { failed: number; tooManyWarnings: string | null; interrupted: readonly string[] | null }): string {
    const { failed, tooManyWarnings, interrupted } = state
    const out = [table(rows.map(({ s, before, fails }) => ({ schema: s.id, grade: s.standing.grade ?? '-', baseline: before, status: statusOf(s) + (s.note !== null ? ` (${s.note})` : ''), verdict: fails.length === 0 ? 'ok' : 'FAILS' })), ['schema', 'grade', 'baseline', 'status', 'verdict'])]
    for (const { s, fails } of rows) {
        for (const f of fails) out.push(`  ${s.id}: ${f}\n`)
        // A failing schema says what to fix, and where, as eslint prints it; every schema does when the warnings fail the gate.
        if (fails.length > 0 || tooManyWarnings !== null) for (const schema of groupFixItems(s.fixes)) out.push(fixListText(schema, { indent: '  ', ...(options.verbose === true ? {} : { limit: FIX_ITEMS_SHOWN }), more: `for ${s.id} (--verbose lists them all)` }).join(''))
    }
    const all = rows.flatMap((r) => r.s.fixes)
    if (all.length > 0) out.push(`\n${countsLine(countFixItems(all))}\n`)
    if (tooManyWarnings !== null) out.push(`${tooManyWarnings}\n`)
    out.push(interrupted !== null ? `\ncheck interrupted; skipped: ${interrupted.join('; ')}\n` : failed === 0 && tooManyWarnings === null ? '\ncheck passed\n' : `\ncheck failed: ${failed} schema${failed === 1 ? '' : 's'}${tooManyWarnings !== null ? ', too many warnings' : ''}\n`)
    return out.join('')
}

type CheckRow = { s: Standing; before: string; fails: string[] }

/** What the check found: a row per schema, the fix items for SARIF, and what an interruption skipped; or the exit code of a usage or environment error. */
async function checkOutcome(paths: readonly string[], options: CheckCommandOptions, io: CliIo): Promise<{ rows: CheckRow[]; items: FixItem[]; interrupted: readonly string[] | null } | number> {
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
    let items: FixItem[] = []
    let interrupted: readonly string[] | null = null
    if (paths.length > 0) {
        const run = await runGrading(paths, options, io, 'check')
        if (typeof run === 'number') return run
        interrupted = run.interrupted
        await writeReport(options, io, 'check')
        const fixes = await fixListsOf(run.results, options.rules)
        standings = run.results.flatMap((row) => (row.result.grading === null ? [] : [standingOf(row.result.grading.schemaId, row.file, row.result.grading.standing, fixes.get(row) ?? [])]))
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
    const rows = standings.map((s) => ({ s, before: baselineLabel(baseline?.get(s.id)), fails: failures(s, options, baseline, failOnUntested) }))
    return { rows, items, interrupted }
}

/**
 * The standing of a schema that could not be graded: no grade, and one error finding at its file and
 * line (the parser's line when it does not parse), so the table, SARIF and the summary all show it.
 * Its id is the one grading would give it, `<folder>.<file base>`, so a baseline still finds it.
 */
export function unreadableStanding(file: string, errors: readonly Issue[], cwd: string): Standing {
    const first = errors.find((e) => e.severity === SEVERITY.error)
    const message = first?.message ?? 'the schema could not be graded'
    const at = /\((\d+):(\d+)\)/.exec(message) ?? /at line (\d+)/.exec(message)
    const parts = file.split('/')
    const id = `${parts.at(-2) ?? ''}.${(parts.at(-1) ?? file).replace(/\.mjs$/, '')}`
    const item: FixItem = { schemaId: id, file, kind: 'finding', code: first?.code ?? 'SRC-001', severity: SEVERITY.error, message, pointer: '', line: at !== null ? Number(at[1]) : 1, column: at?.[2] !== undefined ? Number(at[2]) + 1 : 1, cost: 0 }
    const shown = file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file
    return { id, file, standing: standingOfSchemaNode(undefined), label: 'unreadable', note: `${shown}: ${message}`, fixes: [item], untested: [] }
}

/** Writes the SARIF file and appends the summary, each attempted whatever the other did; false when one failed. */
async function writeOutputs(options: CheckCommandOptions, rows: readonly CheckRow[], items: readonly FixItem[], io: CliIo, state: { failed: number; tooManyWarnings: string | null; problem: string | null; interrupted: readonly string[] | null }): Promise<boolean> {
    let ok = await writeSarif(options, items, io, 'check')
    if (options.summary === undefined) return ok
    const summaryRows = rows.map(({ s, before, fails }) => ({ schema: s.id, grade: s.standing.grade, baseline: before, status: statusOf(s), note: s.note, failures: fails, fixes: s.fixes }))
    const text = checkSummaryMarkdown({ rows: summaryRows, tooManyWarnings: state.tooManyWarnings, interrupted: state.interrupted, problem: state.problem, fixItemsShown: FIX_ITEMS_SHOWN }).markdown
    try {
        // Appended, as a CI job summary file collects several steps.
        await appendFile(absolute(options.summary, io.cwd), redacted(io, text))
    } catch (cause) {
        io.stderr(`check: cannot write the summary: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        ok = false
    }
    return ok
}

/** `--max-warnings <n>`: why the check fails for the warnings of the fix lists, or null when they are within the bound (or no bound is set). */
function warningGate(fixes: readonly FixItem[], max: number | undefined): string | null {
    if (max === undefined) return null
    const warnings = countFixItems(fixes).warnings
    return warnings > max ? `${warnings} warning${warnings === 1 ? '' : 's'} in the fix lists, more than --max-warnings ${max}` : null
}
