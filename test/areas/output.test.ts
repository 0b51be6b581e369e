import { describe, expect, it } from 'vitest'
import { Areas } from '../../src/index.js'
import { AREAS } from '../../src/model/constants.js'
import { validOutput } from './helpers.js'

const answersWith = (area: string, index: number, patch: Record<string, unknown>): unknown[] =>
    (validOutput(area).answers as Array<Record<string, unknown>>).map((a, i) => (i === index ? { ...a, ...patch } : a))

describe('Areas.validateOutput', () => {
    it.each([...AREAS])('accepts a complete %s envelope', (area) => {
        const result = Areas.validateOutput({ area, output: validOutput(area) })
        expect(result.errors).toEqual([])
        expect(result).toMatchObject({ valid: true, kind: 'envelope', blocker: null })
        expect(result.output?.area).toBe(area)
    })

    it('recognises a { blocker, reason } reply as a blocker, not an error (04 §2 blocker shortcut)', () => {
        const result = Areas.validateOutput({
            area: 'about-namespace',
            output: { blocker: 'resources/about/demo-about.md', reason: 'file missing' }
        })
        expect(result).toEqual({
            valid: true,
            kind: 'blocker',
            output: null,
            blocker: { blocker: 'resources/about/demo-about.md', reason: 'file missing' },
            errors: []
        })
    })

    it('recognises a blocker before it looks at the area', () => {
        expect(Areas.validateOutput({ output: { blocker: 'x', reason: 'y' } }).kind).toBe('blocker')
    })

    it.each([
        ['iteration 0 (GRD-030)', 'single-test', { iteration: 0 }, 'GRD-030', '/output/iteration'],
        ['iteration 6 (GRD-030)', 'single-test', { iteration: 6 }, 'GRD-030', '/output/iteration'],
        ['iteration 1.5 (GRD-030)', 'single-test', { iteration: 1.5 }, 'GRD-030', '/output/iteration'],
        [
            'improvementHints not an array (GRD-031)',
            'single-test',
            { improvementHints: {} },
            'GRD-031',
            '/output/improvementHints'
        ],
        [
            'a hint without suggestion (GRD-031)',
            'single-test',
            { improvementHints: [{ targetField: 'x', priority: 'low' }] },
            'GRD-031',
            '/output/improvementHints/0/suggestion'
        ],
        ['an unknown field', 'single-test', { extra: true }, 'ARE-004', '/output/extra'],
        ['another area', 'tools-aggregate-schema', { area: 'single-test' }, 'ARE-005', '/output/area'],
        [
            'a persona on a neutral area',
            'single-test',
            { persona: { basePersonaId: 'ai-engineer', lensId: 'x' } },
            'ARE-010',
            '/output/persona'
        ],
        ['no persona on a persona-bound area', 'selection-aggregate', { persona: null }, 'ARE-010', '/output/persona'],
        [
            'a persona that is not a base persona',
            'about-selection',
            { persona: { basePersonaId: 'crypto-trader-2026', lensId: 'x' } },
            'GRD-032',
            '/output/persona/basePersonaId'
        ],
        ['a harness other than claude-code', 'single-test', { harness: 'cursor' }, 'GRD-034', '/output/harness'],
        [
            'a gradingId of another hash',
            'single-test',
            { gradingId: 'deadbeef--2026-05-31T11-05-00Z' },
            'ARE-009',
            '/output/gradingId'
        ],
        ['a malformed schemaHash', 'single-test', { schemaHash: 'XYZ' }, 'ARE-009', '/output/schemaHash'],
        ['a timestamp without zone', 'single-test', { timestamp: '2026-05-31 11:05' }, 'ARE-009', '/output/timestamp'],
        [
            'too few answers',
            'single-test',
            { answers: (validOutput('single-test').answers as unknown[]).slice(1) },
            'ARE-006',
            '/output/answers'
        ],
        [
            'a question of another area',
            'single-test',
            { answers: answersWith('single-test', 0, { questionId: 'Q-about-namespace-01' }) },
            'ARE-007',
            '/output/answers/0/questionId'
        ],
        [
            'a repeated question',
            'single-test',
            { answers: answersWith('single-test', 0, { questionId: 'Q-single-test-02' }) },
            'ARE-008',
            '/output/answers'
        ],
        [
            'a score of 0',
            'single-test',
            { answers: answersWith('single-test', 4, { score: 0 }) },
            'SCO-001',
            '/output/answers/4/score'
        ],
        [
            'a numeric string score',
            'single-test',
            { answers: answersWith('single-test', 4, { score: '4' }) },
            'SCO-005',
            '/output/answers/4/score'
        ],
        [
            'a word as score',
            'single-test',
            { answers: answersWith('single-test', 4, { score: 'great' }) },
            'SCO-003',
            '/output/answers/4/score'
        ],
        [
            'n/a without naReason',
            'single-test',
            { answers: answersWith('single-test', 4, { score: 'n/a' }) },
            'NA-001',
            '/output/answers/4/naReason'
        ],
        [
            'a free-text naReason',
            'single-test',
            { answers: answersWith('single-test', 4, { score: 'n/a', naReason: 'n.a.' }) },
            'NA-001',
            '/output/answers/4/naReason'
        ],
        [
            'a naReason with a numeric score',
            'single-test',
            { answers: answersWith('single-test', 4, { naReason: 'requires-private-data' }) },
            'GRD-017',
            '/output/answers/4/naReason'
        ],
        [
            'an empty reasoning',
            'single-test',
            { answers: answersWith('single-test', 4, { reasoning: '' }) },
            'ARE-003',
            '/output/answers/4/reasoning'
        ],
        [
            'an empty evidence string',
            'single-test',
            { answers: answersWith('single-test', 4, { evidence: '' }) },
            'ARE-003',
            '/output/answers/4/evidence'
        ],
        ['a missing harness', 'single-test', { harness: undefined }, 'ARE-002', '/output/harness']
    ])('rejects %s', (_name, area, patch, code, path) => {
        const output = Object.fromEntries(Object.entries(validOutput(area, patch)).filter(([, v]) => v !== undefined))
        const result = Areas.validateOutput({ area, output })
        expect(result.valid).toBe(false)
        expect(result.output).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('names fields in words in messages, so a message never shows a pointer other than the issue path', () => {
        const evidence = Areas.validateOutput({
            area: 'single-test',
            output: validOutput('single-test', { answers: answersWith('single-test', 0, { evidence: '' }) })
        }).errors[0]
        expect(evidence).toMatchObject({ code: 'ARE-003', path: '/output/answers/0/evidence' })
        expect(evidence?.message).toContain('answers[0].evidence')
        const harness = Areas.validateOutput({
            area: 'single-test',
            output: validOutput('single-test', { harness: 'cursor' })
        }).errors[0]
        expect(harness?.message).not.toContain('/')
    })

    it('says an output timestamp of February 30 is not a real calendar date', () => {
        const result = Areas.validateOutput({
            area: 'single-test',
            output: validOutput('single-test', { timestamp: '2026-02-30T11:05:00Z' })
        })
        expect(result.errors).toEqual([expect.objectContaining({ code: 'ARE-009', path: '/output/timestamp' })])
        expect(result.errors[0]?.message).toBe(
            'Field timestamp does not match the required format: a real calendar date and time (February 2026 has 28 days, not 30)'
        )
    })

    it.each([
        [{ blocker: '', reason: 'x' }, '/output/blocker'],
        [{ blocker: 'x' }, '/output/reason'],
        [{ blocker: 'x', reason: 'y', answers: [] }, '/output/answers']
    ])('rejects a malformed blocker %j with ARE-018', (output, path) => {
        const result = Areas.validateOutput({ area: 'single-test', output })
        expect(result).toMatchObject({ valid: false, kind: 'blocker', blocker: null })
        expect(result.errors).toContainEqual(expect.objectContaining({ code: 'ARE-018', path }))
    })

    it.each([
        [{ area: 'single-test' }, 'ARE-002', '/output'],
        [{ area: 'single-test', output: [] }, 'ARE-003', '/output'],
        [{ area: 'single-test', output: 'text' }, 'ARE-003', '/output'],
        [{ area: 'nope', output: {} }, 'ARE-001', '/area'],
        [{ output: {} }, 'ARE-011', '/area']
    ])('rejects bad arguments %j', (input, code, path) => {
        expect(Areas.validateOutput(input).errors).toEqual([expect.objectContaining({ code, path })])
    })

    it('enforces size and depth limits with INP codes', () => {
        const deep = JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown
        expect(
            Areas.validateOutput({ area: 'single-test', output: validOutput('single-test', { deep }) }).errors[0]?.code
        ).toBe('INP-002')
        expect(
            Areas.validateOutput({
                area: 'single-test',
                output: validOutput('single-test'),
                limits: { maxStringLength: 5 }
            }).errors[0]?.code
        ).toBe('INP-003')
    })
})
