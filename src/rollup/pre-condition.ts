import { NODE_STATUS } from '../model/constants.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'

/** A member that keeps the gate closed. */
export interface BlockedMember {
    readonly schemaId: string
    readonly gradingStatus: string | null
    /** True when the member was never graded (status missing or `pending`). */
    readonly missingGrading: boolean
}

/** Result of {@link PreConditionCheck.check}. */
export interface PreConditionResult {
    readonly passed: boolean
    readonly blockedMembers: BlockedMember[]
    /** schemaIds of every member that is not `stable` (graded, blocked and rejected included). */
    readonly missingSingleGradings: string[]
    readonly errors: Issue[]
}

/**
 * The selection pre-condition gate (chapter 21): selection areas run only when every member was
 * `stable` **at freeze time**. It reads only the frozen `lockSnapshot`, never the live rollup, so a
 * grading run sees one consistent member set even while members are re-graded.
 */
class PreConditionCheckUnguarded {
    private constructor() {}

    /**
     * Checks "all members stable" against `index.lockSnapshot` (selection, or namespace per 03 ⚠ C17).
     * @param input - `{ index }`: a parsed `index.json`
     * @returns `{ passed, blockedMembers, missingSingleGradings, errors }`; PRE-001 no index, PRE-002 no
     *   lockSnapshot, PRE-003 malformed lockSnapshot, PRE-004 members not stable, PRE-WARN-001 empty member list
     * @example PreConditionCheck.check({ index }).passed
     */
    static check(input: { index?: unknown }): PreConditionResult {
        const fail = (errors: Issue[]): PreConditionResult => ({
            passed: false,
            blockedMembers: [],
            missingSingleGradings: [],
            errors
        })
        const index = input?.index
        if (index === undefined || index === null) return fail([createIssue('PRE-001', '/index', { field: 'index' })])
        if (!isObject(index))
            return fail([
                createIssue('PRE-003', '/index', { detail: `index must be an object, got ${typeOfValue(index)}` })
            ])
        const lock = index.lockSnapshot
        if (lock === undefined || lock === null)
            return fail([
                createIssue('PRE-002', '/index/lockSnapshot', {
                    detail: 'index.json has no lockSnapshot (no grading run was started)'
                })
            ])
        if (!isObject(lock)) return fail([createIssue('PRE-003', '/index/lockSnapshot', { detail: 'expected object' })])
        const members = lock.members
        if (!Array.isArray(members))
            return fail([createIssue('PRE-003', '/index/lockSnapshot/members', { detail: 'members[] missing' })])
        if (members.length === 0)
            return {
                passed: true,
                blockedMembers: [],
                missingSingleGradings: [],
                errors: [createIssue('PRE-WARN-001', '/index/lockSnapshot/members')]
            }
        const errors: Issue[] = []
        const blockedMembers: BlockedMember[] = []
        members.forEach((m: unknown, i) => {
            if (!isObject(m) || typeof m.schemaId !== 'string') {
                errors.push(
                    createIssue('PRE-003', pointer('index', 'lockSnapshot', 'members', i), {
                        detail: 'a member needs a string schemaId'
                    })
                )
                return
            }
            if (m.gradingStatus === NODE_STATUS.stable) return
            const status = typeof m.gradingStatus === 'string' ? m.gradingStatus : null
            blockedMembers.push({
                schemaId: m.schemaId,
                gradingStatus: status,
                missingGrading: status === null || status === NODE_STATUS.pending
            })
        })
        if (errors.length > 0) return fail(errors)
        const missing = blockedMembers.map((b) => b.schemaId)
        if (missing.length > 0) {
            errors.push(
                createIssue('PRE-004', '/index/lockSnapshot/members', { list: describeValue(missing.join(', ')) })
            )
        }
        return { passed: missing.length === 0, blockedMembers, missingSingleGradings: missing, errors }
    }
}

/**
 * The public PreConditionCheck: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const PreConditionCheck = /* @__PURE__ */ guardStatics(PreConditionCheckUnguarded, 'PreConditionCheck')
