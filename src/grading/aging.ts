/** Aging windows in days (chapter 08 `#AGING_DEFAULTS`); named constants, never inline literals. */
export interface AgingDefaults {
    /** `apiAvailability`: live API answers age after this many days. */
    readonly API_DAYS: number
    /** `tosMatch` and `legalAssessment`. */
    readonly TOS_DAYS: number
    /** Whole entry, before it is archived (excluded from aggregation, never deleted; ⚠ A24). */
    readonly RETENTION_DAYS: number
}

export const AGING_DEFAULTS: AgingDefaults = Object.freeze({ API_DAYS: 14, TOS_DAYS: 30, RETENTION_DAYS: 180 })

/**
 * Time-dependent questions and the window that applies to each (01-model §9, §11). Every other
 * question is time-independent and never ages. Changing this table is a gradingSystem bump.
 */
export const TIME_DEPENDENT_QUESTIONS: Readonly<Record<string, 'API_DAYS' | 'TOS_DAYS'>> = Object.freeze({
    'Q-api-availability': 'API_DAYS',
    'Q-tos-match': 'TOS_DAYS',
    'Q-legal-assessment': 'TOS_DAYS'
})

const DAY_MS = 86_400_000

/** Age in days between two ISO date-times, or `null` when either does not parse. */
export function ageInDays(timestamp: string, now: string): number | null {
    const then = Date.parse(timestamp)
    const at = Date.parse(now)
    if (Number.isNaN(then) || Number.isNaN(at)) {
        return null
    }
    return (at - then) / DAY_MS
}

/** Exceeded means strictly greater than the window (01-model ⚠ A21). */
export function isExpired(ageDays: number, windowDays: number): boolean {
    return ageDays > windowDays
}
