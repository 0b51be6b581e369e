import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ErrorCodes } from '../../src/report/error-codes.js'

// Documents that name what the code is, checked against the code, so they cannot drift from it unseen.
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (rel: string): string => readFileSync(join(ROOT, rel), 'utf8')

/** A declaration of `name` in TypeScript source: a function, class, binding, type, or a member (method, field). */
function declares(source: string, name: string): boolean {
    const n = name.replace(/\$/g, '\\$')
    return new RegExp(
        `(?:function\\*?|class|const|let|var|interface|type|enum|namespace)\\s+${n}\\b|` +
            `^\\s+(?:(?:static|async|private|protected|public|readonly|get|set|override)\\s+)*${n}\\??\\s*[(<:=]`,
        'm'
    ).test(source)
}

/**
 * What docs/spec-map.md cites: each `src/…` module, and the names written right after it in parentheses
 * (`src/grade/run-input.ts` (`checkGrader`, `nowOf`)). A parenthesis that is prose is cited up to its first word
 * that is not a name: (`judgeSummaryOf`, the `judge` field …) cites `judgeSummaryOf`.
 */
function specMapCitations(markdown: string): Array<{ module: string; names: string[] }> {
    return [...markdown.matchAll(/`(src\/[^`\s]+\.ts)`(?: \(([^)]*)\))?/g)].map((m) => {
        const names: string[] = []
        for (const item of (m[2] ?? '').split(/,\s*/)) {
            const name = /^`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)`$/.exec(item.trim())
            if (name === null) break
            names.push(name[1] as string)
        }
        return { module: m[1] as string, names }
    })
}

/** The files a cited module stands for: itself, or those a `*` in its last segment matches. */
function modulesOf(cited: string): string[] {
    if (!cited.includes('*')) return existsSync(join(ROOT, cited)) ? [cited] : []
    const dir = dirname(cited)
    const pattern = new RegExp(
        `^${cited
            .slice(dir.length + 1)
            .replace(/\./g, '\\.')
            .replace(/\*/g, '[^/]*')}$`
    )
    return existsSync(join(ROOT, dir))
        ? readdirSync(join(ROOT, dir))
              .filter((f) => pattern.test(f))
              .map((f) => `${dir}/${f}`)
        : []
}

describe('docs/spec-map.md names what src/ has', () => {
    const citations = specMapCitations(read('docs/spec-map.md'))

    it('reads the citations of a row, stopping at prose', () => {
        const row =
            '| r | 04 | `src/a.ts` (`one`, `Two.three`), `src/b.ts` (the `x` field, `y`), `src/c.ts` (`four`, the `z`) | t |'
        expect(specMapCitations(row)).toEqual([
            { module: 'src/a.ts', names: ['one', 'Two.three'] },
            { module: 'src/b.ts', names: [] },
            { module: 'src/c.ts', names: ['four'] }
        ])
        expect(declares('export function one(a: number) {}', 'one')).toBe(true)
        expect(declares('class Two {\n    static three(): void {}\n}', 'three')).toBe(true)
        expect(declares('const oneMore = 1 // calls one()', 'one')).toBe(false)
    })

    it('cites modules that exist (a pattern matches at least one)', () => {
        expect(citations.length).toBeGreaterThan(100)
        const missing = [...new Set(citations.map((c) => c.module))].filter((m) => modulesOf(m).length === 0)
        expect(missing, 'docs/spec-map.md cites modules src/ no longer has: fix their rows').toEqual([])
    })

    it('cites functions, classes and members that the cited module declares', () => {
        const wrong = citations.flatMap(({ module, names }) => {
            const sources = modulesOf(module).map((m) => read(m))
            return names
                .filter((name) => !name.split('.').every((part) => sources.some((s) => declares(s, part))))
                .map((name) => `${module} (${name})`)
        })
        expect(wrong, 'docs/spec-map.md names what its module no longer declares: fix their rows').toEqual([])
    })
})

describe('docs/errors.md is ordered by code', () => {
    it('lists the prefixes A–Z and each prefix by number, as a reader looks a code up', () => {
        const markdown = ErrorCodes.toMarkdown().markdown
        const sections = [...markdown.matchAll(/^## ([A-Z]+)$/gm)].map((m) => m[1] as string)
        expect(sections).toEqual([...sections].sort())
        const codes = [...markdown.matchAll(/^\| `([A-Z]+-[A-Z0-9-]+)` \|/gm)].map((m) => m[1] as string)
        expect(codes).toHaveLength(ErrorCodes.list().codes.length)
        expect(codes).toEqual([...codes].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })))
    })
})

interface Measured {
    bundles: Array<{ name: string; minified: string; gzip: string }>
    packed: string
    installed: string
}

/** README's "Bundle cost" figures: each table row's minified and gzip cells, and the package's sentence. */
function readmeFigures(readme: string): { bundles: string[]; packed: string | null; installed: string | null } {
    const bundles = [...readme.matchAll(/^\| [^|\n]+ \| ([\d,]+ KB) \| ([\d,]+ KB) \|$/gm)].map(
        (m) => `${m[1]} / ${m[2]}`
    )
    const pkg = /The package is ([\d.]+ MB) packed,\s+([\d.]+ MB) installed/.exec(readme)
    return { bundles, packed: pkg?.[1] ?? null, installed: pkg?.[2] ?? null }
}

describe("README's sizes are the measured ones", () => {
    // scripts/size.mjs measures the packed tarball in CI and fails when its figures are not the recorded ones;
    // this holds the README to that record.
    const measured = JSON.parse(read('scripts/size-measured.json')) as Measured

    it('reads the figures of the table and the package sentence', () => {
        const text =
            '| everything | 1,083 KB | 334 KB |\n| `b` (x) | 76 KB | 24 KB |\n\nThe package is 1.6 MB packed,\n6.3 MB installed'
        expect(readmeFigures(text)).toEqual({
            bundles: ['1,083 KB / 334 KB', '76 KB / 24 KB'],
            packed: '1.6 MB',
            installed: '6.3 MB'
        })
        expect(readmeFigures('no figures').packed).toBeNull()
    })

    it('shows every measured bundle and the package as scripts/size-measured.json records them', () => {
        const readme = readmeFigures(read('README.md'))
        const why = 'README.md "Bundle cost" differs from scripts/size-measured.json (npm run size records it)'
        expect([...readme.bundles].sort(), why).toEqual(measured.bundles.map((b) => `${b.minified} / ${b.gzip}`).sort())
        expect({ packed: readme.packed, installed: readme.installed }, why).toEqual({
            packed: measured.packed,
            installed: measured.installed
        })
    })
})
