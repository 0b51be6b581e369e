import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

const examples = fileURLToPath(new URL('../../examples/', import.meta.url))
const now = '2026-11-24T10:00:00Z'
const dir = await mkdtemp(join(tmpdir(), 'flowmcp-tree-'))
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

// A stand-in LLM command: reads the JudgeRequest on stdin, answers every question with 4.
const FAKE_JUDGE = `let input = ''
process.stdin.on('data', (c) => (input += c))
process.stdin.on('end', () => {
    const request = JSON.parse(input)
    process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'fake judge' })) }))
})
`

describe('flowmcp-grading grade <tree> --judge-command', () => {
    it('grades every namespace in full with a command as the judge, writes the HTML report, and resumes', async () => {
        const judge = join(dir, 'fake-judge.mjs')
        await writeFile(judge, FAKE_JUDGE)
        const island = join(dir, 'island')
        const report = join(dir, 'report.html')
        const io = memoryIo({}, { env: { PATH: process.env.PATH } })
        await run(
            [
                'grade',
                join(examples, 'providers'),
                '--island',
                island,
                '--recordings',
                join(examples, 'recordings'),
                '--judge-command',
                `node ${judge}`,
                '--judge-model',
                'fake-model-1',
                '--judge-concurrency',
                '2',
                '--concurrency',
                '2',
                '--report',
                report,
                '--now',
                now
            ],
            io
        )
        const out = io.out()
        expect(out).not.toContain('(B)')
        expect(out).toMatch(/\nopenmeteo\s+3\/3\s+B\s+judged\s+operational\s+-\n/)
        const html = await readFile(report, 'utf8')
        for (const ns of ['etherscan', 'openmeteo', 'quakefeed', 'sportsodds']) expect(html).toContain(ns)

        // Every answer of the judge is recorded with the model named on the command line, never with the command's first word.
        const written = (await readdir(join(island, 'providers'), { recursive: true })).filter(
            (f) => f.includes('_gradings') && f.endsWith('.json')
        )
        expect(written.length).toBeGreaterThan(0)
        for (const file of written) {
            const entry = JSON.parse(await readFile(join(island, 'providers', file), 'utf8')) as {
                harness: string
                gradings: Array<{ determinism: string; llmModel?: string; graderIdentity: { name: string } }>
            }
            expect(entry.harness).toBe('claude-code')
            for (const g of entry.gradings.filter((x) => x.determinism === 'non-deterministic'))
                expect([g.llmModel, g.graderIdentity.name]).toEqual(['fake-model-1', 'judge-command'])
        }

        const again = memoryIo({}, { env: { PATH: process.env.PATH } })
        await run(
            [
                'grade',
                join(examples, 'providers'),
                '--island',
                island,
                '--recordings',
                join(examples, 'recordings'),
                '--judge-command',
                `node ${judge}`,
                '--judge-model',
                'fake-model-1',
                '--now',
                now
            ],
            again
        )
        expect(again.out()).toMatch(/openmeteo\.forecast\s+3\/3\s+B \d\.\d\d\s+B\s+stable · kept 3, graded 0/)
        expect(again.out()).toContain('units kept from the island (graded before from the same inputs), 0 graded now')
    })

    it('refuses --judge-command without --judge-model, and a harness the spec does not allow, before grading (exit 2)', async () => {
        const judge = join(dir, 'never-run.mjs')
        await writeFile(
            judge,
            `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(join(dir, 'ran'))}, 'x')\n`
        )
        const io = memoryIo({}, { env: { PATH: process.env.PATH } })
        expect(
            await run(
                ['grade', join(examples, 'providers/openmeteo'), '--judge-command', `node ${judge}`, '--now', now],
                io
            )
        ).toBe(2)
        expect(io.err()).toContain('--judge-command needs --judge-model <name>')
        const harness = memoryIo({}, { env: { PATH: process.env.PATH } })
        expect(
            await run(
                [
                    'grade',
                    join(examples, 'providers/openmeteo'),
                    '--judge-command',
                    `node ${judge}`,
                    '--judge-model',
                    'm',
                    '--judge-harness',
                    'ollama',
                    '--now',
                    now
                ],
                harness
            )
        ).toBe(2)
        expect(harness.err()).toContain('--judge-harness')
        expect(await readdir(dir)).not.toContain('ran')
        expect(await run(['grade', join(examples, 'providers/openmeteo'), '--judge-model', 'm'], memoryIo())).toBe(2)
    })

    it('refuses judge options without --judge-command and --report without --island (exit 2)', async () => {
        expect(await run(['grade', join(examples, 'providers/openmeteo'), '--judge-timeout', '5'], memoryIo())).toBe(2)
        expect(
            await run(['grade', join(examples, 'providers/openmeteo'), '--report', join(dir, 'x.html')], memoryIo())
        ).toBe(2)
        expect(await run(['grade', join(examples, 'providers/openmeteo'), '--concurrency', '0'], memoryIo())).toBe(2)
    })
})
