import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { Areas } from '../../src/index.js'
import { AREAS } from '../../src/model/constants.js'
import { assertCoded, hostileJson, mutate, RUNS } from './fuzz-helpers.js'
import { codeAnswers, standardContext, validOutput } from './helpers.js'

describe('area outputs under hostile input (fast-check)', () => {
    afterAll(() => {
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })

    it('validateOutput never throws on fc.anything() and codes every rejection with a path', () => {
        fc.assert(
            fc.property(fc.constantFrom(...AREAS, 'nope', undefined), fc.anything(), (area, output) => {
                const result = Areas.validateOutput({ area, output })
                assertCoded(result.errors)
                expect(result.valid).toBe(result.errors.every((e) => e.severity !== 'error') && result.kind !== null)
            }),
            RUNS
        )
    })

    it('validateOutput never throws on mutated envelopes and JSON values', () => {
        fc.assert(
            fc.property(
                fc.constantFrom(...AREAS),
                fc.oneof(hostileJson, fc.constant(null)),
                fc.integer({ min: 0, max: 10 }),
                (area, junk, i) => {
                    const answers = (validOutput(area).answers as unknown[]).map((a, j) => (j === i ? junk : a))
                    assertCoded(Areas.validateOutput({ area, output: validOutput(area, { answers }) }).errors)
                    assertCoded(Areas.validateOutput({ area, output: junk }).errors)
                }
            ),
            RUNS
        )
    })

    it('a mutated envelope is either still valid or rejected with a code, never half-accepted', () => {
        fc.assert(
            fc.property(mutate(validOutput('about-namespace')), (output) => {
                const result = Areas.validateOutput({ area: 'about-namespace', output })
                assertCoded(result.errors)
                if (!result.valid) expect(result.output).toBeNull()
            }),
            RUNS
        )
    })

    it('toGradingEntry never throws, and an entry only comes back without errors', () => {
        fc.assert(
            fc.property(
                fc.constantFrom(...AREAS),
                fc.oneof(fc.anything(), mutate(validOutput('single-test'))),
                fc.oneof(
                    fc.anything(),
                    mutate(
                        standardContext('single-test', validOutput('single-test')) as unknown as Record<string, unknown>
                    )
                ),
                fc.oneof(fc.anything(), fc.constant(codeAnswers('single-test'))),
                (area, output, context, deterministic) => {
                    const result = Areas.toGradingEntry({ area, output, context, deterministic })
                    assertCoded(result.errors)
                    if (result.entry !== null) expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
                }
            ),
            RUNS
        )
    })
})
