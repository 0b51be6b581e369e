import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The library's sources, `src/`, as a path ending with `/`. */
export const SRC = new URL('../../src/', import.meta.url).pathname

/**
 * The files under `path` (depth first, in directory order) whose names end with `ending`; a file is itself when
 * it ends so. The one file walk of the tests that read the tree (conventions, catalogue use, corpus modules).
 */
export function filesUnder(path: string, ending = ''): string[] {
    if (!statSync(path).isDirectory()) return path.endsWith(ending) ? [path] : []
    return readdirSync(path).flatMap((name) => filesUnder(join(path, name), ending))
}
