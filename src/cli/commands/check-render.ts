// What `check` prints and writes: the table with each schema's verdict, why it fails, what to fix and
// the warnings new since the baseline (text or `--json`), the SARIF file and the Markdown summary.
import { appendFile } from 'node:fs/promises'
import {
    countFixItems,
    countsLine,
    fixLine,
    fixListText,
    groupFixItems,
    isStaleRecordingItem
} from '../../fix/fix-list.js'
import { checkSummaryMarkdown, type CheckJson, type CheckJsonSchema, type FixItem } from '../../index.js'
import { gradeScoreText } from '../../report/score.js'
import { redacted, table, type CliIo } from '../io.js'
import { absolute } from '../node.js'
import { writeSarif } from './grade-outputs.js'
import { FIX_ITEMS_SHOWN } from '../../fix/types.js'
import { unverifiedItem, type CheckRow } from './check-verdict.js'

/** What the check concluded over all rows. */
export interface CheckState {
    readonly failed: number
    readonly tooManyWarnings: string | null
    readonly interrupted: readonly string[] | null
    /** Why the check could not run at all (then there are no rows). */
    readonly problem: string | null
    /** What the run says once: no judge given, no baseline found, a path gone. */
    readonly notices: readonly string[]
    readonly allowUnverified: boolean
}

/** The status a row shows: the standing's, or `unreadable` / `removed`. */
const statusOf = (row: CheckRow): string => row.s.label ?? row.s.standing.status

/** The verdict column: upper case when it fails the check. */
const verdictCell = (row: CheckRow): string => (row.fails.length > 0 ? row.verdict.toUpperCase() : row.verdict)

/** The fix items of every row, and the CHK-001 item of each unverified one, for SARIF and the fix lists. */
export function itemsOf(rows: readonly CheckRow[], allowUnverified: boolean): FixItem[] {
    return rows.flatMap((r) =>
        r.verdict === 'unverified' ? [...r.s.fixes, unverifiedItem(r.s, allowUnverified)] : r.s.fixes
    )
}

/** The `--json` output. */
export function checkJson(rows: readonly CheckRow[], state: CheckState, passed: boolean): string {
    const { tooManyWarnings, interrupted, notices } = state
    const schemas = rows.map(
        ({ s, before, fails, verdict, newWarnings }): CheckJsonSchema => ({
            schemaId: s.id,
            file: s.file,
            grade: s.standing.grade,
            basis: s.standing.basis,
            schemaGrade: s.standing.schemaGrade,
            status: s.label ?? s.standing.status,
            reason: s.standing.reason,
            note: s.note,
            verdict,
            unverified: s.unverified,
            baseline: before,
            failures: fails,
            untested: s.untested,
            newWarnings,
            fixList: s.fixes
        })
    )
    const document: CheckJson = {
        passed,
        ...(notices.length > 0 ? { notices } : {}),
        ...(tooManyWarnings !== null ? { maxWarnings: tooManyWarnings } : {}),
        ...(interrupted !== null ? { interrupted: { skipped: interrupted } } : {}),
        schemas
    }
    return `${JSON.stringify(document, null, 2)}\n`
}

/** The table, why each schema fails, what to fix (as eslint prints it), the new warnings, and the verdict. */
export function checkText(rows: readonly CheckRow[], state: CheckState, verbose: boolean): string {
    const { failed, tooManyWarnings, interrupted } = state
    const out = [
        table(
            rows.map((r) => ({
                schema: r.s.id,
                grade: gradeScoreText(r.s.standing),
                baseline: r.before,
                status: statusOf(r) + (r.s.note !== null ? ` (${r.s.note})` : ''),
                verdict: verdictCell(r)
            })),
            ['schema', 'grade', 'baseline', 'status', 'verdict']
        )
    ]
    for (const { s, fails } of rows) {
        for (const f of fails) out.push(`  ${s.id}: ${f}\n`)
        if (s.unverified !== null && !fails.some((f) => f.startsWith('not verified')))
            out.push(`  ${s.id}: not verified (allowed by --allow-unverified): ${s.unverified ?? ''}\n`)
        // A failing schema says what to fix, and where, as eslint prints it; every schema does when the warnings
        // fail the gate.
        if (fails.length > 0 || tooManyWarnings !== null)
            for (const schema of groupFixItems(s.fixes))
                out.push(
                    fixListText(schema, {
                        indent: '  ',
                        ...(verbose ? {} : { limit: FIX_ITEMS_SHOWN }),
                        more: `for ${s.id} (--verbose lists them all)`
                    }).join('')
                )
    }
    // A passing schema's new warnings are listed too: what this change adds, before a bound makes it fail.
    const fresh = rows.filter((r) => r.fails.length === 0 && tooManyWarnings === null).flatMap((r) => r.newWarnings)
    if (fresh.length > 0)
        out.push(`\nnew warnings:\n${fresh.map((f) => `  new  ${f.schemaId}  ${fixLine(f)}\n`).join('')}`)
    // A stale recording is named at every bar, pass or fail: which test, which request, the command that records it
    // again.
    const stale = rows.flatMap((r) => r.s.fixes.filter(isStaleRecordingItem))
    if (stale.length > 0)
        out.push(
            `\nstale recordings (record them again and commit the recordings):\n${stale.map((f) => `  ${f.schemaId}  ${fixLine(f)}\n`).join('')}`
        )
    const all = rows.flatMap((r) => r.s.fixes)
    if (all.length > 0) out.push(`\n${countsLine(countFixItems(all))}\n`)
    if (tooManyWarnings !== null) out.push(`${tooManyWarnings}\n`)
    const unverified = rows.filter((r) => r.verdict === 'unverified' && r.fails.length > 0).length
    const gate = failed - unverified
    const parts = [
        ...(gate > 0 ? [`${gate} schema${gate === 1 ? '' : 's'}`] : []),
        ...(unverified > 0 ? [`${unverified} not verified`] : []),
        ...(tooManyWarnings !== null
            ? [gate === 0 && unverified === 0 ? '0 schemas, too many warnings' : 'too many warnings']
            : [])
    ]
    out.push(
        interrupted !== null
            ? `\ncheck interrupted; skipped: ${interrupted.join('; ')}\n`
            : parts.length === 0
              ? '\ncheck passed\n'
              : `\ncheck failed: ${parts.join(', ')}\n`
    )
    return out.join('')
}

/** Writes the SARIF file and appends the summary, each attempted whatever the other did; false when one failed. */
export async function writeOutputs(
    options: { sarif?: string; summary?: string },
    rows: readonly CheckRow[],
    io: CliIo,
    state: CheckState
): Promise<boolean> {
    // An empty run when nothing was checked: the upload step always finds its file.
    let ok = await writeSarif(options, itemsOf(rows, state.allowUnverified), io, 'check')
    if (options.summary === undefined) return ok
    const summaryRows = rows.map(({ s, before, fails, verdict, newWarnings }) => ({
        schema: s.id,
        grade: s.standing.grade,
        basis: s.standing.basis,
        baseline: before,
        status: s.label ?? s.standing.status,
        note: s.note,
        failures: fails,
        fixes: s.fixes,
        verdict,
        unverified: s.unverified,
        newWarnings
    }))
    const text = checkSummaryMarkdown({
        rows: summaryRows,
        tooManyWarnings: state.tooManyWarnings,
        interrupted: state.interrupted,
        problem: state.problem,
        notices: state.notices,
        fixItemsShown: FIX_ITEMS_SHOWN
    }).markdown
    try {
        // Appended, as a CI job summary file collects several steps.
        await appendFile(absolute(options.summary, io.cwd), redacted(io, text))
    } catch (cause) {
        io.stderr(`check: cannot write the summary: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        ok = false
    }
    return ok
}
