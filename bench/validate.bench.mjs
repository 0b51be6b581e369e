// validateGradingEntry against a plain ajv validator of the shipped entry schema, on the same
// entries in the same run. ajv checks structure only; validateGradingEntry adds the plain-JSON
// guard, the dedicated score/evidence/veto checks and every semantic rule (grade recomputed).
// The structural step alone: ajv's standalone code for the shipped schema, generated at build time (what the
// package runs, no code generation at run time; it adds each error's `data`), against the same schema compiled by
// ajv at run time with the same options (`allErrors`), on valid entries and on one with errors.
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { Bench } from 'tinybench'
import { Grading, validateGradingEntry } from '../dist/index.js'
import { validateGradingModel } from '../dist/validation/validators.js'

const entry = JSON.parse(
    readFileSync(new URL('../test/fixtures/entries/valid/grading-autonomous.json', import.meta.url), 'utf8')
)
const big = {
    ...entry,
    gradings: Array.from({ length: 10 }, (_, i) => ({
        ...entry.gradings[i % 3],
        questionId: `Q-single-test-${String(i + 1).padStart(2, '0')}`
    }))
}
big.aggregateGrade = Grading.computeAggregateGrade({ entry: big }).aggregateGrade
// The same with a judge's paragraph of reasoning (1,000 characters) on every answer.
const paragraph = 'The tool description names the data source, the unit of every returned field and the rate limit; '
    .repeat(10)
    .slice(0, 1000)
const wordy = {
    ...big,
    gradings: big.gradings.map((g) => ({
        ...g,
        ...(g.reasoning !== undefined ? { reasoning: paragraph } : {}),
        ...(typeof g.evidence === 'string' ? { evidence: paragraph } : {})
    }))
}
const schema = JSON.parse(readFileSync(new URL('../schemas/grading-model.schema.json', import.meta.url), 'utf8'))
// The spec's schema does not compile in strict mode; otherwise ajv's defaults.
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true })
addFormats(ajv)
const plain = ajv.compile(schema)
const ajvAll = new Ajv2020({ strict: false, allowUnionTypes: true, allErrors: true })
addFormats(ajvAll)
const compiled = ajvAll.compile(schema)
const broken = {
    ...big,
    gradings: big.gradings.map((g, i) => (i % 2 === 0 ? { ...g, score: 'high', extra: true } : g))
}
if (compiled(broken) || validateGradingModel(broken) || compiled.errors.length !== validateGradingModel.errors.length)
    throw new Error('the broken entry must fail alike')
// The ten-answer entries are structurally valid but break the catalogue rules added since
// (GRD-056 determinism, GRD-065 weights), so their validateGradingEntry rows time the error path.
if (!validateGradingEntry({ entry }).valid) throw new Error('the bench entry must be valid')
// Registry intake on the same entry: strict mode needs the validation time.
const strict = { strict: true, now: '2027-01-01T00:00:00Z' }
if (!validateGradingEntry({ entry, ...strict }).valid) throw new Error('the bench entry must be valid in strict mode')
for (const e of [entry, big, wordy])
    if (!plain(e) || !validateGradingModel(e)) throw new Error('bench entries must match the schema')

export async function run() {
    const bench = new Bench({ time: 1000, warmupTime: 200 })
    bench
        .add('baseline: plain ajv, shipped schema (3 answers)', () => plain(entry))
        .add('validateGradingEntry (3 answers)', () => validateGradingEntry({ entry }))
        .add('validateGradingEntry, strict (3 answers)', () => validateGradingEntry({ entry, ...strict }))
        .add('plain ajv, shipped schema (10 answers)', () => plain(big))
        .add('validateGradingEntry (10 answers)', () => validateGradingEntry({ entry: big }))
        .add('plain ajv, shipped schema (10 answers, 1,000-char texts)', () => plain(wordy))
        .add('validateGradingEntry (10 answers, 1,000-char texts)', () => validateGradingEntry({ entry: wordy }))
        .add('schema step: ajv compiled, allErrors (10 answers)', () => compiled(big))
        .add('schema step: generated at build time (10 answers)', () => validateGradingModel(big))
        .add('schema step: ajv compiled, allErrors (10 answers, 1,000-char texts)', () => compiled(wordy))
        .add('schema step: generated at build time (10 answers, 1,000-char texts)', () => validateGradingModel(wordy))
        .add('schema step: ajv compiled, allErrors (10 answers, 10 errors)', () => compiled(broken))
        .add('schema step: generated at build time (10 answers, 10 errors)', () => validateGradingModel(broken))
    await bench.run()
    return bench.tasks.map((t) => ({ name: t.name, opsPerSec: Math.round(t.result.throughput.mean) }))
}
