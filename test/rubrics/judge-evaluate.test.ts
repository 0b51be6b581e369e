import { describe, expect, it } from 'vitest'
import { JudgeRubric } from '../../src/rubrics.js'
import { JUDGE_GRADE_BANDS, JUDGE_SYSTEM_VERSION } from '../../src/rubrics.js'
import { bonuses, codes, dims, flags, uniform } from './helpers.js'

describe('JudgeRubric.evaluate — weighted composite (seed 002 "Weighted Composite Formula")', () => {
    it.each([
        // Hand-computed: Σ scoreᵢ·weightᵢ with .25/.20/.15/.15/.10/.10/.05.
        ['all tens', dims(10, 10, 10, 10, 10, 10, 10), 10],
        ['all ones', dims(1, 1, 1, 1, 1, 1, 1), 1],
        ['the README example 9/8/9/8/7/10/9', dims(9, 8, 9, 8, 7, 10, 9), 8.55],
        ['strong work, weak safety and consistency', dims(10, 10, 10, 10, 10, 1, 1), 8.65],
        ['only consistency high', dims(1, 1, 1, 1, 1, 1, 10), 1.45],
        ['mixed 7/6/8/5/9/4/3', dims(7, 6, 8, 5, 9, 4, 3), 6.35],
        ['only correctness high', dims(10, 1, 1, 1, 1, 1, 1), 3.25],
        // 2.1 + 1.52 + 1.38 + 1.02 + 0.7 + 0.99 + 0.275 = 7.985 → half away from zero → 7.99
        ['decimals 8.4/7.6/9.2/6.8/7/9.9/5.5 (7.985)', dims(8.4, 7.6, 9.2, 6.8, 7, 9.9, 5.5), 7.99],
        // 1.55 + 1.08 + 1.065 + 1.245 + 0.96 + 0.44 + 0.11 = 6.45
        ['decimals 6.2/5.4/7.1/8.3/9.6/4.4/2.2', dims(6.2, 5.4, 7.1, 8.3, 9.6, 4.4, 2.2), 6.45]
    ])('computes the composite of %s', (_name, scores, composite) => {
        const result = JudgeRubric.evaluate({ scores })
        expect(result.errors).toEqual([])
        expect(result.compositeScore).toBe(composite)
        expect(result.finalScore).toBe(composite)
    })

    it.each([
        // uniform x → composite exactly x; rounding is half away from zero on the exact decimal.
        ['8.995 rounds up to 9.00 (binary floats give 8.99)', 8.995, 9, 'A'],
        ['8.495 rounds up to 8.50 (binary floats give 8.49)', 8.495, 8.5, 'A-'],
        ['6.495 rounds up to 6.50 (binary floats give 6.49)', 6.495, 6.5, 'C+'],
        ['9.495 rounds up to 9.50', 9.495, 9.5, 'A+'],
        ['1.005 rounds up to 1.01 (binary floats give 1.00)', 1.005, 1.01, 'F'],
        ['9.994999 rounds down to 9.99', 9.994999, 9.99, 'A+'],
        ['8.994999 rounds down to 8.99', 8.994999, 8.99, 'A-'],
        ['3.995 rounds up to 4.00', 3.995, 4, 'D'],
        ['3.994 rounds down to 3.99', 3.994, 3.99, 'F']
    ])('rounds %s', (_name, x, final, grade) => {
        const result = JudgeRubric.evaluate({ scores: uniform(x) })
        expect([result.finalScore, result.grade]).toEqual([final, grade])
    })

    it('rounds 9.5 ×6 with consistency 9.4 (composite 9.495) to 9.50, an A+, where naive floats give 9.49', () => {
        expect(JudgeRubric.evaluate({ scores: dims(9.5, 9.5, 9.5, 9.5, 9.5, 9.5, 9.4) })).toMatchObject({
            compositeScore: 9.5,
            grade: 'A+'
        })
    })
})

describe('JudgeRubric.evaluate — grade boundaries (lower bound inclusive, upper exclusive, A+ inclusive at 10.00)', () => {
    it.each([
        [10, 'A+', 'Exceptional'],
        [9.99, 'A+', 'Exceptional'],
        [9.5, 'A+', 'Exceptional'],
        [9.49, 'A', 'Excellent'],
        [9, 'A', 'Excellent'],
        [8.99, 'A-', 'Very Good'],
        [8.5, 'A-', 'Very Good'],
        [8.49, 'B+', 'Good'],
        [8, 'B+', 'Good'],
        [7.99, 'B', 'Above Average'],
        [7.5, 'B', 'Above Average'],
        [7.49, 'B-', 'Satisfactory'],
        [7, 'B-', 'Satisfactory'],
        [6.99, 'C+', 'Adequate'],
        [6.5, 'C+', 'Adequate'],
        [6.49, 'C', 'Mediocre'],
        [6, 'C', 'Mediocre'],
        [5.99, 'C-', 'Below Average'],
        [5.5, 'C-', 'Below Average'],
        [5.49, 'D+', 'Poor'],
        [5, 'D+', 'Poor'],
        [4.99, 'D', 'Very Poor'],
        [4, 'D', 'Very Poor'],
        [3.99, 'F', 'Failing'],
        [1, 'F', 'Failing']
    ])('grades %s as %s (%s)', (score, grade, label) => {
        expect(JudgeRubric.evaluate({ scores: uniform(score) })).toMatchObject({ finalScore: score, grade, label })
    })

    it('lists twelve grades that tile 1.00–10.00 without gaps', () => {
        expect(JUDGE_GRADE_BANDS.map((b) => b.grade)).toEqual([
            'A+',
            'A',
            'A-',
            'B+',
            'B',
            'B-',
            'C+',
            'C',
            'C-',
            'D+',
            'D',
            'F'
        ])
        JUDGE_GRADE_BANDS.slice(1).forEach((band, i) => expect(band.max).toBe(JUDGE_GRADE_BANDS[i]?.min))
    })
})

describe('JudgeRubric.evaluate — red-flag deductions and bonuses (seed 002 "Auto-Deductions", "Bonuses")', () => {
    it.each([
        // [composite, red flags, bonuses, deductions, bonus total, final]
        ['no adjustments', 8, 0, 0, 0, 0, 8],
        ['one red flag deducts 0.50', 8, 1, 0, 0.5, 0, 7.5],
        ['two red flags deduct 1.00', 8, 2, 0, 1, 0, 7],
        ['three red flags deduct 1.50', 8, 3, 0, 1.5, 0, 6.5],
        ['four red flags reach the 2.00 cap', 8, 4, 0, 2, 0, 6],
        ['a fifth red flag adds nothing past the cap', 8, 5, 0, 2, 0, 6],
        ['eight red flags still deduct 2.00', 8, 8, 0, 2, 0, 6],
        ['the floor of 1.00 holds after deductions', 2, 4, 0, 2, 0, 1],
        ['a composite of 1.40 with one flag floors at 1.00', 1.4, 1, 0, 0.5, 0, 1],
        ['2.00 minus 1.00 lands exactly on the floor', 2, 2, 0, 1, 0, 1],
        ['one bonus adds 0.25', 8, 0, 1, 0, 0.25, 8.25],
        ['four bonuses reach the 1.00 cap', 8, 0, 4, 0, 1, 9],
        ['a sixth bonus adds nothing past the cap', 8, 0, 6, 0, 1, 9],
        ['the ceiling of 10.00 holds after bonuses', 9.9, 0, 1, 0, 0.25, 10],
        ['four bonuses on 9.80 stop at 10.00', 9.8, 0, 4, 0, 1, 10],
        ['deductions first, then bonuses', 8, 2, 2, 1, 0.5, 7.5],
        ['bonuses are added to the floored score (max(1, c − d) + b)', 2, 4, 4, 2, 1, 2],
        ['a perfect score with four flags and four bonuses', 10, 4, 4, 2, 1, 9],
        ['a bonus lifts the minimum score', 1, 0, 1, 0, 0.25, 1.25],
        ['the cap applies to the count of unique flags', 9.5, 3, 1, 1.5, 0.25, 8.25]
    ])('%s', (_name, composite, flagCount, bonusCount, deductions, bonusTotal, final) => {
        const result = JudgeRubric.evaluate({
            scores: uniform(composite),
            redFlags: flags(flagCount),
            bonuses: bonuses(bonusCount)
        })
        expect(result.errors).toEqual([])
        expect({ deductions: result.deductions, bonuses: result.bonuses, final: result.finalScore }).toEqual({
            deductions,
            bonuses: bonusTotal,
            final
        })
    })

    it('counts a repeated red flag once and warns about it', () => {
        const result = JudgeRubric.evaluate({ scores: uniform(8), redFlags: [flags(1)[0]!, flags(1)[0]!] })
        expect(result.finalScore).toBe(7.5)
        expect(codes(result.errors)).toEqual([['JDG-WARN-001', '/redFlags/1']])
        expect(result.errors[0]?.severity).toBe('warning')
    })

    it('counts a repeated bonus once and warns about it', () => {
        const result = JudgeRubric.evaluate({ scores: uniform(8), bonuses: [{ id: 'b' }, { id: 'c' }, { id: 'b' }] })
        expect(result.finalScore).toBe(8.5)
        expect(codes(result.errors)).toEqual([['JDG-WARN-002', '/bonuses/2']])
    })

    it('marks the red flags past the cap as not counted in the report', () => {
        const report = JudgeRubric.evaluate({ scores: uniform(8), redFlags: flags(5) }).report
        expect(report?.redFlags.map((f) => [f.deduction, f.counted])).toEqual([
            [0.5, true],
            [0.5, true],
            [0.5, true],
            [0.5, true],
            [0, false]
        ])
    })
})

describe('JudgeRubric.evaluate — custom weights (seed 002 "Custom Weight Overrides")', () => {
    it.each([
        [
            'all weight on correctness',
            {
                correctness: 1,
                completeness: 0,
                adherence: 0,
                actionability: 0,
                efficiency: 0,
                safety: 0,
                consistency: 0
            },
            dims(7, 1, 1, 1, 1, 1, 1),
            7
        ],
        [
            'equal tenths with safety at 0.4',
            {
                correctness: 0.1,
                completeness: 0.1,
                adherence: 0.1,
                actionability: 0.1,
                efficiency: 0.1,
                safety: 0.4,
                consistency: 0.1
            },
            dims(5, 5, 5, 5, 5, 10, 5),
            7
        ],
        [
            'weights 0.1 + 0.2 + 0.7 sum to exactly 1',
            {
                correctness: 0.1,
                completeness: 0.2,
                adherence: 0.7,
                actionability: 0,
                efficiency: 0,
                safety: 0,
                consistency: 0
            },
            dims(10, 5, 8, 1, 1, 1, 1),
            7.6
        ],
        [
            'a sum 0.0000005 below 1 is within the tolerance',
            {
                correctness: 0.2499995,
                completeness: 0.2,
                adherence: 0.15,
                actionability: 0.15,
                efficiency: 0.1,
                safety: 0.1,
                consistency: 0.05
            },
            uniform(8),
            8
        ]
    ])('accepts %s', (_name, weights, scores, composite) => {
        const result = JudgeRubric.evaluate({ scores, weights })
        expect(result.errors).toEqual([])
        expect(result.compositeScore).toBe(composite)
        expect(result.trace[0]).toMatchObject({ step: 'weights', source: 'custom' })
    })

    it.each([
        [
            'summing to 0.9',
            {
                correctness: 0.15,
                completeness: 0.2,
                adherence: 0.15,
                actionability: 0.15,
                efficiency: 0.1,
                safety: 0.1,
                consistency: 0.05
            },
            [['JDG-007', '/weights']],
            '0.9'
        ],
        [
            'summing to 1.000002',
            {
                correctness: 0.250002,
                completeness: 0.2,
                adherence: 0.15,
                actionability: 0.15,
                efficiency: 0.1,
                safety: 0.1,
                consistency: 0.05
            },
            [['JDG-007', '/weights']],
            '1.000002'
        ]
    ])('rejects weights %s with JDG-007', (_name, weights, expected, sum) => {
        const result = JudgeRubric.evaluate({ scores: uniform(8), weights })
        expect(codes(result.errors)).toEqual(expected)
        expect(result.errors[0]?.message).toContain(`got ${sum}`)
        expect(result.finalScore).toBeNull()
    })

    it('rejects incomplete, negative and unknown weights with a path for each', () => {
        const result = JudgeRubric.evaluate({
            scores: uniform(8),
            weights: { correctness: 1.5, completeness: -0.5, speed: 0 } as never
        })
        expect(codes(result.errors)).toEqual([
            ['JDG-005', '/weights/speed'],
            ['JDG-006', '/weights/correctness'],
            ['JDG-006', '/weights/completeness'],
            ['JDG-002', '/weights/adherence'],
            ['JDG-002', '/weights/actionability'],
            ['JDG-002', '/weights/efficiency'],
            ['JDG-002', '/weights/safety'],
            ['JDG-002', '/weights/consistency']
        ])
    })
})

describe('JudgeRubric.evaluate — historical consistency (supplementary, never changes the score)', () => {
    const base = uniform(8)
    const withCorrectness = (values: number[]) => values.map((c) => ({ ...base, correctness: c }))

    it.each([
        ['no history', [], 'insufficient-history', 0],
        ['a single earlier evaluation', withCorrectness([8]), 'insufficient-history', 1],
        ['two earlier evaluations', withCorrectness([7, 9]), 'checked', 2],
        ['only the last 10 of 12 evaluations', withCorrectness([1, 1, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]), 'checked', 10]
    ])('checks %s', (_name, history, status, samples) => {
        const result = JudgeRubric.evaluate({ scores: base, history })
        expect(result.trace.at(-1)).toMatchObject({ step: 'history', status, samples, window: 10, sigma: 'sample' })
    })

    it.each([
        // correctness history 6, 7, 8: mean 7, sample σ = 1 → flag when |x − 7| > 2.
        ['exactly 2σ above the mean is not flagged', [6, 7, 8], 9, false],
        ['just past 2σ above the mean is flagged', [6, 7, 8], 9.01, true],
        ['exactly 2σ below the mean is not flagged', [6, 7, 8], 5, false],
        ['just past 2σ below the mean is flagged', [6, 7, 8], 4.99, true],
        ['at the mean is not flagged', [6, 7, 8], 7, false],
        // σ = 0: any change from a constant history deviates by more than 2·0.
        ['a change after a constant history is flagged (σ = 0)', [8, 8, 8, 8], 8.5, true],
        ['no change after a constant history is not flagged', [8, 8, 8, 8], 8, false],
        [
            'an early outlier outside the 10-evaluation window does not count',
            [1, 1, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8],
            9,
            true
        ]
    ])('%s', (_name, values, current, flagged) => {
        const result = JudgeRubric.evaluate({
            scores: { ...base, correctness: current },
            history: withCorrectness(values)
        })
        expect(result.historicalFlags.some((f) => f.dimension === 'correctness')).toBe(flagged)
    })

    it('reports mean, σ, deviation and z-score of a flagged dimension (z is null when σ = 0)', () => {
        const spread = JudgeRubric.evaluate({
            scores: { ...base, correctness: 9.01 },
            history: withCorrectness([6, 7, 8])
        })
        expect(spread.historicalFlags).toEqual([
            { dimension: 'correctness', current: 9.01, mean: 7, stdDev: 1, deviation: 2.01, zScore: 2.01, samples: 3 }
        ])
        const flat = JudgeRubric.evaluate({ scores: { ...base, correctness: 9 }, history: withCorrectness([8, 8]) })
        expect(flat.historicalFlags).toEqual([
            { dimension: 'correctness', current: 9, mean: 8, stdDev: 0, deviation: 1, zScore: null, samples: 2 }
        ])
    })

    it('never changes the score', () => {
        const without = JudgeRubric.evaluate({ scores: { ...base, correctness: 3 } })
        const withHistory = JudgeRubric.evaluate({
            scores: { ...base, correctness: 3 },
            history: withCorrectness([9, 9, 9])
        })
        expect(withHistory.historicalFlags.length).toBe(1)
        expect(withHistory.finalScore).toBe(without.finalScore)
        expect(withHistory.report).toEqual(without.report)
    })

    it('rejects an invalid history entry with its path', () => {
        const result = JudgeRubric.evaluate({ scores: base, history: [base, { ...base, safety: 11 }] })
        expect(codes(result.errors)).toEqual([['JDG-004', '/history/1/safety']])
    })
})

describe('JudgeRubric.evaluate — report and trace (seed 002 "Reporting", "Score Computation Order")', () => {
    it('lists the composite, each red flag with explanation and deduction, each bonus and the final score', () => {
        const result = JudgeRubric.evaluate({
            scores: dims(9, 8, 9, 8, 7, 10, 9),
            redFlags: [
                { id: 'no-tests', explanation: 'No tests were added for the new branch' },
                { id: 'hardcoded-path', explanation: 'A home directory path is hard-coded' }
            ],
            bonuses: [{ id: 'migration-guide', explanation: 'Ships a migration guide' }]
        })
        expect(result.report?.lines).toMatchInlineSnapshot(`
          [
            "Composite score (before adjustments): 8.55",
            "Red flag "no-tests": No tests were added for the new branch -0.50",
            "Red flag "hardcoded-path": A home directory path is hard-coded -0.50",
            "Total deductions: -1.00 -> 7.55",
            "Bonus "migration-guide": Ships a migration guide +0.25",
            "Total bonuses: +0.25 -> 7.80",
            "Final score: 7.80 (B, Above Average)",
          ]
        `)
        expect(result.report).toMatchObject({
            originalComposite: 8.55,
            totalDeduction: 1,
            scoreAfterDeductions: 7.55,
            totalBonus: 0.25,
            finalScore: 7.8
        })
    })

    it('notes the caps, the floor and the ceiling in the report text', () => {
        const floored = JudgeRubric.evaluate({ scores: uniform(2), redFlags: flags(5) })
        expect(floored.report?.lines).toMatchInlineSnapshot(`
          [
            "Composite score (before adjustments): 2.00",
            "Red flag "flag-1": Red flag number 1 -0.50",
            "Red flag "flag-2": Red flag number 2 -0.50",
            "Red flag "flag-3": Red flag number 3 -0.50",
            "Red flag "flag-4": Red flag number 4 -0.50",
            "Red flag "flag-5": Red flag number 5 -0.00 (deduction cap 2.00 reached)",
            "Total deductions: -2.00 -> 1.00 (floored at 1.00)",
            "Bonuses: none",
            "Final score: 1.00 (F, Failing)",
          ]
        `)
        const capped = JudgeRubric.evaluate({ scores: uniform(9.9), bonuses: bonuses(5) })
        expect(capped.report?.lines).toMatchInlineSnapshot(`
          [
            "Composite score (before adjustments): 9.90",
            "Red flags: none",
            "Bonus "bonus-1" +0.25",
            "Bonus "bonus-2" +0.25",
            "Bonus "bonus-3" +0.25",
            "Bonus "bonus-4" +0.25",
            "Bonus "bonus-5" +0.00 (bonus cap 1.00 reached)",
            "Total bonuses: +1.00 -> 10.00 (capped at 10.00)",
            "Final score: 10.00 (A+, Exceptional)",
          ]
        `)
    })

    it('records every step of the pipeline in order so the grade can be recomputed by hand', () => {
        const result = JudgeRubric.evaluate({
            scores: dims(9, 8, 9, 8, 7, 10, 9),
            redFlags: flags(1),
            bonuses: bonuses(1)
        })
        expect(result.trace.map((s) => s.step)).toEqual([
            'weights',
            'composite',
            'deductions',
            'bonuses',
            'clamp',
            'grade',
            'history'
        ])
        expect(result.trace[1]).toEqual({
            step: 'composite',
            terms: [
                { dimension: 'correctness', score: 9, weight: 0.25, product: 2.25 },
                { dimension: 'completeness', score: 8, weight: 0.2, product: 1.6 },
                { dimension: 'adherence', score: 9, weight: 0.15, product: 1.35 },
                { dimension: 'actionability', score: 8, weight: 0.15, product: 1.2 },
                { dimension: 'efficiency', score: 7, weight: 0.1, product: 0.7 },
                { dimension: 'safety', score: 10, weight: 0.1, product: 1 },
                { dimension: 'consistency', score: 9, weight: 0.05, product: 0.45 }
            ],
            exact: 8.55,
            rounded: 8.55
        })
        expect(result.trace[5]).toEqual({
            step: 'grade',
            score: 8.3,
            grade: 'B+',
            label: 'Good',
            min: 8,
            max: 8.5,
            maxInclusive: false
        })
    })

    it('carries the system version in every result, failed or not', () => {
        expect(JudgeRubric.evaluate({ scores: uniform(5) }).system).toBe(JUDGE_SYSTEM_VERSION)
        expect(JudgeRubric.evaluate(null as never).system).toBe('judgeSystem/1.0.0')
    })
})

describe('JudgeRubric.evaluate — bad input becomes coded issues, never a throw', () => {
    it.each([
        ['no argument', undefined, [['JDG-003', '']]],
        ['an array instead of an object', [], [['JDG-003', '']]],
        ['a string', 'scores', [['JDG-003', '']]],
        ['missing scores', {}, [['JDG-002', '/scores']]],
        ['scores as an array', { scores: [1, 2, 3] }, [['JDG-003', '/scores']]],
        ['a score as a string', { scores: { ...uniform(5), safety: '5' } }, [['JDG-003', '/scores/safety']]],
        ['NaN', { scores: { ...uniform(5), safety: Number.NaN } }, [['JDG-001', '/scores/safety']]],
        ['Infinity', { scores: { ...uniform(5), safety: Infinity } }, [['JDG-001', '/scores/safety']]],
        ['-0', { scores: { ...uniform(5), safety: -0 } }, [['JDG-008', '/scores/safety']]],
        ['a huge number', { scores: { ...uniform(5), safety: 1e300 } }, [['JDG-008', '/scores/safety']]],
        ['a score of 0', { scores: { ...uniform(5), safety: 0 } }, [['JDG-004', '/scores/safety']]],
        ['a score of 10.01', { scores: { ...uniform(5), safety: 10.01 } }, [['JDG-004', '/scores/safety']]],
        ['a missing dimension', { scores: { ...uniform(5), safety: undefined } }, [['JDG-002', '/scores/safety']]],
        ['an unknown dimension', { scores: { ...uniform(5), speed: 5 } }, [['JDG-005', '/scores/speed']]],
        [
            'a __proto__ key in the scores',
            {
                scores: JSON.parse(
                    '{"__proto__": 5, "correctness": 5, "completeness": 5, "adherence": 5, "actionability": 5, "efficiency": 5, "safety": 5, "consistency": 5}'
                )
            },
            [['JDG-005', '/scores/__proto__']]
        ],
        ['an unknown top-level property', { scores: uniform(5), redflags: [] }, [['JDG-010', '/redflags']]],
        [
            'a red flag without explanation',
            { scores: uniform(5), redFlags: [{ id: 'x' }] },
            [['JDG-002', '/redFlags/0/explanation']]
        ],
        ['a red flag as a string', { scores: uniform(5), redFlags: ['x'] }, [['JDG-003', '/redFlags/0']]],
        [
            'an empty red-flag id',
            { scores: uniform(5), redFlags: [{ id: '', explanation: 'e' }] },
            [['JDG-003', '/redFlags/0/id']]
        ],
        ['bonuses as an object', { scores: uniform(5), bonuses: { id: 'b' } }, [['JDG-003', '/bonuses']]],
        ['a class instance', { scores: new Map() }, [['JDG-001', '/scores']]],
        [
            'a cycle',
            (() => {
                const o: Record<string, unknown> = { scores: uniform(5) }
                o.history = [o]
                return o
            })(),
            [['JDG-001', '/history/0']]
        ]
    ])('rejects %s', (_name, input, expected) => {
        let result: ReturnType<typeof JudgeRubric.evaluate> | undefined
        expect(() => {
            result = JudgeRubric.evaluate(input as never)
        }).not.toThrow()
        expect(codes(result!.errors)).toEqual(expected)
        expect(result).toMatchObject({ compositeScore: null, finalScore: null, grade: null, report: null, trace: [] })
    })

    it('does not pollute Object.prototype through a __proto__ key', () => {
        JudgeRubric.evaluate(
            JSON.parse('{"scores": {"__proto__": {"polluted": true}}, "__proto__": {"polluted": true}}')
        )
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

    it('treats undefined optional members as absent', () => {
        expect(JudgeRubric.evaluate({ scores: uniform(6), weights: undefined, redFlags: undefined }).errors).toEqual([])
    })
})
