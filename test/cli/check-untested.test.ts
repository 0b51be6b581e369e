import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkedSchema, rowOf, type Gates } from '../../src/cli/commands/check-verdict.js'
import type { BaselineNode } from '../../src/cli/commands/check-baseline.js'
import { BLOCKED_REASONS, ENVIRONMENT_BLOCKED_REASONS } from '../../src/index.js'
import { CONTENT_BLOCKED_REASONS } from '../../src/catalogue.js'
import { standingOfSchemaNode } from '../../src/rollup/standing.js'

// check's verdict on a schema blocked for a reason of the environment (ENVIRONMENT_BLOCKED_REASONS):
// new or changed since the baseline, it is unverified, unless the baseline was blocked for the same reason.
const gates: Gates = { failOnUntested: false, failOnRemoved: false, allowUnverified: false }

const blockedNode = (causes: Record<string, string>) => ({
    status: 'blocked',
    tools: Object.fromEntries(Object.entries(causes).map(([tool, cause]) => [tool, { status: 'blocked', cause }]))
})
const gradedNode = { status: 'graded', grade: 'B', toolsAggregate: { status: 'graded', grade: 'B' } }

const schema = (node: unknown, hash: string) =>
    checkedSchema({
        id: 'ns.schema',
        namespace: 'ns',
        file: null,
        standing: standingOfSchemaNode(node),
        hash,
        fixes: [],
        unverified: null
    })
const baseline = (node: unknown, hash: string): Map<string, BaselineNode> =>
    new Map([['ns.schema', { namespace: 'ns', standing: standingOfSchemaNode(node), hash, findings: [] }]])

describe('check: a schema not tested here', () => {
    const keyGated = blockedNode({ getPrice: BLOCKED_REASONS.keyGated })

    it('new since the baseline (a key not set): unverified, failing unless --allow-unverified', () => {
        // Changed from a graded baseline: unverified, and worse than the baseline besides.
        const row = rowOf(schema(keyGated, 'h2'), gates, baseline(gradedNode, 'h1'))
        expect(row.verdict).toBe('fails')
        expect(row.fails).toEqual([
            'was B, now blocked',
            'not verified: changed since the baseline and not tested here (key-gated-missing-server-param: getPrice)'
        ])
        const fresh = rowOf(schema(keyGated, 'h2'), gates, new Map())
        expect(fresh.verdict).toBe('unverified')
        expect(fresh.s.unverified).toBe(
            'new since the baseline and not tested here (key-gated-missing-server-param: getPrice)'
        )
        expect(fresh.fails).toEqual([`not verified: ${fresh.s.unverified}`])
        const allowed = rowOf(schema(keyGated, 'h2'), { ...gates, allowUnverified: true }, new Map())
        expect(allowed).toMatchObject({ verdict: 'unverified', fails: [] })
    })

    it('changed, and the baseline was blocked for the same reason: ok; for another reason only: unverified', () => {
        expect(rowOf(schema(keyGated, 'h2'), gates, baseline(keyGated, 'h1')).verdict).toBe('ok')
        const before = blockedNode({ getPrice: BLOCKED_REASONS.handlersNeedRuntime })
        const row = rowOf(schema(keyGated, 'h2'), gates, baseline(before, 'h1'))
        expect(row.verdict).toBe('unverified')
        expect(row.s.unverified).toBe(
            'changed since the baseline and not tested here (key-gated-missing-server-param: getPrice)'
        )
    })

    it('unchanged (same hash), or checked without a baseline: reported, not unverified (as before)', () => {
        expect(rowOf(schema(keyGated, 'h1'), gates, baseline(keyGated, 'h1')).verdict).toBe('ok')
        expect(rowOf(schema(keyGated, 'h1'), gates, null).verdict).toBe('ok')
        expect(rowOf(schema(keyGated, 'h1'), { ...gates, everySchemaNew: true }, null).verdict).toBe('unverified')
    })

    it('property: only environment reasons make a new schema unverified, and a baseline blocked for the same reasons never does', () => {
        const tools = ['a', 'b', 'c']
        const reason = fc.constantFrom(...ENVIRONMENT_BLOCKED_REASONS, ...CONTENT_BLOCKED_REASONS)
        fc.assert(
            fc.property(fc.array(reason, { minLength: 1, maxLength: 3 }), (reasons) => {
                const node = blockedNode(Object.fromEntries(reasons.map((r, i) => [tools[i] as string, r])))
                const env = reasons.some((r) => (ENVIRONMENT_BLOCKED_REASONS as readonly string[]).includes(r))
                expect(rowOf(schema(node, 'h2'), gates, new Map()).verdict === 'unverified').toBe(env)
                expect(rowOf(schema(node, 'h2'), gates, baseline(node, 'h1')).s.unverified).toBeNull()
            })
        )
    })
})
