import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PromptBuilder } from '../../src/index.js'
import { AREAS, NODE_STATUSES } from '../../src/model/constants.js'

describe('PromptBuilder.buildGoalBlock (04 §4)', () => {
    it('appends " — or stop after N turns." with N = 25 by default and starts with the Goal-Block heading', () => {
        const g = PromptBuilder.buildGoalBlock({ condition: 'Grade the provider "demoapi" across all required areas' })
        expect(g.errors).toEqual([])
        expect(g.maxTurns).toBe(25)
        expect(g.condition).toBe('Grade the provider "demoapi" across all required areas — or stop after 25 turns.')
        expect(g.conditionLength).toBe(g.condition?.length)
        expect(g.goalBlock).toMatchInlineSnapshot(`
          "## Goal-Block (completion condition)

          Grade the provider "demoapi" across all required areas — or stop after 25 turns.

          ### Surfacing convention (mandatory)

          The completion check reads only this conversation; it cannot open files or run tools. Print every result into the transcript:

          - after each area, exactly one line: \`[GRADING] area=<area>/<target> schema-valid=✓ status=<status> written=✓\`
            (✗ instead of ✓ when the check failed; <status> is the node status: pending, blocked, graded, stable or rejected)
          - right after every area line: \`[GRADING] PROGRESS <done>/<total>\`
          - once, and only when every area is done: \`[GRADING] DONE\`
          "
        `)
    })

    it('uses the given turn bound (the CLI tests look for "stop after 7 turns")', () => {
        expect(PromptBuilder.buildGoalBlock({ condition: 'x', maxTurns: 7 }).condition).toContain('stop after 7 turns')
    })

    it('has its own default condition, naming the area when given', () => {
        expect(PromptBuilder.buildGoalBlock({ area: 'single-test' }).condition).toBe(
            'Grade every in-scope area (single-test) until each one has a schema-valid grading file — or stop after 25 turns.'
        )
    })

    it('keeps the whole condition, suffix included, within 4000 characters (04 §5)', () => {
        const suffix = ' — or stop after 25 turns.'.length
        expect(PromptBuilder.buildGoalBlock({ condition: 'x'.repeat(4000 - suffix) }).conditionLength).toBe(4000)
        expect(PromptBuilder.buildGoalBlock({ condition: 'x'.repeat(4001 - suffix) }).errors).toEqual([
            expect.objectContaining({ code: 'PB-007', path: '/condition' })
        ])
    })

    it.each([
        [{ condition: '' }, 'PB-003', '/condition'],
        [{ condition: 5 }, 'PB-002', '/condition'],
        [{ maxTurns: 0 }, 'PB-008', '/maxTurns'],
        [{ maxTurns: 2.5 }, 'PB-008', '/maxTurns'],
        [{ maxTurns: '25' }, 'PB-008', '/maxTurns'],
        [{ area: 'security' }, 'PB-004', '/area']
    ])('rejects %j with %s', (input, code, path) => {
        const g = PromptBuilder.buildGoalBlock(input)
        expect(g).toMatchObject({ goalBlock: null, condition: null })
        expect(g.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})

describe('[GRADING] surfacing lines (04 §6)', () => {
    it.each([
        [
            {
                kind: 'area',
                area: 'single-test',
                target: 'getFirstPrice',
                schemaValid: true,
                status: 'graded',
                written: true
            },
            '[GRADING] area=single-test/getFirstPrice schema-valid=✓ status=graded written=✓'
        ],
        [
            {
                kind: 'area',
                area: 'about-namespace',
                target: 'prices',
                schemaValid: false,
                status: 'blocked',
                written: true
            },
            '[GRADING] area=about-namespace/prices schema-valid=✗ status=blocked written=✓'
        ],
        [
            {
                kind: 'area',
                area: 'single-test',
                target: 't',
                schemaValid: true,
                status: 'stable',
                written: false,
                marker: 'ascii'
            },
            '[GRADING] area=single-test/t schema-valid=ok status=stable written=fail'
        ],
        [{ kind: 'progress', done: 7, total: 12 }, '[GRADING] PROGRESS 7/12'],
        [{ kind: 'done' }, '[GRADING] DONE']
    ])('formats %j as the spec literal', (input, line) => {
        expect(PromptBuilder.formatSurfacingLine(input)).toEqual({ line, errors: [] })
    })

    it.each([
        [{ kind: 'area', area: 'nope', target: 't', schemaValid: true, status: 'graded', written: true }, 'PB-004'],
        [
            {
                kind: 'area',
                area: 'single-test',
                target: 'two words',
                schemaValid: true,
                status: 'graded',
                written: true
            },
            'PB-003'
        ],
        [
            { kind: 'area', area: 'single-test', target: 't', schemaValid: 'yes', status: 'graded', written: true },
            'PB-002'
        ],
        [
            { kind: 'area', area: 'single-test', target: 't', schemaValid: true, status: 'operational', written: true },
            'PB-012'
        ],
        [{ kind: 'progress', done: 3, total: 2 }, 'PB-013'],
        [{ kind: 'progress', done: -1, total: 2 }, 'PB-002'],
        [{ kind: 'finish' }, 'PB-002'],
        [{}, 'PB-001'],
        [{ kind: 'done', marker: 'emoji' }, 'PB-002']
    ])('refuses to format %j (%s)', (input, code) => {
        const result = PromptBuilder.formatSurfacingLine(input)
        expect(result.line).toBeNull()
        expect(result.errors[0]?.code).toBe(code)
    })

    it.each([
        [
            '[GRADING] area=single-test/getFirstPrice schema-valid=✓ status=graded written=✓',
            {
                kind: 'area',
                area: 'single-test',
                target: 'getFirstPrice',
                schemaValid: true,
                status: 'graded',
                written: true
            }
        ],
        [
            '[GRADING] area=selection-skills-L2/crypto-topic schema-valid=✗ status=pending written=✗',
            {
                kind: 'area',
                area: 'selection-skills-L2',
                target: 'crypto-topic',
                schemaValid: false,
                status: 'pending',
                written: false
            }
        ],
        ['[GRADING] PROGRESS 7/12', { kind: 'progress', done: 7, total: 12 }],
        ['[GRADING] PROGRESS 0/0', { kind: 'progress', done: 0, total: 0 }],
        ['[GRADING] DONE\r', { kind: 'done' }]
    ])('parses %j', (line, event) => {
        expect(PromptBuilder.parseSurfacingLine({ line })).toEqual({ event, errors: [] })
    })

    it.each([
        ['[GRADING] DONE ', 'PB-010'],
        [' [GRADING] DONE', 'PB-010'],
        ['[GRADING] done', 'PB-010'],
        ['[GRADING] PROGRESS 07/12', 'PB-010'],
        ['[GRADING] PROGRESS 13/12', 'PB-013'],
        ['[GRADING] area=single-test/x schema-valid=✓ status=graded', 'PB-010'],
        ['[GRADING] area=single-test/x schema-valid=✔ status=graded written=✓', 'PB-010'],
        ['[GRADING] area=security/x schema-valid=✓ status=graded written=✓', 'PB-011'],
        ['[GRADING] area=single-test/x schema-valid=✓ status=partial written=✓', 'PB-012'],
        ['GRADING DONE', 'PB-010'],
        ['x'.repeat(5000), 'PB-010']
    ])('rejects %j with %s', (line, code) => {
        const result = PromptBuilder.parseSurfacingLine({ line })
        expect(result.event).toBeNull()
        expect(result.errors[0]).toMatchObject({ code, path: '/line' })
    })

    it('rejects a line that is not a string', () => {
        expect(PromptBuilder.parseSurfacingLine({}).errors[0]?.code).toBe('PB-001')
        expect(PromptBuilder.parseSurfacingLine({ line: 3 }).errors[0]?.code).toBe('PB-002')
    })

    it('round-trips every well-formed event (property)', () => {
        const event = fc.oneof(
            fc.record({
                kind: fc.constant('area' as const),
                area: fc.constantFrom(...AREAS),
                target: fc.stringMatching(/^\S{1,20}$/),
                schemaValid: fc.boolean(),
                status: fc.constantFrom(...NODE_STATUSES),
                written: fc.boolean()
            }),
            fc.integer({ min: 0, max: 1000 }).chain((total) =>
                fc.record({
                    kind: fc.constant('progress' as const),
                    done: fc.integer({ min: 0, max: total }),
                    total: fc.constant(total)
                })
            ),
            fc.constant({ kind: 'done' as const })
        )
        fc.assert(
            fc.property(event, fc.constantFrom('unicode', 'ascii'), (e, marker) => {
                const { line } = PromptBuilder.formatSurfacingLine({ ...e, marker })
                expect(PromptBuilder.parseSurfacingLine({ line }).event).toEqual(e)
            }),
            { numRuns: 200 }
        )
    })

    it('never throws on hostile lines and always answers with an event or a coded error', () => {
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.string({ unit: 'binary' }),
                    fc.string().map((s) => `[GRADING] ${s}`),
                    fc.anything()
                ),
                (line) => {
                    const result = PromptBuilder.parseSurfacingLine({ line })
                    expect((result.event === null) !== (result.errors.length === 0)).toBe(true)
                }
            ),
            { numRuns: 200 }
        )
    })
})

describe('PromptBuilder.auditTranscript', () => {
    const good = [
        '[GRADING] area=single-test/a schema-valid=✓ status=graded written=✓',
        '[GRADING] PROGRESS 1/2',
        'working…',
        '[GRADING] area=single-test/b schema-valid=✓ status=graded written=✓',
        '[GRADING] PROGRESS 2/2',
        '[GRADING] DONE'
    ].join('\n')

    it('accepts a complete run and lists its events with line numbers', () => {
        const audit = PromptBuilder.auditTranscript({ text: good, expectedTotal: 2 })
        expect(audit).toMatchObject({ complete: true, errors: [], progress: { done: 2, total: 2 } })
        expect(audit.events.map((e) => e.line)).toEqual([0, 1, 3, 4, 5])
    })

    it('holds DONE to "exactly once, only when done = total" (04 ⚠ D7)', () => {
        expect(PromptBuilder.auditTranscript({ text: '[GRADING] PROGRESS 1/2\n[GRADING] DONE' }).errors).toEqual([
            expect.objectContaining({ code: 'PB-014', path: '/lines/1' })
        ])
        expect(PromptBuilder.auditTranscript({ text: '[GRADING] DONE' }).errors[0]?.code).toBe('PB-014')
        expect(PromptBuilder.auditTranscript({ text: `${good}\n[GRADING] DONE` }).errors).toEqual([
            expect.objectContaining({ code: 'PB-014', path: '/lines/6' })
        ])
    })

    it('flags an area line without PROGRESS as a warning (04 ⚠ D7)', () => {
        const audit = PromptBuilder.auditTranscript({
            text: '[GRADING] area=single-test/a schema-valid=✓ status=graded written=✓\n[GRADING] PROGRESS 1/1\n[GRADING] area=single-test/b schema-valid=✓ status=graded written=✓'
        })
        expect(audit.errors).toEqual([
            expect.objectContaining({ code: 'PB-WARN-003', path: '/lines/2', severity: 'warning' })
        ])
    })

    it('flags a total that changes, progress that goes back and a wrong expected total', () => {
        expect(
            PromptBuilder.auditTranscript({ text: '[GRADING] PROGRESS 1/2\n[GRADING] PROGRESS 1/3' }).errors[0]?.code
        ).toBe('PB-013')
        expect(
            PromptBuilder.auditTranscript({ text: '[GRADING] PROGRESS 2/3\n[GRADING] PROGRESS 1/3' }).errors[0]?.code
        ).toBe('PB-013')
        expect(PromptBuilder.auditTranscript({ text: good, expectedTotal: 5 }).errors[0]?.code).toBe('PB-013')
    })

    it.each([
        [{}, 'PB-001'],
        [{ text: 1 }, 'PB-002'],
        [{ text: '', expectedTotal: -1 }, 'PB-002'],
        [{ text: 'x'.repeat(8_000_001) }, 'INP-003']
    ])('rejects bad input %#', (input, code) => {
        expect(PromptBuilder.auditTranscript(input).errors[0]?.code).toBe(code)
    })

    it('never throws on hostile transcripts', () => {
        fc.assert(
            fc.property(
                fc.array(
                    fc.oneof(
                        fc.string({ unit: 'binary' }),
                        fc.string().map((s) => `[GRADING] ${s}`),
                        fc.constantFrom('[GRADING] DONE', '[GRADING] PROGRESS 1/1')
                    ),
                    { maxLength: 30 }
                ),
                (lines) => {
                    const audit = PromptBuilder.auditTranscript({ text: lines.join('\n') })
                    if (audit.complete) expect(audit.errors.filter((e) => e.severity === 'error')).toEqual([])
                }
            ),
            { numRuns: 200 }
        )
    })
})
