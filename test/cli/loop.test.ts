import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { replyFor } from '../grade/helpers.js'
import type { Area } from '../../src/index.js'
import { memoryIo } from './helpers.js'

const examples = fileURLToPath(new URL('../../examples/', import.meta.url))
const now = '2026-11-22T18:00:00Z'
const dir = await mkdtemp(join(tmpdir(), 'flowmcp-loop-'))
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

const readIndex = async (island: string, ns: string): Promise<Record<string, any>> =>
    JSON.parse(await readFile(join(island, 'providers', ns, 'index.json'), 'utf8')) as Record<string, any>

describe('the CLI closes the loop: emit → answer → grade/consume → island → rebuild-index', () => {
    it('emit-prompts --areas writes the answers file that grade --answers consumes', async () => {
        const schema = join(examples, 'providers/openmeteo/forecast.mjs')
        const emit = memoryIo()
        expect(
            await run(
                ['emit-prompts', '--areas', '--now', now, '--recordings', join(examples, 'recordings'), schema],
                emit
            )
        ).toBe(0)
        const file = JSON.parse(emit.out()) as {
            grader: Record<string, unknown>
            answers: Record<string, Record<string, unknown>>
            prompts: Record<
                string,
                Record<
                    string,
                    { area: Area; questions: Array<{ questionId: string }>; outputSchema: object; prompt: string }
                >
            >
        }
        const units = file.prompts['openmeteo.forecast'] ?? {}
        expect(Object.keys(units)).toContain('tools-aggregate-schema')
        expect(Object.values(units)[0]?.questions[0]).toHaveProperty('questionId')
        expect(Object.values(file.answers['openmeteo.forecast'] ?? {}).every((a) => a === null)).toBe(true)

        // A harness answers every unit by its question ids, and fills in the grader.
        const answered = {
            grader: {
                name: 'my-harness',
                version: '1.0.0',
                llmModel: 'some-model',
                persona: { basePersonaId: 'schema-maintainer', lensId: 'weather' }
            },
            answers: {
                'openmeteo.forecast': Object.fromEntries(
                    Object.entries(units).map(([unit, u]) => [unit, replyFor(u.area, 4)])
                )
            }
        }
        const island = join(dir, 'island-a')
        const io = memoryIo({}, {})
        const answersPath = join(dir, 'answers.json')
        await import('node:fs/promises').then((fs) => fs.writeFile(answersPath, JSON.stringify(answered)))
        const code = await run(
            [
                'grade',
                schema,
                '--island',
                island,
                '--answers',
                answersPath,
                '--recordings',
                join(examples, 'recordings'),
                '--now',
                now
            ],
            io
        )
        expect(io.out()).toMatch(/openmeteo\.forecast\s+\d\/\d\s+B \d\.\d\d\s+B\s+stable/)
        expect(code).toBe(0)
        expect((await readIndex(island, 'openmeteo')).grade).toBe('B')
    })

    it('consume-scores --island writes the report into the island, so rebuild-index reflects it', async () => {
        const schema = join(examples, 'providers/openmeteo/forecast.mjs')
        const island = join(dir, 'island-b')
        const emit = memoryIo()
        await run(['emit-prompts', schema], emit)
        const prompts = JSON.parse(emit.out()) as { schemaIdSlug: string; prompts: Array<{ dimension: string }> }
        const scores = {
            schemaIdSlug: prompts.schemaIdSlug,
            scoringProtocol: 'v1',
            creator: { skill: 'flowmcp-scoring', skillVersion: '1.0.0', session: 's-1' },
            harness: { name: 'claude-code', version: '2.1.0', model: 'claude-opus-4-7', modelContext: '200k' },
            timestamp: now,
            scores: prompts.prompts.map((p) => ({ dimension: p.dimension, score: 4, reasoning: 'clear' }))
        }
        const io = memoryIo({ 'p.json': emit.out(), 's.json': JSON.stringify(scores) })
        expect(
            await run(
                ['consume-scores', 'p.json', 's.json', '--schema', schema, '--island', island, '--json', '--now', now],
                io
            )
        ).toBe(0)
        const out = JSON.parse(io.out()) as { ok: boolean; report: { grade: string }; written: string }
        expect(out).toMatchObject({ ok: true, report: { grade: 'B' } })
        expect(out.written).toContain('/providers/openmeteo/forecast/_gradings/tools-aggregate-schema--')
        const rebuilt = memoryIo()
        expect(await run(['rebuild-index', join(island, 'providers/openmeteo'), '--json', '--now', now], rebuilt)).toBe(
            0
        )
        // The protocol grades the tools aggregate only: its grade is there, and the schema waits for its tools' own gradings.
        expect(JSON.parse(rebuilt.out()).index.schemas.forecast).toMatchObject({
            status: 'pending',
            toolsAggregate: { grade: 'B' }
        })
    })

    it('refuses prompts of one schema with scores for another (SPV-020), and --json still prints one document', async () => {
        const emit = memoryIo()
        await run(['emit-prompts', join(examples, 'providers/openmeteo/forecast.mjs')], emit)
        const io = memoryIo({ 'p.json': emit.out(), 's.json': '{}' })
        expect(
            await run(
                [
                    'consume-scores',
                    'p.json',
                    's.json',
                    '--schema',
                    join(examples, 'providers/quakefeed/events.mjs'),
                    '--json',
                    '--now',
                    now
                ],
                io
            )
        ).toBe(1)
        const out = JSON.parse(io.out()) as { ok: boolean; report: null; errors: Array<{ code: string }> }
        expect(out).toMatchObject({ ok: false, report: null, errors: [{ code: 'SPV-020' }] })
    })

    it('prints one JSON document when scores are rejected', async () => {
        const schema = join(examples, 'providers/openmeteo/forecast.mjs')
        const emit = memoryIo()
        await run(['emit-prompts', schema], emit)
        const io = memoryIo({ 'p.json': emit.out(), 's.json': '[{"dimension":"whenToUse","score":4,"reasoning":"x"}]' })
        expect(await run(['consume-scores', 'p.json', 's.json', '--schema', schema, '--json', '--now', now], io)).toBe(
            1
        )
        expect(JSON.parse(io.out())).toMatchObject({
            ok: false,
            report: null,
            errors: [expect.objectContaining({ code: expect.stringMatching(/^SPV-/) })]
        })
    })

    it('exits 2 for a --now that is no date-time', async () => {
        const io = memoryIo()
        expect(await run(['grade', join(examples, 'providers/openmeteo'), '--now', 'yesterday'], io)).toBe(2)
        expect(io.err()).toContain('--now must be an ISO-8601 date-time')
    })
})
