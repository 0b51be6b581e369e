import { EXTRA_QUESTION_TEXTS } from '../deterministic/answers.js'
import { NODE_STATUS, SEVERITY, UNIT_STATUS } from '../model/constants.js'
import type { ErrorCode } from '../errors/catalogue/index.js'
import * as v from 'valibot'
import { createIssue, type IssueParams } from '../errors/issue.js'
import { parseArgs, says } from '../validation/args.js'
import { Areas } from '../areas/areas.js'
import type { Issue, IssueLike } from '../errors/types.js'
import { computeAggregateGrade } from '../grading/grading.js'
import { sha256Base64 } from '../hashing/base64.js'
import type { FsPort } from '../ports/types.js'
import { AGGREGATE_GRADES, aggregateRank, bandOf, type AggregateGrade } from '../model/grades.js'
import { parseJsonText } from '../json/guard.js'
import {
    collapseFixItems,
    countFixItems,
    countsLine,
    FixList as FixListUnguarded,
    type FixListLine
} from '../fix/fix-list.js'
import { FixRules } from '../fix/rules.js'
import { FIX_ITEMS_SHOWN, type FixItem } from '../fix/types.js'
import type { UnitResult } from '../grade/types.js'
import type { GradingEntry } from '../model/types.js'
import { originalName } from '../store/paths.js'
import { compareStandings, standingOfSchemaNode, standingRank, type SchemaStanding } from '../rollup/standing.js'
import { CAP_NOTE, gradeScoreText, isLetter } from './score.js'
import { asObject } from '../model/object.js'
import { baselineOfIndexes, readBaseline, visibleFolders, type BaselineSchemas } from './baseline.js'
import { REPORT_SCRIPT } from './html-script.js'
import { REPORT_STYLE } from './html-style.js'

/** All a report reads through: a host serving islands read-only implements just these two. */
export type ReportFsPort = Pick<FsPort, 'readFile' | 'readdir'>

export interface IslandReportInput {
    readonly fs: ReportFsPort
    /** The island root (holding `providers/` and, optionally, `selections/`). */
    readonly root: string
    /** The page title; `flowmcp-grading report` when omitted. */
    readonly title?: string
    /** Stop reading grading entries after this many (a huge tree still renders, without the later traces). */
    readonly maxEntries?: number
    /**
     * An earlier state to compare with: another island (`{ fs, root }`, or one `index.json` as `root`),
     * or its parsed `index.json` files by namespace (`{ index }`), read as `check --baseline` reads it
     * (`readBaseline`). The overview lists the schemas graded worse since.
     */
    readonly baseline?:
        | { readonly fs: ReportFsPort; readonly root: string }
        | { readonly index: Readonly<Record<string, unknown>> }
    /** A config's rules (`{ "<code>": "off" | "warning" | "error" }`) applied to each fix list shown. */
    readonly rules?: Readonly<Record<string, unknown>>
}

export interface IslandReport {
    /** One self-contained page: inline CSS and script, no network, readable without script. */
    readonly html: string
    readonly namespaces: number
    readonly selections: number
    /**
     * RPT-001 (no providers folder), RPT-002 (an unreadable index), RPT-003 (an unreadable entry), RPT-004 (a missing
     * baseline).
     */
    readonly errors: Issue[]
}

/** The parts of an index node the page shows; everything else of index.json is ignored. */
interface NodeLike {
    status?: unknown
    grade?: unknown
    normalizedScore?: unknown
    reason?: unknown
    ref?: unknown
    veto?: { triggeredBy?: unknown; gradingId?: unknown }
}

const DEFAULT_MAX_ENTRIES = 5000

/** Escapes text for HTML content and double-quoted attributes: schema text is untrusted. */
export function escapeHtml(value: unknown): string {
    const text =
        typeof value === 'string'
            ? value
            : value === undefined || value === null
              ? ''
              : typeof value === 'object'
                ? JSON.stringify(value)
                : String(value)
    return text.replace(
        /[&<>"']/g,
        (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string
    )
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const obj = asObject
const issue = (code: ErrorCode, params: IssueParams): Issue => createIssue(code, '', params)

/** A `ref` from index.json stays inside the folder it is relative to: no `..`, no absolute path. */
function safeRef(ref: unknown): string | null {
    if (typeof ref !== 'string' || ref.length === 0 || ref.length > 1000) return null
    if (ref.startsWith('/') || ref.includes('\\') || ref.includes('\u0000')) return null
    return ref.split('/').some((part) => part === '' || part === '.' || part === '..') ? null : ref
}

function statusClass(status: unknown): string {
    switch (status) {
        case 'stable':
        case 'graded':
        case 'operational':
            return 'ok'
        case 'partial':
        case 'blocked':
        case 'pending':
            return 'warn'
        case 'rejected':
        case 'unreadable':
            return 'bad'
        default:
            return 'none'
    }
}

const badge = (status: unknown): string =>
    `<span class="st ${statusClass(status)}">${escapeHtml(str(status) ?? '—')}</span>`
/** A grade as a coloured pill (a class per band: the CSP blocks inline styles); a dash when there is none. */
const gradeCell = (grade: unknown): string => {
    const inner = str(grade) !== undefined ? `<span class="pill ${gradeClass(grade)}">${escapeHtml(grade)}</span>` : '—'
    return `<span class="gr">${inner}</span>`
}

/**
 * A schema's grade with the score it comes from, as every surface prints it (`B 4.62 (raw A)`, `gradeScoreText` over
 * the standing read from its index node); the bare grade cell when it has no grade.
 */
const scoredGradeCell = (standing: SchemaStanding, fallback: unknown): string =>
    standing.grade === null
        ? gradeCell(fallback)
        : `<span class="gr"><span class="pill ${gradeClass(standing.grade)}">${escapeHtml(gradeScoreText(standing))}</span></span>`

/** Reads index.json files and grading entries through the port, never throwing. */
class Reader {
    entriesRead = 0
    constructor(
        readonly fs: ReportFsPort,
        readonly maxEntries: number,
        readonly errors: Issue[],
        readonly rules?: unknown
    ) {}

    dirs(path: string): Promise<string[] | null> {
        return visibleFolders(this.fs, path)
    }

    // Each file is read once: the fix list and the node traces open the same entries.
    private readonly files = new Map<string, Promise<{ value: unknown } | { problem: string }>>()

    json(path: string): Promise<{ value: unknown } | { problem: string }> {
        let read = this.files.get(path)
        if (read === undefined) {
            read = this.readJson(path)
            this.files.set(path, read)
        }
        return read
    }

    private async readJson(path: string): Promise<{ value: unknown } | { problem: string }> {
        let text: string | null
        try {
            text = await this.fs.readFile(path)
        } catch (cause) {
            return { problem: cause instanceof Error ? cause.message : 'the file could not be read' }
        }
        if (text === null) return { problem: 'no such file' }
        const parsed = parseJsonText(text)
        return parsed.errors.length > 0 ? { problem: parsed.errors[0]?.message ?? 'not JSON' } : { value: parsed.value }
    }

    /** The entry behind a node, rendered as its trace; a note when it cannot be shown. */
    async trace(base: string, node: NodeLike, label: string): Promise<string> {
        const ref = safeRef(node.ref)
        if (node.ref === undefined) return '<p class="note">No grading entry behind this node.</p>'
        if (ref === null)
            return `<p class="note">The ref ${escapeHtml(node.ref)} is not a relative path inside the island; not read.</p>`
        if (this.entriesRead >= this.maxEntries)
            return `<p class="note">Entry ${escapeHtml(ref)} not read: the report reads at most ${this.maxEntries} entries.</p>`
        this.entriesRead++
        const read = await this.json(`${base}/${ref}`)
        if ('problem' in read) {
            this.errors.push(issue('RPT-003', { path: `${base}/${ref}`, node: label, detail: read.problem }))
            return `<p class="note">Entry ${escapeHtml(ref)} could not be read: ${escapeHtml(read.problem)}</p>`
        }
        return renderEntry(ref, obj(read.value))
    }
}

/** Question texts by area and id, from the area catalogue (`Areas.questions`), built on first use. */
let catalogue: ReadonlyMap<string, ReadonlyMap<string, string>> | null = null

/** The text of a question: from the entry's own area, else any area of the catalogue, else an added check. */
function questionText(id: unknown, area: unknown): string | undefined {
    if (typeof id !== 'string') return undefined
    catalogue ??= new Map(
        Areas.list().areas.map((a) => [
            a.id as string,
            new Map(Areas.questions({ area: a.id }).questions.map((q) => [q.id, q.question]))
        ])
    )
    const own = typeof area === 'string' ? catalogue.get(area)?.get(id) : undefined
    if (own !== undefined) return own
    for (const questions of catalogue.values()) {
        const text = questions.get(id)
        if (text !== undefined) return text
    }
    // The extra questions are worded once (deterministic/answers.ts); the page marks them as this grader's own.
    return Object.hasOwn(EXTRA_QUESTION_TEXTS, id)
        ? `${EXTRA_QUESTION_TEXTS[id]} (a check this grader adds to the catalogue)`
        : undefined
}

function renderEntry(ref: string, entry: Record<string, unknown>): string {
    const veto = obj(entry.categoricalVeto)
    const fields: Array<[string, unknown]> = [
        ['entry', ref],
        ['gradingId', entry.gradingId],
        ['area', entry.area],
        ['gradingMode', entry.gradingMode],
        ['gradingTier', entry.gradingTier],
        ['aggregateGrade', entry.aggregateGrade],
        ['maxAttainableGrade', entry.maxAttainableGrade],
        ['schemaHash', entry.schemaHash],
        ['scoringSystem', entry.scoringSystem],
        ['gradingSystem', entry.gradingSystem],
        ...(entry.categoricalVeto !== null && entry.categoricalVeto !== undefined
            ? ([['veto', `${str(veto.triggeredBy) ?? '?'}: ${str(veto.evidence) ?? ''}`]] as Array<[string, unknown]>)
            : [])
    ]
    const gradings = Array.isArray(entry.gradings) ? entry.gradings.map(obj) : []
    const rows = gradings
        .map((g) => {
            const who = obj(g.graderIdentity)
            const why =
                str(g.reasoning) ?? (g.evidence !== undefined ? JSON.stringify(g.evidence) : (str(g.naReason) ?? ''))
            const text = questionText(g.questionId, entry.area)
            return `<tr><td class="q"><code>${escapeHtml(g.questionId)}</code>${text !== undefined ? `<span class="qtext">${escapeHtml(text)}</span>` : ''}</td><td>${escapeHtml(g.score)}</td><td>${escapeHtml(g.weight)}</td><td>${escapeHtml(g.determinism)}</td><td>${escapeHtml(`${str(who.kind) ?? ''} ${str(who.name) ?? ''}`.trim())}${g.llmModel !== undefined ? ` · ${escapeHtml(g.llmModel)}` : ''}</td><td class="why">${escapeHtml(why)}</td></tr>`
        })
        .join('')
    // The grade recomputed from the answers, step by step: the reader can follow it by hand.
    const aggregate = computeAggregateGrade({ entry })
    const score = aggregate.normalizedScore
    const mean = score !== null ? ` (mean ${escapeHtml(Math.round(score * 1000) / 1000)})` : ''
    const steps = aggregate.trace
        .map((s) => {
            const { step, ...rest } = s as { step: string } & Record<string, unknown>
            return `<li><b>${escapeHtml(step)}</b> ${escapeHtml(
                Object.entries(rest)
                    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
                    .join(' ')
            )}</li>`
        })
        .join('')
    return [
        '<div class="trace">',
        `<dl>${fields
            .filter(([, v]) => v !== undefined && v !== null)
            .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
            .join('')}</dl>`,
        gradings.length > 0
            ? `<table class="answers"><thead><tr><th>question</th><th>score</th><th>weight</th><th>determinism</th><th>grader</th><th>reasoning / evidence</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<p class="note">The entry holds no answers.</p>',
        `<p class="recompute">Recomputed: <b>${escapeHtml(aggregate.aggregateGrade ?? 'no grade')}</b>${mean}</p>`,
        steps.length > 0 ? `<ol class="steps">${steps}</ol>` : '',
        '</div>'
    ].join('')
}

/** One node (a tool, an aggregate, the About …) as a row that opens to the entry behind it. */
async function nodeRow(
    reader: Reader,
    base: string,
    name: string,
    node: NodeLike,
    label: string,
    state: UnitState = EMPTY_STATE
): Promise<string> {
    const veto = node.veto !== undefined ? ` <span class="veto">veto: ${escapeHtml(node.veto.triggeredBy)}</span>` : ''
    const reason = str(node.reason) !== undefined ? `<p class="reason">${escapeHtml(node.reason)}</p>` : ''
    const ref = str(node.ref) !== undefined ? `<p class="ref">ref <code>${escapeHtml(node.ref)}</code></p>` : ''
    const hints = str(node.ref) !== undefined ? (state.hints.get(node.ref as string) ?? []) : []
    const hintItem = (h: (typeof hints)[number]): string =>
        `<li><b>${escapeHtml(h.priority)}</b> <code>${escapeHtml(h.targetField)}</code> ${escapeHtml(h.suggestion)}</li>`
    const advice =
        hints.length > 0 ? `<h4>Improvement hints</h4><ul class="hints">${hints.map(hintItem).join('')}</ul>` : ''
    return `<details class="node"><summary><span class="name">${escapeHtml(name)}</span>${badge(node.status)}${gradeCell(node.grade)}${veto}</summary>${reason}${ref}${advice}${await reader.trace(base, node, label)}</details>`
}

/** What a namespace's `state.json` adds to its index: the judge's hints per entry, and the units still provisional. */
interface UnitState {
    readonly hints: ReadonlyMap<string, ReadonlyArray<{ targetField: unknown; suggestion: unknown; priority: unknown }>>
    readonly provisional: ReadonlyArray<{ unit: string; grade: string | null; schema: string | null }>
    /** Its unit lines and the findings of each schema, as the run that graded them wrote them (for the fix list). */
    readonly areas: ReadonlyArray<Record<string, unknown>>
    readonly findings: Readonly<Record<string, unknown>>
}

const EMPTY_STATE: UnitState = { hints: new Map(), provisional: [], areas: [], findings: {} }

/** Reads `state.json` beside an index; a missing or unreadable one adds nothing (it is advice, not a grade). */
async function readUnitState(reader: Reader, base: string): Promise<UnitState> {
    const read = await reader.json(`${base}/state.json`)
    if ('problem' in read) return EMPTY_STATE
    const areas = Array.isArray(obj(read.value).areas) ? (obj(read.value).areas as unknown[]).map(obj) : []
    const hints = new Map<string, Array<{ targetField: unknown; suggestion: unknown; priority: unknown }>>()
    for (const a of areas)
        if (str(a.lastGradingRef) !== undefined && Array.isArray(a.improvementHints) && a.improvementHints.length > 0)
            hints.set(
                a.lastGradingRef as string,
                a.improvementHints
                    .map(obj)
                    .map((h) => ({ targetField: h.targetField, suggestion: h.suggestion, priority: h.priority }))
            )
    const provisional = areas
        .filter((a) => a.status === UNIT_STATUS.provisional)
        .map((a) => ({
            unit: str(a.unit) ?? '?',
            grade: str(a.provisionalGrade) ?? null,
            schema: str(obj(a.target).schema) ?? null
        }))
    return { hints, provisional, areas, findings: obj(obj(read.value).findings) }
}

/**
 * A schema's fix list from what its island holds: the findings and unit lines of `state.json`, and the
 * entries they name — the same items, in the same order, as the CLI prints for that run.
 */
async function fixItemsOf(
    reader: Reader,
    base: string,
    namespace: string,
    schemaName: string,
    state: UnitState
): Promise<FixItem[]> {
    const lines = state.areas.filter(
        (a) => obj(a.target).schema === schemaName && typeof a.unit === 'string' && typeof a.area === 'string'
    )
    const units: UnitResult[] = lines.map((a) => ({
        unit: a.unit as string,
        area: a.area as UnitResult['area'],
        target: obj(a.target) as Record<string, string>,
        status: (typeof a.status === 'string' ? a.status : UNIT_STATUS.graded) as UnitResult['status'],
        aggregateGrade: null,
        rawGrade: null,
        normalizedScore: null,
        reason: str(a.reason) ?? null,
        written: str(a.lastGradingRef) ?? null,
        ...(Array.isArray(a.improvementHints) && a.improvementHints.length > 0
            ? { improvementHints: a.improvementHints as NonNullable<UnitResult['improvementHints']> }
            : {})
    }))
    const entries: Array<{ unit: string; entry: GradingEntry }> = []
    for (const u of units) {
        const ref = safeRef(u.written)
        if (u.status !== UNIT_STATUS.graded || ref === null) continue
        const read = await reader.json(`${base}/${ref}`)
        if (!('problem' in read)) entries.push({ unit: u.unit, entry: read.value as GradingEntry })
    }
    const findings = Array.isArray(state.findings[schemaName]) ? (state.findings[schemaName] as unknown[]).map(obj) : []
    const errors: IssueLike[] = findings.map((f) => ({
        code: str(f.code) ?? '?',
        severity: (f.severity === SEVERITY.error
            ? 'error'
            : f.severity === SEVERITY.info
              ? 'info'
              : 'warning') as Issue['severity'],
        message: str(f.message) ?? '',
        path: `/schema/main${str(f.pointer) ?? ''}`
    }))
    const items = FixListUnguarded.build({
        schemaId: `${namespace}.${originalName(schemaName) ?? schemaName}`,
        file: null,
        errors,
        units,
        entries
    }).items
    // The config's rules: a rule turned off leaves the report's fix list too (never a grade).
    return FixRules.apply({ items, rules: reader.rules }).items
}

/** One collapsed line of "What to fix": its code, the tools it is about, where, and the whole message. */
function fixLineHtml(line: FixListLine): string {
    const pill = line.severity === SEVERITY.error ? 'bad' : line.severity === SEVERITY.warning ? 'warn' : 'none'
    const toolText = line.tools.length === 1 ? `tool ${line.tools[0] as string}` : `tools ${line.tools.join(', ')}`
    const tools = line.tools.length === 0 ? '' : ` <b>${escapeHtml(toolText)}</b>`
    const first = line.items[0]
    const where = first === undefined || first.pointer === '' ? '(schema)' : first.pointer
    const kind = line.kind === 'hint' ? ' <span class="hint">hint</span>' : ''
    return `<li><span class="pill ${pill}">${escapeHtml(line.code)}</span>${kind}${tools} <code>${escapeHtml(where)}</code> ${escapeHtml(line.message)}</li>`
}

/**
 * The "What to fix" list of a schema, as the CLI prints it: the same message across tools said once
 * (listing them), counts per severity, the costliest few lines open and the rest folded.
 */
function fixSection(items: readonly FixItem[]): string {
    if (items.length === 0) return ''
    const lines = collapseFixItems(items).sort((a, b) => b.cost - a.cost)
    const open = lines.slice(0, FIX_ITEMS_SHOWN)
    const folded = lines.slice(FIX_ITEMS_SHOWN)
    const more =
        folded.length === 0
            ? ''
            : `<details class="fixmore"><summary>${folded.length} more line${folded.length === 1 ? '' : 's'}, costing less</summary><ol class="fixes" start="${open.length + 1}">${folded.map(fixLineHtml).join('')}</ol></details>`
    return `<h4>What to fix</h4><p class="fixcount">${escapeHtml(countsLine(countFixItems(items)))}</p><ol class="fixes">${open.map(fixLineHtml).join('')}</ol>${more}`
}

interface NamespaceView {
    readonly name: string
    readonly id: string
    readonly status: string
    /** Units of the namespace wait for non-deterministic answers (its `state.json`). */
    readonly provisional: boolean
    readonly grade: string | undefined
    readonly schemas: number
    readonly tools: number
    readonly blockers: number
    readonly vetoes: number
    readonly html: string
    /** The parsed index (null when unreadable), for the overview. */
    readonly index: Record<string, unknown> | null
    readonly schemaRows: readonly SchemaRow[]
}

/** One schema as the overview and the all-schemas table see it. */
interface SchemaRow {
    readonly namespace: string
    readonly nsId: string
    readonly schema: string
    readonly id: string
    readonly status: string
    /** Units of the schema wait for non-deterministic answers (the namespace's `state.json`). */
    readonly provisional: boolean
    readonly grade: string | undefined
    /** The schema's standing, read from its index node as every surface reads it. */
    readonly standing: SchemaStanding
    readonly tools: number
    readonly blockers: number
    /** What the judge cost the schema's last run (its `summary.json` `judge`), when it was asked. */
    readonly judge: JudgeCost | null
}

/** A `summary.json` `judge` as the report reads it: the calls, the usage reported and the estimate. */
interface JudgeCost {
    readonly calls: number
    readonly firstAsks: number
    readonly repairs: number
    readonly retries: number
    readonly usage: { readonly input: number; readonly cached: number; readonly output: number; readonly calls: number }
    readonly estimated: { readonly input: number; readonly output: number }
}

/** The `judge` of a schema's `summary.json`, read field by field (a missing number is 0); null when absent. */
async function judgeCostOf(reader: Reader, base: string, schemaName: string): Promise<JudgeCost | null> {
    const read = await reader.json(`${base}/${schemaName}/summary.json`)
    if ('problem' in read) return null
    const judge = obj(obj(read.value).judge)
    const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0)
    if (n(judge.calls) === 0) return null
    const usage = obj(judge.usage)
    const estimated = obj(judge.estimated)
    return {
        calls: n(judge.calls),
        firstAsks: n(judge.firstAsks),
        repairs: n(judge.repairCalls),
        retries: n(judge.retries),
        usage: {
            input: n(usage.inputTokens),
            cached: n(usage.cachedInputTokens),
            output: n(usage.outputTokens),
            calls: n(usage.reportedCalls)
        },
        estimated: { input: n(estimated.inputTokens), output: n(estimated.outputTokens) }
    }
}

/** Judge costs added up (the island's total). */
function addJudgeCosts(costs: ReadonlyArray<JudgeCost | null>): JudgeCost | null {
    const present = costs.filter((c): c is JudgeCost => c !== null)
    if (present.length === 0) return null
    const sum = (pick: (c: JudgeCost) => number): number => present.reduce((t, c) => t + pick(c), 0)
    return {
        calls: sum((c) => c.calls),
        firstAsks: sum((c) => c.firstAsks),
        repairs: sum((c) => c.repairs),
        retries: sum((c) => c.retries),
        usage: {
            input: sum((c) => c.usage.input),
            cached: sum((c) => c.usage.cached),
            output: sum((c) => c.usage.output),
            calls: sum((c) => c.usage.calls)
        },
        estimated: { input: sum((c) => c.estimated.input), output: sum((c) => c.estimated.output) }
    }
}

/** One line of what the judge cost: the calls by kind, the tokens it reported, the estimate beside them. */
function judgeCostLine(cost: JudgeCost, what: string): string {
    // Thousands separated by hand: the same bytes on every platform, with or without Intl.
    const f = (v: number): string => String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
    const reported =
        cost.usage.calls > 0
            ? `reported ${f(cost.usage.input)} input tokens (${f(cost.usage.cached)} cached) and ${f(cost.usage.output)} output tokens for ${f(cost.usage.calls)} of them`
            : 'no usage reported'
    return `<p class="meta">${escapeHtml(what)}: ${f(cost.calls)} judge calls (${f(cost.firstAsks)} first asks, ${f(cost.repairs)} repair turns, ${f(cost.retries)} retries) · ${reported} · estimated ${f(cost.estimated.input)} input and ${f(cost.estimated.output)} output tokens</p>`
}

/** The view of a namespace whose index.json cannot be read (RPT-002): it says how to rebuild it. */
function unreadableNamespace(reader: Reader, base: string, name: string, id: string, problem: string): NamespaceView {
    reader.errors.push(issue('RPT-002', { path: `${base}/index.json`, detail: problem }))
    const html = `<section id="${id}" class="ns"><h2>${escapeHtml(name)} ${badge('unreadable')}</h2><p class="note">index.json could not be read: ${escapeHtml(problem)}. Run <code>flowmcp-grading rebuild-index</code> on the folder.</p></section>`
    return {
        name,
        id,
        status: 'unreadable',
        provisional: false,
        grade: undefined,
        schemas: 0,
        tools: 0,
        blockers: 0,
        vetoes: 0,
        html,
        index: null,
        schemaRows: []
    }
}

/** What a namespace knows while its schemas are rendered. */
interface NamespaceContext {
    readonly reader: Reader
    readonly base: string
    readonly name: string
    readonly id: string
    readonly state: UnitState
    readonly blockers: ReadonlyArray<Record<string, unknown>>
    readonly provisionalSchemas: ReadonlySet<string | null>
}

/** One schema of a namespace: its row for the tables, its `<details>` and the vetoes of its nodes. */
async function renderSchema(
    ns: NamespaceContext,
    j: number,
    schemaName: string,
    schema: Record<string, unknown>
): Promise<{ row: SchemaRow; html: string; vetoes: number }> {
    const { reader, base, name, id, state } = ns
    const tools = obj(schema.tools)
    const toolNames = Object.keys(tools).sort()
    const aggregate = obj(schema.toolsAggregate) as NodeLike
    const nodes: Array<[string, NodeLike]> = [
        ['tools-aggregate-schema', aggregate],
        ...toolNames.map((t): [string, NodeLike] => [`tool ${t}`, obj(tools[t]) as NodeLike])
    ]
    const schemaVetoes = nodes.filter(([, n]) => n.veto !== undefined).map(([, n]) => str(n.veto?.triggeredBy) ?? '?')
    const schemaBlockers = ns.blockers.filter(
        (b) => str(b.node)?.startsWith(`schemas.${schemaName}.`) === true || b.node === `schemas.${schemaName}`
    )
    const inner: string[] = []
    if (str(schema.reason) !== undefined) inner.push(`<p class="reason">${escapeHtml(schema.reason)}</p>`)
    const snapshot = obj(schema.snapshot)
    if (str(snapshot.file) !== undefined)
        inner.push(`<p class="ref">snapshot <code>${escapeHtml(snapshot.file)}</code></p>`)
    inner.push(fixSection(await fixItemsOf(reader, base, name, schemaName, state)))
    const judge = await judgeCostOf(reader, base, schemaName)
    if (judge !== null) inner.push(judgeCostLine(judge, 'its last run'))
    for (const [label, node] of nodes)
        inner.push(await nodeRow(reader, base, label, node, `${name}.schemas.${schemaName}.${label}`, state))
    const provisional = ns.provisionalSchemas.has(schemaName)
    const standing = standingOfSchemaNode(schema, provisional ? 'provisional' : 'full')
    const row: SchemaRow = {
        namespace: name,
        nsId: id,
        schema: schemaName,
        id: `${id}-s-${j}`,
        status: str(schema.status) ?? '—',
        provisional,
        grade: standing.grade ?? undefined,
        standing,
        tools: toolNames.length,
        blockers: schemaBlockers.length,
        judge
    }
    const vetoText = schemaVetoes.length > 0 ? `veto: ${escapeHtml([...new Set(schemaVetoes)].join(', '))}` : ''
    const html = `<details class="schema" id="${id}-s-${j}"><summary><span class="name">${escapeHtml(schemaName)}</span>${badge(schema.status)}${scoredGradeCell(standing, schema.grade)}<span class="num">${toolNames.length}</span><span class="num">${schemaBlockers.length}</span><span class="vetoes">${vetoText}</span></summary>${inner.join('')}</details>`
    return { row, html, vetoes: schemaVetoes.length }
}

/** The note on units answered from deterministic answers only, with their worst grade; '' when there are none. */
function provisionalNote(state: UnitState): string {
    if (state.provisional.length === 0) return ''
    const worst = state.provisional
        .map((p) => p.grade)
        .filter((g): g is string => g !== null)
        .sort()
        .pop()
    const worstText =
        worst !== undefined ? ` (their deterministic-only grade, never a headline: ${escapeHtml(worst)})` : ''
    return `<p class="provisional"><b>provisional</b>: ${state.provisional.length} unit${state.provisional.length === 1 ? '' : 's'} answered from deterministic answers only, not graded${worstText}. Run <code>flowmcp-grading grade … --judge-command &lt;cmd&gt;</code> (or <code>--answers &lt;file&gt;</code>) to finish the grading.</p>`
}

const blockerItem = (b: Record<string, unknown>): string =>
    `<li><code>${escapeHtml(b.node)}</code> ${escapeHtml(b.reason)}</li>`

async function renderNamespace(reader: Reader, providers: string, name: string, id: string): Promise<NamespaceView> {
    const base = `${providers}/${name}`
    const read = await reader.json(`${base}/index.json`)
    if ('problem' in read) return unreadableNamespace(reader, base, name, id, read.problem)
    const index = obj(read.value)
    const state = await readUnitState(reader, base)
    const schemas = obj(index.schemas)
    const blockers = Array.isArray(index.blockers) ? index.blockers.map(obj) : []
    const provisionalSchemas = new Set(state.provisional.map((p) => p.schema))
    const ns: NamespaceContext = { reader, base, name, id, state, blockers, provisionalSchemas }
    const parts: string[] = []
    const schemaRows: SchemaRow[] = []
    let vetoes = 0
    let toolCount = 0
    for (const [j, schemaName] of Object.keys(schemas).sort().entries()) {
        const schema = await renderSchema(ns, j, schemaName, obj(schemas[schemaName]))
        toolCount += schema.row.tools
        vetoes += schema.vetoes
        schemaRows.push(schema.row)
        parts.push(schema.html)
    }
    const skills = obj(index.skills)
    const nsNodes: Array<[string, NodeLike]> = [
        ['tools-aggregate-namespace', obj(index.namespaceAggregate) as NodeLike],
        ['namespace-description', obj(index.description) as NodeLike],
        ['about-namespace', obj(index.about) as NodeLike],
        ...Object.keys(skills)
            .sort()
            .map((s): [string, NodeLike] => [`skill ${s}`, obj(skills[s]) as NodeLike])
    ]
    const nsRows: string[] = []
    for (const [label, node] of nsNodes)
        nsRows.push(await nodeRow(reader, base, label, node, `${name}.${label}`, state))
    const blockerList =
        blockers.length > 0 ? `<h3>Blockers</h3><ul class="blockers">${blockers.map(blockerItem).join('')}</ul>` : ''
    const html = [
        `<section id="${id}" class="ns">`,
        `<h2>${escapeHtml(name)} ${badge(index.status)} ${gradeCell(index.grade)}</h2>`,
        `<p class="meta">updated ${escapeHtml(index.updatedAt)} · ${Object.keys(schemas).length} schemas · ${toolCount} tools</p>`,
        provisionalNote(state),
        `<h3>Namespace</h3><div class="rows">${nsRows.join('')}</div>`,
        `<h3>Schemas</h3><div class="rows"><div class="head"><span class="name">schema</span><span>status</span><span>grade</span><span>tools</span><span>blockers</span><span>vetoes</span></div>${parts.join('') || '<p class="note">No schemas.</p>'}</div>`,
        blockerList,
        '</section>'
    ].join('')
    return {
        name,
        id,
        status: str(index.status) ?? '—',
        provisional: state.provisional.length > 0,
        grade: str(index.grade),
        schemas: Object.keys(schemas).length,
        tools: toolCount,
        blockers: blockers.length,
        vetoes,
        html,
        index,
        schemaRows
    }
}

async function renderSelection(
    reader: Reader,
    root: string,
    name: string,
    id: string
): Promise<{ row: string; html: string }> {
    const base = `${root}/selections/${name}`
    const read = await reader.json(`${base}/index.json`)
    if ('problem' in read) {
        reader.errors.push(issue('RPT-002', { path: `${base}/index.json`, detail: read.problem }))
        return {
            row: `<tr><td><a href="#${id}">${escapeHtml(name)}</a></td><td>${badge('unreadable')}</td><td></td><td></td></tr>`,
            html: `<section id="${id}" class="ns"><h2>${escapeHtml(name)} ${badge('unreadable')}</h2></section>`
        }
    }
    const index = obj(read.value)
    const members = obj(index.members)
    const rows: string[] = [
        await nodeRow(
            reader,
            base,
            'selection-aggregate',
            obj(index.selectionAggregate) as NodeLike,
            `${name}.selectionAggregate`
        )
    ]
    // Member refs are relative to providers/.
    for (const m of Object.keys(members).sort())
        rows.push(
            await nodeRow(
                reader,
                `${root}/providers`,
                `member ${m}`,
                obj(members[m]) as NodeLike,
                `${name}.members.${m}`
            )
        )
    return {
        row: `<tr><td><a href="#${id}">${escapeHtml(name)}</a></td><td>${badge(index.status)}</td><td>${gradeCell(index.grade)}</td><td>${Object.keys(members).length}</td></tr>`,
        html: `<section id="${id}" class="ns"><h2>selection ${escapeHtml(name)} ${badge(index.status)} ${gradeCell(index.grade)}</h2><div class="rows">${rows.join('')}</div></section>`
    }
}

/** Grades best first (gradingSystem/1.0.0), then REJECTED: a higher index is a worse grade. */
const GRADES = AGGREGATE_GRADES
const GRADE_CLASSES = ['g-a', 'g-b', 'g-c', 'g-d', 'g-f', 'g-rej'] as const
/** The index of a grade in {@link GRADES}; -1 for anything else (no grade). */
const gradeRank = (grade: unknown): number => GRADES.indexOf(grade as AggregateGrade)
const gradeClass = (grade: unknown): string => GRADE_CLASSES[gradeRank(grade)] ?? 'g-none'
/** A sort key where ascending is worst first: REJECTED 0 … A 5; no grade -1 (nothing to show yet comes first). */
const gradeSortKey = (grade: unknown): number => aggregateRank(grade)
const pill = (text: string, cls: string): string => `<span class="pill ${cls}">${escapeHtml(text)}</span>`

/** Where a schema stands, one of five, worst first: what the status chart counts. */
const SCHEMA_STATES = ['rejected', 'blocked', 'provisional', 'pending', 'graded'] as const
type SchemaState = (typeof SCHEMA_STATES)[number]

function schemaState(row: SchemaRow): SchemaState {
    if (row.status === NODE_STATUS.rejected || row.grade === 'REJECTED') return 'rejected'
    if (row.status === NODE_STATUS.blocked) return 'blocked'
    if (row.status === NODE_STATUS.graded || row.status === NODE_STATUS.stable) return 'graded'
    // Not graded yet: provisional when its units hold deterministic answers only.
    return row.provisional ? 'provisional' : 'pending'
}

/** Namespace statuses worst first; the namespace table's default order. */
const NS_STATUS_ORDER = ['rejected', 'unreadable', 'blocked', 'pending', 'partial', 'operational']
const nsStatusKey = (status: string): number =>
    NS_STATUS_ORDER.includes(status) ? NS_STATUS_ORDER.indexOf(status) : NS_STATUS_ORDER.length
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

function compareSchemaRows(a: SchemaRow, b: SchemaRow): number {
    return (
        SCHEMA_STATES.indexOf(schemaState(a)) - SCHEMA_STATES.indexOf(schemaState(b)) ||
        gradeSortKey(a.grade) - gradeSortKey(b.grade) ||
        byName(a.namespace, b.namespace) ||
        byName(a.schema, b.schema)
    )
}

function compareNamespaces(a: NamespaceView, b: NamespaceView): number {
    return (
        nsStatusKey(a.status) - nsStatusKey(b.status) ||
        gradeSortKey(a.grade) - gradeSortKey(b.grade) ||
        b.blockers - a.blockers ||
        byName(a.name, b.name)
    )
}

/**
 * A horizontal bar chart as a table: the label and count are text, the bar an SVG sized by attributes (the CSP blocks
 * inline styles).
 */
function barChart(
    caption: string,
    rows: ReadonlyArray<{ key: string; count: number; cls: string }>,
    total: number
): string {
    const body = rows
        .map((r) => {
            const width = total > 0 && r.count > 0 ? Math.max(1.5, Math.round((r.count / total) * 1000) / 10) : 0
            const bar = `<svg class="bar" width="100%" height="14" aria-hidden="true" focusable="false"><rect class="track" width="100%" height="14" rx="3"/>${width > 0 ? `<rect class="${r.cls}" width="${width}%" height="14" rx="3"/>` : ''}</svg>`
            return `<tr data-key="${escapeHtml(r.key)}"${r.count === 0 ? ' class="zero"' : ''}><th scope="row">${escapeHtml(r.key)}</th><td>${bar}</td><td class="n">${r.count}</td></tr>`
        })
        .join('')
    return `<table class="dist"><caption>${escapeHtml(caption)}</caption><tbody>${body}</tbody></table>`
}

function distribution(rows: readonly SchemaRow[]): string {
    const grades = [
        ...GRADES.map((g, i) => ({
            key: g,
            count: rows.filter((r) => r.grade === g).length,
            cls: GRADE_CLASSES[i] as string
        })),
        { key: 'no grade', count: rows.filter((r) => gradeRank(r.grade) < 0).length, cls: 'g-none' }
    ]
    const states = SCHEMA_STATES.map((st) => ({
        key: st,
        count: rows.filter((r) => schemaState(r) === st).length,
        cls: `s-${st}`
    }))
    return [
        `<div class="card" id="grades"><h2>Grades</h2>${barChart(`${rows.length} schemas by grade`, grades, rows.length)}</div>`,
        `<div class="card" id="states"><h2>Status</h2>${barChart(`${rows.length} schemas by status`, states, rows.length)}<p class="fine">provisional: deterministic answers only, waiting for a judge; pending: not graded yet.</p></div>`
    ].join('')
}

/** The areas of the provider side, each with the index.json nodes that carry its grade in one namespace. */
const HEAT_AREAS: ReadonlyArray<{ area: string; nodes: (index: Record<string, unknown>) => NodeLike[] }> = [
    {
        area: 'single-test',
        nodes: (index) =>
            Object.values(obj(index.schemas)).flatMap((s) =>
                Object.values(obj(obj(s).tools)).map((t) => obj(t) as NodeLike)
            )
    },
    {
        area: 'tools-aggregate-schema',
        nodes: (index) => Object.values(obj(index.schemas)).map((s) => obj(obj(s).toolsAggregate) as NodeLike)
    },
    { area: 'tools-aggregate-namespace', nodes: (index) => [obj(index.namespaceAggregate) as NodeLike] },
    { area: 'namespace-description', nodes: (index) => [obj(index.description) as NodeLike] },
    { area: 'namespace-skills', nodes: (index) => Object.values(obj(index.skills)).map((s) => obj(s) as NodeLike) },
    { area: 'about-namespace', nodes: (index) => [obj(index.about) as NodeLike] }
]

/** What the nodes of one area in one namespace (or the whole island) add up to. */
interface HeatCell {
    nodes: number
    scores: number[]
    worst: number
    rejected: number
    blocked: number
    pending: number
    reason: string | undefined
}

function heatCell(nodes: readonly NodeLike[]): HeatCell {
    const cell: HeatCell = { nodes: 0, scores: [], worst: -1, rejected: 0, blocked: 0, pending: 0, reason: undefined }
    for (const node of nodes) {
        if (typeof node.status !== 'string') continue
        cell.nodes++
        cell.worst = Math.max(cell.worst, gradeRank(node.grade))
        if (typeof node.normalizedScore === 'number' && Number.isFinite(node.normalizedScore))
            cell.scores.push(node.normalizedScore)
        if (node.status === NODE_STATUS.rejected || node.grade === 'REJECTED') cell.rejected++
        else if (node.status === NODE_STATUS.blocked) cell.blocked++
        else if (node.status === NODE_STATUS.pending) cell.pending++
        cell.reason ??= str(node.reason)
    }
    return cell
}

function mergeCells(cells: readonly HeatCell[]): HeatCell {
    return cells.reduce(
        (m, c) => ({
            nodes: m.nodes + c.nodes,
            scores: [...m.scores, ...c.scores],
            worst: Math.max(m.worst, c.worst),
            rejected: m.rejected + c.rejected,
            blocked: m.blocked + c.blocked,
            pending: m.pending + c.pending,
            reason: m.reason ?? c.reason
        }),
        heatCell([])
    )
}

const mean = (values: readonly number[]): number | null =>
    values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length

/** How much an area costs: the mean score with a rejected node as the lowest score (1); null when nothing is graded. */
const costOf = (cell: HeatCell): number | null =>
    mean([...cell.scores, ...Array.from({ length: cell.rejected }, () => 1)])

function heatTd(cell: HeatCell, where: string): string {
    const m = mean(cell.scores)
    const counts = [
        `${cell.nodes} node${cell.nodes === 1 ? '' : 's'}`,
        m !== null ? `mean score ${m.toFixed(2)} of ${cell.scores.length}` : '',
        cell.worst >= 0 ? `worst grade ${GRADES[cell.worst]}` : '',
        cell.rejected > 0 ? `${cell.rejected} rejected` : '',
        cell.blocked > 0 ? `${cell.blocked} blocked` : '',
        cell.pending > 0 ? `${cell.pending} pending` : ''
    ].filter((t) => t !== '')
    const reason = cell.reason !== undefined && cell.worst < 0 ? ` (${cell.reason})` : ''
    const title = `${where}: ${counts.join(', ')}${reason}`
    if (cell.nodes === 0) return `<td class="h empty" title="${escapeHtml(`${where}: no node`)}">none</td>`
    const open = cell.blocked + cell.pending
    if (cell.worst < 0) {
        const label = cell.blocked > 0 ? 'blocked' : cell.pending > 0 ? 'pending' : '—'
        const nodes = cell.nodes > 1 ? `<small>${cell.nodes} nodes</small>` : ''
        return `<td class="h g-none" title="${escapeHtml(title)}"><b>${label}</b>${nodes}</td>`
    }
    return `<td class="h ${GRADE_CLASSES[cell.worst]}" title="${escapeHtml(title)}"><b>${GRADES[cell.worst]}</b>${m !== null ? ` <span class="sc">${m.toFixed(2)}</span>` : ''}${open > 0 ? `<small>+${open} ${cell.blocked > 0 ? 'blocked' : 'pending'}</small>` : ''}</td>`
}

/**
 * The island column: the cost (mean score, a rejected node as 1) coloured by its grade band, and what is not graded.
 */
function islandTd(cell: HeatCell, area: string): string {
    const cost = costOf(cell)
    const open = [
        cell.rejected > 0 ? `${cell.rejected} rejected` : '',
        cell.blocked > 0 ? `${cell.blocked} blocked` : '',
        cell.pending > 0 ? `${cell.pending} pending` : ''
    ]
        .filter((t) => t !== '')
        .join(' · ')
    const meanText = cost !== null ? `, mean ${cost.toFixed(2)} counting a rejected node as 1` : ''
    const title = `${area}, whole island: ${cell.nodes} nodes, ${cell.scores.length} with a score${meanText}${open !== '' ? `; ${open}` : ''}`
    if (cell.nodes === 0)
        return `<td class="h isl empty" title="${escapeHtml(`${area}: no node in the island`)}">none</td>`
    if (cost === null)
        return `<td class="h isl g-none" title="${escapeHtml(title)}"><b>—</b><small>${escapeHtml(open)}</small></td>`
    const band = bandOf(cost).grade
    const small = open !== '' ? `<small>${escapeHtml(open)}</small>` : ''
    return `<td class="h isl ${gradeClass(band)}" title="${escapeHtml(title)}"><b>${cost.toFixed(2)}</b>${small}</td>`
}

/** Area × namespace: the worst grade of the area's nodes and their mean score; the costliest areas first. */
function heatMap(views: readonly NamespaceView[]): string {
    const graded = views.filter((v) => v.index !== null)
    if (graded.length === 0) return ''
    const rows = HEAT_AREAS.map((a) => {
        const cells = graded.map((v) => heatCell(a.nodes(v.index as Record<string, unknown>)))
        return { area: a.area, cells, island: mergeCells(cells) }
    })
    const order = [...rows].sort((x, y) => {
        const cx = costOf(x.island)
        const cy = costOf(y.island)
        if (cx === null || cy === null)
            return cx === null && cy === null
                ? y.island.blocked + y.island.pending - (x.island.blocked + x.island.pending)
                : cx === null
                  ? 1
                  : -1
        return cx - cy
    })
    const nsHead = (v: NamespaceView): string =>
        `<th scope="col" title="${escapeHtml(v.name)}"><a href="#${v.id}">${escapeHtml(v.name)}</a></th>`
    const head = `<tr><th scope="col">area</th><th scope="col" class="isl" title="the mean score of the area across the island, a rejected node counting as 1">island</th>${graded.map(nsHead).join('')}</tr>`
    const body = order
        .map((r) => {
            const cells = r.cells.map((c, i) => heatTd(c, `${r.area} in ${graded[i]?.name ?? ''}`)).join('')
            return `<tr><th scope="row">${escapeHtml(r.area)}</th>${islandTd(r.island, r.area)}${cells}</tr>`
        })
        .join('')
    return [
        '<div class="card wide" id="heat"><h2>Where grades are lost</h2>',
        '<p class="fine">One row per area, the costliest first. <b>island</b>: the area’s mean score (1–5) over every node, a rejected node counting as 1. Per namespace: the worst grade of the area’s nodes and their mean score; tools and the schemas’ tool aggregates are averaged.</p>',
        `<div class="scroll"><table class="heat" id="t-heat"><thead>${head}</thead><tbody>${body}</tbody></table></div>`,
        '<p class="legend">',
        ...GRADES.map((g, i) => pill(g, GRADE_CLASSES[i] as string)),
        pill('blocked / pending', 'g-none'),
        '</p></div>'
    ].join('')
}

const markLabel = (m: SchemaStanding): string =>
    m.status === NODE_STATUS.blocked || m.grade === null ? m.status : m.grade
const markClass = (m: SchemaStanding): string => (m.grade === null ? 'g-none' : gradeClass(m.grade))

/**
 * Better: the standing rose (blocked or pending to a grade, a grade up, out of rejection), by the order `check`
 * compares with.
 */
function isBetter(before: SchemaStanding, after: SchemaStanding): boolean {
    return !compareStandings(before, after).worse && standingRank(after) > standingRank(before)
}

/** What the overview compares with: the baseline's schemas by namespace and its label (HTML). */
interface BaselineView {
    readonly label: string
    readonly namespaces: ReadonlyMap<string, BaselineSchemas>
}

/**
 * The baseline through the one reader (`readBaseline`, the rules of `check --baseline`); null when it
 * is missing (RPT-004) or an index of it cannot be read (RPT-002): then nothing is compared.
 */
async function readBaselineView(
    baseline: NonNullable<IslandReportInput['baseline']>,
    errors: Issue[]
): Promise<BaselineView | null> {
    if ('index' in baseline) {
        const read = baselineOfIndexes(obj(baseline.index))
        if ('namespaces' in read) return { label: 'the given index files', namespaces: read.namespaces }
        if ('unreadable' in read)
            errors.push(issue('RPT-002', { path: read.unreadable.path, detail: read.unreadable.detail }))
        return null
    }
    const root = baseline.root.replace(/\/+$/, '') || '/'
    const read = await readBaseline({ fs: baseline.fs, path: root })
    if ('missing' in read) errors.push(issue('RPT-004', { root, reason: read.missing }))
    else if ('unreadable' in read)
        errors.push(issue('RPT-002', { path: read.unreadable.path, detail: read.unreadable.detail }))
    else return { label: `<code>${escapeHtml(root)}</code>`, namespaces: read.namespaces }
    return null
}

function baselineCard(rows: readonly SchemaRow[], baseline: BaselineView | null | undefined): string {
    const head = '<div class="card" id="worse"><h2>Worse since the baseline</h2>'
    if (baseline === undefined)
        return `${head}<p class="note">No baseline given: pass <code>--baseline &lt;island&gt;</code> (an earlier copy of the island) to list the schemas graded worse since.</p></div>`
    if (baseline === null)
        return `${head}<p class="note">The baseline could not be read (see the errors above); nothing was compared.</p></div>`
    const pairs = rows.flatMap((r) => {
        const before = baseline.namespaces.get(r.namespace)?.get(r.schema)?.standing
        return before === undefined ? [] : [{ row: r, before, after: r.standing }]
    })
    // The same comparison as `check --baseline`: one function decides what got worse.
    const worse = pairs
        .filter((p) => compareStandings(p.before, p.after).worse)
        .sort((a, b) => byName(a.row.namespace, b.row.namespace) || byName(a.row.schema, b.row.schema))
    const better = pairs.filter((p) => isBetter(p.before, p.after)).length
    const list =
        worse.length > 0
            ? `<ul class="worse">${worse
                  .map(
                      (p) =>
                          `<li><a href="#${p.row.id}">${escapeHtml(p.row.namespace)} / ${escapeHtml(p.row.schema)}</a> <span class="change">${pill(markLabel(p.before), markClass(p.before))} → ${pill(markLabel(p.after), markClass(p.after))}</span></li>`
                  )
                  .join('')}</ul>`
            : '<p class="fine">No schema got worse since the baseline.</p>'
    const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
    const figure = `<p class="figure ${worse.length > 0 ? 'bad' : 'ok'}"><b>${worse.length}</b> ${worse.length === 1 ? 'schema' : 'schemas'} graded worse</p>`
    return `${head}${figure}<p class="fine">Compared with ${baseline.label}: ${plural(pairs.length, 'schema')} in both · ${worse.length} worse · ${better} better · ${rows.length - pairs.length} new since.</p>${list}</div>`
}

/**
 * A table the script can sort (by `data-v`, else the text) and filter; without script it stays in its default order.
 */
function sortableTable(id: string, label: string, headers: readonly string[], rows: readonly string[]): string {
    return [
        `<div class="tablebar" hidden><input type="search" class="filter" data-table="${id}" placeholder="Filter ${escapeHtml(label)}…" aria-label="Filter ${escapeHtml(label)}"><span class="fine">Click a column header to sort.</span></div>`,
        `<table class="summary sortable" id="${id}"><thead><tr>${headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`
    ].join('')
}

const sha256 = (text: string): string => `'sha256-${sha256Base64(text)}'`

/** The codes and wording of the argument checks: every wrong value is a wrong type (GRA-002), never missing. */
const REPORT_ARGS = { missing: 'GRA-001', mismatch: 'GRA-002', create: createIssue } as const
const ARG_STYLE = { actual: 'type' } as const
const wrong = (expected: string) => says({ expected, missing: false })
const REPORT_INPUT = v.custom<object>((i) => i !== null && typeof i === 'object', wrong('object'))
const REPORT_FS = v.looseObject({
    fs: v.custom<ReportFsPort>(
        (fs) =>
            fs !== null &&
            typeof fs === 'object' &&
            typeof (fs as ReportFsPort).readFile === 'function' &&
            typeof (fs as ReportFsPort).readdir === 'function',
        wrong('an object with readFile and readdir')
    )
})
// fs first: a wrong fs stops the check before the root is looked at (one finding, as the report has one cause).
const REPORT_ISLAND = v.pipe(
    REPORT_FS,
    v.looseObject({
        ...REPORT_FS.entries,
        root: v.custom<string>((r) => typeof r === 'string' && r.length > 0, wrong('non-empty string'))
    })
)

/** The one wrong argument a report cannot start without (a host's mistake, not the island's), or null. */
function checkInput(input: unknown): Issue | null {
    const root = parseArgs(REPORT_INPUT, input, REPORT_ARGS, ARG_STYLE)
    if (root.value === null) return root.errors[0] ?? null
    const { fs, root: folder } = input as { fs?: unknown; root?: unknown }
    return parseArgs(REPORT_ISLAND, { fs, root: folder }, REPORT_ARGS, ARG_STYLE).errors[0] ?? null
}

const tableCell = (key: string | number, html: string): string => `<td data-v="${escapeHtml(key)}">${html}</td>`
const provisionalTag = (provisional: boolean): string =>
    provisional ? ' <span class="st warn">provisional</span>' : ''

/** The rows of the namespaces table, worst first. */
function namespaceTableRows(views: readonly NamespaceView[]): string[] {
    const td = tableCell
    return [...views]
        .sort(compareNamespaces)
        .map(
            (v) =>
                `<tr>${td(v.name, `<a href="#${v.id}">${escapeHtml(v.name)}</a>`)}${td(nsStatusKey(v.status), `${badge(v.status)}${provisionalTag(v.provisional)}`)}${td(gradeSortKey(v.grade), gradeCell(v.grade))}${td(v.schemas, String(v.schemas))}${td(v.tools, String(v.tools))}${td(v.blockers, String(v.blockers))}${td(v.vetoes, v.vetoes > 0 ? `<span class="veto">${v.vetoes}</span>` : '0')}</tr>`
        )
}

/** The rows of the schemas table, worst first. */
function schemaTableRows(schemaRows: readonly SchemaRow[]): string[] {
    const td = tableCell
    return [...schemaRows]
        .sort(compareSchemaRows)
        .map(
            (r) =>
                `<tr>${td(r.namespace, `<a href="#${r.nsId}">${escapeHtml(r.namespace)}</a>`)}${td(r.schema, `<a href="#${r.id}">${escapeHtml(r.schema)}</a>`)}${td(SCHEMA_STATES.indexOf(schemaState(r)), `${badge(r.status)}${provisionalTag(r.provisional)}`)}${td(gradeSortKey(r.grade), scoredGradeCell(r.standing, r.grade))}${td(r.tools, String(r.tools))}${td(r.blockers, String(r.blockers))}</tr>`
        )
}

const NAMESPACE_STATUSES = ['operational', 'partial', 'blocked', 'pending', 'rejected', 'unreadable']

/** The line under the title: the island, its counts, namespaces by status and how many are provisional. */
function islandMeta(root: string, views: readonly NamespaceView[]): string {
    const count = (status: string): number => views.filter((v) => v.status === status).length
    const provisional = views.filter((v) => v.provisional).length
    const provisionalText =
        provisional > 0
            ? ` · ${provisional} provisional (deterministic answers only: pass --judge-command or --answers to finish)`
            : ''
    return `<p class="meta">island <code>${escapeHtml(root)}</code> · ${views.length} namespaces · ${views.reduce((n, v) => n + v.schemas, 0)} schemas · namespaces: ${NAMESPACE_STATUSES.map((s) => `${count(s)} ${s}`).join(' · ')}${provisionalText}</p>`
}

/** The judge's cost over every schema's last run; '' when no schema's run asked it. */
function judgeTotal(rows: readonly SchemaRow[]): string {
    const total = addJudgeCosts(rows.map((r) => r.judge))
    return total === null ? '' : judgeCostLine(total, "the schemas' last runs")
}

/** The page body: the overview, the tables, then every namespace and selection. */
function reportBody(
    title: string,
    root: string,
    views: readonly NamespaceView[],
    selections: ReadonlyArray<{ row: string; html: string }>,
    errors: readonly Issue[],
    baseline: BaselineView | null | undefined
): string {
    const schemaRows = views.flatMap((v) => v.schemaRows)
    const errorItem = (e: Issue): string => `<li>${escapeHtml(`${e.code}: ${e.message}`)}</li>`
    const overview = `${distribution(schemaRows)}${baselineCard(schemaRows, baseline)}${heatMap(views)}`
    const schemaHeaders = ['namespace', 'schema', 'status', 'grade', 'tools', 'blockers']
    return [
        `<h1>${escapeHtml(title)}</h1>`,
        islandMeta(root, views),
        judgeTotal(schemaRows),
        errors.length > 0 ? `<ul class="errors">${errors.map(errorItem).join('')}</ul>` : '',
        views.length > 0 ? `<section class="overview" id="overview" aria-label="Overview">${overview}</section>` : '',
        '<div class="toolbar" hidden><button type="button" data-open="1">Expand all</button><button type="button" data-open="0">Collapse all</button></div>',
        '<h2>Namespaces</h2>',
        views.length > 0
            ? sortableTable(
                  't-namespaces',
                  'namespaces',
                  ['namespace', 'status', 'grade', 'schemas', 'tools', 'blockers', 'vetoes'],
                  namespaceTableRows(views)
              )
            : '<p class="note">No namespaces.</p>',
        schemaRows.length > 0
            ? `<h2>Schemas</h2>${sortableTable('t-schemas', 'schemas', schemaHeaders, schemaTableRows(schemaRows))}`
            : '',
        selections.length > 0
            ? `<h2>Selections</h2><table class="summary"><thead><tr><th>selection</th><th>status</th><th>grade</th><th>members</th></tr></thead><tbody>${selections.map((s) => s.row).join('')}</tbody></table>`
            : '',
        '<p class="meta">Open a schema, then a node, to see the grading entry behind its grade: every answer, and the grade recomputed from them step by step. A schema\'s grade is its standing in its <code>index.json</code>: the worst grade of its tools and tools aggregate, shown only when it is graded (docs/guide.md, “Which grade to quote”), with the score (1–5) of the unit it comes from.</p>',
        schemaRows.some((r) => isLetter(r.standing.grade)) ? `<p class="meta">${escapeHtml(CAP_NOTE)}</p>` : '',
        ...views.map((v) => v.html),
        ...selections.map((s) => s.html)
    ].join('\n')
}

/**
 * Renders one self-contained HTML page of a graded island. On top an overview: the schemas by grade
 * and by status (bars), a heat map of area × namespace (the costliest areas first) and, with a
 * `baseline`, the schemas graded worse since. Then the namespaces and every schema in tables sorted
 * worst first (a click on a header sorts, a filter narrows, with script), and per namespace its
 * schemas and nodes, each opening (a `<details>`) to the grading entry behind it: every answer with
 * its question's text, and the grade recomputed step by step.
 * Never throws: what cannot be read is shown as such and listed in `errors`.
 * @param input - `{ fs, root, title?, maxEntries?, baseline?, rules? }`; `fs` needs only `readFile` and `readdir`
 * @returns `{ html, namespaces, selections, errors }`; RPT-001…RPT-004, GRA-002 for a missing `fs` or `root`.
 * @example
 * ;(await renderIslandReport({ fs: nodeFs(), root: './island', baseline: { fs: nodeFs(), root: './island-before' } }))
 *     .html
 */
export async function renderIslandReport(input: IslandReportInput): Promise<IslandReport> {
    const invalid = checkInput(input)
    if (invalid !== null) return { html: '', namespaces: 0, selections: 0, errors: [invalid] }
    const errors: Issue[] = []
    const root = input.root.replace(/\/+$/, '') || '/'
    const maxEntries =
        Number.isSafeInteger(input.maxEntries) && (input.maxEntries as number) >= 0
            ? (input.maxEntries as number)
            : DEFAULT_MAX_ENTRIES
    const reader = new Reader(input.fs, maxEntries, errors, input.rules)
    const providers = `${root}/providers`
    const names = await reader.dirs(providers)
    if (names === null) errors.push(issue('RPT-001', { root }))
    // Ids from a counter: a namespace name never reaches an id or a selector.
    const views: NamespaceView[] = []
    for (const [i, name] of (names ?? []).entries())
        views.push(await renderNamespace(reader, providers, name, `ns-${i}`))
    const selections: Array<{ row: string; html: string }> = []
    for (const [i, name] of ((await reader.dirs(`${root}/selections`)) ?? []).entries())
        selections.push(await renderSelection(reader, root, name, `sel-${i}`))

    const title = input.title ?? 'flowmcp-grading report'
    const baseline = input.baseline !== undefined ? await readBaselineView(input.baseline, errors) : undefined
    const body = reportBody(title, root, views, selections, errors, baseline)
    // The page forbids everything but its own style and script (by hash): nothing loads, nothing injected runs.
    const csp = `default-src 'none'; style-src ${sha256(REPORT_STYLE)}; script-src ${sha256(REPORT_SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
${body}
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`
    return { html, namespaces: views.length, selections: selections.length, errors }
}
