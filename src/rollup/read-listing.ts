import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { DEFAULT_JSON_LIMITS } from '../json/guard.js'
import { AREAS } from '../model/constants.js'
import { selectLatest } from '../naming/latest.js'
import type { FsDirEntry, FsPort } from '../ports/types.js'
import { listDir, mapPool, readText } from '../island/fs-ops.js'
import { baseName, joinPath, LAYOUT } from '../island/paths.js'
import { definitionMembers, splitSchemaId } from './build-selection.js'
import { screenGradingFile } from './digest.js'
import { FolderState, folderInputs, type FolderRecord } from './folder-state.js'
import type { GradingFacts, GradingFileInput, MemberSchemaListing, NamespaceListing, PrimitiveListing, SchemaListing, SelectionListing, SkillListing, ToolListing } from './types.js'

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
    | { readonly grading: false; readonly abs: string; readonly rel: string; readonly put: (value: { json: unknown; problem?: Issue }) => void }

// Which listed names to read: the area prefix and the extension. The full grammar (with its
// calendar check) runs once per file, in the screen; a name that fails it there stays a stray.
const GRADING_NAME_HINT = new RegExp(`^(?:${[...AREAS].sort((a, b) => b.length - a.length).join('|')})--.*\\.json$`)
const mayBeGrading = (name: string): boolean => GRADING_NAME_HINT.test(name)

const files = (entries: Entries): string[] => (entries ?? []).filter((e) => e.kind === 'file').map((e) => e.name)
const dirs = (entries: Entries): string[] => (entries ?? []).filter((e) => e.kind === 'directory').map((e) => e.name)
const has = (entries: Entries, name: string, kind: 'file' | 'directory'): boolean => (entries ?? []).some((e) => e.name === name && e.kind === kind)

/** Reads an island folder tree through the port: directories level by level, files in one bounded pool. */
class Reader {
    readonly tasks: FileTask[] = []
    readonly folders: GradingFolder[] = []
    /** What this read leaves for the next rebuild's record, by folder. */
    readonly recorded = new Map<string, FolderRecord>()
    /** Every folder listed and every other file read, as seen: what {@link unchangedSince} compares. */
    readonly seen: SeenState = { dirs: [], files: [], unsure: false }
    fatal: Issue | null = null

    constructor(
        readonly fs: FsPort,
        readonly concurrency: number,
        readonly maxTextLength: number,
        /** Folder records of an earlier rebuild; `null` reads every file. */
        readonly previous: ReadonlyMap<string, FolderRecord> | null
    ) {}

    /** Lists many directories concurrently; a failing call stops the whole read (FS-001). */
    async list(paths: readonly string[]): Promise<Entries[]> {
        return mapPool(paths, this.concurrency, async (p) => {
            if (this.fatal !== null) return null
            const res = await listDir(this.fs, p)
            if (!res.ok) {
                this.fatal ??= res.issue
                return null
            }
            this.seen.dirs.push({ path: p, entries: res.value })
            return res.value
        })
    }

    /**
     * Grading file inputs for a `_gradings/` listing. Every grading file name is queued for reading,
     * except the files an earlier record already describes: when every name the record knows is
     * still listed (folders are append-only), only the new names are read.
     */
    gradings(dir: string, rel: string, entries: Entries, expectSkill: string | null = null): GradingFileInput[] {
        const listed = files(entries)
        // Filled in place when the folder settles; the listing holds this very array.
        const out: GradingFileInput[] = []
        const folder: GradingFolder = { dir, rel, expectSkill, listed, out, state: new FolderState(rel, expectSkill), finished: false, pending: 0 }
        this.folders.push(folder)
        const rec = this.previous?.get(rel)
        if (rec !== undefined && this.resume(folder, rec)) return out
        for (const name of listed) if (mayBeGrading(name)) this.queue(folder, name)
        return out
    }

    /**
     * Starts a folder from its record: an unchanged listing reads nothing; a listing that only
     * grew queues the new grading files. `false` when a recorded file is gone (read it all).
     */
    private resume(folder: GradingFolder, rec: FolderRecord): boolean {
        const strays = new Set(rec.strays)
        const joined = folder.listed.join('/')
        if (joined === rec.listing) {
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

    private async readOne(abs: string, rel: string, grading: boolean): Promise<{ json: unknown; problem?: Issue }> {
        // Failures name the file relative to the index, never by an absolute path.
        let text: unknown = null
        let failure: string | null = null
        try {
            text = await this.fs.readFile(abs)
        } catch (cause) {
            failure = cause instanceof Error ? cause.message : 'rejected'
        }
        const code = grading ? 'IDX-020' : 'IDX-021'
        // A failed read may pass next time: a re-check cannot vouch for what was built from it.
        if (failure !== null || typeof text !== 'string') this.seen.unsure = true
        else if (!grading) this.seen.files.push({ path: abs, text })
        if (failure !== null) return { json: undefined, problem: createIssue(code, '', { path: rel, detail: failure }) }
        if (text === null) return { json: undefined, problem: createIssue(code, '', { path: rel, detail: 'vanished while reading' }) }
        if (typeof text !== 'string') return { json: undefined, problem: createIssue(code, '', { path: rel, detail: `the port returned ${typeof text}, not text` }) }
        if (text.length > this.maxTextLength) return { json: undefined, problem: createIssue(grading ? 'IDX-004' : 'IDX-021', '', { path: rel, detail: `larger than ${this.maxTextLength} characters` }) }
        try {
            return { json: JSON.parse(text) as unknown }
        } catch (cause) {
            return { json: undefined, problem: createIssue(grading ? 'IDX-004' : 'IDX-021', '', { path: rel, detail: cause instanceof Error ? cause.message : 'invalid JSON' }) }
        }
    }

    private async runTasks(tasks: readonly FileTask[]): Promise<void> {
        await mapPool(tasks, this.concurrency, async (task) => {
            if (!task.grading) {
                task.put(await this.readOne(task.abs, task.rel, false))
                return
            }
            const rel = `${task.folder.rel}/${task.name}`
            const res = await this.readOne(joinPath(task.folder.dir, task.name), rel, true)
            const input: GradingFileInput = res.problem === undefined ? { name: task.name, entry: res.json } : { name: task.name, problem: res.problem }
            // Screened on arrival; the folder keeps the entry only while it may still decide a status.
            const facts = screenGradingFile(input, rel)
            if (facts !== null) task.folder.state.offer(facts, res.json)
            // A folder is settled as soon as its last file is in: its deciding entries are verified
            // and let go, so only the folders being read hold parsed entries.
            task.folder.pending -= 1
            if (task.folder.pending === 0) this.tryFinish(task.folder)
        })
    }

    private queue(folder: GradingFolder, name: string, into: FileTask[] = this.tasks): void {
        folder.pending += 1
        into.push({ grading: true, folder, name })
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
        await this.runTasks(this.tasks.splice(0))
        if (this.fatal !== null) return
        for (const folder of this.folders) if (!folder.finished && folder.pending === 0 && !this.again.includes(folder)) this.tryFinish(folder)
        const again = this.again.splice(0)
        if (again.length === 0) return
        // A record that did not hold what a status needs: those folders are read in full.
        const tasks: FileTask[] = []
        for (const folder of again) {
            folder.state = new FolderState(folder.rel, folder.expectSkill)
            delete folder.unchanged
            for (const name of folder.listed) if (mayBeGrading(name)) this.queue(folder, name, tasks)
        }
        // Without a record every entry is at hand, so these folders settle as their reads finish.
        await this.runTasks(tasks)
        for (const folder of again) if (!folder.finished) this.settle(folder, folder.state.finish() ?? new Map())
        this.again.length = 0
    }

    private settle(folder: GradingFolder, finals: Map<string, GradingFacts>): void {
        folder.finished = true
        const same = folder.unchanged
        const inputs = folderInputs(folder.listed, finals, same === undefined ? (n) => folder.state.names.has(n) : (n) => !same.strays.has(n))
        folder.out.length = 0
        for (const input of inputs) folder.out.push(input)
        this.recorded.set(folder.rel, same !== undefined ? same.record : folder.state.record(folder.listed))
    }

    /** Walks `<schemaDir>` for every given schema: snapshots, summary, gradings, About, skills, tools. */
    async schemas(items: ReadonlyArray<{ dir: string; name: string; rel: string }>): Promise<SchemaListing[]> {
        const tops = await this.list(items.map((s) => s.dir))
        const level2: string[] = []
        items.forEach((s, i) => {
            const e = tops[i] ?? null
            for (const sub of [LAYOUT.schemaSnapshots, LAYOUT.gradings, LAYOUT.skills, LAYOUT.tools]) if (has(e, sub, 'directory')) level2.push(joinPath(s.dir, sub))
            if (has(e, LAYOUT.resources, 'directory')) level2.push(joinPath(s.dir, LAYOUT.resources, LAYOUT.about))
        })
        const l2 = new Map<string, Entries>()
        ;(await this.list(level2)).forEach((e, i) => l2.set(level2[i] as string, e))
        const at = (p: string): Entries => l2.get(p) ?? null

        const level3: string[] = []
        for (const s of items) {
            const about = joinPath(s.dir, LAYOUT.resources, LAYOUT.about)
            if (has(at(about), LAYOUT.gradings, 'directory')) level3.push(joinPath(about, LAYOUT.gradings))
            for (const skill of dirs(at(joinPath(s.dir, LAYOUT.skills)))) level3.push(joinPath(s.dir, LAYOUT.skills, skill))
            for (const tool of dirs(at(joinPath(s.dir, LAYOUT.tools)))) level3.push(joinPath(s.dir, LAYOUT.tools, tool, LAYOUT.gradings))
        }
        ;(await this.list(level3)).forEach((e, i) => l2.set(level3[i] as string, e))

        const level4: string[] = []
        for (const s of items) {
            for (const skill of dirs(at(joinPath(s.dir, LAYOUT.skills)))) {
                const sd = joinPath(s.dir, LAYOUT.skills, skill)
                if (has(at(sd), LAYOUT.gradings, 'directory')) level4.push(joinPath(sd, LAYOUT.gradings))
            }
        }
        ;(await this.list(level4)).forEach((e, i) => l2.set(level4[i] as string, e))

        return items.map((s, i) => {
            const top = tops[i] ?? null
            const aboutDir = joinPath(s.dir, LAYOUT.resources, LAYOUT.about)
            const aboutGradings = joinPath(aboutDir, LAYOUT.gradings)
            const about: PrimitiveListing = {
                snapshots: files(at(aboutDir)),
                gradings: this.gradings(aboutGradings, `${s.rel}/resources/about/_gradings`, at(aboutGradings))
            }
            const skills: SkillListing[] = dirs(at(joinPath(s.dir, LAYOUT.skills))).map((skill) => {
                const sd = joinPath(s.dir, LAYOUT.skills, skill)
                const gd = joinPath(sd, LAYOUT.gradings)
                return { name: skill, snapshots: files(at(sd)), gradings: this.gradings(gd, `${s.rel}/skills/${skill}/_gradings`, at(gd), skill) }
            })
            const tools: ToolListing[] = dirs(at(joinPath(s.dir, LAYOUT.tools))).map((tool) => {
                const gd = joinPath(s.dir, LAYOUT.tools, tool, LAYOUT.gradings)
                return { name: tool, gradings: this.gradings(gd, `${s.rel}/tools/${tool}/_gradings`, at(gd)) }
            })
            const gd = joinPath(s.dir, LAYOUT.gradings)
            const listing: { -readonly [K in keyof SchemaListing]: SchemaListing[K] } = {
                name: s.name,
                snapshots: files(at(joinPath(s.dir, LAYOUT.schemaSnapshots))),
                gradings: this.gradings(gd, `${s.rel}/_gradings`, at(gd)),
                about,
                skills,
                tools
            }
            if (has(top, LAYOUT.summary, 'file')) {
                this.tasks.push({
                    abs: joinPath(s.dir, LAYOUT.summary),
                    rel: `${s.rel}/summary.json`,
                    grading: false,
                    put: (r) => {
                        if (r.problem !== undefined) listing.summaryProblem = r.problem
                        else listing.summary = r.json
                    }
                })
            }
            return listing
        })
    }
}

/**
 * What a read saw, to tell afterwards whether the folder is still as read: every folder listed
 * (with its entries, `null` when missing) and the text of every other file read (`summary.json`, a
 * selection definition). Grading files and snapshots are never rewritten, so their names suffice.
 */
export interface SeenState {
    readonly dirs: Array<{ readonly path: string; readonly entries: readonly FsDirEntry[] | null }>
    readonly files: Array<{ readonly path: string; readonly text: string }>
    /** A read failed or a file vanished: the result rests on something a re-read may see otherwise. */
    unsure: boolean
}

function sameEntries(a: readonly FsDirEntry[] | null, b: readonly FsDirEntry[] | null): boolean {
    if (a === null || b === null) return a === b
    if (a.length !== b.length) return false
    for (let i = 0; i < a.length; i += 1) {
        const x = a[i] as FsDirEntry
        const y = b[i] as FsDirEntry
        if (x.name !== y.name || x.kind !== y.kind) return false
    }
    return true
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
        if (!res.ok || !sameEntries(d.entries, res.value)) same = false
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
    /** Folder records of an earlier rebuild (see `index-record.ts`); absent or `null` reads every file. */
    readonly record?: ReadonlyMap<string, FolderRecord> | null
}

/** What a listing reader returns: the listing, and the folder records for the next rebuild. */
export interface ReadListingResult<L> {
    readonly listing: L | null
    readonly errors: Issue[]
    readonly record?: ReadonlyMap<string, FolderRecord>
    /** What the read saw, for {@link unchangedSince}. */
    readonly seen?: SeenState
}

/** The concurrency asked for when it is a positive integer, else the default. */
function poolSize(c: unknown): number {
    return typeof c === 'number' && Number.isInteger(c) && c > 0 ? c : DEFAULT_READ_CONCURRENCY
}

function reader(fs: FsPort, options: ReadListingOptions | undefined): Reader {
    return new Reader(fs, poolSize(options?.concurrency), DEFAULT_JSON_LIMITS.maxTextLength, options?.record ?? null)
}

/**
 * Reads `providers/<ns>/` through the port into a {@link NamespaceListing}: every directory once,
 * every grading file once (bounded concurrency), each digested on arrival.
 * @returns `{ listing, errors }`; IDX-006 when the folder is missing, FS-001/FS-004 when the port fails
 */
export async function readNamespaceListing(fs: FsPort, namespaceDir: string, options?: ReadListingOptions): Promise<ReadListingResult<NamespaceListing>> {
    const r = reader(fs, options)
    const [top] = await r.list([namespaceDir])
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    if (top === null || top === undefined) return { listing: null, errors: [createIssue('IDX-006', '/namespaceDir', { path: namespaceDir })] }
    const schemaNames = dirs(top).filter((n) => !n.startsWith('_') && !n.startsWith('.'))
    const gd = joinPath(namespaceDir, LAYOUT.gradings)
    const [nsGradings] = has(top, LAYOUT.gradings, 'directory') ? await r.list([gd]) : [null]
    const schemas = await r.schemas(schemaNames.map((name) => ({ dir: joinPath(namespaceDir, name), name, rel: name })))
    const gradings = r.gradings(gd, '_gradings', nsGradings ?? null)
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    await r.readAll()
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    return { listing: { namespace: baseName(namespaceDir), gradings, schemas }, errors: [], record: r.recorded, seen: r.seen }
}

/**
 * Reads `selections/<sel>/` and its members' provider schema folders into a {@link SelectionListing}.
 * @returns `{ listing, errors }`; IDX-006 when the folder is missing, FS-001/FS-004 when the port fails
 */
export async function readSelectionListing(fs: FsPort, selectionDir: string, providersRoot: string, options?: ReadListingOptions): Promise<ReadListingResult<SelectionListing>> {
    const r = reader(fs, options)
    const selectionId = baseName(selectionDir)
    const [top] = await r.list([selectionDir])
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    if (top === null || top === undefined) return { listing: null, errors: [createIssue('IDX-006', '/selectionDir', { path: selectionDir })] }
    const defDir = joinPath(selectionDir, LAYOUT.selectionSnapshots)
    const aboutDir = joinPath(selectionDir, LAYOUT.resources, LAYOUT.about)
    const skillsDir = joinPath(selectionDir, LAYOUT.skills)
    const gd = joinPath(selectionDir, LAYOUT.gradings)
    const [defs, about, skillsTop, own] = await r.list([defDir, aboutDir, skillsDir, gd])
    const skillNames = dirs(skillsTop ?? null)
    const aboutGd = joinPath(aboutDir, LAYOUT.gradings)
    const level2 = await r.list([aboutGd, ...skillNames.map((s) => joinPath(skillsDir, s))])
    const skillGd = await r.list(skillNames.map((s) => joinPath(skillsDir, s, LAYOUT.gradings)))
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }

    // The definition decides which provider folders to read, so it is read first.
    const definitionSnapshots = files(defs ?? null)
    const latest = selectLatest({ names: definitionSnapshots, logicalName: selectionId, kind: 'snapshot' })
    let definition: unknown
    let definitionProblem: Issue | undefined
    if (latest.file !== null) {
        r.tasks.push({
            abs: joinPath(defDir, latest.file),
            rel: `selection/${latest.file}`,
            grading: false,
            put: (res) => {
                definition = res.json
                definitionProblem = res.problem
            }
        })
        await r.readAll()
        if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    }
    const members = latest.file === null || definitionProblem !== undefined ? [] : (definitionMembers(definition, `selection/${latest.file}`, []) ?? [])
    const resolvable = members.map((m) => ({ schemaId: m.schemaId, split: splitSchemaId(m.schemaId) })).filter((m) => m.split !== null) as Array<{ schemaId: string; split: { namespace: string; schema: string } }>
    const memberDirs = resolvable.map((m) => joinPath(providersRoot, m.split.namespace, m.split.schema))
    const present = await r.list(memberDirs)
    const existing = resolvable.filter((_, i) => present[i] !== null && present[i] !== undefined)
    const schemaListings = await r.schemas(existing.map((m) => ({ dir: joinPath(providersRoot, m.split.namespace, m.split.schema), name: m.split.schema, rel: `${m.split.namespace}/${m.split.schema}` })))
    const providers: MemberSchemaListing[] = resolvable.map((m) => {
        const k = existing.indexOf(m)
        return { schemaId: m.schemaId, schema: k >= 0 ? (schemaListings[k] as SchemaListing) : null }
    })
    const listing: SelectionListing = {
        selectionId,
        definitionSnapshots,
        ...(definition !== undefined ? { definition } : {}),
        ...(definitionProblem !== undefined ? { definitionProblem } : {}),
        gradings: r.gradings(gd, '_gradings', own ?? null),
        about: { snapshots: files(about ?? null), gradings: r.gradings(aboutGd, 'resources/about/_gradings', level2[0] ?? null) },
        skills: skillNames.map((name, i) => ({
            name,
            snapshots: files(level2[i + 1] ?? null),
            gradings: r.gradings(joinPath(skillsDir, name, LAYOUT.gradings), `skills/${name}/_gradings`, skillGd[i] ?? null, name)
        })),
        providers
    }
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    await r.readAll()
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    return { listing, errors: [], record: r.recorded, seen: r.seen }
}
