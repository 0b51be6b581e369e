// The one reader of a baseline (an earlier state of an island): `check --baseline`, `check --island`
// and the HTML report's comparison all read it here, through the storage port, under one set of
// rules (docs/cli.md, "Baselines"):
// - a path ending in `.json` is one namespace's index.json; any other path is an island root, whose
//   `providers/<namespace>/index.json` are read (a namespace folder without one adds nothing);
// - missing: nothing at the path, no providers folder, or no namespace index.json in it;
// - unreadable: an index.json that exists but cannot be read, is not JSON or not a JSON object makes
//   the whole baseline unreadable (a gate never compares with half a baseline);
// - findings: from the `state.json` beside each index.json, at the levels the current rules show
//   them; null when there is none or it cannot be read (every finding then counts as new).
import type { Issue } from '../errors/types.js'
import { FixRules } from '../fix/rules.js'
import { parseJsonText } from '../json/guard.js'
import { asObject, isObject } from '../model/object.js'
import type { FsPort } from '../ports/types.js'
import { standingOfSchemaNode, type SchemaStanding } from '../rollup/standing.js'

/** All a baseline is read through: the same two calls as the report's port. */
export type BaselineFsPort = Pick<FsPort, 'readFile' | 'readdir'>

/** A finding as the baseline's `state.json` keeps it. */
export interface BaselineFinding {
    readonly code: string
    readonly pointer: string
    readonly severity: string
}

/** What a baseline says of a schema. */
export interface BaselineNode {
    readonly namespace: string
    readonly standing: SchemaStanding
    /** The content hash its grading was of (`snapshot.hash`), null when the index names none. */
    readonly hash: string | null
    /**
     * Its findings under the current rules (a rule turned off leaves them); null when no `state.json`
     * says (every finding is then new).
     */
    readonly findings: readonly BaselineFinding[] | null
}

/** A namespace's schemas by name. */
export type BaselineSchemas = ReadonlyMap<string, BaselineNode>

/**
 * A baseline read: its namespaces (each its schemas by name); or `missing` and why (a phrase after the
 * path: "does not exist", …); or the index that could not be read and why.
 */
export type BaselineRead =
    | { readonly namespaces: ReadonlyMap<string, BaselineSchemas> }
    | { readonly missing: string }
    | { readonly unreadable: { readonly path: string; readonly detail: string } }

/** Why a baseline is missing, as said after its path. */
export const BASELINE_MISSING_REASONS = Object.freeze({
    absent: 'does not exist',
    noProviders: 'holds no providers folder',
    noIndex: 'holds no graded namespace (no providers/<namespace>/index.json)'
})

/** A finding's identity across runs: its code and place (never its level, which the rules may change). */
export const findingKey = (f: { code: string; pointer: string }): string => `${f.code}|${f.pointer}`

type Rules = Readonly<Record<string, unknown>> | undefined
type Parsed = { value: unknown } | { problem: string } | null

const message = (cause: unknown): string => (cause instanceof Error ? cause.message : 'the file could not be read')

/** A JSON file: its value, null when it does not exist, or why it cannot be read. */
async function readJson(fs: BaselineFsPort, path: string): Promise<Parsed> {
    let text: string | null
    try {
        text = await fs.readFile(path)
    } catch (cause) {
        return { problem: message(cause) }
    }
    if (text === null) return null
    const parsed = parseJsonText(text)
    return parsed.errors.length > 0 ? { problem: parsed.errors[0]?.message ?? 'not JSON' } : { value: parsed.value }
}

/** The findings `state.json` kept for a schema, at the levels the current rules show them; null when it says none. */
function findingsOf(state: unknown, name: string, rules: Rules): BaselineFinding[] | null {
    const found = asObject(asObject(state).findings)[name]
    if (!Array.isArray(found)) return null
    const kept = found.map(asObject).map((f) => ({
        code: String(f.code),
        pointer: String(f.pointer ?? ''),
        severity: String(f.severity),
        message: '',
        path: ''
    }))
    // The current rules on the baseline's side too: a changed config never makes an unchanged schema fail.
    const shown = FixRules.apply({ issues: kept as unknown as Issue[], rules }).issues
    return shown.map((f) => ({
        code: f.code,
        pointer: (f as unknown as BaselineFinding).pointer,
        severity: f.severity
    }))
}

/** One namespace index.json value (and its state.json, when read): its name and its schemas. */
function namespaceOf(
    index: Readonly<Record<string, unknown>>,
    state: unknown,
    fallback: string,
    rules: Rules
): [string, BaselineSchemas] {
    // Named by its own `namespace` field; an index without one, by its folder (or its key).
    const namespace = typeof index.namespace === 'string' ? index.namespace : fallback
    const schemas = asObject(index.schemas)
    const out = new Map<string, BaselineNode>()
    for (const name of Object.keys(schemas).sort()) {
        const hash = asObject(asObject(schemas[name]).snapshot).hash
        const node = {
            namespace,
            standing: standingOfSchemaNode(schemas[name]),
            hash: typeof hash === 'string' ? hash : null,
            findings: findingsOf(state, name, rules)
        }
        out.set(name, node)
    }
    return [namespace, out]
}

const folderOf = (path: string): string => path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')))
const nameOf = (path: string): string => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1)

/** One index.json and the state.json beside it: the namespace, null when there is no index, or why it is unreadable. */
async function readNamespace(
    fs: BaselineFsPort,
    indexPath: string,
    rules: Rules
): Promise<[string, BaselineSchemas] | null | BaselineRead> {
    const index = await readJson(fs, indexPath)
    if (index === null) return null
    if ('problem' in index) return { unreadable: { path: indexPath, detail: index.problem } }
    if (!isObject(index.value)) return { unreadable: { path: indexPath, detail: 'not a JSON object' } }
    const folder = folderOf(indexPath)
    const state = await readJson(fs, `${folder}/state.json`)
    return namespaceOf(index.value, state !== null && 'value' in state ? state.value : null, nameOf(folder), rules)
}

/**
 * The folders listed at a path (sorted, hidden ones left out); null when there is none (or it is no folder). The
 * baseline and the HTML report list an island's providers and selections with it.
 */
export async function visibleFolders(fs: BaselineFsPort, path: string): Promise<string[] | null> {
    try {
        const entries = await fs.readdir(path)
        return entries === null
            ? null
            : entries
                  .filter((e) => e.kind === 'directory' && !e.name.startsWith('.'))
                  .map((e) => e.name)
                  .sort()
    } catch {
        return null
    }
}

/** Whether anything is at a path that is no folder: its listing fails, yet it reads as a file. */
async function exists(fs: BaselineFsPort, path: string): Promise<boolean> {
    if ((await visibleFolders(fs, path)) !== null) return true
    return fs.readFile(path).then(
        (text) => text !== null,
        () => true
    )
}

/**
 * Reads a baseline through the port (pure, never rejects): an island root, or one namespace's
 * `index.json` (a path ending in `.json`), by the rules at the top of this module.
 * @param input - `{ fs, path, rules? }`: `rules` are a config's (`{ "<code>": "off" | "warning" | "error" }`)
 * @returns its namespaces, or `{ missing }`, or `{ unreadable: { path, detail } }`
 * @example await readBaseline({ fs: nodeFs(), path: '/ci/baseline-island' })
 */
export async function readBaseline(input: {
    readonly fs: BaselineFsPort
    readonly path: string
    readonly rules?: Rules
}): Promise<BaselineRead> {
    const { fs, rules } = input
    const path = input.path.replace(/\/+$/, '') || '/'
    const out = new Map<string, BaselineSchemas>()
    try {
        if (path.endsWith('.json')) {
            const read = await readNamespace(fs, path, rules)
            if (read === null) return { missing: BASELINE_MISSING_REASONS.absent }
            if (!Array.isArray(read)) return read
            out.set(read[0], read[1])
            return { namespaces: out }
        }
        const names = await visibleFolders(fs, `${path}/providers`)
        if (names === null)
            return {
                missing: (await exists(fs, path))
                    ? BASELINE_MISSING_REASONS.noProviders
                    : BASELINE_MISSING_REASONS.absent
            }
        for (const name of names) {
            const read = await readNamespace(fs, `${path}/providers/${name}/index.json`, rules)
            // A namespace folder without its index (a grading that wrote nothing yet) adds nothing.
            if (read === null) continue
            if (!Array.isArray(read)) return read
            out.set(read[0], read[1])
        }
    } catch (cause) {
        // A port that throws where it should answer: the baseline is unreadable, never a rejection.
        return { unreadable: { path, detail: message(cause) } }
    }
    return out.size === 0 ? { missing: BASELINE_MISSING_REASONS.noIndex } : { namespaces: out }
}

/**
 * A baseline from parsed `index.json` values by namespace (the report's `{ index }`), by the same
 * rules: a value that is not an object is unreadable; no state, so no findings.
 */
export function baselineOfIndexes(indexes: Readonly<Record<string, unknown>>, rules?: Rules): BaselineRead {
    const out = new Map<string, BaselineSchemas>()
    for (const [key, index] of Object.entries(indexes)) {
        if (!isObject(index)) return { unreadable: { path: key, detail: 'not a JSON object' } }
        const [namespace, schemas] = namespaceOf(index, null, key, rules)
        out.set(namespace, schemas)
    }
    return { namespaces: out }
}

/** Every schema of a baseline read, keyed `<namespace>.<schema>` as a grading's schema id is. */
export function baselineSchemaIds(namespaces: ReadonlyMap<string, BaselineSchemas>): Map<string, BaselineNode> {
    const out = new Map<string, BaselineNode>()
    for (const [namespace, schemas] of namespaces)
        for (const [name, node] of schemas) out.set(`${namespace}.${name}`, node)
    return out
}
