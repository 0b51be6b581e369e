import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { FILE_TIMESTAMP_REGEX } from '../model/constants.js'
import { fromFileTimestamp, isIsoDateTime, toFileTimestamp } from '../time.js'
import { rx } from '../model/regex.js'
import { nullAsMissing, parseArgs } from '../validation/args.js'

/** The codes of the argument checks: SNP-001 missing (`null` too), SNP-002 wrong type. */
const NAME_ARGS = { missing: 'SNP-001', mismatch: 'SNP-002', create: createIssue } as const
const PARTS = v.object({
    name: nullAsMissing(v.string()),
    timestamp: nullAsMissing(v.string()),
    hash: nullAsMissing(v.string()),
    ext: nullAsMissing(v.string())
})

/**
 * Logical name of a primitive snapshot (schema slug, `<ns>-about`, skill, selection, shared list).
 * No `--` and no trailing `-`: `--` separates the fields, so a name holding it would make parsing
 * ambiguous (03 ⚠ C5). No dots, so the extension is unambiguous too.
 */
export const SNAPSHOT_NAME_REGEX = /^[A-Za-z0-9](?:[A-Za-z0-9_]|-(?=[A-Za-z0-9_]))*$/
/** File extension of a snapshot, without the dot. */
export const SNAPSHOT_EXT_REGEX = /^[A-Za-z0-9]+$/
/** The 8-hex content hash in a snapshot name. */
export const SNAPSHOT_HASH_REGEX = /^[a-f0-9]{8}$/

const SNAPSHOT_FILENAME_REGEX = rx(
    ''
)`^([A-Za-z0-9](?:[A-Za-z0-9_]|-(?=[A-Za-z0-9_]))*)--(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)--([a-f0-9]{8})\.
        ([A-Za-z0-9]+)$`

/** The parts of a snapshot file name `<name>--<YYYY-MM-DDTHH-MM-SSZ>--<hash8>.<ext>`. */
export interface SnapshotFilenameParts {
    readonly name: string
    /** `YYYY-MM-DDTHH-MM-SSZ` */
    readonly timestamp: string
    readonly hash: string
    readonly ext: string
}

/**
 * Builds a snapshot file name; the date comes before the hash so a plain sort puts the newest last.
 * @param input - `{ name, timestamp, hash, ext }`; `timestamp` in file form or ISO 8601 (UTC seconds are kept)
 * @returns `{ filename, errors }`; SNP-001 missing, SNP-002 wrong type, SNP-003 a part breaks the grammar
 * @example
 * formatSnapshotFilename({ name: 'prices', timestamp: '2026-05-30T19:44:23Z', hash: '93baef35', ext: 'mjs' }).filename
 * // 'prices--2026-05-30T19-44-23Z--93baef35.mjs'
 */
export function formatSnapshotFilename(input: { name?: unknown; timestamp?: unknown; hash?: unknown; ext?: unknown }): {
    filename: string | null
    errors: Issue[]
} {
    const fields = { name: input?.name, timestamp: input?.timestamp, hash: input?.hash, ext: input?.ext }
    const parts = parseArgs(PARTS, fields, NAME_ARGS, { actual: 'type' })
    if (parts.value === null) return { filename: null, errors: parts.errors }
    const errors: Issue[] = []
    const { name, timestamp, hash, ext } = parts.value
    if (!SNAPSHOT_NAME_REGEX.test(name))
        errors.push(
            createIssue('SNP-003', '/name', {
                detail: `snapshot name ${describeValue(JSON.stringify(name))} must match ${String(SNAPSHOT_NAME_REGEX)} (no "--")`
            })
        )
    if (!SNAPSHOT_HASH_REGEX.test(hash))
        errors.push(
            createIssue('SNP-003', '/hash', { detail: `hash ${describeValue(hash)} is not 8 lowercase hex characters` })
        )
    if (!SNAPSHOT_EXT_REGEX.test(ext))
        errors.push(createIssue('SNP-003', '/ext', { detail: `extension ${describeValue(ext)} must be alphanumeric` }))
    let stamp: string | null = null
    if (FILE_TIMESTAMP_REGEX.test(timestamp) && fromFileTimestamp(timestamp) !== null) stamp = timestamp
    else if (isIsoDateTime(timestamp)) stamp = toFileTimestamp(timestamp)
    if (stamp === null)
        errors.push(
            createIssue('SNP-003', '/timestamp', {
                detail: `timestamp ${describeValue(timestamp)} is neither YYYY-MM-DDTHH-MM-SSZ nor ISO 8601`
            })
        )
    if (errors.length > 0 || stamp === null) return { filename: null, errors }
    return { filename: `${name}--${stamp}--${hash}.${ext}`, errors }
}

/**
 * Parses a snapshot file name, or returns `null` when it does not follow the grammar (temp files,
 * names containing `--`, impossible dates).
 * @param filename - a file name, not a path
 * @returns the parts or `null`
 * @example parseSnapshotFilename('prices--2026-05-30T19-44-23Z--93baef35.mjs')?.hash // '93baef35'
 */
export function parseSnapshotFilename(filename: unknown): SnapshotFilenameParts | null {
    // A file name is at most 255 characters; a longer string is never one, and the regex never sees it.
    if (typeof filename !== 'string' || filename.length > 255) return null
    const m = SNAPSHOT_FILENAME_REGEX.exec(filename)
    if (m === null || fromFileTimestamp(m[2] as string) === null) return null
    return { name: m[1] as string, timestamp: m[2] as string, hash: m[3] as string, ext: m[4] as string }
}

/**
 * The clean spec name of a snapshot, used when leaving the island: `<name>--<ts>--<hash8>.<ext>` ⇒ `<name>.<ext>`.
 * @returns the stripped name, or `null` when `filename` is not a snapshot name
 * @example stripSnapshotFilename('prices--2026-05-30T19-44-23Z--93baef35.mjs') // 'prices.mjs'
 */
export function stripSnapshotFilename(filename: unknown): string | null {
    const parts = parseSnapshotFilename(filename)
    return parts === null ? null : `${parts.name}.${parts.ext}`
}
