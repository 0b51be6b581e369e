import { describe, expect, it } from 'vitest'
import { fixEntriesOf, fixLine } from '../../src/fix/fix-list.js'
import { FixList, type GradingEntry, type UnitResult } from '../../src/index.js'

const unit = (over: Partial<UnitResult>): UnitResult => ({ unit: 'single-test/getPrice', area: 'single-test', target: { namespace: 'x', schema: 's', tool: 'getPrice' }, status: 'graded', aggregateGrade: 'C', rawGrade: 'C', normalizedScore: 3, reason: null, written: null, ...over })
const entry = (scores: Array<[string, number | 'pass' | 'fail' | 'n/a', number]>): GradingEntry =>
    ({ area: 'single-test', gradingId: 'g', aggregateGrade: 'C', gradings: scores.map(([questionId, score, weight]) => ({ questionId, score, weight, determinism: 'non-deterministic', reasoning: `why ${questionId}` })) }) as unknown as GradingEntry

describe('FixList.build', () => {
    it('orders what to fix by what it costs: an untested tool, then errors, warnings, then the answers that cost the most points', () => {
        const locate = (pointer: string): { line: number; column: number } | null => (pointer === '/tools/getPrice/description' ? { line: 12, column: 13 } : pointer.startsWith('/tools/getPrice') ? { line: 10, column: 9 } : null)
        const { items, errors } = FixList.build({
            schemaId: 'x.s',
            file: 'providers/x/s.mjs',
            errors: [
                { code: 'SCH-WARN-012', severity: 'warning', message: 'tag should match', path: '/schema/main/tags/0' },
                { code: 'SCH-004', severity: 'error', message: 'method is not GET or POST', path: '/schema/main/tools/getPrice/method' },
                { code: 'GRA-014', severity: 'warning', message: 'provisional', path: '' }
            ],
            units: [unit({ improvementHints: [{ targetField: 'tools.getPrice.description', suggestion: 'say what it returns', priority: 'high' }] }), unit({ unit: 'single-test/getVolume', status: 'blocked', reason: 'key-gated-missing-server-param — not tested: set X_KEY', target: { namespace: 'x', schema: 's', tool: 'getVolume' } })],
            entries: [{ unit: 'single-test/getPrice', entry: entry([['Q-single-test-05', 2, 1], ['Q-single-test-06', 3, 2], ['Q-single-test-07', 5, 1], ['Q-single-test-08', 'n/a', 1]]) }],
            locate
        })
        expect(errors).toEqual([])
        expect(items.map((i) => [i.code, i.kind, i.pointer, i.cost])).toEqual([
            ['DPT-007', 'finding', '/tools/getVolume', 4],
            ['SCH-004', 'finding', '/tools/getPrice/method', 2],
            ['Q-single-test-05', 'answer', '/tools/getPrice/description', 0.75],
            ['Q-single-test-06', 'answer', '/tools/getPrice/description', 1],
            ['SCH-WARN-012', 'finding', '/tags/0', 0.5]
        ].sort((a, b) => (b[3] as number) - (a[3] as number)))
        const answer = items.find((i) => i.code === 'Q-single-test-05')
        expect(answer).toMatchObject({ line: 12, column: 13, score: 2, tool: 'getPrice', severity: 'warning', hints: [{ suggestion: 'say what it returns' }] })
        expect(answer?.message).toMatch(/ — 2: why Q-single-test-05$/)
        expect(fixLine(answer as (typeof items)[number])).toMatch(/^providers\/x\/s\.mjs:12:13 Q-single-test-05 .* \(hint: say what it returns\)$/)
    })

    it('answers input that is not a graded schema with GRA-002 and no items', () => {
        expect(FixList.build(undefined as never)).toEqual({ items: [], errors: [expect.objectContaining({ code: 'GRA-002', path: '/schemaId' })] })
        expect(FixList.build({ schemaId: 'x.s', errors: 'nope', units: null } as never).items).toEqual([])
    })

    it('pairs a run entries with the units it graded, or falls back to their areas', () => {
        const units = [unit({}), unit({ unit: 'single-test/b', kept: true }), unit({ unit: 'tools-aggregate-schema', area: 'tools-aggregate-schema' })]
        const entries = [entry([]), { ...entry([]), area: 'tools-aggregate-schema' } as GradingEntry]
        expect(fixEntriesOf(units, entries).map((e) => e.unit)).toEqual(['single-test/getPrice', 'tools-aggregate-schema'])
        expect(fixEntriesOf([], entries).map((e) => e.unit)).toEqual(['single-test', 'tools-aggregate-schema'])
    })
})
