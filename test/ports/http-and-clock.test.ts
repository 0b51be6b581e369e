import { describe, expect, it } from 'vitest'
import { fixedClock, httpPortFromFetch, type FetchLike } from '../../src/index.js'

function fakeFetch(record: Array<{ url: string; init: Parameters<FetchLike>[1] }>, status = 200): FetchLike {
    return async (url, init) => {
        record.push({ url, init })
        return {
            status,
            headers: {
                forEach: (cb) =>
                    [
                        ['X-B', '2'],
                        ['Content-Type', 'application/json']
                    ].forEach(([k, v]) => cb(v as string, k as string))
            },
            text: async () => '{"ok":true}'
        }
    }
}

describe('httpPortFromFetch', () => {
    it('sends method, headers and body and returns status, lower-cased sorted headers and the body text', async () => {
        const calls: Array<{ url: string; init: Parameters<FetchLike>[1] }> = []
        const http = httpPortFromFetch(fakeFetch(calls, 201))
        const res = await http.send({
            url: 'https://api.example.org/x',
            method: 'POST',
            headers: { a: '1' },
            body: '{}'
        })
        expect(res).toEqual({
            status: 201,
            headers: { 'content-type': 'application/json', 'x-b': '2' },
            body: '{"ok":true}'
        })
        expect(calls[0]).toEqual({
            url: 'https://api.example.org/x',
            init: { method: 'POST', headers: { a: '1' }, body: '{}' }
        })
    })

    it('passes a timeout signal from the injected factory', async () => {
        const calls: Array<{ url: string; init: Parameters<FetchLike>[1] }> = []
        const asked: number[] = []
        const http = httpPortFromFetch(fakeFetch(calls), { timeoutSignal: (ms) => (asked.push(ms), 'signal') })
        await http.send({ url: 'https://x', method: 'GET', headers: {}, timeoutMs: 1500 })
        expect(asked).toEqual([1500])
        expect(calls[0]?.init.signal).toBe('signal')
    })

    it('rejects when the underlying fetch rejects (callers turn it into a coded issue)', async () => {
        const http = httpPortFromFetch(async () => {
            throw new Error('ECONNREFUSED')
        })
        await expect(http.send({ url: 'https://x', method: 'GET', headers: {} })).rejects.toThrow('ECONNREFUSED')
    })
})

describe('fixedClock', () => {
    it('always answers the injected time', () => {
        const clock = fixedClock('2026-05-31T12:00:00Z')
        expect([clock.now(), clock.now()]).toEqual(['2026-05-31T12:00:00Z', '2026-05-31T12:00:00Z'])
    })
})

describe('fixedClock with an invalid time', () => {
    it('passes the value through unchanged; the functions that take now reject it with a code', async () => {
        const { Island, createMemoryFs } = await import('../../src/index.js')
        const now = fixedClock('soon').now()
        const res = await Island.writeGrading({
            fs: createMemoryFs(),
            root: '/island',
            target: { namespace: 'x' },
            entry: {},
            now
        })
        expect(res.errors.map((e) => e.code)).toContain('GRD-046')
    })
})
