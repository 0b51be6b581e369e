import { pathToFileURL } from 'node:url'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
    Areas,
    DataPretest,
    DeterministicAnswers,
    gradeSingleSchema,
    InjectionScan,
    KeyDomain,
    SchemaCheck,
    ScoringProtocol
} from '../../src/index.js'
import { AREAS } from '../../src/catalogue.js'
import { shared } from '../support/shared.js'

// The 61 real schemas of ../shared/corpus-sample (never copied into the project). Skipped where shared/ is absent.
const { present } = shared('corpus-sample/files.json')
const SAMPLE = pathToFileURL(shared('corpus-sample/').path)
const files: string[] = present ? (JSON.parse(readFileSync(new URL('files.json', SAMPLE), 'utf8')) as string[]) : []
const registry = JSON.parse(
    readFileSync(new URL('../fixtures/corpus/registry-sample.json', import.meta.url), 'utf8')
) as Array<{
    file: string
    schemaId: string
    grade: string
    score: number
    schemaHash: string
    dimensions: Array<{ dimension: string; score: number }>
}>

interface Loaded {
    readonly file: string
    readonly main: Record<string, any>
    readonly text: string
}

async function load(file: string): Promise<Loaded> {
    const url = new URL(`schemas/${file}`, SAMPLE)
    const mod = (await import(url.href)) as { main?: Record<string, any>; schema?: Record<string, any> }
    return { file, main: (mod.main ?? mod.schema) as Record<string, any>, text: readFileSync(url, 'utf8') }
}

const now = '2026-11-24T00:00:00Z'
const questionRows = () =>
    AREAS.flatMap((area) =>
        Areas.questions({ area }).questions.map((q) => ({
            id: q.id,
            area: q.area,
            weight: q.weight,
            determinism: q.determinism,
            dimension: q.dimension
        }))
    )

describe.skipIf(!present)(
    'the real corpus sample (../shared/corpus-sample): graded as the FlowMCP runtime runs it',
    () => {
        it('has 61 schemas and a registry fact for each', () => {
            expect(files).toHaveLength(61)
            expect(registry.map((r) => r.file).sort()).toEqual([...files].sort())
        })

        it('passes the structural gate for every schema the runtime accepts: no error, spec-strict findings are warnings', async () => {
            const failing: string[] = []
            for (const file of files) {
                const { main } = await load(file)
                const result = SchemaCheck.validateMain({ main })
                if (!result.valid)
                    failing.push(
                        `${file}: ${result.errors
                            .filter((e) => e.severity === 'error')
                            .map((e) => `${e.code} ${e.path}`)
                            .join(', ')}`
                    )
            }
            expect(failing).toEqual([])
        })

        it('vetoes none of the registry-graded schemas (a veto only on certainty)', async () => {
            const vetoed: string[] = []
            for (const file of files) {
                const { main, text } = await load(file)
                const keys = KeyDomain.check({ main })
                const answers = DeterministicAnswers.build({ main, source: text, questions: questionRows(), now })
                if (keys.mismatches.length > 0 || answers.veto !== null)
                    vetoed.push(`${file}: ${answers.veto?.evidence ?? keys.mismatches.map((m) => m.param).join(', ')}`)
            }
            expect(vetoed).toEqual([])
        })

        it('builds a request for every test the runtime can resolve, and names the reason for every other', async () => {
            const counts = { tests: 0, planned: 0, duplicate: 0, unbuildable: 0 }
            const reasons = new Set<string>()
            for (const file of files) {
                const { main } = await load(file)
                const serverParams = Object.fromEntries(
                    ((main.requiredServerParams ?? []) as string[]).map((k) => [k, `value-of-${k}`])
                )
                const result = await DataPretest.run({ main, serverParams, now, dryRun: true, checkDocs: false })
                for (const r of result.results) {
                    counts.tests += 1
                    if (r.status === 'planned') counts.planned += 1
                    else if (r.status === 'duplicate') counts.duplicate += 1
                    else if (r.status === 'unbuildable') {
                        counts.unbuildable += 1
                        reasons.add((r.error ?? '').replace(/server parameter \w+/, 'server parameter NAME'))
                    } else throw new Error(`${file} ${r.tool}#${r.testIndex}: unexpected ${r.status}`)
                }
            }
            expect(counts).toEqual({ tests: 507, planned: 435, duplicate: 22, unbuildable: 50 })
            // Unbuildable: a value template the schema never declares (the runtime would send ''), or a root only handlers resolve.
            expect([...new Set([...reasons].map((r) => r.replace(/\(.*$/, '')))].sort()).toEqual([
                'DPT-012: main.root names no callable host ',
                'DPT-012: server parameter NAME is not declared in requiredServerParams '
            ])
        })

        it('reproduces every registry report (grade, score, sha256 hash) with the library’s own validation', async () => {
            const mismatches: string[] = []
            for (const fact of registry) {
                const { main, text } = await load(fact.file)
                const validation = SchemaCheck.validateMain({ main })
                const { prompts } = ScoringProtocol.emitPrompts({
                    schemaId: fact.schemaId,
                    schemaPath: `/registry/schemas/v4.0.0/providers/${fact.file}`,
                    schema: main
                })
                const scores = {
                    schemaIdSlug: fact.schemaId.replace('/', '_'),
                    scoringProtocol: 'v1',
                    creator: { skill: 'grade-score-single', skillVersion: '1.0.0', session: 'registry' },
                    harness: { name: 'registry', version: '1.0.0', model: 'unknown', modelContext: 'unknown' },
                    timestamp: '2026-05-18T00:00:00Z',
                    scores: fact.dimensions.map((d) => ({ ...d, reasoning: 'from the registry' }))
                }
                const { report, errors } = ScoringProtocol.buildReport({
                    prompts,
                    scores,
                    schemaSource: text,
                    validation: {
                        passed: validation.valid,
                        errors: validation.errors.filter((e) => e.severity === 'error').map((e) => e.code)
                    },
                    now: '2026-05-18T14:49:32Z'
                })
                if (report === null)
                    mismatches.push(`${fact.file}: ${errors.map((e) => `${e.code} ${e.path} ${e.message}`).join(', ')}`)
                else if (
                    report.grade !== fact.grade ||
                    Math.abs(report.score - fact.score) > 1e-9 ||
                    report.schemaHash !== fact.schemaHash
                ) {
                    mismatches.push(
                        `${fact.file}: ${report.grade} ${report.score} ${report.schemaHash} vs ${fact.grade} ${fact.score} ${fact.schemaHash}`
                    )
                }
            }
            expect(mismatches).toEqual([])
        })

        it('grades every schema offline with one id per schema, <namespace>.<file base> (the registry’s <namespace>/<file base>)', async () => {
            for (const fact of registry.slice(0, 12)) {
                const { main, text } = await load(fact.file)
                const fileName = fact.file.split('/')[1] as string
                const result = await gradeSingleSchema({ schema: { main }, fileName, options: { now, source: text } })
                expect(result.grading?.schemaId).toBe(fact.schemaId.replace('/', '.'))
                expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
            }
        })

        it('flags none of the 61 real schemas as text aimed at the grader (no INJ- finding), and fences each of their requests', async () => {
            const flagged: string[] = []
            for (const file of files) {
                const { main, text } = await load(file)
                const scan = InjectionScan.scan({ main, files: [{ name: file, text, source: true }] })
                flagged.push(
                    ...[...scan.findings, ...scan.errors].map((f) => `${file}: ${f.code} ${f.path} ${f.message}`)
                )
                const result = await gradeSingleSchema({
                    schema: { main },
                    fileName: file.split('/')[1] as string,
                    options: { now, source: text }
                })
                flagged.push(
                    ...result.errors.filter((e) => e.code.startsWith('INJ-')).map((e) => `${file}: ${e.code} ${e.path}`)
                )
                // Every file of every request sits in a data block under the one boundary the system message names.
                expect(result.prompts.length).toBeGreaterThan(0)
                const boundary = /<<<END ([A-Z][A-Z0-9-]+-[0-9a-f]{16})>>>/.exec(
                    result.prompts[0]?.messages[0]?.content ?? ''
                )?.[1]
                for (const p of result.prompts) {
                    expect(p.messages[0]?.content).toContain(`<<<END ${boundary}>>>`)
                    expect(p.messages[1]?.content).toContain(`<<<${boundary} name=`)
                    expect(p.messages[3]?.content).not.toContain('Flagged')
                }
            }
            expect(flagged).toEqual([])
        })
    }
)
