import { describe, expect, it } from 'vitest'
import { Areas, PromptBuilder, validateGradingEntry, type GradingEntry } from '../../src/index.js'

const NOW = '2026-05-31T11:00:00Z'
const persona = { basePersonaId: 'schema-maintainer', lensId: 'documentation-dx-reviewer' } as const

/** A harness that reads the question ids off the prompt text and answers each once. */
function harnessReply(prompt: string, area: string): Record<string, unknown> {
    const ids = [...prompt.matchAll(/^\d+\. \[(Q-[a-zA-Z0-9-]+)\]/gm)].map((m) => m[1] as string)
    const bound = Areas.get({ area }).area?.personaRequired === true
    return {
        gradingId: '3f9a1c2e--2026-05-31T11-05-00Z',
        schemaHash: '3f9a1c2e',
        area,
        iteration: 1,
        timestamp: '2026-05-31T11:05:00Z',
        persona: bound ? persona : null,
        answers: ids.map((questionId, i) => ({
            questionId,
            score: i % 3 === 0 ? 'pass' : 4,
            reasoning: `checked ${questionId} against the files`
        })),
        improvementHints: [
            { targetField: 'description', suggestion: 'Name the units of the returned values.', priority: 'low' }
        ],
        harness: 'claude-code'
    }
}

describe('area prompts → harness replies → grading entries (in memory)', () => {
    const emitted = PromptBuilder.emitAreaPrompts({
        target: 'demoapi',
        flow: 'provider',
        areas: [
            'single-test',
            'tools-aggregate-schema',
            'tools-aggregate-namespace',
            'namespace-description',
            'namespace-skills',
            'about-namespace'
        ],
        persona,
        counts: { tools: 1, schemas: 1 },
        files: {
            schemaPath: '/island/providers/demoapi/demoapi/schema/demoapi.mjs',
            namespacePath: '/island/providers/demoapi',
            aboutPath: '/island/providers/demoapi/demoapi/resources/about/demoapi-about.md',
            skillPath: '/island/providers/demoapi/demoapi/skills/price-lookup/price-lookup.mjs',
            personaPath: '/personas/schema-maintainer.md',
            lensPath: '/personas/lenses/documentation-dx-reviewer.md',
            domainKnowledgePath: '/island/providers/demoapi/domain.md',
            responseFixturePath: '/island/providers/demoapi/demoapi/tools/getPrice/tests/test-1.json',
            providerDocsPath: 'https://docs.demoapi.io'
        },
        now: NOW
    })

    it('emits every area composed, without warnings', () => {
        expect(emitted.errors).toEqual([])
        expect(emitted.prompts?.areas.every((a) => !a.deferred)).toBe(true)
    })

    it('turns a valid reply to each composed prompt into an entry that passes validateGradingEntry, and surfaces it', () => {
        const lines: string[] = []
        const entries: GradingEntry[] = []
        const areas = emitted.prompts?.areas ?? []
        areas.forEach((a, i) => {
            const reply = harnessReply(a.prompt as string, a.area)
            const checked = Areas.validateOutput({ area: a.area, output: reply })
            const d = Areas.get({ area: a.area }).area
            const result = Areas.toGradingEntry({
                output: reply,
                deterministic: (d?.deterministicQuestionIds ?? []).map((questionId) => ({
                    questionId,
                    score: 'pass',
                    evidence: { source: 'pretest' }
                })),
                context: {
                    schemaId: 'demoapi.demoapi',
                    version: 'flowmcp/4.2.0',
                    schemaHash: '3f9a1c2e',
                    gradingMode: 'full',
                    now: NOW,
                    grader: { name: 'claude-opus-4-7', version: '1M' },
                    llmModel: 'claude-opus-4-7',
                    scriptGrader: { name: 'flowmcp-grading', version: '0.1.0' },
                    selectionContext: { groupId: 'demoapi', personaIds: ['schema-maintainer'] },
                    ...(d?.personaRequired === true ? { persona } : {}),
                    ...(d?.perSkill === true ? { skillId: 'price-lookup' } : {}),
                    ...(d?.aboutHashRequired === true ? { aboutHash: '0a1b2c3d' } : {})
                }
            })
            expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
            expect(validateGradingEntry({ entry: result.entry }).valid).toBe(true)
            entries.push(result.entry as GradingEntry)
            lines.push(
                PromptBuilder.formatSurfacingLine({
                    kind: 'area',
                    area: a.area,
                    target:
                        d?.surfacingTarget === 'tool'
                            ? 'getPrice'
                            : d?.surfacingTarget === 'namespace'
                              ? 'demoapi'
                              : d?.surfacingTarget === 'skill'
                                ? 'price-lookup'
                                : 'demoapi',
                    schemaValid: checked.valid,
                    status: 'graded',
                    written: true
                }).line as string
            )
            lines.push(
                PromptBuilder.formatSurfacingLine({ kind: 'progress', done: i + 1, total: areas.length }).line as string
            )
        })
        lines.push(PromptBuilder.formatSurfacingLine({ kind: 'done' }).line as string)
        expect(entries.map((e) => e.aggregateGrade).every((g) => g === 'B')).toBe(true)
        expect(PromptBuilder.auditTranscript({ text: lines.join('\n'), expectedTotal: areas.length })).toMatchObject({
            complete: true,
            errors: []
        })
    })

    it('recognises a blocker reply and yields no entry and no error', () => {
        const result = Areas.toGradingEntry({
            output: {
                blocker: '/island/providers/demoapi/demoapi/resources/about/demoapi-about.md',
                reason: 'file not found'
            },
            context: {}
        })
        expect(result).toMatchObject({ entry: null, blocker: { reason: 'file not found' }, errors: [] })
    })

    it('rejects a malformed reply with coded errors and no entry', () => {
        const reply = harnessReply((emitted.prompts?.areas[0] as { prompt: string }).prompt, 'single-test')
        const result = Areas.toGradingEntry({
            output: { ...reply, answers: (reply.answers as unknown[]).slice(2), iteration: 7 },
            context: {}
        })
        expect(result.entry).toBeNull()
        expect(result.errors.map((e) => e.code)).toEqual(expect.arrayContaining(['ARE-006', 'GRD-030']))
    })

    it('goes the CLI way too: payload skeleton → filled payload → verify → area outputs → entries', () => {
        const skeleton = emitted.prompts?.payloadSkeleton
        const filled = {
            taskId: skeleton?.taskId,
            scores: [],
            areas: (skeleton?.areas ?? [])
                .filter((a) => a.area === 'single-test' || a.area === 'tools-aggregate-schema')
                .map((a) => ({
                    area: a.area,
                    results: [
                        {
                            ...(a.area === 'single-test' ? { tool: 'getPrice' } : {}),
                            scores: Object.fromEntries(
                                Areas.questions({ area: a.area }).questions.map((q) => [
                                    q.id,
                                    q.scoreType === 'boolean' ? 5 : 4
                                ])
                            ),
                            reasoning: 'answered from the schema and the captured response'
                        }
                    ]
                }))
        }
        const verified = PromptBuilder.verifyScoresPayload({
            prompts: emitted.prompts,
            state: emitted.state,
            scores: JSON.stringify(filled)
        })
        expect(verified).toMatchObject({
            accepted: true,
            acceptedAreas: ['single-test', 'tools-aggregate-schema'],
            taskComplete: false,
            errors: []
        })
        for (const area of verified.payload?.areas ?? []) {
            const { outputs, errors } = PromptBuilder.payloadToAreaOutputs({
                area: area.area,
                results: area.results,
                envelope: { schemaHash: '3f9a1c2e', timestamp: '2026-05-31T11:05:00Z', iteration: 1 }
            })
            expect(errors).toEqual([])
            for (const { output } of outputs) {
                const { entry, errors: entryErrors } = Areas.toGradingEntry({
                    output,
                    context: {
                        schemaId: 'demoapi.demoapi',
                        version: 'flowmcp/4.2.0',
                        schemaHash: '3f9a1c2e',
                        gradingMode: 'full',
                        now: NOW,
                        grader: { name: 'claude-opus-4-7', version: '1M' },
                        llmModel: 'claude-opus-4-7',
                        selectionContext: { groupId: 'demoapi', personaIds: ['schema-maintainer'] }
                    }
                })
                expect(entryErrors.filter((e) => e.severity === 'error')).toEqual([])
                expect(validateGradingEntry({ entry }).valid).toBe(true)
            }
        }
    })
})
