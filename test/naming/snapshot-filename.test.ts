import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatSnapshotFilename, parseSnapshotFilename, stripSnapshotFilename } from '../../src/index.js'

describe('formatSnapshotFilename', () => {
    it.each([
        {
            input: { name: 'prices', timestamp: '2026-05-30T19-44-23Z', hash: '93baef35', ext: 'mjs' },
            expected: 'prices--2026-05-30T19-44-23Z--93baef35.mjs'
        },
        {
            input: { name: 'prices', timestamp: '2026-05-30T19:44:23.456Z', hash: '93baef35', ext: 'mjs' },
            expected: 'prices--2026-05-30T19-44-23Z--93baef35.mjs'
        },
        {
            input: { name: 'defillama-about', timestamp: '2026-05-30T21:44:23+02:00', hash: '0a1b2c3d', ext: 'md' },
            expected: 'defillama-about--2026-05-30T19-44-23Z--0a1b2c3d.md'
        },
        {
            input: { name: 'evmChains', timestamp: '2026-05-30T08-00-00Z', hash: '0a1b2c3d', ext: 'json' },
            expected: 'evmChains--2026-05-30T08-00-00Z--0a1b2c3d.json'
        }
    ])('follows the naming grammar <name>--<ts>--<hash8>.<ext> for $expected', ({ input, expected }) => {
        expect(formatSnapshotFilename(input)).toEqual({ filename: expected, errors: [] })
    })

    it.each([
        { input: { name: 'a--b', timestamp: '2026-05-30T19-44-23Z', hash: '93baef35', ext: 'mjs' }, path: '/name' },
        { input: { name: 'price-', timestamp: '2026-05-30T19-44-23Z', hash: '93baef35', ext: 'mjs' }, path: '/name' },
        { input: { name: '../x', timestamp: '2026-05-30T19-44-23Z', hash: '93baef35', ext: 'mjs' }, path: '/name' },
        {
            input: { name: 'prices', timestamp: '2026-02-30T19-44-23Z', hash: '93baef35', ext: 'mjs' },
            path: '/timestamp'
        },
        { input: { name: 'prices', timestamp: '2026-05-30T19-44-23Z', hash: '93BAEF35', ext: 'mjs' }, path: '/hash' },
        { input: { name: 'prices', timestamp: '2026-05-30T19-44-23Z', hash: '93baef35', ext: 'm.js' }, path: '/ext' }
    ])(
        'rejects a part that breaks the grammar ($path) with SNP-003 (names must not contain --, ⚠ C5)',
        ({ input, path }) => {
            expect(formatSnapshotFilename(input)).toMatchObject({ filename: null, errors: [{ code: 'SNP-003', path }] })
        }
    )

    it('reports missing and mistyped parts with SNP-001 and SNP-002', () => {
        expect(
            formatSnapshotFilename({ name: 1, hash: '93baef35', ext: 'mjs' }).errors.map((e) => [e.code, e.path])
        ).toEqual([
            ['SNP-002', '/name'],
            ['SNP-001', '/timestamp']
        ])
    })
})

describe('parseSnapshotFilename', () => {
    it('parses the spec example', () => {
        expect(parseSnapshotFilename('prices--2026-05-30T19-44-23Z--93baef35.mjs')).toEqual({
            name: 'prices',
            timestamp: '2026-05-30T19-44-23Z',
            hash: '93baef35',
            ext: 'mjs'
        })
    })

    it.each([
        'prices.mjs',
        '.prices--2026-05-30T19-44-23Z--93baef35.mjs.1a2b.tmp',
        'a--b--2026-05-30T19-44-23Z--93baef35.mjs',
        'prices--2026-13-30T19-44-23Z--93baef35.mjs',
        'single-test--2026-05-31T11-05-00Z.json',
        42
    ])('returns null for %s, which is not a snapshot name', (name) => {
        expect(parseSnapshotFilename(name)).toBeNull()
    })

    it('round-trips every well-formed name (property)', () => {
        const segment = fc
            .array(fc.stringMatching(/^[A-Za-z0-9_]{1,6}$/), { minLength: 1, maxLength: 4 })
            .map((parts) => `n${parts.join('-')}`)
        const time = fc.date({
            min: new Date('2000-01-01T00:00:00Z'),
            max: new Date('2099-12-31T23:59:59Z'),
            noInvalidDate: true
        })
        fc.assert(
            fc.property(
                segment,
                time,
                fc.stringMatching(/^[a-f0-9]{8}$/),
                fc.stringMatching(/^[A-Za-z0-9]{1,5}$/),
                (name, date, hash, ext) => {
                    const { filename } = formatSnapshotFilename({ name, timestamp: date.toISOString(), hash, ext })
                    const parts = parseSnapshotFilename(filename)
                    expect(parts).toMatchObject({ name, hash, ext })
                    expect(formatSnapshotFilename({ ...(parts as object) }).filename).toBe(filename)
                }
            )
        )
    })
})

describe('stripSnapshotFilename', () => {
    it('strips the island suffix when a file leaves the island', () => {
        expect(stripSnapshotFilename('prices--2026-05-30T19-44-23Z--93baef35.mjs')).toBe('prices.mjs')
    })

    it('returns null for a name that is not a snapshot', () => {
        expect(stripSnapshotFilename('prices.mjs')).toBeNull()
    })
})
