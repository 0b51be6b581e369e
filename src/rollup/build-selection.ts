import { NODE_STATUS } from '../model/constants.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { Area, NodeStatus } from '../model/constants.js'
import { checkName } from '../island/paths.js'
import { NO_DOMAIN_KNOWLEDGE_REASON, SELECTION_MEMBER_THRESHOLDS } from '../grading/aggregate.js'
import { carriedLock, checkBuildArgs, usablePrevious } from './build-namespace.js'
import {
    arr,
    buildSchemaNode,
    deriveLeaf,
    digestFolder,
    factsOf,
    latestSnapshot,
    PENDING_REASONS,
    previousAt,
    reasonText,
    rollupGrade,
    rollupStatus,
    validNamed,
    versionsOf
} from './nodes.js'
import type { Blocker, GradingFacts, IndexNode, MemberNode, SchemaListing, SelectionIndex, SelectionListing } from './types.js'

const SKILL_AREAS: readonly Area[] = ['selection-skills-L1', 'selection-skills-L2', 'selection-skills-L3']

/** The reason a sub-threshold selection's aggregate node carries (02-areas ⚠ B10, verbatim). */
export const BELOW_SOFT_THRESHOLD_REASON = 'below-soft-threshold (<5 namespaces)'

/** One member of a selection definition: `{ schemaId, override? }` or a bare schemaId string. */
export interface DefinitionMember {
    readonly schemaId: string
    readonly override: unknown
}

/**
 * Reads the member list of a selection definition (chapter 16 `members[]`, items `{ schemaId }`;
 * bare strings are accepted too). Duplicates are counted once (IDX-025).
 * @returns the members in definition order, or an IDX-024 issue when there is no usable list
 */
export function definitionMembers(definition: unknown, where: string, issues: Issue[]): DefinitionMember[] | null {
    if (definition === undefined || definition === null || typeof definition !== 'object' || Array.isArray(definition)) {
        issues.push(createIssue('IDX-024', '/listing/definition', { path: where, detail: definition === undefined ? 'no selection definition snapshot' : `expected an object, got ${typeOfValue(definition)}` }))
        return null
    }
    const raw = (definition as { members?: unknown }).members
    if (!Array.isArray(raw)) {
        issues.push(createIssue('IDX-024', '/listing/definition/members', { path: where, detail: `members must be an array, got ${typeOfValue(raw)}` }))
        return null
    }
    const seen = new Set<string>()
    const out: DefinitionMember[] = []
    raw.forEach((item: unknown, i) => {
        const schemaId = typeof item === 'string' ? item : item !== null && typeof item === 'object' ? (item as { schemaId?: unknown }).schemaId : undefined
        const id = typeof schemaId === 'string' ? schemaId : `#${i}`
        if (seen.has(id)) {
            issues.push(createIssue('IDX-025', `/listing/definition/members/${i}`, { schemaId: id }))
            return
        }
        seen.add(id)
        out.push({ schemaId: id, override: item !== null && typeof item === 'object' ? ((item as { override?: unknown }).override ?? null) : null })
    })
    return out
}

/** `<ns>.<schema>` split and checked, or `null` when malformed (03 §8). */
export function splitSchemaId(schemaId: string): { namespace: string; schema: string } | null {
    const parts = schemaId.split('.')
    if (parts.length !== 2) return null
    const [namespace, schema] = parts as [string, string]
    return checkName(namespace, 'namespace', '') === null && checkName(schema, 'schema', '') === null ? { namespace, schema } : null
}

/**
 * Builds `selections/<sel>/index.json` from an in-memory description of the selection folder and
 * its members' provider folders. Pure. Members are resolved live (member-resolution manifest, 03 §8);
 * the `lockSnapshot` is only ever copied from the previous index.
 * @param input - `{ listing, previousIndex?, now }`
 * @returns `{ index, errors }`; `index` is `null` for unusable arguments or a missing/unreadable
 *   selection definition (IDX-024)
 */
export function buildSelectionIndex(input: { listing?: unknown; previousIndex?: unknown; now?: unknown }): { index: SelectionIndex | null; errors: Issue[] } {
    const { listing, stamp, errors } = checkBuildArgs<SelectionListing>(input, 'selection')
    if (errors.length > 0 || stamp === null || listing === null) return { index: null, errors }
    const sel = listing.selectionId
    if (listing.definitionProblem !== undefined) {
        return { index: null, errors: [createIssue('IDX-024', '/listing/definitionProblem', { path: 'selection/', detail: listing.definitionProblem.message })] }
    }
    const members = definitionMembers(listing.definition, 'selection/', errors)
    if (members === null) return { index: null, errors }
    // ⚠ B9: thresholds count distinct namespace prefixes of the well-formed member ids.
    const namespaces = new Set(members.map((m) => splitSchemaId(m.schemaId)?.namespace).filter((n): n is string => n !== undefined))

    const previous = usablePrevious(input.previousIndex, 'selectionId', sel, errors)
    const blockers: Blocker[] = []
    const used: GradingFacts[] = []
    const take = (leaf: { blockers: Blocker[]; issues: Issue[]; used: GradingFacts | null }): void => {
        blockers.push(...leaf.blockers)
        errors.push(...leaf.issues)
        if (leaf.used !== null) used.push(leaf.used)
    }
    const definitionSnap = latestSnapshot(listing.definitionSnapshots, sel)

    const aboutName = `${sel}-about`
    const aboutSnap = latestSnapshot(listing.about?.snapshots, aboutName)
    const aboutFolder = 'resources/about/_gradings'
    const aboutByArea = digestFolder(listing.about?.gradings, ['about-selection'], '/listing/about/gradings', aboutFolder, errors)
    const noAbout = aboutSnap === null ? createIssue('IDX-014', '/listing/about/snapshots', { detail: `no ${aboutName}--<ts>--<hash8>.md snapshot` }) : null
    if (noAbout !== null) errors.push(noAbout)
    const aboutLeaf = deriveLeaf(factsOf(aboutByArea, ['about-selection']), {
        refBase: aboutFolder,
        nodePath: 'about',
        binding: { field: 'aboutHash', hash: aboutSnap?.hash ?? null, newestSnapshotTs: aboutSnap?.timestamp ?? null, displayHash: null, requireSnapshot: true },
        preBlock: noAbout,
        previous: previousAt(previous, 'about')
    })
    take(aboutLeaf)

    const skills: Array<[string, IndexNode]> = []
    for (const { item: skill, index: k } of validNamed(arr(listing.skills), 'skill', '/listing/skills', errors)) {
        const folder = `skills/${skill.name}/_gradings`
        const byArea = digestFolder(skill.gradings, SKILL_AREAS, `/listing/skills/${k}/gradings`, folder, errors)
        const facts = factsOf(byArea, SKILL_AREAS).map((f) =>
            f.problem === null && f.skillId !== skill.name ? { ...f, problem: createIssue('IDX-010', `/listing/skills/${k}/gradings`, { path: `${folder}/${f.file}`, detail: `skillId ${describeValue(f.skillId)} is not ${skill.name}` }) } : f
        )
        const snap = latestSnapshot(skill.snapshots, skill.name)
        const leaf = deriveLeaf(facts, {
            refBase: folder,
            nodePath: `skills.${skill.name}`,
            binding: { field: null, hash: null, newestSnapshotTs: snap?.timestamp ?? null, displayHash: snap?.hash ?? null, requireSnapshot: true },
            preBlock: null,
            previous: previousAt(previous, 'skills', skill.name)
        })
        take(leaf)
        // The level of a selection skill is the level of the area it was graded under.
        const newest = facts[facts.length - 1]
        skills.push([skill.name, newest !== undefined ? { ...leaf.node, level: newest.area.slice(-2) } : leaf.node])
    }

    const aggByArea = digestFolder(listing.gradings, ['selection-aggregate'], '/listing/gradings', '_gradings', errors)
    const aggregateLeaf = deriveLeaf(factsOf(aggByArea, ['selection-aggregate']), {
        refBase: '_gradings',
        nodePath: 'selectionAggregate',
        binding: { field: null, hash: null, newestSnapshotTs: definitionSnap?.timestamp ?? null, displayHash: definitionSnap?.hash ?? null, requireSnapshot: true },
        preBlock: null,
        previous: previousAt(previous, 'selectionAggregate')
    })
    take(aggregateLeaf)
    let aggregateNode = aggregateLeaf.node
    if (namespaces.size < SELECTION_MEMBER_THRESHOLDS.SOFT && aggregateNode.status !== NODE_STATUS.rejected) {
        // ⚠ B10: a sub-threshold selection has no selection grade; the aggregate says why.
        const issue = createIssue('SEL-016', '/listing/definition/members', { count: namespaces.size, min: SELECTION_MEMBER_THRESHOLDS.SOFT })
        aggregateNode = { status: NODE_STATUS.blocked, reason: BELOW_SOFT_THRESHOLD_REASON }
        errors.push(issue)
        blockers.push({ node: 'selectionAggregate', reason: reasonText(issue) })
    }

    const providers = new Map<string, { schema: SchemaListing | null; index: number }>()
    arr(listing.providers).forEach((p, index) => {
        if (p !== null && typeof p === 'object' && typeof p.schemaId === 'string' && !providers.has(p.schemaId)) providers.set(p.schemaId, { schema: p.schema ?? null, index })
    })
    const memberNodes: Array<[string, MemberNode]> = []
    members.forEach((m, i) => {
        const nodePath = `members.${m.schemaId}`
        const split = splitSchemaId(m.schemaId)
        if (split === null) {
            const issue = createIssue('IDX-016', `/listing/definition/members/${i}`, { schemaId: describeValue(m.schemaId) })
            errors.push(issue)
            blockers.push({ node: nodePath, reason: reasonText(issue) })
            memberNodes.push([m.schemaId, { status: NODE_STATUS.blocked, reason: reasonText(issue), resolvedArtifact: null }])
            return
        }
        const provided = providers.get(m.schemaId)
        const schema = provided?.schema ?? null
        const snap = schema === null ? null : latestSnapshot(schema.snapshots, schema.name)
        if (schema === null || snap === null || schema.name !== split.schema) {
            const issue = createIssue('IDX-015', `/listing/definition/members/${i}`, { schemaId: m.schemaId })
            errors.push(issue)
            blockers.push({ node: nodePath, reason: reasonText(issue) })
            memberNodes.push([m.schemaId, { status: NODE_STATUS.pending, reason: PENDING_REASONS.memberNotImported, resolvedArtifact: null }])
            return
        }
        const res = buildSchemaNode(schema, { refBase: `${split.namespace}/${split.schema}`, nodePath, listingPath: `/listing/providers/${provided?.index ?? i}/schema`, previous: undefined })
        errors.push(...res.issues)
        used.push(...res.used)
        const n = res.node
        if (n.status === NODE_STATUS.blocked || n.status === NODE_STATUS.rejected) {
            const first = res.blockers[0]
            blockers.push({ node: nodePath, reason: n.reason ?? first?.reason ?? n.status })
        }
        memberNodes.push([
            m.schemaId,
            {
                status: n.status,
                ...(n.grade !== undefined ? { grade: n.grade } : {}),
                ...(n.rawGrade !== undefined ? { rawGrade: n.rawGrade } : {}),
                ...(n.reason !== undefined ? { reason: n.reason } : {}),
                ...(n.toolsAggregate.ref !== undefined ? { ref: n.toolsAggregate.ref } : {}),
                resolvedArtifact: `${split.namespace}/${split.schema}/schema/${snap.file}`,
                snapshot: { file: snap.file, hash: snap.hash }
            }
        ])
    })

    const versions = versionsOf(used)
    if (versions.mixed !== null) {
        errors.push(versions.mixed)
        blockers.push({ node: 'summary', reason: reasonText(versions.mixed) })
    }
    // 01-model §4 step 8 and 02-areas §8: every selection-side node of a 5–6 namespace selection, or
    // of one without its About, is capped at B, whatever older or foreign entries claim.
    const capReason =
        namespaces.size < SELECTION_MEMBER_THRESHOLDS.SOFT
            ? BELOW_SOFT_THRESHOLD_REASON
            : namespaces.size < SELECTION_MEMBER_THRESHOLDS.HARD
              ? `selection-size: ${namespaces.size} member namespaces (< ${SELECTION_MEMBER_THRESHOLDS.HARD}), no A`
              : aboutSnap === null
                ? NO_DOMAIN_KNOWLEDGE_REASON
                : null
    const cap = (node: IndexNode): IndexNode => (capReason !== null && node.grade === 'A' ? { ...node, grade: 'B', rawGrade: node.rawGrade ?? 'A', capped: { from: 'A', to: 'B', reason: capReason } } : node)
    const aboutNode = cap(aboutLeaf.node)
    const cappedSkills = skills.map(([name, n]): [string, IndexNode] => [name, cap(n)])
    const memberList = memberNodes.map(([, n]) => n)
    const skillNodes = cappedSkills.map(([, n]) => n)
    const agg = cap(aggregateNode)
    const counted: Array<{ status: NodeStatus; grade?: IndexNode['grade'] | undefined }> = [...memberList, aboutNode, agg, ...skillNodes]
    const status = rollupStatus(counted.map((n) => n.status))
    // Members are autonomous and capped at B: only the selection aggregate carries the selection's grade (⚠ C15).
    const grade = status === NODE_STATUS.rejected ? 'REJECTED' : agg.status === NODE_STATUS.graded || agg.status === NODE_STATUS.stable ? rollupGrade([agg]) : undefined
    const lock = carriedLock(previous)
    const index: SelectionIndex = {
        indexVersion: 2,
        selectionId: sel,
        updatedAt: stamp,
        status,
        ...(grade !== undefined ? { grade } : {}),
        summary: {
            members: memberList.length,
            membersStable: memberList.filter((n) => n.status === NODE_STATUS.stable).length,
            memberNamespaces: namespaces.size,
            about: aboutNode.status,
            skills: skillNodes.filter((n) => n.status === NODE_STATUS.graded || n.status === NODE_STATUS.stable).length,
            scoringSystem: versions.scoringSystem,
            gradingSystem: versions.gradingSystem
        },
        about: aboutNode,
        skills: Object.fromEntries(cappedSkills),
        selectionAggregate: agg,
        members: Object.fromEntries(memberNodes),
        blockers,
        ...(lock !== undefined ? { lockSnapshot: lock } : {})
    }
    return { index, errors }
}
