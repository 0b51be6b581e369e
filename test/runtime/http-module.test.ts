import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runtimePortFromChildProcess, type ChildRuntimePort } from '../../src/cli/runtime/process.js'
import { permissionFlag } from '../../src/cli/runtime/sandbox.js'
import { httpPortFromRecordings, recordingHttpPort, type HttpPort, type RuntimeTestOutcome } from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import { buildChildScript, prepareRuntime, runtimePresent, type PreparedRuntime } from './harness.js'

// ens/ens-public's case: a library that speaks HTTP without fetch (ethers' JSON-RPC provider uses
// node:https). In the runtime child its requests reach the parent's network like fetch's, so they
// are recorded and replayed; calls to one URL are told apart by their bodies.
const FIXTURE = fileURLToPath(new URL('../fixtures/runtime/jsonrpc/', import.meta.url))
const KEY = 'rpc-key-value-0123456789'

/** A JSON-RPC node: the chain id by network, block 0x10; every call kept. */
function node(calls: string[]): HttpPort {
    return {
        send: async (request) => {
            const body = JSON.parse(request.body ?? '{}') as { id: number; method: string }
            calls.push(`${request.method} ${request.url} ${body.method}`)
            const result =
                body.method === 'eth_chainId' ? (request.url.includes('/sepolia/') ? '0xaa36a7' : '0x1') : '0x10'
            return {
                status: 200,
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ jsonrpc: '2.0', id: body.id, result })
            }
        }
    }
}

describe.skipIf(!runtimePresent || permissionFlag(process.version) === null)(
    'http(s).request in the runtime child: a JSON-RPC client without fetch, recorded and replayed',
    () => {
        let runtime: PreparedRuntime
        let work: string
        let childScript: string
        let schemaPath: string
        let main: Record<string, unknown>
        const ports: ChildRuntimePort[] = []
        const open = (network: 'live' | 'recordings' | 'offline', http?: HttpPort): ChildRuntimePort => {
            const { port, errors } = runtimePortFromChildProcess({
                runtime: runtime.folder,
                libraries: runtime.base,
                network: { mode: network },
                childScript,
                ...(http !== undefined ? { http } : {})
            })
            expect(errors).toEqual([])
            ports.push(port as ChildRuntimePort)
            return port as ChildRuntimePort
        }
        const run = (port: ChildRuntimePort, network: string, key: string): Promise<RuntimeTestOutcome> =>
            port.run({
                schemaPath,
                main,
                tool: 'chainState',
                testIndex: 0,
                userParams: { network },
                serverParams: { RPC_KEY: key },
                timeoutMs: 10_000
            })

        beforeAll(async () => {
            runtime = await prepareRuntime()
            work = realpathSync(mkdtempSync(join(tmpdir(), 'http-module-')))
            mkdirSync(join(work, 'child'))
            childScript = await buildChildScript(join(work, 'child'))
            cpSync(FIXTURE, join(work, 'schemas', 'jsonrpc'), { recursive: true })
            schemaPath = join(work, 'schemas', 'jsonrpc', 'jsonrpc.mjs')
            main = readModuleSource({ source: readFileSync(schemaPath, 'utf8') }).module?.main as Record<
                string,
                unknown
            >
        }, 60_000)

        afterAll(async () => {
            await Promise.all(ports.map((p) => p.close()))
            runtime?.cleanup()
            if (work !== undefined) rmSync(work, { recursive: true, force: true })
        })

        it('live: the calls go through the parent’s port (keys in the child’s URL, masked in the test’s record); recorded without the key; replayed without key or network', async () => {
            const calls: string[] = []
            const recorder = recordingHttpPort({ http: node(calls), serverParams: { RPC_KEY: KEY } })
            const live = open('live', recorder.port)
            const liveOutcomes = [await run(live, 'mainnet', KEY), await run(live, 'sepolia', KEY)]
            expect(liveOutcomes.map((o) => o.data)).toEqual([
                { chainId: '0x1', block: '0x10', status: 200 },
                { chainId: '0xaa36a7', block: '0x10', status: 200 }
            ])
            expect(calls).toEqual([
                `POST https://rpc.example.org/mainnet/${KEY} eth_chainId`,
                `POST https://rpc.example.org/mainnet/${KEY} eth_blockNumber`,
                `POST https://rpc.example.org/sepolia/${KEY} eth_chainId`,
                `POST https://rpc.example.org/sepolia/${KEY} eth_blockNumber`
            ])
            expect(liveOutcomes[0]?.requests).toEqual([
                {
                    method: 'POST',
                    url: 'https://rpc.example.org/mainnet/{{SERVER_PARAM:RPC_KEY}}',
                    status: 200,
                    missingRecording: false
                },
                {
                    method: 'POST',
                    url: 'https://rpc.example.org/mainnet/{{SERVER_PARAM:RPC_KEY}}',
                    status: 200,
                    missingRecording: false
                }
            ])
            const recordings = recorder.recordings()
            expect(JSON.stringify(recordings)).not.toContain(KEY)
            expect(
                recordings[0]?.exchanges.map((e) => [e.request.path, JSON.parse(e.request.body ?? '{}').method])
            ).toEqual([
                ['/mainnet/{{SERVER_PARAM:RPC_KEY}}', 'eth_chainId'],
                ['/mainnet/{{SERVER_PARAM:RPC_KEY}}', 'eth_blockNumber'],
                ['/sepolia/{{SERVER_PARAM:RPC_KEY}}', 'eth_chainId'],
                ['/sepolia/{{SERVER_PARAM:RPC_KEY}}', 'eth_blockNumber']
            ])
            // The replay: no key (its placeholder instead), no node; each call answered by its own body.
            const replaying = open('recordings', httpPortFromRecordings({ recordings }))
            const replayed = [
                await run(replaying, 'sepolia', '{{SERVER_PARAM:RPC_KEY}}'),
                await run(replaying, 'mainnet', '{{SERVER_PARAM:RPC_KEY}}')
            ]
            expect(replayed.map((o) => o.data)).toEqual([liveOutcomes[1]?.data, liveOutcomes[0]?.data])
            expect(calls).toHaveLength(4)
        })

        it('offline: node:https is a closed door, the test fails as network not granted', async () => {
            const outcome = await run(open('offline'), 'mainnet', KEY)
            expect(outcome.ok).toBe(false)
            expect(outcome.networkNotGranted).toEqual(['node:https.request'])
        })
    }
)
