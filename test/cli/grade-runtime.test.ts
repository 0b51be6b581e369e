import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeOptionsOf } from '../../src/cli/command-options.js'
import { gradeCommand } from '../../src/cli/commands/grade.js'
import type { GradeCommandOptions } from '../../src/cli/commands/grade-options.js'
import { parseCommandLine } from '../../src/cli/options.js'
import { run } from '../../src/cli/run.js'
import type { Recording } from '../../src/index.js'
import { buildChildScript, prepareRuntime, runtimePresent, type PreparedRuntime } from '../runtime/harness.js'
import { memoryIo } from './helpers.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/runtime/', import.meta.url))
const now = '2026-11-25T12:00:00Z'

describe('grade --runtime: usage', () => {
    it.each([
        [
            ['--runtime-libraries', '/x'],
            'grade: --runtime-libraries and --runtime-lists need --runtime <flowmcp-core folder>'
        ],
        [
            ['--runtime-lists', '/x'],
            'grade: --runtime-libraries and --runtime-lists need --runtime <flowmcp-core folder>'
        ],
        [
            ['--runtime', '/nonexistent/flowmcp-core'],
            'grade: --runtime /nonexistent/flowmcp-core: no readable package.json there (name the flowmcp-core folder)'
        ]
    ])('exits 2 for %j', async (flags, message) => {
        const io = memoryIo()
        expect(await run(['grade', join(FIXTURES, 'plain', 'plain.mjs'), ...flags], io)).toBe(2)
        expect(io.err()).toContain(message)
        expect(io.err()).not.toContain('not a folder')
    })
})

describe.skipIf(!runtimePresent)(
    'grade --runtime: handler schemas tested through the FlowMCP runtime in a child process',
    () => {
        let runtime: PreparedRuntime
        let work: string
        let childScript: string
        const grade = async (
            extra: Partial<GradeCommandOptions>,
            env: Record<string, string> = { FIXTURE_TOKEN: 'fixture-token-value' }
        ): Promise<{ code: number; out: string; err: string }> => {
            const io = memoryIo({}, { env, cwd: work })
            const code = await gradeCommand(
                [join(work, 'providers', 'runtimefixture')],
                {
                    json: false,
                    live: false,
                    now,
                    runtime: { folder: runtime.folder, libraries: runtime.base, childScript },
                    ...extra
                },
                io
            )
            return { code, out: io.out(), err: io.err() }
        }

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'grade-runtime-')))
            mkdirSync(join(work, 'child'))
            childScript = await buildChildScript(join(work, 'child'))
            mkdirSync(join(work, 'providers', 'runtimefixture'), { recursive: true })
            cpSync(join(FIXTURES, 'plain', 'plain.mjs'), join(work, 'providers', 'runtimefixture', 'plain.mjs'))
        }, 60_000)

        afterAll(() => {
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        it('with --recordings, runs every test through the runtime, marks the schema "via runtime" and records the runtime version in summary.json', async () => {
            const island = join(work, 'island')
            const { out } = await grade({ recordings: join(FIXTURES, 'recordings'), island })
            expect(out).toMatch(/runtimefixture\.plain\s.*· via runtime/)
            expect(out).toContain(
                'runtimefixture.plain: sumNumbers, getStatus, getFromOrigin tested through the FlowMCP runtime: 5 of 6 tests answered'
            )
            expect(out).toContain(
                `via runtime = the tests of the schema's handler tools ran through the FlowMCP runtime ${runtime.version} (--runtime)`
            )
            expect(out).not.toContain('fixture-token-value')
            const summary = JSON.parse(
                readFileSync(join(island, 'providers', 'runtimefixture', 'plain', 'summary.json'), 'utf8')
            ) as {
                runtime?: { version: string | null; isolation?: string }
                perTool: Record<string, { working: number; viaRuntime?: boolean }>
            }
            // The isolation in force: the module doors always, under a network namespace where the platform makes one.
            expect(summary.runtime).toEqual({
                version: runtime.version,
                isolation: expect.stringMatching(/^(network-namespace\+|node-permission\+)?module-doors$/)
            })
            expect(summary.perTool.sumNumbers).toMatchObject({ working: 3, viaRuntime: true })
        })

        it('--json marks each tool unit the runtime ran with via: "runtime" and names the runtime version', async () => {
            const { out } = await grade({ json: true, recordings: join(FIXTURES, 'recordings') })
            const report = JSON.parse(out) as {
                runtime: { version: string } | null
                schemas: Array<{
                    runtime?: { version: string; tools: Record<string, { tests: number; ok: number }> }
                    grading: { units: Array<{ unit: string; via?: string }> }
                }>
            }
            expect(report.runtime).toEqual({ version: runtime.version })
            const schema = report.schemas[0]
            expect(schema?.runtime).toEqual({
                version: runtime.version,
                tools: {
                    sumNumbers: { tests: 3, ok: 3 },
                    getStatus: { tests: 2, ok: 1 },
                    getFromOrigin: { tests: 1, ok: 1 }
                }
            })
            const units = Object.fromEntries((schema?.grading.units ?? []).map((u) => [u.unit, u.via ?? null]))
            expect(units).toMatchObject({
                'single-test/sumNumbers': 'runtime',
                'single-test/getStatus': 'runtime',
                'single-test/getFromOrigin': 'runtime',
                'tools-aggregate-schema': null
            })
        })

        it('offline (the default), runs the handler tools’ tests with no network: the computation is tested, the tools that fetch are blocked as network not granted', async () => {
            const island = join(work, 'island-offline')
            const { out, err } = await grade({ island })
            expect(err).toContain(
                "grade: --runtime offline: the handler tools' tests run with no network (a test that needs it fails as network not granted: pass --live or --recordings)"
            )
            expect(out).toContain(
                'runtimefixture.plain: sumNumbers, getStatus, getFromOrigin tested through the FlowMCP runtime: 3 of 6 tests answered'
            )
            const summary = JSON.parse(
                readFileSync(join(island, 'providers', 'runtimefixture', 'plain', 'summary.json'), 'utf8')
            ) as { ran: boolean; perTool: Record<string, { working: number; blocked: boolean; reason: string | null }> }
            expect(summary.ran).toBe(true)
            expect(summary.perTool.sumNumbers).toMatchObject({ working: 3, blocked: false })
            expect(summary.perTool.getStatus).toMatchObject({
                working: 0,
                blocked: true,
                reason: 'network-not-granted'
            })
            expect(summary.perTool.getFromOrigin).toMatchObject({
                working: 0,
                blocked: true,
                reason: 'network-not-granted'
            })
        })

        describe('--live --record, then --recordings: the child’s requests recorded once and replayed with neither network nor key', () => {
            let server: Server
            let connections = 0
            const realFetch = globalThis.fetch
            const dir = (): string => join(work, 'recorded')

            beforeAll(async () => {
                // The API on this machine: each region answers its status; every connection counted.
                server = createServer((req, res) => {
                    res.setHeader('content-type', 'application/json')
                    res.setHeader('set-cookie', 'session=abc')
                    const region = (req.url ?? '').startsWith('/us.') ? 'us' : 'eu'
                    res.end(
                        JSON.stringify({
                            region,
                            status: 'up',
                            token: req.headers['x-token'] === 'fixture-token-value' ? 'seen' : 'absent'
                        })
                    )
                })
                server.on('connection', () => {
                    connections += 1
                })
                await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
                const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
                // --live sends through the global fetch: here every URL goes to 127.0.0.1, its host kept in the path.
                globalThis.fetch = ((url: string | URL, init?: RequestInit) => {
                    const parsed = new URL(String(url))
                    return realFetch(`${origin}/${parsed.host}${parsed.pathname}${parsed.search}`, init)
                }) as typeof fetch
                const { code, err } = await grade({ live: true, record: dir() })
                globalThis.fetch = realFetch
                expect(err).toContain('recorded: 3 exchanges of 3 hosts')
                expect(code).not.toBe(2)
            }, 60_000)

            afterAll(() => {
                globalThis.fetch = realFetch
                return new Promise<void>((done) => server.close(() => done()))
            })

            it('writes one file per host the handlers reached, with only content-type kept and no key value', () => {
                const files = readdirSync(dir()).sort()
                // The docs URL (a plain HEAD of the pretest) and the two hosts the handlers' preRequest filled in.
                expect(files).toEqual(['eu.api.example.org.json', 'example.org.json', 'us.api.example.org.json'])
                const text = files.map((f) => readFileSync(join(dir(), f), 'utf8')).join('\n')
                expect(text).not.toContain('fixture-token-value')
                expect(text).not.toContain('set-cookie')
                const eu = JSON.parse(readFileSync(join(dir(), 'eu.api.example.org.json'), 'utf8')) as {
                    host: string
                    exchanges: Array<{
                        request: unknown
                        response: { status: number; headers: Record<string, string> }
                    }>
                }
                expect(eu.host).toBe('https://eu.api.example.org')
                expect(eu.exchanges).toEqual([
                    {
                        request: { method: 'GET', path: '/v1/status' },
                        response: {
                            status: 200,
                            headers: { 'content-type': 'application/json' },
                            body: '{"region":"eu","status":"up","token":"seen"}'
                        }
                    }
                ])
            })

            it('replays them with no key and no connection: every tool tested, each test’s requests and verdict in summary.json', async () => {
                const island = join(work, 'island-replayed')
                const before = connections
                globalThis.fetch = (async () => {
                    throw new TypeError('the replay may not fetch')
                }) as typeof fetch
                const { out } = await grade({ recordings: dir(), island, verbose: true }, {})
                globalThis.fetch = realFetch
                expect(connections - before).toBe(0)
                const summary = JSON.parse(
                    readFileSync(join(island, 'providers', 'runtimefixture', 'plain', 'summary.json'), 'utf8')
                ) as {
                    perTool: Record<
                        string,
                        {
                            working: number
                            blocked: boolean
                            reason: string | null
                            tests: Array<Record<string, unknown>>
                        }
                    >
                }
                // The key-gated tools are tested without FIXTURE_TOKEN: the recordings need none.
                expect(summary.perTool.sumNumbers).toMatchObject({ working: 3, blocked: false })
                expect(summary.perTool.getStatus).toMatchObject({
                    working: 2,
                    blocked: true,
                    reason: 'fewer-than-3-working-tests'
                })
                expect(summary.perTool.getStatus?.tests).toEqual([
                    {
                        testIndex: 0,
                        status: 'passed',
                        working: true,
                        via: 'runtime',
                        verdict: 'working',
                        httpStatus: null,
                        error: null,
                        requests: [
                            {
                                method: 'GET',
                                url: 'https://eu.api.example.org/v1/status',
                                status: 200,
                                missingRecording: false
                            }
                        ]
                    },
                    {
                        testIndex: 1,
                        status: 'passed',
                        working: true,
                        via: 'runtime',
                        verdict: 'working',
                        httpStatus: null,
                        error: null,
                        requests: [
                            {
                                method: 'GET',
                                url: 'https://us.api.example.org/v1/status',
                                status: 200,
                                missingRecording: false
                            }
                        ]
                    }
                ])
                expect(summary.perTool.sumNumbers?.tests[0]).toMatchObject({ verdict: 'working', requests: [] })
                expect(out).toContain(
                    'runtimefixture.plain: getStatus#1 working (runtime): GET https://us.api.example.org/v1/status → 200'
                )
            })

            it('names a request the recordings lack, test by test, in --json and --verbose', async () => {
                const euOnly = join(work, 'recordings-eu-only')
                mkdirSync(euOnly, { recursive: true })
                cpSync(join(dir(), 'eu.api.example.org.json'), join(euOnly, 'eu.api.example.org.json'))
                const { out } = await grade({ recordings: euOnly, json: true }, {})
                const report = JSON.parse(out) as {
                    schemas: Array<{
                        grading: {
                            pretest: {
                                tests: Array<{
                                    tool: string
                                    testIndex: number
                                    verdict: string | null
                                    error: string | null
                                    requests: Array<{ url: string; status: number; missingRecording: boolean }>
                                }>
                            }
                        }
                    }>
                }
                const tests = report.schemas[0]?.grading.pretest.tests ?? []
                expect(tests.find((t) => t.tool === 'getStatus' && t.testIndex === 0)).toMatchObject({
                    verdict: 'working'
                })
                const us = tests.find((t) => t.tool === 'getStatus' && t.testIndex === 1)
                expect(us).toMatchObject({
                    verdict: 'missing-recording',
                    requests: [{ url: 'https://us.api.example.org/v1/status', status: 404, missingRecording: true }]
                })
                expect(us?.error).toContain('the recordings lack GET https://us.api.example.org/v1/status')
                const verbose = await grade({ recordings: euOnly, verbose: true }, {})
                expect(verbose.out).toContain(
                    'runtimefixture.plain: getStatus#1 missing-recording (runtime): GET https://us.api.example.org/v1/status → 404 (not recorded)'
                )
            })

            it('the DPT-022 command, run as printed, records the missing request and keeps every exchange the folder held', async () => {
                // The eu host's file also holds the exchanges of other schemas of that host (3 requests this one never sends).
                const folder = join(work, 'recordings-shared')
                mkdirSync(folder, { recursive: true })
                const eu = JSON.parse(readFileSync(join(dir(), 'eu.api.example.org.json'), 'utf8')) as Recording
                const others = ['/v1/regions', '/v1/latency', '/v1/version'].map((path) => ({
                    request: { method: 'GET', path },
                    response: { status: 200, body: `{"path":"${path}"}` }
                }))
                writeFileSync(
                    join(folder, 'eu.api.example.org.json'),
                    JSON.stringify({ ...eu, exchanges: [...eu.exchanges, ...others] })
                )
                const { out } = await grade({ recordings: folder, json: true, minWorkingTests: 2 }, {})
                const items = (
                    JSON.parse(out) as {
                        schemas: Array<{ fixList: Array<{ code: string; recording?: { command: string } }> }>
                    }
                ).schemas[0]?.fixList
                const command = items?.find((i) => i.code === 'DPT-022')?.recording?.command ?? ''
                expect(command).toMatch(
                    /^npx flowmcp-grading grade providers\/runtimefixture\/plain\.mjs --live --record /
                )
                // Parsed back with the CLI's own parser: the run's runtime options and bar are all there.
                const [, , ...argv] = command.split(' ')
                const parsed = parseCommandLine(argv)
                const options = gradeOptionsOf('grade', parsed.values, undefined, memoryIo())
                if (typeof options === 'number') throw new Error(`not a valid command line: ${command}`)
                expect(options.runtime).toEqual({ folder: runtime.folder, libraries: runtime.base })
                expect(options.minWorkingTests).toBe(2)
                expect(join(work, options.record ?? '')).toBe(folder)
                const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
                globalThis.fetch = ((url: string | URL, init?: RequestInit) => {
                    const u = new URL(String(url))
                    return realFetch(`${origin}/${u.host}${u.pathname}${u.search}`, init)
                }) as typeof fetch
                const io = memoryIo({}, { env: { FIXTURE_TOKEN: 'fixture-token-value' }, cwd: work })
                const code = await gradeCommand(
                    parsed.positionals.slice(1).map((p) => join(work, p)),
                    { ...options, runtime: { ...options.runtime, folder: runtime.folder, childScript } },
                    io
                )
                globalThis.fetch = realFetch
                expect(code, io.err()).not.toBe(2)
                const after = JSON.parse(readFileSync(join(folder, 'eu.api.example.org.json'), 'utf8')) as Recording
                // The 4 exchanges of the host are all still there; the request the recordings lacked is recorded.
                expect(after.exchanges.map((e) => e.request.path).sort()).toEqual([
                    '/v1/latency',
                    '/v1/regions',
                    '/v1/status',
                    '/v1/version'
                ])
                expect(readdirSync(folder)).toContain('us.api.example.org.json')
                const replayed = await grade({ recordings: folder, json: true, minWorkingTests: 2 }, {})
                expect(replayed.out).not.toContain('DPT-022')
            })
        })
    }
)
