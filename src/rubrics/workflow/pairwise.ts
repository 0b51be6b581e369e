import * as v from 'valibot'
import { createIssue } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { parseArgs } from '../../validation/args.js'
import { arraysForObjects, guardInput, isRecord, unknownKeys } from '../shared/guard.js'
import { createPrng } from '../shared/prng.js'
import { cmp, fromNumber, ratio, toNumber } from '../shared/rational.js'
import { WORKFLOW_INCONSISTENCY_WARNING, WORKFLOW_SYSTEM_VERSION } from './constants.js'
import { rangeIssue, WORKFLOW_ARGS, WORKFLOW_GUARD } from './parse.js'

/** A candidate of a pair. */
export type PairSide = 'a' | 'b'
/** A judge verdict in candidate terms. */
export type PairVerdict = 'a' | 'b' | 'tie'

/** The presentation order of one pair for both passes. */
export interface PairOrder {
    readonly id: string
    /** First pass: which candidate is shown first. */
    readonly forward: { readonly first: PairSide; readonly second: PairSide }
    /** Second pass: the same pair in the swapped order. */
    readonly swapped: { readonly first: PairSide; readonly second: PairSide }
}

/** The result of `WorkflowRubric.pairwiseOrder`. */
export interface PairwiseOrderResult {
    readonly system: string
    readonly seed: number | null
    readonly orders: readonly PairOrder[] | null
    readonly errors: readonly Issue[]
}

/** One adjudicated pair. */
export interface PairOutcome {
    readonly id: string
    readonly forward: PairVerdict
    readonly swapped: PairVerdict
    readonly consistent: boolean
    /** The verdict that counts; `null` when a rerun is needed. */
    readonly outcome: PairVerdict | null
    readonly action: 'accepted' | 'tie' | 'rerun'
}

/** The result of `WorkflowRubric.adjudicatePairwise`. */
export interface PairwiseAdjudication {
    readonly system: string
    readonly outcomes: readonly PairOutcome[] | null
    readonly total: number
    readonly inconsistent: number
    /** `inconsistent / total`. */
    readonly inconsistencyRate: number | null
    readonly warningThreshold: number
    /** True when the rate is above the threshold (strictly, as in seed 004 §13). */
    readonly warning: boolean
    /** Ids to judge again (policy `rerun`). */
    readonly reruns: readonly string[]
    /** Settled verdicts from candidate `a`'s side: feed to the `pairwise-ties` formula. */
    readonly tally: { readonly wins: number; readonly losses: number; readonly ties: number } | null
    readonly errors: readonly Issue[]
}

const ID = v.pipe(v.string(), v.minLength(1), v.maxLength(200))
const ORDER = v.object({ pairs: v.array(ID), seed: v.number() })
const VERDICT = v.picklist(['a', 'b', 'tie'] as const)
const ADJUDICATE = v.object({
    judgments: v.array(v.object({ id: ID, forward: VERDICT, swapped: VERDICT })),
    onInconsistent: v.optional(v.picklist(['tie', 'rerun'] as const)),
    warningThreshold: v.optional(v.number())
})

function duplicates(ids: readonly string[], at: (i: number) => string): Issue[] {
    const seen = new Set<string>()
    const issues: Issue[] = []
    ids.forEach((id, i) => {
        if (seen.has(id)) issues.push(createIssue('WFL-008', at(i), { value: id }))
        seen.add(id)
    })
    return issues
}

/** `WorkflowRubric.pairwiseOrder` without the class. */
export function pairwiseOrder(input: unknown): PairwiseOrderResult {
    const failed = (errors: Issue[]): PairwiseOrderResult => ({
        system: WORKFLOW_SYSTEM_VERSION,
        seed: null,
        orders: null,
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const errors: Issue[] = unknownKeys(guarded.value, ['pairs', 'seed'], '').map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    const args = parseArgs(ORDER, guarded.value, WORKFLOW_ARGS)
    if (args.value === null) return failed([...errors, ...args.errors])
    const { pairs, seed } = args.value
    errors.push(
        ...rangeIssue(
            Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff,
            '/seed',
            'seed',
            'an integer in 0..4294967295',
            seed
        )
    )
    errors.push(...duplicates(pairs, (i) => pointer('pairs', i)))
    if (errors.length > 0) return failed(errors)
    const prng = createPrng(seed)
    const orders = pairs.map((id): PairOrder => {
        // The top bit of each draw decides; the second pass is always the mirror of the first.
        const first: PairSide = prng.next() >= 0x80000000 ? 'b' : 'a'
        const second: PairSide = first === 'a' ? 'b' : 'a'
        return { id, forward: { first, second }, swapped: { first: second, second: first } }
    })
    return { system: WORKFLOW_SYSTEM_VERSION, seed, orders, errors: [] }
}

type Judgment = v.InferOutput<typeof ADJUDICATE>['judgments'][number]

/** One judgment's outcome: accepted when both orders agree, else settled by the policy. */
function settleJudgment(j: Judgment, policy: 'tie' | 'rerun'): PairOutcome {
    // Verdicts are in candidate terms, so a judge free of position bias gives the same one twice.
    const consistent = j.forward === j.swapped
    if (consistent)
        return { id: j.id, forward: j.forward, swapped: j.swapped, consistent, outcome: j.forward, action: 'accepted' }
    return policy === 'tie'
        ? { id: j.id, forward: j.forward, swapped: j.swapped, consistent, outcome: 'tie', action: 'tie' }
        : { id: j.id, forward: j.forward, swapped: j.swapped, consistent, outcome: null, action: 'rerun' }
}

function tallyOf(settled: readonly PairOutcome[]): { wins: number; losses: number; ties: number } {
    return {
        wins: settled.filter((o) => o.outcome === 'a').length,
        losses: settled.filter((o) => o.outcome === 'b').length,
        ties: settled.filter((o) => o.outcome === 'tie').length
    }
}

/** `WorkflowRubric.adjudicatePairwise` without the class. */
export function adjudicatePairwise(input: unknown): PairwiseAdjudication {
    const failed = (errors: Issue[]): PairwiseAdjudication => ({
        system: WORKFLOW_SYSTEM_VERSION,
        outcomes: null,
        total: 0,
        inconsistent: 0,
        inconsistencyRate: null,
        warningThreshold: WORKFLOW_INCONSISTENCY_WARNING,
        warning: false,
        reruns: [],
        tally: null,
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const raw = guarded.value
    const errors: Issue[] = unknownKeys(raw, ['judgments', 'onInconsistent', 'warningThreshold'], '').map(
        ([key, path]) => createIssue('WFL-021', path, { field: key })
    )
    if (Array.isArray(raw.judgments)) {
        raw.judgments.forEach((item, i) => {
            if (isRecord(item))
                for (const [key, path] of unknownKeys(item, ['id', 'forward', 'swapped'], pointer('judgments', i)))
                    errors.push(createIssue('WFL-021', path, { field: key }))
        })
    }
    const arrays = arraysForObjects(raw, [['judgments', '*']], 'WFL-003')
    if (arrays.length > 0) return failed([...errors, ...arrays])
    const args = parseArgs(ADJUDICATE, raw, WORKFLOW_ARGS)
    if (args.value === null) return failed([...errors, ...args.errors])
    const { judgments } = args.value
    const policy = args.value.onInconsistent ?? 'tie'
    const threshold = args.value.warningThreshold ?? WORKFLOW_INCONSISTENCY_WARNING
    errors.push(
        ...rangeIssue(
            threshold >= 0 && threshold <= 1,
            '/warningThreshold',
            'warningThreshold',
            'a number in 0..1',
            threshold
        )
    )
    errors.push(
        ...duplicates(
            judgments.map((j) => j.id),
            (i) => pointer('judgments', i, 'id')
        )
    )
    if (errors.length > 0) return failed(errors)

    const outcomes = judgments.map((j) => settleJudgment(j, policy))
    const inconsistent = outcomes.filter((o) => !o.consistent).length
    const total = outcomes.length
    const rate = total === 0 ? null : ratio(inconsistent, total)
    const warning = rate !== null && cmp(rate, fromNumber(threshold)) > 0
    const settled = outcomes.filter((o) => o.outcome !== null)
    const warnings =
        warning && rate !== null ? [createIssue('WFL-WARN-002', '/judgments', { rate: toNumber(rate), threshold })] : []
    return {
        system: WORKFLOW_SYSTEM_VERSION,
        outcomes,
        total,
        inconsistent,
        inconsistencyRate: rate === null ? null : toNumber(rate),
        warningThreshold: threshold,
        warning,
        reruns: outcomes.filter((o) => o.action === 'rerun').map((o) => o.id),
        tally: tallyOf(settled),
        errors: warnings
    }
}
