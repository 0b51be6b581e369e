import { describe, expect, it } from 'vitest'
import { NODE_STATUSES } from '../../src/catalogue.js'
import { makeEntry } from '../island/support.js'
import { baseNamespace, grading, gradingPath, NS_DIR, PRICES_HASH, PRICES_TS, rebuildNs } from './support.js'

const tool = async (files: Record<string, string>, previousIndex?: unknown) => {
    const all = {
        ...baseNamespace(),
        ...files,
        ...(previousIndex !== undefined ? { [`${NS_DIR}/index.json`]: JSON.stringify(previousIndex) } : {})
    }
    const { index, errors } = await rebuildNs(all)
    return { node: index.schemas.prices?.tools.getFirstPrice, index, errors }
}

describe('leaf node derivation (03 §6.1, first match wins)', () => {
    it('rule 1: an entry carrying a veto makes the node rejected with grade REJECTED', async () => {
        const { node, index } = await tool({
            ...grading('tool', '2026-05-31T10:00:00Z', { grade: 'B' }),
            ...grading('tool', '2026-05-31T11:00:00Z', { veto: true })
        })
        expect(node).toMatchObject({
            status: 'rejected',
            grade: 'REJECTED',
            ref: 'prices/tools/getFirstPrice/_gradings/single-test--2026-05-31T11-00-00Z.json',
            veto: { triggeredBy: 'api-key-domain-mismatch' }
        })
        expect(index.blockers).toContainEqual({
            node: 'schemas.prices.tools.getFirstPrice',
            reason: expect.stringMatching(/^IDX-023: Vetoed \(api-key-domain-mismatch\)/)
        })
    })

    it('rule 1 is terminal: a newer full entry without lineage does not lift the veto (⚠ A11)', async () => {
        const { node } = await tool({
            ...grading('tool', '2026-05-31T10:00:00Z', { veto: true }),
            ...grading('tool', '2026-05-31T11:00:00Z', { grade: 'B' })
        })
        expect(node?.status).toBe('rejected')
    })

    it('lifts a veto only through a newer full entry whose regradingTrigger names it (⚠ A11)', async () => {
        const vetoId = `${PRICES_HASH}--2026-05-31T10-00-00Z`
        const { node } = await tool({
            ...grading('tool', '2026-05-31T10:00:00Z', { veto: true }),
            ...grading('tool', '2026-05-31T11:00:00Z', { grade: 'C', previousGradingId: vetoId })
        })
        expect(node).toMatchObject({ status: 'graded', grade: 'C' })
    })

    it('never lifts a veto through a partial entry (⚠ A11)', async () => {
        const vetoId = `${PRICES_HASH}--2026-05-31T10-00-00Z`
        const partial = makeEntry({
            area: 'single-test',
            mode: 'partial',
            grade: 'C',
            previousGradingId: vetoId,
            timestamp: '2026-05-31T11:00:00Z'
        })
        const { node } = await tool({
            ...grading('tool', '2026-05-31T10:00:00Z', { veto: true }),
            [gradingPath('tool', 'single-test--2026-05-31T11-00-00Z.json')]: JSON.stringify(partial)
        })
        expect(node?.status).toBe('rejected')
    })

    it('keeps a rejection when the veto file is deleted or altered (§6.3: editing or deleting never reverts it)', async () => {
        const first = await tool(grading('tool', '2026-05-31T10:00:00Z', { veto: true }))
        const deleted = await tool({}, first.index)
        expect(deleted.node).toMatchObject({ status: 'rejected', grade: 'REJECTED', veto: first.node?.veto })
        expect(deleted.node?.reason).toMatch(/^IDX-026: /)
        const edited = await tool(grading('tool', '2026-05-31T10:00:00Z', { grade: 'B' }), first.index)
        expect(edited.node?.status).toBe('rejected')
    })

    it('rule 2: an unparseable grading file blocks the node with a coded reason (⚠ C13)', async () => {
        const { node, index } = await tool({
            ...grading('tool', '2026-05-31T10:00:00Z'),
            [gradingPath('tool', 'single-test--2026-05-31T11-00-00Z.json')]: '{ not json'
        })
        expect(node?.status).toBe('blocked')
        expect(node?.reason).toMatch(
            /^IDX-004: Grading entry not parseable: prices\/tools\/getFirstPrice\/_gradings\/single-test--2026-05-31T11-00-00Z.json/
        )
        expect(index.blockers.map((b) => b.node)).toEqual(['schemas.prices.tools.getFirstPrice'])
    })

    it('rule 2: an entry that fails validateGradingEntry blocks the node (a provider A is invalid, ⚠ C15)', async () => {
        const bad = { ...makeEntry({ area: 'single-test', timestamp: '2026-05-31T10:00:00Z' }), aggregateGrade: 'A' }
        const { node } = await tool({
            [gradingPath('tool', 'single-test--2026-05-31T10-00-00Z.json')]: JSON.stringify(bad)
        })
        expect(node).toMatchObject({ status: 'blocked', reason: expect.stringMatching(/^IDX-012: .*GRD-013/) })
    })

    it('rule 2: an older entry that breaks the entry schema blocks the node, even under a newer valid one', async () => {
        const broken = { ...makeEntry({ area: 'single-test', timestamp: '2026-05-30T10:00:00Z' }), gradings: [] }
        const { node } = await tool({
            [gradingPath('tool', 'single-test--2026-05-30T10-00-00Z.json')]: JSON.stringify(broken),
            ...grading('tool', '2026-05-31T10:00:00Z')
        })
        expect(node?.reason).toMatch(/^IDX-012: .*GRD-023/)
    })

    it('treats an older entry that breaks only a semantic rule as audit trail: the newest full entry decides', async () => {
        const stale = {
            ...makeEntry({ area: 'single-test', timestamp: '2026-05-30T10:00:00Z', grade: 'C' }),
            aggregateGrade: 'D'
        }
        const { node } = await tool({
            [gradingPath('tool', 'single-test--2026-05-30T10-00-00Z.json')]: JSON.stringify(stale),
            ...grading('tool', '2026-05-31T10:00:00Z')
        })
        expect(node).toMatchObject({ status: 'stable', grade: 'B' })
        const newestBroken = await tool({
            ...grading('tool', '2026-05-30T10:00:00Z'),
            [gradingPath('tool', 'single-test--2026-05-31T10-00-00Z.json')]: JSON.stringify({
                ...stale,
                gradingId: '93baef35--2026-05-31T10-00-00Z'
            })
        })
        expect(newestBroken.node?.reason).toMatch(/^IDX-012: .*GRD-014/)
    })

    it('rule 2: an entry whose area disagrees with its file name blocks the node', async () => {
        const entry = makeEntry({ area: 'tools-aggregate-schema', timestamp: '2026-05-31T10:00:00Z' })
        const { node } = await tool({
            [gradingPath('tool', 'single-test--2026-05-31T10-00-00Z.json')]: JSON.stringify(entry)
        })
        expect(node?.reason).toMatch(/^IDX-010: /)
    })

    it.each([
        { working: 2, status: 'blocked' },
        { working: 3, status: 'stable' }
    ])('rule 2: $working working tests in summary.json ⇒ $status (spec bar 3, ⚠ B4)', async ({ working, status }) => {
        const summary = {
            [`${NS_DIR}/prices/summary.json`]: JSON.stringify({ perTool: { getFirstPrice: { working, total: 4 } } })
        }
        const { node } = await tool({ ...summary, ...grading('tool', '2026-05-31T10:00:00Z', { grade: 'B' }) })
        expect(node?.status).toBe(status)
        if (status === 'blocked')
            expect(node?.reason).toBe('IDX-013: Fewer than 3 working tests for tool getFirstPrice (2 found)')
    })

    it('rule 3: a node without any full entry is pending "no full grading"', async () => {
        const { node, index } = await tool({})
        expect(node).toEqual({ status: 'pending', reason: 'no full grading' })
        expect(index.blockers).toEqual([])
    })

    it('a partial entry keeps the last full status (ch. 06)', async () => {
        const partial = makeEntry({
            area: 'single-test',
            mode: 'partial',
            grade: 'C',
            timestamp: '2026-05-31T11:00:00Z'
        })
        const { node } = await tool({
            ...grading('tool', '2026-05-31T10:00:00Z', { grade: 'C' }),
            [gradingPath('tool', 'single-test--2026-05-31T11-00-00Z.json')]: JSON.stringify(partial)
        })
        expect(node).toMatchObject({
            status: 'graded',
            grade: 'C',
            ref: 'prices/tools/getFirstPrice/_gradings/single-test--2026-05-31T10-00-00Z.json'
        })
    })

    it('rule 4: a grading bound to another schema hash is pending "content changed, regrade required"', async () => {
        const { node } = await tool(grading('tool', '2026-05-31T10:00:00Z', { schemaHash: 'deadbeef' }))
        expect(node).toMatchObject({ status: 'pending', reason: 'content changed, regrade required' })
    })

    it('rule 4: a snapshot newer than the grading makes a time-bound node pending', async () => {
        const files = {
            ...grading('skill', '2026-05-31T10:00:00Z', { skillId: 'summarizePrices' }),
            [`${NS_DIR}/prices/skills/summarizePrices/summarizePrices--2026-06-01T00-00-00Z--6b6b6b6b.mjs`]: 'changed'
        }
        const { index } = await rebuildNs({ ...baseNamespace(), ...files })
        expect(index.skills['prices.summarizePrices']).toMatchObject({
            status: 'pending',
            reason: 'content changed, regrade required'
        })
    })

    it.each([
        { grade: 'B' as const, status: 'stable' },
        { grade: 'C' as const, status: 'graded' },
        { grade: 'D' as const, status: 'graded' },
        { grade: 'F' as const, status: 'graded' }
    ])('rules 5/6: newest full grade $grade ⇒ $status', async ({ grade, status }) => {
        const { node } = await tool(grading('tool', '2026-05-31T10:00:00Z', { grade }))
        expect(node).toMatchObject({ status, grade, boundTo: PRICES_HASH })
    })

    it('stores the untrimmed band as rawGrade on the node (⚠ A7)', async () => {
        // Every answer 4.5: the mean bands to A and is trimmed to B.
        const entry = makeEntry({ area: 'single-test', timestamp: '2026-05-31T10:00:00Z' }) as {
            gradings: Array<{ score: number }>
        }
        for (const g of entry.gradings) g.score = 4.5
        const { node } = await tool({
            [gradingPath('tool', 'single-test--2026-05-31T10-00-00Z.json')]: JSON.stringify(entry)
        })
        expect(node).toMatchObject({ status: 'stable', grade: 'B', rawGrade: 'A', normalizedScore: 4.5 })
    })

    it('reads the newest entry per node by its file-name timestamp, across persona variants (⚠ C7)', async () => {
        const files = {
            ...grading('about', '2026-06-01T10:00:00Z', { lens: 'a-lens', grade: 'C' }),
            ...grading('about', '2026-05-01T10:00:00Z', { lens: 'z-lens', grade: 'B' })
        }
        const { index } = await rebuildNs({ ...baseNamespace(), ...files })
        expect(index.about).toMatchObject({ status: 'graded', grade: 'C', boundTo: 'abcdef01' })
    })

    it('reports files in the wrong folder and ignores them (IDX-010)', async () => {
        const stray = {
            [`${NS_DIR}/_gradings/single-test--2026-05-31T10-00-00Z.json`]: JSON.stringify(
                makeEntry({ area: 'single-test' })
            ),
            [`${NS_DIR}/_gradings/notes.txt`]: 'x'
        }
        const { index, errors } = await rebuildNs({ ...baseNamespace(), ...stray })
        expect(errors.filter((e) => e.code === 'IDX-010').map((e) => e.message)).toEqual([
            'Grading file in the wrong place: _gradings/notes.txt (not a grading file name)',
            'Grading file in the wrong place: _gradings/single-test--2026-05-31T10-00-00Z.json (single-test gradings do not belong in this folder)'
        ])
        expect(index.namespaceAggregate.status).toBe('pending')
    })

    it('never gives a node a rollup status', async () => {
        const { index } = await tool({
            ...grading('tool', '2026-05-31T10:00:00Z', { veto: true }),
            ...grading('aggregate', '2026-05-31T10:00:00Z')
        })
        const nodes = [
            index.about,
            index.description,
            index.namespaceAggregate,
            ...Object.values(index.skills),
            ...Object.values(index.schemas).flatMap((s) => [s, s.toolsAggregate, ...Object.values(s.tools)])
        ]
        for (const n of nodes) expect(NODE_STATUSES).toContain(n.status)
    })
})

describe('units follow the tree (docs/island.md, "Removed nodes")', () => {
    const summary = (extra: Record<string, unknown>): Record<string, string> => ({
        [`${NS_DIR}/prices/summary.json`]: JSON.stringify({ namespace: 'defillama', schema: 'prices', ...extra })
    })

    it('a tool folder the current content no longer has (summary.json of the newest hash) is history, not a node', async () => {
        const { index } = await tool(summary({ schemaHash: PRICES_HASH, tools: ['getFirstPrice'] }))
        expect(Object.keys(index.schemas.prices?.tools ?? {})).toEqual(['getFirstPrice'])
        expect(index.summary.tools).toBe(1)
        // Every tool folder counts when the summary is of other content, or names no tools (an older library's).
        const other = await tool(summary({ schemaHash: 'ffffffff', tools: ['getFirstPrice'] }))
        expect(Object.keys(other.index.schemas.prices?.tools ?? {})).toEqual(['getFirstPrice', 'getLastPrice'])
        const older = await tool(summary({ schemaHash: PRICES_HASH }))
        expect(Object.keys(older.index.schemas.prices?.tools ?? {})).toEqual(['getFirstPrice', 'getLastPrice'])
    })

    it('a schema whose summary.json says removedAt counts nowhere: no node, no tools, named in summary.removed', async () => {
        const { index } = await tool({
            ...summary({ schemaHash: PRICES_HASH, removedAt: '2026-05-31T12:00:00Z' }),
            [`${NS_DIR}/coins/schema/coins--${PRICES_TS}--0000000c.mjs`]: 'export const main = {}\n'
        })
        expect(Object.keys(index.schemas)).toEqual(['coins'])
        expect(index.summary).toMatchObject({ schemas: 1, tools: 0, removed: ['prices'] })
        expect(JSON.stringify(index.blockers)).not.toContain('prices')
        // A removedAt that is not a string marks nothing.
        const kept = await tool(summary({ schemaHash: PRICES_HASH, removedAt: true }))
        expect(Object.keys(kept.index.schemas)).toEqual(['prices'])
        expect(kept.index.summary.removed).toBeUndefined()
    })
})

describe('the namespace aggregate rests on every schema (02-areas §3.1)', () => {
    it('IDX-031: with a schema blocked, an older grade of the namespace aggregate is not current (pending), as in a clean grade', async () => {
        const graded = grading('namespace', '2026-05-31T10:00:00Z', { grade: 'B' })
        const free = await tool(graded)
        expect(free.index.namespaceAggregate).toMatchObject({ status: 'stable', grade: 'B' })
        const blockedTool = {
            [`${NS_DIR}/prices/summary.json`]: JSON.stringify({
                schemaHash: PRICES_HASH,
                perTool: { getFirstPrice: { blocked: true, reason: 'key-gated-missing-server-param', detail: 'set X' } }
            })
        }
        const { index, errors } = await tool({ ...graded, ...blockedTool })
        expect(index.schemas.prices?.status).toBe('blocked')
        expect(index.namespaceAggregate).toEqual({
            status: 'pending',
            reason: expect.stringMatching(
                /^IDX-031: Not current: the namespace aggregate rests on every schema, and prices is blocked/
            )
        })
        expect(errors.map((e: { code: string }) => e.code)).toContain('IDX-031')
        // Without any entry it stays as it was: pending, never graded.
        const none = await tool(blockedTool)
        expect(none.index.namespaceAggregate).toMatchObject({ status: 'pending', reason: 'no full grading' })
    })
})
