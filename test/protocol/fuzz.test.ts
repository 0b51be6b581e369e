import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ScoringProtocol } from '../../src/index.js'
import { assertCoded, hostileJson, hostileString, mutate, RUNS } from '../areas/fuzz-helpers.js'
import { EMIT, SCHEMA_SOURCE, SCORES } from './fixtures.js'

const prompts = ScoringProtocol.emitPrompts(EMIT).prompts

describe('scores.json and prompts.json under hostile input (fast-check)', () => {
    it('validateScores never throws on fc.anything(), and never calls anything valid that is not', () => {
        fc.assert(
            fc.property(fc.anything(), (scores) => {
                const result = ScoringProtocol.validateScores({ scores, prompts })
                assertCoded(result.errors)
                expect(result.valid).toBe(false)
            }),
            RUNS
        )
    })

    it('validateScores never throws on JSON text, hostile strings included', () => {
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.json(),
                    hostileString,
                    hostileJson.map((v) => JSON.stringify(v))
                ),
                (text) => {
                    assertCoded(ScoringProtocol.validateScores({ text, prompts }).errors)
                }
            ),
            RUNS
        )
    })

    it('a mutated scores.json is valid only if every score is still a finite number in 1.0–5.0', () => {
        fc.assert(
            fc.property(mutate(SCORES as unknown as Record<string, unknown>), (scores) => {
                const result = ScoringProtocol.validateScores({ scores, prompts })
                assertCoded(result.errors)
                if (result.valid) {
                    for (const s of result.scores?.scores ?? []) expect(s.score >= 1 && s.score <= 5).toBe(true)
                }
            }),
            RUNS
        )
    })

    it('any score of a valid scores.json is reported with its band, and NaN never becomes a grade', () => {
        fc.assert(
            fc.property(fc.double({ noDefaultInfinity: false }), fc.double({ min: 1, max: 5, noNaN: true }), (a, b) => {
                const scores = {
                    ...SCORES,
                    scores: [
                        { ...SCORES.scores[0], score: a },
                        { ...SCORES.scores[1], score: b }
                    ]
                }
                const result = ScoringProtocol.buildReport({
                    prompts,
                    scores,
                    schemaSource: SCHEMA_SOURCE,
                    validation: { passed: true, errors: [] },
                    now: '2026-05-18T03:16:00Z'
                })
                assertCoded(result.errors)
                const inRange = Number.isFinite(a) && a >= 1 && a <= 5
                expect(result.report === null).toBe(!inRange)
                if (result.report !== null) expect(['A', 'B', 'C', 'D', 'F']).toContain(result.report.grade)
            }),
            RUNS
        )
    })

    it('validatePrompts and buildEvalPrompts never throw', () => {
        fc.assert(
            fc.property(fc.anything(), fc.anything(), (doc, schema) => {
                assertCoded(ScoringProtocol.validatePrompts({ prompts: doc }).errors)
                assertCoded(ScoringProtocol.buildEvalPrompts({ schema } as never).errors)
                assertCoded(ScoringProtocol.emitPrompts({ schemaId: doc, schemaPath: doc, schema } as never).errors)
            }),
            RUNS
        )
    })

    it('buildReport never throws on arbitrary arguments', () => {
        fc.assert(
            fc.property(fc.anything(), fc.anything(), fc.anything(), fc.anything(), (p, s, v, now) => {
                assertCoded(
                    ScoringProtocol.buildReport({ prompts: p, scores: s, schemaSource: v, validation: v, now } as never)
                        .errors
                )
            }),
            RUNS
        )
    })
})
