import type { LoadedModule, SchemaLoader } from '../ports/types.js'

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
 * A trusted loader: a dynamic `import()` of the module by its `file://` URL (05 §2.2). Importing
 * RUNS the module's top level, so it is never a default: a host passes it as `trustedLoader` only
 * for sources it trusts (the CLI only with `--trusted-import`). Without it the library reads
 * sources from their syntax tree ({@link readModuleSource}). Handlers are never called.
 * Paths must be absolute: the core knows no working directory.
 */
export const importSchemaLoader: SchemaLoader = {
    async load(path: string): Promise<LoadedModule> {
        const url = fileUrlOf(path)
        if (url === null) throw new Error(`not an absolute path: ${path}`)
        return (await import(/* @vite-ignore */ /* webpackIgnore: true */ url)) as LoadedModule
    }
}
