import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = new URL('../src/', import.meta.url).pathname

function files(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
        const full = join(dir, name)
        return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : []
    })
}

const core = files(SRC).filter((f) => !relative(SRC, f).startsWith('cli/'))

/** Source without comments, so an `@example` mentioning `node:fs` does not count as an import. */
function code(file: string): string {
    return readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
}

describe('architecture', () => {
    it('keeps node:* imports out of the pure core (only src/cli/ may use them)', () => {
        const offenders = core.filter((f) => /from\s+['"]node:|import\(\s*['"]node:|require\(\s*['"]node:/.test(code(f)))
        expect(offenders.map((f) => relative(SRC, f))).toEqual([])
    })

    it('uses no ambient clock, randomness, process or console in the core', () => {
        const pattern = /\bDate\.now\(|\bnew Date\(\)|\bMath\.random\(|\bprocess\.|\bconsole\./
        const offenders = core.filter((f) => pattern.test(code(f)))
        expect(offenders.map((f) => relative(SRC, f))).toEqual([])
    })
})
