import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { FsPort } from '../ports/types.js'
import {
    callPort,
    checkFsPort,
    Journal,
    readText,
    rollback,
    writeAtomic,
    writeReplaceableAll
} from '../store/fs-ops.js'
import { baseName, dirName, joinPath, LAYOUT, normalizeDir } from '../store/paths.js'
import { resolveLatest, type ResolveLatestResult } from '../store/resolve-latest.js'
import { selectLatest, type LatestKind } from '../naming/latest.js'
import { buildNamespaceIndex, indexTimestamp } from './build-namespace.js'
import { buildSelectionIndex } from './build-selection.js'
import { digestGradingFile } from './digest.js'
import { serializeIndex, validateIndex } from './index-json.js'
import { buildLockSnapshot } from './lock-snapshot.js'
import type { FolderRecord } from './folder-state.js'
import {
    INDEX_RECORD_FILE,
    LEGACY_INDEX_RECORD_FILE,
    parseRecord,
    serializeRecord,
    type RecordOwner
} from './index-record.js'
import { PortPool, poolSize, readNamespaceListing, readSelectionListing, unchangedSince } from './read-listing.js'
import type {
    GradingFacts,
    GradingFileInput,
    LockSnapshot,
    NamespaceIndex,
    RollupIndex,
    SelectionIndex
} from './types.js'
import { guardStatics } from '../errors/guard.js'

/** Result of a rebuild: `status` is true when a valid index exists on disk afterwards. */
export interface RebuildResult<T extends RollupIndex> {
    readonly status: boolean
    readonly index: T | null
    readonly indexPath: string | null
    /** Whether index.json was (re)written; false when the bytes were already identical. */
    readonly written: boolean
    readonly errors: Issue[]
}

/** Options only the island operations pass to a rebuild; not part of the public signature. */
export interface RebuildInternals {
    /** Records a newly created index.json, so a failing operation can undo it. */
    readonly journal?: Journal
    /** Replaces the carried lockSnapshot (only the start of a grading run does this, 03 ⚠ C16). */
    readonly freeze?: (
        index: RollupIndex,
        listingDefinition: { file: string; value: unknown } | null
    ) => { lockSnapshot: LockSnapshot | null; errors: Issue[] }
}

async function readPrevious(
    fs: FsPort,
    indexPath: string
): Promise<{ text: string | null; value: unknown; errors: Issue[]; fatal: Issue | null }> {
    const res = await readText(fs, indexPath)
    if (!res.ok) return { text: null, value: undefined, errors: [], fatal: res.issue }
    if (res.value === null) return { text: null, value: undefined, errors: [], fatal: null }
    try {
        return { text: res.value, value: JSON.parse(res.value) as unknown, errors: [], fatal: null }
    } catch (cause) {
        return {
            text: res.value,
            value: undefined,
            errors: [
                createIssue('IDX-022', '', {
                    detail: `index.json is not JSON (${cause instanceof Error ? cause.message : 'invalid'})`
                })
            ],
            fatal: null
        }
    }
}

/** The rebuild record beside index.json: what was read, and what the rebuild leaves for the next one. */
interface RecordState {
    readonly path: string
    readonly owner: RecordOwner
    /** The file as read (`null` when missing or unreadable), to skip an unchanged write and to restore it. */
    readonly previousText: string | null
    readonly existed: boolean
}

/**
 * Reads the record unless a full read is asked for. A missing record is silent; an unusable one is
 * an info (IDX-INFO-001) and the rebuild reads every file. A failing read never fails the rebuild.
 */
async function readRecord(
    fs: FsPort,
    dir: string,
    owner: RecordOwner,
    incremental: boolean
): Promise<{ state: RecordState; folders: ReadonlyMap<string, FolderRecord> | null; issues: Issue[] }> {
    const path = joinPath(dir, INDEX_RECORD_FILE)
    const res = await readText(fs, path)
    const text = res.ok ? res.value : null
    const state: RecordState = { path, owner, previousText: text, existed: !res.ok || text !== null }
    if (!res.ok)
        return {
            state,
            folders: null,
            issues: [createIssue('IDX-INFO-001', '', { path: INDEX_RECORD_FILE, detail: res.issue.message })]
        }
    if (!incremental) return { state, folders: null, issues: [] }
    const parsed = parseRecord(text, owner)
    return {
        state,
        folders: parsed.folders,
        issues:
            parsed.reason === null
                ? []
                : [createIssue('IDX-INFO-001', '', { path: INDEX_RECORD_FILE, detail: parsed.reason })]
    }
}

/**
 * Validates, serialises and writes: the record first, then index.json (the commit point). When
 * index.json cannot be written the record is put back as it was, so a failed rebuild changes
 * nothing; a record ahead of its index would be harmless anyway (names it lists that vanish make
 * the next rebuild read the folder again).
 */
async function finish<T extends RollupIndex>(
    fs: FsPort,
    indexPath: string,
    built: { index: T | null; errors: Issue[] },
    previousText: string | null,
    journal: Journal,
    record: { state: RecordState; folders: ReadonlyMap<string, FolderRecord> | undefined }
): Promise<RebuildResult<T>> {
    const { index, errors } = built
    if (index === null) return { status: false, index: null, indexPath, written: false, errors }
    const check = validateIndex({ index, mode: 'write' })
    if (!check.valid)
        return { status: false, index: null, indexPath, written: false, errors: [...errors, ...check.errors] }
    const { text } = serializeIndex({ index, previousText })
    const { state } = record
    // No grading file yet: a record would save nothing.
    const worth = record.folders !== undefined && [...record.folders.values()].some((f) => f.listing.length > 0)
    const recordText = worth && record.folders !== undefined ? serializeRecord(state.owner, record.folders) : null
    const writeRecord = recordText !== null && recordText !== state.previousText
    if (text === previousText && !writeRecord) return { status: true, index, indexPath, written: false, errors }
    const failed = (problems: Issue[]): RebuildResult<T> => {
        const first = problems[0] as Issue
        return {
            status: false,
            index: null,
            indexPath,
            written: false,
            errors: [...errors, createIssue('IDX-008', '', { detail: first.message }), ...problems]
        }
    }
    // Both files in one go: the folder is checked once, both temp files are written, then the
    // record is renamed into place and index.json after it.
    const recordJournal = new Journal()
    const files = [
        ...(writeRecord ? [{ path: state.path, data: recordText, journal: recordJournal }] : []),
        ...(text !== previousText ? [{ path: indexPath, data: text, journal }] : [])
    ]
    const { published, issues } = await writeReplaceableAll(fs, dirName(indexPath), files, journal)
    if (issues.length > 0) {
        if (writeRecord && published > 0) issues.push(...(await restoreRecord(fs, state, recordJournal)))
        return failed(issues)
    }
    journal.files.push(...recordJournal.files)
    journal.dirs.push(...recordJournal.dirs)
    return { status: true, index, indexPath, written: text !== previousText, errors }
}

/** Puts the record back as it was before this rebuild: its old text, or no file. */
async function restoreRecord(fs: FsPort, state: RecordState, created: Journal): Promise<Issue[]> {
    if (!state.existed) return rollback(fs, created)
    if (state.previousText !== null)
        return writeAtomic(fs, state.path, state.previousText, { overwrite: true, journal: created })
    // It existed but could not be read: no content to restore, and a stale record must not stay.
    const res = await callPort('rm', state.path, () => fs.rm(state.path))
    return res.ok ? [] : [res.issue]
}

/**
 * Removes a record left under its old name once a rebuild succeeded: it is a cache nobody reads.
 * A failing removal changes nothing (the next rebuild tries again) and is not reported.
 */
async function dropLegacyRecord<T extends RollupIndex>(
    fs: FsPort,
    dir: string,
    legacy: boolean | undefined,
    result: RebuildResult<T>
): Promise<RebuildResult<T>> {
    if (legacy === true && result.status) {
        const path = joinPath(dir, LEGACY_INDEX_RECORD_FILE)
        await callPort('rm', path, () => fs.rm(path))
    }
    return result
}

function shellArgs(
    input: { fs?: unknown; now?: unknown },
    dirValue: unknown,
    dirField: string,
    parent: string
): { dir: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const port = checkFsPort(input?.fs)
    if (port !== null) errors.push(port)
    const { dir, issue } = normalizeDir(dirValue, `/${dirField}`, dirField)
    if (issue !== null) errors.push(issue)
    // Given the island root (or any other folder) a rebuild would write an index for a namespace named after that
    // folder.
    const parts = dir === null ? [] : dir.split('/')
    if (dir !== null && parts[parts.length - 2] !== parent)
        errors.push(
            createIssue('IDX-029', `/${dirField}`, {
                field: dirField,
                path: dir,
                expected: `<island>/${parent}/<name>`
            })
        )
    const { issue: nowIssue } = indexTimestamp(input?.now)
    if (nowIssue !== null) errors.push(nowIssue)
    return { dir, errors }
}

/**
 * The `index.json` rollup (chapters 21–23): a pure core that computes an index from an in-memory
 * description of a folder, and a shell that reads the folder through an {@link FsPort}, validates
 * the result against `schemas/index.schema.json` and writes it atomically.
 */
class RebuildIndexUnguarded {
    private constructor() {}

    /**
     * Pure: computes a namespace index from a {@link NamespaceListing}.
     * @param input - `{ listing, previousIndex?, now }`
     * @returns `{ index, errors }` (see `docs/island.md` for every rule and code)
     * @example RebuildIndex.buildNamespaceIndex({ listing, now: '2026-05-31T12:30:00Z' }).index?.status
     */
    static buildNamespaceIndex(input: { listing?: unknown; previousIndex?: unknown; now?: unknown }): {
        index: NamespaceIndex | null
        errors: Issue[]
    } {
        return buildNamespaceIndex(input)
    }

    /**
     * Pure: computes a selection index from a {@link SelectionListing} (members resolved live).
     * @param input - `{ listing, previousIndex?, now }`
     * @returns `{ index, errors }`; IDX-024 when the selection definition is missing or unreadable
     * @example RebuildIndex.buildSelectionIndex({ listing, now }).index?.members
     */
    static buildSelectionIndex(input: { listing?: unknown; previousIndex?: unknown; now?: unknown }): {
        index: SelectionIndex | null
        errors: Issue[]
    } {
        return buildSelectionIndex(input)
    }

    /**
     * Pure: reduces one grading file to the facts the rollup needs (validated, rawGrade computed).
     * @param input - `{ name, entry?, problem? }`
     * @param where - how messages name the file, e.g. its path relative to the index folder
     * @returns the facts, or `null` when `name` is not a grading file name
     * @example RebuildIndex.digestGradingFile({ name: 'single-test--2026-05-31T11-05-00Z.json', entry })?.rawGrade
     */
    static digestGradingFile(input: GradingFileInput, where?: string): GradingFacts | null {
        return digestGradingFile(input, where ?? input.name)
    }

    /**
     * Validates an index against the shipped schema and, in `write` mode, the stricter write rules.
     * @param input - `{ index, mode? }`
     * @returns `{ valid, errors }`; IDX-001/002/003/007/011/028
     * @example RebuildIndex.validateIndex({ index, mode: 'read' }).valid
     */
    static validateIndex(input: { index?: unknown; mode?: 'write' | 'read' }): { valid: boolean; errors: Issue[] } {
        return validateIndex(input)
    }

    /**
     * Serialises an index deterministically, reusing the previous file's `lockSnapshot` bytes.
     * @param input - `{ index, previousText? }`
     * @returns `{ text }`
     * @example RebuildIndex.serializeIndex({ index }).text
     */
    static serializeIndex(input: { index: object; previousText?: string | null }): { text: string } {
        return serializeIndex(input)
    }

    /**
     * Pure: freezes a lockSnapshot from a live index (the start of a grading run).
     * @param input - `{ index, definition?, now }`
     * @returns `{ lockSnapshot, errors }`; IDX-001/IDX-002
     * @example RebuildIndex.buildLockSnapshot({ index, now }).lockSnapshot?.members.length
     */
    static buildLockSnapshot(input: {
        index?: unknown
        definition?: { file?: unknown; value?: unknown }
        now?: unknown
    }): { lockSnapshot: LockSnapshot | null; errors: Issue[] } {
        return buildLockSnapshot(input)
    }

    /**
     * Newest version of a logical name in a folder (see {@link resolveLatest}).
     * @param input - `{ fs, dir, logicalName, kind? }`
     * @returns `{ file, path, timestamp, reason, errors }`
     * @example await RebuildIndex.resolveLatest({ fs, dir, logicalName: 'about-namespace' })
     */
    static async resolveLatest(input: {
        fs?: unknown
        dir?: unknown
        logicalName?: unknown
        kind?: LatestKind
    }): Promise<ResolveLatestResult> {
        return resolveLatest(input)
    }

    /**
     * Rebuilds `<namespaceDir>/index.json`: reads the folder (every file once, bounded concurrency),
     * builds, validates, and writes atomically. The previous lockSnapshot is kept byte-for-byte;
     * unchanged bytes are not rewritten.
     * @param input - `{ fs, namespaceDir, now, concurrency? }`
     * @returns `{ status, index, indexPath, written, errors }`; IDX-006 missing folder, IDX-008 write failed,
     *   IDX-011/IDX-028 invalid result, FS-* port failures, plus the node-level warnings
     * @example
     * await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: '/island/providers/defillama', now: clock.now() })
     */
    static async rebuildNamespaceIndex(input: {
        fs?: unknown
        namespaceDir?: unknown
        now?: unknown
        concurrency?: number
        incremental?: boolean
    }): Promise<RebuildResult<NamespaceIndex>> {
        return rebuildNamespaceWith(input, {})
    }

    /**
     * Rebuilds `<selectionDir>/index.json`, resolving each member in `<providersRoot>/<ns>/<schema>/`.
     * @param input - `{ fs, selectionDir, providersRoot, now, concurrency? }`
     * @returns `{ status, index, indexPath, written, errors }`; IDX-024 no selection definition, plus the codes of
     *   {@link RebuildIndex.rebuildNamespaceIndex}
     * @example
     * await RebuildIndex.rebuildSelectionIndex({
     *     fs,
     *     selectionDir: '/island/selections/defi',
     *     providersRoot: '/island/providers',
     *     now
     * })
     */
    static async rebuildSelectionIndex(input: {
        fs?: unknown
        selectionDir?: unknown
        providersRoot?: unknown
        now?: unknown
        concurrency?: number
        incremental?: boolean
    }): Promise<RebuildResult<SelectionIndex>> {
        return rebuildSelectionWith(input, {})
    }
}

/**
 * The public RebuildIndex: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const RebuildIndex = /* @__PURE__ */ guardStatics(RebuildIndexUnguarded, 'RebuildIndex')

/** Rounds of rebuilding after a write before a rebuild settles for what it wrote. */
const MAX_REBUILD_ROUNDS = 4

/** One rebuild pass, and how to tell afterwards whether the folder is still as it read it. */
interface Attempt<T extends RollupIndex> {
    readonly result: RebuildResult<T>
    readonly unchanged: () => Promise<boolean>
}

/**
 * Several writers may rebuild one index at once. Each write is a whole-file rename, so none fails;
 * but a writer that read the folder before another's entry landed could overwrite a fresher index.
 * So a writer that wrote looks at the folder again — every folder it listed, and the rewritable
 * files it read — and, when anything changed meanwhile, rebuilds from the record it just wrote
 * (reading only what changed). The last writer therefore leaves an index of the folder as it is.
 */
export async function settle<T extends RollupIndex>(
    attempt: (incremental: boolean | undefined) => Promise<Attempt<T>>,
    incremental: boolean | undefined
): Promise<RebuildResult<T>> {
    let last: RebuildResult<T> | null = null
    for (let round = 0; round < MAX_REBUILD_ROUNDS; round += 1) {
        // After a first full read, the record just written is as good as one: later rounds use it,
        // unless the caller asked not to trust a record at all.
        const { result, unchanged } = await attempt(round === 0 || incremental === false ? incremental : true)
        // A failing later round leaves the index the first pass wrote: that write stands.
        if (!result.status) return last ?? result
        // A later round that found the file already current returns that index: the earlier one is known stale.
        if (!result.written) return last === null ? result : { ...result, written: true }
        last = result
        if (await unchanged()) return result
    }
    return last as RebuildResult<T>
}

type NamespaceInput = {
    fs?: unknown
    namespaceDir?: unknown
    now?: unknown
    concurrency?: number
    incremental?: boolean
}

/** The namespace rebuild with the options only island operations pass (journal, freeze). */
export async function rebuildNamespaceWith(
    input: NamespaceInput,
    internals: RebuildInternals
): Promise<RebuildResult<NamespaceIndex>> {
    // A frozen lockSnapshot is taken once, at the start of a run: never re-derived in a retry.
    const dir = typeof input?.namespaceDir === 'string' ? normalizeDir(input.namespaceDir, '', '').dir : null
    if (internals.freeze !== undefined || dir === null || checkFsPort(input.fs) !== null)
        return (await namespaceAttempt(input, internals)).result
    return settle(
        (incremental) => namespaceAttempt(incremental === undefined ? input : { ...input, incremental }, internals),
        input.incremental
    )
}

const settled = async (): Promise<boolean> => true

async function namespaceAttempt(input: NamespaceInput, internals: RebuildInternals): Promise<Attempt<NamespaceIndex>> {
    const { dir, errors } = shellArgs(input, input?.namespaceDir, 'namespaceDir', LAYOUT.providers)
    if (errors.length > 0 || dir === null)
        return { result: { status: false, index: null, indexPath: null, written: false, errors }, unchanged: settled }
    const fs = input.fs as FsPort
    const indexPath = joinPath(dir, LAYOUT.index)
    const options = input.concurrency !== undefined ? { concurrency: input.concurrency } : {}
    // The record and the previous index are read while the folder is walked, all in one bounded pool.
    const pool = new PortPool(poolSize(input.concurrency))
    const recording = pool.run(() => readRecord(fs, dir, `namespace:${baseName(dir)}`, input.incremental !== false))
    const reading = pool.run(() => readPrevious(fs, indexPath))
    const read = await readNamespaceListing(fs, dir, { pool, record: recording.then((r) => r.folders) })
    const [rec, previous] = await Promise.all([recording, reading])
    if (read.listing === null)
        return {
            result: { status: false, index: null, indexPath, written: false, errors: read.errors },
            unchanged: settled
        }
    if (previous.fatal !== null)
        return {
            result: { status: false, index: null, indexPath, written: false, errors: [previous.fatal] },
            unchanged: settled
        }
    const built = buildNamespaceIndex({ listing: read.listing, previousIndex: previous.value, now: input.now })
    const frozen = freezeIfAsked(built, internals.freeze, null)
    const finished = await finish(
        fs,
        indexPath,
        { index: frozen.index, errors: [...rec.issues, ...previous.errors, ...frozen.errors] },
        previous.text,
        internals.journal ?? new Journal(islandRootOf(dir)),
        { state: rec.state, folders: read.record }
    )
    const result = await dropLegacyRecord(fs, dir, read.legacyRecord, finished)
    const seen = read.seen
    return {
        result,
        unchanged: seen === undefined ? async () => false : () => unchangedSince(fs, seen, options.concurrency)
    }
}

/** The selection rebuild with the options only island operations pass (journal, freeze). */
export async function rebuildSelectionWith(
    input: {
        fs?: unknown
        selectionDir?: unknown
        providersRoot?: unknown
        now?: unknown
        concurrency?: number
        incremental?: boolean
    },
    internals: RebuildInternals
): Promise<RebuildResult<SelectionIndex>> {
    const first = shellArgs(input, input?.selectionDir, 'selectionDir', LAYOUT.selections)
    const providers = normalizeDir(input?.providersRoot, '/providersRoot', 'providersRoot')
    const errors = providers.issue === null ? first.errors : [...first.errors, providers.issue]
    if (errors.length > 0 || first.dir === null || providers.dir === null)
        return { status: false, index: null, indexPath: null, written: false, errors }
    const fs = input.fs as FsPort
    const selDir = first.dir
    const indexPath = joinPath(selDir, LAYOUT.index)
    const pool = new PortPool(poolSize(input.concurrency))
    const recording = pool.run(() =>
        readRecord(fs, selDir, `selection:${baseName(selDir)}`, input.incremental !== false)
    )
    const reading = pool.run(() => readPrevious(fs, indexPath))
    const read = await readSelectionListing(fs, selDir, providers.dir, {
        pool,
        record: recording.then((r) => r.folders)
    })
    const [rec, previous] = await Promise.all([recording, reading])
    if (read.listing === null) return { status: false, index: null, indexPath, written: false, errors: read.errors }
    if (previous.fatal !== null)
        return { status: false, index: null, indexPath, written: false, errors: [previous.fatal] }
    const built = buildSelectionIndex({ listing: read.listing, previousIndex: previous.value, now: input.now })
    const latest = selectLatest({
        names: read.listing.definitionSnapshots,
        logicalName: read.listing.selectionId,
        kind: 'snapshot'
    })
    const definition = latest.file === null ? null : { file: latest.file, value: read.listing.definition }
    const frozen = freezeIfAsked(built, internals.freeze, definition)
    const finished = await finish(
        fs,
        indexPath,
        { index: frozen.index, errors: [...rec.issues, ...previous.errors, ...frozen.errors] },
        previous.text,
        internals.journal ?? new Journal(islandRootOf(first.dir)),
        { state: rec.state, folders: read.record }
    )
    return dropLegacyRecord(fs, selDir, read.legacyRecord, finished)
}

/** `<root>/providers/<ns>` and `<root>/selections/<sel>` ⇒ `<root>`: the folders below it must not be links. */
function islandRootOf(dir: string): string {
    const parent = dirName(dir)
    return dirName(parent) === '.' ? parent : dirName(parent)
}

function freezeIfAsked<T extends RollupIndex>(
    built: { index: T | null; errors: Issue[] },
    freeze: RebuildInternals['freeze'],
    definition: { file: string; value: unknown } | null
): { index: T | null; errors: Issue[] } {
    if (freeze === undefined || built.index === null) return built
    const { lockSnapshot, errors } = freeze(built.index, definition)
    if (lockSnapshot === null) return { index: null, errors: [...built.errors, ...errors] }
    return { index: { ...built.index, lockSnapshot }, errors: [...built.errors, ...errors] }
}
