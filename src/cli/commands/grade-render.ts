// What `grade` prints: the text table and the lines under it (the `--json` document is in grade-json.ts,
// the `--estimate` table in grade-estimate.ts). Kept apart from the command so it only parses, calls and prints.
import { countFixItems, countsLine, fixListText, groupFixItems, isStaleRecordingItem } from '../../fix/fix-list.js'
import {
    ErrorCodes,
    type FixItem,
    type GradeNamespaceResult,
    type GradeSingleSchemaResult,
    type Issue,
    type UnitResult
} from '../../index.js'
import { SEVERITY, UNIT_STATUS } from '../../model/constants.js'
import { CAP_NOTE, gradeText, schemaStatus } from './grade-status.js'
import { namespaceFixListText, namespaceTable } from './grade-namespace.js'
import { table } from '../io.js'
import type { PretestTestRecord } from '../../pretest/data-pretest.js'
import { FIX_ITEMS_SHOWN } from '../../fix/types.js'
import type { RuntimeRuns } from './grade-runtime.js'

/** The codes of the errors, then the warnings, of a result: at most three and a count. */
function topIssues(errors: readonly Issue[]): string {
    const shown = errors
        .filter((e) => e.severity === SEVERITY.error)
        .concat(errors.filter((e) => e.severity === SEVERITY.warning))
    const codes = [...new Set(shown.map((e) => e.code))]
    return codes.length === 0 ? '-' : codes.slice(0, 3).join(' ') + (codes.length > 3 ? ` +${codes.length - 3}` : '')
}

export type SchemaRow = { file: string; result: GradeSingleSchemaResult; resumed: boolean }

/** The fix lists of a run: each schema's, and each namespace's (its description, its About). */
export interface FixLists {
    readonly schemas: ReadonlyMap<SchemaRow, FixItem[]>
    readonly namespaces: ReadonlyMap<GradeNamespaceResult, FixItem[]>
}

/** The runtime of `--runtime` as the reports show it: its version, and what it ran this run. */
export interface RuntimeView {
    readonly version: string | null
    readonly runs: RuntimeRuns
}

/** The tools of a schema file whose tests the runtime ran this run (a resumed unit was not run again). */
export function runtimeTools(
    view: RuntimeView | null,
    file: string
): ReadonlyMap<string, { tests: number; ok: number }> {
    return view?.runs.get(file) ?? new Map()
}

/** The blocked and failed units of a schema, tools with the same cause said once. */
function unitLines(name: string, units: readonly UnitResult[]): string[] {
    const byCause = new Map<string, string[]>()
    for (const unit of units) {
        if (
            unit.status !== UNIT_STATUS.blocked &&
            unit.status !== UNIT_STATUS.rejected &&
            unit.status !== UNIT_STATUS.error
        )
            continue
        const cause = `${unit.status}${unit.reason !== null ? ` — ${unit.reason}` : ''}`
        byCause.set(cause, [...(byCause.get(cause) ?? []), unit.unit])
    }
    return [...byCause.entries()].map(
        ([cause, list]) =>
            `  ${name}: ${list.length > 3 ? `${list.slice(0, 3).join(', ')} +${list.length - 3} more` : list.join(', ')} ${cause}\n`
    )
}

/**
 * `--verbose`: every test the runtime ran, and every sent test of a tool that is not working
 * enough, one line each: its verdict, its requests (keys masked) with their statuses, its error.
 */
function testLines(name: string, tests: readonly PretestTestRecord[]): string[] {
    const failing = new Set(tests.filter((t) => t.verdict !== null && !t.working).map((t) => t.tool))
    return tests
        .filter((t) => t.verdict !== null && (t.via === 'runtime' || failing.has(t.tool)))
        .map((t) => {
            const requests = t.requests.map(
                (r) => `${r.method} ${r.url} → ${r.status ?? 'no answer'}${r.missingRecording ? ' (not recorded)' : ''}`
            )
            const error = t.error !== null && !t.working ? ` — ${t.error}` : ''
            const more = requests.length > 5 ? ` +${requests.length - 5} more` : ''
            const shown = requests.length > 0 ? `: ${requests.slice(0, 5).join('; ')}${more}` : ''
            const via = t.via === 'runtime' ? ' (runtime)' : ''
            return `  ${name}: ${t.tool}#${t.testIndex} ${t.verdict ?? '-'}${via}${shown}${error}\n`
        })
}

/**
 * The fix items the text report lists: untested tools are said by the unit lines above them, so their DPT findings are
 * not repeated; a stale recording (at its test) is listed.
 */
function printedFixes(items: readonly FixItem[]): FixItem[] {
    return items.filter((i) => !(i.kind === 'finding' && i.code.startsWith('DPT-') && !isStaleRecordingItem(i)))
}

/** The table and the lines under it: one row per schema and per namespace, blocked causes spelt out. */
export function textReport(
    namespaces: readonly GradeNamespaceResult[],
    results: readonly SchemaRow[],
    fixLists: FixLists,
    verbose: boolean,
    runtime: RuntimeView | null
): string {
    const fixes = fixLists.schemas
    const columns = ['schema', 'areas', 'grade', 'schemaGrade', 'status', 'issues']
    const out = [table(tableRows(results, runtime), columns), namespaceTable(namespaces)]
    for (const row of results) out.push(...schemaLines(row, fixes.get(row) ?? [], verbose, runtime))
    // After the schemas' fix lists: each namespace's (its description, its About), in the same line format.
    for (const ns of namespaces)
        out.push(
            ...namespaceFixListText(ns.namespace ?? '-', fixLists.namespaces.get(ns) ?? [], {
                indent: '  ',
                grade: ns.grade,
                ...(verbose ? {} : { limit: FIX_ITEMS_SHOWN })
            })
        )
    out.push(...namespaceLines(namespaces))
    const nsItems = [...fixLists.namespaces.values()].flat()
    out.push(...legendLines(namespaces, results, fixes, runtime, nsItems))
    return out.join('')
}

/** The rows of the schemas' table (the namespaces have their own, `namespaceTable`). */
function tableRows(results: readonly SchemaRow[], runtime: RuntimeView | null): Array<Record<string, string>> {
    return results.map(({ file, result }) => {
        const g = result.grading
        const graded =
            g?.units.filter((u) => u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected).length ?? 0
        return {
            schema: g?.schemaId ?? file.split('/').pop() ?? file,
            areas: g === null ? '-' : `${graded}/${g.units.length}`,
            grade: g === null ? '-' : gradeText(g),
            schemaGrade: g?.schemaGrade ?? '-',
            status:
                g === null
                    ? 'error'
                    : `${schemaStatus(g)}${runtimeTools(runtime, file).size > 0 ? ' · via runtime' : ''}`,
            issues: topIssues(result.errors)
        }
    })
}

/** The lines under the table for one schema: its failed units, what the runtime ran, its errors, its fix list. */
function schemaLines(
    row: SchemaRow,
    items: readonly FixItem[],
    verbose: boolean,
    runtime: RuntimeView | null
): string[] {
    const out: string[] = []
    const { file, result } = row
    const name = result.grading?.schemaId ?? file
    out.push(...unitLines(name, result.grading?.units ?? []))
    const ran = [...runtimeTools(runtime, file)]
    if (ran.length > 0) {
        const tests = ran.reduce((n, [, t]) => n + t.tests, 0)
        const ok = ran.reduce((n, [, t]) => n + t.ok, 0)
        const tools = ran.map(([tool]) => tool)
        const shown = tools.length > 3 ? `${tools.slice(0, 3).join(', ')} +${tools.length - 3} more` : tools.join(', ')
        out.push(
            `  ${name}: ${shown} tested through the FlowMCP runtime: ${ok} of ${tests} test${tests === 1 ? '' : 's'} answered\n`
        )
    }
    if (verbose) out.push(...testLines(name, result.grading?.pretest.tests ?? []))
    for (const issue of result.errors
        .filter((e) => e.severity === SEVERITY.error && !e.path.startsWith('/schema/main'))
        .slice(0, 5))
        out.push(`  ${name}: ${ErrorCodes.format({ issue }).text ?? issue.message}\n`)
    // What to fix, as eslint prints it: by tool, the same message across tools once, costliest first.
    for (const schema of groupFixItems(printedFixes(items)))
        out.push(
            ...fixListText(schema, {
                indent: '  ',
                ...(verbose ? {} : { limit: FIX_ITEMS_SHOWN }),
                ...(result.grading !== null && result.grading.grade !== null
                    ? { grade: `grade ${gradeText(result.grading)}` }
                    : {}),
                more: `for ${name} (--verbose lists them all)`
            })
        )
    return out
}

/** The lines under the table for the namespaces: their blocked and failed units, then their findings. */
function namespaceLines(namespaces: readonly GradeNamespaceResult[]): string[] {
    const out: string[] = []
    for (const result of namespaces)
        if (result.namespace !== null) out.push(...unitLines(`${result.namespace} (namespace)`, result.units))
    // Namespace-level findings (an About not declared, …) say what to do, so their text is shown too.
    for (const result of namespaces) {
        for (const issue of result.errors.filter((e) => e.severity !== SEVERITY.info).slice(0, 5))
            out.push(
                `  ${result.namespace ?? '-'} (namespace): ${ErrorCodes.format({ issue }).text ?? issue.message}\n`
            )
    }
    return out
}

/** The closing lines: the fix items counted, what the grade columns mean, and what was kept from the island. */
function legendLines(
    namespaces: readonly GradeNamespaceResult[],
    results: readonly SchemaRow[],
    fixes: ReadonlyMap<SchemaRow, FixItem[]>,
    runtime: RuntimeView | null,
    namespaceItems: readonly FixItem[]
): string[] {
    const out: string[] = []
    const printed = [...results.flatMap((row) => printedFixes(fixes.get(row) ?? [])), ...namespaceItems]
    if (printed.length > 0) out.push(`\n${countsLine(countFixItems(printed))}\n`)
    out.push(
        '\ngrade = the schema\'s standing in index.json: the worst grade of its tools and tools aggregate, shown only when the schema is graded (a tool whose tests did not run blocks it; a provisional run has no grade), with the score (1–5) of the unit it comes from. A namespace: its grade, how its questions were answered (judged, provisional, none) and its index.json status. schemaGrade = the tools-aggregate-schema grade alone. See docs/guide.md, "Which grade to quote", and docs/glossary.md for every term.\n'
    )
    if (results.some(({ result }) => result.grading?.grade !== null && result.grading?.grade !== undefined))
        out.push(`${CAP_NOTE}\n`)
    if (results.some(({ file }) => runtimeTools(runtime, file).size > 0)) {
        out.push(
            `via runtime = the tests of the schema's handler tools ran through the FlowMCP runtime${runtime?.version !== null && runtime?.version !== undefined ? ` ${runtime.version}` : ''} (--runtime), in a child process under Node's permission model.\n`
        )
    }
    if (results.some(({ result }) => result.grading?.mode === 'provisional')) {
        out.push(
            'provisional = deterministic answers only, no grade: pass --judge-command <cmd> (or --answers <file>) to grade the non-deterministic questions.\n'
        )
    }
    const kept =
        results.reduce((n, { result }) => n + (result.grading?.unitCounts.kept ?? 0), 0) +
        namespaces.reduce((n, r) => n + r.units.filter((u) => u.kept === true).length, 0)
    if (kept > 0) {
        const filled =
            results.reduce((n, { result }) => n + (result.grading?.unitCounts.graded ?? 0), 0) +
            namespaces.reduce(
                (n, r) =>
                    n +
                    r.units.filter(
                        (u) => u.kept !== true && (u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected)
                    ).length,
                0
            )
        out.push(
            `resumed: ${kept} units kept from the island (graded before from the same inputs), ${filled} graded now; --force grades everything again.\n`
        )
    }
    return out
}
