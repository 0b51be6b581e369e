import { SEVERITY } from '../model/constants.js'
import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { readModuleSource } from '../schema/source-loader.js'
import {
    formatSnapshotFilename,
    parseSnapshotFilename,
    SNAPSHOT_EXT_REGEX,
    SNAPSHOT_HASH_REGEX,
    SNAPSHOT_NAME_REGEX,
    type SnapshotFilenameParts
} from '../naming/snapshot-filename.js'
import type { FsDirEntry, FsPort, SchemaLoader } from '../ports/types.js'
import { callPort, checkFsPort, Journal, listDir, readText, rollback, writeAtomic } from '../store/fs-ops.js'
import { baseName, joinPath, normalizeDir, unsafeSegmentReason } from '../store/paths.js'
import { monotonicStamp, stampOf } from './stamps.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'
import { nullAsMissing, parseArgs } from '../validation/args.js'

/** The codes of the argument checks: SNP-001 missing (`null` too), SNP-002 wrong type. */
const SNAPSHOT_ARGS = { missing: 'SNP-001', mismatch: 'SNP-002', create: createIssue } as const
const CREATE_TEXTS = v.object({
    name: nullAsMissing(v.string()),
    ext: nullAsMissing(v.string()),
    text: nullAsMissing(v.string())
})
const LIST_NAME = v.optional(v.string())

/** One snapshot found in a folder. */
export interface SnapshotInfo extends SnapshotFilenameParts {
    readonly file: string
}

/** Result of {@link SourceSnapshot.create}. */
export interface SnapshotCreateResult {
    /** The snapshot holding the content: the new file, or the existing identical newest one. */
    readonly file: string | null
    readonly path: string | null
    readonly hash: string | null
    /** False when the newest snapshot already held these bytes (a no-op). */
    readonly created: boolean
    readonly errors: Issue[]
}

/** How a snapshot's hash is computed: `schema` (canonical `main`), `json` (canonical JSON), `bytes` (raw text). */
export type SnapshotHashKind = 'schema' | 'json' | 'bytes'

function sortSnapshots(list: SnapshotInfo[]): SnapshotInfo[] {
    return list.sort((a, b) =>
        a.name !== b.name
            ? a.name < b.name
                ? -1
                : 1
            : a.timestamp !== b.timestamp
              ? a.timestamp < b.timestamp
                  ? -1
                  : 1
              : a.file < b.file
                ? -1
                : a.file > b.file
                  ? 1
                  : 0
    )
}

/**
 * Neutral source snapshots (chapters 15/19): byte-identical copies named
 * `<name>--<YYYY-MM-DDTHH-MM-SSZ>--<hash8>.<ext>`. Snapshots are never overwritten or deleted.
 */
class SourceSnapshotUnguarded {
    private constructor() {}

    /**
     * Stores `text` as the newest snapshot of `name` in `dir`.
     * - The newest snapshot already has this hash and these bytes ⇒ no-op (`created: false`).
     * - Any snapshot has this hash but other bytes ⇒ SNP-004 conflict (03 ⚠ C12: a handler-only edit
     *   keeps the schema hash), nothing written; with `sameHashEdit: 'new-snapshot'` a new snapshot
     *   beside it instead (SNP-INFO-002), never an overwrite.
     * - Only an older snapshot holds these bytes (the source was reverted) ⇒ copied again as the
     *   newest (SNP-INFO-001), so the newest snapshot always equals the current source.
     * - Otherwise a new file; its timestamp is `now`, advanced past the newest one when needed.
     * @param input - `{ fs, dir, name, ext, text, now, hash? }`; `hash` defaults to the hash of the raw bytes
     * @returns `{ file, path, hash, created, errors }`; SNP-001/SNP-002/SNP-003 bad arguments, SNP-004
     *   conflict, FS-* port failures
     * @example
     * await SourceSnapshot.create({
     *     fs,
     *     dir: '/island/providers/defillama/prices/schema',
     *     name: 'prices',
     *     ext: 'mjs',
     *     text,
     *     hash: '93baef35',
     *     now
     * })
     */
    static async create(input: {
        fs?: unknown
        dir?: unknown
        name?: unknown
        ext?: unknown
        text?: unknown
        hash?: unknown
        now?: unknown
        journal?: Journal
        /**
         * What an edit that keeps the hash but not the bytes does: `conflict` (default) refuses it (SNP-004);
         * `new-snapshot` is the explicit decision 03 ⚠ C12 asks for: a new snapshot beside the old (SNP-INFO-002).
         */
        sameHashEdit?: 'conflict' | 'new-snapshot'
    }): Promise<SnapshotCreateResult> {
        const fail = (errors: Issue[]): SnapshotCreateResult => ({
            file: null,
            path: null,
            hash: null,
            created: false,
            errors
        })
        const { errors, dir, stamp } = checkCreateInput(input)
        if (errors.length > 0 || dir === null || stamp === null) return fail(errors)

        const fs = input.fs as FsPort
        const text = input.text as string
        const name = input.name as string
        const ext = input.ext as string
        const hash = typeof input.hash === 'string' ? input.hash : (HashGenerator.hashBytes({ text }).short as string)
        const listing = await listDir(fs, dir)
        if (!listing.ok) return fail([listing.issue])
        const ofThisSource = (parts: SnapshotFilenameParts): boolean => parts.name === name && parts.ext === ext
        const same = sortSnapshots(parseListing(listing.value ?? [], ofThisSource))
        const notes: Issue[] = []
        // Snapshots of this hash whose bytes differ (03 ⚠ C12), and those holding exactly these bytes.
        const differing: SnapshotInfo[] = []
        const equal: SnapshotInfo[] = []
        for (const s of same.filter((s) => s.hash === hash)) {
            const existing = await readText(fs, joinPath(dir, s.file))
            if (!existing.ok) return fail([existing.issue])
            if (existing.value === text) equal.push(s)
            else if (input.sameHashEdit !== 'new-snapshot')
                return fail([createIssue('SNP-004', '/text', { file: s.file, hash })])
            else differing.push(s)
        }
        const newest = same[same.length - 1]
        if (newest !== undefined && equal.includes(newest)) {
            return { file: newest.file, path: joinPath(dir, newest.file), hash, created: false, errors: [] }
        }
        const older = equal[0]
        if (older !== undefined) notes.push(createIssue('SNP-INFO-001', '/text', { file: older.file }))
        else if (differing[0] !== undefined)
            notes.push(createIssue('SNP-INFO-002', '/text', { file: differing[differing.length - 1]?.file, hash }))
        const ts = monotonicStamp(
            stamp,
            same.map((s) => s.timestamp)
        )
        if (ts !== stamp) notes.push(createIssue('ISL-INFO-001', '/now', { from: stamp, to: ts, folder: dir }))
        const { filename } = formatSnapshotFilename({ name, timestamp: ts, hash, ext })
        const path = joinPath(dir, filename as string)
        const journal = input.journal ?? new Journal()
        const problems = await writeAtomic(fs, path, text, { overwrite: false, journal })
        if (problems.length > 0) {
            if (input.journal === undefined) problems.push(...(await rollback(fs, journal)))
            return fail(problems)
        }
        return { file: filename, path, hash, created: true, errors: notes }
    }

    /**
     * Lists the snapshots in a folder (optionally of one name), sorted by name, then timestamp.
     * @param input - `{ fs, dir, name? }`
     * @returns `{ snapshots, errors }`; a missing folder is an empty list
     * @example (await SourceSnapshot.list({ fs, dir, name: 'prices' })).snapshots.at(-1)?.file
     */
    static async list(input: {
        fs?: unknown
        dir?: unknown
        name?: unknown
    }): Promise<{ snapshots: SnapshotInfo[]; errors: Issue[] }> {
        const errors: Issue[] = []
        const port = checkFsPort(input?.fs)
        if (port !== null) errors.push(port)
        const { dir, issue } = normalizeDir(input?.dir, '/dir', 'dir')
        if (issue !== null) errors.push(issue)
        errors.push(...parseArgs(LIST_NAME, input?.name, SNAPSHOT_ARGS, { actual: 'type', at: ['name'] }).errors)
        if (errors.length > 0 || dir === null) return { snapshots: [], errors }
        const listing = await listDir(input.fs as FsPort, dir)
        if (!listing.ok) return { snapshots: [], errors: [listing.issue] }
        const snapshots = parseListing(
            listing.value ?? [],
            (parts) => input.name === undefined || parts.name === input.name
        )
        return { snapshots: sortSnapshots(snapshots), errors: [] }
    }

    /**
     * Recomputes a snapshot's hash and compares it with the hash in its name. `.mjs` schemas are
     * never executed: `main` is read from the syntax tree unless given parsed, or the host passes an
     * explicit `trustedLoader` (which imports, i.e. runs, the file). An About `.md` also verifies
     * against the reference implementation's legacy `{ about: text }` hash (03 ⚠ C11).
     * @param input - `{ fs, path, hashOf?, main?, trustedLoader? }`; `hashOf` defaults by extension (mjs ⇒ schema, json
     *   ⇒ json, else bytes)
     * @returns `{ valid, expectedHash, actualHash, errors }`; SNP-003 bad name, SNP-005 unreadable, SNP-006 mismatch,
     *   SRC-* unreadable module
     * @example (await SourceSnapshot.verify({ fs, path, main })).valid
     */
    static async verify(input: {
        fs?: unknown
        path?: unknown
        hashOf?: SnapshotHashKind
        main?: unknown
        trustedLoader?: SchemaLoader
    }): Promise<{ valid: boolean; expectedHash: string | null; actualHash: string | null; errors: Issue[] }> {
        const fail = (
            errors: Issue[],
            expectedHash: string | null = null,
            actualHash: string | null = null
        ): { valid: false; expectedHash: string | null; actualHash: string | null; errors: Issue[] } => ({
            valid: false,
            expectedHash,
            actualHash,
            errors
        })
        const port = checkFsPort(input?.fs)
        const { dir: path, issue } = normalizeDir(input?.path, '/path', 'path')
        const early = [port, issue].filter((x): x is Issue => x !== null)
        if (early.length > 0 || path === null) return fail(early)
        const fs = input.fs as FsPort
        const parts = parseSnapshotFilename(baseName(path))
        if (parts === null) {
            const detail = `${describeValue(baseName(path))} is not <name>--<ts>--<hash8>.<ext>`
            return fail([createIssue('SNP-003', '/path', { detail })])
        }
        const read = await readText(fs, path)
        if (!read.ok) return fail([read.issue], parts.hash)
        if (read.value === null) return fail([createIssue('SNP-005', '/path', { path })], parts.hash)
        const kind: SnapshotHashKind =
            input.hashOf ?? (parts.ext === 'mjs' ? 'schema' : parts.ext === 'json' ? 'json' : 'bytes')
        const hashed = await hashSnapshot(kind, read.value, path, input)
        if (hashed.errors !== null) return fail(hashed.errors, parts.hash)
        const { actual, legacy } = hashed
        if (actual === parts.hash || legacy === parts.hash) {
            const actualHash = actual === parts.hash ? actual : legacy
            return { valid: true, expectedHash: parts.hash, actualHash, errors: [] }
        }
        const mismatch = { file: baseName(path), expected: parts.hash, actual: actual ?? 'none' }
        return fail([createIssue('SNP-006', '/path', mismatch)], parts.hash, actual)
    }
}

/**
 * The public SourceSnapshot: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const SourceSnapshot = /* @__PURE__ */ guardStatics(SourceSnapshotUnguarded, 'SourceSnapshot')

type CreateInput = Parameters<typeof SourceSnapshot.create>[0]
type VerifyInput = Parameters<typeof SourceSnapshot.verify>[0]

/** Validates every argument of {@link SourceSnapshot.create} before the folder is read. */
function checkCreateInput(input: CreateInput): { errors: Issue[]; dir: string | null; stamp: string | null } {
    const errors: Issue[] = []
    const port = checkFsPort(input?.fs)
    if (port !== null) errors.push(port)
    const { dir, issue } = normalizeDir(input?.dir, '/dir', 'dir')
    if (issue !== null) errors.push(issue)
    const texts = { name: input?.name, ext: input?.ext, text: input?.text }
    errors.push(...parseArgs(CREATE_TEXTS, texts, SNAPSHOT_ARGS, { actual: 'type' }).errors)
    const name = input?.name
    if (typeof name === 'string' && (unsafeSegmentReason(name) !== null || !SNAPSHOT_NAME_REGEX.test(name))) {
        const detail = `snapshot name ${describeValue(JSON.stringify(name))} must match ${String(SNAPSHOT_NAME_REGEX)}`
        errors.push(createIssue('SNP-003', '/name', { detail }))
    }
    if (typeof input?.ext === 'string' && !SNAPSHOT_EXT_REGEX.test(input.ext)) {
        errors.push(
            createIssue('SNP-003', '/ext', { detail: `extension ${describeValue(input.ext)} must be alphanumeric` })
        )
    }
    if (input?.hash !== undefined && !(typeof input.hash === 'string' && SNAPSHOT_HASH_REGEX.test(input.hash))) {
        const detail = `hash ${describeValue(input.hash)} is not 8 lowercase hex characters`
        errors.push(createIssue('SNP-003', '/hash', { detail }))
    }
    const stamp = stampOf(input?.now)
    if (stamp === null) {
        errors.push(
            createIssue('SNP-003', '/now', { detail: `now ${describeValue(input?.now)} is not an ISO-8601 date-time` })
        )
    }
    return { errors, dir, stamp }
}

/** The snapshot files of a listing whose parsed name passes `keep`, unsorted. */
function parseListing(entries: readonly FsDirEntry[], keep: (p: SnapshotFilenameParts) => boolean): SnapshotInfo[] {
    return entries
        .filter((e) => e.kind === 'file')
        .map((e) => ({ file: e.name, parts: parseSnapshotFilename(e.name) }))
        .filter((x): x is { file: string; parts: SnapshotFilenameParts } => x.parts !== null && keep(x.parts))
        .map((x) => ({ ...x.parts, file: x.file }))
}

/** A recomputed hash; `legacy` is an About text's `{ about: text }` hash (03 ⚠ C11); `errors` when none came out. */
type HashOf = { actual: string | null; legacy: string | null; errors: null } | { errors: Issue[] }

async function hashSnapshot(kind: SnapshotHashKind, text: string, path: string, input: VerifyInput): Promise<HashOf> {
    if (kind === 'bytes') {
        const actual = HashGenerator.hashBytes({ text }).short
        return { actual, legacy: HashGenerator.computeHash({ value: { about: text } }).short, errors: null }
    }
    if (kind === 'json') {
        let value: unknown
        try {
            value = JSON.parse(text) as unknown
        } catch (cause) {
            const detail = `not JSON: ${cause instanceof Error ? cause.message : 'invalid'}`
            return { errors: [createIssue('SNP-003', '/path', { detail })] }
        }
        const isSelection = isObject(value)
        const res = isSelection
            ? HashGenerator.computeSelectionHash({ selection: value })
            : HashGenerator.computeHash({ value })
        return res.short === null ? { errors: res.errors } : { actual: res.short, legacy: null, errors: null }
    }
    const loaded = await schemaMain(text, path, input)
    if (loaded.errors !== null) return { errors: loaded.errors }
    const res = HashGenerator.computeSchemaHash({ schema: loaded.main })
    return res.short === null ? { errors: res.errors } : { actual: res.short, legacy: null, errors: null }
}

type LoadedMain = { main: unknown; errors: null } | { errors: Issue[] }

/** A schema snapshot's `main`: given, imported by an explicit trusted loader, or read from the syntax tree. */
async function schemaMain(text: string, path: string, input: VerifyInput): Promise<LoadedMain> {
    let main = input.main
    if (main === undefined && input.trustedLoader !== undefined) {
        const loader = input.trustedLoader
        const loaded = await callPort('load', path, () => loader.load(path))
        if (!loaded.ok) return { errors: [loaded.issue] }
        main = loaded.value?.main ?? loaded.value?.schema
    } else if (main === undefined) {
        // Read from the syntax tree: a snapshot is never run.
        const read = readModuleSource({ source: text })
        const problems = read.errors.filter((e) => e.severity === SEVERITY.error).map((e) => ({ ...e, path: '/path' }))
        if (read.module === null || problems.length > 0) return { errors: problems }
        main = read.module.main ?? read.module.schema
    }
    if (main === undefined) return { errors: [createIssue('SRC-005', '/path')] }
    return { main, errors: null }
}
