import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { httpPortFromRecordings, mergeRecordings, type RecordedExchange, type Recording } from '../../src/index.js'

// Recording into a folder merges by request: an exchange of another request is never dropped, the
// same request gets the newer answer, and replay of the merge answers the newer run as it alone does.
const HOST = 'https://api.example.org'

const exchange = (
    path: string,
    body: string,
    query?: Record<string, string>,
    requestBody?: string,
    method = 'GET'
): RecordedExchange => ({
    request: {
        method,
        path,
        ...(query !== undefined ? { query } : {}),
        ...(requestBody !== undefined ? { body: requestBody } : {})
    },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body }
})
const recording = (exchanges: RecordedExchange[], recordedAt?: string): Recording => ({
    host: HOST,
    ...(recordedAt !== undefined ? { recordedAt } : {}),
    exchanges
})

/** What replay answers a recorded request with, given these recordings (the body, or null for no recording). */
async function replayed(recordings: Recording[], e: RecordedExchange): Promise<string | null> {
    const query = Object.entries(e.request.query ?? {})
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&')
    const path = e.request.path.split('/').map(encodeURIComponent).join('/')
    const response = await httpPortFromRecordings({ recordings }).send({
        url: `${HOST}${path}${query.length > 0 ? `?${query}` : ''}`,
        method: e.request.method,
        headers: {},
        ...(e.request.body !== undefined ? { body: e.request.body } : {})
    })
    return response.status === 404 && response.body.includes('no recorded response') ? null : response.body
}

async function merged(earlier: Recording, newer: Recording) {
    const result = await mergeRecordings({ earlier, newer })
    if (result.recording === null) throw new Error(result.errors.map((e) => e.message).join('; '))
    return { ...result, recording: result.recording }
}

describe('mergeRecordings', () => {
    it('two schemas of one host recorded one after another: both exchanges kept', async () => {
        const first = recording([exchange('/v1/forecast', '{"a":1}', { latitude: '52.52' })], '2026-11-01T00:00:00Z')
        const second = recording([exchange('/v1/archive', '{"b":2}', { start: '2026-01-01' })], '2026-11-02T00:00:00Z')
        const result = await merged(first, second)
        expect(result).toMatchObject({ kept: 1, replaced: 0, reordered: false })
        expect(result.recording).toEqual({
            host: HOST,
            recordedAt: '2026-11-02T00:00:00Z',
            exchanges: [...first.exchanges, ...second.exchanges]
        })
        for (const e of [...first.exchanges, ...second.exchanges])
            expect(await replayed([result.recording], e)).toBe(e.response.body)
    })

    it('the same request recorded again: the newer answer wins, in the place of the earlier one', async () => {
        const earlier = recording([
            exchange('/v1/a', '"old a"', { key: '{{SERVER_PARAM:API_KEY}}' }),
            exchange('/v1/b', '"old b"')
        ])
        const newer = recording([exchange('/v1/a', '"new a"', { key: '{{SERVER_PARAM:API_KEY}}' })])
        const result = await merged(earlier, newer)
        expect(result).toMatchObject({ kept: 1, replaced: 1, reordered: false })
        expect(result.recording.exchanges.map((e) => e.response.body)).toEqual(['"new a"', '"old b"'])
    })

    it('a request told apart by its body (JSON-RPC) is another request; the same call with another id is the same', async () => {
        const call = (m: string, id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: m, params: [] })
        const earlier = recording([
            exchange('/rpc', '"block"', undefined, call('eth_blockNumber', 1), 'POST'),
            exchange('/rpc', '"gas"', undefined, call('eth_gasPrice', 2), 'POST')
        ])
        const newer = recording([exchange('/rpc', '"block 2"', undefined, call('eth_blockNumber', 7), 'POST')])
        const result = await merged(earlier, newer)
        expect(result.recording.exchanges.map((e) => e.response.body)).toEqual(['"block 2"', '"gas"'])
    })

    it('an earlier exchange that would answer a newer request first (recorded without a body) is kept, after the newer ones', async () => {
        // Written before bodies were kept: it matches any body, so it answers other calls still, but not first.
        const earlier = recording([exchange('/rpc', '"any call"', undefined, undefined, 'POST')])
        const newer = recording([exchange('/rpc', '"this call"', undefined, '{"q":1}', 'POST')])
        const result = await merged(earlier, newer)
        expect(result).toMatchObject({ kept: 1, replaced: 0, reordered: true })
        expect(result.recording.exchanges.map((e) => e.response.body)).toEqual(['"this call"', '"any call"'])
        expect(await replayed([result.recording], newer.exchanges[0] as RecordedExchange)).toBe('"this call"')
    })

    it('refuses what is not a recording (REC-001) or a recording of another host (REC-002), and never throws', async () => {
        const refused = async (earlier: unknown, newer: unknown) => {
            const result = await mergeRecordings({ earlier, newer } as never)
            expect(result).toMatchObject({ recording: null, kept: 0, replaced: 0 })
            return result.errors.map((e) => [e.code, e.path, e.message])
        }
        expect(await refused(null, recording([]))).toEqual([
            ['REC-001', '/earlier', 'The earlier recording is not a recording: not an object; nothing is merged']
        ])
        expect(await refused({ host: HOST, exchanges: [{}] }, recording([]))).toEqual([
            [
                'REC-001',
                '/earlier/exchanges/0',
                'The earlier recording is not a recording: exchange 0 is not a request and its response; nothing is merged'
            ]
        ])
        expect(await refused(recording([]), { host: 'ftp://x', exchanges: [] })).toEqual([
            [
                'REC-001',
                '/newer/host',
                'The newer recording is not a recording: no host (scheme and host, such as https://api.example.org); nothing is merged'
            ]
        ])
        expect(await refused(recording([]), { host: 'https://other.org', exchanges: [] })).toEqual([
            [
                'REC-002',
                '/newer/host',
                'The recordings are of different hosts, https://api.example.org and https://other.org; nothing is merged'
            ]
        ])
    })

    // Requests drawn from a small space, so that the newer run often repeats an earlier request.
    const requestArb = fc.record({
        method: fc.constantFrom('GET', 'POST'),
        path: fc.constantFrom('/a', '/b', '/a/{{SERVER_PARAM:K}}', '/c+d', '/e f'),
        query: fc.option(
            fc.dictionary(
                fc.constantFrom('x', 'y', 'key'),
                fc.constantFrom('1', '2', '{{SERVER_PARAM:K}}', '{{TIME}}'),
                {
                    maxKeys: 2
                }
            ),
            { nil: undefined }
        ),
        body: fc.option(fc.constantFrom('{"m":1}', '{"m":2}', 'text'), { nil: undefined })
    })
    const exchangesArb = (tag: string) =>
        fc
            .array(requestArb, { maxLength: 6 })
            .map((requests) => requests.map((r, i) => exchange(r.path, `"${tag}${i}"`, r.query, r.body, r.method)))

    it('property: never drops an exchange of another request, and replay answers the newer run as it alone does', async () => {
        await fc.assert(
            fc.asyncProperty(exchangesArb('old'), exchangesArb('new'), async (older, fresh) => {
                const earlier = recording(older)
                const newer = recording(fresh)
                const result = await merged(earlier, newer)
                const out = result.recording.exchanges
                // Every newer exchange is written; every earlier one is kept unless it is of the same request as a
                // newer one (each answers the other under replay's rule).
                for (const n of fresh) expect(out).toContain(n)
                for (const old of older) {
                    if (out.includes(old)) continue
                    const same = []
                    for (const n of fresh)
                        if (
                            old.request.method === n.request.method &&
                            (await replayed([recording([old])], n)) !== null &&
                            (await replayed([recording([n])], old)) !== null
                        )
                            same.push(n)
                    expect(same.length).toBeGreaterThan(0)
                }
                expect(result.kept + result.replaced).toBe(older.length)
                // Replay of the merge answers each newer request as the newer recording alone does, and each earlier
                // request no newer exchange answers as the earlier recording alone does.
                for (const n of fresh) expect(await replayed([result.recording], n)).toBe(await replayed([newer], n))
                for (const old of older)
                    if ((await replayed([newer], old)) === null)
                        expect(await replayed([result.recording], old)).toBe(await replayed([earlier], old))
            }),
            { numRuns: 200 }
        )
    })
})
