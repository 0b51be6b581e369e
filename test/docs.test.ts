import { readFileSync } from 'node:fs'
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
