import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMemoryFs, Island, RebuildIndex } from '../../src/index.js'
import { baseNamespace, grading, NS_DIR } from './support.js'

type Node = 'tool' | 'aggregate' | 'namespace' | 'about' | 'skill'
const node = fc.constantFrom<Node>('tool', 'aggregate', 'namespace', 'about', 'skill')
const gradingArb = fc.record({
    node,
    tool: fc.constantFrom('getFirstPrice', 'getLastPrice'),
    day: fc.integer({ min: 1, max: 28 }),
    grade: fc.constantFrom('B' as const, 'C' as const, 'D' as const, 'F' as const),
    veto: fc.boolean(),
    mode: fc.constantFrom('full' as const, 'full' as const, 'partial' as const),
    stale: fc.boolean(),
    broken: fc.integer({ min: 0, max: 9 })
})

/** A random namespace island: gradings on every kind of node, some vetoed, partial, outdated or broken. */
const islandArb = fc.array(gradingArb, { maxLength: 14 }).map((list) => {
    const files: Record<string, string> = baseNamespace()
    for (const g of list) {
        const ts = `2026-05-${String(g.day).padStart(2, '0')}T10:00:00Z`
        const one = grading(
            g.node,
            ts,
            {
                grade: g.grade,
                veto: g.veto && g.node === 'tool',
                mode: g.veto ? 'full' : g.mode,
                ...(g.stale ? { schemaHash: 'deadbeef' } : {})
            },
            g.tool
        )
        const [path, text] = Object.entries(one)[0] as [string, string]
        files[path] = g.broken === 0 ? text.slice(0, 40) : text
    }
    return files
})

const NOW = '2026-06-01T00:00:00Z'

describe('rebuild properties', () => {
    it('rebuilding twice gives byte-identical output', async () => {
        await fc.assert(
            fc.asyncProperty(islandArb, async (files) => {
                const fs = createMemoryFs(files)
                const a = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
                const first = await fs.readFile(`${NS_DIR}/index.json`)
                const b = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
                expect(a.status && b.status).toBe(true)
                expect(b.written).toBe(false)
                expect(await fs.readFile(`${NS_DIR}/index.json`)).toBe(first)
                expect(RebuildIndex.validateIndex({ index: JSON.parse(first as string) })).toEqual({
                    valid: true,
                    errors: []
                })
            }),
            { numRuns: 40 }
        )
    })

    it('rebuilding after deleting index.json reproduces it, except the lockSnapshot, which only the previous index holds', async () => {
        await fc.assert(
            fc.asyncProperty(islandArb, async (files) => {
                const fs = createMemoryFs(files)
                await Island.startGradingRun({ fs, root: '/island', target: { namespace: 'defillama' }, now: NOW })
                const withLock = JSON.parse((await fs.readFile(`${NS_DIR}/index.json`)) as string) as Record<
                    string,
                    unknown
                >
                await fs.rm(`${NS_DIR}/index.json`)
                await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: NOW })
                const rebuilt = JSON.parse((await fs.readFile(`${NS_DIR}/index.json`)) as string) as Record<
                    string,
                    unknown
                >
                const { lockSnapshot, ...live } = withLock
                expect(lockSnapshot).toBeDefined()
                expect(rebuilt).toEqual(live)
            }),
            { numRuns: 25 }
        )
    })

    it('keeps the frozen lockSnapshot byte for byte through every rebuild, while the live part changes', async () => {
        await fc.assert(
            fc.asyncProperty(islandArb, islandArb, async (before, after) => {
                const fs = createMemoryFs(before)
                await Island.startGradingRun({ fs, root: '/island', target: { namespace: 'defillama' }, now: NOW })
                const text = (await fs.readFile(`${NS_DIR}/index.json`)) as string
                const frozen = text.slice(text.indexOf('"lockSnapshot"'))
                for (const [path, content] of Object.entries(after))
                    if ((await fs.readFile(path)) === null)
                        await fs.writeFile(path, content).catch(async () => {
                            await fs.mkdir(path.slice(0, path.lastIndexOf('/')))
                            await fs.writeFile(path, content)
                        })
                await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now: '2026-06-02T00:00:00Z' })
                const next = (await fs.readFile(`${NS_DIR}/index.json`)) as string
                expect(next.slice(next.indexOf('"lockSnapshot"'))).toBe(frozen)
            }),
            { numRuns: 20 }
        )
    })

    it('reuses the original bytes of a lockSnapshot written by another tool (⚠ C16)', () => {
        const lockArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), {
            maxKeys: 5
        })
        fc.assert(
            fc.property(lockArb, fc.integer({ min: 0, max: 8 }), (lock, indent) => {
                const previousText = JSON.stringify(
                    { indexVersion: 2, namespace: 'x', lockSnapshot: lock },
                    null,
                    indent
                )
                const index = {
                    indexVersion: 2,
                    namespace: 'x',
                    updatedAt: '2026-06-01T00-00-00Z',
                    status: 'pending',
                    lockSnapshot: JSON.parse(JSON.stringify(lock)) as unknown
                }
                const { text } = RebuildIndex.serializeIndex({ index, previousText })
                const raw = JSON.stringify(lock, null, indent).replace(
                    /\n/g,
                    indent === 0 ? '\n' : `\n${' '.repeat(indent)}`
                )
                expect(text).toContain(`"lockSnapshot": ${raw}`)
                expect(JSON.parse(text).lockSnapshot).toEqual(JSON.parse(JSON.stringify(lock)))
            })
        )
    })
})
