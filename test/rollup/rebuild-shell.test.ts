import { describe, expect, it } from 'vitest'
import { createMemoryFs, RebuildIndex, type FsPort } from '../../src/index.js'
import { baseNamespace, grading, NOW, NS_DIR } from './support.js'

function many(): Record<string, string> {
    const files: Record<string, string> = { ...baseNamespace() }
    for (let h = 0; h < 20; h += 1)
        Object.assign(files, grading('tool', `2026-05-31T10:${String(h).padStart(2, '0')}:00Z`, { grade: 'C' }))
    for (let h = 0; h < 20; h += 1)
        Object.assign(
            files,
            grading('tool', `2026-05-31T10:${String(h).padStart(2, '0')}:00Z`, { grade: 'B' }, 'getLastPrice')
        )
    return files
}

describe('RebuildIndex.rebuildNamespaceIndex (shell)', () => {
    it.each([
        ['the island root', '/island'],
        ['a schema folder', '/island/providers/defillama/prices'],
        ['a selection folder', '/island/selections/defi-core']
    ])('refuses %s, which is no namespace folder, and writes nothing (IDX-029)', async (_name, namespaceDir) => {
        const fs = createMemoryFs()
        for (const d of [
            '/island',
            '/island/providers',
            '/island/providers/defillama',
            '/island/providers/defillama/prices'
        ])
            await fs.mkdir(d)
        const result = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir, now: NOW })
        expect(result).toMatchObject({ status: false, index: null })
        expect(result.errors).toEqual([expect.objectContaining({ code: 'IDX-029', path: '/namespaceDir' })])
        expect(await fs.readFile(`${namespaceDir}/index.json`)).toBeNull()
    })

    it('refuses a selection rebuild outside <island>/selections/<selection> (IDX-029)', async () => {
        const result = await RebuildIndex.rebuildSelectionIndex({
            fs: createMemoryFs(),
            selectionDir: '/island/providers/defillama',
            providersRoot: '/island/providers',
            now: NOW
        })
        expect(result.errors).toContainEqual(expect.objectContaining({ code: 'IDX-029', path: '/selectionDir' }))
    })

    it('writes index.json and skips the write when the bytes would not change', async () => {
        const fs = createMemoryFs(many())
        const first = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(first).toMatchObject({ status: true, written: true, indexPath: `${NS_DIR}/index.json` })
        const second = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(second).toMatchObject({ status: true, written: false })
    })

    it('reads every grading file exactly once, with bounded concurrency', async () => {
        const inner = createMemoryFs(many())
        const reads = new Map<string, number>()
        let inFlight = 0
        let peak = 0
        const fs: FsPort = {
            ...inner,
            readFile: async (p) => {
                reads.set(p, (reads.get(p) ?? 0) + 1)
                inFlight += 1
                peak = Math.max(peak, inFlight)
                await new Promise((r) => setTimeout(r, 1))
                inFlight -= 1
                return inner.readFile(p)
            }
        }
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW, concurrency: 4 })
        expect(res.status).toBe(true)
        const gradingReads = [...reads].filter(([p]) => p.includes('/_gradings/'))
        expect(gradingReads).toHaveLength(40)
        expect(gradingReads.every(([, n]) => n === 1)).toBe(true)
        expect(peak).toBeLessThanOrEqual(4)
    })

    it('blocks only the node whose grading file cannot be read (IDX-020)', async () => {
        const inner = createMemoryFs(many())
        const fs: FsPort = {
            ...inner,
            readFile: async (p) =>
                p.endsWith('getLastPrice/_gradings/single-test--2026-05-31T10-05-00Z.json')
                    ? Promise.reject(new Error('EACCES'))
                    : inner.readFile(p)
        }
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(res.index?.schemas.prices?.tools.getLastPrice?.reason).toMatch(
            /^IDX-020: Grading entry not readable: prices\/tools\/getLastPrice\/_gradings\/single-test--2026-05-31T10-05-00Z.json/
        )
        expect(res.index?.schemas.prices?.tools.getFirstPrice?.status).toBe('graded')
    })

    it('writes nothing when a folder cannot be listed (FS-001)', async () => {
        const inner = createMemoryFs(many())
        const fs: FsPort = {
            ...inner,
            readdir: async (p) => (p.endsWith('/tools') ? Promise.reject(new Error('EIO')) : inner.readdir(p))
        }
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(res).toMatchObject({ status: false, index: null, errors: [{ code: 'FS-001' }] })
        expect(await inner.readFile(`${NS_DIR}/index.json`)).toBeNull()
    })

    it('replaces an unreadable previous index and says what was lost (IDX-022)', async () => {
        const fs = createMemoryFs({ ...baseNamespace(), [`${NS_DIR}/index.json`]: '{"lockSnapshot": ' })
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(res.status).toBe(true)
        expect(res.errors.map((e) => e.code)).toContain('IDX-022')
        expect(JSON.parse((await fs.readFile(`${NS_DIR}/index.json`)) as string).namespace).toBe('defillama')
    })

    it('ignores a previous index that describes another namespace (IDX-022)', async () => {
        const fs = createMemoryFs({
            ...baseNamespace(),
            [`${NS_DIR}/index.json`]: JSON.stringify({
                indexVersion: 2,
                namespace: 'other',
                lockSnapshot: { members: [] }
            })
        })
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
        expect(res.index?.lockSnapshot).toBeUndefined()
        expect(res.errors.find((e) => e.code === 'IDX-022')?.path).toBe('/previousIndex/namespace')
    })

    it.each([
        { input: { namespaceDir: '/island/providers/none', now: NOW }, code: 'IDX-006' },
        { input: { namespaceDir: NS_DIR, now: 'later' }, code: 'IDX-002' },
        { input: { namespaceDir: NS_DIR }, code: 'IDX-001' },
        { input: { namespaceDir: '/island/\u0007', now: NOW }, code: 'FS-003' },
        { input: { fs: { readFile: () => null }, namespaceDir: NS_DIR, now: NOW }, code: 'FS-004' },
        { input: { fs: undefined, namespaceDir: NS_DIR, now: NOW }, code: 'ISL-001' }
    ])('fails with $code for unusable arguments', async ({ input, code }) => {
        const res = await RebuildIndex.rebuildNamespaceIndex({ fs: createMemoryFs(baseNamespace()), ...input })
        expect(res.status).toBe(false)
        expect(res.errors[0]?.code).toBe(code)
    })
})

describe('RebuildIndex.rebuildSelectionIndex (shell)', () => {
    it('fails for a missing selection folder (IDX-006) and for a missing providersRoot', async () => {
        const fs = createMemoryFs(baseNamespace())
        expect(
            (
                await RebuildIndex.rebuildSelectionIndex({
                    fs,
                    selectionDir: '/island/selections/none',
                    providersRoot: '/island/providers',
                    now: NOW
                })
            ).errors[0]?.code
        ).toBe('IDX-006')
        expect(
            (await RebuildIndex.rebuildSelectionIndex({ fs, selectionDir: '/island/selections/none', now: NOW }))
                .errors[0]?.code
        ).toBe('ISL-001')
    })
})
