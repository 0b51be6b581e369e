import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMANDS, optionsHelp } from '../../src/cli/options.js'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

// Each `--json` document the CLI prints is described by a JSON Schema in schemas/cli/: real output of every command,
// on the bundled examples and the test fixtures, its failures too, is validated against it.
const ROOT = new URL('../../', import.meta.url).pathname
const SCHEMAS = join(ROOT, 'schemas', 'cli')
const examples = join(ROOT, 'examples')
const fixtures = join(ROOT, 'test', 'fixtures')
const now = '2026-11-22T18:00:00Z'
const env = { ETHERSCAN_API_KEY: 'example-key-not-real' }

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false })
addFormats.default(ajv)
const read = (file: string): object => JSON.parse(readFileSync(file, 'utf8')) as object
const files = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))
for (const f of files) ajv.addSchema(read(join(SCHEMAS, f)))
// rebuild-index's document holds an index.json, described by the schema that ships for it (written before ajv's
// strict types, hence strictTypes off).
ajv.addSchema(read(join(ROOT, 'schemas', 'index.schema.json')))
const validatorOf = (name: string): ValidateFunction => {
    const v = ajv.getSchema(`https://flowmcp-grading.dev/schemas/cli/${name}.schema.json`)
    if (v === undefined) throw new Error(`no schema ${name}`)
    return v
}

let dir = ''
let island = ''
beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-json-'))
    island = join(dir, 'island')
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

/** Runs the CLI and returns its exit code and the one JSON document on stdout. */
async function document(argv: string[], files: Record<string, string> = {}): Promise<{ code: number; doc: unknown }> {
    const io = memoryIo(files, { cwd: dir, env })
    const code = await run(argv, io)
    return { code, doc: JSON.parse(io.out()) as unknown }
}

/**
 * The document valid against the command's schema, with ajv's errors as the failure's message; and its mutants
 * refused: each top-level field the schema requires taken away, a field no command writes added.
 */
function expectValid(name: string, doc: unknown): void {
    const validate = validatorOf(name)
    const ok = validate(doc)
    expect(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toBe(true)
    const required = (
        ajv.getSchema(`https://flowmcp-grading.dev/schemas/cli/${name}.schema.json`)?.schema as {
            required: string[]
        }
    ).required
    for (const field of required) {
        const { [field]: _, ...without } = doc as Record<string, unknown>
        expect(validate(without), `${name} without ${field}`).toBe(false)
    }
    expect(validate({ ...(doc as object), unexpected: true })).toBe(false)
}

const grading = ['--recordings', join(examples, 'recordings'), '--answers', join(examples, 'answers.json')]

describe('every --json document validates against its schema in schemas/cli/', () => {
    it('grade --json (into an island, and without one) and grade --estimate --json', async () => {
        const into = await document([
            'grade',
            join(examples, 'providers'),
            '--island',
            island,
            ...grading,
            '--now',
            now,
            '--json'
        ])
        expect(into.code).toBe(0)
        expectValid('grade', into.doc)
        // Deep too: a fix item with a field FixItem does not have is refused.
        const schemas = (into.doc as { schemas: Array<{ fixList: Array<Record<string, unknown>> }> }).schemas
        const first = schemas.find((s) => s.fixList.length > 0) as { fixList: Array<Record<string, unknown>> }
        first.fixList[0] = { ...first.fixList[0], colour: 'red' }
        expect(validatorOf('grade')(into.doc)).toBe(false)
        // Without answers the units stay open (prompts), without recordings the tools are untested (blocked).
        const open = await document([
            'grade',
            join(examples, 'providers/openmeteo'),
            '--recordings',
            join(examples, 'recordings'),
            '--now',
            now,
            '--json'
        ])
        expect((open.doc as { schemas: Array<{ prompts: unknown[] }> }).schemas[0]?.prompts.length).toBeGreaterThan(0)
        expectValid('grade', open.doc)
        const blocked = await document(['grade', join(examples, 'providers/quakefeed'), '--now', now, '--json'])
        expectValid('grade', blocked.doc)
        const estimate = await document([
            'grade',
            join(examples, 'providers'),
            '--estimate',
            '--price-input',
            '3',
            '--json'
        ])
        expect(estimate.code).toBe(0)
        expectValid('grade-estimate', estimate.doc)
    })

    it('check --json (passing, failing and against a baseline)', async () => {
        const passed = await document([
            'check',
            join(examples, 'providers'),
            '--island',
            island,
            ...grading,
            '--now',
            now,
            '--json',
            '--min-grade',
            'F',
            '--allow-unverified'
        ])
        expectValid('check', passed.doc)
        const failed = await document([
            'check',
            join(examples, 'providers'),
            ...grading,
            '--now',
            now,
            '--json',
            '--min-grade',
            'B',
            '--baseline',
            island,
            '--max-warnings',
            '0'
        ])
        expect(failed.code).toBe(1)
        expectValid('check', failed.doc)
    })

    it('report, rebuild-index and export --json', async () => {
        const report = await document(['report', island, '--json'])
        expect(report.code).toBe(0)
        expectValid('report', report.doc)
        const written = await document([
            'report',
            island,
            '--json',
            '--out',
            join(dir, 'report.html'),
            '--baseline',
            island
        ])
        expectValid('report', written.doc)
        const rebuilt = await document([
            'rebuild-index',
            join(island, 'providers', 'openmeteo'),
            '--now',
            now,
            '--json'
        ])
        expectValid('rebuild-index', rebuilt.doc)
        const exported = await document(['export', 'openmeteo', join(dir, 'out'), '--island', island, '--json'])
        expect(exported.code).toBe(0)
        expectValid('export', exported.doc)
        const refused = await document(['export', 'openmeteo', join(dir, 'out'), '--island', island, '--json'])
        expect(refused.code).not.toBe(0)
        expectValid('export', refused.doc)
    })

    it('affected --json', async () => {
        const changed = join(dir, 'changed.txt')
        await writeFile(
            changed,
            ['examples/providers/openmeteo/forecast.mjs', 'examples/recordings/quakefeed.json'].join('\n')
        )
        const io = memoryIo({}, { cwd: ROOT, env })
        const argv = ['affected', join(examples, 'providers'), '--changed-files', changed, '--island', island]
        expect(await run([...argv, '--recordings', join(examples, 'recordings'), '--json'], io)).toBe(0)
        const doc = JSON.parse(io.out()) as { folders: unknown[] }
        expect(doc.folders.length).toBeGreaterThan(0)
        expectValid('affected', doc)
    })

    it('validate --json (valid, invalid and unreadable files, and registry intake)', async () => {
        const entries = join(examples, 'entries')
        const names = readdirSync(entries).map((f) => join(entries, f))
        const plain = await document(['validate', ...names, join(dir, 'missing.json'), '--json'])
        expect(plain.code).not.toBe(0)
        expectValid('validate', plain.doc)
        const intake = await document(['validate', names[1] as string, '--schema-id', 'etherscan/contracts', '--json'])
        expectValid('validate', intake.doc)
    })

    it('consume-scores --json (accepted, rejected, and a usage error)', async () => {
        const schema = join(examples, 'providers/openmeteo/forecast.mjs')
        const emit = memoryIo()
        expect(await run(['emit-prompts', schema], emit)).toBe(0)
        const prompts = JSON.parse(emit.out()) as { prompts: Array<{ dimension: string }> }
        const scores = {
            schemaIdSlug: 'openmeteo_forecast',
            scoringProtocol: 'v1',
            creator: { skill: 'flowmcp-scoring', skillVersion: '1.0.0', session: 's-1' },
            harness: { name: 'claude-code', version: '2.1.0', model: 'claude-opus-4-7', modelContext: '200k' },
            timestamp: now,
            scores: prompts.prompts.map((p) => ({ dimension: p.dimension, score: 4.5, reasoning: 'clear' }))
        }
        const files = { 'p.json': emit.out(), 's.json': JSON.stringify(scores), 'bad.json': '{"scoringProtocol":"v9"}' }
        const accepted = await document(
            ['consume-scores', 'p.json', 's.json', '--schema', schema, '--now', now, '--json'],
            files
        )
        expect(accepted.code).toBe(0)
        expectValid('consume-scores', accepted.doc)
        const rejected = await document(
            ['consume-scores', 'p.json', 'bad.json', '--schema', schema, '--now', now, '--json'],
            files
        )
        expect(rejected.code).toBe(1)
        expectValid('consume-scores', rejected.doc)
        const usage = await document(['consume-scores', 'p.json', '--json'], files)
        expect(usage.code).toBe(2)
        expectValid('consume-scores', usage.doc)
    })

    it('rubric --json (judge and workflow inputs, and one that does not parse)', async () => {
        for (const f of ['judge-input.json', 'workflow-input.json', 'workflow-rubric.invalid.json'])
            expectValid('rubric', (await document(['rubric', join(fixtures, 'rubrics', f), '--json'])).doc)
        const broken = await document(['rubric', 'x.json', '--json'], { 'x.json': '{' })
        expect(broken.code).toBe(1)
        expectValid('rubric', broken.doc)
    })

    it('version --json', async () => {
        expectValid('version', (await document(['version', '--json'])).doc)
    })
})

describe('the schemas of the --json documents', () => {
    it('one per command that takes --json, grade --estimate besides, each with its $id', () => {
        const withJson = COMMANDS.filter((c) => optionsHelp(c).some((o) => o.name === 'json'))
        expect(files.filter((f) => f !== 'defs.schema.json').sort()).toEqual(
            [...withJson, 'grade-estimate'].map((c) => `${c}.schema.json`).sort()
        )
        for (const f of files) {
            const schema = JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8')) as Record<string, unknown>
            expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
            expect(schema.$id).toBe(`https://flowmcp-grading.dev/schemas/cli/${f}`)
        }
    })

    it('refuses a document that is not one: a missing field, a field of the wrong type, a field no command writes', () => {
        expect(validatorOf('version')({})).toBe(false)
        expect(validatorOf('affected')({ folders: [{ folder: 1, because: [] }] })).toBe(false)
        expect(validatorOf('validate')({ files: [], extra: true })).toBe(false)
        expect(validatorOf('rubric')({ system: null, result: null, errors: [{ code: 'X' }] })).toBe(false)
    })
})
