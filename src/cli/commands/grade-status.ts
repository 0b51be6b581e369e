// The words of a schema row: its status (blocked, pending, provisional, kept) and its grade with the score it comes
// from, and the note said once under the table (the cap). Pure text from the library's results.
import { BLOCKED_REASONS, NODE_STATUS, UNIT_STATUS } from '../../model/constants.js'
import type { SchemaGrading } from '../../grade/types.js'
import { isEnvironmentReason } from '../../model/environment.js'
import { CAP_NOTE, gradeScoreText } from '../../report/score.js'
import type { BlockedTool } from '../../rollup/standing.js'

/**
 * Why a schema is blocked, in words a first reader gets right: tools this environment could not test ("not tested
 * here") apart from tools that were tested and fell below their bar ("tested, below its bar of 3") or are blocked
 * for their content.
 */
export function blockedText(tools: readonly BlockedTool[]): string {
    const count = (n: number): string => `${n} tool${n === 1 ? '' : 's'}`
    const here = tools.filter((t) => isEnvironmentReason(t.cause))
    const byWhy = new Map<string, string[]>()
    for (const t of tools.filter((x) => !here.includes(x))) {
        const bar = t.cause !== null ? /^fewer-than-(\d+)-working-tests$/.exec(t.cause) : null
        const why =
            bar !== null
                ? `tested, below the bar of ${bar[1]} working tests`
                : t.cause === BLOCKED_REASONS.noWorkingTest
                  ? 'tested, no test worked'
                  : (t.cause ?? 'blocked')
        byWhy.set(why, [...(byWhy.get(why) ?? []), t.tool])
    }
    const parts = [
        ...(here.length > 0 ? [`${count(here.length)} not tested here`] : []),
        ...[...byWhy.entries()].map(([why, names]) => `${names.length === 1 ? names[0] : count(names.length)} ${why}`)
    ]
    return parts.length > 0 ? parts.join('; ') : 'a tool is blocked'
}

/** What a schema row's status column says: where it stands, and what was kept from an earlier run. */
export function schemaStatus(g: SchemaGrading): string {
    const base =
        g.status === NODE_STATUS.blocked
            ? `blocked: ${blockedText(g.standing.blockedTools)}`
            : g.status === 'provisional'
              ? `provisional${g.provisionalGrade !== null ? ` (deterministic only: ${g.provisionalGrade})` : ''}`
              : g.status === NODE_STATUS.pending
                ? `pending: ${g.standing.reason ?? 'not every unit graded'}`
                : g.status
    const errors = g.units.filter((u) => u.status === UNIT_STATUS.error).length
    const kept = g.unitCounts.kept > 0 ? ` · kept ${g.unitCounts.kept}, graded ${g.unitCounts.graded}` : ''
    return `${base}${errors > 0 ? ` · ${errors} unit${errors === 1 ? '' : 's'} failed` : ''}${kept}`
}

/**
 * A schema's grade with the score it comes from and, where the autonomous cap trimmed it, its raw band: `B 4.62 (raw
 * A)`, in the form every surface prints (`gradeScoreText`). The score moves with every edit to the weakest unit, where
 * the capped letter may not.
 */
export function gradeText(g: SchemaGrading): string {
    return gradeScoreText({ grade: g.grade, basis: g.basis })
}

/** Said once under a table with a graded schema (the library's text, as the report and the summary say it). */
export { CAP_NOTE }
