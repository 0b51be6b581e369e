import { describeValue, typeOfValue } from '../errors/issue.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import type { Issue } from '../errors/types.js'
import { AREAS, FILE_TIMESTAMP_REGEX, type Area } from '../model/constants.js'
import { fromFileTimestamp, isIsoDateTime, toFileTimestamp } from '../time.js'
import { rx } from '../model/regex.js'

/**
 * A persona or lens segment of a file name. Stricter than the reference (`^[a-z][a-z0-9-]*$`):
 * `--` is the field separator, so a segment may not contain it, which keeps parsing unambiguous.
 */
export const NAME_SEGMENT_REGEX = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/** The parts of a grading file name `<area>[--<basePersona>--<lens>]--<timestamp>.json`. */
export interface GradingFilenameParts {
    readonly area: Area
    readonly basePersona: string | null
    readonly lens: string | null
    /** `YYYY-MM-DDTHH-MM-SSZ` */
    readonly timestamp: string
}

/** Builds a grading file name; `timestamp` may be the file form or an ISO date-time (converted to UTC seconds). */
export function formatGradingFilename(input: {
    area?: unknown
    basePersona?: unknown
    lens?: unknown
    timestamp?: unknown
}): { filename: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const { area, basePersona, lens, timestamp } = input ?? {}
    if (area === undefined) errors.push(createEntryIssue('GRD-001', '/area', { field: 'area' }))
    else if (typeof area !== 'string' || !(AREAS as readonly string[]).includes(area))
        errors.push(createEntryIssue('GRD-043', '/area', { value: describeValue(area) }))
    let stamp: string | null = null
    if (timestamp === undefined) errors.push(createEntryIssue('GRD-001', '/timestamp', { field: 'timestamp' }))
    else if (typeof timestamp === 'string' && FILE_TIMESTAMP_REGEX.test(timestamp)) stamp = timestamp
    else if (isIsoDateTime(timestamp)) stamp = toFileTimestamp(timestamp)
    else errors.push(createEntryIssue('GRD-041', '/timestamp', { value: describeValue(timestamp) }))
    const hasBase = basePersona !== undefined && basePersona !== null
    const hasLens = lens !== undefined && lens !== null
    if (hasBase !== hasLens) {
        errors.push(
            createEntryIssue('GRD-042', hasBase ? '/lens' : '/basePersona', { detail: 'only one of the two was given' })
        )
    } else if (hasBase) {
        for (const [key, value] of [
            ['basePersona', basePersona],
            ['lens', lens]
        ] as const) {
            if (typeof value !== 'string' || !NAME_SEGMENT_REGEX.test(value)) {
                errors.push(
                    createEntryIssue('GRD-042', `/${key}`, {
                        detail: `${key} ${typeof value === 'string' ? JSON.stringify(value) : typeOfValue(value)} is not a name segment`
                    })
                )
            }
        }
    }
    if (errors.length > 0 || stamp === null) {
        return { filename: null, errors }
    }
    const persona = hasBase ? `--${String(basePersona)}--${String(lens)}` : ''
    return { filename: `${String(area)}${persona}--${stamp}.json`, errors }
}

// Area ids are matched longest-first so `selection-skills-L1` never reads as a shorter id.
const AREA_ALTERNATION = [...AREAS].sort((a, b) => b.length - a.length).join('|')
// A persona or lens segment (NAME_SEGMENT_REGEX's grammar, captured whole).
const SLUG = '[a-z][a-z0-9]*(?:-[a-z0-9]+)*'
const GRADING_FILENAME_REGEX = rx(
    ''
)`^(${AREA_ALTERNATION})(?:--(${SLUG})--(${SLUG}))?--(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)\.json$`

/** Parses a grading file name, or returns `null` when it does not follow the grammar (temp files included). */
export function parseGradingFilename(name: unknown): GradingFilenameParts | null {
    if (typeof name !== 'string') {
        return null
    }
    const m = GRADING_FILENAME_REGEX.exec(name)
    if (m === null || fromFileTimestamp(m[4] as string) === null) {
        return null
    }
    return { area: m[1] as Area, basePersona: m[2] ?? null, lens: m[3] ?? null, timestamp: m[4] as string }
}
