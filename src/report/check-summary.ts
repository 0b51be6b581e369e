import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { parseArgs, says } from '../validation/args.js'
import type { Issue } from '../errors/types.js'
import { collapseFixItems, countFixItems, countsLine, isStaleRecordingItem } from '../fix/fix-list.js'
import { FIX_ITEMS_SHOWN, type FixItem } from '../fix/types.js'
import type { GradeBasis } from '../rollup/standing.js'
import { CAP_NOTE, gradeScoreText, isLetter } from './score.js'

/** One schema of a check, as its summary row shows it. */
export interface CheckSummaryRow {
    /** The schema id (`<namespace>.<schema>`). */
    readonly schema: string
    /** Its grade, or null when it has none. */
    readonly grade: string | null
    /**
     * The score its grade comes from (`standing.basis`, read from its index node by `basisOfSchemaNode`): the grade
     * column then reads `B 4.62 (raw A)`, as the CLI table and the HTML report do.
     */
    readonly basis?: GradeBasis | null
    /** What the baseline said of it: its grade, its status, or `—`. */
    readonly baseline: string
    /** Its status (or `unreadable`). */
    readonly status: string
    /** Why it has no grade for a reason of the environment, shown beside the status. */
    readonly note?: string | null
    /** Why it fails the check, in words; empty when it passes. */
    readonly failures: readonly string[]
    /** Its fix list: the costliest few are shown under a failing schema. */
    readonly fixes: readonly FixItem[]
    /**
     * The verdict column: `ok`, `fails`, `unverified` (the run could not establish its standing: a
     * failed judge, an interruption) or `removed` (in the baseline, gone now). Without it: `fails`
     * when it has failures, else `ok`.
     */
    readonly verdict?: 'ok' | 'fails' | 'unverified' | 'removed'
    /** Why it is unverified: the judge's own error (redacted), an interruption. */
    readonly unverified?: string | null
    /** The warnings its fix list gained since the baseline, listed under the table marked new. */
    readonly newWarnings?: readonly FixItem[]
}

export interface CheckSummaryInput {
    readonly rows: readonly CheckSummaryRow[]
    /** Why the warnings of the fix lists fail the check (`--max-warnings`), or null. */
    readonly tooManyWarnings?: string | null
    /** What an interruption skipped, or null when the check ran to its end. */
    readonly interrupted?: readonly string[] | null
    /** Why the check could not run at all: the summary says only that. */
    readonly problem?: string | null
    /** What the run says once (no judge given, no baseline found), each a line under the verdict. */
    readonly notices?: readonly string[]
    /** Fix lines shown under a failing schema; 5 when omitted. */
    readonly fixItemsShown?: number
}

export interface CheckSummary {
    /** GitHub-flavoured Markdown, ending in a newline (a CI job summary appends it). */
    readonly markdown: string
    /** The schemas that fail. */
    readonly failed: number
    /** GRA-002 for an input that is not `{ rows: [...] }` with a schema id on each row. */
    readonly errors: Issue[]
}

/** Text in a table cell or a list item: a pipe would end the cell, a newline the row. */
const md = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** The codes and wording of the argument checks: every wrong value is a wrong type (GRA-002), never missing. */
const ARGS = { missing: 'GRA-001', mismatch: 'GRA-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'type', missing: 'keys' } as const
// Any object, an array too (it has no rows): the old check asked only for `typeof 'object'`.
const INPUT = v.custom<object>((i) => i !== null && typeof i === 'object', says({ expected: 'object', missing: false }))
const ROW = v.custom(
    (r) =>
        r !== null &&
        typeof r === 'object' &&
        typeof (r as { schema?: unknown }).schema === 'string' &&
        Array.isArray((r as { failures?: unknown }).failures) &&
        Array.isArray((r as { fixes?: unknown }).fixes),
    says({ expected: 'a row with schema, failures and fixes', missing: false })
)
const ROWS = v.looseObject({ rows: v.array(ROW, says({ expected: 'array', missing: false })) })

/** The one wrong argument, or null: the input, then the rows, then the first wrong row. */
function checkInput(input: unknown): Issue | null {
    const root = parseArgs(INPUT, input, ARGS, STYLE)
    if (root.value === null) return root.errors[0] ?? null
    return parseArgs(ROWS, { rows: (input as { rows?: unknown }).rows }, ARGS, STYLE).errors[0] ?? null
}

function headline(rows: readonly CheckSummaryRow[], tooManyWarnings: string | null, interrupted: boolean): string {
    const failed = rows.filter((r) => r.failures.length > 0)
    const unverified = failed.filter((r) => verdictOf(r) === 'unverified').length
    const gate = failed.length - unverified
    const parts = [
        ...(gate > 0 ? [`${gate} schema${gate === 1 ? '' : 's'} failed`] : []),
        ...(unverified > 0 ? [`${unverified} schema${unverified === 1 ? '' : 's'} not verified`] : []),
        ...(tooManyWarnings !== null ? ['too many warnings'] : [])
    ]
    // An interrupted check verified nothing it skipped: it never reads as passed.
    const verdict = interrupted
        ? `interrupted${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`
        : parts.length === 0
          ? 'passed'
          : parts.join(', ')
    return `## flowmcp-grading check: ${verdict}`
}

function verdictOf(row: CheckSummaryRow): 'ok' | 'fails' | 'unverified' | 'removed' {
    return row.verdict === 'ok' || row.verdict === 'fails' || row.verdict === 'unverified' || row.verdict === 'removed'
        ? row.verdict
        : row.failures.length === 0
          ? 'ok'
          : 'fails'
}

/** The verdict cell: bold when it fails the check. */
function verdictCell(row: CheckSummaryRow): string {
    const verdict = verdictOf(row)
    return row.failures.length > 0 ? `**${verdict}**` : verdict
}

/** The warnings the fix lists gained since the baseline, each marked new. */
function newWarningLines(rows: readonly CheckSummaryRow[]): string[] {
    const lines: string[] = []
    for (const row of rows) {
        for (const item of Array.isArray(row.newWarnings) ? row.newWarnings : []) {
            const tool = item.tool !== undefined ? ` — tool ${md(item.tool)}` : ''
            const line = item.line !== null ? ` (line ${item.line})` : ''
            lines.push(`- **new** \`${md(item.code)}\` ${md(row.schema)}: ${md(item.message)}${tool}${line}`)
        }
    }
    return lines.length > 0 ? ['', 'New warnings:', '', ...lines] : []
}

/**
 * Every test whose request the recordings lack, passing schema or failing: the test, the request and the command that
 * records it again.
 */
function staleRecordingLines(rows: readonly CheckSummaryRow[]): string[] {
    const lines: string[] = []
    for (const row of rows) {
        for (const item of row.fixes.filter((f) => f !== null && typeof f === 'object' && isStaleRecordingItem(f))) {
            const command =
                item.recording !== undefined && item.recording.command !== null
                    ? `: \`${item.recording.command.replace(/`/g, "'")}\``
                    : ''
            const request =
                item.recording !== undefined
                    ? ` — \`${md(`${item.recording.method} ${item.recording.url}`).replace(/`/g, "'")}\``
                    : ''
            lines.push(
                `- \`${md(item.code)}\` ${md(row.schema)}: ${md(item.message)}${item.line !== null ? ` (line ${item.line})` : ''}${request}${command}`
            )
        }
    }
    return lines.length > 0 ? ['', 'Stale recordings (record them again and commit the recordings):', '', ...lines] : []
}

/** Under a failing schema: why, then the costliest fix lines, the same message across tools once. */
function failingSection(row: CheckSummaryRow, shown: number): string[] {
    const lines = ['', `### ${md(row.schema)}`, '', ...row.failures.map((f) => `- ${md(String(f))}`)]
    if (
        verdictOf(row) === 'unverified' &&
        typeof row.unverified === 'string' &&
        !row.failures.some((f) => String(f).includes(row.unverified as string))
    )
        lines.push(`- not verified: ${md(row.unverified)}`)
    const first = collapseFixItems(row.fixes).slice(0, shown)
    if (first.length > 0) {
        lines.push('', `What to fix first (${countsLine(countFixItems(row.fixes))}):`, '')
        for (const l of first) {
            const tools =
                l.tools.length > 0 ? ` — ${l.tools.length === 1 ? 'tool' : 'tools'} ${md(l.tools.join(', '))}` : ''
            const line = l.items[0] !== undefined && l.items[0].line !== null ? ` (line ${l.items[0].line})` : ''
            lines.push(`- \`${md(l.code)}\` ${md(l.message)}${tools}${line}`)
        }
    }
    return lines
}

/**
 * The Markdown summary of a check (what `flowmcp-grading check --summary` appends to a CI job summary):
 * the verdict (`interrupted` after Ctrl-C, never `passed`), the notices, the counts of the fix lists, a
 * table of every schema, the warnings new since the baseline, then per failing schema why it fails and
 * what to fix first. Never throws.
 * @param input - `{ rows, tooManyWarnings?, interrupted?, problem?, notices?, fixItemsShown? }`
 * @returns `{ markdown, failed, errors }`; GRA-002 for a malformed input (then `markdown` is empty).
 * @example
 * checkSummaryMarkdown({
 *     rows: [{ schema: 'demo.x', grade: 'B', baseline: 'A', status: 'stable', failures: ['was A, now B'], fixes: [] }]
 * }).markdown
 */
export function checkSummaryMarkdown(input: CheckSummaryInput): CheckSummary {
    const invalid = checkInput(input)
    if (invalid !== null) return { markdown: '', failed: 0, errors: [invalid] }
    const { rows } = input
    const failed = rows.filter((r) => r.failures.length > 0).length
    if (typeof input.problem === 'string')
        return { markdown: `## flowmcp-grading check: could not run\n\n${md(input.problem)}\n`, failed, errors: [] }
    const tooManyWarnings = typeof input.tooManyWarnings === 'string' ? input.tooManyWarnings : null
    const shown =
        Number.isSafeInteger(input.fixItemsShown) && (input.fixItemsShown as number) >= 0
            ? (input.fixItemsShown as number)
            : FIX_ITEMS_SHOWN
    const interrupted = Array.isArray(input.interrupted)
    const notices = Array.isArray(input.notices)
        ? input.notices.filter((n): n is string => typeof n === 'string').map((n) => `> ${md(n)}`)
        : []
    const counts = countsLine(countFixItems(rows.flatMap((r) => r.fixes)))
    const lines = [
        headline(rows, tooManyWarnings, interrupted),
        '',
        ...(notices.length > 0 ? [...notices, ''] : []),
        `${counts}${tooManyWarnings !== null ? `: ${tooManyWarnings}` : ''}`,
        '',
        '| schema | grade | baseline | status | verdict |',
        '|---|---|---|---|---|',
        ...rows.map(
            (r) =>
                `| ${md(r.schema)} | ${r.grade === null ? '—' : md(String(gradeScoreText(r)))} | ${r.baseline} | ${md(r.status + (typeof r.note === 'string' ? ` (${r.note})` : ''))} | ${verdictCell(r)} |`
        ),
        '',
        GRADE_NOTE,
        ...(rows.some((r) => isLetter(r.grade)) ? ['', CAP_NOTE] : []),
        ...newWarningLines(rows),
        ...staleRecordingLines(rows)
    ]
    for (const row of rows.filter((r) => r.failures.length > 0)) lines.push(...failingSection(row, shown))
    const skipped = Array.isArray(input.interrupted)
        ? `\n**Interrupted** (Ctrl-C); skipped: ${md(input.interrupted.join('; '))}\n`
        : ''
    return { markdown: `${lines.join('\n')}\n${skipped}`, failed, errors: [] }
}

/** What the grade column is, in one line, pointing at the one place the docs define it. */
export const GRADE_NOTE =
    'grade = the schema\'s standing in its index.json (the worst grade of its tools and tools aggregate, only when it is graded), with the score (1–5) of the unit it comes from; see docs/guide.md, "Which grade to quote".'
