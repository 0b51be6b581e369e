import type { LoadedModule, SchemaLoader } from '../ports/types.js'
import { SecurityScan } from '../schema/security-scan.js'

/** `file://` URL of an absolute POSIX or Windows path, without `node:url`. */
export function fileUrlOf(path: string): string | null {
    const posix = path.replace(/\\/g, '/')
    const isWindows = /^[A-Za-z]:\//.test(posix)
    if (!posix.startsWith('/') && !isWindows) return null
    const encoded = posix
        .split('/')
        .map((segment, i) => (isWindows && i === 0 ? segment : encodeURIComponent(segment)))
        .join('/')
    return isWindows ? `file:///${encoded}` : `file://${encoded}`
}

/**
 * The default schema loader: a dynamic `import()` of the module by its `file://` URL (05 §2.2).
 * Importing runs the module's top level, which is why {@link gradeSingleSchema} scans the source
 * first and refuses to load one with code-execution patterns. Handlers are never called.
 * Paths must be absolute: the core knows no working directory.
 */
export const importSchemaLoader: SchemaLoader = {
    async load(path: string): Promise<LoadedModule> {
        const url = fileUrlOf(path)
        if (url === null) throw new Error(`not an absolute path: ${path}`)
        return (await import(/* @vite-ignore */ /* webpackIgnore: true */ url)) as LoadedModule
    }
}

/**
 * Why a schema source must not be imported: its code-execution findings (eval, the Function
 * constructor, child_process, …) as `label at line n`, joined; `null` when it may be loaded.
 * Importing runs a module's top level, so every loader of this library asks this first.
 */
export function loadRefusal(source: string): string | null {
    const dangerous = SecurityScan.scan({ source }).findings.filter((f) => f.vetoClass !== null)
    return dangerous.length === 0 ? null : dangerous.map((f) => `${f.label} at line ${f.line}`).join(', ')
}
