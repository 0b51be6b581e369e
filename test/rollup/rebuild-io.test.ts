import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    fsPortFromNodeLike,
    RebuildIndex,
    type FsPort,
    type NodeFsPromisesLike
} from '../../src/index.js'
import { Journal, writeReplaceableAll } from '../../src/store/fs-ops.js'
import { INDEX_RECORD_FILE } from '../../src/rollup/index-record.js'
import { PortPool, readNamespaceListing, unchangedSince } from '../../src/rollup/read-listing.js'
import { settle } from '../../src/rollup/rebuild-index.js'
import { baseNamespace, grading, gradingPath, NOW, NS_DIR, ROOT } from './support.js'

const island = (): Record<string, string> => ({
    ...baseNamespace(),
    ...grading('tool', '2026-05-31T10:00:00Z', { grade: 'B' })
})

describe('PortPool', () => {
    it('runs every job with at most `limit` at once, urgent ones first', async () => {
        const pool = new PortPool(2)
        const order: string[] = []
        let inFlight = 0
        let peak = 0
        const job = (name: string) => async (): Promise<void> => {
            inFlight += 1
            peak = Math.max(peak, inFlight)
            await new Promise((r) => setTimeout(r, 1))
            order.push(name)
            inFlight -= 1
        }
        for (const n of ['r1', 'r2', 'r3']) pool.queue(job(n), false)
        pool.queue(job('u1'), true)
        await pool.drain()
        expect(peak).toBe(2)
        expect(order).toHaveLength(4)
        // The two reads started at once; the urgent job goes before the third read.
        expect(order.indexOf('u1')).toBeLessThan(order.indexOf('r3'))
        expect(await pool.run(async () => 42)).toBe(42)
    })

    it('rethrows a job that throws from drain, and rejects run() with its error, without hanging', async () => {
        const pool = new PortPool(1)
        let after = false
        pool.queue(async () => {
            throw new Error('boom')
        }, false)
        pool.queue(async () => {
            after = true
        }, false)
        await expect(pool.drain()).rejects.toThrow('boom')
        expect(after).toBe(true)
        await expect(new PortPool(1).run(async () => Promise.reject(new Error('nope')))).rejects.toThrow('nope')
        const throwing = (): Promise<number> => {
            throw new Error('at once')
        }
        await expect(new PortPool(1).run(throwing)).rejects.toThrow('at once')
    })
})

describe('unchangedSince (the concurrent-writer re-check)', () => {
    it('finds a folder unchanged when nothing was added, and ignores index.json and the record the rebuild writes', async () => {
        const fs = createMemoryFs(island())
        const read = await readNamespaceListing(fs, NS_DIR)
        await fs.writeFile(`${NS_DIR}/index.json`, '{}')
        await fs.writeFile(`${NS_DIR}/${INDEX_RECORD_FILE}`, 'x')
        expect(await unchangedSince(fs, read.seen as NonNullable<typeof read.seen>)).toBe(true)
    })

    it('ignores a record under its old name .index-record.json, present or removed', async () => {
        const fs = createMemoryFs({ ...island(), [`${NS_DIR}/.index-record.json`]: 'x' })
        const read = await readNamespaceListing(fs, NS_DIR)
        expect(read.legacyRecord).toBe(true)
        await fs.rm(`${NS_DIR}/.index-record.json`)
        expect(await unchangedSince(fs, read.seen as NonNullable<typeof read.seen>)).toBe(true)
        expect((await readNamespaceListing(fs, NS_DIR)).legacyRecord).toBe(false)
    })

    it.each([
        [
            'a new entry',
            (fs: FsPort) => fs.writeFile(gradingPath('tool', 'single-test--2026-06-01T10-00-00Z.json'), '{}')
        ],
        ['a new tool folder', (fs: FsPort) => fs.mkdir(`${NS_DIR}/prices/tools/getMidPrice`)],
        ['a rewritten summary.json', (fs: FsPort) => fs.writeFile(`${NS_DIR}/prices/summary.json`, '{"perTool":{}}')]
    ])('finds a folder changed after %s', async (_name, change) => {
        const fs = createMemoryFs({ ...island(), [`${NS_DIR}/prices/summary.json`]: '{}' })
        const read = await readNamespaceListing(fs, NS_DIR)
        await change(fs)
        expect(await unchangedSince(fs, read.seen as NonNullable<typeof read.seen>)).toBe(false)
    })

    it('cannot vouch for a folder when a listing fails or a read failed', async () => {
        const fs = createMemoryFs(island())
        const read = await readNamespaceListing(fs, NS_DIR)
        const failing: FsPort = { ...fs, readdir: async () => Promise.reject(new Error('EIO')) }
        expect(await unchangedSince(failing, read.seen as NonNullable<typeof read.seen>)).toBe(false)
        const flaky: FsPort = {
            ...fs,
            readFile: async (p) => (p.includes('/_gradings/') ? Promise.reject(new Error('EIO')) : fs.readFile(p))
        }
        const unsure = await readNamespaceListing(flaky, NS_DIR)
        expect(await unchangedSince(fs, unsure.seen as NonNullable<typeof unsure.seen>)).toBe(false)
    })
})

describe('writeReplaceableAll', () => {
    const dir = `${ROOT}/providers/defillama`

    it('replaces the files of one folder in the given order', async () => {
        const fs = createMemoryFs({ [`${dir}/a.json`]: 'old' })
        const renames: string[] = []
        const port: FsPort = { ...fs, rename: async (from, to) => (renames.push(to), fs.rename(from, to)) }
        const journal = new Journal(ROOT)
        const res = await writeReplaceableAll(
            port,
            dir,
            [
                { path: `${dir}/a.json`, data: 'A', journal },
                { path: `${dir}/b.json`, data: 'B', journal }
            ],
            journal
        )
        expect(res).toEqual({ published: 2, issues: [] })
        expect(renames).toEqual([`${dir}/a.json`, `${dir}/b.json`])
        expect(await fs.readFile(`${dir}/a.json`)).toBe('A')
        expect(await fs.readFile(`${dir}/b.json`)).toBe('B')
        // Only the file that is new is the operation's to undo.
        expect(journal.files).toEqual([`${dir}/b.json`])
        expect((await fs.readdir(dir))?.filter((e) => e.name.endsWith('.tmp'))).toEqual([])
    })

    it('publishes nothing when a temp file cannot be written, and stops at a failing rename (FS-001)', async () => {
        const fs = createMemoryFs({ [`${dir}/a.json`]: 'old' })
        const journal = new Journal(ROOT)
        const files = [
            { path: `${dir}/a.json`, data: 'A', journal },
            { path: `${dir}/b.json`, data: 'B', journal }
        ]
        const noTemp: FsPort = {
            ...fs,
            writeFile: async (p, d, o) =>
                p.includes('.b.json.') ? Promise.reject(new Error('ENOSPC')) : fs.writeFile(p, d, o)
        }
        const first = await writeReplaceableAll(noTemp, dir, files, journal)
        expect(first.published).toBe(0)
        expect(first.issues.map((i) => i.code)).toEqual(['FS-001'])
        expect(await fs.readFile(`${dir}/a.json`)).toBe('old')
        const noRename: FsPort = {
            ...fs,
            rename: async (from, to) => (to.endsWith('b.json') ? Promise.reject(new Error('EIO')) : fs.rename(from, to))
        }
        const second = await writeReplaceableAll(noRename, dir, files, journal)
        expect(second.published).toBe(1)
        expect(second.issues.map((i) => i.code)).toEqual(['FS-001'])
        expect(await fs.readFile(`${dir}/b.json`)).toBeNull()
        expect((await fs.readdir(dir))?.filter((e) => e.name.endsWith('.tmp'))).toEqual([])
        expect(
            (
                await writeReplaceableAll(fs, dir, [{ path: '/elsewhere/c.json', data: 'C', journal }], journal)
            ).issues.map((i) => i.code)
        ).toEqual(['FS-004'])
    })
})

describe('rebuild after a write (re-check)', () => {
    it('lists the folders once more after writing, without reading any grading file again', async () => {
        const fs = createMemoryFs(island())
        const reads: string[] = []
        let listings = 0
        const port: FsPort = {
            ...fs,
            readFile: async (p) => (reads.push(p), fs.readFile(p)),
            readdir: async (p) => ((listings += 1), fs.readdir(p))
        }
        const res = await RebuildIndex.rebuildNamespaceIndex({
            fs: port,
            namespaceDir: NS_DIR,
            now: NOW,
            incremental: false
        })
        expect(res.written).toBe(true)
        expect(reads.filter((p) => p.includes('/_gradings/'))).toHaveLength(1)
        const once = listings
        listings = 0
        const again = await RebuildIndex.rebuildNamespaceIndex({ fs: port, namespaceDir: NS_DIR, now: NOW })
        // Nothing written: no re-check, so half the listings of the first rebuild.
        expect(again.written).toBe(false)
        expect(listings * 2).toBe(once)
    })
})

describe('fsPortFromNodeLike reads (the rebuild path)', () => {
    it('reads through a promises API and maps ENOENT to null', async () => {
        const notFound = Object.assign(new Error('ENOENT'), { code: 'ENOENT' })
        const host = {
            readFile: async (p: string) => (p === '/a.json' ? '{}' : Promise.reject(notFound)),
            readdir: async (p: string) =>
                p === '/d'
                    ? [{ name: 'a.json', isFile: () => true, isDirectory: () => false }]
                    : Promise.reject(notFound)
        } as unknown as NodeFsPromisesLike
        const port = fsPortFromNodeLike(host)
        expect(await port.readFile('/a.json')).toBe('{}')
        expect(await port.readFile('/b.json')).toBeNull()
        expect(await port.readdir('/d')).toEqual([{ name: 'a.json', kind: 'file' }])
        expect(await port.readdir('/e')).toBeNull()
    })

    it('rejects, never throws, when the host is not a file system', async () => {
        for (const host of [null, 42, {}] as unknown as NodeFsPromisesLike[]) {
            const port = fsPortFromNodeLike(host)
            await expect(port.readFile('/a.json')).rejects.toBeInstanceOf(Error)
            await expect(port.readdir('/d')).rejects.toBeInstanceOf(Error)
        }
    })
})

describe('settle (rounds after a write)', () => {
    const result = (tag: string, written: boolean, status = true) => ({
        status,
        index: { tag } as never,
        indexPath: '/i',
        written,
        errors: []
    })
    const rounds = (...attempts: Array<{ result: ReturnType<typeof result>; unchanged: boolean }>) => {
        const asked: Array<boolean | undefined> = []
        let i = 0
        const attempt = async (incremental: boolean | undefined) => {
            asked.push(incremental)
            const a = attempts[i++] as { result: ReturnType<typeof result>; unchanged: boolean }
            return { result: a.result, unchanged: async () => a.unchanged }
        }
        return { attempt, asked }
    }

    it('returns the index a later round found already on disk, not the earlier round it knows is stale', async () => {
        const { attempt } = rounds(
            { result: result('stale', true), unchanged: false },
            { result: result('current', false), unchanged: true }
        )
        expect(await settle(attempt, undefined)).toMatchObject({ index: { tag: 'current' }, written: true })
    })

    it('keeps the first write when a later round fails, and honours incremental: false in every round', async () => {
        const { attempt, asked } = rounds(
            { result: result('first', true), unchanged: false },
            { result: result('broken', false, false), unchanged: true }
        )
        expect(await settle(attempt, false)).toMatchObject({ index: { tag: 'first' }, written: true })
        expect(asked).toEqual([false, false])
    })
})
