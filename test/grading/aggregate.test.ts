import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Grading, type GradingAnswer } from '../../src/index.js'
import { computeAggregate } from '../../src/grading/aggregate.js'
import { det, example, nd, withAnswers } from './helpers.js'

const groupBound = (gradings: GradingAnswer[]) =>
    withAnswers(gradings, {
        area: 'selection-aggregate',
        gradingTier: 'group-bound',
        maxAttainableGrade: 'A',
        selectionId: 'crypto'
    })

describe('Grading.computeAggregateGrade', () => {
    it('grades the spec example B with rawGrade A at a mean of exactly 4.5 (tier trim)', () => {
        const result = Grading.computeAggregateGrade({ entry: example('grading-autonomous') })
        expect(result).toMatchObject({
            aggregateGrade: 'B',
            rawGrade: 'A',
            normalizedScore: 4.5,
            maxAttainableGrade: 'B',
            noGradeReason: null,
            errors: []
        })
        expect(result.trace.map((s) => s.step)).toEqual(['answer', 'answer', 'answer', 'mean', 'band', 'trim'])
        expect(result.trace.at(-1)).toEqual({ step: 'trim', tier: 'autonomous', max: 'B', from: 'A', to: 'B' })
    })

    it('short-circuits a veto to REJECTED without aggregating (veto rule)', () => {
        const result = Grading.computeAggregateGrade({ entry: example('grading-rejected') })
        expect(result).toMatchObject({
            aggregateGrade: 'REJECTED',
            rawGrade: null,
            normalizedScore: null,
            maxAttainableGrade: 'B'
        })
        expect(result.trace).toEqual([{ step: 'veto', triggeredBy: 'api-key-domain-mismatch' }])
    })

    // Bands on the unrounded mean (⚠ A5): boundaries and the values just below them.
    it.each([
        [5, 'A'],
        [4.5, 'A'],
        [4.499999999, 'B'],
        [3.5, 'B'],
        [3.4999, 'C'],
        [2.5, 'C'],
        [2.49, 'D'],
        [1.5, 'D'],
        [1.4999, 'F'],
        [1, 'F']
    ])('bands a group-bound mean of %d as %s (bands ≥4.5 A, ≥3.5 B, ≥2.5 C, ≥1.5 D)', (score, grade) => {
        const result = Grading.computeAggregateGrade({ entry: groupBound([nd('Q-a', score)]) })
        expect(result.rawGrade).toBe(grade)
        expect(result.aggregateGrade).toBe(grade)
    })

    it('does not round the mean before banding: (4.4 + 4.59) / 2 = 4.495 is B', () => {
        expect(
            Grading.computeAggregateGrade({ entry: groupBound([nd('Q-a', 4.4), nd('Q-b', 4.59)]) }).aggregateGrade
        ).toBe('B')
    })

    it('applies weights: 5×3 and 1×1 give 4.0', () => {
        const result = Grading.computeAggregateGrade({
            entry: groupBound([nd('Q-a', 5, { weight: 3 }), nd('Q-b', 1, { weight: 1 })])
        })
        expect(result.normalizedScore).toBe(4)
        expect(result.aggregateGrade).toBe('B')
    })

    it('caps an autonomous A at B and keeps rawGrade A; a group-bound A stays A (group-bound rule for A)', () => {
        expect(Grading.computeAggregateGrade({ entry: withAnswers([nd('Q-a', 5)]) })).toMatchObject({
            aggregateGrade: 'B',
            rawGrade: 'A'
        })
        expect(Grading.computeAggregateGrade({ entry: groupBound([nd('Q-a', 5)]) })).toMatchObject({
            aggregateGrade: 'A',
            rawGrade: 'A'
        })
    })

    it('gives no grade, never a silent F, when every answer is n/a or stale (all-excluded rule)', () => {
        const result = Grading.computeAggregateGrade({
            entry: withAnswers([nd('Q-a', 'n/a', { naReason: 'requires-private-data' }), det('Q-b', 'stale')])
        })
        expect(result).toMatchObject({ aggregateGrade: null, rawGrade: null, noGradeReason: 'all-excluded' })
        expect(result.errors.map((e) => e.code)).toContain('GRD-024')
    })

    it('gives no grade when the included answers weigh 0 in total (⚠ A6)', () => {
        const result = Grading.computeAggregateGrade({ entry: withAnswers([nd('Q-a', 4, { weight: 0 })]) })
        expect(result).toMatchObject({ aggregateGrade: null, noGradeReason: 'zero-weight' })
        expect(result.errors.map((e) => e.code)).toContain('GRD-025')
    })

    it('gives no grade for an entry without answers', () => {
        expect(Grading.computeAggregateGrade({ entry: withAnswers([]) })).toMatchObject({
            aggregateGrade: null,
            noGradeReason: 'no-answers',
            errors: [{ code: 'GRD-023' }]
        })
    })

    it('warns when B or better has no non-deterministic answer (minimum-LLM rule)', () => {
        const result = Grading.computeAggregateGrade({ entry: withAnswers([det('Q-a', 'pass'), det('Q-b', 4)]) })
        expect(result.aggregateGrade).toBe('B')
        expect(result.errors).toMatchObject([{ code: 'GRD-026', severity: 'warning' }])
        expect(
            Grading.computeAggregateGrade({ entry: withAnswers([det('Q-a', 'fail'), det('Q-b', 2)]) }).errors
        ).toEqual([])
    })

    it('takes the newest answer per questionId and traces the superseded one (⚠ A9)', () => {
        const result = Grading.computeAggregateGrade({
            entry: groupBound([
                nd('Q-a', 5, { timestamp: '2026-05-30T10:00:00Z' }),
                nd('Q-a', 1, { timestamp: '2026-05-29T10:00:00Z' })
            ])
        })
        expect(result.normalizedScore).toBe(5)
        expect(result.trace[1]).toMatchObject({ step: 'answer', index: 1, outcome: 'superseded' })
        expect(result.errors.map((e) => e.code)).toEqual(['GRD-027'])
    })

    it.each([
        [
            'a human beats an llm at the same timestamp',
            { graderIdentity: { kind: 'human', name: 'a', version: '1' } },
            { graderIdentity: { kind: 'llm', name: 'z', version: '9' }, llmModel: 'm' },
            2
        ],
        [
            'an llm beats a script',
            { graderIdentity: { kind: 'llm', name: 'a', version: '1' }, llmModel: 'm' },
            { graderIdentity: { kind: 'script', name: 'z', version: '9' } },
            2
        ],
        [
            'then the greater name wins',
            { graderIdentity: { kind: 'llm', name: 'b', version: '1' }, llmModel: 'm' },
            { graderIdentity: { kind: 'llm', name: 'a', version: '9' }, llmModel: 'm' },
            2
        ],
        ['then the later position wins', {}, {}, 4]
    ])('breaks timestamp ties deterministically: %s', (_name, first, second, expected) => {
        const entry = groupBound([
            nd('Q-a', 2, first as Partial<GradingAnswer>),
            nd('Q-a', 4, second as Partial<GradingAnswer>)
        ])
        expect(Grading.computeAggregateGrade({ entry }).normalizedScore).toBe(expected)
    })

    it('keeps the carried grade of a partial entry (partial mode does not change the aggregate)', () => {
        const result = Grading.computeAggregateGrade({
            entry: withAnswers([nd('Q-a', 1)], { gradingMode: 'partial', aggregateGrade: 'B' })
        })
        expect(result).toMatchObject({
            aggregateGrade: 'B',
            rawGrade: null,
            trace: [{ step: 'mode', mode: 'partial', carried: 'B' }]
        })
    })

    it('ages a time-dependent answer to stale at read time, never to fail (aging rule)', () => {
        const entry = withAnswers([
            det('Q-api-availability', 'fail', { timestamp: '2026-05-01T00:00:00Z' }),
            nd('Q-a', 4)
        ])
        const fresh = Grading.computeAggregateGrade({ entry, now: '2026-05-15T00:00:00Z' })
        expect(fresh.normalizedScore).toBe(2.5)
        const aged = Grading.computeAggregateGrade({ entry, now: '2026-05-15T00:00:01Z' })
        expect(aged.normalizedScore).toBe(4)
        expect(aged.trace).toContainEqual(
            expect.objectContaining({ step: 'aging', questionId: 'Q-api-availability', windowDays: 14 })
        )
        expect(aged.errors.map((e) => e.code)).toContain('SCO-WARN-001')
    })

    it.each([
        [4, null, 'GRD-051'],
        [5, 'B', 'GRD-049'],
        [6, 'B', 'GRD-049'],
        [7, 'A', null]
    ])('applies the selection size thresholds: %d members → %s', (memberCount, grade, code) => {
        const result = Grading.computeAggregateGrade({ entry: groupBound([nd('Q-a', 5)]), memberCount })
        expect(result.aggregateGrade).toBe(grade)
        if (code !== null) expect(result.errors.map((e) => e.code)).toContain(code)
    })

    it('caps an about-selection or skill entry too, reading the scope its first answer records (01 §4 step 8)', () => {
        for (const area of ['about-selection', 'selection-skills-L2'] as const) {
            const entry = withAnswers([nd('Q-a', 5, { evidence: { memberNamespaces: 6, domainKnowledge: true } })], {
                area,
                gradingTier: 'group-bound',
                maxAttainableGrade: 'A',
                selectionId: 'crypto'
            })
            const result = Grading.computeAggregateGrade({ entry })
            expect(result).toMatchObject({ aggregateGrade: 'B', rawGrade: 'A' })
            expect(result.trace).toContainEqual({ step: 'selection-size', memberCount: 6, from: 'A', to: 'B' })
        }
    })

    it('gives no A without Domain-Knowledge content and records the reason in the trace (02 §8)', () => {
        const viaEvidence = Grading.computeAggregateGrade({
            entry: groupBound([nd('Q-a', 5, { evidence: { memberNamespaces: 7, domainKnowledge: false } })])
        })
        expect(viaEvidence).toMatchObject({ aggregateGrade: 'B', rawGrade: 'A', errors: [{ code: 'GRD-052' }] })
        expect(viaEvidence.trace).toContainEqual({
            step: 'domain-knowledge',
            present: false,
            from: 'A',
            to: 'B',
            reason: 'no Domain-Knowledge content (selection About): no A (02-areas §8)'
        })
        expect(
            Grading.computeAggregateGrade({ entry: groupBound([nd('Q-a', 5)]), memberCount: 7, domainKnowledge: false })
                .aggregateGrade
        ).toBe('B')
        expect(
            Grading.computeAggregateGrade({ entry: groupBound([nd('Q-a', 5)]), memberCount: 7, domainKnowledge: true })
                .aggregateGrade
        ).toBe('A')
        // A provider entry is never selection-side: the flag does not apply.
        expect(
            Grading.computeAggregateGrade({ entry: example('grading-autonomous'), domainKnowledge: false }).trace.some(
                (t) => t.step === 'domain-knowledge'
            )
        ).toBe(false)
    })

    it('rejects a broken answer instead of dropping it', () => {
        const result = Grading.computeAggregateGrade({ entry: withAnswers([nd('Q-a', 6)]) })
        expect(result).toMatchObject({
            aggregateGrade: null,
            errors: [{ code: 'SCO-001', path: '/entry/gradings/0/score' }]
        })
    })

    it.each([
        [{ entry: undefined }, 'GRD-001'],
        [{ entry: [] }, 'GRD-002'],
        [{ entry: { gradingTier: 'solo', gradings: [] } }, 'GRD-003'],
        [{ entry: { gradingTier: 'autonomous' } }, 'GRD-001'],
        [{ entry: { gradingTier: 'autonomous', gradings: 'x' } }, 'GRD-002'],
        [{ entry: example('grading-autonomous'), now: 'yesterday' }, 'GRD-046'],
        [{ entry: example('grading-autonomous'), memberCount: -1 }, 'GRD-002'],
        [{ entry: example('grading-autonomous'), domainKnowledge: 'no' }, 'GRD-002']
    ])('rejects bad input %# with %s', (input, code) => {
        expect(Grading.computeAggregateGrade(input as never).errors[0]?.code).toBe(code)
    })

    it('never exceeds the tier maximum (property)', () => {
        const score = fc.oneof(
            fc.double({ min: 1, max: 5, noNaN: true }),
            fc.constantFrom('pass', 'fail', 'n/a', 'stale')
        )
        fc.assert(
            fc.property(fc.array(score, { minLength: 1, maxLength: 12 }), fc.boolean(), (scores, grouped) => {
                const answers = scores.map((s, i) =>
                    nd(`Q-${i}`, s, s === 'n/a' ? { naReason: 'requires-private-data' } : {})
                )
                const entry = grouped ? groupBound(answers) : withAnswers(answers)
                const { aggregateGrade } = Grading.computeAggregateGrade({ entry })
                if (!grouped) expect(aggregateGrade).not.toBe('A')
                expect([null, 'A', 'B', 'C', 'D', 'F']).toContain(aggregateGrade)
            })
        )
    })

    it('is unchanged by n/a answers (property)', () => {
        fc.assert(
            fc.property(
                fc.array(fc.double({ min: 1, max: 5, noNaN: true }), { minLength: 1, maxLength: 8 }),
                fc.nat(5),
                (scores, extra) => {
                    const base = scores.map((s, i) => nd(`Q-${i}`, s))
                    const padded = [
                        ...base,
                        ...Array.from({ length: extra }, (_, i) =>
                            nd(`Q-na-${i}`, 'n/a', { naReason: 'out-of-scope-prompt' })
                        )
                    ]
                    const a = Grading.computeAggregateGrade({ entry: groupBound(base) })
                    const b = Grading.computeAggregateGrade({ entry: groupBound(padded) })
                    expect(b.normalizedScore).toBe(a.normalizedScore)
                    expect(b.aggregateGrade).toBe(a.aggregateGrade)
                }
            )
        )
    })

    it('never throws on arbitrary entries (fuzz)', () => {
        fc.assert(
            fc.property(fc.anything(), fc.anything(), (entry, now) => {
                const result = Grading.computeAggregateGrade({ entry, now: now as string })
                expect(Array.isArray(result.errors)).toBe(true)
            })
        )
    })
})

describe('computeAggregate without a trace', () => {
    it('gives the same grade, figures and issues as the traced aggregation, with an empty trace (property)', () => {
        const score = fc.oneof(
            fc.double({ min: 1, max: 5, noNaN: true }),
            fc.constantFrom('pass', 'fail', 'n/a', 'stale')
        )
        fc.assert(
            fc.property(
                fc.array(fc.tuple(fc.nat(4), score, fc.boolean()), { minLength: 0, maxLength: 8 }),
                fc.boolean(),
                (rows, grouped) => {
                    const ids = ['Q-api-availability', 'Q-tos-match', 'Q-a', 'Q-b', 'Q-c']
                    const answers = rows.map(([q, s, llm]) =>
                        llm ? nd(ids[q] as string, s as never) : det(ids[q] as string, s as never)
                    )
                    const entry = grouped ? groupBound(answers) : withAnswers(answers)
                    const traced = computeAggregate(entry, { now: '2027-06-01T00:00:00Z' })
                    const lean = computeAggregate(entry, { now: '2027-06-01T00:00:00Z' }, false)
                    expect(lean.trace).toEqual([])
                    expect({ ...lean, trace: traced.trace }).toEqual(traced)
                }
            )
        )
    })

    it('still reports a broken answer as an error', () => {
        const lean = computeAggregate(withAnswers([nd('Q-a', 7 as never)]), {}, false)
        expect(lean.aggregateGrade).toBeNull()
        expect(lean.errors.map((e) => e.code)).toContain('SCO-001')
    })
})
