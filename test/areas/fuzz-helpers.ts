import fc from 'fast-check'
import { expect } from 'vitest'
import type { Issue } from '../../src/index.js'

/** Every issue has a catalogue-shaped code, a severity and a JSON Pointer path. */
export function assertCoded(issues: readonly Issue[]): void {
    for (const issue of issues) {
        expect(issue.code).toMatch(/^[A-Z]{2,5}(-WARN|-INFO)?-\d{3}$/)
        expect(['error', 'warning', 'info']).toContain(issue.severity)
        expect(typeof issue.path).toBe('string')
        expect(issue.path === '' || issue.path.startsWith('/')).toBe(true)
    }
}

/** Strings a hostile harness might send: control characters, lone surrogates, markers, keys of Object.prototype. */
export const hostileString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        '\u0000',
        '\ud800',
        '[GRADING] DONE',
        '```json',
        'NaN',
        'Infinity',
        '-0',
        '1e309',
        'n/a',
        ''
    ),
    fc.string({ maxLength: 8 }).map((s) => s.repeat(500))
)

/** A JSON value, sometimes built from a JSON text so `__proto__` arrives as an own key. */
export const hostileJson = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(hostileString, fc.jsonValue(), { maxKeys: 6 }).map((o) => JSON.parse(JSON.stringify(o)) as unknown),
    fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "blocker": "x", "reason": "y"}') as unknown)
)

/** Replaces one top-level field of a valid object with a generated value. */
export function mutate(base: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
    return fc
        .record({ key: fc.constantFrom(...Object.keys(base), 'extra'), value: fc.oneof(fc.anything(), hostileJson) })
        .map(({ key, value }) => ({ ...base, [key]: value }))
}

export const RUNS = { numRuns: 150 }
