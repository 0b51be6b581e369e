import type { FsDirEntry, FsPort, FsStat } from './types.js'

/** An in-memory {@link FsPort} plus a way to look at everything it holds. */
export interface MemoryFs extends FsPort {
    /** Every file (path → content) and every directory, both sorted; for tests and debugging. */
    dump(): { files: Record<string, string>; directories: string[] }
    /** Creates a symbolic link at `path` pointing to the absolute `target`, as `ln -s` would (tests of confinement). */
    symlink(target: string, path: string): Promise<void>
}

/** Errors carry a Node-style `code`, so code written against node:fs reads them alike. */
function fsError(
    code: 'ENOENT' | 'EEXIST' | 'ENOTDIR' | 'EISDIR' | 'EINVAL' | 'ELOOP',
    op: string,
    path: string
): Error {
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
    return `/${parts.join('/')}`
}

function parentOf(path: string): string {
    const i = path.lastIndexOf('/')
    return i <= 0 ? '/' : path.slice(0, i)
}

/**
 * Creates an in-memory file system for tests, browsers and dry runs. Paths must be absolute
 * POSIX paths; directories are real (a file needs an existing parent, as on disk); symbolic links
 * are followed like on disk, except by `lstat`, `rm` and `rename` of the link itself.
 * @param initial - optional `{ '/path/file.json': 'content' }`; parent directories are created.
 * @returns a {@link MemoryFs}
 * @example const fs = createMemoryFs({ '/island/providers/x/index.json': '{}' })
 */
export function createMemoryFs(initial: Readonly<Record<string, string>> = {}): MemoryFs {
    const files = new Map<string, string>()
    const dirs = new Set<string>(['/'])
    const links = new Map<string, string>()
    // Modification times are a counter: the port must not read a clock the host did not inject.
    let tick = 0

    /** The path with every symbolic link on the way resolved; the last segment only when `followLast`. */
    const resolve = (path: string, followLast: boolean, op: string): string => {
        let current = path
        for (let hops = 0; hops < 40; hops += 1) {
            const parts = current === '/' ? [] : current.slice(1).split('/')
            let prefix = ''
            let changed = false
            for (let i = 0; i < parts.length; i += 1) {
                prefix += `/${parts[i]}`
                const last = i === parts.length - 1
                const target = links.get(prefix)
                if (target !== undefined && (!last || followLast)) {
                    current = normalize(`${target}/${parts.slice(i + 1).join('/')}`, op)
                    changed = true
                    break
                }
            }
            if (!changed) return current
        }
        throw fsError('ELOOP', op, path)
    }

    const mkdirp = (dir: string, op: string): void => {
        const chain: string[] = []
        let cur = resolve(dir, true, op)
        while (!dirs.has(cur)) {
            if (files.has(cur) || links.has(cur)) throw fsError(files.has(cur) ? 'ENOTDIR' : 'EEXIST', op, cur)
            chain.push(cur)
            cur = parentOf(cur)
        }
        for (const d of chain.reverse()) dirs.add(d)
    }

    // Only absolute paths with text are seeded; anything else in `initial` is ignored, never a throw.
    let seeds: Array<[string, unknown]> = []
    try {
        seeds = initial !== null && typeof initial === 'object' ? Object.entries(initial) : []
    } catch {
        seeds = []
    }
    for (const [raw, content] of seeds) {
        if (typeof content !== 'string' || !raw.startsWith('/') || raw.includes('\u0000')) continue
        try {
            const path = normalize(raw, 'init')
            mkdirp(parentOf(path), 'init')
            files.set(path, content)
        } catch {}
    }
    const mtimes = new Map<string, number>()

    const statOf = (path: string): FsStat | null => {
        if (dirs.has(path)) return { kind: 'directory', size: 0, mtimeMs: 0 }
        const content = files.get(path)
        return content === undefined ? null : { kind: 'file', size: content.length, mtimeMs: mtimes.get(path) ?? 0 }
    }

    const port: MemoryFs = {
        async readFile(raw) {
            const path = resolve(normalize(raw, 'readFile'), true, 'readFile')
            if (dirs.has(path)) throw fsError('EISDIR', 'readFile', path)
            return files.get(path) ?? null
        },
        async writeFile(raw, data, options) {
            const path = resolve(normalize(raw, 'writeFile'), true, 'writeFile')
            if (typeof data !== 'string') throw fsError('EINVAL', 'writeFile', path)
            if (dirs.has(path)) throw fsError(options?.exclusive === true ? 'EEXIST' : 'EISDIR', 'writeFile', path)
            if (!dirs.has(parentOf(path))) throw fsError('ENOENT', 'writeFile', path)
            if (options?.exclusive === true && (files.has(path) || links.has(path)))
                throw fsError('EEXIST', 'writeFile', path)
            files.set(path, data)
            mtimes.set(path, ++tick)
        },
        async mkdir(raw) {
            mkdirp(normalize(raw, 'mkdir'), 'mkdir')
        },
        async readdir(raw) {
            const path = resolve(normalize(raw, 'readdir'), true, 'readdir')
            if (files.has(path)) throw fsError('ENOTDIR', 'readdir', path)
            if (!dirs.has(path)) return null
            const prefix = path === '/' ? '/' : `${path}/`
            const out: FsDirEntry[] = []
            const direct = (p: string): boolean =>
                p !== path && p.startsWith(prefix) && !p.slice(prefix.length).includes('/')
            for (const d of dirs) if (direct(d)) out.push({ name: d.slice(prefix.length), kind: 'directory' })
            for (const f of files.keys()) if (direct(f)) out.push({ name: f.slice(prefix.length), kind: 'file' })
            for (const l of links.keys()) if (direct(l)) out.push({ name: l.slice(prefix.length), kind: 'symlink' })
            return out
        },
        async stat(raw) {
            return statOf(resolve(normalize(raw, 'stat'), true, 'stat'))
        },
        async lstat(raw) {
            const path = resolve(normalize(raw, 'lstat'), false, 'lstat')
            if (links.has(path)) return { kind: 'symlink', size: 0, mtimeMs: 0 }
            return statOf(path)
        },
        async link(rawFrom, rawTo) {
            const from = resolve(normalize(rawFrom, 'link'), true, 'link')
            const to = resolve(normalize(rawTo, 'link'), false, 'link')
            const content = files.get(from)
            if (content === undefined) throw fsError(dirs.has(from) ? 'EISDIR' : 'ENOENT', 'link', from)
            if (files.has(to) || dirs.has(to) || links.has(to)) throw fsError('EEXIST', 'link', to)
            if (!dirs.has(parentOf(to))) throw fsError('ENOENT', 'link', to)
            files.set(to, content)
            mtimes.set(to, ++tick)
        },
        async rename(rawFrom, rawTo) {
            const from = resolve(normalize(rawFrom, 'rename'), false, 'rename')
            const to = resolve(normalize(rawTo, 'rename'), false, 'rename')
            if (dirs.has(to)) throw fsError('EISDIR', 'rename', to)
            if (!dirs.has(parentOf(to))) throw fsError('ENOENT', 'rename', to)
            const link = links.get(from)
            if (link !== undefined) {
                links.delete(from)
                files.delete(to)
                links.set(to, link)
                return
            }
            const content = files.get(from)
            if (content === undefined) throw fsError(dirs.has(from) ? 'EISDIR' : 'ENOENT', 'rename', from)
            files.delete(from)
            // Renaming over a link replaces the link, as on disk.
            links.delete(to)
            files.set(to, content)
            mtimes.set(to, ++tick)
        },
        async rm(raw) {
            const path = resolve(normalize(raw, 'rm'), false, 'rm')
            if (path === '/') throw fsError('EINVAL', 'rm', path)
            if (links.delete(path)) return
            files.delete(path)
            if (dirs.has(path)) {
                const prefix = `${path}/`
                for (const f of [...files.keys()]) if (f.startsWith(prefix)) files.delete(f)
                for (const l of [...links.keys()]) if (l.startsWith(prefix)) links.delete(l)
                for (const d of [...dirs]) if (d === path || d.startsWith(prefix)) dirs.delete(d)
            }
        },
        async symlink(target, raw) {
            const path = resolve(normalize(raw, 'symlink'), false, 'symlink')
            if (files.has(path) || dirs.has(path) || links.has(path)) throw fsError('EEXIST', 'symlink', path)
            if (!dirs.has(parentOf(path))) throw fsError('ENOENT', 'symlink', path)
            links.set(path, normalize(target, 'symlink'))
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
