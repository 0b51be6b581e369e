import { describe, expect, it } from 'vitest'
import { Areas } from '../../src/index.js'
import { copyJson } from '../../src/grade/units.js'

describe('copyJson', () => {
    it('copies a plain JSON value deeply, keys in order', () => {
        const schema = Areas.outputSchema({ area: 'single-test', selfContained: true }).schema as Record<
            string,
            unknown
        >
        const copy = copyJson(schema)
        expect(copy).toEqual(schema)
        expect(copy).not.toBe(schema)
        expect(JSON.stringify(copy)).toBe(JSON.stringify(schema))
        expect((copy.oneOf as unknown[])[0]).not.toBe((schema.oneOf as unknown[])[0])
    })

    it('keeps a __proto__ key an own property instead of setting the prototype', () => {
        const value = JSON.parse('{"__proto__": {"polluted": true}, "a": [1, null, "x"]}') as Record<string, unknown>
        const copy = copyJson(value)
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
        expect(Object.keys(copy)).toEqual(['__proto__', 'a'])
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value))
    })
})
