import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RebuildIndex, type NamespaceListing, type NodeStatus } from '../../src/index.js'
import { NODE_STATUSES, ROLLUP_STATUSES } from '../../src/catalogue.js'
import { rollupGrade, rollupStatus } from '../../src/rollup/nodes.js'
import { makeEntry } from '../island/support.js'
import { baseNamespace, grading, NS_DIR, rebuildNs } from './support.js'

describe('rollup status (03 §6.3)', () => {
    it.each<{ statuses: NodeStatus[]; expected: string; rule: string }>([
        { rule: '1 any rejected', statuses: ['stable', 'rejected', 'blocked'], expected: 'rejected' },
        { rule: '2 nothing graded, something blocked', statuses: ['pending', 'blocked'], expected: 'blocked' },
        { rule: '3 nothing graded', statuses: ['pending', 'pending'], expected: 'pending' },
        { rule: '4 everything stable', statuses: ['stable', 'stable'], expected: 'operational' },
        { rule: '5 a mix', statuses: ['stable', 'pending'], expected: 'partial' },
        { rule: '5 everything graded C, nothing pending (⚠ C14)', statuses: ['graded', 'graded'], expected: 'partial' }
    ])('rule $rule ⇒ $expected', ({ statuses, expected }) => {
        expect(rollupStatus(statuses)).toBe(expected)
    })

    it('always yields a rollup status, never a node status (property)', () => {
        fc.assert(
            fc.property(fc.array(fc.constantFrom(...NODE_STATUSES), { minLength: 1 }), (statuses) => {
                const s = rollupStatus(statuses)
                expect(ROLLUP_STATUSES).toContain(s)
                expect(['graded', 'stable']).not.toContain(s)
            })
        )
    })
})

describe('rollup grade (⚠ C15)', () => {
    it.each([
        {
            name: 'no grade at all when nothing is graded (the reference says F)',
            nodes: [{ status: 'pending' as const }],
            expected: undefined
        },
        {
            name: 'the worst grade among graded and stable nodes',
            nodes: [
                { status: 'stable' as const, grade: 'B' as const },
                { status: 'graded' as const, grade: 'D' as const },
                { status: 'pending' as const }
            ],
            expected: 'D'
        },
        {
            name: 'REJECTED when any node is rejected',
            nodes: [
                { status: 'stable' as const, grade: 'B' as const },
                { status: 'rejected' as const, grade: 'REJECTED' as const }
            ],
            expected: 'REJECTED'
        }
    ])('is $name', ({ nodes, expected }) => {
        expect(rollupGrade(nodes)).toBe(expected)
    })

    it('omits the grade of a brand-new namespace and counts tool and About grades', async () => {
        const fresh = await rebuildNs(baseNamespace())
        expect(fresh.index.grade).toBeUndefined()
        expect(fresh.index.status).toBe('pending')
        const withTool = await rebuildNs({
            ...baseNamespace(),
            ...grading('tool', '2026-05-31T10:00:00Z', { grade: 'B' }),
            ...grading('about', '2026-05-31T10:00:00Z', { grade: 'D' })
        })
        expect(withTool.index).toMatchObject({ status: 'partial', grade: 'D' })
    })
})

describe('schema node (03 §6.2)', () => {
    const allGraded = (aggregate: 'B' | 'C', first: 'B' | 'D', last: 'B' | 'C'): Record<string, string> => ({
        ...grading('aggregate', '2026-05-31T10:00:00Z', { grade: aggregate }),
        ...grading('tool', '2026-05-31T10:00:00Z', { grade: first }, 'getFirstPrice'),
        ...grading('tool', '2026-05-31T10:00:00Z', { grade: last }, 'getLastPrice')
    })

    it('schema node rule (one standing): the worst grade of its subtree, the tools-aggregate grade kept on toolsAggregate', async () => {
        const { index } = await rebuildNs({ ...baseNamespace(), ...allGraded('B', 'D', 'B') })
        expect(index.schemas.prices).toMatchObject({
            status: 'graded',
            grade: 'D',
            toolsAggregate: { status: 'stable', grade: 'B', boundTo: '93baef35' }
        })
        const stable = await rebuildNs({ ...baseNamespace(), ...allGraded('B', 'B', 'B') })
        expect(stable.index.schemas.prices).toMatchObject({ status: 'stable', grade: 'B' })
        const aggregateWorst = await rebuildNs({ ...baseNamespace(), ...allGraded('C', 'B', 'B') })
        expect(aggregateWorst.index.schemas.prices).toMatchObject({ status: 'graded', grade: 'C' })
    })

    it('schema node rule (one standing): pending with no grade while a tool has no current full grading, naming it', async () => {
        const { index } = await rebuildNs({
            ...baseNamespace(),
            ...grading('aggregate', '2026-05-31T10:00:00Z', { grade: 'C' }),
            ...grading('tool', '2026-05-31T10:00:00Z', { grade: 'B' }, 'getFirstPrice')
        })
        expect(index.schemas.prices).toMatchObject({
            status: 'pending',
            reason: 'no full grading: tool getLastPrice',
            toolsAggregate: { status: 'graded', grade: 'C' }
        })
        expect(index.schemas.prices?.grade).toBeUndefined()
    })

    it('schema node rule (facts live in files): a tool named only by summary.json counts, so an empty folder lost to git changes nothing', async () => {
        const files = { ...baseNamespace(), ...allGraded('B', 'B', 'B') }
        const summary = {
            [`${NS_DIR}/prices/summary.json`]: JSON.stringify({
                ran: true,
                perTool: {
                    getFirstPrice: { working: 3, bar: 3, blocked: false, reason: null },
                    getLastPrice: { working: 3, bar: 3, blocked: false, reason: null },
                    getMidPrice: {
                        working: 0,
                        bar: 3,
                        blocked: true,
                        reason: 'key-gated-missing-server-param',
                        detail: 'set KEY'
                    }
                }
            })
        }
        const { index } = await rebuildNs({ ...files, ...summary })
        expect(index.schemas.prices).toMatchObject({ status: 'blocked', tools: { getMidPrice: { status: 'blocked' } } })
        expect(index.schemas.prices?.grade).toBeUndefined()
    })

    it('is rejected when a tool is rejected', async () => {
        const { index } = await rebuildNs({
            ...baseNamespace(),
            ...grading('aggregate', '2026-05-31T10:00:00Z'),
            ...grading('tool', '2026-05-31T10:00:00Z', { veto: true })
        })
        expect(index.schemas.prices).toMatchObject({ status: 'rejected', grade: 'REJECTED' })
        expect(index).toMatchObject({ status: 'rejected', grade: 'REJECTED' })
    })

    it('is blocked when a tool is blocked, naming the tools', async () => {
        const summary = {
            [`${NS_DIR}/prices/summary.json`]: JSON.stringify({ perTool: { getLastPrice: { working: 1 } } })
        }
        const { index } = await rebuildNs({
            ...baseNamespace(),
            ...summary,
            ...grading('aggregate', '2026-05-31T10:00:00Z')
        })
        expect(index.schemas.prices).toMatchObject({
            status: 'blocked',
            reason: 'IDX-019: One or more tools blocked: getLastPrice'
        })
    })

    it('is pending "not yet imported" without a snapshot, with a blocker', async () => {
        const files = { ...baseNamespace(), [`${NS_DIR}/coins/tools/getCoin/.keep`]: '' }
        const { index } = await rebuildNs(files)
        expect(index.schemas.coins).toMatchObject({ status: 'pending', reason: 'not yet imported' })
        expect(index.blockers).toContainEqual({
            node: 'schemas.coins',
            reason: 'IDX-018: Schema coins not imported: no snapshot in schema/'
        })
    })
})

describe('namespace index fields (03 §7.2, 05 §1.6)', () => {
    it('fills summary, versions and every node the CLI reads', async () => {
        const files = {
            ...baseNamespace(),
            ...grading('tool', '2026-05-31T10:00:00Z'),
            ...grading('aggregate', '2026-05-31T10:00:00Z'),
            ...grading('namespace', '2026-05-31T10:00:00Z', { grade: 'C' }),
            ...grading('skill', '2026-05-31T10:00:00Z')
        }
        const { index } = await rebuildNs(files)
        expect(index.summary).toEqual({
            schemas: 1,
            tools: 2,
            toolsStable: 1,
            about: 'pending',
            description: 'pending',
            skills: 1,
            scoringSystem: ['scoringSystem/1.0.0'],
            gradingSystem: ['gradingSystem/1.0.0']
        })
        expect(index.namespaceAggregate).toMatchObject({
            status: 'graded',
            grade: 'C',
            ref: '_gradings/tools-aggregate-namespace--2026-05-31T10-00-00Z.json'
        })
        expect(index.updatedAt).toBe('2026-05-31T12-30-00Z')
        expect(Object.keys(index)).toEqual([
            'indexVersion',
            'namespace',
            'updatedAt',
            'status',
            'grade',
            'summary',
            'about',
            'description',
            'skills',
            'namespaceAggregate',
            'schemas',
            'blockers'
        ])
    })

    it('flags graded nodes under different grading systems with a mixed-version blocker (⚠ C18)', async () => {
        const files = {
            ...baseNamespace(),
            ...grading('tool', '2026-05-31T10:00:00Z'),
            ...grading('aggregate', '2026-05-31T10:00:00Z', { gradingSystem: 'gradingSystem/1.0.1' })
        }
        const { index } = await rebuildNs(files)
        expect(index.summary.gradingSystem).toEqual(['gradingSystem/1.0.0', 'gradingSystem/1.0.1'])
        expect(index.blockers).toContainEqual({ node: 'summary', reason: expect.stringMatching(/^IDX-017: /) })
    })

    it('blocks the About when no schema holds an About snapshot (02-areas §2.6)', async () => {
        const files = baseNamespace()
        delete files[Object.keys(files).find((f) => f.includes('/resources/about/')) as string]
        const { index } = await rebuildNs(files)
        expect(index.about).toMatchObject({ status: 'blocked', reason: expect.stringMatching(/^IDX-014: No About/) })
        expect(index.status).toBe('blocked')
    })

    it('gives every blocker a reason that starts with its code', async () => {
        const files = {
            ...baseNamespace(),
            ...grading('tool', '2026-05-31T10:00:00Z', { veto: true }),
            [`${NS_DIR}/coins/tools/x/.keep`]: '',
            [`${NS_DIR}/_gradings/namespace-description--2026-05-31T10-00-00Z.json`]: '[]'
        }
        const { index } = await rebuildNs(files)
        expect(index.blockers.length).toBeGreaterThanOrEqual(3)
        for (const b of index.blockers) expect(b.reason).toMatch(/^[A-Z]{2,3}-\d{3}: /)
    })
})

describe('RebuildIndex.buildNamespaceIndex (pure core)', () => {
    const listing: NamespaceListing = {
        namespace: 'defillama',
        gradings: [],
        schemas: [
            {
                name: 'prices',
                snapshots: ['prices--2026-05-30T19-44-23Z--93baef35.mjs'],
                gradings: [
                    {
                        name: 'tools-aggregate-schema--2026-05-31T10-00-00Z.json',
                        entry: makeEntry({ area: 'tools-aggregate-schema', timestamp: '2026-05-31T10:00:00Z' })
                    }
                ],
                about: { snapshots: [], gradings: [] },
                skills: [],
                tools: [{ name: 'getFirstPrice', gradings: [] }]
            }
        ]
    }

    it('computes the index from an in-memory listing, without any port', () => {
        const { index, errors } = RebuildIndex.buildNamespaceIndex({ listing, now: '2026-05-31T12:30:00Z' })
        expect(index?.schemas.prices?.toolsAggregate).toMatchObject({ status: 'stable', grade: 'B' })
        expect(errors.map((e) => e.code)).toEqual(['IDX-014'])
    })

    it('does not depend on the order of the listing (property)', () => {
        const shuffled = fc.array(fc.nat(), { minLength: 3, maxLength: 3 })
        const schemas = ['alpha', 'beta', 'gamma'].map((name) => ({
            ...(listing.schemas[0] as NamespaceListing['schemas'][0]),
            name,
            snapshots: [`${name}--2026-05-30T19-44-23Z--93baef35.mjs`]
        }))
        const base = RebuildIndex.buildNamespaceIndex({ listing: { ...listing, schemas }, now: '2026-05-31T12:30:00Z' })
        fc.assert(
            fc.property(shuffled, (keys) => {
                const order = schemas
                    .map((s, i) => ({ s, k: keys[i] as number }))
                    .sort((a, b) => a.k - b.k)
                    .map((x) => x.s)
                const res = RebuildIndex.buildNamespaceIndex({
                    listing: { ...listing, schemas: order },
                    now: '2026-05-31T12:30:00Z'
                })
                expect(RebuildIndex.serializeIndex({ index: res.index as object }).text).toBe(
                    RebuildIndex.serializeIndex({ index: base.index as object }).text
                )
            })
        )
    })

    it.each([
        { input: { now: '2026-05-31T12:30:00Z' }, code: 'IDX-001' },
        { input: { listing: [], now: '2026-05-31T12:30:00Z' }, code: 'IDX-002' },
        {
            input: { listing: { namespace: 'Bad Name', schemas: [], gradings: [] }, now: '2026-05-31T12:30:00Z' },
            code: 'ISL-004'
        },
        { input: { listing: { namespace: 'x', schemas: [], gradings: [] }, now: 'noon' }, code: 'IDX-002' }
    ])('rejects unusable arguments with $code', ({ input, code }) => {
        const res = RebuildIndex.buildNamespaceIndex(input)
        expect(res.index).toBeNull()
        expect(res.errors[0]?.code).toBe(code)
    })
})

describe('RebuildIndex.digestGradingFile', () => {
    it('verifies an entry and computes its rawGrade and normalizedScore (⚠ A7)', () => {
        const facts = RebuildIndex.digestGradingFile({
            name: 'single-test--2026-05-31T10-00-00Z.json',
            entry: makeEntry({ area: 'single-test', timestamp: '2026-05-31T10:00:00Z' })
        })
        expect(facts).toMatchObject({
            verified: true,
            problem: null,
            area: 'single-test',
            gradingMode: 'full',
            aggregateGrade: 'B',
            rawGrade: 'B',
            normalizedScore: 4
        })
    })

    it('returns null for a name outside the grammar and a coded problem for a broken entry', () => {
        expect(RebuildIndex.digestGradingFile({ name: 'notes.json', entry: {} })).toBeNull()
        expect(
            RebuildIndex.digestGradingFile(
                { name: 'single-test--2026-05-31T10-00-00Z.json', entry: [] },
                'x/single.json'
            )?.problem?.message
        ).toBe('Grading entry invalid: x/single.json (not a JSON object)')
    })

    it('blocks a node whose deciding facts were handed in without verification', () => {
        const facts = RebuildIndex.digestGradingFile({
            name: 'tools-aggregate-schema--2026-05-31T10-00-00Z.json',
            entry: makeEntry({ area: 'tools-aggregate-schema', timestamp: '2026-05-31T10:00:00Z' })
        })
        const listing = {
            namespace: 'defillama',
            gradings: [],
            schemas: [
                {
                    name: 'prices',
                    snapshots: ['prices--2026-05-30T19-44-23Z--93baef35.mjs'],
                    gradings: [{ name: facts?.file as string, facts: { ...facts, verified: false } as never }],
                    about: { snapshots: [], gradings: [] },
                    skills: [],
                    tools: []
                }
            ]
        }
        const { index } = RebuildIndex.buildNamespaceIndex({ listing, now: '2026-05-31T12:30:00Z' })
        expect(index?.schemas.prices?.toolsAggregate.reason).toMatch(/^IDX-012: .*not verified/)
    })
})
