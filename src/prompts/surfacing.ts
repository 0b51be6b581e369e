import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { SEVERITY, AREAS, NODE_STATUSES, type Area, type NodeStatus } from '../model/constants.js'
import { isArea } from '../areas/catalogue.js'

/** ✓ (U+2713) marks a passed check, ✗ (U+2717) a failed one (04 §6, ⚠ D7). */
export const MARK_OK = '\u2713'
export const MARK_FAIL = '\u2717'
/** Longest line the parser looks at; anything longer is rejected unread. */
export const MAX_SURFACING_LINE_LENGTH = 4096
/** Longest transcript {@link auditTranscript} reads. */
export const MAX_TRANSCRIPT_LENGTH = 8_000_000

/** One parsed `[GRADING]` line. */
export type SurfacingEvent =
    | { readonly kind: 'area'; readonly area: Area; readonly target: string; readonly schemaValid: boolean; readonly status: NodeStatus; readonly written: boolean }
    | { readonly kind: 'progress'; readonly done: number; readonly total: number }
    | { readonly kind: 'done' }

const AREA_LINE = /^\[GRADING\] area=([a-zA-Z0-9-]+)\/(\S+) schema-valid=(\u2713|\u2717|ok|fail) status=([a-z]+) written=(\u2713|\u2717|ok|fail)$/
const PROGRESS_LINE = /^\[GRADING\] PROGRESS (0|[1-9]\d{0,8})\/(0|[1-9]\d{0,8})$/
const DONE_LINE = /^\[GRADING\] DONE$/

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0

/** Formats one surfacing line; `marker: 'ascii'` writes `ok`/`fail` instead of ✓/✗ for ASCII-only terminals. */
export function formatSurfacingLine(input: Record<string, unknown>): { line: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const ascii = input.marker === 'ascii'
    if (input.marker !== undefined && input.marker !== 'ascii' && input.marker !== 'unicode') {
        errors.push(createIssue('PB-002', '/marker', { field: 'marker', expected: "'unicode' | 'ascii'", actual: describeValue(input.marker) }))
    }
    const mark = (ok: boolean): string => (ok ? (ascii ? 'ok' : MARK_OK) : ascii ? 'fail' : MARK_FAIL)
    switch (input.kind) {
        case 'area': {
            const { area, target, schemaValid, status, written } = input
            if (!isArea(area)) errors.push(createIssue('PB-004', '/area', { value: describeValue(area), expected: AREAS.join(', ') }))
            if (typeof target !== 'string') errors.push(createIssue(target === undefined ? 'PB-001' : 'PB-002', '/target', { field: 'target', expected: 'string', actual: typeOfValue(target) }))
            else if (!/^\S+$/.test(target)) errors.push(createIssue('PB-003', '/target', { field: 'target (no whitespace)' }))
            for (const [key, value] of [['schemaValid', schemaValid], ['written', written]] as const) {
                if (typeof value !== 'boolean') errors.push(createIssue(value === undefined ? 'PB-001' : 'PB-002', `/${key}`, { field: key, expected: 'boolean', actual: typeOfValue(value) }))
            }
            if (!(NODE_STATUSES as readonly unknown[]).includes(status)) errors.push(createIssue('PB-012', '/status', { value: describeValue(status) }))
            if (errors.length > 0) return { line: null, errors }
            return { line: `[GRADING] area=${area as string}/${target as string} schema-valid=${mark(schemaValid as boolean)} status=${status as string} written=${mark(written as boolean)}`, errors }
        }
        case 'progress': {
            const { done, total } = input
            for (const [key, value] of [['done', done], ['total', total]] as const) {
                if (!isCount(value)) errors.push(createIssue(value === undefined ? 'PB-001' : 'PB-002', `/${key}`, { field: key, expected: 'non-negative integer', actual: describeValue(value) }))
            }
            if (errors.length === 0 && (done as number) > (total as number)) errors.push(createIssue('PB-013', '/done', { done: done as number, total: total as number, detail: 'done exceeds total' }))
            if (errors.length > 0) return { line: null, errors }
            return { line: `[GRADING] PROGRESS ${done as number}/${total as number}`, errors }
        }
        case 'done':
            return errors.length > 0 ? { line: null, errors } : { line: '[GRADING] DONE', errors }
        default:
            return { line: null, errors: [createIssue(input.kind === undefined ? 'PB-001' : 'PB-002', '/kind', { field: 'kind', expected: "'area' | 'progress' | 'done'", actual: describeValue(input.kind) })] }
    }
}

/** Parses one line against the exact grammar; anything else is rejected with a code. A trailing CR is tolerated. */
export function parseSurfacingLine(line: unknown, path = '/line'): { event: SurfacingEvent | null; errors: Issue[] } {
    if (typeof line !== 'string') return { event: null, errors: [createIssue(line === undefined ? 'PB-001' : 'PB-002', path, { field: 'line', expected: 'string', actual: typeOfValue(line) })] }
    if (line.length > MAX_SURFACING_LINE_LENGTH) return { event: null, errors: [createIssue('PB-010', path, { detail: `line of ${line.length} characters` })] }
    const text = line.endsWith('\r') ? line.slice(0, -1) : line
    if (DONE_LINE.test(text)) return { event: { kind: 'done' }, errors: [] }
    const progress = PROGRESS_LINE.exec(text)
    if (progress !== null) {
        const done = Number(progress[1])
        const total = Number(progress[2])
        if (done > total) return { event: null, errors: [createIssue('PB-013', path, { done, total, detail: 'done exceeds total' })] }
        return { event: { kind: 'progress', done, total }, errors: [] }
    }
    const area = AREA_LINE.exec(text)
    if (area !== null) {
        const [, id, target, valid, status, written] = area as unknown as [string, string, string, string, string, string]
        if (!isArea(id)) return { event: null, errors: [createIssue('PB-011', path, { value: id })] }
        if (!(NODE_STATUSES as readonly string[]).includes(status)) return { event: null, errors: [createIssue('PB-012', path, { value: status })] }
        const ok = (m: string): boolean => m === MARK_OK || m === 'ok'
        return { event: { kind: 'area', area: id, target, schemaValid: ok(valid), status: status as NodeStatus, written: ok(written) }, errors: [] }
    }
    const detail = text.startsWith('[GRADING]') ? `does not follow the grammar: ${describeValue(text)}` : `missing the [GRADING] prefix: ${describeValue(text)}`
    return { event: null, errors: [createIssue('PB-010', path, { detail })] }
}

/** Result of {@link auditTranscript}. */
export interface TranscriptAudit {
    /** Every valid `[GRADING]` event with its 0-based line index. */
    readonly events: Array<{ readonly line: number; readonly event: SurfacingEvent }>
    /** The last PROGRESS seen, or null. */
    readonly progress: { readonly done: number; readonly total: number } | null
    /** True when DONE appeared exactly once, after a PROGRESS with done = total, and nothing is wrong. */
    readonly complete: boolean
    readonly errors: Issue[]
}

/**
 * Audits a transcript: every line starting with `[GRADING]` must parse; PROGRESS must follow each
 * area line, keep its total and never go back; DONE must come once, last, and only when done = total
 * (04 ⚠ D7). Other lines are ignored. Issue paths are `/lines/<index>`.
 */
export function auditTranscript(text: unknown, expectedTotal: unknown): TranscriptAudit {
    const none = (errors: Issue[]): TranscriptAudit => ({ events: [], progress: null, complete: false, errors })
    if (typeof text !== 'string') return none([createIssue(text === undefined ? 'PB-001' : 'PB-002', '/text', { field: 'text', expected: 'string', actual: typeOfValue(text) })])
    if (text.length > MAX_TRANSCRIPT_LENGTH) return none([createIssue('INP-003', '/text', { detail: `transcript of ${text.length} characters`, limit: MAX_TRANSCRIPT_LENGTH })])
    if (expectedTotal !== undefined && !isCount(expectedTotal)) return none([createIssue('PB-002', '/expectedTotal', { field: 'expectedTotal', expected: 'non-negative integer', actual: describeValue(expectedTotal) })])
    const errors: Issue[] = []
    const events: Array<{ line: number; event: SurfacingEvent }> = []
    let progress: { done: number; total: number } | null = null
    let pendingArea: { line: number; label: string } | null = null
    let doneAt: number | null = null
    const lines = text.split('\n')
    lines.forEach((raw, index) => {
        if (!raw.startsWith('[GRADING]')) return
        const path = `/lines/${index}`
        const { event, errors: lineErrors } = parseSurfacingLine(raw, path)
        if (event === null) {
            errors.push(...lineErrors)
            return
        }
        if (doneAt !== null) errors.push(createIssue('PB-014', path, { detail: event.kind === 'done' ? 'printed more than once' : `followed by more [GRADING] lines (DONE at line ${doneAt})` }))
        events.push({ line: index, event })
        if (event.kind === 'area') {
            if (pendingArea !== null) errors.push(createIssue('PB-WARN-003', `/lines/${pendingArea.line}`, { value: pendingArea.label }))
            pendingArea = { line: index, label: `${event.area}/${event.target}` }
        } else if (event.kind === 'progress') {
            pendingArea = null
            if (progress !== null && event.total !== progress.total) errors.push(createIssue('PB-013', path, { done: event.done, total: event.total, detail: `total changed from ${progress.total}` }))
            else if (progress !== null && event.done < progress.done) errors.push(createIssue('PB-013', path, { done: event.done, total: event.total, detail: `went back from ${progress.done}` }))
            if (expectedTotal !== undefined && event.total !== expectedTotal) errors.push(createIssue('PB-013', path, { done: event.done, total: event.total, detail: `expected total ${expectedTotal as number}` }))
            progress = { done: event.done, total: event.total }
        } else {
            if (pendingArea !== null) {
                errors.push(createIssue('PB-WARN-003', `/lines/${pendingArea.line}`, { value: pendingArea.label }))
                pendingArea = null
            }
            if (doneAt === null) {
                const p = progress as { done: number; total: number } | null
                if (p === null || p.done !== p.total) errors.push(createIssue('PB-014', path, { detail: p === null ? 'without any PROGRESS line' : `before all areas are done (${p.done}/${p.total})` }))
                doneAt = index
            }
        }
    })
    if (pendingArea !== null) errors.push(createIssue('PB-WARN-003', `/lines/${(pendingArea as { line: number }).line}`, { value: (pendingArea as { label: string }).label }))
    const complete = doneAt !== null && !errors.some((e) => e.severity === SEVERITY.error)
    return { events, progress, complete, errors }
}
