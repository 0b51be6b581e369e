// The one object guard: every reader of untrusted JSON checks this before it reads a field.

/** A non-null object that is not an array (any prototype: a class instance passes too). */
export function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * A plain object: {@link isObject} and its prototype `Object.prototype` or `null`, so data (parsed JSON, an object
 * literal) and not a class instance (a Map, a Date) or an array.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
    if (!isObject(value)) return false
    const proto = Object.getPrototypeOf(value) as unknown
    return proto === Object.prototype || proto === null
}

/** The value as an object to read fields from: itself when {@link isObject}, else an empty object. */
export function asObject(value: unknown): Record<string, unknown> {
    return isObject(value) ? value : {}
}
