// The words of a schema row: its status (blocked, pending, provisional, kept) and its grade with the score it comes
// from, and the notes said once under the table (the cap, a missing About). Pure text from the library's results.
import { BLOCKED_REASONS, NODE_STATUS, UNIT_STATUS } from '../../model/constants.js'
import type { GradeSingleSchemaResult, SchemaGrading } from '../../grade/types.js'
import { isEnvironmentReason } from '../../model/environment.js'
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
 * A)`. The score moves with every edit to the weakest unit, where the capped letter may not.
 */
export function gradeText(g: SchemaGrading): string {
    if (g.grade === null) return '-'
    if (g.basis === null) return g.grade
    const raw = g.basis.rawGrade !== null && g.basis.rawGrade !== g.grade ? ` (raw ${g.basis.rawGrade})` : ''
    return `${g.grade} ${g.basis.score.toFixed(2)}${raw}`
}

/** Said once under a table with a graded schema: why B is the ceiling, and where A is reached. */
export const CAP_NOTE =
    'A single schema is graded autonomously: its grade stops at B (the score beside it still moves, and "raw" shows the band before the cap); A is reached only in a selection, graded by a group (gradeSelection, docs/guide.md "Grading a selection").'

/**
 * IDX-014 in words, once per namespace: which file to create and where to declare it, instead of a bare code in the
 * issues column.
 */
export function aboutLines(
    results: ReadonlyArray<{ readonly file: string; readonly result: GradeSingleSchemaResult }>
): string[] {
    const folders = new Map<string, string>()
    for (const { file, result } of results) {
        const namespace = result.grading?.namespace
        if (namespace === undefined || !result.errors.some((e) => e.code === 'IDX-014')) continue
        folders.set(namespace, file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.')
    }
    return [...folders].map(
        ([namespace, folder]) =>
            `  ${namespace} (namespace): IDX-014 no About: create ${folder}/resources/${namespace}-about.md (what the API offers, its limits, its use cases) and declare it in main.resources.about of one schema; see docs/cli.md, "The About"\n`
    )
}
