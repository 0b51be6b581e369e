import { describe, expect, it } from 'vitest'
import {
    BASELINE_MISSING_REASONS,
    baselineOfIndexes,
    baselineSchemaIds,
    readBaseline,
    type BaselineFsPort,
    type BaselineRead
} from '../../src/report/baseline.js'
import { createMemoryFs } from '../../src/index.js'

const index = (namespace: string | undefined, schemas: Record<string, unknown>): string =>
    JSON.stringify({ ...(namespace !== undefined ? { namespace } : {}), status: 'partial', schemas })
const FORECAST = { status: 'stable', grade: 'B', tools: {}, snapshot: { hash: 'sha256:abc' } }
const STATE = JSON.stringify({
    findings: { forecast: [{ code: 'SCH-WARN-012', pointer: '/main/tags/0', severity: 'warning' }] }
})

/** The schemas of a read as `id → [grade, hash, findings]`, or the read itself when it failed. */
function summary(read: BaselineRead): unknown {
    if (!('namespaces' in read)) return read
    return Object.fromEntries(
        [...baselineSchemaIds(read.namespaces)].map(([id, n]) => [id, [n.standing.grade, n.hash, n.findings]])
    )
}

describe('readBaseline', () => {
    it('reads an island: each namespace index.json with the findings of the state.json beside it', async () => {
        const fs = createMemoryFs({
            '/b/providers/openmeteo/index.json': index('openmeteo', { forecast: FORECAST }),
            '/b/providers/openmeteo/state.json': STATE,
            '/b/providers/quake/index.json': index(undefined, { events: { status: 'blocked', tools: {} } }),
            '/b/providers/empty/notes.txt': ''
        })
        expect(summary(await readBaseline({ fs, path: '/b/' }))).toEqual({
            'openmeteo.forecast': [
                'B',
                'sha256:abc',
                [{ code: 'SCH-WARN-012', pointer: '/main/tags/0', severity: 'warning' }]
            ],
            // No namespace field: named by its folder. No state.json: findings unknown (null).
            'quake.events': [null, null, null]
        })
    })

    it('reads one index.json given as the path, with its state.json, at the levels the current rules show', async () => {
        const fs = createMemoryFs({
            '/b/x/index.json': index(undefined, { forecast: FORECAST }),
            '/b/x/state.json': STATE
        })
        expect(summary(await readBaseline({ fs, path: '/b/x/index.json', rules: { 'SCH-WARN-012': 'off' } }))).toEqual({
            'x.forecast': ['B', 'sha256:abc', []]
        })
        expect(
            summary(await readBaseline({ fs, path: '/b/x/index.json', rules: { 'SCH-WARN-012': 'error' } }))
        ).toEqual({
            'x.forecast': ['B', 'sha256:abc', [{ code: 'SCH-WARN-012', pointer: '/main/tags/0', severity: 'error' }]]
        })
    })

    it('takes a state.json that is not JSON as none: every finding then counts as new', async () => {
        const fs = createMemoryFs({
            '/b/providers/x/index.json': index('x', { forecast: FORECAST }),
            '/b/providers/x/state.json': '{'
        })
        expect(summary(await readBaseline({ fs, path: '/b' }))).toEqual({ 'x.forecast': ['B', 'sha256:abc', null] })
    })

    it.each([
        ['a path with nothing at it', {}, '/nowhere', BASELINE_MISSING_REASONS.absent],
        ['an index.json path with nothing at it', {}, '/b/x/index.json', BASELINE_MISSING_REASONS.absent],
        ['a folder without providers', { '/b/notes.txt': '' }, '/b', BASELINE_MISSING_REASONS.noProviders],
        ['a file that is no index.json', { '/b/notes.txt': '' }, '/b/notes.txt', BASELINE_MISSING_REASONS.noProviders],
        [
            'providers without any index.json',
            { '/b/providers/x/state.json': STATE },
            '/b',
            BASELINE_MISSING_REASONS.noIndex
        ]
    ])('is missing for %s', async (_, files, path, reason) => {
        expect(await readBaseline({ fs: createMemoryFs(files), path })).toEqual({ missing: reason })
    })

    it.each([
        ['not JSON', '{', /./],
        ['not an object', '[1]', /^not a JSON object$/]
    ])('is unreadable as a whole when one index.json is %s', async (_, text, detail) => {
        const fs = createMemoryFs({
            '/b/providers/a/index.json': index('a', { forecast: FORECAST }),
            '/b/providers/z/index.json': text
        })
        const read = await readBaseline({ fs, path: '/b' })
        expect(read).toEqual({
            unreadable: { path: '/b/providers/z/index.json', detail: expect.stringMatching(detail) }
        })
    })

    it('is unreadable, never a rejection, when the port fails', async () => {
        const fs: BaselineFsPort = {
            readFile: () => Promise.reject(new Error('EACCES: permission denied')),
            readdir: async () => [{ name: 'a', kind: 'directory' }]
        }
        expect(await readBaseline({ fs, path: '/b' })).toEqual({
            unreadable: { path: '/b/providers/a/index.json', detail: 'EACCES: permission denied' }
        })
    })
})

describe('baselineOfIndexes', () => {
    it('reads parsed index files by namespace: the key names one without a namespace field; no findings', () => {
        const read = baselineOfIndexes({
            ns: JSON.parse(index(undefined, { forecast: FORECAST })),
            other: JSON.parse(index('named', {}))
        })
        expect(summary(read)).toEqual({ 'ns.forecast': ['B', 'sha256:abc', null] })
        expect('namespaces' in read && [...read.namespaces.keys()]).toEqual(['ns', 'named'])
    })

    it('is unreadable when a value is not an object', () => {
        expect(baselineOfIndexes({ ns: [] })).toEqual({ unreadable: { path: 'ns', detail: 'not a JSON object' } })
    })
})
