import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { FsDirEntry, FsPort, FsStat } from '../ports/types.js'
import { baseName, dirName, isInside, joinPath } from './paths.js'
import { parseArgs, pointerKeys, says } from '../validation/args.js'

/** Outcome of one port call: the value, or the coded issue the rejection became. */
export type PortResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issue: Issue }

const FS_METHODS = ['readFile', 'writeFile', 'mkdir', 'readdir', 'stat', 'lstat', 'link', 'rename', 'rm'] as const

function detailOf(cause: unknown): string {
    if (cause instanceof Error) return cause.message
    return typeof cause === 'string' ? cause : 'rejected'
}

// Any object may be the port (an array too: its missing methods are the FS-004 below); named `fs` wherever it stands.
const PORT = v.custom<object>(
    (fs) => fs !== null && typeof fs === 'object',
    says({ expected: 'FsPort', actual: 'type', field: 'fs' })
)
const PORT_ARGS = { missing: 'ISL-001', mismatch: 'ISL-002', create: createIssue } as const

/** ISL-001/ISL-002 when `fs` is no object, FS-004 when it lacks one of the nine port methods; checked before any call. */
export function checkFsPort(fs: unknown, path = '/fs'): Issue | null {
    const port = parseArgs(PORT, fs, PORT_ARGS, { at: pointerKeys(path) })
    if (port.value === null) return port.errors[0] as Issue
    const missing = FS_METHODS.filter((m) => typeof (fs as Record<string, unknown>)[m] !== 'function')
    return missing.length === 0
        ? null
        : createIssue('FS-004', path, { method: missing.join(', '), detail: 'not a function' })
}

/** Runs one port call; a rejection or a synchronous throw becomes FS-001. */
export async function callPort<T>(op: string, path: string, run: () => Promise<T>): Promise<PortResult<T>> {
    try {
        return { ok: true, value: await run() }
    } catch (cause) {
        return { ok: false, issue: createIssue('FS-001', '', { op, path, detail: detailOf(cause) }) }
    }
}

/** Temp files are `.<target>.<id>.tmp` beside the target; listings never show them. */
export function isTempName(name: string): boolean {
    return name.startsWith('.') && name.endsWith('.tmp')
}

/**
 * A deterministic stem for temp names (no randomness in the core): FNV-1a over the target path and
 * a sample of the data. Uniqueness does not rest on it: every temp file is created exclusively, and
 * a taken name moves on to the next attempt number.
 */
function tempStem(path: string, data: string): string {
    let h = 0x811c9dc5
    const sample = `${path}\u0000${data.length <= 512 ? data : data.slice(0, 256) + data.slice(-256)}`
    for (let i = 0; i < sample.length; i += 1) {
        h ^= sample.charCodeAt(i)
        h = Math.imul(h, 0x01000193) >>> 0
    }
    return `${h.toString(16).padStart(8, '0')}${data.length.toString(36)}`
}

/** Rejection codes of `link` that mean "no hard links here", not "the name is taken". */
const NO_HARD_LINKS = new Set(['ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EPERM', 'EXDEV'])

/** Most temp names tried for one write; each taken name means a concurrent writer holds it. */
const MAX_TEMP_ATTEMPTS = 256

/** A port call that keeps the rejection's `code` (EEXIST decides between conflict and failure). */
async function tryPort(
    op: string,
    path: string,
    run: () => Promise<unknown>
): Promise<{ ok: true } | { ok: false; code: string | null; issue: Issue }> {
    try {
        await run()
        return { ok: true }
    } catch (cause) {
        const code = (cause as { code?: unknown } | null)?.code
        return {
            ok: false,
            code: typeof code === 'string' ? code : null,
            issue: createIssue('FS-001', '', { op, path, detail: detailOf(cause) })
        }
    }
}

/** Reads a directory through the port: entries without temp files, sorted by name (code units). */
export async function listDir(fs: FsPort, dir: string): Promise<PortResult<FsDirEntry[] | null>> {
    const res = await callPort('readdir', dir, () => fs.readdir(dir))
    if (!res.ok) return res
    const entries = res.value
    if (entries === null) return { ok: true, value: null }
    if (!Array.isArray(entries))
        return {
            ok: false,
            issue: createIssue('FS-004', '', { method: 'readdir', detail: `returned ${typeof entries} for ${dir}` })
        }
    const out = entries.filter(
        (e) => e !== null && typeof e === 'object' && typeof e.name === 'string' && !isTempName(e.name)
    )
    out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    return { ok: true, value: out }
}

/** Reads a file through the port, checking the adapter returned text or `null`. */
export async function readText(fs: FsPort, path: string): Promise<PortResult<string | null>> {
    const res = await callPort('readFile', path, () => fs.readFile(path))
    if (res.ok && res.value !== null && typeof res.value !== 'string') {
        return {
            ok: false,
            issue: createIssue('FS-004', '', { method: 'readFile', detail: `returned ${typeof res.value} for ${path}` })
        }
    }
    return res
}

/** Stats a path through the port. */
export async function statPath(fs: FsPort, path: string): Promise<PortResult<FsStat | null>> {
    return callPort('stat', path, () => fs.stat(path))
}

/**
 * Everything one operation created, so that a failure can undo it: the island is left exactly as
 * before (no partial file, no temp file, no new empty folder).
 */
export class Journal {
    readonly files: string[] = []
    readonly dirs: string[] = []
    /** Bytes written to replaceable files the operation created: undone only while they still hold them. */
    readonly wrote = new Map<string, string>()
    /**
     * @param root - the island root every write of the operation must stay in: no folder from it
     *   down to a written file may be a symbolic link (FS-006); `null` checks only the target itself
     */
    constructor(readonly root: string | null = null) {}
}

/**
 * FS-006 when `path` is outside `root`, or when any folder below `root` on the way to `path`, or
 * `path` itself, is a symbolic link. With no links and lexically normalised paths, the real path of
 * every folder entered stays inside the root. Missing tail folders are fine (they will be created).
 */
export async function confine(fs: FsPort, root: string | null, path: string): Promise<Issue | null> {
    return (await probe(fs, root, path)).issue
}

/**
 * {@link confine}, telling as well whether `path` is an existing folder. Every step is looked at
 * in one go (one round trip, not one per level) and judged in order, from the root down.
 */
async function probe(fs: FsPort, root: string | null, path: string): Promise<{ issue: Issue | null; isDir: boolean }> {
    if (root !== null && !isInside(path, root))
        return { issue: createIssue('FS-006', '', { path, detail: `outside the island root ${root}` }), isDir: false }
    const base = root ?? dirName(path)
    const rest = path === base ? [] : path.slice(base === '/' ? 1 : base.length + 1).split('/')
    const steps: string[] = []
    let cur = base
    for (const segment of rest) {
        cur = joinPath(cur, segment)
        steps.push(cur)
    }
    const stats = await Promise.all(steps.map((p) => callPort('lstat', p, () => fs.lstat(p))))
    for (let i = 0; i < stats.length; i += 1) {
        const st = stats[i] as PortResult<FsStat | null>
        if (!st.ok) return { issue: st.issue, isDir: false }
        if (st.value === null) return { issue: null, isDir: false }
        if (st.value.kind === 'symlink')
            return {
                issue: createIssue('FS-006', '', {
                    path: steps[i] as string,
                    detail: 'is a symbolic link; the island never writes through links'
                }),
                isDir: false
            }
    }
    const last = stats[stats.length - 1]
    return { issue: null, isDir: last?.ok === true && last.value?.kind === 'directory' }
}

async function removeWithRetry(fs: FsPort, path: string): Promise<Issue | null> {
    // One retry: a transient failure (the common case) must not leave debris behind.
    let last: Issue | null = null
    for (let attempt = 0; attempt < 2; attempt += 1) {
        const res = await callPort('rm', path, () => fs.rm(path))
        if (res.ok) return null
        last = res.issue
    }
    return createIssue('FS-005', '', { path, detail: last?.message ?? 'rm failed' })
}

/**
 * Undoes a journal: created files first (newest first), then created folders that are empty now
 * (deepest first). Never touches anything the operation did not create.
 * @returns FS-005 warnings for what could not be removed
 */
export async function rollback(fs: FsPort, journal: Journal): Promise<Issue[]> {
    const issues: Issue[] = []
    for (const file of [...journal.files].reverse()) {
        const expected = journal.wrote.get(file)
        if (expected !== undefined) {
            // A replaceable file another writer has rewritten since is theirs now: leave it.
            const now = await readText(fs, file)
            if (!now.ok || now.value !== expected) continue
        }
        const problem = await removeWithRetry(fs, file)
        if (problem !== null) issues.push(problem)
    }
    for (const dir of [...journal.dirs].reverse()) {
        const listing = await listDirRaw(fs, dir)
        if (listing === null || listing.length > 0) continue
        const problem = await removeWithRetry(fs, dir)
        if (problem !== null) issues.push(problem)
    }
    journal.files.length = 0
    journal.dirs.length = 0
    journal.wrote.clear()
    return issues
}

async function listDirRaw(fs: FsPort, dir: string): Promise<readonly FsDirEntry[] | null> {
    const res = await callPort('readdir', dir, () => fs.readdir(dir))
    return res.ok && Array.isArray(res.value) ? res.value : null
}

/**
 * Creates `dir` and missing parents, recording each missing one in the journal before the call,
 * so even a half-done recursive mkdir is undone.
 */
export async function ensureDir(fs: FsPort, dir: string, journal: Journal): Promise<Issue | null> {
    const seen = await probe(fs, journal.root, dir)
    if (seen.issue !== null) return seen.issue
    // Already there (and no link on the way): nothing to create.
    if (seen.isDir) return null
    const missing: string[] = []
    let cur = dir
    for (;;) {
        const st = await statPath(fs, cur)
        if (!st.ok) return st.issue
        if (st.value !== null) {
            if (st.value.kind !== 'directory')
                return createIssue('FS-001', '', { op: 'mkdir', path: cur, detail: 'exists and is not a directory' })
            break
        }
        missing.push(cur)
        const parent = dirName(cur)
        if (parent === cur || parent === '.' || parent === '/') break
        cur = parent
    }
    if (missing.length === 0) return null
    journal.dirs.push(...missing.reverse())
    const res = await callPort('mkdir', dir, () => fs.mkdir(dir))
    if (!res.ok) return res.issue
    // A folder swapped for a link while it was being created is refused all the same.
    return confine(fs, journal.root, dir)
}

/** Options of {@link writeAtomic}. */
export interface AtomicWriteOptions {
    /** `false` (entries, snapshots, exports): an existing target is FS-002, never replaced. */
    readonly overwrite: boolean
    readonly journal: Journal
}

/**
 * Writes `data` to `path` atomically: an exclusively created temp file beside the target (a unique
 * name per writer, so concurrent writers never share one), then either `rename` (replaceable files)
 * or `link` (never-overwrite files: published only when the name is free, so of two racing writers
 * exactly one wins and the other gets FS-002). The temp file is removed on failure. Parent folders
 * are created and journalled, and so is the target when it did not exist before. Every folder from
 * the journal's root down, and the target, must not be a symbolic link (FS-006).
 * @returns `[]` on success, else the issues (FS-001, FS-002, FS-004, FS-006, plus FS-005 for debris)
 */
export async function writeAtomic(
    fs: FsPort,
    path: string,
    data: string,
    options: AtomicWriteOptions
): Promise<Issue[]> {
    const { overwrite, journal } = options
    const dir = dirName(path)
    const before = await checkTarget(fs, path, overwrite)
    if (!before.ok) return [before.issue]
    const mk = await ensureDir(fs, dir, journal)
    if (mk !== null) return [mk]
    const written = await writeTemp(fs, path, data)
    if (!written.ok) return written.issues
    const tempPath = written.temp
    const fail = async (issue: Issue): Promise<Issue[]> => {
        const cleanup = await removeWithRetry(fs, tempPath)
        return cleanup === null ? [issue] : [issue, cleanup]
    }
    if (!overwrite) {
        const linked = await tryPort('link', path, () => fs.link(tempPath, path))
        if (!linked.ok && linked.code !== null && NO_HARD_LINKS.has(linked.code)) {
            // A file system without hard links (FAT, some network shares): check, then rename.
            const again = await callPort('lstat', path, () => fs.lstat(path))
            if (!again.ok) return fail(again.issue)
            if (again.value !== null) return fail(createIssue('FS-002', '', { path }))
            const moved = await tryPort('rename', path, () => fs.rename(tempPath, path))
            if (!moved.ok) return fail(moved.issue)
            journal.files.push(path)
            return []
        }
        if (!linked.ok) return fail(linked.code === 'EEXIST' ? createIssue('FS-002', '', { path }) : linked.issue)
        journal.files.push(path)
        // The temp name must go too; if it cannot, the write counts as failed and the caller undoes it.
        const removed = await callPort('rm', tempPath, () => fs.rm(tempPath))
        return removed.ok ? [] : fail(removed.issue)
    }
    return publish(fs, tempPath, path, data, before.existed, journal)
}

/** FS-006 for a link at `path`, FS-002 for something that may not be replaced; else whether a file is there. */
async function checkTarget(
    fs: FsPort,
    path: string,
    overwrite: boolean
): Promise<{ ok: true; existed: boolean } | { ok: false; issue: Issue }> {
    const before = await callPort('lstat', path, () => fs.lstat(path))
    if (!before.ok) return before
    if (before.value?.kind === 'symlink')
        return {
            ok: false,
            issue: createIssue('FS-006', '', {
                path,
                detail: 'is a symbolic link; the island never writes through links'
            })
        }
    if (before.value !== null && (!overwrite || before.value.kind !== 'file'))
        return { ok: false, issue: createIssue('FS-002', '', { path }) }
    return { ok: true, existed: before.value !== null }
}

/** Writes `data` to a fresh, exclusively created temp file beside `path` (the parent exists). */
async function writeTemp(
    fs: FsPort,
    path: string,
    data: string
): Promise<{ ok: true; temp: string } | { ok: false; issues: Issue[] }> {
    const dir = dirName(path)
    const stem = tempStem(path, data)
    for (let attempt = 0; attempt < MAX_TEMP_ATTEMPTS; attempt += 1) {
        const candidate = joinPath(dir, `.${baseName(path)}.${stem}-${attempt.toString(36)}.tmp`)
        const wrote = await tryPort('writeFile', candidate, () => fs.writeFile(candidate, data, { exclusive: true }))
        if (wrote.ok) return { ok: true, temp: candidate }
        if (wrote.code !== 'EEXIST') {
            const cleanup = await removeWithRetry(fs, candidate)
            return { ok: false, issues: cleanup === null ? [wrote.issue] : [wrote.issue, cleanup] }
        }
    }
    return {
        ok: false,
        issues: [createIssue('FS-001', '', { op: 'writeFile', path, detail: `${MAX_TEMP_ATTEMPTS} temp names taken` })]
    }
}

/** Renames a written temp file onto a replaceable target; a target that is new goes into the journal. */
async function publish(
    fs: FsPort,
    temp: string,
    path: string,
    data: string,
    existed: boolean,
    journal: Journal
): Promise<Issue[]> {
    const moved = await callPort('rename', path, () => fs.rename(temp, path))
    if (!moved.ok) {
        const cleanup = await removeWithRetry(fs, temp)
        return cleanup === null ? [moved.issue] : [moved.issue, cleanup]
    }
    if (!existed) {
        journal.files.push(path)
        journal.wrote.set(path, data)
    }
    return []
}

/**
 * Replaces several files of one folder atomically, one after another in the given order, with the
 * checks of {@link writeAtomic} (`overwrite: true`) done once for the folder: the targets are
 * checked and every temp file written concurrently, then each is renamed onto its target in turn.
 * Nothing is published unless every temp file was written; a rename that fails stops the rest.
 * @param files - the targets (all in `dir`), each with the journal its creation is recorded in
 * @returns how many targets were replaced (a prefix of `files`) and the issues (FS-001, FS-002, FS-004, FS-006, FS-005)
 */
export async function writeReplaceableAll(
    fs: FsPort,
    dir: string,
    files: ReadonlyArray<{ readonly path: string; readonly data: string; readonly journal: Journal }>,
    folderJournal: Journal
): Promise<{ published: number; issues: Issue[] }> {
    if (files.some((f) => dirName(f.path) !== dir))
        return {
            published: 0,
            issues: [createIssue('FS-004', '', { method: 'writeFile', detail: `every file must be in ${dir}` })]
        }
    // The targets and the way to the folder are looked at together; a folder is made only when missing.
    const [checks, seen] = await Promise.all([
        Promise.all(files.map((f) => checkTarget(fs, f.path, true))),
        probe(fs, folderJournal.root, dir)
    ])
    for (const c of checks) if (!c.ok) return { published: 0, issues: [c.issue] }
    if (seen.issue !== null) return { published: 0, issues: [seen.issue] }
    const mk = seen.isDir ? null : await ensureDir(fs, dir, folderJournal)
    if (mk !== null) return { published: 0, issues: [mk] }
    const temps = await Promise.all(files.map((f) => writeTemp(fs, f.path, f.data)))
    const failedTemp = temps.find((t) => !t.ok)
    if (failedTemp !== undefined && !failedTemp.ok) {
        const issues = [...failedTemp.issues]
        for (const t of temps)
            if (t.ok) issues.push(...[await removeWithRetry(fs, t.temp)].filter((i): i is Issue => i !== null))
        return { published: 0, issues }
    }
    for (let k = 0; k < files.length; k += 1) {
        const f = files[k] as (typeof files)[number]
        const problems = await publish(
            fs,
            (temps[k] as { temp: string }).temp,
            f.path,
            f.data,
            (checks[k] as { existed: boolean }).existed,
            f.journal
        )
        if (problems.length > 0) {
            // The files not published yet leave no temp file behind.
            for (const t of temps.slice(k + 1))
                if (t.ok) problems.push(...[await removeWithRetry(fs, t.temp)].filter((i): i is Issue => i !== null))
            return { published: k, issues: problems }
        }
    }
    return { published: files.length, issues: [] }
}

/**
 * Runs `fn` with a bounded number of concurrent calls, preserving result order.
 * @param limit - at least 1
 */
export async function mapPool<T, R>(
    items: readonly T[],
    limit: number,
    fn: (item: T, index: number) => Promise<R>
): Promise<R[]> {
    const out = new Array<R>(items.length)
    let next = 0
    const worker = async (): Promise<void> => {
        while (next < items.length) {
            const i = next
            next += 1
            out[i] = await fn(items[i] as T, i)
        }
    }
    const n = Math.max(1, Math.min(limit, items.length))
    const workers: Array<Promise<void>> = []
    for (let k = 0; k < n; k += 1) workers.push(worker())
    await Promise.all(workers)
    return out
}
