import { readFileSync } from 'node:fs'
import { defineConfig } from 'tsup'

// The package version is read once from package.json and injected, so it lives in one place only.
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }
const define = { __PACKAGE_VERSION__: JSON.stringify(pkg.version) }

export default defineConfig([
    {
        entry: { index: 'src/index.ts' },
        format: ['esm', 'cjs'],
        dts: { compilerOptions: { ignoreDeprecations: '6.0' } },
        sourcemap: true,
        clean: true,
        target: 'es2022',
        platform: 'neutral',
        removeNodeProtocol: false,
        define,
        // @noble/hashes 2.x ships ESM only: bundle it so the CJS build works on every Node 20.x.
        noExternal: ['@noble/hashes']
    },
    {
        entry: { cli: 'src/cli/main.ts' },
        format: ['esm'],
        dts: false,
        sourcemap: true,
        clean: false,
        target: 'node20',
        platform: 'node',
        removeNodeProtocol: false,
        define,
        banner: { js: '#!/usr/bin/env node' },
        external: ['flowmcp-grading']
    }
])
