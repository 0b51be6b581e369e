import { describe, expect, it } from 'vitest'
import { Island, ProviderProof, RebuildIndex, SourceSnapshot, type FsPort, type Issue } from '../../src/index.js'
import { failingOn, makeEntry, makeMain, moduleText, snapshotTree } from '../island/support.js'
import { ADAPTERS } from './adapters.js'

const NOW = '2026-05-31T12:00:00Z'
const pricesMain = makeMain('defillama', 'Prices', ['getFirstPrice', 'getLastPrice'], {
    resources: {
        about: { source: 'markdown', origin: 'inline', name: 'defillama-about.md', description: 'About DefiLlama' }
    }
})
const coinsMain = makeMain('defillama', 'Coins', ['getCoin'])
const files = [
    { name: 'prices.mjs', text: moduleText(pricesMain), main: pricesMain },
    { name: 'coins.mjs', text: moduleText(coinsMain), main: coinsMain },
    { name: 'resources/defillama-about.md', text: '# DefiLlama\n\nPrices and coins.\n' },
    {
        name: 'skills/summarizePrices.mjs',
        text: 'export const skill = { name: "summarizePrices" }\n',
        skill: { requires: { tools: ['getFirstPrice'] } }
    }
]

async function importBase(fs: FsPort, root: string): Promise<string> {
    const res = await Island.importProvider({ fs, root: `${root}/island`, files, now: '2026-05-30T19:44:23Z' })
    expect(res.errors.filter((e) => e.severity === 'error')).toEqual([])
    return res.imported.find((i) => i.schema === 'prices')?.hash as string
}

async function seedSelection(fs: FsPort, root: string): Promise<void> {
    await importBase(fs, root)
    const dir = `${root}/island/selections/defi-core/selection`
    await fs.mkdir(dir)
    await fs.writeFile(
        `${dir}/defi-core--2026-05-30T09-00-00Z--ef67ab12.json`,
        JSON.stringify({
            selectionId: 'defi-core',
            members: [{ schemaId: 'defillama.prices' }, { schemaId: 'binance.ticker' }]
        })
    )
}

interface Scenario {
    readonly name: string
    readonly seed: (fs: FsPort, root: string) => Promise<unknown>
    readonly run: (fs: FsPort, root: string) => Promise<{ status: boolean; errors: Issue[] }>
}

const SCENARIOS: readonly Scenario[] = [
    {
        name: 'importProvider into an empty island',
        seed: async () => {},
        run: (fs, root) => Island.importProvider({ fs, root: `${root}/island`, files, now: NOW })
    },
    {
        name: 'importProvider of a changed schema',
        seed: importBase,
        run: (fs, root) => {
            const changed = { ...pricesMain, description: 'Changed description.' }
            return Island.importProvider({
                fs,
                root: `${root}/island`,
                files: [{ name: 'prices.mjs', text: moduleText(changed), main: changed }, ...files.slice(1)],
                now: NOW
            })
        }
    },
    {
        name: 'writeGrading',
        seed: importBase,
        run: async (fs, root) => {
            const hash = ((await fs.readdir(`${root}/island/providers/defillama/prices/schema`)) ?? [])[0]?.name.slice(
                -12,
                -4
            )
            return Island.writeGrading({
                fs,
                root: `${root}/island`,
                target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' },
                entry: makeEntry({ area: 'single-test', schemaHash: hash }),
                now: NOW
            })
        }
    },
    {
        name: 'writeGrading over an existing rebuild record',
        seed: async (fs, root) => {
            const hash = await importBase(fs, root)
            const first = await Island.writeGrading({
                fs,
                root: `${root}/island`,
                target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' },
                entry: makeEntry({ area: 'single-test', schemaHash: hash, timestamp: '2026-05-31T10:00:00Z' }),
                now: '2026-05-31T10:00:00Z'
            })
            expect(first.status).toBe(true)
            expect(await fs.readFile(`${root}/island/providers/defillama/.index-record`)).not.toBeNull()
        },
        run: async (fs, root) => {
            const hash = ((await fs.readdir(`${root}/island/providers/defillama/prices/schema`)) ?? [])[0]?.name.slice(
                -12,
                -4
            )
            return Island.writeGrading({
                fs,
                root: `${root}/island`,
                target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' },
                entry: makeEntry({ area: 'single-test', schemaHash: hash }),
                now: NOW
            })
        }
    },
    {
        name: 'SourceSnapshot.create',
        seed: importBase,
        run: async (fs, root) => {
            const res = await SourceSnapshot.create({
                fs,
                dir: `${root}/island/providers/defillama/prices/schema`,
                name: 'prices',
                ext: 'mjs',
                text: 'export const main = {}\n',
                hash: '0000beef',
                now: NOW
            })
            return { status: res.file !== null, errors: res.errors }
        }
    },
    {
        name: 'exportTarget',
        seed: importBase,
        run: (fs, root) =>
            Island.exportTarget({
                fs,
                root: `${root}/island`,
                target: { namespace: 'defillama' },
                exportDir: `${root}/out/defillama`,
                includeSchemas: true
            })
    },
    {
        name: 'startGradingRun (freezes a lockSnapshot)',
        seed: seedSelection,
        run: (fs, root) =>
            Island.startGradingRun({ fs, root: `${root}/island`, target: { selection: 'defi-core' }, now: NOW })
    },
    {
        name: 'rebuildNamespaceIndex over an existing index',
        seed: async (fs, root) => {
            await importBase(fs, root)
            await fs.writeFile(`${root}/island/providers/defillama/_stray.txt`, 'x')
        },
        run: (fs, root) =>
            RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: `${root}/island/providers/defillama`, now: NOW })
    },
    {
        name: 'ProviderProof.write over an existing grade.json',
        seed: async (fs, root) => {
            await importBase(fs, root)
            await fs.mkdir(`${root}/out`)
            await fs.writeFile(
                `${root}/out/grade.json`,
                JSON.stringify({ monitoring: { githubIssue: 4242, boardColumn: null } })
            )
        },
        run: async (fs, root) => {
            const index = JSON.parse(
                (await fs.readFile(`${root}/island/providers/defillama/index.json`)) as string
            ) as unknown
            return ProviderProof.write({ fs, dir: `${root}/out`, index, now: NOW })
        }
    }
]

describe.each(ADAPTERS)('failure injection ($name)', ({ make }) => {
    it.each(SCENARIOS)(
        '$name leaves the island exactly as before when any single write fails',
        async ({ seed, run }) => {
            // A clean run first: it must succeed and tells how many mutating calls there are.
            const clean = await make()
            await seed(clean.fs, clean.root)
            const counter = failingOn(clean.fs, Number.POSITIVE_INFINITY)
            const ok = await run(counter.port, clean.root)
            expect(ok.errors.filter((e) => e.severity === 'error')).toEqual([])
            expect(ok.status).toBe(true)
            const total = counter.calls()
            await clean.dispose()
            expect(total).toBeGreaterThan(0)

            for (let k = 1; k <= total; k += 1) {
                const { fs, root, dispose } = await make()
                try {
                    await seed(fs, root)
                    const before = await snapshotTree(fs, root)
                    const res = await run(failingOn(fs, k).port, root)
                    expect(res.status, `k=${k}`).toBe(false)
                    expect(
                        res.errors.some((e) => e.code === 'FS-001'),
                        `k=${k}`
                    ).toBe(true)
                    expect(await snapshotTree(fs, root), `k=${k}`).toEqual(before)
                } finally {
                    await dispose()
                }
            }
        }
    )
})
