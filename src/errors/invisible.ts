/**
 * Naming characters a reader cannot see. A message that quotes an id or a key holding a format
 * character (Unicode Cf, e.g. U+200B ZERO WIDTH SPACE), a control character or a lone surrogate
 * would look identical to the expected one; these helpers say which code point is there.
 */

// Format (Cf) and control (Cc) characters, spaces other than U+0020 (Zs), separators (Zl, Zp) and
// lone surrogates; the `u` flag makes a lone surrogate one match of its own.
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Cs}]|(?! )\p{Zs}/gu

/** A code point as Unicode writes it: `U+200B`. The one spelling every message and escape uses. */
export function codePointName(codePoint: number): string {
    return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`
}

const codePoint = (char: string): string => codePointName(char.codePointAt(0) as number)

/**
 * The distinct invisible code points in `text`: `U+200B, U+0009`; `''` when there is none, so a
 * message can append it only when it says something.
 * @example describeInvisible('Q-a\u200b') // 'U+200B'
 */
export function describeInvisible(text: string): string {
    return [...new Set(text.match(INVISIBLE))].map(codePoint).join(', ')
}

/**
 * `text` with every invisible code point written as `<U+XXXX>`, for quoting an id or a key in a message.
 * @example showInvisible('Q-a\u200b') // 'Q-a<U+200B>'
 */
export function showInvisible(text: string): string {
    return text.replace(INVISIBLE, (c) => `<${codePoint(c)}>`)
}

/**
 * `text` with every invisible code point written as `⟦U+XXXX⟧`: how entry messages quote a value, so an id with a
 * U+202E or a U+2060 never reaches a reader as itself.
 * @example markInvisible('Q-a\u202e') // 'Q-a⟦U+202E⟧'
 */
export function markInvisible(text: string): string {
    return text.replace(INVISIBLE, (c) => `⟦${codePoint(c)}⟧`)
}
