import { describe, expect, it } from 'vitest'
import { WorkflowRubric, type WorkflowEvaluateInput } from '../../src/rubrics.js'
import { codes } from './helpers.js'

/** A run whose weighted score is exactly 100·x: correctness has weight 0 but carries the 0.70 floor. */
function runOf(g1: boolean, g2: boolean, x: number, likert: number): WorkflowEvaluateInput {
    return {
        hardGates: { g1, g2 },
        criteria: [
            { name: 'quality', rawScore: x, formulaId: 'clamp-0-1', weight: 1 },
            { name: 'correctness', rawScore: likert, formulaId: 'likert-1-5', weight: 0, category: 'correctness' }
        ]
    }
}

// Scores 90 (A, pass), 80 (gate g2 fails → F), 75 (floor fails → D), 60 (both gates fail → F), 65 (D, below 70).
const runs = [
    runOf(true, true, 0.9, 4),
    runOf(true, false, 0.8, 4),
    runOf(true, true, 0.75, 3),
    runOf(false, false, 0.6, 5),
    runOf(true, true, 0.65, 4)
]

describe('WorkflowRubric.report — the minimum reporting bundle (seed 004 §10)', () => {
    it('computes pass rate, grades, gate and floor failure rates and failure reasons by hand', () => {
        const { report, errors } = WorkflowRubric.report({ runs, seed: 7 })
        expect(errors).toEqual([])
        expect(report).toMatchObject({
            runs: 5,
            passRate: 0.2,
            grades: { A: 1, B: 0, C: 0, D: 2, F: 2 },
            hardGateFailureRate: 0.4,
            gateFailureRates: [
                { gate: 'g1', failures: 1, evaluated: 5, rate: 0.2 },
                { gate: 'g2', failures: 2, evaluated: 5, rate: 0.4 }
            ],
            floorFailureRates: [{ criterion: 'correctness', failures: 1, evaluated: 5, rate: 0.2 }],
            topFailureReasons: [
                { reason: 'below_pass_threshold', count: 2 },
                { reason: 'gate:g2', count: 2 },
                { reason: 'floor:correctness', count: 1 },
                { reason: 'gate:g1', count: 1 }
            ],
            adjustedWeightedScoreMean: 74
        })
    })

    it('computes mean, sample standard deviation and standard error of the weighted score', () => {
        // Scores 90, 80, 75, 60, 65: mean 74; squared deviations 256 + 36 + 1 + 196 + 81 = 570; 570/4 = 142.5.
        const ws = WorkflowRubric.report({ runs }).report?.weightedScore
        expect(ws?.mean).toBe(74)
        expect(ws?.stdDev).toBe(Math.sqrt(142.5))
        expect(ws?.standardError).toBe(Math.sqrt(142.5) / Math.sqrt(5))
    })

    it('describes each criterion distribution with a five-bin histogram', () => {
        const criteria = WorkflowRubric.report({ runs }).report?.criteria
        // correctness: 0.75, 0.75, 0.5, 1, 0.75; quality: 0.9, 0.8, 0.75, 0.6, 0.65.
        expect(criteria?.[0]).toMatchObject({
            name: 'correctness',
            count: 5,
            mean: 0.75,
            min: 0.5,
            median: 0.75,
            max: 1,
            histogram: [0, 0, 1, 3, 1]
        })
        expect(criteria?.[0]?.stdDev).toBeCloseTo(Math.sqrt(0.03125), 12)
        expect(criteria?.[1]).toMatchObject({
            name: 'quality',
            count: 5,
            min: 0.6,
            median: 0.75,
            max: 0.9,
            histogram: [0, 0, 0, 3, 2]
        })
        expect(criteria?.[1]?.mean).toBeCloseTo(0.74, 12)
    })

    it('bins a value sitting exactly on a bin edge by its exact value', () => {
        const edge = [0, 0.2, 0.4, 0.6, 0.8, 1].map((x) => ({
            hardGates: {},
            criteria: [{ name: 'q', rawScore: x, formulaId: 'clamp-0-1' as const, weight: 1 }]
        }))
        expect(WorkflowRubric.report({ runs: edge }).report?.criteria[0]?.histogram).toEqual([1, 1, 1, 1, 2])
    })

    it('gives a seeded percentile-bootstrap 95% interval that is byte-reproducible', () => {
        const a = WorkflowRubric.report({ runs, seed: 7, resamples: 2000 })
        const b = WorkflowRubric.report({ runs, seed: 7, resamples: 2000 })
        expect(JSON.stringify(a)).toBe(JSON.stringify(b))
        const ci = a.report?.weightedScore.ci95
        expect(ci).toMatchObject({ method: 'percentile-bootstrap', resamples: 2000, seed: 7 })
        expect(ci!.lower).toBeLessThanOrEqual(74)
        expect(ci!.upper).toBeGreaterThanOrEqual(74)
        expect(ci!.lower).toBeGreaterThanOrEqual(60)
        expect(ci!.upper).toBeLessThanOrEqual(90)
        // Golden values for seed 7: any change to the generator or the quantile rule shows here.
        expect([ci!.lower, ci!.upper]).toMatchInlineSnapshot(`
          [
            65,
            83,
          ]
        `)
        expect(WorkflowRubric.report({ runs, seed: 8 }).report?.weightedScore.ci95).not.toEqual(ci)
    })

    it('leaves spread, standard error and interval empty for a single run', () => {
        expect(WorkflowRubric.report({ runs: [runs[0]!] }).report?.weightedScore).toEqual({
            mean: 90,
            stdDev: null,
            standardError: null,
            ci95: null
        })
    })

    it('keeps only the top failure reasons asked for', () => {
        expect(WorkflowRubric.report({ runs, top: 1 }).report?.topFailureReasons).toEqual([
            { reason: 'below_pass_threshold', count: 2 }
        ])
    })

    it.each([
        ['no runs', { runs: [] }, [['WFL-003', '/runs']]],
        ['a bad run', { runs: [runs[0], { hardGates: {}, criteria: [] }] }, [['WFL-003', '/runs/1/criteria']]],
        ['zero resamples', { runs, resamples: 0 }, [['WFL-014', '/resamples']]],
        ['a fractional seed', { runs, seed: 0.5 }, [['WFL-014', '/seed']]],
        ['an unknown option', { runs, bootstrap: true }, [['WFL-021', '/bootstrap']]]
    ])('rejects %s', (_name, input, expected) => {
        const result = WorkflowRubric.report(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result.report).toBeNull()
    })
})

describe('WorkflowRubric.promote — the promotion policy (seed 004 §10)', () => {
    const holds = (result: ReturnType<typeof WorkflowRubric.promote>) =>
        Object.fromEntries(result.reasons.map((r) => [r.condition, r.holds]))

    it('promotes a candidate that matches the baseline on all four conditions', () => {
        const result = WorkflowRubric.promote({ candidate: runs, baseline: runs })
        expect(result).toMatchObject({ system: 'workflowSystem/1.0.0', promote: true, errors: [] })
        expect(result.reasons.map((r) => r.condition)).toEqual([
            'hard-gate-failure-rate',
            'weighted-score-non-inferior',
            'no-floor-regression',
            'no-severe-failure-increase'
        ])
    })

    it.each([
        // Run 1 now fails g2: hard-gate failure rate 0.6 > 0.4.
        [
            'a worse hard-gate failure rate',
            [runOf(true, false, 0.9, 4), ...runs.slice(1)],
            {},
            undefined,
            { 'hard-gate-failure-rate': false }
        ],
        [
            'within a gate-rate tolerance of 0.2',
            [runOf(true, false, 0.9, 4), ...runs.slice(1)],
            { gateFailureRate: 0.2 },
            undefined,
            { 'hard-gate-failure-rate': true }
        ],
        // Every score 2 points lower: mean 72 < 74 − 1.
        [
            'a weighted score below the non-inferiority margin',
            runs.map((_r, i) =>
                runOf(
                    ...([
                        [true, true],
                        [true, false],
                        [true, true],
                        [false, false],
                        [true, true]
                    ][i] as [boolean, boolean]),
                    [0.88, 0.78, 0.73, 0.58, 0.63][i]!,
                    [4, 4, 3, 5, 4][i]!
                )
            ),
            {},
            undefined,
            { 'weighted-score-non-inferior': false }
        ],
        [
            'within a 2-point margin',
            runs.map((_r, i) =>
                runOf(
                    ...([
                        [true, true],
                        [true, false],
                        [true, true],
                        [false, false],
                        [true, true]
                    ][i] as [boolean, boolean]),
                    [0.88, 0.78, 0.73, 0.58, 0.63][i]!,
                    [4, 4, 3, 5, 4][i]!
                )
            ),
            { weightedScore: 2 },
            undefined,
            { 'weighted-score-non-inferior': true }
        ],
        // Run 1's correctness falls to Likert 3: floor failure rate 0.4 > 0.2.
        [
            'a critical-floor regression',
            [runOf(true, true, 0.9, 3), ...runs.slice(1)],
            {},
            undefined,
            { 'no-floor-regression': false }
        ],
        // With g2 declared severe, the candidate's extra g2 failure is a severe increase.
        [
            'more severe failures',
            [runOf(true, false, 0.9, 4), ...runs.slice(1)],
            { gateFailureRate: 1 },
            ['g2'],
            { 'hard-gate-failure-rate': true, 'no-severe-failure-increase': false }
        ]
    ])('refuses or allows %s', (_name, candidate, tolerances, severeGates, expected) => {
        const result = WorkflowRubric.promote({ candidate, baseline: runs, tolerances, severeGates } as never)
        expect(result.errors).toEqual([])
        expect(holds(result)).toMatchObject(expected)
        expect(result.promote).toBe(Object.values(holds(result)).every(Boolean))
    })

    it('counts a failed safety floor as a severe failure', () => {
        const safe = {
            hardGates: {},
            criteria: [
                {
                    name: 'safety',
                    rawScore: 5,
                    formulaId: 'likert-1-5' as const,
                    weight: 1,
                    category: 'safety' as const
                }
            ]
        }
        const unsafe = {
            hardGates: {},
            criteria: [
                {
                    name: 'safety',
                    rawScore: 4,
                    formulaId: 'likert-1-5' as const,
                    weight: 1,
                    category: 'safety' as const
                }
            ]
        }
        const result = WorkflowRubric.promote({
            candidate: [safe, unsafe],
            baseline: [safe, safe],
            tolerances: { weightedScore: 100, floorFailureRate: 1 }
        })
        expect(holds(result)).toEqual({
            'hard-gate-failure-rate': true,
            'weighted-score-non-inferior': true,
            'no-floor-regression': true,
            'no-severe-failure-increase': false
        })
        expect(result.reasons[3]).toMatchObject({ candidate: 0.5, baseline: 0, tolerance: 0 })
    })

    it('explains each condition in words', () => {
        const result = WorkflowRubric.promote({
            candidate: [runOf(true, true, 0.9, 3), ...runs.slice(1)],
            baseline: runs
        })
        expect(result.reasons.map((r) => r.detail)).toMatchInlineSnapshot(`
          [
            "candidate hard-gate failure rate 0.4 <= baseline 0.4 + 0",
            "candidate mean adjusted weighted score 74 >= baseline 74 - 1",
            "floor failure rate rose for: correctness",
            "candidate severe validation/security failure rate 0 <= baseline 0 + 0",
          ]
        `)
    })

    it.each([
        ['an empty candidate', { candidate: [], baseline: runs }, [['WFL-003', '/candidate']]],
        [
            'a bad baseline run',
            { candidate: runs, baseline: [{ hardGates: {} }] },
            [['WFL-002', '/baseline/0/criteria']]
        ],
        [
            'a tolerance above 1',
            { candidate: runs, baseline: runs, tolerances: { gateFailureRate: 2 } },
            [['WFL-014', '/tolerances/gateFailureRate']]
        ],
        [
            'an unknown tolerance',
            { candidate: runs, baseline: runs, tolerances: { latency: 1 } },
            [['WFL-021', '/tolerances/latency']]
        ]
    ])('rejects %s', (_name, input, expected) => {
        const result = WorkflowRubric.promote(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result.promote).toBeNull()
    })
})
