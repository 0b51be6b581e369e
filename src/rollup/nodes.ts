import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { AggregateGrade, Area, LetterGrade, NodeStatus, RollupStatus } from '../model/constants.js'
import { GRADE_BANDS_V1, STABLE_THRESHOLD } from '../model/grades.js'
import { selectLatest } from '../naming/latest.js'
import { parseSnapshotFilename } from '../naming/snapshot-filename.js'
import { checkName, islandName, originalName, type NameKind } from '../store/paths.js'
import { needsVerification, screenGradingFile, verifyGradingFacts } from './digest.js'
import { promotionStatus } from './stable-promotion.js'
import type {
    Blocker,
    GradingFacts,
    GradingFileInput,
    IndexNode,
    NodeVeto,
    SchemaListing,
    SchemaNode,
    SnapshotRef,
    ToolListing
} from './types.js'

import {
    fewerThanWorkingTests,
    GRADE_RANK,
    isWorkingCountReason,
    MIN_WORKING_TESTS,
    NODE_STATUS,
    ROLLUP_STATUS
} from '../model/constants.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'

/** Reasons of `pending` nodes: plain spec phrases. `blocked` reasons always start with a code. */
export const PENDING_REASONS = Object.freeze({
    noFullGrading: 'no full grading',
    contentChanged: 'content changed, regrade required',
    notImported: 'not yet imported',
    memberNotImported: 'selection member, not imported',
    /** A schema whose tools or tools aggregate are not all graded for its current content (the names follow). */
    partsPending: 'not graded for its current content yet'
})

/**
 * The weighted mean as an index shows it: two decimals, half away from zero (the precision the
 * rubrics report), after dropping binary float noise (`5.000000000000001` ⇒ `5`). The band is taken
 * from the unrounded mean (01-model ⚠ A5), so the shown value never rounds up onto a band threshold
 * the mean missed: `4.4999` shows `4.49`, not `4.5`.
 */
export function displayScore(mean: number): number {
    if (!Number.isFinite(mean)) return mean
    const clean = Number(mean.toPrecision(12))
    const sign = clean < 0 ? -1 : 1
    let shown = (sign * Math.round(Math.abs(clean) * 100)) / 100
    for (const band of GRADE_BANDS_V1) {
        if (Number.isFinite(band.min) && mean < band.min && shown >= band.min)
            shown = Math.round(band.min * 100 - 1) / 100
    }
    return shown
}

/** `CODE: message`, the form blockers and blocked nodes carry so a reader can look the code up. */
export function reasonText(issue: Issue): string {
    return `${issue.code}: ${issue.message}`
}

/** Orders facts oldest first: by the file-name timestamp, then by the full file name. */
export function byTimeThenName(a: { timestamp: string; file: string }, b: { timestamp: string; file: string }): number {
    if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? -1 : 1
    return a.file < b.file ? -1 : a.file > b.file ? 1 : 0
}

/** Newest snapshot of `logicalName` among file names, with its parsed hash. */
export function latestSnapshot(
    names: readonly string[] | undefined,
    logicalName: string
): (SnapshotRef & { timestamp: string }) | null {
    const pick = selectLatest({
        names: Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [],
        logicalName,
        kind: 'snapshot'
    })
    const parts = pick.file === null ? null : parseSnapshotFilename(pick.file)
    return pick.file === null || parts === null
        ? null
        : { file: pick.file, hash: parts.hash, timestamp: parts.timestamp }
}

/** Arrays from the listing, tolerant of a missing or mistyped field. */
export function arr<T>(value: readonly T[] | undefined | null): readonly T[] {
    return Array.isArray(value) ? value : []
}

/** Keeps the listing items whose `name` is a valid name of `kind`; reports the rest (IDX-010). */
export function validNamed<T extends { name?: unknown }>(
    items: readonly T[],
    kind: NameKind,
    listingPath: string,
    issues: Issue[]
): Array<{ item: T; index: number }> {
    const out: Array<{ item: T; index: number }> = []
    items.forEach((item, index) => {
        const name = item?.name
        if (checkName(name, kind, '') === null) out.push({ item, index })
        else
            issues.push(
                createIssue('IDX-010', `${listingPath}/${index}`, {
                    path: String(name),
                    detail: `not a valid ${kind} name`
                })
            )
    })
    out.sort((a, b) =>
        String(a.item.name) < String(b.item.name) ? -1 : String(a.item.name) > String(b.item.name) ? 1 : 0
    )
    return out
}

/**
 * Digests one `_gradings/` folder and splits it by area. Names that are not grading file names and
 * entries of areas that do not belong in this folder are reported (IDX-010) and left out.
 */
export function digestFolder(
    files: readonly GradingFileInput[] | undefined,
    accepted: readonly Area[],
    listingPath: string,
    folder: string,
    issues: Issue[]
): Map<Area, GradingFacts[]> {
    const inputs = arr(files)
    // An audit file decides nothing: it only has to belong in this folder, which its name tells.
    const isAudit = (file: GradingFileInput | null | undefined): boolean =>
        typeof file?.audit === 'string' &&
        file.facts === undefined &&
        file.entry === undefined &&
        file.problem === undefined
    const screened = inputs.map((file) =>
        file !== null && typeof file === 'object' && typeof file.name === 'string' && !isAudit(file)
            ? screenGradingFile(file, `${folder}/${file.name}`)
            : null
    )
    // Entries handed in parsed (the pure path) are verified here; the shell hands in verified facts.
    for (const i of needsVerification(
        screened.map((f, k) => (f !== null && accepted.includes(f.area) && inputs[k]?.facts === undefined ? f : null))
    )) {
        const f = screened[i] as GradingFacts
        screened[i] = verifyGradingFacts(f, inputs[i]?.entry, `${folder}/${f.file}`)
    }
    const byArea = new Map<Area, GradingFacts[]>()
    screened.forEach((facts, index) => {
        const at = `${listingPath}/${index}`
        const input = inputs[index]
        if (facts === null && isAudit(input)) {
            const area = input?.audit as Area
            if (!accepted.includes(area))
                issues.push(
                    createIssue('IDX-010', at, {
                        path: `${folder}/${String(input?.name)}`,
                        detail: `${area} gradings do not belong in this folder`
                    })
                )
            return
        }
        if (facts === null) {
            issues.push(
                createIssue('IDX-010', at, {
                    path: `${folder}/${String(inputs[index]?.name)}`,
                    detail: 'not a grading file name'
                })
            )
            return
        }
        if (!accepted.includes(facts.area)) {
            issues.push(
                createIssue('IDX-010', at, {
                    path: `${folder}/${facts.file}`,
                    detail: `${facts.area} gradings do not belong in this folder`
                })
            )
            return
        }
        const placed = facts.problem === null ? facts : { ...facts, problem: { ...facts.problem, path: at } }
        const list = byArea.get(facts.area)
        if (list === undefined) byArea.set(facts.area, [placed])
        else list.push(placed)
    })
    return byArea
}

/** Facts of the given areas, oldest first. */
export function factsOf(byArea: Map<Area, GradingFacts[]>, areas: readonly Area[]): GradingFacts[] {
    return areas.flatMap((a) => byArea.get(a) ?? []).sort(byTimeThenName)
}

/** What a leaf's grade is bound to (03 §6.1 rule 4). */
export interface Binding {
    /** Entry field compared with `hash`; `null` for nodes bound by time only. */
    readonly field: 'schemaHash' | 'aboutHash' | null
    /** Hash of the newest snapshot of the graded primitive. */
    readonly hash: string | null
    /** Timestamp of the newest snapshot of the graded content; a newer snapshot than the grading ⇒ pending. */
    readonly newestSnapshotTs: string | null
    /** Shown as `boundTo` when `field` is `null`. */
    readonly displayHash: string | null
    /** The node cannot be graded before its primitive is imported. */
    readonly requireSnapshot: boolean
}

/** Everything a leaf derivation needs besides its facts. */
export interface LeafContext {
    /** Folder of the gradings, relative to the index folder. */
    readonly refBase: string
    /** Dotted node path for `blockers[]`. */
    readonly nodePath: string
    readonly binding: Binding
    /** A blocker known from other artefacts (pretest, About detector). */
    readonly preBlock: Issue | null
    /** The node at the same place in the previous index, if any. */
    readonly previous: unknown
}

/** A derived leaf node with what it contributes to the index. */
export interface LeafResult {
    readonly node: IndexNode
    readonly blockers: Blocker[]
    readonly issues: Issue[]
    /** The entry the status rests on when the node is graded or stable. */
    readonly used: GradingFacts | null
}

function previousVeto(previous: unknown): { veto: NodeVeto; ref: string | null } | null {
    if (previous === null || typeof previous !== 'object') return null
    const p = previous as { status?: unknown; veto?: unknown; ref?: unknown }
    if (p.status !== NODE_STATUS.rejected || p.veto === null || typeof p.veto !== 'object') return null
    const v = p.veto as { triggeredBy?: unknown; gradingId?: unknown }
    if (typeof v.gradingId !== 'string' || v.gradingId.length === 0) return null
    return {
        veto: { triggeredBy: typeof v.triggeredBy === 'string' ? v.triggeredBy : 'unknown', gradingId: v.gradingId },
        ref: typeof p.ref === 'string' ? p.ref : null
    }
}

/**
 * Derives one leaf node (03 §6.1, first match wins):
 * 1. a veto not lifted by lineage (01-model ⚠ A11) ⇒ `rejected` — also kept from the previous
 *    index when the veto file was deleted or altered without a lifting entry;
 * 2. a known blocker or any unusable grading file ⇒ `blocked` (⚠ C13);
 * 3. primitive not imported ⇒ `pending`; no valid full entry ⇒ `pending`;
 * 4. newest full entry bound to another hash, or older than the newest snapshot ⇒ `pending`;
 * 5./6. its grade at or above {@link STABLE_THRESHOLD} ⇒ `stable`, else `graded`.
 */
export function deriveLeaf(facts: readonly GradingFacts[], ctx: LeafContext): LeafResult {
    const sorted = [...facts].sort(byTimeThenName)
    const ref = (f: GradingFacts): string => `${ctx.refBase}/${f.file}`
    const rejected = vetoedLeaf(sorted, ctx, ref) ?? keptVetoLeaf(sorted, ctx)
    if (rejected !== null) return rejected
    const problems = sorted.filter((f) => f.problem !== null).map((f) => f.problem as Issue)
    const block = ctx.preBlock ?? problems[problems.length - 1] ?? null
    if (block !== null) return blockedLeaf(ctx.nodePath, block, problems)
    return currentLeaf(sorted, ctx, ref)
}

/** Where a reader finds a grading file, relative to the index folder. */
type RefOf = (f: GradingFacts) => string

/** Whether a later verified, usable full entry names `gradingId` as its predecessor (01-model ⚠ A11). */
function liftedBy(sorted: readonly GradingFacts[], gradingId: string | null, after: number): boolean {
    if (gradingId === null) return false
    const lifts = (f: GradingFacts): boolean =>
        f.verified && f.problem === null && f.gradingMode === 'full' && f.previousGradingId === gradingId
    return sorted.some((f, j) => j > after && lifts(f))
}

/** Rule 1 from the files: the newest veto no later entry lifted (IDX-023); every file problem is still reported. */
function vetoedLeaf(sorted: readonly GradingFacts[], ctx: LeafContext, ref: RefOf): LeafResult | null {
    for (let i = sorted.length - 1; i >= 0; i -= 1) {
        const v = sorted[i] as GradingFacts
        if (v.veto === null || liftedBy(sorted, v.gradingId, i)) continue
        const issue = createIssue('IDX-023', '', { trigger: v.veto, path: ref(v) })
        const veto = { triggeredBy: v.veto, gradingId: v.gradingId ?? '' }
        const node: IndexNode = { status: NODE_STATUS.rejected, grade: 'REJECTED', ref: ref(v), veto }
        const problems = sorted.filter((f) => f.problem !== null).map((f) => f.problem as Issue)
        const blockers = [{ node: ctx.nodePath, reason: reasonText(issue) }]
        return { node, blockers, issues: [issue, ...problems], used: null }
    }
    return null
}

/** Rule 1 from the previous index: its veto stays while no file carries it and nothing lifted it (IDX-026). */
function keptVetoLeaf(sorted: readonly GradingFacts[], ctx: LeafContext): LeafResult | null {
    const kept = previousVeto(ctx.previous)
    if (kept === null) return null
    const { gradingId } = kept.veto
    if (sorted.some((f) => f.gradingId === gradingId && f.veto !== null) || liftedBy(sorted, gradingId, -1)) return null
    const issue = createIssue('IDX-026', '', { gradingId })
    const reason = reasonText(issue)
    const at = kept.ref !== null ? { ref: kept.ref } : {}
    const node: IndexNode = { status: NODE_STATUS.rejected, grade: 'REJECTED', reason, ...at, veto: kept.veto }
    return { node, blockers: [{ node: ctx.nodePath, reason }], issues: [issue], used: null }
}

/** A `blocked` leaf: `block` is its reason and its blocker; `issues` are what the index reports for it. */
function blockedLeaf(nodePath: string, block: Issue, issues: Issue[]): LeafResult {
    const reason = reasonText(block)
    return { node: { status: NODE_STATUS.blocked, reason }, blockers: [{ node: nodePath, reason }], issues, used: null }
}

/** A `pending` leaf, pointing at the file it rests on when there is one. */
function pendingLeaf(reason: string, at: string | null): LeafResult {
    const node: IndexNode = { status: NODE_STATUS.pending, reason, ...(at !== null ? { ref: at } : {}) }
    return { node, blockers: [], issues: [], used: null }
}

/** Rules 3–6 for a leaf with no veto and no blocker: imported, fully graded, graded for its current content. */
function currentLeaf(sorted: readonly GradingFacts[], ctx: LeafContext, ref: RefOf): LeafResult {
    const newest = sorted[sorted.length - 1]
    const newestRef = newest !== undefined ? ref(newest) : null
    const imported = !ctx.binding.requireSnapshot || ctx.binding.newestSnapshotTs !== null
    if (!imported) return pendingLeaf(PENDING_REASONS.notImported, newestRef)
    const fulls = sorted.filter((f) => f.gradingMode === 'full')
    const f = fulls[fulls.length - 1]
    if (f === undefined) return pendingLeaf(PENDING_REASONS.noFullGrading, newestRef)
    if (!f.verified) {
        // Facts must come from the reader or digestGradingFile, which verify every deciding entry.
        const issue = createIssue('IDX-012', '', { path: ref(f), detail: 'the deciding entry was not verified' })
        return blockedLeaf(ctx.nodePath, issue, [issue])
    }
    const { field, hash, newestSnapshotTs, displayHash } = ctx.binding
    const boundHash = field === null ? null : f[field]
    if (
        (field !== null && hash !== null && boundHash !== hash) ||
        (newestSnapshotTs !== null && newestSnapshotTs > f.timestamp)
    ) {
        return pendingLeaf(PENDING_REASONS.contentChanged, ref(f))
    }
    return { node: gradedNode(f, field === null ? displayHash : boundHash, ref(f)), blockers: [], issues: [], used: f }
}

/** Rules 5/6: `stable` at or above {@link STABLE_THRESHOLD}, else `graded`, with what the entry shows. */
function gradedNode(f: GradingFacts, bound: string | null, at: string): IndexNode {
    const status =
        promotionStatus(f.aggregateGrade, STABLE_THRESHOLD) === NODE_STATUS.stable
            ? NODE_STATUS.stable
            : NODE_STATUS.graded
    return {
        status,
        ...(f.aggregateGrade !== null ? { grade: f.aggregateGrade } : {}),
        ...(f.rawGrade !== null ? { rawGrade: f.rawGrade } : {}),
        ...(f.normalizedScore !== null ? { normalizedScore: displayScore(f.normalizedScore) } : {}),
        ref: at,
        ...(bound !== null ? { boundTo: bound } : {})
    }
}

/**
 * Pretest blocker of one tool from `summary.json`, or `null`: a tool the pretest marked blocked with
 * a cause other than its working-test count (key missing, key withheld, tests unbuildable, never
 * called) is IDX-030 with that cause, live or offline; a live run's working count under the tool's
 * bar is IDX-013. A summary of a run that sent nothing (`ran: false`) says nothing about counts.
 */
function pretestBlock(summary: unknown, tool: string): { issue: Issue; cause: string } | null {
    if (summary === null || typeof summary !== 'object') return null
    const perTool = (summary as { perTool?: unknown }).perTool
    if (perTool === null || typeof perTool !== 'object') return null
    // The summary names tools as the schema does; the island folder may hold the escaped form.
    const key = Object.hasOwn(perTool, tool) ? tool : originalName(tool)
    if (key === null || !Object.hasOwn(perTool, key)) return null
    const node = (perTool as Record<string, unknown>)[key] as {
        working?: unknown
        bar?: unknown
        blocked?: unknown
        reason?: unknown
        detail?: unknown
    } | null
    const reason = node?.reason
    if (node?.blocked === true && typeof reason === 'string' && reason.length > 0 && !isWorkingCountReason(reason)) {
        return {
            issue: createIssue('IDX-030', '', {
                tool,
                reason,
                detail: typeof node.detail === 'string' && node.detail.length > 0 ? node.detail : reason
            }),
            cause: reason
        }
    }
    if ((summary as { ran?: unknown }).ran === false) return null
    const working = node?.working
    // The pretest records each tool's own bar (a parameterless tool needs 1); the spec's 3 otherwise.
    const bar =
        typeof node?.bar === 'number' && Number.isInteger(node.bar) && node.bar >= 1 ? node.bar : MIN_WORKING_TESTS
    if (typeof working !== 'number' || !Number.isFinite(working) || working >= bar) return null
    return {
        issue: createIssue('IDX-013', '', { min: bar, tool, found: working }),
        cause: typeof reason === 'string' && isWorkingCountReason(reason) ? reason : fewerThanWorkingTests(bar)
    }
}

/** Where a schema sits relative to the index folder and in the previous index. */
export interface SchemaContext {
    /** `<schema>` in a namespace index, `<ns>/<schema>` for selection members (relative to `providers/`). */
    readonly refBase: string
    readonly nodePath: string
    readonly listingPath: string
    readonly previous: unknown
}

/** A derived schema node plus the leaves under it. */
export interface SchemaResult {
    readonly node: SchemaNode
    readonly snapshot: (SnapshotRef & { timestamp: string }) | null
    readonly toolNodes: readonly IndexNode[]
    readonly blockers: Blocker[]
    readonly issues: Issue[]
    readonly used: GradingFacts[]
}

function child(previous: unknown, ...keys: string[]): unknown {
    let cur = previous
    for (const key of keys) {
        if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined
        cur = (cur as Record<string, unknown>)[key]
    }
    return cur
}

/** The previous index's node at a path (own properties only). */
export const previousAt = child

/**
 * Derives a schema node (03 §6.2, the spec's rule rather than the reference's stricter one): any
 * tool or the tools aggregate `rejected` ⇒ `rejected`; no snapshot ⇒ `pending` (not yet imported);
 * any tool `blocked` ⇒ `blocked`; otherwise the status of `tools-aggregate-schema`.
 */
export function buildSchemaNode(schema: SchemaListing, ctx: SchemaContext): SchemaResult {
    const issues: Issue[] = []
    const snapshot = latestSnapshot(schema.snapshots, schema.name)
    const binding: Binding = {
        field: 'schemaHash',
        hash: snapshot?.hash ?? null,
        newestSnapshotTs: snapshot?.timestamp ?? null,
        displayHash: null,
        requireSnapshot: true
    }
    if (schema.summaryProblem !== undefined) issues.push(schema.summaryProblem)
    else if (schema.summary !== undefined && !isObject(schema.summary)) {
        issues.push(
            createIssue('IDX-021', `${ctx.listingPath}/summary`, {
                path: `${ctx.refBase}/summary.json`,
                detail: 'not a JSON object'
            })
        )
    }
    const { tools, blockers, used } = toolLeaves(schema, ctx, binding, currentTools(schema.summary, snapshot), issues)
    const aggFolder = `${ctx.refBase}/_gradings`
    const aggByArea = digestFolder(
        schema.gradings,
        ['tools-aggregate-schema'],
        `${ctx.listingPath}/gradings`,
        aggFolder,
        issues
    )
    const agg = deriveLeaf(factsOf(aggByArea, ['tools-aggregate-schema']), {
        refBase: aggFolder,
        nodePath: `${ctx.nodePath}.toolsAggregate`,
        binding,
        preBlock: null,
        previous: child(ctx.previous, 'toolsAggregate')
    })
    blockers.unshift(...agg.blockers)
    issues.push(...agg.issues)
    if (agg.used !== null) used.push(agg.used)

    const toolNodes = tools.map(([, n]) => n)
    const standing = schemaNodeStanding(agg.node, tools, snapshot !== null)
    if (standing.status === NODE_STATUS.pending && snapshot === null) {
        const issue = createIssue('IDX-018', `${ctx.listingPath}/snapshots`, { schema: schema.name })
        issues.push(issue)
        blockers.unshift({ node: ctx.nodePath, reason: reasonText(issue) })
    }
    return { node: schemaNodeOf(standing, agg.node, tools, snapshot), snapshot, toolNodes, blockers, issues, used }
}

/** The tool leaves of a schema, by tool name, with their blockers and deciding entries; issues go to `issues`. */
function toolLeaves(
    schema: SchemaListing,
    ctx: SchemaContext,
    binding: Binding,
    current: ReadonlySet<string> | null,
    issues: Issue[]
): {
    tools: Array<[string, IndexNode]>
    blockers: Blocker[]
    used: GradingFacts[]
} {
    const tools: Array<[string, IndexNode]> = []
    const blockers: Blocker[] = []
    const used: GradingFacts[] = []
    for (const { item: tool, index } of toolsOf(schema, ctx.listingPath, issues)) {
        // A tool the current content no longer has (renamed or removed) is history: its folder stays, its node goes.
        if (current !== null && !current.has(tool.name)) continue
        const folder = `${ctx.refBase}/tools/${tool.name}/_gradings`
        const listingAt = `${ctx.listingPath}/tools/${index}/gradings`
        const byArea = digestFolder(tool.gradings ?? [], ['single-test'], listingAt, folder, issues)
        const pre = pretestBlock(schema.summary, tool.name)
        const leaf = deriveLeaf(factsOf(byArea, ['single-test']), {
            refBase: folder,
            nodePath: `${ctx.nodePath}.tools.${tool.name}`,
            binding,
            preBlock: pre === null ? null : { ...pre.issue, path: `${ctx.listingPath}/summary` },
            previous: child(ctx.previous, 'tools', tool.name)
        })
        if (pre !== null) issues.push({ ...pre.issue, path: `${ctx.listingPath}/summary` })
        // A blocked tool says why the pretest held it back.
        const withCause = pre !== null && leaf.node.status === NODE_STATUS.blocked
        tools.push([tool.name, withCause ? { ...leaf.node, cause: pre.cause } : leaf.node])
        blockers.push(...leaf.blockers)
        issues.push(...leaf.issues)
        if (leaf.used !== null) used.push(leaf.used)
    }
    return { tools, blockers, used }
}

/** The schema node as written: its standing, the aggregate's raw grade under a real grade, its snapshot, its leaves. */
function schemaNodeOf(
    standing: ReturnType<typeof schemaNodeStanding>,
    aggregate: IndexNode,
    tools: ReadonlyArray<readonly [string, IndexNode]>,
    snapshot: SnapshotRef | null
): SchemaNode {
    const { status, grade, reason } = standing
    const showsRawGrade = grade !== undefined && grade !== 'REJECTED' && aggregate.rawGrade !== undefined
    return {
        status,
        ...definedFields({ grade }),
        ...(showsRawGrade ? { rawGrade: aggregate.rawGrade } : {}),
        ...definedFields({ reason }),
        ...(snapshot !== null ? { snapshot: { file: snapshot.file, hash: snapshot.hash } } : {}),
        toolsAggregate: aggregate,
        tools: Object.fromEntries(tools)
    }
}

/**
 * The tools of the schema's current content, by island name: `summary.json`'s `tools` when the summary is of the
 * newest snapshot's hash (every grading run writes it so); null when unknown (no summary, one of other content or of
 * an older library): then every tool folder counts, as before.
 */
export function currentTools(summary: unknown, snapshot: { hash: string } | null): ReadonlySet<string> | null {
    if (!isObject(summary) || snapshot === null || summary.schemaHash !== snapshot.hash) return null
    const tools = summary.tools
    if (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')) return null
    return new Set(tools.map((t: string) => islandName(t, 'tool') ?? t))
}

/**
 * The tools of a schema, from files only: every `tools/<tool>/` folder listed, plus every tool that
 * `summary.json` names. An empty folder does not survive a `git clone`, so a tool that was blocked
 * before it had a grading file is known from the summary alone; a tool named only there has no
 * gradings (index -1: no listing entry).
 */
function toolsOf(
    schema: SchemaListing,
    listingPath: string,
    issues: Issue[]
): Array<{ item: { name: string; gradings?: ToolListing['gradings'] }; index: number }> {
    const listed = validNamed(arr(schema.tools), 'tool', `${listingPath}/tools`, issues)
    const known = new Set(listed.map((t) => String(t.item.name)))
    const perTool = isObject(schema.summary) ? (schema.summary as { perTool?: unknown }).perTool : undefined
    const extra: Array<{ item: { name: string }; index: number }> = []
    if (isObject(perTool)) {
        for (const name of Object.keys(perTool)) {
            const folder = islandName(name, 'tool')
            if (folder === null || known.has(folder) || known.has(name)) continue
            known.add(folder)
            extra.push({ item: { name: folder }, index: -1 })
        }
    }
    const all = [
        ...listed.map((t) => ({
            item: t.item as { name: string; gradings?: ToolListing['gradings'] },
            index: t.index
        })),
        ...extra
    ]
    return all.sort((a, b) => (a.item.name < b.item.name ? -1 : a.item.name > b.item.name ? 1 : 0))
}

/**
 * A schema node's standing from its subtree, the rule the namespace rollup applies to its nodes
 * (03 §6.2, ⚠ C15): any tool or the tools aggregate `rejected` ⇒ `rejected`/`REJECTED`; no snapshot
 * ⇒ `pending` (not yet imported); any tool or the aggregate `blocked` ⇒ `blocked`; any of them
 * without a current full grading ⇒ `pending`, naming them; otherwise the worst grade of the subtree,
 * `stable` at A/B and `graded` below. The tools-aggregate grade alone is `toolsAggregate.grade`
 * (`schemaGrade` in results). A grade is never shown for a subtree that testing and judging could lower.
 */
export function schemaNodeStanding(
    aggregate: IndexNode,
    tools: ReadonlyArray<readonly [string, IndexNode]>,
    imported: boolean
): { status: NodeStatus; grade?: AggregateGrade; reason?: string } {
    const parts: Array<readonly [string, IndexNode]> = [
        ['the tools aggregate', aggregate],
        ...tools.map(([name, n]) => [`tool ${originalName(name) ?? name}`, n] as const)
    ]
    if (parts.some(([, n]) => n.status === NODE_STATUS.rejected))
        return { status: NODE_STATUS.rejected, grade: 'REJECTED' }
    if (!imported) return { status: NODE_STATUS.pending, reason: PENDING_REASONS.notImported }
    const blockedTools = tools.filter(([, n]) => n.status === NODE_STATUS.blocked).map(([k]) => k)
    if (blockedTools.length > 0)
        return {
            status: NODE_STATUS.blocked,
            reason: reasonText(createIssue('IDX-019', '', { tools: blockedTools.join(', ') }))
        }
    if (aggregate.status === NODE_STATUS.blocked)
        return { status: NODE_STATUS.blocked, ...definedFields({ reason: aggregate.reason }) }
    const pending = parts.filter(([, n]) => n.status === NODE_STATUS.pending)
    if (pending.length > 0) {
        // One shared spec reason (content changed, never graded) is kept; a mix says they are not graded yet.
        const reasons = new Set(pending.map(([, n]) => n.reason))
        const shared = reasons.size === 1 ? [...reasons][0] : undefined
        return {
            status: NODE_STATUS.pending,
            reason: `${shared ?? PENDING_REASONS.partsPending}: ${pending.map(([label]) => label).join(', ')}`
        }
    }
    const grade = rollupGrade(parts.map(([, n]) => n))
    if (grade === undefined || grade === 'REJECTED')
        return {
            status: NODE_STATUS.pending,
            reason: `${PENDING_REASONS.partsPending}: ${parts.map(([label]) => label).join(', ')}`
        }
    return {
        status:
            promotionStatus(grade, STABLE_THRESHOLD) === NODE_STATUS.stable ? NODE_STATUS.stable : NODE_STATUS.graded,
        grade
    }
}

/**
 * Rollup status over node statuses (03 §6.3): any `rejected` ⇒ `rejected`; nothing graded/stable ⇒
 * `blocked` when something is blocked, else `pending`; everything `stable` ⇒ `operational`;
 * otherwise `partial` (⚠ C14: a namespace graded C throughout is `partial`).
 */
export function rollupStatus(statuses: readonly NodeStatus[]): RollupStatus {
    if (statuses.includes(NODE_STATUS.rejected)) return ROLLUP_STATUS.rejected
    const good = statuses.filter((s) => s === NODE_STATUS.graded || s === NODE_STATUS.stable).length
    if (good === 0) return statuses.includes(NODE_STATUS.blocked) ? ROLLUP_STATUS.blocked : ROLLUP_STATUS.pending
    return statuses.every((s) => s === NODE_STATUS.stable) ? ROLLUP_STATUS.operational : ROLLUP_STATUS.partial
}

/**
 * Rollup grade (⚠ C15): `REJECTED` when any node is rejected, otherwise the worst grade among
 * graded/stable nodes, and **no grade** when nothing is graded (the reference's `F` is wrong, 06 §21.12).
 */
export function rollupGrade(
    nodes: ReadonlyArray<{ status: NodeStatus; grade?: AggregateGrade | undefined }>
): AggregateGrade | undefined {
    if (nodes.some((n) => n.status === NODE_STATUS.rejected)) return 'REJECTED'
    let worst: LetterGrade | undefined
    for (const n of nodes) {
        if (
            (n.status !== NODE_STATUS.graded && n.status !== NODE_STATUS.stable) ||
            n.grade === undefined ||
            n.grade === 'REJECTED'
        )
            continue
        if (worst === undefined || GRADE_RANK[n.grade] < GRADE_RANK[worst]) worst = n.grade
    }
    return worst
}

/** Distinct scoring/grading system versions behind graded nodes; a mix is a blocker (⚠ C18). */
export function versionsOf(used: readonly GradingFacts[]): {
    scoringSystem: string[]
    gradingSystem: string[]
    mixed: Issue | null
} {
    const scoring = [...new Set(used.map((f) => f.scoringSystem).filter((v): v is string => v !== null))].sort()
    const grading = [...new Set(used.map((f) => f.gradingSystem).filter((v): v is string => v !== null))].sort()
    const mixed =
        scoring.length > 1 || grading.length > 1
            ? createIssue('IDX-017', '', {
                  detail: `scoringSystem ${scoring.join(', ')}; gradingSystem ${grading.join(', ')}`
              })
            : null
    return { scoringSystem: scoring, gradingSystem: grading, mixed }
}
