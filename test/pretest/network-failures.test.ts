import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { DataPretest, httpPortFromFetch } from '../../src/index.js'
import { schemaFixture } from '../schema/helpers.js'
import { fakeHttp } from './fake-http.js'

// A live run names why a request failed — DNS, a refused connection, a reset, a timeout, an untrusted TLS
// certificate — each with the next step, instead of one "fetch failed" for all.

const now = '2026-11-22T18:00:00Z'

/** The pretest's error for a schema whose every request fails with `error`. */
async function errorFor(error: unknown): Promise<string | null> {
    const http = fakeHttp(() => {
        throw error
    })
    const result = await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), http, now })
    return result.results[0]?.error ?? null
}

const fetchFailed = (code: string): TypeError =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) })

describe('network failures named apart', () => {
    it.each([
        ['ENOTFOUND', /^DPT-010: DNS: the host name did not resolve; check the host in root \(ENOTFOUND\)$/],
        ['EAI_AGAIN', /^DPT-010: DNS: .* \(EAI_AGAIN\)$/],
        ['ECONNREFUSED', /^DPT-010: connection refused: .*check the port.* \(ECONNREFUSED\)$/],
        ['ECONNRESET', /^DPT-010: connection reset by the server.* \(ECONNRESET\)$/],
        ['UND_ERR_CONNECT_TIMEOUT', /^DPT-010: timed out: .* \(UND_ERR_CONNECT_TIMEOUT\)$/],
        ['DEPTH_ZERO_SELF_SIGNED_CERT', /^DPT-010: TLS certificate not trusted here; .*NODE_EXTRA_CA_CERTS/],
        ['CERT_HAS_EXPIRED', /^DPT-010: TLS certificate not trusted here; .* \(CERT_HAS_EXPIRED\)$/],
        ['ERR_TLS_CERT_ALTNAME_INVALID', /^DPT-010: TLS certificate .* \(ERR_TLS_CERT_ALTNAME_INVALID\)$/]
    ])('%s', async (code, expected) => {
        expect(await errorFor(fetchFailed(code))).toMatch(expected)
    })

    it('names a timeout signal (AbortSignal.timeout) as a timeout', async () => {
        const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })
        expect(await errorFor(timeout)).toMatch(/^DPT-010: timed out: .* \(ETIMEDOUT\)$/)
    })

    it('keeps the error as it is when it names no known failure (a failing case)', async () => {
        expect(await errorFor(new TypeError('fetch failed'))).toBe('DPT-010: TypeError: fetch failed')
        expect(await errorFor(fetchFailed('EWHATEVER'))).toBe('DPT-010: TypeError: fetch failed')
        // A hostile cause never makes the pretest throw.
        const hostile = new TypeError('fetch failed')
        Object.defineProperty(hostile, 'cause', {
            get() {
                throw new Error('no')
            }
        })
        expect(await errorFor(hostile)).toBe('DPT-010: TypeError: fetch failed')
    })

    it('names a real refused connection and a real unresolvable host through the platform fetch', async () => {
        // A port that was just free: nothing listens there now.
        const port = await new Promise<number>((resolve) => {
            const server = createServer()
            server.listen(0, '127.0.0.1', () => {
                const address = server.address()
                server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 1))
            })
        })
        const http = httpPortFromFetch(fetch)
        const refused = await http
            .send({ url: `http://127.0.0.1:${port}/`, method: 'GET', headers: {} })
            .catch((e) => e)
        const dns = await http.send({ url: 'http://no-such-host.invalid/', method: 'GET', headers: {} }).catch((e) => e)
        for (const [error, expected] of [
            [refused, /^DPT-010: connection refused/],
            [dns, /^DPT-010: DNS: /]
        ] as const)
            expect(await errorFor(error)).toMatch(expected)
    })
})
