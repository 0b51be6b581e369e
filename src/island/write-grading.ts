import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { validateGradingEntry } from '../grading/validate-entry.js'
import { SEVERITY, PERSONA_AREAS, PER_SKILL_AREAS, PROVIDER_AREAS, type Area } from '../model/constants.js'
import { formatGradingFilename, parseGradingFilename } from '../naming/grading-filename.js'
import { selectLatest } from '../naming/latest.js'
import type { FsPort } from '../ports/types.js'
import { rebuildNamespaceWith, rebuildSelectionWith } from '../rollup/rebuild-index.js'
import type { RollupIndex } from '../rollup/types.js'
import { checkFsPort, Journal, listDir, rollback, statPath, writeAtomic } from '../store/fs-ops.js'
import { joinPath, LAYOUT, normalizeDir, originalName } from '../store/paths.js'
import { monotonicStamp, stampOf } from './stamps.js'
import { gradingFolderFor, type GradingTarget } from './targets.js'

/** Result of {@link writeGrading}. */
export interface WriteGradingResult {
    readonly status: boolean
    readonly file: string | null
    readonly path: string | null
    readonly indexPath: string | null
    readonly index: RollupIndex | null
    readonly errors: Issue[]
}

type Obj = Record<string, unknown>

/** ISL-008 issues when the entry does not describe the target it is written for (01-model ⚠ A14). */
function targetMismatch(entry: Obj, area: Area, target: GradingTarget): Issue[] {
    const issues: Issue[] = []
    const provider = (PROVIDER_AREAS as readonly string[]).includes(area)
    if (provider && target.namespace !== undefined) {
        const schemaId = String(entry.schemaId)
        // The folder may hold the escaped island name of the runtime's file base (islandName); the id keeps the
        // original.
        const slug = target.schema === undefined ? undefined : (originalName(target.schema) ?? target.schema)
        if (slug !== undefined && schemaId !== `${target.namespace}.${slug}`) {
            issues.push(
                createIssue('ISL-008', '/entry/schemaId', {
                    detail: `schemaId ${describeValue(schemaId)} is not ${target.namespace}.${slug}`
                })
            )
        } else if (target.schema === undefined && !schemaId.startsWith(`${target.namespace}.`)) {
            issues.push(
                createIssue('ISL-008', '/entry/schemaId', {
                    detail: `schemaId ${describeValue(schemaId)} is not in namespace ${target.namespace}`
                })
            )
        }
    }
    if (!provider && entry.selectionId !== target.selection) {
        issues.push(
            createIssue('ISL-008', '/entry/selectionId', {
                detail: `selectionId ${describeValue(entry.selectionId)} is not ${String(target.selection)}`
            })
        )
    }
    if ((PER_SKILL_AREAS as readonly string[]).includes(area) && entry.skillId !== target.skill) {
        issues.push(
            createIssue('ISL-008', '/entry/skillId', {
                detail: `skillId ${describeValue(entry.skillId)} is not ${String(target.skill)}`
            })
        )
    }
    return issues
}

async function snapshotExists(fs: FsPort, dir: string, logicalName: string, what: string): Promise<Issue | null> {
    const listing = await listDir(fs, dir)
    if (!listing.ok) return listing.issue
    const names = (listing.value ?? []).filter((e) => e.kind === 'file').map((e) => e.name)
    return selectLatest({ names, logicalName, kind: 'snapshot' }).file === null
        ? createIssue('ISL-009', '/target', { detail: `${what} has no snapshot in ${dir}` })
        : null
}

async function dirExists(fs: FsPort, dir: string, what: string): Promise<Issue | null> {
    const st = await statPath(fs, dir)
    if (!st.ok) return st.issue
    return st.value?.kind === 'directory'
        ? null
        : createIssue('ISL-009', '/target', { detail: `${what} (${dir}) does not exist` })
}

/** The primitive a grading is about must exist in the island, or the rebuild would never see the grading. */
async function targetExists(fs: FsPort, root: string, area: Area, t: GradingTarget): Promise<Issue | null> {
    if (t.selection !== undefined) {
        const sel = joinPath(root, LAYOUT.selections, t.selection)
        const def = await snapshotExists(
            fs,
            joinPath(sel, LAYOUT.selectionSnapshots),
            t.selection,
            `selection ${t.selection}`
        )
        if (def !== null || t.skill === undefined) return def
        return snapshotExists(fs, joinPath(sel, LAYOUT.skills, t.skill), t.skill, `skill ${t.skill}`)
    }
    const ns = joinPath(root, LAYOUT.providers, t.namespace as string)
    const nsIssue = await dirExists(fs, ns, `namespace ${String(t.namespace)}`)
    if (nsIssue !== null || t.schema === undefined) return nsIssue
    const schemaDir = joinPath(ns, t.schema)
    const schema = await snapshotExists(fs, joinPath(schemaDir, LAYOUT.schemaSnapshots), t.schema, `schema ${t.schema}`)
    if (schema !== null) return schema
    if (t.tool !== undefined) return dirExists(fs, joinPath(schemaDir, LAYOUT.tools, t.tool), `tool ${t.tool}`)
    if (t.skill !== undefined)
        return snapshotExists(fs, joinPath(schemaDir, LAYOUT.skills, t.skill), t.skill, `skill ${t.skill}`)
    if (area === 'about-namespace')
        return snapshotExists(
            fs,
            joinPath(schemaDir, LAYOUT.resources, LAYOUT.about),
            `${String(t.namespace)}-about`,
            `the About of ${String(t.namespace)}`
        )
    return null
}

/**
 * Writes one grading entry into the island and rebuilds the index it rolls up into (chapter 23:
 * a rebuild after every grading write). The entry is validated with `validateGradingEntry`; its
 * `_gradings/` folder follows from (area, target) (02-areas §1); the file name follows the grammar
 * `<area>[--<basePersona>--<lens>]--<ts>.json`. Nothing is ever overwritten: when the folder
 * already holds an entry of the area at or after `now`, the timestamp moves to one second after
 * the newest (01-model ⚠ A13), so the new entry is always the newest. All or nothing: if the
 * rebuild fails, the entry is removed again.
 * @param input - `{ fs, root, target, entry, now, concurrency? }`
 * @returns `{ status, file, path, indexPath, index, errors }`; GRD-* invalid entry (paths under `/entry`),
 *   ISL-006 target/area mismatch, ISL-008 entry/target mismatch, ISL-009 target not imported,
 *   ISL-INFO-001 timestamp advanced, FS-* / IDX-* from the write and the rebuild
 * @example
 * await writeGrading({
 *     fs,
 *     root: '/island',
 *     target: { namespace: 'defillama', schema: 'prices', tool: 'getFirstPrice' },
 *     entry,
 *     now: clock.now()
 * })
 */
export async function writeGrading(input: {
    fs?: unknown
    root?: unknown
    target?: unknown
    entry?: unknown
    now?: unknown
    concurrency?: number
}): Promise<WriteGradingResult> {
    const fail = (errors: Issue[], indexPath: string | null = null): WriteGradingResult => ({
        status: false,
        file: null,
        path: null,
        indexPath,
        index: null,
        errors
    })
    const { errors, root, stamp } = checkWriteInput(input)
    if (errors.length > 0 || root === null || stamp === null) return fail(errors)

    const fs = input.fs as FsPort
    const entry = input.entry as Obj
    const area = entry.area as Area
    const folder = gradingFolderFor({ area, target: input.target })
    if (folder.segments === null || folder.indexSegments === null || folder.scope === null) return fail(folder.errors)
    const target = input.target as GradingTarget
    const mismatch = targetMismatch(entry, area, target)
    if (mismatch.length > 0) return fail(mismatch)
    const missing = await targetExists(fs, root, area, target)
    if (missing !== null) return fail([missing])

    const dir = joinPath(root, ...folder.segments)
    const named = await nextEntryName(fs, dir, entry, stamp, folder.segments.join('/'))
    if (named.filename === null) return fail(named.errors)

    const journal = new Journal(root)
    const path = joinPath(dir, named.filename)
    const written = await writeAtomic(fs, path, `${JSON.stringify(entry, null, 4)}\n`, { overwrite: false, journal })
    if (written.length > 0) return fail([...written, ...(await rollback(fs, journal))])
    const indexDir = joinPath(root, ...folder.indexSegments)
    const concurrency = input.concurrency !== undefined ? { concurrency: input.concurrency } : {}
    const rebuilt =
        folder.scope.kind === 'namespace'
            ? await rebuildNamespaceWith({ fs, namespaceDir: indexDir, now: input.now, ...concurrency }, { journal })
            : await rebuildSelectionWith(
                  {
                      fs,
                      selectionDir: indexDir,
                      providersRoot: joinPath(root, LAYOUT.providers),
                      now: input.now,
                      ...concurrency
                  },
                  { journal }
              )
    if (!rebuilt.status) return fail([...rebuilt.errors, ...(await rollback(fs, journal))], rebuilt.indexPath)
    const { indexPath, index } = rebuilt
    return { status: true, file: named.filename, path, indexPath, index, errors: [...named.notes, ...rebuilt.errors] }
}

type WriteInput = Parameters<typeof writeGrading>[0]

/** Port, root, `now` and the entry itself (errors only; paths under `/entry`), all before the island is read. */
function checkWriteInput(input: WriteInput): { errors: Issue[]; root: string | null; stamp: string | null } {
    const errors: Issue[] = []
    const port = checkFsPort(input?.fs)
    if (port !== null) errors.push(port)
    const { dir: root, issue } = normalizeDir(input?.root, '/root', 'root')
    if (issue !== null) errors.push(issue)
    const stamp = stampOf(input?.now)
    if (stamp === null) errors.push(createIssue('GRD-046', '/now', { value: describeValue(input?.now) }))
    const check = validateGradingEntry({ entry: input?.entry })
    const entryErrors = check.errors.filter((i) => i.severity === SEVERITY.error)
    errors.push(...entryErrors.map((i) => ({ ...i, path: `/entry${i.path}` })))
    return { errors, root, stamp }
}

type PersonaRef = { basePersonaId?: unknown; lensId?: unknown }
type EntryName = { filename: string; notes: Issue[]; errors: Issue[] } | { filename: null; errors: Issue[] }

/** The entry's file name in `dir`: its timestamp moves past the newest entry of the area there (01-model ⚠ A13). */
async function nextEntryName(fs: FsPort, dir: string, entry: Obj, stamp: string, folder: string): Promise<EntryName> {
    const area = entry.area as Area
    const personaBound = (PERSONA_AREAS as readonly string[]).includes(area)
    const persona = personaBound ? (entry.persona as PersonaRef | undefined) : undefined
    const personaArgs = persona !== undefined ? { basePersona: persona.basePersonaId, lens: persona.lensId } : {}
    const listing = await listDir(fs, dir)
    if (!listing.ok) return { filename: null, errors: [listing.issue] }
    const existing = (listing.value ?? [])
        .map((e) => parseGradingFilename(e.name))
        .filter((p) => p !== null && p.area === area)
        .map((p) => p?.timestamp as string)
    const ts = monotonicStamp(stamp, existing)
    const notes: Issue[] = ts === stamp ? [] : [createIssue('ISL-INFO-001', '/now', { from: stamp, to: ts, folder })]
    const name = formatGradingFilename({ area, timestamp: ts, ...personaArgs })
    if (name.filename === null) {
        // The file name carries the persona; its issues belong to the entry's persona.
        const onPersona = (at: string): string => (at === '/basePersona' || at === '/lens' ? '/entry/persona' : at)
        return { filename: null, errors: name.errors.map((i) => ({ ...i, path: onPersona(i.path) })) }
    }
    return { filename: name.filename, notes, errors: [] }
}
