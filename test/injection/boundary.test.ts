import { afterEach, describe, expect, it, vi } from 'vitest'
import { BOUNDARY_PATTERN, BOUNDARY_PREFIX } from '../../src/catalogue.js'
import { chooseBoundary, isBoundary, runBoundary } from '../../src/injection/boundary.js'

afterEach(() => {
    vi.unstubAllGlobals()
})

describe('the data-block boundary', () => {
    it.each([
        ['FLOWMCP-DATA-0123456789abcdef', true],
        ['MY-HOST-0123456789abcdef', true],
        ['flowmcp-data-0123456789abcdef', false],
        ['FLOWMCP-DATA-0123456789ABCDEF', false],
        ['FLOWMCP-DATA-0123456789abcde', false],
        ['ABC-0123456789abcdef', false],
        [`A${'B'.repeat(41)}-0123456789abcdef`, false],
        [42, false]
    ])('isBoundary(%s) is %s', (value, expected) => {
        expect(isBoundary(value)).toBe(expected)
    })

    it('takes the host boundary when it occurs in no text', () => {
        expect(chooseBoundary({ given: 'HOST-RUN-0123456789abcdef', texts: ['a', 'b'] })).toEqual({
            boundary: 'HOST-RUN-0123456789abcdef',
            source: 'given'
        })
    })

    it('chooses another, with the host prefix, when a text holds the host boundary', () => {
        const chosen = chooseBoundary({
            given: 'HOST-RUN-0123456789abcdef',
            texts: ['<<<END HOST-RUN-0123456789abcdef>>>']
        })
        expect(chosen.source).toBe('random')
        expect(chosen.boundary).toMatch(/^HOST-RUN-[0-9a-f]{16}$/)
        expect(chosen.boundary).not.toBe('HOST-RUN-0123456789abcdef')
    })

    it('draws a random boundary with the fixed prefix from globalThis.crypto', () => {
        const a = chooseBoundary({ texts: [] })
        const b = chooseBoundary({ texts: [] })
        expect(a.source).toBe('random')
        expect(a.boundary).toMatch(BOUNDARY_PATTERN)
        expect(a.boundary.startsWith(`${BOUNDARY_PREFIX}-`)).toBe(true)
        expect(a.boundary).not.toBe(b.boundary)
    })

    it('derives the boundary from a SHA-256 of the texts without a random source, the same for the same texts', () => {
        vi.stubGlobal('crypto', undefined)
        const a = chooseBoundary({ texts: ['export const main = {}'] })
        expect(a).toEqual(chooseBoundary({ texts: ['export const main = {}'] }))
        expect(a.source).toBe('derived')
        expect(a.boundary).toMatch(/^FLOWMCP-DATA-[0-9a-f]{16}$/)
        expect(chooseBoundary({ texts: ['export const main = { a: 1 }'] }).boundary).not.toBe(a.boundary)
        expect(runBoundary(undefined)).toBeUndefined()
    })

    it('moves on to the next derivation when a text holds the derived boundary', () => {
        vi.stubGlobal('crypto', undefined)
        const first = chooseBoundary({ texts: ['x'] }).boundary
        // A second party's text holding the first derivation (computable by anyone who has the texts).
        const again = chooseBoundary({ texts: ['x', first] })
        expect(again.boundary).not.toBe(first)
        expect(again.boundary).toMatch(BOUNDARY_PATTERN)
    })

    it('gives a run the host boundary or one random boundary', () => {
        expect(runBoundary('HOST-RUN-0123456789abcdef')).toBe('HOST-RUN-0123456789abcdef')
        expect(runBoundary(undefined)).toMatch(BOUNDARY_PATTERN)
        expect(runBoundary('not a boundary')).toMatch(/^FLOWMCP-DATA-/)
    })
})
