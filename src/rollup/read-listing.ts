import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { DEFAULT_JSON_LIMITS } from '../json/guard.js'
import { parseGradingFilename } from '../naming/grading-filename.js'
import { selectLatest } from '../naming/latest.js'
import type { FsDirEntry, FsPort } from '../ports/types.js'
import { listDir, mapPool } from '../island/fs-ops.js'
import { baseName, joinPath, LAYOUT } from '../island/paths.js'
import { definitionMembers, splitSchemaId } from './build-selection.js'
import { mayDecide, screenGradingFile, verifyGradingFacts } from './digest.js'
import type { Area } from '../model/constants.js'
import type { GradingFacts, GradingFileInput, MemberSchemaListing, NamespaceListing, PrimitiveListing, SchemaListing, SelectionListing, SkillListing, ToolListing } from './types.js'

/** Default number of concurrent port calls while reading an island. */
export const DEFAULT_READ_CONCURRENCY = 32

type Entries = FsDirEntry[] | null

/** A file to read, and where its result goes. */
interface FileTask {
    readonly abs: string
    readonly rel: string
    readonly grading: boolean
    readonly put: (value: GradingFileInput | { json: unknown; problem?: Issue }) => void
    readonly folder?: FolderGroup
}

/** A parsed entry kept until phase 2 verifies it. */
interface Candidate {
    readonly facts: GradingFacts
    readonly entry: unknown
    readonly rel: string
    readonly put: (value: GradingFileInput) => void
}

/**
 * One `_gradings/` folder while it is read. Only the entries a status may rest on keep their parsed
 * form (per area the newest full entry, plus entries naming a previous grading); every other entry is
 * reduced to its facts at once, so memory stays small however long the audit trail grows.
 */
class FolderGroup {
    readonly newest = new Map<Area, Candidate>()
    readonly lineage: Candidate[] = []

    offer(candidate: Candidate): void {
        const f = candidate.facts
        if (!mayDecide(f)) return
        if (f.previousGradingId !== null) this.lineage.push(candidate)
        const cur = this.newest.get(f.area)?.facts
        if (cur === undefined || f.timestamp > cur.timestamp || (f.timestamp === cur.timestamp && f.file > cur.file)) this.newest.set(f.area, candidate)
    }

    verifyAll(): void {
        for (const c of new Set([...this.newest.values(), ...this.lineage])) c.put({ name: c.facts.file, facts: verifyGradingFacts(c.facts, c.entry, c.rel) })
        this.newest.clear()
        this.lineage.length = 0
    }
}

const files = (entries: Entries): string[] => (entries ?? []).filter((e) => e.kind === 'file').map((e) => e.name)
const dirs = (entries: Entries): string[] => (entries ?? []).filter((e) => e.kind === 'directory').map((e) => e.name)
const has = (entries: Entries, name: string, kind: 'file' | 'directory'): boolean => (entries ?? []).some((e) => e.name === name && e.kind === kind)

/** Reads an island folder tree through the port: directories level by level, files in one bounded pool. */
class Reader {
    readonly tasks: FileTask[] = []
    fatal: Issue | null = null

    constructor(
        readonly fs: FsPort,
        readonly concurrency: number,
        readonly maxTextLength: number
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
            return res.value
        })
    }

    readonly folders: FolderGroup[] = []

    /** Grading file inputs for a `_gradings/` listing; parseable names are queued for reading, others passed through. */
    gradings(dir: string, rel: string, entries: Entries): GradingFileInput[] {
        const out: GradingFileInput[] = []
        const folder = new FolderGroup()
        this.folders.push(folder)
        for (const name of files(entries)) {
            const slot = out.length
            out.push({ name })
            if (parseGradingFilename(name) === null) continue
            this.tasks.push({ abs: joinPath(dir, name), rel: `${rel}/${name}`, grading: true, folder, put: (v) => (out[slot] = v as GradingFileInput) })
        }
        return out
    }

    /** Reads every queued file once, digesting grading files as they arrive so only facts stay in memory. */
    async readAll(): Promise<void> {
        const tasks = this.tasks.splice(0)
        await mapPool(tasks, this.concurrency, async (task) => {
            const name = baseName(task.abs)
            // One await per file on the hot path; failures name the file relative to the index, never an absolute path.
            let text: unknown = null
            let failure: string | null = null
            try {
                text = await this.fs.readFile(task.abs)
            } catch (cause) {
                failure = cause instanceof Error ? cause.message : 'rejected'
            }
            let problem: Issue | undefined
            let json: unknown
            const code = task.grading ? 'IDX-020' : 'IDX-021'
            if (failure !== null) problem = createIssue(code, '', { path: task.rel, detail: failure })
            else if (text === null) problem = createIssue(code, '', { path: task.rel, detail: 'vanished while reading' })
            else if (typeof text !== 'string') problem = createIssue(code, '', { path: task.rel, detail: `the port returned ${typeof text}, not text` })
            else if (text.length > this.maxTextLength) problem = createIssue(task.grading ? 'IDX-004' : 'IDX-021', '', { path: task.rel, detail: `larger than ${this.maxTextLength} characters` })
            else {
                try {
                    json = JSON.parse(text) as unknown
                } catch (cause) {
                    problem = createIssue(task.grading ? 'IDX-004' : 'IDX-021', '', { path: task.rel, detail: cause instanceof Error ? cause.message : 'invalid JSON' })
                }
            }
            if (!task.grading) {
                task.put(problem === undefined ? { json } : { json: undefined, problem })
                return
            }
            const input: GradingFileInput = problem === undefined ? { name, entry: json } : { name, problem }
            const facts = screenGradingFile(input, task.rel)
            if (facts === null) {
                task.put(input)
                return
            }
            task.put({ name, facts })
            task.folder?.offer({ facts, entry: json, rel: task.rel, put: task.put })
        })
        for (const folder of this.folders.splice(0)) folder.verifyAll()
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
                return { name: skill, snapshots: files(at(sd)), gradings: this.gradings(gd, `${s.rel}/skills/${skill}/_gradings`, at(gd)) }
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
                    put: (v) => {
                        const r = v as { json: unknown; problem?: Issue }
                        if (r.problem !== undefined) listing.summaryProblem = r.problem
                        else listing.summary = r.json
                    }
                })
            }
            return listing
        })
    }
}

/** Options of the listing readers. */
export interface ReadListingOptions {
    /** Concurrent port calls; default {@link DEFAULT_READ_CONCURRENCY}. */
    readonly concurrency?: number
}

function reader(fs: FsPort, options: ReadListingOptions | undefined): Reader {
    const c = options?.concurrency
    return new Reader(fs, typeof c === 'number' && Number.isInteger(c) && c > 0 ? c : DEFAULT_READ_CONCURRENCY, DEFAULT_JSON_LIMITS.maxTextLength)
}

/**
 * Reads `providers/<ns>/` through the port into a {@link NamespaceListing}: every directory once,
 * every grading file once (bounded concurrency), each digested on arrival.
 * @returns `{ listing, errors }`; IDX-006 when the folder is missing, FS-001/FS-004 when the port fails
 */
export async function readNamespaceListing(fs: FsPort, namespaceDir: string, options?: ReadListingOptions): Promise<{ listing: NamespaceListing | null; errors: Issue[] }> {
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
    return { listing: { namespace: baseName(namespaceDir), gradings, schemas }, errors: [] }
}

/**
 * Reads `selections/<sel>/` and its members' provider schema folders into a {@link SelectionListing}.
 * @returns `{ listing, errors }`; IDX-006 when the folder is missing, FS-001/FS-004 when the port fails
 */
export async function readSelectionListing(fs: FsPort, selectionDir: string, providersRoot: string, options?: ReadListingOptions): Promise<{ listing: SelectionListing | null; errors: Issue[] }> {
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
            put: (v) => {
                const res = v as { json: unknown; problem?: Issue }
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
            gradings: r.gradings(joinPath(skillsDir, name, LAYOUT.gradings), `skills/${name}/_gradings`, skillGd[i] ?? null)
        })),
        providers
    }
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    await r.readAll()
    if (r.fatal !== null) return { listing: null, errors: [r.fatal] }
    return { listing, errors: [] }
}
