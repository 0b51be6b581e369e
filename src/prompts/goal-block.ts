import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import { parseArgs, says, type ArgCodes } from '../validation/args.js'
import type { Issue } from '../errors/types.js'
import { AREAS } from '../model/constants.js'
import { isArea } from '../areas/catalogue.js'

/** Default turn bound of the Goal-Block (06 §17). */
export const DEFAULT_MAX_TURNS = 25
/** Longest `/goal` condition the harness accepts, suffix included (04 §5). */
export const MAX_GOAL_CONDITION_LENGTH = 4000
/** Heading every Goal-Block starts with (the CLI's tests look for `Goal-Block`). */
export const GOAL_BLOCK_HEADING = '## Goal-Block (completion condition)'

/** Result of {@link buildGoalBlock}. */
export interface GoalBlock {
    readonly goalBlock: string | null
    /** The full condition, turn bound suffix included. */
    readonly condition: string | null
    readonly conditionLength: number
    readonly maxTurns: number | null
    readonly errors: Issue[]
}

/** The surfacing rules every area prompt carries (04 §6), in our words, with the exact line formats. */
export const SURFACING_RULES = [
    '### Surfacing convention (mandatory)',
    '',
    'The completion check reads only this conversation; it cannot open files or run tools. Print every result into the transcript:',
    '',
    '- after each area, exactly one line: `[GRADING] area=<area>/<target> schema-valid=✓ status=<status> written=✓`',
    '  (✗ instead of ✓ when the check failed; <status> is the node status: pending, blocked, graded, stable or rejected)',
    '- right after every area line: `[GRADING] PROGRESS <done>/<total>`',
    '- once, and only when every area is done: `[GRADING] DONE`'
].join('\n')

// PB-002 a condition of the wrong type; an unknown area (PB-004), a bad maxTurns (PB-008), a blank condition (PB-003)
// and an over-long goal (PB-007) are the goal block's own rules, with codes of their own.
const ARGS: ArgCodes<'PB-001' | 'PB-002'> = { missing: 'PB-001', mismatch: 'PB-002', create: createIssue }
const KEY_STYLE = { field: 'key', actual: 'type' } as const
const CONDITION = v.object({ condition: v.optional(v.string(says({ expected: 'string', actual: 'type' }))) })

/**
 * Builds the Goal-Block: the `/goal` completion condition with its turn bound, plus the surfacing
 * rules. The 4000-character limit applies to the full condition, suffix included (the reference
 * checked only the raw condition, 06 §21 item 20).
 */
export function buildGoalBlock(condition: unknown, area: unknown, maxTurns: unknown): GoalBlock {
    const errors: Issue[] = []
    if (area !== undefined && !isArea(area))
        errors.push(createIssue('PB-004', '/area', { value: describeValue(area), expected: AREAS.join(', ') }))
    let turns = DEFAULT_MAX_TURNS
    if (maxTurns !== undefined) {
        if (typeof maxTurns === 'number' && Number.isSafeInteger(maxTurns) && maxTurns > 0) turns = maxTurns
        else errors.push(createIssue('PB-008', '/maxTurns', { value: describeValue(maxTurns) }))
    }
    let raw: string
    const given = parseArgs(CONDITION, { condition }, ARGS, KEY_STYLE)
    errors.push(...given.errors)
    const text = given.value?.condition
    if (given.value === null) {
        raw = ''
    } else if (text === undefined) {
        raw = `Grade every in-scope area${typeof area === 'string' ? ` (${area})` : ''} until each one has a schema-valid grading file`
    } else if (text.trim() === '') {
        errors.push(createIssue('PB-003', '/condition', { field: 'condition' }))
        raw = ''
    } else {
        raw = text.trim()
    }
    const full = `${raw} — or stop after ${turns} turns.`
    if (errors.length === 0 && full.length > MAX_GOAL_CONDITION_LENGTH) {
        errors.push(createIssue('PB-007', '/condition', { length: full.length, limit: MAX_GOAL_CONDITION_LENGTH }))
    }
    if (errors.length > 0) return { goalBlock: null, condition: null, conditionLength: 0, maxTurns: null, errors }
    const goalBlock = `${GOAL_BLOCK_HEADING}\n\n${full}\n\n${SURFACING_RULES}\n`
    return { goalBlock, condition: full, conditionLength: full.length, maxTurns: turns, errors }
}
