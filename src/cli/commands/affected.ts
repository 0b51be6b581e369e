// `affected`: the schema folders a list of changed files touches, for a pull-request gate that grades only those
// (docs/ci.md). A schema file names its folder; an About, skill or other file of a schema folder names that folder;
// the config file names every folder; a recording names the folders of the schemas that read its host — as the
// island's summary.json files record the requests each schema's tests sent, and as a schema's `root` says.
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, relative, sep } from 'node:path'
import type { AffectedJson, AffectedJsonReason } from '../../index.js'
import { readModuleSource } from '../../schema/source-loader.js'
import { CONFIG_FILE } from '../config.js'
import { EXIT, type CliIo } from '../io.js'
import { absolute, schemaFiles } from '../node.js'

export interface AffectedCommandOptions {
    /** The file listing the changed files, one per line, relative to the working folder (`git diff --name-only`). */
    readonly changedFiles?: string
    /** The island whose summary.json files say which schema read which host. */
    readonly island?: string
    /** The recordings folder: a changed `*.json` in it is a recording. */
    readonly recordings?: string
    /** Where a changed file the tree no longer has is read (the base commit's checkout): a removed recording. */
    readonly base?: string
    /** The config file in force (a change to it touches every schema). */
    readonly configFile?: string | null
    readonly json: boolean
}

/** Why a folder is affected: the changed file, and what it is (`affected --json` prints them). */
type Reason = AffectedJsonReason

/** A schema file of the tree: its folder, and where the island files it (namespace and slug), and its root's host. */
interface TreeSchema {
    readonly file: string
    readonly folder: string
    readonly id: string | null
    readonly rootHost: string | null
}

/** `affected <schema dir…> --changed-files <file>`: prints the schema folders the changed files touch, one a line. */
export async function affectedCommand(
    paths: readonly string[],
    options: AffectedCommandOptions,
    io: CliIo
): Promise<number> {
    if (options.changedFiles === undefined) {
        io.stderr('affected: name the list of changed files: --changed-files <file>\n')
        return EXIT.USAGE
    }
    if (paths.length === 0) {
        io.stderr('affected: name the schema folders to map the changed files to (such as providers)\n')
        return EXIT.USAGE
    }
    let changed: string[]
    try {
        changed = (await readFile(absolute(options.changedFiles, io.cwd), 'utf8'))
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter((line) => line.length > 0)
    } catch (cause) {
        io.stderr(`affected: cannot read --changed-files: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
    const roots = paths.map((p) => absolute(p, io.cwd))
    const tree = await treeSchemas(roots, io)
    if (typeof tree === 'number') return tree
    const affected = new Map<string, Reason[]>()
    const add = (folder: string, reason: Reason): void => {
        affected.set(folder, [...(affected.get(folder) ?? []), reason])
    }
    const hosts = new Map<string, string>()
    for (const file of changed) {
        const path = absolute(file, io.cwd)
        const kind = classify(path, roots, options, io.cwd)
        if (kind === 'config') for (const s of tree) add(s.folder, { file, as: 'config' })
        else if (kind === 'recording') {
            const host = await recordingHost(file, options, io)
            if (host === null) {
                io.stderr(`affected: ${file}: no recording of a host here or in --base; every schema is taken\n`)
                for (const s of tree) add(s.folder, { file, as: 'recording' })
            } else hosts.set(host, file)
        } else if (kind === 'schema') add(dirname(path), { file, as: 'schema' })
        else if (kind === 'other') {
            const folder = schemaFolderOf(path, roots, tree)
            if (folder !== null) add(folder, { file, as: 'schema folder' })
        }
    }
    if (hosts.size > 0) {
        const readers = await hostReaders(options, io)
        for (const s of tree)
            for (const [host, file] of hosts)
                if (s.rootHost === host || (s.id !== null && readers.get(s.id)?.has(host) === true))
                    add(s.folder, { file, as: 'recording', host })
    }
    const folders = [...affected.keys()].sort()
    const shown = (folder: string): string => relative(io.cwd, folder) || '.'
    if (options.json) {
        const document: AffectedJson = {
            folders: folders.map((f) => ({ folder: shown(f), because: affected.get(f) ?? [] }))
        }
        io.stdout(`${JSON.stringify(document, null, 2)}\n`)
    } else io.stdout(folders.map((f) => `${shown(f)}\n`).join(''))
    return EXIT.OK
}

/** Whether `path` is `root` or below it. */
const within = (path: string, root: string): boolean =>
    path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

/** What a changed file is to the gate: the config, a recording, a schema file, another file of a root, or nothing. */
function classify(
    path: string,
    roots: readonly string[],
    options: AffectedCommandOptions,
    cwd: string
): 'config' | 'recording' | 'schema' | 'other' | null {
    const config = options.configFile ?? null
    if (path === config || basename(path) === CONFIG_FILE) return 'config'
    if (options.recordings !== undefined && within(path, absolute(options.recordings, cwd)) && path.endsWith('.json'))
        return 'recording'
    if (!roots.some((root) => within(path, root))) return null
    const parts = path.split(sep)
    // A schema file as the grading walk takes it: `*.mjs`, not `_`-prefixed, not in resources or skills.
    if (
        path.endsWith('.mjs') &&
        !basename(path).startsWith('_') &&
        !parts.includes('resources') &&
        !parts.includes('skills')
    )
        return 'schema'
    return 'other'
}

/** The schema folder a file of the tree belongs to: the nearest folder above it that holds schema files. */
function schemaFolderOf(path: string, roots: readonly string[], tree: readonly TreeSchema[]): string | null {
    const folders = new Set(tree.map((s) => s.folder))
    for (let dir = dirname(path); roots.some((root) => within(dir, root)); dir = dirname(dir)) {
        if (folders.has(dir)) return dir
        if (dir === dirname(dir)) break
    }
    return null
}

/** Every schema file under the roots, with the namespace and slug the island files it under and its root's host. */
async function treeSchemas(roots: readonly string[], io: CliIo): Promise<TreeSchema[] | number> {
    const files: string[] = []
    for (const root of roots) {
        try {
            files.push(...(await schemaFiles(root)))
        } catch (cause) {
            io.stderr(`affected: ${cause instanceof Error ? cause.message : String(cause)}\n`)
            return EXIT.USAGE
        }
    }
    return Promise.all(
        [...new Set(files)].map(async (file): Promise<TreeSchema> => {
            let main: Record<string, unknown> | null = null
            try {
                const mod = readModuleSource({ source: await readFile(file, 'utf8') }).module as {
                    main?: unknown
                } | null
                main =
                    mod?.main !== null && typeof mod?.main === 'object' ? (mod.main as Record<string, unknown>) : null
            } catch {
                // A schema that cannot be read maps by its folder only; grading reports it.
            }
            const namespace = typeof main?.namespace === 'string' ? main.namespace : null
            return {
                file,
                folder: dirname(file),
                id: namespace !== null ? `${namespace}/${basename(file, '.mjs')}` : null,
                rootHost: typeof main?.root === 'string' ? originOf(main.root) : null
            }
        })
    )
}

/** The origin of a URL (scheme and host, lower-case, no trailing slash), or null. */
function originOf(url: string): string | null {
    const match = /^(https?:\/\/[^/?#]+)/i.exec(url)
    return match === null ? null : (match[1] as string).toLowerCase()
}

/** The host a changed recording is of: read from the tree, or from --base when the pull request removed it. */
async function recordingHost(file: string, options: AffectedCommandOptions, io: CliIo): Promise<string | null> {
    const places = [
        absolute(file, io.cwd),
        ...(options.base !== undefined ? [join(absolute(options.base, io.cwd), file)] : [])
    ]
    for (const place of places) {
        try {
            const parsed = JSON.parse(await readFile(place, 'utf8')) as { host?: unknown }
            if (typeof parsed?.host === 'string') return originOf(parsed.host)
        } catch {
            // Not here (removed) or not a recording: the next place.
        }
    }
    return null
}

/**
 * Which hosts each schema of the island read: `<namespace>/<schema>` → the origins of the requests its tests sent,
 * from `providers/<namespace>/<schema>/summary.json` (`perTool.<tool>.tests[].requests[].url`).
 */
async function hostReaders(options: AffectedCommandOptions, io: CliIo): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>()
    if (options.island === undefined) {
        io.stderr('affected: no --island says which schema read which host: only the schemas whose root it is\n')
        return out
    }
    const providers = join(absolute(options.island, io.cwd), 'providers')
    const list = async (dir: string): Promise<string[]> => {
        try {
            return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name)
        } catch {
            return []
        }
    }
    for (const namespace of await list(providers))
        for (const schema of await list(join(providers, namespace))) {
            const path = join(providers, namespace, schema, 'summary.json')
            try {
                if (!(await stat(path)).isFile()) continue
                const summary = JSON.parse(await readFile(path, 'utf8')) as {
                    namespace?: unknown
                    schema?: unknown
                    perTool?: Record<string, { tests?: Array<{ requests?: Array<{ url?: unknown }> }> }>
                }
                const id = `${typeof summary.namespace === 'string' ? summary.namespace : namespace}/${
                    typeof summary.schema === 'string' ? summary.schema : schema
                }`
                const hosts = out.get(id) ?? new Set<string>()
                for (const tool of Object.values(summary.perTool ?? {}))
                    for (const test of tool?.tests ?? [])
                        for (const request of test?.requests ?? []) {
                            const origin = typeof request?.url === 'string' ? originOf(request.url) : null
                            if (origin !== null) hosts.add(origin)
                        }
                out.set(id, hosts)
            } catch {
                // A schema without a readable summary read no host the island knows of.
            }
        }
    return out
}
