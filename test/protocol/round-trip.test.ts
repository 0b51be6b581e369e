import { describe, expect, it } from 'vitest'
import { ScoringProtocol } from '../../src/index.js'
import { EMIT, SCHEMA_SOURCE } from './fixtures.js'

describe('Scoring Protocol v1 round trip (in memory)', () => {
    it('goes schema → prompts.json → scores.json → grade report, every file as JSON text', () => {
        // CLI, stage 1: emit prompts.json.
        const emitted = ScoringProtocol.emitPrompts(EMIT)
        const promptsText = ScoringProtocol.serialize({ value: emitted.prompts }).text as string

        // Grader: reads prompts.json, checks the protocol, rates each prompt, writes scores.json.
        const read = ScoringProtocol.validatePrompts({ text: promptsText })
        expect(read.valid).toBe(true)
        const scoresText = JSON.stringify({
            schemaIdSlug: read.prompts?.schemaIdSlug,
            scoringProtocol: read.prompts?.scoringProtocol,
            creator: { skill: 'grade-score-single', skillVersion: '1.0.0', session: 'claude-code-2026-05-18-03-15' },
            harness: { name: 'claude-code', version: '1.0.0', model: 'claude-opus-4-7', modelContext: '1M' },
            timestamp: '2026-05-18T03:15:00Z',
            scores: read.prompts?.prompts.map((p) => ({
                dimension: p.dimension,
                score: p.dimension === 'whenToUse' ? 4.5 : 4.0,
                reasoning: `rated ${p.dimension}`
            }))
        })

        // CLI, stage 3: consume scores.json and write the report.
        const scores = ScoringProtocol.validateScores({ text: scoresText, prompts: read.prompts })
        expect(scores.errors).toEqual([])
        const built = ScoringProtocol.buildReport({
            prompts: read.prompts,
            scores: scores.scores,
            schemaSource: SCHEMA_SOURCE,
            validation: { passed: true, errors: [] },
            now: '2026-05-18T03:16:00Z',
            startedAt: '2026-05-18T03:00:00Z'
        })
        expect(built.errors).toEqual([])
        expect(built.report).toMatchObject({ grade: 'B', score: 4.25, schemaIdSlug: 'coingecko-com_market-chart' })
        const reportText = ScoringProtocol.serialize({ value: built.report }).text as string
        expect(JSON.parse(reportText)).toEqual(built.report)
    })

    it('rejects a scores.json written for another schema', () => {
        const other = ScoringProtocol.emitPrompts({ ...EMIT, schemaId: 'mudab/marine-data' }).prompts
        const scores = {
            schemaIdSlug: 'coingecko-com_market-chart',
            scoringProtocol: 'v1',
            creator: { skill: 's', skillVersion: '1', session: 'x' },
            harness: { name: 'claude-code', version: '1', model: 'm', modelContext: 'c' },
            timestamp: '2026-05-18T03:15:00Z',
            scores: [
                { dimension: 'whenToUse', score: 4, reasoning: 'r' },
                { dimension: 'parameters', score: 4, reasoning: 'r' }
            ]
        }
        expect(ScoringProtocol.validateScores({ scores, prompts: other }).errors).toEqual([
            expect.objectContaining({ code: 'SPV-009' })
        ])
    })
})
