import { describe, expect, it } from 'vitest'
import { basisOfSchemaNode, standingOfSchemaNode } from '../../src/rollup/standing.js'
import { createMemoryFs, gradeSingleSchema } from '../../src/index.js'
import { dataHttp, exampleMain, grader, scriptedJudge } from './helpers.js'

const leaf = (score: number | undefined, rawGrade: string, status = 'stable') => ({
    status,
    grade: 'B',
    rawGrade,
    ...(score !== undefined ? { normalizedScore: score } : {})
})

describe('the score a schema grade comes from (basisOfSchemaNode, read from its index node)', () => {
    it('is the lowest-scoring graded tool or tools aggregate, with its untrimmed band', () => {
        const node = {
            status: 'graded',
            grade: 'B',
            toolsAggregate: leaf(4.2, 'B'),
            tools: {
                a: leaf(4.8, 'A'),
                b: leaf(3.9, 'B', 'graded'),
                // Not part of the grade: a blocked tool, whatever score a stale field holds.
                c: { status: 'blocked', normalizedScore: 1 }
            }
        }
        expect(basisOfSchemaNode(node)).toEqual({ unit: 'single-test/b', score: 3.9, rawGrade: 'B' })
        expect(standingOfSchemaNode(node).basis).toEqual(basisOfSchemaNode(node))
    })

    it('is null when no leaf of the grade has a score, or the schema has no letter (a failing case)', () => {
        expect(basisOfSchemaNode(undefined)).toBeNull()
        expect(
            basisOfSchemaNode({ toolsAggregate: leaf(undefined, 'A'), tools: { a: leaf(undefined, 'A') } })
        ).toBeNull()
        expect(basisOfSchemaNode({ toolsAggregate: { status: 'pending', normalizedScore: 3 }, tools: {} })).toBeNull()
        expect(basisOfSchemaNode({ toolsAggregate: leaf(Number.NaN, 'A'), tools: {} })).toBeNull()
        // Blocked or rejected schemas show no score, even where a leaf holds one.
        const blocked = { status: 'blocked', toolsAggregate: leaf(4.6, 'A'), tools: {} }
        expect(standingOfSchemaNode(blocked).basis).toBeNull()
        expect(standingOfSchemaNode({ ...blocked, status: 'rejected' }).basis).toBeNull()
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
