import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import {
    Areas,
    gradeSingleSchema,
    httpPortFromRecordings,
    JudgeCost,
    type JudgeRequest,
    type JudgeMessage
} from '../../src/index.js'
import { AREAS } from '../../src/catalogue.js'
import { OUTPUT_TOKENS } from '../../src/grade/estimate.js'
import { memoryIo } from '../cli/helpers.js'
import { EXAMPLES, exampleMain, grader, replyFor } from './helpers.js'

const now = '2026-11-25T10:00:00Z'
const examples = new URL('../../examples/', import.meta.url).pathname
let dir = ''

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-messages-'))
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

async function gradeOpenmeteo(): Promise<{ asked: JudgeRequest[]; entries: unknown[] }> {
    const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
    const about = await readFile(new URL('providers/openmeteo/resources/openmeteo-about.md', EXAMPLES), 'utf8')
    const asked: JudgeRequest[] = []
    const judge = async (request: JudgeRequest): Promise<string> => (
        asked.push(request), JSON.stringify(replyFor(request.area, 4))
    )
    const result = await gradeSingleSchema({
        schema: { main },
        schemaId: 'openmeteo.forecast',
        grader,
        options: {
            now,
            source,
            judge,
            about: { text: about },
            http: httpPortFromRecordings({
                recordings: [JSON.parse(await readFile(new URL('recordings/openmeteo.json', EXAMPLES), 'utf8'))]
            })
        }
    })
    return { asked, entries: result.entries }
}

describe('JudgeRequest.messages: a cache-friendly judge request', () => {
    it('orders the model input for a prefix cache: one system message for every call, the schema files, the area, the unit last', async () => {
        const { asked } = await gradeOpenmeteo()
        expect(asked.length).toBeGreaterThan(3)
        for (const request of asked) {
            expect(request.messages.map((m) => [m.role, m.part, m.cacheable])).toEqual([
                ['system', 'instructions', true],
                ['user', 'files', true],
                ['user', 'area', true],
                ['user', 'unit', false]
            ])
        }
        // One system message for every call of the run: the rules and the run's data-block boundary.
        expect(new Set(asked.map((r) => r.messages[0]?.content)).size).toBe(1)
        expect(asked[0]?.messages[0]?.content).toMatch(/<<<END FLOWMCP-DATA-[0-9a-f]{16}>>>/)
        // The files message is the same for every unit of the schema; the two tool units share the area message too.
        const schemaUnits = asked.filter((r) => r.area === 'single-test' || r.area === 'tools-aggregate-schema')
        expect(new Set(schemaUnits.map((r) => r.messages[1]?.content)).size).toBe(1)
        const tools = asked.filter((r) => r.area === 'single-test')
        expect(tools.length).toBe(2)
        expect(tools[0]?.messages[2]?.content).toBe(tools[1]?.messages[2]?.content)
        expect(tools[0]?.messages[3]?.content).not.toBe(tools[1]?.messages[3]?.content)
    })

    it('carries only what the judge must answer: no deterministic question, the reply format compact, no JSON Schema', async () => {
        const { asked } = await gradeOpenmeteo()
        const deterministic = AREAS.flatMap((area) => Areas.questions({ area }).questions).filter(
            (q) => q.determinism === 'deterministic'
        )
        for (const request of asked) {
            const text = request.messages.map((m) => m.content).join('\n')
            for (const q of deterministic) expect(text).not.toContain(`[${q.id}]`)
            for (const q of request.questions) expect(text).toContain(`[${q.questionId}] ${q.question}`)
            expect(text).not.toContain('"$schema"')
            expect(text).not.toContain('"additionalProperties"')
            const unit = request.messages[3]?.content ?? ''
            expect(unit).toContain(
                `Answer ${request.questions.map((q) => q.questionId).join(', ')}; reply like {"answers":[{"questionId":"${request.questions[0]?.questionId}","score":4,"reasoning":"…"}]}`
            )
            // The full schema stays available for structured-output APIs.
            expect(request.outputSchema).toBeTypeOf('object')
        }
    })

    it('gives byte-identical entries: only what is sent changed', async () => {
        const first = await gradeOpenmeteo()
        const second = await gradeOpenmeteo()
        expect(JSON.stringify(second.entries)).toBe(JSON.stringify(first.entries))
    })
})

describe('JudgeCost', () => {
    const m = (part: JudgeMessage['part'], content: string): JudgeMessage => ({
        role: part === 'instructions' ? 'system' : 'user',
        content,
        cacheable: part !== 'unit',
        part
    })

    it('counts for each call its longest common prefix with any earlier call as cached', () => {
        const sys = m('instructions', 'S'.repeat(400))
        const files = m('files', 'F'.repeat(800))
        const estimate = JudgeCost.estimate({
            calls: [
                { key: 'a', messages: [sys, files, m('area', 'A'.repeat(40)), m('unit', 'unit one')] },
                { key: 'a', messages: [sys, files, m('area', 'A'.repeat(40)), m('unit', 'unit two')] },
                { key: 'b', messages: [sys, m('files', 'G'.repeat(800)), m('unit', 'x')] }
            ]
        })
        // Texts are "role\ncontent\n": the second call shares everything up to "unit " of its last message.
        const first = 'system\n'.length + 401 + 'user\n'.length + 801 + 'user\n'.length + 41 + 'user\n'.length + 9
        const shared2 = first - 'one\n'.length
        const shared3 = 'system\n'.length + 401 + 'user\n'.length
        expect(estimate.calls).toBe(3)
        expect(estimate.byKey.map((r) => r.key)).toEqual(['a', 'b'])
        expect(estimate.byKey[0]?.cachedTokens).toBe(Math.floor(shared2 / 4))
        expect(estimate.byKey[1]?.cachedTokens).toBe(Math.floor(shared3 / 4))
        expect(estimate.uncachedTokens).toBe(estimate.inputTokens - estimate.cachedTokens)
    })

    it('expects output tokens per answer and per call, and prices the run', () => {
        const calls = [
            { key: 'a', messages: [m('unit', 'x'.repeat(4000))], questions: 5 },
            { key: 'a', messages: [m('unit', 'y'.repeat(4000))] }
        ]
        const estimate = JudgeCost.estimate({ calls, prices: { input: 3, output: 15 } })
        expect(estimate.outputTokens).toBe(OUTPUT_TOKENS.perCall * 2 + OUTPUT_TOKENS.perAnswer * 6)
        expect(estimate.cost?.total).toBeCloseTo((estimate.inputTokens * 3 + estimate.outputTokens * 15) / 1e6, 12)
        expect(estimate.cost?.missing).toEqual([])
        expect(JudgeCost.estimate({ calls, prices: { output: 15 } }).cost?.missing).toEqual(['input'])
        expect(JudgeCost.estimate({ calls }).cost).toBeNull()
    })

    it('states that a repair turn may add at most one call per unit, billed for its own follow-up when the prefix is cached', () => {
        const sys = m('instructions', 'S'.repeat(4000))
        const calls = [
            { key: 'a', messages: [sys, m('unit', 'one')], questions: 3 },
            { key: 'a', messages: [sys, m('unit', 'two')], questions: 3 }
        ]
        const estimate = JudgeCost.estimate({ calls, prices: { input: 3, output: 15 } })
        expect(estimate.repairs.maxCalls).toBe(2)
        // The repeated messages are served by the cache: what is billed in full is the follow-ups, far less than a call.
        expect(Math.abs(estimate.repairs.cachedTokens - estimate.inputTokens)).toBeLessThanOrEqual(1)
        expect(estimate.repairs.uncachedTokens).toBeGreaterThan(0)
        expect(estimate.repairs.uncachedTokens / 2).toBeLessThan(estimate.inputTokens / 2 / 4)
        expect(estimate.repairs.outputTokens).toBe(estimate.outputTokens)
        expect(estimate.repairs.cost).toBeGreaterThan(0)
        // Not in the run's own figures.
        expect(estimate.calls).toBe(2)
        expect(JudgeCost.estimate({ calls: [] }).repairs).toEqual({
            maxCalls: 0,
            cachedTokens: 0,
            uncachedTokens: 0,
            outputTokens: 0,
            cost: null
        })
    })

    it('refuses a price that is not a number from 0 (GRA-002)', () => {
        const estimate = JudgeCost.estimate({ calls: [], prices: { input: -1, output: 'x' as never } })
        expect(estimate.errors.map((e) => e.path)).toEqual(['/prices/input', '/prices/output'])
    })

    it('leaves out a malformed call with GRA-002 and answers a missing list', () => {
        const estimate = JudgeCost.estimate({
            calls: [
                { key: 'a', messages: [{ role: 'user', content: 7 }] } as never,
                { key: 'b', messages: [m('unit', 'ok')] }
            ]
        })
        expect(estimate.errors).toEqual([expect.objectContaining({ code: 'GRA-002', path: '/calls/0' })])
        expect(estimate.calls).toBe(1)
        expect(JudgeCost.estimate(undefined as never).errors).toEqual([
            expect.objectContaining({ code: 'GRA-002', path: '/calls' })
        ])
    })
})

describe('grade --estimate', () => {
    it('matches what a recording judge then receives, calls and tokens, and writes nothing', async () => {
        const judge = join(dir, 'recording-judge.mjs')
        const log = join(dir, 'requests.jsonl')
        await writeFile(
            judge,
            `import { appendFileSync, readFileSync } from 'node:fs'
const request = JSON.parse(readFileSync(0, 'utf8'))
appendFileSync(${JSON.stringify(log)}, JSON.stringify(request.messages) + '\\n')
process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'recorded' })) }))
`
        )
        await writeFile(log, '')
        const target = join(examples, 'providers/openmeteo')
        const estimateIo = memoryIo({}, { env: { PATH: process.env.PATH ?? '' } })
        expect(
            await run(
                [
                    'grade',
                    target,
                    '--estimate',
                    '--json',
                    '--recordings',
                    join(examples, 'recordings'),
                    '--island',
                    join(dir, 'never'),
                    '--now',
                    now
                ],
                estimateIo
            )
        ).toBe(0)
        const estimate = (
            JSON.parse(estimateIo.out()) as {
                estimate: { calls: number; inputTokens: number; cachedTokens: number; uncachedTokens: number }
            }
        ).estimate
        const gradeIo = memoryIo({}, { env: { PATH: process.env.PATH ?? '' } })
        await run(
            [
                'grade',
                target,
                '--recordings',
                join(examples, 'recordings'),
                '--judge-command',
                `node ${judge}`,
                '--judge-model',
                'recording-model',
                '--now',
                now
            ],
            gradeIo
        )
        const received = (await readFile(log, 'utf8'))
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as JudgeMessage[])
        const actual = JudgeCost.estimate({ calls: received.map((messages) => ({ key: 'run', messages })) })
        expect({
            calls: estimate.calls,
            inputTokens: estimate.inputTokens,
            cachedTokens: estimate.cachedTokens
        }).toEqual({ calls: actual.calls, inputTokens: actual.inputTokens, cachedTokens: actual.cachedTokens })
        expect(estimate.uncachedTokens).toBeLessThan(estimate.inputTokens / 2)
        const { existsSync } = await import('node:fs')
        expect(existsSync(join(dir, 'never'))).toBe(false)
        // The table form names the run row.
        const textIo = memoryIo()
        await run(['grade', target, '--estimate', '--now', now], textIo)
        expect(textIo.out()).toMatch(/^run\s+\d+\s+[\d,]+\s+[\d,]+\s+[\d,]+\s+[\d,]+$/m)
        expect(textIo.out()).toMatch(/cost: pass --price-input and --price-output/)
        expect(textIo.out()).toMatch(/repair turns: .*at most \d+ more calls/)
        // With prices: the cost, from the same figures.
        const pricedIo = memoryIo()
        expect(
            await run(
                ['grade', target, '--estimate', '--json', '--price-input', '3', '--price-output', '15', '--now', now],
                pricedIo
            )
        ).toBe(0)
        const priced = (
            JSON.parse(pricedIo.out()) as {
                estimate: {
                    inputTokens: number
                    outputTokens: number
                    cost: { input: number; output: number; total: number }
                }
            }
        ).estimate
        expect(priced.outputTokens).toBeGreaterThan(0)
        expect(priced.cost.input).toBeCloseTo((priced.inputTokens * 3) / 1e6, 9)
        expect(priced.cost.output).toBeCloseTo((priced.outputTokens * 15) / 1e6, 9)
        const bad = memoryIo()
        expect(await run(['grade', target, '--estimate', '--price-input', 'cheap', '--now', now], bad)).toBe(2)
        expect(bad.err()).toMatch(/--price-input must be a price/)
    })
})
