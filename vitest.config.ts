import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'
// Tests run on src/ with the validators the build generates (scripts/validators.mjs).
import { viteValidators } from './scripts/validators.mjs'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }

export default defineConfig({
    plugins: [viteValidators],
    define: { __PACKAGE_VERSION__: JSON.stringify(pkg.version) },
    test: {
        include: ['test/**/*.test.ts'],
        // Says which tests a clone without ../shared does not run; fails a CI run without it.
        globalSetup: ['test/support/shared-setup.ts'],
        environment: 'node',
        pool: 'threads',
        testTimeout: 30_000
    }
})
