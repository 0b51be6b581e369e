import { describe, expect, it } from 'vitest'
import { Island, RebuildIndex, type FsPort } from '../../src/index.js'
import { ADAPTERS } from '../ports/adapters.js'
import { makeEntry, makeMain, moduleText } from './support.js'

const NOW = '2026-05-31T12:00:00Z'
const prices = makeMain('defillama', 'Prices', ['getFirstPrice', 'getLastPrice'])
const FILES = [{ name: 'prices.mjs', text: moduleText(prices), main: prices }]

/** Every port call yields first, so concurrent operations interleave call by call. */
function interleaved(fs: FsPort): FsPort {
    const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))
    return Object.fromEntries(
        Object.entries(fs).map(([k, fn]) => [
            k,
            async (...args: unknown[]) => (await tick(), (fn as (...a: unknown[]) => Promise<unknown>)(...args))
        ])
    ) as unknown as FsPort
}

describe.each(ADAPTERS)('several writers ($name)', ({ make }) => {
    it('lets 20 concurrent rebuilds of one namespace all succeed with the same final bytes', async () => {
        const { fs, root, dispose } = await make()
        try {
            const imported = await Island.importProvider({
                fs,
                root: `${root}/island`,
                files: FILES,
                now: '2026-05-30T19:44:23Z'
            })
            expect(imported.status).toBe(true)
            await fs.rm(`${root}/island/providers/defillama/index.json`)
            const port = interleaved(fs)
            const namespaceDir = `${root}/island/providers/defillama`
            const results = await Promise.all(
                Array.from({ length: 20 }, () =>
                    RebuildIndex.rebuildNamespaceIndex({ fs: port, namespaceDir, now: NOW })
                )
            )
            expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => true))
            const final = await fs.readFile(`${namespaceDir}/index.json`)
            const sequential = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir, now: NOW })
            expect(sequential.written).toBe(false)
            expect(await fs.readFile(`${namespaceDir}/index.json`)).toBe(final)
            expect((await fs.readdir(namespaceDir))?.filter((e) => e.name.endsWith('.tmp'))).toEqual([])
        } finally {
            await dispose()
        }
    })

    it('loses no entry when graders of different tools write and rebuild at once, and the index ends up current', async () => {
        const { fs, root, dispose } = await make()
        try {
            const imported = await Island.importProvider({
                fs,
                root: `${root}/island`,
                files: FILES,
                now: '2026-05-30T19:44:23Z'
            })
            const hash = imported.imported[0]?.hash as string
            const port = interleaved(fs)
            const tools = ['getFirstPrice', 'getLastPrice']
            const results = await Promise.all(
                tools.flatMap((tool, i) =>
                    ['B', 'C'].map((grade, j) =>
                        Island.writeGrading({
                            fs: port,
                            root: `${root}/island`,
                            target: { namespace: 'defillama', schema: 'prices', tool },
                            entry: makeEntry({
                                area: 'single-test',
                                schemaId: 'defillama.prices',
                                schemaHash: hash,
                                grade: grade as 'B' | 'C',
                                timestamp: `2026-05-31T1${i}:0${j}:00Z`
                            }),
                            now: `2026-05-31T1${i}:0${j}:00Z`
                        })
                    )
                )
            )
            expect(results.map((r) => r.errors.filter((e) => e.severity === 'error'))).toEqual([[], [], [], []])
            for (const r of results) expect(await fs.readFile(r.path as string)).not.toBeNull()
            // The index reflects the folder as it is after the last writer: each tool's newest entry.
            const index = JSON.parse(
                (await fs.readFile(`${root}/island/providers/defillama/index.json`)) as string
            ) as { schemas: { prices: { tools: Record<string, { ref: string }> } } }
            expect(index.schemas.prices.tools.getFirstPrice?.ref).toBe(
                'prices/tools/getFirstPrice/_gradings/single-test--2026-05-31T10-01-00Z.json'
            )
            expect(index.schemas.prices.tools.getLastPrice?.ref).toBe(
                'prices/tools/getLastPrice/_gradings/single-test--2026-05-31T11-01-00Z.json'
            )
        } finally {
            await dispose()
        }
    })

    it('never reports success for two equal-length entries racing for one name: one is written, the other gets FS-002', async () => {
        const { fs, root, dispose } = await make()
        try {
            const imported = await Island.importProvider({
                fs,
                root: `${root}/island`,
                files: FILES,
                now: '2026-05-30T19:44:23Z'
            })
            const hash = imported.imported[0]?.hash as string
            const port = interleaved(fs)
            const target = { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' }
            const entries = (['B', 'C'] as const).map((grade) =>
                makeEntry({
                    area: 'single-test',
                    schemaId: 'defillama.prices',
                    schemaHash: hash,
                    grade,
                    timestamp: NOW
                })
            )
            expect(JSON.stringify(entries[0]).length).toBe(JSON.stringify(entries[1]).length)
            const results = await Promise.all(
                entries.map((entry) =>
                    Island.writeGrading({ fs: port, root: `${root}/island`, target, entry, now: NOW })
                )
            )
            const winners = results.filter((r) => r.status)
            // Monotonic naming may give the second writer the next second; either way nothing is lost or mixed up.
            for (const r of winners)
                expect(JSON.parse((await fs.readFile(r.path as string)) as string)).toEqual(entries[results.indexOf(r)])
            for (const r of results.filter((x) => !x.status)) expect(r.errors.map((e) => e.code)).toContain('FS-002')
        } finally {
            await dispose()
        }
    })
})
