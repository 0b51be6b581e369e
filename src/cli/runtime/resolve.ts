// The runtime folder of `grade --runtime`, resolved in the parent before any child starts: its
// entry module and version, and every folder a child may read (the permission model's read list).

import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import type { ChildNetwork } from './protocol.js'

type PackageJson = { name?: unknown; version?: unknown; main?: unknown; exports?: unknown; dependencies?: unknown }

function readPackage(dir: string): PackageJson | null {
    try {
        return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson
    } catch {
        return null
    }
}

/** The module `import('<package>')` loads: `exports['.']` (import/default), else `main`, else `src/index.mjs`. */
function entryOf(dir: string, pkg: PackageJson): string {
    const dot =
        typeof pkg.exports === 'string' ? pkg.exports : (pkg.exports as Record<string, unknown> | undefined)?.['.']
    const fromExports =
        typeof dot === 'string'
            ? dot
            : typeof (dot as Record<string, unknown> | undefined)?.import === 'string'
              ? ((dot as Record<string, unknown>).import as string)
              : typeof (dot as Record<string, unknown> | undefined)?.default === 'string'
                ? ((dot as Record<string, unknown>).default as string)
                : undefined
    return resolve(dir, fromExports ?? (typeof pkg.main === 'string' ? pkg.main : 'src/index.mjs'))
}

/** The real path of `p` (links followed), or `p` itself when it cannot be read. */
export const real = (p: string): string => {
    try {
        return realpathSync(p)
    } catch {
        return p
    }
}

/** The folders of a package's dependencies, followed transitively (real paths): what importing it reads. */
function dependencyFolders(fromDir: string, pkg: PackageJson, seen: Set<string>, limit = 400): void {
    const deps = pkg.dependencies !== null && typeof pkg.dependencies === 'object' ? Object.keys(pkg.dependencies) : []
    const req = createRequire(join(fromDir, 'index.js'))
    for (const dep of deps) {
        if (seen.size >= limit) return
        let dir: string | null = null
        for (const base of req.resolve.paths(dep) ?? []) {
            if (existsSync(join(base, dep, 'package.json'))) {
                dir = real(join(base, dep))
                break
            }
        }
        if (dir === null || seen.has(dir)) continue
        seen.add(dir)
        const depPkg = readPackage(dir)
        if (depPkg !== null) dependencyFolders(dir, depPkg, seen, limit)
    }
}

/** `<folder>/node_modules` and the real folders its linked packages point at. */
function modulesFolders(folder: string): string[] {
    const modules = join(folder, 'node_modules')
    if (!existsSync(modules)) return []
    const out = [modules, real(modules)]
    const visit = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const full = join(dir, entry.name)
            if (entry.isDirectory() && entry.name.startsWith('@')) visit(full)
            else if (entry.isSymbolicLink()) out.push(real(full))
        }
    }
    try {
        visit(modules)
    } catch {
        // An unreadable node_modules grants nothing beyond itself.
    }
    return out
}

/** Where the runtime, its libraries, lists and the child script are (the child-process port's options). */
export interface RuntimeFolders {
    readonly runtime: string
    readonly libraries?: string
    readonly lists?: string
    readonly network: ChildNetwork
    readonly childScript: string
}

/** The parts of a runtime folder the parent resolves before any child starts. */
export interface ResolvedRuntime {
    readonly entry: string
    readonly version: string | null
    readonly libraries: string
    readonly lists: string | null
    /** What every child may read (its schema's folder is added per child). */
    readonly allowRead: readonly string[]
}

/**
 * Checks a runtime folder and works out what a child may read: the child script's folder, the runtime folder, its
 * dependencies, the libraries folder's `node_modules`, the lists (recordings are read by the parent).
 * @returns the resolved runtime, or the problems (each a sentence)
 */
export function resolveRuntime(options: RuntimeFolders): { runtime: ResolvedRuntime | null; errors: string[] } {
    const errors: string[] = []
    const folder = resolve(options.runtime)
    const pkg = readPackage(folder)
    if (pkg === null)
        errors.push(`--runtime ${options.runtime}: no readable package.json there (name the flowmcp-core folder)`)
    const entry = pkg === null ? '' : entryOf(folder, pkg)
    if (pkg !== null && !existsSync(entry))
        errors.push(`--runtime ${options.runtime}: its entry ${entry} does not exist`)
    const isDir = (p: string): boolean => {
        try {
            return statSync(p).isDirectory()
        } catch {
            return false
        }
    }
    const libraries = resolve(options.libraries ?? folder)
    if (options.libraries !== undefined && !isDir(libraries))
        errors.push(`--runtime-libraries ${options.libraries}: not a folder`)
    const lists = options.lists !== undefined ? resolve(options.lists) : null
    if (lists !== null && !isDir(lists)) errors.push(`--runtime-lists ${options.lists ?? ''}: not a folder`)
    if (!existsSync(options.childScript))
        errors.push(`the runtime child script ${options.childScript} is missing (a broken install?)`)
    if (errors.length > 0 || pkg === null) return { runtime: null, errors }
    const deps = new Set<string>()
    dependencyFolders(folder, pkg, deps)
    const allowRead = [
        dirname(options.childScript),
        folder,
        real(folder),
        ...deps,
        ...modulesFolders(libraries),
        ...(lists !== null ? [lists, real(lists)] : [])
    ]
    return {
        runtime: {
            entry,
            version: typeof pkg.version === 'string' ? pkg.version : null,
            libraries,
            lists,
            allowRead: [...new Set(allowRead)]
        },
        errors: []
    }
}
