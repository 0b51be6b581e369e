import { fromFileTimestamp, isIsoDateTime, toFileTimestamp } from '../time.js'
import { FILE_TIMESTAMP_REGEX } from '../model/constants.js'

/** An injected `now` (ISO 8601 or the file form) as a file-name timestamp, or `null`. */
export function stampOf(now: unknown): string | null {
    if (typeof now === 'string' && FILE_TIMESTAMP_REGEX.test(now)) return fromFileTimestamp(now) === null ? null : now
    return isIsoDateTime(now) ? toFileTimestamp(now) : null
}

/** `stamp` plus `seconds`, in the file form. */
export function addSeconds(stamp: string, seconds: number): string {
    const iso = fromFileTimestamp(stamp) as string
    return toFileTimestamp(new Date(Date.parse(iso) + seconds * 1000).toISOString()) as string
}

/**
 * The timestamp for a new file in a folder whose existing files of the same logical name carry
 * `existing` timestamps: `wanted`, or one second after the newest existing one when `wanted` is not
 * later. Keeps every folder monotonic, so the file just written is always the newest (01-model ⚠ A13,
 * 03 ⚠ C8) and nothing is ever overwritten.
 */
export function monotonicStamp(wanted: string, existing: readonly string[]): string {
    let newest: string | null = null
    for (const ts of existing) if (newest === null || ts > newest) newest = ts
    return newest !== null && wanted <= newest ? addSeconds(newest, 1) : wanted
}
