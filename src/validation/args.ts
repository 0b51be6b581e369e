import * as v from 'valibot'
import type { ErrorCode } from '../errors/catalogue/index.js'
import { describeValue, type IssueParams } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'

/** Which catalogue codes an API maps valibot's findings to. */
export interface ArgCodes<C extends ErrorCode = ErrorCode> {
    /** `{field}` — a required key is absent. */
    readonly missing: C
    /** `{field}`, `{expected}`, `{actual}` — wrong type, wrong literal, or a failed format/range check. */
    readonly mismatch: C
    /**
     * Creates the issue: `createIssue`, or a factory over only the catalogue groups the caller reports
     * from (`createEntryIssue`), so that a bundle of the caller need not carry the whole catalogue.
     */
    readonly create: (code: C, path: string, params: IssueParams) => Issue
}

function pathOf(issue: v.BaseIssue<unknown>): { pointer: string; field: string } {
    const keys = (issue.path ?? []).map((item) =>
        typeof item.key === 'string' || typeof item.key === 'number' ? item.key : String(item.key)
    )
    return { pointer: pointer(...keys), field: keys.length > 0 ? keys.join('.') : 'input' }
}

/**
 * Checks the arguments of one of our own API calls with a valibot schema and maps every finding
 * to a catalogue issue (no valibot type leaks into the public API).
 * @returns `{ value, errors }`; `value` is `null` whenever `errors` is non-empty.
 */
export function parseArgs<TOutput, C extends ErrorCode>(
    schema: v.GenericSchema<unknown, TOutput>,
    input: unknown,
    codes: ArgCodes<C>
): { value: TOutput | null; errors: Issue[] } {
    const result = v.safeParse(schema, input, { abortEarly: false })
    if (result.success) {
        return { value: result.output, errors: [] }
    }
    const errors = result.issues.map((issue) => {
        const { pointer: path, field } = pathOf(issue)
        if (issue.kind === 'schema' && issue.input === undefined) {
            return codes.create(codes.missing, path, { field })
        }
        const expected =
            issue.kind === 'schema'
                ? (issue.expected ?? issue.type)
                : `${issue.type} (${issue.expected ?? issue.requirement ?? 'constraint'})`
        return codes.create(codes.mismatch, path, {
            field,
            expected: String(expected),
            actual: describeValue(issue.input)
        })
    })
    return { value: null, errors }
}
