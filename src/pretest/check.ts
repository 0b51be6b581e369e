// Stage "check input": the arguments read once (DPT-001, DPT-002), the schema's structure, and the run's settings.
import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
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
import { type ArgCodes, parseArgs, says } from '../validation/args.js'

// Absent where required: DPT-001; wrong type, range or format: DPT-002. Each schema words its finding as the checks
// written by hand did (`integer >= 1`, `HttpPort`, the value or only its type); see docs/contributing.md.
const ARGS: ArgCodes<'DPT-001' | 'DPT-002'> = { missing: 'DPT-001', mismatch: 'DPT-002', create: createIssue }
const STYLE = { actual: 'type' } as const

const wholeNumber = (min: number) =>
    v.optional(
        v.custom<number>(
            (n) => typeof n === 'number' && Number.isInteger(n) && n >= min,
            says({ expected: `integer >= ${min}`, actual: 'value' })
        )
    )
const COUNTS = v.looseObject({
    minWorkingTests: wholeNumber(1),
    parameterlessMinWorkingTests: wholeNumber(1),
    concurrency: wholeNumber(1),
    timeoutMs: wholeNumber(1),
    throttleMs: wholeNumber(0)
})
// The cap is read on any number (Infinity is over it too), after every count, as its own finding.
const CONCURRENCY_CAP = v.looseObject({
    concurrency: v.optional(
        v.custom(
            (n) => !(typeof n === 'number' && n > PRETEST_DEFAULTS.maxConcurrency),
            says({ expected: `integer 1..${PRETEST_DEFAULTS.maxConcurrency}`, actual: 'value' })
        )
    )
})
const FUNCTION = v.optional(v.custom<(...args: never[]) => unknown>((f) => typeof f === 'function', says('function')))
const NOW_FLAGS_CALLBACKS = v.looseObject({
    now: v.custom<string>(isIsoDateTime, says({ expected: 'ISO-8601 date-time', actual: 'value' })),
    dryRun: v.optional(v.boolean(says('boolean'))),
    checkDocs: v.optional(v.boolean(says('boolean'))),
    sleep: FUNCTION,
    transform: FUNCTION
})
// A port may be an object or a function with a `send`: valibot's object schemas take no function, so `send` is
// read on its own once the port passed.
const HTTP = v.looseObject({
    http: v.nullish(v.custom((h) => typeof h === 'object' || typeof h === 'function', says('HttpPort')))
})
const SEND = v.looseObject({
    send: v.custom((f) => typeof f === 'function', says({ expected: 'function', missing: false }))
})
const SERVER_PARAMS = v.looseObject({
    serverParams: v.optional(v.custom<Record<string, unknown>>(isRecord, says('object of strings')))
})
const PARAM = v.string(says({ expected: 'string', missing: false }))

/** The counts and durations: whole numbers (throttleMs may be 0), concurrency at most the cap. */
export function checkCountOptions(input: Record<string, unknown>, errors: Issue[]): void {
    errors.push(...parseArgs(COUNTS, input, ARGS, STYLE).errors)
    errors.push(...parseArgs(CONCURRENCY_CAP, input, ARGS, STYLE).errors)
}

/** `now` (required), the boolean flags and the two callbacks. */
export function checkNowFlagsAndCallbacks(input: Record<string, unknown>, errors: Issue[]): void {
    errors.push(...parseArgs(NOW_FLAGS_CALLBACKS, input, ARGS, STYLE).errors)
}

/** The HTTP port (absent or null means no live calls) and the server params, each value a string. */
export function checkHttpAndServerParams(input: Record<string, unknown>, errors: Issue[]): void {
    const port = parseArgs(HTTP, input, ARGS, STYLE)
    errors.push(...port.errors)
    const http = port.value?.http
    if (http !== undefined && http !== null) {
        errors.push(
            ...parseArgs(SEND, { send: (http as { send?: unknown }).send }, ARGS, { ...STYLE, at: ['http'] }).errors
        )
    }
    const params = parseArgs(SERVER_PARAMS, input, ARGS, STYLE)
    errors.push(...params.errors)
    const serverParams = params.value?.serverParams
    if (serverParams !== undefined) {
        // One entry per key the caller gave: a record schema would pass over `constructor` or `__proto__`.
        const each = v.looseObject(Object.fromEntries(Object.keys(serverParams).map((key) => [key, PARAM])))
        errors.push(...parseArgs(each, serverParams, ARGS, { ...STYLE, at: ['serverParams'] }).errors)
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

// Any object is read for its fields (an array too: its `main` is then missing); `main` must be a plain object.
const INPUT = v.custom<object>((x) => typeof x === 'object' && x !== null, says({ expected: 'object', missing: false }))
const MAIN = v.looseObject({ main: v.custom<Record<string, unknown>>(isRecord, says('object')) })

/** Stage "check input": the arguments as read, or the result that ends the run (DPT-001, DPT-002). */
export function checkInput(
    input: unknown
): { checked: CheckedInput; early: null } | { checked: null; early: PretestResult } {
    const root = parseArgs(INPUT, input, ARGS, STYLE)
    if (root.value === null) {
        return { checked: null, early: emptyResult('invalid-input', MIN_WORKING_TESTS, root.errors, undefined) }
    }
    const args = input as Record<string, unknown>
    const minWorkingTests =
        typeof args.minWorkingTests === 'number' && Number.isInteger(args.minWorkingTests) && args.minWorkingTests >= 1
            ? args.minWorkingTests
            : MIN_WORKING_TESTS
    const main = args.main
    const optionErrors = checkOptions(args).errors
    optionErrors.unshift(...parseArgs(MAIN, args, ARGS, STYLE).errors)
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
