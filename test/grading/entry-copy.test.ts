import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { copyEntry, guardedCopy } from '../../src/grading/entry-copy.js'
import { DEFAULT_JSON_LIMITS, inspectJson } from '../../src/json/guard.js'

// The one-walk guard and copy must say what the two walks say: the same copy whenever the guard
// passes and the copy leaves nothing out, and `null` (so the two walks run) in every other case.
function twoWalks(value: unknown, limits = DEFAULT_JSON_LIMITS): { value: unknown } | null {
    if (inspectJson(value, limits).length > 0) return null
    const copied = copyEntry(value, true)
    return copied.issues.length > 0 ? null : { value: copied.value }
}

const small = { maxDepth: 4, maxStringLength: 8, maxNodes: 30, maxTextLength: 1000 }

describe('guardedCopy', () => {
    it('agrees with the guard and the copy on random JSON, within default and small limits', () => {
        fc.assert(
            fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, tight) => {
                const limits = tight ? small : DEFAULT_JSON_LIMITS
                const one = guardedCopy(value, limits, true)
                const two = twoWalks(value, limits)
                expect(one).toEqual(two)
                if (one !== null && typeof one.value === 'object' && one.value !== null) {
                    expect(one.value).not.toBe(value)
                    expect(Object.isFrozen(one.value)).toBe(true)
                }
            }),
            { numRuns: 400 }
        )
    })

    it('leaves every value the guard or the copy has to describe to them', () => {
        const getter = Object.defineProperty({}, 'a', { get: () => 1, enumerable: true })
        const cycle: Record<string, unknown> = {}
        cycle.self = cycle
        class Box {
            a = 1
        }
        const unusual: unknown[] = [
            { a: undefined },
            { a: Number.NaN },
            [1, , 3],
            { [Symbol('s')]: 1 },
            new Box(),
            getter,
            cycle,
            JSON.parse('{"__proto__": 1}'),
            { constructor: 'x' },
            { a: () => 1 },
            { a: 1n }
        ]
        for (const value of unusual) {
            expect(twoWalks(value)).toBeNull()
            expect(guardedCopy(value, DEFAULT_JSON_LIMITS, false)).toBeNull()
        }
        // At a limit exactly, on either side of it.
        expect(guardedCopy([[1]], { ...small, maxDepth: 2 }, false)).toEqual({ value: [[1]] })
        expect(guardedCopy([[[1]]], { ...small, maxDepth: 2 }, false)).toBeNull()
        expect(guardedCopy([1, 2], { ...small, maxNodes: 3 }, false)).toEqual({ value: [1, 2] })
        expect(guardedCopy([1, 2, 3], { ...small, maxNodes: 3 }, false)).toBeNull()
        expect(guardedCopy({ abcdefgh: 'abcdefgh' }, small, false)).toEqual({ value: { abcdefgh: 'abcdefgh' } })
        expect(guardedCopy({ abcdefghi: 1 }, small, false)).toBeNull()
        expect(guardedCopy(['abcdefghi'], small, false)).toBeNull()
    })

    it('never runs an accessor', () => {
        let reads = 0
        const value = Object.defineProperty({}, 'a', { get: () => ++reads, enumerable: true })
        expect(guardedCopy({ nested: value }, DEFAULT_JSON_LIMITS, true)).toBeNull()
        expect(reads).toBe(0)
    })
})
