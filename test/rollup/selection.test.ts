import { describe, expect, it } from 'vitest'
import { RebuildIndex } from '../../src/index.js'
import { displayScore } from '../../src/rollup/nodes.js'
import { entryText } from '../island/support.js'
import { baseNamespace, gradedSchema, grading, NOW, PRICES_HASH, PRICES_TS, rebuildSel, ROOT } from './support.js'

const SEL = `${ROOT}/selections/defi-core`
const DEF = `${SEL}/selection/defi-core--2026-05-30T09-00-00Z--ef67ab12.json`

function selection(members: unknown[], extra: Record<string, string> = {}): Record<string, string> {
    return {
        ...baseNamespace(),
        [DEF]: JSON.stringify({
            selectionId: 'defi-core',
            namespace: 'defi',
            name: 'DeFi core',
            version: 'flowmcp/4.0.0',
            members
        }),
        [`${SEL}/resources/about/defi-core-about--2026-05-30T09-00-00Z--1234abcd.md`]: '# DeFi core\n',
        ...extra
    }
}

/** The prices provider (imported, aggregate graded B) copied into `count` namespaces: defillama, ns2, ns3, … */
function providers(count: number): { files: Record<string, string>; members: string[] } {
    const one = { ...baseNamespace(), ...gradedSchema('2026-05-31T10:00:00Z') }
    const files: Record<string, string> = {}
    const members: string[] = []
    for (let i = 1; i <= count; i += 1) {
        const ns = i === 1 ? 'defillama' : `ns${i}`
        members.push(`${ns}.prices`)
        for (const [path, text] of Object.entries(one))
            files[path.replace('/providers/defillama/', `/providers/${ns}/`)] = text
    }
    return { files, members }
}

/** A selection of `count` namespaces with a graded About, aggregate and one L1 skill, all at A. */
function gradedSelection(count: number, extra: Record<string, string> = {}): Record<string, string> {
    const { files, members } = providers(count)
    return {
        ...selection(members, {
            ...files,
            ...selGrading('_gradings', 'selection-aggregate', '2026-05-31T11:00:00Z'),
            ...selGrading('resources/about/_gradings', 'about-selection', '2026-05-31T11:00:00Z'),
            [`${SEL}/skills/start-here/start-here--2026-05-30T09-00-00Z--77777777.mjs`]: 'x',
            ...selGrading('skills/start-here/_gradings', 'selection-skills-L1', '2026-05-31T11:00:00Z', {
                skillId: 'start-here'
            })
        }),
        ...extra
    }
}

const selGrading = (
    folder: string,
    area: string,
    ts: string,
    options: Record<string, unknown> = {}
): Record<string, string> => {
    const persona = '--decision-maker--crypto'
    return {
        [`${SEL}/${folder}/${area}${persona}--${ts.replace(/:/g, '-')}.json`]: entryText({
            area,
            schemaId: 'defi.defi-core',
            grade: 'A',
            timestamp: ts,
            aboutHash: '1234abcd',
            ...options
        })
    }
}

describe('member-resolution manifest (03 §8)', () => {
    it('resolves each member to its provider snapshot, status and grade, relative to providers/', async () => {
        const { index } = await rebuildSel(
            selection([{ schemaId: 'defillama.prices' }], gradedSchema('2026-05-31T10:00:00Z'))
        )
        expect(index?.members['defillama.prices']).toEqual({
            status: 'stable',
            grade: 'B',
            rawGrade: 'B',
            ref: 'defillama/prices/_gradings/tools-aggregate-schema--2026-05-31T10-00-00Z.json',
            resolvedArtifact: `defillama/prices/schema/prices--${PRICES_TS}--${PRICES_HASH}.mjs`,
            snapshot: { file: `prices--${PRICES_TS}--${PRICES_HASH}.mjs`, hash: PRICES_HASH }
        })
    })

    it('marks a member that is not imported pending with resolvedArtifact null and a blocker', async () => {
        const { index } = await rebuildSel(selection([{ schemaId: 'binance.ticker' }]))
        expect(index?.members['binance.ticker']).toEqual({
            status: 'pending',
            reason: 'selection member, not imported',
            resolvedArtifact: null
        })
        expect(index?.blockers).toContainEqual({
            node: 'members.binance.ticker',
            reason: 'IDX-015: Selection member not imported: binance.ticker'
        })
    })

    it('blocks a malformed schemaId and counts a duplicate once', async () => {
        const { index, errors } = await rebuildSel(
            selection(['defillama.prices', 'defillama.prices', 'no-dot', 'a.b.c'])
        )
        expect(Object.keys(index?.members ?? {})).toEqual(['defillama.prices', 'no-dot', 'a.b.c'])
        expect(index?.members['no-dot']).toMatchObject({
            status: 'blocked',
            reason: 'IDX-016: Malformed schemaId no-dot (expected <namespace>.<schema>)',
            resolvedArtifact: null
        })
        expect(errors.map((e) => e.code)).toContain('IDX-025')
    })

    it('lists a blocked member in blockers with the provider-side reason', async () => {
        const { index } = await rebuildSel(
            selection(['defillama.prices'], grading('tool', '2026-05-31T10:00:00Z', { veto: true }))
        )
        expect(index?.members['defillama.prices']?.status).toBe('rejected')
        expect(index?.status).toBe('rejected')
        expect(index?.blockers.find((b) => b.node === 'members.defillama.prices')?.reason).toMatch(/^IDX-023: /)
    })
})

describe('selection index', () => {
    it('takes its grade from selection-aggregate only, so group-bound A is reachable (⚠ C15)', async () => {
        const { index } = await rebuildSel(gradedSelection(7))
        expect(index).toMatchObject({ status: 'operational', grade: 'A' })
        expect(index?.selectionAggregate).toMatchObject({ status: 'stable', grade: 'A', boundTo: 'ef67ab12' })
        expect(index?.about).toMatchObject({ status: 'stable', grade: 'A', boundTo: '1234abcd' })
        expect(index?.skills['start-here']).toMatchObject({ status: 'stable', level: 'L1' })
        expect(index?.summary).toEqual({
            members: 7,
            membersStable: 7,
            memberNamespaces: 7,
            about: 'stable',
            skills: 1,
            scoringSystem: ['scoringSystem/1.0.0'],
            gradingSystem: ['gradingSystem/1.0.0']
        })
        expect(Object.keys(index ?? {})).toEqual([
            'indexVersion',
            'selectionId',
            'updatedAt',
            'status',
            'grade',
            'summary',
            'about',
            'skills',
            'selectionAggregate',
            'members',
            'blockers'
        ])
    })

    it('caps every selection-side node of a 5–6 namespace selection at B, keeping rawGrade A (01 §4 step 8)', async () => {
        for (const count of [5, 6]) {
            const { index } = await rebuildSel(gradedSelection(count))
            const reason = `selection-size: ${count} member namespaces (< 7), no A`
            for (const node of [index?.about, index?.skills['start-here'], index?.selectionAggregate]) {
                expect(node).toMatchObject({
                    status: 'stable',
                    grade: 'B',
                    rawGrade: 'A',
                    capped: { from: 'A', to: 'B', reason }
                })
            }
            expect(index?.grade).toBe('B')
        }
    })

    it('gives no A without the selection About, with the reason on the node (02 §8 Domain-Knowledge)', async () => {
        const files = gradedSelection(7)
        delete files[`${SEL}/resources/about/defi-core-about--2026-05-30T09-00-00Z--1234abcd.md`]
        const { index } = await rebuildSel(files)
        expect(index?.selectionAggregate).toMatchObject({
            grade: 'B',
            rawGrade: 'A',
            capped: { reason: 'no Domain-Knowledge content (selection About): no A (02-areas §8)' }
        })
        expect(index?.skills['start-here']).toMatchObject({ grade: 'B' })
        expect(index?.grade).toBe('B')
    })

    it('blocks selectionAggregate below five namespaces with the spec reason and no grade (⚠ B10)', async () => {
        const { index } = await rebuildSel(gradedSelection(4))
        expect(index?.selectionAggregate).toEqual({ status: 'blocked', reason: 'below-soft-threshold (<5 namespaces)' })
        expect(index?.grade).toBeUndefined()
        expect(index?.blockers).toContainEqual({
            node: 'selectionAggregate',
            reason: 'SEL-016: Selection has 4 member namespaces, fewer than 5: no selection areas and no selection grade'
        })
        expect(RebuildIndex.validateIndex({ index }).valid).toBe(true)
    })

    it('shows normalizedScore rounded to two decimals without float noise and never onto a band it missed (01 §4 ⚠ A5)', () => {
        expect([5.000000000000001, 4.333333333333333, 4.4999, 3.4951, 2.125, 1].map((x) => displayScore(x))).toEqual([
            5, 4.33, 4.49, 3.49, 2.13, 1
        ])
    })

    it('has no grade while the selection aggregate is not graded', async () => {
        const { index } = await rebuildSel(selection(['defillama.prices'], gradedSchema('2026-05-31T10:00:00Z')))
        expect(index?.grade).toBeUndefined()
        expect(index?.status).toBe('partial')
    })

    it('makes the selection aggregate pending when the definition changed after grading', async () => {
        const { members } = providers(5)
        const files = gradedSelection(5, {
            [`${SEL}/selection/defi-core--2026-06-01T00-00-00Z--0000abcd.json`]: JSON.stringify({
                selectionId: 'defi-core',
                members
            })
        })
        const { index } = await rebuildSel(files)
        expect(index?.selectionAggregate).toMatchObject({
            status: 'pending',
            reason: 'content changed, regrade required'
        })
    })

    it('copies the previous lockSnapshot unchanged and never creates one on its own', async () => {
        const lock = {
            selectionId: 'defi-core',
            selectionVersion: '2026-05-30T09-00-00Z',
            selectionHash: 'ef67ab12',
            generatedAt: '2026-05-30T10-00-00Z',
            members: [
                {
                    schemaId: 'defillama.prices',
                    schemaVersion: PRICES_TS,
                    schemaHash: PRICES_HASH,
                    gradingStatus: 'stable',
                    override: null
                }
            ]
        }
        const fresh = await rebuildSel(selection(['defillama.prices']))
        expect(fresh.index?.lockSnapshot).toBeUndefined()
        const previous = {
            indexVersion: 2,
            selectionId: 'defi-core',
            updatedAt: '2026-05-30T10-00-00Z',
            status: 'pending',
            lockSnapshot: lock
        }
        const carried = await rebuildSel(
            selection(['defillama.prices'], { [`${SEL}/index.json`]: JSON.stringify(previous) })
        )
        expect(carried.index?.lockSnapshot).toEqual(lock)
    })

    it.each([
        { name: 'no selection definition', files: baseNamespace(), code: 'IDX-024' },
        { name: 'an unparseable definition', files: { [DEF]: '{' }, code: 'IDX-024' },
        { name: 'a definition without members[]', files: { [DEF]: '{"selectionId":"defi-core"}' }, code: 'IDX-024' }
    ])('fails for $name with $code and writes nothing', async ({ files, code }) => {
        const { index, errors, fs } = await rebuildSel({ ...files, [`${SEL}/_gradings/.keep`]: '' })
        expect(index).toBeNull()
        expect(errors[0]?.code).toBe(code)
        expect(await fs.readFile(`${SEL}/index.json`)).toBeNull()
    })

    it('builds from an in-memory listing without any port (pure core)', () => {
        const { index } = RebuildIndex.buildSelectionIndex({
            listing: {
                selectionId: 'defi-core',
                definitionSnapshots: [],
                definition: { members: ['x.y'] },
                gradings: [],
                about: { snapshots: [], gradings: [] },
                skills: [],
                providers: [{ schemaId: 'x.y', schema: null }]
            },
            now: NOW
        })
        expect(index?.members['x.y']?.status).toBe('pending')
    })
})

describe('RebuildIndex.buildSelectionIndex and buildLockSnapshot arguments', () => {
    it.each([
        { input: { now: NOW }, code: 'IDX-001' },
        { input: { listing: 'x', now: NOW }, code: 'IDX-002' },
        { input: { listing: { selectionId: 'Defi Core' }, now: NOW }, code: 'ISL-004' }
    ])('buildSelectionIndex rejects unusable arguments with $code', ({ input, code }) => {
        expect(RebuildIndex.buildSelectionIndex(input)).toMatchObject({ index: null, errors: [{ code }] })
    })

    it('buildLockSnapshot pins a namespace index and rejects a missing index', () => {
        const index = {
            indexVersion: 2,
            namespace: 'defillama',
            schemas: {
                prices: {
                    status: 'stable',
                    snapshot: { file: `prices--${PRICES_TS}--${PRICES_HASH}.mjs`, hash: PRICES_HASH }
                }
            }
        }
        expect(RebuildIndex.buildLockSnapshot({ index, now: NOW }).lockSnapshot).toEqual({
            namespace: 'defillama',
            generatedAt: '2026-05-31T12-30-00Z',
            members: [
                {
                    schemaId: 'defillama.prices',
                    schemaVersion: PRICES_TS,
                    schemaHash: PRICES_HASH,
                    gradingStatus: 'stable',
                    override: null
                }
            ]
        })
        expect(RebuildIndex.buildLockSnapshot({ now: NOW }).errors[0]?.code).toBe('IDX-001')
        expect(
            RebuildIndex.buildLockSnapshot({ index: { selectionId: 'x', members: {} }, now: NOW }).errors[0]?.code
        ).toBe('IDX-002')
    })
})
