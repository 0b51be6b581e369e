import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises'
import * as nodeFs from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memfs } from 'memfs'
import {
    createMemoryFs,
    fsPortFromNodeLike,
    gradeSingleSchema,
    Island,
    RebuildIndex,
    type FsPort,
    type NodeFsPromisesLike
} from '../../src/index.js'
import { checkName } from '../../src/store/paths.js'
import { makeEntry, makeMain, moduleText } from './support.js'

const NOW = '2026-05-30T19:44:23Z'
const prices = makeMain('defillama', 'Prices', ['getFirstPrice'])
const FILES = [{ name: 'prices.mjs', text: moduleText(prices), main: prices }]

interface Setup {
    readonly fs: FsPort
    readonly root: string
    readonly outside: string
    /** Makes `<root>/<rel>` a symbolic link to the outside folder (or to `<outside>/<file>`). */
    readonly link: (rel: string, file?: string) => Promise<void>
    /** Everything written outside the island. */
    readonly outsideFiles: () => Promise<string[]>
    readonly dispose: () => Promise<void>
}

const SETUPS: ReadonlyArray<{ name: string; make: () => Promise<Setup> }> = [
    {
        name: 'memory',
        make: async () => {
            const fs = createMemoryFs()
            await fs.mkdir('/island')
            await fs.mkdir('/outside')
            const walk = async (dir: string): Promise<string[]> =>
                ((await fs.readdir(dir)) ?? []).flatMap((e) => [`${dir}/${e.name}`])
            return {
                fs,
                root: '/island',
                outside: '/outside',
                link: async (rel, file) => {
                    await fs.mkdir(`/island/${rel}/..`)
                    await fs.symlink(file === undefined ? '/outside' : `/outside/${file}`, `/island/${rel}`)
                },
                outsideFiles: () => walk('/outside'),
                dispose: async () => {}
            }
        }
    },
    {
        name: 'memfs',
        make: async () => {
            const { fs: mem } = memfs({ '/island': null, '/outside': null })
            const fsp = mem.promises as unknown as typeof nodeFs
            return {
                fs: fsPortFromNodeLike(fsp as unknown as NodeFsPromisesLike),
                root: '/island',
                outside: '/outside',
                link: async (rel, file) => {
                    await fsp.mkdir(`/island/${rel}/..`, { recursive: true })
                    await fsp.symlink(file === undefined ? '/outside' : `/outside/${file}`, `/island/${rel}`)
                },
                outsideFiles: async () => (await fsp.readdir('/outside')).map(String),
                dispose: async () => {}
            }
        }
    },
    {
        name: 'node temp dir',
        make: async () => {
            const base = await mkdtemp(join(tmpdir(), 'flowmcp-confine-'))
            const root = join(base, 'island')
            const outside = join(base, 'outside')
            await mkdir(root)
            await mkdir(outside)
            return {
                fs: fsPortFromNodeLike(nodeFs),
                root,
                outside,
                link: async (rel, file) => {
                    await mkdir(join(root, rel, '..'), { recursive: true })
                    await symlink(file === undefined ? outside : join(outside, file), join(root, rel))
                },
                outsideFiles: async () => (await readdir(outside, { recursive: true })).map(String),
                dispose: () => rm(base, { recursive: true, force: true })
            }
        }
    }
]

describe.each(SETUPS)('confinement to the island root ($name)', ({ make }) => {
    it('refuses an import through a symlinked providers folder (FS-006) and writes nothing outside', async () => {
        const s = await make()
        try {
            await s.link('providers')
            const res = await Island.importProvider({ fs: s.fs, root: s.root, files: FILES, now: NOW })
            expect(res.status).toBe(false)
            expect(res.errors.map((e) => e.code)).toContain('FS-006')
            expect(await s.outsideFiles()).toEqual([])
        } finally {
            await s.dispose()
        }
    })

    it('refuses a grading through a symlinked _gradings folder (FS-006) and writes nothing outside', async () => {
        const s = await make()
        try {
            expect((await Island.importProvider({ fs: s.fs, root: s.root, files: FILES, now: NOW })).status).toBe(true)
            const folder = Island.gradingFolderFor({
                area: 'single-test',
                target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' }
            })
            await s.link((folder.segments ?? []).join('/'))
            const entry = makeEntry({
                area: 'single-test',
                schemaId: 'defillama.prices',
                schemaHash: (await Island.importProvider({ fs: s.fs, root: s.root, files: FILES, now: NOW }))
                    .imported[0]?.hash
            })
            const res = await Island.writeGrading({
                fs: s.fs,
                root: s.root,
                target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' },
                entry,
                now: NOW
            })
            expect(res.status).toBe(false)
            expect(res.errors.map((e) => e.code)).toContain('FS-006')
            expect(await s.outsideFiles()).toEqual([])
        } finally {
            await s.dispose()
        }
    })

    it('refuses to write index.json when it is a symbolic link', async () => {
        const s = await make()
        try {
            expect((await Island.importProvider({ fs: s.fs, root: s.root, files: FILES, now: NOW })).status).toBe(true)
            await s.fs.rm(`${s.root}/providers/defillama/index.json`)
            await s.fs.writeFile(`${s.outside}/victim.json`, 'untouched')
            await s.link('providers/defillama/index.json', 'victim.json')
            const res = await RebuildIndex.rebuildNamespaceIndex({
                fs: s.fs,
                namespaceDir: `${s.root}/providers/defillama`,
                now: NOW
            })
            expect(res.status).toBe(false)
            expect(res.errors.map((e) => e.code)).toContain('FS-006')
            expect(await s.fs.readFile(`${s.outside}/victim.json`)).toBe('untouched')
        } finally {
            await s.dispose()
        }
    })

    it('refuses gradeSingleSchema writes through a symlinked namespace folder', async () => {
        const s = await make()
        try {
            await s.link('providers/defillama')
            const res = await gradeSingleSchema({
                schema: { main: prices },
                options: { fs: s.fs, root: s.root, now: NOW }
            })
            expect(res.errors.map((e) => e.code)).toContain('FS-006')
            expect(await s.outsideFiles()).toEqual([])
        } finally {
            await s.dispose()
        }
    })
})

describe('reserved device names', () => {
    it.each(['con', 'NUL', 'com1', 'lpt9', 'aux.json', 'prn', 'com¹'])('refuses %s as a name (ISL-003)', (name) => {
        expect(checkName(name, 'tool', '/tool')?.code).toBe('ISL-003')
    })

    it.each(['console', 'nullable', 'com10', 'auxiliary'])('accepts %s', (name) => {
        expect(checkName(name, 'tool', '/tool')).toBeNull()
    })

    it('refuses a namespace named nul on import', async () => {
        const main = makeMain('nul', 'Nul', ['getX'])
        const res = await Island.importProvider({
            fs: createMemoryFs(),
            root: '/island',
            files: [{ name: 'x.mjs', text: moduleText(main), main }],
            now: NOW
        })
        expect(res.status).toBe(false)
        expect(res.errors.map((e) => e.code)).toContain('IMP-002')
    })
})
