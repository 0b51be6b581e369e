import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder, SRC } from './support/files.js'

type Structure = {
    LIMITS: { functionLines: number; longFunctionLines: number; maxLongFunctions: number; cliFileLines: number }
    functionLengths(fileName: string, text: string): Array<{ name: string; line: number; lines: number }>
    measureStructure(root: string): {
        long: Array<{ name: string; lines: number; exempt: string | null }>
        problems: string[]
    }
}
const { LIMITS, functionLengths, measureStructure } = (await import(
    new URL('../scripts/structure.mjs', import.meta.url).href
)) as Structure

const files = (dir: string): string[] => filesUnder(dir, '.ts')

const core = files(SRC).filter((f) => !relative(SRC, f).startsWith('cli/'))

/** Source without comments, so an `@example` mentioning `node:fs` does not count as an import. */
function code(file: string): string {
    return readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
}

describe('architecture', () => {
    it('keeps node:* imports out of the pure core (only src/cli/ may use them)', () => {
        const offenders = core.filter((f) =>
            /from\s+['"]node:|import\(\s*['"]node:|require\(\s*['"]node:/.test(code(f))
        )
        expect(offenders.map((f) => relative(SRC, f))).toEqual([])
    })

    it('uses no ambient clock, randomness, process or console in the core', () => {
        const pattern = /\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bprocess\.|\bconsole\./
        const offenders = core.filter((f) => pattern.test(code(f)))
        expect(offenders.map((f) => relative(SRC, f))).toEqual([])
    })

    it('measures a function by the lines of its body, arrows and methods included', () => {
        const body = (n: number): string => `{\n${'    x += 1\n'.repeat(n - 2)}}`
        const text = `function outer() ${body(10)}\nconst arrow = () => ${body(121)}\nclass K { method() ${body(3)} }\n`
        expect(functionLengths('sample.ts', text).map((f) => [f.name, f.lines])).toEqual([
            ['outer', 10],
            ['arrow', 121],
            ['method', 3]
        ])
    })

    it('keeps every function to 120 lines, at most 8 over 80, and every CLI file to 300 lines (stages, not walls)', () => {
        const measured = measureStructure(new URL('..', import.meta.url).pathname)
        expect(measured.problems).toEqual([])
        expect(measured.long.filter((f) => f.exempt === null).length).toBeLessThanOrEqual(LIMITS.maxLongFunctions)
    })

    it('imports only from its own room or a lower one (the rooms of docs/contributing.md; no circle, nothing runs back up)', () => {
        // The rows of the rooms table in docs/contributing.md, ground floor first: one statement of the layers, read here.
        const doc = readFileSync(new URL('../docs/contributing.md', import.meta.url), 'utf8')
        const table = doc.slice(doc.indexOf('| floor | folders |')).split('\n\n')[0] as string
        const ROOMS = table
            .split('\n')
            .slice(2)
            .map((row) =>
                [...(row.split('|')[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => (m[1] as string).replace(/\/$/, ''))
            )
        expect(ROOMS.length).toBeGreaterThan(5)
        const roomOf = (file: string): number => {
            const top = relative(SRC, file).split('/')[0] as string
            return ROOMS.findIndex((row) => row.includes(top))
        }
        const upward: string[] = []
        for (const file of files(SRC)) {
            const from = roomOf(file)
            expect(from, `${relative(SRC, file)} belongs to no room`).toBeGreaterThanOrEqual(0)
            for (const m of code(file).matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
                const target = resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))
                if (!target.startsWith(SRC)) continue
                if (roomOf(target) > from) upward.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`)
            }
        }
        expect(upward).toEqual([])
    })

    /** Every relative import of `file`, resolved to a path under src/ (`.ts`), with `node:` and package imports left out. */
    const importsOf = (file: string): string[] =>
        [...code(file).matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
            relative(SRC, resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')))
        )

    it('keeps the runtime child a room of its own: cli/runtime/ imports only node:*, itself and ports/; only the grade command and the flowmcp-grading/node entry reach it', () => {
        const inRoom = (rel: string): boolean => rel.startsWith('cli/runtime/')
        const outward = files(SRC)
            .filter((f) => inRoom(relative(SRC, f)))
            .flatMap((f) => importsOf(f).map((to) => [relative(SRC, f), to] as const))
            .filter(([, to]) => !inRoom(to) && !to.startsWith('ports/'))
        expect(outward).toEqual([])
        // The room's door for the rest of the CLI is the grade command's runtime stage; tsup builds
        // cli/runtime/child.ts (dist/runtime-child.js) and cli/runtime/host.ts (dist/node.js) as entries of their own.
        const inward = files(SRC)
            .filter((f) => !inRoom(relative(SRC, f)))
            .flatMap((f) => importsOf(f).map((to) => [relative(SRC, f), to] as const))
            .filter(([, to]) => inRoom(to))
            .map(([from]) => from)
        expect([...new Set(inward)]).toEqual(['cli/commands/grade-runtime.ts'])
    })

    it('keeps the rubrics a product of their own: reached only through rubrics/index.ts, importing only the floors below', () => {
        const inRoom = (rel: string): boolean => rel.startsWith('rubrics/')
        // The rubrics' entry point, and the artifact detector that recognises a rubric document.
        const DOORS = ['artifacts/detect.ts', 'rubrics.ts']
        const inward = files(SRC)
            .filter((f) => !inRoom(relative(SRC, f)))
            .flatMap((f) => importsOf(f).map((to) => [relative(SRC, f), to] as const))
            .filter(([, to]) => inRoom(to))
        expect(inward.filter(([, to]) => to !== 'rubrics/index.ts').map((pair) => pair.join(' -> '))).toEqual([])
        expect([...new Set(inward.map(([from]) => from))].sort()).toEqual(DOORS)
        const FLOORS = ['errors/', 'model/', 'json/', 'validation/']
        const outward = files(SRC)
            .filter((f) => inRoom(relative(SRC, f)))
            .flatMap((f) => importsOf(f).map((to) => `${relative(SRC, f)} -> ${to}`))
            .filter((pair) => {
                const to = pair.split(' -> ')[1] as string
                return !inRoom(to) && !FLOORS.some((floor) => to.startsWith(floor))
            })
        expect(outward).toEqual([])
    })
})
