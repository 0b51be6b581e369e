/**
 * A small JavaScript lexer that separates code from data: comments, string literals, the static
 * parts of template literals and regular-expression literals are blanked (replaced by spaces,
 * newlines kept), so pattern searches over the result only see code and every index still maps
 * to the same line and column of the source. Unlike a line-based scanner it
 *
 * - keeps the code inside `${…}` of a template literal (nested templates included) visible;
 * - handles escapes exactly (`'\\'` closes the string; `\'` does not);
 * - tells a regular expression from a division by the token before the slash;
 * - records every string literal and comment with its position, so module specifiers and
 *   comment text can be inspected separately.
 */

/** A string literal or the static text of a template literal. */
export interface LexedString {
    /** Index of the first character of the content (after the opening quote). */
    readonly start: number
    /** Index just past the content (the closing quote, or the end of input). */
    readonly end: number
    /** The raw content between the delimiters. */
    readonly raw: string
    /** Template chunk (`true`) or quoted string (`false`). */
    readonly template: boolean
}

/** A comment, delimiters included. */
export interface LexedComment {
    readonly start: number
    readonly end: number
    readonly text: string
}

/** The lexer's output. */
export interface Lexed {
    /** The source with every non-code character blanked; same length as the source. */
    readonly code: string
    readonly strings: readonly LexedString[]
    readonly comments: readonly LexedComment[]
}

const REGEX_KEYWORDS = new Set([
    'return',
    'typeof',
    'instanceof',
    'in',
    'of',
    'new',
    'delete',
    'void',
    'throw',
    'case',
    'do',
    'else',
    'yield',
    'await'
])

const LF = 10
const CR = 13
const LS = 0x2028
const PS = 0x2029

function isLineBreak(code: number): boolean {
    return code === LF || code === CR || code === LS || code === PS
}

/** `[A-Za-z0-9_$]`, by char code. */
function isIdent(code: number): boolean {
    return (
        (code >= 97 && code <= 122) ||
        (code >= 65 && code <= 90) ||
        (code >= 48 && code <= 57) ||
        code === 95 ||
        code === 36
    )
}

const WHITESPACE = /\s/

// ASCII characters that start nothing in the lexer (not / ' " ` { }): 1 = plain.
const PLAIN = new Uint8Array(128).fill(1)
for (const c of '/\'"`{}') PLAIN[c.charCodeAt(0)] = 0

/** What `/\s/` matches, for one UTF-16 code unit. */
function isSpace(code: number): boolean {
    if (code < 128) return code === 32 || (code >= 9 && code <= 13)
    return WHITESPACE.test(String.fromCharCode(code))
}

/** A run of blanks of the same length as `text`, its line breaks kept. */
function blanked(text: string): string {
    for (let k = 0; k < text.length; k += 1) {
        if (isLineBreak(text.charCodeAt(k))) return text.replace(/[^\n\r\u2028\u2029]/g, ' ')
    }
    return ' '.repeat(text.length)
}

/**
 * Lexes `source`. Linear in its length; never throws (an unterminated literal runs to the end of
 * its line or of the input, as an engine would report a syntax error there).
 */
export function lex(source: string): Lexed {
    const strings: LexedString[] = []
    const comments: LexedComment[] = []
    // Blanked ranges, in source order (each starts after the one before ends): the output is built
    // from them once at the end, and a slash looks back through them for the token before it.
    const starts: number[] = []
    const ends: number[] = []
    const blank = (from: number, to: number): void => {
        if (to <= from) return
        starts.push(from)
        ends.push(to)
    }
    // Each frame is the brace depth of code inside one `${`; the template resumes when it closes at 0.
    const templateFrames: number[] = []
    let depth = 0
    let i = 0
    const n = source.length

    /** True when a `/` at `at` starts a regular expression rather than a division (the token before it decides). */
    const slashStartsRegex = (at: number): boolean => {
        // The last character before `at` that is neither blanked nor whitespace.
        let r = starts.length - 1
        let j = at - 1
        while (j >= 0) {
            while (r >= 0 && (starts[r] as number) > j) r -= 1
            if (r >= 0 && j < (ends[r] as number)) {
                j = (starts[r] as number) - 1
                continue
            }
            if (!isSpace(source.charCodeAt(j))) break
            j -= 1
        }
        if (j < 0) return true
        const prev = source.charCodeAt(j)
        // ) ] } ' " `
        if (prev === 41 || prev === 93 || prev === 125 || prev === 39 || prev === 34 || prev === 96) return false
        if (isIdent(prev)) {
            // Blanked text never ends in an identifier character next to code, so the word is read from the source.
            let k = j
            while (k >= 0 && isIdent(source.charCodeAt(k))) k -= 1
            return REGEX_KEYWORDS.has(source.slice(k + 1, j + 1))
        }
        return true
    }

    const readTemplateChunk = (from: number): number => {
        // `from` is the first character after "`" or after the "}" that closed a substitution.
        let k = from
        while (k < n) {
            const c = source.charCodeAt(k)
            if (c === 92) {
                k += 2
                continue
            }
            if (c === 96) {
                strings.push({ start: from, end: k, raw: source.slice(from, k), template: true })
                blank(from, k)
                return k + 1
            }
            if (c === 36 && source.charCodeAt(k + 1) === 123) {
                strings.push({ start: from, end: k, raw: source.slice(from, k), template: true })
                blank(from, k)
                templateFrames.push(depth)
                depth = 0
                return k + 2
            }
            k += 1
        }
        strings.push({ start: from, end: n, raw: source.slice(from, n), template: true })
        blank(from, n)
        return n
    }

    if (source.startsWith('#!')) {
        let k = 0
        while (k < n && !isLineBreak(source.charCodeAt(k))) k += 1
        comments.push({ start: 0, end: k, text: source.slice(0, k) })
        blank(0, k)
        i = k
    }

    while (i < n) {
        let ch = source.charCodeAt(i)
        // Most of a schema's code is indentation, names and punctuation that start nothing: stepped over in a tight
        // loop.
        while (ch < 128 && PLAIN[ch] === 1) {
            i += 1
            if (i >= n) break
            ch = source.charCodeAt(i)
        }
        if (i >= n) break
        if (ch === 47) {
            const next = source.charCodeAt(i + 1)
            if (next === 47) {
                let k = i + 2
                while (k < n && !isLineBreak(source.charCodeAt(k))) k += 1
                comments.push({ start: i, end: k, text: source.slice(i, k) })
                blank(i, k)
                i = k
                continue
            }
            if (next === 42) {
                const close = source.indexOf('*/', i + 2)
                const end = close === -1 ? n : close + 2
                comments.push({ start: i, end, text: source.slice(i, end) })
                blank(i, end)
                i = end
                continue
            }
            if (slashStartsRegex(i)) {
                let k = i + 1
                let inClass = false
                while (k < n) {
                    const c = source.charCodeAt(k)
                    if (c === 92) {
                        k += 2
                        continue
                    }
                    if (isLineBreak(c)) break
                    if (c === 91) inClass = true
                    else if (c === 93) inClass = false
                    else if (c === 47 && !inClass) break
                    k += 1
                }
                const end = Math.min(k, n)
                blank(i + 1, end)
                i = end + 1
                while (i < n && isIdent(source.charCodeAt(i))) i += 1
                continue
            }
            i += 1
            continue
        }
        if (ch === 39 || ch === 34) {
            let k = i + 1
            while (k < n) {
                const c = source.charCodeAt(k)
                if (c === 92) {
                    k += 2
                    continue
                }
                if (c === ch || c === LF || c === CR) break
                k += 1
            }
            const end = Math.min(k, n)
            strings.push({ start: i + 1, end, raw: source.slice(i + 1, end), template: false })
            blank(i + 1, end)
            i = source.charCodeAt(end) === ch ? end + 1 : end
            continue
        }
        if (ch === 96) {
            i = readTemplateChunk(i + 1)
            continue
        }
        if (ch === 123) {
            depth += 1
        } else if (ch === 125) {
            if (depth === 0 && templateFrames.length > 0) {
                depth = templateFrames.pop() as number
                i = readTemplateChunk(i + 1)
                continue
            }
            depth = Math.max(0, depth - 1)
        }
        i += 1
    }

    const parts: string[] = []
    let at = 0
    for (let r = 0; r < starts.length; r += 1) {
        const from = starts[r] as number
        const to = Math.min(ends[r] as number, n)
        parts.push(source.slice(at, from), blanked(source.slice(from, to)))
        at = to
    }
    parts.push(source.slice(at))
    return { code: parts.join(''), strings, comments }
}

/** Maps string indexes to 1-based line and column (lines split at `\n`, `\r\n`, `\r`, U+2028, U+2029). */
export function lineIndex(source: string): (index: number) => { line: number; column: number } {
    const starts = [0]
    for (let k = 0; k < source.length; k += 1) {
        const ch = source.charCodeAt(k)
        if (ch === CR && source.charCodeAt(k + 1) === LF) continue
        if (isLineBreak(ch)) starts.push(k + 1)
    }
    return (index: number) => {
        let lo = 0
        let hi = starts.length - 1
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1
            if ((starts[mid] as number) <= index) lo = mid
            else hi = mid - 1
        }
        return { line: lo + 1, column: index - (starts[lo] as number) + 1 }
    }
}
