import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { defineConfig, type Options } from 'tsup'
// The JSON Schema validators: ajv's standalone code, generated from schemas/ while building (src/validation/).
import { esbuildValidators, withoutProse } from './scripts/validators.mjs'

// The package version is read once from package.json and injected, so it lives in one place only.
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }
const define = { __PACKAGE_VERSION__: JSON.stringify(pkg.version) }
const src = resolve('src')
const cli = resolve('src/cli')

// The public entry points: the root and the subpath exports in package.json.
const publicEntries = {
    index: 'src/index.ts',
    entry: 'src/entry.ts',
    catalogue: 'src/catalogue.ts',
    rubrics: 'src/rubrics.ts'
}
// JavaScript only: the type declarations come from tsc (scripts/build.mjs), once, not from a dts pass per format.
const shared: Options = {
    target: 'es2022',
    platform: 'neutral',
    removeNodeProtocol: false,
    define,
    sourcemap: false
}

// The CLI loads the library from the ESM build beside it instead of carrying a second copy.
const libraryFromDist: NonNullable<Options['esbuildPlugins']>[number] = {
    name: 'library-from-dist',
    setup(build) {
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
            const target = resolve(args.resolveDir, args.path)
            if (!target.startsWith(`${src}/`) || target.startsWith(`${cli}/`)) return undefined
            return { path: `./${relative(src, target).replace(/\.ts$/, '.js')}`, external: true }
        })
    }
}

// The schemas only the validators import (not the area output schemas, which the library also
// exports whole): their prose (`description`, `title`, `$comment`, `examples`) is dropped from the
// bundled copy, since validation never reads it; `schemas/` ships them unchanged.
const leanSchemas: NonNullable<Options['esbuildPlugins']>[number] = {
    name: 'lean-schemas',
    setup(build) {
        build.onLoad({ filter: /[\\/]schemas[\\/][\w-]+\.schema\.json$/ }, (args) => ({
            contents: JSON.stringify(withoutProse(JSON.parse(readFileSync(args.path, 'utf8')))),
            loader: 'json'
        }))
    }
}

// The question catalogue and the dependency graph keep their provenance in src/ (where each question came
// from, the upstream file names, the change log); the bundled copy holds only the fields the library reads.
const USED_QUESTION_FIELDS = [
    'id',
    'area',
    'dimension',
    'question',
    'scoreType',
    'weight',
    'determinism',
    'tier',
    'filesToRead',
    'evaluatorTask',
    'personaRequired'
]
const pick = (value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> =>
    Object.fromEntries(keys.filter((k) => k in value).map((k) => [k, value[k]]))
const leanAreaData: NonNullable<Options['esbuildPlugins']>[number] = {
    name: 'lean-area-data',
    setup(build) {
        build.onLoad({ filter: /[\\/]areas[\\/]data[\\/]questions\.json$/ }, (args) => {
            const data = JSON.parse(readFileSync(args.path, 'utf8')) as { version: string; questions: object[] }
            const questions = data.questions.map((q) => pick(q as Record<string, unknown>, USED_QUESTION_FIELDS))
            return { contents: JSON.stringify({ version: data.version, questions }), loader: 'json' }
        })
        build.onLoad({ filter: /[\\/]areas[\\/]data[\\/]area-dependency-graph\.json$/ }, (args) => {
            const data = JSON.parse(readFileSync(args.path, 'utf8')) as Record<string, unknown>
            return { contents: JSON.stringify(pick(data, ['version', 'entries'])), loader: 'json' }
        })
    }
}

/** A Node script of the package (the CLI, the runtime child): ESM, loading the library from the build beside it. */
const nodeScript = {
    format: ['esm'] as Options['format'],
    dts: false,
    sourcemap: false,
    target: 'node20',
    platform: 'node' as const,
    removeNodeProtocol: false,
    define,
    esbuildPlugins: [libraryFromDist]
}

export default defineConfig([
    {
        // ESM, one output module per source module (the layout of src/), so a bundler drops every
        // module a consumer does not reach; `sideEffects: false` in package.json allows it.
        ...shared,
        entry: ['src/**/*.ts', '!src/cli/**'],
        format: ['esm'],
        splitting: true,
        esbuildPlugins: [leanSchemas, leanAreaData, esbuildValidators]
    },
    {
        // CJS: one self-contained file per public entry point. @noble/hashes 2.x ships ESM only:
        // bundle it so require() works on every Node 20.x.
        ...shared,
        entry: publicEntries,
        format: ['cjs'],
        noExternal: ['@noble/hashes'],
        esbuildPlugins: [leanSchemas, leanAreaData, esbuildValidators]
    },
    {
        ...nodeScript,
        entry: { cli: 'src/cli/main.ts' },
        banner: { js: '#!/usr/bin/env node' }
    },
    {
        // `flowmcp-grading/node`: the child-process runtime port for Node hosts (ESM only, as the CLI it shares code
        // with); its types are dist/node.d.ts (scripts/build.mjs).
        ...nodeScript,
        entry: { node: 'src/cli/runtime/host.ts' }
    },
    {
        // The runtime child of `grade --runtime` (started by src/cli/runtime/process.ts under Node's
        // permission model): a script of its own, loading the library from the ESM build beside it.
        ...nodeScript,
        entry: { 'runtime-child': 'src/cli/runtime/child.ts' }
    }
])
