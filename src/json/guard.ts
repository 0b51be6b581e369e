import { describeInvisible, showInvisible } from '../errors/invisible.js'
import { typeOfValue } from '../errors/issue.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isPlainObject } from '../model/object.js'
import { ijsonIssues, mayBreakIJson } from './ijson.js'

/** Cost limits for external JSON. Every check past a limit stops with a coded issue, in bounded time. */
export interface JsonLimits {
    /** Maximum nesting depth of arrays/objects (root container = depth 1). */
    readonly maxDepth: number
    /** Maximum length of any single string (keys included), in UTF-16 code units. */
    readonly maxStringLength: number
    /** Maximum number of values (every array item, object member and scalar counts once). */
    readonly maxNodes: number
    /** Maximum length of a JSON text before it is parsed, in UTF-16 code units. */
    readonly maxTextLength: number
}

/** Defaults sized for grading artefacts: generous for real files, cheap to reject for hostile ones. */
export const DEFAULT_JSON_LIMITS: JsonLimits = Object.freeze({
    maxDepth: 64,
    maxStringLength: 1_000_000,
    maxNodes: 250_000,
    maxTextLength: 8_000_000
})

/** Merges caller-supplied limits over the defaults, ignoring anything that is not a positive integer. */
export function resolveLimits(limits: unknown): JsonLimits {
    if (limits === null || typeof limits !== 'object') {
        return DEFAULT_JSON_LIMITS
    }
    const pick = (key: keyof JsonLimits): number => {
        const v = (limits as Record<string, unknown>)[key]
        return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : DEFAULT_JSON_LIMITS[key]
    }
    return {
        maxDepth: pick('maxDepth'),
        maxStringLength: pick('maxStringLength'),
        maxNodes: pick('maxNodes'),
        maxTextLength: pick('maxTextLength')
    }
}

/** A value waiting to be inspected; its path is rebuilt from the parent chain only when reported. */
class Pending {
    constructor(
        readonly value: unknown,
        readonly depth: number,
        readonly parent: Pending | null,
        readonly key: string | number
    ) {}
}

/** Marks the end of a container's subtree: it leaves the path of ancestors (cycle detection). */
class Exit {
    constructor(readonly container: object) {}
}

function pathOf(at: Pending | null, basePath: string): string {
    const tokens: Array<string | number> = []
    for (let p = at; p !== null && p.parent !== null; p = p.parent) tokens.push(p.key)
    return basePath + pointer(...tokens.reverse())
}

/**
 * Checks that `value` is plain JSON (null, boolean, finite number, string, array, plain object;
 * no undefined, functions, symbols, bigints, class instances, holes or cycles) within `limits`.
 * Iterative, so a hostile depth cannot overflow the stack. Reports the first problem only:
 * past it, the value cannot be interpreted safely. Runs on every external value, so paths are
 * built only for the one problem reported. `tally.members` receives the number of object members
 * of a good value (what the I-JSON check of a text compares with).
 */
export function inspectJson(
    value: unknown,
    limits: JsonLimits = DEFAULT_JSON_LIMITS,
    basePath = '',
    tally?: { members: number }
): Issue[] {
    const walk: JsonWalk = {
        onPath: new Set<object>(),
        stack: [new Pending(value, 0, null, '')],
        limits,
        members: 0,
        at: (frame, key) => (key === undefined ? pathOf(frame, basePath) : pathOf(frame, basePath) + pointer(key))
    }
    let nodes = 0
    try {
        while (walk.stack.length > 0) {
            const frame = walk.stack.pop() as Pending | Exit
            if (frame instanceof Exit) {
                walk.onPath.delete(frame.container)
                continue
            }
            nodes += 1
            if (nodes > limits.maxNodes)
                return [
                    createEntryIssue('INP-003', basePath, {
                        detail: 'more values than allowed',
                        limit: limits.maxNodes
                    })
                ]
            const v = frame.value
            const problem =
                v !== null && typeof v === 'object' ? expandContainer(walk, frame, v) : scalarProblem(walk, frame, v)
            if (problem !== null) return [problem]
        }
    } catch (cause) {
        // Getters and proxies can throw while being read; that input is not plain JSON either.
        return [
            createEntryIssue('INP-001', basePath, {
                detail: `value could not be read (${cause instanceof Error ? cause.name : 'error'})`
            })
        ]
    }
    if (tally !== undefined) tally.members = walk.members
    return []
}

/** The state of one inspection: the frames still to look at and the containers on the current path. */
interface JsonWalk {
    readonly onPath: Set<object>
    readonly stack: Array<Pending | Exit>
    readonly limits: JsonLimits
    /** Object members seen so far. */
    members: number
    readonly at: (frame: Pending | null, key?: string | number) => string
}

/** A value that holds no other: null, boolean, finite number and string within the limit are JSON. */
function scalarProblem(walk: JsonWalk, frame: Pending, v: unknown): Issue | null {
    if (v === null || typeof v === 'boolean') return null
    if (typeof v === 'number')
        return Number.isFinite(v)
            ? null
            : createEntryIssue('INP-001', walk.at(frame), { detail: `${typeOfValue(v)} is not a JSON number` })
    if (typeof v === 'string') {
        return v.length > walk.limits.maxStringLength
            ? createEntryIssue('INP-003', walk.at(frame), {
                  detail: `string of ${v.length} characters`,
                  limit: walk.limits.maxStringLength
              })
            : null
    }
    return createEntryIssue('INP-001', walk.at(frame), { detail: `${typeof v} is not a JSON value` })
}

/** An array or plain object: checked, then its members pushed (last first, so they are read in order). */
function expandContainer(walk: JsonWalk, frame: Pending, v: object): Issue | null {
    const depth = frame.depth + 1
    if (depth > walk.limits.maxDepth)
        return createEntryIssue('INP-002', walk.at(frame), { limit: walk.limits.maxDepth })
    if (walk.onPath.has(v)) return createEntryIssue('INP-001', walk.at(frame), { detail: 'circular reference' })
    if (Array.isArray(v)) {
        walk.onPath.add(v)
        walk.stack.push(new Exit(v))
        for (let i = v.length - 1; i >= 0; i -= 1) {
            if (!(i in v)) return createEntryIssue('INP-001', walk.at(frame, i), { detail: 'array hole (undefined)' })
            walk.stack.push(new Pending(v[i], depth, frame, i))
        }
        return null
    }
    if (!isPlainObject(v)) {
        const name = (v as { constructor?: { name?: unknown } }).constructor?.name
        return createEntryIssue('INP-001', walk.at(frame), {
            detail: `instance of ${typeof name === 'string' ? name : 'a class'} is not a plain object`
        })
    }
    if (Object.getOwnPropertySymbols(v).length > 0)
        return createEntryIssue('INP-001', walk.at(frame), { detail: 'symbol-keyed property' })
    walk.onPath.add(v)
    walk.stack.push(new Exit(v))
    const keys = Object.keys(v)
    walk.members += keys.length
    for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string
        if (key.length > walk.limits.maxStringLength)
            return createEntryIssue('INP-003', walk.at(frame), {
                detail: `property name of ${key.length} characters`,
                limit: walk.limits.maxStringLength
            })
        const child = (v as Record<string, unknown>)[key]
        if (child === undefined)
            return createEntryIssue('INP-001', walk.at(frame, key), { detail: 'undefined is not a JSON value' })
        walk.stack.push(new Pending(child, depth, frame, key))
    }
    return null
}

/**
 * Parses a JSON text within `limits`: the length is checked before parsing, the result after, and
 * the text must be I-JSON (RFC 7493): no leading byte order mark, no duplicate key, no lone
 * surrogate (each reported with its JSON Pointer). A parse error names any invisible character.
 * @returns `{ value, errors }`; `value` is `undefined` whenever `errors` is non-empty.
 */
export function parseJsonText(
    text: string,
    limits: JsonLimits = DEFAULT_JSON_LIMITS
): { value: unknown; errors: Issue[] } {
    if (text.length > limits.maxTextLength) {
        return {
            value: undefined,
            errors: [
                createEntryIssue('INP-003', '', {
                    detail: `JSON text of ${text.length} characters`,
                    limit: limits.maxTextLength
                })
            ]
        }
    }
    // Rejected, not skipped: RFC 8259 forbids sending one, and a reader that does not skip it sees other bytes.
    if (text.charCodeAt(0) === 0xfeff) return { value: undefined, errors: [createEntryIssue('INP-005', '')] }
    let value: unknown
    try {
        value = JSON.parse(text) as unknown
    } catch (cause) {
        const detail = cause instanceof Error ? cause.message : 'unparseable'
        // The message may quote the character or give its position (V8: "at position 7"); either way, name it if it
        // cannot be seen.
        const at = /position (\d+)/.exec(detail)
        const invisible = describeInvisible(
            detail + (at === null ? '' : String.fromCodePoint(text.codePointAt(Number(at[1])) ?? 32))
        )
        return {
            value: undefined,
            errors: [
                createEntryIssue('INP-004', '', {
                    detail: invisible === '' ? detail : `${showInvisible(detail)} (invisible: ${invisible})`
                })
            ]
        }
    }
    const tally = { members: -1 }
    const issues = inspectJson(value, limits, '', tally)
    const errors = issues.length > 0 ? issues : mayBreakIJson(text, tally.members) ? ijsonIssues(text) : []
    return errors.length > 0 ? { value: undefined, errors } : { value, errors }
}

/**
 * Parses external JSON text safely: limits checked before and after parsing, I-JSON required (no
 * byte order mark, duplicate key or lone surrogate), every problem coded with its JSON Pointer.
 * @param input - `{ text, limits? }`
 * @returns `{ value, errors }`; `value` is `undefined` when `errors` is non-empty. INP-001…007.
 * @example parseJson({ text: '{"a":1}' }).value // { a: 1 }
 */
export function parseJson(input: { text?: unknown; limits?: Partial<JsonLimits> }): {
    value: unknown
    errors: Issue[]
} {
    const text = input?.text
    if (typeof text !== 'string') {
        return {
            value: undefined,
            errors: [createEntryIssue('INP-004', '/text', { detail: `expected a string, got ${typeOfValue(text)}` })]
        }
    }
    return parseJsonText(text, resolveLimits(input.limits))
}
