// Stage "classify and plan": each tool's class and findings, then every test built into a job (or why not).
import { createIssue, describeValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { checkKeyDomains, type KeyDomainResult } from '../schema/key-domain.js'
import {
    isParameterless,
    isRecord,
    keysOf,
    own,
    requiredServerParamsOf,
    serverParamsUsedBy,
    testInputKeys,
    testsOf,
    testSignature
} from '../schema/shape.js'
import type { RuntimePort } from '../ports/types.js'
import type { HttpRequest } from './http.js'
import { buildRequest } from './request.js'
import { coded, type TestStatus, type ToolClass, type PretestTestResult } from './types.js'
import type { PretestSettings } from './check.js'

export type Job =
    | {
          readonly kind: 'test' | 'docs'
          readonly tool: string
          readonly testIndex: number
          readonly request: HttpRequest
      }
    | {
          readonly kind: 'runtime'
          readonly tool: string
          readonly testIndex: number
          readonly userParams: Readonly<Record<string, unknown>>
      }

/** A test's user parameters for the runtime: every key but `_description`, values as written. */
export function userParamsOf(test: unknown): Record<string, unknown> {
    return Object.fromEntries(testInputKeys(test).map((k) => [k, own(test, k)]))
}

/** What the planning stage knows of one tool: its class, keys, tests and how they run. */
export interface ToolMeta {
    readonly cls: ToolClass
    readonly missing: string[]
    readonly withheld: string[]
    readonly parameterless: boolean
    readonly total: number
    readonly distinct: number
    readonly unbuildable: Array<{ index: number; detail: string }>
    readonly runtime: 'needed' | 'used' | null
}

/** The plan of a run: every test as it would go (`planned`) or why it will not, the jobs to send, each tool's meta. */
export interface TestPlan {
    /** `main.tools`, read once. */
    readonly tools: unknown
    readonly toolNames: string[]
    readonly toolMeta: Map<string, ToolMeta>
    readonly planned: PretestTestResult[]
    readonly jobs: Job[]
    readonly findings: Issue[]
}

/** What classifying a tool needs besides the tool: the schema's keys and the run's settings. */
export interface ClassifyScope {
    readonly main: Record<string, unknown>
    readonly settings: PretestSettings
    readonly declaredParams: readonly string[]
    readonly mismatched: ReadonlySet<string>
    readonly findings: Issue[]
}

/** A tool once classified: its class, the keys it lacks or withholds, and whether the runtime runs its tests. */
export interface ToolClassification {
    readonly cls: ToolClass
    readonly missing: string[]
    readonly withheld: string[]
    readonly parameterless: boolean
    readonly viaRuntime: boolean
}

/** Stage "classify": a tool's class, with its DPT-019/013/007/005/015/006/020 findings in that order. */
export function classifyTool(name: string, tool: unknown, testCount: number, scope: ClassifyScope): ToolClassification {
    const { main, settings, findings } = scope
    const parameterless = isParameterless(tool)
    const used = serverParamsUsedBy(main, tool)
    // An undeclared one is not a key the host could give: such tests are reported unbuildable (DPT-012).
    const missing = used
        .filter((p) => scope.declaredParams.includes(p) && !Object.hasOwn(settings.serverParams, p))
        .sort()
    const withheld = used.filter((p) => scope.mismatched.has(p)).sort()
    const method = own(tool, 'method')
    const meta = own(tool, 'meta')
    // 02 §2.1: graders make read-only calls only. PUT/DELETE, or a tool that says it is destructive, is never called.
    const stateChanging =
        method === 'PUT' ||
        method === 'DELETE' ||
        own(meta, 'isDestructive') === true ||
        own(meta, 'isReadOnly') === false
    const cls: ToolClass = stateChanging
        ? 'state-changing'
        : withheld.length > 0
          ? 'withheld'
          : missing.length > 0
            ? 'key-gated'
            : testCount === 0
              ? 'needs-tests'
              : parameterless
                ? 'parameterless'
                : 'normal'
    const base = pointer('tools', name)
    if (cls === 'state-changing')
        findings.push(createIssue('DPT-019', base, { tool: name, method: describeValue(method) }))
    if (cls === 'withheld') findings.push(createIssue('DPT-013', base, { tool: name, params: withheld.join(', ') }))
    if (cls === 'key-gated') {
        findings.push(createIssue('DPT-007', base, { tool: name, params: missing.join(', ') }))
        for (const p of missing) findings.push(createIssue('DPT-005', base, { param: p }))
    }
    if (cls === 'needs-tests') findings.push(createIssue('DPT-015', `${base}/tests`, { tool: name }))
    if (cls === 'parameterless')
        findings.push(createIssue('DPT-006', base, { tool: name, bar: settings.parameterlessBar }))
    // The runtime runs this tool's handlers on every call: a plain request would test something else.
    const viaRuntime = settings.runtimeFor !== 'none' && (cls === 'normal' || cls === 'parameterless')
    if (viaRuntime && settings.runtime === null)
        findings.push(
            createIssue('DPT-020', base, {
                tool: name,
                detail: 'the schema exports handlers; pass a runtime to run its tests'
            })
        )
    return { cls, missing, withheld, parameterless, viaRuntime }
}

/** Why a distinct test of a tool is not sent, as its planned status and coded error; null when it may be sent. */
export function heldBack(
    c: ToolClassification,
    invalid: string | null,
    runtime: RuntimePort | null
): { status: TestStatus; error: string } | null {
    if (c.cls === 'state-changing')
        return { status: 'not-sent', error: coded('DPT-019', 'state-changing tool, not called') }
    if (c.cls === 'withheld')
        return {
            status: 'withheld',
            error: coded('DPT-013', `key withheld (api-key-domain-mismatch): ${c.withheld.join(', ')}`)
        }
    if (c.cls === 'key-gated')
        return { status: 'key-gated', error: coded('DPT-007', `missing server param ${c.missing.join(', ')}`) }
    if (invalid !== null)
        return { status: 'not-sent', error: coded('DPT-009', 'the schema has structural errors: nothing is sent') }
    if (c.viaRuntime && runtime === null)
        return {
            status: 'not-sent',
            error: coded('DPT-020', 'the schema exports handlers: this test runs only through the FlowMCP runtime')
        }
    return null
}

/**
 * Stage "plan tests": each test of one tool planned (duplicates, held back, unbuildable) and the jobs to send, in test
 * order.
 */
export function planToolTests(
    name: string,
    tool: unknown,
    tests: readonly unknown[],
    c: ToolClassification,
    scope: ClassifyScope,
    invalid: string | null,
    out: { planned: PretestTestResult[]; jobs: Job[] }
): { distinct: number; unbuildable: Array<{ index: number; detail: string }> } {
    const { main, settings, findings } = scope
    const base = pointer('tools', name)
    const seen = new Map<string, number>()
    let distinct = 0
    const unbuildable: Array<{ index: number; detail: string }> = []
    tests.forEach((test, testIndex) => {
        const signature = testSignature(test)
        const first = seen.get(signature)
        // Built as one literal (same key order as a spread of the common fields): one object per test, not two.
        const stub = (status: TestStatus, error: string | null): PretestTestResult => ({
            tool: name,
            testIndex,
            httpStatus: null,
            hasData: false,
            working: false,
            responseBytes: null,
            shape: null,
            outputSchemaMatch: null,
            status,
            error
        })
        if (first !== undefined) {
            findings.push(createIssue('DPT-008', `${base}/tests/${testIndex}`, { tool: name, index: testIndex, first }))
            out.planned.push(stub('duplicate', coded('DPT-008', `duplicate of test ${first}`)))
            return
        }
        seen.set(signature, testIndex)
        distinct += 1
        const held = heldBack(c, invalid, settings.runtime)
        if (held !== null) {
            out.planned.push(stub(held.status, held.error))
            return
        }
        if (c.viaRuntime) {
            out.planned.push(stub('planned', null))
            out.jobs.push({ kind: 'runtime', tool: name, testIndex, userParams: userParamsOf(test) })
            return
        }
        const built = buildRequest(main, tool, test, settings.serverParams, settings.timeoutMs)
        if (built.request === null) {
            const detail =
                built.problems.length > 0
                    ? built.problems.join('; ')
                    : `missing server param ${built.missingServerParams.join(', ')}`
            findings.push(
                createIssue('DPT-012', `${base}/tests/${testIndex}`, { tool: name, index: testIndex, detail })
            )
            unbuildable.push({ index: testIndex, detail })
            out.planned.push(stub('unbuildable', coded('DPT-012', detail)))
            return
        }
        out.planned.push(stub('planned', null))
        out.jobs.push({ kind: 'test', tool: name, testIndex, request: built.request })
    })
    return { distinct, unbuildable }
}

/** Stage "plan": every tool classified and its tests planned, then the docs checks (HEAD requests) queued. */
export function planRun(
    main: Record<string, unknown>,
    args: Record<string, unknown>,
    settings: PretestSettings,
    invalid: string | null
): TestPlan {
    const tools = own(main, 'tools')
    const toolNames = keysOf(tools)
    const keyDomain =
        isRecord(args.keyDomain) && Array.isArray(args.keyDomain.mismatches)
            ? (args.keyDomain as unknown as KeyDomainResult)
            : checkKeyDomains(main)
    const scope: ClassifyScope = {
        main,
        settings,
        declaredParams: requiredServerParamsOf(main),
        mismatched: new Set(keyDomain.mismatches.map((m) => m.param)),
        findings: []
    }
    const out = { planned: [] as PretestTestResult[], jobs: [] as Job[] }
    const toolMeta = new Map<string, ToolMeta>()
    for (const name of toolNames) {
        const tool = own(tools, name)
        const tests = testsOf(tool)
        const c = classifyTool(name, tool, tests.length, scope)
        const { distinct, unbuildable } = planToolTests(name, tool, tests, c, scope, invalid, out)
        toolMeta.set(name, {
            cls: c.cls,
            missing: c.missing,
            withheld: c.withheld,
            parameterless: c.parameterless,
            total: tests.length,
            distinct,
            unbuildable,
            runtime: c.viaRuntime ? (settings.runtime === null ? 'needed' : 'used') : null
        })
    }
    const docsList = own(main, 'docs')
    const docsUrls: Array<[number, string]> = Array.isArray(docsList)
        ? docsList.flatMap((u, i) =>
              typeof u === 'string' && /^https?:\/\//i.test(u) ? [[i, u] as [number, string]] : []
          )
        : []
    if (settings.checkDocs) {
        for (const [index, url] of docsUrls)
            out.jobs.push({
                kind: 'docs',
                tool: '',
                testIndex: index,
                request: { url, method: 'HEAD', headers: {}, timeoutMs: settings.timeoutMs }
            })
    }
    return { tools, toolNames, toolMeta, planned: out.planned, jobs: out.jobs, findings: scope.findings }
}
