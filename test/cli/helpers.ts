import { readFile } from 'node:fs/promises'
import type { CliIo } from '../../src/cli/io.js'

/** A CLI I/O that records output; files are read from the given map first, then from disk. */
export function memoryIo(
    files: Record<string, string> = {},
    extra: Partial<CliIo> = {}
): CliIo & { out: () => string; err: () => string } {
    let out = ''
    let err = ''
    return {
        stdout: (t) => {
            out += t
        },
        stderr: (t) => {
            err += t
        },
        readText: async (path) => (Object.hasOwn(files, path) ? (files[path] as string) : readFile(path, 'utf8')),
        cwd: '/work',
        env: {},
        isTTY: false,
        ...extra,
        out: () => out,
        err: () => err
    }
}
