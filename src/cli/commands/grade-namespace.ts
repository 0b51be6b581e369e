// The namespaces of a `grade` run as the text shows them: their own table (the answers, the index's status and the
// grade each in a column of its own) and their fix lists (the namespace description, the About), built from the
// library's `FixList.buildNamespace` with the places the files give.
import { readdir, readFile } from 'node:fs/promises'
import {
    countFixItems,
    countsLine,
    collapseFixItems,
    fixEntriesOf,
    fixListLineText,
    type NamespaceFixPlace
} from '../../fix/fix-list.js'
import { FixList, FixRules, sourceLocations, type FixItem, type GradeNamespaceResult } from '../../index.js'
import type { GradingEntry } from '../../model/types.js'
import { SEVERITY, UNIT_STATUS } from '../../model/constants.js'
import { table } from '../io.js'

/** The folder of a schema file, as the paths of the run are written. */
const folderOf = (file: string): string => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.')

/** The codes of the errors, then the warnings, of a namespace run: at most three and a count. */
function topIssues(result: GradeNamespaceResult): string {
    const errors = result.errors
    const shown = errors
        .filter((e) => e.severity === SEVERITY.error)
        .concat(errors.filter((e) => e.severity === SEVERITY.warning))
    const codes = [...new Set(shown.map((e) => e.code))]
    return codes.length === 0 ? '-' : codes.slice(0, 3).join(' ') + (codes.length > 3 ? ` +${codes.length - 3}` : '')
}

/**
 * How the namespace's questions were answered, in words: `judged` (a judge or an answers file answered the
 * non-deterministic questions), `provisional (deterministic only: B)`, or `none` (no unit could be graded).
 */
export function answersText(result: Pick<GradeNamespaceResult, 'mode' | 'provisionalGrade'>): string {
    if (result.mode === 'full') return 'judged'
    if (result.mode === 'provisional')
        return result.provisionalGrade !== null
            ? `provisional (deterministic only: ${result.provisionalGrade})`
            : 'provisional'
    return 'none'
}

/**
 * The namespace's status: its `index.json` status (operational, partial, blocked, pending, rejected), with the index's
 * grade when it differs from the run's (a provisional run); `-` when no index was written (no `--island`).
 */
export function namespaceStatusText(
    result: Pick<GradeNamespaceResult, 'rollupStatus' | 'rollupGrade' | 'grade'>
): string {
    if (result.rollupStatus === null) return '-'
    const differs = result.rollupGrade !== null && result.rollupGrade !== result.grade
    return `${result.rollupStatus}${differs ? ` (index grade ${result.rollupGrade})` : ''}`
}

const isGraded = (u: { readonly status: string }): boolean =>
    u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected

/** The namespaces' own table: one row each, its mode, status and grade in columns of their own. */
export function namespaceTable(namespaces: readonly GradeNamespaceResult[]): string {
    const rows = namespaces
        .filter((r) => r.namespace !== null)
        .map((result) => ({
            namespace: result.namespace as string,
            areas: `${result.units.filter(isGraded).length}/${result.units.length}`,
            grade: result.grade ?? '-',
            answers: answersText(result),
            status: namespaceStatusText(result),
            issues: topIssues(result)
        }))
    return rows.length === 0 ? '' : `\n${table(rows, ['namespace', 'areas', 'grade', 'answers', 'status', 'issues'])}`
}

/** The About of a folder: `resources/<namespace>-about.md` or another `*-about.md` there, else where to create it. */
async function aboutFileIn(folder: string, namespace: string): Promise<{ file: string; exists: boolean }> {
    const own = `${namespace}-about.md`
    try {
        const names = (await readdir(`${folder}/resources`)).sort()
        const found = names.includes(own) ? own : names.find((n) => n.endsWith('-about.md'))
        if (found !== undefined) return { file: `${folder}/resources/${found}`, exists: true }
    } catch {
        // No resources folder: the About is to be created at its conventional name.
    }
    return { file: `${folder}/resources/${own}`, exists: false }
}

/** The namespace units' entries: those written now, and those of kept units read back from the island. */
async function namespaceEntries(result: GradeNamespaceResult): Promise<Array<{ unit: string; entry: GradingEntry }>> {
    const entries = fixEntriesOf(result.units, result.entries)
    for (const unit of result.units) {
        if (unit.kept !== true || unit.written === null) continue
        try {
            entries.push({ unit: unit.unit, entry: JSON.parse(await readFile(unit.written, 'utf8')) as GradingEntry })
        } catch {
            // A kept entry that cannot be read back adds no answers; the island's rebuild reports it.
        }
    }
    return entries
}

/**
 * Each namespace's fix list: the About in words (which file to create, where to declare it), the namespace units'
 * answers that cost points and their hints, each at its file and line; the config's rules applied as to the schemas'.
 */
export async function namespaceFixListsOf(
    namespaces: readonly GradeNamespaceResult[],
    rules?: Readonly<Record<string, unknown>>
): Promise<Map<GradeNamespaceResult, FixItem[]>> {
    const out = new Map<GradeNamespaceResult, FixItem[]>()
    for (const result of namespaces) {
        const first = result.schemas[0]
        if (result.namespace === null || first === undefined) continue
        const folder = folderOf(first.file)
        let places: Pick<NamespaceFixPlace, 'locate' | 'resolve'> = {}
        try {
            const found = sourceLocations({ source: await readFile(first.file, 'utf8') })
            places = { locate: found.locate, resolve: found.resolve }
        } catch {
            places = {}
        }
        const items = FixList.buildNamespace({
            namespace: result.namespace,
            units: result.units,
            entries: await namespaceEntries(result),
            errors: [
                ...result.errors,
                ...result.schemas.flatMap((s) => s.result.errors.filter((e) => e.code === 'IDX-014')).slice(0, 1)
            ],
            schema: { file: first.file, ...places },
            about: await aboutFileIn(folder, result.namespace),
            folder
        }).items
        out.set(result, FixRules.apply({ items, rules }).items)
    }
    return out
}

/**
 * A namespace's fix list as text, in the schemas' line format: a heading with the namespace and its counts, then the
 * lines grouped under the file they are fixed in, costliest first; with `limit`, at most that many lines and a count.
 */
export function namespaceFixListText(
    namespace: string,
    items: readonly FixItem[],
    options: { readonly indent?: string; readonly limit?: number; readonly grade?: string | null } = {}
): string[] {
    if (items.length === 0) return []
    const indent = options.indent ?? ''
    const grade = options.grade !== undefined && options.grade !== null ? `, grade ${options.grade}` : ''
    const out = [`${indent}${namespace} (namespace${grade}): ${countsLine(countFixItems(items))}\n`]
    const byFile = new Map<string, FixItem[]>()
    for (const item of items) {
        const file = item.file ?? `${namespace} (namespace)`
        byFile.set(file, [...(byFile.get(file) ?? []), item])
    }
    const limit = options.limit ?? Number.POSITIVE_INFINITY
    let shown = 0
    let hidden = 0
    for (const [file, its] of byFile) {
        const lines = collapseFixItems(its)
        const room = Math.max(0, limit - shown)
        hidden += Math.max(0, lines.length - room)
        if (room === 0) continue
        out.push(`${indent}  ${file}\n`)
        for (const line of lines.slice(0, room)) out.push(`${indent}    ${fixListLineText(line)}\n`)
        shown += Math.min(room, lines.length)
    }
    if (hidden > 0)
        out.push(
            `${indent}  … ${hidden} more line${hidden === 1 ? '' : 's'} for ${namespace} (namespace) (--verbose lists them all)\n`
        )
    return out
}
