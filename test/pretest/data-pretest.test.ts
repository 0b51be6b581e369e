import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DataPretest, ErrorCodes, type HttpRequest } from '../../src/index.js'
import { schemaFixture } from '../schema/helpers.js'
import { fakeHttp, json } from './fake-http.js'

const now = '2026-05-29T10:00:00Z'
const SECRET = 'sk-live-SUPER-SECRET-9f8e7d6c5b4a'

/** Answers like the real APIs would, by path. */
function apiReply(req: HttpRequest) {
    if (req.method === 'HEAD') return { status: 200, headers: {}, body: '' }
    if (req.url.includes('/search')) return json([{ lat: '52.5', lon: '13.4', display_name: 'Berlin' }])
    if (req.url.includes('/reverse')) return json({ display_name: 'Pariser Platz', address: { city: 'Berlin' } })
    if (req.url.includes('/details/')) return json({ place_id: 1, names: { name: 'x' } })
    if (req.url.includes('getabi')) return json({ status: '1', message: 'OK', result: '[{"type":"function"}]' })
    if (req.url.includes('getsourcecode')) return json({ status: '1', result: [{ SourceCode: 'contract X {}' }] })
    if (req.url.endsWith('/ping')) return json({ gecko_says: '(V3) To the Moon!' })
    if (req.url.includes('/simple/price')) return json({ bitcoin: { usd: 1 } })
    return json({}, 404)
}

describe('DataPretest.run', () => {
    it('passes every tool of a free API with HTTP 200 and data, and checks the output schema', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), http, now })
        expect(result.ran).toBe(true)
        expect(result.errors).toEqual([])
        expect(result.tools.search).toMatchObject({
            class: 'normal',
            working: 3,
            bar: 3,
            blocked: false,
            outputSchemaMatch: true
        })
        expect(result.tools.lookupPlace).toMatchObject({
            working: 2,
            blocked: true,
            reason: 'fewer-than-3-working-tests',
            outputSchemaMatch: null
        })
        expect(result.blocked).toEqual([
            {
                tool: 'lookupPlace',
                reason: 'fewer-than-3-working-tests',
                detail: '2 of 2 distinct tests returned data, 3 needed'
            }
        ])
        expect(result.ok).toBe(false)
        expect(result.results[0]).toEqual({
            tool: 'search',
            testIndex: 0,
            status: 'passed',
            httpStatus: 200,
            hasData: true,
            working: true,
            responseBytes: 53,
            shape: [{ lat: 'string', lon: 'string', display_name: 'string' }],
            outputSchemaMatch: true,
            error: null,
            verdict: 'working',
            requests: [
                {
                    method: 'GET',
                    url: 'https://nominatim.openstreetmap.org/search?q=Berlin&format=jsonv2',
                    status: 200,
                    missingRecording: false
                }
            ]
        })
        expect(result.docs).toEqual([{ index: 0, reachable: true, httpStatus: 200, error: null }])
        expect(result.findings.map((f) => f.code)).toEqual(['DPT-003'])
    })

    it('builds query, insert and body parameters and injects server params into query and headers', async () => {
        const http = fakeHttp(apiReply)
        await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), http, now, checkDocs: false })
        const urls = http.requests.map((r) => r.url)
        expect(urls).toContain('https://nominatim.openstreetmap.org/search?q=Eiffel+Tower&format=jsonv2&limit=2')
        expect(urls).toContain('https://nominatim.openstreetmap.org/search?q=Berlin&format=jsonv2')
        expect(urls).toContain('https://nominatim.openstreetmap.org/details/N/240109189')
        expect(http.requests[0]).toMatchObject({
            method: 'GET',
            headers: { 'User-Agent': 'flowmcp-grading-tests/0.1' },
            timeoutMs: 15000
        })

        const keyed = fakeHttp(apiReply)
        await DataPretest.run({
            main: schemaFixture('coingecko-simple'),
            http: keyed,
            serverParams: { COINGECKO_PRO_API_KEY: SECRET },
            now,
            checkDocs: false,
            timeoutMs: 5000
        })
        expect(keyed.requests[0]).toMatchObject({
            url: 'https://pro-api.coingecko.com/api/v3/ping',
            headers: { 'x-cg-pro-api-key': SECRET },
            timeoutMs: 5000
        })
        expect(keyed.requests.map((r) => r.url)).toContain(
            'https://pro-api.coingecko.com/api/v3/simple/price?ids=bitcoin%2Csolana&vs_currencies=usd%2Ceur'
        )

        const post = fakeHttp(() => json({ ok: true }))
        const main = {
            ...schemaFixture('nominatim-geocoding'),
            tools: {
                query: {
                    method: 'POST',
                    path: '/q',
                    description: 'd',
                    parameters: [
                        {
                            position: { key: 'text', value: '{{USER_PARAM}}', location: 'body' },
                            z: { primitive: 'string()', options: [] }
                        },
                        {
                            position: { key: 'mode', value: 'fast', location: 'body' },
                            z: { primitive: 'string()', options: [] }
                        }
                    ],
                    tests: [{ text: 'a' }]
                }
            }
        }
        await DataPretest.run({ main, http: post, now, checkDocs: false })
        expect(post.requests[0]).toMatchObject({
            method: 'POST',
            body: '{"text":"a","mode":"fast"}',
            headers: { 'Content-Type': 'application/json' }
        })
    })

    it('never counts 401, 403, 404 or 500 as a pass (02 §4 rule 1)', async () => {
        for (const status of [401, 403, 404, 429, 500, 201]) {
            const http = fakeHttp(() => json({ data: [1] }, status))
            const result = await DataPretest.run({
                main: schemaFixture('nominatim-geocoding'),
                http,
                now,
                checkDocs: false
            })
            expect(result.results.every((r) => !r.working && r.status === 'failed' && r.httpStatus === status)).toBe(
                true
            )
            expect(result.results[0]?.error).toMatch(new RegExp(`^DPT-004: HTTP ${status}`))
        }
    })

    it('counts HTTP 200 without data as a failed test', async () => {
        for (const body of ['', 'null', '[]', '{}', '""', '  ']) {
            const http = fakeHttp(() => ({ status: 200, headers: {}, body }))
            const result = await DataPretest.run({
                main: schemaFixture('nominatim-geocoding'),
                http,
                now,
                checkDocs: false
            })
            expect(result.results[0]).toMatchObject({
                status: 'failed',
                httpStatus: 200,
                hasData: false,
                working: false,
                error: 'DPT-004: HTTP 200 without data'
            })
        }
    })

    it('turns a throwing port into a failed test with a coded reason, never a rejection', async () => {
        const http = fakeHttp(() => {
            throw new TypeError('fetch failed')
        })
        const result = await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), http, now })
        expect(result.ran).toBe(true)
        expect(
            result.results.every((r) => r.status === 'failed' && r.error === 'DPT-010: TypeError: fetch failed')
        ).toBe(true)
        expect(result.docs[0]).toMatchObject({ reachable: false, error: 'DPT-010: TypeError: fetch failed' })
        expect(result.findings.map((f) => f.code)).toContain('DPT-010')
    })

    it('turns a malformed port response into DPT-011', async () => {
        const http = { send: async () => ({ status: '200', body: 5 }) as never }
        const result = await DataPretest.run({
            main: schemaFixture('nominatim-geocoding'),
            http,
            now,
            checkDocs: false
        })
        expect(result.results[0]?.error).toMatch(/^DPT-011: /)
    })

    it('never returns or leaks a secret, not even from the error message of a failing port (F26)', async () => {
        const main = schemaFixture('etherscan-contracts')
        const leaky = fakeHttp((req) => {
            if (req.url.includes('getabi'))
                throw new Error(`request to ${req.url} failed, key ${SECRET} rejected (${encodeURIComponent(SECRET)})`)
            return json({ status: '1', result: [{ SourceCode: SECRET, [SECRET]: 'echoed key as a property name' }] })
        })
        const result = await DataPretest.run({
            main,
            http: leaky,
            serverParams: { ETHERSCAN_API_KEY: SECRET, OTHER: 'another-secret-value-123' },
            now
        })
        const text = JSON.stringify(result)
        expect(leaky.requests.some((r) => r.url.includes(SECRET))).toBe(true)
        expect(text).not.toContain(SECRET)
        expect(text).not.toContain(encodeURIComponent(SECRET))
        expect(text).not.toContain('another-secret-value-123')
        // A request is kept as method and URL only, its key written as recordings write it; never a header, body or response.
        expect(text).not.toMatch(/"(request|headers|body|response|_allParams)"/)
        expect(result.results[0]?.requests).toEqual([
            {
                method: 'GET',
                url: expect.stringMatching(
                    /^https:\/\/api\.etherscan\.io\/v2\/api\?.*apikey=\{\{SERVER_PARAM:ETHERSCAN_API_KEY\}\}$/
                ),
                status: null,
                missingRecording: false
            }
        ])
        expect(result.results[0]?.verdict).toBe('port-error')
        expect(result.results[0]?.error).toMatch(
            /^DPT-010: Error: request to <url> failed, key \[redacted\] rejected \(\[redacted\]\)$/
        )
    })

    it('short-circuits key-gated tools without a request and names only the missing key (DPT-005, DPT-007)', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({
            main: schemaFixture('etherscan-contracts'),
            http,
            serverParams: {},
            now
        })
        expect(http.requests.filter((r) => r.method !== 'HEAD')).toEqual([])
        expect(result.tools.getContractAbi).toMatchObject({
            class: 'key-gated',
            blocked: true,
            reason: 'key-gated-missing-server-param',
            missingServerParams: ['ETHERSCAN_API_KEY']
        })
        expect(result.results.filter((r) => r.status !== 'duplicate').every((r) => r.status === 'key-gated')).toBe(true)
        expect(result.findings.filter((f) => f.code === 'DPT-005').map((f) => f.message)).toEqual([
            'Required server parameter absent from serverParams: ETHERSCAN_API_KEY',
            'Required server parameter absent from serverParams: ETHERSCAN_API_KEY'
        ])
    })

    it('counts a duplicate test once (DPT-008) and blocks a tool below the bar of 3 (⚠ B4)', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({
            main: schemaFixture('etherscan-contracts'),
            http,
            serverParams: { ETHERSCAN_API_KEY: SECRET },
            now,
            checkDocs: false
        })
        expect(result.results.find((r) => r.tool === 'getSourceCode' && r.testIndex === 2)).toMatchObject({
            status: 'duplicate',
            error: 'DPT-008: duplicate of test 1'
        })
        expect(result.tools.getSourceCode).toMatchObject({
            total: 3,
            distinct: 2,
            working: 2,
            blocked: true,
            reason: 'fewer-than-3-working-tests'
        })
        expect(result.tools.getContractAbi).toMatchObject({ working: 3, blocked: false, outputSchemaMatch: true })
        expect(http.requests).toHaveLength(5)
    })

    it('uses the configured bar and a bar of 1 for a parameterless tool (DPT-006)', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({
            main: schemaFixture('coingecko-simple'),
            http,
            serverParams: { COINGECKO_PRO_API_KEY: SECRET },
            now,
            minWorkingTests: 2,
            checkDocs: false
        })
        expect(result.tools.ping).toMatchObject({
            class: 'parameterless',
            parameterless: true,
            bar: 1,
            working: 1,
            blocked: false
        })
        expect(result.tools.getSimplePrice).toMatchObject({ bar: 2, working: 3, blocked: false })
        expect(result.ok).toBe(true)
        expect(result.findings.map((f) => f.code)).toEqual(['DPT-006'])
    })

    it('reports an output schema mismatch without any value (DPT-018)', async () => {
        const http = fakeHttp((req) => (req.url.includes('/search') ? json({ lat: 1 }) : apiReply(req)))
        const result = await DataPretest.run({
            main: schemaFixture('nominatim-geocoding'),
            http,
            now,
            checkDocs: false
        })
        expect(result.tools.search?.outputSchemaMatch).toBe(false)
        expect(result.results[0]).toMatchObject({
            status: 'passed',
            working: true,
            outputSchemaMatch: false,
            error: 'DPT-018: output schema mismatch: (root): expected array, got object'
        })
    })

    it('withholds a key whose name names another domain and never calls the tool (api-key-domain-mismatch)', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({
            main: schemaFixture('facebook-key-mismatch'),
            http,
            serverParams: { FACEBOOK_API_KEY: SECRET },
            now,
            checkDocs: false
        })
        expect(http.requests).toEqual([])
        expect(result.tools.getItems).toMatchObject({
            class: 'withheld',
            blocked: true,
            reason: 'api-key-domain-mismatch',
            working: 0
        })
        expect(result.results.every((r) => r.status === 'withheld' && !r.working)).toBe(true)
    })

    it('never calls a state-changing tool: PUT, DELETE or meta isDestructive (02 §2.1 read-only calls)', async () => {
        const http = fakeHttp(apiReply)
        const main = schemaFixture('nominatim-geocoding')
        main.tools.search.method = 'DELETE'
        main.tools.reverse.meta = { isDestructive: true }
        const result = await DataPretest.run({ main, http, now, checkDocs: false })
        expect(http.requests.every((r) => r.url.includes('/details/'))).toBe(true)
        expect(result.tools.search).toMatchObject({
            class: 'state-changing',
            blocked: true,
            reason: 'state-changing-tool'
        })
        expect(result.tools.reverse?.class).toBe('state-changing')
        expect(result.findings.filter((f) => f.code === 'DPT-019')).toHaveLength(2)
    })

    it('keeps at most `concurrency` requests in flight', async () => {
        for (const concurrency of [1, 2, 4]) {
            const http = fakeHttp(apiReply)
            await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), http, now, concurrency })
            expect(http.maxInFlight).toBeLessThanOrEqual(concurrency)
            expect(http.requests).toHaveLength(9)
        }
    })

    it('spaces request starts through the injected sleep and keeps result order stable', async () => {
        const sleeps: number[] = []
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({
            main: schemaFixture('nominatim-geocoding'),
            http,
            now,
            throttleMs: 250,
            sleep: async (ms) => void sleeps.push(ms),
            concurrency: 3
        })
        expect(sleeps).toEqual(new Array(8).fill(250))
        expect(result.results.map((r) => `${r.tool}/${r.testIndex}`)).toEqual([
            'search/0',
            'search/1',
            'search/2',
            'reverse/0',
            'reverse/1',
            'reverse/2',
            'lookupPlace/0',
            'lookupPlace/1'
        ])
    })

    it('falls back from HEAD to GET for docs when HEAD is not allowed', async () => {
        const http = fakeHttp((req) => (req.method === 'HEAD' ? { status: 405, headers: {}, body: '' } : apiReply(req)))
        const result = await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), http, now })
        expect(result.docs).toEqual([{ index: 0, reachable: false, httpStatus: 404, error: 'DPT-016: HTTP 404' }])
        expect(http.requests.filter((r) => r.url.startsWith('https://nominatim.org')).map((r) => r.method)).toEqual([
            'HEAD',
            'GET'
        ])
    })

    it('applies a transform before the data and schema checks, and codes a failing one (DPT-017)', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({
            main: schemaFixture('nominatim-geocoding'),
            http,
            now,
            checkDocs: false,
            transform: ({ tool, data }) => (tool === 'reverse' ? [] : data)
        })
        expect(result.tools.reverse?.working).toBe(0)
        const broken = await DataPretest.run({
            main: schemaFixture('nominatim-geocoding'),
            http,
            now,
            checkDocs: false,
            transform: () => {
                throw new Error('handler crashed')
            }
        })
        expect(broken.results[0]?.error).toBe('DPT-017: Error: handler crashed')
    })

    it('returns the plan without sending anything on dryRun', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({
            main: schemaFixture('etherscan-contracts'),
            http,
            serverParams: { ETHERSCAN_API_KEY: SECRET },
            now,
            dryRun: true
        })
        expect(http.requests).toEqual([])
        expect(result).toMatchObject({ ran: false, reason: 'dry-run', dryRun: true, ok: false })
        expect(result.blocked.map((b) => [b.tool, b.reason])).toEqual([
            ['getContractAbi', 'untested'],
            ['getSourceCode', 'untested']
        ])
        expect(result.results.map((r) => r.status)).toEqual([
            'planned',
            'planned',
            'planned',
            'planned',
            'planned',
            'duplicate'
        ])
        expect(JSON.stringify(result)).not.toContain(SECRET)
    })

    it('untested is never graded: a tool whose tests did not run is blocked untested, saying how to run them', async () => {
        const result = await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), now })
        expect(result.blocked.length).toBe(Object.keys(result.tools).length)
        for (const b of result.blocked) {
            expect(b.reason).toBe('untested')
            expect(b.detail).toContain('--live')
            expect(b.detail).toContain('--recordings')
        }
        for (const t of Object.values(result.tools)) expect(t).toMatchObject({ blocked: true, reason: 'untested' })
    })

    it('damage never helps: a schema the runtime refuses sends nothing and blocks every tool invalid-schema, its keys still named', async () => {
        const main = structuredClone(schemaFixture('etherscan-contracts')) as {
            tools: Record<string, { method: string }>
        }
        const first = Object.keys(main.tools)[0] as string
        ;(main.tools[first] as { method: string }).method = 'FETCH'
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({ main, http, now })
        expect(http.requests).toEqual([])
        expect(result).toMatchObject({ ran: false, reason: 'structural-validation-failed', ok: false })
        expect(result.errors.map((e) => e.code)).toEqual(['DPT-009'])
        expect(result.blocked.map((b) => b.reason)).toEqual(Object.keys(main.tools).map(() => 'invalid-schema'))
        expect(result.blocked[0]?.detail).toMatch(
            /^the FlowMCP runtime refuses this schema \(1 structural error\): SCH-\d+ at \/tools\/[^:]+\/method: .+ Fix it and grade again$/
        )
        // The key the tool needs is still known, whatever else fails.
        expect(Object.values(result.tools).every((t) => t.missingServerParams.includes('ETHERSCAN_API_KEY'))).toBe(true)
    })

    it('skips the pretest without an HTTP port (ran: false, DPT-014)', async () => {
        const result = await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), now })
        expect(result).toMatchObject({ ran: false, reason: 'no-http-port', ok: false, errors: [] })
        expect(result.findings.map((f) => f.code)).toEqual(['DPT-014'])
    })

    it('sends nothing for a structurally broken main (DPT-009)', async () => {
        const http = fakeHttp(apiReply)
        const result = await DataPretest.run({ main: schemaFixture('broken-structure'), http, now })
        expect(http.requests).toEqual([])
        expect(result).toMatchObject({
            ran: false,
            reason: 'structural-validation-failed',
            errors: [{ code: 'DPT-009' }]
        })
    })

    it.each([
        ['no main', { now }, 'DPT-001', '/main'],
        ['no now', { main: {} }, 'DPT-001', '/now'],
        ['a bad now', { main: {}, now: 'yesterday' }, 'DPT-002', '/now'],
        ['a zero bar', { main: {}, now, minWorkingTests: 0 }, 'DPT-002', '/minWorkingTests'],
        ['a concurrency above the cap', { main: {}, now, concurrency: 1000 }, 'DPT-002', '/concurrency'],
        ['a throttle without sleep', { main: {}, now, throttleMs: 100 }, 'DPT-001', '/sleep'],
        ['a port without send', { main: {}, now, http: {} }, 'DPT-002', '/http/send'],
        ['a non-string server param', { main: {}, now, serverParams: { KEY: 1 } }, 'DPT-002', '/serverParams/KEY']
    ])('rejects %s with a coded issue', async (_name, input, code, path) => {
        const result = await DataPretest.run(input as never)
        expect(result).toMatchObject({ ran: false, reason: 'invalid-input' })
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('never rejects and codes every issue for any input (fuzz)', async () => {
        const port = fc.constantFrom(
            undefined,
            fakeHttp(apiReply),
            fakeHttp(() => {
                throw new Error('boom')
            }),
            { send: () => Promise.reject('string rejection') },
            { send: () => Promise.resolve(null) }
        )
        await fc.assert(
            fc.asyncProperty(
                fc.oneof(
                    fc.anything(),
                    fc.record(
                        {
                            main: fc.oneof(fc.anything(), fc.constant(schemaFixture('nominatim-geocoding'))),
                            now: fc.oneof(fc.constant(now), fc.anything()),
                            http: port,
                            serverParams: fc.anything(),
                            concurrency: fc.anything()
                        },
                        { requiredKeys: [] }
                    )
                ),
                async (input) => {
                    const result = await DataPretest.run(input as never)
                    for (const e of [...result.errors, ...result.findings])
                        expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
                }
            ),
            { numRuns: 150 }
        )
    })
})

describe('DataPretest.run with the caller’s validation', () => {
    it('uses a given validation instead of validating again, and computes its own when the given one is not a validation', async () => {
        const main = schemaFixture('nominatim-geocoding')
        const refused = await DataPretest.run({
            main,
            http: fakeHttp(apiReply),
            now,
            checkDocs: false,
            validation: {
                valid: false,
                errors: [{ code: 'SCH-004', severity: 'error', message: 'given', path: '/name' }]
            }
        })
        expect(refused).toMatchObject({
            ran: false,
            reason: 'structural-validation-failed',
            errors: [expect.objectContaining({ code: 'DPT-009' })]
        })
        const computed = await DataPretest.run({
            main,
            http: fakeHttp(apiReply),
            now,
            checkDocs: false,
            validation: 'garbage' as never
        })
        expect(computed.ran).toBe(true)
    })
})

describe('DataPretest.run: a tool below its bar names the tests that did not work', () => {
    it('says which test lacks its recording, and with which request, where it used to say only "n of m returned data"', async () => {
        const { httpPortFromRecordings } = await import('../../src/index.js')
        const result = await DataPretest.run({
            main: schemaFixture('nominatim-geocoding'),
            http: httpPortFromRecordings({ recordings: [] }),
            now,
            checkDocs: false
        })
        const search = result.blocked.find((b) => b.tool === 'search')
        // Below its bar only for what the recordings lack: not tested here (an environment reason), not its content.
        expect(search?.reason).toBe('missing-recording')
        expect(search?.detail).toMatch(
            /^not tested here: the recordings lack requests of 3 of its tests \(0 of its tests returned data, 3 needed\); record them \(grade --live --record <dir>\) to test it; not working: test 0: the recordings lack GET https:\/\/\S+ \(re-record it\); test 1: the recordings lack GET \S+ \(re-record it\); test 2: /
        )
        expect(result.tools.search?.detail).toBe(search?.detail)
    })

    it('names a test the API failed with its verdict and status, and says nothing more of a tool whose tests all returned data', async () => {
        const reply = (req: HttpRequest) =>
            req.url.includes('/search') && req.url.includes('Paris') ? json({ error: 'down' }, 500) : apiReply(req)
        const main = schemaFixture('nominatim-geocoding')
        const queries = (main.tools.search.tests as Array<Record<string, unknown>>).map((t) => JSON.stringify(t))
        const result = await DataPretest.run({
            main: {
                ...main,
                tools: {
                    ...main.tools,
                    search: {
                        ...main.tools.search,
                        tests: queries.map((q, i) => (i === 1 ? { ...JSON.parse(q), q: 'Paris' } : JSON.parse(q)))
                    }
                }
            },
            http: fakeHttp(reply),
            now,
            checkDocs: false
        })
        expect(result.blocked.find((b) => b.tool === 'search')?.detail).toBe(
            '2 of 3 distinct tests returned data, 3 needed; not working: test 1: http-error (HTTP 500)'
        )
        expect(result.blocked.find((b) => b.tool === 'lookupPlace')?.detail).toBe(
            '2 of 2 distinct tests returned data, 3 needed'
        )
    })
})
