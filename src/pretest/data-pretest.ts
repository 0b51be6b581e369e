// The data pretest, stage by stage (runPretest): check the input (check.ts), classify each tool and plan its tests
// (plan.ts), send every job through its port (send.ts), collect the outcomes and summarise each tool (summary.ts);
// why a tool is blocked is blockers.ts, the public types and defaults types.ts (re-exported here).
import { createIssue } from '../errors/issue.js'
import { redactSecretsDeep } from '../prompts/redact.js'
import { isRecord, own } from '../schema/shape.js'
import type { HttpPort } from './http.js'
import { MIN_WORKING_TESTS } from '../model/constants.js'
import { guardStatics } from '../errors/guard.js'
import type { PretestResult, PretestInput } from './types.js'
import { emptyResult, checkInput, structuralOf, settingsOf } from './check.js'
import { planRun } from './plan.js'
import { sendJobs } from './send.js'
import { type SummaryScope, summarise, collectOutcomes } from './summary.js'

/**
 * Runs each tool's `tests[]` against the live API through the host's {@link HttpPort}
 * (02 §2.1, 06 §19.5) and keeps only what grading needs. Never throws and never rejects: a port
 * that throws or answers garbage becomes a failed test with a coded reason.
 */
export async function runPretest(input: unknown): Promise<PretestResult> {
    const { checked, early } = checkInput(input)
    if (checked === null) return early
    const { args, main, minWorkingTests } = checked
    const { invalid, structuralErrors } = structuralOf(args, main)
    if (invalid !== null && !isRecord(own(main, 'tools')))
        return emptyResult('structural-validation-failed', minWorkingTests, structuralErrors, args.now)
    const settings = settingsOf(args)
    const { now, secrets, dryRun, http } = settings
    const plan = planRun(main, args, settings, invalid)
    const { findings, planned } = plan

    // Offline with a runtime, the runtime's tests still run: its child has no network, no HTTP port is
    // needed. Every test that could be sent is a runtime job then (the docs checks need HTTP: dropped).
    const offlineRuntime = invalid === null && !dryRun && http === null && plan.jobs.some((j) => j.kind === 'runtime')
    const scope: SummaryScope = {
        plan,
        minWorkingTests,
        parameterlessBar: settings.parameterlessBar,
        invalid,
        offlineRuntime
    }
    if (!offlineRuntime && (dryRun || http === null || invalid !== null)) {
        const reason = invalid !== null ? 'structural-validation-failed' : dryRun ? 'dry-run' : 'no-http-port'
        if (!dryRun && invalid === null) findings.push(createIssue('DPT-014', '/http'))
        const summary = summarise(planned, false, scope)
        return redactSecretsDeep(
            {
                ran: false,
                reason,
                dryRun,
                checkedAt: now,
                minWorkingTests,
                results: planned,
                ...summary,
                docs: [],
                findings,
                errors: structuralErrors
            },
            secrets,
            Infinity
        )
    }
    const jobs = offlineRuntime ? plan.jobs.filter((j) => j.kind === 'runtime') : plan.jobs
    const outcomes = await sendJobs(jobs, { main, tools: plan.tools, settings })
    const { results, docs } = collectOutcomes(jobs, outcomes, planned, findings)
    const summary = summarise(results, true, scope)
    return redactSecretsDeep(
        {
            ran: true,
            reason: null,
            dryRun: false,
            checkedAt: now,
            minWorkingTests,
            results,
            ...summary,
            docs,
            findings,
            errors: []
        },
        secrets,
        Infinity
    )
}

/**
 * The live data pretest (02 §2.1, 06 §19.5): runs each tool's tests through an injected
 * {@link HttpPort} and keeps only what grading needs — status, data present, working, size, a
 * type sketch, the output-schema verdict, and each test's requests (method, URL with every key
 * written `{{SERVER_PARAM:<KEY>}}`, status) with its verdict. Headers, key values and bodies are
 * never kept, and every string is scrubbed of `serverParams` values.
 */
class DataPretestUnguarded {
    private constructor() {}

    /**
     * Runs the pretest. Key-gated tools (a server param they use is absent) and tools whose key
     * fails the key-domain check are never called. A tool below its working-test bar (3, ⚠ B4;
     * 1 for a parameterless tool) is `blocked` with `fewer-than-3-working-tests`. Duplicate tests
     * (same inputs, `_description` ignored) count once. Without `http` nothing is sent
     * (`ran: false`, `reason: 'no-http-port'`); `dryRun` returns the plan.
     * @param input - `{ main, http, serverParams, now, dryRun, minWorkingTests = 3, concurrency = 4, timeoutMs = 15000,
     *   throttleMs = 0, sleep?, checkDocs = true, transform? }`
     * @returns `Promise<{ ran, reason, dryRun, checkedAt, minWorkingTests, results, tools, docs, blocked, ok, findings,
     *   errors }>`; never rejects. Errors DPT-001/DPT-002 (arguments), DPT-009 (structural); findings DPT-003…DPT-008,
     *   DPT-010…DPT-021.
     * @example
     * const result = await DataPretest.run({
     *     main,
     *     http,
     *     serverParams: { ETHERSCAN_API_KEY: key },
     *     now: '2026-05-29T10:00:00Z'
     * })
     */
    static async run(input: PretestInput): Promise<PretestResult> {
        try {
            return await runPretest(input)
        } catch {
            // Reached only through a bug or a hostile getter on the input; still no rejection.
            return emptyResult(
                'invalid-input',
                MIN_WORKING_TESTS,
                [
                    createIssue('DPT-002', '', {
                        field: 'input',
                        expected: 'readable plain object',
                        actual: 'unreadable value'
                    })
                ],
                undefined
            )
        }
    }
}

/**
 * The public DataPretest: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const DataPretest = /* @__PURE__ */ guardStatics(DataPretestUnguarded, 'DataPretest')

// The public names of the pretest, from the modules of its stages.
export {
    PARAMETERLESS_MIN_WORKING_TESTS,
    PRETEST_DEFAULTS,
    RESPONSE_SIZE_LIMITS,
    testRecordsOf,
    type DocsCheck,
    type PretestInput,
    type PretestResult,
    type PretestTestRecord,
    type PretestTestResult,
    type PretestToolSummary,
    type TestRequestRecord,
    type TestStatus,
    type TestVerdict,
    type ToolClass
} from './types.js'
export { UNTESTED_DETAIL } from './blockers.js'
