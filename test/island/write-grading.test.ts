import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    Island,
    PreConditionCheck,
    ProviderProof,
    RebuildIndex,
    type FsPort,
    type MemoryFs
} from '../../src/index.js'
import { makeEntry, makeMain, moduleText } from './support.js'

const ROOT = '/island'
const NOW = '2026-05-31T11:05:00Z'
const prices = makeMain('defillama', 'Prices', ['getFirstPrice'], {
    resources: { about: { source: 'markdown', origin: 'inline', name: 'defillama-about.md', description: 'About' } }
})

async function island(): Promise<{ fs: MemoryFs; hash: string }> {
    const fs = createMemoryFs()
    const res = await Island.importProvider({
        fs,
        root: ROOT,
        files: [
            { name: 'prices.mjs', text: moduleText(prices), main: prices },
            { name: 'resources/defillama-about.md', text: '# About\n' },
            { name: 'skills/summarizePrices.mjs', text: 'export const skill = {}\n' }
        ],
        now: '2026-05-30T19:44:23Z'
    })
    return { fs, hash: res.imported[0]?.hash as string }
}

const TOOL = { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' }

describe('Island.writeGrading', () => {
    it('writes the entry at its _gradings place under the grammar name and rebuilds the index (ch. 23)', async () => {
        const { fs, hash } = await island()
        const res = await Island.writeGrading({
            fs,
            root: ROOT,
            target: TOOL,
            entry: makeEntry({ area: 'single-test', schemaHash: hash }),
            now: NOW
        })
        expect(res).toMatchObject({
            status: true,
            file: 'single-test--2026-05-31T11-05-00Z.json',
            path: `${ROOT}/providers/defillama/prices/tools/getFirstPrice/_gradings/single-test--2026-05-31T11-05-00Z.json`
        })
        expect(JSON.parse((await fs.readFile(res.path as string)) as string)).toEqual(
            makeEntry({ area: 'single-test', schemaHash: hash })
        )
        const index = JSON.parse((await fs.readFile(`${ROOT}/providers/defillama/index.json`)) as string)
        expect(index.schemas.prices.tools.getFirstPrice).toMatchObject({
            status: 'stable',
            grade: 'B',
            ref: 'prices/tools/getFirstPrice/_gradings/single-test--2026-05-31T11-05-00Z.json',
            boundTo: hash
        })
    })

    it('names persona-bound entries <area>--<basePersona>--<lens>--<ts>.json (⚠ C6)', async () => {
        const { fs, hash } = await island()
        const res = await Island.writeGrading({
            fs,
            root: ROOT,
            target: { namespace: 'defillama', schema: 'prices', skill: 'summarizePrices' },
            entry: makeEntry({ area: 'namespace-skills', schemaHash: hash, lens: 'crypto-trader' }),
            now: NOW
        })
        expect(res.file).toBe('namespace-skills--decision-maker--crypto-trader--2026-05-31T11-05-00Z.json')
        expect(res.index && 'skills' in res.index ? res.index.skills['prices.summarizePrices']?.status : null).toBe(
            'stable'
        )
    })

    it('never overwrites: a second entry in the same second moves one second on (⚠ A13)', async () => {
        const { fs, hash } = await island()
        const first = await Island.writeGrading({
            fs,
            root: ROOT,
            target: TOOL,
            entry: makeEntry({ area: 'single-test', schemaHash: hash, grade: 'B' }),
            now: NOW
        })
        const second = await Island.writeGrading({
            fs,
            root: ROOT,
            target: TOOL,
            entry: makeEntry({ area: 'single-test', schemaHash: hash, grade: 'C' }),
            now: NOW
        })
        expect(second.file).toBe('single-test--2026-05-31T11-05-01Z.json')
        expect(second.errors).toContainEqual(expect.objectContaining({ code: 'ISL-INFO-001' }))
        expect(await fs.readFile(first.path as string)).toContain('"aggregateGrade": "B"')
        expect(
            second.index && 'schemas' in second.index ? second.index.schemas.prices?.tools.getFirstPrice?.grade : null
        ).toBe('C')
    })

    it('keeps a folder monotonic when the clock goes backwards, so the new entry is the newest', async () => {
        const { fs, hash } = await island()
        await Island.writeGrading({
            fs,
            root: ROOT,
            target: TOOL,
            entry: makeEntry({ area: 'single-test', schemaHash: hash, grade: 'B' }),
            now: NOW
        })
        const late = await Island.writeGrading({
            fs,
            root: ROOT,
            target: TOOL,
            entry: makeEntry({ area: 'single-test', schemaHash: hash, grade: 'D' }),
            now: '2026-05-01T00:00:00Z'
        })
        expect(late.file).toBe('single-test--2026-05-31T11-05-01Z.json')
    })

    it('validates the entry with validateGradingEntry and writes nothing when it is invalid', async () => {
        const { fs, hash } = await island()
        const before = fs.dump()
        const bad = { ...makeEntry({ area: 'single-test', schemaHash: hash }), aggregateGrade: 'A' }
        const res = await Island.writeGrading({ fs, root: ROOT, target: TOOL, entry: bad, now: NOW })
        expect(res.status).toBe(false)
        expect(res.errors[0]).toMatchObject({ code: 'GRD-013', path: '/entry/aggregateGrade' })
        expect(fs.dump()).toEqual(before)
    })

    it.each([
        {
            name: 'a target that does not fit the area',
            target: { namespace: 'defillama', schema: 'prices' },
            entry: { area: 'single-test' },
            code: 'ISL-006'
        },
        {
            name: 'an entry for another schema',
            target: TOOL,
            entry: { area: 'single-test', schemaId: 'defillama.coins' },
            code: 'ISL-008'
        },
        {
            name: 'an entry for another skill',
            target: { namespace: 'defillama', schema: 'prices', skill: 'summarizePrices' },
            entry: { area: 'namespace-skills', skillId: 'other' },
            code: 'ISL-008'
        },
        {
            name: 'a tool that was never imported',
            target: { ...TOOL, tool: 'getNothing' },
            entry: { area: 'single-test' },
            code: 'ISL-009'
        },
        {
            name: 'a namespace that was never imported',
            target: { namespace: 'binance' },
            entry: { area: 'namespace-description', schemaId: 'binance.ticker' },
            code: 'ISL-009'
        },
        {
            name: 'a selection that was never imported',
            target: { selection: 'defi-core' },
            entry: { area: 'selection-aggregate', grade: 'A' as const },
            code: 'ISL-009'
        },
        {
            name: 'an unsafe tool name',
            target: { ...TOOL, tool: '../../etc' },
            entry: { area: 'single-test' },
            code: 'ISL-003'
        }
    ])('refuses $name with $code and writes nothing', async ({ target, entry, code }) => {
        const { fs, hash } = await island()
        const before = fs.dump()
        const res = await Island.writeGrading({
            fs,
            root: ROOT,
            target,
            entry: makeEntry({ schemaHash: hash, ...entry }),
            now: NOW
        })
        expect(res.status).toBe(false)
        expect(res.errors.map((e) => e.code)).toContain(code)
        expect(fs.dump()).toEqual(before)
    })

    it('removes the entry again when the index rebuild fails (all or nothing)', async () => {
        const { fs, hash } = await island()
        const before = fs.dump()
        const failingRename: FsPort = {
            ...fs,
            rename: async (a, b) => (b.endsWith('index.json') ? Promise.reject(new Error('EROFS')) : fs.rename(a, b))
        }
        const res = await Island.writeGrading({
            fs: failingRename,
            root: ROOT,
            target: TOOL,
            entry: makeEntry({ area: 'single-test', schemaHash: hash }),
            now: NOW
        })
        expect(res.status).toBe(false)
        expect(res.errors.map((e) => e.code)).toEqual(expect.arrayContaining(['IDX-008', 'FS-001']))
        expect(fs.dump()).toEqual(before)
    })
})

describe('Island.startGradingRun and PreConditionCheck', () => {
    async function withSelection(): Promise<{ fs: MemoryFs; hash: string }> {
        const base = await island()
        await base.fs.mkdir(`${ROOT}/selections/defi-core/selection`)
        await base.fs.writeFile(
            `${ROOT}/selections/defi-core/selection/defi-core--2026-05-30T09-00-00Z--ef67ab12.json`,
            JSON.stringify({
                selectionId: 'defi-core',
                members: [{ schemaId: 'defillama.prices', override: { name: 'Prices' } }]
            })
        )
        return base
    }

    it('freezes member pins once; rebuilds keep the lockSnapshot byte for byte while the live part moves on', async () => {
        const { fs, hash } = await withSelection()
        const run = await Island.startGradingRun({
            fs,
            root: ROOT,
            target: { selection: 'defi-core' },
            now: '2026-06-01T10:00:00Z'
        })
        expect(run.status).toBe(true)
        expect(run.lockSnapshot).toEqual({
            selectionId: 'defi-core',
            selectionVersion: '2026-05-30T09-00-00Z',
            selectionHash: 'ef67ab12',
            generatedAt: '2026-06-01T10-00-00Z',
            members: [
                {
                    schemaId: 'defillama.prices',
                    schemaVersion: '2026-05-30T19-44-23Z',
                    schemaHash: hash,
                    gradingStatus: 'pending',
                    override: { name: 'Prices' }
                }
            ]
        })
        const lockText = (text: string): string => text.slice(text.indexOf('"lockSnapshot"'))
        const frozen = lockText((await fs.readFile(`${ROOT}/selections/defi-core/index.json`)) as string)
        await Island.writeGrading({
            fs,
            root: ROOT,
            target: { namespace: 'defillama', schema: 'prices' },
            entry: makeEntry({ area: 'tools-aggregate-schema', schemaHash: hash }),
            now: '2026-06-01T11:00:00Z'
        })
        // Every tool graded too: a schema's standing is that of its whole subtree.
        for (const tool of Object.keys(prices.tools as Record<string, unknown>))
            await Island.writeGrading({
                fs,
                root: ROOT,
                target: { namespace: 'defillama', schema: 'prices', tool },
                entry: makeEntry({ area: 'single-test', schemaHash: hash }),
                now: '2026-06-01T11:00:00Z'
            })
        const rebuilt = await RebuildIndex.rebuildSelectionIndex({
            fs,
            selectionDir: `${ROOT}/selections/defi-core`,
            providersRoot: `${ROOT}/providers`,
            now: '2026-06-01T12:00:00Z'
        })
        expect(rebuilt.index?.members['defillama.prices']?.status).toBe('stable')
        expect(lockText((await fs.readFile(`${ROOT}/selections/defi-core/index.json`)) as string)).toBe(frozen)
        const gate = PreConditionCheck.check({ index: rebuilt.index })
        expect(gate).toMatchObject({
            passed: false,
            missingSingleGradings: ['defillama.prices'],
            errors: [{ code: 'PRE-004' }]
        })
        await Island.startGradingRun({
            fs,
            root: ROOT,
            target: { selection: 'defi-core' },
            now: '2026-06-01T13:00:00Z'
        })
        const refrozen = JSON.parse((await fs.readFile(`${ROOT}/selections/defi-core/index.json`)) as string)
        expect(PreConditionCheck.check({ index: refrozen }).passed).toBe(true)
    })

    it('freezes a namespace lockSnapshot with its schemas as members (⚠ C17)', async () => {
        const { fs, hash } = await island()
        const run = await Island.startGradingRun({
            fs,
            root: ROOT,
            target: { namespace: 'defillama' },
            now: '2026-06-01T10:00:00Z'
        })
        expect(run.lockSnapshot).toEqual({
            namespace: 'defillama',
            generatedAt: '2026-06-01T10-00-00Z',
            members: [
                {
                    schemaId: 'defillama.prices',
                    schemaVersion: '2026-05-30T19-44-23Z',
                    schemaHash: hash,
                    gradingStatus: 'pending',
                    override: null
                }
            ]
        })
    })

    it('refuses an invalid override key in the selection definition', async () => {
        const { fs } = await withSelection()
        await fs.writeFile(
            `${ROOT}/selections/defi-core/selection/defi-core--2026-05-31T09-00-00Z--0000abcd.json`,
            JSON.stringify({
                selectionId: 'defi-core',
                members: [{ schemaId: 'defillama.prices', override: { tools: {} } }]
            })
        )
        const run = await Island.startGradingRun({
            fs,
            root: ROOT,
            target: { selection: 'defi-core' },
            now: '2026-06-01T10:00:00Z'
        })
        expect(run.status).toBe(false)
        expect(run.errors.filter((e) => e.severity === 'error').map((e) => e.code)).toEqual(['IDX-002'])
    })

    it('refuses a target that is neither one namespace nor one selection', async () => {
        const { fs } = await island()
        expect(
            (await Island.startGradingRun({ fs, root: ROOT, target: { namespace: 'a', selection: 'b' }, now: NOW }))
                .errors[0]?.code
        ).toBe('ISL-002')
        expect(
            (await Island.startGradingRun({ fs, root: ROOT, target: { selection: '../x' }, now: NOW })).errors[0]?.code
        ).toBe('ISL-003')
    })
})

describe('ProviderProof.write', () => {
    it('writes grade.json from the index and keeps a non-null monitoring.githubIssue across re-runs', async () => {
        const { fs } = await island()
        const index = JSON.parse((await fs.readFile(`${ROOT}/providers/defillama/index.json`)) as string)
        const first = await ProviderProof.write({ fs, dir: '/export/providers/defillama', index, now: NOW })
        expect(first.proof).toMatchObject({
            proofVersion: 1,
            namespace: 'defillama',
            generatedAt: '2026-05-31T11:05:00Z',
            status: index.status,
            monitoring: { githubIssue: null, boardColumn: null }
        })
        const onDisk = JSON.parse((await fs.readFile('/export/providers/defillama/grade.json')) as string)
        await fs.writeFile(
            '/export/providers/defillama/grade.json',
            JSON.stringify({ ...onDisk, monitoring: { githubIssue: 4242, boardColumn: null } })
        )
        const second = await ProviderProof.write({
            fs,
            dir: '/export/providers/defillama',
            index,
            now: '2026-06-01T00:00:00Z'
        })
        expect(second.proof?.monitoring).toEqual({ githubIssue: 4242, boardColumn: null })
        expect(Object.keys(fs.dump().files).filter((f) => f.endsWith('grade.json'))).toEqual([
            '/export/providers/defillama/grade.json'
        ])
    })

    it.each([
        { args: { index: undefined }, code: 'PRF-001' },
        { args: { index: [] }, code: 'PRF-002' },
        { args: { dir: '' }, code: 'PRF-003' },
        {
            args: {
                index: { namespace: 'x', status: 'pending', namespaceAggregate: {}, schemas: {}, blockers: 'none' }
            },
            code: 'PRF-002'
        }
    ])('rejects bad input with $code', async ({ args, code }) => {
        const res = await ProviderProof.write({
            fs: createMemoryFs(),
            dir: '/out',
            index: { namespace: 'x', status: 'pending', namespaceAggregate: {}, schemas: {}, blockers: [] },
            now: NOW,
            ...args
        })
        expect(res.status).toBe(false)
        expect(res.errors[0]?.code).toBe(code)
    })

    it('warns when an existing grade.json is unreadable and writes a fresh one (PRF-004)', async () => {
        const fs = createMemoryFs({ '/out/grade.json': '{broken' })
        const res = await ProviderProof.write({
            fs,
            dir: '/out',
            index: {
                namespace: 'x',
                status: 'pending',
                namespaceAggregate: { status: 'pending' },
                schemas: {},
                blockers: []
            },
            now: NOW
        })
        expect(res.status).toBe(true)
        expect(res.errors[0]?.code).toBe('PRF-004')
    })

    it('reports a failed write as PRF-008', async () => {
        const fs: FsPort = { ...createMemoryFs(), writeFile: async () => Promise.reject(new Error('ENOSPC')) }
        const res = await ProviderProof.write({
            fs,
            dir: '/out',
            index: { namespace: 'x', status: 'pending', namespaceAggregate: {}, schemas: {}, blockers: [] },
            now: NOW
        })
        expect(res.errors[0]?.code).toBe('PRF-008')
    })
})
