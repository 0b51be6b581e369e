import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import * as v from 'valibot'
import { nullAsMissing, objectArg, parseArgs, says } from '../validation/args.js'
import type { Issue } from '../errors/types.js'
import { NODE_STATUS, FILE_TIMESTAMP_REGEX, type NodeStatus } from '../model/constants.js'
import { checkName } from '../store/paths.js'
import { fromFileTimestamp, isIsoDateTime, toFileTimestamp } from '../time.js'
import { aboutLeaf, skillLeaf } from './leaves.js'
import { blockNode, rollupSink, takeDerived, takeVersions, type RollupSink } from './collect.js'
import {
    arr,
    buildSchemaNode,
    deriveLeaf,
    digestFolder,
    factsOf,
    latestSnapshot,
    previousAt,
    reasonText,
    rollupGrade,
    rollupStatus,
    validNamed
} from './nodes.js'
import type {
    Blocker,
    IndexNode,
    LockSnapshot,
    NamespaceIndex,
    NamespaceListing,
    SchemaListing,
    SchemaNode
} from './types.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'

/** The codes of the index builders' argument checks (`now`, `listing`). */
const LISTING_ARGS = { missing: 'IDX-001', mismatch: 'IDX-002', create: createIssue } as const

const isFileStamp = (now: unknown): now is string =>
    typeof now === 'string' && FILE_TIMESTAMP_REGEX.test(now) && fromFileTimestamp(now) !== null
/** `now`: an island timestamp or an ISO date-time; `null` is taken as absent, a wrong one is written as it came. */
const INDEX_NOW = v.looseObject({
    now: nullAsMissing(
        v.custom<string>(
            (now) => isFileStamp(now) || isIsoDateTime(now),
            says({ expected: 'ISO-8601 date-time', actual: 'value' })
        )
    )
})

/** `now` as the island timestamp of `updatedAt` (full seconds, 03 ⚠ C4), or an issue. */
export function indexTimestamp(now: unknown): { stamp: string | null; issue: Issue | null } {
    const checked = parseArgs(INDEX_NOW, { now }, LISTING_ARGS)
    if (checked.value === null) return { stamp: null, issue: checked.errors[0] ?? null }
    const value = checked.value.now
    return { stamp: isFileStamp(value) ? value : toFileTimestamp(value), issue: null }
}

const LISTING = v.looseObject({ listing: nullAsMissing(objectArg()) })

/**
 * The arguments both index builders share: a `listing` object whose id (`namespace` or
 * `selectionId`) is a safe name, and `now`. Collects every problem.
 */
export function checkBuildArgs<L extends object>(
    input: { listing?: unknown; now?: unknown } | undefined,
    kind: 'namespace' | 'selection'
): { listing: L | null; stamp: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const listing = input?.listing
    const { stamp, issue: nowIssue } = indexTimestamp(input?.now)
    if (nowIssue !== null) errors.push(nowIssue)
    const checked = parseArgs(LISTING, { listing }, LISTING_ARGS, { actual: 'type' })
    errors.push(...checked.errors)
    if (checked.value !== null) {
        const field = kind === 'namespace' ? 'namespace' : 'selectionId'
        const bad = checkName((listing as Record<string, unknown>)[field], kind, `/listing/${field}`)
        if (bad !== null) errors.push(bad)
    }
    return {
        listing: errors.length > 0 || listing === undefined || listing === null ? null : (listing as L),
        stamp,
        errors
    }
}

/**
 * The previous index when it belongs to the same namespace or selection; anything else is reported
 * and ignored (nothing is carried over from it).
 */
export function usablePrevious(
    previous: unknown,
    key: 'namespace' | 'selectionId',
    id: string,
    issues: Issue[]
): Record<string, unknown> | null {
    if (previous === undefined || previous === null) return null
    if (typeof previous !== 'object' || Array.isArray(previous)) {
        issues.push(
            createIssue('IDX-022', '/previousIndex', { detail: `expected an object, got ${typeOfValue(previous)}` })
        )
        return null
    }
    const p = previous as Record<string, unknown>
    if (p.indexVersion !== 2) {
        issues.push(
            createIssue('IDX-022', '/previousIndex/indexVersion', {
                detail: `indexVersion ${describeValue(p.indexVersion)} is not 2`
            })
        )
        return null
    }
    if (p[key] !== id) {
        issues.push(
            createIssue('IDX-022', `/previousIndex/${key}`, {
                detail: `it describes ${describeValue(p[key])}, not ${id}`
            })
        )
        return null
    }
    return p
}

/** The carried lockSnapshot: copied unchanged from the previous index (03 §7.1). */
export function carriedLock(previous: Record<string, unknown> | null): LockSnapshot | undefined {
    const lock = previous?.lockSnapshot
    return isObject(lock) ? (lock as unknown as LockSnapshot) : undefined
}

type Previous = Record<string, unknown> | null
type NamedSchema = { item: SchemaListing; index: number }

/** The newest snapshot time over all schemas: what the namespace-level leaves are bound to. */
function newestSchemaSnapshot(schemas: readonly NamedSchema[]): string | null {
    const snapshotTimes = schemas
        .map(({ item }) => latestSnapshot(item.snapshots, item.name)?.timestamp ?? '')
        .filter((t) => t !== '')
    // biome-ignore lint/complexity/useMathMinMax: ISO timestamps compare as strings; Math.max would make them NaN
    return snapshotTimes.length > 0 ? snapshotTimes.reduce((a, b) => (a > b ? a : b)) : null
}

/** The namespace About: the one schema holding an About snapshot; gradings elsewhere do not count. */
function namespaceAbout(ns: string, schemas: readonly NamedSchema[], previous: Previous, sink: RollupSink): IndexNode {
    const aboutName = `${ns}-about`
    const holders = schemas.filter(({ item }) => latestSnapshot(item.about?.snapshots, aboutName) !== null)
    const holder = holders[0]
    if (holders.length > 1) {
        sink.errors.push(
            createIssue('IDX-027', '/listing/schemas', {
                schemas: holders.map(({ item }) => item.name).join(', '),
                schema: holder?.item.name ?? ''
            })
        )
    }
    for (const { item, index } of schemas) {
        if (item === holder?.item) continue
        digestFolder(
            item.about?.gradings,
            [],
            `/listing/schemas/${index}/about/gradings`,
            `${item.name}/resources/about/_gradings`,
            sink.errors
        )
    }
    if (holder === undefined) {
        const issue = createIssue('IDX-014', '/listing/schemas', {
            detail: `no schema holds a ${aboutName}--<ts>--<hash8>.md snapshot`
        })
        blockNode(sink, 'about', issue)
        return { status: NODE_STATUS.blocked, reason: reasonText(issue) }
    }
    return aboutLeaf({
        gradings: holder.item.about.gradings,
        area: 'about-namespace',
        listingPath: `/listing/schemas/${holder.index}/about/gradings`,
        folder: `${holder.item.name}/resources/about/_gradings`,
        snapshot: latestSnapshot(holder.item.about.snapshots, aboutName),
        preBlock: null,
        previous,
        sink
    })
}

/**
 * Every schema's skills as `<schema>.<skill>` leaves, sorted by key; entries graded for another skill are unusable
 * (IDX-010).
 */
function namespaceSkills(
    schemas: readonly NamedSchema[],
    previous: Previous,
    sink: RollupSink
): Array<[string, IndexNode]> {
    const skills: Array<[string, IndexNode]> = []
    for (const { item: schema, index } of schemas) {
        for (const { item: skill, index: k } of validNamed(
            arr(schema.skills),
            'skill',
            `/listing/schemas/${index}/skills`,
            sink.errors
        )) {
            const key = `${schema.name}.${skill.name}`
            const { node } = skillLeaf({
                skill,
                areas: ['namespace-skills'],
                listingPath: `/listing/schemas/${index}/skills/${k}/gradings`,
                folder: `${schema.name}/skills/${skill.name}/_gradings`,
                key,
                previous,
                sink
            })
            skills.push([key, node])
        }
    }
    return skills.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/** Every schema's node and the tool leaves under it. */
function schemaNodesOf(
    schemas: readonly NamedSchema[],
    previous: Previous,
    sink: RollupSink
): { schemaNodes: Array<[string, SchemaNode]>; toolNodes: IndexNode[] } {
    const schemaNodes: Array<[string, SchemaNode]> = []
    const toolNodes: IndexNode[] = []
    for (const { item, index } of schemas) {
        const res = buildSchemaNode(item, {
            refBase: item.name,
            nodePath: `schemas.${item.name}`,
            listingPath: `/listing/schemas/${index}`,
            previous: previousAt(previous, 'schemas', item.name)
        })
        schemaNodes.push([item.name, res.node])
        toolNodes.push(...res.toolNodes)
        takeDerived(sink, res)
    }
    return { schemaNodes, toolNodes }
}

/** The derived nodes and the facts the namespace index is assembled from. */
interface NamespaceParts {
    readonly namespace: string
    readonly stamp: string
    readonly about: IndexNode
    readonly description: IndexNode
    readonly skills: Array<[string, IndexNode]>
    readonly aggregate: IndexNode
    readonly schemaNodes: Array<[string, SchemaNode]>
    readonly toolNodes: IndexNode[]
    readonly versions: { scoringSystem: string[]; gradingSystem: string[] }
    readonly blockers: Blocker[]
    readonly previous: Previous
    /** The schema folders marked removed from the tree, by name (listed in `summary.removed` when there are some). */
    readonly removed: readonly string[]
}

function assembleNamespaceIndex(parts: NamespaceParts): NamespaceIndex {
    const { about, description, aggregate, toolNodes } = parts
    const skillNodes = parts.skills.map(([, n]) => n)
    const counted: Array<{ status: NodeStatus; grade?: IndexNode['grade'] | undefined }> = [
        ...parts.schemaNodes.map(([, n]) => n),
        ...toolNodes,
        about,
        description,
        ...skillNodes,
        aggregate
    ]
    const grade = rollupGrade(counted)
    const lock = carriedLock(parts.previous)
    return {
        indexVersion: 2,
        namespace: parts.namespace,
        updatedAt: parts.stamp,
        status: rollupStatus(counted.map((n) => n.status)),
        ...definedFields({ grade }),
        summary: {
            schemas: parts.schemaNodes.length,
            tools: toolNodes.length,
            toolsStable: toolNodes.filter((n) => n.status === NODE_STATUS.stable).length,
            about: about.status,
            description: description.status,
            skills: skillNodes.filter((n) => n.status === NODE_STATUS.graded || n.status === NODE_STATUS.stable).length,
            scoringSystem: parts.versions.scoringSystem,
            gradingSystem: parts.versions.gradingSystem,
            ...(parts.removed.length > 0 ? { removed: [...parts.removed].sort() } : {})
        },
        about,
        description,
        skills: Object.fromEntries(parts.skills),
        namespaceAggregate: aggregate,
        schemas: Object.fromEntries(parts.schemaNodes),
        blockers: parts.blockers,
        ...definedFields({ lockSnapshot: lock })
    }
}

/**
 * The namespace aggregate rests on every schema (02-areas §3.1): while one is blocked, an older grade of the aggregate
 * is not current — a run grading the namespace now cannot grade it (blocked by precondition) and writes no entry — so
 * its node is pending (IDX-031), as in an island graded clean. Only a graded or stable node changes.
 */
function aggregateOverBlocked(
    aggregate: ReturnType<typeof deriveLeaf>,
    schemaNodes: ReadonlyArray<readonly [string, SchemaNode]>,
    sink: RollupSink
): IndexNode {
    const node = aggregate.node
    const blocked = schemaNodes.filter(([, n]) => n.status === NODE_STATUS.blocked).map(([name]) => name)
    if (blocked.length === 0 || (node.status !== NODE_STATUS.graded && node.status !== NODE_STATUS.stable)) return node
    const issue = createIssue('IDX-031', '/listing/gradings', { schemas: blocked.join(', ') })
    sink.errors.push(issue)
    const at = aggregate.used === null ? -1 : sink.used.indexOf(aggregate.used)
    if (at >= 0) sink.used.splice(at, 1)
    return { status: NODE_STATUS.pending, reason: reasonText(issue) }
}

/** Whether a schema's `summary.json` marks it removed from the tree (`removedAt`, written by a whole-tree run). */
export function isRemovedSchema(summary: unknown): boolean {
    return isObject(summary) && typeof summary.removedAt === 'string'
}

/**
 * Builds `providers/<ns>/index.json` from an in-memory description of the folder. Pure: no I/O,
 * same input ⇒ same output. See `docs/island.md` for the rules.
 * @param input - `{ listing, previousIndex?, now }`
 * @returns `{ index, errors }`; `index` is `null` only for unusable arguments (IDX-001/IDX-002/ISL-*);
 *   node-level findings are warnings (IDX-004, IDX-010, IDX-012…IDX-027) and also appear in `blockers`
 */
export function buildNamespaceIndex(input: { listing?: unknown; previousIndex?: unknown; now?: unknown }): {
    index: NamespaceIndex | null
    errors: Issue[]
} {
    const { listing, stamp, errors } = checkBuildArgs<NamespaceListing>(input, 'namespace')
    if (errors.length > 0 || stamp === null || listing === null) return { index: null, errors }
    const ns = listing.namespace
    const previous = usablePrevious(input.previousIndex, 'namespace', ns, errors)
    const sink = rollupSink(errors)
    const named = validNamed(arr(listing.schemas), 'schema', '/listing/schemas', errors)
    // A schema gone from the tree (its summary.json says when it was seen gone) is history: its folder, snapshots and
    // entries stay, it no longer counts toward any node, the rollup or the summary (docs/island.md, "Removed nodes").
    const schemas = named.filter(({ item }) => !isRemovedSchema(item.summary))
    const removed = named.filter(({ item }) => isRemovedSchema(item.summary)).map(({ item }) => String(item.name))
    const about = namespaceAbout(ns, schemas, previous, sink)
    // Description and namespace aggregate share the namespace's own _gradings/ and are bound by time to the newest
    // schema snapshot.
    const nsByArea = digestFolder(
        listing.gradings,
        ['namespace-description', 'tools-aggregate-namespace'],
        '/listing/gradings',
        '_gradings',
        errors
    )
    const nsBinding = {
        field: null,
        hash: null,
        newestSnapshotTs: newestSchemaSnapshot(schemas),
        displayHash: null,
        requireSnapshot: false
    }
    const description = deriveLeaf(factsOf(nsByArea, ['namespace-description']), {
        refBase: '_gradings',
        nodePath: 'description',
        binding: nsBinding,
        preBlock: null,
        previous: previousAt(previous, 'description')
    })
    takeDerived(sink, description)
    const skills = namespaceSkills(schemas, previous, sink)
    const aggregate = deriveLeaf(factsOf(nsByArea, ['tools-aggregate-namespace']), {
        refBase: '_gradings',
        nodePath: 'namespaceAggregate',
        binding: nsBinding,
        preBlock: null,
        previous: previousAt(previous, 'namespaceAggregate')
    })
    takeDerived(sink, aggregate)
    const { schemaNodes, toolNodes } = schemaNodesOf(schemas, previous, sink)
    const namespaceAggregate = aggregateOverBlocked(aggregate, schemaNodes, sink)
    const versions = takeVersions(sink)
    const index = assembleNamespaceIndex({
        namespace: ns,
        stamp,
        about,
        description: description.node,
        skills,
        aggregate: namespaceAggregate,
        schemaNodes,
        toolNodes,
        versions,
        blockers: sink.blockers,
        previous,
        removed
    })
    return { index, errors }
}
