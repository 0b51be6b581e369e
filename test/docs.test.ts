import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ErrorCodes } from '../src/index.js'

describe('generated docs', () => {
    it('docs/errors.md matches the catalogue (run `npm run docs:errors` after changing codes)', () => {
        const onDisk = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8')
        expect(onDisk).toBe(ErrorCodes.toMarkdown().markdown)
    })

    it('renders one section per prefix with every code', () => {
        const { markdown } = ErrorCodes.toMarkdown()
        for (const def of ErrorCodes.list().codes) expect(markdown).toContain(`| \`${def.code}\` |`)
        expect(markdown).not.toContain('undefined')
    })
})

/** Relative link targets of a markdown text (no scheme, no pure anchor), outside code blocks and code spans. */
function relativeLinks(markdown: string): string[] {
    const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
    return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] as string)
        .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
}

describe('links where the package is read', () => {
    const root = new URL('../', import.meta.url)
    const files = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { files: string[] }).files
    const shipped = (path: string): boolean => files.some((f) => path === f || path.startsWith(`${f}/`))
    const docs = [
        'README.md',
        ...readdirSync(new URL('docs/', root))
            .filter((f) => f.endsWith('.md'))
            .map((f) => `docs/${f}`)
    ]

    it('ships docs/, so the README links to docs/ are not dead in the npm tarball', () => {
        expect(shipped('docs/guide.md')).toBe(true)
        expect(relativeLinks(readFileSync(new URL('README.md', root), 'utf8'))).toContain('docs/guide.md')
    })

    it.each(docs)('every relative link of %s points at a file the tarball ships', (doc) => {
        const dir = doc.includes('/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : ''
        const targets = relativeLinks(readFileSync(new URL(doc, root), 'utf8')).map((t) =>
            new URL(`${dir}${t.split('#')[0] as string}`, root).pathname.slice(root.pathname.length)
        )
        expect(targets.filter((t) => !shipped(t) || !existsSync(new URL(t, root)))).toEqual([])
    })
})

/** Names a TypeScript snippet uses but neither imports nor declares (TS2304/TS2552), with Node's types. */
function undefinedNames(code: string): string[] {
    const file = fileURLToPath(new URL('../__doc-snippet__.ts', import.meta.url))
    const options: ts.CompilerOptions = {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts'],
        types: ['node'],
        typeRoots: [fileURLToPath(new URL('../node_modules/@types', import.meta.url))]
    }
    const host = ts.createCompilerHost(options)
    const base = host.getSourceFile.bind(host)
    host.getSourceFile = (name, version, ...rest) =>
        name === file ? ts.createSourceFile(name, code, version) : base(name, version, ...rest)
    const program = ts.createProgram([file], options, host)
    // The package itself does not resolve here (scripts/check-doc-types.mjs compiles against the packed build): its names are imported all the same.
    return ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .filter((d) => d.code === 2304 || d.code === 2552)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))
}

describe('doc snippets', () => {
    it("docs/island.md's first snippet defines every name it uses (it used argv, config, clock and entry without defining them)", () => {
        const markdown = readFileSync(new URL('../docs/island.md', import.meta.url), 'utf8')
        const code = /^```ts\n([\s\S]*?)^```/m.exec(markdown)?.[1] ?? ''
        expect(code).toContain("from 'flowmcp-grading'")
        expect(undefinedNames(code)).toEqual([])
    }, 30_000)
})
