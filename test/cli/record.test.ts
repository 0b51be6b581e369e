import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { run } from '../../src/cli/run.js'
import { httpPortFromRecordings, type Recording } from '../../src/index.js'
import { recordingHttpPort } from '../../src/ports/record.js'
import { memoryIo } from './helpers.js'

const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-25T10:00:00Z'
const KEY = 'live-etherscan-key-0123456789'
let dir = ''

async function exampleRecordings(): Promise<Recording[]> {
    return Promise.all(
        ['etherscan', 'openmeteo'].map(
            async (n) => JSON.parse(await readFile(join(examples, 'recordings', `${n}.json`), 'utf8')) as Recording
        )
    )
}

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-record-'))
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})
afterEach(() => {
    vi.unstubAllGlobals()
})

describe('recordingHttpPort', () => {
    it('keeps each exchange once, a server param in the query as its placeholder and nowhere as a value', async () => {
        const http = {
            send: async () => ({
                status: 200,
                headers: { 'content-type': 'application/json', 'set-cookie': 'session=1' },
                body: `{"echo":"${KEY}"}`
            })
        }
        const recorder = recordingHttpPort({ http, serverParams: { ETHERSCAN_API_KEY: KEY }, recordedAt: now })
        const url = `https://api.etherscan.io/api?module=contract&apikey=${KEY}`
        await recorder.port.send({ url, method: 'get', headers: {} })
        await recorder.port.send({ url, method: 'GET', headers: {} })
        const recordings = recorder.recordings()
        expect(recordings).toEqual([
            {
                host: 'https://api.etherscan.io',
                recordedAt: now,
                exchanges: [
                    {
                        request: {
                            method: 'GET',
                            path: '/api',
                            query: { module: 'contract', apikey: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}' }
                        },
                        response: {
                            status: 200,
                            headers: { 'content-type': 'application/json' },
                            body: '{"echo":"[redacted]"}'
                        }
                    }
                ]
            }
        ])
        // What it wrote, replay answers: with any key, as recordings hold none.
        const replayed = await httpPortFromRecordings({ recordings }).send({
            url: 'https://api.etherscan.io/api?apikey=another&module=contract',
            method: 'GET',
            headers: {}
        })
        expect(replayed.status).toBe(200)
    })

    it('keeps nothing of a URL that is not http(s)', async () => {
        const recorder = recordingHttpPort({ http: { send: async () => ({ status: 400, headers: {}, body: '' }) } })
        await recorder.port.send({ url: 'ftp://x', method: 'GET', headers: {} })
        expect(recorder.recordings()).toEqual([])
    })
})

describe('grade --live --record <dir>', () => {
    it('writes what --recordings <dir> replays: the same grades offline, and no key in any file', async () => {
        // The "live" network: a fetch answering from the example recordings.
        const network = httpPortFromRecordings({ recordings: await exampleRecordings() })
        vi.stubGlobal('fetch', async (url: string, init: { method: string; headers: Record<string, string> }) => {
            const r = await network.send({ url, method: init.method, headers: init.headers })
            return { status: r.status, headers: new Headers(r.headers), text: async () => r.body }
        })
        const target = [join(examples, 'providers/etherscan'), join(examples, 'providers/openmeteo')]
        const env = { ETHERSCAN_API_KEY: KEY }
        const liveIo = memoryIo({}, { env })
        await run(['grade', ...target, '--live', '--record', join(dir, 'rec'), '--json', '--now', now], liveIo)
        vi.unstubAllGlobals()
        expect(liveIo.err()).toMatch(/recorded: \d+ exchanges of \d+ hosts/)
        // The APIs, and the documentation links the pretest checks.
        const files = (await readdir(join(dir, 'rec'))).sort()
        expect(files).toEqual(expect.arrayContaining(['api.etherscan.io.json', 'api.open-meteo.com.json']))
        for (const f of files) expect(await readFile(join(dir, 'rec', f), 'utf8')).not.toContain(KEY)
        const replayIo = memoryIo({}, { env })
        await run(['grade', ...target, '--recordings', join(dir, 'rec'), '--json', '--now', now], replayIo)
        const view = (text: string): unknown =>
            (
                JSON.parse(text) as {
                    schemas: Array<{
                        grading: {
                            schemaId: string
                            units: Array<{ unit: string; status: string; reason: string | null }>
                            pretest: unknown
                        }
                    }>
                }
            ).schemas.map((s) => [
                s.grading.schemaId,
                s.grading.units.map((u) => [u.unit, u.status, u.reason]),
                s.grading.pretest
            ])
        expect(view(replayIo.out())).toEqual(view(liveIo.out()))
        // A replay needs no key: without ETHERSCAN_API_KEY the key-gated tools are tested and graded all the same.
        const keylessIo = memoryIo({}, { env: {} })
        await run(['grade', ...target, '--recordings', join(dir, 'rec'), '--json', '--now', now], keylessIo)
        expect(keylessIo.out()).not.toContain('key-gated')
        expect(view(keylessIo.out())).toEqual(view(liveIo.out()))
    })

    it('without --recordings, a key the environment lacks still blocks its tools (only a replay needs no key)', async () => {
        const io = memoryIo({}, { env: {} })
        await run(['grade', join(examples, 'providers/etherscan'), '--json', '--now', now], io)
        expect(io.out()).toContain('key-gated')
    })

    it('--record without --live is a usage error', async () => {
        const io = memoryIo()
        expect(await run(['grade', join(examples, 'providers/openmeteo'), '--record', join(dir, 'x')], io)).toBe(2)
        expect(io.err()).toMatch(/--record <dir> records live exchanges: it needs --live/)
    })
})
