import { describe, expect, it } from 'vitest'
import { createMemoryFs, Island, type FsPort } from '../../src/index.js'
import { makeEntry, makeMain, moduleText } from './support.js'

const ROOT = '/island'
const NOW = '2026-05-30T19:44:23Z'
const aboutDecl = {
    about: { source: 'markdown', origin: 'inline', name: 'defillama-about.md', description: 'About DefiLlama' }
}
const prices = makeMain('defillama', 'Prices', ['getFirstPrice', 'getLastPrice'], { resources: aboutDecl })
const coins = makeMain('defillama', 'Coins', ['getCoin'])
const FILES = [
    { name: 'prices.mjs', text: moduleText(prices), main: prices },
    { name: 'coins.mjs', text: moduleText(coins), main: coins },
    { name: 'resources/defillama-about.md', text: '# DefiLlama\n' },
    {
        name: 'skills/summarizePrices.mjs',
        text: 'export const skill = {}\n',
        skill: { requires: { tools: ['defillama/tool/getFirstPrice'] } }
    }
]

function recording(fs: FsPort): { port: FsPort; calls: string[] } {
    const calls: string[] = []
    const port = Object.fromEntries(
        Object.entries(fs).map(([k, fn]) => [
            k,
            (...args: unknown[]) => (calls.push(k), (fn as (...a: unknown[]) => unknown)(...args))
        ])
    ) as unknown as FsPort
    return { port, calls }
}

describe('Island.importProvider', () => {
    it('snapshots the schemas, normalises About and skills into the layout, and rebuilds the index', async () => {
        const fs = createMemoryFs()
        const res = await Island.importProvider({ fs, root: ROOT, files: FILES, now: NOW })
        expect(res.status).toBe(true)
        expect(res.namespace).toBe('defillama')
        expect(res.errors.filter((e) => e.severity !== 'info')).toEqual([])
        const files = Object.keys(fs.dump().files).map((f) => f.replace(/--[a-f0-9]{8}\./, '--<hash>.'))
        expect(files).toEqual([
            '/island/providers/defillama/coins/schema/coins--2026-05-30T19-44-23Z--<hash>.mjs',
            '/island/providers/defillama/index.json',
            '/island/providers/defillama/prices/resources/about/defillama-about--2026-05-30T19-44-23Z--<hash>.md',
            '/island/providers/defillama/prices/schema/prices--2026-05-30T19-44-23Z--<hash>.mjs',
            '/island/providers/defillama/prices/skills/summarizePrices/summarizePrices--2026-05-30T19-44-23Z--<hash>.mjs'
        ])
        expect(fs.dump().directories).toContain('/island/providers/defillama/prices/tools/getLastPrice')
        expect(res.index?.schemas.prices?.snapshot?.hash).toBe(res.imported.find((i) => i.schema === 'prices')?.hash)
        expect(Object.keys(res.index?.schemas.prices?.tools ?? {})).toEqual(['getFirstPrice', 'getLastPrice'])
    })

    it('stores each snapshot byte-identical to its source and never modifies the source text', async () => {
        const fs = createMemoryFs()
        const res = await Island.importProvider({ fs, root: ROOT, files: FILES, now: NOW })
        const snap = res.imported.find((i) => i.schema === 'prices')?.file as string
        expect(await fs.readFile(`${ROOT}/providers/defillama/prices/schema/${snap}`)).toBe(FILES[0]?.text)
    })

    it('skips an unchanged source on re-import and snapshots a changed one beside the old', async () => {
        const fs = createMemoryFs()
        await Island.importProvider({ fs, root: ROOT, files: FILES, now: NOW })
        const same = await Island.importProvider({ fs, root: ROOT, files: FILES, now: '2026-06-01T00:00:00Z' })
        expect(same.imported.map((i) => i.created)).toEqual([false, false])
        const changed = { ...prices, description: 'New description.' }
        const next = await Island.importProvider({
            fs,
            root: ROOT,
            files: [{ name: 'prices.mjs', text: moduleText(changed), main: changed }, ...FILES.slice(1)],
            now: '2026-06-02T00:00:00Z'
        })
        expect(next.imported.find((i) => i.schema === 'prices')?.created).toBe(true)
        expect(Object.keys(fs.dump().files).filter((f) => f.includes('/prices/schema/'))).toHaveLength(2)
    })

    it('invalidates graded nodes of a changed schema to pending with the reason', async () => {
        const fs = createMemoryFs()
        const first = await Island.importProvider({ fs, root: ROOT, files: FILES, now: NOW })
        const hash = first.imported.find((i) => i.schema === 'prices')?.hash
        await Island.writeGrading({
            fs,
            root: ROOT,
            target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' },
            entry: makeEntry({ area: 'single-test', schemaHash: hash }),
            now: '2026-05-31T00:00:00Z'
        })
        const changed = { ...prices, description: 'New description.' }
        const next = await Island.importProvider({
            fs,
            root: ROOT,
            files: [{ name: 'prices.mjs', text: moduleText(changed), main: changed }],
            now: '2026-06-02T00:00:00Z'
        })
        expect(next.index?.schemas.prices?.tools.getFirstPrice).toMatchObject({
            status: 'pending',
            reason: 'content changed, regrade required'
        })
    })

    it('aborts on a handler-only edit (same schema hash, other bytes) and writes nothing (⚠ C12)', async () => {
        const fs = createMemoryFs()
        await Island.importProvider({ fs, root: ROOT, files: FILES, now: NOW })
        const before = fs.dump()
        const res = await Island.importProvider({
            fs,
            root: ROOT,
            files: [
                { ...FILES[0], text: moduleText(prices, 'export const handlers = () => ({})\n') } as (typeof FILES)[0]
            ],
            now: '2026-06-01T00:00:00Z'
        })
        expect(res.status).toBe(false)
        expect(res.errors.map((e) => e.code)).toContain('SNP-004')
        expect(fs.dump()).toEqual(before)
    })

    it('asserts one namespace per folder and aborts before writing (IMP-005)', async () => {
        const fs = createMemoryFs()
        const other = makeMain('binance', 'Ticker', ['getTicker'])
        const res = await Island.importProvider({
            fs,
            root: ROOT,
            files: [...FILES, { name: 'ticker.mjs', text: moduleText(other), main: other }],
            now: NOW
        })
        expect(res).toMatchObject({ status: false, errors: [{ code: 'IMP-005' }] })
        expect(fs.dump().directories).toEqual(['/'])
    })

    it('does not import a schema that fails the gate and reports it (IMP-002), importing the rest', async () => {
        const fs = createMemoryFs()
        const broken = { namespace: 'defillama', name: '', tools: [] }
        const res = await Island.importProvider({
            fs,
            root: ROOT,
            files: [...FILES, { name: 'broken.mjs', text: 'x', main: broken }],
            now: NOW
        })
        expect(res.status).toBe(true)
        expect(res.errors.find((e) => e.code === 'IMP-002')?.message).toContain('broken.mjs')
        expect(res.imported.map((i) => i.schema)).toEqual(['coins', 'prices'])
    })

    it.each([
        { name: 'no schema files at all', files: [{ name: 'resources/x.md', text: '' }], code: 'IMP-001' },
        {
            name: 'a schema module exporting no main',
            files: [{ name: 'prices.mjs', text: 'export const other = 1\n' }],
            code: 'IMP-010'
        },
        {
            name: 'a schema whose main is code (sources are never executed)',
            files: [{ name: 'prices.mjs', text: 'export const main = load()\n' }],
            code: 'SRC-002'
        },
        {
            name: 'a schema declaring no namespace',
            files: [{ name: 'prices.mjs', text: 'x', main: { name: 'P', tools: {} } }],
            code: 'IMP-004'
        },
        {
            name: 'a file base with no island name (over 200 characters escaped)',
            files: [{ name: `${'-'.repeat(80)}.mjs`, text: 'x', main: prices }],
            code: 'IMP-003'
        },
        { name: 'both files and sourceDir', files: FILES, sourceDir: '/src', code: 'IMP-001' }
    ])('fails for $name with $code', async ({ files, code, ...rest }) => {
        const fs = createMemoryFs()
        const res = await Island.importProvider({ fs, root: ROOT, files, now: NOW, ...rest })
        expect(res.status).toBe(false)
        expect(res.errors.map((e) => e.code)).toContain(code)
        expect(fs.dump().directories).toEqual(['/'])
    })

    it('reads a provider folder through the port and loads mains with an explicit trustedLoader', async () => {
        const fs = createMemoryFs({
            '/src/defillama/prices.mjs': moduleText(prices),
            '/src/defillama/_draft.mjs': 'ignored',
            '/src/defillama/resources/defillama-about.md': '# DefiLlama\n',
            '/src/defillama/skills/summarizePrices.mjs': 'export const skill = {}\n'
        })
        const loaded: string[] = []
        const schemaLoader = {
            load: async (path: string) => (
                loaded.push(path),
                path.endsWith('prices.mjs') ? { main: prices } : { skill: { requires: { tools: ['getFirstPrice'] } } }
            )
        }
        const res = await Island.importProvider({
            fs,
            root: ROOT,
            sourceDir: '/src/defillama',
            trustedLoader: schemaLoader,
            now: NOW
        })
        expect(res.status).toBe(true)
        expect(loaded).toEqual(['/src/defillama/prices.mjs', '/src/defillama/skills/summarizePrices.mjs'])
        expect(res.about?.schema).toBe('prices')
        expect(res.skills).toMatchObject([{ name: 'summarizePrices', schema: 'prices' }])
    })

    it('turns a rejecting trustedLoader into IMP-010', async () => {
        const fs = createMemoryFs({ '/src/p/prices.mjs': 'x' })
        const res = await Island.importProvider({
            fs,
            root: ROOT,
            sourceDir: '/src/p',
            trustedLoader: { load: async () => Promise.reject(new Error('SyntaxError')) },
            now: NOW
        })
        expect(res.errors.map((e) => e.code)).toEqual(['IMP-010', 'IMP-001'])
    })

    it('places namespace skills per ⚠ C3 and reports the choice (IMP-012)', async () => {
        const fs = createMemoryFs()
        const files = [
            ...FILES.slice(0, 3),
            { name: 'skills/coinLookup.mjs', text: 'a', skill: { requires: { tools: ['getCoin'] } } },
            { name: 'skills/overview.mjs', text: 'b', skill: { requires: { tools: ['getCoin', 'getFirstPrice'] } } },
            { name: 'skills/notes.mjs', text: 'c' }
        ]
        const res = await Island.importProvider({ fs, root: ROOT, files, now: NOW })
        expect(res.skills.map((s) => [s.name, s.schema])).toEqual([
            ['coinLookup', 'coins'],
            ['notes', 'prices'],
            ['overview', 'prices']
        ])
        expect(res.errors.filter((e) => e.code === 'IMP-012')).toHaveLength(3)
    })

    it('normalises legacy inline skills into skill files beside their schema', async () => {
        const fs = createMemoryFs()
        const legacy = { ...coins, skills: [{ name: 'coinSummary', content: 'Summarise a coin.' }] }
        const res = await Island.importProvider({
            fs,
            root: ROOT,
            files: [{ name: 'coins.mjs', text: moduleText(legacy), main: legacy }],
            now: NOW
        })
        expect(res.skills).toMatchObject([{ name: 'coinSummary', schema: 'coins' }])
        const file = Object.keys(fs.dump().files).find((f) => f.includes('/skills/coinSummary/')) as string
        expect(await fs.readFile(file)).toContain('export const skill = {')
    })

    it('reports a declared but missing About (IMP-011) and the index shows the About blocked (⚠ C21)', async () => {
        const fs = createMemoryFs()
        const res = await Island.importProvider({ fs, root: ROOT, files: FILES.slice(0, 2), now: NOW })
        expect(res.errors.map((e) => e.code)).toContain('IMP-011')
        expect(res.index?.about).toMatchObject({ status: 'blocked' })
        expect(res.index?.about.reason).toMatch(/^IDX-014: /)
    })

    it('rejects unusable arguments before touching the port', async () => {
        const { port, calls } = recording(createMemoryFs())
        const res = await Island.importProvider({ fs: port, root: ROOT, files: 'prices.mjs', now: 'now' })
        expect(res.errors.map((e) => e.code)).toEqual(['ISL-002'])
        expect(calls).toEqual([])
    })

    it('imports the tool keys and file names the runtime loads under reversible island names (path-like keys, a leading --)', async () => {
        const fs = createMemoryFs()
        const wallet = makeMain('walletdemo', 'Wallet Routes', ['/block/:block_number_or_hash', 'getPnl'])
        const res = await Island.importProvider({
            fs,
            root: ROOT,
            files: [{ name: '--pnlRoutes.mjs', text: moduleText(wallet), main: wallet }],
            now: NOW
        })
        expect(res.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(res.imported).toEqual([
            expect.objectContaining({
                schema: 'esc__2d_2dpnlRoutes',
                tools: ['esc__2fblock_2f_3ablock_5fnumber_5for_5fhash', 'getPnl']
            })
        ])
        expect(Island.originalName({ name: res.imported[0]?.schema }).name).toBe('--pnlRoutes')
        expect(Island.originalName({ name: res.imported[0]?.tools[0] }).name).toBe('/block/:block_number_or_hash')
        expect(
            await fs.stat(
                `${ROOT}/providers/walletdemo/esc__2d_2dpnlRoutes/tools/esc__2fblock_2f_3ablock_5fnumber_5for_5fhash`
            )
        ).toMatchObject({ kind: 'directory' })
    })
})

describe('Island.islandName and Island.originalName (reversible island names)', () => {
    it.each([
        ['getBalance', 'tool', 'getBalance'],
        ['tokenApi-part2', 'schema', 'tokenApi-part2'],
        ['--pnlRoutes', 'schema', 'esc__2d_2dpnlRoutes'],
        ['/block/:hash', 'tool', 'esc__2fblock_2f_3ahash'],
        ['esc_x', 'tool', 'esc_esc_5fx'],
        ['Grüße', 'skill', 'esc_Gr_c3_bc_c3_9fe']
    ] as const)('maps %j (%s) to %j and back', (name, kind, mapped) => {
        expect(Island.islandName({ name, kind })).toEqual({ name: mapped, errors: [] })
        expect(Island.originalName({ name: mapped })).toEqual({ name, errors: [] })
    })

    it('is one to one on any string (property)', async () => {
        const fc = (await import('fast-check')).default
        fc.assert(
            fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (name) => {
                const { name: mapped, errors } = Island.islandName({ name: name === '' ? 'x' : name, kind: 'tool' })
                // Thirty four-byte characters escape past the file-name limit: refused with its code, never cut.
                if (mapped === null) {
                    expect(errors.map((e) => e.code)).toEqual(['ISL-003'])
                    return
                }
                expect(Island.originalName({ name: mapped }).name).toBe(name === '' ? 'x' : name)
            })
        )
    })

    it.each([
        ['a missing name', {}, 'ISL-001'],
        ['a non-string name', { name: 7, kind: 'tool' }, 'ISL-002'],
        ['an unknown kind', { name: 'x', kind: 'folder' }, 'ISL-002'],
        ['a name too long even escaped', { name: '/'.repeat(80), kind: 'tool' }, 'ISL-003']
    ])('refuses %s with a code', (_name, input, code) => {
        expect(Island.islandName(input as never)).toEqual({ name: null, errors: [expect.objectContaining({ code })] })
    })

    it('refuses a malformed escaped name', () => {
        expect(Island.originalName({ name: 'esc__zz' })).toEqual({
            name: null,
            errors: [expect.objectContaining({ code: 'ISL-004' })]
        })
        expect(Island.originalName({ name: 42 })).toEqual({
            name: null,
            errors: [expect.objectContaining({ code: 'ISL-002' })]
        })
    })
})

describe('Island.exportTarget', () => {
    async function imported(): Promise<
        FsPort & { dump: () => { files: Record<string, string>; directories: string[] } }
    > {
        const fs = createMemoryFs()
        await Island.importProvider({ fs, root: ROOT, files: FILES, now: NOW })
        return fs
    }

    it('hands off index.json byte for byte and the current artefacts under clean names', async () => {
        const fs = await imported()
        const res = await Island.exportTarget({
            fs,
            root: ROOT,
            target: { namespace: 'defillama' },
            exportDir: '/out/defillama',
            includeSchemas: true
        })
        expect(res.status).toBe(true)
        expect(res.flow).toBe('namespace')
        expect(await fs.readFile('/out/defillama/index.json')).toBe(
            await fs.readFile(`${ROOT}/providers/defillama/index.json`)
        )
        expect(Object.keys(fs.dump().files).filter((f) => f.startsWith('/out/'))).toEqual([
            '/out/defillama/coins.mjs',
            '/out/defillama/index.json',
            '/out/defillama/prices.mjs',
            '/out/defillama/resources/defillama-about.md',
            '/out/defillama/skills/summarizePrices.mjs'
        ])
    })

    it('round-trips: importing the export into a fresh island gives the same snapshots and hashes', async () => {
        const fs = await imported()
        await Island.exportTarget({
            fs,
            root: ROOT,
            target: { namespace: 'defillama' },
            exportDir: '/out/defillama',
            includeSchemas: true
        })
        const schemaLoader = {
            load: async (path: string) =>
                path.endsWith('prices.mjs')
                    ? { main: prices }
                    : path.endsWith('coins.mjs')
                      ? { main: coins }
                      : { skill: { requires: { tools: ['getFirstPrice'] } } }
        }
        const again = await Island.importProvider({
            fs,
            root: '/island2',
            sourceDir: '/out/defillama',
            trustedLoader: schemaLoader,
            now: NOW
        })
        expect(again.status).toBe(true)
        const strip = (root: string): string[] =>
            Object.entries(fs.dump().files)
                .filter(([f]) => f.startsWith(`${root}/`) && !f.endsWith('index.json'))
                .map(([f, text]) => `${f.slice(root.length)}=${text.length}`)
        expect(strip('/island2')).toEqual(strip(ROOT))
    })

    it('exports into <exportRoot>/<name>--<ts> when given an export root (⚠ C22)', async () => {
        const fs = await imported()
        const res = await Island.exportTarget({
            fs,
            root: ROOT,
            target: { namespace: 'defillama' },
            exportRoot: '/out',
            now: '2026-06-01T10:00:00Z'
        })
        expect(res.exportDir).toBe('/out/defillama--2026-06-01T10-00-00Z')
        expect(res.files).toEqual([])
    })

    it.each([
        {
            name: 'an existing export folder (never overwritten)',
            args: { exportDir: '/out/existing' },
            code: 'EXP-003'
        },
        {
            name: 'an export folder inside the island (never writes into the source)',
            args: { exportDir: `${ROOT}/providers/defillama/export` },
            code: 'EXP-006'
        },
        {
            name: 'a namespace without index.json',
            args: { exportDir: '/out/x', target: { namespace: 'unknown' } },
            code: 'EXP-005'
        },
        {
            name: 'an ambiguous target',
            args: { exportDir: '/out/x', target: { namespace: 'defillama', selection: 'defi' } },
            code: 'EXP-002'
        },
        { name: 'a non-boolean includeSchemas', args: { exportDir: '/out/x', includeSchemas: 'yes' }, code: 'EXP-001' }
    ])('refuses $name with $code', async ({ args, code }) => {
        const fs = await imported()
        await fs.mkdir('/out/existing')
        const before = fs.dump()
        const res = await Island.exportTarget({ fs, root: ROOT, target: { namespace: 'defillama' }, ...args })
        expect(res.status).toBe(false)
        expect(res.errors[0]?.code).toBe(code)
        expect(fs.dump()).toEqual(before)
    })
})
