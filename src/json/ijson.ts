import { createEntryIssue } from '../errors/entry-issue.js'
import { describeInvisible, showInvisible } from '../errors/invisible.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'

/*
 * I-JSON (RFC 7493) on a text JSON.parse accepted: JSON.parse keeps the last of two equal keys and
 * lets a lone surrogate through, so the same bytes could mean two things to two readers. The exact
 * scan (a tokenizer that keeps the path) is slow next to JSON.parse, so it runs only when a cheap
 * test says it may find something: the text has fewer distinct members than separators, or it
 * holds a surrogate escape or a raw lone surrogate (bench/parse-json.bench.mjs).
 */

/** A `\uD800`–`\uDFFF` escape (a pair, or a lone surrogate once decoded). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
    let end = text.indexOf('"', start + 1)
    for (;;) {
        let slashes = 0
        while (text.charCodeAt(end - 1 - slashes) === 92) slashes += 1
        if (slashes % 2 === 0) return end
        end = text.indexOf('"', end + 1)
    }
}

/**
 * The number of object members in a JSON text that parsed: the `:` outside strings. Strings are
 * skipped with `indexOf`, so the loop touches only the few characters between them.
 */
export function countMembers(text: string): number {
    let members = 0
    let at = 0
    // The next `:` found so far; searched again only once the scan has passed it (it was inside a string).
    let colon = text.indexOf(':')
    for (;;) {
        const quote = text.indexOf('"', at)
        const stop = quote < 0 ? text.length : quote
        if (colon >= 0 && colon < at) colon = text.indexOf(':', at)
        while (colon >= 0 && colon < stop) {
            members += 1
            colon = text.indexOf(':', colon + 1)
        }
        if (quote < 0) return members
        at = stringEnd(text, quote) + 1
    }
}

/** Whether `text` holds a raw surrogate that is not half of a pair (native where the runtime has it). */
function hasRawLoneSurrogate(text: string): boolean {
    const native = (text as { isWellFormed?: () => boolean }).isWellFormed
    return typeof native === 'function' ? !native.call(text) : LONE_SURROGATE.test(text)
}

/** Whether {@link ijsonIssues} may find something, given the member count of the parsed value (-1: unknown). */
export function mayBreakIJson(text: string, members: number): boolean {
    return (
        members < 0 ||
        (text.includes('\\u') && SURROGATE_ESCAPE.test(text)) ||
        hasRawLoneSurrogate(text) ||
        countMembers(text) !== members
    )
}

/** One open container: an object's keys so far and its current key, or an array's current index. */
interface Open {
    readonly keys: Set<string> | null
    key: string
    index: number
    expectKey: boolean
}

function loneSurrogate(text: string, path: () => string, where: string): Issue | null {
    const lone = LONE_SURROGATE.exec(text)
    if (lone === null) return null
    const code = `U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}`
    return createEntryIssue('INP-007', path(), { codePoint: code, where })
}

/**
 * Every duplicate key (at the pointer of the repeated member) and every lone surrogate (at the
 * pointer of its string, or of the member whose key holds it) in a text JSON.parse accepted.
 * Keys are compared decoded, so `"a"` and `"\u0061"` are the same key.
 */
export function ijsonIssues(text: string): Issue[] {
    const issues: Issue[] = []
    const open: Open[] = []
    const path = (): string => pointer(...open.map((o) => (o.keys === null ? o.index : o.key)))
    for (let i = 0; i < text.length; i += 1) {
        const c = text.charCodeAt(i)
        const top = open[open.length - 1]
        if (c === 34) {
            const end = stringEnd(text, i)
            // Only a string with an escape needs decoding.
            const raw = text.slice(i + 1, end)
            const value = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw
            i = end
            if (top !== undefined && top.keys !== null && top.expectKey) {
                top.key = value
                top.expectKey = false
                const invisible = describeInvisible(value)
                if (top.keys.has(value))
                    issues.push(
                        createEntryIssue('INP-006', path(), {
                            key: JSON.stringify(showInvisible(value)),
                            invisible: invisible === '' ? '' : ` (holds ${invisible})`
                        })
                    )
                top.keys.add(value)
                const lone = loneSurrogate(value, path, 'a key')
                if (lone !== null) issues.push(lone)
            } else {
                const lone = loneSurrogate(value, path, 'a string')
                if (lone !== null) issues.push(lone)
            }
        } else if (c === 123 || c === 91) {
            open.push({ keys: c === 123 ? new Set() : null, key: '', index: 0, expectKey: true })
        } else if (c === 125 || c === 93) {
            open.pop()
        } else if (c === 44 && top !== undefined) {
            if (top.keys === null) top.index += 1
            else top.expectKey = true
        }
    }
    return issues
}
