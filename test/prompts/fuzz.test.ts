import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { PromptBuilder, Redact } from '../../src/index.js'
import { assertCoded, hostileJson, hostileString, RUNS } from '../areas/fuzz-helpers.js'

const emitted = PromptBuilder.emitAreaPrompts({
    target: 'demoapi',
    flow: 'provider',
    areas: ['single-test', 'tools-aggregate-schema'],
    counts: { tools: 1, schemas: 1 },
    now: '2026-05-31T11:00:00Z'
})

describe('PromptBuilder consumers of external JSON under hostile input (fast-check)', () => {
    afterAll(() => {
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

    it('verifyScoresPayload never throws on fc.anything(), JSON values or hostile text', () => {
        fc.assert(
            fc.property(fc.oneof(fc.anything(), hostileJson, hostileString, fc.json()), (scores) => {
                const result = PromptBuilder.verifyScoresPayload({
                    prompts: emitted.prompts,
                    state: emitted.state,
                    scores
                })
                assertCoded(result.errors)
                if (result.accepted) expect(result.errors).toEqual([])
            }),
            RUNS
        )
    })

    it('verifyScoresPayload never throws on hostile prompts.json and state.json', () => {
        fc.assert(
            fc.property(
                fc.oneof(fc.anything(), hostileJson),
                fc.oneof(fc.anything(), hostileJson),
                (prompts, state) => {
                    assertCoded(
                        PromptBuilder.verifyScoresPayload({
                            prompts,
                            state,
                            scores: { taskId: emitted.prompts?.taskId, scores: [], areas: [] }
                        }).errors
                    )
                    assertCoded(PromptBuilder.validatePromptsV2({ prompts }).errors)
                }
            ),
            RUNS
        )
    })

    it('payloadToAreaOutputs, emitAreaPrompts, buildAreaPrompt and buildEntryPointPrompt never throw', () => {
        fc.assert(
            fc.property(fc.anything(), fc.anything(), fc.anything(), (a, b, c) => {
                assertCoded(
                    PromptBuilder.payloadToAreaOutputs({
                        area: 'single-test',
                        results: a,
                        envelope: b,
                        defaultNaReason: c
                    }).errors
                )
                assertCoded(
                    PromptBuilder.emitAreaPrompts({
                        target: 'x',
                        flow: 'provider',
                        areas: a,
                        counts: b,
                        now: c
                    } as never).errors
                )
                assertCoded(
                    PromptBuilder.buildAreaPrompt({
                        area: 'single-test',
                        files: a,
                        questions: b,
                        outputSchema: c,
                        policies: []
                    }).errors
                )
                assertCoded(
                    PromptBuilder.buildEntryPointPrompt({
                        kind: 'single',
                        schemaId: a,
                        persona: b,
                        gradingMode: 'full',
                        areas: c
                    }).errors
                )
            }),
            RUNS
        )
    })

    it('Redact never throws and never returns text that still holds a server-parameter value', () => {
        fc.assert(
            fc.property(
                hostileString,
                fc.string({ minLength: 4, maxLength: 30 }).filter((s) => !s.includes('[') && !s.includes(']')),
                (text, secret) => {
                    const result = Redact.text({ text: `${text}${secret}${text}`, serverParams: { KEY: secret } })
                    assertCoded(result.errors)
                    // Outside the markers no occurrence may remain (a marker may by chance spell part of a value).
                    for (const part of (result.text as string).split(/\[redacted[^\]]*\]/))
                        expect(part).not.toContain(secret)
                }
            ),
            RUNS
        )
    })
})
