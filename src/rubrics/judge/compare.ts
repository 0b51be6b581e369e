import { SEVERITY } from '../../model/constants.js'
import * as v from 'valibot'
import { createIssue, rebaseIssues } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { arraysForObjects, guardInput, unknownKeys } from '../shared/guard.js'
import { parseArgs } from '../../validation/args.js'
import { JUDGE_SYSTEM_VERSION, JUDGE_TIE_BREAKERS, type JudgeDecidingRule } from './constants.js'
import { computeJudge, fromHundredths, type JudgeCore } from './evaluate.js'
import { JUDGE_ARGS, JUDGE_GUARD, parseJudgeInput } from './parse.js'
import type { JudgeComparison, JudgeRankEntry, JudgeRanking } from './types.js'

type Step = { rule: JudgeDecidingRule; a: number; b: number; higherWins: boolean }

function ruleValues(core: JudgeCore): Step[] {
    return [
        { rule: 'finalScore', a: fromHundredths(core.finalH), b: 0, higherWins: true },
        ...JUDGE_TIE_BREAKERS.map((rule): Step => {
            if (rule === 'fewerRedFlags') return { rule, a: core.input.redFlags.length, b: 0, higherWins: false }
            if (rule === 'moreBonuses') return { rule, a: core.input.bonuses.length, b: 0, higherWins: true }
            return { rule, a: core.input.scores[rule], b: 0, higherWins: true }
        })
    ]
}

/**
 * Walks the ordering of seed 002: final score, then the nine tie-breakers. Scores compare exactly
 * (final scores in hundredths; dimension scores are input numbers, compared as given).
 * @returns a positive number when `a` ranks higher, negative when `b` does, 0 when equivalent.
 */
export function compareCores(
    a: JudgeCore,
    b: JudgeCore
): {
    order: number
    decidedBy: JudgeDecidingRule | null
    steps: Array<{ rule: JudgeDecidingRule; a: number; b: number }>
} {
    const left = ruleValues(a)
    const right = ruleValues(b)
    const steps: Array<{ rule: JudgeDecidingRule; a: number; b: number }> = []
    for (let i = 0; i < left.length; i += 1) {
        const l = left[i] as Step
        const r = right[i] as Step
        steps.push({ rule: l.rule, a: l.a, b: r.a })
        if (l.a !== r.a) {
            const aHigher = l.a > r.a
            return { order: aHigher === l.higherWins ? 1 : -1, decidedBy: l.rule, steps }
        }
    }
    return { order: 0, decidedBy: null, steps }
}

const COMPARE = v.object({ a: v.record(v.string(), v.unknown()), b: v.record(v.string(), v.unknown()) })
const RANK = v.object({ evaluations: v.pipe(v.array(v.record(v.string(), v.unknown())), v.minLength(1)) })

function checkEach(values: ReadonlyArray<[string, unknown]>): { cores: JudgeCore[] | null; errors: Issue[] } {
    const errors: Issue[] = []
    const cores: JudgeCore[] = []
    for (const [base, value] of values) {
        const parsed = parseJudgeInput(value)
        errors.push(...rebaseIssues(parsed.errors, base))
        if (parsed.value !== null) cores.push(computeJudge(parsed.value))
    }
    return errors.some((e) => e.severity === SEVERITY.error) ? { cores: null, errors } : { cores, errors }
}

/** `JudgeRubric.compare` without the class. */
export function compareJudge(input: unknown): JudgeComparison {
    const failed = (errors: Issue[]): JudgeComparison => ({
        system: JUDGE_SYSTEM_VERSION,
        winner: null,
        decidedBy: null,
        steps: [],
        errors
    })
    const guarded = guardInput(input, JUDGE_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const unknown = unknownKeys(guarded.value, ['a', 'b'], '').map(([key, path]) =>
        createIssue('JDG-010', path, { field: key })
    )
    const arrays = arraysForObjects(guarded.value, [['a'], ['b']], 'JDG-003')
    if (arrays.length > 0) return failed([...unknown, ...arrays])
    const args = parseArgs(COMPARE, guarded.value, JUDGE_ARGS)
    if (args.value === null || unknown.length > 0) return failed([...unknown, ...args.errors])
    const { cores, errors } = checkEach([
        ['/a', args.value.a],
        ['/b', args.value.b]
    ])
    if (cores === null) return failed(errors)
    const [a, b] = cores as [JudgeCore, JudgeCore]
    const result = compareCores(a, b)
    return {
        system: JUDGE_SYSTEM_VERSION,
        winner: result.order > 0 ? 'a' : result.order < 0 ? 'b' : 'equivalent',
        decidedBy: result.decidedBy,
        steps: result.steps,
        errors
    }
}

/** `JudgeRubric.rank` without the class. */
export function rankJudge(input: unknown): JudgeRanking {
    const failed = (errors: Issue[]): JudgeRanking => ({ system: JUDGE_SYSTEM_VERSION, ranking: null, errors })
    const guarded = guardInput(input, JUDGE_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const unknown = unknownKeys(guarded.value, ['evaluations'], '').map(([key, path]) =>
        createIssue('JDG-010', path, { field: key })
    )
    const arrays = arraysForObjects(guarded.value, [['evaluations', '*']], 'JDG-003')
    if (arrays.length > 0) return failed([...unknown, ...arrays])
    const args = parseArgs(RANK, guarded.value, JUDGE_ARGS)
    if (args.value === null || unknown.length > 0) return failed([...unknown, ...args.errors])
    const { cores, errors } = checkEach(args.value.evaluations.map((e, i) => [pointer('evaluations', i), e]))
    if (cores === null) return failed(errors)
    // Array.prototype.sort is stable, so equivalent evaluations keep their input order.
    const order = cores.map((core, index) => ({ core, index })).sort((x, y) => -compareCores(x.core, y.core).order)
    const ranking: JudgeRankEntry[] = []
    order.forEach((entry, position) => {
        const previous = position === 0 ? null : (order[position - 1] as { core: JudgeCore; index: number })
        const versus = previous === null ? null : compareCores(previous.core, entry.core)
        const tied = versus !== null && versus.order === 0
        const rank = previous === null ? 1 : tied ? (ranking[position - 1] as JudgeRankEntry).rank : position + 1
        ranking.push({
            index: entry.index,
            rank,
            finalScore: fromHundredths(entry.core.finalH),
            grade: entry.core.band.grade,
            decidedBy: versus === null ? null : tied ? 'equivalent' : versus.decidedBy
        })
    })
    return { system: JUDGE_SYSTEM_VERSION, ranking, errors }
}
