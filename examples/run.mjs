// The main job on the bundled example: grades every schema in examples/providers into a fresh
// temporary island, offline (recorded HTTP exchanges) and with recorded harness answers.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const here = new URL('.', import.meta.url).pathname
const island = mkdtempSync(join(tmpdir(), 'flowmcp-island-'))
const cli = new URL('../dist/cli.js', import.meta.url).pathname
const args = [
    cli,
    'grade',
    join(here, 'providers'),
    '--island',
    island,
    '--recordings',
    join(here, 'recordings'),
    '--answers',
    join(here, 'answers.json'),
    '--now',
    '2026-11-22T18:00:00Z'
]

process.stdout.write(`Grading examples/providers into ${island}\n\n`)
const run = spawnSync(process.execPath, args, {
    stdio: 'inherit',
    env: { ...process.env, ETHERSCAN_API_KEY: 'example-key-not-real' }
})
for (const ns of ['openmeteo', 'etherscan', 'quakefeed', 'sportsodds']) {
    try {
        const index = JSON.parse(readFileSync(join(island, 'providers', ns, 'index.json'), 'utf8'))
        process.stdout.write(
            `${`${ns}/index.json`.padEnd(26)} status ${index.status}${index.grade !== undefined ? `, grade ${index.grade}` : ''}\n`
        )
    } catch {
        process.stdout.write(`${`${ns}/index.json`.padEnd(26)} not written\n`)
    }
}
// Exit 1 from the CLI means "findings" (a veto, a blocked tool): expected for this example set.
process.exitCode = run.status === 0 || run.status === 1 ? 0 : (run.status ?? 2)
