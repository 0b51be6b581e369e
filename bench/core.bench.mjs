// Throughput of the grading core, each figure beside a baseline measured in the same run.
import { readFileSync } from 'node:fs'
import { Bench } from 'tinybench'
import { Grading, HashGenerator, validateGradingEntry } from '../dist/index.js'

const text = readFileSync(new URL('../test/fixtures/entries/valid/grading-autonomous.json', import.meta.url), 'utf8')
const entry = JSON.parse(text)
// A larger, realistic entry: one answer per question of a 10-question area.
const big = {
    ...entry,
    gradings: Array.from({ length: 10 }, (_, i) => ({
        ...entry.gradings[i % 3],
        questionId: `Q-single-test-${String(i + 1).padStart(2, '0')}`
    }))
}
big.aggregateGrade = Grading.computeAggregateGrade({ entry: big }).aggregateGrade

export async function run() {
    const bench = new Bench({ time: 1000, warmupTime: 200 })
    bench
        .add('baseline: JSON.parse + JSON.stringify (3 answers)', () => JSON.stringify(JSON.parse(text)))
        .add('validateGradingEntry (3 answers)', () => validateGradingEntry({ entry }))
        .add('validateGradingEntry (10 answers)', () => validateGradingEntry({ entry: big }))
        .add('computeAggregateGrade (3 answers)', () => Grading.computeAggregateGrade({ entry }))
        .add('computeAggregateGrade (10 answers)', () => Grading.computeAggregateGrade({ entry: big }))
        .add('HashGenerator.computeHash (entry)', () => HashGenerator.computeHash({ value: entry }))
        .add('baseline: hashBytes of JSON.stringify (entry)', () =>
            HashGenerator.hashBytes({ text: JSON.stringify(entry) })
        )
    await bench.run()
    return bench.tasks.map((t) => ({ name: t.name, opsPerSec: Math.round(t.result.throughput.mean) }))
}
