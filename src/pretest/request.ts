import { lookup } from '../json/own.js'
import { headersOf, own, paramsOf, placeholderBodies, requiredServerParamsOf, serverParamName, USER_PARAM } from '../schema/shape.js'
import { placeholderRootReason } from '../schema/root-host.js'
import type { HttpRequest } from './http.js'

/** A request built from one test, or why it could not be built. Never persisted or returned by the pretest. */
export interface BuiltRequest {
    readonly request: HttpRequest | null
    /** Declared server params the test needs but `serverParams` lacks (key names only). */
    readonly missingServerParams: string[]
    /** Why the runtime could not resolve this test (a required value unset, an undeclared server param, …); empty when `request` is set. */
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
function resolveValue(template: string, key: string, test: unknown, serverParams: Readonly<Record<string, string>>, rawUserValue: boolean): Resolved | undefined {
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
export function buildRequest(main: unknown, tool: unknown, test: unknown, serverParams: Readonly<Record<string, string>>, timeoutMs: number): BuiltRequest {
    const missing = new Set<string>()
    const problems: string[] = []
    const declared = requiredServerParamsOf(main)
    const root = own(main, 'root')
    const method = own(tool, 'method')
    const path = own(tool, 'path')
    const params = paramsOf(tool)

    const noteServerParam = (name: string | null): void => {
        if (name === null) return
        if (!declared.includes(name)) problems.push(`server parameter ${name} is not declared in requiredServerParams (the runtime would send an empty value)`)
        else if (lookup(serverParams, name) === undefined) missing.add(name)
    }

    let url = `${typeof root === 'string' ? root : ''}${typeof path === 'string' ? path : ''}`
    for (const param of params.filter((p) => p.location === 'insert')) {
        const resolved = resolveValue(param.value, param.key, test, serverParams, false)
        if (resolved === undefined) {
            problems.push(`insert parameter ${param.key} has no value in the test`)
            continue
        }
        noteServerParam(resolved.serverParam)
        const to = String(resolved.value)
        url = url.split(`:${param.key}`).join(to).split(`{{${param.key}}}`).join(to)
    }
    for (const name of Object.keys(serverParams)) url = url.split(`{{${name}}}`).join(lookup(serverParams, name) ?? '')
    const insertKeys = new Set(params.filter((p) => p.location === 'insert').map((p) => p.key))
    for (const body of placeholderBodies(url)) {
        if (insertKeys.has(body)) continue
        const name = serverParamName(body)
        if (!declared.includes(name)) problems.push(`{{${body}}} in the URL is neither an insert parameter nor a declared server parameter`)
        else missing.add(name)
    }

    const query: Array<[string, string]> = []
    const body: Array<[string, unknown]> = []
    for (const param of params.filter((p) => p.location === 'query' || p.location === 'body')) {
        const resolved = resolveValue(param.value, param.key, test, serverParams, param.location === 'body')
        if (resolved === undefined) {
            if (!param.optional) problems.push(`test sets no value for required parameter ${param.key}`)
            continue
        }
        noteServerParam(resolved.serverParam)
        if (param.location === 'query') query.push([param.key, String(resolved.value)])
        else body.push([param.key, resolved.value])
    }

    const headers: Array<[string, string]> = headersOf(main).map(([name, template]) => {
        const resolved = resolveValue(template, name, test, serverParams, false)
        if (resolved === undefined) return [name, template]
        noteServerParam(resolved.serverParam)
        return [name, String(resolved.value)]
    })

    if (typeof root !== 'string' || root === '') problems.push('main.root is not set')
    const placeholder = placeholderRootReason(root)
    // The runtime would call this URL only after a preRequest handler replaced the host; handlers are never run here.
    if (placeholder !== null) problems.push(`main.root names no callable host (${placeholder}); the schema's handlers resolve it`)
    if (typeof method !== 'string') problems.push('tool.method is not set')
    if (problems.length > 0) return { request: null, missingServerParams: [...missing].sort(), problems: [...new Set(problems)] }
    if (missing.size > 0) return { request: null, missingServerParams: [...missing].sort(), problems: [] }

    const search = query.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&')
    const fullUrl = search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`
    const sendsBody = method === 'POST' || method === 'PUT'
    const headerObject: Record<string, string> = Object.fromEntries(sendsBody ? [['Content-Type', 'application/json'], ...headers] : headers)
    const request: HttpRequest = {
        url: fullUrl,
        method: method as string,
        headers: headerObject,
        ...(sendsBody ? { body: JSON.stringify(Object.fromEntries(body)) } : {}),
        timeoutMs
    }
    return { request, missingServerParams: [], problems: [] }
}
