/** RFC 3339 date-time with a mandatory zone, as the spec's `format: date-time` requires. */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/i

/** Days in a month (1-12), as Date.UTC counts them (years 0-99 read as 1900-1999), without building a Date. */
function daysInMonth(year: number, month: number): number {
    const y = year < 100 ? 1900 + year : year
    return month === 2 ? (y % 4 || (!(y % 100) && y % 400) ? 28 : 29) : 30 + ((month + (month >> 3)) & 1)
}

/**
 * True for an RFC 3339 date-time whose fields are all in range. `Date.parse` alone is not enough:
 * it rolls `2026-02-30` over to March instead of rejecting it.
 */
export function isIsoDateTime(value: unknown): value is string {
    if (typeof value !== 'string') {
        return false
    }
    const m = ISO_DATE_TIME.exec(value)
    if (m === null) {
        return false
    }
    const [year, month, day, hour, minute, second, offH, offM] = m
        .slice(1)
        .map((x) => (x === undefined ? 0 : Number(x))) as number[]
    return (
        (month as number) >= 1 &&
        (month as number) <= 12 &&
        (day as number) >= 1 &&
        (day as number) <= daysInMonth(year as number, month as number) &&
        (hour as number) <= 23 &&
        (minute as number) <= 59 &&
        (second as number) <= 60 &&
        (offH as number) <= 23 &&
        (offM as number) <= 59 &&
        !Number.isNaN(Date.parse(value))
    )
}

/** `2026-05-29T10:00:00.123Z` → `2026-05-29T10-00-00Z` (file-name grammar, seconds precision, UTC). */
export function toFileTimestamp(iso: string): string | null {
    const ms = Date.parse(iso)
    if (Number.isNaN(ms)) {
        return null
    }
    return new Date(ms)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z')
        .replace(/:/g, '-')
}

/** `2026-05-29T10-00-00Z` → `2026-05-29T10:00:00Z`; `null` when the grammar does not match. */
export function fromFileTimestamp(stamp: string): string | null {
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z$/.exec(stamp)
    if (m === null) {
        return null
    }
    const iso = `${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`
    return isIsoDateTime(iso) ? iso : null
}
