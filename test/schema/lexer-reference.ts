// The lexer as it was before it worked on char codes and blank ranges: the reference the faster one must
// equal, output for output (test/schema/lexer.test.ts).
import type { Lexed, LexedComment, LexedString } from '../../src/schema/lexer.js'
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
const IDENT_CHAR = /[A-Za-z0-9_$]/

function isLineBreak(ch: string): boolean {
    return ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029'
}

/** True when a `/` at `i` starts a regular expression rather than a division. */
function slashStartsRegex(out: string[], i: number): boolean {
    let j = i - 1
    while (j >= 0 && /\s/.test(out[j] as string)) j -= 1
    if (j < 0) return true
    const prev = out[j] as string
    if (prev === ')' || prev === ']' || prev === '}' || prev === "'" || prev === '"' || prev === '`') return false
    if (IDENT_CHAR.test(prev)) {
        let k = j
        while (k >= 0 && IDENT_CHAR.test(out[k] as string)) k -= 1
        const word = out.slice(k + 1, j + 1).join('')
        return REGEX_KEYWORDS.has(word)
    }
    return true
}

/**
 * Lexes `source`. Linear in its length; never throws (an unterminated literal runs to the end of
 * its line or of the input, as an engine would report a syntax error there).
 */
export function referenceLex(source: string): Lexed {
    const out = source.split('')
    const strings: LexedString[] = []
    const comments: LexedComment[] = []
    const blank = (from: number, to: number): void => {
        for (let k = from; k < to; k += 1) {
            if (!isLineBreak(out[k] as string)) out[k] = ' '
        }
    }
    // Each frame is the brace depth of code inside one `${`; the template resumes when it closes at 0.
    const templateFrames: number[] = []
    let depth = 0
    let i = 0
    const n = source.length

    const readTemplateChunk = (from: number): number => {
        // `from` is the first character after "`" or after the "}" that closed a substitution.
        let k = from
        while (k < n) {
            const ch = source[k] as string
            if (ch === '\\') {
                k += 2
                continue
            }
            if (ch === '`') {
                strings.push({ start: from, end: k, raw: source.slice(from, k), template: true })
                blank(from, k)
                return k + 1
            }
            if (ch === '$' && source[k + 1] === '{') {
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
        while (k < n && !isLineBreak(source[k] as string)) k += 1
        comments.push({ start: 0, end: k, text: source.slice(0, k) })
        blank(0, k)
        i = k
    }

    while (i < n) {
        const ch = source[i] as string
        const next = source[i + 1]
        if (ch === '/' && next === '/') {
            let k = i + 2
            while (k < n && !isLineBreak(source[k] as string)) k += 1
            comments.push({ start: i, end: k, text: source.slice(i, k) })
            blank(i, k)
            i = k
            continue
        }
        if (ch === '/' && next === '*') {
            const close = source.indexOf('*/', i + 2)
            const end = close === -1 ? n : close + 2
            comments.push({ start: i, end, text: source.slice(i, end) })
            blank(i, end)
            i = end
            continue
        }
        if (ch === "'" || ch === '"') {
            let k = i + 1
            while (k < n) {
                const c = source[k] as string
                if (c === '\\') {
                    k += 2
                    continue
                }
                if (c === ch || c === '\n' || c === '\r') break
                k += 1
            }
            const end = Math.min(k, n)
            strings.push({ start: i + 1, end, raw: source.slice(i + 1, end), template: false })
            blank(i + 1, end)
            i = source[end] === ch ? end + 1 : end
            continue
        }
        if (ch === '`') {
            i = readTemplateChunk(i + 1)
            continue
        }
        if (ch === '/' && slashStartsRegex(out, i)) {
            let k = i + 1
            let inClass = false
            while (k < n) {
                const c = source[k] as string
                if (c === '\\') {
                    k += 2
                    continue
                }
                if (isLineBreak(c)) break
                if (c === '[') inClass = true
                else if (c === ']') inClass = false
                else if (c === '/' && !inClass) break
                k += 1
            }
            const end = Math.min(k, n)
            blank(i + 1, end)
            i = end + 1
            while (i < n && IDENT_CHAR.test(source[i] as string)) i += 1
            continue
        }
        if (ch === '{') {
            depth += 1
        } else if (ch === '}') {
            if (depth === 0 && templateFrames.length > 0) {
                depth = templateFrames.pop() as number
                i = readTemplateChunk(i + 1)
                continue
            }
            depth = Math.max(0, depth - 1)
        }
        i += 1
    }
    return { code: out.join(''), strings, comments }
}
