import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

type Entries = Map<string, { source: string; dual: boolean }>
type Build = {
    typedEntries(exports: unknown): Entries
    asCommonJs(text: string): string
    reachable(types: string, start: string): Set<string>
    copyDeclarations(types: string, dist: string, entries: Entries): number
}
const { typedEntries, asCommonJs, reachable, copyDeclarations } = (await import(
    new URL('../../scripts/build.mjs', import.meta.url).href
)) as Build

let work = ''
const put = (rel: string, text: string): void => {
    mkdirSync(dirname(join(work, rel)), { recursive: true })
    writeFileSync(join(work, rel), text)
}
const list = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
        .sort()

beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'flowmcp-build-'))
})
afterEach(() => rmSync(work, { recursive: true, force: true }))

describe('scripts/build.mjs: the declarations tsc emitted, as the entry points ship them', () => {
    it("reads the typed entry points of package.json's exports: dual where a .d.cts is named, ESM only otherwise", () => {
        const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
            exports: unknown
        }
        expect(Object.fromEntries(typedEntries(pkg.exports))).toEqual({
            index: { source: 'index.d.ts', dual: true },
            entry: { source: 'entry.d.ts', dual: true },
            catalogue: { source: 'catalogue.d.ts', dual: true },
            rubrics: { source: 'rubrics.d.ts', dual: true },
            node: { source: 'cli/runtime/host.d.ts', dual: false }
        })
        expect(typedEntries({ '.': './dist/x.js', './schemas/*.json': './schemas/*.json' }).size).toBe(0)
    })

    it('names .cjs in every relative .js import of a .d.cts, and leaves package imports and other files alone', () => {
        const text = [
            "export * from './a.js'",
            'import type { B } from "../b/b.js"',
            "export declare const c: import('./c.js').C",
            "import type { Valibot } from 'valibot'",
            "export { d } from './d.json'"
        ].join('\n')
        expect(asCommonJs(text).split('\n')).toEqual([
            "export * from './a.cjs'",
            'import type { B } from "../b/b.cjs"',
            "export declare const c: import('./c.cjs').C",
            "import type { Valibot } from 'valibot'",
            "export { d } from './d.json'"
        ])
    })

    it('copies what each entry point reaches, a .d.cts beside it for the dual ones, and nothing else', () => {
        const types = join(work, 'types')
        put('types/index.d.ts', "export * from './grading/a.js'\n")
        put('types/grading/a.d.ts', "export type A = import('../model/b.js').B\n")
        put('types/model/b.d.ts', 'export type B = 1\n')
        put('types/cli/runtime/host.d.ts', "export type { B } from '../../model/b.js'\nexport * from './port.js'\n")
        put('types/cli/runtime/port.d.ts', 'export declare function port(): void\n')
        put('types/cli/main.d.ts', 'export {}\n')
        put('types/orphan.d.ts', 'export {}\n')
        expect([...reachable(types, 'cli/runtime/host.d.ts')].sort()).toEqual([
            'cli/runtime/host.d.ts',
            'cli/runtime/port.d.ts',
            'model/b.d.ts'
        ])
        const dist = join(work, 'dist')
        const entries = typedEntries({
            '.': { import: { types: './dist/index.d.ts' }, require: { types: './dist/index.d.cts' } },
            './node': { import: { types: './dist/node.d.ts' } }
        })
        expect(copyDeclarations(types, dist, entries)).toBe(9)
        expect(list(dist)).toEqual([
            'cli/runtime/host.d.ts',
            'cli/runtime/port.d.ts',
            'grading/a.d.cts',
            'grading/a.d.ts',
            'index.d.cts',
            'index.d.ts',
            'model/b.d.cts',
            'model/b.d.ts',
            'node.d.ts'
        ])
        expect(readFileSync(join(dist, 'grading/a.d.cts'), 'utf8')).toBe("export type A = import('../model/b.cjs').B\n")
        expect(readFileSync(join(dist, 'node.d.ts'), 'utf8')).toBe("export * from './cli/runtime/host.js'\n")
        expect(existsSync(join(dist, 'cli/main.d.ts'))).toBe(false)
    })

    it("takes an entry point's declarations from its folder's index when src/ has no file of its name", () => {
        put('types/rubrics/index.d.ts', "export * from './judge.js'\n")
        put('types/rubrics/judge.d.ts', 'export type Judge = 1\n')
        const entries = typedEntries({ './rubrics': { require: { types: './dist/rubrics.d.cts' } } })
        expect(copyDeclarations(join(work, 'types'), join(work, 'dist'), entries)).toBe(6)
        expect(readFileSync(join(work, 'dist', 'rubrics.d.cts'), 'utf8')).toBe("export * from './rubrics/index.cjs'\n")
        expect(list(join(work, 'dist'))).toContain('rubrics/judge.d.cts')
    })

    it('fails on a declaration an entry point reaches that tsc did not emit', () => {
        put('types/index.d.ts', "export * from './gone.js'\n")
        expect(() => reachable(join(work, 'types'), 'index.d.ts')).toThrow(/ENOENT.*gone\.d\.ts/)
    })
})
