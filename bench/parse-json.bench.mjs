// parseJson (limits, plain-JSON guard and I-JSON: no BOM, duplicate key or lone surrogate) against
// plain JSON.parse of the same text, in the same run. The exact I-JSON scan runs only when a cheap
// test says it may find something (fewer distinct members than `:` separators, or a surrogate
// escape); the rows show the common case (an entry as the library writes it) and the text that
// needs the scan (the same entry with its emoji written as `\uD83D\uDE00` escapes).
import { readFileSync } from 'node:fs'
import { Bench } from 'tinybench'
import { parseJson } from '../dist/index.js'

const entry = JSON.parse(
    readFileSync(new URL('../test/fixtures/entries/valid/grading-autonomous.json', import.meta.url), 'utf8')
)
const pretty = `${JSON.stringify(entry, null, 4)}\n`
// A judge's paragraph on every answer, one emoji in each: still no scan (raw pairs are well formed).
const paragraph =
    'The tool description names the data source, the unit of every returned field and the rate limit 😀 '.repeat(10)
const wordy = `${JSON.stringify({ ...entry, gradings: entry.gradings.map((g) => ({ ...g, reasoning: paragraph })) }, null, 4)}\n`
const escaped = wordy.replace(/😀/g, '\\uD83D\\uDE00')
for (const text of [pretty, wordy, escaped])
    if (parseJson({ text }).errors.length > 0) throw new Error('bench texts must be I-JSON')

export async function run() {
    const bench = new Bench({ time: 600, warmupTime: 150 })
    bench
        .add('baseline: JSON.parse (entry, 4-space indent)', () => JSON.parse(pretty))
        .add('parseJson (entry, 4-space indent)', () => parseJson({ text: pretty }))
        .add('JSON.parse (entry, 1,000-char reasoning with emoji)', () => JSON.parse(wordy))
        .add('parseJson (entry, 1,000-char reasoning with emoji)', () => parseJson({ text: wordy }))
        .add('JSON.parse (same, emoji as \\u escapes)', () => JSON.parse(escaped))
        .add('parseJson (same, emoji as \\u escapes: exact scan)', () => parseJson({ text: escaped }))
    await bench.run()
    return bench.tasks.map((t) => ({ name: t.name, opsPerSec: Math.round(t.result.throughput.mean) }))
}
