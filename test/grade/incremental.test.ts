// Graded again in place, the island equals a clean grade: reuse keyed on every input, units that follow the tree,
// and a --force that never loses a grade (docs/island.md, "Reuse" and "Removed nodes").
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { markRemovedSchemas } from '../../src/grade/island-state.js'
import { createMemoryFs, gradeNamespace, type FsPort } from '../../src/index.js'
import {
    contentJudge,
    gradeWorld,
    sourceTree,
    standingsOf,
    type SchemaSpec,
    type Variant,
    type World
} from './incremental-world.js'

const at = (minute: number): string => `2026-11-25T10:${String(minute).padStart(2, '0')}:00Z`

const readJson = async (fs: FsPort, path: string): Promise<any> => JSON.parse((await fs.readFile(path)) as string)

const alpha = (tools: ReadonlyArray<[string, Variant]>, comment = 0, file = 'alpha.mjs'): SchemaSpec => ({
    file,
    comment,
    tools: tools.map(([name, variant]) => ({ name, variant }))
})

/** The world graded into `island` at `minute`, and the same world graded into an empty island: their standings. */
async function inPlaceAndClean(
    world: World,
    island: FsPort,
    minute: number,
    force = false
): Promise<{ inPlace: any; clean: any; result: Awaited<ReturnType<typeof gradeWorld>> }> {
    const { judge } = contentJudge()
    const result = await gradeWorld(world, island, at(minute), judge, force)
    const fresh = createMemoryFs()
    const clean = await gradeWorld(world, fresh, at(minute), contentJudge().judge)
    return { inPlace: await standingsOf(result, island), clean: await standingsOf(clean, fresh), result }
}

describe('a grade in place equals a clean grade (issue 43)', () => {
    it('a renamed tool leaves no ghost: the schema is graded, the old tool stays in the island as history', async () => {
        const island = createMemoryFs()
        const before: World = {
            minWorkingTests: 3,
            schemas: [
                alpha([
                    ['getOne', 'ok'],
                    ['getTwo', 'ok']
                ])
            ]
        }
        await gradeWorld(before, island, at(0), contentJudge().judge)
        const after: World = {
            ...before,
            schemas: [
                alpha([
                    ['getOne', 'ok'],
                    ['getThree', 'ok']
                ])
            ]
        }
        const { inPlace, clean, result } = await inPlaceAndClean(after, island, 1)
        expect(inPlace).toEqual(clean)
        const grading = result.schemas[0]?.result.grading
        expect(grading?.status).not.toBe('pending')
        expect(grading?.grade).not.toBeNull()
        const index = await readJson(island, '/island/providers/incdemo/index.json')
        expect(Object.keys(index.schemas.alpha.tools)).toEqual(['getOne', 'getThree'])
        // History: the old tool's folder and entry are still there.
        const old = await island.readdir('/island/providers/incdemo/alpha/tools/getTwo/_gradings')
        expect(old?.length).toBe(1)
        // --force changes nothing about it.
        const forced = await inPlaceAndClean(after, island, 2, true)
        expect(forced.inPlace).toEqual(forced.clean)
    })

    it('a re-recorded API (an object body became an array) is graded again, not kept from the baseline', async () => {
        const island = createMemoryFs()
        const before: World = {
            minWorkingTests: 3,
            schemas: [
                alpha([
                    ['getOne', 'ok'],
                    ['getTwo', 'ok']
                ])
            ]
        }
        await gradeWorld(before, island, at(0), contentJudge().judge)
        const after: World = {
            ...before,
            schemas: [
                alpha([
                    ['getOne', 'array'],
                    ['getTwo', 'ok']
                ])
            ]
        }
        const { judge, asked } = contentJudge()
        const result = await gradeWorld(after, island, at(1), judge)
        const fresh = createMemoryFs()
        const clean = await gradeWorld(after, fresh, at(1), contentJudge().judge)
        expect(await standingsOf(result, island)).toEqual(await standingsOf(clean, fresh))
        // Only the schema whose evidence changed was asked again (its units), and the namespace's that rest on it.
        expect(asked.map((r) => r.unit)).toContain('single-test/getOne')
        expect(result.schemas[0]?.resumed).toBe(false)
        // Unchanged inputs are reused: a third run asks nothing.
        const again = contentJudge()
        const third = await gradeWorld(after, island, at(2), again.judge)
        expect(again.asked).toEqual([])
        expect(third.schemas[0]?.resumed).toBe(true)
        expect(await standingsOf(third, island)).toEqual(await standingsOf(clean, fresh))
    })

    it('minWorkingTests 1 → 2 blocks in place the tool a clean run blocks', async () => {
        const island = createMemoryFs()
        const schemas = [
            alpha([
                ['getOne', 'one'],
                ['getTwo', 'ok']
            ])
        ]
        const first = await gradeWorld({ minWorkingTests: 1, schemas }, island, at(0), contentJudge().judge)
        expect(first.schemas[0]?.result.grading?.unitGrades['single-test/getOne']).not.toBeNull()
        const { inPlace, clean, result } = await inPlaceAndClean({ minWorkingTests: 2, schemas }, island, 1)
        expect(inPlace).toEqual(clean)
        expect(result.schemas[0]?.result.grading?.status).toBe('blocked')
    })

    it('a renamed schema file leaves its namespace index: the old schema is history, counted nowhere', async () => {
        const island = createMemoryFs()
        const tools: Array<[string, Variant]> = [['getOne', 'ok']]
        await gradeWorld(
            { minWorkingTests: 3, schemas: [alpha(tools), alpha([['getTwo', 'ok']], 0, 'beta.mjs')] },
            island,
            at(0),
            contentJudge().judge
        )
        const renamed: World = {
            minWorkingTests: 3,
            schemas: [alpha(tools, 0, 'gamma.mjs'), alpha([['getTwo', 'ok']], 0, 'beta.mjs')]
        }
        const { inPlace, clean } = await inPlaceAndClean(renamed, island, 1)
        expect(inPlace).toEqual(clean)
        const index = await readJson(island, '/island/providers/incdemo/index.json')
        expect(Object.keys(index.schemas)).toEqual(['beta', 'gamma'])
        expect(index.summary).toMatchObject({ schemas: 2, removed: ['alpha'] })
        // Nothing deleted: the old schema's snapshot and entries stay, its summary says when it left the tree.
        expect((await island.readdir('/island/providers/incdemo/alpha/schema'))?.length).toBe(1)
        expect((await island.readdir('/island/providers/incdemo/alpha/_gradings'))?.length).toBe(1)
        expect(await readJson(island, '/island/providers/incdemo/alpha/summary.json')).toMatchObject({
            removedAt: at(1),
            schemaHash: expect.any(String)
        })
        // Back in the tree, it counts again.
        const back = await inPlaceAndClean(
            { minWorkingTests: 3, schemas: [alpha(tools), alpha([['getTwo', 'ok']], 0, 'beta.mjs')] },
            island,
            2
        )
        expect(back.inPlace).toEqual(back.clean)
        expect(Object.keys((await readJson(island, '/island/providers/incdemo/index.json')).schemas)).toEqual([
            'alpha',
            'beta'
        ])
    })

    it('--force after a comment-only edit keeps the grade: a new snapshot beside the old (03 ⚠ C12, SNP-INFO-002)', async () => {
        const island = createMemoryFs()
        const tools: Array<[string, Variant]> = [
            ['getOne', 'ok'],
            ['getTwo', 'ok']
        ]
        const first = await gradeWorld(
            { minWorkingTests: 3, schemas: [alpha(tools)] },
            island,
            at(0),
            contentJudge().judge
        )
        const before = first.schemas[0]?.result.grading
        expect(before?.grade).not.toBeNull()
        const edited: World = { minWorkingTests: 3, schemas: [alpha(tools, 1)] }
        const { inPlace, clean, result } = await inPlaceAndClean(edited, island, 1, true)
        expect(inPlace).toEqual(clean)
        const row = result.schemas[0]?.result
        // The judge reads the new bytes, so the grade may move; it is never lost.
        expect(['graded', 'stable']).toContain(row?.grading?.status)
        expect(row?.grading?.grade).not.toBeNull()
        expect(row?.grading?.schemaHash).toBe(before?.schemaHash)
        expect(row?.errors.map((e) => e.code)).not.toContain('SNP-004')
        expect(row?.errors.map((e) => e.code)).toContain('SNP-INFO-002')
        const snapshots = await island.readdir('/island/providers/incdemo/alpha/schema')
        expect(snapshots?.map((e) => e.name).filter((n) => n.includes(before?.schemaHash ?? '?'))).toHaveLength(2)
        // Without --force the edit is graded again too (the source is an input), and the grade holds.
        const next = await inPlaceAndClean({ minWorkingTests: 3, schemas: [alpha(tools, 2)] }, island, 2)
        expect(next.inPlace).toEqual(next.clean)
        expect(next.result.schemas[0]?.result.grading?.grade).not.toBeNull()
    })
})

/** One edit of the property test's tree or options. */
type Edit =
    | { kind: 'rename-tool'; schema: number; tool: number; to: string }
    | { kind: 'remove-tool'; schema: number; tool: number }
    | { kind: 'add-tool'; schema: number; name: string; variant: Variant }
    | { kind: 'rename-schema'; schema: number; to: string }
    | { kind: 'recording'; schema: number; tool: number; variant: Variant }
    | { kind: 'min-working-tests'; value: number }
    | { kind: 'comment'; schema: number }
    | { kind: 'about' }
    | { kind: 'force' }

const toolName = fc.constantFrom('getA', 'getB', 'getC', 'getD', 'getE')
const variant = fc.constantFrom<Variant>('ok', 'ok', 'array', 'error', 'one')
const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.record({ kind: fc.constant('rename-tool' as const), schema: fc.nat(1), tool: fc.nat(2), to: toolName }),
    fc.record({ kind: fc.constant('remove-tool' as const), schema: fc.nat(1), tool: fc.nat(2) }),
    fc.record({ kind: fc.constant('add-tool' as const), schema: fc.nat(1), name: toolName, variant }),
    fc.record({
        kind: fc.constant('rename-schema' as const),
        schema: fc.nat(1),
        to: fc.constantFrom('alpha.mjs', 'beta.mjs', 'gamma.mjs', 'delta.mjs')
    }),
    fc.record({ kind: fc.constant('recording' as const), schema: fc.nat(1), tool: fc.nat(2), variant }),
    fc.record({ kind: fc.constant('min-working-tests' as const), value: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constant('comment' as const), schema: fc.nat(1) }),
    fc.constant({ kind: 'about' as const }),
    fc.constant({ kind: 'force' as const })
)

/** The world after one edit; an edit that does not apply (a name taken, a last tool) leaves it as it is. */
function applyEdit(world: World, e: Edit): World {
    const schemas = [...world.schemas]
    const s = 'schema' in e ? schemas[e.schema % schemas.length] : undefined
    const replace = (next: SchemaSpec): World => ({
        ...world,
        schemas: schemas.map((x) => (x === s ? next : x))
    })
    // Tool names are unique across the tree: the recordings are keyed by them.
    const taken = (name: string): boolean => world.schemas.some((x) => x.tools.some((t) => t.name === name))
    switch (e.kind) {
        case 'rename-tool': {
            const t = s?.tools[e.tool % s.tools.length]
            if (s === undefined || t === undefined || taken(e.to)) return world
            return replace({ ...s, tools: s.tools.map((x) => (x === t ? { ...x, name: e.to } : x)) })
        }
        case 'remove-tool': {
            if (s === undefined || s.tools.length < 2) return world
            return replace({ ...s, tools: s.tools.filter((_, i) => i !== e.tool % s.tools.length) })
        }
        case 'add-tool':
            if (s === undefined || taken(e.name) || s.tools.length >= 3) return world
            return replace({ ...s, tools: [...s.tools, { name: e.name, variant: e.variant }] })
        case 'rename-schema':
            if (s === undefined || world.schemas.some((x) => x.file === e.to)) return world
            return replace({ ...s, file: e.to })
        case 'recording': {
            const t = s?.tools[e.tool % s.tools.length]
            if (s === undefined || t === undefined) return world
            return replace({ ...s, tools: s.tools.map((x) => (x === t ? { ...x, variant: e.variant } : x)) })
        }
        case 'min-working-tests':
            return { ...world, minWorkingTests: e.value }
        case 'comment':
            return s === undefined ? world : replace({ ...s, comment: s.comment + 1 })
        case 'about':
            return { ...world, about: (world.about ?? 0) + 1 }
        case 'force':
            return world
    }
}

describe('property: any sequence of edits graded in place equals a clean grade after every step', () => {
    it('rename, remove or add a tool; rename a schema; change a recording; minWorkingTests; a comment; the About; --force', async () => {
        // The About file is attached to every prompt (an input of every unit); no schema declares it, so no unit
        // waits on a precondition (see docs/island.md, "Reuse: the inputs key", for what such units do).
        const start: World = {
            minWorkingTests: 3,
            about: 0,
            schemas: [
                alpha([
                    ['getA', 'ok'],
                    ['getB', 'ok']
                ]),
                alpha([['getC', 'ok']], 0, 'beta.mjs')
            ]
        }
        await fc.assert(
            fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 5 }), async (edits) => {
                const island = createMemoryFs()
                let world = start
                await gradeWorld(world, island, at(0), contentJudge().judge)
                for (const [i, e] of edits.entries()) {
                    world = applyEdit(world, e)
                    const { inPlace, clean } = await inPlaceAndClean(world, island, i + 1, e.kind === 'force')
                    expect(inPlace).toEqual(clean)
                }
                // The cache does work: graded once more with nothing changed, the judge is asked nothing.
                const again = contentJudge()
                const last = await gradeWorld(world, island, at(edits.length + 1), again.judge)
                expect(again.asked.map((r) => r.unit)).toEqual([])
                expect(last.schemas.every((row) => row.result.grading?.unitCounts.graded === 0)).toBe(true)
            }),
            { numRuns: 25 }
        )
    }, 600_000)
})

describe('nothing is lost silently', () => {
    it('an island that refuses the run (its snapshot write fails): every unit graded is an error naming why, GRA-016, no grade claimed', async () => {
        const island = createMemoryFs()
        const world: World = { minWorkingTests: 3, schemas: [alpha([['getOne', 'ok']])] }
        const refusing: FsPort = {
            ...island,
            writeFile: (path, data, options) =>
                path.includes('/alpha/schema/')
                    ? Promise.reject(Object.assign(new Error('disk full'), { code: 'ENOSPC' }))
                    : island.writeFile(path, data, options)
        }
        const result = await gradeWorld(world, refusing, at(0), contentJudge().judge)
        const row = result.schemas[0]?.result
        const units = row?.grading?.units ?? []
        expect(units.map((u) => u.status)).toEqual(['error', 'error'])
        expect(units[0]?.reason).toMatch(/^not written into the island: FS-001/)
        expect(units.every((u) => u.aggregateGrade === null)).toBe(true)
        expect(row?.errors.filter((e) => e.code === 'GRA-016')).toHaveLength(2)
        expect(row?.grading?.grade).toBeNull()
    })

    it('markRemovedSchemas marks only what left the tree, once; a listing it cannot read is an issue, nothing marked', async () => {
        const island = createMemoryFs()
        const world: World = {
            minWorkingTests: 3,
            schemas: [alpha([['getOne', 'ok']]), alpha([['getTwo', 'ok']], 0, 'beta.mjs')]
        }
        await gradeWorld(world, island, at(0), contentJudge().judge)
        const first = await markRemovedSchemas(island, '/island', 'incdemo', new Set(['beta']), at(1))
        expect(first).toEqual({ removed: ['alpha'], errors: [] })
        expect(await markRemovedSchemas(island, '/island', 'incdemo', new Set(['beta']), at(2))).toEqual({
            removed: [],
            errors: []
        })
        expect((await readJson(island, '/island/providers/incdemo/alpha/summary.json')).removedAt).toBe(at(1))
        const broken: FsPort = { ...island, readdir: () => Promise.reject(new Error('EIO')) }
        const failed = await markRemovedSchemas(broken, '/island', 'incdemo', new Set(), at(3))
        expect(failed.removed).toEqual([])
        expect(failed.errors.map((e) => e.code)).toEqual(['FS-001'])
    })

    it('gradeNamespace({ schemas }) marks nothing removed unless told the list is the whole tree (complete)', async () => {
        const island = createMemoryFs()
        const world: World = {
            minWorkingTests: 3,
            schemas: [alpha([['getOne', 'ok']]), alpha([['getTwo', 'ok']], 0, 'beta.mjs')]
        }
        await gradeWorld(world, island, at(0), contentJudge().judge)
        const source = await sourceTree(world)
        const options = { sourceFs: source, fs: island, root: '/island', now: at(1), resume: true }
        await gradeNamespace({ schemas: [{ schemaPath: '/src/incdemo/beta.mjs' }], options })
        expect(Object.keys((await readJson(island, '/island/providers/incdemo/index.json')).schemas)).toEqual([
            'alpha',
            'beta'
        ])
        await gradeNamespace({
            schemas: [{ schemaPath: '/src/incdemo/beta.mjs' }],
            options: { ...options, complete: true }
        })
        expect(Object.keys((await readJson(island, '/island/providers/incdemo/index.json')).schemas)).toEqual(['beta'])
    })
})
