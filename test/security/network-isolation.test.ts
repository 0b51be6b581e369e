import { execFile } from 'node:child_process'
import { createSocket, type Socket as UdpSocket } from 'node:dgram'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
    runtimePortFromChildProcess,
    type ChildRuntimeOptions,
    type ChildRuntimePort
} from '../../src/cli/runtime/process.js'
import { chooseIsolation, networkNamespaceWorks, permissionFlag } from '../../src/cli/runtime/sandbox.js'
import type { RuntimeTestRequest } from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import { buildChildScript, prepareRuntime, runtimePresent, type PreparedRuntime } from '../runtime/harness.js'

const PROBE = fileURLToPath(new URL('./fixtures/probe/', import.meta.url))
const RECORDINGS = fileURLToPath(new URL('../fixtures/runtime/recordings/', import.meta.url))
const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'].find((p) => existsSync(p)) ?? null
const namespaceHere =
    process.platform === 'linux' && UNSHARE !== null && networkNamespaceWorks(UNSHARE, process.execPath)

/** Every door the probe knocks on (its `data.doors` keys). */
const DOORS = [
    'getBuiltinModule(node:net).connect',
    'net.Socket#connect',
    'import(node:net).createConnection',
    'createRequire(node:net).connect',
    'tls.connect',
    'http.get',
    'https.request',
    'http2.connect',
    'dgram.send',
    'dns.Resolver#resolve4',
    'dns.promises.lookup',
    'process.binding(tcp_wrap)',
    'fetch',
    'WebSocket'
]

describe('chooseIsolation', () => {
    const base = { nodePath: process.execPath, hasFlag: () => false }

    it('falls back to Node’s network permission where there is no namespace and the Node has --allow-net', () => {
        expect(
            chooseIsolation({ ...base, forced: 'auto', unshare: null, hasFlag: (f) => f === '--allow-net' })
        ).toEqual({ isolation: 'node-permission+module-doors', unshare: null })
    })

    it('falls back to the module doors alone where nothing stronger exists (no unshare, Node 20)', () => {
        expect(chooseIsolation({ ...base, forced: 'auto', unshare: null })).toEqual({
            isolation: 'module-doors',
            unshare: null
        })
    })

    it('falls back when unshare is there but cannot make a namespace (here: a binary that fails)', () => {
        expect(chooseIsolation({ ...base, forced: 'auto', unshare: '/bin/false' })).toEqual({
            isolation: 'module-doors',
            unshare: null
        })
    })

    it.skipIf(!namespaceHere)('takes a network namespace where unshare -rn works (Linux here)', () => {
        expect(chooseIsolation({ ...base, forced: 'auto', unshare: UNSHARE })).toEqual({
            isolation: 'network-namespace+module-doors',
            unshare: UNSHARE
        })
    })
})

describe.skipIf(!namespaceHere)('the network namespace on its own (unshare -rn), without the module doors', () => {
    let server: Server
    let port = 0
    let connections = 0
    beforeAll(async () => {
        server = createServer((socket) => {
            connections += 1
            socket.destroy()
        })
        await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
        port = (server.address() as { port: number }).port
    })
    afterAll(() => new Promise<void>((done) => server.close(() => done())))

    it('a plain Node inside it cannot reach a server on this machine’s 127.0.0.1; outside it the same script can', async () => {
        const run = promisify(execFile)
        const script = `require('node:net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('reached'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(0) })`
        const inside = await run(UNSHARE as string, ['-rn', '--', process.execPath, '-e', script], {
            encoding: 'utf8',
            timeout: 10_000
        })
        expect(inside.stdout.trim()).toMatch(/^E[A-Z]+$/)
        expect(connections).toBe(0)
        const outside = await run(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10_000 })
        expect(outside.stdout.trim()).toBe('reached')
        await new Promise((done) => setTimeout(done, 50))
        expect(connections).toBe(1)
    })
})

describe.skipIf(!runtimePresent || permissionFlag(process.version) === null)(
    'a probe handler that tries every network door, in the runtime child',
    () => {
        let runtime: PreparedRuntime
        let work: string
        let childScript: string
        let schemaPath: string
        let tcp: Server
        let udp: UdpSocket
        let tcpPort = 0
        let udpPort = 0
        let tcpConnections = 0
        let udpMessages = 0
        const ports: ChildRuntimePort[] = []
        const open = (over: Partial<ChildRuntimeOptions>): ChildRuntimePort => {
            const { port, errors } = runtimePortFromChildProcess({
                runtime: runtime.folder,
                libraries: runtime.base,
                network: { mode: 'offline' },
                childScript,
                ...over
            })
            expect(errors).toEqual([])
            if (port === null) throw new Error('no port')
            ports.push(port)
            return port
        }
        const probe = (): RuntimeTestRequest => {
            const main = readModuleSource({ source: readFileSync(schemaPath, 'utf8') }).module?.main as Record<
                string,
                unknown
            >
            return {
                schemaPath,
                main,
                tool: 'probeDoors',
                testIndex: 0,
                userParams: { tcpPort: String(tcpPort), udpPort: String(udpPort), numbers: '1,2,3' },
                serverParams: {},
                timeoutMs: 30_000
            }
        }

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'network-probe-')))
            mkdirSync(join(work, 'child'))
            childScript = await buildChildScript(join(work, 'child'))
            cpSync(PROBE, join(work, 'schemas', 'probe'), { recursive: true })
            schemaPath = join(work, 'schemas', 'probe', 'probe.mjs')
            tcp = createServer((socket) => {
                tcpConnections += 1
                socket.on('error', () => undefined)
                socket.destroy()
            })
            await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done))
            tcpPort = (tcp.address() as { port: number }).port
            udp = createSocket('udp4')
            udp.on('message', () => {
                udpMessages += 1
            })
            await new Promise<void>((done) => udp.bind(0, '127.0.0.1', done))
            udpPort = udp.address().port
        }, 60_000)

        beforeEach(() => {
            tcpConnections = 0
            udpMessages = 0
        })

        afterAll(async () => {
            await Promise.all(ports.map((p) => p.close()))
            await new Promise<void>((done) => tcp.close(() => done()))
            udp.close()
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        /** The doors that reach the parent's network, live and under recordings: what a host's own fetch and HTTP clients use. */
        const THROUGH_PARENT = ['http.get', 'https.request', 'fetch']

        it.each([
            ['offline', 'auto'],
            ['offline', 'module-doors'],
            ['recordings', 'auto'],
            ['recordings', 'module-doors'],
            ['live', 'auto']
        ] as const)(
            '%s, isolation %s: 0 connections from the child through any door, the answer still computed, the test failed as network not granted',
            async (mode, isolation) => {
                // Live, the parent's network is a port that counts what reaches it and answers 200: no connection either way.
                const parentSeen: string[] = []
                const network = mode === 'recordings' ? ({ mode, dir: RECORDINGS } as const) : ({ mode } as const)
                const port = open({
                    network,
                    isolation,
                    ...(mode === 'live'
                        ? {
                              http: {
                                  send: async (r) => (
                                      parentSeen.push(`${r.method} ${r.url}`), { status: 200, headers: {}, body: '{}' }
                                  )
                              }
                          }
                        : {})
                })
                expect(port.isolation).toBe(
                    isolation === 'module-doors'
                        ? 'module-doors'
                        : namespaceHere
                          ? 'network-namespace+module-doors'
                          : 'module-doors'
                )
                const outcome = await port.run(probe())
                expect({ tcpConnections, udpMessages }).toEqual({ tcpConnections: 0, udpMessages: 0 })
                const data = outcome.data as { sum: number; doors: Record<string, string> }
                expect(data.sum).toBe(6)
                expect(Object.keys(data.doors)).toEqual(DOORS)
                for (const door of DOORS.filter((d) =>
                    mode === 'offline' ? d !== 'fetch' : !THROUGH_PARENT.includes(d)
                ))
                    expect(data.doors[door], door).toMatch(/^refused |^absent$/)
                if (mode === 'offline') expect(data.doors.fetch).toBe('refused ERR_NETWORK_NOT_GRANTED')
                // Under recordings the parent answers from them (404: nothing recorded for it); live it sends them on (here: the counting port).
                else
                    expect([data.doors.fetch, data.doors['http.get'], data.doors['https.request']]).toEqual(
                        mode === 'recordings'
                            ? ['answered 404', 'reached', 'reached']
                            : ['answered 200', 'reached', 'reached']
                    )
                if (mode === 'live')
                    expect(parentSeen.sort()).toEqual([
                        `GET http://127.0.0.1:${tcpPort}/`,
                        `GET http://127.0.0.1:${tcpPort}/`,
                        `GET https://127.0.0.1:${tcpPort}/`
                    ])
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.[0]).toMatch(/^network not granted: the test tried /)
                expect(outcome.messages?.[0]).toContain(
                    mode === 'offline'
                        ? 'pass --live to grant the network, or --recordings'
                        : 'only fetch and http(s) requests reach the network, through the grading process'
                )
                expect(outcome.networkNotGranted).toEqual(
                    expect.arrayContaining([
                        'node:net.connect',
                        'node:tls.connect',
                        'node:http2.connect',
                        'node:dgram.createSocket',
                        'node:dns.Resolver#resolve4',
                        'process.binding'
                    ])
                )
                if (mode === 'offline')
                    expect(outcome.networkNotGranted).toEqual(
                        expect.arrayContaining(['fetch', 'node:http.get', 'node:https.request'])
                    )
                else expect(outcome.networkNotGranted).not.toEqual(expect.arrayContaining(['fetch']))
                // The requests that went through the parent are the test's record.
                if (mode !== 'offline')
                    expect(outcome.requests?.map((r) => r.status)).toEqual(
                        mode === 'recordings' ? [404, 404, 404] : [200, 200, 200]
                    )
            }
        )

        it('a test that tries no door is not touched: its success stands', async () => {
            const plainDir = join(work, 'schemas', 'plain')
            mkdirSync(plainDir, { recursive: true })
            writeFileSync(
                join(plainDir, 'plain.mjs'),
                readFileSync(fileURLToPath(new URL('../fixtures/runtime/plain/plain.mjs', import.meta.url)), 'utf8')
            )
            const path = join(plainDir, 'plain.mjs')
            const main = readModuleSource({ source: readFileSync(path, 'utf8') }).module?.main as Record<
                string,
                unknown
            >
            const outcome = await open({ network: { mode: 'offline' } }).run({
                schemaPath: path,
                main,
                tool: 'sumNumbers',
                testIndex: 0,
                userParams: { numbers: '4,5' },
                serverParams: {},
                timeoutMs: 10_000
            })
            expect(outcome).toEqual({ ok: true, data: { sum: 9, count: 2 }, httpStatus: null, messages: [] })
        })
    }
)
