import * as v from 'valibot'
import { createIssue } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { parseArgs } from '../../validation/args.js'
import { arraysForObjects, guardInput, isRecord, unknownKeys } from '../shared/guard.js'
import { add, cmp, fromNumber, ratio, sub, toNumber, type Rational } from '../shared/rational.js'
import { WORKFLOW_SYSTEM_VERSION } from './constants.js'
import type { WorkflowCore } from './evaluate.js'
import { rangeIssue, WORKFLOW_ARGS, WORKFLOW_GUARD } from './parse.js'
import { WORKFLOW_DEFAULT_SEVERE_GATES } from './profiles.js'
import { evaluateRuns } from './reporting.js'

/** Tolerances of the promotion policy (seed 004 §10), all inclusive. */
export interface WorkflowPromotionTolerances {
    /** How much higher the candidate's hard-gate failure rate may be (0..1, default 0). */
    readonly gateFailureRate?: number
    /** Non-inferiority margin on the mean adjusted weighted score, in points of 0..100 (default 1.0). */
    readonly weightedScore?: number
    /** How much higher any criterion's floor-failure rate may be (0..1, default 0). */
    readonly floorFailureRate?: number
    /** How much higher the severe-failure rate may be (0..1, default 0). */
    readonly severeFailureRate?: number
}

/** Default tolerances. */
export const WORKFLOW_PROMOTION_TOLERANCES: Required<WorkflowPromotionTolerances> = Object.freeze({
    gateFailureRate: 0,
    weightedScore: 1,
    floorFailureRate: 0,
    severeFailureRate: 0
})

/** One condition of the promotion policy. */
export interface WorkflowPromotionReason {
    readonly condition:
        | 'hard-gate-failure-rate'
        | 'weighted-score-non-inferior'
        | 'no-floor-regression'
        | 'no-severe-failure-increase'
    readonly holds: boolean
    readonly candidate: number
    readonly baseline: number
    readonly tolerance: number
    readonly detail: string
}

/** The result of `WorkflowRubric.promote`. */
export interface WorkflowPromotion {
    readonly system: string
    readonly promote: boolean | null
    readonly reasons: readonly WorkflowPromotionReason[]
    readonly errors: readonly Issue[]
}

const INPUT = v.object({
    candidate: v.pipe(v.array(v.unknown()), v.minLength(1)),
    baseline: v.pipe(v.array(v.unknown()), v.minLength(1)),
    tolerances: v.optional(
        v.object({
            gateFailureRate: v.optional(v.number()),
            weightedScore: v.optional(v.number()),
            floorFailureRate: v.optional(v.number()),
            severeFailureRate: v.optional(v.number())
        })
    ),
    severeGates: v.optional(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200))))
})

interface Side {
    readonly n: number
    readonly gateRate: Rational
    readonly adjustedMean: Rational
    readonly floorRates: Map<string, Rational>
    readonly severeRate: Rational
}

function summarise(cores: readonly WorkflowCore[], severeGates: ReadonlySet<string>): Side {
    const n = cores.length
    const floorCounts = new Map<string, { failures: number; evaluated: number }>()
    let severe = 0
    for (const core of cores) {
        core.normalized.forEach((c) => {
            if (c.criticalFloor === null) return
            const e = floorCounts.get(c.name) ?? { failures: 0, evaluated: 0 }
            floorCounts.set(c.name, { failures: e.failures + (c.floorFailed ? 1 : 0), evaluated: e.evaluated + 1 })
        })
        const severeGate = core.gateFailures.some((g) => severeGates.has(g.gate))
        const severeFloor = core.normalized.some(
            (c) => c.floorFailed && (c.category === 'safety' || c.category === 'validation')
        )
        if (severeGate || severeFloor) severe += 1
    }
    return {
        n,
        gateRate: ratio(cores.filter((c) => c.gateFailures.length > 0).length, n),
        adjustedMean: ratio(
            cores.reduce((s, c) => s + c.adjustedScoreH, 0),
            100 * n
        ),
        floorRates: new Map([...floorCounts.entries()].map(([name, e]) => [name, ratio(e.failures, e.evaluated)])),
        severeRate: ratio(severe, n)
    }
}

type PromotionArgs = v.InferOutput<typeof INPUT>

/** A checked promotion input: its arguments and the tolerances with defaults filled in. */
interface PromotionRequest {
    readonly args: PromotionArgs
    readonly tol: Required<WorkflowPromotionTolerances>
}

/** Shape, unknown keys and tolerance ranges; the runs themselves are checked later by `evaluateRuns`. */
function checkPromotionInput(input: unknown): { request: PromotionRequest | null; errors: Issue[] } {
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return { request: null, errors: guarded.errors }
    const errors: Issue[] = unknownKeys(guarded.value, ['candidate', 'baseline', 'tolerances', 'severeGates'], '').map(
        ([key, path]) => createIssue('WFL-021', path, { field: key })
    )
    if (isRecord(guarded.value.tolerances)) {
        for (const [key, path] of unknownKeys(
            guarded.value.tolerances,
            Object.keys(WORKFLOW_PROMOTION_TOLERANCES),
            '/tolerances'
        ))
            errors.push(createIssue('WFL-021', path, { field: key }))
    }
    const arrays = arraysForObjects(guarded.value, [['tolerances']], 'WFL-003')
    if (arrays.length > 0) return { request: null, errors: [...errors, ...arrays] }
    const args = parseArgs(INPUT, guarded.value, WORKFLOW_ARGS)
    if (args.value === null) return { request: null, errors: [...errors, ...args.errors] }
    const tol = {
        ...WORKFLOW_PROMOTION_TOLERANCES,
        ...Object.fromEntries(Object.entries(args.value.tolerances ?? {}).filter(([, x]) => x !== undefined))
    } as Required<WorkflowPromotionTolerances>
    for (const key of ['gateFailureRate', 'floorFailureRate', 'severeFailureRate'] as const) {
        errors.push(
            ...rangeIssue(
                tol[key] >= 0 && tol[key] <= 1,
                pointer('tolerances', key),
                `tolerances.${key}`,
                'a number in 0..1',
                tol[key]
            )
        )
    }
    errors.push(
        ...rangeIssue(
            tol.weightedScore >= 0 && tol.weightedScore <= 100,
            '/tolerances/weightedScore',
            'tolerances.weightedScore',
            'a number in 0..100',
            tol.weightedScore
        )
    )
    return errors.length > 0 ? { request: null, errors } : { request: { args: args.value, tol }, errors }
}

/** The candidate's rate is at most the baseline's plus the tolerance. */
function notWorse(c: Rational, b: Rational, t: number): boolean {
    return cmp(c, add(b, fromNumber(t))) <= 0
}

/** A rate that may rise by at most the tolerance: the hard-gate and the severe-failure conditions. */
function rateReason(
    condition: WorkflowPromotionReason['condition'],
    label: string,
    cand: Rational,
    base: Rational,
    tolerance: number
): WorkflowPromotionReason {
    const holds = notWorse(cand, base, tolerance)
    const candidate = toNumber(cand)
    const baseline = toNumber(base)
    const detail = `candidate ${label} ${candidate} ${holds ? '<=' : '>'} baseline ${baseline} + ${tolerance}`
    return { condition, holds, candidate, baseline, tolerance, detail }
}

function scoreReason(cand: Side, base: Side, tolerance: number): WorkflowPromotionReason {
    const holds = cmp(cand.adjustedMean, sub(base.adjustedMean, fromNumber(tolerance))) >= 0
    const candidate = toNumber(cand.adjustedMean)
    const baseline = toNumber(base.adjustedMean)
    const detail = `candidate mean adjusted weighted score ${candidate} ${holds ? '>=' : '<'} baseline ${baseline} - ${tolerance}`
    return { condition: 'weighted-score-non-inferior', holds, candidate, baseline, tolerance, detail }
}

function floorReason(cand: Side, base: Side, tolerance: number): WorkflowPromotionReason {
    // A floor is compared wherever either side has it; a side without that floor counts as 0 failures.
    const names = [...new Set([...cand.floorRates.keys(), ...base.floorRates.keys()])].sort((x, y) =>
        x < y ? -1 : x > y ? 1 : 0
    )
    const rateOf = (side: Side, name: string): Rational => side.floorRates.get(name) ?? ratio(0)
    const regressed = names.filter((name) => !notWorse(rateOf(cand, name), rateOf(base, name), tolerance))
    const worst = (side: Side): Rational =>
        names.reduce((m, name) => (cmp(rateOf(side, name), m) > 0 ? rateOf(side, name) : m), ratio(0))
    return {
        condition: 'no-floor-regression',
        holds: regressed.length === 0,
        candidate: toNumber(worst(cand)),
        baseline: toNumber(worst(base)),
        tolerance,
        detail:
            regressed.length === 0
                ? `no critical floor failure rate rose by more than ${tolerance} (${names.length} floors compared)`
                : `floor failure rate rose for: ${regressed.join(', ')}`
    }
}

/** `WorkflowRubric.promote` without the class. */
export function promoteWorkflow(input: unknown): WorkflowPromotion {
    const failed = (errors: Issue[]): WorkflowPromotion => ({
        system: WORKFLOW_SYSTEM_VERSION,
        promote: null,
        reasons: [],
        errors
    })
    const checked = checkPromotionInput(input)
    if (checked.request === null) return failed(checked.errors)
    const { args, tol } = checked.request
    const candidateRuns = evaluateRuns(args.candidate, '/candidate')
    const baselineRuns = evaluateRuns(args.baseline, '/baseline')
    const runErrors = [...candidateRuns.errors, ...baselineRuns.errors]
    if (candidateRuns.cores === null || baselineRuns.cores === null) return failed(runErrors)

    const severeGates = new Set(args.severeGates ?? WORKFLOW_DEFAULT_SEVERE_GATES)
    const cand = summarise(candidateRuns.cores, severeGates)
    const base = summarise(baselineRuns.cores, severeGates)
    const reasons: WorkflowPromotionReason[] = [
        rateReason(
            'hard-gate-failure-rate',
            'hard-gate failure rate',
            cand.gateRate,
            base.gateRate,
            tol.gateFailureRate
        ),
        scoreReason(cand, base, tol.weightedScore),
        floorReason(cand, base, tol.floorFailureRate),
        rateReason(
            'no-severe-failure-increase',
            'severe validation/security failure rate',
            cand.severeRate,
            base.severeRate,
            tol.severeFailureRate
        )
    ]
    return { system: WORKFLOW_SYSTEM_VERSION, promote: reasons.every((r) => r.holds), reasons, errors: runErrors }
}
