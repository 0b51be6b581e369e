/**
 * Invisible characters in ids and keys, named by code point in messages: an id that differs from a
 * catalogue id only by a zero-width space reads the same on screen, so a message that prints it
 * plainly would name what looks like the right id.
 */

import { codePointName } from '../errors/invisible.js'

// Format (Cf) and control (Cc) characters (zero-width spaces and joiners, bidi controls, BOM, soft hyphen), line and
// paragraph separators, lone surrogates and every space but U+0020: the set errors/invisible.ts names.
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Cs}]|(?! )\p{Zs}/u
const INVISIBLE_ALL = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Cs}]|(?! )\p{Zs}/gu

const codePoint = (ch: string): string => codePointName(ch.codePointAt(0) ?? 0)

/** `text` with each invisible character shown as `⟦U+200B⟧`; unchanged when it has none. */
export function visibleText(text: string): string {
    return INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, (ch) => `⟦${codePoint(ch)}⟧`) : text
}

/** The code points of the invisible characters of `text`, distinct, in order of first appearance (`['U+200B']`). */
export function invisibleCodePoints(text: string): string[] {
    if (!INVISIBLE.test(text)) return []
    return [...new Set(text.match(INVISIBLE_ALL)?.map(codePoint) ?? [])]
}

/** `text` without its invisible characters: what a reader sees. */
export function withoutInvisible(text: string): string {
    return INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, '') : text
}

/**
 * How a message names an id: visible as is, or shown with its invisible characters escaped and
 * named (`Q-single-test-04⟦U+200B⟧ (it holds the invisible character U+200B)`).
 */
export function describeId(text: string): string {
    const points = invisibleCodePoints(text)
    if (points.length === 0) return text
    return `${visibleText(text)} (it holds the invisible character${points.length > 1 ? 's' : ''} ${points.join(', ')})`
}
