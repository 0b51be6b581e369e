import * as v from 'valibot'
import { createIssue, rebaseIssues } from '../../errors/issue.js'
import type { Issue } from '../../errors/types.js'
import { parseArgs } from '../../validation/args.js'
import { arraysForObjects, guardInput, isRecord, unknownKeys } from '../shared/guard.js'
import { abs, cmp, fromNumber, sub } from '../shared/rational.js'
import { WORKFLOW_NEAR_EQUAL, WORKFLOW_SYSTEM_VERSION } from './constants.js'
import { rangeIssue, WORKFLOW_ARGS, WORKFLOW_GUARD } from './parse.js'

/** What the tie-breakers of seed 004 §5.2 look at for one run. */
export interface WorkflowRunSummary {
    /** 0..100. */
    readonly weightedScore: number
    /** Number of failed hard gates (integer >= 0). */
    readonly gateFailures: number
    /** Objective correctness, normalised 0..1. */
    readonly correctness?: number
    /** Safety/validation, normalised 0..1. */
    readonly safety?: number
    /** p95 latency, any unit, the same for both runs (>= 0). */
    readonly p95Latency?: number
    /** Cost, any unit, the same for both runs (>= 0). */
    readonly cost?: number
}

/** A rule of the workflow comparison. */
export type WorkflowCompareRule = 'weightedScore' | 'gateFailures' | 'correctness' | 'safety' | 'p95Latency' | 'cost'

/** The result of `WorkflowRubric.compare`. */
export interface WorkflowComparison {
    readonly system: string
    readonly winner: 'a' | 'b' | 'equivalent' | null
    readonly decidedBy: WorkflowCompareRule | null
    /** True when `|a − b| < nearEqual`, so the tie-breakers applied. */
    readonly nearEqual: boolean | null
    readonly steps: ReadonlyArray<{
        readonly rule: WorkflowCompareRule
        readonly a: number | null
        readonly b: number | null
        readonly outcome: 'a' | 'b' | 'tie' | 'skipped'
    }>
    readonly errors: readonly Issue[]
}

const SUMMARY = v.object({
    weightedScore: v.number(),
    gateFailures: v.number(),
    correctness: v.optional(v.number()),
    safety: v.optional(v.number()),
    p95Latency: v.optional(v.number()),
    cost: v.optional(v.number())
})
const INPUT = v.object({ a: v.unknown(), b: v.unknown(), nearEqual: v.optional(v.number()) })
const SUMMARY_KEYS = ['weightedScore', 'gateFailures', 'correctness', 'safety', 'p95Latency', 'cost']

function checkSummary(value: unknown, base: string): { value: WorkflowRunSummary | null; errors: Issue[] } {
    const errors: Issue[] = isRecord(value)
        ? unknownKeys(value, SUMMARY_KEYS, base).map(([key, path]) => createIssue('WFL-021', path, { field: key }))
        : []
    const parsed = parseArgs(SUMMARY, value, WORKFLOW_ARGS)
    if (parsed.value === null) return { value: null, errors: [...errors, ...rebaseIssues(parsed.errors, base)] }
    const s = parsed.value
    errors.push(
        ...rangeIssue(
            s.weightedScore >= 0 && s.weightedScore <= 100,
            `${base}/weightedScore`,
            'weightedScore',
            'a number in 0..100',
            s.weightedScore
        )
    )
    errors.push(
        ...rangeIssue(
            Number.isInteger(s.gateFailures) && s.gateFailures >= 0,
            `${base}/gateFailures`,
            'gateFailures',
            'an integer >= 0',
            s.gateFailures
        )
    )
    for (const key of ['correctness', 'safety'] as const) {
        const x = s[key]
        if (x !== undefined) errors.push(...rangeIssue(x >= 0 && x <= 1, `${base}/${key}`, key, 'a number in 0..1', x))
    }
    for (const key of ['p95Latency', 'cost'] as const) {
        const x = s[key]
        if (x !== undefined) errors.push(...rangeIssue(x >= 0, `${base}/${key}`, key, 'a number >= 0', x))
    }
    return errors.length > 0 ? { value: null, errors } : { value: s as WorkflowRunSummary, errors }
}

/** `WorkflowRubric.compare` without the class. */
export function compareWorkflowRuns(input: unknown): WorkflowComparison {
    const failed = (errors: Issue[]): WorkflowComparison => ({
        system: WORKFLOW_SYSTEM_VERSION,
        winner: null,
        decidedBy: null,
        nearEqual: null,
        steps: [],
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const errors: Issue[] = unknownKeys(guarded.value, ['a', 'b', 'nearEqual'], '').map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    const arrays = arraysForObjects(guarded.value, [['a'], ['b']], 'WFL-003')
    if (arrays.length > 0) return failed([...errors, ...arrays])
    const args = parseArgs(INPUT, guarded.value, WORKFLOW_ARGS)
    if (args.value === null) return failed([...errors, ...args.errors])
    for (const side of ['a', 'b'] as const) {
        if (!Object.hasOwn(guarded.value, side)) errors.push(createIssue('WFL-002', `/${side}`, { field: side }))
    }
    const a = checkSummary(args.value.a, '/a')
    const b = checkSummary(args.value.b, '/b')
    const nearEqual = args.value.nearEqual ?? WORKFLOW_NEAR_EQUAL
    errors.push(
        ...a.errors,
        ...b.errors,
        ...rangeIssue(nearEqual >= 0 && nearEqual <= 100, '/nearEqual', 'nearEqual', 'a number in 0..100', nearEqual)
    )
    if (a.value === null || b.value === null || errors.length > 0) return failed(errors)
    return decide(a.value, b.value, nearEqual)
}

type Rule = { rule: WorkflowCompareRule; a: number | undefined; b: number | undefined; higherWins: boolean }

function decide(a: WorkflowRunSummary, b: WorkflowRunSummary, nearEqual: number): WorkflowComparison {
    const steps: Array<WorkflowComparison['steps'][number]> = []
    const diff = sub(fromNumber(a.weightedScore), fromNumber(b.weightedScore))
    const near = cmp(abs(diff), fromNumber(nearEqual)) < 0
    const scoreRule: Rule = { rule: 'weightedScore', a: a.weightedScore, b: b.weightedScore, higherWins: true }
    // Far apart: the score decides. Near-equal: the tie-breakers first, the residual score difference last.
    const rules: Rule[] = near
        ? [
              { rule: 'gateFailures', a: a.gateFailures, b: b.gateFailures, higherWins: false },
              { rule: 'correctness', a: a.correctness, b: b.correctness, higherWins: true },
              { rule: 'safety', a: a.safety, b: b.safety, higherWins: true },
              { rule: 'p95Latency', a: a.p95Latency, b: b.p95Latency, higherWins: false },
              { rule: 'cost', a: a.cost, b: b.cost, higherWins: false },
              scoreRule
          ]
        : [scoreRule]
    for (const r of rules) {
        if (r.a === undefined || r.b === undefined) {
            // A metric only one run (or neither) reports cannot separate them.
            steps.push({ rule: r.rule, a: r.a ?? null, b: r.b ?? null, outcome: 'skipped' })
            continue
        }
        const order = cmp(fromNumber(r.a), fromNumber(r.b))
        if (order === 0) {
            steps.push({ rule: r.rule, a: r.a, b: r.b, outcome: 'tie' })
            continue
        }
        const winner = order > 0 === r.higherWins ? 'a' : 'b'
        steps.push({ rule: r.rule, a: r.a, b: r.b, outcome: winner })
        return { system: WORKFLOW_SYSTEM_VERSION, winner, decidedBy: r.rule, nearEqual: near, steps, errors: [] }
    }
    return {
        system: WORKFLOW_SYSTEM_VERSION,
        winner: 'equivalent',
        decidedBy: null,
        nearEqual: near,
        steps,
        errors: []
    }
}
