// What `check --baseline` compares with: the standings, content hashes and findings of an island (or
// one index.json), the findings seen under the rules of the current config, so a changed config never
// makes an unchanged schema fail.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { FixRules, type Issue } from '../../index.js'
import { standingsOfIndex, type SchemaStanding } from '../../rollup/standing.js'
import { asObject } from '../../model/object.js'

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
    /** Its findings under the current rules (a rule turned off leaves them); null when no `state.json` says (every finding is then new). */
    readonly findings: readonly BaselineFinding[] | null
}

/** A baseline read: its schemas; or `missing` (no such path, or no index.json in it); or a file that cannot be read. */
export type BaselineRead = { readonly nodes: ReadonlyMap<string, BaselineNode> } | { readonly missing: string } | { readonly error: string }

/** A finding's identity across runs: its code and place (never its level, which the rules may change). */
export const findingKey = (f: { code: string; pointer: string }): string => `${f.code}|${f.pointer}`

type Json = Record<string, unknown>
const obj: (value: unknown) => Json = asObject

/** The schemas of one namespace index.json, with the findings its `state.json` kept. */
async function readIndex(indexPath: string, rules: Readonly<Record<string, unknown>> | undefined, out: Map<string, BaselineNode>): Promise<void> {
    const index: unknown = JSON.parse(await readFile(indexPath, 'utf8'))
    let state: Json | null = null
    try {
        state = obj(JSON.parse(await readFile(join(indexPath, '..', 'state.json'), 'utf8')))
    } catch {
        // No state beside the index: its findings are unknown, so every finding counts as new.
    }
    const read = standingsOfIndex(index)
    const namespace = read.namespace ?? ''
    for (const [id, standing] of read.schemas) {
        const name = id.slice(namespace.length + 1)
        const hash = obj(obj(obj(obj(index).schemas)[name]).snapshot).hash
        const found = obj(state?.findings)[name]
        const findings = Array.isArray(found) ? (found as unknown[]).map(obj).map((f) => ({ code: String(f.code), pointer: String(f.pointer ?? ''), severity: String(f.severity), message: '', path: '' })) : null
        // The current rules on the baseline's side too: its findings at the levels this config shows them.
        const shown = findings === null ? null : FixRules.apply({ issues: findings as unknown as Issue[], rules }).issues.map((f) => ({ code: f.code, pointer: (f as unknown as BaselineFinding).pointer, severity: f.severity }))
        out.set(id, { namespace, standing, hash: typeof hash === 'string' ? hash : null, findings: shown })
    }
}

/** Reads a baseline: an island (every `providers/<ns>/index.json` and `state.json`) or one `index.json`. */
export async function readBaseline(path: string, rules: Readonly<Record<string, unknown>> | undefined): Promise<BaselineRead> {
    const out = new Map<string, BaselineNode>()
    try {
        await stat(path)
    } catch {
        return { missing: 'does not exist' }
    }
    try {
        if (path.endsWith('.json')) await readIndex(path, rules, out)
        else {
            const providers = await readdir(join(path, 'providers'), { withFileTypes: true }).catch(() => [])
            for (const ns of providers.filter((e) => e.isDirectory())) {
                const indexPath = join(path, 'providers', ns.name, 'index.json')
                // A namespace folder without its index (a grading that wrote nothing yet) adds nothing.
                if (await stat(indexPath).then(() => true, () => false)) await readIndex(indexPath, rules, out)
            }
            if (out.size === 0) return { missing: 'holds no graded namespace (no providers/<namespace>/index.json)' }
        }
    } catch (cause) {
        return { error: cause instanceof Error ? cause.message : String(cause) }
    }
    return { nodes: out }
}
