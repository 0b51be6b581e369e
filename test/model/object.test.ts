import { describe, expect, it } from 'vitest'
import { asObject, isObject } from '../../src/model/object.js'

describe('the one object guard', () => {
    it.each([{}, { a: 1 }, Object.create(null) as object, new Date(0)])(
        'takes %j for an object to read fields from',
        (value) => {
            expect(isObject(value)).toBe(true)
            expect(asObject(value)).toBe(value)
        }
    )

    it.each([null, undefined, [], [1], 'x', 0, true, () => 1])(
        'refuses %j and reads it as an empty object',
        (value) => {
            expect(isObject(value)).toBe(false)
            expect(asObject(value)).toEqual({})
        }
    )
})
