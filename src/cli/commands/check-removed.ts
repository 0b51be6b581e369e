// `check` on a tree that lost schemas since the baseline: which of the baseline's schemas are gone.
import { basename, dirname } from 'node:path'
import type { BaselineNode } from './check-baseline.js'
import { type CheckedSchema, removedSchema } from './check-verdict.js'

/**
 * The baseline's schemas of the namespaces checked now, or of a path gone since (its folder name), that this tree no
 * longer has.
 */
export function removedSchemas(
    schemas: readonly CheckedSchema[],
    gone: readonly string[],
    baseline: ReadonlyMap<string, BaselineNode>,
    notices: string[]
): CheckedSchema[] {
    const here = new Set(schemas.map((s) => s.id))
    const namespaces = new Set(schemas.map((s) => s.namespace ?? s.id.split('.')[0]))
    const known = new Set([...baseline.values()].map((n) => n.namespace))
    for (const path of gone) {
        const trimmed = path.replace(/\/+$/, '')
        // A folder is its namespace's (as the tree is laid out); a schema file, its folder's.
        const name = basename(trimmed.endsWith('.mjs') ? dirname(trimmed) : trimmed)
        if (known.has(name)) namespaces.add(name)
        else if (!path.endsWith('.mjs'))
            notices.push(`${path} does not exist and the baseline has no namespace ${name}: nothing to check there`)
    }
    return [...baseline.entries()]
        .filter(([id, node]) => namespaces.has(node.namespace) && !here.has(id))
        .map(([id, node]) => removedSchema(id, node))
}
