/**
 * Looks a key up in a constant table, own properties only. A plain `table[key]` with a key from
 * input would find `constructor`, `__proto__` or `toString` on the prototype.
 */
export function lookup<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
    return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined
}
