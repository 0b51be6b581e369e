import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-25T10:00:00Z'
let dir = ''

// A judge command that counts its calls, leaks what it holds into stderr, and fails (a refused request: not retried).
const JUDGE = `import { existsSync, readFileSync, writeFileSync } from 'node:fs'
const file = process.env.COUNT_FILE
writeFileSync(file, String((existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0) + 1))
process.stderr.write('invalid request with sk-ant-api03-LEAKEDleakedLEAKED0001 and Authorization: Bearer leakedBearerToken0002 for token ' + process.env.MY_JUDGE_TOKEN)
process.exit(1)
`

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-judge-fail-'))
    await writeFile(join(dir, 'judge.mjs'), JUDGE)
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe('grade with a judge that fails every call', () => {
    it('calls it 3 times across three namespaces, says once why it stopped, and leaks no key', async () => {
        const io = memoryIo(
            {},
            {
                env: {
                    PATH: process.env.PATH ?? '',
                    COUNT_FILE: join(dir, 'count'),
                    MY_JUDGE_TOKEN: 'judge-env-secret-0003',
                    ETHERSCAN_API_KEY: 'server-param-secret-0004'
                }
            }
        )
        const providers = ['etherscan', 'openmeteo', 'quakefeed'].map((p) => join(examples, 'providers', p))
        const code = await run(
            [
                'grade',
                ...providers,
                '--recordings',
                join(examples, 'recordings'),
                '--judge-command',
                `node ${join(dir, 'judge.mjs')}`,
                '--judge-model',
                'm',
                '--judge-env',
                'COUNT_FILE',
                '--judge-env',
                'MY_JUDGE_TOKEN',
                '--sarif',
                join(dir, 'g.sarif'),
                '--json',
                '--now',
                now
            ],
            io
        )
        expect(code).toBe(1)
        expect(Number(await readFile(join(dir, 'count'), 'utf8'))).toBe(3)
        const out = io.out()
        const json = JSON.parse(out) as {
            judgeCalls: { calls: number; firstAsks: number; retries: number }
            namespaces: Array<{ errors: Array<{ code: string }> }>
            schemas: Array<{ errors: Array<{ code: string }> }>
        }
        const all = [...json.namespaces.flatMap((n) => n.errors), ...json.schemas.flatMap((s) => s.errors)]
        expect(all.filter((e) => e.code === 'GRA-006')).toHaveLength(3)
        expect(all.filter((e) => e.code === 'GRA-025')).toHaveLength(1)
        // The run's count is the calls the command saw: the units the stop left alone are none.
        expect(json.judgeCalls).toMatchObject({ calls: 3, firstAsks: 3, retries: 0 })
        const written = out + io.err() + (await readFile(join(dir, 'g.sarif'), 'utf8'))
        for (const secret of [
            'LEAKEDleakedLEAKED0001',
            'leakedBearerToken0002',
            'judge-env-secret-0003',
            'server-param-secret-0004'
        ])
            expect(written).not.toContain(secret)
        expect(out).toContain('[redacted]')
    })
})

// A judge command that answers every question and reports usage as the recipes do: `{ text, usage }` on stdout.
const USAGE_JUDGE = `import { existsSync, readFileSync, writeFileSync } from 'node:fs'
const file = process.env.COUNT_FILE
writeFileSync(file, String((existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0) + 1))
let input = ''
process.stdin.on('data', (c) => (input += c))
process.stdin.on('end', () => {
    const request = JSON.parse(input)
    const answers = request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'counted' }))
    const text = JSON.stringify({ answers, improvementHints: [] })
    process.stdout.write(JSON.stringify({ text, usage: { inputTokens: 1000, outputTokens: 50, cachedInputTokens: 600 } }))
})
`

describe('grade with a judge command that reports its usage', () => {
    it('totals it in --json and in the island report, the estimate beside it, for exactly the calls made', async () => {
        await writeFile(join(dir, 'usage.mjs'), USAGE_JUDGE)
        const count = join(dir, 'usage-count')
        const island = join(dir, 'usage-island')
        const io = memoryIo({}, { env: { PATH: process.env.PATH ?? '', COUNT_FILE: count } })
        const code = await run(
            [
                'grade',
                join(examples, 'providers', 'openmeteo'),
                '--recordings',
                join(examples, 'recordings'),
                '--judge-command',
                `node ${join(dir, 'usage.mjs')}`,
                '--judge-model',
                'm',
                '--judge-env',
                'COUNT_FILE',
                '--island',
                island,
                '--json',
                '--now',
                now
            ],
            io
        )
        expect(code, io.err()).toBe(0)
        const calls = Number(await readFile(count, 'utf8'))
        const json = JSON.parse(io.out()) as {
            judgeCalls: Record<string, any>
            namespaces: Array<{ judgeCalls: Record<string, any> }>
            schemas: Array<{ grading: { judgeCalls?: { calls: number } } | null }>
        }
        expect(json.judgeCalls).toMatchObject({
            calls,
            usage: {
                inputTokens: 1000 * calls,
                outputTokens: 50 * calls,
                cachedInputTokens: 600 * calls,
                reportedCalls: calls
            }
        })
        expect(json.judgeCalls.estimated.inputTokens).toBeGreaterThan(0)
        expect(json.namespaces[0]?.judgeCalls).toEqual(json.judgeCalls)
        const { renderIslandReport } = await import('../../src/index.js')
        const { nodeFs } = await import('../../src/cli/node.js')
        const report = await renderIslandReport({ fs: nodeFs(), root: island })
        // The report reads each schema's summary.json: the schemas' calls (the namespace's own units are in --json).
        const mine = json.schemas.reduce((n, s) => n + (s.grading?.judgeCalls?.calls ?? 0), 0)
        expect(mine).toBeGreaterThan(0)
        const f = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
        expect(report.html).toContain(
            `the schemas&#39; last runs: ${f(mine)} judge calls (${f(mine)} first asks, 0 repair turns, 0 retries) · reported ${f(1000 * mine)} input tokens (${f(600 * mine)} cached) and ${f(50 * mine)} output tokens for ${f(mine)} of them · estimated`
        )
    }, 60_000)
})

describe('what the CLI writes is redacted', () => {
    it('erases the values of secret-named variables, but not a short one that is no key', async () => {
        const { redactingIo } = await import('../../src/cli/io.js')
        const base = memoryIo(
            {},
            { env: { SERVICE_API_KEY: 'svc-key-value-123456', DISABLE_TOKEN: 'true', PATH: '/usr/bin' } }
        )
        const io = redactingIo(base)
        io.stdout('{"ok": true, "key": "svc-key-value-123456", "path": "/usr/bin"}')
        io.addSecrets?.(['added-later-secret'])
        io.stderr('added-later-secret here')
        expect(base.out()).toBe('{"ok": true, "key": "[redacted]", "path": "/usr/bin"}')
        expect(base.err()).toBe('[redacted] here')
    })
})
