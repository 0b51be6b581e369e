import { describe, expect, it } from 'vitest'
import {
    httpPortFromFetch,
    httpPortFromRecordings,
    isMissingRecording,
    recordingHttpPort,
    runtimePortFromFlowMCP,
    type FlowMCPCoreLike,
    type HttpPort,
    type HttpRequest,
    type Recording
} from '../../src/index.js'

const get = (url: string): HttpRequest => ({ url, method: 'GET', headers: {} })
const answering = (body: string, seen: string[] = []): HttpPort => ({
    send: async (request) => {
        seen.push(`${request.method} ${request.url}`)
        return { status: 200, headers: { 'content-type': 'application/json', 'set-cookie': 'a=b' }, body }
    }
})

describe('httpPortFromRecordings: how a request is matched (docs/recordings.md)', () => {
    const recording = (path: string, query?: Record<string, string>): Recording => ({
        host: 'https://api.example.org',
        exchanges: [
            {
                request: { method: 'GET', path, ...(query !== undefined ? { query } : {}) },
                response: { status: 200, body: '{"ok":true}' }
            }
        ]
    })

    it('keeps a + in a path as a plus sign: paths are percent-decoded only (wegweiserkommune)', async () => {
        const port = httpPortFromRecordings({ recordings: [recording('/v1/regions/Baden-Baden+Rastatt')] })
        await expect(port.send(get('https://api.example.org/v1/regions/Baden-Baden+Rastatt'))).resolves.toMatchObject({
            status: 200
        })
        await expect(port.send(get('https://api.example.org/v1/regions/Baden-Baden%2BRastatt'))).resolves.toMatchObject(
            { status: 200 }
        )
        await expect(port.send(get('https://api.example.org/v1/regions/Baden-Baden%20Rastatt'))).resolves.toMatchObject(
            { status: 404 }
        )
    })

    it('still answers from a recording that stored a path’s + as a space (written before the fix)', async () => {
        const port = httpPortFromRecordings({ recordings: [recording('/v1/regions/Baden-Baden Rastatt')] })
        await expect(port.send(get('https://api.example.org/v1/regions/Baden-Baden+Rastatt'))).resolves.toMatchObject({
            status: 200
        })
    })

    it('decodes a + in a query as a space (form encoding, as URLSearchParams writes it)', async () => {
        const port = httpPortFromRecordings({ recordings: [recording('/search', { q: 'New York' })] })
        await expect(port.send(get('https://api.example.org/search?q=New+York'))).resolves.toMatchObject({
            status: 200
        })
    })

    it('answers a request no recording holds with a 404 that names it; isMissingRecording tells it from an API’s own 404', async () => {
        const port = httpPortFromRecordings({ recordings: [recording('/known')] })
        const answer = await port.send(get('https://api.example.org/unknown?id=7'))
        expect(answer.status).toBe(404)
        expect(JSON.parse(answer.body)).toEqual({
            error: 'no recorded response for this request',
            request: 'GET https://api.example.org/unknown?id=7'
        })
        expect(isMissingRecording(answer)).toBe(true)
        expect(isMissingRecording({ status: 404, body: '{"error":"not found"}' })).toBe(false)
        expect(isMissingRecording({ status: 200, body: answer.body })).toBe(false)
        expect(isMissingRecording(null as never)).toBe(false)
    })

    it('matches a {{SERVER_PARAM:KEY}} inside a recorded path with any value there, and only there', async () => {
        const port = httpPortFromRecordings({ recordings: [recording('/v3/{{SERVER_PARAM:API_KEY}}/blocks')] })
        await expect(port.send(get('https://api.example.org/v3/anything-at-all/blocks'))).resolves.toMatchObject({
            status: 200
        })
        await expect(
            port.send(get('https://api.example.org/v3/{{SERVER_PARAM:API_KEY}}/blocks'))
        ).resolves.toMatchObject({ status: 200 })
        await expect(port.send(get('https://api.example.org/v3/key/other'))).resolves.toMatchObject({ status: 404 })
    })

    it('matches a recorded {{TIME}} query value with any date-time or Unix time, and nothing else', async () => {
        const port = httpPortFromRecordings({ recordings: [recording('/ohlcv', { from: '{{TIME}}', limit: '10' })] })
        for (const from of ['2027-01-05T09:30:00.123Z', '1767225600', '1767225600000'])
            await expect(
                port.send(get(`https://api.example.org/ohlcv?from=${from}&limit=10`)),
                from
            ).resolves.toMatchObject({ status: 200 })
        await expect(port.send(get('https://api.example.org/ohlcv?from=yesterday&limit=10'))).resolves.toMatchObject({
            status: 404
        })
    })
})

describe('httpPortFromRecordings: request bodies', () => {
    const post = (url: string, body: string): HttpRequest => ({ url, method: 'POST', headers: {}, body })
    const rpc = (method: string, result: string, id = 1): Recording['exchanges'][number] => ({
        request: { method: 'POST', path: '/', body: JSON.stringify({ jsonrpc: '2.0', id, method, params: [] }) },
        response: { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result }) }
    })

    it('tells calls to one URL apart by their JSON bodies, a JSON-RPC id aside', async () => {
        const port = httpPortFromRecordings({
            recordings: [
                {
                    host: 'https://rpc.example.org',
                    exchanges: [rpc('eth_chainId', '0x1'), rpc('eth_blockNumber', '0x10', 2)]
                }
            ]
        })
        await expect(
            port.send(
                post('https://rpc.example.org/', '{"method":"eth_blockNumber","params":[],"id":7,"jsonrpc":"2.0"}')
            )
        ).resolves.toMatchObject({ body: expect.stringContaining('0x10') })
        await expect(
            port.send(post('https://rpc.example.org/', '{"jsonrpc":"2.0","id":9,"method":"eth_chainId","params":[]}'))
        ).resolves.toMatchObject({ body: expect.stringContaining('0x1') })
        await expect(
            port.send(post('https://rpc.example.org/', '{"jsonrpc":"2.0","id":1,"method":"eth_gasPrice","params":[]}'))
        ).resolves.toMatchObject({ status: 404 })
    })

    it('matches a key placeholder inside a recorded body with any value; an exchange recorded without a body matches any body', async () => {
        const port = httpPortFromRecordings({
            recordings: [
                {
                    host: 'https://gql.example.org',
                    exchanges: [
                        {
                            request: {
                                method: 'POST',
                                path: '/graphql',
                                body: '{"query":"{ a }","token":"Bearer {{SERVER_PARAM:TOKEN}}"}'
                            },
                            response: { status: 200, body: '{"a":1}' }
                        }
                    ]
                },
                {
                    host: 'https://old.example.org',
                    exchanges: [
                        { request: { method: 'POST', path: '/q' }, response: { status: 200, body: '{"old":true}' } }
                    ]
                }
            ]
        })
        await expect(
            port.send(post('https://gql.example.org/graphql', '{"query":"{ a }","token":"Bearer xyz"}'))
        ).resolves.toMatchObject({ status: 200 })
        await expect(
            port.send(post('https://gql.example.org/graphql', '{"query":"{ b }","token":"Bearer xyz"}'))
        ).resolves.toMatchObject({ status: 404 })
        await expect(port.send(post('https://old.example.org/q', 'anything'))).resolves.toMatchObject({ status: 200 })
    })

    it('records a request body with its key as a placeholder', async () => {
        const recorder = recordingHttpPort({ http: answering('{}'), serverParams: { TOKEN: 'token-value-123456' } })
        await recorder.port.send(
            post('https://gql.example.org/graphql', '{"query":"{ a }","token":"token-value-123456"}')
        )
        expect(recorder.recordings()[0]?.exchanges[0]?.request.body).toBe(
            '{"query":"{ a }","token":"{{SERVER_PARAM:TOKEN}}"}'
        )
    })
})

describe('recordingHttpPort', () => {
    it('records a key in a path as its placeholder, a clock-read query value as {{TIME}}, and only content-type', async () => {
        const recorder = recordingHttpPort({
            http: answering('{"v":1}'),
            serverParams: { API_KEY: 'path-key-value-123' },
            recordedAt: '2026-11-27T12:00:00Z'
        })
        await recorder.port.send(
            get('https://api.example.org/v3/path-key-value-123/blocks?from=2026-11-20T12:00:00.000Z&day=2020-01-01')
        )
        expect(recorder.recordings()).toEqual([
            {
                host: 'https://api.example.org',
                recordedAt: '2026-11-27T12:00:00Z',
                exchanges: [
                    {
                        request: {
                            method: 'GET',
                            path: '/v3/{{SERVER_PARAM:API_KEY}}/blocks',
                            query: { from: '{{TIME}}', day: '2020-01-01' }
                        },
                        response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"v":1}' }
                    }
                ]
            }
        ])
        // What it wrote replays the same request with another key and another time.
        const replay = httpPortFromRecordings({ recordings: recorder.recordings() })
        await expect(
            replay.send(get('https://api.example.org/v3/other-key/blocks?from=2027-02-01T00:00:00.000Z&day=2020-01-01'))
        ).resolves.toMatchObject({ status: 200, body: '{"v":1}' })
    })

    it('keeps a date-time far from the recording as it is (a test’s own fixed date)', async () => {
        const recorder = recordingHttpPort({ http: answering('{}'), recordedAt: '2026-11-27T12:00:00Z' })
        await recorder.port.send(get('https://api.example.org/x?at=1999-01-01T00:00:00Z'))
        expect(recorder.recordings()[0]?.exchanges[0]?.request.query).toEqual({ at: '1999-01-01T00:00:00Z' })
    })

    it('rejects every request when it was given no HTTP port, and never throws on hostile options', async () => {
        const hostile = new Proxy(
            {},
            {
                get: () => {
                    throw new Error('hostile')
                }
            }
        )
        for (const input of [undefined, null, {}, hostile]) {
            const recorder = recordingHttpPort(input as never)
            await expect(recorder.port.send(get('https://api.example.org/'))).rejects.toThrow(/recordingHttpPort/)
            expect(recorder.recordings()).toEqual([])
        }
    })
})

describe('runtimePortFromFlowMCP with the host’s HttpPort', () => {
    // A stand-in runtime whose fetch calls the global fetch, as flowmcp-core does.
    const core = (url: string): FlowMCPCoreLike => ({
        FlowMCP: {
            loadSchema: async () => ({ status: true, main: {}, handlerMap: {} }),
            fetch: async () => {
                try {
                    const response = await fetch(url)
                    if (!response.ok) return { status: false, messages: [`HTTP ${response.status}: failed`] }
                    return { status: true, messages: [], data: await response.json() }
                } catch (cause) {
                    return { status: false, messages: [(cause as Error).message] }
                }
            }
        }
    })
    const request = {
        schemaPath: '/s.mjs',
        main: {},
        tool: 't',
        testIndex: 0,
        userParams: {},
        serverParams: { KEY: 'secret-key-value-1' },
        timeoutMs: 1000
    }

    it('sends the runtime’s fetch through the port and lists each request, its key masked; the global fetch is put back', async () => {
        const before = globalThis.fetch
        const seen: string[] = []
        const port = runtimePortFromFlowMCP({
            core: core('https://api.example.org/v1?key=secret-key-value-1'),
            http: answering('{"n":1}', seen),
            swapGlobalFetch: true
        })
        const outcomes = await Promise.all([port.run(request), port.run({ ...request, testIndex: 1 })])
        for (const outcome of outcomes)
            expect(outcome).toMatchObject({
                ok: true,
                data: { n: 1 },
                requests: [
                    {
                        method: 'GET',
                        url: 'https://api.example.org/v1?key={{SERVER_PARAM:KEY}}',
                        status: 200,
                        missingRecording: false
                    }
                ]
            })
        expect(seen).toHaveLength(2)
        expect(globalThis.fetch).toBe(before)
    })

    it('records through recordingHttpPort and replays through httpPortFromRecordings, the request the replay lacks marked', async () => {
        const recorder = recordingHttpPort({ http: answering('{"n":2}'), serverParams: { KEY: 'secret-key-value-1' } })
        await runtimePortFromFlowMCP({
            core: core('https://api.example.org/v1?key=secret-key-value-1'),
            http: recorder.port,
            swapGlobalFetch: true
        }).run(request)
        expect(JSON.stringify(recorder.recordings())).not.toContain('secret-key-value-1')
        const replay = httpPortFromRecordings({ recordings: recorder.recordings() })
        await expect(
            runtimePortFromFlowMCP({
                core: core('https://api.example.org/v1?key=other'),
                http: replay,
                swapGlobalFetch: true
            }).run(request)
        ).resolves.toMatchObject({ ok: true, data: { n: 2 } })
        const missing = await runtimePortFromFlowMCP({
            core: core('https://api.example.org/v2'),
            http: replay,
            swapGlobalFetch: true
        }).run(request)
        expect(missing).toMatchObject({
            ok: false,
            requests: [{ url: 'https://api.example.org/v2', status: 404, missingRecording: true }]
        })
    })

    it('fails the test when the port rejects: the fetch fails as a network failure does, the request listed without a status', async () => {
        const port = runtimePortFromFlowMCP({
            core: core('https://api.example.org/v1'),
            http: { send: async () => Promise.reject(new Error('offline')) },
            swapGlobalFetch: true
        })
        await expect(port.run(request)).resolves.toMatchObject({
            ok: false,
            messages: ['fetch failed: offline'],
            requests: [{ url: 'https://api.example.org/v1', status: null, missingRecording: false }]
        })
    })

    it('leaves the global fetch alone unless swapGlobalFetch is given: a port alone fails every test, naming the child-process port', async () => {
        const before = globalThis.fetch
        let sent = 0
        const port = runtimePortFromFlowMCP({
            core: core('https://api.example.org/v1'),
            http: { send: async () => (sent++, { status: 200, headers: {}, body: '{}' }) }
        })
        const outcome = await port.run(request)
        expect(outcome.ok).toBe(false)
        expect(outcome.messages?.[0]).toMatch(/swapGlobalFetch: true/)
        expect(outcome.messages?.[0]).toMatch(/runtimePortFromChildProcess of 'flowmcp-grading\/node'/)
        expect(sent).toBe(0)
        expect(globalThis.fetch).toBe(before)
    })

    it('with swapGlobalFetch, a port that looks the global fetch up as it sends reaches the real one, not itself', async () => {
        const real = globalThis.fetch
        const reached: string[] = []
        // The process's fetch, as a host's test double: what the lazy port must reach.
        globalThis.fetch = (async (url: string) => {
            reached.push(String(url))
            return new Response('{"lazy":true}', { status: 200, headers: { 'content-type': 'application/json' } })
        }) as typeof fetch
        try {
            const lazy = {
                send: (r: { url: string }) =>
                    httpPortFromFetch(globalThis.fetch).send({ ...r, method: 'GET', headers: {} })
            }
            const port = runtimePortFromFlowMCP({
                core: core('https://api.example.org/v1'),
                http: lazy,
                swapGlobalFetch: true
            })
            await expect(port.run(request)).resolves.toMatchObject({ ok: true, data: { lazy: true } })
            expect(reached).toEqual(['https://api.example.org/v1'])
        } finally {
            globalThis.fetch = real
        }
    })
})
