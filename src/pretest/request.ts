import { lookup } from '../json/own.js'
import {
    headersOf,
    own,
    paramsOf,
    placeholderBodies,
    requiredServerParamsOf,
    serverParamName,
    USER_PARAM
} from '../schema/shape.js'
import type { ParamView } from '../schema/shape.js'
import { placeholderRootReason } from '../schema/root-host.js'
import type { HttpRequest } from './http.js'

/** A request built from one test, or why it could not be built. Never persisted or returned by the pretest. */
export interface BuiltRequest {
    readonly request: HttpRequest | null
    /** Declared server params the test needs but `serverParams` lacks (key names only). */
    readonly missingServerParams: string[]
    /**
     * Why the runtime could not resolve this test (a required value unset, an undeclared server param, …); empty when
     * `request` is set.
     */
    readonly problems: string[]
}

const PLACEHOLDER = /\{\{[^{}]*\}\}/

/**
 * `application/x-www-form-urlencoded` serialisation of one string, byte for byte what
 * `URLSearchParams#toString` gives (the runtime's query builder): `*-._` and alphanumerics stay,
 * a space becomes `+`, everything else is percent-encoded as UTF-8; a lone surrogate becomes U+FFFD.
 */
export function formEncode(text: string): string {
    const wellFormed = text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    return encodeURIComponent(wellFormed)
        .replace(/%20/g, '+')
        .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** What the runtime does to one value template: `{ value }`, or `undefined` when a user value is unset. */
interface Resolved {
    readonly value: unknown
    /** The server parameter the value named, when it named one. */
    readonly serverParam: string | null
}

/**
 * The runtime's value rule (05 §2.5): a value holding `{{USER_PARAM}}` takes the test's value for
 * the parameter's key (its first occurrence, as `String#replace` does; `undefined` when the test
 * sets none); any other `{{NAME}}` takes server parameter NAME (its first placeholder, an absent
 * value becoming ''); a value without a placeholder is sent as written.
 */
function resolveValue(
    template: string,
    key: string,
    test: unknown,
    serverParams: Readonly<Record<string, string>>,
    rawUserValue: boolean
): Resolved | undefined {
    if (template.includes(USER_PARAM)) {
        const given = own(test, key)
        if (given === undefined) return undefined
        // A body parameter that is exactly {{USER_PARAM}} keeps the test's JSON value (numbers, arrays).
        if (rawUserValue && template === USER_PARAM) return { value: given, serverParam: null }
        return { value: template.replace(USER_PARAM, String(given)), serverParam: null }
    }
    const match = PLACEHOLDER.exec(template)
    if (match === null) return { value: template, serverParam: null }
    const name = serverParamName(match[0].slice(2, -2))
    return { value: template.replace(match[0], lookup(serverParams, name) ?? ''), serverParam: name }
}

/** What resolving one test collects, in the order met: the server params it lacks, why it cannot be sent. */
interface Resolution {
    readonly test: unknown
    readonly serverParams: Readonly<Record<string, string>>
    readonly declared: readonly string[]
    readonly missing: Set<string>
    readonly problems: string[]
}

/** A server param a value named: undeclared is a problem, declared but not supplied makes the test key-gated. */
function noteServerParam(r: Resolution, name: string | null): void {
    if (name === null) return
    if (!r.declared.includes(name)) {
        const why = 'is not declared in requiredServerParams (the runtime would send an empty value)'
        r.problems.push(`server parameter ${name} ${why}`)
    } else if (lookup(r.serverParams, name) === undefined) {
        r.missing.add(name)
    }
}

/** `root + path` with the insert parameters, then every supplied server param, put in; a placeholder left is noted. */
function resolveUrl(r: Resolution, root: unknown, path: unknown, params: readonly ParamView[]): string {
    const { test, serverParams, declared, missing, problems } = r
    let url = `${typeof root === 'string' ? root : ''}${typeof path === 'string' ? path : ''}`
    for (const param of params.filter((p) => p.location === 'insert')) {
        const resolved = resolveValue(param.value, param.key, test, serverParams, false)
        if (resolved === undefined) {
            problems.push(`insert parameter ${param.key} has no value in the test`)
            continue
        }
        noteServerParam(r, resolved.serverParam)
        const to = String(resolved.value)
        url = url.split(`:${param.key}`).join(to).split(`{{${param.key}}}`).join(to)
    }
    // Placeholders are read before the server params are put in: a value given for a key may itself be its
    // placeholder (`{{SERVER_PARAM:KEY}}`, a replay without the key), which the recordings match with any value.
    const insertKeys = new Set(params.filter((p) => p.location === 'insert').map((p) => p.key))
    for (const body of placeholderBodies(url)) {
        if (insertKeys.has(body) || lookup(serverParams, body) !== undefined) continue
        const name = serverParamName(body)
        if (!declared.includes(name))
            problems.push(`{{${body}}} in the URL is neither an insert parameter nor a declared server parameter`)
        else missing.add(name)
    }
    for (const name of Object.keys(serverParams)) url = url.split(`{{${name}}}`).join(lookup(serverParams, name) ?? '')
    return url
}

/** The query and body parameters the test gives a value, in order; a required one without a value is a problem. */
function resolveQueryAndBody(
    r: Resolution,
    params: readonly ParamView[]
): { query: Array<[string, string]>; body: Array<[string, unknown]> } {
    const query: Array<[string, string]> = []
    const body: Array<[string, unknown]> = []
    for (const param of params.filter((p) => p.location === 'query' || p.location === 'body')) {
        const resolved = resolveValue(param.value, param.key, r.test, r.serverParams, param.location === 'body')
        if (resolved === undefined) {
            if (!param.optional) r.problems.push(`test sets no value for required parameter ${param.key}`)
            continue
        }
        noteServerParam(r, resolved.serverParam)
        if (param.location === 'query') query.push([param.key, String(resolved.value)])
        else body.push([param.key, resolved.value])
    }
    return { query, body }
}

/** `main.headers` with the same substitution; a header whose user value is unset keeps its template. */
function resolveHeaders(r: Resolution, main: unknown): Array<[string, string]> {
    return headersOf(main).map(([name, template]) => {
        const resolved = resolveValue(template, name, r.test, r.serverParams, false)
        if (resolved === undefined) return [name, template]
        noteServerParam(r, resolved.serverParam)
        return [name, String(resolved.value)]
    })
}

/** What the runtime needs of the schema and tool before it can call anything: a root with a host, a method. */
function checkRootAndMethod(root: unknown, method: unknown, problems: string[]): void {
    if (typeof root !== 'string' || root === '') problems.push('main.root is not set')
    const placeholder = placeholderRootReason(root)
    // The runtime would call this URL only after a preRequest handler replaced the host; handlers are never run here.
    if (placeholder !== null)
        problems.push(`main.root names no callable host (${placeholder}); the schema's handlers resolve it`)
    if (typeof method !== 'string') problems.push('tool.method is not set')
}

/** The resolved pieces of a test that can be sent. */
interface RequestParts {
    readonly url: string
    readonly method: string
    readonly query: ReadonlyArray<[string, string]>
    readonly body: ReadonlyArray<[string, unknown]>
    readonly headers: ReadonlyArray<[string, string]>
}

/** The request itself: the query string `URLSearchParams` makes, a JSON body for POST and PUT. */
function assembleRequest(parts: RequestParts, timeoutMs: number): HttpRequest {
    const { url, method, query, body, headers } = parts
    const search = query.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&')
    const fullUrl = search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`
    const sendsBody = method === 'POST' || method === 'PUT'
    const headerObject: Record<string, string> = Object.fromEntries(
        sendsBody ? [['Content-Type', 'application/json'], ...headers] : headers
    )
    const request: HttpRequest = {
        url: fullUrl,
        method,
        headers: headerObject,
        ...(sendsBody ? { body: JSON.stringify(Object.fromEntries(body)) } : {}),
        timeoutMs
    }
    return request
}

/**
 * Builds the HTTP request of one tool test exactly as the FlowMCP runtime does (05 §2.5, 03 ⚠ C26):
 * the test minus `_description` is the user parameters; `insert` parameters replace both `:key`
 * and `{{key}}` in `root + path`, then every server parameter replaces `{{NAME}}` left in the URL;
 * `query` parameters with a value form the query string (`URLSearchParams`); `body` parameters a
 * JSON body, sent for POST and PUT with `Content-Type: application/json` unless `main.headers`
 * sets one; `main.headers` values get the same substitution. Handlers are never run.
 *
 * A test the runtime could not resolve is reported, never sent: a required parameter the test does
 * not set, an insert parameter without a value, a server parameter the schema does not declare, a
 * placeholder root (`--name--`, `.local`, …) that only the schema's handlers turn into a host.
 * A declared server parameter the host did not supply makes the test key-gated.
 */
export function buildRequest(
    main: unknown,
    tool: unknown,
    test: unknown,
    serverParams: Readonly<Record<string, string>>,
    timeoutMs: number
): BuiltRequest {
    const declared = requiredServerParamsOf(main)
    const r: Resolution = { test, serverParams, declared, missing: new Set<string>(), problems: [] }
    const root = own(main, 'root')
    const method = own(tool, 'method')
    const params = paramsOf(tool)
    const url = resolveUrl(r, root, own(tool, 'path'), params)
    const { query, body } = resolveQueryAndBody(r, params)
    const headers = resolveHeaders(r, main)
    const { missing, problems } = r
    checkRootAndMethod(root, method, problems)
    if (problems.length > 0)
        return { request: null, missingServerParams: [...missing].sort(), problems: [...new Set(problems)] }
    if (missing.size > 0) return { request: null, missingServerParams: [...missing].sort(), problems: [] }
    const request = assembleRequest({ url, method: method as string, query, body, headers }, timeoutMs)
    return { request, missingServerParams: [], problems: [] }
}
