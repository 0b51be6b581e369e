import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { esbuildValidators } from '../scripts/validators.mjs'
import { afterAll, describe, expect, it } from 'vitest'
import { DataPretest } from '../src/pretest/data-pretest.js'

const src = (path: string): string => fileURLToPath(new URL(`../src/${path}`, import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'bundle-guard-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const hostile = (): unknown =>
    new Proxy(
        {},
        {
            ownKeys: () => {
                throw new Error('hostile')
            }
        }
    )

/**
 * A consumer's bundle of the root that imports only gradeSingleSchema, tree-shaken as a bundler does (the package's
 * `sideEffects: false`, the face's pure guards). DataPretest comes from its own module, so the bundle holds no use of
 * the root's DataPretest export: the class the grading run calls is the only one there is.
 */
async function bundleOfGradeSingleSchema(): Promise<{
    code: string
    module: {
        gradeSingleSchema: (input: unknown) => Promise<{ errors: Array<{ code: string }> }>
        DataPretest: typeof DataPretest
    }
}> {
    const entry = join(work, 'consumer.mjs')
    writeFileSync(
        entry,
        [
            `export { gradeSingleSchema } from ${JSON.stringify(src('index.ts'))}`,
            `export { DataPretest } from ${JSON.stringify(src('pretest/data-pretest.ts'))}`
        ].join('\n')
    )
    const outfile = join(work, 'consumer.bundle.mjs')
    const result = await build({
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        target: 'es2022',
        outfile,
        write: true,
        metafile: true,
        logLevel: 'silent',
        define: { __PACKAGE_VERSION__: '"0.0.0-test"' },
        plugins: [esbuildValidators]
    })
    // The modules the bundle kept code of, after tree shaking.
    const kept = Object.values(result.metafile.outputs).flatMap((output) =>
        Object.entries(output.inputs)
            .filter(([, use]) => use.bytesInOutput > 0)
            .map(([path]) => path)
    )
    return { code: kept.join('\n'), module: await import(pathToFileURL(outfile).href) }
}

describe('the boundary guard holds whatever a bundler keeps', () => {
    it('guards DataPretest.run in a bundle that imports only gradeSingleSchema, as Node does', async () => {
        const { code, module } = await bundleOfGradeSingleSchema()
        // Still tree-shaken: a guarded class the grading run never reaches (Sarif) stays out of the bundle.
        expect(code).toContain('src/pretest/data-pretest.ts')
        expect(code).not.toContain('src/report/sarif.ts')
        const bundled = await module.DataPretest.run(hostile() as never)
        expect(bundled.errors.map((e) => e.code)).toEqual(['INT-002'])
        // The same answer from the source as Node loads it.
        const node = await DataPretest.run(hostile() as never)
        expect(node.errors.map((e) => e.code)).toEqual(['INT-002'])
        expect(bundled).toEqual(node)
        const graded = await module.gradeSingleSchema(hostile())
        expect(graded.errors.map((e) => e.code)).toEqual(['INT-002'])
    }, 60_000)

    it('guards every static method of every public class where the class is defined', async () => {
        const lib = (await import('../src/index.js')) as Record<string, unknown>
        const classes = Object.entries(lib).filter(
            ([, value]) =>
                typeof value === 'function' &&
                Object.hasOwn(value, 'prototype') &&
                /^[A-Z]/.test(String((value as { name: string }).name))
        )
        expect(classes.length).toBeGreaterThan(25)
        // guardFunction names its wrapper after the bound method (`bound run`); an unguarded static keeps its own name.
        const unguarded = classes.flatMap(([name, cls]) =>
            Object.getOwnPropertyNames(cls)
                .filter((key) => !['length', 'name', 'prototype'].includes(key))
                .filter((key) => typeof (cls as Record<string, unknown>)[key] === 'function')
                .filter((key) => !((cls as Record<string, { name: string }>)[key]?.name ?? '').startsWith('bound '))
                .map((key) => `${name}.${key}`)
        )
        expect(unguarded).toEqual([])
    })
})
