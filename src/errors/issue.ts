import { SEVERITY } from '../model/constants.js'
import { CATALOGUE, type ErrorCode } from './catalogue/index.js'
import type { ErrorCodeDefinition } from './definition.js'
import type { IssueParams, ParamsArgs } from './params.js'
import type { Issue } from './types.js'

export type { IssueParams } from './params.js'

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g

/**
 * Longest param written into a message whole. Params are sentences and names a maintainer acts on,
 * so they are never cut mid-sentence; only a value past this (a dumped body) is bounded, and the
 * message says how much was left out.
 */
export const MAX_PARAM_CHARS = 4000

/** A param as a message holds it: a string whole (up to {@link MAX_PARAM_CHARS}), anything else described. */
function paramText(value: IssueParams[string]): string {
    if (typeof value !== 'string') return describeValue(value)
    return value.length <= MAX_PARAM_CHARS
        ? value
        : `${value.slice(0, MAX_PARAM_CHARS)} (${value.length - MAX_PARAM_CHARS} more characters not shown)`
}

/** Fills `{name}` placeholders; a missing param stays visible as `{name}` rather than vanishing. */
export function fillTemplate(template: string, params: IssueParams): string {
    return template.replace(PLACEHOLDER, (whole, name: string) => {
        if (!Object.hasOwn(params, name)) {
            return whole
        }
        return paramText(params[name])
    })
}

/** Short, bounded rendering of a value for a message (never dumps a 10 MB string into a message). */
export function describeValue(value: unknown): string {
    let text: string
    if (typeof value === 'string') {
        text = value
    } else if (value === undefined) {
        text = 'undefined'
    } else if (typeof value === 'number' || typeof value === 'boolean' || value === null || typeof value === 'bigint') {
        text = Object.is(value, -0) ? '-0' : String(value)
    } else {
        text = typeOfValue(value)
    }
    return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/** A JSON-flavoured type name: `array`, `null`, `object`, `string`, … */
export function typeOfValue(value: unknown): string {
    if (value === null) {
        return 'null'
    }
    if (Array.isArray(value)) {
        return 'array'
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
        return Number.isNaN(value) ? 'NaN' : 'Infinity'
    }
    return typeof value
}

/**
 * Creates an issue for a catalogue code; severity and message come from the catalogue. `params` holds exactly the
 * placeholders of the code's message (a type error otherwise).
 */
export function createIssue<C extends ErrorCode>(
    code: C,
    path: string,
    ...[params = {}]: ParamsArgs<typeof CATALOGUE, C>
): Issue {
    return issueOf(CATALOGUE[code], path, params)
}

/** The issue of one catalogue row. */
function issueOf(def: ErrorCodeDefinition, path: string, params: IssueParams): Issue {
    return Object.freeze({
        code: def.code as ErrorCode,
        severity: def.severity,
        message: fillTemplate(def.template, params),
        path
    })
}

/**
 * `createIssue` over some groups of the catalogue only: a module whose bundle should not carry every
 * message of the library (the entry validator a registry ships) creates its issues through one, and
 * the type still accepts only the codes those groups define.
 */
export function issueFactory<const T extends Readonly<Record<string, ErrorCodeDefinition>>>(
    codes: T
): <C extends keyof T & ErrorCode>(code: C, path: string, ...params: ParamsArgs<T, C>) => Issue {
    return (code, path, ...[params = {}]) => issueOf(codes[code] as ErrorCodeDefinition, path, params)
}

/** True when at least one issue has severity `error`. */
export function hasErrors(issues: readonly Issue[]): boolean {
    return issues.some((i) => i.severity === SEVERITY.error)
}

/** Only the issues with severity `error`. */
export function onlyErrors(issues: readonly Issue[]): Issue[] {
    return issues.filter((i) => i.severity === SEVERITY.error)
}

/** Prefixes every issue path with `base` (to report issues of a nested value at its place in the input). */
export function rebaseIssues(issues: readonly Issue[], base: string): Issue[] {
    return base === '' ? [...issues] : issues.map((i) => Object.freeze({ ...i, path: base + i.path }))
}

/**
 * Drops repeated issues, keeping the first: the same code at the same path (and, with
 * `byMessage`, the same message). Several checks may see one defect; the caller reports it once.
 */
export function dedupeIssues(issues: readonly Issue[], options: { byMessage?: boolean } = {}): Issue[] {
    const seen = new Set<string>()
    return issues.filter((i) => {
        const key =
            options.byMessage === true ? `${i.code}\u0000${i.path}\u0000${i.message}` : `${i.code}\u0000${i.path}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
    })
}
