import * as v from 'valibot'
import type { ErrorCode } from '../errors/catalogue/index.js'
import { describeValue, type IssueParams, typeOfValue } from '../errors/issue.js'
import { fieldPath, pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isObject } from '../model/object.js'

/** Which catalogue codes an API maps valibot's findings to. */
export interface ArgCodes<C extends ErrorCode = ErrorCode> {
    /**
     * `{field}` — a required value is absent (see {@link ArgStyle.missing}). Without it an absent value is a
     * `mismatch` whose actual value is `undefined`.
     */
    readonly missing?: C
    /** `{field}`, `{expected}`, `{actual}` — wrong type, wrong literal, or a failed format/range check. */
    readonly mismatch: C
    /**
     * Creates the issue: `createIssue`, or a factory over only the catalogue groups the caller reports
     * from (`createEntryIssue`), so that a bundle of the caller need not carry the whole catalogue.
     * Written as a method on purpose: its parameters compare both ways, so a factory typed per code (params
     * `{ field, expected, actual }` for a mismatch code alone) is taken as it is; parseArgs passes `{ field }` for
     * `missing` and `{ field, expected, actual }` for `mismatch`, as the docs above promise.
     */
    create(code: C, path: string, params: IssueParams): Issue
}

/** How a finding writes the value received: see {@link ArgWording.actual}. */
export type ArgActual = 'type' | 'value' | 'text' | 'number'

/**
 * How a schema words its own finding, where valibot's default would not say what the API promises: what was
 * expected (`'object keyed by unit'`), how the value received is written, and a field name of its own.
 */
export interface ArgWording {
    readonly expected: string
    /**
     * `'type'`: the value's JSON type (`array`, `null`, `NaN`); `'value'`: the value itself, bounded; `'text'`: a
     * string itself, bounded, and any other value its JSON type; `'number'`: a number itself (`-1`, `1.5`), any
     * other value its JSON type (a count or a limit: `got string`, never the string).
     */
    readonly actual?: ArgActual
    /** A fixed text for the value received (`'incomplete row'`), in place of `actual`. */
    readonly got?: string
    /** A fixed field name (`'serverParams()'`), in place of the one the path gives. */
    readonly field?: string
    /** `false`: an absent value is this mismatch, never the `missing` code (a row's `id` that must match). */
    readonly missing?: false
}

/** How a call's findings are written where a schema gives no {@link ArgWording}. */
export interface ArgStyle {
    /** `'dotted'` (default) `a.0.b`; `'indexed'` `a[0].b`; `'key'` the last key alone (`b`). */
    readonly field?: 'dotted' | 'indexed' | 'key'
    /** How the value received is written: `'value'` (default), `'type'`, `'text'` or `'number'`; see {@link ArgWording.actual}. */
    readonly actual?: ArgActual
    /**
     * Which `undefined` is the `missing` code: `'any'` (default) wherever it stands; `'keys'` only an object's key,
     * so an `undefined` array item or input is a mismatch.
     */
    readonly missing?: 'any' | 'keys'
    /** Where the input stands inside the caller's argument (`['skippedAreas', 2]`): its paths and fields start there. */
    readonly at?: ReadonlyArray<string | number>
}

// A wording travels as the schema's valibot message: this prefix (never in a text a person writes) marks it.
const WORDING = '\u0000arg\u0000'

/**
 * The message a schema takes to word its finding: `v.string(says('file name'))`,
 * `v.custom(isUnit, says({ expected: 'unit id', actual: 'value' }))`.
 */
export function says(wording: string | ArgWording): string {
    return WORDING + JSON.stringify(typeof wording === 'string' ? { expected: wording } : wording)
}

function wordingOf(issue: v.BaseIssue<unknown>): ArgWording | null {
    return issue.message.startsWith(WORDING) ? (JSON.parse(issue.message.slice(WORDING.length)) as ArgWording) : null
}

/** A plain object (not null, not an array), reported as a whole with the wording given. */
export function objectArg(wording: string | ArgWording = { expected: 'object', actual: 'type' }) {
    return v.custom<Record<string, unknown>>(isObject, says(wording))
}

/**
 * The value checked by `schema` but reported as a whole at its own path, with the wording given (one finding
 * for a wrong item, never one per field inside it).
 */
export function wholeArg<S extends v.GenericSchema>(schema: S, wording: string | ArgWording) {
    return v.custom<v.InferOutput<S>>((value) => v.is(schema, value), says(wording))
}

/** `schema`, with a `null` value taken as absent: the `missing` code, as an API that treats both alike reports it. */
export function nullAsMissing<S extends v.GenericSchema>(schema: S) {
    return v.pipe(
        v.unknown(),
        v.transform((value) => (value === null ? undefined : value)),
        schema
    )
}

/**
 * The keys of a JSON Pointer the caller was given (`'/veto/graderIdentity'` → `['veto', 'graderIdentity']`), for
 * {@link ArgStyle.at} where a check is handed its base path as a pointer.
 */
export function pointerKeys(path: string): string[] {
    return path === ''
        ? []
        : path
              .slice(1)
              .split('/')
              .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
}

function pathOf(issue: v.BaseIssue<unknown>, style: ArgStyle): { pointer: string; field: string; item: boolean } {
    const keys = [
        ...(style.at ?? []),
        ...(issue.path ?? []).map((item) =>
            typeof item.key === 'string' || typeof item.key === 'number' ? item.key : String(item.key)
        )
    ]
    const path = pointer(...keys)
    const last = keys.at(-1)
    const field =
        keys.length === 0
            ? 'input'
            : style.field === 'indexed'
              ? fieldPath(path, 'input')
              : style.field === 'key'
                ? String(last)
                : keys.join('.')
    return { pointer: path, field, item: typeof last !== 'string' }
}

function actualOf(input: unknown, how: ArgActual | undefined): string {
    if (how === 'text') return describeValue(typeof input === 'string' ? input : typeOfValue(input))
    if (how === 'number') return typeof input === 'number' ? describeValue(input) : typeOfValue(input)
    return how === 'type' ? typeOfValue(input) : describeValue(input)
}

/**
 * Checks the arguments of one of our own API calls with a valibot schema and maps every finding
 * to a catalogue issue (no valibot type leaks into the public API).
 * @returns `{ value, errors }`; `value` is `null` whenever `errors` is non-empty.
 */
export function parseArgs<TOutput, C extends ErrorCode>(
    schema: v.GenericSchema<unknown, TOutput>,
    input: unknown,
    codes: ArgCodes<C>,
    style: ArgStyle = {}
): { value: TOutput | null; errors: Issue[] } {
    const result = v.safeParse(schema, input, { abortEarly: false })
    if (result.success) {
        return { value: result.output, errors: [] }
    }
    const errors = result.issues.map((issue) => {
        const { pointer: path, field: pathField, item } = pathOf(issue, style)
        const wording = wordingOf(issue)
        const field = wording?.field ?? pathField
        const absent = wording?.missing !== false && !(item && style.missing === 'keys')
        if (codes.missing !== undefined && absent && issue.kind === 'schema' && issue.input === undefined) {
            return codes.create(codes.missing, path, { field })
        }
        const expected =
            wording !== null
                ? wording.expected
                : issue.kind === 'schema'
                  ? (issue.expected ?? issue.type)
                  : `${issue.type} (${issue.expected ?? issue.requirement ?? 'constraint'})`
        return codes.create(codes.mismatch, path, {
            field,
            expected: String(expected),
            actual: wording?.got ?? actualOf(issue.input, wording?.actual ?? style.actual)
        })
    })
    return { value: null, errors }
}
