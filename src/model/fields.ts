// How an optional field is carried into a new object under `exactOptionalPropertyTypes`: one call per object,
// never a spread per field (`...(x !== undefined ? { x } : {})`).

/** The fields of `T` that may hold `undefined` become optional and lose `undefined`; the others stay as they are. */
export type DefinedFields<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
    [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>
}

/**
 * The given fields without those whose value is `undefined`, in their order (the key order of the objects the
 * library writes is part of their bytes).
 *
 * @example
 * definedFields({ tool: 'getUser', area: undefined }) // { tool: 'getUser' }
 */
export function definedFields<T extends Record<string, unknown>>(fields: T): DefinedFields<T> {
    // fromEntries defines each key (a `__proto__` key stays a field, never a prototype).
    return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as DefinedFields<T>
}
