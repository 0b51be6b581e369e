/** Escapes one reference token for a JSON Pointer (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
    if (typeof token === 'number') return String(token)
    // Fast path: most tokens need no escaping, and this runs once per value of every input.
    return token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token
}

/** Builds a JSON Pointer from reference tokens: `pointer('gradings', 0, 'score')` → `/gradings/0/score`. */
export function pointer(...tokens: ReadonlyArray<string | number>): string {
    return tokens.map((t) => `/${escapePointerToken(t)}`).join('')
}

/** Appends tokens to an existing pointer. */
export function joinPointer(base: string, ...tokens: ReadonlyArray<string | number>): string {
    return base + pointer(...tokens)
}

/**
 * How a message names the field a pointer locates: `/gradings/0/timestamp` → `gradings[0].timestamp`,
 * `''` → `root`. Messages use it so they never show a pointer that disagrees with the issue's `path`.
 */
export function fieldPath(path: string, root: string): string {
    if (path === '') return root
    return path
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
        .map((t, i) => (/^\d+$/.test(t) ? `[${t}]` : i === 0 ? t : `.${t}`))
        .join('')
}
