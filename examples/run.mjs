// The main job on the bundled example: grades every schema in examples/providers into a fresh
// temporary island, offline (recorded HTTP exchanges) and with recorded harness answers. The island is
// removed at the end; `npm run example -- --keep` keeps it and says where.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
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
if (process.argv.includes('--keep')) process.stdout.write(`\nThe island is kept in ${island}\n`)
else {
    rmSync(island, { recursive: true, force: true })
    process.stdout.write('\nRemoved the temporary island (npm run example -- --keep keeps it).\n')
}
// Exit 1 from the CLI means "findings" (a veto, a blocked tool): expected for this example set.
process.exitCode = run.status === 0 || run.status === 1 ? 0 : (run.status ?? 2)
