import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }

export default defineConfig({
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
