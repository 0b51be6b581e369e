import { BINDING_CODES } from '../errors/catalogue/binding.js'
import { RECHECK_CODES } from '../errors/catalogue/recheck.js'
import { describeValue, issueFactory } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { EntryExpectation } from '../grading/binding.js'
import type { RecheckOutcome } from '../grading/provenance.js'
import { describeId } from '../grading/visible.js'
import { schemaHashOfInspected } from '../hashing/hash-generator.js'
import { inspectJson } from '../json/guard.js'
import { SEVERITY } from '../model/constants.js'
import { isObject } from '../model/object.js'
import type { GradingAnswer } from '../model/types.js'
import { readModuleSource } from '../schema/source-loader.js'
import { keysOf, own } from '../schema/shape.js'
import { GRADING_SYSTEM_VERSION, sameMinorLine } from '../version.js'
import { buildAnswers, questionRows, type DeterministicResult } from './answers.js'

type Obj = Record<string, unknown>

const createIssue = /* @__PURE__ */ issueFactory({ ...BINDING_CODES, ...RECHECK_CODES })

/** The areas whose deterministic answers one schema's source decides; the others need a namespace or a selection. */
const RECHECKED_AREAS = ['single-test', 'tools-aggregate-schema', 'about-namespace'] as const
/** The vetoes code finds in a schema's source; the others (illegal content, an AI security verdict) are judged. */
const COMPUTED_VETOES = ['api-key-domain-mismatch', 'malicious-module'] as const
/** The areas that carry a schema's veto (02-areas §3.3 cascade stop). */
const VETO_AREAS = ['single-test', 'tools-aggregate-schema']

/** A recomputed answer: its value when the source decides it, else why it cannot be decided here. */
type Recomputed =
    | { readonly decided: true; readonly score: unknown; readonly naReason: unknown }
    | { readonly decided: false; readonly reason: string }

/** Whether a recomputed answer rests only on the source: one that waits for the pretest or the island does not. */
function recomputedOf(a: GradingAnswer): Recomputed {
    const evidence = isObject(a.evidence) ? a.evidence : {}
    if (Object.hasOwn(evidence, 'pretest'))
        return { decided: false, reason: 'it needs the HTTP pretest, evidence the registry does not hold' }
    if (evidence.note === 'the About file was not looked up')
        return { decided: false, reason: 'it needs the island (whether the About file exists)' }
    return { decided: true, score: a.score, naReason: a.naReason }
}

const same = (x: Recomputed, y: Recomputed): boolean =>
    x.decided && y.decided ? x.score === y.score && x.naReason === y.naReason : false

/** Per question id, the recomputed answer of the entry's area (for single-test: the expected tool's, or all tools'). */
function expectedAnswers(result: DeterministicResult, area: string, tool: string | undefined): Map<string, Recomputed> {
    const out = new Map<string, Recomputed>()
    if (area === 'tools-aggregate-schema' || area === 'about-namespace') {
        for (const a of result.byArea[area]) out.set(a.questionId, recomputedOf(a))
        return out
    }
    const perTool = result.byArea['single-test']
    const tools = tool !== undefined ? [tool] : Object.keys(perTool)
    const byQuestion = new Map<string, Recomputed[]>()
    for (const name of tools)
        for (const a of perTool[name] ?? [])
            byQuestion.set(a.questionId, [...(byQuestion.get(a.questionId) ?? []), recomputedOf(a)])
    for (const [id, list] of byQuestion) {
        const first = list[0] as Recomputed
        // Without expect.tool an answer is decided only when every tool of the schema gets the same one.
        const agreed = list.every((r) => same(r, first)) || list.every((r) => !r.decided)
        out.set(
            id,
            agreed
                ? first
                : { decided: false, reason: 'its value differs between the tools of the schema: name expect.tool' }
        )
    }
    return out
}

const shown = (score: unknown, naReason: unknown): string =>
    score === 'n/a' && typeof naReason === 'string' ? `n/a (${naReason})` : describeValue(score)

/** The entry's answers against their recomputation: each decided one equal, or RCK-001. */
function compareAnswers(entry: Obj, expected: ReadonlyMap<string, Recomputed>, out: Outcome): void {
    const gradings = Array.isArray(entry.gradings) ? (entry.gradings as unknown[]) : []
    gradings.forEach((g, index) => {
        if (!isObject(g) || typeof g.questionId !== 'string') return
        const want = expected.get(g.questionId)
        if (want === undefined) return
        if (!want.decided) {
            out.answers.set(index, { standing: 'unverifiable', reason: want.reason })
            return
        }
        if (g.score === want.score && (g.score !== 'n/a' || g.naReason === want.naReason)) {
            out.answers.set(index, { standing: 'recomputed', reason: 'equal to its recomputation from expect.source' })
            return
        }
        const kind = isObject(g.graderIdentity) ? describeValue(g.graderIdentity.kind) : 'unknown'
        out.issues.push(
            createIssue('RCK-001', `/gradings/${index}/score`, {
                questionId: describeId(g.questionId),
                found: shown(g.score, g.naReason),
                expected: shown(want.score, want.naReason),
                kind
            })
        )
    })
}

/** The entry's veto against the vetoes the source supports: a forged one (RCK-002) or a hidden one (RCK-003). */
function compareVeto(entry: Obj, result: DeterministicResult, out: Outcome): void {
    if (!VETO_AREAS.includes(String(entry.area))) return
    const supported = new Map(result.vetoes.map((v) => [v.triggeredBy as string, v.evidence]))
    const veto = entry.categoricalVeto
    const trigger = isObject(veto) && typeof veto.triggeredBy === 'string' ? veto.triggeredBy : null
    if (trigger !== null && (COMPUTED_VETOES as readonly string[]).includes(trigger) && !supported.has(trigger)) {
        out.issues.push(
            createIssue('RCK-002', '/categoricalVeto/triggeredBy', {
                trigger,
                detail:
                    supported.size === 0
                        ? 'the source supports no veto'
                        : `the source supports ${[...supported.keys()].join(', ')}`
            })
        )
    }
    if (trigger === null && supported.size > 0) {
        const [first, evidence] = [...supported.entries()][0] as [string, string]
        out.issues.push(createIssue('RCK-003', '/categoricalVeto', { trigger: first, evidence }))
    }
}

interface Outcome {
    schemaHash: string | null
    readonly issues: Issue[]
    readonly answers: Map<number, { standing: 'recomputed' | 'unverifiable'; reason: string }>
}

/** The schema's `main` read from the source, with the issue that stops the re-check when it cannot be. */
function mainOf(source: string): { main: Obj | null; issue: Issue | null } {
    const read = readModuleSource({ source })
    const mod = read.module
    const main = isObject(mod) ? (isObject(mod.main) ? mod.main : isObject(mod.schema) ? mod.schema : null) : null
    if (main === null) {
        const why = read.errors.find((e) => e.severity === SEVERITY.error)
        const detail = why !== undefined ? `${why.code} ${why.message}` : 'it exports neither main nor schema'
        return { main: null, issue: createIssue('BND-010', '/expect/source', { detail }) }
    }
    const guard = inspectJson(main, undefined, '/expect/source/main')
    if (guard.length > 0)
        return {
            main: null,
            issue: createIssue('BND-010', '/expect/source', { detail: `${guard[0]?.code} ${guard[0]?.message}` })
        }
    return { main, issue: null }
}

/** Facts of the source the expectation names: the schemaId's namespace and the expected tool. */
function sourceFactIssues(entry: Obj, main: Obj, expect: EntryExpectation): Issue[] {
    const issues: Issue[] = []
    const namespace = typeof main.namespace === 'string' ? main.namespace : null
    if (namespace !== null && typeof entry.schemaId === 'string' && !entry.schemaId.startsWith(`${namespace}.`))
        issues.push(createIssue('BND-012', '/schemaId', { found: describeId(entry.schemaId), namespace }))
    const tools = keysOf(own(main, 'tools'))
    if (expect.tool !== undefined && !tools.includes(expect.tool))
        issues.push(
            createIssue('BND-005', '/expect/tool', { tool: describeId(expect.tool), tools: tools.join(', ') || 'none' })
        )
    return issues
}

/**
 * Re-checks an entry against `expect.source`: the schema hash computed from it, the namespace and tool it names,
 * every deterministic answer the source decides (RCK-001) and the vetoes it supports (RCK-002 forged, RCK-003
 * hidden); answers that need HTTP evidence or the island are `unverifiable`. An entry of another grading system is
 * not compared answer by answer (its rules may differ): its answers are `unverifiable`.
 */
export function recheckEntry(entry: Obj, expect: EntryExpectation): RecheckOutcome {
    const out: Outcome = { schemaHash: null, issues: [], answers: new Map() }
    const { main, issue } = mainOf(expect.source ?? '')
    if (main === null) {
        if (issue !== null) out.issues.push(issue)
        return out
    }
    out.schemaHash = schemaHashOfInspected(main).short
    out.issues.push(...sourceFactIssues(entry, main, expect))
    const system = entry.gradingSystem
    if (
        typeof system === 'string' &&
        system !== GRADING_SYSTEM_VERSION &&
        !sameMinorLine(system, GRADING_SYSTEM_VERSION)
    )
        return out
    const result = buildAnswers({ main, source: expect.source, questions: questionRows(), now: '2000-01-01T00:00:00Z' })
    const area = String(entry.area)
    compareVeto(entry, result, out)
    if ((RECHECKED_AREAS as readonly string[]).includes(area)) {
        const tool =
            expect.tool !== undefined && keysOf(own(main, 'tools')).includes(expect.tool) ? expect.tool : undefined
        compareAnswers(entry, expectedAnswers(result, area, tool), out)
    }
    return out
}
