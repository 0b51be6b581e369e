import { CATALOGUE } from '../errors/catalogue/index.js'
import * as v from 'valibot'
import { parseArgs, says, wholeArg, nullAsMissing } from '../validation/args.js'
import { createIssue } from '../errors/issue.js'
import type { ErrorCodeDefinition, Issue, Severity } from '../errors/types.js'
import { guardStatics } from '../errors/guard.js'

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info']
const ALL: readonly ErrorCodeDefinition[] = Object.freeze(Object.values(CATALOGUE))

function prefixOf(code: string): string {
    return code.split('-')[0] ?? code
}

const PREFIXES: readonly string[] = [...new Set(ALL.map((d) => prefixOf(d.code)))]

/** The codes of the argument checks: GRD-001 missing, GRD-002 wrong type. */
const CODE_ARGS = { missing: 'GRD-001', mismatch: 'GRD-002', create: createIssue } as const
/** A filter that names no prefix or severity is a value outside a closed list (GRD-010), not a wrong type. */
const FILTER_ARGS = { missing: 'GRD-001', mismatch: 'GRD-010', create: createIssue } as const
const FILTER = v.object({
    prefix: v.optional(v.picklist(PREFIXES, says({ expected: PREFIXES.join(', '), actual: 'value' }))),
    severity: v.optional(v.picklist(SEVERITIES, says({ expected: SEVERITIES.join(', '), actual: 'value' })))
})
const CODE = nullAsMissing(v.string())
// An issue as a whole: one finding, never one per field; an absent one is a wrong one (no GRD-001).
const ISSUE = wholeArg(v.object({ code: v.string(), message: v.string(), path: v.string() }), {
    expected: '{ code, severity, message, path }',
    actual: 'type',
    missing: false
})

/**
 * The error-code catalogue: every code the library emits, with severity, message template and the
 * spec rule it enforces. The catalogue is frozen and cannot be extended at runtime.
 */
class ErrorCodesUnguarded {
    private constructor() {}

    /**
     * Lists catalogue rows, optionally filtered by prefix (`'GRD'`) and severity.
     * @param input - `{ prefix?, severity? }`
     * @returns `{ codes, errors }`; an unknown prefix or severity gives `GRD-010` and no codes.
     * @example ErrorCodes.list({ prefix: 'VET' }).codes.map((c) => c.code)
     */
    static list(input: { prefix?: unknown; severity?: unknown } = {}): {
        codes: ErrorCodeDefinition[]
        errors: Issue[]
    } {
        const { prefix, severity } = input ?? {}
        const { errors } = parseArgs(FILTER, { prefix, severity }, FILTER_ARGS)
        if (errors.length > 0) {
            return { codes: [], errors }
        }
        const codes = ALL.filter(
            (d) =>
                (prefix === undefined || prefixOf(d.code) === prefix) &&
                (severity === undefined || d.severity === severity)
        )
        return { codes, errors }
    }

    /**
     * The distinct code prefixes in catalogue order.
     * @returns `{ prefixes }`
     * @example ErrorCodes.prefixes().prefixes.includes('GRD') // true
     */
    static prefixes(): { prefixes: string[] } {
        return { prefixes: [...PREFIXES] }
    }

    /**
     * Looks up one code.
     * @param input - `{ code }`
     * @returns `{ entry, found, errors }`; a non-string code gives `GRD-002`, an unknown one `found: false`.
     * @example ErrorCodes.get({ code: 'GRD-005' }).entry?.rule
     */
    static get(input: { code?: unknown }): { entry: ErrorCodeDefinition | null; found: boolean; errors: Issue[] } {
        const { value: code, errors } = parseArgs(CODE, input?.code, CODE_ARGS, { actual: 'type', at: ['code'] })
        if (code === null) return { entry: null, found: false, errors }
        const entry = Object.hasOwn(CATALOGUE, code)
            ? ((CATALOGUE as Record<string, ErrorCodeDefinition>)[code] ?? null)
            : null
        return { entry, found: entry !== null, errors: [] }
    }

    /**
     * Formats an issue as one line: `GRD-002 at /gradings/0/score: <message>` (`at (root)` for `''`).
     * @param input - `{ issue }`
     * @returns `{ text, errors }`; an issue that is not an object with string code/message/path gives `GRD-002`.
     * @example ErrorCodes.format({ issue }).text
     */
    static format(input: { issue?: unknown }): { text: string | null; errors: Issue[] } {
        const { value: issue, errors } = parseArgs(ISSUE, input?.issue, CODE_ARGS, { at: ['issue'] })
        if (issue === null) return { text: null, errors }
        const where = issue.path === '' ? '(root)' : issue.path
        return { text: `${issue.code} at ${where}: ${issue.message}`, errors: [] }
    }

    /**
     * The whole catalogue as a Markdown document (the source of `docs/errors.md`).
     * @returns `{ markdown }`
     * @example ErrorCodes.toMarkdown().markdown.startsWith('# Error codes') // true
     */
    static toMarkdown(): { markdown: string } {
        const escapeCell = (text: string): string => text.replace(/\|/g, '\\|')
        const lines = [
            '# Error codes',
            '',
            'Generated from the catalogue in `src/errors/catalogue/` by `npm run docs:errors`; do not edit by hand.',
            'Every issue the library returns is `{ code, severity, message, path }`. `{name}` in a template is',
            'filled from the issue context.',
            '',
            '## Paths',
            '',
            '`path` is a JSON Pointer (RFC 6901) relative to the value the caller passed, and this is the one rule',
            'for every function. When a function checks one document, that document is the value:',
            "`validateGradingEntry({ entry })` reports the first answer's score at `/gradings/0/score`, the same",
            "pointer as into the entry's file, and `''` is the entry itself. When a function takes several values, the",
            'pointer starts with the name of the argument that holds the problem:',
            '`ScoringProtocol.validateScores({ scores, prompts })` reports `/scores/scores/0/score` and',
            '`/prompts/schemaIdSlug`, `Grading.computeAggregateGrade({ entry, now })` reports `/entry/gradings/0/score`. Options',
            'beside a checked document are named the same way (`validateGradingEntry({ entry, now })` reports a bad',
            '`now` at `/now`). Messages name a field in words (`gradings[0].timestamp`), never by a second pointer.',
            '',
            'The judge path of the grading functions (`gradeSingleSchema`, `gradeNamespace`, `gradeTree`,',
            '`gradeSelection`) reports each issue of a unit at `/units/<unit>` or below it, the unit id as one',
            "pointer token (`/units/single-test~1getHourlyForecast`), and the unit's row of the result",
            '(`units[].issues`) carries the same issues. A judge reply is not a value the caller passed: a rejected',
            'one is a single `GRA-018` at its unit whose message quotes each problem at its pointer in the reply',
            '(`SCO-005 at /answers/0/score`).',
            ''
        ]
        // Ordered by code (prefixes A–Z, then by number), not by the order the catalogue groups are registered in:
        // a reader looks a code up, and a new code lands where a reader expects it.
        const byCode = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true })
        for (const prefix of ErrorCodes.prefixes().prefixes.sort(byCode)) {
            lines.push(`## ${prefix}`, '', '| code | severity | message | rule |', '|---|---|---|---|')
            for (const def of ErrorCodes.list({ prefix }).codes.sort((a, b) => byCode(a.code, b.code))) {
                lines.push(
                    `| \`${def.code}\` | ${def.severity} | ${escapeCell(def.template)} | ${escapeCell(def.rule)} |`
                )
            }
            lines.push('')
        }
        return { markdown: lines.join('\n') }
    }
}

/**
 * The public ErrorCodes: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const ErrorCodes = /* @__PURE__ */ guardStatics(ErrorCodesUnguarded, 'ErrorCodes')
