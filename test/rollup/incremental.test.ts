import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    RebuildIndex,
    type FsPort,
    type GradingFileInput,
    type Issue,
    type MemoryFs
} from '../../src/index.js'
import { createIssue } from '../../src/errors/issue.js'
import { INDEX_RECORD_FILE, parseRecord, serializeRecord } from '../../src/rollup/index-record.js'
import { decodeFacts, encodeFacts, FolderState, type FolderRecord } from '../../src/rollup/folder-state.js'
import { screenGradingFile } from '../../src/rollup/digest.js'
import { makeEntry } from '../island/support.js'
import { baseNamespace, grading, gradingPath, NS_DIR, PRICES_HASH, ROOT } from './support.js'

const RECORD = `${NS_DIR}/${INDEX_RECORD_FILE}`
const INDEX = `${NS_DIR}/index.json`
const NOW = '2026-07-01T00:00:00Z'

type Node = 'tool' | 'aggregate' | 'namespace' | 'about' | 'skill'

const addArb = fc.record({
    op: fc.constant('add' as const),
    node: fc.constantFrom<Node>('tool', 'tool', 'aggregate', 'namespace', 'about', 'skill', 'skill'),
    tool: fc.constantFrom('getFirstPrice', 'getLastPrice'),
    day: fc.integer({ min: 1, max: 28 }),
    minute: fc.integer({ min: 0, max: 59 }),
    grade: fc.constantFrom('A' as const, 'B' as const, 'C' as const, 'D' as const),
    mode: fc.constantFrom('full' as const, 'full' as const, 'partial' as const),
    veto: fc.integer({ min: 0, max: 7 }),
    lift: fc.boolean(),
    stale: fc.integer({ min: 0, max: 5 }),
    // 0: cut short (not JSON), 1: a wrong skillId, 2: an area that belongs elsewhere, 3: semantically invalid; else valid
    damage: fc.integer({ min: 0, max: 6 })
})
const otherArb = fc.oneof(
    fc.record({ op: fc.constant('snapshot' as const), day: fc.integer({ min: 1, max: 28 }) }),
    fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
    fc.record({
        op: fc.constant('corrupt' as const),
        how: fc.constantFrom('flip', 'truncate', 'garbage', 'version', 'owner', 'delete', 'unknown-name', 'unverified'),
        at: fc.nat()
    }),
    fc.record({ op: fc.constant('drop-index' as const) }),
    fc.record({
        op: fc.constant('stray' as const),
        node: fc.constantFrom<Node>('tool', 'aggregate', 'namespace'),
        n: fc.integer({ min: 0, max: 3 })
    })
)
const stepArb = fc.oneof({ weight: 5, arbitrary: addArb }, { weight: 1, arbitrary: otherArb })
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never

/** Applies one change to the island; returns the gradingIds written so far (for lineage). */
async function apply(fs: MemoryFs, step: Step, ids: string[]): Promise<void> {
    const files = fs.dump().files
    if (step.op === 'add') {
        const ts = `2026-06-${String(step.day).padStart(2, '0')}T10:${String(step.minute).padStart(2, '0')}:00Z`
        const veto = step.veto === 0 && step.node === 'tool'
        const previous = step.lift && ids.length > 0 ? ids[step.day % ids.length] : undefined
        const options = {
            grade: step.grade,
            mode: veto ? ('full' as const) : step.mode,
            veto,
            ...(step.stale === 0 ? { schemaHash: 'deadbeef' } : {}),
            ...(previous !== undefined ? { previousGradingId: previous } : {}),
            ...(step.damage === 1 ? { skillId: 'otherSkill' } : {})
        }
        const [path, text] = Object.entries(grading(step.node, ts, options, step.tool))[0] as [string, string]
        if (files[path] !== undefined) return // folders are append-only: a name is never written twice
        let content = text
        if (step.damage === 0) content = text.slice(0, 50)
        if (step.damage === 3) {
            // The second question answered again under the first one's id, at the same instant (GRD-053).
            const ids = [...text.matchAll(/"questionId": "([^"]+)"/g)].map((m) => m[1] as string)
            if (ids.length > 1) content = text.replace(`"${ids[1] as string}"`, `"${ids[0] as string}"`)
        }
        const target =
            step.damage === 2 && step.node === 'tool'
                ? gradingPath('aggregate', path.slice(path.lastIndexOf('/') + 1))
                : path
        if (files[target] !== undefined) return
        await fs.mkdir(target.slice(0, target.lastIndexOf('/')))
        await fs.writeFile(target, content)
        ids.push(`${options.schemaHash ?? PRICES_HASH}--${ts.replace(/:/g, '-')}`)
        return
    }
    if (step.op === 'snapshot') {
        await fs.writeFile(
            `${NS_DIR}/prices/schema/prices--2026-06-${String(step.day).padStart(2, '0')}T09-00-00Z--${PRICES_HASH}.mjs`,
            'export const main = {}\n'
        )
        return
    }
    if (step.op === 'remove') {
        const gradingFiles = Object.keys(files).filter((f) => f.includes('/_gradings/'))
        if (gradingFiles.length > 0) await fs.rm(gradingFiles[step.pick % gradingFiles.length] as string)
        return
    }
    if (step.op === 'stray') {
        // Either plainly not a grading file, or one that only fails the calendar check (30/31 February).
        const path = gradingPath(
            step.node,
            step.n < 2 ? `notes-${step.n}.txt` : `single-test--2026-02-3${step.n - 2}T10-00-00Z.json`
        )
        await fs.mkdir(path.slice(0, path.lastIndexOf('/')))
        await fs.writeFile(path, 'x')
        return
    }
    if (step.op === 'drop-index') {
        await fs.rm(INDEX)
        return
    }
    const text = files[RECORD]
    if (text === undefined) return
    const at = step.at % text.length
    const edits: Record<string, () => string | null> = {
        flip: () => text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1),
        truncate: () => text.slice(0, at),
        garbage: () => 'not a record',
        version: () => text.replace('"indexRecord":1', '"indexRecord":0'),
        owner: () => text.replace('namespace:defillama', 'namespace:other'),
        delete: () => null,
        'unknown-name': () => {
            // A consistent record (valid checksum) naming a file the folder never held.
            const [header, body] = text.split('\n') as [string, string]
            const owner = (JSON.parse(header) as { owner: `namespace:${string}` }).owner
            const parsed = parseRecord(text, owner).folders as Map<string, FolderRecord>
            const [rel, rec] = [...parsed.entries()][0] as [string, FolderRecord]
            parsed.set(rel, { ...rec, listing: `single-test--2020-01-01T00-00-00Z.json/${rec.listing}` })
            return body.length > 0 ? serializeRecord(owner, parsed) : text
        }
    }
    edits.unverified = () => {
        // A consistent record whose deciding facts lost their verification: those folders are read again.
        const owner = 'namespace:defillama' as const
        const parsed = parseRecord(text, owner).folders
        if (parsed === null) return text
        const stripped = new Map(
            [...parsed].map(([rel, rec]) => [
                rel,
                {
                    listing: rec.listing,
                    strays: rec.strays,
                    kept: rec.kept.map((k) => ({ screened: k.screened, verified: null }))
                }
            ])
        )
        return serializeRecord(owner, stripped)
    }
    const next = (edits[step.how] as () => string | null)()
    if (next === null) await fs.rm(RECORD)
    else await fs.writeFile(RECORD, next)
}

/** The oracle: every file parsed and handed to the pure builder, as without any reduction or record. */
function pureIndex(files: Record<string, string>, previousText: string | null): string | null {
    const under = (dir: string): string[] =>
        Object.keys(files)
            .filter((f) => f.startsWith(`${dir}/`))
            .map((f) => f.slice(dir.length + 1))
    const fileNames = (dir: string): string[] => [...new Set(under(dir).filter((r) => !r.includes('/')))].sort()
    const dirNames = (dir: string): string[] =>
        [
            ...new Set(
                under(dir)
                    .filter((r) => r.includes('/'))
                    .map((r) => r.slice(0, r.indexOf('/')))
            )
        ].sort()
    const gradings = (dir: string, rel: string): GradingFileInput[] =>
        fileNames(dir).map((name) => {
            try {
                return { name, entry: JSON.parse(files[`${dir}/${name}`] as string) as unknown }
            } catch (cause) {
                return {
                    name,
                    problem: createIssue('IDX-004', '', { path: `${rel}/${name}`, detail: (cause as Error).message })
                }
            }
        })
    const listing = {
        namespace: 'defillama',
        gradings: gradings(`${NS_DIR}/_gradings`, '_gradings'),
        schemas: dirNames(NS_DIR)
            .filter((n) => !n.startsWith('_'))
            .map((name) => {
                const d = `${NS_DIR}/${name}`
                return {
                    name,
                    snapshots: fileNames(`${d}/schema`),
                    gradings: gradings(`${d}/_gradings`, `${name}/_gradings`),
                    about: {
                        snapshots: fileNames(`${d}/resources/about`),
                        gradings: gradings(`${d}/resources/about/_gradings`, `${name}/resources/about/_gradings`)
                    },
                    skills: dirNames(`${d}/skills`).map((k) => ({
                        name: k,
                        snapshots: fileNames(`${d}/skills/${k}`),
                        gradings: gradings(`${d}/skills/${k}/_gradings`, `${name}/skills/${k}/_gradings`)
                    })),
                    tools: dirNames(`${d}/tools`).map((t) => ({
                        name: t,
                        gradings: gradings(`${d}/tools/${t}/_gradings`, `${name}/tools/${t}/_gradings`)
                    }))
                }
            })
    }
    let previousIndex: unknown
    try {
        previousIndex = previousText === null ? undefined : JSON.parse(previousText)
    } catch {
        previousIndex = undefined
    }
    const { index } = RebuildIndex.buildNamespaceIndex({ listing, previousIndex, now: NOW })
    return index === null ? null : RebuildIndex.serializeIndex({ index, previousText }).text
}

const withoutInfo = (errors: Issue[]): Issue[] => errors.filter((e) => e.code !== 'IDX-INFO-001')

describe('incremental rebuild', () => {
    it('gives index.json byte-identical to a full rebuild after any sequence of adds, new snapshots, removed files and damaged records', async () => {
        await fc.assert(
            fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 14 }), async (steps) => {
                const fs = createMemoryFs(baseNamespace())
                const ids: string[] = []
                for (const step of steps) {
                    await apply(fs, step, ids)
                    const full = createMemoryFs(fs.dump().files)
                    const oracle = pureIndex(fs.dump().files, await fs.readFile(INDEX))
                    const a = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
                    const b = await RebuildIndex.rebuildNamespaceIndex({
                        fs: full,
                        namespaceDir: NS_DIR,
                        now: NOW,
                        incremental: false
                    })
                    expect(a.status).toBe(b.status)
                    expect(await fs.readFile(INDEX)).toBe(await full.readFile(INDEX))
                    expect(await fs.readFile(INDEX)).toBe(oracle)
                    expect(await fs.readFile(RECORD)).toBe(await full.readFile(RECORD))
                    expect(withoutInfo(a.errors)).toEqual(withoutInfo(b.errors))
                }
            }),
            { numRuns: 120 }
        )
    })

    it('leaves an index of the folder as it is when another writer adds a file and rebuilds while a rebuild runs', async () => {
        // The first rebuild stops at its at-th port call until the other writer has added its file
        // and finished its own rebuild: the other index lands between this one's read and its write.
        const pausing = (fs: FsPort, at: number, meanwhile: () => Promise<unknown>): FsPort => {
            let n = 0
            const wrap =
                (fn: (...args: never[]) => Promise<unknown>) =>
                async (...args: never[]): Promise<unknown> => {
                    n += 1
                    if (n === at) await meanwhile()
                    return fn(...args)
                }
            return Object.fromEntries(
                Object.entries(fs).map(([k, fn]) => [
                    k,
                    typeof fn === 'function' ? wrap(fn.bind(fs) as (...args: never[]) => Promise<unknown>) : fn
                ])
            ) as unknown as FsPort
        }
        await fc.assert(
            fc.asyncProperty(
                fc.array(stepArb, { maxLength: 8 }),
                fc.oneof(
                    { weight: 4, arbitrary: addArb },
                    {
                        weight: 1,
                        arbitrary: fc.record({
                            op: fc.constant('snapshot' as const),
                            day: fc.integer({ min: 1, max: 28 })
                        })
                    }
                ),
                fc.integer({ min: 1, max: 40 }),
                fc.boolean(),
                async (steps, late, at, incremental) => {
                    const fs = createMemoryFs(baseNamespace())
                    const ids: string[] = []
                    for (const step of steps) {
                        await apply(fs, step, ids)
                        await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
                    }
                    let other: Promise<{ status: boolean }> | null = null
                    const start = (): Promise<{ status: boolean }> =>
                        (other ??= apply(fs, late, ids).then(() =>
                            RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
                        ))
                    const first = await RebuildIndex.rebuildNamespaceIndex({
                        fs: pausing(fs, at, start),
                        namespaceDir: NS_DIR,
                        now: NOW,
                        incremental
                    })
                    const second = await start()
                    expect(first.status).toBe(second.status)
                    if (!first.status) return
                    // Whatever the interleaving, the index on disk is current: a full rebuild has nothing to change.
                    const copy = createMemoryFs(fs.dump().files)
                    const check = await RebuildIndex.rebuildNamespaceIndex({
                        fs: copy,
                        namespaceDir: NS_DIR,
                        now: NOW,
                        incremental: false
                    })
                    expect(check.written).toBe(false)
                    expect((await fs.readdir(NS_DIR))?.filter((e) => e.name.endsWith('.tmp'))).toEqual([])
                }
            ),
            { numRuns: 80 }
        )
    })

    it('reads only the new file after one new entry', async () => {
        const files: Record<string, string> = baseNamespace()
        for (let d = 1; d <= 9; d += 1) Object.assign(files, grading('tool', `2026-06-0${d}T10:00:00Z`, { grade: 'B' }))
        const fs = createMemoryFs(files)
        await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        for (const [path, text] of Object.entries(grading('tool', '2026-06-20T10:00:00Z', { grade: 'C' })))
            await fs.writeFile(path, text)
        const reads: string[] = []
        const counting = { ...fs, readFile: async (p: string) => (reads.push(p), fs.readFile(p)) }
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs: counting, namespaceDir: NS_DIR, now: NOW })
        expect(res.index?.schemas.prices?.tools.getFirstPrice?.grade).toBe('C')
        expect(reads.filter((p) => p.includes('/_gradings/'))).toEqual([
            gradingPath('tool', 'single-test--2026-06-20T10-00-00Z.json')
        ])
    })

    it('reads a file again whose read failed last time (IDX-020 is never recorded)', async () => {
        const files = {
            ...baseNamespace(),
            ...grading('tool', '2026-06-01T10:00:00Z', { grade: 'B' }),
            ...grading('tool', '2026-06-02T10:00:00Z', { grade: 'C' })
        }
        const fs = createMemoryFs(files)
        const flaky = gradingPath('tool', 'single-test--2026-06-01T10-00-00Z.json')
        const failing = {
            ...fs,
            readFile: async (p: string) => (p === flaky ? Promise.reject(new Error('EIO')) : fs.readFile(p))
        }
        const first = await RebuildIndex.rebuildNamespaceIndex({ fs: failing, namespaceDir: NS_DIR, now: NOW })
        expect(first.index?.schemas.prices?.tools.getFirstPrice?.status).toBe('blocked')
        const full = createMemoryFs(fs.dump().files)
        await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        await RebuildIndex.rebuildNamespaceIndex({ fs: full, namespaceDir: NS_DIR, now: NOW, incremental: false })
        expect(await fs.readFile(INDEX)).toBe(await full.readFile(INDEX))
        expect(JSON.parse((await fs.readFile(INDEX)) as string).schemas.prices.tools.getFirstPrice.status).toBe(
            'graded'
        )
    })

    it('falls back to a full read with IDX-INFO-001 when the record is damaged', async () => {
        const fs = createMemoryFs({ ...baseNamespace(), ...grading('tool', '2026-05-01T10:00:00Z', { grade: 'B' }) })
        await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        await fs.writeFile(RECORD, 'damaged')
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(res.status).toBe(true)
        expect(res.errors.map((e) => e.code)).toContain('IDX-INFO-001')
        expect(parseRecord((await fs.readFile(RECORD)) as string, 'namespace:defillama').reason).toBeNull()
    })

    it('a selection rebuild keeps its own record and matches a full rebuild', async () => {
        const files: Record<string, string> = {
            ...baseNamespace(),
            ...grading('tool', '2026-06-01T10:00:00Z', { grade: 'B' }),
            [`${ROOT}/selections/defi-core/selection/defi-core--2026-05-30T09-00-00Z--ef67ab12.json`]: JSON.stringify({
                selectionId: 'defi-core',
                members: [{ schemaId: 'defillama.prices' }]
            })
        }
        const fs = createMemoryFs(files)
        const args = { selectionDir: `${ROOT}/selections/defi-core`, providersRoot: `${ROOT}/providers`, now: NOW }
        await RebuildIndex.rebuildSelectionIndex({ fs, ...args })
        for (const [path, text] of Object.entries(grading('aggregate', '2026-06-02T10:00:00Z', { grade: 'C' }))) {
            await fs.mkdir(path.slice(0, path.lastIndexOf('/')))
            await fs.writeFile(path, text)
        }
        const full = createMemoryFs(fs.dump().files)
        await RebuildIndex.rebuildSelectionIndex({ fs, ...args })
        await RebuildIndex.rebuildSelectionIndex({ fs: full, ...args, incremental: false })
        expect(await fs.readFile(`${ROOT}/selections/defi-core/index.json`)).toBe(
            await full.readFile(`${ROOT}/selections/defi-core/index.json`)
        )
        expect(await fs.readFile(`${ROOT}/selections/defi-core/${INDEX_RECORD_FILE}`)).toContain(
            'defillama/prices/_gradings'
        )
    })
})

describe('rebuild record file name', () => {
    const LEGACY = `${NS_DIR}/.index-record.json`

    it('leaves no file under a .json name that is not JSON (the record was named .index-record.json)', async () => {
        const fs = createMemoryFs({ ...baseNamespace(), ...grading('tool', '2026-05-01T10:00:00Z', { grade: 'B' }) })
        await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(INDEX_RECORD_FILE).toBe('.index-record')
        expect(await fs.readFile(RECORD)).not.toBeNull()
        const notJson = Object.entries(fs.dump().files).filter(([path, text]) => {
            if (!path.endsWith('.json')) return false
            try {
                JSON.parse(text)
                return false
            } catch {
                return true
            }
        })
        expect(notJson.map(([path]) => path)).toEqual([])
    })

    it('ignores a record left under the old name .index-record.json, reads every file and removes it', async () => {
        const files: Record<string, string> = baseNamespace()
        for (let d = 1; d <= 3; d += 1) Object.assign(files, grading('tool', `2026-06-0${d}T10:00:00Z`, { grade: 'B' }))
        const fs = createMemoryFs(files)
        await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        // An island from before the rename: the record under its old name only.
        await fs.writeFile(LEGACY, (await fs.readFile(RECORD)) as string)
        await fs.rm(RECORD)
        for (const [path, text] of Object.entries(grading('tool', '2026-06-20T10:00:00Z', { grade: 'C' })))
            await fs.writeFile(path, text)
        const full = createMemoryFs(fs.dump().files)
        const reads: string[] = []
        const counting = { ...fs, readFile: async (p: string) => (reads.push(p), fs.readFile(p)) }
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs: counting, namespaceDir: NS_DIR, now: NOW })
        await RebuildIndex.rebuildNamespaceIndex({ fs: full, namespaceDir: NS_DIR, now: NOW, incremental: false })
        expect(res.status).toBe(true)
        expect(res.errors.map((e) => e.code)).not.toContain('IDX-INFO-001')
        expect(reads).not.toContain(LEGACY)
        expect(reads.filter((p) => p.includes('/_gradings/'))).toHaveLength(4)
        expect(await fs.readFile(INDEX)).toBe(await full.readFile(INDEX))
        expect(await fs.readFile(LEGACY)).toBeNull()
        expect(parseRecord((await fs.readFile(RECORD)) as string, 'namespace:defillama').reason).toBeNull()
    })

    it('removes an old .index-record.json beside a selection index too', async () => {
        const selDir = `${ROOT}/selections/defi-core`
        const fs = createMemoryFs({
            ...baseNamespace(),
            ...grading('tool', '2026-06-01T10:00:00Z', { grade: 'B' }),
            [`${selDir}/selection/defi-core--2026-05-30T09-00-00Z--ef67ab12.json`]: JSON.stringify({
                selectionId: 'defi-core',
                members: [{ schemaId: 'defillama.prices' }]
            }),
            [`${selDir}/.index-record.json`]: 'an old record'
        })
        const res = await RebuildIndex.rebuildSelectionIndex({
            fs,
            selectionDir: selDir,
            providersRoot: `${ROOT}/providers`,
            now: NOW
        })
        expect(res.status).toBe(true)
        expect(await fs.readFile(`${selDir}/.index-record.json`)).toBeNull()
    })
})

describe('rebuild record', () => {
    const facts = screenGradingFile({
        name: 'single-test--2026-05-01T10-00-00Z.json',
        entry: makeEntry({ area: 'single-test' })
    })

    it('round-trips facts through the compact encoding', () => {
        expect(facts).not.toBeNull()
        const f = facts as NonNullable<typeof facts>
        expect(decodeFacts(f.file, encodeFacts(f))).toEqual(f)
    })

    it('refuses facts it cannot trust', () => {
        expect(decodeFacts('single-test--2026-05-01T10-00-00Z.json', { gradingMode: 'sometimes' })).toBeNull()
        expect(decodeFacts('not-a-grading.json', {})).toBeNull()
        expect(decodeFacts('single-test--2026-05-01T10-00-00Z.json', { extra: 1 })).toBeNull()
    })

    it('parses what it serialises, and names why it will not use a record', () => {
        const state = new FolderState('prices/tools/getFirstPrice/_gradings', null)
        state.offer(facts as NonNullable<typeof facts>, makeEntry({ area: 'single-test' }))
        expect(state.finish()).not.toBeNull()
        const text = serializeRecord(
            'namespace:defillama',
            new Map([
                ['prices/tools/getFirstPrice/_gradings', state.record(['single-test--2026-05-01T10-00-00Z.json'])]
            ])
        )
        expect(parseRecord(text, 'namespace:defillama').reason).toBeNull()
        expect(parseRecord(text, 'namespace:other').reason).toMatch(/belongs to/)
        expect(parseRecord(text.replace('single-test--2026', 'single-test--2027'), 'namespace:defillama').reason).toBe(
            'checksum mismatch'
        )
        expect(parseRecord('{}', 'namespace:defillama').reason).toBe('not a rebuild record')
        expect(parseRecord(null, 'namespace:defillama')).toEqual({ folders: null, reason: null })
    })

    it('a folder state without the entry of its deciding file asks for a full read', () => {
        const state = new FolderState('x/_gradings', null)
        state.offer(facts as NonNullable<typeof facts>, undefined)
        expect(state.finish()).toBeNull()
    })
})
