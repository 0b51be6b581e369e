import { readFile } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { isSecretName, redactMessage, secretForms } from '../prompts/redact.js'

/** What a CLI command may touch; tests pass their own. */
export interface CliIo {
    readonly stdout: (text: string) => void
    readonly stderr: (text: string) => void
    readonly readText: (path: string) => Promise<string>
    readonly cwd: string
    readonly env: Readonly<Record<string, string | undefined>>
    readonly isTTY: boolean
    /** Whether standard output is a terminal (colours; see cli/colour.ts). Absent: not a terminal. */
    readonly stdoutIsTTY?: boolean
    /** Ends a command that runs until stopped (`grade --watch`) as Ctrl-C does; tests pass their own. */
    readonly signal?: AbortSignal
    /** Redacts a text before it is written (stdout, stderr, SARIF, summary, report); see {@link redactingIo}. */
    readonly redact?: (text: string) => string
    /** Adds values this run must never write (the server params it read, the judge's environment). */
    readonly addSecrets?: (values: readonly string[]) => void
}

/** Exit codes: 0 ok, 1 findings (a gate failed), 2 usage or environment error, 130 interrupted (Ctrl-C). */
export const EXIT = Object.freeze({ OK: 0, FINDINGS: 1, USAGE: 2, INTERRUPTED: 130 })

/** The text as `io` would write it: redacted when `io` redacts (every real run does). */
export function redacted(io: CliIo, text: string): string {
    return io.redact !== undefined ? io.redact(text) : text
}

/**
 * The same I/O with everything it writes redacted: the common credential shapes, the values of
 * environment variables whose names say they are secrets (`*_API_KEY`, `*_TOKEN`, …) and of the
 * `extraNames` given (`--judge-env`), and every value added later with `addSecrets`.
 */
export function redactingIo(io: CliIo, extraNames: readonly string[] = []): CliIo {
    const named = (name: string): boolean =>
        isSecretName(name, true) || /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD)$/i.test(name)
    const values = (pick: (name: string) => boolean): Record<string, string> =>
        Object.fromEntries(
            Object.entries(io.env)
                .filter(([name, v]) => typeof v === 'string' && pick(name))
                .map(([, v], i) => [String(i), v as string])
        )
    // A variable found by its name alone needs a value long enough to be a key: `DISABLE_TOKEN=true` must not erase
    // every "true".
    let forms = [
        ...new Set([...secretForms(values(named), 8), ...secretForms(values((name) => extraNames.includes(name)))])
    ].sort((a, b) => b.length - a.length)
    const redact = (text: string): string => redactMessage(text, forms)
    return {
        ...io,
        stdout: (text) => io.stdout(redact(text)),
        stderr: (text) => io.stderr(redact(text)),
        redact,
        addSecrets: (more) => {
            forms = [
                ...new Set([...forms, ...secretForms(Object.fromEntries(more.map((v, i) => [String(i), v])))])
            ].sort((a, b) => b.length - a.length)
        }
    }
}

/** The real process. */
export function processIo(): CliIo {
    return {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
        readText: (path) => readFile(isAbsolute(path) ? path : resolve(process.cwd(), path), 'utf8'),
        cwd: process.cwd(),
        env: process.env,
        isTTY: process.stderr.isTTY === true,
        stdoutIsTTY: process.stdout.isTTY === true
    }
}

/** Renders rows as an aligned plain-text table (no colour, so logs stay readable). */
export function table(
    rows: ReadonlyArray<Readonly<Record<string, string | number | null>>>,
    columns: readonly string[]
): string {
    const cell = (v: string | number | null | undefined): string => (v === null || v === undefined ? '-' : String(v))
    const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)))
    const line = (values: string[]): string =>
        values
            .map((v, i) => v.padEnd(widths[i] ?? 0))
            .join('  ')
            .trimEnd()
    return `${[
        line([...columns]),
        line(widths.map((w) => '-'.repeat(w))),
        ...rows.map((r) => line(columns.map((c) => cell(r[c]))))
    ].join('\n')}\n`
}
