import { describe, expect, it } from 'vitest'
import { JudgeRubric, type JudgeEvaluateInput } from '../../src/rubrics.js'
import { bonuses, codes, dims, flags, uniform } from './helpers.js'

// Pairs built so that the final scores tie and exactly one rule separates them (hand-computed).
const cases: Array<[string, JudgeEvaluateInput, JudgeEvaluateInput, string]> = [
    [
        'the higher final score wins first',
        { scores: dims(9, 8, 9, 8, 7, 10, 9) },
        { scores: uniform(8.5) },
        'finalScore'
    ],
    // 0.25·0.4 = 0.10 on correctness vs 0.20·0.5 = 0.10 on completeness: both 8.10.
    [
        'correctness breaks a tie of final scores',
        { scores: dims(8.4, 8, 8, 8, 8, 8, 8) },
        { scores: dims(8, 8.5, 8, 8, 8, 8, 8) },
        'correctness'
    ],
    // safety 9 / efficiency 8 vs safety 8 / efficiency 9: same weight 0.10, both 8.10.
    [
        'safety comes right after correctness',
        { scores: dims(8, 8, 8, 8, 8, 9, 8) },
        { scores: dims(8, 8, 8, 8, 9, 8, 8) },
        'safety'
    ],
    // completeness +0.75·0.20 = 0.15 vs adherence +1·0.15 = 0.15.
    [
        'completeness comes after safety',
        { scores: dims(8, 8.75, 8, 8, 8, 8, 8) },
        { scores: dims(8, 8, 9, 8, 8, 8, 8) },
        'completeness'
    ],
    [
        'actionability comes before adherence',
        { scores: dims(8, 8, 8, 9, 8, 8, 8) },
        { scores: dims(8, 8, 9, 8, 8, 8, 8) },
        'actionability'
    ],
    // adherence +0.4·0.15 = 0.06 vs efficiency +0.6·0.10 = 0.06.
    [
        'adherence comes before efficiency',
        { scores: dims(8, 8, 8.4, 8, 8, 8, 8) },
        { scores: dims(8, 8, 8, 8, 8.6, 8, 8) },
        'adherence'
    ],
    // efficiency +0.5·0.10 = 0.05 vs consistency +1·0.05 = 0.05.
    [
        'efficiency comes before consistency',
        { scores: dims(8, 8, 8, 8, 8.5, 8, 8) },
        { scores: dims(8, 8, 8, 8, 8, 8, 9) },
        'efficiency'
    ],
    // 8.05 vs 8.045, which rounds to 8.05: the finals tie, consistency 9 beats 8.9.
    [
        'consistency decides when rounding makes the finals equal',
        { scores: dims(8, 8, 8, 8, 8, 8, 9) },
        { scores: dims(8, 8, 8, 8, 8, 8, 8.9) },
        'consistency'
    ],
    // Both at the 2.00 cap: 6.00 each, four flags beat five.
    [
        'fewer red flags win when the cap makes deductions equal',
        { scores: uniform(8), redFlags: flags(4) },
        { scores: uniform(8), redFlags: flags(5) },
        'fewerRedFlags'
    ],
    [
        'fewer red flags win when the floor makes finals equal',
        { scores: uniform(1), redFlags: flags(1) },
        { scores: uniform(1), redFlags: flags(2) },
        'fewerRedFlags'
    ],
    [
        'more bonuses win when the cap makes bonuses equal',
        { scores: uniform(8), bonuses: bonuses(6) },
        { scores: uniform(8), bonuses: bonuses(4) },
        'moreBonuses'
    ],
    [
        'more bonuses win when the ceiling makes finals equal',
        { scores: uniform(10), bonuses: bonuses(2) },
        { scores: uniform(10), bonuses: bonuses(1) },
        'moreBonuses'
    ]
]

describe('JudgeRubric.compare — the tie-breaking order of seed 002', () => {
    it.each(cases)('%s', (_name, a, b, rule) => {
        expect(JudgeRubric.compare({ a, b })).toMatchObject({ winner: 'a', decidedBy: rule, errors: [] })
        expect(JudgeRubric.compare({ a: b, b: a })).toMatchObject({ winner: 'b', decidedBy: rule, errors: [] })
    })

    it('declares identical evaluations equivalent after looking at all ten rules', () => {
        const result = JudgeRubric.compare({
            a: { scores: uniform(7), redFlags: flags(1) },
            b: { scores: uniform(7), redFlags: [{ id: 'other', explanation: 'x' }] }
        })
        expect(result).toMatchObject({ system: 'judgeSystem/1.0.0', winner: 'equivalent', decidedBy: null })
        expect(result.steps.map((s) => s.rule)).toEqual([
            'finalScore',
            'correctness',
            'safety',
            'completeness',
            'actionability',
            'adherence',
            'efficiency',
            'consistency',
            'fewerRedFlags',
            'moreBonuses'
        ])
    })

    it('shows the values it compared up to the deciding rule', () => {
        expect(JudgeRubric.compare({ a: cases[2]![1], b: cases[2]![2] }).steps).toEqual([
            { rule: 'finalScore', a: 8.1, b: 8.1 },
            { rule: 'correctness', a: 8, b: 8 },
            { rule: 'safety', a: 9, b: 8 }
        ])
    })

    it('reports issues of either side under /a or /b and decides nothing', () => {
        const result = JudgeRubric.compare({
            a: { scores: { ...uniform(5), safety: 0 } },
            b: { scores: uniform(5), weights: [] as never }
        })
        expect(codes(result.errors)).toEqual([
            ['JDG-004', '/a/scores/safety'],
            ['JDG-003', '/b/weights']
        ])
        expect(result).toMatchObject({ winner: null, decidedBy: null, steps: [] })
    })

    it.each([
        ['missing b', { a: { scores: uniform(5) } }, [['JDG-002', '/b']]],
        ['an array for a', { a: [], b: { scores: uniform(5) } }, [['JDG-003', '/a']]],
        ['an unknown property', { a: { scores: uniform(5) }, b: { scores: uniform(5) }, c: 1 }, [['JDG-010', '/c']]]
    ])('rejects %s', (_name, input, expected) => {
        expect(codes(JudgeRubric.compare(input as never).errors)).toEqual(expected)
    })
})

describe('JudgeRubric.rank', () => {
    it('ranks best first, shares a rank between equivalent evaluations and names the deciding rule', () => {
        const result = JudgeRubric.rank({
            evaluations: [
                { scores: uniform(7) },
                { scores: dims(8.4, 8, 8, 8, 8, 8, 8) },
                { scores: uniform(7) },
                { scores: dims(8, 8.5, 8, 8, 8, 8, 8) },
                { scores: uniform(9.6) }
            ]
        })
        expect(result.errors).toEqual([])
        expect(result.ranking).toEqual([
            { index: 4, rank: 1, finalScore: 9.6, grade: 'A+', decidedBy: null },
            { index: 1, rank: 2, finalScore: 8.1, grade: 'B+', decidedBy: 'finalScore' },
            { index: 3, rank: 3, finalScore: 8.1, grade: 'B+', decidedBy: 'correctness' },
            { index: 0, rank: 4, finalScore: 7, grade: 'B-', decidedBy: 'finalScore' },
            { index: 2, rank: 4, finalScore: 7, grade: 'B-', decidedBy: 'equivalent' }
        ])
    })

    it('ranks a single evaluation first', () => {
        expect(JudgeRubric.rank({ evaluations: [{ scores: uniform(3) }] }).ranking).toEqual([
            { index: 0, rank: 1, finalScore: 3, grade: 'F', decidedBy: null }
        ])
    })

    it.each([
        ['an empty list', { evaluations: [] }, [['JDG-003', '/evaluations']]],
        ['a missing list', {}, [['JDG-002', '/evaluations']]],
        [
            'a bad evaluation',
            { evaluations: [{ scores: uniform(5) }, { scores: { ...uniform(5), safety: 12 } }] },
            [['JDG-004', '/evaluations/1/scores/safety']]
        ],
        ['an array in place of an evaluation', { evaluations: [[]] }, [['JDG-003', '/evaluations/0']]]
    ])('rejects %s', (_name, input, expected) => {
        const result = JudgeRubric.rank(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result.ranking).toBeNull()
    })
})

describe('JudgeRubric.validateRubric', () => {
    const valid = {
        system: 'judgeSystem/1.0.0',
        rubric_id: 'code-review',
        version: 2,
        weights: {
            correctness: 0.3,
            completeness: 0.2,
            adherence: 0.1,
            actionability: 0.15,
            efficiency: 0.1,
            safety: 0.1,
            consistency: 0.05
        },
        red_flags: [{ id: 'secrets', description: 'Credentials committed to the repository' }],
        bonuses: [{ id: 'benchmarks', description: 'Adds a benchmark for the hot path' }]
    }

    it('accepts a complete judge rubric document', () => {
        expect(JudgeRubric.validateRubric({ rubric: valid })).toEqual({
            system: 'judgeSystem/1.0.0',
            valid: true,
            errors: []
        })
    })

    it.each([
        [
            'weights that do not sum to 1',
            { ...valid, weights: { ...valid.weights, correctness: 0.4 } },
            [['JDG-007', '/rubric/weights']]
        ],
        [
            'a repeated red-flag id',
            { ...valid, red_flags: [...valid.red_flags, ...valid.red_flags] },
            [['JDG-009', '/rubric/red_flags/1/id']]
        ],
        ['a missing rubric_id', { ...valid, rubric_id: undefined }, [['JDG-002', '/rubric/rubric_id']]],
        ['a fractional version', { ...valid, version: 1.5 }, [['JDG-003', '/rubric/version']]],
        ['another system', { ...valid, system: 'judgeSystem/2.0.0' }, [['JDG-003', '/rubric/system']]],
        ['an unknown property', { ...valid, redFlags: [] }, [['JDG-010', '/rubric/redFlags']]],
        ['a bonus list of strings', { ...valid, bonuses: ['x'] }, [['JDG-003', '/rubric/bonuses/0']]]
    ])('rejects %s', (_name, rubric, expected) => {
        const result = JudgeRubric.validateRubric({ rubric })
        expect(result.valid).toBe(false)
        expect(codes(result.errors)).toEqual(expected)
    })

    it('rejects a missing or non-object rubric', () => {
        expect(codes(JudgeRubric.validateRubric({} as never).errors)).toEqual([['JDG-002', '/rubric']])
        expect(codes(JudgeRubric.validateRubric({ rubric: [] }).errors)).toEqual([['JDG-003', '/rubric']])
    })
})
