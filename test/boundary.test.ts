import { describe, expect, it } from 'vitest'
import { guardFunction, guardStatics, snapshotInput } from '../src/errors/guard.js'

describe('snapshotInput', () => {
    it('copies the top level of an object once, keeping a __proto__ key as an own property', () => {
        let reads = 0
        const input = Object.defineProperty({ a: 1 }, 'b', { enumerable: true, get: () => (reads += 1) })
        const snap = snapshotInput(input, 'f')
        expect(snap).toEqual({ value: { a: 1, b: 1 }, issue: null })
        expect(reads).toBe(1)
        const polluted = snapshotInput(JSON.parse('{"__proto__": {"x": 1}}'), 'f').value as object
        expect(Object.getPrototypeOf(polluted)).toBe(Object.prototype)
        expect(Object.keys(polluted)).toEqual(['__proto__'])
    })

    it('turns an unreadable input into INT-002', () => {
        const hostile = new Proxy(
            {},
            {
                ownKeys: () => {
                    throw new Error('no')
                }
            }
        )
        expect(snapshotInput(hostile, 'f').issue?.code).toBe('INT-002')
    })
})

describe('guardFunction', () => {
    const fn = (input: { n?: unknown } | undefined): { value: number | null; errors: unknown[] } => {
        if (input === undefined) return { value: null, errors: ['missing'] }
        if (input.n === 'boom') throw new TypeError('bug')
        return { value: Number(input.n), errors: [] }
    }

    it('passes a normal call through', () => {
        expect(guardFunction('fn', fn)({ n: 2 })).toEqual({ value: 2, errors: [] })
    })

    it('turns a throw into INT-001 in the failure shape, and a rejection too', async () => {
        expect(guardFunction('fn', fn)({ n: 'boom' })).toMatchObject({ value: null, errors: [{ code: 'INT-001' }] })
        const rejecting = guardFunction('async', async (input: unknown) =>
            input === undefined ? { done: false, errors: [] } : Promise.reject(new Error('x'))
        )
        await expect(rejecting({})).resolves.toMatchObject({ done: false, errors: [{ code: 'INT-001' }] })
    })
})

describe('guardStatics', () => {
    it('guards every static method in place, keeping this', () => {
        class Api {
            private constructor() {}
            static base(): number {
                return 1
            }
            static plus(input: { n: number }): { value: number; errors: unknown[] } {
                if (input.n < 0) throw new Error('negative')
                return { value: Api.base() + input.n, errors: [] }
            }
        }
        guardStatics(Api, 'Api')
        expect(Api.plus({ n: 1 })).toEqual({ value: 2, errors: [] })
        expect((Api.plus({ n: -1 }) as unknown as { errors: Array<{ code: string }> }).errors[0]?.code).toBe('INT-001')
    })
})
