// Deterministic (offline) grading of the 61 real schemas of ../shared/corpus-sample, schemas per
// second, beside the floor measured in the same run: reading and importing each file once.
// Rounds alternate floor and grading, so both see the same machine load; medians of the rounds.
// Skipped when ../shared/corpus-sample is absent.
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { gradeSingleSchema } from '../dist/index.js'

const SAMPLE = new URL('../../shared/corpus-sample/', import.meta.url)
const now = '2026-11-24T00:00:00Z'
const ROUNDS = 7

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function gradeAll(loaded) {
    for (const { url, text, main } of loaded)
        await gradeSingleSchema({ schema: { main }, fileName: url.pathname, options: { now, source: text } })
}

export async function run() {
    if (!existsSync(new URL('files.json', SAMPLE)))
        return [{ name: 'corpus sample absent (../shared/corpus-sample): skipped', note: '' }]
    const files = JSON.parse(readFileSync(new URL('files.json', SAMPLE), 'utf8')).map(
        (f) => new URL(`schemas/${f}`, SAMPLE)
    )
    const floor = []
    const grade = []
    for (let round = 0; round < ROUNDS; round += 1) {
        // Floor: read + import each module once (fresh module instances through a query string).
        let t = performance.now()
        const loaded = []
        for (const url of files) {
            const text = await readFile(url, 'utf8')
            const mod = await import(`${url.href}?round=${round}`)
            loaded.push({ url, text, main: mod.main ?? mod.schema })
        }
        floor.push(performance.now() - t)
        // The first pass compiles the grading code, so it is not timed (the floor has nothing to warm up).
        if (round === 0) await gradeAll(loaded)
        // Grading from the loaded main and source text: check, scan, key domains, pretest plan, deterministic answers, prompts.
        t = performance.now()
        await gradeAll(loaded)
        grade.push(performance.now() - t)
    }
    const floorMs = median(floor)
    const gradeMs = median(grade)
    const perSec = (ms) => Math.round((files.length / ms) * 1000)
    return [
        {
            name: `baseline: read + import ${files.length} corpus schemas`,
            opsPerSec: perSec(floorMs),
            note: `${(floorMs / files.length).toFixed(2)} ms per schema`
        },
        {
            name: `gradeSingleSchema offline, ${files.length} corpus schemas`,
            opsPerSec: perSec(gradeMs),
            note: `${(gradeMs / files.length).toFixed(2)} ms per schema`
        }
    ]
}
