import type { Clock } from './types.js'

/**
 * A clock that always answers the same time: for tests, replays and reproducible builds.
 * @param iso - an ISO-8601 date-time; it is returned unchanged (callers validate `now`).
 * @returns a {@link Clock}
 * @example fixedClock('2026-05-31T12:00:00Z').now() // '2026-05-31T12:00:00Z'
 */
export function fixedClock(iso: string): Clock {
    return { now: () => iso }
}
