import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
    runtimePortFromChildProcess,
    type ChildRuntimeOptions,
    type ChildRuntimePort
} from '../../src/cli/runtime/process.js'
import { childNodeArgs, permissionFlag } from '../../src/cli/runtime/sandbox.js'
import type { RuntimeTestRequest } from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import { buildChildScript, prepareRuntime, runtimePresent, type PreparedRuntime } from '../runtime/harness.js'

const FIXTURES = fileURLToPath(new URL('../fixtures/runtime/', import.meta.url))

describe('permissionFlag', () => {
    it.each([
        ['v18.19.0', null],
        ['v20.0.0', '--experimental-permission'],
        ['v20.20.2', '--experimental-permission'],
        ['v22.12.0', '--experimental-permission'],
        ['v22.13.0', '--permission'],
        ['v23.4.0', '--experimental-permission'],
        ['v23.5.0', '--permission'],
        ['v24.1.0', '--permission'],
        ['not a version', null]
    ])('names the permission flag of Node %s: %s', (version, flag) => {
        expect(permissionFlag(version)).toBe(flag)
    })
})

describe('childNodeArgs', () => {
    it('allows reading the named folders only, and nothing else: no writes, no child processes, no workers, no network', () => {
        const args = childNodeArgs({
            nodeVersion: 'v20.20.2',
            hasFlag: () => true,
            allowRead: ['/schemas/ns', '/runtime']
        })
        expect(args).toEqual([
            '--no-warnings',
            '--experimental-permission',
            '--allow-fs-read=/schemas/ns',
            '--allow-fs-read=/runtime'
        ])
    })

    it.each([
        [true, true, ['--allow-addons']],
        [true, false, []],
        [false, true, []]
    ])(
        'allows native addons only to the child of a schema that declares requiredLibraries (talib): declares %s, known %s',
        (addons, known, extra) => {
            const args = childNodeArgs({
                nodeVersion: 'v25.0.0',
                hasFlag: (f) => known && f === '--allow-addons',
                allowRead: ['/r'],
                addons
            })
            expect(args).toEqual(['--no-warnings', '--permission', '--allow-fs-read=/r', ...extra])
        }
    )

    it("never grants the network (--allow-net): the child's requests go through the parent", () => {
        expect(
            childNodeArgs({ nodeVersion: 'v25.0.0', hasFlag: () => true, allowRead: ['/r'], addons: true })
        ).not.toContain('--allow-net')
    })

    it('refuses a Node without the permission model', () => {
        expect(childNodeArgs({ nodeVersion: 'v18.20.0', hasFlag: () => true, allowRead: [] })).toBeNull()
    })
})

/** A tool test of a fixture schema as DataPretest builds it: main read from the syntax tree, the test's values. */
function fixtureRequest(
    schemaPath: string,
    tool: string,
    userParams: Record<string, unknown> = {},
    over: Partial<RuntimeTestRequest> = {}
): RuntimeTestRequest {
    const main = readModuleSource({ source: readFileSync(schemaPath, 'utf8') }).module?.main as Record<string, unknown>
    return { schemaPath, main, tool, testIndex: 0, userParams, serverParams: {}, timeoutMs: 10_000, ...over }
}

describe.skipIf(!runtimePresent || permissionFlag(process.version) === null)(
    'runtimePortFromChildProcess: the FlowMCP runtime in a child process under the permission model',
    () => {
        let runtime: PreparedRuntime
        let work: string
        let childScript: string
        const ports: ChildRuntimePort[] = []
        // Schemas are copied into a temp folder: the folder a child may read is the schema's own.
        const schema = (name: string): string => join(work, 'schemas', name, `${name}.mjs`)
        const open = (over: Partial<ChildRuntimeOptions> = {}): ChildRuntimePort => {
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

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'runtime-child-test-')))
            // The child may read its own script's folder: a folder of its own, apart from what the tests write.
            mkdirSync(join(work, 'child'))
            childScript = await buildChildScript(join(work, 'child'))
            for (const name of ['plain', 'hostile', 'misbehaving'])
                cpSync(join(FIXTURES, name), join(work, 'schemas', name), { recursive: true })
        }, 60_000)

        afterAll(async () => {
            await Promise.all(ports.map((p) => p.close()))
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        it('runs a plain handler schema: executeRequest computes offline, the port carries the runtime’s version', async () => {
            const port = open()
            expect(port.version).toBe(runtime.version)
            await expect(
                port.run(fixtureRequest(schema('plain'), 'sumNumbers', { numbers: '1,2,3' }))
            ).resolves.toEqual({ ok: true, data: { sum: 6, count: 3 }, httpStatus: null, messages: [] })
        })

        it('offline (the default): the child’s fetch is refused, the test fails as network not granted and says how to get a network', async () => {
            const outcome = await open().run(fixtureRequest(schema('plain'), 'getStatus', { region: 'EU' }))
            expect(outcome.ok).toBe(false)
            expect(outcome.messages?.[0]).toBe(
                'network not granted: the test tried fetch; pass --live to grant the network, or --recordings <dir> to answer its fetch from recordings'
            )
            expect(outcome.networkNotGranted).toEqual(['fetch'])
        })

        it('recordings: the child replays them, matched on the host its preRequest filled in', async () => {
            const port = open({ network: { mode: 'recordings', dir: join(FIXTURES, 'recordings') } })
            await expect(
                port.run(fixtureRequest(schema('plain'), 'getStatus', { region: 'EU' }))
            ).resolves.toMatchObject({ ok: true, data: { region: 'eu', status: 'up' } })
            await expect(
                port.run(fixtureRequest(schema('plain'), 'getStatus', { region: 'US' }))
            ).resolves.toMatchObject({ ok: false, httpStatus: 503 })
            const unrecorded = await port.run(
                fixtureRequest(schema('plain'), 'getFromOrigin', { origin: 'https://nowhere.example.org' })
            )
            expect(unrecorded).toMatchObject({ ok: false, httpStatus: 404 })
        })

        describe('live', () => {
            let server: Server
            let origin = ''
            const seen: Array<{ url: string; token: string | undefined }> = []
            beforeAll(async () => {
                server = createServer((req, res) => {
                    seen.push({ url: req.url ?? '', token: req.headers['x-token'] as string | undefined })
                    res.setHeader('content-type', 'application/json')
                    res.end(JSON.stringify({ region: 'local', status: 'up' }))
                })
                await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
                const address = server.address()
                origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
            })
            afterAll(() => new Promise<void>((done) => server.close(() => done())))

            it('uses the real fetch (here a server on this machine) with the server params from the child’s environment', async () => {
                const port = open({ network: { mode: 'live' } })
                const outcome = await port.run(
                    fixtureRequest(
                        schema('plain'),
                        'getFromOrigin',
                        { origin },
                        { serverParams: { FIXTURE_TOKEN: 'token-from-env' } }
                    )
                )
                expect(outcome).toMatchObject({ ok: true, data: { region: 'local', status: 'up' } })
                expect(seen).toEqual([{ url: '/v1/status', token: 'token-from-env' }])
            })
        })

        describe('a hostile handler cannot write, start a process, or read outside its folders', () => {
            const denied = /Access to this API has been restricted|ERR_ACCESS_DENIED/

            it.each([
                ['writeFile', 'a file outside every allowed folder', (w: string) => join(w, 'outside', 'written.txt')],
                [
                    'writeFile',
                    'a file in its own (readable) schema folder',
                    (w: string) => join(w, 'schemas', 'hostile', 'written.txt')
                ],
                [
                    'writeFileByImport',
                    'a file, through a dynamic import of node:fs/promises',
                    (w: string) => join(w, 'outside', 'imported.txt')
                ]
            ])('%s: %s is not written; the test fails with the permission error', async (tool, _what, target) => {
                mkdirSync(join(work, 'outside'), { recursive: true })
                const path = target(work)
                const outcome = await open().run(fixtureRequest(schema('hostile'), tool, { target: path }))
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.join(' ')).toMatch(denied)
                expect(existsSync(path)).toBe(false)
            })

            it('spawnProcess: no process runs (what it would have written is absent); the test fails with the permission error', async () => {
                const marker = join(work, 'outside', 'spawned.txt')
                mkdirSync(join(work, 'outside'), { recursive: true })
                const outcome = await open().run(fixtureRequest(schema('hostile'), 'spawnProcess', { target: marker }))
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.join(' ')).toMatch(denied)
                expect(existsSync(marker)).toBe(false)
            })

            it('readFile: a file outside the allowed folders cannot be read', async () => {
                const secret = join(work, 'outside', 'secret.txt')
                mkdirSync(join(work, 'outside'), { recursive: true })
                writeFileSync(secret, 'not for schemas')
                const outcome = await open().run(fixtureRequest(schema('hostile'), 'readFile', { target: secret }))
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.join(' ')).toMatch(denied)
            })

            it('listEnvironment: its environment holds only the schema’s declared server params', async () => {
                const outcome = await open().run(
                    fixtureRequest(
                        schema('hostile'),
                        'listEnvironment',
                        {},
                        { serverParams: { HOSTILE_TOKEN: 'only-this' } }
                    )
                )
                expect(outcome).toMatchObject({ ok: true, data: { names: ['HOSTILE_TOKEN'] } })
            })
        })

        describe('a misbehaving handler fails its own test only', () => {
            it('a test that does not answer in time fails; its child is killed and the next test gets a fresh one', async () => {
                const port = open()
                const outcome = await port.run(fixtureRequest(schema('misbehaving'), 'hang', {}, { timeoutMs: 300 }))
                expect(outcome).toEqual({
                    ok: false,
                    httpStatus: null,
                    messages: ['the runtime did not answer within 300 ms: its process was stopped']
                })
                await expect(
                    port.run(fixtureRequest(schema('misbehaving'), 'sleep', { ms: 1 }))
                ).resolves.toMatchObject({ ok: true, data: { slept: 1 } })
            })

            it('a test still waiting in a child that is killed for another test’s timeout is sent to a fresh child', async () => {
                const port = open()
                const [hung, slept] = await Promise.all([
                    port.run(fixtureRequest(schema('misbehaving'), 'hang', {}, { timeoutMs: 300 })),
                    port.run(fixtureRequest(schema('misbehaving'), 'sleep', { ms: 600 }))
                ])
                expect(hung.ok).toBe(false)
                expect(slept).toMatchObject({ ok: true, data: { slept: 600 } })
            })

            it('a handler that ends its process fails its test with the exit code; the next test runs', async () => {
                const port = open()
                const outcome = await port.run(fixtureRequest(schema('misbehaving'), 'exitProcess'))
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.[0]).toMatch(/^the runtime process ended \(exit code 3\)/)
                await expect(
                    port.run(fixtureRequest(schema('misbehaving'), 'sleep', { ms: 1 }))
                ).resolves.toMatchObject({ ok: true })
            })

            it('a handler that writes to stdout does not disturb the protocol', async () => {
                await expect(open().run(fixtureRequest(schema('misbehaving'), 'noisyOutput'))).resolves.toMatchObject({
                    ok: true,
                    data: { noisy: true }
                })
            })
        })

        describe('failures', () => {
            it('fails a schema given without its file at once, starting no child', async () => {
                await expect(
                    open().run({ ...fixtureRequest(schema('plain'), 'sumNumbers'), schemaPath: null })
                ).resolves.toEqual({
                    ok: false,
                    httpStatus: null,
                    messages: [
                        'the schema was given as an object: the runtime needs its file (schemaPath) to load its handlers'
                    ]
                })
            })

            it('fails every test when the runtime folder holds no FlowMCP runtime', async () => {
                const folder = join(work, 'not-a-runtime')
                mkdirSync(folder, { recursive: true })
                writeFileSync(
                    join(folder, 'package.json'),
                    JSON.stringify({ name: 'not-a-runtime', version: '9.9.9', main: 'index.mjs' })
                )
                writeFileSync(join(folder, 'index.mjs'), 'export const nothing = 1\n')
                const port = open({ runtime: folder, libraries: folder })
                const outcome = await port.run(fixtureRequest(schema('plain'), 'sumNumbers', { numbers: '1' }))
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.[0]).toMatch(
                    /^the runtime did not start: .*does not export FlowMCP\.loadSchema and FlowMCP\.fetch/
                )
            })

            it('fails a test of a schema file that does not exist', async () => {
                const outcome = await open().run(
                    fixtureRequest(
                        schema('plain'),
                        'sumNumbers',
                        {},
                        { schemaPath: join(work, 'schemas', 'plain', 'gone.mjs') }
                    )
                )
                expect(outcome.ok).toBe(false)
                expect(outcome.messages?.[0]).toMatch(/^the runtime did not load the schema/)
            })

            it.each([
                [
                    { runtime: '/nonexistent/runtime' },
                    /--runtime \/nonexistent\/runtime: no readable package.json there/
                ],
                [{ libraries: '/nonexistent/libraries' }, /--runtime-libraries \/nonexistent\/libraries: not a folder/],
                [{ lists: '/nonexistent/lists' }, /--runtime-lists \/nonexistent\/lists: not a folder/],
                [
                    { childScript: '/nonexistent/runtime-child.js' },
                    /the runtime child script \/nonexistent\/runtime-child.js is missing/
                ]
            ])('refuses options naming what is not there: %o', (over, expected) => {
                const { port, errors } = runtimePortFromChildProcess({
                    runtime: runtime.folder,
                    libraries: runtime.base,
                    network: { mode: 'offline' },
                    childScript,
                    ...over
                })
                expect(port).toBeNull()
                expect(errors.join('\n')).toMatch(expected)
            })

            it('refuses a Node without the permission model', () => {
                const { port, errors } = runtimePortFromChildProcess({
                    runtime: runtime.folder,
                    libraries: runtime.base,
                    network: { mode: 'offline' },
                    childScript,
                    nodeVersion: 'v18.20.0'
                })
                expect(port).toBeNull()
                expect(errors).toEqual([
                    "--runtime needs Node's permission model (Node 20 or later); this is Node v18.20.0"
                ])
            })
        })

        it('keeps at most maxChildren children: an idle one is stopped when another schema needs one', async () => {
            const port = open({ maxChildren: 1 })
            await expect(
                port.run(fixtureRequest(schema('plain'), 'sumNumbers', { numbers: '2,2' }))
            ).resolves.toMatchObject({ ok: true, data: { sum: 4 } })
            await expect(port.run(fixtureRequest(schema('misbehaving'), 'sleep', { ms: 1 }))).resolves.toMatchObject({
                ok: true
            })
            await expect(
                port.run(fixtureRequest(schema('plain'), 'sumNumbers', { numbers: '3,3' }))
            ).resolves.toMatchObject({ ok: true, data: { sum: 6 } })
            await port.close()
        })
    }
)
