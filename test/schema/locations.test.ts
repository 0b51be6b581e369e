import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sourceLocations } from '../../src/index.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import { pointer } from '../../src/errors/pointer.js'
import { filesUnder } from '../support/files.js'
import { shared } from '../support/shared.js'

const CORPUS = shared('corpus-sample/schemas/').path

const mjsFiles = (dir: string): string[] => filesUnder(dir, '.mjs')

/** The 1-based line and column of the `nth` occurrence (from 1) of `needle` in `source`. */
function at(source: string, needle: string, nth = 1): { line: number; column: number } {
    let offset = -1
    for (let i = 0; i < nth; i += 1) {
        offset = source.indexOf(needle, offset + 1)
        if (offset < 0) throw new Error(`no occurrence ${nth} of ${needle}`)
    }
    const before = source.slice(0, offset)
    const line = before.split('\n').length
    return { line, column: offset - before.lastIndexOf('\n') }
}

// Real forms: `:id` paths, `{{KEY}}` values, nested tests arrays, a const spread into a tool and into an array.
const SOURCE = [
    "const SHARED_QUERY = { location: 'query', z: { primitive: 'string()', options: [] } }",
    "const COMMON_TESTS = [{ _description: 'Bitcoin', id: 'bitcoin' }]",
    'const BASE_TOOL = {',
    "    method: 'GET',",
    "    description: 'Shared description'",
    '}',
    '',
    'export const main = {',
    "    namespace: 'coingecko',",
    "    name: 'CoinGecko',",
    "    root: 'https://api.coingecko.com/api/v3',",
    "    requiredServerParams: ['COINGECKO_API_KEY'],",
    "    headers: { 'x-cg-demo-api-key': '{{COINGECKO_API_KEY}}' },",
    '    tools: {',
    '        getCoin: {',
    "            method: 'GET',",
    "            path: '/coins/:id',",
    "            description: 'Get one coin',",
    '            parameters: [',
    "                { position: { key: 'id', value: '{{USER_PARAM}}', location: 'insert' }, z: { primitive: 'string()', options: ['min(1)'] } },",
    "                { position: { key: 'vs', value: '{{USER_PARAM}}', ...SHARED_QUERY } }",
    '            ],',
    '            tests: [',
    '                ...COMMON_TESTS,',
    "                { _description: 'Ethereum', id: 'ethereum', nested: [[1, 2], [3, { deep: true }]] }",
    '            ]',
    '        },',
    '        getPing: {',
    '            ...BASE_TOOL,',
    "            path: '/ping'",
    '        },',
    "        'a/b': { 'm~n': 1 }",
    '    }',
    '}',
    ''
].join('\n')

describe('sourceLocations', () => {
    const { locate, errors } = sourceLocations({ source: SOURCE })

    it('parses the source once without issues', () => {
        expect(errors).toEqual([])
    })

    it.each([
        ['the main declaration for the empty pointer', '', at(SOURCE, 'main = {')],
        ['a top-level key', '/namespace', at(SOURCE, 'namespace:')],
        [
            'a quoted header key holding a {{KEY}} value',
            '/headers/x-cg-demo-api-key',
            at(SOURCE, "'x-cg-demo-api-key'")
        ],
        ['an array element of a string list', '/requiredServerParams/0', at(SOURCE, "'COINGECKO_API_KEY'")],
        ['a tool key', '/tools/getCoin', at(SOURCE, 'getCoin:')],
        ['a description key, not its value', '/tools/getCoin/description', at(SOURCE, "description: 'Get one coin'")],
        ['a path with a :id segment', '/tools/getCoin/path', at(SOURCE, "path: '/coins/:id'")],
        ['a parameter element', '/tools/getCoin/parameters/1', at(SOURCE, "{ position: { key: 'vs'")],
        ['a {{USER_PARAM}} value key', '/tools/getCoin/parameters/0/position/value', at(SOURCE, 'value:', 1)],
        [
            'a key written in a const spread into an object',
            '/tools/getCoin/parameters/1/position/location',
            at(SOURCE, "location: 'query'")
        ],
        [
            'a nested key in a const spread',
            '/tools/getCoin/parameters/1/position/z/primitive',
            at(SOURCE, "primitive: 'string()', options: []")
        ],
        [
            'an element written in a const spread into an array',
            '/tools/getCoin/tests/0',
            at(SOURCE, "{ _description: 'Bitcoin'")
        ],
        ['a key inside that spread element', '/tools/getCoin/tests/0/id', at(SOURCE, "id: 'bitcoin'")],
        [
            'an element after the spread, counted past it',
            '/tools/getCoin/tests/1/_description',
            at(SOURCE, "_description: 'Ethereum'")
        ],
        ['an element of a nested tests array', '/tools/getCoin/tests/1/nested/1/1/deep', at(SOURCE, 'deep:')],
        [
            'a key a spread brings into a tool',
            '/tools/getPing/description',
            at(SOURCE, "description: 'Shared description'")
        ],
        ['a key written after the spread', '/tools/getPing/path', at(SOURCE, "path: '/ping'")],
        ['an escaped / (~1)', '/tools/a~1b', at(SOURCE, "'a/b'")],
        ['an escaped ~ (~0) under an escaped /', '/tools/a~1b/m~0n', at(SOURCE, "'m~n'")]
    ])('locates %s', (_name, ptr, expected) => {
        expect(locate(ptr)).toEqual(expected)
    })

    it.each([
        ['an index past the end of tests', '/tools/getCoin/tests/9', at(SOURCE, 'tests:')],
        ["the past-the-end token '-'", '/tools/getCoin/tests/-', at(SOURCE, 'tests:')],
        ['an index with a leading zero', '/tools/getCoin/tests/01', at(SOURCE, 'tests:')],
        ['a missing tool', '/tools/getNothing/description', at(SOURCE, 'tools:')],
        ['a token into a string value', '/tools/getCoin/description/0', at(SOURCE, "description: 'Get one coin'")],
        ['a token into a number', '/tools/a~1b/m~0n/x', at(SOURCE, "'m~n'")],
        ['a wrongly escaped token', '/tools/a/b', at(SOURCE, 'tools:')],
        ['a pointer without a leading slash', 'tools', at(SOURCE, 'main = {')]
    ])('gives the deepest resolved ancestor for %s', (_name, ptr, expected) => {
        expect(locate(ptr)).toEqual(expected)
    })

    it('resolves a pointer only when it reaches its end, so a target that is not written is told from one that is', () => {
        const { resolve } = sourceLocations({ source: SOURCE })
        expect(resolve('/tools/getCoin/description')).toEqual(at(SOURCE, "description: 'Get one coin'"))
        expect(resolve('/tools/getPing/description')).toEqual(at(SOURCE, "description: 'Shared description'"))
        expect(resolve('')).toEqual(at(SOURCE, 'main = {'))
        expect(resolve('/tools/getNothing/description')).toBeNull()
        expect(resolve('/tools/getCoin/tests/9')).toBeNull()
        expect(resolve('tools')).toBeNull()
        // The same pointer located first and resolved after gives the cached answer both ways.
        expect(locate('/tools/getCoin/summary')).toEqual(at(SOURCE, 'getCoin:'))
        expect(sourceLocations({ source: SOURCE }).resolve('/tools/getCoin/summary')).toBeNull()
        expect(sourceLocations({ source: 'export const main = {\n  a: ' }).resolve('')).toBeNull()
    })

    it('answers the same pointer the same way twice (the index is built once)', () => {
        expect(locate('/tools/getCoin/tests/1/id')).toEqual(locate('/tools/getCoin/tests/1/id'))
        expect(locate('/tools/getCoin/tests/1/id')).toEqual(at(SOURCE, "id: 'ethereum'"))
    })

    it('locates main exported by a specifier at the const it names, and falls back to a legacy schema export', () => {
        const bySpecifier = 'const m = {\n    a: [1, 2]\n}\nexport { m as main }\n'
        expect(sourceLocations({ source: bySpecifier }).locate('')).toEqual({ line: 1, column: 7 })
        expect(sourceLocations({ source: bySpecifier }).locate('/a/1')).toEqual({ line: 2, column: 12 })
        expect(sourceLocations({ source: 'export const schema = {\n  b: 1 }' }).locate('/b')).toEqual({
            line: 2,
            column: 3
        })
    })

    it('stops at a value that is not written as a literal, and at a cycle of spreads, without looping', () => {
        const source =
            'let x = { a: 1 }\nconst c = { ...d, k: 1 }\nconst d = { ...c }\nexport const main = {\n    v: x,\n    w: build(),\n    c\n}'
        const found = sourceLocations({ source })
        expect(found.errors).toEqual([])
        expect(found.locate('/v/a')).toEqual({ line: 5, column: 5 })
        expect(found.locate('/w/0')).toEqual({ line: 6, column: 5 })
        expect(found.locate('/c/k')).toEqual({ line: 2, column: 19 })
        expect(found.locate('/c/zz')).toEqual({ line: 7, column: 5 })
    })

    it('reports a source that does not parse as SRC-001, and locate then returns null', () => {
        const broken = sourceLocations({ source: 'export const main = {\n  a: ' })
        expect(broken.errors.map((e) => [e.code, e.path])).toEqual([['SRC-001', '/source']])
        expect(broken.errors[0]?.message).toContain('line 2')
        expect(broken.locate('')).toBeNull()
        expect(broken.locate('/a')).toBeNull()
    })

    it.each([
        ['a non-string source', { source: 42 }, 'SRC-003'],
        ['no source at all', {}, 'SRC-003'],
        ['a source that is too long', { source: ' '.repeat(4_000_001) }, 'SRC-004'],
        ['a module without main or schema', { source: 'export const other = { a: 1 }' }, 'SRC-005']
    ])('reports %s, and locate returns null', (_name, input, code) => {
        const found = sourceLocations(input as never)
        expect(found.errors.map((e) => e.code)).toEqual([code])
        expect(found.locate('')).toBeNull()
    })

    it('turns a hostile input into INT-002 with a locate that returns null', () => {
        const hostile = Object.defineProperty({}, 'source', {
            enumerable: true,
            get() {
                throw new Error('hostile')
            }
        })
        const found = sourceLocations(hostile as never)
        expect(found.errors.map((e) => e.code)).toEqual(['INT-002'])
        expect(found.locate('')).toBeNull()
    })
})

/** Every pointer of a plain value, with the last token of each. */
function pointersOf(
    value: unknown,
    base: string,
    out: Array<{ ptr: string; token: string | number }>,
    depth = 0
): void {
    if (depth > 12 || value === null || typeof value !== 'object') return
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
        ? value.map((v, i) => [i, v])
        : Object.entries(value)
    for (const [token, child] of entries) {
        const ptr = base + pointer(token)
        out.push({ ptr, token })
        pointersOf(child, ptr, out, depth + 1)
    }
}

describe.skipIf(!shared('corpus-sample/schemas/').present)('sourceLocations on the shared corpus sample', () => {
    it('puts every property pointer of every readable main at its key in the source', () => {
        let checked = 0
        for (const file of mjsFiles(CORPUS)) {
            const source = readFileSync(file, 'utf8')
            const main = readModuleSource({ source }).module?.main
            if (main === undefined) continue
            const { locate, errors } = sourceLocations({ source })
            expect(errors, file).toEqual([])
            const lines = source.split('\n')
            const all: Array<{ ptr: string; token: string | number }> = []
            pointersOf(main, '', all)
            for (const { ptr, token } of all) {
                const place = locate(ptr)
                expect(place, `${file} ${ptr}`).not.toBeNull()
                if (typeof token === 'number' || place === null) continue
                const text = (lines[place.line - 1] ?? '').slice(place.column - 1)
                const written = [token, `'${token}'`, `"${token}"`].some((form) => text.startsWith(form))
                expect(written, `${file} ${ptr} at ${place.line}:${place.column}: ${text.slice(0, 40)}`).toBe(true)
                checked += 1
            }
        }
        expect(checked).toBeGreaterThan(1000)
    })
})
