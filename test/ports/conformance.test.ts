import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FsPort } from '../../src/index.js'
import { ADAPTERS } from './adapters.js'

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
})
