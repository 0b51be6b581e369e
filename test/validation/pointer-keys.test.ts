import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pointer } from '../../src/errors/pointer.js'
import { pointerKeys } from '../../src/validation/args.js'

describe('pointerKeys (a base path handed as a pointer, for ArgStyle.at)', () => {
    it('splits a pointer into its keys, escapes undone', () => {
        expect(pointerKeys('/veto/graderIdentity')).toEqual(['veto', 'graderIdentity'])
        expect(pointerKeys('/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0'])
    })
    it('the root pointer has no keys; an empty key is kept', () => {
        expect(pointerKeys('')).toEqual([])
        expect(pointerKeys('/')).toEqual([''])
    })
    it('undoes pointer(): pointer(...pointerKeys(p)) === p', () => {
        fc.assert(
            fc.property(fc.array(fc.string()), (keys) => {
                expect(pointerKeys(pointer(...keys))).toEqual(keys)
                expect(pointer(...pointerKeys(pointer(...keys)))).toBe(pointer(...keys))
            })
        )
    })
})
