import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { DataPretest, httpPortFromRecordings, recordingHttpPort, type Recording } from '../../src/index.js'
import { fakeHttp, json } from './fake-http.js'

// "A replay needs no key, wherever the key is written" (docs/recordings.md): a plain schema's key in
// its path (a query written into the path, or a path segment), in its root, in a header or as a query
// parameter. Each is recorded live with the key, then replayed with only the placeholder the CLI gives
// a key the environment lacks under --recordings.
const now = '2026-12-01T10:00:00Z'
const KEY = 'live-key-value-0123456789'

type Where = 'path-query' | 'path-segment' | 'root' | 'header' | 'query'

/** A plain schema of one tool (three tests) whose key `FIXTURE_API_KEY` is written `where`. */
function schemaWithKey(where: Where): Record<string, unknown> {
    const path =
        where === 'path-query'
            ? '/v1/items?format=json&apikey={{FIXTURE_API_KEY}}'
            : where === 'path-segment'
              ? '/v1/{{FIXTURE_API_KEY}}/items'
              : '/v1/items'
    const parameters: unknown[] = [
        {
            position: { key: 'q', value: '{{USER_PARAM}}', location: 'query' },
            z: { primitive: 'string()', options: [] }
        }
    ]
    if (where === 'query')
        parameters.push({
            position: { key: 'api_key', value: '{{FIXTURE_API_KEY}}', location: 'query' },
            z: { primitive: 'string()', options: [] }
        })
    return {
        namespace: 'keyfixture',
        name: 'Key fixture',
        description: 'A plain schema whose key is written in one place.',
        version: '4.0.0',
        docs: ['https://docs.keyfixture.io'],
        tags: ['test'],
        root: where === 'root' ? 'https://api.keyfixture.io/{{FIXTURE_API_KEY}}' : 'https://api.keyfixture.io',
        requiredServerParams: ['FIXTURE_API_KEY'],
        ...(where === 'header' ? { headers: { Authorization: 'Bearer {{FIXTURE_API_KEY}}' } } : {}),
        tools: {
            listItems: {
                method: 'GET',
                path,
                description: 'Lists the items matching a word.',
                parameters,
                tests: [
                    { _description: 'apples', q: 'apple' },
                    { _description: 'pears', q: 'pear' },
                    { _description: 'plums', q: 'plum' }
                ]
            }
        }
    }
}

/** Records the schema's tests live (a fake API that answers only when the key is sent), as `--record` does. */
async function recorded(main: Record<string, unknown>): Promise<Recording[]> {
    const api = fakeHttp((req) =>
        req.url.includes(KEY) || req.headers.Authorization === `Bearer ${KEY}`
            ? json({ items: [{ id: 1, url: req.url.replace(KEY, 'x') }] })
            : json({ error: 'no key' }, 401)
    )
    const recorder = recordingHttpPort({ http: api, serverParams: { FIXTURE_API_KEY: KEY }, recordedAt: now })
    const live = await DataPretest.run({
        main,
        http: recorder.port,
        serverParams: { FIXTURE_API_KEY: KEY },
        now,
        checkDocs: false
    })
    expect(live.blocked).toEqual([])
    const recordings = recorder.recordings()
    expect(JSON.stringify(recordings)).not.toContain(KEY)
    return JSON.parse(JSON.stringify(recordings)) as Recording[]
}

describe('a replay needs no key, wherever a plain schema writes it', () => {
    it.each<Where>(['path-query', 'path-segment', 'root', 'header', 'query'])(
        'key in the %s: replayed with the placeholder only, every test works and the tool is not blocked',
        async (where) => {
            const main = schemaWithKey(where)
            const replay = httpPortFromRecordings({ recordings: await recorded(main) })
            const result = await DataPretest.run({
                main,
                http: replay,
                serverParams: { FIXTURE_API_KEY: '{{SERVER_PARAM:FIXTURE_API_KEY}}' },
                now,
                checkDocs: false
            })
            expect(result.blocked).toEqual([])
            expect(result.results.map((r) => r.status)).toEqual(['passed', 'passed', 'passed'])
            expect(result.findings.filter((f) => f.code === 'DPT-012')).toEqual([])
            // The request record names the key by its placeholder, as the recordings do.
            expect(result.results[0]?.requests?.[0]?.url ?? '').not.toContain(KEY)
        }
    )

    it('without the key or a placeholder the tool stays key-gated, wherever the key is written (never unbuildable)', async () => {
        for (const where of ['path-query', 'path-segment', 'root', 'header', 'query'] as const) {
            const result = await DataPretest.run({
                main: schemaWithKey(where),
                http: httpPortFromRecordings({ recordings: [] }),
                now,
                checkDocs: false
            })
            expect(result.blocked.map((b) => b.reason)).toEqual(['key-gated-missing-server-param'])
        }
    })

    it('a placeholder of another key is no key: a schema whose path names an undeclared param is still unbuildable', async () => {
        const main = schemaWithKey('path-segment')
        const tools = main.tools as Record<string, Record<string, unknown>>
        ;(tools.listItems as Record<string, unknown>).path = '/v1/{{OTHER_KEY}}/items'
        const result = await DataPretest.run({
            main,
            http: httpPortFromRecordings({ recordings: [] }),
            serverParams: { FIXTURE_API_KEY: '{{SERVER_PARAM:FIXTURE_API_KEY}}' },
            now,
            checkDocs: false
        })
        expect(result.blocked.map((b) => b.reason)).toEqual(['unbuildable-tests'])
    })

    it('property: recorded with any key value at any of the places, the keyless replay reaches the same working tests', async () => {
        await fc.assert(
            fc.asyncProperty(
                fc.constantFrom<Where>('path-query', 'path-segment', 'root', 'header', 'query'),
                fc.stringMatching(/^[A-Za-z0-9]{12,40}$/),
                async (where, key) => {
                    const main = schemaWithKey(where)
                    const api = fakeHttp(() => json({ items: [1] }))
                    const recorder = recordingHttpPort({ http: api, serverParams: { FIXTURE_API_KEY: key } })
                    const live = await DataPretest.run({
                        main,
                        http: recorder.port,
                        serverParams: { FIXTURE_API_KEY: key },
                        now,
                        checkDocs: false
                    })
                    const replayed = await DataPretest.run({
                        main,
                        http: httpPortFromRecordings({ recordings: recorder.recordings() }),
                        serverParams: { FIXTURE_API_KEY: '{{SERVER_PARAM:FIXTURE_API_KEY}}' },
                        now,
                        checkDocs: false
                    })
                    expect(JSON.stringify(recorder.recordings())).not.toContain(key)
                    expect(replayed.results.map((r) => r.working)).toEqual(live.results.map((r) => r.working))
                    expect(replayed.blocked).toEqual(live.blocked)
                }
            ),
            { numRuns: 40 }
        )
    })
})
