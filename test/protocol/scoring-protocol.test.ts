import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Grading, ScoringProtocol, validateGradingEntry } from '../../src/index.js'
import { EMIT, SCHEMA, SCHEMA_SOURCE, SCORES, withScores } from './fixtures.js'

const prompts = ScoringProtocol.emitPrompts(EMIT).prompts
const report = (scores: unknown, passed = true, extra: Record<string, unknown> = {}) =>
    ScoringProtocol.buildReport({
        prompts,
        scores,
        schemaSource: SCHEMA_SOURCE,
        validation: { passed, errors: passed ? [] : ['main.version: Must match ^4\\.\\d+\\.\\d+$'] },
        now: '2026-05-18T03:16:00Z',
        ...extra
    })

describe('ScoringProtocol.buildEvalPrompts', () => {
    it('builds the two transport dimensions whenToUse, then parameters (05 §2.1 fixed order)', () => {
        const { evalPrompts, errors } = ScoringProtocol.buildEvalPrompts({ schema: SCHEMA })
        expect(errors).toEqual([])
        expect(evalPrompts.map((p) => p.dimension)).toEqual(['whenToUse', 'parameters'])
        expect(evalPrompts[0]?.prompt).toMatchInlineSnapshot(
            `"Rate from 1.0 to 5.0 how clearly and specifically the schema description below tells an LLM when to use this schema. No skill whenToUse provided. Schema description: "Historical market data (price, market cap, volume) of one coin.""`
        )
        expect(evalPrompts[1]?.prompt).toMatchInlineSnapshot(
            `"Rate from 1.0 to 5.0 how well the parameter descriptions of the tools below let an LLM call each tool correctly. Schema: {"getMarketChart":{"method":"GET","path":"/coins/{{id}}/market_chart","description":"Returns price, market cap and volume series for one coin.","parameters":[{"position":{"key":"id","value":"{{USER_PARAM}}","location":"insert"},"z":{"primitive":"string()","options":[]},"description":"CoinGecko coin id, e.g. bitcoin"},{"position":{"key":"days","value":"{{USER_PARAM}}","location":"query"},"z":{"primitive":"number()","options":["min(1)"]},"description":"Number of days back"}],"tests":[{"_description":"bitcoin, 7 days","id":"bitcoin","days":7}]}}"`
        )
    })

    it('quotes the skill whenToUse only when it is a non-empty string', () => {
        const withSkill = ScoringProtocol.buildEvalPrompts({
            schema: SCHEMA,
            skill: { whenToUse: 'the user asks for a price history' }
        }).evalPrompts[0]?.prompt
        expect(withSkill).toContain('The skill says to use it when: "the user asks for a price history".')
        for (const skill of [{}, { whenToUse: '' }, { whenToUse: 42 }]) {
            expect(ScoringProtocol.buildEvalPrompts({ schema: SCHEMA, skill }).evalPrompts[0]?.prompt).toContain(
                'No skill whenToUse provided.'
            )
        }
    })

    it('embeds an empty description when it is not a string, and {} when there are no tools', () => {
        const { evalPrompts } = ScoringProtocol.buildEvalPrompts({ schema: { description: 7 } })
        expect(evalPrompts[0]?.prompt.endsWith('Schema description: ""')).toBe(true)
        expect(evalPrompts[1]?.prompt.endsWith('Schema: {}')).toBe(true)
    })

    it.each([
        [{}, 'SPV-001'],
        [{ schema: null }, 'SPV-001'],
        [{ schema: 'main' }, 'SPV-013'],
        [{ schema: [] }, 'SPV-013'],
        [{ schema: SCHEMA, skill: 'x' }, 'SPV-002'],
        [{ schema: { tools: { t: { f: Number.NaN } } } }, 'INP-001']
    ])('rejects %j with %s', (input, code) => {
        const result = ScoringProtocol.buildEvalPrompts(input as never)
        expect(result.evalPrompts).toEqual([])
        expect(result.errors[0]?.code).toBe(code)
    })
})

describe('ScoringProtocol.emitPrompts', () => {
    it('writes every prompts.json field of seed 001 in protocol order', () => {
        const { prompts: p, errors } = ScoringProtocol.emitPrompts(EMIT)
        expect(errors).toEqual([])
        expect(Object.keys(p ?? {})).toEqual([
            'schemaId',
            'schemaIdSlug',
            'schemaPath',
            'scoringProtocol',
            'scoringInstructions',
            'prompts'
        ])
        expect(p).toMatchObject({
            schemaId: 'coingecko-com/market-chart',
            schemaIdSlug: 'coingecko-com_market-chart',
            scoringProtocol: 'v1'
        })
        expect(p?.scoringInstructions).toMatchInlineSnapshot(
            `"You rate FlowMCP schemas. Rate every prompt on its own, using only the text it contains: no outside knowledge, no tools, no earlier scores. Answer with one JSON object, the scores.json of Scoring Protocol v1: { "schemaIdSlug": "<from this file>", "scoringProtocol": "v1", "creator": { "skill", "skillVersion", "session" }, "harness": { "name", "version", "model", "modelContext" }, "timestamp": "<ISO 8601>", "scores": [ { "dimension": "<each dimension below, once>", "score": <1.0-5.0>, "reasoning": "..." } ] }."`
        )
        expect(ScoringProtocol.validatePrompts({ prompts: p }).valid).toBe(true)
    })

    it('is reproducible: identical inputs give byte-identical prompts.json', () => {
        const a = ScoringProtocol.serialize({ value: ScoringProtocol.emitPrompts(EMIT).prompts }).text
        const b = ScoringProtocol.serialize({
            value: ScoringProtocol.emitPrompts(JSON.parse(JSON.stringify(EMIT)) as typeof EMIT).prompts
        }).text
        expect(a).toBe(b)
    })

    it.each([
        [{ ...EMIT, schemaId: 'coingecko-com.market-chart' }, 'SPV-008', '/schemaId'],
        [{ ...EMIT, schemaId: 'a/b/c' }, 'SPV-008', '/schemaId'],
        [{ ...EMIT, schemaId: undefined }, 'SPV-001', '/schemaId'],
        [{ ...EMIT, schemaPath: 'relative/schema.mjs' }, 'SPV-014', '/schemaPath'],
        [{ ...EMIT, schemaPath: 3 }, 'SPV-002', '/schemaPath'],
        [{ ...EMIT, schema: [] }, 'SPV-013', '/schema']
    ])('rejects bad arguments (%#) with %s', (input, code, path) => {
        const result = ScoringProtocol.emitPrompts(input as never)
        expect(result.prompts).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})

describe('ScoringProtocol.validatePrompts', () => {
    it.each([
        [{ ...prompts, scoringProtocol: 'v2' }, 'SPV-003', '/prompts/scoringProtocol'],
        [{ ...prompts, schemaIdSlug: 'other_slug' }, 'SPV-009', '/prompts/schemaIdSlug'],
        [{ ...prompts, prompts: [...(prompts?.prompts ?? [])].reverse() }, 'SPV-017', '/prompts/prompts'],
        [{ ...prompts, prompts: [{ dimension: 'security', prompt: 'x' }] }, 'SPV-004', '/prompts/prompts/0/dimension'],
        [{ ...prompts, extra: 1 }, 'SPV-011', '/prompts/extra'],
        [[], 'SPV-002', '/prompts']
    ])('rejects a broken prompts.json (%#) with %s', (doc, code, path) => {
        const result = ScoringProtocol.validatePrompts({ prompts: doc })
        expect(result.valid).toBe(false)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('reads JSON text within the limits', () => {
        expect(ScoringProtocol.validatePrompts({ text: JSON.stringify(prompts) }).valid).toBe(true)
        expect(ScoringProtocol.validatePrompts({ text: '{' }).errors[0]?.code).toBe('INP-004')
        expect(
            ScoringProtocol.validatePrompts({ text: JSON.stringify(prompts), limits: { maxTextLength: 10 } }).errors[0]
                ?.code
        ).toBe('INP-003')
        expect(ScoringProtocol.validatePrompts({}).errors[0]?.code).toBe('SPV-001')
    })
})

describe('ScoringProtocol.validateScores', () => {
    it('accepts the seed example', () => {
        expect(ScoringProtocol.validateScores({ scores: SCORES, prompts })).toMatchObject({ valid: true, errors: [] })
    })

    it('matches scores by dimension, whatever their order (04 §1.7 rule 4)', () => {
        expect(
            ScoringProtocol.validateScores({ scores: { ...SCORES, scores: [...SCORES.scores].reverse() }, prompts })
                .valid
        ).toBe(true)
    })

    it('rejects an unknown scoringProtocol before anything else (04 §1.1)', () => {
        expect(
            ScoringProtocol.validateScores({ scores: { scoringProtocol: 'v9', scores: 'nonsense' } }).errors
        ).toEqual([expect.objectContaining({ code: 'SPV-003', path: '/scores/scoringProtocol' })])
    })

    const scoreAt = (value: unknown) => ({
        ...SCORES,
        scores: [{ ...SCORES.scores[0], score: value }, SCORES.scores[1]]
    })
    it.each([
        ['a score above 5.0', scoreAt(5.01), 'SPV-007', '/scores/scores/0/score'],
        ['a score below 1.0', scoreAt(0.99), 'SPV-007', '/scores/scores/0/score'],
        ['NaN', scoreAt(Number.NaN), 'SPV-007', '/scores/scores/0/score'],
        ['Infinity', scoreAt(Number.POSITIVE_INFINITY), 'SPV-007', '/scores/scores/0/score'],
        ['a string', scoreAt('4'), 'SPV-002', '/scores/scores/0/score'],
        ['null', scoreAt(null), 'SPV-002', '/scores/scores/0/score'],
        ['a missing dimension', { ...SCORES, scores: [SCORES.scores[0]] }, 'SPV-005', '/scores/scores'],
        [
            'an extra dimension',
            { ...SCORES, scores: [...SCORES.scores, { dimension: 'security', score: 4, reasoning: 'x' }] },
            'SPV-004',
            '/scores/scores/2/dimension'
        ],
        [
            'a duplicate dimension',
            { ...SCORES, scores: [...SCORES.scores, SCORES.scores[0]] },
            'SPV-006',
            '/scores/scores/2/dimension'
        ],
        ['no creator', { ...SCORES, creator: undefined }, 'SPV-001', '/scores/creator'],
        ['no harness', { ...SCORES, harness: undefined }, 'SPV-001', '/scores/harness'],
        ['no timestamp', { ...SCORES, timestamp: undefined }, 'SPV-001', '/scores/timestamp'],
        ['an impossible timestamp', { ...SCORES, timestamp: '2026-02-30T00:00:00Z' }, 'SPV-012', '/scores/timestamp'],
        ['an unknown field', { ...SCORES, grade: 'A' }, 'SPV-011', '/scores/grade'],
        [
            'an empty reasoning',
            { ...SCORES, scores: [{ ...SCORES.scores[0], reasoning: '' }, SCORES.scores[1]] },
            'SPV-015',
            '/scores/scores/0/reasoning'
        ],
        ['a bare judge array', SCORES.scores, 'SPV-002', '/scores']
    ])('rejects %s (fail-closed: an error, never a score)', (_name, scores, code, path) => {
        const doc = JSON.parse(
            JSON.stringify(scores, (_k, v: unknown) =>
                typeof v === 'number' && !Number.isFinite(v) ? `__${String(v)}` : v
            )
        ) as unknown
        const restored = JSON.parse(JSON.stringify(doc), (_k, v: unknown) =>
            v === '__NaN' ? Number.NaN : v === '__Infinity' ? Number.POSITIVE_INFINITY : v
        ) as unknown
        const result = ScoringProtocol.validateScores({ scores: restored, prompts })
        expect(result.valid).toBe(false)
        expect(result.scores).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('rejects scores whose schema id or dimensions do not match the prompts they answer', () => {
        expect(
            ScoringProtocol.validateScores({ scores: { ...SCORES, schemaIdSlug: 'mudab_marine-data' }, prompts }).errors
        ).toContainEqual(expect.objectContaining({ code: 'SPV-009', path: '/scores/schemaIdSlug' }))
        const onePrompt = { ...prompts, prompts: prompts?.prompts.slice(0, 1) }
        expect(ScoringProtocol.validateScores({ scores: SCORES, prompts: onePrompt }).errors[0]?.code).toBe('SPV-017')
    })

    it('rejects a scores.json dated after the reading time now (SPV-021, as GRD-061 for entry answers)', () => {
        expect(ScoringProtocol.validateScores({ scores: SCORES, now: '2026-05-18T03:15:00Z' }).valid).toBe(true)
        const late = ScoringProtocol.validateScores({ scores: SCORES, now: '2026-05-18T03:14:59Z' })
        expect(late).toMatchObject({ valid: false, scores: null })
        expect(late.errors).toEqual([expect.objectContaining({ code: 'SPV-021', path: '/scores/timestamp' })])
        expect(ScoringProtocol.validateScores({ scores: SCORES, now: 'soon' }).errors).toEqual([
            expect.objectContaining({ code: 'SPV-012', path: '/now' })
        ])
    })

    it('names the field in words in the message, so it never disagrees with the issue path', () => {
        const issue = ScoringProtocol.validateScores({
            scores: { ...SCORES, scores: [{ ...SCORES.scores[0], reasoning: '' }, SCORES.scores[1]] }
        }).errors[0]
        expect(issue).toMatchObject({
            code: 'SPV-015',
            path: '/scores/scores/0/reasoning',
            message: 'Field scores[0].reasoning must not be empty'
        })
    })

    it('reports an invalid prompts document instead of checking against it', () => {
        expect(
            ScoringProtocol.validateScores({ scores: SCORES, prompts: { ...prompts, scoringProtocol: 'v0' } }).errors[0]
        ).toMatchObject({ code: 'SPV-003', path: '/prompts/scoringProtocol' })
    })
})

describe('ScoringProtocol.buildReport', () => {
    it('builds the seed example: 4.0 and 3.5 give 3.75 and B', () => {
        const { report: r, errors, suggestedFileName, trace } = report(SCORES)
        expect(errors).toEqual([])
        expect(r).toMatchObject({
            schemaId: 'coingecko-com/market-chart',
            date: '2026-05-18',
            grade: 'B',
            score: 3.75,
            scoringProtocol: 'v1',
            validationPassed: true,
            validationErrors: []
        })
        expect(r?.timestamps).toEqual({
            startedAt: null,
            scoredAt: '2026-05-18T03:15:00Z',
            gradedAt: '2026-05-18T03:16:00Z',
            reportedAt: '2026-05-18T03:16:00Z'
        })
        expect(suggestedFileName).toBe('coingecko-com_market-chart-2026-05-18.json')
        expect(trace.at(-1)).toEqual({ step: 'band', mean: 3.75, grade: 'B', min: 3.5 })
        expect(Object.keys(r ?? {})).toEqual([
            'schemaId',
            'schemaIdSlug',
            'schemaPath',
            'schemaHash',
            'date',
            'grade',
            'score',
            'scoringProtocol',
            'creator',
            'harness',
            'timestamps',
            'dimensions',
            'validationPassed',
            'validationErrors'
        ])
    })

    it('refuses scores dated after the report time now (SPV-021)', () => {
        const late = report(SCORES, true, { now: '2026-05-18T03:00:00Z' })
        expect(late.report).toBeNull()
        expect(late.errors).toEqual([expect.objectContaining({ code: 'SPV-021', path: '/scores/timestamp' })])
    })

    it('hashes the raw schema file text as sha256:<hex> (04 §1.5)', () => {
        expect(report(SCORES).report?.schemaHash).toBe(
            `sha256:${createHash('sha256').update(SCHEMA_SOURCE, 'utf8').digest('hex')}`
        )
    })

    it.each([
        [5, 4, 'A'],
        [4.5, 4.5, 'A'],
        [4.5, 4.49, 'B'],
        [3.5, 3.5, 'B'],
        [3.5, 3.49, 'C'],
        [2.5, 2.5, 'C'],
        [2.5, 2.49, 'D'],
        [1.5, 1.5, 'D'],
        [1.5, 1.49, 'F'],
        [1, 1, 'F']
    ])('bands %d and %d as %s (gradingSystem/1.0.0: A ≥ 4.5, B ≥ 3.5, C ≥ 2.5, D ≥ 1.5)', (a, b, grade) => {
        expect(report(withScores(a, b)).report?.grade).toBe(grade)
    })

    it('gives F when the deterministic validation failed, whatever the scores', () => {
        const { report: r, trace } = report(withScores(5, 5), false)
        expect(r).toMatchObject({
            grade: 'F',
            score: 5,
            validationPassed: false,
            validationErrors: ['main.version: Must match ^4\\.\\d+\\.\\d+$']
        })
        expect(trace.at(-1)).toEqual({ step: 'validation-failed', grade: 'F' })
    })

    it('records startedAt when given and copies creator and harness in a fixed key order', () => {
        const shuffled = {
            ...SCORES,
            harness: { modelContext: '1M', model: 'claude-opus-4-7', version: '1.0.0', name: 'claude-code' }
        }
        const r = report(shuffled, true, { startedAt: '2026-05-18T03:00:00Z' }).report
        expect(r?.timestamps.startedAt).toBe('2026-05-18T03:00:00Z')
        expect(Object.keys(r?.harness ?? {})).toEqual(['name', 'version', 'model', 'modelContext'])
    })

    it('is reproducible: identical inputs give a byte-identical report', () => {
        const a = ScoringProtocol.serialize({ value: report(SCORES).report }).text
        const b = ScoringProtocol.serialize({
            value: report(JSON.parse(JSON.stringify(SCORES)) as unknown).report
        }).text
        expect(a).toBe(b)
        expect(a).toMatchSnapshot()
    })

    it.each([
        [{ now: undefined }, 'SPV-001', '/now'],
        [{ now: '18.05.2026' }, 'SPV-012', '/now'],
        [{ startedAt: 5 }, 'SPV-012', '/startedAt'],
        [{ schemaSource: undefined }, 'SPV-001', '/schemaSource'],
        [{ schemaSource: { main: {} } }, 'SPV-002', '/schemaSource'],
        [{ validation: undefined }, 'SPV-001', '/validation'],
        [{ validation: 'PASS' }, 'SPV-002', '/validation'],
        [{ validation: { passed: 'yes', errors: [] } }, 'SPV-002', '/validation/passed'],
        [{ validation: { passed: true } }, 'SPV-001', '/validation/errors'],
        [{ validation: { passed: true, errors: ['x'] } }, 'SPV-002', '/validation/errors'],
        [{ scores: { ...SCORES, scores: [] } }, 'SPV-015', '/scores/scores'],
        [{ prompts: undefined }, 'SPV-001', '/prompts']
    ])('refuses to build a report from bad input (%#: %s)', (patch, code, path) => {
        const input = {
            prompts,
            scores: SCORES,
            schemaSource: SCHEMA_SOURCE,
            validation: { passed: true, errors: [] },
            now: '2026-05-18T03:16:00Z',
            ...patch
        }
        const result = ScoringProtocol.buildReport(input as never)
        expect(result.report).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})

describe('ScoringProtocol.slug and suggestedFileName (04 §1.6)', () => {
    it.each([
        ['mudab/marine-data', 'mudab_marine-data'],
        ['coingecko-com/search-ohlc', 'coingecko-com_search-ohlc']
    ])('slugs %s as %s', (schemaId, slug) => {
        expect(ScoringProtocol.slug({ schemaId })).toEqual({ slug, errors: [] })
    })

    it.each([
        [{}, 'SPV-001'],
        [{ schemaId: 1 }, 'SPV-002'],
        [{ schemaId: 'no-slash' }, 'SPV-008'],
        [{ schemaId: 'a/b/c' }, 'SPV-008'],
        [{ schemaId: '/b' }, 'SPV-008']
    ])('rejects %j', (input, code) => {
        expect(ScoringProtocol.slug(input as never).errors[0]?.code).toBe(code)
    })

    it('names the report <slug>-<date>.json from a date or the UTC date of a date-time', () => {
        expect(
            ScoringProtocol.suggestedFileName({ schemaId: 'etherscan-io/contracts', date: '2026-05-18' }).fileName
        ).toBe('etherscan-io_contracts-2026-05-18.json')
        expect(
            ScoringProtocol.suggestedFileName({ schemaId: 'moralis/wallet-history', date: '2026-05-18T23:30:00-02:00' })
                .fileName
        ).toBe('moralis_wallet-history-2026-05-19.json')
    })

    it('rejects a missing or impossible date', () => {
        expect(ScoringProtocol.suggestedFileName({ schemaId: 'a/b' } as never).errors[0]?.code).toBe('SPV-001')
        expect(ScoringProtocol.suggestedFileName({ schemaId: 'a/b', date: '2026-13-01' }).errors[0]?.code).toBe(
            'SPV-012'
        )
    })
})

describe('ScoringProtocol.serialize', () => {
    it('writes 4-space JSON with a trailing newline', () => {
        expect(ScoringProtocol.serialize({ value: { b: 1, a: [true] } }).text).toBe(
            '{\n    "b": 1,\n    "a": [\n        true\n    ]\n}\n'
        )
    })

    it('refuses values that are not plain JSON', () => {
        expect(ScoringProtocol.serialize({}).errors[0]?.code).toBe('SPV-001')
        expect(ScoringProtocol.serialize({ value: { x: Number.NaN } }).errors[0]).toMatchObject({
            code: 'INP-001',
            path: '/value/x'
        })
    })
})

describe('ScoringProtocol.toGradingAnswers (04 §1.8)', () => {
    const selectionContext = { groupId: 'crypto', personaIds: ['schema-maintainer'] }

    it('maps the two dimensions to Q-when-to-use and Q-parameters answers a grading entry accepts', () => {
        const { gradings, errors } = ScoringProtocol.toGradingAnswers({
            scores: SCORES,
            selectionContext,
            evidence: 'prompts.json + scores.json'
        })
        expect(errors).toEqual([])
        expect(gradings[0]).toEqual({
            questionId: 'Q-when-to-use',
            score: 4,
            weight: 1,
            determinism: 'non-deterministic',
            graderIdentity: { kind: 'llm', name: 'claude-opus-4-7', version: '1M' },
            llmModel: 'claude-opus-4-7',
            selectionContext,
            timestamp: '2026-05-18T03:15:00Z',
            evidence: 'prompts.json + scores.json',
            reasoning: 'Description is clear and specific.'
        })
        const { entry } = Grading.createEntry({
            schemaId: 'coingecko-com.market-chart',
            area: 'single-test',
            version: 'flowmcp/4.2.0',
            schemaHash: '3f9a1c2e',
            gradingMode: 'full',
            now: '2026-05-18T03:16:00Z',
            gradings
        })
        expect(validateGradingEntry({ entry }).valid).toBe(true)
    })

    it('requires the transport harness to be claude-code (04 ⚠ D2)', () => {
        const result = ScoringProtocol.toGradingAnswers({
            scores: { ...SCORES, harness: { ...SCORES.harness, name: 'cursor' } },
            selectionContext
        })
        expect(result.errors).toEqual([expect.objectContaining({ code: 'SPV-016', path: '/scores/harness/name' })])
    })

    it.each([
        [undefined, 'SPV-001'],
        [{ groupId: 'x', personaIds: [] }, 'SPV-002'],
        [{ groupId: '', personaIds: ['a'] }, 'SPV-002'],
        [{ groupId: 'x', personaIds: ['a'], extra: 1 }, 'SPV-002']
    ])('rejects the selectionContext %j', (ctx, code) => {
        expect(
            ScoringProtocol.toGradingAnswers({ scores: SCORES, selectionContext: ctx as never }).errors[0]?.code
        ).toBe(code)
    })
})
