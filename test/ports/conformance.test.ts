import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FsPort } from '../../src/index.js'
import { Journal, writeAtomic } from '../../src/store/fs-ops.js'
import { ADAPTERS } from './adapters.js'

/**
 * A scheduler port: every call first yields to the event loop, so two writers started together
 * run step by step, one port call each in turn, like two processes sharing a disk.
 */
function interleaved(fs: FsPort): FsPort {
    const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))
    return Object.fromEntries(
        Object.entries(fs).map(([k, fn]) => [
            k,
            async (...args: unknown[]) => (await tick(), (fn as (...a: unknown[]) => Promise<unknown>)(...args))
        ])
    ) as unknown as FsPort
}

const EEXIST = expect.objectContaining({ code: 'EEXIST' })

describe.each(ADAPTERS)('FsPort contract ($name)', ({ make }) => {
    let fs: FsPort
    let root: string
    let dispose: () => Promise<void>

    beforeEach(async () => {
        ;({ fs, root, dispose } = await make())
    })
    afterEach(async () => {
        await dispose()
    })

    it('returns null for a file, a folder or a stat that does not exist', async () => {
        expect(await fs.readFile(`${root}/missing.json`)).toBeNull()
        expect(await fs.readdir(`${root}/missing`)).toBeNull()
        expect(await fs.stat(`${root}/missing`)).toBeNull()
    })

    it('writes and reads UTF-8 text unchanged', async () => {
        const text = '{"é":"ü","emoji":"🎉"}\r\n'
        await fs.writeFile(`${root}/a.json`, text)
        expect(await fs.readFile(`${root}/a.json`)).toBe(text)
    })

    it('rejects writing into a folder that does not exist', async () => {
        await expect(fs.writeFile(`${root}/no/such/dir/a.json`, 'x')).rejects.toThrow()
    })

    it('rejects reading a folder as a file', async () => {
        await fs.mkdir(`${root}/d`)
        await expect(fs.readFile(`${root}/d`)).rejects.toThrow()
    })

    it('creates missing parents and accepts an existing folder', async () => {
        await fs.mkdir(`${root}/a/b/c`)
        await fs.mkdir(`${root}/a/b/c`)
        expect((await fs.stat(`${root}/a/b`))?.kind).toBe('directory')
    })

    it('lists files and folders with their kind', async () => {
        await fs.mkdir(`${root}/d/sub`)
        await fs.writeFile(`${root}/d/f.txt`, 'x')
        const entries = [...((await fs.readdir(`${root}/d`)) ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1))
        expect(entries).toEqual([
            { name: 'f.txt', kind: 'file' },
            { name: 'sub', kind: 'directory' }
        ])
    })

    it('reports kind and size through stat', async () => {
        await fs.writeFile(`${root}/f.txt`, 'hello')
        expect(await fs.stat(`${root}/f.txt`)).toMatchObject({ kind: 'file', size: 5 })
    })

    it('renames over an existing file', async () => {
        await fs.writeFile(`${root}/a`, 'new')
        await fs.writeFile(`${root}/b`, 'old')
        await fs.rename(`${root}/a`, `${root}/b`)
        expect(await fs.readFile(`${root}/b`)).toBe('new')
        expect(await fs.readFile(`${root}/a`)).toBeNull()
    })

    it('rejects renaming a file that does not exist', async () => {
        await expect(fs.rename(`${root}/nope`, `${root}/b`)).rejects.toThrow()
    })

    it('removes files and folder trees, and accepts a missing path', async () => {
        await fs.mkdir(`${root}/t/u`)
        await fs.writeFile(`${root}/t/u/f`, 'x')
        await fs.rm(`${root}/t`)
        expect(await fs.stat(`${root}/t`)).toBeNull()
        await fs.rm(`${root}/never-existed`)
    })

    it('creates a file exclusively only when the name is free (EEXIST otherwise, content untouched)', async () => {
        await fs.writeFile(`${root}/x`, 'first', { exclusive: true })
        await expect(fs.writeFile(`${root}/x`, 'second', { exclusive: true })).rejects.toEqual(EEXIST)
        expect(await fs.readFile(`${root}/x`)).toBe('first')
    })

    it('lets exactly one of two racing exclusive writers win', async () => {
        const results = await Promise.allSettled([
            fs.writeFile(`${root}/r`, 'a', { exclusive: true }),
            fs.writeFile(`${root}/r`, 'b', { exclusive: true })
        ])
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    })

    it('links a file under a free name and refuses a taken one with EEXIST', async () => {
        await fs.writeFile(`${root}/a`, 'data')
        await fs.link(`${root}/a`, `${root}/b`)
        expect(await fs.readFile(`${root}/b`)).toBe('data')
        await fs.writeFile(`${root}/c`, 'other')
        await expect(fs.link(`${root}/a`, `${root}/c`)).rejects.toEqual(EEXIST)
        expect(await fs.readFile(`${root}/c`)).toBe('other')
    })

    it('reports files, folders and missing paths through lstat', async () => {
        await fs.mkdir(`${root}/d`)
        await fs.writeFile(`${root}/f`, 'x')
        expect((await fs.lstat(`${root}/d`))?.kind).toBe('directory')
        expect((await fs.lstat(`${root}/f`))?.kind).toBe('file')
        expect(await fs.lstat(`${root}/none`)).toBeNull()
    })

    it('keeps both writers whole when two never-overwrite writes of equal length interleave: one wins, one gets FS-002', async () => {
        const port = interleaved(fs)
        const [a, b] = await Promise.all([
            writeAtomic(port, `${root}/e/entry.json`, 'AAAA', { overwrite: false, journal: new Journal(root) }),
            writeAtomic(port, `${root}/e/entry.json`, 'BBBB', { overwrite: false, journal: new Journal(root) })
        ])
        const codes = [...(a ?? []), ...(b ?? [])].map((i) => i.code)
        expect(codes).toEqual(['FS-002'])
        expect(await fs.readFile(`${root}/e/entry.json`)).toBe(a?.length === 0 ? 'AAAA' : 'BBBB')
        expect((await fs.readdir(`${root}/e`))?.map((e) => e.name)).toEqual(['entry.json'])
    })

    it('lets two interleaved replacing writers of equal length both succeed, leaving one whole file and no temp file', async () => {
        const port = interleaved(fs)
        const results = await Promise.all(
            ['AAAA', 'BBBB', 'CCCC'].map((data) =>
                writeAtomic(port, `${root}/i/index.json`, data, { overwrite: true, journal: new Journal(root) })
            )
        )
        expect(results).toEqual([[], [], []])
        expect(['AAAA', 'BBBB', 'CCCC']).toContain(await fs.readFile(`${root}/i/index.json`))
        expect((await fs.readdir(`${root}/i`))?.map((e) => e.name)).toEqual(['index.json'])
    })
})
