import { describe, expect, it } from 'vitest'
import { gradeBasis } from '../../src/grade/schema-result.js'
import type { UnitResult } from '../../src/grade/types.js'
import { createMemoryFs, gradeSingleSchema } from '../../src/index.js'
import { dataHttp, exampleMain, grader, scriptedJudge } from './helpers.js'

const unit = (over: Partial<UnitResult> & Pick<UnitResult, 'unit' | 'area'>): UnitResult => ({
    target: {},
    status: 'graded',
    aggregateGrade: 'B',
    rawGrade: 'A',
    normalizedScore: 4.6,
    reason: null,
    written: null,
    ...over
})

describe('the score a schema grade comes from (gradeBasis)', () => {
    it('is the lowest-scoring graded tool or tools aggregate, with its untrimmed band', () => {
        const basis = gradeBasis([
            unit({ unit: 'single-test/a', area: 'single-test', normalizedScore: 4.8 }),
            unit({ unit: 'single-test/b', area: 'single-test', normalizedScore: 3.9, rawGrade: 'B' }),
            unit({ unit: 'tools-aggregate-schema', area: 'tools-aggregate-schema', normalizedScore: 4.2 }),
            // Not part of a schema's grade: a namespace unit, a blocked unit.
            unit({ unit: 'namespace-description', area: 'namespace-description', normalizedScore: 1 }),
            unit({ unit: 'single-test/c', area: 'single-test', status: 'blocked', normalizedScore: 1 })
        ])
        expect(basis).toEqual({ unit: 'single-test/b', score: 3.9, rawGrade: 'B' })
    })

    it('is null when no unit of the grade has a score (a failing case)', () => {
        expect(gradeBasis([])).toBeNull()
        expect(
            gradeBasis([
                unit({ unit: 'single-test/a', area: 'single-test', status: 'provisional', normalizedScore: 3 })
            ])
        ).toBeNull()
        expect(gradeBasis([unit({ unit: 'single-test/a', area: 'single-test', normalizedScore: null })])).toBeNull()
    })

    it('moves with the judge where the capped letter does not: scores of 5 and of 4 both give B', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const run = async (score: number) =>
            gradeSingleSchema({
                schema: { main },
                grader,
                options: {
                    fs: createMemoryFs(),
                    root: '/island',
                    now: '2026-11-22T18:00:00Z',
                    source,
                    http: dataHttp(),
                    minWorkingTests: 1,
                    judge: scriptedJudge(score).judge
                }
            })
        const [high, low] = [await run(5), await run(4)]
        expect([high.grading?.grade, low.grading?.grade]).toEqual(['B', 'B'])
        expect(high.grading?.basis?.rawGrade).toBe('A')
        expect(high.grading?.basis?.score).toBeGreaterThan(low.grading?.basis?.score ?? 5)
    })
})
