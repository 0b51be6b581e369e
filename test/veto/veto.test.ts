import { describe, expect, it } from 'vitest'
import { Grading, Veto, validateGradingEntry } from '../../src/index.js'
import { VETO_TRIGGERS } from '../../src/catalogue.js'
import { example } from '../grading/helpers.js'

const grader = { kind: 'script', name: 'api-key-domain-checker', version: '0.1.0' }
const veto = {
    triggeredBy: 'api-key-domain-mismatch',
    graderIdentity: grader,
    evidence: 'FACEBOOK_API_KEY on example.xyz',
    timestamp: '2026-05-29T10:00:00Z'
}

describe('Veto.getTriggers', () => {
    it('lists the closed trigger list in spec order', () => {
        expect(Veto.getTriggers().triggers).toEqual([
            'malicious-module',
            'api-key-domain-mismatch',
            'illegal-content',
            'ai-security-veto'
        ])
    })

    it('cannot be extended at runtime (closed trigger list)', () => {
        Veto.getTriggers().triggers.push('vibes' as never)
        expect(Veto.getTriggers().triggers).toHaveLength(4)
        expect(() => (VETO_TRIGGERS as unknown as string[]).push('vibes')).toThrow()
        expect(Veto.validateVeto({ veto: { ...veto, triggeredBy: 'vibes' } }).errors.map((e) => e.code)).toEqual([
            'VET-001'
        ])
    })
})

describe('Veto.validateVeto', () => {
    it('accepts a complete record', () => {
        expect(Veto.validateVeto({ veto })).toEqual({ valid: true, errors: [] })
    })

    it.each([
        ['an unknown trigger', { triggeredBy: 'x' }, 'VET-001', '/veto/triggeredBy'],
        ['no evidence', { evidence: undefined }, 'VET-002', '/veto/evidence'],
        ['blank evidence', { evidence: '   ' }, 'VET-002', '/veto/evidence'],
        [
            'ai-security-veto without reasoning (needs evidence and reasoning)',
            { triggeredBy: 'ai-security-veto' },
            'VET-003',
            '/veto/reasoning'
        ],
        [
            'ai-security-veto with blank reasoning',
            { triggeredBy: 'ai-security-veto', reasoning: ' ' },
            'VET-003',
            '/veto/reasoning'
        ],
        ['no graderIdentity', { graderIdentity: undefined }, 'VET-004', '/veto/graderIdentity'],
        ['a bad timestamp', { timestamp: '2026-05-29T10-00-00Z' }, 'VET-005', '/veto/timestamp'],
        ['an unknown field', { severity: 'high' }, 'VET-006', '/veto/severity'],
        ['a bad grader kind', { graderIdentity: { ...grader, kind: 'robot' } }, 'GRD-010', '/veto/graderIdentity/kind']
    ])('rejects %s', (_name, patch, code, path) => {
        const result = Veto.validateVeto({ veto: JSON.parse(JSON.stringify({ ...veto, ...patch })) })
        expect(result.valid).toBe(false)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('collects every defect at once', () => {
        expect(Veto.validateVeto({ veto: { triggeredBy: 'ai-security-veto' } }).errors.map((e) => e.code)).toEqual([
            'VET-004',
            'VET-002',
            'VET-003',
            'VET-005'
        ])
    })

    it('rejects a missing or non-object veto', () => {
        expect(Veto.validateVeto({}).errors[0]?.code).toBe('GRD-001')
        expect(Veto.validateVeto({ veto: 'x' }).errors[0]?.code).toBe('GRD-002')
    })
})

describe('Veto.applyVeto', () => {
    it('returns a new REJECTED entry that validates, leaving the input alone', () => {
        const entry = example('grading-autonomous')
        const result = Veto.applyVeto({ entry, ...veto })
        expect(result.errors).toEqual([])
        expect(result.entry).toMatchObject({ aggregateGrade: 'REJECTED', categoricalVeto: veto })
        expect(entry.categoricalVeto).toBeNull()
        expect(validateGradingEntry({ entry: result.entry }).valid).toBe(true)
        expect(Grading.computeAggregateGrade({ entry: result.entry }).aggregateGrade).toBe('REJECTED')
    })

    it('does not overwrite an existing veto', () => {
        expect(
            Veto.applyVeto({ entry: example('grading-rejected'), ...veto, triggeredBy: 'illegal-content' })
        ).toMatchObject({ entry: null, errors: [{ code: 'GRD-045' }] })
    })

    it('rejects an invalid record or entry', () => {
        expect(
            Veto.applyVeto({ entry: example('grading-autonomous'), ...veto, evidence: '' }).errors.map(
                (e) => `${e.code} ${e.path}`
            )
        ).toEqual(['VET-002 /evidence'])
        expect(Veto.applyVeto({ ...veto }).errors[0]?.code).toBe('GRD-001')
    })
})

describe('Veto.isVetoed', () => {
    it('reports the trigger of a vetoed entry', () => {
        expect(Veto.isVetoed({ entry: example('grading-rejected') })).toEqual({
            vetoed: true,
            triggeredBy: 'api-key-domain-mismatch',
            errors: []
        })
        expect(Veto.isVetoed({ entry: example('grading-autonomous') })).toEqual({
            vetoed: false,
            triggeredBy: null,
            errors: []
        })
    })

    it('rejects a non-object', () => {
        expect(Veto.isVetoed({ entry: 3 }).errors[0]?.code).toBe('GRD-002')
    })
})
