import type { ErrorCode } from '../../errors/catalogue/index.js'
import { createIssue, describeValue } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { DEFAULT_JSON_LIMITS, inspectJson } from '../../json/guard.js'
import { isObject, isPlainObject } from '../../model/object.js'
import { objectArg, parseArgs } from '../../validation/args.js'

/** Largest magnitude accepted for any number in a rubric input. */
export const MAX_MAGNITUDE = 1e15

/** Names that would become dangerous keys if a consumer indexed a plain object with them. */
export const RESERVED_NAMES: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype'])

/** The codes one rubric family uses for the checks every entry point shares. */
export interface GuardCodes {
    /** `{detail}`: not plain JSON or over the limits. */
    readonly notJson: ErrorCode
    /** `{field}`, `{expected}`, `{actual}`: the input is not an object. */
    readonly mismatch: ErrorCode
    /** `{value}`, `{field}`, `{detail}`: -0 or a magnitude above 1e15. */
    readonly badNumber: ErrorCode
}

const MAX_NUMBER_ISSUES = 50

/** A position in the input, kept as a parent chain so pointers are built only for findings. */
interface Trail {
    readonly parent: Trail | null
    readonly token: string | number
}

function trailPointer(trail: Trail | null): string {
    const tokens: Array<string | number> = []
    for (let t = trail; t !== null; t = t.parent) tokens.push(t.token)
    return pointer(...tokens.reverse())
}

function numberIssues(value: unknown, codes: GuardCodes): Issue[] {
    const issues: Issue[] = []
    const stack: Array<{ v: unknown; trail: Trail | null }> = [{ v: value, trail: null }]
    while (stack.length > 0 && issues.length < MAX_NUMBER_ISSUES) {
        const { v, trail } = stack.pop() as { v: unknown; trail: Trail | null }
        if (typeof v === 'number') {
            const bad = Object.is(v, -0)
                ? 'negative zero (write 0)'
                : Math.abs(v) > MAX_MAGNITUDE
                  ? 'magnitude above 1e15'
                  : null
            if (bad !== null) {
                const path = trailPointer(trail)
                issues.push(
                    createIssue(codes.badNumber, path, {
                        value: Object.is(v, -0) ? '-0' : v,
                        field: path === '' ? 'input' : path,
                        detail: bad
                    })
                )
            }
        } else if (Array.isArray(v)) {
            for (let i = v.length - 1; i >= 0; i -= 1) stack.push({ v: v[i], trail: { parent: trail, token: i } })
        } else if (v !== null && typeof v === 'object') {
            const keys = Object.keys(v)
            for (let i = keys.length - 1; i >= 0; i -= 1) {
                const key = keys[i] as string
                stack.push({ v: (v as Record<string, unknown>)[key], trail: { parent: trail, token: key } })
            }
        }
    }
    return issues
}

class CycleFound {
    constructor(readonly trail: Trail | null) {}
}

/**
 * A copy of plain arrays and objects without `undefined` object members (TypeScript callers pass
 * them for absent optionals; JSON has no such value). Anything else is kept as is, so that
 * `inspectJson` still reports it; past the depth limit the original is kept, which it rejects too.
 * A cycle is reported here, because copying would unroll it.
 */
function withoutUndefinedMembers(value: unknown, depth: number, trail: Trail | null, onPath: Set<object>): unknown {
    if (value === null || typeof value !== 'object' || depth > DEFAULT_JSON_LIMITS.maxDepth) {
        return value
    }
    if (onPath.has(value)) {
        throw new CycleFound(trail)
    }
    if (!Array.isArray(value) && !isPlainObject(value)) {
        return value
    }
    onPath.add(value)
    let copy: unknown
    if (Array.isArray(value)) {
        copy = value.map((item: unknown, i) =>
            withoutUndefinedMembers(item, depth + 1, { parent: trail, token: i }, onPath)
        )
    } else {
        const entries: Array<[string, unknown]> = []
        for (const [key, member] of Object.entries(value)) {
            if (member !== undefined)
                entries.push([key, withoutUndefinedMembers(member, depth + 1, { parent: trail, token: key }, onPath)])
        }
        copy = Object.fromEntries(entries)
    }
    onPath.delete(value)
    return copy
}

/**
 * The shared front door of every rubric entry point: the input must be a plain object holding
 * plain JSON within the default limits, with no `-0` and no number above 1e15 in magnitude.
 * Object members that are `undefined` are treated as absent (TypeScript callers pass them).
 * @returns a fresh copy of the input or `null` with the issues.
 */
export function guardInput(
    input: unknown,
    codes: GuardCodes
): { value: Record<string, unknown> | null; errors: Issue[] } {
    // Not an object: the family's mismatch at the root, `undefined` too (the argument itself has no missing code).
    const shape = parseArgs(objectArg(), input, { mismatch: codes.mismatch, create: createIssue })
    if (shape.value === null) return { value: null, errors: shape.errors }
    let top: Record<string, unknown>
    try {
        if (!isPlainObject(input)) {
            return {
                value: null,
                errors: [createIssue(codes.notJson, '', { detail: 'the input is not a plain object' })]
            }
        }
        top = withoutUndefinedMembers(input, 1, null, new Set()) as Record<string, unknown>
    } catch (cause) {
        if (cause instanceof CycleFound) {
            return {
                value: null,
                errors: [createIssue(codes.notJson, trailPointer(cause.trail), { detail: 'circular reference' })]
            }
        }
        // Proxies and getters can throw while being read; such an input is not plain JSON.
        return { value: null, errors: [createIssue(codes.notJson, '', { detail: 'the input could not be read' })] }
    }
    const problems = inspectJson(top, DEFAULT_JSON_LIMITS)
    if (problems.length > 0) {
        return { value: null, errors: problems.map((p) => createIssue(codes.notJson, p.path, { detail: p.message })) }
    }
    const numbers = numberIssues(top, codes)
    return numbers.length > 0 ? { value: null, errors: numbers } : { value: top, errors: [] }
}

/** True for an own, enumerable key of a plain object (never consults the prototype). */
export function hasOwn(object: object, key: string): boolean {
    return Object.hasOwn(object, key)
}

/** Reads an own property only (a `__proto__` or `toString` key is never inherited). */
export function own(object: Record<string, unknown>, key: string): unknown {
    return hasOwn(object, key) ? object[key] : undefined
}

/** `describeValue`, re-exported for messages. */
export { describeValue }

/** Own keys of `object` that are not in `allowed`, as `[key, pointer]` pairs. */
export function unknownKeys(object: object, allowed: readonly string[], base: string): Array<[string, string]> {
    return Object.keys(object)
        .filter((key) => !allowed.includes(key))
        .map((key) => [key, base + pointer(key)])
}

/** True for a non-null, non-array object: the one object guard, under the name the rubrics use. */
export const isRecord = isObject

/**
 * valibot's `object()` and `record()` accept arrays, so every place where an object is expected is
 * checked here first. A pattern is a list of keys; `'*'` stands for every item of an array.
 * @returns a `mismatch` issue for each array found where a pattern expects an object.
 */
export function arraysForObjects(
    root: unknown,
    patterns: ReadonlyArray<readonly string[]>,
    mismatch: ErrorCode
): Issue[] {
    const issues: Issue[] = []
    for (const pattern of patterns) {
        let frontier: Array<{ value: unknown; path: string; field: string }> = [{ value: root, path: '', field: '' }]
        for (const token of pattern) {
            const next: typeof frontier = []
            for (const { value, path, field } of frontier) {
                if (token === '*') {
                    if (Array.isArray(value))
                        value.forEach((item: unknown, i) => {
                            next.push({ value: item, path: path + pointer(i), field: `${field}.${i}` })
                        })
                } else if (isRecord(value) && hasOwn(value, token)) {
                    next.push({
                        value: value[token],
                        path: path + pointer(token),
                        field: field === '' ? token : `${field}.${token}`
                    })
                }
            }
            frontier = next
        }
        for (const { value, path, field } of frontier) {
            if (Array.isArray(value))
                issues.push(createIssue(mismatch, path, { field, expected: 'object', actual: 'array' }))
        }
    }
    return issues
}
