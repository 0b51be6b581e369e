import { Ajv2020 } from 'ajv/dist/2020.js'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
    Areas,
    createMemoryFs,
    gradeSelection,
    gradeSingleSchema,
    httpPortFromRecordings,
    validateGradingEntry,
    type Judge,
    type JudgeRequest,
    type RuntimePort
} from '../../src/index.js'
import { AREAS } from '../../src/catalogue.js'
import { EXAMPLES, exampleMain, grader, recording } from './helpers.js'

const now = '2026-11-22T18:00:00Z'
const aboutText = (): Promise<string> =>
    readFile(new URL('providers/openmeteo/resources/openmeteo-about.md', EXAMPLES), 'utf8')
const realForms = (): Record<string, unknown> =>
    JSON.parse(readFileSync(new URL('../fixtures/schemas/real-forms.json', import.meta.url), 'utf8')) as Record<
        string,
        unknown
    >
// A root only handlers resolve: the key-domain check cannot decide and hands Q-single-test-03 to the judge.
const placeholderRoot = (): Record<string, unknown> => ({
    ...realForms(),
    root: 'https://--chain--.rpc-demo.network',
    requiredServerParams: ['ALCHEMY_API_KEY'],
    headers: { 'X-Api-Key': '{{ALCHEMY_API_KEY}}' }
})

/** A judge answering the given question ids of each request with 4 (booleans pass), recording what it was asked. */
function judgeAnswering(
    which: (request: JudgeRequest) => readonly string[],
    extra: (request: JudgeRequest) => Record<string, unknown> = () => ({})
): { judge: Judge; asked: JudgeRequest[] } {
    const asked: JudgeRequest[] = []
    const boolean = new Set<string>(
        AREAS.flatMap((area) => Areas.questions({ area }).questions)
            .filter((q) => q.scoreType === 'boolean')
            .map((q) => q.id)
    )
    return {
        asked,
        judge: async (request) => {
            asked.push(request)
            return JSON.stringify({
                answers: which(request).map((questionId) => ({
                    questionId,
                    score: boolean.has(questionId) ? 'pass' : 4,
                    reasoning: `Checked ${questionId}.`
                })),
                ...extra(request)
            })
        }
    }
}
const everyQuestion = (request: JudgeRequest): string[] =>
    Areas.questions({ area: request.area }).questions.map((q) => q.id)
const askedQuestions = (request: JudgeRequest): string[] => request.questions.map((q) => q.questionId)

async function gradeOpenmeteo(judge: Judge, over: Record<string, unknown> = {}) {
    const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
    return gradeSingleSchema({
        schema: { main },
        schemaId: 'openmeteo.forecast',
        grader: { ...grader, ...over },
        options: {
            now,
            source,
            judge,
            about: { text: await aboutText() },
            http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
        }
    })
}

describe('the judge request', () => {
    it('deterministic questions are answered by code and left out of the judge request: questions, prompt and output schema', async () => {
        const { judge, asked } = judgeAnswering(askedQuestions)
        const result = await gradeOpenmeteo(judge)
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        const byUnit = new Map(asked.map((r) => [r.unit, r]))
        const single = byUnit.get('single-test/getHourlyForecast') as JudgeRequest
        expect(askedQuestions(single)).toEqual([
            'Q-single-test-04',
            'Q-single-test-05',
            'Q-single-test-06',
            'Q-single-test-07',
            'Q-single-test-08',
            'Q-single-test-09',
            'Q-single-test-10'
        ])
        expect(single.prompt).not.toContain("Is the tool's docs URL reachable with an HTTP 200 status?")
        expect(single.prompt).not.toContain('[Q-single-test-01]')
        expect(single.prompt).toContain(
            'Code has answered the deterministic questions Q-single-test-01, Q-single-test-02, Q-single-test-03; they are not asked here.'
        )
        const answers = (
            single.outputSchema as {
                oneOf: Array<{
                    properties?: {
                        answers?: {
                            minItems: number
                            maxItems: number
                            items: { allOf: Array<{ properties?: { questionId?: { enum: string[] } } }> }
                        }
                    }
                }>
            }
        ).oneOf[1]?.properties?.answers
        expect(answers).toMatchObject({ minItems: 7, maxItems: 7 })
        expect(
            answers?.items.allOf.find((p) => p.properties?.questionId?.enum !== undefined)?.properties?.questionId?.enum
        ).toEqual(askedQuestions(single))
        expect(askedQuestions(byUnit.get('tools-aggregate-schema') as JudgeRequest)).not.toContain(
            'Q-tools-aggregate-schema-01'
        )
        expect(askedQuestions(byUnit.get('tools-aggregate-namespace') as JudgeRequest)).not.toContain(
            'Q-tools-aggregate-namespace-01'
        )
        expect(askedQuestions(byUnit.get('about-namespace') as JudgeRequest)).not.toContain('Q-about-namespace-01')
        // No deterministic question of this schema was left to the judge.
        const deterministic = new Set<string>(
            AREAS.flatMap((area) => Areas.questions({ area }).questions)
                .filter((q) => q.determinism === 'deterministic')
                .map((q) => q.id)
        )
        for (const request of asked) expect(askedQuestions(request).filter((id) => deterministic.has(id))).toEqual([])
        expect(askedQuestions(byUnit.get('namespace-description') as JudgeRequest)).toEqual(
            everyQuestion(byUnit.get('namespace-description') as JudgeRequest)
        )
    })

    it('sends an output schema a reply answering only the asked questions matches, and one answering more does not', async () => {
        const { judge, asked } = judgeAnswering(askedQuestions)
        await gradeOpenmeteo(judge)
        const single = asked.find((r) => r.area === 'single-test') as JudgeRequest
        const ajv = new Ajv2020({ strict: false, allErrors: true })
        for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format as never)
        const validate = ajv.compile(single.outputSchema)
        const reply = (ids: readonly string[]) => ({
            ...single.envelope,
            answers: ids.map((questionId) => ({ questionId, score: 4, reasoning: 'r' })),
            improvementHints: []
        })
        expect(validate(reply(askedQuestions(single))), JSON.stringify(validate.errors)).toBe(true)
        expect(validate(reply(everyQuestion(single)))).toBe(false)
    })

    it('keeps a deterministic question code left to the judge (deferred) in the judge request', async () => {
        const { judge, asked } = judgeAnswering(askedQuestions)
        // The placeholder root is resolved by the schema's handlers: its tests run through the runtime (a stand-in here).
        const runtime: RuntimePort = {
            run: async () => ({ ok: true, data: { members: [{ id: 1, name: 'A member' }] } })
        }
        const http = httpPortFromRecordings({ recordings: [] })
        const result = await gradeSingleSchema({
            schema: { main: placeholderRoot() },
            fileName: 'forms.mjs',
            grader,
            options: {
                now,
                judge,
                http,
                runtime,
                runtimeTools: 'all',
                serverParams: { ALCHEMY_API_KEY: 'alchemy-demo-value' }
            }
        })
        const single = asked.find((r) => r.area === 'single-test') as JudgeRequest
        expect(askedQuestions(single)).toContain('Q-single-test-03')
        expect(askedQuestions(single)).not.toContain('Q-single-test-01')
        expect(single.prompt).toContain('key-domain check could not decide')
        expect(single.prompt).toContain(
            'Code has answered the deterministic questions Q-single-test-01, Q-single-test-02; they are not asked here.'
        )
        const entry = result.entries.find((e) => e.area === 'single-test')
        expect(entry?.gradings.find((g) => g.questionId === 'Q-single-test-03')).toMatchObject({
            determinism: 'non-deterministic',
            score: 'pass'
        })
    })

    it.each([
        ['a clean schema with a live pretest and its About', () => gradeOpenmeteo],
        [
            'a key on a placeholder root (a deferred question)',
            () => (judge: Judge) =>
                gradeSingleSchema({
                    schema: { main: placeholderRoot() },
                    fileName: 'forms.mjs',
                    grader,
                    options: { now, judge, serverParams: { ALCHEMY_API_KEY: 'alchemy-demo-value' } }
                })
        ]
    ])(
        'writes byte-identical entries whether the judge answers every question or only the ones it is asked: %s',
        async (_name, grade) => {
            const all = await grade()(judgeAnswering(everyQuestion).judge)
            const only = await grade()(judgeAnswering(askedQuestions).judge)
            expect(only.entries.length).toBeGreaterThan(0)
            expect(JSON.stringify(only.entries)).toBe(JSON.stringify(all.entries))
            for (const entry of only.entries) expect(validateGradingEntry({ entry }).valid).toBe(true)
            expect(only.errors).toEqual(all.errors)
        }
    )

    it('refuses a reply that leaves out a question it was asked, after one repair turn (one GRA-018 naming ARE-020), never filling it in', async () => {
        const { judge } = judgeAnswering((r) => askedQuestions(r).filter((id) => id !== 'Q-single-test-05'))
        const result = await gradeOpenmeteo(judge)
        const unit = result.grading?.units.find((u) => u.unit === 'single-test/getHourlyForecast')
        expect(unit?.status).toBe('error')
        const rejected = result.errors.find(
            (e) => e.code === 'GRA-018' && e.path === '/units/single-test~1getHourlyForecast'
        )
        expect(rejected?.message).toMatch(/ARE-020 at \/answers: .*Q-single-test-05/)
        // One issue per problem: the inner ARE-020 is in the GRA-018's detail, not repeated beside it.
        expect(result.errors.map((e) => e.code)).not.toContain('ARE-020')
        expect(unit?.issues).toContainEqual(rejected)
        expect(result.grading?.judgeCalls?.repairs).toBeGreaterThan(0)
    })
})

describe('provenance of the judge answers', () => {
    it("records the model a judge reply names as the llmModel of that unit, the grader's elsewhere", async () => {
        const { judge } = judgeAnswering(askedQuestions, (r) =>
            r.area === 'single-test' ? { model: ' gpt-4o-2024-08-06 ' } : {}
        )
        const result = await gradeOpenmeteo(judge)
        expect(result.errors.filter((e) => e.severity !== 'info')).toEqual([])
        for (const entry of result.entries) {
            const models = new Set(
                entry.gradings.filter((g) => g.determinism === 'non-deterministic').map((g) => g.llmModel)
            )
            expect([...models]).toEqual([entry.area === 'single-test' ? 'gpt-4o-2024-08-06' : grader.llmModel])
            expect(
                entry.gradings.filter((g) => g.determinism === 'deterministic').every((g) => g.llmModel === undefined)
            ).toBe(true)
        }
    })

    it('records the model a pre-collected answer names, as for a judge reply', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const { judge } = judgeAnswering(askedQuestions)
        const answered = JSON.parse(
            (await judge(
                {
                    area: 'tools-aggregate-schema',
                    questions: Areas.questions({ area: 'tools-aggregate-schema' })
                        .questions.slice(1)
                        .map((q) => ({ questionId: q.id, question: q.question }))
                } as unknown as JudgeRequest,
                { signal: new AbortController().signal }
            )) as string
        ) as Record<string, unknown>
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: {
                now,
                source,
                http: httpPortFromRecordings({ recordings: [recording('openmeteo')] }),
                answers: { 'tools-aggregate-schema': { ...answered, model: 'harness-model-2' } }
            }
        })
        const entry = result.entries.find((e) => e.area === 'tools-aggregate-schema')
        expect(entry?.gradings.filter((g) => g.determinism === 'non-deterministic').map((g) => g.llmModel)).toEqual(
            Array(5).fill('harness-model-2')
        )
    })

    it.each([
        ['an empty name', ''],
        ['a name of 201 characters', 'm'.repeat(201)],
        ['a number', 42],
        ['a name with a line break', 'gpt\n4o']
    ])("keeps the grader's model and warns (GRA-024) when a reply names %s", async (_name, model) => {
        const { judge } = judgeAnswering(askedQuestions, (r) => (r.unit === 'namespace-description' ? { model } : {}))
        const result = await gradeOpenmeteo(judge)
        expect(result.errors.filter((e) => e.code === 'GRA-024')).toEqual([
            expect.objectContaining({ severity: 'warning', path: '/units/namespace-description/model' })
        ])
        const entry = result.entries.find((e) => e.area === 'namespace-description')
        expect(entry?.gradings.every((g) => g.llmModel === grader.llmModel)).toBe(true)
    })

    it("records the grader's harness in the request envelope and the entries (the spec's only one by default)", async () => {
        const named = judgeAnswering(askedQuestions)
        const result = await gradeOpenmeteo(named.judge, { harness: 'claude-code' })
        expect(
            named.asked.every((r) => r.envelope.harness === 'claude-code' && r.prompt.includes('harness claude-code'))
        ).toBe(true)
        expect(result.entries.every((e) => e.harness === 'claude-code')).toBe(true)
        const unnamed = judgeAnswering(askedQuestions)
        await gradeOpenmeteo(unnamed.judge)
        expect(unnamed.asked.every((r) => r.envelope.harness === 'claude-code')).toBe(true)
    })

    it('refuses a grader harness no grading entry may record (GRA-002), before asking the judge', async () => {
        const { judge, asked } = judgeAnswering(askedQuestions)
        const result = await gradeOpenmeteo(judge, { harness: 'ollama' })
        expect(result.grading).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code: 'GRA-002', path: '/grader/harness' }))
        expect(asked).toEqual([])
    })

    it('asks a selection judge only its questions and records the model its replies name', async () => {
        const fs = createMemoryFs()
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const schemaIds: string[] = []
        for (let i = 1; i <= 5; i += 1) {
            const namespace = `weather${i}`
            await gradeSingleSchema({
                schema: { main: { ...main, namespace } },
                schemaId: `${namespace}.forecast`,
                grader,
                options: {
                    fs,
                    root: '/island',
                    now,
                    source: source.replace("'openmeteo'", `'${namespace}'`),
                    judge: judgeAnswering(everyQuestion).judge,
                    http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
                }
            })
            schemaIds.push(`${namespace}.forecast`)
        }
        const { judge, asked } = judgeAnswering(askedQuestions, () => ({ model: 'local-llama' }))
        const selectionGrader = {
            ...grader,
            persona: { basePersonaId: 'decision-maker', lensId: 'weather-planner' }
        } as const
        const result = await gradeSelection({
            selectionId: 'weather-five',
            schemaIds,
            grader: selectionGrader,
            options: { fs, root: '/island', now: '2026-11-22T19:00:00Z', judge }
        })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        const aggregate = asked.find((r) => r.area === 'selection-aggregate') as JudgeRequest
        expect(askedQuestions(aggregate)).toEqual([
            'Q-selection-aggregate-02',
            'Q-selection-aggregate-03',
            'Q-selection-aggregate-04',
            'Q-selection-aggregate-05'
        ])
        expect(result.entries.length).toBeGreaterThan(0)
        for (const entry of result.entries) {
            expect(validateGradingEntry({ entry }).valid).toBe(true)
            expect(
                new Set(entry.gradings.filter((g) => g.determinism === 'non-deterministic').map((g) => g.llmModel))
            ).toEqual(new Set(['local-llama']))
        }
    })
})
