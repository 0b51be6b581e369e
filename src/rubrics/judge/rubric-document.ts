import { SEVERITY } from '../../model/constants.js'
import * as v from 'valibot'
import { createIssue, rebaseIssues } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { objectArg, parseArgs } from '../../validation/args.js'
import { arraysForObjects, guardInput, isRecord, unknownKeys } from '../shared/guard.js'
import { abs, cmp, decimalText, fromNumber, sub, sum } from '../shared/rational.js'
import { JUDGE_DIMENSIONS, JUDGE_SYSTEM_VERSION, JUDGE_WEIGHT_TOLERANCE } from './constants.js'
import { checkDimensions, JUDGE_ARGS, JUDGE_GUARD } from './parse.js'

/** The result of `JudgeRubric.validateRubric`. */
export interface JudgeRubricValidation {
    readonly system: string
    readonly valid: boolean
    readonly errors: readonly Issue[]
}

const TEXT = v.pipe(v.string(), v.minLength(1), v.maxLength(2000))
const ITEM = v.object({ id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)), description: TEXT })
const DOCUMENT = v.object({
    system: v.optional(v.literal(JUDGE_SYSTEM_VERSION)),
    rubric_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
    version: v.optional(v.pipe(v.number(), v.minValue(1))),
    description: v.optional(TEXT),
    weights: v.optional(v.record(v.string(), v.number())),
    red_flags: v.optional(v.array(ITEM)),
    bonuses: v.optional(v.array(ITEM))
})
// The argument `{ rubric }`: the rubric absent is JDG-002, anything but a plain object JDG-003 with its JSON type.
const OUTER = v.object({ rubric: objectArg() })
const TOP_KEYS = ['system', 'rubric_id', 'version', 'description', 'weights', 'red_flags', 'bonuses']

/** Unknown keys in the rubric and in each of its red flags and bonuses, as `JDG-010`. */
function unknownRubricKeys(rubric: Record<string, unknown>): Issue[] {
    const errors: Issue[] = []
    for (const [key, path] of unknownKeys(rubric, TOP_KEYS, '/rubric'))
        errors.push(createIssue('JDG-010', path, { field: key }))
    for (const list of ['red_flags', 'bonuses'] as const) {
        const items = rubric[list]
        if (Array.isArray(items)) {
            items.forEach((item, i) => {
                if (isRecord(item)) {
                    for (const [key, path] of unknownKeys(item, ['id', 'description'], pointer('rubric', list, i)))
                        errors.push(createIssue('JDG-010', path, { field: key }))
                }
            })
        }
    }
    return errors
}

/** A red flag or bonus id given twice in its list, as `JDG-009`. */
function duplicateItemIds(doc: v.InferOutput<typeof DOCUMENT>): Issue[] {
    const errors: Issue[] = []
    for (const [list, kind] of [
        ['red_flags', 'red flag'],
        ['bonuses', 'bonus']
    ] as const) {
        const seen = new Set<string>()
        ;(doc[list] ?? []).forEach((item, i) => {
            if (seen.has(item.id))
                errors.push(createIssue('JDG-009', pointer('rubric', list, i, 'id'), { kind, id: item.id }))
            seen.add(item.id)
        })
    }
    return errors
}

/** `JudgeRubric.validateRubric` without the class. */
export function validateJudgeRubric(input: unknown): JudgeRubricValidation {
    const done = (errors: Issue[]): JudgeRubricValidation => ({
        system: JUDGE_SYSTEM_VERSION,
        valid: !errors.some((e) => e.severity === SEVERITY.error),
        errors
    })
    const outer = guardInput(input, JUDGE_GUARD)
    if (outer.value === null) return done(outer.errors)
    const unknownOuter = unknownKeys(outer.value, ['rubric'], '').map(([key, path]) =>
        createIssue('JDG-010', path, { field: key })
    )
    const outerArgs = parseArgs(OUTER, outer.value, JUDGE_ARGS)
    if (outerArgs.value === null) return done([...unknownOuter, ...outerArgs.errors])
    const { rubric } = outerArgs.value

    const errors: Issue[] = [...unknownOuter]
    errors.push(...unknownRubricKeys(rubric))
    const arrays = arraysForObjects(rubric, [['weights'], ['red_flags', '*'], ['bonuses', '*']], 'JDG-003')
    if (arrays.length > 0) return done([...errors, ...rebaseIssues(arrays, '/rubric')])
    const parsed = parseArgs(DOCUMENT, rubric, JUDGE_ARGS)
    if (parsed.value === null) {
        return done([...errors, ...rebaseIssues(parsed.errors, '/rubric')])
    }
    const doc = parsed.value
    if (doc.version !== undefined && !Number.isInteger(doc.version)) {
        errors.push(
            createIssue('JDG-003', '/rubric/version', {
                field: 'version',
                expected: 'integer >= 1',
                actual: doc.version
            })
        )
    }
    if (doc.weights !== undefined) {
        const weightIssues = checkDimensions(
            doc.weights,
            rubric.weights as object,
            '/rubric/weights',
            'weights',
            'weight'
        )
        errors.push(...weightIssues)
        if (weightIssues.length === 0) {
            const weights = doc.weights
            const total = sum(JUDGE_DIMENSIONS.map((d) => fromNumber(weights[d] as number)))
            if (cmp(abs(sub(total, fromNumber(1))), fromNumber(JUDGE_WEIGHT_TOLERANCE)) > 0) {
                errors.push(
                    createIssue('JDG-007', '/rubric/weights', {
                        tolerance: JUDGE_WEIGHT_TOLERANCE,
                        sum: decimalText(total)
                    })
                )
            }
        }
    }
    errors.push(...duplicateItemIds(doc))
    return done(errors)
}
