import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeCommand } from '../../src/cli/commands/grade.js'
import { permissionFlag } from '../../src/cli/runtime/sandbox.js'
import { DataPretest, type RuntimePort, type RuntimeTestRequest } from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import { memoryIo } from '../cli/helpers.js'
import {
    buildChildScript,
    prepareRuntime,
    runtimePresent,
    SAMPLE,
    sampleFiles,
    samplePresent,
    type PreparedRuntime
} from './harness.js'

const now = '2026-11-26T12:00:00Z'
const FIXTURES = fileURLToPath(new URL('../fixtures/runtime/', import.meta.url))
const LISTS = join(FIXTURES, 'lists')
const plainMain = readModuleSource({ source: readFileSync(join(FIXTURES, 'plain', 'plain.mjs'), 'utf8') }).module
    ?.main as Record<string, unknown>

/** A runtime port that answers sumNumbers with data and reports every other tool as having tried the network. */
function offlinePort(asked: RuntimeTestRequest[] = []): RuntimePort {
    return {
        version: '4.0.0',
        isolation: 'module-doors',
        run: async (request) => {
            asked.push(request)
            if (request.tool === 'sumNumbers')
                return { ok: true, data: { sum: 6, count: 3 }, httpStatus: null, messages: [] }
            return {
                ok: false,
                httpStatus: null,
                messages: ['network not granted: the test tried fetch'],
                networkNotGranted: ['fetch']
            }
        }
    }
}

const pretest = (over: Record<string, unknown>) =>
    DataPretest.run({
        main: plainMain,
        serverParams: { FIXTURE_TOKEN: 'fixture-token-value' },
        hasHandlers: true,
        schemaPath: '/s/plain.mjs',
        now,
        ...over
    })

describe('DataPretest offline with a runtime (no HTTP port): the runtime’s tests run, its child has no network', () => {
    it('runs every test of the handler tools through the runtime and counts them as tested: ran, no DPT-014, nothing blocked for the tools that computed', async () => {
        const asked: RuntimeTestRequest[] = []
        const result = await pretest({ runtime: offlinePort(asked) })
        expect(result).toMatchObject({ ran: true, reason: null, docs: [] })
        expect(asked.map((r) => `${r.tool}/${r.testIndex}`)).toEqual([
            'sumNumbers/0',
            'sumNumbers/1',
            'sumNumbers/2',
            'getStatus/0',
            'getStatus/1',
            'getFromOrigin/0'
        ])
        expect(result.tools.sumNumbers).toMatchObject({ working: 3, blocked: false, reason: null, viaRuntime: true })
        expect(
            result.results
                .filter((r) => r.tool === 'sumNumbers')
                .every((r) => r.status === 'passed' && r.via === 'runtime')
        ).toBe(true)
        expect(result.findings.map((f) => f.code)).not.toContain('DPT-014')
    })

    it('fails a test that tried the network with DPT-021 and blocks its tool as network-not-granted, naming --live and --recordings as the way on', async () => {
        const result = await pretest({ runtime: offlinePort() })
        expect(result.results.find((r) => r.tool === 'getStatus' && r.testIndex === 0)).toMatchObject({
            status: 'failed',
            working: false,
            error: 'DPT-021: the handler tried fetch',
            via: 'runtime'
        })
        expect(result.tools.getStatus).toMatchObject({ blocked: true, reason: 'network-not-granted' })
        expect(result.tools.getStatus?.detail).toMatch(
            /^not tested: 2 of its tests tried the network, .*pass --live .*--recordings <dir>/
        )
        expect(result.blocked.map((b) => `${b.tool}:${b.reason}`)).toEqual([
            'getStatus:network-not-granted',
            'getFromOrigin:network-not-granted'
        ])
        const finding = result.findings.find((f) => f.code === 'DPT-021')
        expect(finding).toMatchObject({ path: '/tools/getStatus/tests/0', severity: 'error' })
        expect(finding?.message).toContain('pass --live to test it against its API, or --recordings <dir>')
    })

    it('a runtime outcome that says ok but names a closed door still fails (the door decides)', async () => {
        const port: RuntimePort = {
            run: async () => ({ ok: true, data: { sum: 1 }, networkNotGranted: ['node:net.connect'] })
        }
        const result = await pretest({ runtime: port })
        expect(result.tools.sumNumbers).toMatchObject({ working: 0, reason: 'network-not-granted' })
    })

    it('without a runtime, offline still sends nothing: no-http-port, the handler tools blocked for their handlers', async () => {
        const result = await pretest({})
        expect(result).toMatchObject({ ran: false, reason: 'no-http-port' })
        expect(result.tools.sumNumbers?.reason).toBe('handlers-need-runtime')
    })

    it('a dry run with a runtime runs nothing: the plan only', async () => {
        const asked: RuntimeTestRequest[] = []
        const result = await pretest({ runtime: offlinePort(asked), dryRun: true })
        expect(result).toMatchObject({ ran: false, reason: 'dry-run' })
        expect(asked).toEqual([])
    })
})

/** The sample's handler schemas (their source exports `handlers`). */
function handlerFiles(): string[] {
    return sampleFiles().filter(
        (file) => readModuleSource({ source: readFileSync(join(SAMPLE, 'schemas', file), 'utf8') }).hasHandlers
    )
}

type Summary = {
    ran: boolean
    runtime?: { version: string | null; isolation?: string }
    perTool: Record<
        string,
        {
            working: number
            total: number
            blocked: boolean
            reason: string | null
            detail: string | null
            viaRuntime?: boolean
        }
    >
}

describe.skipIf(!runtimePresent || !samplePresent || permissionFlag(process.version) === null)(
    'grade --runtime offline over the sample’s handler schemas, through ../shared/flowmcp-core',
    () => {
        let runtime: PreparedRuntime
        let work: string
        const summaries = new Map<string, Summary>()
        let stderr = ''

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'offline-runtime-')))
            mkdirSync(join(work, 'child'))
            const childScript = await buildChildScript(join(work, 'child'))
            const files = handlerFiles()
            for (const file of files) cpSync(join(SAMPLE, 'schemas', file), join(work, 'providers', file))
            const io = memoryIo({}, { env: {}, cwd: work })
            const island = join(work, 'island')
            await gradeCommand(
                [...new Set(files.map((f) => join(work, 'providers', f.split('/')[0] as string)))],
                {
                    json: false,
                    live: false,
                    now,
                    island,
                    concurrency: 2,
                    runtime: { folder: runtime.folder, libraries: runtime.base, lists: LISTS, childScript }
                },
                io
            )
            stderr = io.err()
            for (const file of files) {
                const [ns, name] = file.replace(/\.mjs$/, '').split('/') as [string, string]
                try {
                    summaries.set(
                        file,
                        JSON.parse(readFileSync(join(island, 'providers', ns, name, 'summary.json'), 'utf8')) as Summary
                    )
                } catch {
                    // A schema the grade did not reach has no summary: the assertions name it.
                }
            }
        }, 240_000)

        afterAll(() => {
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        it('says on stderr that the handler tools run offline with no network', () => {
            expect(stderr).toContain("--runtime offline: the handler tools' tests run with no network")
        })

        it('tests trading-signals-volatility’s four offline computations through the runtime: each test returns data, no tool blocked for the network or its handlers', () => {
            const summary = summaries.get('tradingsignals/trading-signals-volatility.mjs')
            expect(summary?.ran).toBe(true)
            expect(summary?.runtime).toEqual({
                version: runtime.version,
                isolation: expect.stringMatching(/module-doors$/)
            })
            expect(Object.keys(summary?.perTool ?? {}).sort()).toEqual([
                'computeBollingerBands',
                'computeBollingerBandsWidth',
                'computeIQR',
                'computeMAD'
            ])
            for (const [tool, t] of Object.entries(summary?.perTool ?? {})) {
                // One test each: graded against the working-test bar as a live run would be, never blocked for the network.
                expect({ tool, working: t.working, total: t.total, viaRuntime: t.viaRuntime }).toEqual({
                    tool,
                    working: t.total,
                    total: 1,
                    viaRuntime: true
                })
                expect(t.reason).not.toMatch(/network-not-granted|handlers-need-runtime/)
            }
        })

        it('poap’s predefined query list computes offline; its tools that query the API are blocked as network not granted', () => {
            const tools = summaries.get('poap/graphql.mjs')?.perTool ?? {}
            expect(tools.getPredefinedQueryList?.working).toBeGreaterThan(0)
            const networked = Object.entries(tools).filter(([name]) => name !== 'getPredefinedQueryList')
            expect(networked.length).toBeGreaterThan(0)
            for (const [, t] of networked) expect(t.reason).toBe('network-not-granted')
        })

        it('blocks every handler tool that needs the network as network-not-granted with the way on, never as failing its API', ({
            annotate
        }) => {
            const all = [...summaries.values()].flatMap((s) => Object.values(s.perTool))
            void annotate(
                `${summaries.size} handler schemas graded offline; ${all.length} tools: ${all.filter((t) => t.working > 0).length} tested with data, ${all.filter((t) => t.reason === 'network-not-granted').length} network-not-granted`
            )
            const denied = all.filter((t) => t.reason === 'network-not-granted')
            // Measured: 50 tools of the 18 handler schemas that load (every one that calls its API).
            expect(denied.length).toBeGreaterThanOrEqual(40)
            for (const t of denied)
                expect(t.detail).toContain('pass --live to test it against its API, or --recordings <dir>')
            expect(all.filter((t) => t.reason === 'handlers-need-runtime')).toEqual([])
        })
    }
)
