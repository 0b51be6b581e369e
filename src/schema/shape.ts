/** Small readers over an untrusted v4 `main` object, shared by the schema, pretest and deterministic modules. */
import { isPlainObject } from '../model/object.js'

/**
 * A plain object, not an array (`isPlainObject`, src/model/object.ts): `isObject` and stricter, since a schema
 * module's `main` is data, and a class instance (a Map, a Date) in it is not.
 */
export const isRecord = isPlainObject

/** Own enumerable string keys of a record, or `[]`. */
export function keysOf(value: unknown): string[] {
    return isRecord(value) ? Object.keys(value) : []
}

/** Reads an own property; never the prototype chain. */
export function own(value: unknown, key: string): unknown {
    return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined
}

/** A non-empty string. */
export function isNonEmptyString(value: unknown): value is string {
    return typeof value === 'string' && value.length > 0
}

/** The literal marker for a user-supplied parameter value. */
export const USER_PARAM = '{{USER_PARAM}}'

const PLACEHOLDER_TOKEN = /\{\{([^{}]*)\}\}/g

/** Every `{{…}}` token body of a string (`USER_PARAM`, `SERVER_PARAM:X`, `address`, `list:alias`, …). */
export function placeholderBodies(text: string): string[] {
    return [...text.matchAll(PLACEHOLDER_TOKEN)].map((m) => m[1] as string)
}

/** The server-parameter name of one `{{…}}` body: `SERVER_PARAM:KEY` and `KEY` both name `KEY` (05 §2.5). */
export function serverParamName(body: string): string {
    const name = body.trim()
    return name.startsWith('SERVER_PARAM:') ? name.slice('SERVER_PARAM:'.length) : name
}

/**
 * Server params a parameter or header value refers to, as the FlowMCP runtime reads it (05 §2.5):
 * a value holding `{{USER_PARAM}}` takes the user's value and refers to none; any other `{{NAME}}`
 * (with or without the `SERVER_PARAM:` prefix) names server parameter NAME. `{{list:…}}` is a
 * shared-list reference, not a parameter.
 */
export function valueServerParams(text: string): string[] {
    if (text.includes(USER_PARAM)) return []
    const names = placeholderBodies(text)
        .filter((b) => !b.trim().startsWith('list:'))
        .map(serverParamName)
        .filter((n) => n.length > 0)
    return [...new Set(names)]
}

/** Placeholders of a tool path in order of appearance: `{{name}}` tokens and `:name` at the start of a segment. */
export function pathPlaceholders(path: string): string[] {
    const found = [...path.matchAll(/\{\{[^{}]*\}\}|\/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) =>
        m[0].startsWith('/') ? m[0].slice(1) : m[0]
    )
    return [...new Set(found)]
}

/** A parameter of a tool as far as it could be read: `{ key, value, location }` or `null`. */
export interface ParamView {
    readonly key: string
    readonly value: string
    readonly location: string
    /** The test may leave it unset: `optional()` or `default(…)` in `z.options`. */
    readonly optional: boolean
}

/** Reads `tool.parameters[i].position` and `z.options` leniently; unreadable parameters give `null`. */
export function paramView(param: unknown): ParamView | null {
    const position = own(param, 'position')
    const key = own(position, 'key')
    const value = own(position, 'value')
    const location = own(position, 'location')
    if (typeof key !== 'string' || typeof location !== 'string') {
        return null
    }
    const options = own(own(param, 'z'), 'options')
    // `optional()` is the runtime's marker; a zod `default(…)` accepts an absent value too.
    const optional =
        Array.isArray(options) && options.some((o) => typeof o === 'string' && /^(?:optional|default)\(/.test(o.trim()))
    return {
        key,
        value: typeof value === 'string' ? value : value === undefined ? '' : (JSON.stringify(value) ?? ''),
        location,
        optional
    }
}

/** The readable parameters of a tool. */
export function paramsOf(tool: unknown): ParamView[] {
    const params = own(tool, 'parameters')
    return Array.isArray(params) ? params.map(paramView).filter((p): p is ParamView => p !== null) : []
}

/** `main.requiredServerParams` as strings (non-strings dropped). */
export function requiredServerParamsOf(main: unknown): string[] {
    const list = own(main, 'requiredServerParams')
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []
}

/** `main.headers` as string pairs (non-string values dropped). */
export function headersOf(main: unknown): Array<[string, string]> {
    const headers = own(main, 'headers')
    return keysOf(headers).flatMap((k) => {
        const v = own(headers, k)
        return typeof v === 'string' ? [[k, v] as [string, string]] : []
    })
}

/**
 * Server params one tool needs, as the runtime builds its request (05 §2.5): those named in its
 * parameter values, `{{NAME}}` in `root + path` that no insert parameter fills, and those named in
 * `main.headers` values. Declared or not: an undeclared one makes the request unbuildable.
 */
export function serverParamsUsedBy(main: unknown, tool: unknown): string[] {
    const used = new Set<string>()
    const params = paramsOf(tool)
    for (const p of params) {
        for (const ref of valueServerParams(p.value)) used.add(ref)
    }
    const inserts = new Set(params.filter((p) => p.location === 'insert').map((p) => p.key))
    const root = own(main, 'root')
    const path = own(tool, 'path')
    const url = `${typeof root === 'string' ? root : ''}${typeof path === 'string' ? path : ''}`
    for (const body of placeholderBodies(url)) {
        if (!inserts.has(body) && body !== 'USER_PARAM') used.add(serverParamName(body))
    }
    for (const [, v] of headersOf(main)) {
        for (const ref of valueServerParams(v)) used.add(ref)
    }
    return [...used]
}

/** The user-parameter keys a test case carries (every key but `_description`). */
export function testInputKeys(test: unknown): string[] {
    return keysOf(test).filter((k) => k !== '_description')
}

/** A tool's tests as an array (anything else gives `[]`). */
export function testsOf(tool: unknown): unknown[] {
    const tests = own(tool, 'tests')
    return Array.isArray(tests) ? tests : []
}

/** Stable text of a test's inputs (sorted keys, `_description` ignored), for duplicate detection (DPT-008). */
export function testSignature(test: unknown): string {
    const keys = testInputKeys(test).sort()
    return JSON.stringify(keys.map((k) => [k, own(test, k)]))
}

/** A tool without a user-input vector: no `{{USER_PARAM}}` parameter and no test that carries inputs. */
export function isParameterless(tool: unknown): boolean {
    const hasUserParam = paramsOf(tool).some((p) => p.value.includes(USER_PARAM))
    const testsCarryInputs = testsOf(tool).some((t) => testInputKeys(t).length > 0)
    return !hasUserParam && !testsCarryInputs
}
