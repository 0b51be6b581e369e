// Registry intake on one honest, complete entry (tools-aggregate-schema of the openmeteo example: the code's
// answers and a judge's), in one run: plain ajv on the shipped schema (structure only) against
// validateGradingEntry in default and strict mode, with the stated facts, with the re-check against the schema's
// source, and with the DSSE/Ed25519 envelope; Grading.sign; parseJson against JSON.parse on the entry's text; and
// acceptGradingEntry, the whole intake from bytes. The signature's own cost is the envelope row's time minus the
// strict row's.
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { Bench } from 'tinybench'
import {
    acceptGradingEntry,
    DeterministicAnswers,
    Grading,
    HashGenerator,
    parseJson,
    readModuleSource,
    validateGradingEntry
} from '../dist/index.js'
import { QUESTIONS } from '../dist/catalogue.js'
import { validateGradingModel } from '../dist/validation/validators.js'

const source = readFileSync(new URL('../examples/providers/openmeteo/forecast.mjs', import.meta.url), 'utf8')
const main = readModuleSource({ source }).module.main
const now = '2026-05-29T10:00:00Z'
const questions = QUESTIONS.map((q) => ({
    id: q.id,
    area: q.area,
    weight: q.weight,
    determinism: q.determinism,
    dimension: q.dimension
}))
const det = DeterministicAnswers.build({ main, source, questions, now }).byArea['tools-aggregate-schema']
const llm = [2, 3, 4, 5, 6].map((n) => ({
    questionId: `Q-tools-aggregate-schema-0${n}`,
    score: 4,
    weight: n >= 5 ? 0.5 : 0.25,
    determinism: 'non-deterministic',
    graderIdentity: { kind: 'llm', name: 'judge', version: '1' },
    llmModel: 'judge',
    selectionContext: { groupId: 'g', personaIds: ['decision-maker'] },
    timestamp: now,
    reasoning: 'Scored against the question text and the schema.'
}))
const schemaHash = HashGenerator.computeSchemaHash({ schema: main }).short
const created = Grading.createEntry({
    schemaId: 'openmeteo.forecast',
    area: 'tools-aggregate-schema',
    version: 'flowmcp/4.0.0',
    schemaHash,
    gradingMode: 'full',
    now,
    gradings: [...det, ...llm]
})
const entry = JSON.parse(JSON.stringify(created.entry))
const text = `${JSON.stringify(entry, null, 4)}\n`
const bytes = new TextEncoder().encode(text)
const pair = generateKeyPairSync('ed25519')
const privateKey = { ...pair.privateKey.export({ format: 'jwk' }), kid: 'bench' }
const trustedKeys = [{ ...pair.publicKey.export({ format: 'jwk' }), kid: 'bench' }]
const { envelope } = Grading.sign({ entry, privateKey })

const schema = JSON.parse(readFileSync(new URL('../schemas/grading-model.schema.json', import.meta.url), 'utf8'))
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true })
addFormats(ajv)
const plain = ajv.compile(schema)

const strict = { strict: true, now: '2026-06-01T00:00:00Z' }
const facts = { schemaId: 'openmeteo.forecast', schemaHash }
const checks = {
    'validateGradingEntry, default': () => validateGradingEntry({ entry }),
    'validateGradingEntry, strict': () => validateGradingEntry({ entry, ...strict }),
    'strict + expect { schemaId, schemaHash }': () => validateGradingEntry({ entry, ...strict, expect: facts }),
    'strict + expect.source (re-check)': () => validateGradingEntry({ entry, ...strict, expect: { ...facts, source } }),
    'strict + envelope (Ed25519 verify)': () => validateGradingEntry({ entry, ...strict, envelope, trustedKeys }),
    'acceptGradingEntry (bytes, source, envelope)': () =>
        acceptGradingEntry({ bytes, ...strict, expect: { ...facts, source }, envelope, trustedKeys })
}
for (const [name, check] of Object.entries(checks)) {
    const r = check()
    if (!r.valid) throw new Error(`${name}: the bench entry must be accepted: ${JSON.stringify(r.errors)}`)
}
if (!plain(entry)) throw new Error('the bench entry must match the schema')

export async function run() {
    const bench = new Bench({ time: 800, warmupTime: 150 })
    bench
        .add('baseline: plain ajv, shipped schema', () => plain(entry))
        .add('schema step alone (ajv standalone, generated at build time)', () => validateGradingModel(entry))
    for (const [name, check] of Object.entries(checks)) bench.add(name, check)
    bench
        .add('Grading.sign', () => Grading.sign({ entry, privateKey }))
        .add('JSON.parse (entry text)', () => JSON.parse(text))
        .add('parseJson (entry text)', () => parseJson({ text }))
    await bench.run()
    const rows = bench.tasks.map((t) => ({ name: t.name, opsPerSec: Math.round(t.result.throughput.mean) }))
    const ops = Object.fromEntries(rows.map((r) => [r.name, r.opsPerSec]))
    const per = (name) => 1e6 / ops[name]
    const notes = {
        'strict + envelope (Ed25519 verify)': `signature check ≈ ${(per('strict + envelope (Ed25519 verify)') - per('validateGradingEntry, strict')).toFixed(0)} µs/entry`,
        'parseJson (entry text)': `${(ops['JSON.parse (entry text)'] / ops['parseJson (entry text)']).toFixed(2)}× JSON.parse time`
    }
    return rows.map((r) => (notes[r.name] !== undefined ? { ...r, note: notes[r.name] } : r))
}
