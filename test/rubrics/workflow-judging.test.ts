import { describe, expect, it } from 'vitest'
import { WorkflowRubric } from '../../src/rubrics.js'
import { codes } from './helpers.js'

describe('WorkflowRubric.compare — near-equal tie-breakers (seed 004 §5.2)', () => {
    it.each([
        [
            'a difference of 1.0 or more: the score decides',
            { weightedScore: 81, gateFailures: 2 },
            { weightedScore: 80, gateFailures: 0 },
            'a',
            'weightedScore',
            false
        ],
        [
            'near-equal: fewer gate failures win first',
            { weightedScore: 80.5, gateFailures: 0 },
            { weightedScore: 80.9, gateFailures: 1 },
            'a',
            'gateFailures',
            true
        ],
        [
            'then higher objective correctness',
            { weightedScore: 80, gateFailures: 0, correctness: 0.9 },
            { weightedScore: 80.99, gateFailures: 0, correctness: 0.8 },
            'a',
            'correctness',
            true
        ],
        [
            'then higher safety',
            { weightedScore: 80, gateFailures: 0, correctness: 0.9, safety: 0.95 },
            { weightedScore: 80.5, gateFailures: 0, correctness: 0.9, safety: 0.9 },
            'a',
            'safety',
            true
        ],
        [
            'then lower p95 latency',
            { weightedScore: 80, gateFailures: 0, p95Latency: 1200 },
            { weightedScore: 80.5, gateFailures: 0, p95Latency: 1500 },
            'a',
            'p95Latency',
            true
        ],
        [
            'then lower cost',
            { weightedScore: 80, gateFailures: 0, p95Latency: 1200, cost: 0.02 },
            { weightedScore: 80.5, gateFailures: 0, p95Latency: 1200, cost: 0.03 },
            'a',
            'cost',
            true
        ],
        [
            'then the residual score difference',
            { weightedScore: 80, gateFailures: 0 },
            { weightedScore: 80.5, gateFailures: 0 },
            'b',
            'weightedScore',
            true
        ],
        // 0.1 + 0.2 style: 80.3 − 79.3 is exactly 1.0, so not near-equal.
        [
            'exactly 1.0 apart is not near-equal',
            { weightedScore: 80.3, gateFailures: 1 },
            { weightedScore: 79.3, gateFailures: 0 },
            'a',
            'weightedScore',
            false
        ]
    ])('%s', (_name, a, b, winner, decidedBy, nearEqual) => {
        expect(WorkflowRubric.compare({ a, b })).toMatchObject({
            system: 'workflowSystem/1.0.0',
            winner,
            decidedBy,
            nearEqual,
            errors: []
        })
    })

    it('skips a metric only one run reports and calls identical runs equivalent', () => {
        const result = WorkflowRubric.compare({
            a: { weightedScore: 75, gateFailures: 0, correctness: 0.8 },
            b: { weightedScore: 75, gateFailures: 0 }
        })
        expect(result.winner).toBe('equivalent')
        expect(result.steps.map((s) => [s.rule, s.outcome])).toEqual([
            ['gateFailures', 'tie'],
            ['correctness', 'skipped'],
            ['safety', 'skipped'],
            ['p95Latency', 'skipped'],
            ['cost', 'skipped'],
            ['weightedScore', 'tie']
        ])
    })

    it('accepts a wider near-equal window', () => {
        expect(
            WorkflowRubric.compare({
                a: { weightedScore: 70, gateFailures: 0 },
                b: { weightedScore: 72, gateFailures: 1 },
                nearEqual: 5
            })
        ).toMatchObject({ winner: 'a', decidedBy: 'gateFailures' })
    })

    it.each([
        ['a missing side', { a: { weightedScore: 1, gateFailures: 0 } }, [['WFL-002', '/b']]],
        [
            'a score above 100',
            { a: { weightedScore: 101, gateFailures: 0 }, b: { weightedScore: 1, gateFailures: 0 } },
            [['WFL-014', '/a/weightedScore']]
        ],
        [
            'fractional gate failures',
            { a: { weightedScore: 1, gateFailures: 0.5 }, b: { weightedScore: 1, gateFailures: 0 } },
            [['WFL-014', '/a/gateFailures']]
        ],
        ['a summary as an array', { a: [], b: { weightedScore: 1, gateFailures: 0 } }, [['WFL-003', '/a']]],
        [
            'an unknown metric',
            { a: { weightedScore: 1, gateFailures: 0, p99: 3 }, b: { weightedScore: 1, gateFailures: 0 } },
            [['WFL-021', '/a/p99']]
        ]
    ])('rejects %s', (_name, input, expected) => {
        const result = WorkflowRubric.compare(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result.winner).toBeNull()
    })
})

describe('WorkflowRubric.pairwiseOrder — seeded order randomisation (seed 004 §8.2)', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `q${i + 1}`)

    it('gives the same order for the same seed and mirrors it in the swapped pass', () => {
        const first = WorkflowRubric.pairwiseOrder({ pairs: ids, seed: 42 })
        expect(WorkflowRubric.pairwiseOrder({ pairs: ids, seed: 42 })).toEqual(first)
        for (const order of first.orders ?? []) {
            expect(order.swapped).toEqual({ first: order.forward.second, second: order.forward.first })
            expect(order.forward.first).not.toBe(order.forward.second)
        }
    })

    it('pins the order of seed 42 (a golden vector: any change is a breaking change)', () => {
        expect(
            WorkflowRubric.pairwiseOrder({ pairs: ids, seed: 42 })
                .orders?.map((o) => o.forward.first)
                .join('')
        ).toMatchInlineSnapshot(`"bbbbabba"`)
    })

    it('changes with the seed and puts each candidate first about half the time', () => {
        const many = Array.from({ length: 10_000 }, (_, i) => `p${i}`)
        const a = WorkflowRubric.pairwiseOrder({ pairs: many, seed: 1 }).orders ?? []
        const b = WorkflowRubric.pairwiseOrder({ pairs: many, seed: 2 }).orders ?? []
        const share = a.filter((o) => o.forward.first === 'a').length / a.length
        expect(share).toBeGreaterThan(0.48)
        expect(share).toBeLessThan(0.52)
        expect(a.map((o) => o.forward.first)).not.toEqual(b.map((o) => o.forward.first))
    })

    it.each([
        ['a missing seed', { pairs: ['q1'] }, [['WFL-002', '/seed']]],
        ['a negative seed', { pairs: ['q1'], seed: -1 }, [['WFL-014', '/seed']]],
        ['a fractional seed', { pairs: ['q1'], seed: 1.5 }, [['WFL-014', '/seed']]],
        ['a seed above 2^32 − 1', { pairs: ['q1'], seed: 2 ** 32 }, [['WFL-014', '/seed']]],
        ['duplicate pair ids', { pairs: ['q1', 'q1'], seed: 1 }, [['WFL-008', '/pairs/1']]],
        ['a non-string id', { pairs: [1], seed: 1 }, [['WFL-003', '/pairs/0']]]
    ])('rejects %s', (_name, input, expected) => {
        expect(codes(WorkflowRubric.pairwiseOrder(input as never).errors)).toEqual(expected)
    })
})

describe('WorkflowRubric.adjudicatePairwise — swapped-order adjudication (seed 004 §8.3–8.4, §13)', () => {
    const judgments = [
        { id: 'q1', forward: 'a', swapped: 'a' },
        { id: 'q2', forward: 'b', swapped: 'b' },
        { id: 'q3', forward: 'tie', swapped: 'tie' },
        { id: 'q4', forward: 'a', swapped: 'b' },
        { id: 'q5', forward: 'a', swapped: 'tie' },
        { id: 'q6', forward: 'a', swapped: 'a' },
        { id: 'q7', forward: 'a', swapped: 'a' },
        { id: 'q8', forward: 'b', swapped: 'b' },
        { id: 'q9', forward: 'a', swapped: 'a' },
        { id: 'q10', forward: 'a', swapped: 'a' }
    ] as const

    it('turns inconsistent pairs into ties by default and reports the rate', () => {
        const result = WorkflowRubric.adjudicatePairwise({ judgments })
        expect(result.outcomes?.map((o) => [o.id, o.consistent, o.outcome, o.action])).toEqual([
            ['q1', true, 'a', 'accepted'],
            ['q2', true, 'b', 'accepted'],
            ['q3', true, 'tie', 'accepted'],
            ['q4', false, 'tie', 'tie'],
            ['q5', false, 'tie', 'tie'],
            ['q6', true, 'a', 'accepted'],
            ['q7', true, 'a', 'accepted'],
            ['q8', true, 'b', 'accepted'],
            ['q9', true, 'a', 'accepted'],
            ['q10', true, 'a', 'accepted']
        ])
        // 2 of 10 inconsistent = 0.2 > 0.10 → warning.
        expect(result).toMatchObject({
            total: 10,
            inconsistent: 2,
            inconsistencyRate: 0.2,
            warning: true,
            reruns: [],
            tally: { wins: 5, losses: 2, ties: 3 }
        })
        expect(codes(result.errors)).toEqual([['WFL-WARN-002', '/judgments']])
        expect(result.errors[0]?.message).toMatchInlineSnapshot(
            `"Pairwise inconsistency rate 0.2 is above the warning threshold 0.1"`
        )
    })

    it('asks for reruns instead when configured, and leaves them out of the tally', () => {
        const result = WorkflowRubric.adjudicatePairwise({ judgments, onInconsistent: 'rerun' })
        expect(result).toMatchObject({ reruns: ['q4', 'q5'], tally: { wins: 5, losses: 2, ties: 1 } })
        expect(result.outcomes?.[3]).toMatchObject({ outcome: null, action: 'rerun' })
    })

    it.each([
        // Exactly 0.10 does not warn: the threshold is "> 0.10".
        ['1 of 10 inconsistent (0.10) does not warn', 10, 1, false],
        ['2 of 19 inconsistent (0.105…) warns', 19, 2, true],
        ['0 of 5 does not warn', 5, 0, false]
    ])('%s', (_name, total, bad, warning) => {
        const list = Array.from({ length: total }, (_, i) => ({
            id: `p${i}`,
            forward: 'a' as const,
            swapped: i < bad ? ('b' as const) : ('a' as const)
        }))
        expect(WorkflowRubric.adjudicatePairwise({ judgments: list }).warning).toBe(warning)
    })

    it('uses a configured threshold and handles an empty list', () => {
        expect(WorkflowRubric.adjudicatePairwise({ judgments: [...judgments], warningThreshold: 0.25 }).warning).toBe(
            false
        )
        expect(WorkflowRubric.adjudicatePairwise({ judgments: [] })).toMatchObject({
            total: 0,
            inconsistencyRate: null,
            warning: false,
            tally: { wins: 0, losses: 0, ties: 0 },
            errors: []
        })
    })

    it.each([
        [
            'an unknown verdict',
            { judgments: [{ id: 'q', forward: 'first', swapped: 'a' }] },
            [['WFL-003', '/judgments/0/forward']]
        ],
        [
            'a duplicate id',
            {
                judgments: [
                    { id: 'q', forward: 'a', swapped: 'a' },
                    { id: 'q', forward: 'a', swapped: 'a' }
                ]
            },
            [['WFL-008', '/judgments/1/id']]
        ],
        ['an unknown policy', { judgments: [], onInconsistent: 'drop' }, [['WFL-003', '/onInconsistent']]],
        ['a threshold above 1', { judgments: [], warningThreshold: 1.5 }, [['WFL-014', '/warningThreshold']]],
        ['a judgment as an array', { judgments: [[]] }, [['WFL-003', '/judgments/0']]]
    ])('rejects %s', (_name, input, expected) => {
        const result = WorkflowRubric.adjudicatePairwise(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result.outcomes).toBeNull()
    })
})
