import { describe, expect, it } from 'vitest'
import {
    AGGREGATE_GRADES,
    aggregateRank,
    bandOf,
    GRADE_BANDS_V1,
    GRADE_RANK,
    isStableGrade,
    LETTER_GRADES,
    STABLE_THRESHOLD
} from '../../src/model/grades.js'
import {
    GRADE_BANDS_V1 as BANDS_FROM_CATALOGUE,
    STABLE_THRESHOLD as THRESHOLD_FROM_CATALOGUE
} from '../../src/catalogue.js'

describe('the grades: one order, one set of bands, one stable threshold', () => {
    it('lists the grades best first with REJECTED last, and ranks them the same way everywhere', () => {
        expect(AGGREGATE_GRADES).toEqual(['A', 'B', 'C', 'D', 'F', 'REJECTED'])
        expect(LETTER_GRADES.map((g) => GRADE_RANK[g])).toEqual([4, 3, 2, 1, 0])
        expect(AGGREGATE_GRADES.map(aggregateRank)).toEqual([5, 4, 3, 2, 1, 0])
    })

    it.each([null, undefined, 'a', 'E', '', 3, 'toString', '__proto__'])(
        'ranks %j, which is no grade, at -1',
        (value) => {
            expect(aggregateRank(value)).toBe(-1)
        }
    )

    it.each([
        [5, 'A'],
        [4.5, 'A'],
        [4.499, 'B'],
        [3.5, 'B'],
        [2.5, 'C'],
        [1.5, 'D'],
        [1.49, 'F'],
        [-10, 'F'],
        [Number.NaN, 'F']
    ])('puts the mean %d in band %s (gradingSystem/1.0.0, >= on the unrounded mean)', (mean, grade) => {
        expect(bandOf(mean).grade).toBe(grade)
    })

    it('counts A and B as stable (the threshold is B) and nothing else', () => {
        expect(STABLE_THRESHOLD).toBe('B')
        expect(AGGREGATE_GRADES.filter(isStableGrade)).toEqual(['A', 'B'])
        expect([null, undefined, 'hasOwnProperty', 4, {}].some(isStableGrade)).toBe(false)
    })

    it('is what the public entry exports under the names it always had', () => {
        expect(BANDS_FROM_CATALOGUE).toBe(GRADE_BANDS_V1)
        expect(THRESHOLD_FROM_CATALOGUE).toBe(STABLE_THRESHOLD)
    })
})
