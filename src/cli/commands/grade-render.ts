// What `grade` prints: the text table and the `--json` document. Kept apart from the command so it
// only parses, calls and prints.
import { OUTPUT_TOKENS } from '../../grade/estimate.js'
import { countFixItems, countsLine, fixListText, groupFixItems, isStaleRecordingItem } from '../../fix/fix-list.js'
import { ErrorCodes, type CostEstimate, type FixItem, type GradeNamespaceResult, type GradeSingleSchemaResult, type Issue, type SchemaGrading, type UnitResult } from '../../index.js'
import { NODE_STATUS, SEVERITY, UNIT_STATUS } from '../../model/constants.js'
import { table } from '../io.js'
import type { PretestTestRecord } from '../../pretest/data-pretest.js'
import type { RuntimeRuns } from './grade-runtime.js'

/** How many fix lines per schema the terminal shows without `--verbose` (each whole; the rest are counted). */
export const FIX_ITEMS_SHOWN = 5

/** The codes of the errors, then the warnings, of a result: at most three and a count. */
function topIssues(errors: readonly Issue[]): string {
    const shown = errors.filter((e) => e.severity === SEVERITY.error).concat(errors.filter((e) => e.severity === SEVERITY.warning))
    const codes = [...new Set(shown.map((e) => e.code))]
    return codes.length === 0 ? '-' : codes.slice(0, 3).join(' ') + (codes.length > 3 ? ` +${codes.length - 3}` : '')
}

export type SchemaRow = { file: string; result: GradeSingleSchemaResult; resumed: boolean }

/** The runtime of `--runtime` as the reports show it: its version, and what it ran this run. */
export interface RuntimeView {
    readonly version: string | null
    readonly runs: RuntimeRuns
}

/** The tools of a schema file whose tests the runtime ran this run (a resumed unit was not run again). */
function runtimeTools(view: RuntimeView | null, file: string): ReadonlyMap<string, { tests: number; ok: number }> {
    return view?.runs.get(file) ?? new Map()
}


/** The `--json` document: per namespace and per schema what the island now says, kept units included. */
export function jsonReport(now: string, namespaces: readonly GradeNamespaceResult[], results: readonly SchemaRow[], fixes: ReadonlyMap<SchemaRow, FixItem[]>, runtime: RuntimeView | null): unknown {
    // A single-test unit whose tool's tests ran through the FlowMCP runtime says so (`via: 'runtime'`, as the pretest's results do).
    const unitView = (u: UnitResult, ran: ReadonlyMap<string, unknown> = new Map()): unknown => ({
        unit: u.unit,
        area: u.area,
        status: u.status,
        grade: u.aggregateGrade,
        kept: u.kept === true,
        ...(u.area === 'single-test' && u.kept !== true && ran.has(u.unit.slice('single-test/'.length)) ? { via: 'runtime' } : {}),
        reason: u.reason,
        improvementHints: u.improvementHints ?? []
    })
    return {
        now,
        // The FlowMCP runtime that ran the handler tools' tests (`--runtime`), or null.
        runtime: runtime === null ? null : { version: runtime.version },
        namespaces: namespaces.map((result) => ({
            namespace: result.namespace,
            grade: result.grade,
            provisionalGrade: result.provisionalGrade,
            mode: result.mode,
            units: result.units.map((u) => unitView(u)),
            rollupStatus: result.rollupStatus,
            rollupGrade: result.rollupGrade,
            indexPath: result.indexPath,
            errors: result.errors
        })),
        schemas: results.map((row) => ({
            resumed: row.resumed,
            file: row.file,
            grading: row.result.grading === null ? null : { ...row.result.grading, units: row.result.grading.units.map((u) => unitView(u, runtimeTools(runtime, row.file))) },
            // Per tool, the tests the runtime ran and how many it answered with success.
            ...(runtimeTools(runtime, row.file).size > 0 ? { runtime: { version: runtime?.version ?? null, tools: Object.fromEntries(runtimeTools(runtime, row.file)) } } : {}),
            // The open units, ready to be answered: emit-prompts --areas writes the same into an answers file.
            prompts: row.result.prompts.map((p) => ({ unit: p.unit, area: p.area, questions: p.questions })),
            // What to fix, most costly first (FixList).
            fixList: fixes.get(row) ?? [],
            errors: row.result.errors
        }))
    }
}

/** What a schema row's status column says: where it stands, and what was kept from an earlier run. */
function schemaStatus(g: SchemaGrading): string {
    const blocked = g.standing.blockedTools.length
    const base =
        g.status === NODE_STATUS.blocked
            ? `blocked: ${blocked} tool${blocked === 1 ? '' : 's'} not tested`
            : g.status === 'provisional'
              ? `provisional${g.provisionalGrade !== null ? ` (deterministic only: ${g.provisionalGrade})` : ''}`
              : g.status === NODE_STATUS.pending
                ? 'pending: not every unit graded'
                : g.status
    const errors = g.units.filter((u) => u.status === UNIT_STATUS.error).length
    const kept = g.unitCounts.kept > 0 ? ` · kept ${g.unitCounts.kept}, graded ${g.unitCounts.graded}` : ''
    return `${base}${errors > 0 ? ` · ${errors} unit${errors === 1 ? '' : 's'} failed` : ''}${kept}`
}

/** The blocked and failed units of a schema, tools with the same cause said once. */
function unitLines(name: string, units: readonly UnitResult[]): string[] {
    const byCause = new Map<string, string[]>()
    for (const unit of units) {
        if (unit.status !== UNIT_STATUS.blocked && unit.status !== UNIT_STATUS.rejected && unit.status !== UNIT_STATUS.error) continue
        const cause = `${unit.status}${unit.reason !== null ? ` — ${unit.reason}` : ''}`
        byCause.set(cause, [...(byCause.get(cause) ?? []), unit.unit])
    }
    return [...byCause.entries()].map(([cause, list]) => `  ${name}: ${list.length > 3 ? `${list.slice(0, 3).join(', ')} +${list.length - 3} more` : list.join(', ')} ${cause}\n`)
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
            const requests = t.requests.map((r) => `${r.method} ${r.url} → ${r.status ?? 'no answer'}${r.missingRecording ? ' (not recorded)' : ''}`)
            const error = t.error !== null && !t.working ? ` — ${t.error}` : ''
            return `  ${name}: ${t.tool}#${t.testIndex} ${t.verdict ?? '-'}` +
                `${t.via === 'runtime' ? ' (runtime)' : ''}` +
                `${requests.length > 0 ? `: ${requests.slice(0, 5).join('; ')}${requests.length > 5 ? ` +${requests.length - 5} more` : ''}` : ''}` +
                `${error}\n`
        })
}

/** The fix items the text report lists: untested tools are said by the unit lines above them, so their DPT findings are not repeated; a stale recording (at its test) is listed. */
function printedFixes(items: readonly FixItem[]): FixItem[] {
    return items.filter((i) => !(i.kind === 'finding' && i.code.startsWith('DPT-') && !isStaleRecordingItem(i)))
}

/** The table and the lines under it: one row per schema and per namespace, blocked causes spelt out. */
export function textReport(namespaces: readonly GradeNamespaceResult[], results: readonly SchemaRow[], fixes: ReadonlyMap<SchemaRow, FixItem[]>, verbose: boolean, runtime: RuntimeView | null): string {
    const rows = results.map(({ file, result }) => {
        const g = result.grading
        const graded = g?.units.filter((u) => u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected).length ?? 0
        return {
            schema: g?.schemaId ?? file.split('/').pop() ?? file,
            areas: g === null ? '-' : `${graded}/${g.units.length}`,
            grade: g?.grade ?? '-',
            schemaGrade: g?.schemaGrade ?? '-',
            status: g === null ? 'error' : `${schemaStatus(g)}${runtimeTools(runtime, file).size > 0 ? ' · via runtime' : ''}`,
            issues: topIssues(result.errors)
        }
    })
    for (const result of namespaces) {
        if (result.namespace === null) continue
        const graded = result.units.filter((u) => u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected).length
        const mode = result.mode === 'provisional' ? `provisional${result.provisionalGrade !== null ? ` (deterministic only: ${result.provisionalGrade})` : ''}` : result.mode
        rows.push({ schema: `${result.namespace} (namespace)`, areas: `${graded}/${result.units.length}`, grade: result.grade ?? '-', schemaGrade: '-', status: result.rollupStatus !== null ? `${mode} · index ${result.rollupStatus}${result.rollupGrade !== null ? ` ${result.rollupGrade}` : ''}` : mode, issues: topIssues(result.errors) })
    }
    const out = [table(rows, ['schema', 'areas', 'grade', 'schemaGrade', 'status', 'issues'])]
    for (const row of results) {
        const { file, result } = row
        const name = result.grading?.schemaId ?? file
        out.push(...unitLines(name, result.grading?.units ?? []))
        const ran = [...runtimeTools(runtime, file)]
        if (ran.length > 0) {
            const tests = ran.reduce((n, [, t]) => n + t.tests, 0)
            const ok = ran.reduce((n, [, t]) => n + t.ok, 0)
            const tools = ran.map(([tool]) => tool)
            out.push(`  ${name}: ` +
                `${tools.length > 3 ? `${tools.slice(0, 3).join(', ')} +${tools.length - 3} more` : tools.join(', ')}` +
                ` tested through the FlowMCP runtime: ${ok} of ${tests} test${tests === 1 ? '' : 's'} answered\n`)
        }
        if (verbose) out.push(...testLines(name, result.grading?.pretest.tests ?? []))
        for (const issue of result.errors.filter((e) => e.severity === SEVERITY.error && !e.path.startsWith('/schema/main')).slice(0, 5)) out.push(`  ${name}: ${ErrorCodes.format({ issue }).text ?? issue.message}\n`)
        // What to fix, as eslint prints it: by tool, the same message across tools once, costliest first.
        for (const schema of groupFixItems(printedFixes(fixes.get(row) ?? []))) out.push(...fixListText(schema, { indent: '  ', ...(verbose ? {} : { limit: FIX_ITEMS_SHOWN }), more: `for ${name} (--verbose lists them all)` }))
    }
    for (const result of namespaces) if (result.namespace !== null) out.push(...unitLines(`${result.namespace} (namespace)`, result.units))
    // Namespace-level findings (an About not declared, …) say what to do, so their text is shown too.
    for (const result of namespaces) {
        for (const issue of result.errors.filter((e) => e.severity !== SEVERITY.info).slice(0, 5)) out.push(`  ${result.namespace ?? '-'} (namespace): ${ErrorCodes.format({ issue }).text ?? issue.message}\n`)
    }
    const printed = results.flatMap((row) => printedFixes(fixes.get(row) ?? []))
    if (printed.length > 0) out.push(`\n${countsLine(countFixItems(printed))}\n`)
    out.push('\ngrade = the schema\'s standing in index.json: the worst grade of its tools and tools ' +
        'aggregate, shown only when the schema is graded (a tool whose tests did not run blocks it; a ' +
        'provisional run has no grade); a namespace row: its index.json grade. schemaGrade = the ' +
        'tools-aggregate-schema grade alone. See docs/guide.md, "Which grade to quote".\n')
    if (results.some(({ file }) => runtimeTools(runtime, file).size > 0)) {
        out.push(`via runtime = the tests of the schema's handler tools ran through the FlowMCP runtime` +
            `${runtime?.version !== null && runtime?.version !== undefined ? ` ${runtime.version}` : ''} ` +
            `(--runtime), in a child process under Node's permission model.\n`)
    }
    if (results.some(({ result }) => result.grading?.mode === 'provisional')) {
        out.push('provisional = deterministic answers only, no grade: pass --judge-command <cmd> (or --answers <file>) to grade the non-deterministic questions.\n')
    }
    const kept = results.reduce((n, { result }) => n + (result.grading?.unitCounts.kept ?? 0), 0) + namespaces.reduce((n, r) => n + r.units.filter((u) => u.kept === true).length, 0)
    if (kept > 0) {
        const filled = results.reduce((n, { result }) => n + (result.grading?.unitCounts.graded ?? 0), 0) + namespaces.reduce((n, r) => n + r.units.filter((u) => u.kept !== true && (u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected)).length, 0)
        out.push(`resumed: ${kept} units kept from the island (graded before for the same content), ${filled} graded now; --force grades everything again.\n`)
    }
    return out.join('')
}

/** The estimate as a table: calls and input tokens per schema and namespace, then the run. */
export function estimateText(cost: CostEstimate): string {
    const n = (v: number): string => v.toLocaleString('en-US')
    const rows = [...cost.byKey.map((r) => ({ key: r.key, calls: String(r.calls), input: n(r.inputTokens), cached: n(r.cachedTokens), uncached: n(r.uncachedTokens), output: n(r.outputTokens) })), { key: 'run', calls: String(cost.calls), input: n(cost.inputTokens), cached: n(cost.cachedTokens), uncached: n(cost.uncachedTokens), output: n(cost.outputTokens) }]
    const usd = (v: number): string => `$${v.toFixed(v < 1 ? 4 : 2)}`
    const money =
        cost.cost === null
            ? 'cost: pass --price-input and --price-output (US dollars per million tokens) for one.\n'
            : `cost: ${usd(cost.cost.total)} (input ${usd(cost.cost.input)}, output ${usd(cost.cost.output)}; ` +
                `cached input at the input price, an upper bound` +
                `${cost.cost.missing.length > 0 ? `; no ${cost.cost.missing.join(' or ')} price given, counted as 0` : ''}).\n`
    return (
        table(rows, ['key', 'calls', 'input', 'cached', 'uncached', 'output']) +
        `\ninput = input tokens of the judge calls (characters / ${cost.charsPerToken}); cached = the ` +
            `part equal to the start of an earlier call of the run, which a prefix cache serves; uncached = ` +
            `billed at full price; output = expected output tokens of the replies ` +
            `(${OUTPUT_TOKENS.perAnswer} per answer, ${OUTPUT_TOKENS.perCall} per call). No judge was ` +
            `called, nothing was written. about-namespace is counted as asked (a judge run asks it once the ` +
            `schema is stable).\n` +
        money +
        `repair turns: a reply that breaks its contract gets one more call for its unit, so at most ` +
            `${n(cost.repairs.maxCalls)} more calls; with the prefix cached each is billed for its own ` +
            `follow-up: together at most ${n(cost.repairs.uncachedTokens)} uncached and ` +
            `${n(cost.repairs.cachedTokens)} cached input tokens, ${n(cost.repairs.outputTokens)} output ` +
            `tokens${cost.repairs.cost !== null ? `, ${usd(cost.repairs.cost)}` : ''} (not in the figures ` +
            `above).\n`
    )
}

