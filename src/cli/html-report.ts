import { createHash } from 'node:crypto'
import type { ErrorCode } from '../errors/catalogue/index.js'
import { createIssue, type IssueParams } from '../errors/issue.js'
import { Grading, type FsPort, type Issue } from '../index.js'
import { parseJsonText } from '../json/guard.js'

export interface IslandReportInput {
    readonly fs: FsPort
    /** The island root (holding `providers/` and, optionally, `selections/`). */
    readonly root: string
    /** The page title; `flowmcp-grading report` when omitted. */
    readonly title?: string
    /** Stop reading grading entries after this many (a huge tree still renders, without the later traces). */
    readonly maxEntries?: number
}

export interface IslandReport {
    /** One self-contained page: inline CSS and script, no network, readable without script. */
    readonly html: string
    readonly namespaces: number
    readonly selections: number
    /** RPT-001 (no providers folder), RPT-002 (an unreadable index), RPT-003 (an unreadable entry). */
    readonly errors: Issue[]
}

/** The parts of an index node the page shows; everything else of index.json is ignored. */
interface NodeLike {
    status?: unknown
    grade?: unknown
    reason?: unknown
    ref?: unknown
    veto?: { triggeredBy?: unknown; gradingId?: unknown }
}

const DEFAULT_MAX_ENTRIES = 5000

/** Escapes text for HTML content and double-quoted attributes: schema text is untrusted. */
export function escapeHtml(value: unknown): string {
    const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)
    return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
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

const badge = (status: unknown): string => `<span class="st ${statusClass(status)}">${escapeHtml(str(status) ?? '—')}</span>`
const gradeCell = (grade: unknown): string => `<span class="gr">${escapeHtml(str(grade) ?? '—')}</span>`

/** Reads index.json files and grading entries through the port, never throwing. */
class Reader {
    entriesRead = 0
    constructor(
        readonly fs: FsPort,
        readonly maxEntries: number,
        readonly errors: Issue[]
    ) {}

    async dirs(path: string): Promise<string[] | null> {
        try {
            const entries = await this.fs.readdir(path)
            return entries === null ? null : entries.filter((e) => e.kind === 'directory' && !e.name.startsWith('.')).map((e) => e.name).sort()
        } catch {
            return null
        }
    }

    async json(path: string): Promise<{ value: unknown } | { problem: string }> {
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
        if (ref === null) return `<p class="note">The ref ${escapeHtml(node.ref)} is not a relative path inside the island; not read.</p>`
        if (this.entriesRead >= this.maxEntries) return `<p class="note">Entry ${escapeHtml(ref)} not read: the report reads at most ${this.maxEntries} entries.</p>`
        this.entriesRead++
        const read = await this.json(`${base}/${ref}`)
        if ('problem' in read) {
            this.errors.push(issue('RPT-003', { path: `${base}/${ref}`, node: label, detail: read.problem }))
            return `<p class="note">Entry ${escapeHtml(ref)} could not be read: ${escapeHtml(read.problem)}</p>`
        }
        return renderEntry(ref, obj(read.value))
    }
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
        ...(entry.categoricalVeto !== null && entry.categoricalVeto !== undefined ? ([['veto', `${str(veto.triggeredBy) ?? '?'}: ${str(veto.evidence) ?? ''}`]] as Array<[string, unknown]>) : [])
    ]
    const gradings = Array.isArray(entry.gradings) ? entry.gradings.map(obj) : []
    const rows = gradings
        .map((g) => {
            const who = obj(g.graderIdentity)
            const why = str(g.reasoning) ?? (g.evidence !== undefined ? JSON.stringify(g.evidence) : str(g.naReason) ?? '')
            return `<tr><td><code>${escapeHtml(g.questionId)}</code></td><td>${escapeHtml(g.score)}</td><td>${escapeHtml(g.weight)}</td><td>${escapeHtml(g.determinism)}</td><td>${escapeHtml(`${str(who.kind) ?? ''} ${str(who.name) ?? ''}`.trim())}${g.llmModel !== undefined ? ` · ${escapeHtml(g.llmModel)}` : ''}</td><td class="why">${escapeHtml(why.length > 600 ? why.slice(0, 597) + '...' : why)}</td></tr>`
        })
        .join('')
    // The grade recomputed from the answers, step by step: the reader can follow it by hand.
    const aggregate = Grading.computeAggregateGrade({ entry })
    const steps = aggregate.trace
        .map((s) => {
            const { step, ...rest } = s as { step: string } & Record<string, unknown>
            return `<li><b>${escapeHtml(step)}</b> ${escapeHtml(Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(' '))}</li>`
        })
        .join('')
    return [
        '<div class="trace">',
        `<dl>${fields.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`,
        gradings.length > 0 ? `<table class="answers"><thead><tr><th>question</th><th>score</th><th>weight</th><th>determinism</th><th>grader</th><th>reasoning / evidence</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="note">The entry holds no answers.</p>',
        `<p class="recompute">Recomputed: <b>${escapeHtml(aggregate.aggregateGrade ?? 'no grade')}</b>${aggregate.normalizedScore !== null ? ` (mean ${escapeHtml(Math.round(aggregate.normalizedScore * 1000) / 1000)})` : ''}</p>`,
        steps.length > 0 ? `<ol class="steps">${steps}</ol>` : '',
        '</div>'
    ].join('')
}

/** One node (a tool, an aggregate, the About …) as a row that opens to the entry behind it. */
async function nodeRow(reader: Reader, base: string, name: string, node: NodeLike, label: string, state: UnitState = EMPTY_STATE): Promise<string> {
    const veto = node.veto !== undefined ? ` <span class="veto">veto: ${escapeHtml(node.veto.triggeredBy)}</span>` : ''
    const reason = str(node.reason) !== undefined ? `<p class="reason">${escapeHtml(node.reason)}</p>` : ''
    const ref = str(node.ref) !== undefined ? `<p class="ref">ref <code>${escapeHtml(node.ref)}</code></p>` : ''
    const hints = str(node.ref) !== undefined ? (state.hints.get(node.ref as string) ?? []) : []
    const advice = hints.length > 0 ? `<h4>Improvement hints</h4><ul class="hints">${hints.map((h) => `<li><b>${escapeHtml(h.priority)}</b> <code>${escapeHtml(h.targetField)}</code> ${escapeHtml(h.suggestion)}</li>`).join('')}</ul>` : ''
    return `<details class="node"><summary><span class="name">${escapeHtml(name)}</span>${badge(node.status)}${gradeCell(node.grade)}${veto}</summary>${reason}${ref}${advice}${await reader.trace(base, node, label)}</details>`
}

/** What a namespace's `state.json` adds to its index: the judge's hints per entry, and the units still provisional. */
interface UnitState {
    readonly hints: ReadonlyMap<string, ReadonlyArray<{ targetField: unknown; suggestion: unknown; priority: unknown }>>
    readonly provisional: ReadonlyArray<{ unit: string; grade: string | null }>
}

const EMPTY_STATE: UnitState = { hints: new Map(), provisional: [] }

/** Reads `state.json` beside an index; a missing or unreadable one adds nothing (it is advice, not a grade). */
async function readUnitState(reader: Reader, base: string): Promise<UnitState> {
    const read = await reader.json(`${base}/state.json`)
    if ('problem' in read) return EMPTY_STATE
    const areas = Array.isArray(obj(read.value).areas) ? (obj(read.value).areas as unknown[]).map(obj) : []
    const hints = new Map<string, Array<{ targetField: unknown; suggestion: unknown; priority: unknown }>>()
    for (const a of areas) if (str(a.lastGradingRef) !== undefined && Array.isArray(a.improvementHints) && a.improvementHints.length > 0) hints.set(a.lastGradingRef as string, a.improvementHints.map(obj).map((h) => ({ targetField: h.targetField, suggestion: h.suggestion, priority: h.priority })))
    const provisional = areas.filter((a) => a.status === 'provisional').map((a) => ({ unit: str(a.unit) ?? '?', grade: str(a.provisionalGrade) ?? null }))
    return { hints, provisional }
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
}

async function renderNamespace(reader: Reader, providers: string, name: string, id: string): Promise<NamespaceView> {
    const base = `${providers}/${name}`
    const read = await reader.json(`${base}/index.json`)
    if ('problem' in read) {
        reader.errors.push(issue('RPT-002', { path: `${base}/index.json`, detail: read.problem }))
        const html = `<section id="${id}" class="ns"><h2>${escapeHtml(name)} ${badge('unreadable')}</h2><p class="note">index.json could not be read: ${escapeHtml(read.problem)}. Run <code>flowmcp-grading rebuild-index</code> on the folder.</p></section>`
        return { name, id, status: 'unreadable', provisional: false, grade: undefined, schemas: 0, tools: 0, blockers: 0, vetoes: 0, html }
    }
    const index = obj(read.value)
    const state = await readUnitState(reader, base)
    const schemas = obj(index.schemas)
    const blockers = Array.isArray(index.blockers) ? index.blockers.map(obj) : []
    const parts: string[] = []
    let vetoes = 0
    let toolCount = 0
    for (const schemaName of Object.keys(schemas).sort()) {
        const schema = obj(schemas[schemaName])
        const tools = obj(schema.tools)
        const toolNames = Object.keys(tools).sort()
        toolCount += toolNames.length
        const aggregate = obj(schema.toolsAggregate) as NodeLike
        const nodes: Array<[string, NodeLike]> = [['tools-aggregate-schema', aggregate], ...toolNames.map((t): [string, NodeLike] => [`tool ${t}`, obj(tools[t]) as NodeLike])]
        const schemaVetoes = nodes.filter(([, n]) => n.veto !== undefined).map(([, n]) => str(n.veto?.triggeredBy) ?? '?')
        vetoes += schemaVetoes.length
        const schemaBlockers = blockers.filter((b) => str(b.node)?.startsWith(`schemas.${schemaName}.`) === true || b.node === `schemas.${schemaName}`)
        const inner: string[] = []
        if (str(schema.reason) !== undefined) inner.push(`<p class="reason">${escapeHtml(schema.reason)}</p>`)
        const snapshot = obj(schema.snapshot)
        if (str(snapshot.file) !== undefined) inner.push(`<p class="ref">snapshot <code>${escapeHtml(snapshot.file)}</code></p>`)
        for (const [label, node] of nodes) inner.push(await nodeRow(reader, base, label, node, `${name}.schemas.${schemaName}.${label}`, state))
        parts.push(
            `<details class="schema"><summary><span class="name">${escapeHtml(schemaName)}</span>${badge(schema.status)}${gradeCell(schema.grade)}<span class="num">${toolNames.length}</span><span class="num">${schemaBlockers.length}</span><span class="vetoes">${schemaVetoes.length > 0 ? `veto: ${escapeHtml([...new Set(schemaVetoes)].join(', '))}` : ''}</span></summary>${inner.join('')}</details>`
        )
    }
    const nsNodes: Array<[string, NodeLike]> = [
        ['tools-aggregate-namespace', obj(index.namespaceAggregate) as NodeLike],
        ['namespace-description', obj(index.description) as NodeLike],
        ['about-namespace', obj(index.about) as NodeLike],
        ...Object.keys(obj(index.skills))
            .sort()
            .map((s): [string, NodeLike] => [`skill ${s}`, obj(obj(index.skills)[s]) as NodeLike])
    ]
    const nsRows: string[] = []
    for (const [label, node] of nsNodes) nsRows.push(await nodeRow(reader, base, label, node, `${name}.${label}`, state))
    const worstProvisional = state.provisional.map((p) => p.grade).filter((g): g is string => g !== null).sort().pop()
    const provisional =
        state.provisional.length > 0
            ? `<p class="provisional"><b>provisional</b>: ${state.provisional.length} unit${state.provisional.length === 1 ? '' : 's'} answered from deterministic answers only, not graded${worstProvisional !== undefined ? ` (their deterministic-only grade, never a headline: ${escapeHtml(worstProvisional)})` : ''}. Run <code>flowmcp-grading grade … --judge-command &lt;cmd&gt;</code> (or <code>--answers &lt;file&gt;</code>) to finish the grading.</p>`
            : ''
    const blockerList = blockers.length > 0 ? `<h3>Blockers</h3><ul class="blockers">${blockers.map((b) => `<li><code>${escapeHtml(b.node)}</code> ${escapeHtml(b.reason)}</li>`).join('')}</ul>` : ''
    const html = [
        `<section id="${id}" class="ns">`,
        `<h2>${escapeHtml(name)} ${badge(index.status)} ${gradeCell(index.grade)}</h2>`,
        `<p class="meta">updated ${escapeHtml(index.updatedAt)} · ${Object.keys(schemas).length} schemas · ${toolCount} tools</p>`,
        provisional,
        `<h3>Namespace</h3><div class="rows">${nsRows.join('')}</div>`,
        `<h3>Schemas</h3><div class="rows"><div class="head"><span class="name">schema</span><span>status</span><span>grade</span><span>tools</span><span>blockers</span><span>vetoes</span></div>${parts.join('') || '<p class="note">No schemas.</p>'}</div>`,
        blockerList,
        '</section>'
    ].join('')
    return { name, id, status: str(index.status) ?? '—', provisional: state.provisional.length > 0, grade: str(index.grade), schemas: Object.keys(schemas).length, tools: toolCount, blockers: blockers.length, vetoes, html }
}

async function renderSelection(reader: Reader, root: string, name: string, id: string): Promise<{ row: string; html: string }> {
    const base = `${root}/selections/${name}`
    const read = await reader.json(`${base}/index.json`)
    if ('problem' in read) {
        reader.errors.push(issue('RPT-002', { path: `${base}/index.json`, detail: read.problem }))
        return { row: `<tr><td><a href="#${id}">${escapeHtml(name)}</a></td><td>${badge('unreadable')}</td><td></td><td></td></tr>`, html: `<section id="${id}" class="ns"><h2>${escapeHtml(name)} ${badge('unreadable')}</h2></section>` }
    }
    const index = obj(read.value)
    const members = obj(index.members)
    const rows: string[] = [await nodeRow(reader, base, 'selection-aggregate', obj(index.selectionAggregate) as NodeLike, `${name}.selectionAggregate`)]
    // Member refs are relative to providers/.
    for (const m of Object.keys(members).sort()) rows.push(await nodeRow(reader, `${root}/providers`, `member ${m}`, obj(members[m]) as NodeLike, `${name}.members.${m}`))
    return {
        row: `<tr><td><a href="#${id}">${escapeHtml(name)}</a></td><td>${badge(index.status)}</td><td>${gradeCell(index.grade)}</td><td>${Object.keys(members).length}</td></tr>`,
        html: `<section id="${id}" class="ns"><h2>selection ${escapeHtml(name)} ${badge(index.status)} ${gradeCell(index.grade)}</h2><div class="rows">${rows.join('')}</div></section>`
    }
}

const STYLE = `
:root{--fg:#1d2430;--muted:#5b6472;--line:#d9dee5;--ok:#1f7a3a;--warn:#9a6200;--bad:#b42318;--none:#5b6472;--bg:#fff;--alt:#f5f7fa}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;padding:24px;max-width:1200px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 4px;padding-top:8px;border-top:2px solid var(--line)}h3{font-size:14px;margin:16px 0 6px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{font-weight:600;color:var(--muted)}
.st{display:inline-block;min-width:80px;padding:0 6px;border-radius:4px;font-size:12px;font-weight:600;text-align:center;border:1px solid currentColor}
.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}.none{color:var(--none)}
.gr{display:inline-block;min-width:70px;font-weight:700;padding-left:8px}.veto,.vetoes{color:var(--bad);font-weight:600}
.meta,.note,.ref{color:var(--muted)}.note{font-style:italic}.reason{margin-top:4px;margin-bottom:4px}code{font-size:12px;word-break:break-all}
.rows>.head,.rows summary{display:grid;grid-template-columns:minmax(180px,2fr) 100px 80px 80px 90px minmax(120px,2fr);gap:8px;align-items:center}
.rows>.head{font-weight:600;color:var(--muted);padding:4px 8px;border-bottom:1px solid var(--line)}
details{border-bottom:1px solid var(--line)}details>summary{cursor:pointer;padding:4px 8px}details[open]>summary{background:var(--alt)}
details.node{margin-left:16px}details.node summary{grid-template-columns:minmax(180px,2fr) 100px 80px minmax(120px,3fr)}
summary{list-style:none}summary::-webkit-details-marker{display:none}summary .name::before{content:'\\25B8  ';color:var(--muted)}details[open]>summary .name::before{content:'\\25BE  '}
details>*:not(summary){margin-left:24px}.name{font-weight:600;overflow-wrap:anywhere}.num{color:var(--muted)}
.trace dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}.trace dt{color:var(--muted)}.trace dd{margin:0;overflow-wrap:anywhere}
table.answers{font-size:13px;margin:8px 0}td.why{max-width:460px;overflow-wrap:anywhere}.steps{font-size:12px;color:var(--muted)}
.provisional{border-left:3px solid var(--warn);padding:4px 8px;background:var(--alt)}.hints{font-size:13px}
.toolbar{margin:12px 0}.toolbar button{font:inherit;margin-right:8px}.errors{color:var(--bad)}
@media print{.toolbar{display:none}}
`
// Only a convenience: every row is a <details>, readable and expandable without it.
const SCRIPT = `document.querySelector('.toolbar').hidden=false;for(const b of document.querySelectorAll('.toolbar button'))b.addEventListener('click',()=>{for(const d of document.querySelectorAll('details'))d.open=b.dataset.open==='1'})`

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/**
 * Renders one self-contained HTML page of a graded island: every namespace (and selection) with
 * its status and grade, its schemas with tools, blockers and vetoes, and per node the grading
 * entry behind it (its answers and the recomputed grade, step by step) in a `<details>`.
 * Never throws: what cannot be read is shown as such and listed in `errors`.
 */
export async function renderIslandReport(input: IslandReportInput): Promise<IslandReport> {
    const errors: Issue[] = []
    const root = input.root.replace(/\/+$/, '') || '/'
    const maxEntries = Number.isSafeInteger(input.maxEntries) && (input.maxEntries as number) >= 0 ? (input.maxEntries as number) : DEFAULT_MAX_ENTRIES
    const reader = new Reader(input.fs, maxEntries, errors)
    const providers = `${root}/providers`
    const names = await reader.dirs(providers)
    if (names === null) errors.push(issue('RPT-001', { root }))
    // Ids from a counter: a namespace name never reaches an id or a selector.
    const views: NamespaceView[] = []
    for (const [i, name] of (names ?? []).entries()) views.push(await renderNamespace(reader, providers, name, `ns-${i}`))
    const selections: Array<{ row: string; html: string }> = []
    for (const [i, name] of ((await reader.dirs(`${root}/selections`)) ?? []).entries()) selections.push(await renderSelection(reader, root, name, `sel-${i}`))

    const title = input.title ?? 'flowmcp-grading report'
    const count = (status: string): number => views.filter((v) => v.status === status).length
    const summary = views
        .map((v) => `<tr><td><a href="#${v.id}">${escapeHtml(v.name)}</a></td><td>${badge(v.status)}${v.provisional ? ' <span class="st warn">provisional</span>' : ''}</td><td>${gradeCell(v.grade)}</td><td>${v.schemas}</td><td>${v.tools}</td><td>${v.blockers}</td><td>${v.vetoes > 0 ? `<span class="veto">${v.vetoes}</span>` : '0'}</td></tr>`)
        .join('')
    const body = [
        `<h1>${escapeHtml(title)}</h1>`,
        `<p class="meta">island <code>${escapeHtml(root)}</code> · ${views.length} namespaces · ${views.reduce((n, v) => n + v.schemas, 0)} schemas · ${['operational', 'partial', 'blocked', 'pending', 'rejected', 'unreadable'].map((s) => `${count(s)} ${s}`).join(' · ')}${views.some((v) => v.provisional) ? ` · ${views.filter((v) => v.provisional).length} provisional (deterministic answers only: pass --judge-command or --answers to finish)` : ''}</p>`,
        errors.length > 0 ? `<ul class="errors">${errors.map((e) => `<li>${escapeHtml(`${e.code}: ${e.message}`)}</li>`).join('')}</ul>` : '',
        '<div class="toolbar" hidden><button type="button" data-open="1">Expand all</button><button type="button" data-open="0">Collapse all</button></div>',
        '<h2>Namespaces</h2>',
        views.length > 0
            ? `<table class="summary"><thead><tr><th>namespace</th><th>status</th><th>grade</th><th>schemas</th><th>tools</th><th>blockers</th><th>vetoes</th></tr></thead><tbody>${summary}</tbody></table>`
            : '<p class="note">No namespaces.</p>',
        selections.length > 0 ? `<h2>Selections</h2><table class="summary"><thead><tr><th>selection</th><th>status</th><th>grade</th><th>members</th></tr></thead><tbody>${selections.map((s) => s.row).join('')}</tbody></table>` : '',
        '<p class="meta">Open a schema, then a node, to see the grading entry behind its grade: every answer, and the grade recomputed from them step by step.</p>',
        ...views.map((v) => v.html),
        ...selections.map((s) => s.html)
    ].join('\n')
    // The page forbids everything but its own style and script (by hash): nothing loads, nothing injected runs.
    const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
<script>${SCRIPT}</script>
</body>
</html>
`
    return { html, namespaces: views.length, selections: selections.length, errors }
}
