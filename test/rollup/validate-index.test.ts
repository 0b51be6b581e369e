import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RebuildIndex } from '../../src/index.js'
import { baseNamespace, grading, rebuildNs } from './support.js'

const specExample = JSON.parse(
    readFileSync(new URL('../fixtures/islands/spec-example-index.json', import.meta.url), 'utf8')
) as Record<string, unknown>

describe('RebuildIndex.validateIndex', () => {
    it('accepts the spec example index (03 §7.3) against the shipped schema', () => {
        expect(RebuildIndex.validateIndex({ index: specExample, mode: 'read' })).toEqual({ valid: true, errors: [] })
    })

    it("flags the spec example's minute-precision updatedAt under the write rules (⚠ C4)", () => {
        const res = RebuildIndex.validateIndex({ index: specExample })
        expect(res.errors.map((e) => [e.code, e.path])).toEqual([['IDX-028', '/updatedAt']])
    })

    it('accepts every index the rebuild writes under the write rules', async () => {
        const { index } = await rebuildNs({
            ...baseNamespace(),
            ...grading('tool', '2026-05-31T10:00:00Z', { veto: true }),
            ...grading('aggregate', '2026-05-31T10:00:00Z')
        })
        expect(RebuildIndex.validateIndex({ index })).toEqual({ valid: true, errors: [] })
    })

    it.each([
        { name: 'an unknown top-level property', index: { ...specExample, extra: 1 }, code: 'IDX-011', path: '' },
        {
            name: 'indexVersion 1',
            index: { ...specExample, updatedAt: '2026-05-31T12-30-00Z', indexVersion: 1 },
            code: 'IDX-011',
            path: '/indexVersion'
        },
        {
            name: 'a rollup status on a node',
            index: { ...specExample, updatedAt: '2026-05-31T12-30-00Z', about: { status: 'operational' } },
            code: 'IDX-011',
            path: '/about/status'
        },
        {
            name: 'a node status as rollup status',
            index: { ...specExample, updatedAt: '2026-05-31T12-30-00Z', status: 'stable' },
            code: 'IDX-011',
            path: '/status'
        },
        {
            name: 'a pending node without reason',
            index: { ...specExample, updatedAt: '2026-05-31T12-30-00Z', description: { status: 'pending' } },
            code: 'IDX-028',
            path: '/description/reason'
        },
        {
            name: 'a snapshot without an 8-hex hash',
            index: {
                ...specExample,
                updatedAt: '2026-05-31T12-30-00Z',
                schemas: { p: { status: 'graded', snapshot: { file: 'p.mjs', hash: 'sha256:x' } } }
            },
            code: 'IDX-028',
            path: '/schemas/p/snapshot'
        },
        {
            name: 'both namespace and selectionId',
            index: { ...specExample, updatedAt: '2026-05-31T12-30-00Z', selectionId: 'x' },
            code: 'IDX-028',
            path: ''
        },
        {
            name: 'a blocker without reason',
            index: { ...specExample, updatedAt: '2026-05-31T12-30-00Z', blockers: [{ node: 'x' }] },
            code: 'IDX-028',
            path: '/blockers/0'
        }
    ])('rejects $name with $code', ({ index, code, path }) => {
        const res = RebuildIndex.validateIndex({ index })
        expect(res.valid).toBe(false)
        expect(res.errors.map((e) => [e.code, e.path])).toContainEqual([code, path])
    })

    it.each([
        { index: undefined, code: 'IDX-001' },
        { index: [], code: 'IDX-002' }
    ])('reports a missing or non-object index with $code', ({ index, code }) => {
        expect(RebuildIndex.validateIndex({ index }).errors[0]?.code).toBe(code)
    })

    it('pins indexVersion 2 under the write rules with IDX-003', () => {
        expect(
            RebuildIndex.validateIndex({
                index: { ...specExample, updatedAt: '2026-05-31T12-30-00Z', indexVersion: 3 }
            }).errors.map((e) => e.code)
        ).toContain('IDX-003')
    })
})
