import { SEVERITY } from '../model/constants.js'
import * as v from 'valibot'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { inspectJson } from '../json/guard.js'
import { SNAPSHOT_NAME_REGEX } from '../naming/snapshot-filename.js'
import type { FsPort, LoadedModule, SchemaLoader } from '../ports/types.js'
import { rebuildNamespaceWith } from '../rollup/rebuild-index.js'
import type { NamespaceIndex } from '../rollup/types.js'
import { callPort, checkFsPort, ensureDir, Journal, listDir, readText, rollback } from '../store/fs-ops.js'
import { checkName, islandName, joinPath, LAYOUT, NAME_PATTERNS, normalizeDir } from '../store/paths.js'
import { SourceSnapshot } from './snapshot.js'
import { readModuleSource } from '../schema/source-loader.js'
import { redactSecretsDeep, redactSecretText, secretForms } from '../prompts/redact.js'
import { stampOf } from './stamps.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'
import { type ArgCodes, parseArgs, says, wholeArg } from '../validation/args.js'

/** One source file handed in by the host: a path relative to the provider folder and its text. */
export interface SourceFile {
    /** `<schema>.mjs`, `resources/<file>.md` or `skills/<skill>.mjs`. */
    readonly name: string
    readonly text: string
    /** The parsed `main` export of a schema file, when the host already has it. */
    readonly main?: unknown
    /** The parsed `skill` export of a skill file, when the host already has it. */
    readonly skill?: unknown
}

/** One imported schema. */
export interface ImportedSchema {
    readonly schema: string
    readonly hash: string
    readonly file: string
    /** False when the newest snapshot already held these bytes. */
    readonly created: boolean
    readonly tools: readonly string[]
}

/** One placed artefact (About or skill). */
export interface ImportedArtefact {
    readonly name: string
    readonly schema: string
    readonly file: string
    readonly created: boolean
}

/** Result of {@link importProvider}. */
export interface ImportResult {
    readonly status: boolean
    readonly namespace: string | null
    readonly imported: ImportedSchema[]
    readonly about: ImportedArtefact | null
    readonly skills: ImportedArtefact[]
    readonly indexPath: string | null
    readonly index: NamespaceIndex | null
    readonly errors: Issue[]
}

type Obj = Record<string, unknown>

// Wrong or unusable arguments: ISL-002, with the value's type (`now` with the value itself); absent: ISL-001.
const ARGS: ArgCodes<'ISL-001' | 'ISL-002'> = { missing: 'ISL-001', mismatch: 'ISL-002', create: createIssue }
const STYLE = { actual: 'type' } as const
const SOURCE_FILE = wholeArg(v.looseObject({ name: v.string(), text: v.string() }), {
    expected: '{ name, text, main?, skill? }',
    missing: false
})
/** Every file checked, each wrong one reported; the list is used only when all are right. */
const FILES = v.array(SOURCE_FILE, says({ expected: 'array', missing: false }))
const NOW_AND_LOADER = v.object({
    now: v.custom<string>(
        (now) => stampOf(now) !== null,
        says({ expected: 'ISO-8601 date-time', actual: 'value', missing: false })
    ),
    trustedLoader: v.optional(
        v.custom((loader) => isObject(loader) && typeof loader.load === 'function', says('{ load(path) }'))
    )
})

interface GatedSchema {
    readonly slug: string
    readonly file: SourceFile
    readonly main: Obj
    readonly hash: string
    readonly tools: string[]
}

/** Collects the source files from `files` or from `sourceDir` (top level `*.mjs`, `resources/*`, `skills/*.mjs`). */
async function collectSources(input: {
    files?: unknown
    sourceDir?: unknown
    sourceFs?: unknown
    fs: FsPort
}): Promise<{ files: SourceFile[]; base: string | null; errors: Issue[] }> {
    if (input.files !== undefined && input.sourceDir !== undefined)
        return {
            files: [],
            base: null,
            errors: [createIssue('IMP-001', '', { detail: 'give either files or sourceDir, not both' })]
        }
    if (input.files !== undefined) {
        const given = parseArgs(FILES, input.files, ARGS, { ...STYLE, field: 'indexed', at: ['files'] })
        return { files: given.value ?? [], base: null, errors: given.errors }
    }
    if (input.sourceDir === undefined)
        return {
            files: [],
            base: null,
            errors: [createIssue('ISL-001', '/sourceDir', { field: 'sourceDir or files' })]
        }
    const { dir, issue } = normalizeDir(input.sourceDir, '/sourceDir', 'sourceDir')
    if (dir === null) return { files: [], base: null, errors: [issue as Issue] }
    const src = (input.sourceFs ?? input.fs) as FsPort
    const srcIssue = input.sourceFs === undefined ? null : checkFsPort(input.sourceFs, '/sourceFs')
    if (srcIssue !== null) return { files: [], base: null, errors: [srcIssue] }
    const top = await listDir(src, dir)
    if (!top.ok) return { files: [], base: null, errors: [top.issue] }
    if (top.value === null)
        return {
            files: [],
            base: null,
            errors: [createIssue('IMP-001', '/sourceDir', { detail: `providerPath not found: ${dir}` })]
        }
    const names: string[] = top.value.filter((e) => e.kind === 'file' && e.name.endsWith('.mjs')).map((e) => e.name)
    for (const sub of [LAYOUT.resources, LAYOUT.skills]) {
        const listing = await listDir(src, joinPath(dir, sub))
        if (!listing.ok) return { files: [], base: null, errors: [listing.issue] }
        for (const e of listing.value ?? [])
            if (e.kind === 'file' && (sub === LAYOUT.resources || e.name.endsWith('.mjs')))
                names.push(`${sub}/${e.name}`)
    }
    const files: SourceFile[] = []
    for (const name of names) {
        const read = await readText(src, joinPath(dir, name))
        if (!read.ok) return { files: [], base: null, errors: [read.issue] }
        if (read.value === null)
            return {
                files: [],
                base: null,
                errors: [createIssue('SNP-005', '/sourceDir', { path: joinPath(dir, name) })]
            }
        files.push({ name, text: read.value })
    }
    return { files, base: dir, errors: [] }
}

async function loadModule(
    loader: SchemaLoader | undefined,
    base: string | null,
    name: string
): Promise<{ module: LoadedModule | null; issue: Issue | null }> {
    if (loader === undefined) return { module: null, issue: null }
    const path = base === null ? name : joinPath(base, name)
    const res = await callPort('load', path, () => loader.load(path))
    if (!res.ok) return { module: null, issue: createIssue('IMP-010', '', { file: name, detail: res.issue.message }) }
    return { module: isObject(res.value) ? (res.value as LoadedModule) : null, issue: null }
}

function redactSource(file: SourceFile, forms: readonly string[]): SourceFile {
    const text = redactSecretText(file.text, forms)
    if (text === file.text && file.main === undefined && file.skill === undefined) return file
    return {
        name: file.name,
        text,
        ...(file.main !== undefined ? { main: redactSecretsDeep(file.main, forms) } : {}),
        ...(file.skill !== undefined ? { skill: redactSecretsDeep(file.skill, forms) } : {})
    }
}

/** The structural gate (chapter 22 step 2): plain JSON `main` with a namespace, a name and a tools object. */
function gate(main: unknown, file: string, issues: Issue[]): Obj | null {
    const where = `/files/${file}`
    if (!isObject(main)) {
        issues.push(
            createIssue('IMP-002', where, { detail: `${file}: main must be an object, got ${typeOfValue(main)}` })
        )
        return null
    }
    const plain = inspectJson(main)
    if (plain.length > 0) {
        issues.push(
            createIssue('IMP-002', where, {
                detail: `${file}: main is not plain JSON (${(plain[0] as Issue).message})`
            })
        )
        return null
    }
    if (main.namespace === undefined || main.namespace === '') {
        issues.push(createIssue('IMP-004', where, { detail: file }))
        return null
    }
    const problems: string[] = []
    if (checkName(main.namespace, 'namespace', '') !== null)
        problems.push(`namespace ${describeValue(main.namespace)} must match ${String(NAME_PATTERNS.namespace)}`)
    if (typeof main.name !== 'string' || main.name.length === 0) problems.push('name must be a non-empty string')
    if (!isObject(main.tools)) problems.push('tools must be an object')
    // Any tool key the runtime loads gets an island name (islandName); only a key too long even escaped is refused.
    else
        for (const tool of Object.keys(main.tools))
            if (islandName(tool, 'tool') === null)
                problems.push(`tool key ${describeValue(tool)} has no island name (longer than 200 characters escaped)`)
    if (problems.length > 0) {
        issues.push(createIssue('IMP-002', where, { detail: `${file}: ${problems.join('; ')}` }))
        return null
    }
    return main
}

/** Tool names a skill requires (`requires.tools`, ids like `ns/tool/name` or bare names). */
function requiredTools(skill: unknown): string[] {
    const tools =
        isObject(skill) && isObject(skill.requires) && Array.isArray(skill.requires.tools) ? skill.requires.tools : []
    return tools.filter((t): t is string => typeof t === 'string').map((t) => t.slice(t.lastIndexOf('/') + 1))
}

/** Input of {@link importProvider}, named for its stages. */
type ImportInput = Parameters<typeof importProvider>[0]

/** The checked arguments: the island's port and root, and the host's trusted loader if any. */
interface ImportArgs {
    readonly fs: FsPort
    readonly root: string
    readonly loader: SchemaLoader | undefined
}

/** The About to place: the schema it goes under and its text. */
interface AboutPlan {
    readonly schema: string
    readonly text: string
}

/** A skill to place under a schema, with the source text stored for it. */
interface SkillPlan {
    readonly name: string
    readonly schema: string
    readonly text: string
}

/** Where the import writes: the port, the namespace folder, the journal undone on failure, and the notes it adds to. */
interface WriteContext {
    readonly fs: FsPort
    readonly nsDir: string
    readonly now: unknown
    readonly journal: Journal
    readonly notes: Issue[]
    /** An edit of a schema that keeps its hash but not its bytes: refused (SNP-004) or a new snapshot. */
    readonly sameHashEdit: 'conflict' | 'new-snapshot'
}

/** What the import placed in the island. */
interface Placed {
    readonly imported: ImportedSchema[]
    readonly about: ImportedArtefact | null
    readonly skills: ImportedArtefact[]
}

function failImport(errors: Issue[], namespace: string | null = null): ImportResult {
    return { status: false, namespace, imported: [], about: null, skills: [], indexPath: null, index: null, errors }
}

/** fs, root, now and trustedLoader, every problem collected. */
function checkImportArgs(input: ImportInput): { args: ImportArgs | null; errors: Issue[] } {
    const errors: Issue[] = []
    const port = checkFsPort(input?.fs)
    if (port !== null) errors.push(port)
    const { dir: root, issue } = normalizeDir(input?.root, '/root', 'root')
    if (issue !== null) errors.push(issue)
    errors.push(
        ...parseArgs(NOW_AND_LOADER, { now: input?.now, trustedLoader: input?.trustedLoader }, ARGS, STYLE).errors
    )
    const stamp = stampOf(input?.now)
    const loader = input?.trustedLoader
    if (errors.length > 0 || root === null || stamp === null) return { args: null, errors }
    return { args: { fs: input.fs as FsPort, root, loader: loader as SchemaLoader | undefined }, errors }
}

/** Sources holding a host's key value are stored redacted; hashes are then of what is stored. */
function redactSources(
    collected: { files: SourceFile[]; base: string | null },
    secrets: readonly string[] | undefined
): { files: SourceFile[]; base: string | null } {
    const forms = Array.isArray(secrets)
        ? secretForms(
              Object.fromEntries(
                  secrets.filter((s): s is string => typeof s === 'string').map((s, i) => [String(i), s])
              )
          )
        : []
    return forms.length === 0 ? collected : { ...collected, files: collected.files.map((f) => redactSource(f, forms)) }
}

/**
 * A schema file's `main`: given parsed, imported by the trusted loader, or read from the syntax tree; `undefined`
 * (reported) when there is none.
 */
async function schemaMainOf(
    file: SourceFile,
    loader: SchemaLoader | undefined,
    base: string | null,
    errors: Issue[],
    notes: Issue[]
): Promise<unknown> {
    if (file.main !== undefined) return file.main
    let main: unknown
    if (loader !== undefined) {
        const loaded = await loadModule(loader, base, file.name)
        if (loaded.issue !== null) {
            errors.push(loaded.issue)
            return undefined
        }
        main = loaded.module?.main ?? loaded.module?.schema
    } else {
        // Read from the syntax tree: the source is never run.
        const read = readModuleSource({ source: file.text })
        const rebased = read.errors.map((e) => ({ ...e, path: `/files/${file.name}` }))
        errors.push(...rebased.filter((e) => e.severity === SEVERITY.error))
        notes.push(...rebased.filter((e) => e.severity !== SEVERITY.error))
        if (read.module === null) return undefined
        main = read.module.main ?? read.module.schema
    }
    if (main === undefined)
        errors.push(
            createIssue('IMP-010', `/files/${file.name}`, {
                file: file.name,
                detail: 'the module exports neither main nor schema'
            })
        )
    return main
}

/** Reads and gates every schema file (chapter 22 step 2); a file that fails is reported and not imported. */
async function gateSchemas(
    schemaFiles: readonly SourceFile[],
    loader: SchemaLoader | undefined,
    base: string | null,
    errors: Issue[],
    notes: Issue[]
): Promise<GatedSchema[]> {
    const gated: GatedSchema[] = []
    for (const file of schemaFiles) {
        // File names the runtime loads (`--pnlRoutes.mjs`) get an island name through the reversible islandName
        // mapping.
        const slug = islandName(file.name.slice(0, -'.mjs'.length), 'schema')
        if (slug === null) {
            errors.push(
                createIssue('IMP-003', `/files/${file.name}`, {
                    detail: `${file.name}: the file base has no island name (longer than 200 characters escaped)`
                })
            )
            continue
        }
        const main = await schemaMainOf(file, loader, base, errors, notes)
        if (main === undefined) continue
        const ok = gate(main, file.name, errors)
        if (ok === null) continue
        const hash = HashGenerator.computeSchemaHash({ schema: ok }).short as string
        gated.push({
            slug,
            file,
            main: ok,
            hash,
            tools: Object.keys(ok.tools as Obj)
                .map((t) => islandName(t, 'tool') as string)
                .sort()
        })
    }
    return gated
}

/**
 * The one namespace the gated schemas declare, or the issue ending the import (IMP-005 for several, IMP-001 for none).
 */
function oneNamespace(gated: readonly GatedSchema[]): { ns: string | null; issue: Issue | null } {
    const namespaces = [...new Set(gated.map((g) => g.main.namespace as string))].sort()
    if (namespaces.length > 1)
        return {
            ns: null,
            issue: createIssue('IMP-005', '', {
                detail: `folder declares ${namespaces.length} namespaces: ${namespaces.join(', ')} (one folder = one namespace)`
            })
        }
    const ns = namespaces[0]
    if (ns === undefined)
        return { ns: null, issue: createIssue('IMP-001', '', { detail: 'no schema passed the validate gate' }) }
    return { ns, issue: null }
}

/** The About: the first schema (by slug) declaring `resources.about` with a file name that is present. */
function planAbout(
    gated: readonly GatedSchema[],
    ns: string,
    files: readonly SourceFile[],
    notes: Issue[]
): AboutPlan | null {
    for (const g of gated) {
        const decl = isObject(g.main.resources) ? g.main.resources.about : undefined
        if (!isObject(decl)) continue
        const fileName = typeof decl.name === 'string' ? decl.name : `${ns}-about.md`
        const source = files.find((f) => f.name === `${LAYOUT.resources}/${fileName}`)
        if (source === undefined) {
            notes.push(
                createIssue('IMP-011', `/files/${g.file.name}`, { file: `resources/${fileName}`, schema: g.slug })
            )
            continue
        }
        return { schema: g.slug, text: source.text }
    }
    return null
}

/** A skill file's `skill` export: given parsed, loaded, or read from the syntax tree; problems are only warnings. */
async function skillExportOf(
    file: SourceFile,
    loader: SchemaLoader | undefined,
    base: string | null,
    notes: Issue[]
): Promise<unknown> {
    if (file.skill !== undefined) return file.skill
    if (loader !== undefined) {
        const loaded = await loadModule(loader, base, file.name)
        if (loaded.issue !== null) notes.push({ ...loaded.issue, severity: SEVERITY.warning })
        return loaded.module?.skill
    }
    const read = readModuleSource({ source: file.text })
    notes.push(...read.errors.map((e) => ({ ...e, severity: SEVERITY.warning, path: `/files/${file.name}` })))
    return read.module?.skill
}

/** Namespace-level skill files, each placed under the schema whose tools it requires, else with the About (03 ⚠ C3). */
async function planSkillFiles(
    files: readonly SourceFile[],
    gated: readonly GatedSchema[],
    aboutSchema: string | null,
    loader: SchemaLoader | undefined,
    base: string | null,
    errors: Issue[],
    notes: Issue[]
): Promise<SkillPlan[]> {
    const plans: SkillPlan[] = []
    const skillFiles = files
        .filter((f) => f.name.startsWith(`${LAYOUT.skills}/`) && f.name.endsWith('.mjs'))
        .sort((a, b) => (a.name < b.name ? -1 : 1))
    for (const file of skillFiles) {
        const name = file.name.slice(LAYOUT.skills.length + 1, -'.mjs'.length)
        if (checkName(name, 'skill', '') !== null || !SNAPSHOT_NAME_REGEX.test(name)) {
            errors.push(
                createIssue('IMP-013', `/files/${file.name}`, {
                    file: file.name,
                    detail: `the skill name ${describeValue(name)} must match ${String(NAME_PATTERNS.skill)}`
                })
            )
            continue
        }
        const required = requiredTools(await skillExportOf(file, loader, base, notes))
        const owners = required.length === 0 ? [] : gated.filter((g) => required.some((t) => g.tools.includes(t)))
        const fallback = aboutSchema ?? (gated[0] as GatedSchema).slug
        const schema = owners.length === 1 ? (owners[0] as GatedSchema).slug : fallback
        const why =
            owners.length === 1
                ? 'the schema whose tools it requires'
                : owners.length > 1
                  ? 'its tools span several schemas; placed with the About'
                  : 'it requires no known tool; placed with the About'
        notes.push(
            createIssue('IMP-012', `/files/${file.name}`, {
                skill: name,
                schema,
                detail: aboutSchema === null && owners.length !== 1 ? `${why} (no About: first schema)` : why
            })
        )
        plans.push({ name, schema, text: file.text })
    }
    return plans
}

/** Legacy inline skills of each schema, normalised into skill files beside it. */
function planInlineSkills(gated: readonly GatedSchema[], errors: Issue[], notes: Issue[]): SkillPlan[] {
    const plans: SkillPlan[] = []
    for (const g of gated) {
        const inline = g.main.skills
        const list = Array.isArray(inline)
            ? inline
            : isObject(inline)
              ? Object.entries(inline).map(([k, v]) => (isObject(v) ? { name: k, ...v } : v))
              : []
        for (const skill of list) {
            const name = isObject(skill) ? skill.name : undefined
            if (typeof name !== 'string' || checkName(name, 'skill', '') !== null || !SNAPSHOT_NAME_REGEX.test(name)) {
                errors.push(
                    createIssue('IMP-013', `/files/${g.file.name}`, {
                        file: g.file.name,
                        detail: `inline skill name ${describeValue(name)} is not a valid skill name`
                    })
                )
                continue
            }
            notes.push(
                createIssue('IMP-012', `/files/${g.file.name}`, {
                    skill: name,
                    schema: g.slug,
                    detail: 'inline skill normalised into a skill file beside its schema'
                })
            )
            plans.push({ name, schema: g.slug, text: `export const skill = ${JSON.stringify(skill, null, 4)}\n` })
        }
    }
    return plans
}

/**
 * Snapshots each schema with its tool folders, then the About, then the skills, in that order.
 * @returns what was placed, or the problems that abort the import (the caller rolls back)
 */
async function placeArtefacts(
    ctx: WriteContext,
    ns: string,
    gated: readonly GatedSchema[],
    aboutPlan: AboutPlan | null,
    skillPlans: readonly SkillPlan[]
): Promise<{ placed: Placed | null; problems: Issue[] }> {
    const { fs, nsDir, now, journal, notes } = ctx
    const imported: ImportedSchema[] = []
    for (const g of gated) {
        const schemaDir = joinPath(nsDir, g.slug)
        const snap = await SourceSnapshot.create({
            fs,
            dir: joinPath(schemaDir, LAYOUT.schemaSnapshots),
            name: g.slug,
            ext: 'mjs',
            text: g.file.text,
            hash: g.hash,
            now,
            journal,
            sameHashEdit: ctx.sameHashEdit
        })
        if (snap.file === null) return { placed: null, problems: snap.errors }
        notes.push(...snap.errors)
        for (const tool of g.tools) {
            const mk = await ensureDir(fs, joinPath(schemaDir, LAYOUT.tools, tool), journal)
            if (mk !== null) return { placed: null, problems: [mk] }
        }
        imported.push({ schema: g.slug, hash: g.hash, file: snap.file, created: snap.created, tools: g.tools })
    }
    let about: ImportedArtefact | null = null
    if (aboutPlan !== null) {
        const name = `${ns}-about`
        const snap = await SourceSnapshot.create({
            fs,
            dir: joinPath(nsDir, aboutPlan.schema, LAYOUT.resources, LAYOUT.about),
            name,
            ext: 'md',
            text: aboutPlan.text,
            now,
            journal
        })
        if (snap.file === null) return { placed: null, problems: snap.errors }
        notes.push(...snap.errors)
        about = { name, schema: aboutPlan.schema, file: snap.file, created: snap.created }
    }
    const skills: ImportedArtefact[] = []
    for (const plan of skillPlans) {
        const snap = await SourceSnapshot.create({
            fs,
            dir: joinPath(nsDir, plan.schema, LAYOUT.skills, plan.name),
            name: plan.name,
            ext: 'mjs',
            text: plan.text,
            now,
            journal
        })
        if (snap.file === null) return { placed: null, problems: snap.errors }
        notes.push(...snap.errors)
        skills.push({ name: plan.name, schema: plan.schema, file: snap.file, created: snap.created })
    }
    return { placed: { imported, about, skills }, problems: [] }
}

/**
 * Imports a provider folder into the island (IN, chapter 22), non-destructively and all or nothing:
 * 1. scan the sources (`files`, or `sourceDir` read through `sourceFs ?? fs`); sources are never
 *    executed: each `main` (and skill) is read from the syntax tree unless given parsed, or the
 *    host passes an explicit `trustedLoader` (which imports, i.e. runs, the module);
 * 2. gate each schema (plain JSON `main`, namespace, name, tools; invalid ⇒ not imported, IMP-002);
 * 3. assert one namespace (IMP-005 aborts);
 * 4. snapshot each schema beside its older versions (new hash ⇒ new file, same ⇒ skip, same hash
 *    but other bytes ⇒ SNP-004 aborts, or with `sameHashEdit: 'new-snapshot'` a new snapshot beside
 *    the old, SNP-INFO-002: the explicit decision 03 ⚠ C12 asks for, which grading a source makes);
 * 5. normalise: tool folders, the About (`resources/<name>` ⇒ `resources/about/<ns>-about--…md`),
 *    skills (`skills/<skill>.mjs` ⇒ `<schema>/skills/<skill>/`, placed per 03 ⚠ C3, IMP-012);
 * 6. rebuild `providers/<ns>/index.json`.
 * Any failure undoes every file and folder the import created.
 * @param input - `{ fs, root, now, files | sourceDir, sourceFs?, trustedLoader?, secrets? }`; `secrets` are
 *   host-given key values: every stored copy (schema, About, skill) has them replaced by `[redacted]`
 * @returns `{ status, namespace, imported, about, skills, indexPath, index, errors }`; IMP-001…IMP-013, SRC-*,
 *   SNP-004/SNP-005, FS-*, IDX-*
 * @example await importProvider({ fs, root: '/island', files: [{ name: 'prices.mjs', text, main }], now })
 */
export async function importProvider(input: {
    fs?: unknown
    root?: unknown
    now?: unknown
    files?: unknown
    sourceDir?: unknown
    sourceFs?: unknown
    trustedLoader?: unknown
    secrets?: readonly string[]
    concurrency?: number
    sameHashEdit?: 'conflict' | 'new-snapshot'
}): Promise<ImportResult> {
    const { args, errors: argErrors } = checkImportArgs(input)
    if (args === null) return failImport(argErrors)
    const { fs, root, loader } = args
    const collected = await collectSources({
        files: input.files,
        sourceDir: input.sourceDir,
        sourceFs: input.sourceFs,
        fs
    })
    if (collected.errors.length > 0) return failImport(collected.errors)
    const sources = redactSources(collected, input.secrets)
    const schemaFiles = sources.files
        .filter((f) => !f.name.includes('/') && f.name.endsWith('.mjs') && !f.name.startsWith('_'))
        .sort((a, b) => (a.name < b.name ? -1 : 1))
    if (schemaFiles.length === 0)
        return failImport([createIssue('IMP-001', '', { detail: 'no .mjs schema files found' })])

    const errors: Issue[] = []
    const notes: Issue[] = []
    const gated = await gateSchemas(schemaFiles, loader, sources.base, errors, notes)
    const { ns, issue } = oneNamespace(gated)
    if (ns === null) return failImport([...errors, issue as Issue])
    const aboutPlan = planAbout(gated, ns, sources.files, notes)
    const skillPlans = await planSkillFiles(
        sources.files,
        gated,
        aboutPlan?.schema ?? null,
        loader,
        sources.base,
        errors,
        notes
    )
    skillPlans.push(...planInlineSkills(gated, errors, notes))
    const hardErrors = errors.filter((e) => e.severity === SEVERITY.error)
    if (gated.length === 0) return failImport(hardErrors)

    const journal = new Journal(root)
    const nsDir = joinPath(root, LAYOUT.providers, ns)
    const abort = async (problems: Issue[]): Promise<ImportResult> =>
        failImport([...hardErrors, ...problems, ...(await rollback(fs, journal))], ns)
    const { placed, problems } = await placeArtefacts(
        {
            fs,
            nsDir,
            now: input.now,
            journal,
            notes,
            sameHashEdit: input.sameHashEdit === 'new-snapshot' ? 'new-snapshot' : 'conflict'
        },
        ns,
        gated,
        aboutPlan,
        skillPlans
    )
    if (placed === null) return abort(problems)
    const rebuilt = await rebuildNamespaceWith(
        {
            fs,
            namespaceDir: nsDir,
            now: input.now,
            ...definedFields({ concurrency: input.concurrency })
        },
        { journal }
    )
    if (!rebuilt.status) return abort(rebuilt.errors)
    return {
        status: true,
        namespace: ns,
        ...placed,
        indexPath: rebuilt.indexPath,
        index: rebuilt.index,
        errors: [...errors, ...notes, ...rebuilt.errors]
    }
}
