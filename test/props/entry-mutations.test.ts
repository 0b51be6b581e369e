import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AREA_CATALOGUE, QUESTIONS } from '../../src/areas/catalogue.js'
import { Grading, validateGradingEntry, type GradingEntry } from '../../src/index.js'
import { AREAS } from '../../src/catalogue.js'
import { catalogueEntry, example } from '../grading/helpers.js'

/**
 * Mutates valid entries at random, the way a careless or confused grader would, and checks that
 * each mutation is either reported (an issue of any severity) or harmless: the mutated entry is
 * still a valid entry whose stored grade is the one the answers give, the same as before.
 */

type Json = unknown
type Obj = Record<string, Json>
type Mutation = (entry: Obj) => Obj

const NOW = '2026-06-01T00:00:00Z'
const clone = (v: Json): Obj => JSON.parse(JSON.stringify(v)) as Obj
const answers = (e: Obj): Obj[] => e.gradings as Obj[]
const setAnswer = (e: Obj, i: number, a: Obj | null): Obj => ({
    ...e,
    gradings: answers(e).flatMap((g, j) => (j === i ? (a === null ? [] : [a]) : [g]))
})
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T

const jsonValue = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.double({ noNaN: true, min: -10, max: 10 }),
    fc.integer({ min: -3, max: 7 }),
    fc.boolean(),
    fc.constant(null),
    fc.constant([]),
    fc.constant({})
)
const isoLike = fc.oneof(
    fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    fc
        .tuple(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 32 }), fc.integer({ min: 0, max: 25 }))
        .map(
            ([m, d, h]) =>
                `2026-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00Z`
        ),
    fc.constantFrom('2026-05-29T10-00-00Z', '2026-05-29', 'yesterday', '2026-05-29T10:00:00')
)

/** One generator per mutation class; each yields a function from a valid entry to its mutant. */
const MUTATIONS: ReadonlyArray<fc.Arbitrary<{ name: string; mutate: Mutation }>> = [
    // The classes named when the rules were added.
    fc.tuple(fc.nat(), fc.boolean()).map(([n, later]) => ({
        name: 'duplicate answer',
        mutate: (e: Obj) => {
            const a = pick(answers(e), n)
            return { ...e, gradings: [...answers(e), later ? { ...a, timestamp: '2026-05-30T00:00:00Z' } : a] }
        }
    })),
    fc.nat().map((n) => ({
        name: 'drop reasoning',
        mutate: (e: Obj) => {
            const i = n % answers(e).length
            const { reasoning: _r, ...rest } = answers(e)[i] as Obj
            return setAnswer(e, i, rest)
        }
    })),
    fc.tuple(fc.nat(), fc.constantFrom('deterministic', 'non-deterministic', 'random')).map(([n, d]) => ({
        name: 'determinism',
        mutate: (e: Obj) => {
            const i = n % answers(e).length
            return setAnswer(e, i, { ...answers(e)[i], determinism: d })
        }
    })),
    fc.stringMatching(/^[a-f0-9]{8}$/).map((h) => ({
        name: 'gradingId hash',
        mutate: (e: Obj) => ({ ...e, gradingId: `${h}--2026-05-29T10-00-00Z` })
    })),
    fc.nat().map((n) => ({ name: 'drop answer', mutate: (e: Obj) => setAnswer(e, n % answers(e).length, null) })),
    fc.tuple(fc.nat(), fc.nat()).map(([q, n]) => ({
        name: 'foreign question',
        mutate: (e: Obj) => {
            const a = pick(answers(e), n)
            return { ...e, gradings: [...answers(e), { ...a, questionId: pick(QUESTIONS, q).id }] }
        }
    })),
    fc.tuple(fc.nat(), isoLike).map(([n, t]) => ({
        name: 'timestamp',
        mutate: (e: Obj) => {
            const i = n % answers(e).length
            return setAnswer(e, i, { ...answers(e)[i], timestamp: t })
        }
    })),
    // Generic damage: any field, any value.
    fc.tuple(fc.nat(), jsonValue).map(([n, v]) => ({
        name: 'top-level value',
        mutate: (e: Obj) => {
            const k = pick(Object.keys(e), n)
            return { ...e, [k]: v }
        }
    })),
    fc.nat().map((n) => ({
        name: 'top-level delete',
        mutate: (e: Obj) => {
            const k = pick(Object.keys(e), n)
            const { [k]: _d, ...rest } = e
            return rest
        }
    })),
    fc.tuple(fc.nat(), fc.nat(), jsonValue).map(([n, f, v]) => ({
        name: 'answer value',
        mutate: (e: Obj) => {
            const i = n % answers(e).length
            const a = answers(e)[i] as Obj
            return setAnswer(e, i, { ...a, [pick(Object.keys(a), f)]: v })
        }
    })),
    fc.tuple(fc.nat(), fc.nat()).map(([n, f]) => ({
        name: 'answer delete',
        mutate: (e: Obj) => {
            const i = n % answers(e).length
            const a = answers(e)[i] as Obj
            const { [pick(Object.keys(a), f)]: _d, ...rest } = a
            return setAnswer(e, i, rest)
        }
    })),
    fc
        .tuple(
            fc.nat(),
            fc.oneof(fc.double({ noNaN: true, min: 0, max: 6 }), fc.constantFrom('pass', 'fail', 'stale', 'n/a'))
        )
        .map(([n, s]) => ({
            name: 'score',
            mutate: (e: Obj) => {
                const i = n % answers(e).length
                return setAnswer(e, i, { ...answers(e)[i], score: s })
            }
        })),
    fc.constantFrom(...AREAS).map((area) => ({ name: 'area', mutate: (e: Obj) => ({ ...e, area }) })),
    fc
        .constantFrom('A', 'B', 'C', 'D', 'F', 'REJECTED')
        .map((g) => ({ name: 'aggregateGrade', mutate: (e: Obj) => ({ ...e, aggregateGrade: g }) })),
    fc.tuple(fc.nat(), fc.constantFrom(0, 0.1, 0.2, 0.25, 0.5, 1, 3)).map(([n, w]) => ({
        name: 'weight',
        mutate: (e: Obj) => {
            const i = n % answers(e).length
            return setAnswer(e, i, { ...answers(e)[i], weight: w })
        }
    })),
    fc.constant({
        name: 'self lineage',
        mutate: (e: Obj) => ({
            ...e,
            regradingTrigger: {
                triggeredBy: 'scheduled',
                previousGradingId: e.gradingId,
                timestamp: '2026-05-29T10:00:00Z'
            }
        })
    })
]

/** Valid starting points: a library-written full entry of every area and the spec's two examples. */
const BASES: readonly GradingEntry[] = [
    ...AREAS.map((a) => catalogueEntry(a)),
    example('grading-autonomous'),
    example('grading-rejected')
]

/** Harmless: valid with no issue, and the stored grade is unchanged and still what the answers give. */
function harmless(before: GradingEntry, after: Obj): boolean {
    if (after.aggregateGrade !== before.aggregateGrade) return false
    if (after.gradingMode !== 'full' || after.categoricalVeto !== null) return true
    return Grading.computeAggregateGrade({ entry: after }).aggregateGrade === before.aggregateGrade
}

describe('random mutations of valid entries', () => {
    it('every starting entry is valid with no issue', () => {
        for (const entry of BASES) expect(validateGradingEntry({ entry, now: NOW }).errors).toEqual([])
    })

    it('each mutation is either reported or harmless', () => {
        fc.assert(
            fc.property(fc.nat(), fc.oneof(...MUTATIONS), (b, { mutate }) => {
                const before = pick(BASES, b)
                const after = mutate(clone(before))
                const result = validateGradingEntry({ entry: after, now: NOW })
                const reported = !result.valid || result.errors.length > 0
                return reported || harmless(before, after)
            }),
            { numRuns: 2000 }
        )
    })

    it('reports every mutation of the classes the answer rules cover, on a library-written entry', () => {
        const covered = [...MUTATIONS.slice(0, 2), ...MUTATIONS.slice(4, 6), ...MUTATIONS.slice(-2)]
        fc.assert(
            fc.property(fc.constantFrom(...AREAS), fc.oneof(...covered), (area, { name, mutate }) => {
                const before = catalogueEntry(area)
                const after = mutate(clone(before))
                // Dropping the reasoning of a script answer changes nothing a rule looks at.
                if (name === 'drop reasoning' && JSON.stringify(after) === JSON.stringify(before)) return true
                const a = after.gradings as Obj[]
                if (name === 'weight' && JSON.stringify(after) === JSON.stringify(before)) return true
                if (
                    name === 'drop reasoning' &&
                    a.every((g) => g.reasoning !== undefined || (g.graderIdentity as Obj).kind !== 'llm')
                )
                    return true
                // A second grader answering one of the area's own questions is allowed (⚠ A9); the general property covers it.
                if (
                    name === 'foreign question' &&
                    AREA_CATALOGUE[area].questionIds.includes((a[a.length - 1] as Obj).questionId as string)
                )
                    return true
                return validateGradingEntry({ entry: after, now: NOW }).errors.length > 0
            }),
            { numRuns: 500 }
        )
    })

    it('catalogueEntry covers every question of its area', () => {
        for (const area of AREAS)
            expect(catalogueEntry(area).gradings.map((g) => g.questionId)).toEqual(AREA_CATALOGUE[area].questionIds)
    })
})
