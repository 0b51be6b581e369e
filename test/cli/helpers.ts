import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
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

/** The bundled example (examples/): its providers, recordings and answers. */
export const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))

/** `grade`'s arguments for the bundled example's `target` into `island` at `now`, offline: its recordings, its answers. */
export function exampleGradeArgs(target: string, island: string, now: string): string[] {
    const answers = join(EXAMPLES, 'answers.json')
    return [
        join(EXAMPLES, target),
        '--island',
        island,
        '--recordings',
        join(EXAMPLES, 'recordings'),
        '--answers',
        answers,
        '--now',
        now
    ]
}
