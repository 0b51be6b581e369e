import { pathToFileURL } from 'node:url'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    DeterministicAnswers,
    Grading,
    gradeSingleSchema,
    HashGenerator,
    readModuleSource,
    validateGradingEntry,
    type GradingEntry
} from '../../src/index.js'
import { questionRows } from '../../src/deterministic/answers.js'
import { shared } from '../support/shared.js'
import { grader, scriptedJudge } from '../grade/helpers.js'

// The 61 real schemas of ../shared/corpus-sample, graded by the library as the CLI reads them, then re-checked
// against their own source as a registry would: no honest entry of a schema nobody here wrote may be refused.
const { present } = shared('corpus-sample/files.json')
const SAMPLE = pathToFileURL(shared('corpus-sample/').path)
const files: string[] = present ? (JSON.parse(readFileSync(new URL('files.json', SAMPLE), 'utf8')) as string[]) : []
const NOW = '2026-11-22T18:00:00Z'
const refusals = (r: { errors: ReadonlyArray<{ code: string; severity: string }> }): string[] =>
    r.errors.filter((i) => i.severity === 'error' || /^(RCK|BND)-/.test(i.code)).map((i) => i.code)

/** A tools-aggregate-schema entry of a source: the code's answers and veto, a judge's 4 on the rest. */
function schemaEntry(source: string): GradingEntry {
    const main = readModuleSource({ source }).module?.main as Record<string, unknown>
    const built = DeterministicAnswers.build({ main, source, questions: questionRows(), now: NOW })
    const llm = [2, 3, 4, 5, 6].map((n) => ({
        questionId: `Q-tools-aggregate-schema-0${n}`,
        score: 4,
        weight: n >= 5 ? 0.5 : 0.25,
        determinism: 'non-deterministic',
        graderIdentity: { kind: 'llm', name: 'judge', version: '1' },
        llmModel: 'judge',
        selectionContext: { groupId: 'g', personaIds: ['decision-maker'] },
        timestamp: NOW,
        reasoning: 'Scored against the question.'
    }))
    const { entry, errors } = Grading.createEntry({
        schemaId: `${String(main.namespace)}.schema`,
        area: 'tools-aggregate-schema',
        version: 'flowmcp/4.0.0',
        schemaHash: HashGenerator.computeSchemaHash({ schema: main }).short as string,
        gradingMode: 'full',
        now: NOW,
        gradings: [...built.byArea['tools-aggregate-schema'], ...(built.veto === null ? llm : [])],
        ...(built.veto !== null ? { categoricalVeto: built.veto } : {})
    })
    if (entry === null) throw new Error(JSON.stringify(errors))
    return JSON.parse(JSON.stringify(entry)) as GradingEntry
}

describe.skipIf(!present)('re-check of the corpus sample against its sources (issue 45)', () => {
    it('binds every entry a grading run writes to its source: the hash the run computed is the one re-computed', async () => {
        let entries = 0
        for (const file of files) {
            const source = readFileSync(new URL(`schemas/${file}`, SAMPLE), 'utf8')
            const path = `/src/${file}`
            const result = await gradeSingleSchema({
                schemaPath: path,
                grader,
                options: { sourceFs: createMemoryFs({ [path]: source }), now: NOW, judge: scriptedJudge(4).judge }
            })
            for (const entry of result.entries as GradingEntry[]) {
                entries++
                const r = validateGradingEntry({ entry, now: NOW, expect: { schemaId: entry.schemaId, source } })
                expect([file, entry.area, refusals(r)]).toEqual([file, entry.area, []])
            }
        }
        expect(entries).toBeGreaterThanOrEqual(files.length)
    }, 300_000)

    it('recomputes the deterministic answers of each real schema and accepts the honest entry', () => {
        let recomputed = 0
        for (const file of files) {
            const source = readFileSync(new URL(`schemas/${file}`, SAMPLE), 'utf8')
            const entry = schemaEntry(source)
            const r = validateGradingEntry({ entry, now: NOW, strict: true, expect: { source } })
            expect([file, refusals(r)]).toEqual([file, []])
            if (r.valid) recomputed += r.provenance.answers.filter((a) => a.standing === 'recomputed').length
        }
        expect(recomputed).toBeGreaterThanOrEqual(2 * files.length)
    }, 300_000)
})
