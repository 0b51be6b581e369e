// Runs every bench/*.bench.mjs (or those named on the command line) and prints ops/s and ratios to the first baseline of each file.
import { readdirSync } from 'node:fs'

const only = process.argv.slice(2)
const files = readdirSync(new URL('.', import.meta.url)).filter(
    (f) => f.endsWith('.bench.mjs') && (only.length === 0 || only.some((o) => f.includes(o)))
)
for (const file of files) {
    const mod = await import(new URL(file, import.meta.url))
    if (typeof mod.run !== 'function') continue
    const rows = await mod.run()
    const baseline = rows.find((r) => r.name.startsWith('baseline')) ?? rows[0]
    process.stdout.write(`\n${file}\n`)
    for (const r of rows) {
        const ratio = r.opsPerSec === undefined ? '' : `${(baseline.opsPerSec / r.opsPerSec).toFixed(2)}× baseline time`
        process.stdout.write(
            `  ${r.name.padEnd(56)} ${String(r.opsPerSec ?? '').padStart(10)} ops/s  ${ratio}${r.note ? `  ${r.note}` : ''}\n`
        )
    }
}
