import { lookup } from '../json/own.js'
import { headerParamRefs, headersOf, own, paramsOf, requiredServerParamsOf, serverParamRefs, USER_PARAM } from '../schema/shape.js'
import type { HttpRequest } from './http.js'

/** A request built from one test, or why it could not be built. Never persisted or returned by the pretest. */
export interface BuiltRequest {
    readonly request: HttpRequest | null
    /** Required server params the test needs but `serverParams` lacks (key names only). */
    readonly missingServerParams: string[]
    /** Why no request could be built (missing path value, …); empty when `request` is set. */
    readonly problems: string[]
}

function stringify(value: unknown): string {
    if (typeof value === 'string') return value
    if (Array.isArray(value)) return value.map(stringify).join(',')
    if (value !== null && typeof value === 'object') return JSON.stringify(value) ?? ''
    return String(value)
}

function substituteServerParams(text: string, serverParams: Readonly<Record<string, string>>, missing: Set<string>, declared: readonly string[], headerForm: boolean): string {
    let out = text
    const refs = headerForm ? headerParamRefs(text, declared) : serverParamRefs(text)
    for (const ref of refs) {
        const value = lookup(serverParams, ref)
        if (value === undefined) {
            missing.add(ref)
            continue
        }
        out = out.split(`{{SERVER_PARAM:${ref}}}`).join(value)
        if (headerForm) out = out.split(`{{${ref}}}`).join(value)
    }
    return out
}

/**
 * Builds the HTTP request of one test case from the tool's parameters (03 §13.1): `query`
 * parameters go into the query string, `insert` parameters replace `{{key}}` in the path, `body`
 * parameters form a JSON body. A value from the test wins over the declared value; a
 * `{{USER_PARAM}}` the test does not set is left out (and reported when it is not `optional()`).
 * `{{SERVER_PARAM:KEY}}` (and `{{KEY}}` in `main.headers`) take their value from `serverParams`.
 */
export function buildRequest(main: unknown, tool: unknown, test: unknown, serverParams: Readonly<Record<string, string>>, timeoutMs: number): BuiltRequest {
    const missing = new Set<string>()
    const problems: string[] = []
    const declared = requiredServerParamsOf(main)
    const root = own(main, 'root')
    const method = own(tool, 'method')
    let path = typeof own(tool, 'path') === 'string' ? (own(tool, 'path') as string) : ''
    const query: Array<[string, string]> = []
    const body: Array<[string, unknown]> = []

    for (const param of paramsOf(tool)) {
        const fromTest = own(test, param.key)
        let value: unknown
        if (fromTest !== undefined) {
            value = param.value === USER_PARAM || !param.value.includes(USER_PARAM) ? fromTest : param.value.split(USER_PARAM).join(stringify(fromTest))
        } else if (param.value.includes(USER_PARAM)) {
            if (!param.optional) problems.push(`test sets no value for required parameter ${param.key}`)
            continue
        } else {
            value = param.value
        }
        if (typeof value === 'string') value = substituteServerParams(value, serverParams, missing, declared, false)
        if (param.location === 'query') query.push([param.key, stringify(value)])
        else if (param.location === 'insert') path = path.split(`{{${param.key}}}`).join(encodeURIComponent(stringify(value)))
        else if (param.location === 'body') body.push([param.key, value])
    }

    const headers: Array<[string, string]> = headersOf(main).map(([k, v]) => [k, substituteServerParams(v, serverParams, missing, declared, true)])
    if (missing.size > 0) {
        return { request: null, missingServerParams: [...missing].sort(), problems: [] }
    }
    const unresolved = path.match(/\{\{[^{}]*\}\}/)
    if (unresolved !== null) problems.push(`path placeholder ${unresolved[0]} has no value`)
    if (typeof root !== 'string' || root === '') problems.push('main.root is not set')
    if (typeof method !== 'string') problems.push('tool.method is not set')
    if (problems.some((p) => !p.startsWith('test sets no value'))) {
        return { request: null, missingServerParams: [], problems }
    }
    const search = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
    const base = `${root as string}${path}`
    const url = search === '' ? base : `${base}${base.includes('?') ? '&' : '?'}${search}`
    const hasBody = body.length > 0
    const headerEntries = hasBody && !headers.some(([k]) => k.toLowerCase() === 'content-type') ? [...headers, ['content-type', 'application/json'] as [string, string]] : headers
    const request: HttpRequest = {
        url,
        method: (method as string).toUpperCase(),
        headers: Object.fromEntries(headerEntries),
        ...(hasBody ? { body: JSON.stringify(Object.fromEntries(body)) } : {}),
        timeoutMs
    }
    return { request, missingServerParams: [], problems }
}
