/**
 * Invisible characters: what a reader (a judge model included) would not see on a page but a model
 * reads all the same. Tag characters spell hidden ASCII, bidi controls reorder what is shown, and
 * zero-width characters split or hide words. Each is shown as a visible escape `⟦U+XXXX⟧` instead.
 *
 * What is escaped (docs/judges.md, "What the judge is shown, and what it cannot be told"):
 * - `tag`: U+E0000–U+E007F, except the tag sequence of an emoji subdivision flag (U+1F3F4, 1–7 tag
 *   letters or digits, U+E007F);
 * - `bidi`: U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C;
 * - `invisible`: U+200B, U+2060–U+2064, U+206A–U+206F, U+00AD, U+180E, U+FFF9–U+FFFB, U+FEFF
 *   anywhere but offset 0 (a byte-order mark), a run of two or more variation selectors
 *   (U+FE00–U+FE0F, U+E0100–U+E01EF), and U+200C / U+200D except a single one between two letters
 *   or marks of a script other than Latin (Persian, the Indic scripts) or a U+200D between two emoji
 *   (the ZWJ sequences such as 👨‍👩‍👧).
 * Everything else — CJK, emoji, accents, every visible character — is left as it is.
 */
import { codePointName } from '../errors/invisible.js'
import { rx } from '../model/regex.js'

/** Why a character was escaped. */
export type InvisibleKind = 'tag' | 'bidi' | 'invisible'

/** One escaped character: its UTF-16 index in the input, its code point and its kind. */
export interface InvisibleFound {
    readonly index: number
    readonly codePoint: number
    readonly kind: InvisibleKind
}

/** {@link neutraliseInvisible}'s result: the text with every invisible character escaped, and what was found. */
export interface NeutralisedText {
    readonly text: string
    /** The escaped characters in order, at most {@link MAX_LISTED_INVISIBLE}; `count` has them all. */
    readonly found: InvisibleFound[]
    readonly count: number
}

/** How many escaped characters `found` lists; `count` goes on. */
export const MAX_LISTED_INVISIBLE = 1000

// Every character that may be escaped; a text without one is returned as it is. The quick test is one
// character class (the high surrogate U+DB40 stands for the tag and variation-selector planes).
const QUICK =
    // biome-ignore lint/suspicious/noMisleadingCharacterClass: code units on purpose (the lead surrogate alone)
    /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFE00-\uFE0F\uFEFF\uFFF9-\uFFFB\uDB40]/
const CANDIDATES =
    // Code units on purpose: a tag's lead surrogate, then its trail.
    rx('g')`[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFE00-\uFE0F\uFEFF\uFFF9-\uFFFB]|
        \uDB40[\uDC00-\uDC7F\uDD00-\uDDEF]`
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u
const LETTER_OR_MARK = /[\p{L}\p{M}]/u
const LATIN = /\p{Script=Latin}/u

/** The visible form of a code point: `⟦U+200B⟧`. */
export function escapeCodePoint(codePoint: number): string {
    return `⟦${codePointName(codePoint)}⟧`
}

/** Whether `text` holds a character {@link neutraliseInvisible} may escape (cheap: one regex test). */
export function mayHoldInvisible(text: string): boolean {
    return QUICK.test(text)
}

const isTag = (cp: number): boolean => cp >= 0xe0000 && cp <= 0xe007f
const isVariationSelector = (cp: number): boolean => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)
const isBidi = (cp: number): boolean =>
    cp === 0x061c || cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)
const isSkinTone = (cp: number): boolean => cp >= 0x1f3fb && cp <= 0x1f3ff

/** The code point that ends just before UTF-16 index `i`, or -1. */
function codePointBefore(text: string, i: number): number {
    if (i <= 0) return -1
    const low = text.charCodeAt(i - 1)
    if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
        const high = text.charCodeAt(i - 2)
        if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000
    }
    return low
}

/** The code point at UTF-16 index `i`, or -1 past the end. */
const codePointAt = (text: string, i: number): number => (i < text.length ? (text.codePointAt(i) as number) : -1)

const letterOfJoiningScript = (cp: number): boolean => {
    if (cp < 0x80) return false
    const ch = String.fromCodePoint(cp)
    return LETTER_OR_MARK.test(ch) && !LATIN.test(ch)
}

/**
 * The tag characters from UTF-16 index `start` on that form an emoji subdivision flag's tag sequence: its end index, or
 * -1.
 */
function flagTagSequenceEnd(text: string, start: number): number {
    if (codePointBefore(text, start) !== 0x1f3f4) return -1
    let i = start
    let specs = 0
    while (i < text.length) {
        const cp = codePointAt(text, i)
        if (cp === 0xe007f) return specs >= 1 && specs <= 7 ? i + 2 : -1
        if (!((cp >= 0xe0030 && cp <= 0xe0039) || (cp >= 0xe0061 && cp <= 0xe007a))) return -1
        specs += 1
        i += 2
    }
    return -1
}

/** The kind of the invisible character `cp` at UTF-16 index `i`, or null when it is left as it is here. */
function kindAt(text: string, i: number, cp: number): InvisibleKind | null {
    if (isTag(cp)) return 'tag'
    if (isBidi(cp)) return 'bidi'
    const size = cp > 0xffff ? 2 : 1
    if (isVariationSelector(cp))
        return isVariationSelector(codePointBefore(text, i)) || isVariationSelector(codePointAt(text, i + size))
            ? 'invisible'
            : null
    if (cp === 0xfeff) return i === 0 ? null : 'invisible'
    if (cp === 0x200c || cp === 0x200d) {
        const before = codePointBefore(text, i)
        const after = codePointAt(text, i + 1)
        if (letterOfJoiningScript(before) && letterOfJoiningScript(after)) return null
        if (
            cp === 0x200d &&
            after >= 0 &&
            PICTOGRAPHIC.test(String.fromCodePoint(after)) &&
            before >= 0 &&
            (before === 0xfe0f || isSkinTone(before) || PICTOGRAPHIC.test(String.fromCodePoint(before)))
        )
            return null
        return 'invisible'
    }
    return 'invisible'
}

/**
 * Shows every invisible character of `text` as a visible escape `⟦U+XXXX⟧` (the rules above), so a
 * judge sees that something was hidden there and what. Pure; a text without one comes back unchanged.
 * @param text - any text
 * @returns `{ text, found: [{ index, codePoint, kind }], count }`; a non-string gives `{ text: '', found: [], count: 0
 *   }`
 * @example neutraliseInvisible('a\u200Bb').text // 'a⟦U+200B⟧b'
 */
export function neutraliseInvisible(text: string): NeutralisedText {
    if (typeof text !== 'string') return { text: '', found: [], count: 0 }
    if (!QUICK.test(text)) return { text, found: [], count: 0 }
    const found: InvisibleFound[] = []
    let count = 0
    let out = ''
    let last = 0
    // Up to this index tag characters belong to a flag's tag sequence and are kept.
    let flagUntil = -1
    CANDIDATES.lastIndex = 0
    for (let m = CANDIDATES.exec(text); m !== null; m = CANDIDATES.exec(text)) {
        const i = m.index
        const cp = text.codePointAt(i) as number
        if (isTag(cp) && i < flagUntil) continue
        if (isTag(cp) && cp !== 0xe007f) {
            const end = flagTagSequenceEnd(text, i)
            if (end > 0) {
                flagUntil = end
                continue
            }
        }
        const kind = kindAt(text, i, cp)
        if (kind === null) continue
        count += 1
        if (found.length < MAX_LISTED_INVISIBLE) found.push({ index: i, codePoint: cp, kind })
        out += text.slice(last, i) + escapeCodePoint(cp)
        last = i + m[0].length
    }
    return count === 0 ? { text, found, count } : { text: out + text.slice(last), found, count }
}
