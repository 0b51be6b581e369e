import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { SEVERITY, AREAS, NODE_STATUSES, type Area, type NodeStatus } from '../model/constants.js'
import { isArea } from '../areas/catalogue.js'
import { rx } from '../model/regex.js'
import { type ArgCodes, parseArgs, pointerKeys, says } from '../validation/args.js'

/** ✓ (U+2713) marks a passed check, ✗ (U+2717) a failed one (04 §6, ⚠ D7). */
export const MARK_OK = '\u2713'
export const MARK_FAIL = '\u2717'
/** Longest line the parser looks at; anything longer is rejected unread. */
export const MAX_SURFACING_LINE_LENGTH = 4096
/** Longest transcript {@link auditTranscript} reads. */
export const MAX_TRANSCRIPT_LENGTH = 8_000_000

/** One parsed `[GRADING]` line. */
export type SurfacingEvent =
    | {
          readonly kind: 'area'
          readonly area: Area
          readonly target: string
          readonly schemaValid: boolean
          readonly status: NodeStatus
          readonly written: boolean
      }
    | { readonly kind: 'progress'; readonly done: number; readonly total: number }
    | { readonly kind: 'done' }

const AREA_LINE = rx(
    ''
)`^\[GRADING\] area=([a-zA-Z0-9-]+)\/(\S+) schema-valid=(\u2713|\u2717|ok|fail) status=([a-z]+) written=(
        \u2713|\u2717|ok|fail)$`
const PROGRESS_LINE = /^\[GRADING\] PROGRESS (0|[1-9]\d{0,8})\/(0|[1-9]\d{0,8})$/
const DONE_LINE = /^\[GRADING\] DONE$/

type Obj = Record<string, unknown>
type FormattedLine = { line: string | null; errors: Issue[] }
type Progress = { done: number; total: number }

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0

// Absent: PB-001; wrong type or value: PB-002. The line grammar's own findings (PB-003, PB-004, PB-010…) stay plain.
const ARGS: ArgCodes<'PB-001' | 'PB-002'> = { missing: 'PB-001', mismatch: 'PB-002', create: createIssue }
const STYLE = { actual: 'type' } as const
const MARKER = v.object({
    marker: v.optional(
        v.picklist(['unicode', 'ascii'] as const, says({ expected: "'unicode' | 'ascii'", actual: 'value' }))
    )
})
const KIND = v.object({
    kind: v.picklist(
        ['area', 'progress', 'done'] as const,
        says({ expected: "'area' | 'progress' | 'done'", actual: 'value' })
    )
})
const TARGET = v.object({ target: v.string(says('string')) })
const FLAGS = v.object({ schemaValid: v.boolean(says('boolean')), written: v.boolean(says('boolean')) })
const COUNT = v.custom<number>(isCount, says({ expected: 'non-negative integer', actual: 'value' }))
const COUNTS = v.object({ done: COUNT, total: COUNT })
const LINE = v.string(says({ expected: 'string', field: 'line' }))
const TEXT = v.object({ text: v.string(says('string')) })
const EXPECTED_TOTAL = v.object({ expectedTotal: v.optional(COUNT) })

/** Formats one surfacing line; `marker: 'ascii'` writes `ok`/`fail` instead of ✓/✗ for ASCII-only terminals. */
export function formatSurfacingLine(input: Record<string, unknown>): { line: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const ascii = input.marker === 'ascii'
    errors.push(...parseArgs(MARKER, { marker: input.marker }, ARGS, STYLE).errors)
    const mark = (ok: boolean): string => (ok ? (ascii ? 'ok' : MARK_OK) : ascii ? 'fail' : MARK_FAIL)
    switch (input.kind) {
        case 'area':
            return formatAreaLine(input, mark, errors)
        case 'progress':
            return formatProgressLine(input, errors)
        case 'done':
            return errors.length > 0 ? { line: null, errors } : { line: '[GRADING] DONE', errors }
        default:
            // An unknown kind is the one finding: the marker's, if any, is not reported with it.
            return { line: null, errors: parseArgs(KIND, { kind: input.kind }, ARGS, STYLE).errors }
    }
}

/** `errors` already holds the marker's issue, if any; every field is checked before giving up. */
function formatAreaLine(input: Obj, mark: (ok: boolean) => string, errors: Issue[]): FormattedLine {
    const { area, target, schemaValid, status, written } = input
    if (!isArea(area)) {
        errors.push(createIssue('PB-004', '/area', { value: describeValue(area), expected: AREAS.join(', ') }))
    }
    const given = parseArgs(TARGET, { target }, ARGS, STYLE)
    errors.push(...given.errors)
    if (given.value !== null && !/^\S+$/.test(given.value.target)) {
        errors.push(createIssue('PB-003', '/target', { field: 'target (no whitespace)' }))
    }
    errors.push(...parseArgs(FLAGS, { schemaValid, written }, ARGS, STYLE).errors)
    if (!(NODE_STATUSES as readonly unknown[]).includes(status)) {
        errors.push(createIssue('PB-012', '/status', { value: describeValue(status) }))
    }
    if (errors.length > 0) return { line: null, errors }
    const valid = mark(schemaValid as boolean)
    const line = `[GRADING] area=${area as string}/${target as string} schema-valid=${valid} status=${status as string}`
    return { line: `${line} written=${mark(written as boolean)}`, errors }
}

function formatProgressLine(input: Obj, errors: Issue[]): FormattedLine {
    const { done, total } = input
    errors.push(...parseArgs(COUNTS, { done, total }, ARGS, STYLE).errors)
    if (errors.length === 0 && (done as number) > (total as number)) {
        const counts = { done: done as number, total: total as number }
        errors.push(createIssue('PB-013', '/done', { ...counts, detail: 'done exceeds total' }))
    }
    if (errors.length > 0) return { line: null, errors }
    return { line: `[GRADING] PROGRESS ${done as number}/${total as number}`, errors }
}

/** Parses one line against the exact grammar; anything else is rejected with a code. A trailing CR is tolerated. */
export function parseSurfacingLine(value: unknown, path = '/line'): { event: SurfacingEvent | null; errors: Issue[] } {
    const given = parseArgs(LINE, value, ARGS, { ...STYLE, at: pointerKeys(path) })
    if (given.value === null) return { event: null, errors: given.errors }
    const line = given.value
    if (line.length > MAX_SURFACING_LINE_LENGTH)
        return { event: null, errors: [createIssue('PB-010', path, { detail: `line of ${line.length} characters` })] }
    const text = line.endsWith('\r') ? line.slice(0, -1) : line
    if (DONE_LINE.test(text)) return { event: { kind: 'done' }, errors: [] }
    const progress = PROGRESS_LINE.exec(text)
    if (progress !== null) {
        const done = Number(progress[1])
        const total = Number(progress[2])
        if (done > total)
            return { event: null, errors: [createIssue('PB-013', path, { done, total, detail: 'done exceeds total' })] }
        return { event: { kind: 'progress', done, total }, errors: [] }
    }
    const area = AREA_LINE.exec(text)
    if (area !== null) {
        const [, id, target, valid, status, written] = area as unknown as [
            string,
            string,
            string,
            string,
            string,
            string
        ]
        if (!isArea(id)) return { event: null, errors: [createIssue('PB-011', path, { value: id })] }
        if (!(NODE_STATUSES as readonly string[]).includes(status))
            return { event: null, errors: [createIssue('PB-012', path, { value: status })] }
        const ok = (m: string): boolean => m === MARK_OK || m === 'ok'
        return {
            event: {
                kind: 'area',
                area: id,
                target,
                schemaValid: ok(valid),
                status: status as NodeStatus,
                written: ok(written)
            },
            errors: []
        }
    }
    const detail = text.startsWith('[GRADING]')
        ? `does not follow the grammar: ${describeValue(text)}`
        : `missing the [GRADING] prefix: ${describeValue(text)}`
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
export function auditTranscript(value: unknown, expectedTotal: unknown): TranscriptAudit {
    const none = (errors: Issue[]): TranscriptAudit => ({ events: [], progress: null, complete: false, errors })
    const given = parseArgs(TEXT, { text: value }, ARGS, STYLE)
    if (given.value === null) return none(given.errors)
    const text = given.value.text
    if (text.length > MAX_TRANSCRIPT_LENGTH) {
        const detail = `transcript of ${text.length} characters`
        return none([createIssue('INP-003', '/text', { detail, limit: MAX_TRANSCRIPT_LENGTH })])
    }
    const total = parseArgs(EXPECTED_TOTAL, { expectedTotal }, ARGS, STYLE)
    if (total.value === null) return none(total.errors)
    const expected = total.value.expectedTotal
    const audit: AuditState = { errors: [], events: [], progress: null, pendingArea: null, doneAt: null }
    text.split('\n').forEach((raw, index) => {
        if (raw.startsWith('[GRADING]')) auditLine(audit, raw, index, expected)
    })
    flushPendingArea(audit)
    const { events, progress, errors, doneAt } = audit
    const complete = doneAt !== null && !errors.some((e) => e.severity === SEVERITY.error)
    return { events, progress, complete, errors }
}

/** What the audit has seen so far; an area line stays pending until a PROGRESS line follows it. */
interface AuditState {
    readonly errors: Issue[]
    readonly events: Array<{ line: number; event: SurfacingEvent }>
    progress: Progress | null
    pendingArea: { line: number; label: string } | null
    doneAt: number | null
}

function auditLine(audit: AuditState, raw: string, index: number, expectedTotal: number | undefined): void {
    const path = `/lines/${index}`
    const { event, errors: lineErrors } = parseSurfacingLine(raw, path)
    if (event === null) {
        audit.errors.push(...lineErrors)
        return
    }
    if (audit.doneAt !== null) {
        const more = `followed by more [GRADING] lines (DONE at line ${audit.doneAt})`
        audit.errors.push(
            createIssue('PB-014', path, { detail: event.kind === 'done' ? 'printed more than once' : more })
        )
    }
    audit.events.push({ line: index, event })
    if (event.kind === 'area') {
        flushPendingArea(audit)
        audit.pendingArea = { line: index, label: `${event.area}/${event.target}` }
    } else if (event.kind === 'progress') auditProgress(audit, event, path, expectedTotal)
    else auditDone(audit, index, path)
}

/** An area line with no PROGRESS after it is only a warning. */
function flushPendingArea(audit: AuditState): void {
    if (audit.pendingArea === null) return
    const { line, label } = audit.pendingArea
    audit.errors.push(createIssue('PB-WARN-003', `/lines/${line}`, { value: label }))
    audit.pendingArea = null
}

function auditProgress(audit: AuditState, event: Progress, path: string, expectedTotal: number | undefined): void {
    const { done, total } = event
    const { progress, errors } = audit
    audit.pendingArea = null
    if (progress !== null && total !== progress.total) {
        errors.push(createIssue('PB-013', path, { done, total, detail: `total changed from ${progress.total}` }))
    } else if (progress !== null && done < progress.done) {
        errors.push(createIssue('PB-013', path, { done, total, detail: `went back from ${progress.done}` }))
    }
    if (expectedTotal !== undefined && total !== expectedTotal) {
        errors.push(createIssue('PB-013', path, { done, total, detail: `expected total ${expectedTotal}` }))
    }
    audit.progress = { done, total }
}

/** Only the first DONE counts; it needs a PROGRESS line with done = total before it. */
function auditDone(audit: AuditState, index: number, path: string): void {
    flushPendingArea(audit)
    if (audit.doneAt !== null) return
    const p = audit.progress
    if (p === null || p.done !== p.total) {
        const detail = p === null ? 'without any PROGRESS line' : `before all areas are done (${p.done}/${p.total})`
        audit.errors.push(createIssue('PB-014', path, { detail }))
    }
    audit.doneAt = index
}
