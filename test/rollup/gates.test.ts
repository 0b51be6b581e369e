import { describe, expect, it } from 'vitest'
import { PreConditionCheck, StablePromotion } from '../../src/index.js'
import { STABLE_THRESHOLD } from '../../src/catalogue.js'

const lock = (members: unknown) => ({
    index: {
        indexVersion: 2,
        selectionId: 'defi-core',
        lockSnapshot: { selectionId: 'defi-core', generatedAt: '2026-06-01T10-00-00Z', members }
    }
})

describe('PreConditionCheck.check (ch. 21: all members stable)', () => {
    it('passes when every frozen member is stable', () => {
        const res = PreConditionCheck.check(
            lock([
                { schemaId: 'a.b', gradingStatus: 'stable' },
                { schemaId: 'c.d', gradingStatus: 'stable' }
            ])
        )
        expect(res).toEqual({ passed: true, blockedMembers: [], missingSingleGradings: [], errors: [] })
    })

    it('lists every member that is not stable, graded and rejected included (PRE-004)', () => {
        const res = PreConditionCheck.check(
            lock([
                { schemaId: 'a.b', gradingStatus: 'graded' },
                { schemaId: 'c.d', gradingStatus: 'pending' },
                { schemaId: 'e.f' },
                { schemaId: 'g.h', gradingStatus: 'stable' }
            ])
        )
        expect(res.passed).toBe(false)
        expect(res.missingSingleGradings).toEqual(['a.b', 'c.d', 'e.f'])
        expect(res.blockedMembers).toEqual([
            { schemaId: 'a.b', gradingStatus: 'graded', missingGrading: false },
            { schemaId: 'c.d', gradingStatus: 'pending', missingGrading: true },
            { schemaId: 'e.f', gradingStatus: null, missingGrading: true }
        ])
        expect(res.errors).toMatchObject([
            { code: 'PRE-004', message: 'Pre-Condition not met: missing stable single-gradings: a.b, c.d, e.f' }
        ])
    })

    it('reads only the frozen lockSnapshot, never the live members', () => {
        const index = {
            ...lock([{ schemaId: 'a.b', gradingStatus: 'stable' }]).index,
            members: { 'a.b': { status: 'pending', reason: 'x', resolvedArtifact: null } }
        }
        expect(PreConditionCheck.check({ index }).passed).toBe(true)
    })

    it('passes an empty member list with PRE-WARN-001', () => {
        expect(PreConditionCheck.check(lock([]))).toMatchObject({
            passed: true,
            errors: [{ code: 'PRE-WARN-001', severity: 'warning' }]
        })
    })

    it.each([
        { input: {}, code: 'PRE-001' },
        { input: { index: 'x' }, code: 'PRE-003' },
        { input: { index: { indexVersion: 2 } }, code: 'PRE-002' },
        { input: { index: { lockSnapshot: [] } }, code: 'PRE-003' },
        { input: { index: { lockSnapshot: { members: {} } } }, code: 'PRE-003' },
        { input: lock([{ gradingStatus: 'stable' }]), code: 'PRE-003' }
    ])('fails closed on unusable input with $code', ({ input, code }) => {
        expect(PreConditionCheck.check(input)).toMatchObject({ passed: false, errors: [{ code }] })
    })
})

describe('StablePromotion.checkEligibility', () => {
    it('uses B as the spec threshold (A/B ⇒ stable)', () => {
        expect(STABLE_THRESHOLD).toBe('B')
    })

    it.each([
        { entries: [{ gradingMode: 'full', aggregateGrade: 'B' }], reason: 'ok', nodeStatus: 'stable', eligible: true },
        {
            entries: [{ gradingMode: 'full', aggregateGrade: 'C' }],
            reason: 'below-threshold',
            nodeStatus: 'graded',
            eligible: false
        },
        {
            entries: [{ gradingMode: 'full', aggregateGrade: 'REJECTED' }],
            reason: 'rejected',
            nodeStatus: 'rejected',
            eligible: false
        },
        { entries: [], reason: 'no-gradings', nodeStatus: 'pending', eligible: false },
        {
            entries: [{ gradingMode: 'partial', aggregateGrade: 'A' }],
            reason: 'no-full-grading',
            nodeStatus: 'pending',
            eligible: false
        },
        {
            entries: [
                { gradingMode: 'full', aggregateGrade: 'C' },
                { gradingMode: 'partial', aggregateGrade: 'A' }
            ],
            reason: 'below-threshold',
            nodeStatus: 'graded',
            eligible: false
        },
        {
            entries: [
                { gradingMode: 'full', aggregateGrade: 'B' },
                { gradingMode: 'partial', aggregateGrade: 'B' }
            ],
            reason: 'ok',
            nodeStatus: 'stable',
            eligible: true
        }
    ])(
        'promotes to stable only through a full grading at or above the threshold ($reason)',
        ({ entries, reason, nodeStatus, eligible }) => {
            expect(StablePromotion.checkEligibility({ entries, threshold: 'B' })).toMatchObject({
                reason,
                nodeStatus,
                eligible
            })
        }
    )

    it('applies a stricter threshold when asked', () => {
        expect(
            StablePromotion.checkEligibility({
                entries: [{ gradingMode: 'full', aggregateGrade: 'B' }],
                threshold: 'A'
            })
        ).toMatchObject({ eligible: false, errors: [{ code: 'STB-WARN-002' }] })
    })

    it.each([
        { input: { threshold: 'B' }, code: 'STB-001' },
        { input: { entries: {}, threshold: 'B' }, code: 'STB-002' },
        { input: { entries: [], threshold: 'S' }, code: 'STB-003' }
    ])('rejects bad arguments with $code', ({ input, code }) => {
        expect(StablePromotion.checkEligibility(input)).toMatchObject({
            reason: 'invalid-input',
            nodeStatus: null,
            errors: [{ code }]
        })
    })
})
