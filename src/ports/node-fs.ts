import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { FsEntryKind, FsPort } from './types.js'

/** The few members of a `fs.Dirent` / `fs.Stats` the adapter reads. */
interface DirentLike {
    readonly name: string | { toString(): string }
    isFile(): boolean
    isDirectory(): boolean
    isSymbolicLink?(): boolean
}
/**
 * One element of a listing as the host's types declare it: a Dirent with `withFileTypes: true`, which
 * memfs's types do not tie to that option (they say names or Dirents), so a name is accepted too.
 */
type ListedEntry = DirentLike | string | { toString(): string }
interface StatsLike {
    // memfs's types allow bigint stats (its `bigint: true` option); the adapter reads them as numbers.
    readonly size: number | bigint
    readonly mtimeMs: number | bigint
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
    readdir(path: string, options: { withFileTypes: true }): Promise<readonly ListedEntry[]>
    stat(path: string): Promise<StatsLike>
    lstat(path: string): Promise<StatsLike>
    link(existing: string, path: string): Promise<unknown>
    rename(from: string, to: string): Promise<unknown>
    rm(path: string, options: { recursive: true; force: true }): Promise<unknown>
}

/**
 * `node:fs` itself, or memfs's `fs`: the promises API under `promises` plus the callback API. The
 * adapter then reads files and lists folders with callbacks — one thread-pool round trip per small
 * file instead of the several `fs.promises.readFile` takes — and uses the promises API for the rest.
 */
export interface NodeFsLike {
    readonly promises: NodeFsPromisesLike
    readFile(
        path: string,
        encoding: 'utf8',
        callback: (error: unknown, data?: string | { toString(): string }) => void
    ): void
    readdir(
        path: string,
        options: { withFileTypes: true },
        callback: (error: unknown, entries?: readonly ListedEntry[]) => void
    ): void
}

function isNodeFsLike(fs: NodeFsPromisesLike | NodeFsLike): fs is NodeFsLike {
    // A host may hand in anything: a non-object is not node:fs (its calls then reject, never throw here).
    if (fs === null || typeof fs !== 'object') return false
    const p = (fs as { promises?: unknown }).promises
    return (
        p !== null &&
        typeof p === 'object' &&
        typeof (fs as { readFile?: unknown }).readFile === 'function' &&
        typeof (fs as { readdir?: unknown }).readdir === 'function'
    )
}

/** An error a port call rejects with that carries a catalogue code (`code`) and the issue itself. */
interface CodedPortError extends Error {
    readonly code: string
    readonly issue: Issue
}

function unreadableHost(cause: unknown): CodedPortError {
    let detail = 'non-error thrown'
    try {
        if (cause instanceof Error) detail = `${cause.name}: ${String(cause.message).slice(0, 200)}`
        else if (typeof cause === 'string') detail = cause.slice(0, 200)
    } catch {
        detail = 'unreadable error'
    }
    const issue = createIssue('INT-002', '', { fn: 'fsPortFromNodeLike', detail })
    return Object.assign(new Error(issue.message), { code: issue.code, issue })
}

/** The port of a host object that could not be read: every call rejects with the same INT-002 error. */
function unusablePort(error: CodedPortError): FsPort {
    const reject = (): Promise<never> => Promise.reject(error)
    return {
        readFile: reject,
        writeFile: reject,
        mkdir: reject,
        readdir: reject,
        stat: reject,
        lstat: reject,
        link: reject,
        rename: reject,
        rm: reject
    }
}

/** Reads through the callback API as a promise; `ENOENT` becomes `null`. */
function callbackRead<T>(run: (callback: (error: unknown, data?: T) => void) => void): Promise<T | null> {
    return new Promise((resolve, reject) => {
        run((error, data) => {
            if (error === null || error === undefined) resolve(data as T)
            else if (isNotFound(error)) resolve(null)
            else reject(error)
        })
    })
}

/** Runs a call as a promise: a synchronous throw (a host object that is not what it claims) rejects instead. */
function settled<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve) => resolve(run()))
}

/** A rejection handler: `ENOENT` becomes `null`, anything else rejects unchanged. */
function notFoundAsNull(cause: unknown): null {
    if (isNotFound(cause)) return null
    throw cause
}

function isNotFound(cause: unknown): boolean {
    const code = (cause as { code?: unknown } | null)?.code
    return code === 'ENOENT'
}

/** A listed entry: a Dirent gives its kind; a bare name (a host that ignored `withFileTypes`) is `other`. */
function entryOf(e: ListedEntry): { name: string; kind: FsEntryKind } {
    if (typeof e === 'object' && e !== null && typeof (e as { isFile?: unknown }).isFile === 'function') {
        const d = e as DirentLike
        return { name: typeof d.name === 'string' ? d.name : d.name.toString(), kind: kindOf(d) }
    }
    return { name: typeof e === 'string' ? e : e.toString(), kind: 'other' }
}

function kindOf(x: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink?(): boolean }): FsEntryKind {
    return x.isFile() ? 'file' : x.isDirectory() ? 'directory' : x.isSymbolicLink?.() === true ? 'symlink' : 'other'
}

/**
 * Wraps a `node:fs/promises`-like object (Node's own, memfs's `fs.promises`, …) as an {@link FsPort}:
 * `ENOENT` becomes `null` for `readFile`, `readdir`, `stat` and `lstat`; an exclusive `writeFile` is
 * the `wx` flag; every other failure rejects unchanged. Given `node:fs` itself (see {@link NodeFsLike})
 * it reads files and folders with the callback API, which is cheaper for the many small files of an island.
 * Never throws: a host object that cannot be read (a throwing getter, a hostile Proxy) gives a port
 * whose every call rejects with an error whose `code` is `INT-002` (the library reports it as FS-001).
 * @param host - the host's promises API, e.g. `await import('node:fs/promises')`, or `node:fs`
 * @returns an {@link FsPort}
 * @example const fs = fsPortFromNodeLike(await import('node:fs/promises'))
 */
export function fsPortFromNodeLike(host: NodeFsPromisesLike | NodeFsLike): FsPort {
    let callbacks: NodeFsLike | null
    try {
        callbacks = isNodeFsLike(host) ? host : null
    } catch (cause) {
        return unusablePort(unreadableHost(cause))
    }
    const fsp = callbacks !== null ? callbacks.promises : (host as NodeFsPromisesLike)
    const text = (data: string | { toString(): string } | null): string | null =>
        data === null || typeof data === 'string' ? data : data.toString()
    const entries = (list: readonly ListedEntry[] | null) => (list === null ? null : list.map(entryOf))
    return {
        readFile(path) {
            // No async wrapper on the callback path: this runs for every file a rebuild reads.
            if (callbacks !== null)
                return callbackRead<string | { toString(): string }>((cb) => callbacks.readFile(path, 'utf8', cb)).then(
                    text
                )
            return settled(() => fsp.readFile(path, 'utf8')).then(text, notFoundAsNull)
        },
        async writeFile(path, data, options) {
            await fsp.writeFile(
                path,
                data,
                options?.exclusive === true ? { encoding: 'utf8', flag: 'wx' } : { encoding: 'utf8' }
            )
        },
        async mkdir(path) {
            await fsp.mkdir(path, { recursive: true })
        },
        readdir(path) {
            if (callbacks !== null)
                return callbackRead<readonly ListedEntry[]>((cb) =>
                    callbacks.readdir(path, { withFileTypes: true }, cb)
                ).then(entries)
            return settled(() => fsp.readdir(path, { withFileTypes: true })).then(entries, notFoundAsNull)
        },
        async stat(path) {
            try {
                const s = await fsp.stat(path)
                return { kind: kindOf(s), size: Number(s.size), mtimeMs: Number(s.mtimeMs) }
            } catch (cause) {
                if (isNotFound(cause)) return null
                throw cause
            }
        },
        async lstat(path) {
            try {
                const s = await fsp.lstat(path)
                return {
                    kind: s.isSymbolicLink?.() === true ? 'symlink' : kindOf(s),
                    size: Number(s.size),
                    mtimeMs: Number(s.mtimeMs)
                }
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
