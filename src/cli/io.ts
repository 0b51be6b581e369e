import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'

/** What a CLI command may touch; tests pass their own. */
export interface CliIo {
    readonly stdout: (text: string) => void
    readonly stderr: (text: string) => void
    readonly readText: (path: string) => Promise<string>
    readonly cwd: string
    readonly env: Readonly<Record<string, string | undefined>>
    readonly isTTY: boolean
}

/** Exit codes: 0 ok, 1 findings, 2 usage or I/O error. */
export const EXIT = Object.freeze({ OK: 0, FINDINGS: 1, USAGE: 2 })

/** The real process. */
export function processIo(): CliIo {
    return {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
        readText: (path) => readFile(isAbsolute(path) ? path : resolve(process.cwd(), path), 'utf8'),
        cwd: process.cwd(),
        env: process.env,
        isTTY: process.stderr.isTTY === true
    }
}

/** Renders rows as an aligned plain-text table (no colour, so logs stay readable). */
export function table(rows: ReadonlyArray<Readonly<Record<string, string | number | null>>>, columns: readonly string[]): string {
    const cell = (v: string | number | null | undefined): string => (v === null || v === undefined ? '-' : String(v))
    const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)))
    const line = (values: string[]): string => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
    return [line([...columns]), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n') + '\n'
}
