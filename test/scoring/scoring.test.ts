import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Scoring } from '../../src/index.js'

describe('Scoring.validateScore', () => {
    it.each([1, 1.0, 3.7, 5, 'pass', 'fail', 'stale', 'n/a'])('accepts %j', (score) => {
        expect(Scoring.validateScore({ score })).toEqual({ valid: true, errors: [] })
    })

    it.each([
        [0.99, 'SCO-001'],
        [5.0001, 'SCO-001'],
        [-0, 'SCO-001'],
        [Number.NaN, 'SCO-001'],
        [Number.POSITIVE_INFINITY, 'SCO-001'],
        [1e308, 'SCO-001'],
        ['3.0', 'SCO-005'],
        [' 4 ', 'SCO-005'],
        ['PASS', 'SCO-003'],
        ['', 'SCO-003'],
        [true, 'GRD-002'],
        [[5], 'GRD-002'],
        [{}, 'GRD-002'],
        [undefined, 'GRD-001'],
        [null, 'GRD-001']
    ])('rejects %j with %s (ch. 07 score scale)', (score, code) => {
        const result = Scoring.validateScore({ score })
        expect(result.valid).toBe(false)
        expect(result.errors).toMatchObject([{ code, path: '/score' }])
    })
})

describe('Scoring.toNumeric', () => {
    it.each([
        ['pass', 5, null],
        ['fail', 1, null],
        [3.25, 3.25, null],
        ['n/a', null, 'n/a'],
        ['stale', null, 'stale']
    ])('maps %j to %j (excluded: %j) — n/a and stale are never coerced', (score, value, excluded) => {
        expect(Scoring.toNumeric({ score })).toEqual({ value, excluded, errors: [] })
    })

    it('returns no value for an invalid score', () => {
        expect(Scoring.toNumeric({ score: 7 })).toMatchObject({
            value: null,
            excluded: null,
            errors: [{ code: 'SCO-001' }]
        })
    })
})

describe('Scoring.computeWeightedMean', () => {
    it.each([
        [
            'pass and 4 → 4.5',
            [
                { score: 'pass', weight: 1 },
                { score: 4, weight: 1 }
            ],
            4.5,
            2
        ],
        [
            'weights shift the mean',
            [
                { score: 5, weight: 3 },
                { score: 1, weight: 1 }
            ],
            4,
            4
        ],
        [
            'fail counts as 1',
            [
                { score: 'fail', weight: 1 },
                { score: 3, weight: 1 }
            ],
            2,
            2
        ],
        [
            'weight 0 contributes nothing',
            [
                { score: 5, weight: 0 },
                { score: 2, weight: 2 }
            ],
            2,
            2
        ]
    ])('%s', (_name, gradings, mean, weightSum) => {
        const result = Scoring.computeWeightedMean({ gradings })
        expect(result.mean).toBeCloseTo(mean, 12)
        expect(result.weightSum).toBe(weightSum)
        expect(result.errors).toEqual([])
    })

    it('counts n/a and stale as excluded, not as numbers', () => {
        const result = Scoring.computeWeightedMean({
            gradings: [
                { score: 'n/a', weight: 1 },
                { score: 'stale', weight: 5 },
                { score: 2, weight: 1 }
            ]
        })
        expect(result).toEqual({ mean: 2, weightSum: 1, included: 1, excluded: { na: 1, stale: 1 }, errors: [] })
    })

    it('has no mean when everything is excluded or weightless', () => {
        expect(Scoring.computeWeightedMean({ gradings: [{ score: 'n/a', weight: 1 }] }).mean).toBeNull()
        expect(Scoring.computeWeightedMean({ gradings: [{ score: 3, weight: 0 }] }).mean).toBeNull()
        expect(Scoring.computeWeightedMean({ gradings: [] }).mean).toBeNull()
    })

    it('refuses to compute over a broken answer instead of dropping it', () => {
        const result = Scoring.computeWeightedMean({
            gradings: [{ score: 5, weight: 1 }, { score: 9, weight: 1 }, { score: 3 }, null]
        })
        expect(result.mean).toBeNull()
        expect(result.errors.map((e) => `${e.code} ${e.path}`)).toEqual([
            'SCO-001 /gradings/1/score',
            'GRD-001 /gradings/2/weight',
            'GRD-002 /gradings/3'
        ])
    })

    it.each([
        [undefined, 'GRD-001'],
        ['x', 'GRD-002'],
        [{ length: 1 }, 'GRD-002']
    ])('rejects gradings %j', (gradings, code) => {
        expect(Scoring.computeWeightedMean({ gradings }).errors[0]?.code).toBe(code)
    })

    it('is unchanged by adding n/a or stale answers (property)', () => {
        const answer = fc.record({
            score: fc.oneof(fc.double({ min: 1, max: 5, noNaN: true }), fc.constantFrom('pass', 'fail')),
            weight: fc.double({ min: 0.01, max: 10, noNaN: true })
        })
        const excluded = fc.record({
            score: fc.constantFrom('n/a', 'stale'),
            weight: fc.double({ min: 0, max: 10, noNaN: true })
        })
        fc.assert(
            fc.property(fc.array(answer, { minLength: 1 }), fc.array(excluded), fc.nat(), (included, extra, seed) => {
                const mixed: Array<{ score: unknown; weight: number }> = [...included]
                extra.forEach((e, i) => mixed.splice((seed + i) % (mixed.length + 1), 0, e))
                expect(Scoring.computeWeightedMean({ gradings: mixed }).mean).toBe(
                    Scoring.computeWeightedMean({ gradings: included }).mean
                )
            })
        )
    })

    it('never throws on arbitrary input (fuzz)', () => {
        fc.assert(
            fc.property(fc.anything(), (gradings) => {
                const result = Scoring.computeWeightedMean({ gradings })
                expect(result.mean === null || (result.mean >= 1 && result.mean <= 5)).toBe(true)
            })
        )
    })
})
