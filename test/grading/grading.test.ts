import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Grading, validateGradingEntry, type GradingEntry } from '../../src/index.js'
import { catalogueEntry, det, example, nd } from './helpers.js'

const base = {
    schemaId: 'etherscan.getBalance',
    area: 'single-test',
    version: 'flowmcp/4.0.0',
    schemaHash: 'a1b2c3d4',
    gradingMode: 'full',
    now: '2026-05-29T10:00:00.500Z'
} as const

describe('Grading.createEntry', () => {
    it('builds a draft with the tier derived from the area and the library versions', () => {
        const { entry, errors } = Grading.createEntry(base)
        expect(errors).toEqual([])
        expect(entry).toEqual({
            gradingId: 'a1b2c3d4--2026-05-29T10-00-00Z',
            schemaId: 'etherscan.getBalance',
            area: 'single-test',
            version: 'flowmcp/4.0.0',
            schemaHash: 'a1b2c3d4',
            gradingMode: 'full',
            gradingTier: 'autonomous',
            harness: 'claude-code',
            scoringSystem: 'scoringSystem/1.0.0',
            gradingSystem: 'gradingSystem/1.0.0',
            gradings: [],
            categoricalVeto: null,
            aggregateGrade: null,
            maxAttainableGrade: 'B'
        })
    })

    it('builds a complete, valid entry when answers are given', () => {
        const { entry, aggregate } = Grading.createEntry({
            ...base,
            gradings: [det('Q-api-availability', 'pass'), nd('Q-when-to-use', 4)]
        })
        expect(entry?.aggregateGrade).toBe('B')
        expect(aggregate?.rawGrade).toBe('A')
        expect(validateGradingEntry({ entry })).toMatchObject({ valid: true, entry, errors: [] })
    })

    it('derives group-bound and max A for a selection area', () => {
        // Every selection-aggregate question answered 5 or pass (the helper builds it with createEntry).
        const entry = catalogueEntry('selection-aggregate', 5)
        expect(entry).toMatchObject({ gradingTier: 'group-bound', maxAttainableGrade: 'A', aggregateGrade: 'A' })
    })

    it.each([
        ['a tier that contradicts the area (S2)', { gradingTier: 'group-bound' }, 'GRD-012'],
        [
            'a group-bound area without selectionId',
            { area: 'selection-aggregate', persona: { basePersonaId: 'ai-engineer', lensId: 'x' } },
            'GRD-004'
        ],
        ['a persona-bound area without persona', { area: 'about-namespace', aboutHash: 'b1c2d3e4' }, 'GRD-021'],
        [
            'a per-skill area without skillId',
            { area: 'namespace-skills', persona: { basePersonaId: 'ai-engineer', lensId: 'x' } },
            'GRD-037'
        ],
        ['a partial entry without the last full grade (⚠ A15)', { gradingMode: 'partial' }, 'GRD-028'],
        ['an invalid answer', { gradings: [nd('Q-when-to-use', 9)] }, 'SCO-001'],
        ['a bad schemaHash', { schemaHash: 'XYZ' }, 'GRD-002'],
        ['a missing now', { now: undefined }, 'GRD-001'],
        ['an unknown area', { area: 'everything' }, 'GRD-002']
    ])('refuses %s', (_name, patch, code) => {
        const result = Grading.createEntry({ ...base, ...patch } as never)
        expect(result.entry).toBeNull()
        expect(result.errors.map((e) => e.code)).toContain(code)
    })

    it('carries the last full grade into a partial entry', () => {
        const { entry } = Grading.createEntry({
            ...base,
            gradingMode: 'partial',
            previousFullGrade: 'C',
            gradings: [nd('Q-when-to-use', 5)]
        })
        expect(entry?.aggregateGrade).toBe('C')
    })
})

describe('Grading.addGrading', () => {
    it('returns a new entry with the answer and a recomputed grade, leaving the input alone', () => {
        const draft = Grading.createEntry(base).entry as GradingEntry
        const step1 = Grading.addGrading({ entry: draft, grading: det('Q-api-availability', 'pass') })
        const step2 = Grading.addGrading({ entry: step1.entry, grading: nd('Q-when-to-use', 4) })
        expect(draft.gradings).toHaveLength(0)
        expect(step1.entry?.aggregateGrade).toBe('B')
        expect(step1.errors.map((e) => e.code)).toEqual(['GRD-026'])
        expect(step2.entry?.gradings).toHaveLength(2)
        expect(validateGradingEntry({ entry: step2.entry }).valid).toBe(true)
    })

    it.each([
        ['a score out of range', nd('Q-when-to-use', 0), 'SCO-001', '/grading/score'],
        [
            'a non-deterministic answer without personas',
            nd('Q-when-to-use', 3, { selectionContext: undefined }),
            'GRD-005',
            '/grading/selectionContext'
        ],
        [
            'an llm answer without llmModel',
            nd('Q-when-to-use', 3, { llmModel: undefined }),
            'GRD-007',
            '/grading/llmModel'
        ],
        [
            'a reference-style answer',
            { dimension: 'apiAvailability', score: 'pass', determinism: 'deterministic' },
            'GRD-044',
            '/grading/dimension'
        ],
        ['not an object', 'pass', 'GRD-002', '/grading']
    ])('rejects %s with a path under /grading', (_name, grading, code, path) => {
        const draft = Grading.createEntry(base).entry
        const result = Grading.addGrading({ entry: draft, grading: JSON.parse(JSON.stringify(grading)) })
        expect(result.entry).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('rejects a missing entry', () => {
        expect(Grading.addGrading({ grading: det('Q-api-availability', 'pass') }).errors[0]?.code).toBe('GRD-001')
        expect(
            Grading.addGrading({ entry: { gradings: 1 }, grading: det('Q-api-availability', 'pass') }).errors[0]?.code
        ).toBe('GRD-002')
    })
})

describe('Grading.checkAging', () => {
    const entry = {
        ...example('grading-autonomous'),
        gradings: [
            det('Q-api-availability', 'pass', { timestamp: '2026-01-01T00:00:00Z' }),
            det('Q-tos-match', 'pass', { timestamp: '2026-01-01T00:00:00Z' }),
            nd('Q-when-to-use', 4, { timestamp: '2026-01-01T00:00:00Z' })
        ]
    }

    it.each([
        ['2026-01-15T00:00:00Z', []],
        ['2026-01-15T00:00:01Z', ['Q-api-availability']],
        ['2026-01-31T00:00:01Z', ['Q-api-availability', 'Q-tos-match']]
    ])('at %s marks %j stale (API 14 days, ToS 30 days, strictly greater)', (now, aged) => {
        const result = Grading.checkAging({ entry, now })
        expect(result.agedQuestions.map((q) => q.questionId)).toEqual(aged)
        for (const id of aged) expect(result.entry?.gradings.find((g) => g.questionId === id)?.score).toBe('stale')
        expect(result.entry?.gradings[2]?.score).toBe(4)
    })

    it('never turns an aged answer into fail and never touches the input (stale, not fail)', () => {
        const result = Grading.checkAging({ entry, now: '2026-06-01T00:00:00Z' })
        expect(result.entry?.gradings.map((g) => g.score)).toEqual(['stale', 'stale', 4])
        expect(entry.gradings[0]?.score).toBe('pass')
    })

    it('flags an entry past the retention window once (RETENTION_DAYS 180)', () => {
        const result = Grading.checkAging({ entry, now: '2026-06-30T00:00:01Z' })
        expect(result.retentionExceeded).toBe(true)
        expect(result.errors.filter((e) => e.code === 'GRD-WARN-001')).toHaveLength(1)
    })

    it('honours explicit aging windows', () => {
        const result = Grading.checkAging({
            entry,
            now: '2026-01-03T00:00:00Z',
            agingDefaults: { API_DAYS: 1, TOS_DAYS: 30, RETENTION_DAYS: 180 }
        })
        expect(result.agedQuestions.map((q) => q.questionId)).toEqual(['Q-api-availability'])
    })

    it.each([
        [{ entry, now: undefined }, 'GRD-001'],
        [{ entry, now: '2026-02-30T00:00:00Z' }, 'GRD-046'],
        [{ entry: 'x', now: '2026-01-01T00:00:00Z' }, 'GRD-002']
    ])('rejects bad input %#', (input, code) => {
        expect(Grading.checkAging(input as never).errors[0]?.code).toBe(code)
    })
})

describe('Grading.applyRegradingTrigger', () => {
    const old = example('grading-autonomous')

    it('writes a new entry linked by previousGradingId and never mutates the old one', () => {
        const frozen = JSON.stringify(old)
        const { newEntry, errors } = Grading.applyRegradingTrigger({
            entry: old,
            triggeredBy: 'user-report',
            reportedIssue: 'tool returns 500',
            requestedBy: 'user-42',
            now: '2026-06-01T12:00:00Z'
        })
        expect(JSON.stringify(old)).toBe(frozen)
        expect(newEntry?.regradingTrigger).toEqual({
            triggeredBy: 'user-report',
            reportedIssue: 'tool returns 500',
            requestedBy: 'user-42',
            previousGradingId: old.gradingId,
            timestamp: '2026-06-01T12:00:00Z'
        })
        expect(newEntry?.gradingId).toBe('a1b2c3d4--2026-06-01T12-00-00Z')
        expect(newEntry?.gradings).toEqual([])
        expect(errors).toMatchObject([{ code: 'GRD-INFO-001', severity: 'info' }])
    })

    it('re-aggregates the same answers on a grading-system bump', () => {
        const { newEntry } = Grading.applyRegradingTrigger({
            entry: old,
            triggeredBy: 'grading-system-bump',
            now: '2026-06-01T12:00:00Z'
        })
        expect(newEntry?.gradings).toEqual(old.gradings)
        expect(newEntry?.aggregateGrade).toBe('B')
        expect(validateGradingEntry({ entry: newEntry }).valid).toBe(true)
    })

    it.each([
        [{ entry: old, triggeredBy: 'whim', now: '2026-06-01T12:00:00Z' }, 'GRD-010'],
        [{ entry: old, triggeredBy: 'user-report', now: '2026-06-01T12:00:00Z' }, 'GRD-001'],
        [{ entry: { ...old, gradingId: '' }, triggeredBy: 'scheduled', now: '2026-06-01T12:00:00Z' }, 'GRD-006'],
        [{ entry: old, triggeredBy: 'scheduled', now: 1 }, 'GRD-046'],
        [{ triggeredBy: 'scheduled' }, 'GRD-001']
    ])('rejects bad input %#', (input, code) => {
        const result = Grading.applyRegradingTrigger(input as never)
        expect(result.newEntry).toBeNull()
        expect(result.errors.map((e) => e.code)).toContain(code)
    })
})

describe('Grading.readEntry', () => {
    it('reads a spec entry from text unchanged', () => {
        const text = JSON.stringify(example('grading-autonomous'))
        expect(Grading.readEntry({ json: text })).toEqual({
            entry: example('grading-autonomous'),
            legacy: false,
            mapped: [],
            errors: []
        })
    })

    it('normalises an entry written by the reference implementation and reports each mapping', () => {
        const legacy = {
            schemaId: 'etherscan.getBalance',
            selectionId: undefined,
            gradingTier: 'autonomous',
            grader: { kind: 'llm', name: 'claude-opus-4-7', version: '1m', llmModel: 'claude-opus-4-7' },
            gradings: [
                {
                    dimension: 'apiAvailability',
                    score: 'pass',
                    determinism: 'deterministic',
                    recordedAt: '2026-05-29T10:00:00Z',
                    httpStatus: 200,
                    workingTests: 3,
                    area: 'single-test'
                },
                {
                    dimension: 'whenToUse',
                    score: 4,
                    determinism: 'non-deterministic',
                    recordedAt: '2026-05-29T10:00:00Z',
                    selectionContext: { groupId: 'crypto', personaIds: ['decision-maker'] }
                }
            ],
            categoricalVeto: null,
            aggregateGrade: 'B',
            maxAttainableGrade: 'B',
            previousGradingId: null,
            createdAt: '2026-05-29T10:00:00Z',
            updatedAt: '2026-05-29T10:00:00Z',
            options: {},
            area: 'single-test',
            schemaHash: 'a1b2c3d4',
            version: 'flowmcp/4.0.0',
            grade: 'B',
            rawGrade: 'A',
            normalizedScore: 4.5
        }
        const result = Grading.readEntry({ json: JSON.stringify(legacy) })
        expect(result.legacy).toBe(true)
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.entry?.gradings[0]).toEqual({
            questionId: 'Q-api-availability',
            score: 'pass',
            determinism: 'deterministic',
            timestamp: '2026-05-29T10:00:00Z',
            weight: 1,
            graderIdentity: { kind: 'llm', name: 'claude-opus-4-7', version: '1m' },
            llmModel: 'claude-opus-4-7',
            evidence: { httpStatus: 200, workingTests: 3 }
        })
        expect(result.entry?.gradingId).toBe('a1b2c3d4--2026-05-29T10-00-00Z')
        expect(result.mapped.map((m) => m.from)).toEqual(
            expect.arrayContaining(['grader', 'dimension', 'recordedAt', 'createdAt', 'rawGrade'])
        )
        expect(result.errors.filter((e) => e.code === 'GRD-029').length).toBe(result.mapped.length)
    })

    it('says precisely why a legacy entry cannot be normalised (CLI shape with a neutral persona)', () => {
        const cli = {
            schemaId: 'demoapi',
            gradingTier: 'autonomous',
            grader: { kind: 'llm', name: 'x', version: '1', llmModel: 'm' },
            gradings: [
                {
                    dimension: 'Q-single-test-04',
                    score: 4,
                    determinism: 'non-deterministic',
                    selectionContext: { personaIds: ['neutral'] }
                }
            ],
            categoricalVeto: null,
            aggregateGrade: 'B',
            maxAttainableGrade: 'B',
            createdAt: '2026-05-29T10:00:00Z',
            gradingMode: 'full',
            persona: 'neutral'
        }
        const result = Grading.readEntry({ json: cli })
        expect(result.entry).toBeNull()
        const codes = result.errors.filter((e) => e.severity === 'error').map((e) => `${e.code} ${e.path}`)
        expect(codes).toEqual(
            expect.arrayContaining([
                'GRD-009 /schemaId',
                'GRD-001 /area',
                'GRD-001 /version',
                'GRD-001 /gradings/0/selectionContext/groupId'
            ])
        )
    })

    it.each([
        [undefined, 'GRD-001'],
        ['{"a":', 'GRD-020'],
        ['['.repeat(100) + ']'.repeat(100), 'INP-002'],
        ['42', 'GRD-002']
    ])('rejects %j', (json, code) => {
        const result = Grading.readEntry({ json })
        expect(result.entry).toBeNull()
        expect(result.errors[0]?.code).toBe(code)
    })
})

describe('Grading.formatGradingFilename / parseGradingFilename', () => {
    it.each([
        [{ area: 'single-test', timestamp: '2026-05-29T10-00-00Z' }, 'single-test--2026-05-29T10-00-00Z.json'],
        [
            {
                area: 'about-namespace',
                basePersona: 'ai-engineer',
                lens: 'crypto',
                timestamp: '2026-05-29T10:00:00.999Z'
            },
            'about-namespace--ai-engineer--crypto--2026-05-29T10-00-00Z.json'
        ],
        [
            {
                area: 'selection-skills-L1',
                basePersona: 'decision-maker',
                lens: 'defi-risk',
                timestamp: '2026-05-29T10:00:00+02:00'
            },
            'selection-skills-L1--decision-maker--defi-risk--2026-05-29T08-00-00Z.json'
        ]
    ])('formats and parses back %j', (input, filename) => {
        expect(Grading.formatGradingFilename(input)).toEqual({ filename, errors: [] })
        const { parts } = Grading.parseGradingFilename({ filename })
        expect(parts?.area).toBe(input.area)
        expect(parts?.lens ?? null).toBe((input as { lens?: string }).lens ?? null)
    })

    it.each([
        [{ area: 'single-tests', timestamp: '2026-05-29T10-00-00Z' }, 'GRD-043'],
        [{ area: 'single-test', timestamp: '2026-05-29' }, 'GRD-041'],
        [{ area: 'single-test', basePersona: 'ai-engineer', timestamp: '2026-05-29T10-00-00Z' }, 'GRD-042'],
        [{ area: 'single-test', basePersona: 'ai--engineer', lens: 'x', timestamp: '2026-05-29T10-00-00Z' }, 'GRD-042'],
        [{ area: 'single-test', basePersona: '../x', lens: 'y', timestamp: '2026-05-29T10-00-00Z' }, 'GRD-042'],
        [{ timestamp: '2026-05-29T10-00-00Z' }, 'GRD-001']
    ])('rejects %j', (input, code) => {
        expect(Grading.formatGradingFilename(input)).toMatchObject({ filename: null, errors: [{ code }] })
    })

    it.each([
        'single-test--2026-05-29T10-00-00Z.json.tmp',
        '.single-test--2026-05-29T10-00-00Z.json',
        'single-test--2026-02-30T10-00-00Z.json',
        'readme.md',
        'single-test--x--2026-05-29T10-00-00Z.json'
    ])('does not parse %s', (filename) => {
        expect(Grading.parseGradingFilename({ filename })).toMatchObject({ parts: null, errors: [{ code: 'GRD-041' }] })
    })

    it('round-trips any valid parts (property)', () => {
        const segment = fc.stringMatching(/^[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,4}){0,2}$/)
        fc.assert(
            fc.property(
                fc.constantFrom('single-test', 'namespace-skills', 'selection-skills-L3', 'about-selection'),
                fc.option(fc.tuple(segment, segment), { nil: undefined }),
                fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
                (area, persona, date) => {
                    const input = {
                        area,
                        timestamp: date.toISOString(),
                        ...(persona ? { basePersona: persona[0], lens: persona[1] } : {})
                    }
                    const { filename } = Grading.formatGradingFilename(input)
                    const { parts } = Grading.parseGradingFilename({ filename })
                    expect(parts).toEqual({
                        area,
                        basePersona: persona?.[0] ?? null,
                        lens: persona?.[1] ?? null,
                        timestamp: date
                            .toISOString()
                            .replace(/\.\d{3}Z$/, 'Z')
                            .replace(/:/g, '-')
                    })
                }
            )
        )
    })
})

describe('Grading.validateEntry', () => {
    it('is validateGradingEntry', () => {
        expect(Grading.validateEntry({ entry: example('grading-rejected') }).valid).toBe(true)
        expect(Grading.validateEntry({ entry: {} }).valid).toBe(false)
    })
})
