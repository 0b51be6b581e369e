import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
    evaluateRubricInput,
    validateRubricDocument,
    WorkflowRubric,
    type WorkflowCriterionInput,
    type WorkflowGrade
} from '../../src/rubrics.js'

const ORDER: WorkflowGrade[] = ['A', 'B', 'C', 'D', 'F']
const decimal = (min: number, max: number, places = 3) =>
    fc.integer({ min: min * 10 ** places, max: max * 10 ** places }).map((i) => (i === 0 ? 0 : i / 10 ** places))
const counts = fc
    .record({ wins: fc.nat(50), losses: fc.nat(50), ties: fc.nat(50) })
    .filter((c) => c.wins + c.losses + c.ties > 0)
const tests = fc
    .nat(200)
    .chain((total) => fc.record({ passed: fc.integer({ min: 0, max: total + 1 }), total: fc.constant(total + 1) }))
const slo = fc
    .tuple(decimal(0, 100), decimal(0, 100))
    .filter(([g, b]) => b > g)
    .map(([good, bad]) => ({ good, bad }))

/** Every formula with a raw value from its domain. */
const normalisable = fc.oneof(
    fc.record({ formulaId: fc.constant('binary' as const), rawScore: fc.constantFrom(0, 1) }),
    fc.record({ formulaId: fc.constant('likert-1-5' as const), rawScore: decimal(1, 5) }),
    fc.record({ formulaId: fc.constant('likert-neg2-2' as const), rawScore: decimal(-2, 2) }),
    fc.record({ formulaId: fc.constant('pairwise-ties' as const), rawScore: counts }),
    fc.record({ formulaId: fc.constant('lower-is-better' as const), rawScore: decimal(0, 200), params: slo }),
    fc.record({ formulaId: fc.constant('clamp-0-1' as const), rawScore: decimal(-1, 2) }),
    fc.record({ formulaId: fc.constantFrom('swe-fail-to-pass' as const, 'swe-pass-to-pass' as const), rawScore: tests })
)

const criteria = fc
    .array(
        fc.record({
            n: normalisable,
            weight: decimal(0, 1, 2),
            category: fc.constantFrom(
                undefined,
                'correctness' as const,
                'safety' as const,
                'validation' as const,
                'other' as const
            ),
            floor: fc.option(decimal(0, 1, 2), { nil: undefined })
        }),
        { minLength: 1, maxLength: 6 }
    )
    .filter((list) => list.some((c) => c.weight > 0))
    .map((list) =>
        list.map(
            (c, i): WorkflowCriterionInput =>
                ({
                    name: `c${i}`,
                    ...c.n,
                    weight: c.weight,
                    ...(c.category === undefined ? {} : { category: c.category }),
                    ...(c.floor === undefined ? {} : { criticalFloor: c.floor })
                }) as WorkflowCriterionInput
        )
    )
const gates = fc.dictionary(fc.constantFrom('g1', 'g2', 'g3'), fc.boolean())
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

describe('WorkflowRubric properties', () => {
    it('normalisers map their whole domain into [0, 1]', () => {
        fc.assert(
            fc.property(normalisable, (input) => {
                const r = WorkflowRubric.normalize(input as never)
                expect(r.errors.filter((e) => e.severity === 'error')).toEqual([])
                expect(r.normalized).toBeGreaterThanOrEqual(0)
                expect(r.normalized).toBeLessThanOrEqual(1)
                if (r.adjusted !== null) {
                    expect(r.adjusted).toBeGreaterThanOrEqual(0)
                    expect(r.adjusted).toBeLessThanOrEqual(1)
                }
            })
        )
    })

    it('keeps the weighted score within 0..100 on two decimals and grades by its band', () => {
        fc.assert(
            fc.property(gates, criteria, (hardGates, list) => {
                const r = WorkflowRubric.evaluate({ hardGates, criteria: list })
                const score = r.weightedScore as number
                expect(score).toBeGreaterThanOrEqual(0)
                expect(score).toBeLessThanOrEqual(100)
                expect(Math.abs(score * 100 - Math.round(score * 100))).toBeLessThan(1e-7)
                const band = score >= 90 ? 'A' : score >= 80 ? 'B' : score >= 70 ? 'C' : score >= 60 ? 'D' : 'F'
                expect(r.provisionalGrade).toBe(band)
            })
        )
    })

    it('never lets a floor raise a grade, and never passes a run with a failed gate or floor', () => {
        fc.assert(
            fc.property(gates, criteria, (hardGates, list) => {
                const withFloors = WorkflowRubric.evaluate({ hardGates, criteria: list })
                const stripped = list.map(
                    ({ criticalFloor: _f, category: _c, ...rest }) => rest as WorkflowCriterionInput
                )
                const without = WorkflowRubric.evaluate({ hardGates, criteria: stripped })
                expect(ORDER.indexOf(withFloors.grade as WorkflowGrade)).toBeGreaterThanOrEqual(
                    ORDER.indexOf(without.grade as WorkflowGrade)
                )
                expect(withFloors.weightedScore).toBe(without.weightedScore)
                if (withFloors.gateFailures.length > 0)
                    expect([withFloors.grade, withFloors.passed]).toEqual(['F', false])
                if (withFloors.floorFailures.length > 0) expect(withFloors.passed).toBe(false)
            })
        )
    })

    it('gives the same bytes for the same report seed', () => {
        fc.assert(
            fc.property(
                fc.array(fc.record({ hardGates: gates, criteria }), { minLength: 1, maxLength: 8 }),
                fc.nat(1000),
                (runs, seed) => {
                    const a = WorkflowRubric.report({ runs, seed, resamples: 200 })
                    const b = WorkflowRubric.report({ runs: structuredClone(runs), seed, resamples: 200 })
                    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
                    const ci = a.report?.weightedScore.ci95
                    if (ci) expect(ci.lower).toBeLessThanOrEqual(ci.upper)
                }
            ),
            { numRuns: 50 }
        )
    })

    it('mirrors the pairwise order in the swapped pass for any seed', () => {
        fc.assert(
            fc.property(
                fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 20 }),
                fc.nat(),
                (pairs, seed) => {
                    const r = WorkflowRubric.pairwiseOrder({ pairs, seed })
                    expect(r.errors).toEqual([])
                    for (const o of r.orders ?? []) expect(o.swapped.first).toBe(o.forward.second)
                }
            )
        )
    })
})

describe('Workflow and dispatcher entry points under fuzzing', () => {
    it.each([
        ['evaluate', (x: unknown) => WorkflowRubric.evaluate(x as never)],
        [
            'evaluate({ hardGates: {}, criteria: [x] })',
            (x: unknown) => WorkflowRubric.evaluate({ hardGates: {}, criteria: [x] } as never)
        ],
        ['normalize', (x: unknown) => WorkflowRubric.normalize(x as never)],
        ['adjust', (x: unknown) => WorkflowRubric.adjust(x as never)],
        ['profile', (x: unknown) => WorkflowRubric.profile(x as never)],
        ['compare', (x: unknown) => WorkflowRubric.compare(x as never)],
        ['pairwiseOrder', (x: unknown) => WorkflowRubric.pairwiseOrder(x as never)],
        ['adjudicatePairwise', (x: unknown) => WorkflowRubric.adjudicatePairwise(x as never)],
        ['report', (x: unknown) => WorkflowRubric.report(x as never)],
        ['report({ runs: [x] })', (x: unknown) => WorkflowRubric.report({ runs: [x] } as never)],
        ['promote', (x: unknown) => WorkflowRubric.promote(x as never)],
        ['validateRubric', (x: unknown) => WorkflowRubric.validateRubric(x as never)],
        ['validateRubric({ rubric: x })', (x: unknown) => WorkflowRubric.validateRubric({ rubric: x })],
        ['evaluateRubricInput', (x: unknown) => evaluateRubricInput(x as never)],
        ['evaluateRubricInput({ input: x })', (x: unknown) => evaluateRubricInput({ input: x })],
        ['validateRubricDocument', (x: unknown) => validateRubricDocument(x as never)],
        ['validateRubricDocument({ document: x })', (x: unknown) => validateRubricDocument({ document: x })]
    ])('%s never throws on anything and reports an issue', (_name, call) => {
        fc.assert(
            fc.property(anything, (x) => {
                const result = call(x) as { errors: readonly unknown[] }
                expect(result.errors.length).toBeGreaterThan(0)
            }),
            { numRuns: 300 }
        )
    })
})
