import { describe, expect, it } from 'vitest'
import { Areas, PromptBuilder, TaskId, validateGradingEntry } from '../../src/index.js'

const NOW = '2026-05-31T11:00:00Z'
const BASE = {
    target: 'demoapi',
    flow: 'provider',
    areas: ['single-test', 'tools-aggregate-schema', 'tools-aggregate-namespace', 'about-namespace'],
    counts: { tools: 2, schemas: 1 },
    now: NOW,
    files: {
        schemaPath: '/island/providers/demoapi/demoapi/schema/demoapi.mjs',
        namespacePath: '/island/providers/demoapi'
    }
}
const emit = (over: Record<string, unknown> = {}) => PromptBuilder.emitAreaPrompts({ ...BASE, ...over })

describe('TaskId (06 §19.4)', () => {
    it('hashes the sorted, de-duplicated area set, so order and repeats do not matter', () => {
        const a = TaskId.generate({ schemaIdSlug: 'demoapi', areas: ['single-test', 'tools-aggregate-schema'] })
        const b = TaskId.generate({
            schemaIdSlug: 'demoapi',
            areas: ['tools-aggregate-schema', 'single-test', 'single-test']
        })
        expect(a.taskId).toMatch(/^demoapi--[0-9a-f]{8}$/)
        expect(a.taskId).toBe(b.taskId)
        expect(TaskId.matchesAreaSet({ taskId: a.taskId, areas: ['tools-aggregate-schema', 'single-test'] })).toEqual({
            ok: true,
            errors: []
        })
        expect(TaskId.matchesAreaSet({ taskId: a.taskId, areas: ['single-test'] }).ok).toBe(false)
    })

    it('splits at the last "--", so a slug may contain one', () => {
        expect(TaskId.parse({ taskId: 'demo--api/x--0a1b2c3d' })).toEqual({
            schemaIdSlug: 'demo--api/x',
            areaSetHash: '0a1b2c3d',
            errors: []
        })
    })

    it.each([
        [{ areas: ['single-test'] }, 'TID-001'],
        [{ schemaIdSlug: 3, areas: ['single-test'] }, 'TID-002'],
        [{ schemaIdSlug: ' ', areas: ['single-test'] }, 'TID-003'],
        [{ schemaIdSlug: 'x', areas: [] }, 'TID-003'],
        [{ schemaIdSlug: 'x', areas: 'single-test' }, 'TID-002'],
        [{ schemaIdSlug: 'x', areas: ['security'] }, 'TID-004'],
        [{ schemaIdSlug: 'x', areas: [1] }, 'TID-002']
    ])('refuses to generate from %j (%s)', (input, code) => {
        expect(TaskId.generate(input)).toMatchObject({ taskId: null, errors: [{ code }] })
    })

    it.each([
        [{}, 'TID-001'],
        [{ taskId: 5 }, 'TID-002'],
        [{ taskId: '' }, 'TID-003'],
        [{ taskId: 'demoapi' }, 'TID-006'],
        [{ taskId: '--0a1b2c3d' }, 'TID-003'],
        [{ taskId: 'demoapi--XYZ' }, 'TID-007']
    ])('refuses to parse %j (%s)', (input, code) => {
        expect(TaskId.parse(input).errors[0]?.code).toBe(code)
    })
})

describe('PromptBuilder.emitAreaPrompts (prompts.json v2, 05 §1.6)', () => {
    it('writes the CLI fields in the CLI order, with composed and deferred areas', () => {
        const { prompts, state, errors } = emit()
        expect(errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(Object.keys(prompts ?? {})).toEqual([
            'target',
            'flow',
            'tier',
            'maxGrade',
            'namespace',
            'scoringProtocol',
            'maxIterations',
            'taskId',
            'goal',
            'areas',
            'skippedAreas',
            'gatedAreas',
            'payloadSkeleton'
        ])
        expect(prompts).toMatchObject({
            target: 'demoapi',
            flow: 'provider',
            tier: 'autonomous',
            maxGrade: 'B',
            namespace: 'demoapi',
            scoringProtocol: 'v1',
            maxIterations: 1
        })
        expect(prompts?.taskId).toBe(TaskId.generate({ schemaIdSlug: 'demoapi', areas: BASE.areas }).taskId)
        expect(prompts?.areas.map((a) => [a.area, a.deferred])).toEqual([
            ['single-test', false],
            ['tools-aggregate-schema', false],
            ['tools-aggregate-namespace', false],
            ['about-namespace', true]
        ])
        expect(prompts?.areas[3]).toEqual({
            area: 'about-namespace',
            prompt: null,
            personaRequired: true,
            deferred: true,
            reason: 'persona required: no persona was supplied for this area'
        })
        expect(prompts?.payloadSkeleton).toEqual({
            taskId: prompts?.taskId,
            areas: BASE.areas.map((area) => ({ area, results: [] }))
        })
        expect(state?.askedByArea).toEqual({
            'single-test': 2,
            'tools-aggregate-schema': 1,
            'tools-aggregate-namespace': 5
        })
        expect(state).toMatchObject({
            status: 'prompts-emitted',
            taskComplete: false,
            consumedAreas: [],
            emittedAreaSet: BASE.areas,
            createdAt: NOW,
            phases: { promptsEmitted: NOW, scoresReceived: null }
        })
        expect(PromptBuilder.validatePromptsV2({ prompts }).errors).toEqual([])
    })

    it('composes prompts the CLI tests recognise: over 100 characters, with "## Questions" and a Goal-Block', () => {
        const { prompts } = emit({ goal: { maxTurns: 7 } })
        for (const a of prompts?.areas ?? []) {
            if (a.prompt === null) continue
            expect(a.prompt.length).toBeGreaterThan(100)
            expect(a.prompt).toContain('## Questions')
            expect(a.questionCount).toBe(Areas.get({ area: a.area }).area?.questionCount)
        }
        expect(prompts?.goal.condition).toContain('stop after 7 turns')
        expect(prompts?.goal.goalBlock.startsWith('## Goal-Block')).toBe(true)
        expect(prompts?.goal.condition).toMatchInlineSnapshot(
            `"Grade the provider "demoapi" (tier autonomous, max grade B) across all required areas until every area has a schema-valid grading file — or stop after 7 turns."`
        )
    })

    it('composes a persona-bound area when a persona is given, and defers it when it is not in the allow-list', () => {
        const persona = { basePersonaId: 'schema-maintainer', lensId: 'documentation-dx-reviewer' }
        expect(emit({ persona }).prompts?.areas[3]?.deferred).toBe(false)
        expect(emit({ persona, personaAreas: [] }).prompts?.areas[3]).toMatchObject({
            deferred: true,
            reason: 'persona required: the area is not in the persona allow-list'
        })
    })

    it('warns about file placeholders it could not resolve', () => {
        expect(emit({ files: {} }).errors.filter((e) => e.code === 'PB-WARN-002').length).toBeGreaterThan(0)
    })

    it('passes skipped and gated areas through and keeps them apart from the emitted ones', () => {
        const { prompts } = emit({
            areas: ['single-test'],
            skippedAreas: [{ area: 'about-namespace', naReason: 'out-of-scope-resource', note: 'no about resource' }],
            gatedAreas: [
                {
                    area: 'tools-aggregate-namespace',
                    reason: 'dependency all-namespace-schemas below requiredLevel deterministic-green (have structural-valid)'
                }
            ]
        })
        expect(prompts?.skippedAreas).toEqual([
            { area: 'about-namespace', naReason: 'out-of-scope-resource', note: 'no about resource' }
        ])
        expect(prompts?.gatedAreas.map((g) => g.area)).toEqual(['tools-aggregate-namespace'])
    })

    it('validates a prompts.json v2 document, as a value or as text', () => {
        const { prompts } = emit()
        expect(PromptBuilder.validatePromptsV2({ prompts: JSON.stringify(prompts) }).valid).toBe(true)
        expect(PromptBuilder.validatePromptsV2({ prompts: { ...prompts, maxGrade: 'S' } }).errors).toContainEqual(
            expect.objectContaining({ code: 'PB-024', path: '/prompts/maxGrade' })
        )
        expect(
            PromptBuilder.validatePromptsV2({
                prompts: { ...prompts, areas: [{ area: 'single-test', prompt: null, deferred: false }] }
            }).errors[0]?.code
        ).toBe('PB-024')
        expect(PromptBuilder.validatePromptsV2({}).errors[0]).toMatchObject({ code: 'PB-001', path: '/prompts' })
        expect(PromptBuilder.validatePromptsV2({ prompts: '{' }).errors[0]?.code).toBe('INP-004')
    })

    it('is reproducible: the same input gives the same prompts.json', () => {
        expect(JSON.stringify(emit().prompts)).toBe(JSON.stringify(emit().prompts))
    })

    it.each([
        ['no target', { target: undefined }, 'PB-001', '/target'],
        ['a target with spaces', { target: 'demo api' }, 'PB-003', '/target'],
        ['an unknown flow', { flow: 'namespace' }, 'PB-002', '/flow'],
        ['no now', { now: undefined }, 'PB-001', '/now'],
        ['no areas', { areas: [] }, 'PB-003', '/areas'],
        ['an unknown area', { areas: ['security'] }, 'PB-004', '/areas/0'],
        ['a selection area in the provider flow', { areas: ['about-selection'] }, 'PB-015', '/areas/0'],
        ['an area twice', { areas: ['single-test', 'single-test'], counts: { tools: 1 } }, 'PB-016', '/areas/1'],
        [
            'an area both emitted and skipped',
            { skippedAreas: [{ area: 'single-test', naReason: 'out-of-scope-resource' }] },
            'PB-016',
            '/skippedAreas/0/area'
        ],
        [
            'a free-text skip reason',
            { areas: ['single-test'], skippedAreas: [{ area: 'about-namespace', naReason: 'nope' }] },
            'NA-001',
            '/skippedAreas/0/naReason'
        ],
        [
            'a gated area without reason',
            { areas: ['single-test'], gatedAreas: [{ area: 'about-namespace' }] },
            'PB-002',
            '/gatedAreas/0'
        ],
        ['no tool count for single-test', { counts: { schemas: 1 } }, 'PB-001', '/counts/tools'],
        ['an unknown file placeholder', { files: { envPath: '/home/.env' } }, 'PB-002', '/files/envPath'],
        ['a bad persona', { persona: { basePersonaId: 'crypto', lensId: 'x' } }, 'PB-006', '/persona/basePersonaId'],
        ['a bad maxIterations', { maxIterations: 0 }, 'PB-002', '/maxIterations'],
        ['a too long goal', { goal: { condition: 'x'.repeat(4000) } }, 'PB-007', '/goal/condition']
    ])('rejects %s', (_name, patch, code, path) => {
        const input = Object.fromEntries(Object.entries({ ...BASE, ...patch }).filter(([, v]) => v !== undefined))
        const result = PromptBuilder.emitAreaPrompts(input)
        expect(result.prompts).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})

function payloadFor(taskId: string | undefined): Record<string, unknown> {
    const all = (area: string, value: number | 'n/a' = 4) =>
        Object.fromEntries(Areas.questions({ area }).questions.map((q) => [q.id, value]))
    return {
        taskId,
        scores: [],
        areas: [
            {
                area: 'single-test',
                results: [
                    { tool: 'getA', scores: all('single-test'), reasoning: 'a' },
                    { tool: 'getB', scores: all('single-test', 5), reasoning: 'b' }
                ]
            },
            {
                area: 'tools-aggregate-schema',
                results: [{ scores: all('tools-aggregate-schema'), reasoning: 'schema' }]
            },
            {
                area: 'tools-aggregate-namespace',
                results: Areas.questions({ area: 'tools-aggregate-namespace' }).questions.map((q) => ({
                    scores: { [q.id]: 3 },
                    reasoning: `ns ${q.id}`
                }))
            }
        ]
    }
}

describe('PromptBuilder.verifyScoresPayload (the CLI checks, 05 §1.6)', () => {
    const { prompts, state } = emit()
    const taskId = prompts?.taskId

    it('accepts a payload for the open emit and reports what is still missing', () => {
        const result = PromptBuilder.verifyScoresPayload({ prompts, state, scores: payloadFor(taskId) })
        expect(result).toMatchObject({
            accepted: true,
            legacy: false,
            acceptedAreas: ['single-test', 'tools-aggregate-schema', 'tools-aggregate-namespace'],
            missingAreas: ['about-namespace'],
            taskComplete: false,
            errors: []
        })
    })

    it('counts areas consumed earlier as accepted', () => {
        const result = PromptBuilder.verifyScoresPayload({
            prompts,
            state: { ...state, consumedAreas: ['about-namespace'] },
            scores: payloadFor(taskId)
        })
        expect(result.taskComplete).toBe(true)
    })

    it('takes the legacy path, verifying nothing, without a taskId (step 1)', () => {
        expect(PromptBuilder.verifyScoresPayload({ prompts, state, scores: { scores: [] } })).toMatchObject({
            accepted: true,
            legacy: true,
            acceptedAreas: null,
            missingAreas: null,
            taskComplete: null
        })
    })

    it('treats an empty results[] as "not answered yet", not as an error', () => {
        const scores = { taskId, scores: [], areas: [{ area: 'single-test', results: [] }] }
        expect(PromptBuilder.verifyScoresPayload({ prompts, state, scores })).toMatchObject({
            accepted: true,
            acceptedAreas: [],
            taskComplete: false
        })
    })

    it.each([
        ['scores not an array', { taskId, scores: {} }, 'PB-019', '/scores/scores'],
        ['a document that is not an object', 'null', 'PB-019', '/scores'],
        ['areas missing with a taskId', { taskId, scores: [] }, 'PB-019', '/scores/areas'],
        ['an unknown taskId (step 3)', { ...payloadFor('demoapi--00000000') }, 'TID-008', '/scores/taskId'],
        ['a malformed taskId', { ...payloadFor('no-hash') }, 'TID-007', '/scores/taskId'],
        [
            'an area not in the emitted set (step 5)',
            { taskId, scores: [], areas: [{ area: 'namespace-description', results: [] }] },
            'PB-021',
            '/scores/areas'
        ],
        [
            'a per-area question-count mismatch (step 6)',
            {
                taskId,
                scores: [],
                areas: [
                    {
                        area: 'single-test',
                        results: [{ tool: 'getA', scores: { 'Q-single-test-01': 4 }, reasoning: 'r' }]
                    }
                ]
            },
            'PB-022',
            '/scores/areas/0/results'
        ],
        [
            'an unfilled skeleton score',
            {
                taskId,
                scores: [],
                areas: [
                    {
                        area: 'tools-aggregate-schema',
                        results: [{ scores: { 'Q-tools-aggregate-schema-01': null }, reasoning: 'r' }]
                    }
                ]
            },
            'PB-023',
            '/scores/areas/0/results/0/scores/Q-tools-aggregate-schema-01'
        ],
        [
            'a score of 0',
            {
                taskId,
                scores: [],
                areas: [
                    {
                        area: 'tools-aggregate-schema',
                        results: [{ scores: { 'Q-tools-aggregate-schema-01': 0 }, reasoning: 'r' }]
                    }
                ]
            },
            'PB-023',
            '/scores/areas/0/results/0/scores/Q-tools-aggregate-schema-01'
        ],
        [
            'a question of another area',
            {
                taskId,
                scores: [],
                areas: [
                    { area: 'tools-aggregate-schema', results: [{ scores: { 'Q-single-test-01': 4 }, reasoning: 'r' }] }
                ]
            },
            'ARE-007',
            '/scores/areas/0/results/0/scores/Q-single-test-01'
        ],
        [
            'an area twice',
            {
                taskId,
                scores: [],
                areas: [
                    { area: 'tools-aggregate-schema', results: [] },
                    { area: 'tools-aggregate-schema', results: [] }
                ]
            },
            'PB-016',
            '/scores/areas/1/area'
        ],
        ['an unknown field', { ...payloadFor(taskId), grade: 'A' }, 'PB-026', '/scores/grade'],
        [
            'an unknown area name',
            { taskId, scores: [], areas: [{ area: 'security', results: [] }] },
            'PB-004',
            '/scores/areas/0/area'
        ],
        ['invalid JSON text', '{"taskId":', 'INP-004', '/scores']
    ])('rejects %s', (_name, scores, code, path) => {
        const result = PromptBuilder.verifyScoresPayload({ prompts, state, scores })
        expect(result.accepted).toBe(false)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it.each([
        ['a state without an open emit (step 2)', { prompts, state: { target: 'demoapi' } }, 'PB-020', '/state'],
        [
            'a state with a bad count',
            { prompts, state: { ...state, askedByArea: { 'single-test': -1 } } },
            'PB-025',
            '/state/askedByArea/single-test'
        ],
        [
            'prompts of another emit',
            { prompts: { ...prompts, taskId: 'demoapi--11111111' }, state },
            'TID-008',
            '/prompts/taskId'
        ],
        ['a malformed prompts.json', { prompts: { ...prompts, tier: 'gold' }, state }, 'PB-024', '/prompts/tier']
    ])('rejects %s', (_name, docs, code, path) => {
        const result = PromptBuilder.verifyScoresPayload({ ...docs, scores: payloadFor(taskId) })
        expect(result.accepted).toBe(false)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})

describe('PromptBuilder.payloadToAreaOutputs', () => {
    const envelope = { schemaHash: '3f9a1c2e', timestamp: '2026-05-31T11:05:00Z', iteration: 1 }
    const payload = payloadFor('x') as { areas: Array<{ area: string; results: unknown[] }> }

    it('makes one output per tool for single-test and one per area for namespace areas', () => {
        const perTool = PromptBuilder.payloadToAreaOutputs({
            area: 'single-test',
            results: payload.areas[0]?.results,
            envelope
        })
        expect(perTool.errors).toEqual([])
        expect(perTool.outputs.map((o) => o.tool)).toEqual(['getA', 'getB'])
        expect(perTool.outputs[0]?.output).toMatchObject({
            gradingId: '3f9a1c2e--2026-05-31T11-05-00Z',
            area: 'single-test',
            persona: null,
            improvementHints: [],
            harness: 'claude-code'
        })
        const merged = PromptBuilder.payloadToAreaOutputs({
            area: 'tools-aggregate-namespace',
            results: payload.areas[2]?.results,
            envelope
        })
        expect(merged.outputs).toHaveLength(1)
        expect(merged.outputs[0]?.output.answers).toHaveLength(5)
    })

    it('gives outputs Areas.toGradingEntry turns into valid entries', () => {
        const { outputs } = PromptBuilder.payloadToAreaOutputs({
            area: 'single-test',
            results: payload.areas[0]?.results,
            envelope
        })
        for (const { output } of outputs) {
            const { entry } = Areas.toGradingEntry({
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
            expect(validateGradingEntry({ entry }).valid).toBe(true)
        }
    })

    it('takes the n/a reason from naReasons, or an explicit default, never a silent one', () => {
        const results = [
            {
                scores: {
                    ...Object.fromEntries(
                        Areas.questions({ area: 'tools-aggregate-schema' }).questions.map((q) => [q.id, 4])
                    ),
                    'Q-tools-aggregate-schema-05': 'n/a'
                },
                reasoning: 'r',
                naReasons: { 'Q-tools-aggregate-schema-05': 'requires-private-data' }
            }
        ]
        const ok = PromptBuilder.payloadToAreaOutputs({ area: 'tools-aggregate-schema', results, envelope })
        expect(ok.outputs[0]?.output.answers.find((a) => a.score === 'n/a')?.naReason).toBe('requires-private-data')
        const bare = [{ scores: results[0]?.scores, reasoning: 'r' }]
        const noReason = PromptBuilder.payloadToAreaOutputs({ area: 'tools-aggregate-schema', results: bare, envelope })
        expect(noReason.errors).toContainEqual(
            expect.objectContaining({ code: 'NA-001', path: '/results/0/naReasons/Q-tools-aggregate-schema-05' })
        )
        const withDefault = PromptBuilder.payloadToAreaOutputs({
            area: 'tools-aggregate-schema',
            results: bare,
            envelope,
            defaultNaReason: 'blocked-by-precondition'
        })
        expect(withDefault.errors).toEqual([])
    })

    it.each([
        ['no area', { area: undefined }, 'PB-001', '/area'],
        ['no results', { results: [] }, 'PB-002', '/results'],
        ['no envelope', { envelope: undefined }, 'PB-001', '/envelope'],
        ['a bad iteration', { envelope: { ...envelope, iteration: 9 } }, 'GRD-030', '/envelope/iteration'],
        ['bad hints', { envelope: { ...envelope, improvementHints: 'x' } }, 'GRD-031', '/envelope/improvementHints'],
        ['a bad hash', { envelope: { ...envelope, schemaHash: 'zz' } }, 'ARE-009', '/envelope/schemaHash'],
        [
            'a persona on single-test',
            { envelope: { ...envelope, persona: { basePersonaId: 'ai-engineer', lensId: 'x' } } },
            'ARE-010',
            '/envelope/persona'
        ],
        [
            'a null score',
            { results: [{ tool: 'getA', scores: { 'Q-single-test-01': null }, reasoning: 'r' }] },
            'PB-023',
            '/results/0/scores/Q-single-test-01'
        ],
        [
            'an empty reasoning',
            { results: [{ tool: 'getA', scores: { 'Q-single-test-01': 4 }, reasoning: '' }] },
            'PB-026',
            '/results/0/reasoning'
        ],
        [
            'a result missing questions',
            { results: [{ tool: 'getA', scores: { 'Q-single-test-01': 4 }, reasoning: 'r' }] },
            'ARE-006',
            '/results/0'
        ],
        ['a bad default reason', { defaultNaReason: 'whatever' }, 'NA-001', '/defaultNaReason']
    ])('rejects %s', (_name, patch, code, path) => {
        const input = Object.fromEntries(
            Object.entries({ area: 'single-test', results: payload.areas[0]?.results, envelope, ...patch }).filter(
                ([k, v]) => v !== undefined || !(k in patch)
            )
        )
        const result = PromptBuilder.payloadToAreaOutputs(input)
        expect(result.outputs).toEqual([])
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})
