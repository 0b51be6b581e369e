import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Artifacts } from '../src/index.js'

const text = readFileSync(new URL('./fixtures/entries/valid/grading-autonomous.json', import.meta.url), 'utf8')

describe('Artifacts.detect', () => {
    it('recognises a grading entry', () => {
        expect(Artifacts.detect({ value: JSON.parse(text) })).toEqual({ kind: 'grading-entry', errors: [] })
    })

    it.each([[null], [[]], [{ hello: 1 }], ['x']])('says unknown for %j', (value) => {
        expect(Artifacts.detect({ value })).toMatchObject({ kind: 'unknown', errors: [{ code: 'ART-001' }] })
    })
})

describe('Artifacts.validate', () => {
    it('parses and validates text of a detected kind', () => {
        expect(Artifacts.validate({ json: text })).toEqual({ kind: 'grading-entry', valid: true, errors: [] })
    })

    it('rejects an unknown explicit kind, bad text and non-JSON values', () => {
        expect(Artifacts.validate({ json: text, kind: 'nope' }).errors[0]?.code).toBe('ART-002')
        expect(Artifacts.validate({ json: '{' }).errors[0]?.code).toBe('INP-004')
        expect(Artifacts.validate({ json: { f: () => 1 } }).errors[0]?.code).toBe('INP-001')
    })

    it('lists its kinds', () => {
        expect(Artifacts.kinds().kinds).toContain('grading-entry')
    })
})

describe('Artifacts.validate (every kind)', () => {
    it.each([
        ['index', { indexVersion: 2, status: 'nope' }],
        ['scores-v1', { schemaIdSlug: 'a_b', scoringProtocol: 'v9', scores: [] }],
        ['prompts-v1', { schemaIdSlug: 'a_b', scoringProtocol: 'v1', prompts: [] }],
        ['prompts-v2', { taskId: 'x', flow: 'provider', areas: [] }],
        ['area-output', { area: 'single-test', answers: [] }]
    ])('detects a %s and reports its defects with document paths', (kind, value) => {
        const result = Artifacts.validate({ json: value })
        expect(result.kind).toBe(kind)
        expect(result.valid).toBe(false)
        expect(result.errors.length).toBeGreaterThan(0)
        for (const issue of result.errors) expect(issue.path === '' || issue.path.startsWith('/')).toBe(true)
    })

    it('accepts a blocker reply as a valid area output', () => {
        expect(Artifacts.validate({ json: { blocker: 'schema.mjs', reason: 'missing' } })).toMatchObject({
            kind: 'area-output',
            valid: true
        })
    })
})

describe('Artifacts: v1 grade reports', () => {
    const registryEntry = {
        schemaId: 'nagerdate/nager-date',
        schemaPath: 'schemas/v4.0.0/providers/nagerdate/nager-date.mjs',
        grade: 'A',
        score: 4.8,
        date: '2026-05-18',
        scoringProtocol: 'v1',
        schemaHash: 'sha256:aae43b0e1c119a0868c95e8e60bab04e26b799ffc93d035772126e0a633c407f',
        dimensions: [
            { dimension: 'whenToUse', score: 4.8, reasoning: 'r' },
            { dimension: 'parameters', score: 4.8, reasoning: 'r' }
        ],
        validationPassed: true
    }

    it('detects and validates a registry report as report-v1', () => {
        expect(Artifacts.validate({ json: JSON.stringify(registryEntry) })).toEqual({
            kind: 'report-v1',
            valid: true,
            errors: []
        })
    })

    it('reports an inconsistent report with a code and a path', () => {
        expect(Artifacts.validate({ json: JSON.stringify({ ...registryEntry, grade: 'C' }) })).toMatchObject({
            kind: 'report-v1',
            valid: false,
            errors: [{ code: 'SPV-019', path: '/grade' }]
        })
    })
})
