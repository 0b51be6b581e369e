import { createIssue, typeOfValue } from '../errors/issue.js'
import * as v from 'valibot'
import { objectArg, parseArgs, says } from '../validation/args.js'
import type { Issue } from '../errors/types.js'
import { NODE_STATUS, NODE_STATUSES, SEVERITY, type NodeStatus } from '../model/constants.js'
import { parseSnapshotFilename } from '../naming/snapshot-filename.js'
import { definitionMembers } from './build-selection.js'
import { indexTimestamp } from './build-namespace.js'
import type { LockMember, LockSnapshot } from './types.js'
import { isObject } from '../model/object.js'

/** Keys an override may carry (salvaged override mechanism, 03 §9). */
export const OVERRIDE_KEYS: readonly string[] = Object.freeze(['name', 'description'])

function checkOverride(
    override: unknown,
    schemaId: string,
    path: string
): { value: LockMember['override']; issue: Issue | null } {
    if (override === null || override === undefined) return { value: null, issue: null }
    const bad = (detail: string): { value: null; issue: Issue } => ({
        value: null,
        issue: createIssue('IDX-002', path, {
            field: `override of ${schemaId}`,
            expected: '{ name?, description? } with string values',
            actual: detail
        })
    })
    if (!isObject(override)) return bad(typeOfValue(override))
    const keys = Object.keys(override)
    if (keys.length === 0) return bad('an empty object')
    const unknown = keys.filter((k) => !OVERRIDE_KEYS.includes(k))
    if (unknown.length > 0) return bad(`key ${unknown.join(', ')}`)
    if (keys.some((k) => typeof override[k] !== 'string')) return bad('a non-string value')
    return { value: Object.fromEntries(keys.sort().map((k) => [k, override[k] as string])), issue: null }
}

function snapshotPin(snapshot: unknown): { version: string | null; hash: string | null } {
    const file = isObject(snapshot) && typeof snapshot.file === 'string' ? snapshot.file : null
    const parts = parseSnapshotFilename(file)
    return { version: parts?.timestamp ?? null, hash: parts?.hash ?? null }
}

function statusOf(node: unknown): NodeStatus {
    const s = isObject(node) ? node.status : undefined
    return (NODE_STATUSES as readonly unknown[]).includes(s) ? (s as NodeStatus) : NODE_STATUS.pending
}

const INDEX_ARGS = { missing: 'IDX-001', mismatch: 'IDX-002', create: createIssue } as const
const INDEX_ARG = v.looseObject({ index: objectArg() })
// A selection's pins are read against its definition snapshot: its file name is the one that grammar gives.
const DEFINITION_FILE = v.looseObject({
    file: v.custom<string>(
        (file) => parseSnapshotFilename(file) !== null,
        says({ expected: 'a selection snapshot file name', actual: 'value', missing: false })
    )
})

/**
 * Freezes the pins of a grading run from a freshly rebuilt live index (03 §9): per member its newest
 * snapshot's timestamp and hash and its status at freeze time. Selection members come from
 * `index.members` with overrides from the definition; a namespace (⚠ C17) pins its schemas.
 * @param input - `{ index, definition?, now }`; `definition` = `{ file, value }` of the selection
 *   definition snapshot (selection indexes only)
 * @returns `{ lockSnapshot, errors }`; IDX-001/IDX-002 for bad arguments or an invalid override
 * @example buildLockSnapshot({ index, definition: { file, value }, now: '2026-06-01T10:00:00Z' }).lockSnapshot?.members
 */
export function buildLockSnapshot(input: {
    index?: unknown
    definition?: { file?: unknown; value?: unknown }
    now?: unknown
}): { lockSnapshot: LockSnapshot | null; errors: Issue[] } {
    const { stamp, issue } = indexTimestamp(input?.now)
    const checked = parseArgs(INDEX_ARG, { index: input?.index }, INDEX_ARGS, { actual: 'type' })
    const errors: Issue[] = issue === null ? [...checked.errors] : [issue, ...checked.errors]
    if (errors.length > 0 || stamp === null || checked.value === null) return { lockSnapshot: null, errors }
    const index = checked.value.index

    if (typeof index.selectionId === 'string') {
        const def = input.definition
        const file = parseArgs(DEFINITION_FILE, { file: def?.file }, INDEX_ARGS, { at: ['definition'] })
        const parts = file.value === null ? null : parseSnapshotFilename(file.value.file)
        if (parts === null) return { lockSnapshot: null, errors: file.errors }
        const listed = definitionMembers(def?.value, def?.file as string, errors) ?? []
        const overrides = new Map(listed.map((m) => [m.schemaId, m.override]))
        const members: LockMember[] = []
        const nodes = isObject(index.members) ? index.members : {}
        Object.entries(nodes).forEach(([schemaId, node]) => {
            const pin = snapshotPin(isObject(node) ? node.snapshot : undefined)
            const o = checkOverride(overrides.get(schemaId), schemaId, `/definition/value/members`)
            if (o.issue !== null) errors.push(o.issue)
            members.push({
                schemaId,
                schemaVersion: pin.version,
                schemaHash: pin.hash,
                gradingStatus: statusOf(node),
                override: o.value
            })
        })
        if (errors.some((e) => e.severity === SEVERITY.error)) return { lockSnapshot: null, errors }
        return {
            lockSnapshot: {
                selectionId: index.selectionId,
                selectionVersion: parts.timestamp,
                selectionHash: parts.hash,
                generatedAt: stamp,
                members
            },
            errors
        }
    }
    if (typeof index.namespace === 'string') {
        const ns = index.namespace
        const schemas = isObject(index.schemas) ? index.schemas : {}
        const members: LockMember[] = Object.entries(schemas).map(([schema, node]) => {
            const pin = snapshotPin(isObject(node) ? node.snapshot : undefined)
            return {
                schemaId: `${ns}.${schema}`,
                schemaVersion: pin.version,
                schemaHash: pin.hash,
                gradingStatus: statusOf(node),
                override: null
            }
        })
        return { lockSnapshot: { namespace: ns, generatedAt: stamp, members }, errors }
    }
    return {
        lockSnapshot: null,
        errors: [createIssue('IDX-001', '/index/namespace', { field: 'index.namespace or index.selectionId' })]
    }
}
