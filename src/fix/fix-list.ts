import type { ImprovementHint } from '../areas/output.js'
import { questionsOf } from '../areas/catalogue.js'
import { createIssue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import type { GradingEntry } from '../model/types.js'
import type { UnitResult } from '../grade/types.js'
import type { FixItem } from './types.js'
import { isWorkingCountReason } from '../model/constants.js'

/** Where a JSON Pointer of `main` sits in the source, when known (`sourceLocations(...).locate`). */
export type Locate = (pointer: string) => { readonly line: number; readonly column: number } | null

/** What a finding costs in the order of the list: an error blocks grading; a spec-strict warning costs half a point of Q-schema-structure. */
const FINDING_COST = { error: 2, warning: 0.5, info: 0 } as const
/** A tool nobody could test keeps the whole schema from a grade. */
const BLOCKED_TOOL_COST = 4
/** Answers at or above this score are not worth a line. */
const LOW_SCORE = 4

/** The pretest's blocked reasons, as the codes the catalogue explains them under. */
const BLOCKED_CODES: Readonly<Record<string, string>> = {
    'key-gated-missing-server-param': 'DPT-007',
    'api-key-domain-mismatch': 'DPT-013',
    'state-changing-tool': 'DPT-019',
    'no-tests': 'DPT-015',
    'unbuildable-tests': 'DPT-012',
    'handlers-need-runtime': 'DPT-020'
}

/** Codes of the run itself (prompts, gates, provisional, kept): not things to fix in the schema. */
const RUN_CODES = /^(GRA-0(0[0-9]|1[0-9]|2[0-4])|IDX-|ISL-|FS-|INT-|JCMD-)/

/** A list from the input, or none: the input is read at run time and may be anything. */
const list = <T>(value: readonly T[] | undefined): readonly T[] => (Array.isArray(value) ? value : [])

/** The schema part a unit is about: its tool, the tool set, or the schema as a whole. */
function unitPointer(unit: string): string {
    if (unit.startsWith('single-test/')) return pointer('tools', unit.slice('single-test/'.length))
    if (unit === 'tools-aggregate-schema' || unit === 'tools-aggregate-namespace') return '/tools'
    return ''
}

/** A hint's `targetField` (`tools.getPrice.description`, `/tools/getPrice/description`, `description`) as a pointer, when it reads as one. */
function hintPointer(target: string, fallback: string): string {
    if (target.startsWith('/')) return target
    if (/^[A-Za-z_$][\w$-]*(\.[A-Za-z0-9_$-]+)*$/.test(target)) {
        const parts = target.split('.')
        return parts[0] === 'main' ? pointer(...parts.slice(1)) : parts[0] === 'tools' || parts[0] === 'description' || parts[0] === 'name' || parts[0] === 'tags' || parts[0] === 'docs' ? pointer(...parts) : fallback
    }
    return fallback
}

function at(locate: Locate | undefined, pointer: string): { line: number | null; column: number | null } {
    if (locate === undefined) return { line: null, column: null }
    try {
        const found = locate(pointer)
        return found === null ? { line: null, column: null } : { line: found.line, column: found.column }
    } catch {
        return { line: null, column: null }
    }
}

/** The input of {@link FixList.build}: what one graded schema said. */
export interface FixListInput {
    readonly schemaId: string
    readonly file?: string | null
    /** The run's issues (`result.errors`): the schema's own findings are kept, the run's are not. */
    readonly errors: readonly Issue[]
    /** The run's units (`result.grading.units`): blocked tools, and the hints of graded units. */
    readonly units: readonly UnitResult[]
    /** The entries of the units, for the answers that cost points ({@link FixList.entriesOf} pairs a result's entries with their units). */
    readonly entries?: ReadonlyArray<{ readonly unit: string; readonly entry: GradingEntry }>
    readonly locate?: Locate
}

/**
 * What to fix in a schema, most costly first: tools nobody could test (they keep the schema from a
 * grade), the schema's own findings (errors before warnings), then the judge's answers that cost
 * grade points — each with its reasoning, the area's improvement hints, and where in the source it is.
 */
export class FixList {
    private constructor() {}

    /**
     * @param input - `{ schemaId, file?, errors, units, entries?, locate? }`
     * @returns `{ items, errors }`: the items ordered by cost (ties: errors first, then by pointer); GRA-002 for input that is not a graded schema
     * @example FixList.build({ schemaId: g.schemaId, file, errors: result.errors, units: g.units, entries: fixEntriesOf(g.units, result.entries), locate }).items
     */
    static build(input: FixListInput): { items: FixItem[]; errors: Issue[] } {
        if (input === null || typeof input !== 'object' || typeof input.schemaId !== 'string') return { items: [], errors: [createIssue('GRA-002', '/schemaId', { field: 'schemaId', expected: 'string', actual: typeOfValue((input as { schemaId?: unknown } | null | undefined)?.schemaId) })] }
        const items: FixItem[] = []
        const file = input.file ?? null
        const schemaId = input.schemaId
        for (const unit of list(input.units)) {
            if (unit.area !== 'single-test' || unit.status !== 'blocked') continue
            const reason = unit.reason ?? 'blocked'
            const key = reason.split(' — ')[0] ?? reason
            const code = BLOCKED_CODES[key] ?? (isWorkingCountReason(key) ? 'DPT-003' : 'GRA-011')
            const pointer = unitPointer(unit.unit)
            items.push({ schemaId, file, kind: 'finding', code, severity: 'warning', message: `${unit.unit} was not tested: ${reason}`, pointer, ...at(input.locate, pointer), cost: BLOCKED_TOOL_COST, unit: unit.unit, area: unit.area, tool: unit.unit.slice('single-test/'.length) })
        }
        const seen = new Set<string>()
        for (const issue of list(input.errors)) {
            if (issue.severity === 'info' || RUN_CODES.test(issue.code) || !issue.path.startsWith('/schema/main')) continue
            const pointer = issue.path.slice('/schema/main'.length)
            const key = `${issue.code}|${pointer}`
            if (seen.has(key)) continue
            seen.add(key)
            items.push({ schemaId, file, kind: 'finding', code: issue.code, severity: issue.severity, message: issue.message, pointer, ...at(input.locate, pointer), cost: FINDING_COST[issue.severity] })
        }
        const hintsByUnit = new Map<string, readonly ImprovementHint[]>(list(input.units).flatMap((u) => (u.improvementHints !== undefined && u.improvementHints.length > 0 ? [[u.unit, u.improvementHints] as const] : [])))
        for (const { unit, entry } of list(input.entries)) {
            const included = entry.gradings.filter((g) => typeof g.score === 'number' || g.score === 'pass' || g.score === 'fail')
            const totalWeight = included.reduce((n, g) => n + g.weight, 0)
            if (totalWeight <= 0) continue
            const questions = new Map(questionsOf(entry.area).map((q) => [q.id, q.question]))
            for (const g of included) {
                const score = typeof g.score === 'number' ? g.score : g.score === 'pass' ? 5 : 1
                if (score >= LOW_SCORE) continue
                const pointer = unitPointer(unit)
                const hints = hintsByUnit.get(unit) ?? []
                const target = hints[0] !== undefined ? hintPointer(hints[0].targetField, pointer) : pointer
                const why = g.reasoning ?? (typeof g.evidence === 'string' ? g.evidence : 'no reasoning given')
                items.push({
                    schemaId,
                    file,
                    kind: 'answer',
                    code: g.questionId,
                    severity: score <= 2 ? 'warning' : 'info',
                    message: `${questions.get(g.questionId) ?? g.questionId} — ${g.score}: ${why}`,
                    pointer: target,
                    ...at(input.locate, target),
                    // The points this answer takes off the unit's mean (5 is the top of the scale).
                    cost: Math.round(((5 - score) * g.weight * 1000) / totalWeight) / 1000,
                    unit,
                    area: entry.area,
                    ...(unit.startsWith('single-test/') ? { tool: unit.slice('single-test/'.length) } : {}),
                    score: g.score,
                    ...(hints.length > 0 ? { hints } : {})
                })
            }
        }
        const rank = { error: 0, warning: 1, info: 2 } as const
        return { items: items.sort((a, b) => b.cost - a.cost || rank[a.severity] - rank[b.severity] || (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)), errors: [] }
    }
}

/**
 * Pairs a run's entries with their units: the run writes one entry per unit it graded (not kept)
 * or vetoed, in unit order, so the two lists zip.
 */
export function fixEntriesOf(units: readonly UnitResult[], entries: readonly GradingEntry[]): Array<{ unit: string; entry: GradingEntry }> {
    const written = list(units).filter((u) => u.kept !== true && (u.status === 'graded' || u.status === 'rejected'))
    return written.length === entries.length ? written.map((u, i) => ({ unit: u.unit, entry: entries[i] as GradingEntry })) : entries.map((entry) => ({ unit: entry.area, entry }))
}

/** One line per item, as the CLI prints them: `file:line:col CODE message`. */
export function fixLine(item: FixItem): string {
    const where = item.file === null ? item.schemaId : `${item.file}${item.line !== null ? `:${item.line}${item.column !== null ? `:${item.column}` : ''}` : ''}`
    const hint = item.hints?.[0] !== undefined ? ` (hint: ${item.hints[0].suggestion})` : ''
    return `${where} ${item.code} ${item.message}${hint}`
}
