import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { DEFAULT_JSON_LIMITS } from '../json/guard.js'
import { AREAS } from '../model/constants.js'
import { selectLatest } from '../naming/latest.js'
import type { FsDirEntry, FsPort } from '../ports/types.js'
import { listDir, mapPool, readText } from '../store/fs-ops.js'
import { baseName, joinPath, LAYOUT } from '../store/paths.js'
import { definitionMembers, splitSchemaId } from './build-selection.js'
import { screenGradingFile } from './digest.js'
import { FolderState, folderInputs, type FolderRecord } from './folder-state.js'
import { INDEX_RECORD_FILE, LEGACY_INDEX_RECORD_FILE } from './index-record.js'
import type {
    GradingFacts,
    GradingFileInput,
    MemberSchemaListing,
    NamespaceListing,
    PrimitiveListing,
    SchemaListing,
    SelectionListing,
    SkillListing,
    ToolListing
} from './types.js'
import { rx } from '../model/regex.js'
import { definedFields } from '../model/fields.js'

/** Default number of concurrent port calls while reading an island. */
export const DEFAULT_READ_CONCURRENCY = 32

type Entries = FsDirEntry[] | null

/** A `_gradings/` folder while it is read: its listing, its reduced state, and the inputs the builder will get. */
interface GradingFolder {
    readonly dir: string
    readonly rel: string
    readonly expectSkill: string | null
    /** Every file name of the listing, sorted. */
    readonly listed: readonly string[]
    /** Handed to the builder; filled in place once the folder is read. */
    readonly out: GradingFileInput[]
    state: FolderState
    finished: boolean
    /** Queued reads not yet done. */
    pending: number
    /** Set when the listing equals the record's: nothing was read, and the record line stays as it was. */
    unchanged?: { readonly record: FolderRecord; readonly strays: ReadonlySet<string> }
}

/** A file to read: a grading file of a folder, or another JSON file and where its result goes. */
type FileTask =
    | { readonly grading: true; readonly folder: GradingFolder; readonly name: string }
    | {
          readonly grading: false
          readonly abs: string
          readonly rel: string
          readonly put: (value: { json: unknown; problem?: Issue }) => void
      }

// Which listed names to read: the area prefix and the extension. The full grammar (with its
// calendar check) runs once per file, in the screen; a name that fails it there stays a stray.
const GRADING_NAME_HINT = rx('')`^(?:${[...AREAS].sort((a, b) => b.length - a.length).join('|')})--.*\.json$`
const mayBeGrading = (name: string): boolean => GRADING_NAME_HINT.test(name)

const files = (entries: Entries): string[] => (entries ?? []).filter((e) => e.kind === 'file').map((e) => e.name)
// A grading entry's DSSE envelope (`<entry file>.dsse`, written by `grade --sign-key`) sits beside it: not an input.
const isEnvelope = (name: string): boolean => name.endsWith('.json.dsse') && mayBeGrading(name.slice(0, -5))
const dirs = (entries: Entries): string[] => (entries ?? []).filter((e) => e.kind === 'directory').map((e) => e.name)
const has = (entries: Entries, name: string, kind: 'file' | 'directory'): boolean =>
    (entries ?? []).some((e) => e.name === name && e.kind === kind)

const DONE: Promise<void> = Promise.resolve()

/** A schema folder to walk: where it is, its name, and its path relative to the index folder. */
type SchemaFolder = { readonly dir: string; readonly name: string; readonly rel: string }

/** What the schema walk shares: a lister that keeps every listing, and the grading inputs by folder. */
interface SchemaWalk {
    readonly listInto: (path: string) => Promise<Entries>
    readonly outs: Map<string, GradingFileInput[]>
}

/**
 * Whether `names` joined by `/` equals `joined`, without building the joined string (run per folder on every rebuild).
 */
function sameListing(names: readonly string[], joined: string): boolean {
    let at = 0
    for (let i = 0; i < names.length; i += 1) {
        const name = names[i] as string
        if (i > 0) {
            if (joined.charCodeAt(at) !== 47) return false
            at += 1
        }
        if (!joined.startsWith(name, at)) return false
        at += name.length
    }
    return at === joined.length
}

/** A FIFO without the cost of `shift` on long arrays. */
class Queue<T> {
    private items: T[] = []
    private head = 0
    get size(): number {
        return this.items.length - this.head
    }
    push(item: T): void {
        this.items.push(item)
    }
    take(): T | undefined {
        if (this.head >= this.items.length) return undefined
        const item = this.items[this.head] as T
        this.head += 1
        if (this.head === this.items.length) {
            this.items = []
            this.head = 0
        }
        return item
    }
}

/**
 * Runs port calls with a bound on how many are in flight. Urgent jobs (listings, and the few
 * files a rebuild needs first) go before the rest (grading files), so a walk never waits behind reads.
 */
export class PortPool {
    private readonly urgent = new Queue<() => Promise<void>>()
    private readonly normal = new Queue<() => Promise<void>>()
    private active = 0
    private idle: Array<() => void> = []
    private fault: { error: unknown } | null = null

    /** @param limit - at most this many jobs at once (a positive integer, see {@link poolSize}) */
    constructor(readonly limit: number) {}

    /** Queues a job; a job that throws is kept and rethrown by {@link PortPool.drain}. */
    queue(job: () => Promise<void>, urgent: boolean): void {
        ;(urgent ? this.urgent : this.normal).push(job)
        this.pump()
    }

    /** Runs one job through the pool (urgent) and hands back its result. */
    run<T>(job: () => Promise<T>): Promise<T> {
        return new Promise<T>((resolve, reject) =>
            this.queue(async () => {
                try {
                    resolve(await job())
                } catch (error) {
                    reject(error)
                }
            }, true)
        )
    }

    private pump(): void {
        while (this.active < this.limit && (this.urgent.size > 0 || this.normal.size > 0)) {
            this.active += 1
            void this.work()
        }
    }

    private async work(): Promise<void> {
        try {
            for (
                let job = this.urgent.take() ?? this.normal.take();
                job !== undefined;
                job = this.urgent.take() ?? this.normal.take()
            )
                await job()
        } catch (error) {
            // Never expected (every port call is caught); kept so the pool cannot hang, and rethrown by drain().
            this.fault ??= { error }
        } finally {
            this.active -= 1
            // A worker that stopped on a throw leaves the queue to a fresh one, so drain() still ends.
            if (this.urgent.size > 0 || this.normal.size > 0) this.pump()
            else if (this.active === 0) for (const done of this.idle.splice(0)) done()
        }
    }

    /** Resolves once every queued job, and every job those queued, is done. */
    async drain(): Promise<void> {
        this.pump()
        if (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve))
        if (this.fault !== null) throw this.fault.error
    }
}

/**
 * Reads an island folder tree through the port with one bounded pool for every call. Listings go
 * before file reads, and a `_gradings/` folder's files are queued as soon as it is listed, so
 * reading overlaps the rest of the walk instead of waiting for it.
 */
class Reader {
    readonly folders: GradingFolder[] = []
    /** What this read leaves for the next rebuild's record, by folder. */
    readonly recorded = new Map<string, FolderRecord>()
    /** Every folder listed and every other file read, as seen: what {@link unchangedSince} compares. */
    readonly seen: SeenState = { dirs: [], files: [], unsure: false }
    fatal: Issue | null = null
    constructor(
        readonly fs: FsPort,
        readonly pool: PortPool,
        readonly maxTextLength: number,
        /** Folder records of an earlier rebuild; `null` reads every file. */
        private previous: ReadonlyMap<string, FolderRecord> | null,
        /** Per folder, names the rebuild itself writes there: not inputs, so a re-check ignores them. */
        readonly outputs: ReadonlyMap<string, ReadonlySet<string>> = new Map()
    ) {}

    /**
     * Takes the record once it is read: the walk starts meanwhile, and no folder's files are
     * queued before it is there (see {@link Reader.gradingDir}).
     */
    awaitRecord(record: Promise<ReadonlyMap<string, FolderRecord> | null>): void {
        // A record that cannot be read is no record: every file is read. Handled here, because an
        // early end of the walk may never await it (an unhandled rejection would end the process).
        this.recordReady = record.then(
            (r) => {
                this.previous = r
            },
            () => {
                this.previous = null
            }
        )
    }

    private recordReady: Promise<void> = Promise.resolve()

    /** Resolves once the record is in: before {@link Reader.gradings} is called directly. */
    ready(): Promise<void> {
        return this.recordReady
    }

    /** Lists many directories through the pool; a failing call stops the whole read (FS-001). */
    list(paths: readonly string[]): Promise<Entries[]> {
        return new Promise((resolve) => {
            const out = new Array<Entries>(paths.length).fill(null)
            let left = paths.length
            if (left === 0) resolve(out)
            paths.forEach((p, i) => {
                this.pool.queue(async () => {
                    try {
                        if (this.fatal === null) {
                            const res = await listDir(this.fs, p)
                            if (!res.ok) this.fatal ??= res.issue
                            else out[i] = this.see(p, res.value)
                        }
                    } finally {
                        left -= 1
                        if (left === 0) resolve(out)
                    }
                }, true)
            })
        })
    }

    private async listOne(path: string): Promise<Entries> {
        return (await this.list([path]))[0] ?? null
    }

    private see(path: string, entries: Entries): Entries {
        const ignore = this.outputs.get(path)
        this.seen.dirs.push(
            ignore === undefined
                ? { path, listing: fingerprint(entries, null) }
                : { path, listing: fingerprint(entries, ignore), ignore }
        )
        return entries
    }

    /** Queues another JSON file (summary, selection definition); `put` receives it once read. */
    readOther(abs: string, rel: string, put: (value: { json: unknown; problem?: Issue }) => void): void {
        this.pool.queue(() => this.runTask({ grading: false, abs, rel, put }), false)
    }

    /**
     * Grading file inputs for a `_gradings/` listing. Every grading file name is queued for reading,
     * except the files an earlier record already describes: when every name the record knows is
     * still listed (folders are append-only), only the new names are read.
     */
    gradings(dir: string, rel: string, entries: Entries, expectSkill: string | null = null): GradingFileInput[] {
        const listed = files(entries).filter((name) => !isEnvelope(name))
        // Filled in place when the folder settles; the listing holds this very array.
        const out: GradingFileInput[] = []
        const folder: GradingFolder = {
            dir,
            rel,
            expectSkill,
            listed,
            out,
            state: new FolderState(rel, expectSkill),
            finished: false,
            pending: 0
        }
        this.folders.push(folder)
        const rec = this.previous?.get(rel)
        if (rec === undefined || !this.resume(folder, rec))
            for (const name of listed) if (mayBeGrading(name)) this.queue(folder, name)
        return out
    }

    /** Lists a `_gradings/` folder and queues its files at once; the inputs are filled in as they settle. */
    private async gradingDir(
        dir: string,
        rel: string,
        expectSkill: string | null,
        into: Map<string, GradingFileInput[]>
    ): Promise<void> {
        const entries = await this.listOne(dir)
        await this.recordReady
        into.set(dir, this.gradings(dir, rel, entries, expectSkill))
    }

    /**
     * Starts a folder from its record: an unchanged listing reads nothing; a listing that only
     * grew queues the new grading files. `false` when a recorded file is gone (read it all).
     */
    private resume(folder: GradingFolder, rec: FolderRecord): boolean {
        const strays = new Set(rec.strays)
        if (sameListing(folder.listed, rec.listing)) {
            for (const k of rec.kept) folder.state.offer(k.screened, undefined, k.verified)
            folder.unchanged = { record: rec, strays }
            return true
        }
        const before = rec.listing === '' ? [] : rec.listing.split('/')
        const now = new Set(folder.listed)
        if (!before.every((n) => now.has(n))) return false
        for (const k of rec.kept) folder.state.offer(k.screened, undefined, k.verified)
        for (const n of before) if (!strays.has(n)) folder.state.known(n)
        const seen = new Set(before)
        // Recorded names parsed when they were read; only new names are parsed (and read).
        for (const name of folder.listed) if (!seen.has(name) && mayBeGrading(name)) this.queue(folder, name)
        return true
    }

    /** What a read gave: the parsed JSON, or the problem that kept it from being parsed. */
    private interpret(
        abs: string,
        rel: string,
        grading: boolean,
        text: unknown,
        failure: string | null
    ): { json: unknown; problem?: Issue } {
        // Failures name the file relative to the index, never by an absolute path.
        const code = grading ? 'IDX-020' : 'IDX-021'
        // A failed read may pass next time: a re-check cannot vouch for what was built from it.
        if (failure !== null || typeof text !== 'string') this.seen.unsure = true
        else if (!grading) this.seen.files.push({ path: abs, text })
        if (failure !== null) return { json: undefined, problem: createIssue(code, '', { path: rel, detail: failure }) }
        if (text === null)
            return { json: undefined, problem: createIssue(code, '', { path: rel, detail: 'vanished while reading' }) }
        if (typeof text !== 'string')
            return {
                json: undefined,
                problem: createIssue(code, '', { path: rel, detail: `the port returned ${typeof text}, not text` })
            }
        if (text.length > this.maxTextLength)
            return {
                json: undefined,
                problem: createIssue(grading ? 'IDX-004' : 'IDX-021', '', {
                    path: rel,
                    detail: `larger than ${this.maxTextLength} characters`
                })
            }
        try {
            return { json: JSON.parse(text) as unknown }
        } catch (cause) {
            return {
                json: undefined,
                problem: createIssue(grading ? 'IDX-004' : 'IDX-021', '', {
                    path: rel,
                    detail: cause instanceof Error ? cause.message : 'invalid JSON'
                })
            }
        }
    }

    /** Ends a read the port failed: waits for the calls still in flight (none starts any more), then reports. */
    async failed(): Promise<{ listing: null; errors: Issue[] }> {
        await this.pool.drain()
        return { listing: null, errors: this.fatal === null ? [] : [this.fatal] }
    }

    /**
     * Reads one file and takes it in. One promise per file, no async wrappers: this runs for
     * every grading file.
     */
    private runTask(task: FileTask): Promise<void> {
        if (this.fatal !== null) return DONE
        const abs = task.grading ? joinPath(task.folder.dir, task.name) : task.abs
        let call: Promise<unknown>
        try {
            call = Promise.resolve(this.fs.readFile(abs))
        } catch (cause) {
            call = Promise.reject(cause)
        }
        return call.then(
            (text) => this.take(task, abs, text, null),
            (cause: unknown) => this.take(task, abs, null, cause instanceof Error ? cause.message : 'rejected')
        )
    }

    private take(task: FileTask, abs: string, text: unknown, failure: string | null): void {
        if (!task.grading) {
            task.put(this.interpret(abs, task.rel, false, text, failure))
            return
        }
        const folder = task.folder
        const rel = `${folder.rel}/${task.name}`
        const res = this.interpret(abs, rel, true, text, failure)
        const input: GradingFileInput =
            res.problem === undefined ? { name: task.name, entry: res.json } : { name: task.name, problem: res.problem }
        // Screened on arrival; the folder keeps the entry only while it may still decide a status.
        const facts = screenGradingFile(input, rel)
        if (facts !== null) folder.state.offer(facts, res.json)
        // A folder is settled as soon as its last file is in: its deciding entries are verified
        // and let go, so only the folders being read hold parsed entries.
        folder.pending -= 1
        if (folder.pending === 0) this.tryFinish(folder)
    }

    private queue(folder: GradingFolder, name: string): void {
        folder.pending += 1
        this.pool.queue(() => this.runTask({ grading: true, folder, name }), false)
    }

    private readonly again: GradingFolder[] = []

    private tryFinish(folder: GradingFolder): void {
        if (folder.finished) return
        const finals = folder.state.finish()
        if (finals === null) this.again.push(folder)
        else this.settle(folder, finals)
    }

    /** Reads every queued file once, then settles each folder: verification, and the inputs the builder gets. */
    async readAll(): Promise<void> {
        await this.pool.drain()
        if (this.fatal !== null) return
        for (const folder of this.folders)
            if (!folder.finished && folder.pending === 0 && !this.again.includes(folder)) this.tryFinish(folder)
        const again = this.again.splice(0)
        if (again.length === 0) return
        // A record that did not hold what a status needs: those folders are read in full.
        for (const folder of again) {
            folder.state = new FolderState(folder.rel, folder.expectSkill)
            delete folder.unchanged
            for (const name of folder.listed) if (mayBeGrading(name)) this.queue(folder, name)
        }
        // Without a record every entry is at hand, so these folders settle as their reads finish.
        await this.pool.drain()
        for (const folder of again) if (!folder.finished) this.settle(folder, folder.state.finish() ?? new Map())
        this.again.length = 0
    }

    private settle(folder: GradingFolder, finals: Map<string, GradingFacts>): void {
        folder.finished = true
        const same = folder.unchanged
        const inputs = folderInputs(
            folder.listed,
            finals,
            same === undefined ? (n) => folder.state.names.has(n) : (n) => !same.strays.has(n)
        )
        folder.out.length = 0
        for (const input of inputs) folder.out.push(input)
        this.recorded.set(folder.rel, same !== undefined ? same.record : folder.state.record(folder.listed))
    }

    /**
     * Walks `<schemaDir>` for every given schema — snapshots, summary, gradings, About, skills,
     * tools — each schema on its own, so the files of a folder are read while others are listed.
     */
    async schemas(items: ReadonlyArray<SchemaFolder>): Promise<SchemaListing[]> {
        const at = new Map<string, Entries>()
        const walk: SchemaWalk = {
            listInto: async (p: string): Promise<Entries> => {
                const e = await this.listOne(p)
                at.set(p, e)
                return e
            },
            outs: new Map<string, GradingFileInput[]>()
        }
        const tops = await Promise.all(items.map((s) => this.walkSchema(s, walk)))
        await this.recordReady
        const get = (p: string): Entries => at.get(p) ?? null
        // A folder that is not there still gets its (empty) inputs, and a line in the record.
        const gradingsAt = (dir: string, rel: string, skill: string | null = null): GradingFileInput[] =>
            walk.outs.get(dir) ?? this.gradings(dir, rel, null, skill)
        return items.map((s, i) => this.schemaListing(s, tops[i] ?? null, get, gradingsAt))
    }

    /** Lists one schema folder and starts every listing and grading read under it; resolves to its own listing. */
    private async walkSchema(s: SchemaFolder, walk: SchemaWalk): Promise<Entries> {
        const { listInto, outs } = walk
        const top = await listInto(s.dir)
        const jobs: Array<Promise<unknown>> = []
        if (has(top, LAYOUT.schemaSnapshots, 'directory')) jobs.push(listInto(joinPath(s.dir, LAYOUT.schemaSnapshots)))
        if (has(top, LAYOUT.gradings, 'directory')) {
            jobs.push(this.gradingDir(joinPath(s.dir, LAYOUT.gradings), `${s.rel}/_gradings`, null, outs))
        }
        if (has(top, LAYOUT.skills, 'directory')) jobs.push(this.walkSkills(s, walk))
        if (has(top, LAYOUT.tools, 'directory')) {
            const toolsDir = joinPath(s.dir, LAYOUT.tools)
            const toolGradings = (tool: string): Promise<void> => {
                const rel = `${s.rel}/tools/${tool}/_gradings`
                return this.gradingDir(joinPath(toolsDir, tool, LAYOUT.gradings), rel, null, outs)
            }
            jobs.push(listInto(toolsDir).then((e) => Promise.all(dirs(e).map(toolGradings))))
        }
        if (has(top, LAYOUT.resources, 'directory')) {
            const aboutDir = joinPath(s.dir, LAYOUT.resources, LAYOUT.about)
            const aboutGradings = (): Promise<void> =>
                this.gradingDir(joinPath(aboutDir, LAYOUT.gradings), `${s.rel}/resources/about/_gradings`, null, outs)
            const listed = listInto(aboutDir)
            jobs.push(listed.then((e) => (has(e, LAYOUT.gradings, 'directory') ? aboutGradings() : undefined)))
        }
        await Promise.all(jobs)
        return top
    }

    /** Lists `skills/` and every skill folder in it, and starts the reads of their `_gradings/`. */
    private walkSkills(s: SchemaFolder, walk: SchemaWalk): Promise<unknown> {
        const skillsDir = joinPath(s.dir, LAYOUT.skills)
        const skillGradings = async (skill: string): Promise<void> => {
            const sd = joinPath(skillsDir, skill)
            if (has(await walk.listInto(sd), LAYOUT.gradings, 'directory')) {
                const rel = `${s.rel}/skills/${skill}/_gradings`
                await this.gradingDir(joinPath(sd, LAYOUT.gradings), rel, skill, walk.outs)
            }
        }
        return walk.listInto(skillsDir).then((e) => Promise.all(dirs(e).map(skillGradings)))
    }

    /** One schema's listing from what the walk saw; its `summary.json` is queued and lands in the listing once read. */
    private schemaListing(
        s: SchemaFolder,
        top: Entries,
        get: (p: string) => Entries,
        gradingsAt: (dir: string, rel: string, skill?: string | null) => GradingFileInput[]
    ): SchemaListing {
        const aboutDir = joinPath(s.dir, LAYOUT.resources, LAYOUT.about)
        const about: PrimitiveListing = {
            snapshots: files(get(aboutDir)),
            gradings: gradingsAt(joinPath(aboutDir, LAYOUT.gradings), `${s.rel}/resources/about/_gradings`)
        }
        const skills: SkillListing[] = dirs(get(joinPath(s.dir, LAYOUT.skills))).map((skill) => {
            const sd = joinPath(s.dir, LAYOUT.skills, skill)
            const gradings = gradingsAt(joinPath(sd, LAYOUT.gradings), `${s.rel}/skills/${skill}/_gradings`, skill)
            return { name: skill, snapshots: files(get(sd)), gradings }
        })
        const toolsDir = joinPath(s.dir, LAYOUT.tools)
        const tools: ToolListing[] = dirs(get(toolsDir)).map((tool) => ({
            name: tool,
            gradings: gradingsAt(joinPath(toolsDir, tool, LAYOUT.gradings), `${s.rel}/tools/${tool}/_gradings`)
        }))
        const listing: { -readonly [K in keyof SchemaListing]: SchemaListing[K] } = {
            name: s.name,
            snapshots: files(get(joinPath(s.dir, LAYOUT.schemaSnapshots))),
            gradings: gradingsAt(joinPath(s.dir, LAYOUT.gradings), `${s.rel}/_gradings`),
            about,
            skills,
            tools
        }
        if (has(top, LAYOUT.summary, 'file')) {
            this.readOther(joinPath(s.dir, LAYOUT.summary), `${s.rel}/summary.json`, (r) => {
                if (r.problem !== undefined) listing.summaryProblem = r.problem
                else listing.summary = r.json
            })
        }
        return listing
    }
}

/**
 * What a read saw, to tell afterwards whether the folder is still as read: every folder listed
 * (with its entries, `null` when missing) and the text of every other file read (`summary.json`, a
 * selection definition). Grading files and snapshots are never rewritten, so their names suffice.
 */
export interface SeenState {
    /**
     * Per folder its {@link fingerprint} (`null` when missing); `ignore`: names in that folder the
     * rebuild writes itself (index.json, the record), left out.
     */
    readonly dirs: Array<{
        readonly path: string
        readonly listing: string | null
        readonly ignore?: ReadonlySet<string>
    }>
    readonly files: Array<{ readonly path: string; readonly text: string }>
    /** A read failed or a file vanished: the result rests on something a re-read may see otherwise. */
    unsure: boolean
}

// Kinds by one letter; a name never contains `/`, so the joined form is unambiguous.
const KIND_LETTER: Readonly<Record<string, string>> = { file: 'f', directory: 'd', symlink: 'l', other: 'o' }

/** A listing as one string (kind letter and name per entry): one small value per folder to keep and compare. */
function fingerprint(entries: Entries, ignore: ReadonlySet<string> | null): string | null {
    if (entries === null) return null
    let out = ''
    for (const e of entries)
        if (ignore === null || !ignore.has(e.name)) out += `${KIND_LETTER[e.kind] ?? 'o'}${e.name}/`
    return out
}

/**
 * Whether the folder is still as a read saw it: lists every folder again (concurrently) and reads
 * the few rewritable files again. Far cheaper than a second rebuild, which would also parse the
 * record and build the index. `false` on any doubt (a failing call, an unsure read).
 */
export async function unchangedSince(fs: FsPort, seen: SeenState, concurrency?: number): Promise<boolean> {
    if (seen.unsure) return false
    const limit = poolSize(concurrency)
    let same = true
    await mapPool(seen.dirs, limit, async (d) => {
        if (!same) return
        const res = await listDir(fs, d.path)
        if (!res.ok || fingerprint(res.value, d.ignore ?? null) !== d.listing) same = false
    })
    if (!same) return false
    await mapPool(seen.files, limit, async (f) => {
        if (!same) return
        const res = await readText(fs, f.path)
        if (!res.ok || res.value !== f.text) same = false
    })
    return same
}

/** Options of the listing readers. */
export interface ReadListingOptions {
    /** Concurrent port calls; default {@link DEFAULT_READ_CONCURRENCY}. */
    readonly concurrency?: number
    /** A pool the caller shares (its own calls then count against the same bound); overrides `concurrency`. */
    readonly pool?: PortPool
    /**
     * Folder records of an earlier rebuild (see `index-record.ts`); absent or `null` reads every
     * file. A promise lets the walk start while the record is still being read.
     */
    readonly record?: ReadonlyMap<string, FolderRecord> | null | Promise<ReadonlyMap<string, FolderRecord> | null>
}

/** What a listing reader returns: the listing, and the folder records for the next rebuild. */
export interface ReadListingResult<L> {
    readonly listing: L | null
    readonly errors: Issue[]
    readonly record?: ReadonlyMap<string, FolderRecord>
    /** What the read saw, for {@link unchangedSince}. */
    readonly seen?: SeenState
    /** The index folder still holds a record under its old name ({@link LEGACY_INDEX_RECORD_FILE}). */
    readonly legacyRecord?: boolean
}

/** The concurrency asked for when it is a positive integer, else the default. */
export function poolSize(c: unknown): number {
    return typeof c === 'number' && Number.isInteger(c) && c > 0 ? c : DEFAULT_READ_CONCURRENCY
}

function reader(fs: FsPort, options: ReadListingOptions | undefined, indexDir: string): Reader {
    const outputs = new Map([[indexDir, new Set([LAYOUT.index, INDEX_RECORD_FILE, LEGACY_INDEX_RECORD_FILE])]])
    const record = options?.record ?? null
    const pool = options?.pool ?? new PortPool(poolSize(options?.concurrency))
    const r = new Reader(
        fs,
        pool,
        DEFAULT_JSON_LIMITS.maxTextLength,
        record instanceof Promise ? null : record,
        outputs
    )
    if (record instanceof Promise) r.awaitRecord(record)
    return r
}

/**
 * Reads `providers/<ns>/` through the port into a {@link NamespaceListing}: every directory once,
 * every grading file once (bounded concurrency), each digested on arrival.
 * @returns `{ listing, errors }`; IDX-006 when the folder is missing, FS-001/FS-004 when the port fails
 */
export async function readNamespaceListing(
    fs: FsPort,
    namespaceDir: string,
    options?: ReadListingOptions
): Promise<ReadListingResult<NamespaceListing>> {
    const r = reader(fs, options, namespaceDir)
    const [top] = await r.list([namespaceDir])
    if (r.fatal !== null) return r.failed()
    if (top === null || top === undefined)
        return { listing: null, errors: [createIssue('IDX-006', '/namespaceDir', { path: namespaceDir })] }
    const schemaNames = dirs(top).filter((n) => !n.startsWith('_') && !n.startsWith('.'))
    const gd = joinPath(namespaceDir, LAYOUT.gradings)
    const [nsGradings] = has(top, LAYOUT.gradings, 'directory') ? await r.list([gd]) : [null]
    const schemas = await r.schemas(schemaNames.map((name) => ({ dir: joinPath(namespaceDir, name), name, rel: name })))
    await r.ready()
    const gradings = r.gradings(gd, '_gradings', nsGradings ?? null)
    if (r.fatal !== null) return r.failed()
    await r.readAll()
    if (r.fatal !== null) return r.failed()
    return {
        listing: { namespace: baseName(namespaceDir), gradings, schemas },
        errors: [],
        record: r.recorded,
        seen: r.seen,
        legacyRecord: has(top, LEGACY_INDEX_RECORD_FILE, 'file')
    }
}

/**
 * Reads `selections/<sel>/` and its members' provider schema folders into a {@link SelectionListing}.
 * @returns `{ listing, errors }`; IDX-006 when the folder is missing, FS-001/FS-004 when the port fails
 */
export async function readSelectionListing(
    fs: FsPort,
    selectionDir: string,
    providersRoot: string,
    options?: ReadListingOptions
): Promise<ReadListingResult<SelectionListing>> {
    const r = reader(fs, options, selectionDir)
    const selectionId = baseName(selectionDir)
    const [top] = await r.list([selectionDir])
    if (r.fatal !== null) return r.failed()
    if (top === null || top === undefined)
        return { listing: null, errors: [createIssue('IDX-006', '/selectionDir', { path: selectionDir })] }
    const own = await listSelectionFolders(r, selectionDir)
    if (r.fatal !== null) return r.failed()
    const read = await readDefinition(r, own, selectionId)
    if (read === null) return r.failed()
    const { definitionSnapshots, definition, definitionProblem } = read
    const usable = read.file !== null && definitionProblem === undefined
    const members = usable ? (definitionMembers(definition, `selection/${read.file}`, []) ?? []) : []
    const providers = await memberListings(r, providersRoot, members)
    await r.ready()
    const listing: SelectionListing = {
        selectionId,
        definitionSnapshots,
        ...definedFields({ definition, definitionProblem }),
        gradings: r.gradings(own.gd, '_gradings', own.gradings),
        about: {
            snapshots: files(own.about),
            gradings: r.gradings(own.aboutGd, 'resources/about/_gradings', own.level2[0] ?? null)
        },
        skills: own.skillNames.map((name, i) => {
            const gd = joinPath(own.skillsDir, name, LAYOUT.gradings)
            const gradings = r.gradings(gd, `skills/${name}/_gradings`, own.skillGd[i] ?? null, name)
            return { name, snapshots: files(own.level2[i + 1] ?? null), gradings }
        }),
        providers
    }
    if (r.fatal !== null) return r.failed()
    await r.readAll()
    if (r.fatal !== null) return r.failed()
    const legacyRecord = has(top, LEGACY_INDEX_RECORD_FILE, 'file')
    return { listing, errors: [], record: r.recorded, seen: r.seen, legacyRecord }
}

/** A selection's own folders as listed: definition snapshots, About, skills, and their `_gradings/`. */
interface SelectionFolders {
    readonly defDir: string
    readonly defs: Entries
    readonly about: Entries
    readonly aboutGd: string
    readonly skillsDir: string
    readonly skillNames: string[]
    /** The About `_gradings/` listing, then each skill folder's. */
    readonly level2: Entries[]
    /** Each skill's `_gradings/` listing. */
    readonly skillGd: Entries[]
    readonly gd: string
    readonly gradings: Entries
}

/** Lists the selection's own folders, level by level (a level names the folders of the next). */
async function listSelectionFolders(r: Reader, selectionDir: string): Promise<SelectionFolders> {
    const defDir = joinPath(selectionDir, LAYOUT.selectionSnapshots)
    const aboutDir = joinPath(selectionDir, LAYOUT.resources, LAYOUT.about)
    const skillsDir = joinPath(selectionDir, LAYOUT.skills)
    const gd = joinPath(selectionDir, LAYOUT.gradings)
    const [defs, about, skillsTop, own] = await r.list([defDir, aboutDir, skillsDir, gd])
    const skillNames = dirs(skillsTop ?? null)
    const aboutGd = joinPath(aboutDir, LAYOUT.gradings)
    const level2 = await r.list([aboutGd, ...skillNames.map((s) => joinPath(skillsDir, s))])
    const skillGd = await r.list(skillNames.map((s) => joinPath(skillsDir, s, LAYOUT.gradings)))
    return {
        defDir,
        defs: defs ?? null,
        about: about ?? null,
        aboutGd,
        skillsDir,
        skillNames,
        level2,
        skillGd,
        gd,
        gradings: own ?? null
    }
}

/** The definition snapshots, and the newest one's file, value and problem (all absent when there is none). */
interface SelectionDefinition {
    readonly definitionSnapshots: string[]
    readonly file: string | null
    readonly definition: unknown
    readonly definitionProblem: Issue | undefined
}

/**
 * Reads the newest definition snapshot: the definition decides which provider folders to read, so
 * it is read first. `null` when the read failed (the reader then holds the fatal issue).
 */
async function readDefinition(r: Reader, own: SelectionFolders, id: string): Promise<SelectionDefinition | null> {
    const definitionSnapshots = files(own.defs)
    const latest = selectLatest({ names: definitionSnapshots, logicalName: id, kind: 'snapshot' })
    let definition: unknown
    let definitionProblem: Issue | undefined
    if (latest.file !== null) {
        r.readOther(joinPath(own.defDir, latest.file), `selection/${latest.file}`, (res) => {
            definition = res.json
            definitionProblem = res.problem
        })
        await r.readAll()
        if (r.fatal !== null) return null
    }
    return { definitionSnapshots, file: latest.file, definition, definitionProblem }
}

/** Each member with its provider schema listing, `null` when its id does not resolve to an existing folder. */
async function memberListings(
    r: Reader,
    providersRoot: string,
    members: ReadonlyArray<{ schemaId: string }>
): Promise<MemberSchemaListing[]> {
    type Resolvable = { schemaId: string; split: { namespace: string; schema: string } }
    const split = members.map((m) => ({ schemaId: m.schemaId, split: splitSchemaId(m.schemaId) }))
    const resolvable = split.filter((m) => m.split !== null) as Resolvable[]
    const folderOf = (m: Resolvable): SchemaFolder => ({
        dir: joinPath(providersRoot, m.split.namespace, m.split.schema),
        name: m.split.schema,
        rel: `${m.split.namespace}/${m.split.schema}`
    })
    const present = await r.list(resolvable.map((m) => folderOf(m).dir))
    const existing = resolvable.filter((_, i) => present[i] !== null && present[i] !== undefined)
    const schemaListings = await r.schemas(existing.map(folderOf))
    return resolvable.map((m) => {
        const k = existing.indexOf(m)
        return { schemaId: m.schemaId, schema: k >= 0 ? (schemaListings[k] as SchemaListing) : null }
    })
}
