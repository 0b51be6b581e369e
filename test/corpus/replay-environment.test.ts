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
    type PretestResult,
    type Recording
} from '../../src/index.js'
import { BLOCKED_REASONS } from '../../src/model/constants.js'
import { isEnvironmentReason } from '../../src/model/environment.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import {
    buildChildScript,
    prepareRuntime,
    runtimePresent,
    SAMPLE,
    sampleFiles,
    samplePresent,
    type PreparedRuntime
} from '../runtime/harness.js'

// The whole sample as CI grades it: recorded once (live against a fake API on 127.0.0.1, with
// made-up keys, handlers through the runtime child), then replayed with the runtime, no network
// and no key. What still blocks a tool is sorted into the environment's reasons and the schema's own.
const now = '2026-11-27T12:00:00Z'
const LISTS = fileURLToPath(new URL('../fixtures/runtime/lists/', import.meta.url))

/** Why a replayed tool is blocked by its environment (the one list, ENVIRONMENT_BLOCKED_REASONS), or null for its content. */
function environmentCause(result: PretestResult, tool: string, reason: string): string | null {
    if (!isEnvironmentReason(reason)) return null
    return reason === BLOCKED_REASONS.libraryNotInstalled
        ? `${reason}: ${result.blocked.find((b) => b.tool === tool)?.detail.slice(0, 400) ?? ''}`
        : reason
}

describe.skipIf(!runtimePresent || !samplePresent || permissionFlag(process.version) === null)(
    'the whole sample recorded once and replayed in CI (runtime, no network, no key)',
    () => {
        let runtime: PreparedRuntime
        let work: string
        let server: Server
        let origin = ''
        const ports: ChildRuntimePort[] = []
        const replayed = new Map<string, PretestResult>()

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'corpus-replay-')))
            mkdirSync(join(work, 'child'))
            const childScript = await buildChildScript(join(work, 'child'))
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
            await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
            origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
            const realFetch = globalThis.fetch
            const loopback = httpPortFromFetch((url, init) => {
                const parsed = new URL(url)
                return realFetch(`${origin}/${parsed.host}${parsed.pathname}${parsed.search}`, init as RequestInit)
            })
            const schemas = sampleFiles().map((file) => {
                const path = join(work, 'schemas', file)
                mkdirSync(join(path, '..'), { recursive: true })
                cpSync(join(SAMPLE, 'schemas', file), path)
                const read = readModuleSource({ source: readFileSync(path, 'utf8') })
                const main = (read.module?.main ?? {}) as Record<string, unknown>
                return {
                    file,
                    path,
                    main,
                    hasHandlers: read.hasHandlers === true,
                    keys: Array.isArray(main.requiredServerParams) ? (main.requiredServerParams as string[]) : []
                }
            })
            const recorder = recordingHttpPort({
                http: loopback,
                serverParams: Object.fromEntries(schemas.flatMap((s) => s.keys).map((k) => [k, `made-up-${k}-value`])),
                recordedAt: now
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
            for (const s of schemas)
                await DataPretest.run({
                    main: s.main,
                    http: recorder.port,
                    runtime: live.port,
                    hasHandlers: s.hasHandlers,
                    schemaPath: s.path,
                    serverParams: Object.fromEntries(s.keys.map((k) => [k, `made-up-${k}-value`])),
                    now,
                    checkDocs: false,
                    timeoutMs: 10_000
                })
            const replay = httpPortFromRecordings({
                recordings: JSON.parse(JSON.stringify(recorder.recordings())) as Recording[]
            })
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
            for (const s of schemas)
                replayed.set(
                    s.file,
                    await DataPretest.run({
                        main: s.main,
                        http: replay,
                        runtime: replaying.port,
                        hasHandlers: s.hasHandlers,
                        schemaPath: s.path,
                        serverParams: Object.fromEntries(s.keys.map((k) => [k, `{{SERVER_PARAM:${k}}}`])),
                        now,
                        checkDocs: false,
                        timeoutMs: 10_000
                    })
                )
        }, 600_000)

        afterAll(async () => {
            await Promise.all(ports.map((p) => p.close()))
            await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())))
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        // Measured here: of 61 schemas, one is held back by this machine, not by its content:
        // unified/unified-trend-basic declares talib, a native library this workspace does not install
        // (the child may load native addons; the library is simply absent, as on a host without it).
        it('blocks no schema for its environment (untested, no runtime, missing key, network, recording mismatch) but the one whose library is not installed here', ({
            annotate
        }) => {
            expect(replayed.size).toBe(61)
            const environment = new Map<string, string[]>()
            let contentBlocked = 0
            for (const [file, result] of replayed) {
                const causes = result.blocked
                    .map((b) => environmentCause(result, b.tool, b.reason))
                    .filter((c): c is string => c !== null)
                if (causes.length > 0) environment.set(file, [...new Set(causes)])
                else if (result.blocked.length > 0) contentBlocked += 1
            }
            const graded = [...replayed.values()].filter((r) => r.blocked.length === 0).length
            void annotate(
                `61 schemas replayed: ${graded} with no tool blocked, ${contentBlocked} blocked for their content only, ${environment.size} for the environment: ${JSON.stringify(Object.fromEntries(environment))}`
            )
            expect([...environment.keys()]).toEqual(['unified/unified-trend-basic.mjs'])
            expect(environment.get('unified/unified-trend-basic.mjs')?.join(' ')).toMatch(
                /^library-not-installed: .*talib/
            )
        })
    }
)
