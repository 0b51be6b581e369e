/** Escapes one reference token for a JSON Pointer (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
    if (typeof token === 'number') return String(token)
    // Fast path: most tokens need no escaping, and this runs once per value of every input.
    return token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token
}

/** Builds a JSON Pointer from reference tokens: `pointer('gradings', 0, 'score')` → `/gradings/0/score`. */
export function pointer(...tokens: ReadonlyArray<string | number>): string {
    return tokens.map((t) => '/' + escapePointerToken(t)).join('')
}

/** Appends tokens to an existing pointer. */
export function joinPointer(base: string, ...tokens: ReadonlyArray<string | number>): string {
    return base + pointer(...tokens)
}
