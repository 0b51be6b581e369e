// The one object guard: every reader of untrusted JSON checks this before it reads a field.

/** A non-null object that is not an array (any prototype: a class instance passes too). */
export function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The value as an object to read fields from: itself when {@link isObject}, else an empty object. */
export function asObject(value: unknown): Record<string, unknown> {
    return isObject(value) ? value : {}
}
