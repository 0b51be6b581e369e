import { createEntryIssue } from '../errors/entry-issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isPlainObject } from '../model/object.js'
import { visibleText } from './visible.js'

/** Keys that some readers treat as an object's prototype or its class (`Object.assign`, `obj[key]`, merges). */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** The checked copy of a value and the keys left out of it. */
export interface EntryCopy {
    readonly value: unknown
    readonly issues: Issue[]
}

/**
 * A deep copy of a plain-JSON value (one the JSON guard passed) holding only own enumerable data
 * properties: a `__proto__`, `constructor` or `prototype` key and an accessor property are left out,
 * each with GRD-075 at its pointer. Every value is read once, from its property descriptor, so a
 * getter runs no more and what is validated is what is returned. Recursive: the guard has already
 * bounded the depth.
 * @param freeze - deep-freeze the copy (the accepted entry a caller receives)
 */
export function copyEntry(value: unknown, freeze: boolean): EntryCopy {
    const issues: Issue[] = []
    // The path as tokens; a pointer is built only for an issue.
    const tokens: Array<string | number> = []
    const copyOf = (v: unknown): unknown => {
        if (v === null || typeof v !== 'object') return v
        let out: unknown[] | Record<string, unknown>
        if (Array.isArray(v)) {
            out = new Array<unknown>(v.length)
            for (let i = 0; i < v.length; i += 1) {
                tokens.push(i)
                out[i] = copyOf(v[i])
                tokens.pop()
            }
        } else {
            out = {}
            for (const key of Object.keys(v)) {
                const d = keep(v, key, tokens, issues)
                if (d === null) continue
                tokens.push(key)
                // Plain assignment is safe here: `keep` has already left out `__proto__`, the one key whose
                // assignment would set a prototype instead of an own property (and it is several times
                // faster than Object.fromEntries on every object of every entry a rebuild validates).
                out[key] = copyOf(d.value)
                tokens.pop()
            }
        }
        return freeze ? Object.freeze(out) : out
    }
    return { value: copyOf(value), issues }
}

/** The data descriptor of an own key worth copying, or `null` (with GRD-075) for a prototype key or an accessor. */
function keep(
    v: object,
    key: string,
    tokens: ReadonlyArray<string | number>,
    issues: Issue[]
): { value: unknown } | null {
    if (PROTOTYPE_KEYS.has(key)) {
        issues.push(
            createEntryIssue('GRD-075', pointer(...tokens, key), {
                key: visibleText(key),
                why: "a prototype name (__proto__, constructor, prototype) that merges and lookups can mistake for the object's prototype"
            })
        )
        return null
    }
    const d = Object.getOwnPropertyDescriptor(v, key)
    if (d === undefined) return null
    if (!('value' in d)) {
        issues.push(
            createEntryIssue('GRD-075', pointer(...tokens, key), {
                key: visibleText(key),
                why: 'an accessor (a getter), not a data property'
            })
        )
        return null
    }
    return d as { value: unknown }
}

/** What {@link guardedCopy} returns when the value needs the full guard and copy to be described. */
const UNUSUAL: unique symbol = Symbol('unusual')

/** Past this depth limit the one-walk path is not tried: it recurses, and a caller may allow a hostile depth. */
const ONE_WALK_MAX_DEPTH = 512

/**
 * The JSON guard and {@link copyEntry} in one walk, for the common value both pass without a word:
 * plain JSON within `limits`, only own data properties, no prototype key. Anything else (a problem
 * the guard reports, a key or accessor the copy leaves out, a throwing read) returns `null`, and the
 * caller runs the guard and the copy as before, so every issue keeps its code, path and order.
 * Values are read from their property descriptors as the copy reads them, so an accessor is never
 * run here. Each validated entry went through both walks; this is one.
 */
export function guardedCopy(
    value: unknown,
    limits: { readonly maxDepth: number; readonly maxStringLength: number; readonly maxNodes: number },
    freeze: boolean
): { value: unknown } | null {
    if (limits.maxDepth > ONE_WALK_MAX_DEPTH) return null
    const { maxDepth, maxStringLength, maxNodes } = limits
    let nodes = 0
    const copyOf = (v: unknown, depth: number): unknown => {
        nodes += 1
        if (nodes > maxNodes) return UNUSUAL
        if (v === null || typeof v === 'boolean') return v
        if (typeof v === 'string') return v.length > maxStringLength ? UNUSUAL : v
        if (typeof v === 'number') return Number.isFinite(v) ? v : UNUSUAL
        if (typeof v !== 'object' || depth >= maxDepth) return UNUSUAL
        let out: unknown[] | Record<string, unknown>
        if (Array.isArray(v)) {
            out = new Array<unknown>(v.length)
            for (let i = 0; i < v.length; i += 1) {
                if (!(i in v)) return UNUSUAL
                const c = copyOf(v[i], depth + 1)
                if (c === UNUSUAL) return UNUSUAL
                out[i] = c
            }
        } else {
            if (!isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return UNUSUAL
            out = {}
            const keys = Object.keys(v)
            for (let i = 0; i < keys.length; i += 1) {
                const key = keys[i] as string
                if (key.length > maxStringLength || PROTOTYPE_KEYS.has(key)) return UNUSUAL
                const d = Object.getOwnPropertyDescriptor(v, key)
                if (d === undefined || !('value' in d) || d.value === undefined) return UNUSUAL
                const c = copyOf(d.value, depth + 1)
                if (c === UNUSUAL) return UNUSUAL
                out[key] = c
            }
        }
        return freeze ? Object.freeze(out) : out
    }
    try {
        const copied = copyOf(value, 0)
        return copied === UNUSUAL ? null : { value: copied }
    } catch {
        // A read that throws (a hostile Proxy) is described by the guard.
        return null
    }
}
