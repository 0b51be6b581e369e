// What `check --baseline` and `check --island` compare with: the one baseline reader
// (report/baseline.ts) over the disk, its schemas keyed as a grading's schema ids.
import { baselineSchemaIds, readBaseline as readBaselineThrough, type BaselineNode } from '../../report/baseline.js'
import { nodeFs } from '../node.js'
import { definedFields } from '../../model/fields.js'

export { findingKey, type BaselineFinding, type BaselineNode } from '../../report/baseline.js'

/** A baseline read: its schemas by id; or `missing` (why, after its path); or the index that cannot be read. */
export type BaselineRead =
    | { readonly nodes: ReadonlyMap<string, BaselineNode> }
    | { readonly missing: string }
    | { readonly error: string }

/** Reads a baseline from disk: an island (every `providers/<ns>/index.json` and `state.json`) or one `index.json`. */
export async function readBaseline(
    path: string,
    rules: Readonly<Record<string, unknown>> | undefined
): Promise<BaselineRead> {
    const read = await readBaselineThrough({ fs: nodeFs(), path, ...definedFields({ rules }) })
    if ('unreadable' in read) return { error: `${read.unreadable.path}: ${read.unreadable.detail}` }
    return 'missing' in read ? read : { nodes: baselineSchemaIds(read.namespaces) }
}
