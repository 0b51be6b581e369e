// Stage "blockers": why a tool cannot be graded (first match wins) and the detail each reason names.
import type { Issue } from '../errors/types.js'
import { BLOCKED_REASONS, fewerThanWorkingTests, type BlockedReason } from '../model/constants.js'
import type { ToolClass, TestVerdict, PretestTestResult } from './types.js'

/**
 * Why a tool cannot be graded, first match wins: never called (state-changing), key withheld, key
 * missing, no tests, fewer buildable tests than the bar (certain before anything is sent, so offline
 * too), then, once the tests ran, fewer working tests than the bar. `detail` names the cause.
 */
export function blockerOf(
    meta: {
        cls: ToolClass
        missing: readonly string[]
        withheld: readonly string[]
        parameterless: boolean
        distinct: number
        unbuildable: ReadonlyArray<{ index: number; detail: string }>
        runtime: 'needed' | 'used' | null
    },
    run: {
        ran: boolean
        working: number
        bar: number
        invalid: string | null
        notGranted: number
        failed: readonly PretestTestResult[]
    }
): { reason: BlockedReason; detail: string } | null {
    const names = (list: readonly string[]): string => list.join(', ')
    if (run.invalid !== null) return { reason: BLOCKED_REASONS.invalidSchema, detail: run.invalid }
    if (meta.cls === 'state-changing')
        return {
            reason: BLOCKED_REASONS.stateChanging,
            detail: 'the tool changes state (PUT/DELETE or meta says so); graders never call it'
        }
    if (meta.cls === 'withheld')
        return {
            reason: BLOCKED_REASONS.keyDomainMismatch,
            detail: `the key ${names(meta.withheld)} is not sent to this host (its name belongs to another company's domain)`
        }
    if (meta.cls === 'key-gated')
        return {
            reason: BLOCKED_REASONS.keyGated,
            detail: `not tested: set ${names(meta.missing)} (required server param${meta.missing.length > 1 ? 's' : ''} of the schema) to test it`
        }
    if (meta.cls === 'needs-tests')
        return {
            reason: BLOCKED_REASONS.noTests,
            detail: 'the tool declares no tests; add at least one test to main.tools.<tool>.tests'
        }
    if (meta.runtime === 'needed')
        return {
            reason: BLOCKED_REASONS.handlersNeedRuntime,
            detail: 'not tested: the schema exports handlers, which the FlowMCP runtime runs on every call of this tool; pass a runtime (options.runtime, CLI --runtime <flowmcp-core folder>) to test it as the runtime runs it'
        }
    const buildable = meta.distinct - meta.unbuildable.length
    if (meta.unbuildable.length > 0 && buildable < run.bar) {
        // One line per distinct cause, naming its tests: the same undeclared param on every test is said once.
        const byCause = new Map<string, number[]>()
        for (const u of meta.unbuildable) byCause.set(u.detail, [...(byCause.get(u.detail) ?? []), u.index])
        const causes = [...byCause.entries()].map(
            ([detail, tests]) => `${tests.length > 1 ? 'tests' : 'test'} ${tests.join(', ')}: ${detail}`
        )
        return {
            reason: BLOCKED_REASONS.unbuildableTests,
            detail: `only ${buildable} of ${meta.distinct} distinct tests can be built, ${run.bar} needed (${causes.join('; ')})`
        }
    }
    // A tool is graded only on tests that ran: offline or in a dry run nothing says it works.
    if (!run.ran) return { reason: BLOCKED_REASONS.untested, detail: UNTESTED_DETAIL }
    if (run.working < run.bar && run.notGranted > 0) {
        return {
            reason: BLOCKED_REASONS.networkNotGranted,
            detail: `not tested: ${run.notGranted} of its tests tried the network, which the runtime child is not granted offline (nor under --recordings, beyond fetch answered from the recordings); pass --live to test it against its API, or --recordings <dir> with recordings of its requests`
        }
    }
    const environment = environmentBlocker(run)
    if (environment !== null) return environment
    if (run.working < run.bar)
        return meta.parameterless
            ? {
                  reason: BLOCKED_REASONS.noWorkingTest,
                  detail: `the test did not return data${notWorkingDetail(run.failed)}`
              }
            : {
                  reason: fewerThanWorkingTests(run.bar),
                  detail: `${run.working} of ${meta.distinct} distinct tests returned data, ${run.bar} needed${notWorkingDetail(run.failed)}`
              }
    return null
}

/**
 * The test verdicts of the environment, in the order they name a blocked tool's reason: a library that does not load
 * fails every test, shared lists not given fail every handler that reads them, a missing recording one request.
 */
export const ENVIRONMENT_VERDICTS: ReadonlyArray<readonly [TestVerdict, BlockedReason]> = [
    ['library-not-installed', BLOCKED_REASONS.libraryNotInstalled],
    ['shared-lists-not-given', BLOCKED_REASONS.sharedListsNotGiven],
    ['missing-recording', BLOCKED_REASONS.missingRecording]
]

/**
 * A tool below its bar only because of where it ran: had its tests that failed for the environment (a missing
 * recording, no shared lists, a library not installed) worked, it would have reached the bar. Null when its own
 * failures keep it below the bar anyway (then it is blocked for its working count, its detail naming every test).
 */
export function environmentBlocker(run: {
    working: number
    bar: number
    failed: readonly PretestTestResult[]
}): { reason: BlockedReason; detail: string } | null {
    if (run.working >= run.bar) return null
    const held = run.failed.filter((r) => ENVIRONMENT_VERDICTS.some(([v]) => v === r.verdict))
    if (held.length === 0 || run.working + held.length < run.bar) return null
    const [verdict, reason] = ENVIRONMENT_VERDICTS.find(([v]) => held.some((r) => r.verdict === v)) as [
        TestVerdict,
        BlockedReason
    ]
    const first = held.find((r) => r.verdict === verdict) as PretestTestResult
    const count = `${run.working} of its tests returned data, ${run.bar} needed`
    if (reason === BLOCKED_REASONS.missingRecording) {
        const lacking = `the recordings lack requests of ${held.length} of its tests (${count})`
        return { reason, detail: `not tested here: ${lacking}; ${RECORD_HINT}${notWorkingDetail(run.failed)}` }
    }
    const said = `test ${first.testIndex}: ${(first.error ?? '').replace(/^DPT-\d{3}: /, '')}`
    const why = reason === BLOCKED_REASONS.sharedListsNotGiven ? LISTS_HINT : LIBRARY_HINT
    return { reason, detail: `not tested here: ${why} (${count}; ${said})` }
}

/** What to do about a tool below its bar for missing recordings. */
export const RECORD_HINT = 'record them (grade --live --record <dir>) to test it'
/** What to do about a tool whose handlers need the shared lists. */
export const LISTS_HINT =
    'the schema declares shared lists, the runtime has none; pass --runtime-lists <folder> (listsDir)'
/** What to do about a tool whose library is not installed. */
export const LIBRARY_HINT =
    'a library the schema requires is not installed here; install it in the --runtime-libraries folder'

/** Most failed tests a blocked tool's detail names one by one; the rest are counted. */
export const FAILED_TESTS_NAMED = 5

/**
 * The sent tests that did not return data, named with why (`; not working: test 1: the recordings
 * lack GET …; test 2: http-error (HTTP 500)`), so a tool below its bar says which tests to look at and
 * whether a recording is missing. Empty when none failed.
 */
export function notWorkingDetail(failed: readonly PretestTestResult[]): string {
    if (failed.length === 0) return ''
    const named = failed.slice(0, FAILED_TESTS_NAMED).map((r) => {
        const missing = (r.requests ?? []).find((q) => q.missingRecording)
        if (missing !== undefined)
            return `test ${r.testIndex}: the recordings lack ${missing.method} ${missing.url.length > 300 ? `${missing.url.slice(0, 297)}...` : missing.url} (re-record it)`
        return `test ${r.testIndex}: ${r.verdict ?? 'failed'}${r.httpStatus !== null && r.httpStatus !== 200 ? ` (HTTP ${r.httpStatus})` : ''}`
    })
    const more = failed.length > FAILED_TESTS_NAMED ? `; and ${failed.length - FAILED_TESTS_NAMED} more` : ''
    return `; not working: ${named.join('; ')}${more}`
}

/** How to get an untested tool tested, in words (the CLI flags and the library options). */
export const UNTESTED_DETAIL =
    'not tested: its tests did not run, so nothing shows the tool works; run them live (CLI --live, options.http) or from recorded responses (CLI --recordings <dir>, a replay HTTP port) to grade it'

/** Why the runtime would refuse the schema: every error-level structural finding, with its place. */
export function invalidDetail(structural: readonly Issue[]): string {
    const listed = structural.map((i) => `${i.code} at ${i.path === '' ? '/' : i.path}: ${i.message}`)
    return `the FlowMCP runtime refuses this schema (${structural.length} structural error${structural.length === 1 ? '' : 's'}): ${listed.join('; ')}. Fix ${structural.length === 1 ? 'it' : 'them'} and grade again`
}
