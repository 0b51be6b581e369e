import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readModuleSource, sourceSchemaLoader } from '../../src/schema/source-loader.js'
import { createMemoryFs } from '../../src/ports/memory-fs.js'

const CORPUS = new URL('../../../shared/corpus-sample/schemas/', import.meta.url).pathname

function mjsFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
        const full = join(dir, name)
        return statSync(full).isDirectory() ? mjsFiles(full) : full.endsWith('.mjs') ? [full] : []
    })
}

const codes = (issues: ReadonlyArray<{ code: string }>): string[] => issues.map((i) => i.code)

describe('readModuleSource', () => {
    it('reads main from literals, arrays, objects, templates, unary minus, const names and spreads', () => {
        const source = [
            "const ROOT = 'https://api.demo.dev'",
            'const shared = { location: "query" }',
            'const tags = [`prices`, "cacheTtlDaily"]',
            'export const main = {',
            "    namespace: 'demo', root: ROOT, tags: [...tags, 'x'], offset: -3, 'quoted-key': null, 7: true,",
            '    tools: { getX: { parameters: [{ position: { key: "id", ...shared } }] } }',
            '}',
            'export const schema = main',
            'export const handlers = ({ sharedLists }) => ({ getX: { postRequest: async ({ response }) => response } })'
        ].join('\n')
        const read = readModuleSource({ source })
        expect(read.errors).toEqual([])
        expect(read.hasHandlers).toBe(true)
        expect(read.exportNames).toEqual(['handlers', 'main', 'schema'])
        expect(read.module?.main).toEqual({ namespace: 'demo', root: 'https://api.demo.dev', tags: ['prices', 'cacheTtlDaily', 'x'], offset: -3, 'quoted-key': null, 7: true, tools: { getX: { parameters: [{ position: { key: 'id', location: 'query' } }] } } })
        expect(read.module?.schema).toBe(read.module?.main)
    })

    it('reads main exported through a local specifier and a skill export', () => {
        const read = readModuleSource({ source: "const m = { a: 1 }\nconst skill = { name: 'x', content: `two\nlines` }\nexport { m as main, skill }" })
        expect(read.module).toEqual({ main: { a: 1 }, skill: { name: 'x', content: 'two\nlines' } })
    })

    it.each([
        ['a function call', 'export const main = build()', 'a function call'],
        ['a member access', "export const main = { a: globalThis['ev'+'al'] }", 'a member access'],
        ['a getter', 'export const main = { get x() { return 1 } }', 'a getter'],
        ['a template with expressions', 'const k = 1\nexport const main = { a: `x${k}` }', 'a template string with expressions'],
        ['a let binding', 'let x = 1\nexport const main = { a: x }', 'the name x (a let binding)'],
        ['an imported binding', "import { x } from './x.mjs'\nexport const main = { a: x }", 'the name x (an imported binding)'],
        ['an unknown name', 'export const main = { a: undefined }', 'the name undefined (not a top-level const)'],
        ['a circular reference', 'const a = { b }\nconst b = { a }\nexport const main = a', 'a circular reference to a'],
        ['a __proto__ key', 'export const main = { __proto__: { polluted: true } }', 'a __proto__ key'],
        ['a regular expression', 'export const main = { a: /x/ }', 'a regular expression'],
        ['a computed key', "export const main = { ['a']: 1 }", 'a computed property name'],
        ['await', 'export const main = await Promise.resolve({})', 'await'],
        ['a re-export', "export { main } from './other.mjs'", 'a re-export from another module'],
        ['a unary not', 'export const main = { a: !0 }', 'the unary operator !'],
        ['an array hole', 'export const main = { a: [1,,2] }', 'an array hole']
    ])('refuses %s with SRC-002 naming the construct and its line', (_name, source, construct) => {
        const read = readModuleSource({ source })
        expect(read.module).toBeNull()
        expect(codes(read.errors)).toContain('SRC-002')
        expect(read.errors[0]?.message).toContain(construct)
        expect(read.errors[0]?.message).toMatch(/at line \d+/)
    })

    it('reports a syntax error as SRC-001 with its line, a non-string as SRC-003 and a huge source as SRC-004', () => {
        expect(codes(readModuleSource({ source: 'export const main = {\n  a: ' }).errors)).toEqual(['SRC-001'])
        expect(readModuleSource({ source: 'export const main = {\n  a: ' }).errors[0]?.message).toContain('line 2')
        expect(codes(readModuleSource({ source: 42 }).errors)).toEqual(['SRC-003'])
        expect(codes(readModuleSource({ source: ' '.repeat(4_000_001) }).errors)).toEqual(['SRC-004'])
    })

    it('refuses nesting deeper than it reads, without overflowing the stack', () => {
        const deep = 'export const main = ' + '['.repeat(500) + ']'.repeat(500)
        expect(readModuleSource({ source: deep }).errors[0]?.message).toContain('nesting deeper than 100')
        const deeper = 'export const main = ' + '['.repeat(200_000) + ']'.repeat(200_000)
        expect(['SRC-001', 'SRC-002']).toContain(readModuleSource({ source: deeper }).errors[0]?.code)
    })

    it('bounds the values built through reused const names', () => {
        const lines = ['const a0 = [1, 1, 1, 1]']
        for (let i = 1; i < 30; i += 1) lines.push(`const a${i} = [a${i - 1}, a${i - 1}, a${i - 1}, a${i - 1}]`)
        lines.push('export const main = { x: a29 }')
        // Reused names are shared, as importing would share them, so this is cheap.
        expect(readModuleSource({ source: lines.join('\n') }).errors).toEqual([])
    })

    it('warns (SRC-006) that top-level code is not run', () => {
        const read = readModuleSource({ source: "export const main = { a: 1 }\nmain.a = 2\nif (true) /'/.test('x'); eval('1')" })
        expect(read.module?.main).toEqual({ a: 1 })
        expect(codes(read.errors)).toEqual(['SRC-006', 'SRC-006', 'SRC-006'])
    })
})

describe('sourceSchemaLoader', () => {
    it('loads a module through the port without importing it', async () => {
        const fs = createMemoryFs({ '/s/demo.mjs': "export const main = { namespace: 'demo' }" })
        expect(await sourceSchemaLoader(fs).load('/s/demo.mjs')).toEqual({ main: { namespace: 'demo' } })
    })

    it('rejects a missing file and a source it cannot read', async () => {
        const fs = createMemoryFs({ '/s/bad.mjs': 'export const main = f()' })
        await expect(sourceSchemaLoader(fs).load('/s/none.mjs')).rejects.toThrow('no file')
        await expect(sourceSchemaLoader(fs).load('/s/bad.mjs')).rejects.toThrow('SRC-002')
    })
})

describe.skipIf(!existsSync(CORPUS))('readModuleSource on the shared corpus sample', () => {
    it('reads exactly the main (and schema) that importing each of the 61 real schemas gives', async () => {
        const files = mjsFiles(CORPUS)
        expect(files.length).toBe(61)
        for (const file of files) {
            const read = readModuleSource({ source: readFileSync(file, 'utf8') })
            expect(read.errors, file).toEqual([])
            const imported = (await import(pathToFileURL(file).href)) as { main?: unknown; schema?: unknown; handlers?: unknown }
            expect(read.module?.main, file).toStrictEqual(imported.main)
            expect(read.module?.schema, file).toStrictEqual(imported.schema)
            expect(read.hasHandlers, file).toBe(imported.handlers !== undefined)
        }
    })
})
