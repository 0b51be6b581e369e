import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JudgeRubric, type JudgeScores } from '../../src/rubrics.js'
import { JUDGE_DIMENSIONS, JUDGE_GRADE_BANDS } from '../../src/rubrics.js'

// Scores with up to three decimals, as a judge would write them, within 1–10.
const score = fc.integer({ min: 1000, max: 10000 }).map((i) => i / 1000)
const scores: fc.Arbitrary<JudgeScores> = fc.record(
    Object.fromEntries(JUDGE_DIMENSIONS.map((d) => [d, score])) as Record<keyof JudgeScores, fc.Arbitrary<number>>
)
const ids = (prefix: string) =>
    fc.array(
        fc.integer({ min: 0, max: 12 }).map((i) => `${prefix}-${i}`),
        { maxLength: 12 }
    )
const input = fc.record({
    scores,
    redFlags: ids('flag').map((list) => list.map((id) => ({ id, explanation: 'because' }))),
    bonuses: ids('bonus').map((list) => list.map((id) => ({ id })))
})
// Exotic values the input guard has to cope with.
const anything = fc.anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
    withNullPrototype: true,
    withObjectString: true,
    withBoxedValues: true
})

describe('JudgeRubric properties', () => {
    it('keeps every final score within 1.00–10.00, on two decimals, with the grade of its band', () => {
        fc.assert(
            fc.property(input, (i) => {
                const r = JudgeRubric.evaluate(i)
                expect(r.errors.filter((e) => e.severity === 'error')).toEqual([])
                const final = r.finalScore as number
                expect(final).toBeGreaterThanOrEqual(1)
                expect(final).toBeLessThanOrEqual(10)
                expect(
                    Number.isInteger(Math.round(final * 100)) && Math.abs(final * 100 - Math.round(final * 100)) < 1e-9
                ).toBe(true)
                const band = JUDGE_GRADE_BANDS.find(
                    (b) => final >= b.min && (final < b.max || (b.grade === 'A+' && final <= b.max))
                )
                expect(r.grade).toBe(band?.grade)
            })
        )
    })

    it('never deducts more than 2.00 or adds more than 1.00', () => {
        fc.assert(
            fc.property(input, (i) => {
                const r = JudgeRubric.evaluate(i)
                expect(r.deductions).toBeLessThanOrEqual(2)
                expect(r.bonuses).toBeLessThanOrEqual(1)
                expect(r.deductions).toBe(Math.min(2, new Set(i.redFlags.map((f) => f.id)).size * 0.5))
                expect(r.bonuses).toBe(Math.min(1, new Set(i.bonuses.map((b) => b.id)).size * 0.25))
            })
        )
    })

    it('never lets history change the score', () => {
        fc.assert(
            fc.property(input, fc.array(scores, { maxLength: 12 }), (i, history) => {
                const plain = JudgeRubric.evaluate(i)
                const withHistory = JudgeRubric.evaluate({ ...i, history })
                expect(withHistory.finalScore).toBe(plain.finalScore)
                expect(withHistory.report).toEqual(plain.report)
            })
        )
    })

    it('orders pairs antisymmetrically: a beats b exactly when b loses to a', () => {
        fc.assert(
            fc.property(input, input, (a, b) => {
                const ab = JudgeRubric.compare({ a, b })
                const ba = JudgeRubric.compare({ a: b, b: a })
                const mirror = { a: 'b', b: 'a', equivalent: 'equivalent' } as const
                expect(ba.winner).toBe(mirror[ab.winner as 'a' | 'b' | 'equivalent'])
                expect(ba.decidedBy).toBe(ab.decidedBy)
            })
        )
    })

    it('is deterministic: the same input gives the same bytes', () => {
        fc.assert(
            fc.property(input, (i) => {
                expect(JSON.stringify(JudgeRubric.evaluate(i))).toBe(
                    JSON.stringify(JudgeRubric.evaluate(structuredClone(i)))
                )
            })
        )
    })
})

describe('JudgeRubric entry points under fuzzing', () => {
    it.each([
        ['evaluate', (x: unknown) => JudgeRubric.evaluate(x as never)],
        ['evaluate({ scores: x })', (x: unknown) => JudgeRubric.evaluate({ scores: x } as never)],
        ['compare', (x: unknown) => JudgeRubric.compare(x as never)],
        ['compare({ a: x, b: x })', (x: unknown) => JudgeRubric.compare({ a: x, b: x } as never)],
        ['rank', (x: unknown) => JudgeRubric.rank(x as never)],
        ['rank({ evaluations: [x] })', (x: unknown) => JudgeRubric.rank({ evaluations: [x] } as never)],
        ['validateRubric', (x: unknown) => JudgeRubric.validateRubric(x as never)]
    ])('%s never throws on anything and reports an issue', (_name, call) => {
        fc.assert(
            fc.property(anything, (x) => {
                const result = call(x)
                expect(result.system).toBe('judgeSystem/1.0.0')
                expect(result.errors.length).toBeGreaterThan(0)
            }),
            { numRuns: 300 }
        )
    })
})
