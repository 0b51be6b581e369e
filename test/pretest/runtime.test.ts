import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    DataPretest,
    gradeSingleSchema,
    httpPortFromRecordings,
    runtimePortFromFlowMCP,
    type HttpRequest,
    type RuntimePort,
    type RuntimeTestRequest
} from '../../src/index.js'

const now = '2026-11-25T10:00:00Z'
const forms = JSON.parse(
    readFileSync(new URL('../fixtures/schemas/real-forms.json', import.meta.url), 'utf8')
) as Record<string, any>

/** A schema whose host only its handlers resolve (a placeholder root), exporting handlers, as module source. */
function handlerSchema(): { main: Record<string, any>; source: string } {
    const main = {
        ...forms,
        namespace: 'chaindemo',
        root: 'https://--chain--.rpc-demo.network',
        requiredServerParams: [],
        headers: {},
        tools: { getMember: forms.tools.getMember, getVote: forms.tools.getVote }
    }
    for (const tool of Object.values(main.tools) as Array<Record<string, any>>)
        tool.parameters = (tool.parameters as Array<Record<string, any>>).filter(
            (p) => !String(p.value ?? '').includes('{{')
        )
    const source = `export const main = ${JSON.stringify(main, null, 4)}\n\nexport const handlers = ({ sharedLists, libraries }) => ({\n    getMember: { preRequest: async ({ struct }) => { struct.url = struct.url.replace('--chain--', 'mainnet'); return { struct } } }\n})\n`
    return { main, source }
}

/** An HTTP port that records every request and answers 404. */
function recordingHttp(): {
    http: { send: (r: HttpRequest) => Promise<{ status: number; headers: Record<string, string>; body: string }> }
    sent: HttpRequest[]
} {
    const sent: HttpRequest[] = []
    return { sent, http: { send: async (request) => (sent.push(request), { status: 404, headers: {}, body: '' }) } }
}

async function sourceFs(source: string): Promise<ReturnType<typeof createMemoryFs>> {
    const fs = createMemoryFs()
    await fs.mkdir('/src')
    await fs.writeFile('/src/chain.mjs', source)
    return fs
}

describe('a schema whose handlers the FlowMCP runtime runs', () => {
    it('without a runtime, its tools are blocked for their handlers and no request is ever sent to a placeholder host', async () => {
        const { source } = handlerSchema()
        const fs = await sourceFs(source)
        const { http, sent } = recordingHttp()
        const result = await gradeSingleSchema({
            schemaPath: '/src/chain.mjs',
            options: { sourceFs: fs, fs, root: '/island', now, http }
        })
        expect(sent.filter((r) => r.url.includes('--chain--') || r.url.includes('rpc-demo'))).toEqual([])
        const tools = result.grading?.units.filter((u) => u.area === 'single-test') ?? []
        expect(tools.map((u) => u.status)).toEqual(['blocked', 'blocked'])
        for (const tool of tools)
            expect(tool.reason).toMatch(/^handlers-need-runtime — not tested: the schema exports handlers/)
        // One issue per tool in errors, naming the cause; the same reason on the blocked node.
        expect(result.errors.filter((e) => e.code === 'GRA-011').map((e) => e.message)).toEqual([
            expect.stringContaining('handlers-need-runtime'),
            expect.stringContaining('handlers-need-runtime'),
            expect.stringContaining('blocked-by-precondition'),
            expect.stringContaining('blocked-by-precondition')
        ])
        const index = JSON.parse((await fs.readFile('/island/providers/chaindemo/index.json')) as string) as {
            schemas: { chain: { status: string; tools: Record<string, { status: string; reason: string }> } }
        }
        expect(index.schemas.chain.status).toBe('blocked')
        expect(index.schemas.chain.tools.getMember?.reason).toMatch(
            /^IDX-030: Tool getMember was not tested \(handlers-need-runtime\)/
        )
    })

    it('with a runtime, every test of such a tool runs through it, decided as an HTTP result is, and marked as from the runtime', async () => {
        const { source } = handlerSchema()
        const fs = await sourceFs(source)
        const { http, sent } = recordingHttp()
        const asked: RuntimeTestRequest[] = []
        const runtime: RuntimePort = {
            version: '4.0.0',
            run: async (request) => {
                asked.push(request)
                // getVote's second test fails in the runtime, as a 404 would.
                if (request.tool === 'getVote' && request.testIndex === 1)
                    return { ok: false, httpStatus: 404, messages: ['HTTP 404: not found'] }
                return { ok: true, data: { id: request.testIndex, name: 'value' } }
            }
        }
        const _result = await gradeSingleSchema({
            schemaPath: '/src/chain.mjs',
            options: { sourceFs: fs, fs, root: '/island', now, http, runtime }
        })
        // Only the docs URL is checked over HTTP: every tool test went to the runtime.
        expect(sent.filter((r) => r.method !== 'HEAD')).toEqual([])
        expect(asked.every((r) => r.schemaPath === '/src/chain.mjs' && r.main.namespace === 'chaindemo')).toBe(true)
        expect(asked.map((r) => `${r.tool}/${r.testIndex}`).sort()).toEqual(
            [...new Set(asked.map((r) => `${r.tool}/${r.testIndex}`))].sort()
        )
        expect(asked[0]?.userParams).not.toHaveProperty('_description')
        const summary = JSON.parse((await fs.readFile('/island/providers/chaindemo/chain/summary.json')) as string) as {
            runtime: { version: string }
            perTool: Record<string, { viaRuntime?: boolean; blocked: boolean }>
        }
        expect(summary.runtime).toEqual({ version: '4.0.0' })
        expect(summary.perTool.getMember?.viaRuntime).toBe(true)
        const pretest = await DataPretest.run({
            main: handlerSchema().main,
            http,
            runtime,
            hasHandlers: true,
            schemaPath: '/src/chain.mjs',
            now,
            checkDocs: false
        })
        expect(pretest.results.every((r) => r.via === 'runtime')).toBe(true)
        const failed = pretest.results.find((r) => r.tool === 'getVote' && r.testIndex === 1)
        expect(failed).toMatchObject({
            status: 'failed',
            working: false,
            httpStatus: 404,
            error: expect.stringMatching(/^DPT-020: the runtime reported a failure \(HTTP 404\): HTTP 404: not found/)
        })
        // No placeholder-root finding for a test the runtime runs.
        expect(pretest.findings.filter((f) => f.code === 'DPT-012')).toEqual([])
    })

    it('a runtime that throws or answers garbage is a failed test with DPT-020, never a rejection', async () => {
        const { main } = handlerSchema()
        const http = httpPortFromRecordings({ recordings: [] })
        for (const runtime of [
            {
                run: async () => {
                    throw new Error('boom')
                }
            },
            { run: async () => 'nonsense' },
            { run: async () => ({ ok: 'yes' }) }
        ] as unknown as RuntimePort[]) {
            const pretest = await DataPretest.run({ main, http, runtime, hasHandlers: true, now, checkDocs: false })
            expect(pretest.results.every((r) => r.status === 'failed' && r.error?.startsWith('DPT-020') === true)).toBe(
                true
            )
            expect(pretest.blocked.map((b) => b.tool)).toEqual(['getMember', 'getVote'])
            expect(pretest.blocked.every((b) => /^fewer-than-\d-working-tests$/.test(b.reason))).toBe(true)
        }
    })

    it('refuses a runtime option that is not a port (GRA-002), and runtimeTools other than handlers or all', async () => {
        const bad = await gradeSingleSchema({
            schema: { main: forms },
            fileName: 'f.mjs',
            options: { now, runtime: { go: true } as never }
        })
        expect(bad.errors).toContainEqual(expect.objectContaining({ code: 'GRA-002', path: '/options/runtime' }))
        const tools = await gradeSingleSchema({
            schema: { main: forms },
            fileName: 'f.mjs',
            options: { now, runtimeTools: 'some' as never }
        })
        expect(tools.errors).toContainEqual(expect.objectContaining({ code: 'GRA-002', path: '/options/runtimeTools' }))
    })
})

describe('runtimePortFromFlowMCP', () => {
    const request = (over: Partial<RuntimeTestRequest> = {}): RuntimeTestRequest => ({
        schemaPath: '/s/x.mjs',
        main: { namespace: 'x' },
        tool: 't',
        testIndex: 0,
        userParams: { q: 1 },
        serverParams: {},
        timeoutMs: 1000,
        ...over
    })

    it('loads each schema file once and runs each test as one FlowMCP.fetch', async () => {
        const calls: string[] = []
        const core = {
            FlowMCP: {
                loadSchema: async ({ filePath }: { filePath: string }) => (
                    calls.push(`load ${filePath}`),
                    { status: true, messages: [], main: { loaded: true }, handlerMap: { t: {} } }
                ),
                fetch: async ({ routeName, userParams }: { routeName: string; userParams: unknown }) => (
                    calls.push(`fetch ${routeName} ${JSON.stringify(userParams)}`),
                    { status: true, messages: [], data: { ok: 1 } }
                )
            }
        }
        const port = runtimePortFromFlowMCP({ core, version: '4.0.0' })
        expect(port.version).toBe('4.0.0')
        expect(await port.run(request())).toEqual({ ok: true, data: { ok: 1 }, httpStatus: null, messages: [] })
        await port.run(request({ testIndex: 1 }))
        expect(calls).toEqual(['load /s/x.mjs', 'fetch t {"q":1}', 'fetch t {"q":1}'])
    })

    it('turns every failure into an outcome with its message: no path, a failed load, a thrown fetch, a non-2xx, hostile options', async () => {
        const failingLoad = runtimePortFromFlowMCP({
            core: {
                FlowMCP: {
                    loadSchema: async () => ({ status: false, messages: ['security scan: forbidden import'] }),
                    fetch: async () => ({})
                }
            }
        })
        expect(await failingLoad.run(request())).toMatchObject({
            ok: false,
            messages: [expect.stringContaining('security scan: forbidden import')]
        })
        expect(await failingLoad.run(request({ schemaPath: null }))).toMatchObject({
            ok: false,
            messages: [expect.stringContaining('given as an object')]
        })
        const throwing = runtimePortFromFlowMCP({
            core: {
                FlowMCP: {
                    loadSchema: async () => ({ status: true, main: {}, handlerMap: {} }),
                    fetch: async () => {
                        throw new Error('socket hang up')
                    }
                }
            }
        })
        expect(await throwing.run(request())).toMatchObject({
            ok: false,
            messages: ['the runtime threw: socket hang up']
        })
        const notFound = runtimePortFromFlowMCP({
            core: {
                FlowMCP: {
                    loadSchema: async () => ({ status: true, main: {}, handlerMap: {} }),
                    fetch: async () => ({ status: false, messages: ['HTTP 404: Not Found'] })
                }
            }
        })
        expect(await notFound.run(request())).toEqual({
            ok: false,
            data: undefined,
            httpStatus: 404,
            messages: ['HTTP 404: Not Found']
        })
        const hostile = runtimePortFromFlowMCP(
            new Proxy(
                {},
                {
                    get() {
                        throw new Error('no')
                    }
                }
            ) as never
        )
        expect(await hostile.run(request())).toMatchObject({
            ok: false,
            messages: [expect.stringContaining('could not be read')]
        })
        expect(await runtimePortFromFlowMCP(undefined as never).run(request())).toMatchObject({
            ok: false,
            messages: [expect.stringContaining('needs { core }')]
        })
    })
})
