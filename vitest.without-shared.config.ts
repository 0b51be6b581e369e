import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
import base from './vitest.config.js'

// The suite as a clone without ../shared runs it, for the price of the test files that need the folder only:
// every other file cannot see it (test/support/shared.test.ts fails on a test that reaches it around
// `shared()`), so these are the ones a missing folder can turn red. `.ci/run` runs this beside the full suite;
// locally: `npm run test:without-shared`.
const missing = join(tmpdir(), `flowmcp-no-shared-${process.pid}`)
if (existsSync(missing)) throw new Error(`${missing} exists: it stands for a missing ../shared`)
// Set before the helper is loaded (it reads them once), and inherited by the test workers. CI=false: a clone
// without ../shared skips what needs it; a CI run of the full suite fails instead.
process.env.FLOWMCP_SHARED_DIR = missing
process.env.CI = 'false'
const { sharedNeeds } = await import('./test/support/shared.js')

// Spread, not mergeConfig: that would append this include list to the full suite's.
export default defineConfig({
    ...base,
    test: {
        ...base.test,
        include: ['test/support/shared.test.ts', ...sharedNeeds().keys()],
        env: { FLOWMCP_SHARED_DIR: missing, CI: 'false' }
    }
})
