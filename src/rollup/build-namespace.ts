import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { NODE_STATUS, FILE_TIMESTAMP_REGEX, type NodeStatus } from '../model/constants.js'
import { checkName } from '../island/paths.js'
import { fromFileTimestamp, isIsoDateTime, toFileTimestamp } from '../time.js'
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
    validNamed,
    versionsOf
} from './nodes.js'
import type { Blocker, GradingFacts, IndexNode, LockSnapshot, NamespaceIndex, NamespaceListing, SchemaNode } from './types.js'

/** `now` as the island timestamp of `updatedAt` (full seconds, 03 ⚠ C4), or an issue. */
export function indexTimestamp(now: unknown): { stamp: string | null; issue: Issue | null } {
    if (now === undefined || now === null) return { stamp: null, issue: createIssue('IDX-001', '/now', { field: 'now' }) }
    if (typeof now === 'string' && FILE_TIMESTAMP_REGEX.test(now) && fromFileTimestamp(now) !== null) return { stamp: now, issue: null }
    if (isIsoDateTime(now)) return { stamp: toFileTimestamp(now), issue: null }
    return { stamp: null, issue: createIssue('IDX-002', '/now', { field: 'now', expected: 'ISO-8601 date-time', actual: describeValue(now) }) }
}

/**
 * The arguments both index builders share: a `listing` object whose id (`namespace` or
 * `selectionId`) is a safe name, and `now`. Collects every problem.
 */
export function checkBuildArgs<L extends object>(input: { listing?: unknown; now?: unknown } | undefined, kind: 'namespace' | 'selection'): { listing: L | null; stamp: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const listing = input?.listing
    const { stamp, issue: nowIssue } = indexTimestamp(input?.now)
    if (nowIssue !== null) errors.push(nowIssue)
    if (listing === undefined || listing === null) errors.push(createIssue('IDX-001', '/listing', { field: 'listing' }))
    else if (typeof listing !== 'object' || Array.isArray(listing)) errors.push(createIssue('IDX-002', '/listing', { field: 'listing', expected: 'object', actual: typeOfValue(listing) }))
    else {
        const field = kind === 'namespace' ? 'namespace' : 'selectionId'
        const bad = checkName((listing as Record<string, unknown>)[field], kind, `/listing/${field}`)
        if (bad !== null) errors.push(bad)
    }
    return { listing: errors.length > 0 || listing === undefined || listing === null ? null : (listing as L), stamp, errors }
}

/**
 * The previous index when it belongs to the same namespace or selection; anything else is reported
 * and ignored (nothing is carried over from it).
 */
export function usablePrevious(previous: unknown, key: 'namespace' | 'selectionId', id: string, issues: Issue[]): Record<string, unknown> | null {
    if (previous === undefined || previous === null) return null
    if (typeof previous !== 'object' || Array.isArray(previous)) {
        issues.push(createIssue('IDX-022', '/previousIndex', { detail: `expected an object, got ${typeOfValue(previous)}` }))
        return null
    }
    const p = previous as Record<string, unknown>
    if (p.indexVersion !== 2) {
        issues.push(createIssue('IDX-022', '/previousIndex/indexVersion', { detail: `indexVersion ${describeValue(p.indexVersion)} is not 2` }))
        return null
    }
    if (p[key] !== id) {
        issues.push(createIssue('IDX-022', `/previousIndex/${key}`, { detail: `it describes ${describeValue(p[key])}, not ${id}` }))
        return null
    }
    return p
}

/** The carried lockSnapshot: copied unchanged from the previous index (03 §7.1). */
export function carriedLock(previous: Record<string, unknown> | null): LockSnapshot | undefined {
    const lock = previous?.lockSnapshot
    return lock !== undefined && lock !== null && typeof lock === 'object' && !Array.isArray(lock) ? (lock as LockSnapshot) : undefined
}

/**
 * Builds `providers/<ns>/index.json` from an in-memory description of the folder. Pure: no I/O,
 * same input ⇒ same output. See `docs/island.md` for the rules.
 * @param input - `{ listing, previousIndex?, now }`
 * @returns `{ index, errors }`; `index` is `null` only for unusable arguments (IDX-001/IDX-002/ISL-*);
 *   node-level findings are warnings (IDX-004, IDX-010, IDX-012…IDX-027) and also appear in `blockers`
 */
export function buildNamespaceIndex(input: { listing?: unknown; previousIndex?: unknown; now?: unknown }): { index: NamespaceIndex | null; errors: Issue[] } {
    const { listing, stamp, errors } = checkBuildArgs<NamespaceListing>(input, 'namespace')
    if (errors.length > 0 || stamp === null || listing === null) return { index: null, errors }

    const ns = listing.namespace
    const previous = usablePrevious(input.previousIndex, 'namespace', ns, errors)
    const blockers: Blocker[] = []
    const used: GradingFacts[] = []
    const take = (leaf: { blockers: Blocker[]; issues: Issue[]; used: GradingFacts | null }): void => {
        blockers.push(...leaf.blockers)
        errors.push(...leaf.issues)
        if (leaf.used !== null) used.push(leaf.used)
    }

    const schemas = validNamed(arr(listing.schemas), 'schema', '/listing/schemas', errors)
    const snapshotTimes = schemas.map(({ item }) => latestSnapshot(item.snapshots, item.name)?.timestamp ?? '').filter((t) => t !== '')
    const newestSchemaTs = snapshotTimes.length > 0 ? snapshotTimes.reduce((a, b) => (a > b ? a : b)) : null

    // About: the one schema holding an About snapshot; gradings elsewhere do not count.
    const aboutName = `${ns}-about`
    const holders = schemas.filter(({ item }) => latestSnapshot(item.about?.snapshots, aboutName) !== null)
    const holder = holders[0]
    if (holders.length > 1) {
        errors.push(createIssue('IDX-027', '/listing/schemas', { schemas: holders.map(({ item }) => item.name).join(', '), schema: holder?.item.name ?? '' }))
    }
    for (const { item, index } of schemas) {
        if (item === holder?.item) continue
        digestFolder(item.about?.gradings, [], `/listing/schemas/${index}/about/gradings`, `${item.name}/resources/about/_gradings`, errors)
    }
    let about: IndexNode
    if (holder === undefined) {
        const issue = createIssue('IDX-014', '/listing/schemas', { detail: `no schema holds a ${aboutName}--<ts>--<hash8>.md snapshot` })
        errors.push(issue)
        about = { status: NODE_STATUS.blocked, reason: reasonText(issue) }
        blockers.push({ node: 'about', reason: reasonText(issue) })
    } else {
        const snap = latestSnapshot(holder.item.about.snapshots, aboutName)
        const folder = `${holder.item.name}/resources/about/_gradings`
        const byArea = digestFolder(holder.item.about.gradings, ['about-namespace'], `/listing/schemas/${holder.index}/about/gradings`, folder, errors)
        const leaf = deriveLeaf(factsOf(byArea, ['about-namespace']), {
            refBase: folder,
            nodePath: 'about',
            binding: { field: 'aboutHash', hash: snap?.hash ?? null, newestSnapshotTs: snap?.timestamp ?? null, displayHash: null, requireSnapshot: true },
            preBlock: null,
            previous: previousAt(previous, 'about')
        })
        take(leaf)
        about = leaf.node
    }

    const nsByArea = digestFolder(listing.gradings, ['namespace-description', 'tools-aggregate-namespace'], '/listing/gradings', '_gradings', errors)
    const nsBinding = { field: null, hash: null, newestSnapshotTs: newestSchemaTs, displayHash: null, requireSnapshot: false }
    const descriptionLeaf = deriveLeaf(factsOf(nsByArea, ['namespace-description']), { refBase: '_gradings', nodePath: 'description', binding: nsBinding, preBlock: null, previous: previousAt(previous, 'description') })
    take(descriptionLeaf)

    const skills: Array<[string, IndexNode]> = []
    for (const { item: schema, index } of schemas) {
        for (const { item: skill, index: k } of validNamed(arr(schema.skills), 'skill', `/listing/schemas/${index}/skills`, errors)) {
            const key = `${schema.name}.${skill.name}`
            const folder = `${schema.name}/skills/${skill.name}/_gradings`
            const byArea = digestFolder(skill.gradings, ['namespace-skills'], `/listing/schemas/${index}/skills/${k}/gradings`, folder, errors)
            const facts = factsOf(byArea, ['namespace-skills']).map((f) =>
                f.problem === null && f.skillId !== skill.name ? { ...f, problem: createIssue('IDX-010', `/listing/schemas/${index}/skills/${k}/gradings`, { path: `${folder}/${f.file}`, detail: `skillId ${describeValue(f.skillId)} is not ${skill.name}` }) } : f
            )
            const snap = latestSnapshot(skill.snapshots, skill.name)
            const leaf = deriveLeaf(facts, {
                refBase: folder,
                nodePath: `skills.${key}`,
                binding: { field: null, hash: null, newestSnapshotTs: snap?.timestamp ?? null, displayHash: snap?.hash ?? null, requireSnapshot: true },
                preBlock: null,
                previous: previousAt(previous, 'skills', key)
            })
            take(leaf)
            skills.push([key, leaf.node])
        }
    }
    skills.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))

    const aggregateLeaf = deriveLeaf(factsOf(nsByArea, ['tools-aggregate-namespace']), { refBase: '_gradings', nodePath: 'namespaceAggregate', binding: nsBinding, preBlock: null, previous: previousAt(previous, 'namespaceAggregate') })
    take(aggregateLeaf)

    const schemaNodes: Array<[string, SchemaNode]> = []
    const toolNodes: IndexNode[] = []
    for (const { item, index } of schemas) {
        const res = buildSchemaNode(item, { refBase: item.name, nodePath: `schemas.${item.name}`, listingPath: `/listing/schemas/${index}`, previous: previousAt(previous, 'schemas', item.name) })
        schemaNodes.push([item.name, res.node])
        toolNodes.push(...res.toolNodes)
        blockers.push(...res.blockers)
        errors.push(...res.issues)
        used.push(...res.used)
    }

    const versions = versionsOf(used)
    if (versions.mixed !== null) {
        errors.push(versions.mixed)
        blockers.push({ node: 'summary', reason: reasonText(versions.mixed) })
    }
    const skillNodes = skills.map(([, n]) => n)
    const counted: Array<{ status: NodeStatus; grade?: IndexNode['grade'] | undefined }> = [
        ...schemaNodes.map(([, n]) => n),
        ...toolNodes,
        about,
        descriptionLeaf.node,
        ...skillNodes,
        aggregateLeaf.node
    ]
    const grade = rollupGrade(counted)
    const lock = carriedLock(previous)
    const index: NamespaceIndex = {
        indexVersion: 2,
        namespace: ns,
        updatedAt: stamp,
        status: rollupStatus(counted.map((n) => n.status)),
        ...(grade !== undefined ? { grade } : {}),
        summary: {
            schemas: schemaNodes.length,
            tools: toolNodes.length,
            toolsStable: toolNodes.filter((n) => n.status === NODE_STATUS.stable).length,
            about: about.status,
            description: descriptionLeaf.node.status,
            skills: skillNodes.filter((n) => n.status === NODE_STATUS.graded || n.status === NODE_STATUS.stable).length,
            scoringSystem: versions.scoringSystem,
            gradingSystem: versions.gradingSystem
        },
        about,
        description: descriptionLeaf.node,
        skills: Object.fromEntries(skills),
        namespaceAggregate: aggregateLeaf.node,
        schemas: Object.fromEntries(schemaNodes),
        blockers,
        ...(lock !== undefined ? { lockSnapshot: lock } : {})
    }
    return { index, errors }
}
