import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { definedFields } from '../../src/model/fields.js'

describe('definedFields', () => {
    it('keeps the fields that have a value, in their order', () => {
        const out = definedFields({ tool: 'getUser', area: undefined, score: 0, note: null, flag: false })
        expect(out).toEqual({ tool: 'getUser', score: 0, note: null, flag: false })
        expect(Object.keys(out)).toEqual(['tool', 'score', 'note', 'flag'])
    })

    it('drops every field that is undefined, leaving an object with no key at all', () => {
        const out = definedFields({ tool: undefined, area: undefined })
        expect(out).toEqual({})
        expect('tool' in out).toBe(false)
    })

    it('equals the spread per field it replaces, for any object (keys, values and order)', () => {
        const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.string())
        fc.assert(
            fc.property(
                fc.dictionary(fc.oneof(fc.string({ minLength: 1 }), fc.constant('__proto__')), value),
                (fields) => {
                    let spread: Record<string, unknown> = {}
                    for (const key of Object.keys(fields)) {
                        spread = { ...spread, ...(fields[key] !== undefined ? { [key]: fields[key] } : {}) }
                    }
                    expect(JSON.stringify(definedFields(fields))).toBe(JSON.stringify(spread))
                    expect(Object.keys(definedFields(fields))).toEqual(Object.keys(spread))
                }
            )
        )
    })
})
