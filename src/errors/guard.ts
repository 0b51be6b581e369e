import { isObject } from '../model/object.js'
import { createEntryIssue } from './entry-issue.js'
import type { Issue } from './types.js'

/**
 * The one boundary of every public entry point. The input object is read once, inside a guard: its
 * own enumerable properties are copied into a plain snapshot, so a throwing getter or a hostile
 * Proxy fails here, as INT-002, and the function only ever sees plain data at its top level. Any
 * exception still escaping the function (a bug, or a nested hostile value) becomes INT-001 in the
 * function's own failure shape, never a throw or a rejection.
 */

// Any function; `guardFunction` hands back the exact type it was given.
// biome-ignore lint/suspicious/noExplicitAny: only any[] parameters accept every typed parameter list
type AnyFn = (...args: any[]) => unknown

function detailOf(cause: unknown): string {
    try {
        if (cause instanceof Error) return `${cause.name}: ${String(cause.message).slice(0, 200)}`
    } catch {
        return 'unreadable error'
    }
    return typeof cause === 'string' ? cause.slice(0, 200) : 'non-error thrown'
}

/** A plain copy of the top level of `input`, or the issue reading it raised. */
export function snapshotInput(input: unknown, fn: string): { value: unknown; issue: Issue | null } {
    if (input === null || typeof input !== 'object') return { value: input, issue: null }
    try {
        // Inside the try: Array.isArray throws on a revoked Proxy.
        if (Array.isArray(input)) return { value: input, issue: null }
        const keys = Object.keys(input)
        // Define semantics: a `__proto__` key stays an own property of the copy. Every other key is
        // assigned, several times cheaper than building entries for Object.fromEntries on each call.
        if (keys.includes('__proto__'))
            return {
                value: Object.fromEntries(keys.map((k) => [k, (input as Record<string, unknown>)[k]])),
                issue: null
            }
        const value: Record<string, unknown> = {}
        for (let i = 0; i < keys.length; i++)
            value[keys[i] as string] = (input as Record<string, unknown>)[keys[i] as string]
        return { value, issue: null }
    } catch (cause) {
        return { value: undefined, issue: createEntryIssue('INT-002', '', { fn, detail: detailOf(cause) }) }
    }
}

/** The function's failure result for `issue`: its answer to no input, with `errors: [issue]`. */
function failureOf(fn: AnyFn, issue: Issue, fallback: (() => unknown) | undefined): unknown {
    if (fallback !== undefined) return fallback()
    let shape: unknown
    try {
        shape = fn(undefined)
    } catch {
        shape = undefined
    }
    const shaped = (value: unknown): unknown => (isObject(value) ? { ...value, errors: [issue] } : { errors: [issue] })
    if (shape instanceof Promise) return shape.then(shaped, () => ({ errors: [issue] }))
    return shaped(shape)
}

/**
 * Wraps one entry point: input snapshot, then the call; a throw or a rejection becomes INT-001.
 * @param name - how issues name the function
 * @param fn - the unguarded function (first argument = the input object)
 * @param fallback - the failure value when the function's result is not an object with `errors`
 */
export function guardFunction<F extends AnyFn>(name: string, fn: F, fallback?: () => unknown): F {
    const guarded = function (this: unknown, ...args: unknown[]): unknown {
        const snap = snapshotInput(args[0], name)
        if (snap.issue !== null) return failureOf(fn, snap.issue, fallback)
        const internal = (cause: unknown): unknown =>
            failureOf(fn, createEntryIssue('INT-001', '', { fn: name, detail: detailOf(cause) }), fallback)
        try {
            const result = fn.call(this, snap.value, ...args.slice(1))
            return result instanceof Promise ? result.catch(internal) : result
        } catch (cause) {
            return internal(cause)
        }
    }
    Object.defineProperty(guarded, 'name', { value: fn.name })
    return guarded as F
}

/**
 * Guards every static method of a public class in place, so internal callers get the same boundary, and gives the
 * class its public name. Called where the class is defined, as the pure initialiser of its one export
 * (`export const X = guardStatics(XUnguarded, 'X')`): every caller, inside the library or out, reaches the class
 * through that export, so a bundler that keeps a use keeps the guard, and one that keeps none drops the class too.
 * (A call beside the face's re-export was dropped with an unused export while internal callers still ran the class.)
 */
export function guardStatics<C extends object>(cls: C, name: string): C {
    for (const key of Object.getOwnPropertyNames(cls)) {
        if (key === 'prototype' || key === 'length' || key === 'name') continue
        const method = (cls as Record<string, unknown>)[key]
        if (typeof method !== 'function') continue
        Object.defineProperty(cls, key, {
            value: guardFunction(`${name}.${key}`, method.bind(cls) as AnyFn),
            writable: true,
            configurable: true
        })
    }
    Object.defineProperty(cls, 'name', { value: name })
    return cls
}
