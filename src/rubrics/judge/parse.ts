import * as v from 'valibot'
import { createIssue } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { parseArgs, type ArgCodes } from '../../validation/args.js'
import { arraysForObjects, guardInput, isRecord, unknownKeys, type GuardCodes } from '../shared/guard.js'
import { abs, cmp, decimalText, fromNumber, sub, sum, type Rational } from '../shared/rational.js'
import {
    JUDGE_DEFAULT_WEIGHTS,
    JUDGE_DIMENSIONS,
    JUDGE_SCORE_MAX,
    JUDGE_SCORE_MIN,
    JUDGE_WEIGHT_TOLERANCE,
    type JudgeDimension,
    type JudgeScores
} from './constants.js'

export const JUDGE_GUARD: GuardCodes = { notJson: 'JDG-001', mismatch: 'JDG-003', badNumber: 'JDG-008' }
export const JUDGE_ARGS: ArgCodes = { missing: 'JDG-002', mismatch: 'JDG-003', create: createIssue }

const ID = v.pipe(v.string(), v.minLength(1), v.maxLength(200))
const DIMENSIONS = v.record(v.string(), v.number())
const RED_FLAG = v.object({ id: ID, explanation: v.pipe(v.string(), v.minLength(1), v.maxLength(2000)) })
const BONUS = v.object({ id: ID, explanation: v.optional(v.pipe(v.string(), v.maxLength(2000))) })
const INPUT = v.object({
    scores: DIMENSIONS,
    weights: v.optional(DIMENSIONS),
    redFlags: v.optional(v.array(RED_FLAG)),
    bonuses: v.optional(v.array(BONUS)),
    history: v.optional(v.array(DIMENSIONS))
})

const TOP_KEYS = ['scores', 'weights', 'redFlags', 'bonuses', 'history']
const JUDGE_OBJECT_PATHS = [['scores'], ['weights'], ['redFlags', '*'], ['bonuses', '*'], ['history', '*']]
const TOLERANCE = fromNumber(JUDGE_WEIGHT_TOLERANCE)
const ONE_Q = fromNumber(1)

/** A flag or bonus after de-duplication. */
export interface JudgeItem {
    readonly id: string
    readonly explanation: string | null
}

/** A checked judge input: exact values beside the numbers they came from. */
export interface ParsedJudgeInput {
    readonly scores: JudgeScores
    readonly scoresQ: Readonly<Record<JudgeDimension, Rational>>
    readonly weights: JudgeScores
    readonly weightsQ: Readonly<Record<JudgeDimension, Rational>>
    readonly weightSource: 'default' | 'custom'
    readonly redFlags: readonly JudgeItem[]
    readonly bonuses: readonly JudgeItem[]
    readonly history: readonly JudgeScores[]
}

function byDimension<T>(make: (d: JudgeDimension) => T): Readonly<Record<JudgeDimension, T>> {
    // A literal with the seven fixed keys: cheaper than fromEntries, and no key comes from the input.
    return {
        correctness: make('correctness'),
        completeness: make('completeness'),
        adherence: make('adherence'),
        actionability: make('actionability'),
        efficiency: make('efficiency'),
        safety: make('safety'),
        consistency: make('consistency')
    }
}

/** Checks one dimension map (scores or weights): unknown keys, missing dimensions, ranges. */
export function checkDimensions(
    raw: Record<string, number>,
    original: object,
    base: string,
    field: string,
    kind: 'score' | 'weight'
): Issue[] {
    const issues: Issue[] = unknownKeys(original, JUDGE_DIMENSIONS, base).map(([key, path]) =>
        createIssue('JDG-005', path, { field: key, expected: JUDGE_DIMENSIONS.join(', ') })
    )
    for (const dimension of JUDGE_DIMENSIONS) {
        if (!Object.hasOwn(raw, dimension)) {
            issues.push(createIssue('JDG-002', base + pointer(dimension), { field: `${field}.${dimension}` }))
            continue
        }
        const value = raw[dimension] as number
        if (kind === 'score' && (value < JUDGE_SCORE_MIN || value > JUDGE_SCORE_MAX)) {
            issues.push(createIssue('JDG-004', base + pointer(dimension), { dimension, value }))
        }
        if (kind === 'weight' && (value < 0 || value > 1)) {
            issues.push(createIssue('JDG-006', base + pointer(dimension), { dimension, value }))
        }
    }
    return issues
}

function dedupe(
    items: ReadonlyArray<{ id: string; explanation?: string | undefined }>,
    base: string,
    code: 'JDG-WARN-001' | 'JDG-WARN-002'
): { items: JudgeItem[]; warnings: Issue[] } {
    const seen = new Set<string>()
    const out: JudgeItem[] = []
    const warnings: Issue[] = []
    items.forEach((item, i) => {
        if (seen.has(item.id)) {
            warnings.push(createIssue(code, base + pointer(i), { id: item.id }))
            return
        }
        seen.add(item.id)
        out.push({
            id: item.id,
            explanation: item.explanation === undefined || item.explanation === '' ? null : item.explanation
        })
    })
    return { items: out, warnings }
}

/** Unknown keys at the top and in each red flag and bonus, as `JDG-010`. */
function unknownInputKeys(raw: Record<string, unknown>): Issue[] {
    const unknown = unknownKeys(raw, TOP_KEYS, '').map(([key, path]) => createIssue('JDG-010', path, { field: key }))
    for (const list of ['redFlags', 'bonuses'] as const) {
        const items = raw[list]
        if (Array.isArray(items)) {
            items.forEach((item, i) => {
                if (isRecord(item)) {
                    for (const [key, path] of unknownKeys(item, ['id', 'explanation'], pointer(list, i))) {
                        unknown.push(createIssue('JDG-010', path, { field: key }))
                    }
                }
            })
        }
    }
    return unknown
}

/**
 * Checks a judge input completely (plain JSON, shape, dimensions, ranges, weight sum) and reads its
 * numbers as exact decimals. Warnings (duplicate flags) come back beside a usable value.
 */
export function parseJudgeInput(input: unknown): { value: ParsedJudgeInput | null; errors: Issue[] } {
    const guarded = guardInput(input, JUDGE_GUARD)
    if (guarded.value === null) {
        return { value: null, errors: guarded.errors }
    }
    const raw = guarded.value
    const unknown = unknownInputKeys(raw)
    const arrays = arraysForObjects(raw, JUDGE_OBJECT_PATHS, 'JDG-003')
    if (arrays.length > 0) {
        return { value: null, errors: [...unknown, ...arrays] }
    }
    const parsed = parseArgs(INPUT, raw, JUDGE_ARGS)
    if (parsed.value === null) {
        return { value: null, errors: [...unknown, ...parsed.errors] }
    }
    const value = parsed.value
    const errors: Issue[] = [...unknown]
    errors.push(...checkDimensions(value.scores, raw.scores as object, '/scores', 'scores', 'score'))
    if (value.weights !== undefined) {
        const weightIssues = checkDimensions(value.weights, raw.weights as object, '/weights', 'weights', 'weight')
        errors.push(...weightIssues)
        if (weightIssues.length === 0) {
            const weights = value.weights
            const total = sum(JUDGE_DIMENSIONS.map((d) => fromNumber(weights[d] as number)))
            if (cmp(abs(sub(total, ONE_Q)), TOLERANCE) > 0) {
                errors.push(
                    createIssue('JDG-007', '/weights', {
                        tolerance: JUDGE_WEIGHT_TOLERANCE,
                        sum: weightSumText(weights)
                    })
                )
            }
        }
    }
    const history = value.history ?? []
    history.forEach((entry, i) => {
        errors.push(
            ...checkDimensions(
                entry,
                (raw.history as unknown[])[i] as object,
                pointer('history', i),
                `history.${i}`,
                'score'
            )
        )
    })
    const flags = dedupe(value.redFlags ?? [], '/redFlags', 'JDG-WARN-001')
    const bonuses = dedupe(value.bonuses ?? [], '/bonuses', 'JDG-WARN-002')
    if (errors.length > 0) {
        return { value: null, errors: [...errors, ...flags.warnings, ...bonuses.warnings] }
    }
    const scores = byDimension((d) => value.scores[d] as number)
    const weights =
        value.weights === undefined
            ? JUDGE_DEFAULT_WEIGHTS
            : byDimension((d) => (value.weights as Record<string, number>)[d] as number)
    return {
        value: {
            scores,
            scoresQ: byDimension((d) => fromNumber(scores[d])),
            weights,
            weightsQ: byDimension((d) => fromNumber(weights[d])),
            weightSource: value.weights === undefined ? 'default' : 'custom',
            redFlags: flags.items,
            bonuses: bonuses.items,
            history: history.map((entry) => byDimension((d) => entry[d] as number))
        },
        errors: [...flags.warnings, ...bonuses.warnings]
    }
}

function weightSumText(weights: Record<string, number>): string {
    // Exact decimal text, so the message never shows a binary artefact such as 0.9999999999999999.
    return decimalText(sum(JUDGE_DIMENSIONS.map((d) => fromNumber(weights[d] as number))))
}
