import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { selectLatest } from '../naming/latest.js'
import { stripSnapshotFilename } from '../naming/snapshot-filename.js'
import type { FsPort } from '../ports/types.js'
import { checkFsPort, Journal, listDir, readText, rollback, statPath, writeAtomic } from '../store/fs-ops.js'
import { checkName, isInside, joinPath, LAYOUT, normalizeDir } from '../store/paths.js'
import { stampOf } from './stamps.js'

/** What to export: one namespace or one selection. */
export type ExportTarget =
    | { readonly namespace: string; readonly selection?: undefined }
    | { readonly selection: string; readonly namespace?: undefined }

/** One exported artefact. */
export interface ExportedFile {
    /** Island path of the source. */
    readonly from: string
    /** Path in the export folder. */
    readonly to: string
}

/** Result of {@link exportTarget}. */
export interface ExportResult {
    readonly status: boolean
    readonly flow: 'namespace' | 'selection' | null
    readonly exportDir: string | null
    readonly indexExportPath: string | null
    readonly files: ExportedFile[]
    readonly errors: Issue[]
}

type Plan = Array<{ from: string; rel: string }>

async function newest(
    fs: FsPort,
    dir: string,
    logicalName: string
): Promise<{ file: string | null; issue: Issue | null }> {
    const listing = await listDir(fs, dir)
    if (!listing.ok) return { file: null, issue: listing.issue }
    const names = (listing.value ?? []).filter((e) => e.kind === 'file').map((e) => e.name)
    return { file: selectLatest({ names, logicalName, kind: 'snapshot' }).file, issue: null }
}

async function subdirs(fs: FsPort, dir: string): Promise<{ names: string[]; issue: Issue | null }> {
    const listing = await listDir(fs, dir)
    if (!listing.ok) return { names: [], issue: listing.issue }
    return {
        names: (listing.value ?? [])
            .filter((e) => e.kind === 'directory' && !e.name.startsWith('_') && !e.name.startsWith('.'))
            .map((e) => e.name),
        issue: null
    }
}

/**
 * The current artefacts of a namespace in provider-source shape: `<schema>.mjs`, `resources/<ns>-about.md`,
 * `skills/<skill>.mjs`.
 */
async function namespacePlan(fs: FsPort, nsDir: string, ns: string): Promise<{ plan: Plan; issues: Issue[] }> {
    const plan: Plan = []
    const schemas = await subdirs(fs, nsDir)
    if (schemas.issue !== null) return { plan, issues: [schemas.issue] }
    let aboutDone = false
    const skillOwner = new Map<string, string>()
    const issues: Issue[] = []
    for (const schema of schemas.names) {
        const sd = joinPath(nsDir, schema)
        const snap = await newest(fs, joinPath(sd, LAYOUT.schemaSnapshots), schema)
        if (snap.issue !== null) return { plan, issues: [snap.issue] }
        if (snap.file !== null)
            plan.push({
                from: joinPath(sd, LAYOUT.schemaSnapshots, snap.file),
                rel: stripSnapshotFilename(snap.file) as string
            })
        if (!aboutDone) {
            const about = await newest(fs, joinPath(sd, LAYOUT.resources, LAYOUT.about), `${ns}-about`)
            if (about.issue !== null) return { plan, issues: [about.issue] }
            if (about.file !== null) {
                plan.push({
                    from: joinPath(sd, LAYOUT.resources, LAYOUT.about, about.file),
                    rel: `${LAYOUT.resources}/${stripSnapshotFilename(about.file) as string}`
                })
                aboutDone = true
            }
        }
        const skills = await subdirs(fs, joinPath(sd, LAYOUT.skills))
        if (skills.issue !== null) return { plan, issues: [skills.issue] }
        for (const skill of skills.names) {
            const s = await newest(fs, joinPath(sd, LAYOUT.skills, skill), skill)
            if (s.issue !== null) return { plan, issues: [s.issue] }
            if (s.file === null) continue
            const owner = skillOwner.get(skill)
            if (owner !== undefined) {
                issues.push(
                    createIssue('EXP-004', '/target', {
                        detail: `skill ${skill} exists under ${owner} and ${schema}; exported once, from ${owner}`
                    })
                )
                continue
            }
            skillOwner.set(skill, schema)
            plan.push({
                from: joinPath(sd, LAYOUT.skills, skill, s.file),
                rel: `${LAYOUT.skills}/${stripSnapshotFilename(s.file) as string}`
            })
        }
    }
    return { plan, issues }
}

/** The current artefacts of a selection: `<sel>.json`, `resources/<sel>-about.md`, `skills/<skill>.mjs`. */
async function selectionPlan(fs: FsPort, selDir: string, sel: string): Promise<{ plan: Plan; issues: Issue[] }> {
    const plan: Plan = []
    const def = await newest(fs, joinPath(selDir, LAYOUT.selectionSnapshots), sel)
    if (def.issue !== null) return { plan, issues: [def.issue] }
    if (def.file !== null)
        plan.push({
            from: joinPath(selDir, LAYOUT.selectionSnapshots, def.file),
            rel: stripSnapshotFilename(def.file) as string
        })
    const about = await newest(fs, joinPath(selDir, LAYOUT.resources, LAYOUT.about), `${sel}-about`)
    if (about.issue !== null) return { plan, issues: [about.issue] }
    if (about.file !== null)
        plan.push({
            from: joinPath(selDir, LAYOUT.resources, LAYOUT.about, about.file),
            rel: `${LAYOUT.resources}/${stripSnapshotFilename(about.file) as string}`
        })
    const skills = await subdirs(fs, joinPath(selDir, LAYOUT.skills))
    if (skills.issue !== null) return { plan, issues: [skills.issue] }
    for (const skill of skills.names) {
        const s = await newest(fs, joinPath(selDir, LAYOUT.skills, skill), skill)
        if (s.issue !== null) return { plan, issues: [s.issue] }
        if (s.file !== null)
            plan.push({
                from: joinPath(selDir, LAYOUT.skills, skill, s.file),
                rel: `${LAYOUT.skills}/${stripSnapshotFilename(s.file) as string}`
            })
    }
    return { plan, issues: [] }
}

/**
 * Exports a namespace or selection out of the island (OUT, chapter 22) into a fresh folder:
 * `index.json` copied byte for byte (the primary hand-off; its `ref`/`snapshot` pins stay intact,
 * 03 ⚠ C22) and, with `includeSchemas`, the current artefacts under their clean names, laid out like
 * a provider source folder, so the export can be imported again. Never overwrites: the export folder
 * must not exist (EXP-003) and must lie outside the island (EXP-006). All or nothing.
 * @param input - `{ fs, root, target, exportDir | exportRoot, now?, includeSchemas? }`; with `exportRoot` the
 *   folder is `<exportRoot>/<name>--<ts>` (03 ⚠ C22, `now` required)
 * @returns `{ status, flow, exportDir, indexExportPath, files, errors }`; EXP-001…EXP-006, FS-*
 * @example
 * await exportTarget({
 *     fs,
 *     root: '/island',
 *     target: { namespace: 'defillama' },
 *     exportDir: '/out/defillama',
 *     includeSchemas: true
 * })
 */
export async function exportTarget(input: {
    fs?: unknown
    root?: unknown
    target?: unknown
    exportDir?: unknown
    exportRoot?: unknown
    now?: unknown
    includeSchemas?: unknown
}): Promise<ExportResult> {
    const { errors, root, flow, name, exportDir } = checkExportInput(input)
    const fail = (list: Issue[]): ExportResult => failed(list, flow, exportDir)
    if (errors.length > 0 || root === null || exportDir === null || name === null || flow === null) return fail(errors)
    if (isInside(exportDir, root) || isInside(root, exportDir)) {
        return fail([createIssue('EXP-006', '/exportDir', { path: exportDir })])
    }

    const fs = input.fs as FsPort
    const sourceDir = joinPath(root, flow === 'namespace' ? LAYOUT.providers : LAYOUT.selections, name)
    const exists = await statPath(fs, exportDir)
    if (!exists.ok) return fail([exists.issue])
    if (exists.value !== null) return fail([createIssue('EXP-003', '/exportDir', { path: exportDir })])
    const indexText = await readText(fs, joinPath(sourceDir, LAYOUT.index))
    if (!indexText.ok) return fail([indexText.issue])
    if (indexText.value === null) {
        return fail([createIssue('EXP-005', '/target', { path: joinPath(sourceDir, LAYOUT.index) })])
    }

    const planned =
        input.includeSchemas !== true
            ? { plan: [], issues: [] }
            : flow === 'namespace'
              ? await namespacePlan(fs, sourceDir, name)
              : await selectionPlan(fs, sourceDir, name)
    if (planned.issues.some((i) => i.code.startsWith('FS-'))) return fail(planned.issues)
    const written = await writeExport(fs, exportDir, indexText.value, planned.plan)
    if (written.errors.length > 0) return fail(written.errors)
    const indexExportPath = joinPath(exportDir, LAYOUT.index)
    return { status: true, flow, exportDir, indexExportPath, files: written.files, errors: planned.issues }
}

function failed(errors: Issue[], flow: ExportResult['flow'], exportDir: string | null): ExportResult {
    return { status: false, flow, exportDir, indexExportPath: null, files: [], errors }
}

type ExportInput = Parameters<typeof exportTarget>[0]

/** The export's inputs, each checked before any file is touched; what resolved is handed on even beside errors. */
interface CheckedExport {
    readonly errors: Issue[]
    readonly root: string | null
    readonly flow: ExportResult['flow']
    readonly name: string | null
    readonly exportDir: string | null
}

function checkExportInput(input: ExportInput): CheckedExport {
    const errors: Issue[] = []
    const port = checkFsPort(input?.fs)
    if (port !== null) errors.push(port)
    const { dir: root, issue } = normalizeDir(input?.root, '/root', 'root')
    if (issue !== null) errors.push(issue)
    if (input?.includeSchemas !== undefined && typeof input.includeSchemas !== 'boolean') {
        const detail = `expected boolean, got ${typeOfValue(input.includeSchemas)}`
        errors.push(createIssue('EXP-001', '/includeSchemas', { field: 'includeSchemas', detail }))
    }
    const { flow, name } = resolveTarget(input?.target, errors)
    return { errors, root, flow, name, exportDir: resolveExportDir(input, name, errors) }
}

/** `{ namespace }` or `{ selection }`, exactly one, with a valid name. */
function resolveTarget(value: unknown, errors: Issue[]): { flow: ExportResult['flow']; name: string | null } {
    const target = value as Record<string, unknown> | undefined
    if (target === null || typeof target !== 'object') {
        const detail = `expected { namespace } or { selection }, got ${typeOfValue(target)}`
        errors.push(createIssue('EXP-001', '/target', { field: 'target', detail }))
        return { flow: null, name: null }
    }
    if ((target.namespace !== undefined) === (target.selection !== undefined)) {
        errors.push(createIssue('EXP-002', '/target', { detail: 'give exactly one of namespace and selection' }))
        return { flow: null, name: null }
    }
    const flow = target.namespace !== undefined ? 'namespace' : 'selection'
    const given = flow === 'namespace' ? target.namespace : target.selection
    const bad = checkName(given, flow, `/target/${flow}`)
    if (bad !== null) {
        errors.push(bad)
        return { flow, name: null }
    }
    return { flow, name: given as string }
}

/** `exportDir` as given, or `<exportRoot>/<name>--<stamp of now>` (null until every part is valid). */
function resolveExportDir(input: ExportInput, name: string | null, errors: Issue[]): string | null {
    if ((input?.exportDir !== undefined) === (input?.exportRoot !== undefined)) {
        const detail = 'give exactly one of exportDir and exportRoot'
        errors.push(createIssue('EXP-001', '/exportDir', { field: 'exportDir', detail }))
        return null
    }
    if (input.exportDir !== undefined) {
        const d = normalizeDir(input.exportDir, '/exportDir', 'exportDir')
        if (d.issue !== null) errors.push(d.issue)
        return d.dir
    }
    const d = normalizeDir(input.exportRoot, '/exportRoot', 'exportRoot')
    const stamp = stampOf(input.now)
    if (d.issue !== null) errors.push(d.issue)
    if (stamp === null) {
        const detail = `exportRoot needs an ISO-8601 now, got ${describeValue(input.now)}`
        errors.push(createIssue('EXP-001', '/now', { field: 'now', detail }))
    }
    return d.dir !== null && stamp !== null && name !== null ? joinPath(d.dir, `${name}--${stamp}`) : null
}

type ExportWrite = { files: ExportedFile[]; errors: Issue[] }

/** Writes index.json, then each planned file; the first failure rolls everything back (all or nothing). */
async function writeExport(fs: FsPort, exportDir: string, indexText: string, plan: Plan): Promise<ExportWrite> {
    // The export folder is new; nothing from its parent down may be a link.
    const journal = new Journal(exportDir.slice(0, Math.max(1, exportDir.lastIndexOf('/'))))
    const files: ExportedFile[] = []
    const wrote = await writeAtomic(fs, joinPath(exportDir, LAYOUT.index), indexText, { overwrite: false, journal })
    if (wrote.length > 0) return { files, errors: [...wrote, ...(await rollback(fs, journal))] }
    for (const item of plan) {
        const text = await readText(fs, item.from)
        const to = joinPath(exportDir, ...item.rel.split('/'))
        const vanished = (): Issue[] => {
            return [createIssue('EXP-004', '/target', { detail: `${item.from} vanished while exporting` })]
        }
        const problem = !text.ok
            ? [text.issue]
            : text.value === null
              ? vanished()
              : await writeAtomic(fs, to, text.value, { overwrite: false, journal })
        if (problem.length > 0) {
            const notExported = createIssue('EXP-004', '/target', { detail: `could not export ${item.rel}` })
            return { files, errors: [...problem, notExported, ...(await rollback(fs, journal))] }
        }
        files.push({ from: item.from, to })
    }
    return { files, errors: [] }
}
