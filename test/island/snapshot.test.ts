import { describe, expect, it } from 'vitest'
import { createMemoryFs, HashGenerator, RebuildIndex, SourceSnapshot } from '../../src/index.js'

const DIR = '/island/providers/defillama/prices/schema'
const NOW = '2026-05-30T19:44:23Z'

describe('SourceSnapshot.create', () => {
    it('writes a byte-identical copy named <name>--<ts>--<hash8>.<ext>', async () => {
        const fs = createMemoryFs()
        const res = await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'export const main = {}\n',
            hash: '93baef35',
            now: NOW
        })
        expect(res).toEqual({
            file: 'prices--2026-05-30T19-44-23Z--93baef35.mjs',
            path: `${DIR}/prices--2026-05-30T19-44-23Z--93baef35.mjs`,
            hash: '93baef35',
            created: true,
            errors: []
        })
        expect(await fs.readFile(res.path as string)).toBe('export const main = {}\n')
    })

    it('hashes the raw bytes when no hash is given (About files, ⚠ C11)', async () => {
        const fs = createMemoryFs()
        const text = '# About\r\n'
        const res = await SourceSnapshot.create({ fs, dir: DIR, name: 'defillama-about', ext: 'md', text, now: NOW })
        expect(res.hash).toBe(HashGenerator.hashBytes({ text }).short)
    })

    it('is a no-op when the newest snapshot has the same hash and bytes', async () => {
        const fs = createMemoryFs()
        await SourceSnapshot.create({ fs, dir: DIR, name: 'prices', ext: 'mjs', text: 'A', hash: '0000000a', now: NOW })
        const again = await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'A',
            hash: '0000000a',
            now: '2026-06-01T00:00:00Z'
        })
        expect(again).toMatchObject({ file: 'prices--2026-05-30T19-44-23Z--0000000a.mjs', created: false, errors: [] })
        expect(Object.keys(fs.dump().files)).toHaveLength(1)
    })

    it('reports same hash with different bytes as a conflict and writes nothing (⚠ C12)', async () => {
        const fs = createMemoryFs()
        await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'export const main = {}\n',
            hash: '0000000a',
            now: NOW
        })
        const handlerEdit = await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'export const main = {}\nexport const handlers = () => ({})\n',
            hash: '0000000a',
            now: '2026-06-01T00:00:00Z'
        })
        expect(handlerEdit).toMatchObject({ file: null, created: false, errors: [{ code: 'SNP-004' }] })
        expect(Object.keys(fs.dump().files)).toHaveLength(1)
    })

    it("with sameHashEdit: 'new-snapshot', an edit that keeps the hash is a new snapshot beside the old (⚠ C12 decided, SNP-INFO-002)", async () => {
        const fs = createMemoryFs()
        const first = 'export const main = {}\n'
        const edited = '// a comment\nexport const main = {}\n'
        const args = {
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            hash: '0000000a',
            sameHashEdit: 'new-snapshot'
        } as const
        await SourceSnapshot.create({ ...args, text: first, now: NOW })
        const edit = await SourceSnapshot.create({ ...args, text: edited, now: NOW })
        expect(edit).toMatchObject({
            created: true,
            file: 'prices--2026-05-30T19-44-24Z--0000000a.mjs',
            errors: [{ code: 'SNP-INFO-002' }, { code: 'ISL-INFO-001' }]
        })
        // The old bytes stay; the newest snapshot is the source.
        const files = fs.dump().files
        expect(Object.values(files).sort()).toEqual([edited, first].sort())
        // The same bytes again: nothing new. Back to the first bytes: copied again as the newest (SNP-INFO-001).
        expect(await SourceSnapshot.create({ ...args, text: edited, now: '2026-06-01T00:00:00Z' })).toMatchObject({
            created: false,
            file: edit.file
        })
        const back = await SourceSnapshot.create({ ...args, text: first, now: '2026-06-01T00:00:00Z' })
        expect(back).toMatchObject({ created: true, errors: [{ code: 'SNP-INFO-001' }] })
        // Without the decision the conflict stands.
        const refused = await SourceSnapshot.create({ ...args, sameHashEdit: 'conflict', text: 'other', now: NOW })
        expect(refused).toMatchObject({ file: null, errors: [{ code: 'SNP-004' }] })
    })

    it('writes a new hash beside the old snapshot, never over it', async () => {
        const fs = createMemoryFs()
        await SourceSnapshot.create({ fs, dir: DIR, name: 'prices', ext: 'mjs', text: 'A', hash: '0000000a', now: NOW })
        const b = await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'B',
            hash: '0000000b',
            now: '2026-06-01T00:00:00Z'
        })
        expect(b.file).toBe('prices--2026-06-01T00-00-00Z--0000000b.mjs')
        expect((await SourceSnapshot.list({ fs, dir: DIR })).snapshots.map((s) => s.hash)).toEqual([
            '0000000a',
            '0000000b'
        ])
    })

    it('advances the timestamp past the newest snapshot in the same second (⚠ C8)', async () => {
        const fs = createMemoryFs()
        await SourceSnapshot.create({ fs, dir: DIR, name: 'prices', ext: 'mjs', text: 'A', hash: '0000000a', now: NOW })
        const b = await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'B',
            hash: '0000000b',
            now: NOW
        })
        expect(b.file).toBe('prices--2026-05-30T19-44-24Z--0000000b.mjs')
        expect(b.errors).toMatchObject([{ code: 'ISL-INFO-001' }])
        const latest = await RebuildIndex.resolveLatest({ fs, dir: DIR, logicalName: 'prices' })
        expect(latest.file).toBe(b.file)
    })

    it('copies a reverted source again so that the newest snapshot equals the source', async () => {
        const fs = createMemoryFs()
        await SourceSnapshot.create({ fs, dir: DIR, name: 'prices', ext: 'mjs', text: 'A', hash: '0000000a', now: NOW })
        await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'B',
            hash: '0000000b',
            now: '2026-06-01T00:00:00Z'
        })
        const back = await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'A',
            hash: '0000000a',
            now: '2026-06-02T00:00:00Z'
        })
        expect(back).toMatchObject({
            file: 'prices--2026-06-02T00-00-00Z--0000000a.mjs',
            created: true,
            errors: [{ code: 'SNP-INFO-001' }]
        })
    })

    it.each([
        { input: { name: '../evil' }, code: 'SNP-003' },
        { input: { name: 'a--b' }, code: 'SNP-003' },
        { input: { hash: 'XYZ' }, code: 'SNP-003' },
        { input: { text: 5 }, code: 'SNP-002' },
        { input: { now: 'yesterday' }, code: 'SNP-003' },
        { input: { fs: {} }, code: 'FS-004' }
    ])('rejects bad input with $code before any port call', async ({ input, code }) => {
        const fs = createMemoryFs()
        const res = await SourceSnapshot.create({
            fs,
            dir: DIR,
            name: 'prices',
            ext: 'mjs',
            text: 'A',
            now: NOW,
            ...input
        })
        expect(res.errors.map((e) => e.code)).toContain(code)
        expect(fs.dump().directories).toEqual(['/'])
    })
})

describe('SourceSnapshot.list', () => {
    it('lists parsed snapshots, ignoring temp files and strays; a missing folder is empty', async () => {
        const fs = createMemoryFs({
            [`${DIR}/prices--2026-05-30T19-44-23Z--0000000a.mjs`]: 'A',
            [`${DIR}/.prices--2026-05-31T00-00-00Z--0000000b.mjs.abc.tmp`]: 'B',
            [`${DIR}/notes.txt`]: 'x'
        })
        expect((await SourceSnapshot.list({ fs, dir: DIR })).snapshots.map((s) => s.file)).toEqual([
            'prices--2026-05-30T19-44-23Z--0000000a.mjs'
        ])
        expect(await SourceSnapshot.list({ fs, dir: '/nowhere' })).toEqual({ snapshots: [], errors: [] })
    })

    it('reports a mistyped name filter', async () => {
        expect((await SourceSnapshot.list({ fs: createMemoryFs(), dir: DIR, name: 1 })).errors[0]?.code).toBe('SNP-002')
    })
})

describe('SourceSnapshot.verify', () => {
    const main = {
        namespace: 'etherscan',
        name: 'GetContractEthereum',
        description: 'Fetch verified contract source by address',
        version: '4.0.0',
        root: 'https://api.etherscan.io',
        tools: {}
    }

    it('verifies a schema snapshot against the hash of its main export (given, or loaded by the host)', async () => {
        const path = `${DIR}/prices--2026-05-30T19-44-23Z--50f7f552.mjs`
        const fs = createMemoryFs({ [path]: `export const main = ${JSON.stringify(main)}\n` })
        expect(await SourceSnapshot.verify({ fs, path, main })).toEqual({
            valid: true,
            expectedHash: '50f7f552',
            actualHash: '50f7f552',
            errors: []
        })
        const trustedLoader = { load: async () => ({ main }) }
        expect((await SourceSnapshot.verify({ fs, path, trustedLoader })).valid).toBe(true)
        // Without either, main is read from the snapshot's syntax tree.
        expect((await SourceSnapshot.verify({ fs, path })).valid).toBe(true)
    })

    it('verifies an About against its bytes, and tolerates the legacy { about } hash (⚠ C11)', async () => {
        const text = '# About\n'
        const bytes = HashGenerator.hashBytes({ text }).short as string
        const legacy = HashGenerator.computeHash({ value: { about: text } }).short as string
        const fs = createMemoryFs({
            [`/a/x-about--2026-05-30T19-44-23Z--${bytes}.md`]: text,
            [`/a/y-about--2026-05-30T19-44-23Z--${legacy}.md`]: text
        })
        expect((await SourceSnapshot.verify({ fs, path: `/a/x-about--2026-05-30T19-44-23Z--${bytes}.md` })).valid).toBe(
            true
        )
        expect(
            (await SourceSnapshot.verify({ fs, path: `/a/y-about--2026-05-30T19-44-23Z--${legacy}.md` })).valid
        ).toBe(true)
    })

    it('verifies a JSON snapshot by its canonical form', async () => {
        const value = { b: 1, a: [2, { d: null, c: 'x' }] }
        const fs = createMemoryFs({
            '/s/evmChains--2026-05-30T08-00-00Z--41f05899.json': JSON.stringify(value, null, 2)
        })
        expect(
            (await SourceSnapshot.verify({ fs, path: '/s/evmChains--2026-05-30T08-00-00Z--41f05899.json' })).valid
        ).toBe(true)
    })

    it.each([
        {
            name: 'a content that does not match its name',
            files: { '/s/x--2026-05-30T08-00-00Z--00000000.md': 'text' },
            path: '/s/x--2026-05-30T08-00-00Z--00000000.md',
            code: 'SNP-006'
        },
        { name: 'a missing file', files: {}, path: '/s/x--2026-05-30T08-00-00Z--00000000.md', code: 'SNP-005' },
        { name: 'a name outside the grammar', files: {}, path: '/s/x.md', code: 'SNP-003' },
        {
            name: 'a schema module without main',
            files: { '/s/x--2026-05-30T08-00-00Z--00000000.mjs': 'export const other = {}' },
            path: '/s/x--2026-05-30T08-00-00Z--00000000.mjs',
            code: 'SRC-005'
        },
        {
            name: 'a schema whose main is code',
            files: { '/s/x--2026-05-30T08-00-00Z--00000000.mjs': 'export const main = f()' },
            path: '/s/x--2026-05-30T08-00-00Z--00000000.mjs',
            code: 'SRC-002'
        }
    ])('fails for $name with $code', async ({ files, path, code }) => {
        const res = await SourceSnapshot.verify({ fs: createMemoryFs(files as Record<string, string>), path })
        expect(res.valid).toBe(false)
        expect(res.errors[0]?.code).toBe(code)
    })
})

describe('RebuildIndex.resolveLatest', () => {
    it('reads the folder through the port and ignores temp files', async () => {
        const fs = createMemoryFs({
            '/g/single-test--2026-05-01T00-00-00Z.json': '{}',
            '/g/.single-test--2026-09-01T00-00-00Z.json.1a.tmp': '{}'
        })
        expect(await RebuildIndex.resolveLatest({ fs, dir: '/g', logicalName: 'single-test' })).toEqual({
            file: 'single-test--2026-05-01T00-00-00Z.json',
            path: '/g/single-test--2026-05-01T00-00-00Z.json',
            timestamp: '2026-05-01T00-00-00Z',
            reason: null,
            errors: []
        })
    })

    it('answers "no version" for a missing folder and "invalid-input" for bad arguments', async () => {
        const fs = createMemoryFs()
        expect((await RebuildIndex.resolveLatest({ fs, dir: '/none', logicalName: 'x' })).reason).toBe('no-version')
        const bad = await RebuildIndex.resolveLatest({ fs, dir: '/none', logicalName: '' })
        expect(bad).toMatchObject({ reason: 'invalid-input', errors: [{ code: 'ISL-002' }] })
    })

    it('turns a failing port into FS-001', async () => {
        const fs = { ...createMemoryFs(), readdir: async () => Promise.reject(new Error('EACCES')) }
        expect((await RebuildIndex.resolveLatest({ fs, dir: '/g', logicalName: 'x' })).errors[0]?.code).toBe('FS-001')
    })
})
