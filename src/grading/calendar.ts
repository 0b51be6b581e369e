/** Why a date-time string with the right shape is still not a moment in time (for a readable message). */

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(.*)$/
const MONTHS = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December'
]

function daysIn(year: number, month: number): number {
    return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/**
 * For a string shaped like `YYYY-MM-DDTHH:MM:SS…` whose fields are out of range, says which field
 * and why (`February 2026 has 28 days, not 30`); `null` when the shape does not match or every
 * field is in range (then the problem is the format itself, e.g. a missing time zone).
 */
export function calendarProblem(value: string): string | null {
    const m = SHAPE.exec(value)
    if (m === null) return null
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
        number,
        number,
        number,
        number,
        number,
        number
    ]
    if (month < 1 || month > 12) return `there is no month ${month}`
    const days = daysIn(year, month)
    if (day < 1 || day > days) return `${MONTHS[month - 1] ?? ''} ${year} has ${days} days, not ${day}`
    if (hour > 23) return `there is no hour ${hour}`
    if (minute > 59) return `there is no minute ${minute}`
    if (second > 60) return `there is no second ${second}`
    return null
}
