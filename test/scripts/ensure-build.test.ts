import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

type EnsureBuild = { staleReason(root: string): string | null; OUTPUTS: readonly string[] }
const script = new URL('../../scripts/ensure-build.mjs', import.meta.url).href
const { staleReason, OUTPUTS } = (await import(script)) as EnsureBuild

const INPUTS = ['src/index.ts', 'src/rollup/index-record.ts', 'tsup.config.ts', 'tsconfig.json', 'package.json']
const BUILT = 2_000_000_000
let root = ''

/** Writes `rel` under the temp root with the given time (seconds) as mtime. */
function put(rel: string, seconds: number): void {
    const path = join(root, rel)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, '')
    utimesSync(path, seconds, seconds)
}

/** Sets a folder's mtime, as creating or removing a file in it would. */
function touchDir(rel: string, seconds: number): void {
    utimesSync(join(root, rel), seconds, seconds)
}

beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'flowmcp-ensure-build-'))
    for (const f of INPUTS) put(f, BUILT - 100)
    for (const d of ['src', 'src/rollup']) touchDir(d, BUILT - 100)
})

afterEach(() => {
    rmSync(root, { recursive: true, force: true })
})

describe('scripts/ensure-build.mjs (npm run example and bench rebuilt dist/ every time)', () => {
    it('builds a fresh clone: no dist/ at all', () => {
        expect(staleReason(root)).toBe('dist/index.js is missing')
    })

    it('does not build when every output is newer than every input', () => {
        for (const f of OUTPUTS) put(`dist/${f}`, BUILT)
        expect(staleReason(root)).toBeNull()
    })

    it.each([
        ['a source file', 'src/rollup/index-record.ts'],
        ['tsup.config.ts', 'tsup.config.ts'],
        ['tsconfig.json', 'tsconfig.json'],
        ['package.json', 'package.json'],
        ['the validator generator', 'scripts/validators.mjs'],
        ['a JSON Schema the validators are generated from', 'schemas/area-output/single-test.schema.json']
    ])('builds when %s is newer than dist/', (_name, rel) => {
        for (const f of OUTPUTS) put(`dist/${f}`, BUILT)
        put(rel, BUILT + 10)
        expect(staleReason(root)).toBe(`${rel} is newer than dist/index.js`)
    })

    it('builds when a source file was removed (its folder is newer) or one output is missing', () => {
        for (const f of OUTPUTS) put(`dist/${f}`, BUILT)
        touchDir('src/rollup', BUILT + 10)
        expect(staleReason(root)).toBe('src/rollup is newer than dist/index.js')
        touchDir('src/rollup', BUILT - 100)
        rmSync(join(root, 'dist/cli.js'))
        expect(staleReason(root)).toBe('dist/cli.js is missing')
    })
})
