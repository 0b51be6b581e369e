// `grade --sign-key <file>`: every grading entry of the run gets a DSSE envelope (Ed25519, RFC 8037 JWK) beside it in
// the island, `<entry file>.dsse`, which `validate --envelope … --trusted-keys …` and a registry verify
// (docs/registry.md). The key is read once, before anything is graded; its private part is never printed or written.

import { randomUUID } from 'node:crypto'
import { link, readFile, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { signGradingEntry, type GradeNamespaceResult, type Issue } from '../../index.js'
import { attestIssue, readJwk } from '../../hashing/attest.js'
import { EXIT, type CliIo } from '../io.js'

/** The name of an entry's envelope: the entry's file name and `.dsse`, as a detached signature names its file. */
export const ENVELOPE_SUFFIX = '.dsse'

/** The private key of `--sign-key`, checked: the JWK as the file holds it and the id its signatures carry. */
export interface SigningKey {
    readonly jwk: unknown
    readonly keyId: string
}

/** The reason a key file is refused, one line: the code and its message (which never quotes the file). */
const refused = (io: CliIo, command: string, issue: Issue): number => {
    io.stderr(`${command}: --sign-key: ${issue.code} ${issue.message}\n`)
    return EXIT.USAGE
}

/**
 * Reads and checks `--sign-key`: `null` without it, the key, or the usage exit code (ATT-001 on stderr) when the file
 * cannot be read, is not JSON or holds no private Ed25519 JWK, or when there is no `--island` to write entries to.
 */
export async function readSigningKey(
    options: { readonly signKey?: string; readonly island?: string },
    io: CliIo,
    command: string
): Promise<SigningKey | null | number> {
    if (options.signKey === undefined) return null
    if (options.island === undefined) {
        io.stderr(`${command}: --sign-key signs the entries written to the island: it needs --island\n`)
        return EXIT.USAGE
    }
    const bad = (detail: string): number => refused(io, command, attestIssue('ATT-001', '/signKey', { detail }))
    let text: string
    try {
        text = await io.readText(options.signKey)
    } catch (cause) {
        const reason = cause instanceof Error && 'code' in cause ? String(cause.code) : 'unreadable'
        return bad(`cannot read the key file (${reason})`)
    }
    let jwk: unknown
    try {
        jwk = JSON.parse(text)
    } catch {
        // JSON.parse's message quotes the text: the key must not reach the terminal.
        return bad('the key file is not JSON')
    }
    const read = readJwk(jwk, '/signKey', true)
    if (read.key === null)
        return read.issue === null ? bad('not an Ed25519 private JWK') : refused(io, command, read.issue)
    // Whatever the run prints from here on has the private part redacted, should any path ever echo it.
    const d = (jwk as { d?: unknown }).d
    if (typeof d === 'string') io.addSecrets?.([d])
    return { jwk, keyId: read.key.keyId }
}

/** Every island file of an entry the run wrote or rests on (kept from an earlier run). */
function entryFiles(namespaces: readonly GradeNamespaceResult[]): string[] {
    const units = namespaces.flatMap((ns) => [
        ...ns.units,
        ...ns.schemas.flatMap((row) => row.result.grading?.units ?? [])
    ])
    return [...new Set(units.flatMap((u) => (u.written !== null ? [u.written] : [])))]
}

/** Writes `text` to `path` whole, never over an existing file: a temp file linked onto the name, then removed. */
async function writeNew(path: string, text: string): Promise<boolean> {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomUUID()}.tmp`)
    try {
        await writeFile(temp, text, { flag: 'wx' })
        await link(temp, path)
        return true
    } catch (cause) {
        if (cause instanceof Error && 'code' in cause && cause.code === 'EEXIST') return false
        throw cause
    } finally {
        await rm(temp, { force: true }).catch(() => undefined)
    }
}

/**
 * Signs every entry of the run that has no envelope yet (an envelope already there is never replaced) and says how
 * many on stderr. False when an entry could not be read, signed or its envelope written (each named on stderr).
 */
export async function signEntries(
    namespaces: readonly GradeNamespaceResult[],
    key: SigningKey,
    io: CliIo,
    command: string
): Promise<boolean> {
    let signed = 0
    let ok = true
    for (const file of entryFiles(namespaces)) {
        try {
            const result = signGradingEntry({ entry: JSON.parse(await readFile(file, 'utf8')), privateKey: key.jwk })
            if (result.envelope === null) {
                ok = false
                const codes = result.errors.map((e) => e.code).join(', ')
                io.stderr(`${command}: cannot sign ${file}: ${codes}\n`)
                continue
            }
            if (await writeNew(`${file}${ENVELOPE_SUFFIX}`, `${JSON.stringify(result.envelope, null, 2)}\n`)) signed++
        } catch (cause) {
            ok = false
            const reason = cause instanceof Error && 'code' in cause ? String(cause.code) : 'not JSON'
            io.stderr(`${command}: cannot sign ${file} (${reason})\n`)
        }
    }
    io.stderr(`signed: ${signed} ${signed === 1 ? 'entry' : 'entries'} with key ${key.keyId}\n`)
    return ok
}
