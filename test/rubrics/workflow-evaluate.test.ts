import { describe, expect, it } from 'vitest'
import { WorkflowRubric, type WorkflowCriterionInput, type WorkflowEvaluateInput } from '../../src/rubrics.js'
import { codes } from './helpers.js'

/** One `clamp-0-1` criterion of weight 1: the weighted score is 100·x. */
function single(x: number): WorkflowCriterionInput[] {
    return [{ name: 'quality', rawScore: x, formulaId: 'clamp-0-1', weight: 1 }]
}

/** A critical criterion of weight 0.1 beside a perfect one of weight 0.9. */
function withCritical(critical: Partial<WorkflowCriterionInput>): WorkflowCriterionInput[] {
    return [
        { name: 'critical', rawScore: 3, formulaId: 'likert-1-5', weight: 0.1, ...critical } as WorkflowCriterionInput,
        { name: 'rest', rawScore: 1, formulaId: 'clamp-0-1', weight: 0.9 }
    ]
}

function run(input: Partial<WorkflowEvaluateInput>) {
    return WorkflowRubric.evaluate({ hardGates: {}, criteria: single(1), ...input } as WorkflowEvaluateInput)
}

describe('WorkflowRubric.evaluate — bands on the rounded 0..100 score (seed 004 §5, §5.1 steps 3–4)', () => {
    it.each([
        [1, 100, 'A', true],
        [0.9, 90, 'A', true],
        [0.89995, 90, 'A', true],
        [0.8999, 89.99, 'B', true],
        [0.899949, 89.99, 'B', true],
        [0.8, 80, 'B', true],
        [0.7999, 79.99, 'C', true],
        [0.7, 70, 'C', true],
        [0.69995, 70, 'C', true],
        [0.6999, 69.99, 'D', false],
        [0.6, 60, 'D', false],
        [0.5999, 59.99, 'F', false],
        [0.25, 25, 'F', false],
        [0, 0, 'F', false]
    ])('places a normalised %s at %s, grade %s, passed %s', (x, score, grade, passed) => {
        const result = run({ criteria: single(x) })
        expect(result.errors).toEqual([])
        expect(result).toMatchObject({
            weightedScore: score,
            grade,
            provisionalGrade: grade,
            passed,
            reason: passed ? null : 'below_pass_threshold'
        })
    })

    it.each([
        // 0.1·0.7 + 0.2·0.7 over 0.1 + 0.2: exactly 70 (binary floats land a hair below).
        [
            'weights 0.1 and 0.2 at 0.7 are exactly 70.00',
            [
                { name: 'a', rawScore: 0.7, formulaId: 'clamp-0-1', weight: 0.1 },
                { name: 'b', rawScore: 0.7, formulaId: 'clamp-0-1', weight: 0.2 }
            ],
            70,
            'C'
        ],
        // (0.75 + 1 + 0.5) / 3 = 0.75.
        [
            'equal weights of Likert 4, 5 and 3',
            [
                { name: 'a', rawScore: 4, formulaId: 'likert-1-5', weight: 1 },
                { name: 'b', rawScore: 5, formulaId: 'likert-1-5', weight: 1 },
                { name: 'c', rawScore: 3, formulaId: 'likert-1-5', weight: 1 }
            ],
            75,
            'C'
        ],
        // (0.1 + 0.2 + 0.2) / 3 = 0.1666… → 16.67.
        [
            'a repeating decimal rounds to two places',
            [
                { name: 'a', rawScore: 0.1, formulaId: 'clamp-0-1', weight: 1 },
                { name: 'b', rawScore: 0.2, formulaId: 'clamp-0-1', weight: 1 },
                { name: 'c', rawScore: 0.2, formulaId: 'clamp-0-1', weight: 1 }
            ],
            16.67,
            'F'
        ],
        // Profile A shape: 0.6·0.95 + 0.25·0.75 + 0.1·0.8 + 0.05·(18/22) = 0.87840909… → 87.84.
        [
            'a SWE-style run',
            [
                {
                    name: 'objective_tests',
                    rawScore: { passed: 19, total: 20 },
                    formulaId: 'swe-pass-to-pass',
                    weight: 0.6
                },
                { name: 'judge_quality', rawScore: 4, formulaId: 'likert-1-5', weight: 0.25 },
                { name: 'patch_quality', rawScore: 0.8, formulaId: 'clamp-0-1', weight: 0.1 },
                {
                    name: 'efficiency',
                    rawScore: 12,
                    formulaId: 'lower-is-better',
                    params: { good: 8, bad: 30 },
                    weight: 0.05
                }
            ],
            87.84,
            'B'
        ],
        // Weights need not sum to 1: (2·1 + 2·0) / 4 = 0.5.
        [
            'weights that do not sum to 1',
            [
                { name: 'a', rawScore: 1, formulaId: 'binary', weight: 2 },
                { name: 'b', rawScore: 0, formulaId: 'binary', weight: 2 }
            ],
            50,
            'F'
        ],
        // A zero weight contributes nothing: 1·(0.625) + 0·0.
        [
            'a zero-weight criterion',
            [
                { name: 'a', rawScore: { wins: 2, losses: 1, ties: 1 }, formulaId: 'pairwise-ties', weight: 1 },
                { name: 'b', rawScore: -2, formulaId: 'likert-neg2-2', weight: 0 }
            ],
            62.5,
            'D'
        ]
    ])('aggregates %s', (_name, criteria, score, grade) => {
        expect(run({ criteria: criteria as WorkflowCriterionInput[] })).toMatchObject({ weightedScore: score, grade })
    })
})

describe('WorkflowRubric.evaluate — hard gates are authoritative (seed 004 §3 Layer 0, §5.1 step 1)', () => {
    it('fails a run with any failed gate as F and keeps the weighted score for diagnostics', () => {
        const result = run({
            hardGates: { schema_contract_valid: true, overall_status_success: false },
            criteria: single(0.95)
        })
        expect(result).toMatchObject({
            passed: false,
            grade: 'F',
            provisionalGrade: 'A',
            weightedScore: 95,
            reason: 'hard_gate_failure',
            gateFailures: [{ gate: 'overall_status_success', reason: 'reported-false' }]
        })
        expect(result.trace.find((s) => s.step === 'gate-override')).toEqual({
            step: 'gate-override',
            applied: true,
            before: 'A',
            after: 'F'
        })
    })

    it.each([
        ['no gates at all', {}, undefined, undefined, []],
        ['all reported gates passing', { a: true, b: true }, undefined, undefined, []],
        [
            'a required gate that is not reported',
            { a: true },
            ['a', 'c'],
            undefined,
            [{ gate: 'c', reason: 'not-reported' }]
        ],
        [
            'a profile whose gates are not reported',
            {},
            undefined,
            'rag',
            [
                { gate: 'answer_grounded_in_context', reason: 'not-reported' },
                { gate: 'citations_present_for_claims', reason: 'not-reported' },
                { gate: 'no_high_severity_hallucinations', reason: 'not-reported' }
            ]
        ],
        [
            'a profile whose gates all pass',
            {
                answer_grounded_in_context: true,
                citations_present_for_claims: true,
                no_high_severity_hallucinations: true
            },
            undefined,
            'rag',
            []
        ],
        [
            'two failures in report order',
            { x: false, y: true, z: false },
            undefined,
            undefined,
            [
                { gate: 'x', reason: 'reported-false' },
                { gate: 'z', reason: 'reported-false' }
            ]
        ]
    ])('checks %s', (_name, hardGates, requiredGates, profile, failures) => {
        const result = run({ hardGates, requiredGates, profile } as Partial<WorkflowEvaluateInput>)
        expect(result.gateFailures).toEqual(failures)
        expect(result.grade).toBe(failures.length > 0 ? 'F' : 'A')
        expect(result.passed).toBe(failures.length === 0)
    })

    it('reports a gate failure before a floor failure as the reason', () => {
        const result = run({
            hardGates: { g: false },
            criteria: withCritical({ rawScore: 1, category: 'correctness' })
        })
        expect(result).toMatchObject({ grade: 'F', reason: 'hard_gate_failure' })
        expect(result.floorFailures).toHaveLength(1)
    })
})

describe('WorkflowRubric.evaluate — critical floors cap the grade at D (seed 004 §5, §5.1 steps 2 and 5)', () => {
    it.each([
        // [name, critical criterion, floor failed, grade, weighted]
        [
            'correctness below its default 0.70 floor (Likert 3.5 → 0.625)',
            { rawScore: 3.5, category: 'correctness' },
            true,
            'D',
            96.25
        ],
        ['correctness exactly at 0.70 (Likert 3.8) passes', { rawScore: 3.8, category: 'correctness' }, false, 'A', 97],
        [
            'safety exactly at its default 0.80 (Likert 4.2) passes',
            { rawScore: 4.2, category: 'safety' },
            false,
            'A',
            98
        ],
        [
            'safety just below 0.80 (Likert 4.19 → 0.7975) fails',
            { rawScore: 4.19, category: 'safety' },
            true,
            'D',
            97.98
        ],
        [
            'validation failing its binary check fails the 0.80 floor',
            { rawScore: 0, formulaId: 'binary', category: 'validation' },
            true,
            'D',
            90
        ],
        [
            'an explicit floor replaces the category default',
            { rawScore: 3.5, category: 'correctness', criticalFloor: 0.5 },
            false,
            'A',
            96.25
        ],
        ['category other has no default floor', { rawScore: 1, category: 'other' }, false, 'A', 90],
        ['a raw floor of 3 on 1..5 is 0.5: raw 3 passes', { rawScore: 3, rawCriticalFloor: 3 }, false, 'A', 95],
        ['a raw floor of 3 on 1..5 is 0.5: raw 2.99 fails', { rawScore: 2.99, rawCriticalFloor: 3 }, true, 'D', 94.98],
        [
            'a raw latency floor of 20 s (good 8, bad 30): 20 s passes',
            { rawScore: 20, formulaId: 'lower-is-better', params: { good: 8, bad: 30 }, rawCriticalFloor: 20 },
            false,
            'A',
            94.55
        ],
        [
            'a raw latency floor of 20 s (good 8, bad 30): 21 s fails',
            { rawScore: 21, formulaId: 'lower-is-better', params: { good: 8, bad: 30 }, rawCriticalFloor: 20 },
            true,
            'D',
            94.09
        ],
        [
            'a floor on a zero-weight criterion still caps',
            { rawScore: 1, category: 'correctness', weight: 0 },
            true,
            'D',
            100
        ]
    ])('%s', (_name, critical, failed, grade, weighted) => {
        const result = run({ criteria: withCritical(critical as Partial<WorkflowCriterionInput>) })
        expect(result.errors).toEqual([])
        expect(result.floorFailures.length > 0).toBe(failed)
        expect(result).toMatchObject({
            grade,
            weightedScore: weighted,
            provisionalGrade: 'A',
            passed: !failed,
            reason: failed ? 'critical_floor_failure' : null
        })
    })

    it('never raises a grade: an F with a failed floor stays F', () => {
        const result = run({
            criteria: [{ name: 'c', rawScore: 1, formulaId: 'likert-1-5', weight: 1, category: 'correctness' }]
        })
        expect(result).toMatchObject({ provisionalGrade: 'F', grade: 'F', weightedScore: 0 })
        expect(result.trace.find((s) => s.step === 'floor-cap')).toEqual({
            step: 'floor-cap',
            failed: ['c'],
            before: 'F',
            after: 'F'
        })
    })

    it('keeps a D from the score a D when a floor also fails', () => {
        const result = run({
            criteria: [{ name: 'c', rawScore: 3.6, formulaId: 'likert-1-5', weight: 1, category: 'correctness' }]
        })
        expect(result).toMatchObject({
            weightedScore: 65,
            provisionalGrade: 'D',
            grade: 'D',
            reason: 'critical_floor_failure'
        })
    })

    it('records the floor, where it came from and the margin', () => {
        const result = run({ criteria: withCritical({ rawScore: 4, rawCriticalFloor: 3 }) })
        expect(result.normalized[0]).toEqual({
            name: 'critical',
            formulaId: 'likert-1-5',
            category: null,
            raw: 4,
            normalized: 0.75,
            adjusted: null,
            samples: null,
            weight: 0.1,
            criticalFloor: 0.5,
            floorSource: 'raw-scale',
            floorFailed: false,
            floorMargin: 0.25
        })
    })
})

describe('WorkflowRubric.evaluate — pass threshold (seed 004 §5.1 step 6)', () => {
    it.each([
        [85, 0.8499, false, 'B'],
        [85, 0.85, true, 'B'],
        [72.5, 0.725, true, 'C'],
        [100, 1, true, 'A'],
        // Below the D band a run can still pass a low threshold: the algorithm only asks for score >= threshold.
        [0, 0, true, 'F']
    ])('with threshold %s, a normalised %s passes: %s', (passThreshold, x, passed, grade) => {
        expect(run({ passThreshold, criteria: single(x) })).toMatchObject({ passed, grade })
    })
})

describe('WorkflowRubric.evaluate — placement explains the band (seed 004 §5.2)', () => {
    it('explains a clean A', () => {
        const placement = run({
            hardGates: { g: true },
            criteria: withCritical({ rawScore: 5, category: 'correctness' }),
            judgeInconsistencyRate: 0.05
        }).placement
        expect(placement).toMatchInlineSnapshot(`
          {
            "checks": [
              {
                "check": "hard-gates",
                "detail": "all hard gates pass (1)",
                "status": "pass",
              },
              {
                "check": "critical-floors",
                "detail": "all critical floors pass (1)",
                "status": "pass",
              },
              {
                "check": "floor-margin",
                "detail": "smallest margin above a floor is 0.3 (>= 0.1)",
                "status": "pass",
              },
              {
                "check": "judge-agreement",
                "detail": "inconsistency rate 0.05 <= 0.1",
                "status": "pass",
              },
            ],
            "determinedBy": "score-band",
            "grade": "A",
            "notes": [],
            "range": "90-100",
            "summary": "A: weighted score 100.00 is in the 90-100 band with all hard gates passing and all critical floors met.",
          }
        `)
    })

    it('notes an A whose floors pass without the 0.10 margin and whose judge disagrees too often', () => {
        const placement = run({
            criteria: withCritical({ rawScore: 3.8, category: 'correctness' }),
            judgeInconsistencyRate: 0.2
        }).placement
        expect(placement?.grade).toBe('A')
        expect(placement?.notes).toMatchInlineSnapshot(`
          [
            "The A band expects every floor passed with a margin of at least 0.1; the smallest margin is below that.",
            "The A band expects low judge disagreement; the inconsistency rate is above the warning threshold.",
          ]
        `)
    })

    it.each([
        [
            'a floor cap',
            { criteria: withCritical({ rawScore: 3.5, category: 'correctness' }) },
            'floor-cap',
            'D: the weighted score 96.25 is in the A band, but a critical floor was missed (critical), which caps the grade at D.'
        ],
        [
            'a gate failure',
            { hardGates: { tests_fail_to_pass_all_green: false }, criteria: single(0.91) },
            'hard-gate-failure',
            'F: release-blocking hard-gate failure (tests_fail_to_pass_all_green); weighted score 91.00 kept for diagnostics.'
        ],
        [
            'a D from the score',
            { criteria: single(0.65) },
            'score-band',
            'D: weighted score 65.00 is in the 60-69.99 band with all hard gates passing.'
        ]
    ])('summarises %s', (_name, input, determinedBy, summary) => {
        const placement = run(input as Partial<WorkflowEvaluateInput>).placement
        expect(placement).toMatchObject({ determinedBy, summary })
    })
})

describe('WorkflowRubric.evaluate — trace', () => {
    it('records the seven steps with the numbers that shaped the grade', () => {
        const result = run({
            hardGates: { g: true },
            criteria: withCritical({ rawScore: 3.5, category: 'correctness' })
        })
        expect(result.trace.map((s) => s.step)).toEqual([
            'hard-gates',
            'normalize',
            'aggregate',
            'band',
            'floor-cap',
            'gate-override',
            'pass-decision'
        ])
        expect(result.trace[2]).toEqual({
            step: 'aggregate',
            terms: [
                { name: 'critical', weight: 0.1, normalized: 0.625, product: 0.0625 },
                { name: 'rest', weight: 0.9, normalized: 1, product: 0.9 }
            ],
            weightSum: 1,
            weighted01: 0.9625,
            weighted100: 96.25
        })
        expect(result.trace[6]).toEqual({
            step: 'pass-decision',
            score: 96.25,
            threshold: 70,
            meetsThreshold: true,
            floorsPassed: false,
            gatesPassed: true,
            passed: false,
            reason: 'critical_floor_failure'
        })
    })

    it('computes an adjusted weighted score from reliability-adjusted values for promotion', () => {
        // tests: (20·0.95 + 20·0.5)/40 = 0.725; other: no sample count, stays 0.5 → (0.725 + 0.5)/2 = 0.6125.
        const result = run({
            criteria: [
                { name: 'tests', rawScore: { passed: 19, total: 20 }, formulaId: 'swe-pass-to-pass', weight: 1 },
                { name: 'other', rawScore: 3, formulaId: 'likert-1-5', weight: 1 }
            ]
        })
        expect(result).toMatchObject({ weightedScore: 72.5, adjustedWeightedScore: 61.25 })
    })
})

describe('WorkflowRubric.evaluate — bad input becomes coded issues, never a throw', () => {
    const ok = single(0.5)[0]!
    it.each([
        ['no argument', undefined, [['WFL-003', '']]],
        ['missing hardGates', { criteria: [ok] }, [['WFL-002', '/hardGates']]],
        ['hardGates as an array', { hardGates: [], criteria: [ok] }, [['WFL-003', '/hardGates']]],
        ['a gate that is not boolean', { hardGates: { g: 'yes' }, criteria: [ok] }, [['WFL-003', '/hardGates/g']]],
        [
            'a __proto__ gate',
            { hardGates: JSON.parse('{"__proto__": true}'), criteria: [ok] },
            [['WFL-009', '/hardGates/__proto__']]
        ],
        ['no criteria', { hardGates: {}, criteria: [] }, [['WFL-003', '/criteria']]],
        ['criteria as an object', { hardGates: {}, criteria: { ok } }, [['WFL-003', '/criteria']]],
        ['a criterion that is an array', { hardGates: {}, criteria: [[]] }, [['WFL-003', '/criteria/0']]],
        [
            'a criterion without a name',
            { hardGates: {}, criteria: [{ ...ok, name: undefined }] },
            [['WFL-002', '/criteria/0/name']]
        ],
        [
            'a criterion without a formula',
            { hardGates: {}, criteria: [{ ...ok, formulaId: undefined }] },
            [['WFL-002', '/criteria/0/formulaId']]
        ],
        ['duplicate criterion names', { hardGates: {}, criteria: [ok, ok] }, [['WFL-008', '/criteria/1/name']]],
        [
            'a reserved criterion name',
            { hardGates: {}, criteria: [{ ...ok, name: 'constructor' }] },
            [['WFL-009', '/criteria/0/name']]
        ],
        [
            'both floors at once',
            { hardGates: {}, criteria: [{ ...ok, criticalFloor: 0.5, rawCriticalFloor: 0.5 }] },
            [['WFL-010', '/criteria/0']]
        ],
        [
            'a raw floor on pairwise counts',
            {
                hardGates: {},
                criteria: [
                    {
                        name: 'p',
                        rawScore: { wins: 1, losses: 0, ties: 0 },
                        formulaId: 'pairwise-ties',
                        weight: 1,
                        rawCriticalFloor: 0.5
                    }
                ]
            },
            [['WFL-011', '/criteria/0/rawCriticalFloor']]
        ],
        [
            'a raw floor outside the Likert scale',
            {
                hardGates: {},
                criteria: [{ name: 'l', rawScore: 3, formulaId: 'likert-1-5', weight: 1, rawCriticalFloor: 6 }]
            },
            [['WFL-011', '/criteria/0/rawCriticalFloor']]
        ],
        [
            'a floor above 1',
            { hardGates: {}, criteria: [{ ...ok, criticalFloor: 1.5 }] },
            [['WFL-014', '/criteria/0/criticalFloor']]
        ],
        [
            'a negative weight',
            { hardGates: {}, criteria: [{ ...ok, weight: -1 }] },
            [['WFL-014', '/criteria/0/weight']]
        ],
        ['all weights zero', { hardGates: {}, criteria: [{ ...ok, weight: 0 }] }, [['WFL-007', '/criteria']]],
        [
            'an unknown formula',
            { hardGates: {}, criteria: [{ ...ok, formulaId: 'zscore' }] },
            [['WFL-004', '/criteria/0/formulaId']]
        ],
        [
            'an out-of-domain raw score',
            { hardGates: {}, criteria: [{ ...ok, formulaId: 'likert-1-5', rawScore: 0 }] },
            [['WFL-005', '/criteria/0/rawScore']]
        ],
        [
            'an unknown category',
            { hardGates: {}, criteria: [{ ...ok, category: 'style' }] },
            [['WFL-003', '/criteria/0/category']]
        ],
        [
            'a threshold above 100',
            { hardGates: {}, criteria: [ok], passThreshold: 120 },
            [['WFL-014', '/passThreshold']]
        ],
        ['an unknown profile', { hardGates: {}, criteria: [ok], profile: 'E' }, [['WFL-013', '/profile']]],
        ['k of 0', { hardGates: {}, criteria: [ok], reliability: { k: 0 } }, [['WFL-014', '/reliability/k']]],
        [
            'an inconsistency rate above 1',
            { hardGates: {}, criteria: [ok], judgeInconsistencyRate: 2 },
            [['WFL-014', '/judgeInconsistencyRate']]
        ],
        ['an unknown property', { hardGates: {}, criteria: [ok], threshold: 70 }, [['WFL-021', '/threshold']]],
        [
            'an unknown criterion property',
            { hardGates: {}, criteria: [{ ...ok, floor: 0.5 }] },
            [['WFL-021', '/criteria/0/floor']]
        ],
        ['-0 as a weight', { hardGates: {}, criteria: [{ ...ok, weight: -0 }] }, [['WFL-012', '/criteria/0/weight']]],
        ['a huge weight', { hardGates: {}, criteria: [{ ...ok, weight: 1e16 }] }, [['WFL-012', '/criteria/0/weight']]],
        [
            'NaN as a raw score',
            { hardGates: {}, criteria: [{ ...ok, rawScore: Number.NaN }] },
            [['WFL-001', '/criteria/0/rawScore']]
        ]
    ])('rejects %s', (_name, input, expected) => {
        let result: ReturnType<typeof WorkflowRubric.evaluate> | undefined
        expect(() => {
            result = WorkflowRubric.evaluate(input as never)
        }).not.toThrow()
        expect(codes(result!.errors)).toEqual(expected)
        expect(result).toMatchObject({
            system: 'workflowSystem/1.0.0',
            passed: null,
            grade: null,
            weightedScore: null,
            placement: null
        })
    })

    it('keeps a clamp warning beside a valid result', () => {
        const result = run({ criteria: single(1.2) })
        expect(result).toMatchObject({ weightedScore: 100, grade: 'A' })
        expect(result.errors).toMatchInlineSnapshot(`
          [
            {
              "code": "WFL-WARN-001",
              "message": "Raw score 1.2 for quality is outside 0..1 and was clamped to 1",
              "path": "/criteria/0/rawScore",
              "severity": "warning",
            },
          ]
        `)
    })
})
