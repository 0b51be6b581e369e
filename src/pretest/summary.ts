// Stage "collect and summarise": the outcomes back in plan order, each tool's row, the blocked tools, the verdict.
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import type { BlockedReason } from '../model/constants.js'
import {
    RESPONSE_SIZE_LIMITS,
    failureCodeOf,
    type PretestTestResult,
    type PretestToolSummary,
    type DocsCheck,
    type PretestResult
} from './types.js'
import { blockerOf } from './blockers.js'
import type { Job, ToolMeta, TestPlan } from './plan.js'

/** What summarising needs: the plan, the bars, and whether only the runtime's tests ran. */
export interface SummaryScope {
    readonly plan: TestPlan
    readonly minWorkingTests: number
    readonly parameterlessBar: number
    readonly invalid: string | null
    readonly offlineRuntime: boolean
}

/** One tool's summary row and its blocker (DPT-003 pushed for a tested tool below its bar). */
export function summariseTool(
    name: string,
    results: readonly PretestTestResult[],
    ran: boolean,
    scope: SummaryScope,
    blocked: Array<{ tool: string; reason: BlockedReason; detail: string }>
): PretestToolSummary {
    const meta = scope.plan.toolMeta.get(name) as ToolMeta
    const mine = results.filter((r) => r.tool === name)
    const working = mine.filter((r) => r.working).length
    const bar = meta.parameterless ? scope.parameterlessBar : scope.minWorkingTests
    const matches = mine.filter((r) => r.working && r.outputSchemaMatch !== null).map((r) => r.outputSchemaMatch)
    const maxResponseBytes = Math.max(0, ...mine.map((r) => r.responseBytes ?? 0))
    const notGranted = mine.filter((r) => r.error?.startsWith('DPT-021')).length
    // Offline with a runtime only the runtime's tests ran: a tool tested by plain requests did not.
    const toolRan = ran && (!scope.offlineRuntime || meta.runtime === 'used')
    const blocker = blockerOf(meta, {
        ran: toolRan,
        working,
        bar,
        invalid: scope.invalid,
        notGranted,
        failed: mine.filter((r) => r.status === 'failed')
    })
    if (blocker !== null) {
        blocked.push({ tool: name, ...blocker })
        if (ran && (meta.cls === 'normal' || meta.cls === 'parameterless')) {
            scope.plan.findings.push(createIssue('DPT-003', pointer('tools', name), { tool: name, bar, working }))
        }
    }
    const reason = blocker?.reason ?? null
    return {
        class: meta.cls,
        total: meta.total,
        distinct: meta.distinct,
        working,
        bar,
        parameterless: meta.parameterless,
        blocked: reason !== null,
        reason,
        detail: blocker?.detail ?? null,
        missingServerParams: meta.missing,
        viaRuntime: meta.runtime !== null,
        outputSchemaMatch: matches.length === 0 ? null : matches.every((m) => m === true),
        maxResponseBytes,
        large: maxResponseBytes > RESPONSE_SIZE_LIMITS.large,
        extreme: maxResponseBytes > RESPONSE_SIZE_LIMITS.extreme
    }
}

/** Stage "summarise": every tool's row, the blocked tools and whether the whole pretest is ok. */
export function summarise(
    results: readonly PretestTestResult[],
    ran: boolean,
    scope: SummaryScope
): Pick<PretestResult, 'tools' | 'blocked' | 'ok'> {
    const blocked: Array<{ tool: string; reason: BlockedReason; detail: string }> = []
    const entries = scope.plan.toolNames.map((name): [string, PretestToolSummary] => [
        name,
        summariseTool(name, results, ran, scope, blocked)
    ])
    return {
        tools: Object.fromEntries(entries),
        blocked,
        ok: ran && scope.plan.toolNames.length > 0 && blocked.length === 0
    }
}

/** Stage "collect": the outcomes back in plan order, the docs checks apart, each failure as its finding. */
export function collectOutcomes(
    jobs: readonly Job[],
    outcomes: ReadonlyArray<PretestTestResult | DocsCheck>,
    planned: readonly PretestTestResult[],
    findings: Issue[]
): { results: PretestTestResult[]; docs: DocsCheck[] } {
    const live = new Map<string, PretestTestResult>()
    const docs: DocsCheck[] = []
    outcomes.forEach((outcome, i) => {
        const job = jobs[i] as Job
        if (job.kind === 'docs') docs.push(outcome as DocsCheck)
        else live.set(`${job.tool}\u0000${job.testIndex}`, outcome as PretestTestResult)
    })
    const results = planned.map((p) => (p.status === 'planned' ? (live.get(`${p.tool}\u0000${p.testIndex}`) ?? p) : p))
    for (const r of results) {
        if (r.status === 'failed' && r.error !== null)
            findings.push(
                createIssue(failureCodeOf(r.error), pointer('tools', r.tool, 'tests', r.testIndex), {
                    tool: r.tool,
                    index: r.testIndex,
                    detail: r.error
                })
            )
        if (r.status === 'passed' && r.outputSchemaMatch === false)
            findings.push(
                createIssue('DPT-018', pointer('tools', r.tool, 'tests', r.testIndex), {
                    tool: r.tool,
                    index: r.testIndex
                })
            )
    }
    for (const d of docs) {
        if (!d.reachable)
            findings.push(
                createIssue('DPT-016', pointer('docs', d.index), { index: d.index, detail: d.error ?? 'unreachable' })
            )
    }
    return { results, docs }
}
