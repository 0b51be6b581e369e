import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runtimePortFromChildProcess, type ChildRuntimePort } from '../../src/cli/runtime/process.js'
import { permissionFlag } from '../../src/cli/runtime/sandbox.js'
import {
    DataPretest,
    httpPortFromFetch,
    httpPortFromRecordings,
    recordingHttpPort,
    runtimePortFromFlowMCP,
    type HttpPort,
    type PretestResult,
    type Recording,
    type RuntimePort
} from '../../src/index.js'
import { BLOCKED_REASONS } from '../../src/model/constants.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import {
    buildChildScript,
    prepareRuntime,
    runtimePresent,
    SAMPLE,
    sampleFiles,
    samplePresent,
    type PreparedRuntime
} from './harness.js'

// The sample's handler schemas, recorded once against a fake API on this machine (127.0.0.1 only:
// every request the runtime sends is rewritten to it) and replayed with neither network nor keys.
const now = '2026-11-27T12:00:00Z'
const LISTS = fileURLToPath(new URL('../fixtures/runtime/lists/', import.meta.url))

/** Made-up key values: none may reach a recording file. */
const keyValue = (name: string): string => `value-of-${name.toLowerCase()}-8f3a1c`

interface HandlerSchema {
    readonly file: string
    readonly path: string
    readonly main: Record<string, any>
}

/** The sample's handler schemas, copied into `dir` (a child may read its schema's own folder). */
function handlerSchemas(dir: string): HandlerSchema[] {
    return sampleFiles().flatMap((file) => {
        const source = join(SAMPLE, 'schemas', file)
        const read = readModuleSource({ source: readFileSync(source, 'utf8') })
        if (!read.hasHandlers || read.module === null) return []
        const path = join(dir, file)
        mkdirSync(join(path, '..'), { recursive: true })
        cpSync(source, path)
        return [{ file, path, main: read.module.main as Record<string, any> }]
    })
}

/** Working tests per tool: what the grade is built on. */
const workingPerTool = (result: PretestResult): Record<string, number> =>
    Object.fromEntries(Object.entries(result.tools).map(([tool, t]) => [tool, t.working]))

describe.skipIf(!runtimePresent || !samplePresent || permissionFlag(process.version) === null)(
    'the sample’s handler schemas recorded through the runtime child and replayed without network or keys',
    () => {
        let runtime: PreparedRuntime
        let work: string
        let childScript: string
        let server: Server
        let origin = ''
        let connections = 0
        const ports: ChildRuntimePort[] = []
        const schemas: HandlerSchema[] = []
        /** Per schema: the runtime in-process, the child recording live, the child replaying. */
        const runs = new Map<
            string,
            {
                inProcess: PretestResult
                recorded: PretestResult
                replayed: PretestResult
                connectionsDuringReplay: number
            }
        >()
        let recordings: Recording[] = []

        /** The "live" network: the real fetch, every URL sent to the fake API on 127.0.0.1 (its host kept in the path). */
        const realFetch = globalThis.fetch
        const loopback: HttpPort = httpPortFromFetch((url, init) => {
            const parsed = new URL(url)
            return realFetch(`${origin}/${parsed.host}${parsed.pathname}${parsed.search}`, init as RequestInit)
        })

        const pretest = (
            schema: HandlerSchema,
            runtimePort: RuntimePort,
            http: HttpPort,
            serverParams: Record<string, string>
        ): Promise<PretestResult> =>
            DataPretest.run({
                main: schema.main,
                http,
                runtime: runtimePort,
                hasHandlers: true,
                schemaPath: schema.path,
                serverParams,
                now,
                checkDocs: false,
                timeoutMs: 10_000
            })

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'record-replay-')))
            mkdirSync(join(work, 'child'))
            childScript = await buildChildScript(join(work, 'child'))
            schemas.push(...handlerSchemas(join(work, 'schemas')))
            // A fake API: every request answered 200 with one JSON document; every connection counted.
            server = createServer((req, res) => {
                res.setHeader('content-type', 'application/json')
                res.end(
                    JSON.stringify({
                        status: '1',
                        message: 'OK',
                        result: [{ id: 1, name: 'first', value: 42 }],
                        data: [{ id: 1, name: 'first' }],
                        items: [{ id: 1 }],
                        path: req.url
                    })
                )
            })
            server.on('connection', () => {
                connections += 1
            })
            await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
            origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`

            const keys = (main: Record<string, any>): string[] =>
                Array.isArray(main.requiredServerParams) ? (main.requiredServerParams as string[]) : []
            const recorder = recordingHttpPort({
                http: loopback,
                serverParams: Object.fromEntries(schemas.flatMap((s) => keys(s.main)).map((k) => [k, keyValue(k)])),
                recordedAt: now
            })
            const inProcess = runtimePortFromFlowMCP({
                core: runtime.core,
                resolveBase: runtime.base,
                listsDir: LISTS,
                version: runtime.version,
                http: loopback,
                swapGlobalFetch: true
            })
            const live = runtimePortFromChildProcess({
                runtime: runtime.folder,
                libraries: runtime.base,
                lists: LISTS,
                network: { mode: 'live' },
                http: recorder.port,
                childScript
            })
            if (live.port === null) throw new Error(live.errors.join('; '))
            ports.push(live.port)
            const withKeys = (s: HandlerSchema): Record<string, string> =>
                Object.fromEntries(keys(s.main).map((k) => [k, keyValue(k)]))
            const first = new Map<string, { inProcess: PretestResult; recorded: PretestResult }>()
            for (const s of schemas)
                first.set(s.file, {
                    inProcess: await pretest(s, inProcess, loopback, withKeys(s)),
                    recorded: await pretest(s, live.port, recorder.port, withKeys(s))
                })
            recordings = recorder.recordings()

            // The replay: the recordings only, no key (a placeholder where each was), the fake API counting connections.
            const replay = httpPortFromRecordings({ recordings: JSON.parse(JSON.stringify(recordings)) as Recording[] })
            const replaying = runtimePortFromChildProcess({
                runtime: runtime.folder,
                libraries: runtime.base,
                lists: LISTS,
                network: { mode: 'recordings' },
                http: replay,
                childScript
            })
            if (replaying.port === null) throw new Error(replaying.errors.join('; '))
            ports.push(replaying.port)
            globalThis.fetch = (async () => {
                throw new TypeError('the replay may not fetch')
            }) as typeof fetch
            try {
                for (const s of schemas) {
                    const before = connections
                    const replayed = await pretest(
                        s,
                        replaying.port,
                        replay,
                        Object.fromEntries(keys(s.main).map((k) => [k, `{{SERVER_PARAM:${k}}}`]))
                    )
                    const got = first.get(s.file) as { inProcess: PretestResult; recorded: PretestResult }
                    runs.set(s.file, { ...got, replayed, connectionsDuringReplay: connections - before })
                }
            } finally {
                globalThis.fetch = realFetch
            }
        }, 300_000)

        afterAll(async () => {
            globalThis.fetch = realFetch
            await Promise.all(ports.map((p) => p.close()))
            await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())))
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        it('records a run and replays it: the same working tests per tool as the runtime itself under the same responses, for every handler schema', ({
            annotate
        }) => {
            expect(schemas).toHaveLength(20)
            let tools = 0
            let working = 0
            for (const s of schemas) {
                const r = runs.get(s.file)
                expect(r, s.file).toBeDefined()
                expect(workingPerTool(r?.recorded as PretestResult), `${s.file}: recording through the child`).toEqual(
                    workingPerTool(r?.inProcess as PretestResult)
                )
                expect(workingPerTool(r?.replayed as PretestResult), `${s.file}: replay`).toEqual(
                    workingPerTool(r?.inProcess as PretestResult)
                )
                tools += Object.keys(r?.replayed.tools ?? {}).length
                working += Object.values(r?.replayed.tools ?? {}).reduce((n, t) => n + t.working, 0)
            }
            void annotate(
                `${schemas.length} handler schemas, ${tools} tools, ${working} working tests in the replay, equal to the runtime's own`
            )
            expect(working).toBeGreaterThan(50)
        })

        it('opens 0 connections during the replay (the fake API counts them), where the recording run opened many', () => {
            const during = [...runs.values()].reduce((n, r) => n + r.connectionsDuringReplay, 0)
            expect(during).toBe(0)
            expect(connections).toBeGreaterThan(0)
        })

        it('writes no key value into any recording: keys in queries and paths are {{SERVER_PARAM:KEY}}', () => {
            const text = JSON.stringify(recordings)
            expect(recordings.length).toBeGreaterThan(5)
            for (const s of schemas)
                for (const k of (s.main.requiredServerParams ?? []) as string[])
                    expect(text, k).not.toContain(keyValue(k))
            // Only content-type of the response headers is kept.
            for (const r of recordings)
                for (const e of r.exchanges) expect(Object.keys(e.response.headers ?? {})).toEqual(['content-type'])
        })

        it('tests and grades the key-gated tools without their key: nothing blocked for a missing key, no request missing from the recordings', () => {
            const blocked = [...runs].flatMap(([file, r]) =>
                r.replayed.blocked
                    .filter(
                        (b) =>
                            b.reason === BLOCKED_REASONS.keyGated ||
                            b.reason === BLOCKED_REASONS.networkNotGranted ||
                            b.reason === BLOCKED_REASONS.untested
                    )
                    .map((b) => `${file} ${b.tool}: ${b.reason}`)
            )
            expect(blocked).toEqual([])
            const missing = [...runs].flatMap(([file, r]) =>
                r.replayed.results
                    .filter((t) => t.verdict === 'missing-recording')
                    .map((t) => `${file} ${t.tool}#${t.testIndex}`)
            )
            expect(missing).toEqual([])
            const keyGated = schemas.filter((s) => ((s.main.requiredServerParams ?? []) as string[]).length > 0)
            expect(keyGated.length).toBeGreaterThan(0)
        })

        it('keeps each runtime test’s requests with their status, keys masked, in the pretest result', () => {
            const requests = [...runs.values()].flatMap((r) =>
                r.replayed.results.flatMap((t) => (t.via === 'runtime' ? (t.requests ?? []) : []))
            )
            expect(requests.length).toBeGreaterThan(50)
            expect(requests.every((q) => q.status === 200 && !q.missingRecording)).toBe(true)
            const text = JSON.stringify([...runs.values()].map((r) => r.recorded))
            for (const s of schemas)
                for (const k of (s.main.requiredServerParams ?? []) as string[])
                    expect(text, k).not.toContain(keyValue(k))
        })
    }
)
