import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { withTool } from '../../src/fix/tool-names.js'
import {
    collapseFixItems,
    countFixItems,
    countsLine,
    fixEntriesOf,
    fixLine,
    fixListText,
    groupFixItems,
    type FixCounts,
    type FixListSchema
} from '../../src/fix/fix-list.js'
import { FixList, type FixItem, type GradingEntry, type UnitResult } from '../../src/index.js'

const unit = (over: Partial<UnitResult>): UnitResult => ({
    unit: 'single-test/getPrice',
    area: 'single-test',
    target: { namespace: 'x', schema: 's', tool: 'getPrice' },
    status: 'graded',
    aggregateGrade: 'C',
    rawGrade: 'C',
    normalizedScore: 3,
    reason: null,
    written: null,
    ...over
})
const entry = (scores: Array<[string, number | 'pass' | 'fail' | 'n/a', number]>): GradingEntry =>
    ({
        area: 'single-test',
        gradingId: 'g',
        aggregateGrade: 'C',
        gradings: scores.map(([questionId, score, weight]) => ({
            questionId,
            score,
            weight,
            determinism: 'non-deterministic',
            reasoning: `why ${questionId}`
        }))
    }) as unknown as GradingEntry

describe('FixList.build', () => {
    it('orders what to fix by what it costs: an untested tool, then errors, answers at their own tool each followed by its hints (each once, an item of its own), warnings', () => {
        const locate = (pointer: string): { line: number; column: number } | null =>
            pointer === '/tools/getPrice/description'
                ? { line: 12, column: 13 }
                : pointer.startsWith('/tools/getPrice')
                  ? { line: 10, column: 9 }
                  : pointer.startsWith('/tools/getVolume')
                    ? { line: 30, column: 9 }
                    : { line: 1, column: 14 }
        const resolve = (pointer: string): { line: number; column: number } | null =>
            pointer === '/tools/getPrice/description' ? { line: 12, column: 13 } : null
        const { items, errors } = FixList.build({
            schemaId: 'x.s',
            file: 'providers/x/s.mjs',
            errors: [
                { code: 'SCH-WARN-012', severity: 'warning', message: 'tag should match', path: '/schema/main/tags/0' },
                {
                    code: 'SCH-004',
                    severity: 'error',
                    message: 'method is not GET or POST',
                    path: '/schema/main/tools/getPrice/method'
                },
                { code: 'GRA-014', severity: 'warning', message: 'provisional', path: '' }
            ],
            units: [
                unit({
                    improvementHints: [
                        {
                            targetField: 'tools.getPrice.description',
                            suggestion: 'say what it returns',
                            priority: 'high'
                        },
                        {
                            targetField: 'tools.getPrice.description',
                            suggestion: 'say what it returns',
                            priority: 'high'
                        },
                        { targetField: 'outputSchema', suggestion: 'declare the output', priority: 'low' }
                    ]
                }),
                unit({
                    unit: 'single-test/getVolume',
                    status: 'blocked',
                    reason: 'key-gated-missing-server-param — not tested: set X_KEY',
                    target: { namespace: 'x', schema: 's', tool: 'getVolume' }
                })
            ],
            entries: [
                {
                    unit: 'single-test/getPrice',
                    entry: entry([
                        ['Q-single-test-05', 2, 1],
                        ['Q-single-test-06', 3, 2],
                        ['Q-single-test-07', 5, 1],
                        ['Q-single-test-08', 'n/a', 1]
                    ])
                }
            ],
            locate,
            resolve
        })
        expect(errors).toEqual([])
        expect(items.map((i) => [i.code, i.kind, i.pointer, i.cost, i.tool])).toEqual([
            ['DPT-007', 'finding', '/tools/getVolume', 4, 'getVolume'],
            ['SCH-004', 'finding', '/tools/getPrice/method', 2, 'getPrice'],
            // A hint costs what its unit's costliest answer costs: it sorts right after that answer.
            ['Q-single-test-06', 'answer', '/tools/getPrice', 1, 'getPrice'],
            ['HINT-single-test', 'hint', '/tools/getPrice', 1, 'getPrice'],
            ['HINT-single-test', 'hint', '/tools/getPrice/description', 1, 'getPrice'],
            ['Q-single-test-05', 'answer', '/tools/getPrice', 0.75, 'getPrice'],
            ['SCH-WARN-012', 'finding', '/tags/0', 0.5, undefined]
        ])
        const answer = items.find((i) => i.code === 'Q-single-test-05')
        // The answer carries its own question and tool and sits at its tool's key, not at a hint's target.
        expect(answer).toMatchObject({
            line: 10,
            column: 9,
            score: 2,
            tool: 'getPrice',
            severity: 'warning',
            reasoning: 'why Q-single-test-05'
        })
        expect(answer?.question?.length).toBeGreaterThan(10)
        expect(answer).not.toHaveProperty('hint')
        expect(answer?.message).toBe(`${answer?.question} — 2: why Q-single-test-05`)
        expect(fixLine(answer as (typeof items)[number])).toBe(
            `providers/x/s.mjs:10:9 Q-single-test-05 ${answer?.message} in tool getPrice`
        )
        const [unresolved, resolved] = items.filter((i) => i.kind === 'hint')
        expect(resolved).toMatchObject({
            message: 'say what it returns',
            placed: 'target',
            line: 12,
            column: 13,
            severity: 'info',
            hint: { targetField: 'tools.getPrice.description', priority: 'high' }
        })
        expect(unresolved).toMatchObject({
            message: 'declare the output (about outputSchema)',
            placed: 'unit',
            line: 10,
            column: 9
        })
        expect(items.find((i) => i.code === 'DPT-007')?.message).toBe(
            'Not tested (key-gated-missing-server-param): set X_KEY'
        )
    })

    it.each([
        ['a dotted path from main', 'tools.getPrice.description', '/tools/getPrice/description'],
        ['a path from main named so', 'main.tools.getPrice.description', '/tools/getPrice/description'],
        ['a path relative to the tool', 'description', '/tools/getPrice/description'],
        ['a path starting with the tool name', 'getPrice.parameters[0]', '/tools/getPrice/parameters/0'],
        ['brackets', "tools['getPrice'].parameters[0]", '/tools/getPrice/parameters/0'],
        ['a JSON Pointer under the tool', '/parameters/0', '/tools/getPrice/parameters/0'],
        ['a schema-level field', 'docs', '/docs'],
        ['words that are not a path', 'the overall tone', '/tools/getPrice'],
        ['a field the source does not have', 'tools.getPrice.examples', '/tools/getPrice']
    ])('places a hint whose targetField is %s where the source has it', (_name, targetField, expected) => {
        const written = new Set([
            '/tools/getPrice',
            '/tools/getPrice/description',
            '/tools/getPrice/parameters/0',
            '/docs'
        ])
        const resolve = (p: string): { line: number; column: number } | null =>
            written.has(p) ? { line: p.length, column: 1 } : null
        const { items } = FixList.build({
            schemaId: 'x.s',
            errors: [],
            units: [unit({ improvementHints: [{ targetField, suggestion: 'do it', priority: 'medium' }] })],
            resolve
        })
        expect(items.map((i) => [i.pointer, i.placed])).toEqual([
            [expected, expected === '/tools/getPrice' ? 'unit' : 'target']
        ])
    })

    it('places a hint of an area unit at the area, saying so, and without a source reads its target as written', () => {
        const aggregate = unit({
            unit: 'tools-aggregate-schema',
            area: 'tools-aggregate-schema',
            improvementHints: [
                { targetField: 'tools.nothing', suggestion: 'merge the two search tools', priority: 'high' }
            ]
        })
        const { items } = FixList.build({ schemaId: 'x.s', errors: [], units: [aggregate], resolve: () => null })
        expect(items[0]).toMatchObject({
            pointer: '/tools',
            placed: 'unit',
            message: 'merge the two search tools (about tools.nothing)'
        })
        expect(FixList.build({ schemaId: 'x.s', errors: [], units: [aggregate] }).items[0]).toMatchObject({
            pointer: '/tools/nothing',
            placed: 'target',
            message: 'merge the two search tools'
        })
    })

    it('gives a deterministic answer written without reasoning its evidence as reasoning, never "no reasoning given"', () => {
        const det = {
            area: 'single-test',
            gradingId: 'g',
            gradings: [
                {
                    questionId: 'Q-single-test-01',
                    score: 'fail',
                    weight: 1,
                    determinism: 'deterministic',
                    evidence: { docs: 0, note: 'main.docs lists no URL' }
                },
                { questionId: 'Q-single-test-04', score: 1, weight: 1, determinism: 'non-deterministic' }
            ]
        } as unknown as GradingEntry
        const { items } = FixList.build({
            schemaId: 'x.s',
            errors: [],
            units: [unit({})],
            entries: [{ unit: 'single-test/getPrice', entry: det }]
        })
        expect(items.map((i) => i.reasoning)).toEqual([
            'The docs-URL check failed for tool getPrice: main.docs lists no URL; docs 0.',
            'The grader gave no reasoning for this answer.'
        ])
        expect(items.every((i) => !i.message.includes('no reasoning given'))).toBe(true)
    })

    it('answers input that is not a graded schema with GRA-002 and no items', () => {
        expect(FixList.build(undefined as never)).toEqual({
            items: [],
            errors: [expect.objectContaining({ code: 'GRA-002', path: '/schemaId' })]
        })
        expect(FixList.build({ schemaId: 'x.s', errors: 'nope', units: null } as never).items).toEqual([])
    })

    it('pairs a run entries with the units it graded, or falls back to their areas', () => {
        const units = [
            unit({}),
            unit({ unit: 'single-test/b', kept: true }),
            unit({ unit: 'tools-aggregate-schema', area: 'tools-aggregate-schema' })
        ]
        const entries = [entry([]), { ...entry([]), area: 'tools-aggregate-schema' } as GradingEntry]
        expect(fixEntriesOf(units, entries).map((e) => e.unit)).toEqual([
            'single-test/getPrice',
            'tools-aggregate-schema'
        ])
        expect(fixEntriesOf([], entries).map((e) => e.unit)).toEqual(['single-test', 'tools-aggregate-schema'])
    })
})

describe('grouped fix list (as eslint prints it)', () => {
    const item = (over: Partial<FixItem>): FixItem => ({
        schemaId: 'x.s',
        file: 'providers/x/s.mjs',
        kind: 'finding',
        code: 'SCH-WARN-011',
        severity: 'warning',
        message: 'm',
        pointer: '',
        line: 3,
        column: 5,
        cost: 0.5,
        ...over
    })

    it('collapses the same message across tools into one line that lists them, and keeps a message naming its tool whole', () => {
        const keyed = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((tool, i) =>
            item({
                code: 'DPT-007',
                message: 'Not tested: key-gated-missing-server-param — set X_KEY',
                tool,
                pointer: `/tools/${tool}`,
                line: 10 + i,
                cost: 4
            })
        )
        const named = ['getA', 'getB'].map((tool) =>
            item({ code: 'SCH-WARN-015', message: `Tool ${tool} has a description shorter than getAll's`, tool })
        )
        const lines = collapseFixItems([
            ...keyed,
            ...named,
            item({ code: 'SCH-WARN-015', message: 'Tool getC is fine but other', tool: 'getC' })
        ])
        expect(lines.map((l) => [l.code, l.tools, l.message, l.items.length])).toEqual([
            [
                'DPT-007',
                ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
                'Not tested: key-gated-missing-server-param — set X_KEY',
                8
            ],
            ['SCH-WARN-015', ['getA', 'getB'], "Tools getA, getB has a description shorter than getAll's", 2],
            ['SCH-WARN-015', ['getC'], 'Tool getC is fine but other', 1]
        ])
    })

    it('groups a schema by tool, the tools sharing a line, and the schema, most costly first, and counts per severity', () => {
        const items = [
            item({ code: 'DPT-007', message: 'Not tested', tool: 'a', cost: 4 }),
            item({ code: 'DPT-007', message: 'Not tested', tool: 'b', cost: 4 }),
            item({ code: 'SCH-004', severity: 'error', message: 'bad method', tool: 'a', cost: 2 }),
            item({ code: 'SCH-WARN-012', message: 'tags', cost: 0.5 }),
            item({ kind: 'hint', code: 'HINT-single-test', severity: 'info', message: 'say more', tool: 'b', cost: 0 })
        ]
        const [schema] = groupFixItems(items)
        expect(schema?.groups.map((g) => [g.heading, g.lines.map((l) => l.code)])).toEqual([
            ['tools a, b', ['DPT-007']],
            ['tool a', ['SCH-004']],
            ['schema', ['SCH-WARN-012']],
            ['tool b', ['HINT-single-test']]
        ])
        expect(schema?.counts).toEqual({ problems: 5, errors: 1, warnings: 3, infos: 1 })
        expect(countsLine(schema?.counts as FixCounts)).toBe('✖ 5 problems (1 error, 3 warnings, 1 note)')
        expect(countsLine(countFixItems([]))).toBe('✔ no problems')
        expect(
            fixListText(schema as FixListSchema, { indent: '  ', limit: 2, more: '(--verbose lists them all)' }).join(
                ''
            )
        ).toMatchInlineSnapshot(`
          "  providers/x/s.mjs (x.s): ✖ 5 problems (1 error, 3 warnings, 1 note)
              tools a, b
                3:5      warning  DPT-007  Not tested
              tool a
                3:5      error    SCH-004  bad method
              … 2 more lines (--verbose lists them all)
          "
        `)
        expect(fixListText(schema as FixListSchema).join('')).toContain(
            '    3:5      note     HINT-single-test  say more\n'
        )
    })

    it('groups nothing into no schemas, and a schema id without a file under its id', () => {
        expect(groupFixItems([])).toEqual([])
        const [schema] = groupFixItems([item({ file: null, line: null, column: null })])
        expect(fixListText(schema as FixListSchema)[0]).toBe('x.s: ✖ 1 problem (0 errors, 1 warning)\n')
        expect(fixListText(schema as FixListSchema)[2]).toBe('    -        warning  SCH-WARN-011  m\n')
    })
})

describe('FixList.build properties', () => {
    const tools = ['getA', 'getB', 'getC']
    const hintArb = fc.record({
        targetField: fc.constantFrom(
            'description',
            'tools.getA.description',
            'nowhere.at.all',
            'the tone',
            '/parameters/0',
            ''
        ),
        suggestion: fc.constantFrom('say more', 'name the unit', 'list the options'),
        priority: fc.constantFrom('low' as const, 'medium' as const, 'high' as const)
    })
    const unitArb = fc.record({
        tool: fc.constantFrom(...tools),
        hints: fc.array(hintArb, { maxLength: 4 }),
        scores: fc.array(fc.constantFrom(1, 2, 3, 4, 5, 'pass' as const, 'fail' as const, 'n/a' as const), {
            minLength: 1,
            maxLength: 5
        })
    })

    it('puts every distinct hint of a unit in exactly one item, on its unit, and no answer carries a hint; every answer sits at its own tool', () => {
        fc.assert(
            fc.property(fc.uniqueArray(unitArb, { selector: (u) => u.tool, maxLength: 3 }), (specs) => {
                const units = specs.map((s) =>
                    unit({
                        unit: `single-test/${s.tool}`,
                        target: { namespace: 'x', schema: 's', tool: s.tool },
                        improvementHints: s.hints
                    })
                )
                const entries = specs.map((s) => ({
                    unit: `single-test/${s.tool}`,
                    entry: entry(
                        s.scores.map((score, i): [string, number | 'pass' | 'fail' | 'n/a', number] => [
                            `Q-single-test-0${i + 4}`,
                            score,
                            1
                        ])
                    )
                }))
                const written = new Set([
                    '/tools/getA',
                    '/tools/getA/description',
                    '/tools/getB',
                    '/tools/getB/description',
                    '/tools/getC'
                ])
                const resolve = (p: string): { line: number; column: number } | null =>
                    written.has(p) ? { line: 1, column: 1 } : null
                const { items } = FixList.build({ schemaId: 'x.s', errors: [], units, entries, resolve })
                for (const s of specs) {
                    const distinct = new Set(s.hints.map((h) => `${h.targetField}\u0000${h.suggestion}`))
                    const mine = items.filter((i) => i.kind === 'hint' && i.unit === `single-test/${s.tool}`)
                    expect(mine).toHaveLength(distinct.size)
                    for (const h of mine) expect(h.tool).toBe(s.tool)
                    for (const h of mine)
                        expect(
                            h.pointer.startsWith(`/tools/${s.tool}`) || h.pointer === '/tools/getA/description'
                        ).toBe(true)
                }
                for (const a of items.filter((i) => i.kind === 'answer')) {
                    expect(a).not.toHaveProperty('hint')
                    expect(a.pointer).toBe(`/tools/${a.tool}`)
                    expect(a.question).toBeTruthy()
                }
            })
        )
    })
})

describe('withTool', () => {
    it.each([
        [
            'adds the tool a message does not name',
            'method must be GET',
            'getContentDetails',
            'method must be GET in tool getContentDetails'
        ],
        ['keeps a message that names the tool as a word', 'Tool getX has no tests', 'getX', 'Tool getX has no tests'],
        ['does not take a longer name for the tool', 'see getXs', 'getX', 'see getXs in tool getX'],
        ['leaves a message without a tool as it is', 'tags should match', undefined, 'tags should match'],
        ['reads a tool name with pattern characters literally', 'a.b failed', 'a.b', 'a.b failed']
    ])('%s', (_name, message, tool, expected) => {
        expect(withTool(message, tool)).toBe(expected)
    })
})
