import { isRecord, own } from '../schema/shape.js'

/** A type sketch of a JSON value: type names in place of values, so nothing the API returned is kept. */
export type Shape = string | Shape[] | { readonly [key: string]: Shape }

/** Limits of a shape sketch: deeper levels become `'…'`, objects keep at most this many keys. */
export const SHAPE_LIMITS = Object.freeze({ depth: 6, keys: 40 })
/** At most this many array items are checked against `items`. */
export const OUTPUT_CHECK_ITEMS = 100
const MAX_SCHEMA_DEPTH = 32

/** The JSON type name of a value (`integer` is reported as `number`). */
export function jsonType(value: unknown): string {
    if (value === null) return 'null'
    if (Array.isArray(value)) return 'array'
    return typeof value
}

/** Sketches the structure of `value`: `{ result: [{ price: 'number' }] }`. Arrays show their first item. */
export function shapeOf(value: unknown, depth = 0): Shape {
    if (depth >= SHAPE_LIMITS.depth) return '…'
    if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0], depth + 1)]
    if (isRecord(value)) {
        const keys = Object.keys(value)
        const entries: Array<[string, Shape]> = keys
            .slice(0, SHAPE_LIMITS.keys)
            .map((k) => [k.length > 100 ? `${k.slice(0, 97)}...` : k, shapeOf(value[k], depth + 1)])
        if (keys.length > SHAPE_LIMITS.keys) entries.push(['…', `${keys.length - SHAPE_LIMITS.keys} more keys`])
        return Object.fromEntries(entries)
    }
    return jsonType(value)
}

/** Empty data in the reference's sense: null, `''`, `[]`, `{}` (and the same as JSON text). */
export function isEmptyData(value: unknown): boolean {
    if (value === null || value === undefined) return true
    if (typeof value === 'string') {
        const t = value.trim()
        return t === '' || t === 'null' || t === '[]' || t === '{}' || t === '""'
    }
    if (Array.isArray(value)) return value.length === 0
    if (isRecord(value)) return Object.keys(value).length === 0
    return false
}

function typeMatches(expected: unknown, value: unknown, nullable: boolean): boolean {
    const actual = jsonType(value)
    if (value === null && nullable) return true
    const list = Array.isArray(expected) ? expected : [expected]
    return list.some((t) => {
        if (t === actual) return true
        if (t === 'integer') return typeof value === 'number' && Number.isInteger(value)
        return false
    })
}

/**
 * Checks a value against the JSON-Schema subset FlowMCP output schemas use: `type` (one or a
 * list, `integer` included), `nullable`, `properties`, `required`, `items`. Properties that are
 * present are checked; absent ones only fail when `required`. Returns the JSON Pointers of the
 * mismatches with the expected and actual type names — never a value.
 */
export function checkAgainstSchema(schema: unknown, value: unknown): string[] {
    const problems: string[] = []
    const walk = (s: unknown, v: unknown, path: string, depth: number): void => {
        if (!isRecord(s) || depth > MAX_SCHEMA_DEPTH || problems.length >= 20) return
        const type = own(s, 'type')
        const nullable = own(s, 'nullable') === true
        if (type !== undefined && !typeMatches(type, v, nullable)) {
            problems.push(
                `${path === '' ? '(root)' : path}: expected ${Array.isArray(type) ? type.join('|') : String(type)}, got ${jsonType(v)}`
            )
            return
        }
        if (isRecord(v)) {
            const properties = own(s, 'properties')
            if (isRecord(properties)) {
                for (const key of Object.keys(properties)) {
                    if (Object.hasOwn(v, key))
                        walk(
                            properties[key],
                            v[key],
                            `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
                            depth + 1
                        )
                }
            }
            const required = own(s, 'required')
            if (Array.isArray(required)) {
                for (const key of required) {
                    if (typeof key === 'string' && !Object.hasOwn(v, key))
                        problems.push(`${path}/${key}: required property missing`)
                }
            }
        }
        if (Array.isArray(v)) {
            const items = own(s, 'items')
            if (isRecord(items))
                v.slice(0, OUTPUT_CHECK_ITEMS).forEach((item, i) => {
                    walk(items, item, `${path}/${i}`, depth + 1)
                })
        }
    }
    walk(schema, value, '', 0)
    return problems
}

/** UTF-8 byte length of a string (no TextEncoder in the pure core). */
export function utf8Length(text: string): number {
    let bytes = 0
    for (let i = 0; i < text.length; i += 1) {
        const code = text.charCodeAt(i)
        if (code < 0x80) bytes += 1
        else if (code < 0x800) bytes += 2
        else if (
            code >= 0xd800 &&
            code <= 0xdbff &&
            i + 1 < text.length &&
            (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
        ) {
            bytes += 4
            i += 1
        } else bytes += 3
    }
    return bytes
}
