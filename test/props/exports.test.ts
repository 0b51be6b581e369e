import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as catalogue from '../../src/catalogue.js'
import * as entry from '../../src/entry.js'
import * as lib from '../../src/index.js'
import * as rubrics from '../../src/rubrics.js'

type Fn = (...args: unknown[]) => unknown

/** Every exported function and every static method of every exported class, of every public entry point. */
function entryPoints(): Array<[string, Fn]> {
    const out: Array<[string, Fn]> = []
    for (const [name, value] of [...Object.entries(lib), ...Object.entries(catalogue), ...Object.entries(rubrics)]) {
        if (typeof value !== 'function') continue
        const statics = Object.getOwnPropertyNames(value).filter(
            (k) =>
                !['length', 'name', 'prototype'].includes(k) &&
                typeof (value as unknown as Record<string, unknown>)[k] === 'function'
        )
        if (statics.length === 0) out.push([name, value as Fn])
        for (const key of statics)
            out.push([`${name}.${key}`, (...args) => ((value as unknown as Record<string, Fn>)[key] as Fn)(...args)])
    }
    return out
}

const trap = (): never => {
    throw new Error('hostile')
}
const hostileProxy = (): unknown =>
    new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap })
const throwingGetters = (): unknown =>
    Object.defineProperties(
        {},
        Object.fromEntries(
            ['fs', 'root', 'entry', 'index', 'text', 'value', 'options', 'schema', 'main', 'names', 'source'].map(
                (k) => [k, { enumerable: true, get: trap }]
            )
        )
    )
function deep(depth: number): unknown {
    let v: unknown = 1
    for (let i = 0; i < depth; i += 1) v = i % 2 === 0 ? { a: v } : [v]
    return v
}
const HUGE = 'x'.repeat(2_000_000)

const HOSTILE: ReadonlyArray<() => unknown> = [
    () => undefined,
    () => null,
    () => 42,
    () => HUGE,
    () => 'a--'.repeat(500_000),
    () => deep(20_000),
    hostileProxy,
    throwingGetters,
    () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as unknown,
    () => Object.create(null) as unknown,
    () => ({ options: { skills: HUGE, about: null, root: 5 }, selectionId: HUGE, schemaIds: [HUGE] }),
    () => ({
        fs: hostileProxy(),
        root: '/island',
        now: '2026-01-01T00:00:00Z',
        files: hostileProxy(),
        entry: hostileProxy(),
        index: hostileProxy()
    }),
    () => ({ names: HUGE, logicalName: HUGE, name: HUGE, filename: HUGE, text: HUGE, source: HUGE, path: HUGE })
]

// fast-check inspects what it generates, so it generates recipes; the hostile values are built in the property.
type Recipe =
    | { readonly json: unknown }
    | { readonly hostile: number }
    | { readonly dict: ReadonlyArray<readonly [string, Recipe]> }
const KEYS = [
    'fs',
    'root',
    'now',
    'entry',
    'index',
    'text',
    'value',
    'options',
    'schema',
    'main',
    'names',
    'logicalName',
    'source',
    'name',
    'code',
    'issue',
    'score',
    'gradings',
    'area',
    'target',
    'listing',
    'selection',
    'schemaIds',
    'selectionId',
    'files',
    'path',
    'dir'
]
const leaf = fc.oneof(
    fc.jsonValue().map((json): Recipe => ({ json })),
    fc.anything().map((json): Recipe => ({ json })),
    fc.nat(HOSTILE.length - 1).map((hostile): Recipe => ({ hostile }))
)
const recipe: fc.Arbitrary<Recipe> = fc.oneof(
    { weight: 2, arbitrary: leaf },
    {
        weight: 3,
        arbitrary: fc
            .array(fc.tuple(fc.constantFrom(...KEYS), leaf), { maxLength: 5 })
            .map((dict): Recipe => ({ dict }))
    }
)

function build(r: Recipe): unknown {
    if ('json' in r) return r.json
    if ('hostile' in r) return (HOSTILE[r.hostile] as () => unknown)()
    return Object.fromEntries(r.dict.map(([k, v]) => [k, build(v)]))
}

const ENTRY_POINTS = entryPoints()

describe('no exported function throws or rejects, whatever it is given', () => {
    it('covers every exported function and static method', () => {
        expect(ENTRY_POINTS.length).toBeGreaterThan(120)
    })

    it.each(ENTRY_POINTS)(
        '%s: no throw, no rejection, no prototype pollution',
        async (_name, fn) => {
            await fc.assert(
                fc.asyncProperty(recipe, async (r) => {
                    const input = build(r)
                    let result: unknown
                    try {
                        result = fn(input)
                        if (result instanceof Promise) result = await result
                    } catch (cause) {
                        throw new Error(`threw ${cause instanceof Error ? cause.message : String(cause)}`)
                    }
                    const errors = (result as { errors?: unknown } | null)?.errors
                    if (Array.isArray(errors)) expect(errors.length).toBeLessThan(1_000)
                    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
                }),
                { numRuns: 12, seed: 12 }
            )
            expect(Object.prototype).not.toHaveProperty('polluted')
        },
        20_000
    )
})

describe('inputs whose size once broke the library', () => {
    it('parseSnapshotFilename returns null for a 50 MB name without overflowing the stack', () => {
        expect(lib.parseSnapshotFilename('a'.repeat(50_000_000))).toBeNull()
    })

    it('gradeSelection reports one issue for options.skills given as a long string', async () => {
        const result = await lib.gradeSelection({
            selectionId: 'x'.repeat(5_000_000),
            schemaIds: [],
            options: {
                fs: lib.createMemoryFs(),
                root: '/island',
                now: '2026-01-01T00:00:00Z',
                skills: 'y'.repeat(1_000_000) as never
            }
        })
        expect(result.errors.length).toBeLessThan(5)
        expect(result.errors.map((e) => e.path)).toContain('/options/skills')
    })

    it('gradeSelection and gradeSingleSchema answer options.about = null and a non-string root with GRA-002', async () => {
        const selection = await lib.gradeSelection({
            selectionId: 'sel',
            schemaIds: [],
            options: { fs: lib.createMemoryFs(), root: 5 as never, now: '2026-01-01T00:00:00Z', about: null as never }
        })
        expect(selection.errors.map((e) => e.code)).toEqual(['GRA-002', 'GRA-002'])
        const single = await lib.gradeSingleSchema({
            schema: { main: {} },
            options: { now: '2026-01-01T00:00:00Z', about: null as never }
        })
        expect(single.errors.map((e) => [e.code, e.path])).toEqual([['GRA-002', '/options/about']])
    })

    it('turns a hostile input into INT-002 and a thrown bug into INT-001, in the function failure shape', async () => {
        const read = lib.RebuildIndex.serializeIndex(hostileProxy() as never) as unknown as {
            errors: Array<{ code: string }>
        }
        expect(read.errors.map((e) => e.code)).toEqual(['INT-002'])
        const graded = await lib.gradeSingleSchema(throwingGetters() as never)
        expect(graded).toMatchObject({ grading: null, entries: [], prompts: [] })
        expect(graded.errors.map((e) => e.code)).toEqual(['INT-002'])
        const pick = lib.selectLatest({
            names: { length: 1, [Symbol.iterator]: trap } as never,
            logicalName: 'x'
        }) as unknown as { errors: Array<{ code: string }> }
        expect(pick.errors.map((e) => e.code)).toEqual(['INT-001'])
    })
})

describe('the public surface', () => {
    // The root entry point's names as built before the tables moved to `flowmcp-grading/catalogue`
    // (read from dist/index.js), kept as data: a name once public stays reachable.
    const BEFORE = JSON.parse(
        readFileSync(new URL('../fixtures/public-api/main-exports-before-catalogue.json', import.meta.url), 'utf8')
    ) as string[]
    const ENTRIES = { index: lib, catalogue, entry, rubrics } as const

    it('keeps the root entry point to at most 80 runtime values', () => {
        expect(Object.keys(lib).length).toBeLessThanOrEqual(80)
        expect(Object.keys(lib)).toEqual(
            expect.arrayContaining([
                'gradeSingleSchema',
                'validateGradingEntry',
                'createMemoryFs',
                'Scoring',
                'ErrorCodes',
                'NODE_STATUS'
            ])
        )
    })

    it('reaches every name the root once exported, with the same value, from the root, flowmcp-grading/catalogue or flowmcp-grading/rubrics', () => {
        expect(BEFORE.length).toBe(199)
        const homes = [lib, catalogue, rubrics] as ReadonlyArray<Record<string, unknown>>
        const unreachable = BEFORE.filter((name) => !homes.some((home) => name in home))
        expect(unreachable).toEqual([])
        for (const name of BEFORE) {
            const now = homes.find((home) => name in home)?.[name]
            expect(now, name).toBeDefined()
        }
        expect(catalogue.STABLE_THRESHOLD).toBe('B')
        expect(catalogue.QUESTIONS.length).toBeGreaterThan(0)
    })

    it('keeps the rubrics behind flowmcp-grading/rubrics alone: the root and the catalogue export none of their names', () => {
        const names = Object.keys(rubrics)
        expect(names).toEqual(expect.arrayContaining(['JudgeRubric', 'WorkflowRubric', 'evaluateRubricInput']))
        expect(names.filter((name) => name in lib || name in catalogue)).toEqual([])
        expect(names.filter((name) => !BEFORE.includes(name))).toEqual([])
    })

    it('gives each name one home: the catalogue holds only names the root does not', () => {
        expect(Object.keys(catalogue).filter((name) => name in lib)).toEqual([])
        // Tables published after the move, each listed in the CHANGELOG where it was added.
        const ADDED_SINCE = [
            'CATALOGUE_QUESTION_IDS',
            'CONTENT_BLOCKED_REASONS',
            'CROSS_AREA_QUESTIONS',
            'CROSS_AREA_QUESTION_IDS',
            'ENTRY_RULES'
        ]
        expect(
            Object.keys(catalogue)
                .filter((name) => !BEFORE.includes(name))
                .sort()
        ).toEqual(ADDED_SINCE)
    })

    it('lists every export by name: no wildcard re-export in a public entry point', () => {
        for (const file of Object.keys(ENTRIES)) {
            const text = readFileSync(new URL(`../../src/${file}.ts`, import.meta.url), 'utf8')
            expect(text, file).not.toMatch(/^export\s+(type\s+)?\*/m)
        }
    })

    it('declares every entry point in package.json exports and the build', () => {
        const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
            exports: Record<string, unknown>
        }
        const tsup = readFileSync(new URL('../../tsup.config.ts', import.meta.url), 'utf8')
        for (const file of Object.keys(ENTRIES)) {
            const key = file === 'index' ? '.' : `./${file}`
            expect(pkg.exports[key], key).toEqual({
                import: { types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` },
                require: { types: `./dist/${file}.d.cts`, default: `./dist/${file}.cjs` }
            })
            expect(tsup).toContain(`${file}: 'src/${file}.ts'`)
        }
    })
})
