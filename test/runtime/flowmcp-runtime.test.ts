import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    gradeSingleSchema,
    httpPortFromRecordings,
    runtimePortFromFlowMCP,
    type FlowMCPCoreLike,
    type RuntimeTestOutcome,
    type RuntimeTestRequest
} from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import {
    prepareRuntime,
    runtimePresent,
    SAMPLE,
    sampleFiles,
    samplePresent,
    stubNetwork,
    type NetworkStub,
    type PreparedRuntime,
    type RecordedCall,
    type StubAnswer
} from './harness.js'

// Our own stand-ins for the shared lists two of the sample's handler schemas declare (evmChains, tradingTimeframes).
const LISTS = fileURLToPath(new URL('../fixtures/runtime/lists/', import.meta.url))

/** One tool test of a handler schema of the sample, and what the real runtime made of it. */
interface Ran {
    readonly file: string
    readonly tool: string
    readonly testIndex: number
    readonly userParams: Record<string, unknown>
    readonly outcome: RuntimeTestOutcome
    /** The requests the runtime sent for this test (the stubbed network recorded them). */
    readonly calls: readonly RecordedCall[]
}

/** The handler schemas of the sample: those whose source exports `handlers` (read from the syntax tree). */
function handlerSchemas(): Array<{ file: string; path: string; main: Record<string, any> }> {
    return sampleFiles().flatMap((file) => {
        const path = join(SAMPLE, 'schemas', file)
        const read = readModuleSource({ source: readFileSync(path, 'utf8') })
        return read.hasHandlers && read.module !== null
            ? [{ file, path, main: read.module.main as Record<string, any> }]
            : []
    })
}

/** Each test's values without `_description`: the user parameters of `FlowMCP.fetch`. */
function testsOf(
    main: Record<string, any>
): Array<{ tool: string; testIndex: number; userParams: Record<string, unknown> }> {
    return Object.entries<any>(main.tools ?? {}).flatMap(([tool, def]) =>
        (Array.isArray(def.tests) ? def.tests : []).map((t: Record<string, unknown>, testIndex: number) => {
            const { _description: _, ...userParams } = t
            return { tool, testIndex, userParams }
        })
    )
}

// The LUKSO explorer (BlockScout) answers as it does for a good request; every other host has no answer here.
const answers = (call: RecordedCall): StubAnswer | undefined =>
    /^https:\/\/explorer\.execution\.(?:mainnet|testnet)\.lukso\.network\//.test(call.url)
        ? { json: { message: 'OK', status: '1', result: [{ ContractName: 'LSP7DigitalAsset', Address: '0x0' }] } }
        : undefined

const request = (over: Partial<RuntimeTestRequest>): RuntimeTestRequest => ({
    schemaPath: null,
    main: {},
    tool: 'listcontracts',
    testIndex: 0,
    userParams: {},
    serverParams: {},
    timeoutMs: 5000,
    ...over
})

describe.skipIf(!runtimePresent || !samplePresent)(
    'runtimePortFromFlowMCP over the real FlowMCP runtime (../shared/flowmcp-core) and the sample’s handler schemas',
    () => {
        let runtime: PreparedRuntime
        let network: NetworkStub
        const loaded = new Map<string, { status: boolean; messages: string[] }>()
        const ran: Ran[] = []
        const schemas = handlerSchemas()

        beforeAll(async () => {
            runtime = await prepareRuntime()
            network = stubNetwork(answers)
            const port = runtimePortFromFlowMCP({
                core: runtime.core,
                resolveBase: runtime.base,
                listsDir: LISTS,
                version: runtime.version
            })
            for (const { file, path, main } of schemas) {
                // The runtime's own load, to tell "does not load" from "a test failed".
                const result = (await runtime.core.FlowMCP.loadSchema({
                    filePath: path,
                    resolveBase: runtime.base,
                    listsDir: LISTS
                }).catch((cause: Error) => ({ status: false, messages: [cause.message] }))) as {
                    status: boolean
                    messages?: unknown[]
                }
                loaded.set(file, { status: result.status === true, messages: (result.messages ?? []).map(String) })
                if (result.status !== true) continue
                for (const test of testsOf(main)) {
                    const before = network.calls.length
                    const outcome = await port.run({
                        schemaPath: path,
                        main,
                        ...test,
                        serverParams: {},
                        timeoutMs: 5000
                    })
                    ran.push({ file, ...test, outcome, calls: network.calls.slice(before) })
                }
            }
        }, 120_000)

        afterAll(() => {
            network?.restore()
            runtime?.cleanup()
        })

        // Measured with flowmcp-core 4.0.0 and the project's devDependencies: 20 handler schemas, 18 load
        // (indicators/chart-generator: the runtime's own scanner refuses an `import` in its code;
        // unified/unified-trend-basic: requires talib, a native library the project does not install;
        // ohlcv and uniswap load with our stand-in lists). 108 tool tests run, 9 return data: the 4
        // trading-signals computations, poap's predefined query list, and the 4 LUKSO calls the stub
        // answers. Each of the 99 others sent a request the stub does not answer (no network here).
        it('finds 20 handler schemas in the sample and loads 18 of them; the two others fail for a reason the runtime names', ({
            annotate
        }) => {
            expect(schemas).toHaveLength(20)
            const failing = [...loaded]
                .filter(([, r]) => !r.status)
                .map(([file, r]) => ({ file, message: r.messages.join('; ') }))
            expect(failing.map((f) => f.file).sort()).toEqual([
                'indicators/chart-generator.mjs',
                'unified/unified-trend-basic.mjs'
            ])
            expect(failing.find((f) => f.file === 'indicators/chart-generator.mjs')?.message).toMatch(/SEC001/)
            expect(failing.find((f) => f.file === 'unified/unified-trend-basic.mjs')?.message).toMatch(/talib/)
            const withData = ran.filter((r) => r.outcome.ok && r.outcome.data !== undefined && r.outcome.data !== null)
            expect(ran).toHaveLength(108)
            expect(withData).toHaveLength(9)
            void annotate(
                `${loaded.size} handler schemas, ${[...loaded.values()].filter((r) => r.status).length} load; ${ran.length} tool tests run, ${withData.length} return data`
            )
        })

        it('returns data for the offline computations (executeRequest with their libraries) without touching the network', () => {
            const offline = ran.filter(
                (r) =>
                    r.file === 'tradingsignals/trading-signals-volatility.mjs' ||
                    (r.file === 'poap/graphql.mjs' && r.tool === 'getPredefinedQueryList')
            )
            expect(offline.map((r) => r.tool).sort()).toEqual([
                'computeBollingerBands',
                'computeBollingerBandsWidth',
                'computeIQR',
                'computeMAD',
                'getPredefinedQueryList'
            ])
            for (const r of offline) {
                expect(r.outcome.ok, `${r.file} ${r.tool}: ${r.outcome.messages?.join('; ')}`).toBe(true)
                expect(r.outcome.data).toBeTruthy()
                expect(r.calls).toEqual([])
            }
            const bands = offline.find((r) => r.tool === 'computeBollingerBands')?.outcome.data as {
                indicator: string
                stableValues: Array<{ upper: number; lower: number }>
            }
            expect(bands.indicator).toBe('BollingerBands')
            expect(bands.stableValues.length).toBeGreaterThan(0)
            expect(bands.stableValues.every((v) => v.upper > v.lower)).toBe(true)
        })

        it('sends every LUKSO call to the host its preRequest fills in (mainnet.lukso.network) and returns the explorer’s data', () => {
            const lukso = ran.filter((r) => r.file === 'luksonetwork/sourceCode.mjs')
            expect(lukso.length).toBeGreaterThan(0)
            for (const r of lukso) {
                expect(r.calls).toHaveLength(1)
                expect(r.calls[0]?.url).toContain(
                    r.userParams.chainName === 'LUKSO_TESTNET' ? 'testnet.lukso.network' : 'mainnet.lukso.network'
                )
                expect(r.calls[0]?.url).not.toContain('--chain--')
                expect(r.outcome).toMatchObject({ ok: true, data: [{ ContractName: 'LSP7DigitalAsset' }] })
            }
        })

        it('leaves no placeholder in the host of any request the runtime sends (preRequest host filling works)', () => {
            const calls = ran.flatMap((r) => r.calls.map((c) => ({ file: r.file, url: c.url })))
            expect(calls.length).toBeGreaterThan(0)
            const bad = calls.filter(({ url }) => {
                const host = new URL(url).hostname
                return !/^[a-z0-9.-]+$/.test(host) || host.includes('--') || host.includes('..')
            })
            expect(bad).toEqual([])
        })

        it('turns every request the network does not answer into an outcome with the runtime’s message, never a throw', () => {
            const failed = ran.filter((r) => !r.outcome.ok)
            expect(failed).toHaveLength(ran.length - 9)
            for (const r of failed) {
                expect(r.calls.length, `${r.file} ${r.tool}: failed without a request`).toBeGreaterThan(0)
                expect(r.outcome.messages?.length, `${r.file} ${r.tool}`).toBeGreaterThan(0)
                expect(r.outcome.httpStatus ?? null).toBeNull()
            }
        })

        it('grades every handler schema that loads with its tests through the runtime: no tool blocked for a placeholder host, as unbuildable or for its handlers', async () => {
            const port = runtimePortFromFlowMCP({
                core: runtime.core,
                resolveBase: runtime.base,
                listsDir: LISTS,
                version: runtime.version
            })
            const http = httpPortFromRecordings({ recordings: [] })
            const fs = createMemoryFs()
            let graded = 0
            for (const { file, path } of schemas.filter((s) => loaded.get(s.file)?.status === true)) {
                await fs.mkdir(`/${file.split('/')[0]}`).catch(() => undefined)
                await fs.writeFile(`/${file}`, readFileSync(path, 'utf8'))
                const result = await gradeSingleSchema({
                    schemaPath: `/${file}`,
                    options: {
                        sourceFs: fs,
                        now: '2026-11-25T10:00:00Z',
                        http,
                        runtime: {
                            run: (r) => port.run({ ...r, schemaPath: path }),
                            ...(port.version !== undefined ? { version: port.version } : {})
                        }
                    }
                })
                const units = result.grading?.units.filter((u) => u.area === 'single-test') ?? []
                for (const u of units)
                    expect(u.reason ?? '', `${file} ${u.unit}`).not.toMatch(
                        /^(unbuildable-tests|handlers-need-runtime)/
                    )
                graded += 1
            }
            expect(graded).toBe(18)
        }, 120_000)

        describe('failures', () => {
            const lukso = (): { path: string; main: Record<string, any> } => {
                const found = schemas.find((s) => s.file === 'luksonetwork/sourceCode.mjs')
                if (found === undefined) throw new Error('the sample lacks luksonetwork/sourceCode.mjs')
                return found
            }
            const fake = (flowmcp: Partial<FlowMCPCoreLike['FlowMCP']>): FlowMCPCoreLike => ({
                FlowMCP: {
                    loadSchema: async () => ({ status: true, main: {}, handlerMap: {} }),
                    fetch: async () => ({ status: true, messages: [], data: 1 }),
                    ...flowmcp
                }
            })

            it('fails a test of a schema file that does not exist, naming the runtime’s reason', async () => {
                const port = runtimePortFromFlowMCP({ core: runtime.core, resolveBase: runtime.base })
                const outcome = await port.run(request({ schemaPath: join(runtime.base, 'missing', 'nothing.mjs') }))
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.[0]).toMatch(/^the runtime did not load the schema: .*(ENOENT|no such file)/)
            })

            it('fails a test of a schema given without its file (schemaPath null): the runtime needs the file for the handlers', async () => {
                const port = runtimePortFromFlowMCP({ core: runtime.core })
                const outcome = await port.run(request({ schemaPath: null, main: lukso().main }))
                expect(outcome).toEqual({
                    ok: false,
                    httpStatus: null,
                    messages: [
                        'the schema was given as an object: the runtime needs its file (schemaPath) to load its handlers'
                    ]
                })
            })

            it.each([
                [
                    'throws',
                    async () => Promise.reject(new Error('disk on fire')),
                    /the runtime did not load the schema: disk on fire/
                ],
                [
                    'returns status false',
                    async () => ({ status: false, messages: ['VAL001 main.root: missing'] }),
                    /the runtime did not load the schema: VAL001 main.root: missing/
                ],
                ['returns no object', async () => 'nothing', /the runtime did not load the schema: no message/]
            ])('fails every test when the core’s loadSchema %s', async (_name, loadSchema, expected) => {
                const port = runtimePortFromFlowMCP({ core: fake({ loadSchema }) })
                const outcome = await port.run(request({ schemaPath: '/schemas/a.mjs' }))
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.[0]).toMatch(expected)
            })

            it('fails a test whose FlowMCP.fetch throws, never throwing itself', async () => {
                const port = runtimePortFromFlowMCP({
                    core: fake({ fetch: async () => Promise.reject(new Error('boom')) })
                })
                await expect(port.run(request({ schemaPath: '/schemas/a.mjs' }))).resolves.toEqual({
                    ok: false,
                    httpStatus: null,
                    messages: ['the runtime threw: boom']
                })
            })

            it('fails a test whose fetch throws (the real runtime, the network stub throwing), with the error in its messages', async () => {
                network.restore()
                const original = globalThis.fetch
                globalThis.fetch = (() => {
                    throw new Error('socket hang up')
                }) as unknown as typeof fetch
                try {
                    const { path, main } = lukso()
                    const port = runtimePortFromFlowMCP({ core: runtime.core, resolveBase: runtime.base })
                    const outcome = await port.run(
                        request({
                            schemaPath: path,
                            main,
                            userParams: { chainName: 'LUKSO_MAINNET', page: 1, offset: 10, filter: 'verified' }
                        })
                    )
                    expect(outcome.ok).toBe(false)
                    expect(outcome.messages?.join(' ')).toContain('socket hang up')
                } finally {
                    globalThis.fetch = original
                    network = stubNetwork(answers)
                }
            })
        })
    }
)
