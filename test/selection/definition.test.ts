import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Artifacts, SelectionDefinition } from '../../src/index.js'
import { run } from '../../src/cli/run.js'
import { memoryIo } from '../cli/helpers.js'

const fixture = (path: string): string => new URL(`../fixtures/selections/${path}`, import.meta.url).pathname
const valid = JSON.parse(readFileSync(fixture('valid/defi-core.json'), 'utf8')) as Record<string, unknown>
const variant = (change: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries({ ...valid, ...change }).filter(([, v]) => v !== undefined))

describe('SelectionDefinition.validate (ch. 16 field table, 03 ⚠ C24)', () => {
    it('accepts the chapter 16 shape with an override of name/description', () => {
        expect(SelectionDefinition.validate({ definition: valid, selectionId: 'defi-core' })).toEqual({
            valid: true,
            errors: []
        })
    })

    it.each([
        { field: 'selectionId', change: { selectionId: undefined }, code: 'SEL-001', path: '/definition/selectionId' },
        {
            field: 'selectionId pattern',
            change: { selectionId: 'DeFi Core' },
            code: 'SEL-003',
            path: '/definition/selectionId'
        },
        { field: 'namespace', change: { namespace: undefined }, code: 'SEL-001', path: '/definition/namespace' },
        { field: 'name', change: { name: 42 }, code: 'SEL-002', path: '/definition/name' },
        { field: 'version flowmcp/4.x.y', change: { version: '4.0.0' }, code: 'SEL-003', path: '/definition/version' },
        {
            field: 'description ≥ 10',
            change: { description: 'short' },
            code: 'SEL-004',
            path: '/definition/description'
        },
        { field: 'whenToUse', change: { whenToUse: '' }, code: 'SEL-001', path: '/definition/whenToUse' },
        { field: 'personaIds ≥ 1', change: { personaIds: [] }, code: 'SEL-005', path: '/definition/personaIds' },
        { field: 'personaIds items', change: { personaIds: [7] }, code: 'SEL-002', path: '/definition/personaIds/0' },
        { field: 'members ≥ 1', change: { members: [] }, code: 'SEL-005', path: '/definition/members' },
        {
            field: 'members items { schemaId }',
            change: { members: [{ schemaId: 'a.b', extra: 1 }] },
            code: 'SEL-006',
            path: '/definition/members/0/extra'
        },
        {
            field: 'override keys',
            change: { members: [{ schemaId: 'a.b', override: { tools: {} } }] },
            code: 'SEL-007',
            path: '/definition/members/0/override/tools'
        },
        {
            field: 'skills ≤ 4',
            change: {
                skills: [1, 2, 3, 4, 5].map((i) => ({
                    file: `skills/s${i}/s${i}--2026-05-30T09-00-00Z--0000000${i}.mjs`
                }))
            },
            code: 'SKL-018',
            path: '/definition/skills'
        },
        {
            field: 'skills items { file }',
            change: { skills: [{ file: 'skills/a/b--2026-05-30T09-00-00Z--00000000.mjs' }] },
            code: 'SEL-012',
            path: '/definition/skills/0/file'
        },
        { field: 'no aboutHash', change: { aboutHash: '12345678' }, code: 'SEL-009', path: '/definition/aboutHash' }
    ])('rejects a broken $field with $code at $path', ({ change, code, path }) => {
        const result = SelectionDefinition.validate({ definition: variant(change) })
        expect(result.valid).toBe(false)
        expect(result.errors.map((e) => [e.code, e.path])).toContainEqual([code, path])
    })

    it('rejects a definition for another selection than the one named (SEL-008)', () => {
        expect(
            SelectionDefinition.validate({ definition: valid, selectionId: 'other' }).errors.map((e) => e.code)
        ).toEqual(['SEL-008'])
    })

    it('warns, without failing, on a duplicate member and an unknown key', () => {
        const result = SelectionDefinition.validate({
            definition: variant({ members: [{ schemaId: 'a.b' }, { schemaId: 'a.b' }], extra: true })
        })
        expect(result.valid).toBe(true)
        expect(result.errors.map((e) => [e.code, e.severity])).toEqual([
            ['SEL-010', 'warning'],
            ['SEL-011', 'warning']
        ])
    })

    it('reports every problem of the invalid fixture at once, never throwing on junk', () => {
        const broken = JSON.parse(readFileSync(fixture('invalid/defi-core-broken.json'), 'utf8')) as unknown
        expect(SelectionDefinition.validate({ definition: broken }).errors.map((e) => e.code)).toEqual([
            'SEL-003',
            'SEL-004',
            'SEL-005',
            'SEL-007',
            'SEL-009'
        ])
        expect(SelectionDefinition.validate({ definition: 'x' }).errors[0]?.code).toBe('SEL-002')
        expect(SelectionDefinition.validate({}).errors[0]?.code).toBe('SEL-001')
        expect(SelectionDefinition.validate(null as never).errors[0]?.code).toBe('SEL-002')
    })
})

describe('SelectionDefinition.fromPrimitive (v4.2.0 adapter, 03 ⚠ C24)', () => {
    const primitive = {
        namespace: 'weather',
        name: 'weather-core',
        version: '4.0.0',
        description: 'Forecasts from several weather providers.',
        whenToUse: 'When a forecast must be cross-checked.',
        tools: ['openmeteo/tool/getForecast', 'openmeteo/tool/getHourly', 'dwd/tool/getWarnings']
    }
    const toolSchemas = {
        'openmeteo/tool/getForecast': 'openmeteo.forecast',
        'openmeteo/tool/getHourly': 'openmeteo.forecast',
        'dwd/tool/getWarnings': 'dwd.warnings'
    }

    it('turns tool ids into de-duplicated members and normalises the version', () => {
        const { definition, errors } = SelectionDefinition.fromPrimitive({
            primitive,
            toolSchemas,
            personaIds: ['decision-maker']
        })
        expect(errors).toEqual([])
        expect(definition).toMatchObject({
            selectionId: 'weather-core',
            version: 'flowmcp/4.0.0',
            members: [{ schemaId: 'openmeteo.forecast' }, { schemaId: 'dwd.warnings' }],
            skills: []
        })
        expect(SelectionDefinition.validate({ definition }).valid).toBe(true)
    })

    it('reports an unresolvable tool id and missing personas, and returns no definition', () => {
        const { definition, errors } = SelectionDefinition.fromPrimitive({
            primitive: { ...primitive, tools: ['dwd/tool/getWarnings', 'nope'] },
            toolSchemas: {}
        })
        expect(definition).toBeNull()
        expect(errors.map((e) => [e.code, e.path])).toEqual([
            ['SEL-014', '/primitive/tools/0'],
            ['SEL-014', '/primitive/tools/1'],
            ['SEL-001', '/personaIds'],
            ['SEL-005', '/primitive/tools']
        ])
        expect(SelectionDefinition.fromPrimitive({}).errors[0]?.code).toBe('SEL-001')
    })

    it('is recognised by validate and told to go through the adapter (SEL-013)', () => {
        expect(SelectionDefinition.validate({ definition: primitive }).errors.map((e) => e.code)).toEqual(['SEL-013'])
    })
})

describe('validate for selection definition files (CLI and Artifacts)', () => {
    it('detects a selection definition and validates it', () => {
        expect(Artifacts.validate({ json: valid })).toEqual({ kind: 'selection-definition', valid: true, errors: [] })
        expect(Artifacts.validate({ json: variant({ personaIds: [] }) }).errors.map((e) => [e.code, e.path])).toEqual([
            ['SEL-005', '/personaIds']
        ])
    })

    it('prints each problem with its code and path from `flowmcp-grading validate`', async () => {
        const ok = memoryIo()
        expect(await run(['validate', fixture('valid/defi-core.json')], ok)).toBe(0)
        expect(ok.out()).toContain('selection-definition')
        const bad = memoryIo()
        expect(await run(['validate', fixture('invalid/defi-core-broken.json')], bad)).toBe(1)
        expect(bad.out()).toContain('INVALID')
        expect(bad.out()).toMatch(/SEL-007 at \/members\/0\/override\/root/)
        expect(bad.out()).toMatch(/SEL-004 at \/description/)
    })
})
