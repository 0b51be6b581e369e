import { describe, expect, it } from 'vitest'
import { ScoringProtocol, validateGradingEntry } from '../../src/index.js'
import { EMIT, SCHEMA_SOURCE, SCORES } from './fixtures.js'

// A registry entry in the public registry's shape (numbers of a real one, no reasoning texts).
const registry = {
    schemaId: 'brightsky/bright-sky',
    schemaPath: 'schemas/v4.0.0/providers/brightsky/bright-sky.mjs',
    grade: 'A',
    score: 4.75,
    date: '2026-05-18',
    scoringProtocol: 'v1',
    schemaHash: 'sha256:b61d1abce8f409502d8ebfafd40b40c33cb6e540d3805d1be13c61f62c1189f9',
    dimensions: [
        { dimension: 'whenToUse', score: 4.5, reasoning: 'Names the source and the scope.' },
        { dimension: 'parameters', score: 5, reasoning: 'Every parameter has an example.' }
    ],
    validationPassed: true,
    termsOfService: null,
    termsOfServiceCheckedAt: null
}

function libraryReport(): Record<string, unknown> {
    const { prompts } = ScoringProtocol.emitPrompts(EMIT)
    const built = ScoringProtocol.buildReport({
        prompts,
        scores: SCORES,
        schemaSource: SCHEMA_SOURCE,
        validation: { passed: true, errors: [] },
        now: '2026-05-18T03:16:00Z'
    })
    return built.report as unknown as Record<string, unknown>
}

describe('ScoringProtocol.validateReport (library and registry v1 reports)', () => {
    it('recognises the public registry shape and the library report', () => {
        expect(ScoringProtocol.validateReport({ report: registry })).toMatchObject({
            valid: true,
            kind: 'registry',
            errors: []
        })
        expect(ScoringProtocol.validateReport({ report: libraryReport() })).toMatchObject({
            valid: true,
            kind: 'library',
            errors: []
        })
        expect(ScoringProtocol.validateReport({ text: JSON.stringify(registry) }).valid).toBe(true)
    })

    it.each([
        ['a score that is not the mean of the dimensions (05 §2.1)', { score: 4.8 }, 'SPV-018', '/score'],
        ['a grade outside the band of the score', { grade: 'B' }, 'SPV-019', '/grade'],
        ['a passing grade although validation failed (F, 05 §2.1)', { validationPassed: false }, 'SPV-019', '/grade'],
        ['a hash that is not sha256 of the raw file', { schemaHash: 'b61d1abc' }, 'SPV-002', '/schemaHash'],
        ['a dot id', { schemaId: 'brightsky.bright-sky' }, 'SPV-002', '/schemaId'],
        ['no dimensions', { dimensions: [] }, 'SPV-002', '/dimensions'],
        [
            'a dimension listed twice',
            { dimensions: [registry.dimensions[0], registry.dimensions[0]], score: 4.5, grade: 'A' },
            'SPV-006',
            '/dimensions/1/dimension'
        ],
        ['a missing grade', { grade: undefined }, 'SPV-001', '/grade']
    ])('refuses %s', (_name, change, code, path) => {
        const result = ScoringProtocol.validateReport({
            report: JSON.parse(JSON.stringify({ ...registry, ...change }))
        })
        expect(result.valid).toBe(false)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('refuses what is not a report at all, without throwing', () => {
        for (const report of [null, 42, 'x', [], { a: 1 }])
            expect(ScoringProtocol.validateReport({ report }).valid).toBe(false)
        expect(ScoringProtocol.validateReport({ text: '{ not json' }).errors[0]?.code).toMatch(/^INP-/)
    })
})

describe('ScoringProtocol.reportToGradingEntry (the three conversions)', () => {
    const grader = { name: 'registry', version: 'v1', llmModel: 'unknown' }

    it('turns a registry report into a valid tools-aggregate-schema entry: dot id, flowmcp/ version, 8-hex hash', () => {
        const { entry, kind, errors } = ScoringProtocol.reportToGradingEntry({
            report: registry,
            version: 'v4.0.0',
            grader
        })
        expect(errors).toEqual([])
        expect(kind).toBe('registry')
        expect(entry).toMatchObject({
            schemaId: 'brightsky.bright-sky',
            version: 'flowmcp/4.0.0',
            schemaHash: 'b61d1abc',
            area: 'tools-aggregate-schema',
            aggregateGrade: 'B'
        })
        expect(entry?.gradings.map((g) => [g.questionId, g.score])).toEqual([
            ['Q-schema-structure', 'pass'],
            ['Q-when-to-use', 4.5],
            ['Q-parameters', 5]
        ])
        expect(validateGradingEntry({ entry }).valid).toBe(true)
    })

    it('takes the grader from the harness of a library report', () => {
        const { entry, kind } = ScoringProtocol.reportToGradingEntry({ report: libraryReport(), version: '4.2.0' })
        expect(kind).toBe('library')
        expect(entry?.gradings.find((g) => g.questionId === 'Q-when-to-use')).toMatchObject({
            llmModel: 'claude-opus-4-7'
        })
    })

    it('needs a grader for a registry report and a readable version', () => {
        expect(ScoringProtocol.reportToGradingEntry({ report: registry, version: 'v4.0.0' }).errors).toContainEqual(
            expect.objectContaining({ code: 'SPV-001', path: '/grader' })
        )
        expect(
            ScoringProtocol.reportToGradingEntry({ report: registry, version: '3.1', grader }).errors
        ).toContainEqual(expect.objectContaining({ code: 'SPV-002', path: '/version' }))
        expect(
            ScoringProtocol.reportToGradingEntry({ report: { ...registry, grade: 'C' }, version: 'v4.0.0', grader })
                .entry
        ).toBeNull()
    })
})
