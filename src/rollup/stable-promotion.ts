import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import { nullAsMissing, parseArgs, says } from '../validation/args.js'
import type { Issue } from '../errors/types.js'
import { NODE_STATUS, GRADE_RANK, LETTER_GRADES, type LetterGrade, type NodeStatus } from '../model/constants.js'
import { guardStatics } from '../errors/guard.js'

// The threshold lives with the grade order and the bands.
export { STABLE_THRESHOLD } from '../model/grades.js'

/** Why a node is or is not promoted. */
export type PromotionReason =
    | 'ok'
    | 'no-gradings'
    | 'no-full-grading'
    | 'rejected'
    | 'below-threshold'
    | 'invalid-input'

/** Result of {@link StablePromotion.checkEligibility}. */
export interface PromotionResult {
    readonly eligible: boolean
    readonly reason: PromotionReason
    /** The node status the reason implies; `null` for invalid input. */
    readonly nodeStatus: NodeStatus | null
    /** The grade of the deciding (newest full) entry, when there is one. */
    readonly grade: string | null
    readonly errors: Issue[]
}

/** Status implied by the aggregate grade of the newest full entry. */
export function promotionStatus(grade: unknown, threshold: LetterGrade): 'stable' | 'graded' | 'rejected' | null {
    if (grade === 'REJECTED') return NODE_STATUS.rejected
    if (typeof grade !== 'string' || !(grade in GRADE_RANK)) return null
    return GRADE_RANK[grade as LetterGrade] >= GRADE_RANK[threshold] ? NODE_STATUS.stable : NODE_STATUS.graded
}

/**
 * Stable promotion: a node becomes `stable` only through a `full` grading at or above the threshold.
 * Partial entries never promote and never demote: the newest **full** entry decides (chapter 06,
 * "a partial grading keeps the last full status"), where the reference looked at the last entry.
 */
/** The codes of the argument checks: STB-001 missing (`null` too), STB-002 wrong type. */
const ENTRY_ARGS = { missing: 'STB-001', mismatch: 'STB-002', create: createIssue } as const
const ENTRIES = v.looseObject({ entries: nullAsMissing(v.array(v.unknown(), says('array'))) })

class StablePromotionUnguarded {
    private constructor() {}

    /**
     * Decides promotion from a node's entries, oldest first.
     * @param input - `{ entries, threshold }`: entries are objects with `gradingMode` and `aggregateGrade`
     * @returns `{ eligible, reason, nodeStatus, grade, errors }`; STB-001/STB-002 bad arguments, STB-003 unknown
     *   threshold, STB-WARN-001 no full entry, STB-WARN-002 below the threshold
     * @example
     * StablePromotion.checkEligibility({ entries: [{ gradingMode: 'full', aggregateGrade: 'B' }], threshold: 'B' })
     *     .nodeStatus // 'stable'
     */
    static checkEligibility(input: { entries?: unknown; threshold?: unknown }): PromotionResult {
        const errors: Issue[] = []
        const entries = input?.entries
        const threshold = input?.threshold
        errors.push(...parseArgs(ENTRIES, { entries }, ENTRY_ARGS, { actual: 'type' }).errors)
        if (threshold === undefined || threshold === null)
            errors.push(createIssue('STB-001', '/threshold', { field: 'threshold' }))
        else if (!(LETTER_GRADES as readonly unknown[]).includes(threshold))
            errors.push(createIssue('STB-003', '/threshold', { value: describeValue(threshold) }))
        if (errors.length > 0)
            return { eligible: false, reason: 'invalid-input', nodeStatus: null, grade: null, errors }
        const list = entries as unknown[]
        if (list.length === 0)
            return { eligible: false, reason: 'no-gradings', nodeStatus: NODE_STATUS.pending, grade: null, errors }
        let newestFull: Record<string, unknown> | null = null
        for (let i = list.length - 1; i >= 0; i -= 1) {
            const e = list[i]
            if (e !== null && typeof e === 'object' && (e as Record<string, unknown>).gradingMode === 'full') {
                newestFull = e as Record<string, unknown>
                break
            }
        }
        if (newestFull === null) {
            return {
                eligible: false,
                reason: 'no-full-grading',
                nodeStatus: NODE_STATUS.pending,
                grade: null,
                errors: [createIssue('STB-WARN-001', '/entries')]
            }
        }
        const grade = newestFull.aggregateGrade
        const status = promotionStatus(grade, threshold as LetterGrade)
        if (status === NODE_STATUS.stable)
            return { eligible: true, reason: 'ok', nodeStatus: NODE_STATUS.stable, grade: grade as string, errors }
        if (status === NODE_STATUS.rejected)
            return { eligible: false, reason: 'rejected', nodeStatus: NODE_STATUS.rejected, grade: 'REJECTED', errors }
        return {
            eligible: false,
            reason: 'below-threshold',
            nodeStatus: status === NODE_STATUS.graded ? NODE_STATUS.graded : NODE_STATUS.pending,
            grade: typeof grade === 'string' ? grade : null,
            errors: [
                createIssue('STB-WARN-002', '/entries', { grade: describeValue(grade), threshold: threshold as string })
            ]
        }
    }
}

/**
 * The public StablePromotion: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const StablePromotion = /* @__PURE__ */ guardStatics(StablePromotionUnguarded, 'StablePromotion')
