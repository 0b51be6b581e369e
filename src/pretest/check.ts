// Stage "check input": the arguments read once (DPT-001, DPT-002), the schema's structure, and the run's settings.
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isIsoDateTime } from '../time.js'
import { secretForms } from '../prompts/redact.js'
import { isRecord } from '../schema/shape.js'
import { validateMain } from '../schema/validate-main.js'
import type { RuntimePort } from '../ports/types.js'
import type { HttpPort } from './http.js'
import { SEVERITY, MIN_WORKING_TESTS } from '../model/constants.js'
import { PARAMETERLESS_MIN_WORKING_TESTS, PRETEST_DEFAULTS, type PretestResult, type PretestInput } from './types.js'
import { invalidDetail } from './blockers.js'

/** The counts and durations: whole numbers (throttleMs may be 0), concurrency at most the cap. */
export function checkCountOptions(input: Record<string, unknown>, errors: Issue[]): void {
    const positiveInt = (field: string, allowZero: boolean): void => {
        const v = input[field]
        if (v === undefined) return
        if (typeof v !== 'number' || !Number.isInteger(v) || v < (allowZero ? 0 : 1)) {
            errors.push(
                createIssue('DPT-002', `/${field}`, {
                    field,
                    expected: allowZero ? 'integer >= 0' : 'integer >= 1',
                    actual: describeValue(v)
                })
            )
        }
    }
    positiveInt('minWorkingTests', false)
    positiveInt('parameterlessMinWorkingTests', false)
    positiveInt('concurrency', false)
    positiveInt('timeoutMs', false)
    positiveInt('throttleMs', true)
    if (typeof input.concurrency === 'number' && input.concurrency > PRETEST_DEFAULTS.maxConcurrency) {
        errors.push(
            createIssue('DPT-002', '/concurrency', {
                field: 'concurrency',
                expected: `integer 1..${PRETEST_DEFAULTS.maxConcurrency}`,
                actual: describeValue(input.concurrency)
            })
        )
    }
}

/** `now` (required), the boolean flags and the two callbacks. */
export function checkNowFlagsAndCallbacks(input: Record<string, unknown>, errors: Issue[]): void {
    if (input.now === undefined) errors.push(createIssue('DPT-001', '/now', { field: 'now' }))
    else if (!isIsoDateTime(input.now))
        errors.push(
            createIssue('DPT-002', '/now', {
                field: 'now',
                expected: 'ISO-8601 date-time',
                actual: describeValue(input.now)
            })
        )
    for (const field of ['dryRun', 'checkDocs'] as const) {
        if (input[field] !== undefined && typeof input[field] !== 'boolean')
            errors.push(
                createIssue('DPT-002', `/${field}`, { field, expected: 'boolean', actual: typeOfValue(input[field]) })
            )
    }
    for (const field of ['sleep', 'transform'] as const) {
        if (input[field] !== undefined && typeof input[field] !== 'function')
            errors.push(
                createIssue('DPT-002', `/${field}`, { field, expected: 'function', actual: typeOfValue(input[field]) })
            )
    }
}

/** The HTTP port (absent or null means no live calls) and the server params, each value a string. */
export function checkHttpAndServerParams(input: Record<string, unknown>, errors: Issue[]): void {
    const http = input.http
    if (http !== undefined && http !== null) {
        if (typeof http !== 'object' && typeof http !== 'function')
            errors.push(
                createIssue('DPT-002', '/http', { field: 'http', expected: 'HttpPort', actual: typeOfValue(http) })
            )
        else if (typeof (http as { send?: unknown }).send !== 'function')
            errors.push(
                createIssue('DPT-002', '/http/send', {
                    field: 'http.send',
                    expected: 'function',
                    actual: typeOfValue((http as { send?: unknown }).send)
                })
            )
    }
    const serverParams = input.serverParams
    if (serverParams !== undefined && !isRecord(serverParams)) {
        errors.push(
            createIssue('DPT-002', '/serverParams', {
                field: 'serverParams',
                expected: 'object of strings',
                actual: typeOfValue(serverParams)
            })
        )
    } else if (isRecord(serverParams)) {
        for (const key of Object.keys(serverParams)) {
            if (typeof serverParams[key] !== 'string')
                errors.push(
                    createIssue('DPT-002', pointer('serverParams', key), {
                        field: `serverParams.${key}`,
                        expected: 'string',
                        actual: typeOfValue(serverParams[key])
                    })
                )
        }
    }
}

/** Every option, always in this order so the error list is stable; a throttle needs a sleep to wait with. */
export function checkOptions(input: Record<string, unknown>): { errors: Issue[] } {
    const errors: Issue[] = []
    checkCountOptions(input, errors)
    checkNowFlagsAndCallbacks(input, errors)
    checkHttpAndServerParams(input, errors)
    if (typeof input.throttleMs === 'number' && input.throttleMs > 0 && typeof input.sleep !== 'function') {
        errors.push(createIssue('DPT-001', '/sleep', { field: 'sleep (required when throttleMs > 0)' }))
    }
    return { errors }
}

export function emptyResult(
    reason: PretestResult['reason'],
    minWorkingTests: number,
    errors: Issue[],
    now: unknown
): PretestResult {
    return {
        ran: false,
        reason,
        dryRun: false,
        checkedAt: typeof now === 'string' && isIsoDateTime(now) ? now : null,
        minWorkingTests,
        results: [],
        tools: {},
        docs: [],
        blocked: [],
        ok: false,
        findings: [],
        errors
    }
}

/** The run's settings, read once from the checked input (defaults filled in). */
export interface PretestSettings {
    readonly now: string
    readonly serverParams: Readonly<Record<string, string>>
    readonly secrets: readonly string[]
    readonly http: HttpPort | null
    readonly dryRun: boolean
    readonly parameterlessBar: number
    readonly concurrency: number
    readonly timeoutMs: number
    readonly throttleMs: number
    readonly sleep: ((ms: number) => Promise<void>) | undefined
    readonly transform: PretestInput['transform']
    readonly checkDocs: boolean
    readonly runtime: RuntimePort | null
    readonly runtimeFor: 'all' | 'handlers' | 'none'
    readonly schemaPath: string | null
}

/** The input once checked: its fields, `main` as an object and the working-test bar. */
export interface CheckedInput {
    readonly args: Record<string, unknown>
    readonly main: Record<string, unknown>
    readonly minWorkingTests: number
}

/** Stage "check input": the arguments as read, or the result that ends the run (DPT-001, DPT-002). */
export function checkInput(
    input: unknown
): { checked: CheckedInput; early: null } | { checked: null; early: PretestResult } {
    if (!isRecord(input) && !(typeof input === 'object' && input !== null)) {
        return {
            checked: null,
            early: emptyResult(
                'invalid-input',
                MIN_WORKING_TESTS,
                [createIssue('DPT-002', '', { field: 'input', expected: 'object', actual: typeOfValue(input) })],
                undefined
            )
        }
    }
    const args = input as Record<string, unknown>
    const minWorkingTests =
        typeof args.minWorkingTests === 'number' && Number.isInteger(args.minWorkingTests) && args.minWorkingTests >= 1
            ? args.minWorkingTests
            : MIN_WORKING_TESTS
    const main = args.main
    const optionErrors = checkOptions(args).errors
    if (main === undefined) optionErrors.unshift(createIssue('DPT-001', '/main', { field: 'main' }))
    else if (!isRecord(main))
        optionErrors.unshift(
            createIssue('DPT-002', '/main', { field: 'main', expected: 'object', actual: typeOfValue(main) })
        )
    if (optionErrors.length > 0)
        return { checked: null, early: emptyResult('invalid-input', minWorkingTests, optionErrors, args.now) }
    return { checked: { args, main: main as Record<string, unknown>, minWorkingTests }, early: null }
}

/**
 * Stage "structure": why the runtime would refuse the schema (`invalid`, null when it would not) and its DPT-009 error.
 */
export function structuralOf(
    args: Record<string, unknown>,
    main: Record<string, unknown>
): { invalid: string | null; structuralErrors: Issue[] } {
    // A caller that validated `main` already (gradeSingleSchema) passes the result: nothing is computed twice.
    const given =
        isRecord(args.validation) && Array.isArray(args.validation.errors) ? (args.validation.errors as Issue[]) : null
    const structural = (given ?? validateMain(main)).filter((i) => i.severity === SEVERITY.error)
    // A schema the runtime would refuse is never tested or graded, but its tools are still classified
    // (keys, handlers, tests), so damage elsewhere never hides why a tool could not be tested.
    const invalid = structural.length > 0 ? invalidDetail(structural) : null
    const structuralErrors =
        structural.length > 0
            ? [
                  createIssue('DPT-009', '/main', {
                      detail: `${structural.length} structural error(s), first ${structural[0]?.code ?? ''} at ${structural[0]?.path ?? ''}`
                  })
              ]
            : []
    return { invalid, structuralErrors }
}

/** Stage "settings": every option with its default. */
export function settingsOf(args: Record<string, unknown>): PretestSettings {
    const serverParams = (isRecord(args.serverParams) ? args.serverParams : {}) as Readonly<Record<string, string>>
    return {
        now: args.now as string,
        serverParams,
        // Every value the host gave, however short, is erased at any depth of what the pretest keeps. A placeholder
        // given for a key (a replay without it) is no secret (secretForms skips it): request records keep it as
        // recordings do.
        secrets: secretForms(serverParams, 1),
        http: (args.http ?? null) as HttpPort | null,
        dryRun: args.dryRun === true,
        parameterlessBar:
            typeof args.parameterlessMinWorkingTests === 'number'
                ? args.parameterlessMinWorkingTests
                : PARAMETERLESS_MIN_WORKING_TESTS,
        concurrency: typeof args.concurrency === 'number' ? args.concurrency : PRETEST_DEFAULTS.concurrency,
        timeoutMs: typeof args.timeoutMs === 'number' ? args.timeoutMs : PRETEST_DEFAULTS.timeoutMs,
        throttleMs: typeof args.throttleMs === 'number' ? args.throttleMs : PRETEST_DEFAULTS.throttleMs,
        sleep: typeof args.sleep === 'function' ? (args.sleep as (ms: number) => Promise<void>) : undefined,
        transform: typeof args.transform === 'function' ? (args.transform as PretestInput['transform']) : undefined,
        checkDocs: args.checkDocs !== false,
        runtime:
            isRecord(args.runtime) && typeof (args.runtime as { run?: unknown }).run === 'function'
                ? (args.runtime as unknown as RuntimePort)
                : null,
        runtimeFor: args.runtimeTools === 'all' ? 'all' : args.hasHandlers === true ? 'handlers' : 'none',
        schemaPath: typeof args.schemaPath === 'string' ? args.schemaPath : null
    }
}
