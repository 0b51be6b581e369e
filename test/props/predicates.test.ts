import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as entry from '../../src/entry.js'
import * as lib from '../../src/index.js'

type Predicate = (value: unknown) => unknown

/** Every exported `is*` function of both public entry points: a predicate answers, it never throws. */
function predicates(): Array<[string, Predicate]> {
    const out: Array<[string, Predicate]> = []
    for (const [where, mod] of [
        ['flowmcp-grading', lib],
        ['flowmcp-grading/entry', entry]
    ] as const) {
        for (const [name, value] of Object.entries(mod))
            if (/^is[A-Z]/.test(name) && typeof value === 'function') out.push([`${where} ${name}`, value as Predicate])
    }
    return out
}

const trap = (): never => {
    throw new Error('hostile')
}
const TRAPS = {
    get: trap,
    has: trap,
    ownKeys: trap,
    getOwnPropertyDescriptor: trap,
    getPrototypeOf: trap,
    defineProperty: trap,
    apply: trap,
    construct: trap
}
function revoked(): unknown {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
}

/** Values that break careless code: symbols, proxies whose every trap throws, revoked proxies, throwing coercions. */
const HOSTILE: ReadonlyArray<[string, () => unknown]> = [
    ['a symbol', () => Symbol('x')],
    ['a registered symbol', () => Symbol.for('untested')],
    ['a proxy whose traps throw', () => new Proxy({}, TRAPS)],
    ['a function proxy whose traps throw', () => new Proxy(() => 0, TRAPS)],
    ['an array proxy whose traps throw', () => new Proxy([], TRAPS)],
    ['a revoked proxy', revoked],
    ['a bigint', () => 10n],
    ['an object whose coercion throws', () => ({ toString: trap, valueOf: trap, [Symbol.toPrimitive]: trap })],
    [
        'a string object whose coercion throws',
        () => Object.assign(new String('untested'), { toString: trap, valueOf: trap, [Symbol.toPrimitive]: trap })
    ],
    ['an object with throwing getters', () => Object.defineProperty({}, 'gradings', { enumerable: true, get: trap })],
    ['a null-prototype object', () => Object.create(null) as unknown]
]

const PREDICATES = predicates()

describe('exported predicates never throw, whatever they are given', () => {
    it('finds the predicates of both entry points', () => {
        const names = PREDICATES.map(([name]) => name)
        for (const name of [
            'flowmcp-grading isWorkingCountReason',
            'flowmcp-grading isAggregateGrade',
            'flowmcp-grading isGradingEntry',
            'flowmcp-grading/entry isGradingEntry'
        ])
            expect(names).toContain(name)
    })

    it.each(PREDICATES)('%s answers a boolean for every hostile value', (_name, predicate) => {
        for (const [label, make] of HOSTILE) {
            let answer: unknown
            expect(() => {
                answer = predicate(make())
            }, label).not.toThrow()
            expect(answer, label).toBe(false)
        }
    })

    it.each(PREDICATES)('%s answers a boolean for arbitrary values, hostile ones mixed in', (_name, predicate) => {
        const value = fc.oneof(
            fc.anything({
                withBigInt: true,
                withMap: true,
                withSet: true,
                withTypedArray: true,
                withSparseArray: true,
                withNullPrototype: true
            }),
            fc.constantFrom(...HOSTILE.map(([, make]) => make))
        )
        fc.assert(
            fc.property(value, (v) => {
                const answer = predicate(
                    typeof v === 'function' && HOSTILE.some(([, make]) => make === v) ? (v as () => unknown)() : v
                )
                expect(typeof answer).toBe('boolean')
            }),
            { numRuns: 200, seed: 30 }
        )
    })

    it('still recognises what it should: a true answer is possible for each', () => {
        expect(lib.isWorkingCountReason(lib.BLOCKED_REASONS.noWorkingTest)).toBe(true)
        expect(lib.isWorkingCountReason(lib.fewerThanWorkingTests(3))).toBe(true)
        expect(lib.isWorkingCountReason(lib.BLOCKED_REASONS.untested)).toBe(false)
        expect(lib.isAggregateGrade('REJECTED')).toBe(true)
        expect(lib.isAggregateGrade('toString')).toBe(false)
    })
})
