import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { importProvider } from '../island/import.js'
import { writeGrading } from '../island/write-grading.js'
import { parseJsonText } from '../json/guard.js'
import { Journal, listDir, writeAtomic } from '../store/fs-ops.js'
import { islandName, joinPath, LAYOUT } from '../store/paths.js'
import {
    SEVERITY,
    NODE_STATUS,
    ROLLUP_STATUSES,
    UNIT_STATUS,
    NAMESPACE_AREAS,
    isAggregateGrade,
    type AggregateGrade,
    type LetterGrade,
    type RollupStatus
} from '../model/constants.js'
import type { FsPort } from '../ports/types.js'
import { testRecordsOf, type PretestResult } from '../pretest/data-pretest.js'
import { redactSecretsDeep } from '../prompts/redact.js'
import { parseSnapshotFilename } from '../naming/snapshot-filename.js'
import { fromFileTimestamp, toFileTimestamp } from '../time.js'
import { RebuildIndex } from '../rollup/rebuild-index.js'
import type { ImprovementHint } from '../areas/output.js'
import type { AreaSidecar } from '../areas/to-entry.js'
import type { PlannedEntry } from './units.js'
import type { GradeOptionsBase, JudgeCallCount, UnitResult } from './types.js'
import { judgeSummaryOf } from './judge-call.js'
import type { UnitPlan } from './units.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'

/** The options as read at run time: every field may be missing or wrong (the types cannot promise it). */
type GradeOptions = GradeOptionsBase

type Obj = Record<string, unknown>

/** The schema's node in its namespace `index.json` on the island (undefined when there is none yet). */
export async function schemaNodeIn(
    options: { fs: FsPort; root: string },
    namespace: string,
    schemaFolder: string
): Promise<unknown> {
    return schemaNodeOf(
        await readJsonObject(
            options.fs,
            joinPath(options.root.replace(/\/+$/, ''), LAYOUT.providers, namespace, LAYOUT.index)
        ),
        schemaFolder
    )
}

/** The node of the schema in folder `schemaFolder` of a namespace index value (undefined when it has none). */
function schemaNodeOf(index: unknown, schemaFolder: string): unknown {
    return isObject(index) && isObject(index.schemas) && Object.hasOwn(index.schemas, schemaFolder)
        ? index.schemas[schemaFolder]
        : undefined
}

/**
 * A unit the island already holds graded for this content: what its index node says, and its hints from `state.json`.
 */
export interface KeptUnit {
    readonly aggregateGrade: AggregateGrade | null
    readonly rawGrade: LetterGrade | null
    readonly normalizedScore: number | null
    /** Island path of the entry the node rests on. */
    readonly written: string | null
    readonly improvementHints?: readonly ImprovementHint[]
}

/** The parsed JSON object at `path`, or null when it is missing, unreadable or not an object. */
async function readJsonObject(fs: FsPort, path: string): Promise<Obj | null> {
    try {
        const text = await fs.readFile(path)
        if (text === null) return null
        // The island is external text: parsed within the JSON guard's size and depth limits.
        const parsed = parseJsonText(text)
        return isObject(parsed.value) ? parsed.value : null
    } catch {
        return null
    }
}

/** What `state.json` says of the entry a node rests on: the judge's hints and the inputs key it was computed from. */
interface StateOfEntry {
    readonly hints?: readonly ImprovementHint[]
    readonly inputsKey: string | null
}

/**
 * A node of `index.json` that stands for a current full grading (graded or stable), as a kept unit: only when
 * `state.json` says its entry was computed from inputs with this very key (a cache, never a source of truth).
 */
function keptFromNode(
    node: unknown,
    base: string,
    states: ReadonlyMap<string, StateOfEntry>,
    boundTo: string | null,
    inputsKey: string
): KeptUnit | null {
    if (!isObject(node)) return null
    // A veto is terminal (01-model §6.3): a rejected node of this very content is kept as it is.
    const vetoed = node.status === NODE_STATUS.rejected && node.grade === 'REJECTED' && boundTo !== null
    if (!vetoed && node.status !== NODE_STATUS.graded && node.status !== NODE_STATUS.stable) return null
    if (!vetoed && boundTo !== null && node.boundTo !== boundTo) return null
    const ref = typeof node.ref === 'string' ? node.ref : null
    const state = ref !== null ? states.get(ref) : undefined
    // An entry of other inputs (another recording, option, judge or library), or one no run of this key wrote.
    if (state === undefined || state.inputsKey !== inputsKey) return null
    const improvementHints = state.hints
    return {
        aggregateGrade: isAggregateGrade(node.grade) ? node.grade : null,
        rawGrade: isAggregateGrade(node.rawGrade) && node.rawGrade !== 'REJECTED' ? node.rawGrade : null,
        normalizedScore: typeof node.normalizedScore === 'number' ? node.normalizedScore : null,
        written: ref !== null ? joinPath(base, ref) : null,
        ...definedFields({ improvementHints })
    }
}

/**
 * The lines of `state.json` by the entry they came with (its path relative to the namespace folder): the improvement
 * hints and the inputs key.
 */
function statesByRef(state: Obj | null): Map<string, StateOfEntry> {
    const out = new Map<string, StateOfEntry>()
    for (const item of Array.isArray(state?.areas) ? state.areas : []) {
        if (!isObject(item) || typeof item.lastGradingRef !== 'string') continue
        out.set(item.lastGradingRef, {
            ...(Array.isArray(item.improvementHints) ? { hints: item.improvementHints as ImprovementHint[] } : {}),
            inputsKey: typeof item.inputsKey === 'string' ? item.inputsKey : null
        })
    }
    return out
}

/**
 * The units of one schema — or, with `namespaceUnits`, of the namespace — that the island already
 * holds graded for the same inputs: their `index.json` node is graded or stable (and, for a schema's
 * units, bound to `schemaHash` with that very snapshot), and `state.json` records that its entry was
 * computed from inputs with key `inputsKey` (inputs-key.ts). Failed, missing, blocked, vetoed, outdated
 * units and units of other inputs are not kept, so a re-run grades exactly those. An unreadable index,
 * or no key, keeps nothing.
 */
export async function keptUnits(
    fs: FsPort,
    root: string,
    namespace: string,
    scope:
        | { schemaFolder: string; schemaHash: string; tools: readonly string[] }
        | { namespaceUnits: readonly string[]; anchorFolder: string },
    inputsKey: string | null
): Promise<Map<string, KeptUnit>> {
    const nsDir = joinPath(root.replace(/\/+$/, ''), LAYOUT.providers, namespace)
    const kept = new Map<string, KeptUnit>()
    if (inputsKey === null) return kept
    const index = await readJsonObject(fs, joinPath(nsDir, LAYOUT.index))
    if (index === null) return kept
    const hints = statesByRef(await readJsonObject(fs, joinPath(nsDir, LAYOUT.state)))
    if ('namespaceUnits' in scope) {
        const skills = isObject(index.skills) ? index.skills : {}
        for (const unit of scope.namespaceUnits) {
            const node =
                unit === 'tools-aggregate-namespace'
                    ? index.namespaceAggregate
                    : unit === 'namespace-description'
                      ? index.description
                      : unit === 'about-namespace'
                        ? index.about
                        : unit.startsWith('namespace-skills/')
                          ? skills[`${scope.anchorFolder}.${unit.slice('namespace-skills/'.length)}`]
                          : undefined
            const found = keptFromNode(node, nsDir, hints, null, inputsKey)
            if (found !== null) kept.set(unit, found)
        }
        return kept
    }
    const schema = isObject(index.schemas) ? index.schemas[scope.schemaFolder] : undefined
    // Only the very content graded before: the newest snapshot and the entries are bound to this hash.
    if (!isObject(schema) || !isObject(schema.snapshot) || schema.snapshot.hash !== scope.schemaHash) return kept
    const tools = isObject(schema.tools) ? schema.tools : {}
    for (const tool of scope.tools) {
        const found = keptFromNode(tools[islandName(tool, 'tool') ?? tool], nsDir, hints, scope.schemaHash, inputsKey)
        if (found !== null) kept.set(`single-test/${tool}`, found)
    }
    const aggregate = keptFromNode(schema.toolsAggregate, nsDir, hints, scope.schemaHash, inputsKey)
    if (aggregate !== null) kept.set('tools-aggregate-schema', aggregate)
    return kept
}

/**
 * Marks every schema folder of the namespace's island that is not in the tree as removed: its `summary.json` gets
 * `removedAt` (the time the run saw it gone), everything else in it and in the folder stays (history, nothing deleted).
 * The index then leaves it out (docs/island.md, "Removed nodes"); a run that grades it again writes a summary without
 * the mark. Only a run that was given the whole tree may call this. Returns the folders marked now.
 */
export async function markRemovedSchemas(
    fs: FsPort,
    root: string,
    namespace: string,
    present: ReadonlySet<string>,
    now: string
): Promise<{ removed: string[]; errors: Issue[] }> {
    const base = root.replace(/\/+$/, '')
    const nsDir = joinPath(base, LAYOUT.providers, namespace)
    const listing = await listDir(fs, nsDir)
    if (!listing.ok) return { removed: [], errors: [listing.issue] }
    const folders = (listing.value ?? [])
        .filter((e) => e.kind === 'directory' && !e.name.startsWith('_') && !e.name.startsWith('.'))
        .map((e) => e.name)
        .filter((name) => !present.has(name))
        .sort()
    const removed: string[] = []
    const errors: Issue[] = []
    for (const folder of folders) {
        const path = joinPath(nsDir, folder, LAYOUT.summary)
        const previous = await readJsonObject(fs, path)
        if (previous !== null && typeof previous.removedAt === 'string') continue
        const marked = { ...(previous ?? { namespace, schema: folder }), removedAt: now }
        const written = await writeAtomic(fs, path, `${JSON.stringify(marked, null, 4)}\n`, {
            overwrite: true,
            journal: new Journal(base)
        })
        errors.push(...written)
        if (written.length === 0) removed.push(folder)
    }
    return { removed, errors }
}

/**
 * Writes the pretest's `summary.json` (03 ⚠ C13: blocked is derived from it at rebuild). A live run
 * always writes it; a run that sent nothing (offline) writes what is certain before any request —
 * key-gated, withheld, unbuildable tools — but never replaces a live summary of the same content.
 * Derived data like `index.json`: rewritten, never a secret in it.
 */
async function writePretestSummary(
    fs: FsPort,
    root: string,
    namespace: string,
    slug: string,
    schemaHash: string,
    pretest: PretestResult,
    runtime: GradeOptions['runtime'],
    tools: readonly string[],
    judgeCalls?: JudgeCallCount
): Promise<Issue[]> {
    const base = root.replace(/\/+$/, '')
    const path = joinPath(base, LAYOUT.providers, namespace, islandName(slug, 'schema') ?? slug, LAYOUT.summary)
    if (!pretest.ran) {
        const previous = await readJsonObject(fs, path)
        // A live summary of this content holds more than a plan: kept (an older file without `ran` was live), back in
        // the tree when it was marked removed.
        if (
            previous !== null &&
            previous.ran !== false &&
            (previous.schemaHash === undefined || previous.schemaHash === schemaHash)
        ) {
            if (previous.removedAt === undefined) return []
            const { removedAt: _removedAt, ...present } = previous
            return writeAtomic(fs, path, `${JSON.stringify(present, null, 4)}\n`, {
                overwrite: true,
                journal: new Journal(base)
            })
        }
    }
    const tests = testRecordsOf(pretest.results)
    const summary = {
        namespace,
        schema: slug,
        schemaHash,
        ran: pretest.ran,
        checkedAt: pretest.checkedAt,
        minWorkingTests: pretest.minWorkingTests,
        ok: pretest.ok,
        // The tools of this content (`main.tools`, as the schema names them): a tool folder of the island that is not
        // among them is history, no longer part of the schema's node (a renamed or removed tool).
        tools,
        // Which runtime ran the handler tools' tests (its version), when one did.
        ...(Object.values(pretest.tools).some((t) => t.viaRuntime) && runtime !== undefined
            ? {
                  runtime: {
                      version: typeof runtime.version === 'string' ? runtime.version : null,
                      ...(typeof runtime.isolation === 'string' ? { isolation: runtime.isolation } : {})
                  }
              }
            : {}),
        // Per tool, each test's truth (PretestTestRecord without its tool): its requests (keys masked), status and
        // verdict.
        perTool: Object.fromEntries(
            Object.entries(pretest.tools).map(([tool, t]) => [
                tool,
                {
                    working: t.working,
                    total: t.total,
                    bar: t.bar,
                    class: t.class,
                    blocked: t.blocked,
                    reason: t.reason,
                    detail: t.detail,
                    missingServerParams: t.missingServerParams,
                    ...(t.viaRuntime ? { viaRuntime: true } : {}),
                    tests: tests.filter((r) => r.tool === tool).map(({ tool: _tool, ...rest }) => rest)
                }
            ])
        ),
        // What the judge cost this run: the calls sent (first asks, repair turns, retries), its usage and the estimate.
        ...(judgeCalls !== undefined && judgeCalls.calls > 0 ? { judge: judgeSummaryOf(judgeCalls) } : {})
    }
    return writeAtomic(fs, path, `${JSON.stringify(summary, null, 4)}\n`, {
        overwrite: true,
        journal: new Journal(base)
    })
}

/** One unit's line in `state.json` (04 ⚠ D8): where it stands, and what the judge advised. */
interface StateArea {
    readonly area: string
    readonly target: Readonly<Record<string, string>>
    readonly unit: string
    readonly status: string
    readonly iteration: number | null
    readonly improvementHints: readonly ImprovementHint[]
    readonly lastGradingRef: string | null
    /** A provisional unit's grade from deterministic answers alone (never a headline). */
    readonly provisionalGrade?: string | null
    readonly reason?: string
    /** The inputs key the entry at `lastGradingRef` was computed from (inputs-key.ts): what a later run reuses it by. */
    readonly inputsKey?: string
}

/** The inputs keys of a run's units: the schema's own units, and the namespace's. */
export interface UnitKeys {
    readonly schema: string | null
    readonly namespace: string | null
}

/** The inputs key a unit's entry was computed from: its namespace's for a namespace area, else its schema's. */
export function unitInputsKey(area: string, keys: UnitKeys | undefined): string | null {
    if (keys === undefined) return null
    return (NAMESPACE_AREAS as readonly string[]).includes(area) ? keys.namespace : keys.schema
}

/**
 * Merges this run's units into `providers/<ns>/state.json` (04 ⚠ D8): `{ target, areas, done, total }`,
 * one line per unit target, the judge's improvement hints and iteration beside the entry they came
 * with (`lastGradingRef`, relative to the namespace folder). Units this run did not grade keep their
 * line. Written atomically; an unreadable state is replaced, never half-written.
 */
export async function writeUnitState(
    fs: FsPort,
    root: string,
    namespace: string,
    units: readonly UnitResult[],
    entries: ReadonlyArray<{ plan: UnitPlan; sidecar?: AreaSidecar }>,
    findings?: {
        readonly schema: string
        readonly items: ReadonlyArray<{ code: string; pointer: string; severity: string; message: string }>
    },
    keys?: UnitKeys
): Promise<Issue[]> {
    const base = root.replace(/\/+$/, '')
    const nsDir = joinPath(base, LAYOUT.providers, namespace)
    const path = joinPath(nsDir, LAYOUT.state)
    const previous = await readJsonObject(fs, path)
    const key = (a: { area: string; target: Readonly<Record<string, string>> }): string =>
        `${a.area}|${JSON.stringify(Object.entries(a.target).sort())}`
    const areas = new Map<string, StateArea>()
    for (const item of Array.isArray(previous?.areas) ? previous.areas : []) {
        if (isObject(item) && typeof item.area === 'string' && isObject(item.target))
            areas.set(key(item as unknown as StateArea), item as unknown as StateArea)
    }
    const sidecars = new Map(entries.map((e) => [e.plan.unit, e.sidecar]))
    let changed = false
    for (const unit of units) {
        const sidecar = sidecars.get(unit.unit)
        // Kept units leave their line as it is; an open prompt never replaces what a judge said before.
        if (unit.kept === true || unit.status === UNIT_STATUS.skipped) continue
        const before = areas.get(key(unit))
        if (
            unit.status === UNIT_STATUS.provisional &&
            before !== undefined &&
            before.status !== UNIT_STATUS.provisional
        )
            continue
        const ref = unit.written?.startsWith(`${nsDir}/`) ? unit.written.slice(nsDir.length + 1) : null
        const inputsKey = ref !== null ? unitInputsKey(unit.area, keys) : null
        const line: StateArea = {
            area: unit.area,
            target: unit.target,
            unit: unit.unit,
            status: unit.status,
            iteration: sidecar?.iteration ?? null,
            improvementHints: sidecar?.improvementHints ?? [],
            lastGradingRef: ref,
            ...(unit.status === UNIT_STATUS.provisional ? { provisionalGrade: unit.aggregateGrade } : {}),
            ...(unit.reason !== null ? { reason: unit.reason } : {}),
            ...(inputsKey !== null ? { inputsKey } : {})
        }
        areas.set(key(line), line)
        changed = true
    }
    // The schema's findings of this run, so a later check can tell a new error from a known one.
    const knownFindings = isObject(previous?.findings) ? { ...(previous.findings as Obj) } : {}
    if (findings !== undefined) {
        knownFindings[findings.schema] = findings.items.map((f) => ({
            code: f.code,
            pointer: f.pointer,
            severity: f.severity,
            message: f.message
        }))
        changed = true
    }
    if (!changed) return []
    const list = [...areas.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, v]) => v)
    // Done: graded, or known not to be gradable now (blocked, gated, rejected), as D8 counts progress.
    // Fields another writer keeps here (the emit baton: taskId, phases, …) stay as they are.
    const state = {
        ...(previous ?? {}),
        target: previous?.target ?? { namespace },
        areas: list,
        ...(Object.keys(knownFindings).length > 0 ? { findings: knownFindings } : {}),
        done: list.filter((a) => a.status !== UNIT_STATUS.error && a.status !== UNIT_STATUS.provisional).length,
        total: list.length
    }
    return writeAtomic(fs, path, `${JSON.stringify(state, null, 4)}\n`, { overwrite: true, journal: new Journal(base) })
}

/** The provider's files as the island imports them: the schema, its About (under its declared name) and its skills. */
function providerFilesOf(args: {
    namespace: string
    slug: string
    schemaText: string
    main: Obj
    options: GradeOptions
}): Parameters<typeof importProvider>[0]['files'] {
    const { namespace, slug, schemaText, main, options } = args
    const aboutName =
        isObject(main.resources) && isObject(main.resources.about) && typeof main.resources.about.name === 'string'
            ? main.resources.about.name
            : `${namespace}-about.md`
    return [
        { name: `${slug}.mjs`, text: schemaText, main },
        ...(options.about !== undefined ? [{ name: `resources/${aboutName}`, text: options.about.text }] : []),
        ...(options.skills ?? []).map((s) => ({
            name: `skills/${s.name}.mjs`,
            text: s.text,
            ...definedFields({ skill: s.skill })
        }))
    ]
}

/**
 * A unit whose entry did not reach the island is not graded there: an error with the island's reason, never a grade
 * the index does not hold (a check then says the run could not verify it).
 */
export function markNotWritten(units: UnitResult[], unit: string, issues: readonly Issue[]): void {
    const at = units.findIndex((u) => u.unit === unit)
    if (at < 0) return
    const first = issues.find((e) => e.severity === SEVERITY.error) ?? issues[0]
    units[at] = {
        ...(units[at] as UnitResult),
        status: UNIT_STATUS.error,
        aggregateGrade: null,
        rawGrade: null,
        normalizedScore: null,
        written: null,
        reason: `not written into the island: ${first !== undefined ? `${first.code} ${first.message}` : 'the write failed'}`
    }
}

/** Each planned entry into the island, secrets redacted: a unit written gets its path, a failed one GRA-016 and why. */
async function writeEntries(args: {
    fs: FsPort
    root: string
    now: string
    entries: readonly PlannedEntry[]
    units: UnitResult[]
    errors: Issue[]
    secrets: readonly string[]
}): Promise<void> {
    const { fs, root, now, entries, units, errors, secrets } = args
    for (const { plan, entry } of entries) {
        const result = await writeGrading({
            fs,
            root,
            target: plan.target,
            entry: redactSecretsDeep(entry, secrets),
            now
        })
        const at = units.findIndex((u) => u.unit === plan.unit)
        if (!result.status) {
            errors.push(
                createIssue('GRA-016', '', { unit: plan.unit, detail: result.errors.map((e) => e.code).join(', ') }),
                ...result.errors
            )
            markNotWritten(units, plan.unit, result.errors)
            continue
        }
        if (at >= 0) units[at] = { ...(units[at] as UnitResult), written: result.path }
    }
}

/** Where the island's namespace index is, the standing it gives the namespace, and this schema's node in it. */
interface IslandStanding {
    readonly indexPath: string | null
    readonly rollupStatus: RollupStatus | null
    readonly rollupGrade: string | null
    readonly schemaNode: unknown
}

/** Stage "roll up": the namespace index rebuilt, then the standing it gives the namespace and this schema's node. */
async function rollUp(
    fs: FsPort,
    root: string,
    namespace: string,
    slug: string,
    now: string,
    errors: Issue[]
): Promise<IslandStanding> {
    const rebuilt = await RebuildIndex.rebuildNamespaceIndex({
        fs,
        namespaceDir: joinPath(root.replace(/\/+$/, ''), LAYOUT.providers, namespace),
        now
    })
    errors.push(...rebuilt.errors.filter((e) => e.severity === SEVERITY.error))
    const index = rebuilt.index as { status?: unknown; grade?: unknown } | null
    const schemaNode = schemaNodeOf(index, islandName(slug, 'schema') ?? slug)
    return {
        indexPath: rebuilt.indexPath,
        rollupStatus: (ROLLUP_STATUSES as readonly unknown[]).includes(index?.status)
            ? (index?.status as RollupStatus)
            : null,
        rollupGrade: typeof index?.grade === 'string' ? index.grade : null,
        schemaNode
    }
}

/**
 * When the entries of a run are filed: `now`, or the newest snapshot the import just wrote when that one was moved past
 * `now` (a second run in the same second, a fixed `--now`): an entry filed before the snapshot it grades would read as
 * outdated (03 §6.1 rule 4).
 */
function entriesTime(now: string, imported: Awaited<ReturnType<typeof importProvider>>): string {
    const files = [
        ...imported.imported.map((i) => i.file),
        ...(imported.about !== null ? [imported.about.file] : []),
        ...imported.skills.map((s) => s.file)
    ]
    const stamp = toFileTimestamp(now)
    let newest: string | null = null
    for (const file of files) {
        const ts = parseSnapshotFilename(file)?.timestamp
        if (ts !== undefined && stamp !== null && ts > stamp && (newest === null || ts > newest)) newest = ts
    }
    return newest !== null ? (fromFileTimestamp(newest) ?? now) : now
}

/** Stage "write": the provider's files, pretest summary, entries and unit state into the island, then the roll-up. */
export async function writeIsland(args: {
    fs: FsPort
    root: string
    now: string
    namespace: string
    slug: string
    schemaHash: string
    schemaText: string
    main: Obj
    options: GradeOptions
    pretest: PretestResult
    entries: readonly PlannedEntry[]
    units: UnitResult[]
    errors: Issue[]
    secrets: readonly string[]
    judgeCalls?: JudgeCallCount
    keys?: UnitKeys
}): Promise<IslandStanding> {
    const { fs, root, now, namespace, slug, schemaHash, options, pretest, entries, units, errors, secrets } = args
    // Grading a source is the explicit decision 03 ⚠ C12 asks for: an edit that keeps the schema hash (a comment, a
    // handler) becomes a new snapshot beside the old one (nothing overwritten), and the entries bound to the old
    // bytes become outdated.
    const imported = await importProvider({
        fs,
        root,
        now,
        files: providerFilesOf(args),
        secrets,
        sameHashEdit: 'new-snapshot'
    })
    errors.push(...imported.errors)
    if (!imported.status) {
        // Nothing of this run reached the island: every unit it graded says so (GRA-016), none keeps a grade.
        for (const { plan } of args.entries) {
            errors.push(
                createIssue('GRA-016', '', {
                    unit: plan.unit,
                    detail: imported.errors
                        .filter((e) => e.severity === SEVERITY.error)
                        .map((e) => e.code)
                        .join(', ')
                })
            )
            markNotWritten(units, plan.unit, imported.errors)
        }
        return { indexPath: null, rollupStatus: null, rollupGrade: null, schemaNode: undefined }
    }
    const summaryWrite = await writePretestSummary(
        fs,
        root,
        namespace,
        slug,
        schemaHash,
        pretest,
        options.runtime,
        Object.keys(isObject(args.main.tools) ? args.main.tools : {}),
        args.judgeCalls
    )
    errors.push(...summaryWrite)
    await writeEntries({ fs, root, now: entriesTime(now, imported), entries, units, errors, secrets })
    // The schema's own findings (structure, spec-strict, security), notes too: what a check compares with a
    // baseline, under the rules of its own config (a note raised to an error by a rule is not new).
    const findings = errors
        .filter((e) => e.path.startsWith('/schema/main'))
        .map((e) => ({
            code: e.code,
            pointer: e.path.slice('/schema/main'.length),
            severity: e.severity,
            message: e.message
        }))
    errors.push(
        ...(await writeUnitState(
            fs,
            root,
            namespace,
            units,
            entries,
            {
                schema: islandName(slug, 'schema') ?? slug,
                items: findings
            },
            args.keys
        ))
    )
    return rollUp(fs, root, namespace, slug, now, errors)
}
