import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { exampleGradeArgs, memoryIo } from './helpers.js'

const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-22T18:00:00Z'
let dir = ''

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-cli-'))
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe('flowmcp-grading grade', () => {
    it('grades the example providers into an island and prints one row per schema', async () => {
        const io = memoryIo({}, { env: { ETHERSCAN_API_KEY: 'example-key-not-real' } })
        const code = await run(['grade', ...exampleGradeArgs('providers', join(dir, 'island'), now)], io)
        // Every unit that could be graded was: a tool not tested for a missing key is a result, not a hole (exit 0).
        expect(code).toBe(0)
        const out = io.out()
        expect(out).toMatch(/openmeteo\.forecast\s+3\/3\s+B \d\.\d\d\s+B\s+stable/)
        // IDX-014 in words: the file to create and where to declare it (openmeteo has its About, etherscan none).
        // now a line of the namespace's fix list, under the file to create.
        expect(out).toMatch(
            /etherscan \(namespace, grade [A-D]\): ✖ \d+ problems?.*\n\s+\S+\/etherscan\/resources\/etherscan-about\.md\n\s+-\s+warning\s+IDX-014\s+No About: create \S+\/etherscan\/resources\/etherscan-about\.md/
        )
        expect(out).not.toMatch(/openmeteo-about\.md\n\s+-\s+warning\s+IDX-014/)
        expect(out).toContain('its grade stops at B')
        // A tool that could not be tested: the schema is blocked, with no grade (03 §6.2).
        expect(out).toMatch(
            /quakefeed\.events\s+\d\/3\s+-\s+-\s+blocked: getEvent tested, below the bar of 3 working tests/
        )
        // The namespaces' own table: grade, answers and index status each in a column; one headline grade (the index's
        // grade is named apart only where it differs from the run's).
        expect(out).toMatch(/\nnamespace\s+areas\s+grade\s+answers\s+status\s+issues\n/)
        expect(out).toMatch(/\nopenmeteo\s+3\/3\s+B\s+judged\s+operational\s+-\n/)
        expect(out).toMatch(/\netherscan\s+\d\/3\s+[A-D]\s+judged\s+partial\s+-\n/)
        expect(out).not.toContain('index grade')
        expect(out).not.toContain(' · index ')
        expect(out).toMatch(/sportsodds\.odds\s+\S+\s+REJECTED/)
        expect(out).toContain('single-test/getEvent blocked — fewer-than-3-working-tests')
        expect(out).not.toContain('example-key-not-real')
        const index = JSON.parse(await readFile(join(dir, 'island/providers/openmeteo/index.json'), 'utf8')) as {
            status: string
        }
        expect(index.status).toBe('operational')
    })

    it('grades from recordings without answers as provisional, with --json', async () => {
        const io = memoryIo()
        expect(
            await run(
                [
                    'grade',
                    '--json',
                    '--now',
                    now,
                    '--recordings',
                    join(examples, 'recordings'),
                    join(examples, 'providers/openmeteo/forecast.mjs')
                ],
                io
            )
        ).toBe(0)
        const parsed = JSON.parse(io.out()) as {
            schemas: Array<{ grading: { mode: string }; prompts: Array<{ unit: string }> }>
        }
        expect(parsed.schemas[0]?.grading.mode).toBe('provisional')
        expect(parsed.schemas[0]?.prompts.length).toBeGreaterThan(0)
    })

    it('exits 2 for a missing path, no path, or conflicting flags', async () => {
        expect(await run(['grade', '/nonexistent/schema.mjs'], memoryIo())).toBe(2)
        expect(await run(['grade'], memoryIo())).toBe(2)
        expect(await run(['grade', '--live', '--offline', join(examples, 'providers')], memoryIo())).toBe(2)
        expect(await run(['grade', '--answers', '/nonexistent.json', join(examples, 'providers')], memoryIo())).toBe(2)
    })
})

describe('flowmcp-grading emit-prompts / consume-scores', () => {
    it('emits prompts.json and turns a scores.json into a grade report', async () => {
        const schema = join(examples, 'providers/openmeteo/forecast.mjs')
        const emit = memoryIo()
        expect(await run(['emit-prompts', schema], emit)).toBe(0)
        const prompts = JSON.parse(emit.out()) as {
            schemaId: string
            scoringProtocol: string
            prompts: Array<{ dimension: string }>
        }
        expect(prompts).toMatchObject({ schemaId: 'openmeteo/forecast', scoringProtocol: 'v1' })
        const scores = {
            schemaIdSlug: 'openmeteo_forecast',
            scoringProtocol: 'v1',
            creator: { skill: 'flowmcp-scoring', skillVersion: '1.0.0', session: 's-1' },
            harness: { name: 'claude-code', version: '2.1.0', model: 'claude-opus-4-7', modelContext: '200k' },
            timestamp: now,
            scores: prompts.prompts.map((p) => ({ dimension: p.dimension, score: 4.5, reasoning: 'clear' }))
        }
        const io = memoryIo({ 'p.json': emit.out(), 's.json': JSON.stringify(scores) })
        const code = await run(['consume-scores', 'p.json', 's.json', '--schema', schema, '--now', now], io)
        expect(io.err()).toBe('')
        expect(code).toBe(0)
        expect(JSON.parse(io.out())).toMatchObject({ grade: 'A', validationPassed: true })
    })

    it('rejects malformed scores with a code and exit 1, and bad usage with exit 2', async () => {
        const schema = join(examples, 'providers/openmeteo/forecast.mjs')
        const emit = memoryIo()
        await run(['emit-prompts', schema], emit)
        const io = memoryIo({ 'p.json': emit.out(), 's.json': '{"scoringProtocol":"v9","scores":[]}' })
        expect(await run(['consume-scores', 'p.json', 's.json', '--schema', schema, '--now', now], io)).toBe(1)
        expect(io.err()).toMatch(/SPV-\d{3}/)
        expect(await run(['consume-scores', 'p.json'], memoryIo())).toBe(2)
        expect(await run(['emit-prompts'], memoryIo())).toBe(2)
    })
})

describe('flowmcp-grading rebuild-index / export', () => {
    it('rebuilds a namespace index and exports the namespace without overwriting', async () => {
        const island = join(dir, 'island2')
        await run(['grade', ...exampleGradeArgs('providers/openmeteo', island, now)], memoryIo())
        const rebuild = memoryIo()
        expect(await run(['rebuild-index', join(island, 'providers/openmeteo'), '--now', now], rebuild)).toBe(0)
        expect(rebuild.out()).toContain('operational')
        const out = join(dir, 'export-openmeteo')
        const exp = memoryIo()
        expect(await run(['export', 'openmeteo', out, '--island', island, '--include-schemas'], exp)).toBe(0)
        expect(exp.out()).toContain('exported namespace openmeteo')
        expect(exp.out()).toMatch(/\(\d+ files: index\.json and \d+ more\)/)
        // An existing folder is a usage problem (exit 2, as docs/cli.md says), never overwritten.
        expect(await run(['export', 'openmeteo', out, '--island', island], memoryIo())).toBe(2)
    })

    it('refuses a folder that is not a namespace or selection, and missing arguments', async () => {
        expect(await run(['rebuild-index', dir], memoryIo())).toBe(2)
        expect(await run(['export', 'openmeteo'], memoryIo())).toBe(2)
    })
})
