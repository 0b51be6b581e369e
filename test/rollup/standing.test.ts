import { describe, expect, it } from 'vitest'
import { Standing } from '../../src/index.js'
import { compareStandings, standingOfSchemaNode, standingRank, standingsOfIndex } from '../../src/rollup/standing.js'

const graded = (
    grade: string,
    status = grade === 'A' || grade === 'B' ? 'stable' : 'graded'
): Record<string, unknown> => ({
    status,
    grade,
    toolsAggregate: { status: 'stable', grade: 'B' },
    tools: { t: { status, grade } }
})
const blocked = (cause: string): Record<string, unknown> => ({
    status: 'blocked',
    reason: 'IDX-019: One or more tools blocked: t',
    toolsAggregate: { status: 'pending' },
    tools: { t: { status: 'blocked', cause, reason: `IDX-030: Tool t was not tested (${cause}): …` } }
})

describe('standingOfSchemaNode (one standing, read from the index node)', () => {
    it.each([
        ['a graded node', graded('C'), { status: 'graded', grade: 'C', schemaGrade: 'B', untestedHere: false }],
        ['a stable node', graded('B'), { status: 'stable', grade: 'B', schemaGrade: 'B' }],
        [
            'a rejected node',
            { status: 'rejected', toolsAggregate: { status: 'rejected', grade: 'REJECTED' } },
            { status: 'rejected', grade: 'REJECTED', schemaGrade: 'REJECTED' }
        ],
        [
            'a blocked node (key missing)',
            blocked('key-gated-missing-server-param'),
            { status: 'blocked', grade: null, schemaGrade: null, untestedHere: true }
        ],
        [
            'a blocked node (tests failed)',
            blocked('fewer-than-3-working-tests'),
            { status: 'blocked', grade: null, untestedHere: false }
        ],
        [
            'a pending node with a stray grade',
            { status: 'pending', grade: 'A', toolsAggregate: { status: 'stable', grade: 'B' } },
            { status: 'pending', grade: null, schemaGrade: null }
        ],
        ['no node', undefined, { status: 'pending', grade: null, schemaGrade: null, reason: null }],
        ['an unknown status', { status: 'operational', grade: 'B' }, { status: 'pending', grade: null }],
        [
            'a graded node whose grade is not a grade',
            { status: 'graded', grade: 'Z' },
            { status: 'graded', grade: null }
        ]
    ])('reads %s', (_, node, expected) => {
        expect(standingOfSchemaNode(node)).toMatchObject(expected)
    })

    it('shows a pending node of a deterministic-only run as provisional, never with a grade', () => {
        expect(standingOfSchemaNode({ status: 'pending' }, 'provisional')).toMatchObject({
            status: 'provisional',
            grade: null
        })
        expect(standingOfSchemaNode(blocked('untested'), 'provisional').status).toBe('blocked')
    })

    it('never throws on hostile nodes', () => {
        const hostile = new Proxy(
            {},
            {
                get: () => {
                    throw new Error('trap')
                },
                ownKeys: () => {
                    throw new Error('trap')
                }
            }
        )
        expect(standingOfSchemaNode(hostile)).toMatchObject({ status: 'pending', grade: null })
        expect(standingOfSchemaNode({ status: 'blocked', tools: hostile })).toMatchObject({
            status: 'blocked',
            blockedTools: []
        })
    })
})

describe('compareStandings (check --baseline and report --baseline)', () => {
    const s = standingOfSchemaNode
    it.each([
        ['an unchanged graded schema', s(graded('B')), s(graded('B')), []],
        ['a lower grade', s(graded('B')), s(graded('D')), ['grade fell from B to D']],
        ['a better grade', s(graded('D')), s(graded('B')), []],
        [
            'becoming rejected',
            s(graded('B')),
            s({ status: 'rejected', reason: 'IDX-023: veto' }),
            ['was B, now rejected: IDX-023: veto']
        ],
        ['rejected, still rejected', s({ status: 'rejected' }), s({ status: 'rejected' }), []],
        [
            'losing the grade to a block',
            s(graded('B')),
            s(blocked('fewer-than-3-working-tests')),
            ['was B, now blocked: IDX-019: One or more tools blocked: t']
        ],
        [
            'losing the grade because it could not be tested here',
            s(graded('B')),
            s(blocked('untested')),
            ['was B, now blocked: IDX-019: One or more tools blocked: t']
        ],
        [
            'pending, now blocked for a schema fault',
            s({ status: 'pending' }),
            s(blocked('invalid-schema')),
            ['was pending, now blocked: IDX-019: One or more tools blocked: t']
        ],
        ['pending, now only untested here', s({ status: 'pending' }), s(blocked('key-gated-missing-server-param')), []],
        ['blocked, still blocked', s(blocked('untested')), s(blocked('untested')), []],
        ['graded, now pending (not graded again yet)', s(graded('B')), s({ status: 'pending' }), []]
    ])('%s', (_, before, after, messages) => {
        expect(compareStandings(before, after)).toEqual({ worse: messages.length > 0, messages })
    })

    it('a schema new since the baseline never got worse', () => {
        expect(compareStandings(undefined, s(blocked('invalid-schema'))).worse).toBe(false)
    })

    it('ranks rejected below blocked below no grade below F…A', () => {
        const ranks = [
            s({ status: 'rejected' }),
            s(blocked('untested')),
            s({ status: 'pending' }),
            s(graded('F')),
            s(graded('C')),
            s(graded('A'))
        ].map(standingRank)
        expect([...ranks].sort((a, b) => a - b)).toEqual(ranks)
        expect(new Set(ranks).size).toBe(ranks.length)
    })
})

describe('Standing (public, guarded)', () => {
    it('ofSchemaNode reads a node; a node that is not an object is IDX-002 at /node', () => {
        expect(Standing.ofSchemaNode({ node: graded('C') })).toMatchObject({
            standing: { status: 'graded', grade: 'C' },
            errors: []
        })
        expect(Standing.ofSchemaNode({ node: 'B' }).errors).toEqual([
            expect.objectContaining({ code: 'IDX-002', path: '/node' })
        ])
    })

    it('ofIndex keys every schema by <namespace>.<schema>; an index that is not an object is IDX-002 at /index', () => {
        const read = Standing.ofIndex({
            index: {
                namespace: 'ns',
                status: 'partial',
                grade: 'C',
                schemas: { a: graded('C'), b: blocked('untested') }
            }
        })
        expect([...read.schemas.keys()]).toEqual(['ns.a', 'ns.b'])
        expect(read).toMatchObject({ namespace: 'ns', status: 'partial', grade: 'C', errors: [] })
        expect(Standing.ofIndex({ index: [] }).errors[0]).toMatchObject({ code: 'IDX-002', path: '/index' })
        expect(standingsOfIndex(null).schemas.size).toBe(0)
    })

    it('compare says how a schema got worse; a standing that is not an object is IDX-002 at /after', () => {
        expect(Standing.compare({ before: s0('B'), after: s0('C') })).toEqual({
            worse: true,
            messages: ['grade fell from B to C'],
            errors: []
        })
        expect(Standing.compare({ after: null as never }).errors[0]).toMatchObject({ code: 'IDX-002', path: '/after' })
    })
})

function s0(grade: string): ReturnType<typeof standingOfSchemaNode> {
    return standingOfSchemaNode(graded(grade))
}
