// The FsPort adapters every conformance test runs against: memory, memfs, and a real temp directory.
import { mkdtemp, rm } from 'node:fs/promises'
import * as nodeFs from 'node:fs/promises'
import * as nodeFsCallbacks from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { memfs } from 'memfs'
import { createMemoryFs, fsPortFromNodeLike, type FsPort } from '../../src/index.js'

export interface AdapterCase {
    readonly name: string
    /** A fresh, empty port and a root folder path inside it; `dispose` removes whatever was created. */
    readonly make: () => Promise<{ fs: FsPort; root: string; dispose: () => Promise<void> }>
}

export const ADAPTERS: readonly AdapterCase[] = [
    {
        name: 'memory',
        make: async () => {
            const fs = createMemoryFs()
            await fs.mkdir('/work')
            return { fs, root: '/work', dispose: async () => {} }
        }
    },
    {
        name: 'memfs',
        make: async () => {
            const { fs } = memfs({ '/work': null })
            return { fs: fsPortFromNodeLike(fs.promises), root: '/work', dispose: async () => {} }
        }
    },
    {
        name: 'memfs (callback reads)',
        make: async () => {
            const { fs } = memfs({ '/work': null })
            return { fs: fsPortFromNodeLike(fs), root: '/work', dispose: async () => {} }
        }
    },
    {
        name: 'node temp dir (node:fs, callback reads)',
        make: async () => {
            const dir = await mkdtemp(join(tmpdir(), 'flowmcp-island-'))
            return {
                fs: fsPortFromNodeLike(nodeFsCallbacks),
                root: dir,
                dispose: () => rm(dir, { recursive: true, force: true })
            }
        }
    },
    {
        name: 'node temp dir',
        make: async () => {
            const dir = await mkdtemp(join(tmpdir(), 'flowmcp-island-'))
            return {
                fs: fsPortFromNodeLike(nodeFs),
                root: dir,
                dispose: () => rm(dir, { recursive: true, force: true })
            }
        }
    }
]
