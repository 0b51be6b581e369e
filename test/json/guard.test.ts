import { describe, expect, it } from 'vitest'
import { DEFAULT_JSON_LIMITS, inspectJson, parseJsonText, resolveLimits } from '../../src/json/guard.js'

function nested(depth: number): unknown {
    let v: unknown = 1
    for (let i = 0; i < depth; i += 1) v = [v]
    return v
}

describe('inspectJson', () => {
    it('accepts plain JSON, including null-prototype objects and -0', () => {
        const bare = Object.create(null) as Record<string, unknown>
        bare.a = -0
        expect(inspectJson({ a: [1, 'x', null, true, { b: bare }] })).toEqual([])
    })

    it.each([
        ['undefined member', { a: undefined }, '/a'],
        ['NaN', { n: Number.NaN }, '/n'],
        ['Infinity', [Infinity], '/0'],
        ['function', { f: () => 1 }, '/f'],
        ['bigint', { b: 1n }, '/b'],
        ['Date instance', { d: new Date(0) }, '/d'],
        ['Map instance', new Map(), ''],
        ['array hole', [1, , 3], '/1'],
        ['symbol key', { [Symbol('s')]: 1 }, '']
    ])('rejects %s with INP-001 at its path', (_name, value, path) => {
        const issues = inspectJson(value)
        expect(issues).toHaveLength(1)
        expect(issues[0]).toMatchObject({ code: 'INP-001', path })
    })

    it('rejects a cycle but accepts a shared (acyclic) reference', () => {
        const shared = { x: 1 }
        expect(inspectJson({ a: shared, b: shared })).toEqual([])
        const cyclic: Record<string, unknown> = {}
        cyclic.self = cyclic
        expect(inspectJson(cyclic)[0]).toMatchObject({ code: 'INP-001', path: '/self' })
    })

    it('reports a deep problem at its full path, under the base path', () => {
        expect(inspectJson({ a: [1, { b: [0, Number.NaN] }] }, undefined, '/entry')[0]).toMatchObject({
            code: 'INP-001',
            path: '/entry/a/1/b/1'
        })
        expect(inspectJson({ a: [1, [2, , 4]] })[0]).toMatchObject({ code: 'INP-001', path: '/a/1/1' })
    })

    it('escapes pointer tokens', () => {
        expect(inspectJson({ 'a/b': { '~c': undefined } })[0]?.path).toBe('/a~1b/~0c')
    })

    it('stops at the depth limit without overflowing the stack', () => {
        expect(inspectJson(nested(64))).toEqual([])
        expect(inspectJson(nested(65))[0]?.code).toBe('INP-002')
        expect(inspectJson(nested(200_000))[0]?.code).toBe('INP-002')
    })

    it('enforces string and node limits', () => {
        expect(inspectJson('x'.repeat(10), { ...DEFAULT_JSON_LIMITS, maxStringLength: 5 })[0]?.code).toBe('INP-003')
        expect(inspectJson({ ['k'.repeat(10)]: 1 }, { ...DEFAULT_JSON_LIMITS, maxStringLength: 5 })[0]?.code).toBe(
            'INP-003'
        )
        expect(inspectJson(new Array(100).fill(0), { ...DEFAULT_JSON_LIMITS, maxNodes: 50 })[0]?.code).toBe('INP-003')
    })

    it('reports a throwing getter as not plain JSON instead of throwing', () => {
        const evil = {}
        Object.defineProperty(evil, 'boom', {
            enumerable: true,
            get: () => {
                throw new Error('no')
            }
        })
        expect(inspectJson(evil)[0]?.code).toBe('INP-001')
    })

    it('rejects a 10 MB string with the default limits', () => {
        expect(inspectJson({ s: 'x'.repeat(10_000_000) })[0]).toMatchObject({ code: 'INP-003', path: '/s' })
    })
})

describe('parseJsonText', () => {
    it('parses valid JSON and keeps __proto__ as a plain own key', () => {
        const { value, errors } = parseJsonText('{"__proto__": {"polluted": true}, "a": 1}')
        expect(errors).toEqual([])
        expect(Object.hasOwn(value as object, '__proto__')).toBe(true)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

    it('rejects invalid, oversized and too deep texts', () => {
        expect(parseJsonText('{nope').errors[0]?.code).toBe('INP-004')
        expect(parseJsonText('[1]', { ...DEFAULT_JSON_LIMITS, maxTextLength: 2 }).errors[0]?.code).toBe('INP-003')
        expect(parseJsonText('['.repeat(100) + ']'.repeat(100)).errors[0]?.code).toBe('INP-002')
        expect(parseJsonText('['.repeat(500_000) + ']'.repeat(500_000)).value).toBeUndefined()
    })
})

describe('resolveLimits', () => {
    it('keeps defaults for anything that is not a positive integer', () => {
        expect(resolveLimits({ maxDepth: -1, maxNodes: 10, maxStringLength: 'x' })).toEqual({
            ...DEFAULT_JSON_LIMITS,
            maxNodes: 10
        })
        expect(resolveLimits(null)).toBe(DEFAULT_JSON_LIMITS)
    })
})
