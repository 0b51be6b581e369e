import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runtimeForGrade } from '../../src/cli/commands/grade-runtime.js'
import { runtimePortFromChildProcess, type ChildRuntimePort } from '../../src/cli/runtime/host.js'
import { permissionFlag } from '../../src/cli/runtime/sandbox.js'
import { DataPretest, httpPortFromFetch, type HttpPort, type PretestResult, type RuntimePort } from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import {
    buildChildScript,
    prepareRuntime,
    runtimePresent,
    SAMPLE,
    samplePresent,
    type PreparedRuntime
} from './harness.js'

// A host service that embeds the library: one Node process serving HTTP on 127.0.0.1 (its own API and, for the test,
// the fake upstream every schema request is rewritten to) and calling `fetch` on its own while handler tests run. The
// runtime runs in a child process (`flowmcp-grading/node`) answered by the host's HttpPort, which looks the global
// `fetch` up as it sends: nothing of the host's globals is touched, so nothing crosses over and nothing recurses.
const now = '2026-11-27T12:00:00Z'
const LISTS = fileURLToPath(new URL('../fixtures/runtime/lists/', import.meta.url))

/** Handler schemas of the sample: two whose handlers fetch themselves, one through the runtime's fetch, one offline. */
const FILES = [
    'govdatasparql/sparql-analytics.mjs',
    'servicebund/tenders.mjs',
    'coingecko/global.mjs',
    'tradingsignals/trading-signals-volatility.mjs'
]

interface HandlerSchema {
    readonly file: string
    readonly path: string
    readonly main: Record<string, any>
}

const workingPerTool = (result: PretestResult): Record<string, number> =>
    Object.fromEntries(Object.entries(result.tools).map(([tool, t]) => [tool, t.working]))

/** Each test's truth, without what differs between runs of the same responses (nothing should). */
const testTruth = (result: PretestResult): unknown =>
    result.results.map((t) => ({
        tool: t.tool,
        index: t.testIndex,
        status: t.status,
        verdict: t.verdict,
        http: t.httpStatus,
        requests: t.requests
    }))

describe.skipIf(!runtimePresent || !samplePresent || permissionFlag(process.version) === null)(
    'a host process that serves HTTP and fetches on its own while the runtime runs handler tests',
    () => {
        let runtime: PreparedRuntime
        let work: string
        let childScript: string
        let server: Server
        let origin = ''
        const schemas: HandlerSchema[] = []
        const ports: Array<{ close(): Promise<void> }> = []
        /** What the host's server saw: its own API calls, and the upstream requests of the grading. */
        const seen = { host: 0, upstream: [] as string[] }
        /** What the host's own fetch calls got back, during the runtime's tests. */
        const hostAnswers: unknown[] = []
        const fetchIdentity: boolean[] = []
        const embedded = new Map<string, PretestResult>()
        const cli = new Map<string, PretestResult>()
        let portSends = 0

        const pretest = (s: HandlerSchema, runtimePort: RuntimePort, http: HttpPort): Promise<PretestResult> =>
            DataPretest.run({
                main: s.main,
                http,
                runtime: runtimePort,
                hasHandlers: true,
                schemaPath: s.path,
                serverParams: {},
                now,
                checkDocs: false,
                timeoutMs: 15_000
            })

        /** The upstream of a schema request, on the host's server (the real host kept in the path). */
        const rewrite = (url: string): string => {
            const parsed = new URL(url)
            return `${origin}/upstream/${parsed.host}${parsed.pathname}${parsed.search}`
        }

        /** The host's own API, called with the process's fetch as the service does between requests. */
        const hostCall = async (): Promise<void> => {
            fetchIdentity.push(globalThis.fetch === realFetch)
            const response = await globalThis.fetch(`${origin}/host/ping`)
            hostAnswers.push(await response.json())
        }
        const realFetch = globalThis.fetch

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'host-embed-')))
            mkdirSync(join(work, 'child'))
            childScript = await buildChildScript(join(work, 'child'))
            for (const file of FILES) {
                const source = join(SAMPLE, 'schemas', file)
                const read = readModuleSource({ source: readFileSync(source, 'utf8') })
                if (read.module === null) throw new Error(`${file} does not read`)
                const path = join(work, 'schemas', file)
                mkdirSync(join(path, '..'), { recursive: true })
                cpSync(source, path)
                schemas.push({ file, path, main: read.module.main as Record<string, any> })
            }
            server = createServer((req, res) => {
                res.setHeader('content-type', 'application/json')
                if (req.url?.startsWith('/host/')) {
                    seen.host += 1
                    res.end(JSON.stringify({ host: true }))
                    return
                }
                seen.upstream.push(req.url ?? '')
                res.end(
                    JSON.stringify({
                        status: '1',
                        message: 'OK',
                        result: [{ id: 1, name: 'first', value: 42 }],
                        data: [{ id: 1, name: 'first' }],
                        results: { bindings: [{ x: { type: 'literal', value: '1' } }] },
                        items: [{ id: 1 }],
                        path: req.url
                    })
                )
            })
            await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
            origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`

            // The host's port looks the global fetch up on every send, and calls its own API during each request.
            const lazy: HttpPort = {
                async send(request) {
                    portSends += 1
                    await hostCall()
                    return httpPortFromFetch((url, init) => globalThis.fetch(url, init as RequestInit)).send({
                        ...request,
                        url: rewrite(request.url)
                    })
                }
            }
            const built = runtimePortFromChildProcess({
                runtime: runtime.folder,
                libraries: runtime.base,
                lists: LISTS,
                http: lazy,
                childScript
            })
            if (built.port === null) throw new Error(built.errors.join('; '))
            const child: ChildRuntimePort = built.port
            ports.push(child)
            for (const s of schemas) {
                // The service keeps working while the tests run: a call every few milliseconds.
                let running = true
                const loop = (async () => {
                    while (running) {
                        await hostCall()
                        await new Promise((r) => setTimeout(r, 5))
                    }
                })()
                try {
                    embedded.set(s.file, await pretest(s, child, lazy))
                } finally {
                    running = false
                    await loop
                }
            }

            // The CLI's child (`grade --runtime --live`), its network the run's own port over a fetch taken once.
            const taken = realFetch
            const cliHttp = httpPortFromFetch((url, init) => taken(rewrite(url), init as RequestInit))
            const forGrade = runtimeForGrade(
                { runtime: { folder: runtime.folder, libraries: runtime.base, lists: LISTS, childScript }, live: true },
                work,
                cliHttp
            )
            if (forGrade.port === null) throw new Error(forGrade.errors.join('; '))
            ports.push(forGrade.port)
            for (const s of schemas) cli.set(s.file, await pretest(s, forGrade.port, cliHttp))
        }, 300_000)

        afterAll(async () => {
            await Promise.all(ports.map((p) => p.close()))
            await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())))
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        it('answers every fetch of the host from its own API while handler tests run: no crosstalk, the global fetch never replaced', () => {
            expect(hostAnswers.length).toBeGreaterThan(schemas.length)
            expect(hostAnswers.every((a) => JSON.stringify(a) === '{"host":true}')).toBe(true)
            expect(seen.host).toBe(hostAnswers.length)
            expect(fetchIdentity.every(Boolean)).toBe(true)
            expect(globalThis.fetch).toBe(realFetch)
            // The grading's requests reached the upstream only, never the host's API.
            expect(seen.upstream.some((u) => u.startsWith('/host/'))).toBe(false)
        })

        it('sends the handlers’ own requests through the host’s port, which looks fetch up lazily and does not recurse', () => {
            expect(portSends).toBeGreaterThan(0)
            const handlerFetched = ['govdatasparql/sparql-analytics.mjs', 'servicebund/tenders.mjs'].map((file) =>
                Object.values(embedded.get(file)?.tools ?? {}).reduce((n, t) => n + t.working, 0)
            )
            expect(handlerFetched.every((n) => n > 0)).toBe(true)
        })

        it('gives the same pretest results as the CLI’s child under the same responses', () => {
            for (const s of schemas) {
                const mine = embedded.get(s.file) as PretestResult
                const theirs = cli.get(s.file) as PretestResult
                expect(workingPerTool(mine), s.file).toEqual(workingPerTool(theirs))
                expect(testTruth(mine), s.file).toEqual(testTruth(theirs))
                expect(mine.blocked, s.file).toEqual(theirs.blocked)
            }
        })
    }
)
