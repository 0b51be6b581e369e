import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
    gradeSingleSchema,
    httpPortFromRecordings,
    validateGradingEntry,
    type Judge,
    type JudgeReply
} from '../../src/index.js'
import { exampleMain, grader, recording } from '../grade/helpers.js'

const openmeteoHttp = (): ReturnType<typeof httpPortFromRecordings> =>
    httpPortFromRecordings({ recordings: [recording('openmeteo')] })

const guide = readFileSync(new URL('../../docs/guide.md', import.meta.url), 'utf8')

// The judge of docs/guide.md, word for word; the test fails when the guide's code changes without it.
const judge: Judge = async (request) => {
    const reply: JudgeReply = {
        answers: request.questions.map((q) => ({
            questionId: q.questionId,
            score: 4,
            reasoning: `Checked: ${q.question}`
        }))
    }
    return JSON.stringify(reply)
}

describe('the judge contract (docs/guide.md)', () => {
    it('shows this judge in the guide', () => {
        expect(guide).toContain(
            'answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: `Checked: ${q.question}` }))'
        )
    })

    it('grades the example schema in full with the documented judge: no improvementHints needed, every entry valid', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const result = await gradeSingleSchema({
            schema: { main },
            fileName: 'forecast.mjs',
            grader,
            options: { now: '2026-11-24T10:00:00Z', source, judge, http: openmeteoHttp() }
        })
        expect(result.grading).toMatchObject({ schemaId: 'openmeteo.forecast', mode: 'full', grade: 'B' })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        for (const entry of result.entries) expect(validateGradingEntry({ entry }).valid).toBe(true)
    })

    it('says precisely what is wrong with a reply that names questions by id, and with one without reasoning', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const byId: Judge = async (request) =>
            JSON.stringify({ answers: request.questions.map((q) => ({ id: q.questionId, score: 4, reasoning: 'x' })) })
        const first = await gradeSingleSchema({
            schema: { main },
            fileName: 'forecast.mjs',
            grader,
            options: { now: '2026-11-24T10:00:00Z', source, judge: byId, http: openmeteoHttp() }
        })
        expect(first.errors).toContainEqual(
            expect.objectContaining({ code: 'GRA-021', path: '/units/tools-aggregate-schema/answers/0' })
        )
        const noReason: Judge = async (request) =>
            JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4 })) })
        const second = await gradeSingleSchema({
            schema: { main },
            fileName: 'forecast.mjs',
            grader,
            options: { now: '2026-11-24T10:00:00Z', source, judge: noReason, http: openmeteoHttp() }
        })
        const refused = second.errors.find((e) => e.code === 'GRA-018')
        // The problems at their pointers in the reply, after one repair turn.
        expect(refused?.message).toMatch(/ARE-00\d at \/answers\/\d+/)
        expect(refused?.path).toMatch(/^\/units\//)
    })
})
