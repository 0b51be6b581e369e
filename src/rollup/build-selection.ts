import { NODE_STATUS } from '../model/constants.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { Area, NodeStatus } from '../model/constants.js'
import { checkName } from '../store/paths.js'
import { NO_DOMAIN_KNOWLEDGE_REASON, SELECTION_MEMBER_THRESHOLDS } from '../grading/aggregate.js'
import { carriedLock, checkBuildArgs, usablePrevious } from './build-namespace.js'
import { aboutLeaf, skillLeaf } from './leaves.js'
import { blockNode, rollupSink, takeDerived, takeVersions, type RollupSink } from './collect.js'
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
    validNamed
} from './nodes.js'
import type {
    Blocker,
    IndexNode,
    MemberNode,
    SchemaListing,
    SelectionIndex,
    SelectionListing,
    SkillListing
} from './types.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'

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
    if (!isObject(definition)) {
        issues.push(
            createIssue('IDX-024', '/listing/definition', {
                path: where,
                detail:
                    definition === undefined
                        ? 'no selection definition snapshot'
                        : `expected an object, got ${typeOfValue(definition)}`
            })
        )
        return null
    }
    const raw = (definition as { members?: unknown }).members
    if (!Array.isArray(raw)) {
        issues.push(
            createIssue('IDX-024', '/listing/definition/members', {
                path: where,
                detail: `members must be an array, got ${typeOfValue(raw)}`
            })
        )
        return null
    }
    const seen = new Set<string>()
    const out: DefinitionMember[] = []
    raw.forEach((item: unknown, i) => {
        const schemaId =
            typeof item === 'string'
                ? item
                : item !== null && typeof item === 'object'
                  ? (item as { schemaId?: unknown }).schemaId
                  : undefined
        const id = typeof schemaId === 'string' ? schemaId : `#${i}`
        if (seen.has(id)) {
            issues.push(createIssue('IDX-025', `/listing/definition/members/${i}`, { schemaId: id }))
            return
        }
        seen.add(id)
        out.push({
            schemaId: id,
            override:
                item !== null && typeof item === 'object' ? ((item as { override?: unknown }).override ?? null) : null
        })
    })
    return out
}

/** `<ns>.<schema>` split and checked, or `null` when malformed (03 §8). */
export function splitSchemaId(schemaId: string): { namespace: string; schema: string } | null {
    const parts = schemaId.split('.')
    if (parts.length !== 2) return null
    const [namespace, schema] = parts as [string, string]
    return checkName(namespace, 'namespace', '') === null && checkName(schema, 'schema', '') === null
        ? { namespace, schema }
        : null
}

type Previous = Record<string, unknown> | null

/** The selection's About leaf, and whether its snapshot is imported (without it the selection is capped at B). */
function selectionAbout(
    listing: SelectionListing,
    previous: Previous,
    sink: RollupSink
): { node: IndexNode; imported: boolean } {
    const aboutName = `${listing.selectionId}-about`
    const aboutSnap = latestSnapshot(listing.about?.snapshots, aboutName)
    const noAbout =
        aboutSnap === null
            ? createIssue('IDX-014', '/listing/about/snapshots', {
                  detail: `no ${aboutName}--<ts>--<hash8>.md snapshot`
              })
            : null
    const node = aboutLeaf({
        gradings: listing.about?.gradings,
        area: 'about-selection',
        listingPath: '/listing/about/gradings',
        folder: 'resources/about/_gradings',
        snapshot: aboutSnap,
        preBlock: noAbout,
        previous,
        sink
    })
    return { node, imported: aboutSnap !== null }
}

/** One L1–L3 skill's leaf, keyed by its name; entries graded for another skill are unusable (IDX-010). */
function selectionSkill(skill: SkillListing, k: number, previous: Previous, sink: RollupSink): [string, IndexNode] {
    const { node, facts } = skillLeaf({
        skill,
        areas: SKILL_AREAS,
        listingPath: `/listing/skills/${k}/gradings`,
        folder: `skills/${skill.name}/_gradings`,
        key: skill.name,
        previous,
        sink
    })
    // The level of a selection skill is the level of the area it was graded under.
    const newest = facts[facts.length - 1]
    return [skill.name, newest !== undefined ? { ...node, level: newest.area.slice(-2) } : node]
}

/** The selection-aggregate leaf; a selection below the soft member threshold has no selection grade (⚠ B10). */
function selectionAggregate(
    listing: SelectionListing,
    previous: Previous,
    memberNamespaces: number,
    sink: RollupSink
): IndexNode {
    const definitionSnap = latestSnapshot(listing.definitionSnapshots, listing.selectionId)
    const aggByArea = digestFolder(
        listing.gradings,
        ['selection-aggregate'],
        '/listing/gradings',
        '_gradings',
        sink.errors
    )
    const leaf = deriveLeaf(factsOf(aggByArea, ['selection-aggregate']), {
        refBase: '_gradings',
        nodePath: 'selectionAggregate',
        binding: {
            field: null,
            hash: null,
            newestSnapshotTs: definitionSnap?.timestamp ?? null,
            displayHash: definitionSnap?.hash ?? null,
            requireSnapshot: true
        },
        preBlock: null,
        previous: previousAt(previous, 'selectionAggregate')
    })
    takeDerived(sink, leaf)
    if (memberNamespaces < SELECTION_MEMBER_THRESHOLDS.SOFT && leaf.node.status !== NODE_STATUS.rejected) {
        blockNode(
            sink,
            'selectionAggregate',
            createIssue('SEL-016', '/listing/definition/members', {
                count: memberNamespaces,
                min: SELECTION_MEMBER_THRESHOLDS.SOFT
            })
        )
        return { status: NODE_STATUS.blocked, reason: BELOW_SOFT_THRESHOLD_REASON }
    }
    return leaf.node
}

/** The imported provider schemas by member id; the first listing of an id wins. */
function providersById(listing: SelectionListing): Map<string, { schema: SchemaListing | null; index: number }> {
    const providers = new Map<string, { schema: SchemaListing | null; index: number }>()
    arr(listing.providers).forEach((p, index) => {
        if (p !== null && typeof p === 'object' && typeof p.schemaId === 'string' && !providers.has(p.schemaId))
            providers.set(p.schemaId, { schema: p.schema ?? null, index })
    })
    return providers
}

/** One member resolved live against its provider folder (03 §8): blocked when malformed, pending when not imported. */
function resolveMember(
    m: DefinitionMember,
    i: number,
    providers: ReturnType<typeof providersById>,
    sink: RollupSink
): [string, MemberNode] {
    const nodePath = `members.${m.schemaId}`
    const split = splitSchemaId(m.schemaId)
    if (split === null) {
        const issue = createIssue('IDX-016', `/listing/definition/members/${i}`, {
            schemaId: describeValue(m.schemaId)
        })
        blockNode(sink, nodePath, issue)
        return [m.schemaId, { status: NODE_STATUS.blocked, reason: reasonText(issue), resolvedArtifact: null }]
    }
    const provided = providers.get(m.schemaId)
    const schema = provided?.schema ?? null
    const snap = schema === null ? null : latestSnapshot(schema.snapshots, schema.name)
    if (schema === null || snap === null || schema.name !== split.schema) {
        blockNode(sink, nodePath, createIssue('IDX-015', `/listing/definition/members/${i}`, { schemaId: m.schemaId }))
        return [
            m.schemaId,
            { status: NODE_STATUS.pending, reason: PENDING_REASONS.memberNotImported, resolvedArtifact: null }
        ]
    }
    const res = buildSchemaNode(schema, {
        refBase: `${split.namespace}/${split.schema}`,
        nodePath,
        listingPath: `/listing/providers/${provided?.index ?? i}/schema`,
        previous: undefined
    })
    sink.errors.push(...res.issues)
    sink.used.push(...res.used)
    const n = res.node
    // A member contributes one blocker of its own, not the blockers of its leaves.
    if (n.status === NODE_STATUS.blocked || n.status === NODE_STATUS.rejected)
        sink.blockers.push({ node: nodePath, reason: n.reason ?? res.blockers[0]?.reason ?? n.status })
    const member: MemberNode = {
        status: n.status,
        ...definedFields({ grade: n.grade, rawGrade: n.rawGrade, reason: n.reason, ref: n.toolsAggregate.ref }),
        resolvedArtifact: `${split.namespace}/${split.schema}/schema/${snap.file}`,
        snapshot: { file: snap.file, hash: snap.hash }
    }
    return [m.schemaId, member]
}

/**
 * Why every selection-side node is capped at B, or `null`: 01-model §4 step 8 and 02-areas §8 cap a
 * 5–6 namespace selection, or one without its About, whatever older or foreign entries claim.
 */
function selectionCapReason(memberNamespaces: number, aboutImported: boolean): string | null {
    if (memberNamespaces < SELECTION_MEMBER_THRESHOLDS.SOFT) return BELOW_SOFT_THRESHOLD_REASON
    if (memberNamespaces < SELECTION_MEMBER_THRESHOLDS.HARD)
        return `selection-size: ${memberNamespaces} member namespaces (< ${SELECTION_MEMBER_THRESHOLDS.HARD}), no A`
    return aboutImported ? null : NO_DOMAIN_KNOWLEDGE_REASON
}

function capAtB(node: IndexNode, reason: string | null): IndexNode {
    return reason !== null && node.grade === 'A'
        ? { ...node, grade: 'B', rawGrade: node.rawGrade ?? 'A', capped: { from: 'A', to: 'B', reason } }
        : node
}

/** The derived, capped nodes and the facts the selection index is assembled from. */
interface SelectionParts {
    readonly selectionId: string
    readonly stamp: string
    readonly memberNamespaces: number
    readonly about: IndexNode
    readonly skills: Array<[string, IndexNode]>
    readonly aggregate: IndexNode
    readonly members: Array<[string, MemberNode]>
    readonly versions: { scoringSystem: string[]; gradingSystem: string[] }
    readonly blockers: Blocker[]
    readonly previous: Previous
}

function assembleSelectionIndex(parts: SelectionParts): SelectionIndex {
    const memberList = parts.members.map(([, n]) => n)
    const skillNodes = parts.skills.map(([, n]) => n)
    const agg = parts.aggregate
    const counted: Array<{ status: NodeStatus; grade?: IndexNode['grade'] | undefined }> = [
        ...memberList,
        parts.about,
        agg,
        ...skillNodes
    ]
    const status = rollupStatus(counted.map((n) => n.status))
    // Members are autonomous and capped at B: only the selection aggregate carries the selection's grade (⚠ C15).
    const grade =
        status === NODE_STATUS.rejected
            ? 'REJECTED'
            : agg.status === NODE_STATUS.graded || agg.status === NODE_STATUS.stable
              ? rollupGrade([agg])
              : undefined
    const lock = carriedLock(parts.previous)
    return {
        indexVersion: 2,
        selectionId: parts.selectionId,
        updatedAt: parts.stamp,
        status,
        ...definedFields({ grade }),
        summary: {
            members: memberList.length,
            membersStable: memberList.filter((n) => n.status === NODE_STATUS.stable).length,
            memberNamespaces: parts.memberNamespaces,
            about: parts.about.status,
            skills: skillNodes.filter((n) => n.status === NODE_STATUS.graded || n.status === NODE_STATUS.stable).length,
            scoringSystem: parts.versions.scoringSystem,
            gradingSystem: parts.versions.gradingSystem
        },
        about: parts.about,
        skills: Object.fromEntries(parts.skills),
        selectionAggregate: agg,
        members: Object.fromEntries(parts.members),
        blockers: parts.blockers,
        ...definedFields({ lockSnapshot: lock })
    }
}

/**
 * Builds `selections/<sel>/index.json` from an in-memory description of the selection folder and
 * its members' provider folders. Pure. Members are resolved live (member-resolution manifest, 03 §8);
 * the `lockSnapshot` is only ever copied from the previous index.
 * @param input - `{ listing, previousIndex?, now }`
 * @returns `{ index, errors }`; `index` is `null` for unusable arguments or a missing/unreadable
 *   selection definition (IDX-024)
 */
export function buildSelectionIndex(input: { listing?: unknown; previousIndex?: unknown; now?: unknown }): {
    index: SelectionIndex | null
    errors: Issue[]
} {
    const { listing, stamp, errors } = checkBuildArgs<SelectionListing>(input, 'selection')
    if (errors.length > 0 || stamp === null || listing === null) return { index: null, errors }
    if (listing.definitionProblem !== undefined) {
        return {
            index: null,
            errors: [
                createIssue('IDX-024', '/listing/definitionProblem', {
                    path: 'selection/',
                    detail: listing.definitionProblem.message
                })
            ]
        }
    }
    const members = definitionMembers(listing.definition, 'selection/', errors)
    if (members === null) return { index: null, errors }
    // ⚠ B9: thresholds count distinct namespace prefixes of the well-formed member ids.
    const memberNamespaces = new Set(
        members.map((m) => splitSchemaId(m.schemaId)?.namespace).filter((n): n is string => n !== undefined)
    ).size
    const previous = usablePrevious(input.previousIndex, 'selectionId', listing.selectionId, errors)
    const sink = rollupSink(errors)
    const about = selectionAbout(listing, previous, sink)
    const skills = validNamed(arr(listing.skills), 'skill', '/listing/skills', errors).map(({ item, index }) =>
        selectionSkill(item, index, previous, sink)
    )
    const aggregate = selectionAggregate(listing, previous, memberNamespaces, sink)
    const providers = providersById(listing)
    const memberNodes = members.map((m, i) => resolveMember(m, i, providers, sink))
    const versions = takeVersions(sink)
    const cap = selectionCapReason(memberNamespaces, about.imported)
    return {
        index: assembleSelectionIndex({
            selectionId: listing.selectionId,
            stamp,
            memberNamespaces,
            about: capAtB(about.node, cap),
            skills: skills.map(([name, n]): [string, IndexNode] => [name, capAtB(n, cap)]),
            aggregate: capAtB(aggregate, cap),
            members: memberNodes,
            versions,
            blockers: sink.blockers,
            previous
        }),
        errors
    }
}
