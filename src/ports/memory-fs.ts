import type { FsDirEntry, FsPort, FsStat } from './types.js'

/** An in-memory {@link FsPort} plus a way to look at everything it holds. */
export interface MemoryFs extends FsPort {
    /** Every file (path → content) and every directory, both sorted; for tests and debugging. */
    dump(): { files: Record<string, string>; directories: string[] }
}

/** Errors carry a Node-style `code`, so code written against node:fs reads them alike. */
function fsError(code: 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'EINVAL', op: string, path: string): Error {
    return Object.assign(new Error(`${code}: ${op} '${path}'`), { code })
}

function normalize(path: string, op: string): string {
    if (typeof path !== 'string' || !path.startsWith('/') || path.includes('\u0000')) {
        throw fsError('EINVAL', op, String(path))
    }
    const parts: string[] = []
    for (const part of path.split('/')) {
        if (part === '' || part === '.') continue
        if (part === '..') parts.pop()
        else parts.push(part)
    }
    return '/' + parts.join('/')
}

function parentOf(path: string): string {
    const i = path.lastIndexOf('/')
    return i <= 0 ? '/' : path.slice(0, i)
}

/**
 * Creates an in-memory file system for tests, browsers and dry runs. Paths must be absolute
 * POSIX paths; directories are real (a file needs an existing parent, as on disk).
 * @param initial - optional `{ '/path/file.json': 'content' }`; parent directories are created.
 * @returns a {@link MemoryFs}
 * @example const fs = createMemoryFs({ '/island/providers/x/index.json': '{}' })
 */
export function createMemoryFs(initial: Readonly<Record<string, string>> = {}): MemoryFs {
    const files = new Map<string, string>()
    const dirs = new Set<string>(['/'])
    // Modification times are a counter: the port must not read a clock the host did not inject.
    let tick = 0

    const mkdirp = (dir: string, op: string): void => {
        const chain: string[] = []
        let cur = dir
        while (!dirs.has(cur)) {
            if (files.has(cur)) throw fsError('ENOTDIR', op, cur)
            chain.push(cur)
            cur = parentOf(cur)
        }
        for (const d of chain.reverse()) dirs.add(d)
    }

    for (const [raw, content] of Object.entries(initial)) {
        const path = normalize(raw, 'init')
        mkdirp(parentOf(path), 'init')
        files.set(path, content)
    }
    const mtimes = new Map<string, number>()

    const port: MemoryFs = {
        async readFile(raw) {
            const path = normalize(raw, 'readFile')
            if (dirs.has(path)) throw fsError('EISDIR', 'readFile', path)
            return files.get(path) ?? null
        },
        async writeFile(raw, data) {
            const path = normalize(raw, 'writeFile')
            if (typeof data !== 'string') throw fsError('EINVAL', 'writeFile', path)
            if (dirs.has(path)) throw fsError('EISDIR', 'writeFile', path)
            if (!dirs.has(parentOf(path))) throw fsError('ENOENT', 'writeFile', path)
            files.set(path, data)
            mtimes.set(path, ++tick)
        },
        async mkdir(raw) {
            mkdirp(normalize(raw, 'mkdir'), 'mkdir')
        },
        async readdir(raw) {
            const path = normalize(raw, 'readdir')
            if (files.has(path)) throw fsError('ENOTDIR', 'readdir', path)
            if (!dirs.has(path)) return null
            const prefix = path === '/' ? '/' : path + '/'
            const out: FsDirEntry[] = []
            for (const d of dirs) if (d !== path && d.startsWith(prefix) && !d.slice(prefix.length).includes('/')) out.push({ name: d.slice(prefix.length), kind: 'directory' })
            for (const f of files.keys()) if (f.startsWith(prefix) && !f.slice(prefix.length).includes('/')) out.push({ name: f.slice(prefix.length), kind: 'file' })
            return out
        },
        async stat(raw) {
            const path = normalize(raw, 'stat')
            if (dirs.has(path)) return { kind: 'directory', size: 0, mtimeMs: 0 } satisfies FsStat
            const content = files.get(path)
            return content === undefined ? null : { kind: 'file', size: content.length, mtimeMs: mtimes.get(path) ?? 0 }
        },
        async rename(rawFrom, rawTo) {
            const from = normalize(rawFrom, 'rename')
            const to = normalize(rawTo, 'rename')
            const content = files.get(from)
            if (content === undefined) throw fsError(dirs.has(from) ? 'EISDIR' : 'ENOENT', 'rename', from)
            if (dirs.has(to)) throw fsError('EISDIR', 'rename', to)
            if (!dirs.has(parentOf(to))) throw fsError('ENOENT', 'rename', to)
            files.delete(from)
            files.set(to, content)
            mtimes.set(to, ++tick)
        },
        async rm(raw) {
            const path = normalize(raw, 'rm')
            if (path === '/') throw fsError('EINVAL', 'rm', path)
            files.delete(path)
            if (dirs.has(path)) {
                const prefix = path + '/'
                for (const f of [...files.keys()]) if (f.startsWith(prefix)) files.delete(f)
                for (const d of [...dirs]) if (d === path || d.startsWith(prefix)) dirs.delete(d)
            }
        },
        dump() {
            const sortedFiles = [...files.keys()].sort()
            return {
                files: Object.fromEntries(sortedFiles.map((f) => [f, files.get(f) as string])),
                directories: [...dirs].sort()
            }
        }
    }
    return port
}
