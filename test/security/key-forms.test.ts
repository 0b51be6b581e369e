import { generateKeyPairSync } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { run } from '../../src/cli/run.js'
import {
    createMemoryFs,
    DataPretest,
    gradeSingleSchema,
    httpPortFromRecordings,
    recordingHttpPort,
    type HttpPort,
    type JudgeRequest
} from '../../src/index.js'
import { memoryIo } from '../cli/helpers.js'
import { exampleMain, grader, replyFor } from '../grade/helpers.js'

// A key never leaves in any encoding (docs/security.md, "Every spelling of a key"): random keys of printable ASCII
// and of any script, graded through the library and through the CLI, are found in no result, island file,
// recording, SARIF, summary, report or output, in any spelling the platform's own encoders give.

const now = '2026-11-22T18:00:00Z'
const examples = new URL('../../examples/', import.meta.url).pathname

const lower = (v: string): string => v.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())
const form = (v: string): string => new URLSearchParams({ k: v }).toString().slice(2)
const html = (v: string): string =>
    v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)

/** Every spelling to look for, from the platform's encoders (an oracle independent of the library's list). */
function spellings(key: string): string[] {
    const encoded = [encodeURIComponent(key), form(key), encodeURI(key)]
    const twice = [key, ...encoded].flatMap((s) => [encodeURIComponent(s), form(s)])
    const escaped = [JSON.stringify(key).slice(1, -1), html(key)]
    // Only an encoder's own escapes come in either hex case (a literal `%41` in the key stays as it is).
    return [...new Set([key, ...escaped, ...[...encoded, ...twice].flatMap((s) => [s, lower(s)])])]
}

function leaksIn(text: string, key: string): string[] {
    return spellings(key).filter((s) => text.includes(s))
}

const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 6,
    maxLength: 24
})
const anyScript = fc.string({ unit: 'grapheme', minLength: 6, maxLength: 16 })
/** A key of the shape (`+`, `/`, `=`, `!`) or random, with a fixed start so it never occurs by chance. */
const keys = fc
    .oneof(fc.constant('Marmot.Vesper+Ochre/Xylem=Zephyr!Tund'), printable, anyScript)
    .map((body) => `Qv7${body}Zx9`)

/** A live-like API: answers every request with data, and echoes the URL and body it received (the key with them). */
function echoingApi(): HttpPort {
    return {
        send: async (request) => ({
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
                status: '1',
                message: 'OK',
                result: `echo ${request.url} ${request.body ?? ''}`,
                features: []
            })
        })
    }
}

// Plain schemas with the key in a path template, in the root and in a body (the forms real schemas use).
const PATH_KEY = `export const main = {
    namespace: 'geokey',
    name: 'Geo Key',
    description: 'Forward geocoding of an address into coordinates, with the key in the path and in a body.',
    version: '4.0.0',
    docs: ['https://docs.geokey.dev/geocoding'],
    tags: ['geocoding'],
    root: 'https://api.geokey.dev',
    requiredServerParams: ['GEOKEY_API_KEY'],
    tools: {
        forwardGeocode: {
            method: 'GET',
            path: '/v1/geocode/search?apiKey={{GEOKEY_API_KEY}}',
            description: 'Converts an address or a place name into coordinates.',
            parameters: [
                { position: { key: 'text', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: ['min(1)'] }, description: 'The address.' }
            ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { status: { type: 'string' } } } },
            tests: [{ _description: 'Berlin', text: 'Brandenburger Tor, Berlin' }]
        },
        lookup: {
            method: 'POST',
            path: '/v1/lookup',
            description: 'Looks a place up by its name, with the key sent in the request body.',
            parameters: [
                { position: { key: 'name', value: '{{USER_PARAM}}', location: 'body' }, z: { primitive: 'string()', options: ['min(1)'] }, description: 'The place name.' },
                { position: { key: 'key', value: '{{SERVER_PARAM:GEOKEY_API_KEY}}', location: 'body' }, z: { primitive: 'string()', options: [] }, description: 'API key, injected.' }
            ],
            output: { mimeType: 'application/json', schema: { type: 'object', properties: { status: { type: 'string' } } } },
            tests: [{ _description: 'Paris', name: 'Paris' }]
        }
    }
}
`

async function filesUnder(dir: string): Promise<Array<[string, string]>> {
    const out: Array<[string, string]> = []
    for (const name of await readdir(dir)) {
        const full = join(dir, name)
        if ((await stat(full)).isDirectory()) out.push(...(await filesUnder(full)))
        else out.push([full, await readFile(full, 'utf8')])
    }
    return out
}

describe('a key never leaves the library in any spelling', () => {
    it('is in no result, island file, request record, judge request or error of any run path (property)', async () => {
        const etherscan = await exampleMain('providers/etherscan/contracts.mjs')
        await fc.assert(
            fc.asyncProperty(
                keys,
                fc.constantFrom('graded', 'provisional', 'throws', 'echoes'),
                async (key, judging) => {
                    const fs = createMemoryFs()
                    const asked: JudgeRequest[] = []
                    const judge = async (request: JudgeRequest): Promise<string> => {
                        asked.push(request)
                        if (judging === 'throws') throw new Error(`quota for ${form(key)} (${encodeURIComponent(key)})`)
                        const reply = replyFor(request.area, 4) as { answers: Array<{ reasoning: string }> }
                        if (judging === 'echoes')
                            for (const a of reply.answers) a.reasoning = `sent apikey=${form(key)}`
                        return JSON.stringify(reply)
                    }
                    const recorder = recordingHttpPort({ http: echoingApi(), serverParams: { ETHERSCAN_API_KEY: key } })
                    const result = await gradeSingleSchema({
                        schema: { main: etherscan.main },
                        grader,
                        options: {
                            fs,
                            root: '/island',
                            now,
                            source: etherscan.source,
                            serverParams: { ETHERSCAN_API_KEY: key },
                            http: recorder.port,
                            minWorkingTests: 1,
                            ...(judging === 'provisional' ? {} : { judge })
                        }
                    })
                    const pretest = await DataPretest.run({
                        main: etherscan.main,
                        http: echoingApi(),
                        serverParams: { ETHERSCAN_API_KEY: key },
                        now
                    })
                    const requestUrls = JSON.stringify(
                        result.grading?.pretest.tests.flatMap((t) => t.requests ?? []) ?? []
                    )
                    expect(requestUrls).toContain('{{SERVER_PARAM:ETHERSCAN_API_KEY}}')
                    const texts: Array<[string, string]> = [
                        ['result', JSON.stringify(result)],
                        ['pretest', JSON.stringify(pretest)],
                        ['judge requests', JSON.stringify(asked)],
                        ['recordings', JSON.stringify(recorder.recordings())],
                        ...Object.entries(fs.dump().files)
                    ]
                    const leaks = texts.flatMap(([where, text]) => leaksIn(text, key).map((s) => `${where}: ${s}`))
                    expect(leaks).toEqual([])
                }
            ),
            { numRuns: 24 }
        )
    })
})

describe('a key never leaves the CLI in any spelling', () => {
    let dir = ''
    // The grader's Ed25519 private key (`grade --sign-key`): its `d` is looked for beside the API keys.
    const signer = { ...generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }), kid: 'leak-check' }
    let signKey = ''
    beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), 'flowmcp-key-forms-'))
        signKey = join(dir, 'grader.jwk')
        await writeFile(signKey, JSON.stringify(signer))
    })
    afterAll(async () => {
        await rm(dir, { recursive: true, force: true })
    })
    afterEach(() => {
        vi.unstubAllGlobals()
    })

    it('is in no island, recording, SARIF, summary, report or output: live, recorded and replayed (property)', async () => {
        let n = 0
        await fc.assert(
            fc.asyncProperty(keys, async (key) => {
                n += 1
                const ws = join(dir, `run-${n}`)
                const tree = join(ws, 'providers')
                await mkdir(join(tree, 'etherscan'), { recursive: true })
                await mkdir(join(tree, 'geokey'), { recursive: true })
                await writeFile(
                    join(tree, 'etherscan', 'contracts.mjs'),
                    await readFile(join(examples, 'providers/etherscan/contracts.mjs'), 'utf8')
                )
                await writeFile(join(tree, 'geokey', 'geocoding.mjs'), PATH_KEY)
                const out = join(ws, 'out')
                const env = { ETHERSCAN_API_KEY: key, GEOKEY_API_KEY: `${key}-geo` }
                const api = echoingApi()
                vi.stubGlobal(
                    'fetch',
                    async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
                        const r = await api.send({ url, method: init.method, headers: init.headers, body: init.body })
                        return { status: r.status, headers: new Headers(r.headers), text: async () => r.body }
                    }
                )
                const outputs: string[] = []
                const cli = async (args: string[]): Promise<void> => {
                    const io = memoryIo({}, { env })
                    // report reads no clock: it does not take --now (a usage error, CLI-001).
                    await run(args[0] === 'report' ? args : [...args, '--now', now], io)
                    outputs.push(io.out(), io.err())
                }
                const common = ['--min-working-tests', '1', '--answers', join(examples, 'answers.json')]
                await cli([
                    'grade',
                    tree,
                    '--live',
                    '--record',
                    join(out, 'rec'),
                    '--island',
                    join(out, 'live'),
                    ...common
                ])
                vi.unstubAllGlobals()
                const replay = ['--recordings', join(out, 'rec'), ...common]
                await cli([
                    'grade',
                    tree,
                    '--island',
                    join(out, 'island'),
                    '--sarif',
                    join(out, 'grade.sarif'),
                    '--sign-key',
                    signKey,
                    ...replay
                ])
                await cli(['grade', tree, '--island', join(out, 'island2'), '--json', ...replay])
                await cli([
                    'check',
                    tree,
                    '--baseline',
                    join(out, 'island'),
                    '--sarif',
                    join(out, 'check.sarif'),
                    '--summary',
                    join(out, 'summary.md'),
                    '--json',
                    ...replay
                ])
                await cli(['report', join(out, 'island'), '--out', join(out, 'report.html')])
                const files = await filesUnder(out)
                expect(files.map(([f]) => f)).toEqual(
                    expect.arrayContaining([
                        join(out, 'report.html'),
                        join(out, 'check.sarif'),
                        join(out, 'summary.md')
                    ])
                )
                expect(files.some(([f]) => f.endsWith('summary.json'))).toBe(true)
                expect(files.some(([f]) => f.endsWith('.json.dsse'))).toBe(true)
                // The key in a path template and in a body went out, and came back as its placeholder.
                const geo = files.find(([f]) => f.endsWith('api.geokey.dev.json'))?.[1] ?? ''
                expect(geo).toContain('"apiKey": "{{SERVER_PARAM:GEOKEY_API_KEY}}"')
                expect(geo).toContain('\\"key\\":\\"{{SERVER_PARAM:GEOKEY_API_KEY}}\\"')
                const leaks = [...files, ...outputs.map((o, i): [string, string] => [`output ${i}`, o])].flatMap(
                    ([where, text]) =>
                        [
                            ...leaksIn(text, key),
                            ...leaksIn(text, env.GEOKEY_API_KEY),
                            ...leaksIn(text, String(signer.d))
                        ].map((s) => `${where}: ${s}`)
                )
                expect(leaks).toEqual([])
            }),
            { numRuns: 12 }
        )
    }, 240_000)

    it('replays the example recordings with the key in the environment and keeps it out of summary.json', async () => {
        const key = 'Qv7Marmot.Vesper+Ochre/Xylem=Zephyr!Tund'
        const island = join(dir, 'example-island')
        const io = memoryIo({}, { env: { ETHERSCAN_API_KEY: key } })
        await run(
            [
                'grade',
                join(examples, 'providers/etherscan'),
                '--island',
                island,
                '--recordings',
                join(examples, 'recordings'),
                '--now',
                now
            ],
            io
        )
        const files = await filesUnder(island)
        const summary = files.find(([f]) => f.endsWith('summary.json'))
        expect(summary?.[1]).toContain('apikey={{SERVER_PARAM:ETHERSCAN_API_KEY}}')
        expect(files.flatMap(([f, text]) => leaksIn(text, key).map((s) => `${f}: ${s}`))).toEqual([])
    })
})

describe('the platform spellings the tests look for', () => {
    it('include the form encoding that leaked (URLSearchParams: %21 for !, + for a space)', () => {
        expect(spellings('a b!')).toEqual(expect.arrayContaining(['a+b%21', 'a%20b!', 'a%2520b!', 'a%2Bb%2521']))
        // A failing case: a spelling that is not the key's is never reported.
        expect(leaksIn('nothing here', 'a b!')).toEqual([])
    })
    it('keep the httpPortFromRecordings replay usable with no key', async () => {
        const replay = httpPortFromRecordings({ recordings: [] })
        expect((await replay.send({ url: 'https://x.dev/', method: 'GET', headers: {} })).status).toBeGreaterThan(399)
    })
})
