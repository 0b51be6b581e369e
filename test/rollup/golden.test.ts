import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMemoryFs, RebuildIndex, type MemoryFs } from '../../src/index.js'

const BASE = new URL('../fixtures/islands/', import.meta.url).pathname
const NOW = '2026-06-10T12:00:00Z'

function load(name: string): MemoryFs {
    const root = join(BASE, name, 'island')
    const files: Record<string, string> = {}
    const walk = (dir: string): void => {
        for (const entry of readdirSync(dir)) {
            const full = join(dir, entry)
            if (statSync(full).isDirectory()) walk(full)
            else files[`/island/${relative(root, full)}`] = readFileSync(full, 'utf8')
        }
    }
    walk(root)
    return createMemoryFs(files)
}

const CASES = [
    { name: 'namespace-mixed', kind: 'namespace', dir: '/island/providers/defillama', status: 'partial' },
    { name: 'namespace-vetoed', kind: 'namespace', dir: '/island/providers/etherscan', status: 'rejected' },
    { name: 'namespace-changed-schema', kind: 'namespace', dir: '/island/providers/coingecko', status: 'partial' },
    { name: 'selection-locked', kind: 'selection', dir: '/island/selections/defi-core', status: 'partial' }
] as const

describe('golden islands', () => {
    it.each(CASES)('rebuilds $name into exactly its expected index.json', async ({ name, kind, dir, status }) => {
        const fs = load(name)
        const res =
            kind === 'namespace'
                ? await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: dir, now: NOW })
                : await RebuildIndex.rebuildSelectionIndex({
                      fs,
                      selectionDir: dir,
                      providersRoot: '/island/providers',
                      now: NOW
                  })
        expect(res.status).toBe(true)
        expect(res.index?.status).toBe(status)
        const text = (await fs.readFile(`${dir}/index.json`)) as string
        const expectedPath = join(BASE, name, 'expected-index.json')
        // Regenerate with UPDATE_GOLDEN=1 after a deliberate change, then review the diff by hand.
        if (process.env.UPDATE_GOLDEN === '1' || !existsSync(expectedPath)) writeFileSync(expectedPath, text)
        expect(text).toBe(readFileSync(expectedPath, 'utf8'))
        expect(RebuildIndex.validateIndex({ index: JSON.parse(text) })).toEqual({ valid: true, errors: [] })
    })

    it('keeps the foreign-formatted lockSnapshot of selection-locked byte for byte', async () => {
        const fs = load('selection-locked')
        const before = (await fs.readFile('/island/selections/defi-core/index.json')) as string
        await RebuildIndex.rebuildSelectionIndex({
            fs,
            selectionDir: '/island/selections/defi-core',
            providersRoot: '/island/providers',
            now: NOW
        })
        const after = (await fs.readFile('/island/selections/defi-core/index.json')) as string
        const raw = (t: string): string => t.slice(t.indexOf('"lockSnapshot": ') + 16, t.lastIndexOf('}'))
        expect(raw(after).trimEnd()).toBe(raw(before).trimEnd())
    })
})
