import { existsSync, readdirSync, readFileSync } from 'node:fs'
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
    return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
}

describe('links where the package is read', () => {
    const root = new URL('../', import.meta.url)
    const files = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { files: string[] }).files
    const shipped = (path: string): boolean => files.some((f) => path === f || path.startsWith(`${f}/`))
    const docs = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

    it('ships docs/, so the README links to docs/ are not dead in the npm tarball', () => {
        expect(shipped('docs/guide.md')).toBe(true)
        expect(relativeLinks(readFileSync(new URL('README.md', root), 'utf8'))).toContain('docs/guide.md')
    })

    it.each(docs)('every relative link of %s points at a file the tarball ships', (doc) => {
        const dir = doc.includes('/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : ''
        const targets = relativeLinks(readFileSync(new URL(doc, root), 'utf8')).map((t) => new URL(`${dir}${t.split('#')[0] as string}`, root).pathname.slice(root.pathname.length))
        expect(targets.filter((t) => !shipped(t) || !existsSync(new URL(t, root)))).toEqual([])
    })
})
