import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
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
 * getter runs no more and what is validated is what is returned. Objects are built with
 * `Object.fromEntries` (define semantics). Recursive: the guard has already bounded the depth.
 * @param freeze - deep-freeze the copy (the accepted entry a caller receives)
 */
export function copyEntry(value: unknown, freeze: boolean): EntryCopy {
    const issues: Issue[] = []
    // The path as tokens; a pointer is built only for an issue.
    const tokens: Array<string | number> = []
    const copyOf = (v: unknown): unknown => {
        if (v === null || typeof v !== 'object') return v
        let out: unknown
        if (Array.isArray(v)) {
            out = v.map((item, i) => {
                tokens.push(i)
                const c = copyOf(item)
                tokens.pop()
                return c
            })
        } else {
            out = Object.fromEntries(
                ownDataEntries(v, tokens, issues).map(([k, child]) => {
                    tokens.push(k)
                    const c = copyOf(child)
                    tokens.pop()
                    return [k, c]
                })
            )
        }
        return freeze ? Object.freeze(out) : out
    }
    return { value: copyOf(value), issues }
}

function ownDataEntries(v: object, tokens: ReadonlyArray<string | number>, issues: Issue[]): Array<[string, unknown]> {
    const at = (key: string): string => pointer(...tokens, key)
    const entries: Array<[string, unknown]> = []
    for (const key of Object.keys(v)) {
        const d = Object.getOwnPropertyDescriptor(v, key)
        if (d === undefined) continue
        if (PROTOTYPE_KEYS.has(key)) {
            issues.push(createIssue('GRD-075', at(key), { key: visibleText(key), why: 'a prototype name (__proto__, constructor, prototype) that merges and lookups can mistake for the object\'s prototype' }))
            continue
        }
        if (!('value' in d)) {
            issues.push(createIssue('GRD-075', at(key), { key: visibleText(key), why: 'an accessor (a getter), not a data property' }))
            continue
        }
        entries.push([key, d.value])
    }
    return entries
}
