import type { FsEntryKind, FsPort } from './types.js'

/** The few members of a `fs.Dirent` / `fs.Stats` the adapter reads. */
interface DirentLike {
    readonly name: string | { toString(): string }
    isFile(): boolean
    isDirectory(): boolean
    isSymbolicLink?(): boolean
}
interface StatsLike {
    readonly size: number
    readonly mtimeMs: number
    isFile(): boolean
    isDirectory(): boolean
    isSymbolicLink?(): boolean
}

/**
 * The subset of `node:fs/promises` the adapter uses. memfs's `fs.promises` fits as well; the
 * host passes the object in, so the library itself never imports `node:*`.
 */
export interface NodeFsPromisesLike {
    readFile(path: string, encoding: 'utf8'): Promise<string | { toString(): string }>
    writeFile(path: string, data: string, options: { encoding: 'utf8'; flag?: string }): Promise<unknown>
    mkdir(path: string, options: { recursive: true }): Promise<unknown>
    readdir(path: string, options: { withFileTypes: true }): Promise<readonly DirentLike[]>
    stat(path: string): Promise<StatsLike>
    lstat(path: string): Promise<StatsLike>
    link(existing: string, path: string): Promise<unknown>
    rename(from: string, to: string): Promise<unknown>
    rm(path: string, options: { recursive: true; force: true }): Promise<unknown>
}

function isNotFound(cause: unknown): boolean {
    const code = (cause as { code?: unknown } | null)?.code
    return code === 'ENOENT'
}

function kindOf(x: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink?(): boolean }): FsEntryKind {
    return x.isFile() ? 'file' : x.isDirectory() ? 'directory' : x.isSymbolicLink?.() === true ? 'symlink' : 'other'
}

/**
 * Wraps a `node:fs/promises`-like object (Node's own, memfs's `fs.promises`, …) as an {@link FsPort}:
 * `ENOENT` becomes `null` for `readFile`, `readdir`, `stat` and `lstat`; an exclusive `writeFile` is
 * the `wx` flag; every other failure rejects unchanged.
 * @param fsp - the host's promises API, e.g. `await import('node:fs/promises')`
 * @returns an {@link FsPort}
 * @example const fs = fsPortFromNodeLike(await import('node:fs/promises'))
 */
export function fsPortFromNodeLike(fsp: NodeFsPromisesLike): FsPort {
    return {
        async readFile(path) {
            try {
                const data = await fsp.readFile(path, 'utf8')
                return typeof data === 'string' ? data : data.toString()
            } catch (cause) {
                if (isNotFound(cause)) return null
                throw cause
            }
        },
        async writeFile(path, data, options) {
            await fsp.writeFile(path, data, options?.exclusive === true ? { encoding: 'utf8', flag: 'wx' } : { encoding: 'utf8' })
        },
        async mkdir(path) {
            await fsp.mkdir(path, { recursive: true })
        },
        async readdir(path) {
            try {
                const entries = await fsp.readdir(path, { withFileTypes: true })
                return entries.map((e) => ({ name: typeof e.name === 'string' ? e.name : e.name.toString(), kind: kindOf(e) }))
            } catch (cause) {
                if (isNotFound(cause)) return null
                throw cause
            }
        },
        async stat(path) {
            try {
                const s = await fsp.stat(path)
                return { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs }
            } catch (cause) {
                if (isNotFound(cause)) return null
                throw cause
            }
        },
        async lstat(path) {
            try {
                const s = await fsp.lstat(path)
                return { kind: s.isSymbolicLink?.() === true ? 'symlink' : kindOf(s), size: s.size, mtimeMs: s.mtimeMs }
            } catch (cause) {
                if (isNotFound(cause)) return null
                throw cause
            }
        },
        async link(existing, path) {
            await fsp.link(existing, path)
        },
        async rename(from, to) {
            await fsp.rename(from, to)
        },
        async rm(path) {
            await fsp.rm(path, { recursive: true, force: true })
        }
    }
}
