import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
    DataPretest,
    DeterministicAnswers,
    ErrorCodes,
    Grading,
    SecurityScan,
    validateGradingEntry,
    Veto,
    type GradingAnswer,
    type PretestResult,
    type QuestionRow
} from '../../src/index.js'
import { explainAnswer } from '../../src/deterministic/explain.js'
import { AREA_CATALOGUE } from '../../src/areas/catalogue.js'
import { fakeHttp, json } from '../pretest/fake-http.js'
import { schemaFixture, sourceFixture } from '../schema/helpers.js'

const now = '2026-05-29T10:00:00Z'
const questions = JSON.parse(
    readFileSync(new URL('../fixtures/schemas/question-rows.json', import.meta.url), 'utf8')
) as QuestionRow[]
const grader = { kind: 'script', name: 'single-schema-validator', version: '0.1.0' } as const
const llmAnswer = (questionId: string): GradingAnswer =>
    ({
        questionId,
        score: 4,
        weight: 0.34,
        determinism: 'non-deterministic',
        graderIdentity: { kind: 'llm', name: 'judge', version: '1' },
        llmModel: 'claude-opus-4-7',
        selectionContext: { groupId: 'geo', personaIds: ['ai-engineer'] },
        timestamp: now
    }) as GradingAnswer

function reply(req: { url: string; method: string }) {
    if (req.method === 'HEAD') return { status: 200, headers: {}, body: '' }
    if (req.url.includes('/search')) return json([{ lat: '52.5', lon: '13.4' }])
    if (req.url.includes('/reverse')) return json({ display_name: 'x' })
    if (req.url.includes('/details/')) return json({ place_id: 1 })
    return json({ status: '1', result: 'abi' })
}

async function pretestOf(
    name: Parameters<typeof schemaFixture>[0],
    serverParams: Record<string, string> = {}
): Promise<PretestResult> {
    return DataPretest.run({ main: schemaFixture(name), http: fakeHttp(reply), serverParams, now })
}

const score = (answers: readonly GradingAnswer[] | undefined, questionId: string) =>
    answers?.find((a) => a.questionId === questionId)

describe('DeterministicAnswers.build', () => {
    it('answers every deterministic single-test and tools-aggregate-schema question of a healthy schema', async () => {
        const main = schemaFixture('nominatim-geocoding')
        const result = DeterministicAnswers.build({
            main,
            source: sourceFixture('clean-schema.mjs'),
            pretest: await pretestOf('nominatim-geocoding'),
            questions,
            now,
            grader,
            aboutFileExists: true
        })
        expect(result.errors).toEqual([])
        expect(result.veto).toBeNull()
        const search = result.byArea['single-test'].search
        expect(search?.map((a) => [a.questionId, a.score, a.weight])).toEqual([
            ['Q-single-test-01', 'pass', 0.34],
            ['Q-single-test-02', 'pass', 0.33],
            ['Q-single-test-03', 'n/a', 0.33],
            ['Q-api-availability', 'pass', 1]
        ])
        expect(score(search, 'Q-single-test-03')).toMatchObject({ naReason: 'not-applicable-to-tool-type' })
        expect(score(result.byArea['single-test'].lookupPlace, 'Q-single-test-02')).toMatchObject({
            score: 'n/a',
            naReason: 'not-applicable-to-tool-type'
        })
        expect(result.byArea['tools-aggregate-schema'].map((a) => [a.questionId, a.score])).toEqual([
            ['Q-tools-aggregate-schema-01', 'pass'],
            ['Q-schema-structure', 'pass'],
            ['Q-security', 5]
        ])
        expect(result.byArea['about-namespace'].map((a) => [a.questionId, a.score])).toEqual([
            ['Q-about-namespace-01', 'pass']
        ])
        expect(result.blocked).toEqual([
            { area: 'single-test', tool: 'lookupPlace', reason: 'fewer-than-3-working-tests' }
        ])
    })

    it('gives every deterministic answer its evidence as reasoning: which check, on what, and the facts (a fix item never says no reasoning given)', async () => {
        const main = schemaFixture('nominatim-geocoding')
        const result = DeterministicAnswers.build({
            main,
            source: sourceFixture('clean-schema.mjs'),
            pretest: null,
            questions,
            now,
            grader
        })
        const all = [
            ...Object.values(result.byArea['single-test']).flat(),
            ...result.byArea['tools-aggregate-schema'],
            ...result.byArea['about-namespace']
        ]
        expect(all.length).toBeGreaterThan(0)
        for (const a of all)
            expect(a.reasoning, a.questionId).toMatch(
                /^The .+ (passed|failed|gave .+) for (tool \w+|the schema): .+\.$/
            )
        const output = score(result.byArea['single-test'].search, 'Q-single-test-01')
        expect(output?.reasoning).toBe(
            'The docs-URL check gave no answer (n/a, blocked-by-precondition) for tool search: pretest not-passed; docs 1.'
        )
        expect(score(result.byArea['tools-aggregate-schema'], 'Q-schema-structure')?.reasoning).toMatch(
            /^The structural validation passed for the schema: errors 0; warnings \d+; specStrictCodes none; codes /
        )
    })

    it('explains an answer without evidence or with a string evidence in one sentence', () => {
        expect(
            explainAnswer({
                questionId: 'Q-single-test-01',
                dimension: 'docsUrlReachable',
                score: 'fail',
                evidence: { docs: 0, note: 'main.docs lists no URL' },
                subject: 'tool getPrice'
            })
        ).toBe('The docs-URL check failed for tool getPrice: main.docs lists no URL; docs 0.')
        expect(explainAnswer({ questionId: 'Q-other', score: 2, evidence: 'seen on the page' })).toBe(
            'The check of Q-other gave 2 of 5: seen on the page.'
        )
        expect(explainAnswer({ questionId: 'Q-security', score: 'n/a' })).toBe(
            'The security scan gave no answer (n/a, no reason recorded): no evidence recorded.'
        )
        expect(
            explainAnswer({
                questionId: 'Q-x',
                score: 'pass',
                evidence: { nested: { deep: { deeper: [1, 2] } }, list: [[1, 2], []] }
            })
        ).toBe('The check of Q-x passed: nested (deep (deeper [1,2])); list 1 / 2, none.')
    })

    it('produces answers that validate inside a spec grading entry (01-model §7.2)', async () => {
        const result = DeterministicAnswers.build({
            main: schemaFixture('nominatim-geocoding'),
            source: sourceFixture('clean-schema.mjs'),
            pretest: await pretestOf('nominatim-geocoding'),
            questions,
            now,
            grader
        })
        // A full entry answers its area's whole catalogue (GRD-058): the LLM answers the questions code leaves open.
        const complete = (
            area: 'single-test' | 'tools-aggregate-schema',
            code: readonly GradingAnswer[]
        ): GradingAnswer[] => [
            ...code,
            ...AREA_CATALOGUE[area].questionIds.filter((id) => !code.some((a) => a.questionId === id)).map(llmAnswer)
        ]
        const entries = [
            ['single-test', complete('single-test', result.byArea['single-test'].search ?? [])],
            ['single-test', complete('single-test', result.byArea['single-test'].lookupPlace ?? [])],
            ['tools-aggregate-schema', complete('tools-aggregate-schema', result.byArea['tools-aggregate-schema'])]
        ] as const
        for (const [area, gradings] of entries) {
            const { entry, errors } = Grading.createEntry({
                schemaId: 'nominatim.geocoding',
                area,
                version: 'flowmcp/4.2.0',
                schemaHash: 'a1b2c3d4',
                gradingMode: 'full',
                now,
                gradings
            })
            expect(errors.filter((e) => e.severity === 'error')).toEqual([])
            expect(validateGradingEntry({ entry }).errors.filter((e) => e.severity === 'error')).toEqual([])
        }
    })

    it('takes every weight from the caller’s rows, never from a hard-coded catalogue', () => {
        const reweighted = questions
            .map((q) => ({ ...q, weight: 0.5 }))
            .concat([
                {
                    id: 'Q-security',
                    area: 'tools-aggregate-schema',
                    weight: 2.5,
                    determinism: 'deterministic',
                    dimension: 'securityScore'
                }
            ])
        const result = DeterministicAnswers.build({
            main: schemaFixture('nominatim-geocoding'),
            source: '',
            questions: reweighted,
            now
        })
        expect(
            result.byArea['single-test'].search
                ?.filter((a) => a.questionId.startsWith('Q-single-test'))
                .map((a) => a.weight)
        ).toEqual([0.5, 0.5, 0.5])
        expect(score(result.byArea['tools-aggregate-schema'], 'Q-security')?.weight).toBe(2.5)
        expect(
            DeterministicAnswers.build({ main: schemaFixture('nominatim-geocoding'), questions: [], now }).byArea[
                'single-test'
            ].search?.map((a) => a.questionId)
        ).toEqual(['Q-api-availability'])
    })

    it('answers live questions n/a with blocked-by-precondition when the pretest did not run (not requires-private-data)', async () => {
        const pretest = await DataPretest.run({ main: schemaFixture('nominatim-geocoding'), now })
        const result = DeterministicAnswers.build({
            main: schemaFixture('nominatim-geocoding'),
            pretest,
            questions,
            now
        })
        const search = result.byArea['single-test'].search ?? []
        for (const id of ['Q-single-test-01', 'Q-single-test-02', 'Q-api-availability'])
            expect(score(search, id)).toMatchObject({
                score: 'n/a',
                naReason: 'blocked-by-precondition',
                evidence: { pretest: 'no-http-port' }
            })
        expect(result.blocked).toContainEqual({ area: 'single-test', reason: 'live-pretest-not-run (no-http-port)' })
        expect(score(result.byArea['tools-aggregate-schema'], 'Q-security')).toMatchObject({
            score: 'n/a',
            naReason: 'blocked-by-precondition'
        })
    })

    it('answers n/a for key-gated tools and never pass', async () => {
        const result = DeterministicAnswers.build({
            main: schemaFixture('etherscan-contracts'),
            pretest: await pretestOf('etherscan-contracts'),
            questions,
            now
        })
        const abi = result.byArea['single-test'].getContractAbi ?? []
        expect(score(abi, 'Q-api-availability')).toMatchObject({
            score: 'n/a',
            naReason: 'blocked-by-precondition',
            evidence: { class: 'key-gated', missingServerParams: ['ETHERSCAN_API_KEY'] }
        })
        expect(score(abi, 'Q-single-test-03')).toMatchObject({
            score: 'pass',
            evidence: { apiHost: 'api.etherscan.io', checked: [{ param: 'ETHERSCAN_API_KEY', verdict: 'match' }] }
        })
    })

    it('returns an api-key-domain-mismatch veto pointing at the param and fails every live answer, even over passing data', async () => {
        const main = schemaFixture('facebook-key-mismatch')
        const pretest = await pretestOf('nominatim-geocoding')
        const faked = {
            ...pretest,
            tools: {
                getItems: { ...(pretest.tools.search as object), class: 'normal', working: 3, outputSchemaMatch: true }
            }
        } as unknown as PretestResult
        const result = DeterministicAnswers.build({ main, pretest: faked, questions, now, grader })
        expect(result.veto).toEqual({
            triggeredBy: 'api-key-domain-mismatch',
            graderIdentity: grader,
            evidence:
                'requiredServerParams FACEBOOK_API_KEY (/requiredServerParams/0) names "facebook", not the API host api.example.xyz',
            timestamp: now
        })
        expect(Veto.validateVeto({ veto: result.veto }).valid).toBe(true)
        const items = result.byArea['single-test'].getItems ?? []
        for (const id of ['Q-single-test-02', 'Q-single-test-03', 'Q-api-availability'])
            expect(score(items, id)?.score).toBe('fail')
        // The docs check never uses the key, so it stays a plain observation.
        expect(items.filter((a) => a.questionId !== 'Q-single-test-01').some((a) => a.score === 'pass')).toBe(false)
    })

    it('returns a malicious-module veto with the offending lines and fails Q-security', () => {
        const result = DeterministicAnswers.build({
            main: schemaFixture('nominatim-geocoding'),
            source: sourceFixture('malicious-schema.mjs'),
            questions,
            now,
            grader
        })
        expect(result.veto).toMatchObject({
            triggeredBy: 'malicious-module',
            evidence:
                "SEC-001 import 'child_process' at line 1, column 1; SEC-007 child_process at line 1, column 23; SEC-003 eval at line 16, column 33"
        })
        expect(score(result.byArea['tools-aggregate-schema'], 'Q-security')).toMatchObject({
            score: 'fail',
            evidence: { findingCount: 10 }
        })
    })

    it('scores Q-security on the 1–5 scale from the scan (SECURITY_SCORE_V1)', () => {
        const q = (source: string) =>
            score(
                DeterministicAnswers.build({ main: schemaFixture('etherscan-contracts'), source, questions, now })
                    .byArea['tools-aggregate-schema'],
                'Q-security'
            )?.score
        expect(q('export const main = {}')).toBe(5)
        expect(q("import x from 'ethers'\nexport const main = {}")).toBe(4)
        expect(q("import x from 'ethers'\nconst a = process.env.A\nconst b = __dirname")).toBe(2)
        expect(q('console.info(1)')).toBe(4.5)
        expect(q(sourceFixture('key-hygiene-schema.mjs'))).toBe('fail')
        expect(q('import a from "x"; process.a; fs.b; globalThis.c; global.d; __dirname; __filename')).toBe(1)
    })

    it('fails routesUniqueNames for names that collide once case and separators are ignored', () => {
        const main = schemaFixture('nominatim-geocoding')
        main.tools.Search = main.tools.search
        const answer = score(
            DeterministicAnswers.build({ main, questions, now }).byArea['tools-aggregate-schema'],
            'Q-tools-aggregate-schema-01'
        )
        expect(answer).toMatchObject({ score: 'fail', evidence: { collisions: [['search', 'Search']] } })
    })

    it('blocks both schema areas and fails Q-schema-structure for a broken main', () => {
        const result = DeterministicAnswers.build({ main: schemaFixture('broken-structure'), questions, now })
        expect(result.blocked.slice(0, 2)).toEqual([
            { area: 'single-test', reason: 'structural-validation-failed' },
            { area: 'tools-aggregate-schema', reason: 'structural-validation-failed' }
        ])
        expect(score(result.byArea['tools-aggregate-schema'], 'Q-schema-structure')).toMatchObject({
            score: 'fail',
            evidence: { codes: ['SCH-003'] }
        })
    })

    it('scores Q-schema-structure from spec-strict findings: pass when clean, 5 − 0.5 per distinct code (floor 3), fail only on runtime errors', () => {
        const structure = (main: unknown) =>
            score(
                DeterministicAnswers.build({ main, questions, now }).byArea['tools-aggregate-schema'],
                'Q-schema-structure'
            )
        expect(structure(schemaFixture('nominatim-geocoding'))).toMatchObject({
            score: 'pass',
            evidence: { specStrictCodes: [] }
        })
        // real-forms: a name with spaces, a camelCase tag, an undeclared value template and tests naming it.
        expect(structure(schemaFixture('real-forms'))).toMatchObject({
            score: 3.0,
            evidence: { specStrictCodes: ['SCH-WARN-011', 'SCH-WARN-012', 'SCH-WARN-014', 'SCH-WARN-017'] }
        })
        expect(structure({ ...schemaFixture('nominatim-geocoding'), tags: ['cacheTtlDaily'] })).toMatchObject({
            score: 4.5
        })
        expect(structure(schemaFixture('broken-structure'))).toMatchObject({ score: 'fail' })
    })

    it('leaves an undecidable key-domain check to the grader: no Q-single-test-03 answer, no veto, a deferred note', () => {
        const main = {
            ...schemaFixture('nominatim-geocoding'),
            root: 'https://chain-rpc-resolver.local',
            requiredServerParams: ['ALCHEMY_API_KEY']
        }
        const result = DeterministicAnswers.build({ main, questions, now })
        expect(result.veto).toBeNull()
        expect(
            Object.values(result.byArea['single-test'])
                .flat()
                .some((a) => a.questionId === 'Q-single-test-03')
        ).toBe(false)
        expect(result.deferred).toEqual([
            {
                area: 'single-test',
                questionId: 'Q-single-test-03',
                note: expect.stringContaining('ALCHEMY_API_KEY names alchemy')
            }
        ])
        expect(result.errors).toContainEqual(expect.objectContaining({ code: 'SEC-WARN-002' }))
    })

    it('judges the About declaration of this schema and leaves the answer to the namespace when there is none', () => {
        const main = schemaFixture('nominatim-geocoding')
        const about = (m: unknown, aboutFileExists?: boolean) =>
            DeterministicAnswers.build({
                main: m,
                questions,
                now,
                ...(aboutFileExists === undefined ? {} : { aboutFileExists })
            }).byArea['about-namespace']
        expect(about(main, false)[0]).toMatchObject({ score: 'fail', evidence: { declared: true, fileExists: false } })
        expect(about(main)[0]).toMatchObject({ score: 'n/a', naReason: 'blocked-by-precondition' })
        expect(
            about({ ...main, resources: { about: { ...main.resources.about, source: 'sqlite' } } }, true)[0]
        ).toMatchObject({ score: 'fail', evidence: { problems: ["source is not 'markdown'"] } })
        expect(about(schemaFixture('etherscan-contracts'), true)).toEqual([])
    })

    it('warns about a deterministic row it has no implementation for (DET-WARN-001)', () => {
        const rows = [
            ...questions,
            {
                id: 'Q-single-test-99',
                area: 'single-test',
                weight: 1,
                determinism: 'deterministic',
                dimension: 'jqNavigability'
            }
        ]
        expect(
            DeterministicAnswers.build({ main: schemaFixture('nominatim-geocoding'), questions: rows, now }).errors
        ).toEqual([expect.objectContaining({ code: 'DET-WARN-001', path: `/questions/${questions.length}` })])
    })

    it.each([
        ['no main', { questions, now }, 'DET-001', '/main'],
        ['no questions', { main: {}, now }, 'DET-001', '/questions'],
        [
            'a row with a negative weight',
            { main: {}, now, questions: [{ ...questions[0], weight: -1 }] },
            'DET-002',
            '/questions/0/weight'
        ],
        ['a bad now', { main: {}, questions, now: '2026-05-29' }, 'DET-002', '/now'],
        [
            'an llm grader',
            { main: {}, questions, now, grader: { kind: 'llm', name: 'x', version: '1' } },
            'DET-002',
            '/grader/kind'
        ],
        ['a pretest of the wrong shape', { main: {}, questions, now, pretest: { ok: true } }, 'DET-002', '/pretest']
    ])('rejects %s with a coded issue', (_name, input, code, path) => {
        const result = DeterministicAnswers.build(input as never)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
        expect(result.byArea['tools-aggregate-schema']).toEqual([])
    })

    it('never throws and codes every issue for any input (fuzz)', async () => {
        const pretest = await pretestOf('nominatim-geocoding')
        const security = SecurityScan.scan({ source: sourceFixture('malicious-schema.mjs') })
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.anything(),
                    fc.record(
                        {
                            main: fc.oneof(fc.anything(), fc.constant(schemaFixture('nominatim-geocoding'))),
                            questions: fc.oneof(fc.constant(questions), fc.anything()),
                            now: fc.oneof(fc.constant(now), fc.string()),
                            pretest: fc.oneof(fc.constant(pretest), fc.anything()),
                            security: fc.oneof(fc.constant(security), fc.anything()),
                            source: fc.anything(),
                            keyDomain: fc.anything(),
                            validation: fc.anything()
                        },
                        { requiredKeys: [] }
                    )
                ),
                (input) => {
                    const result = DeterministicAnswers.build(input as never)
                    for (const e of result.errors) expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
                }
            ),
            { numRuns: 200 }
        )
    })
})

describe('DeterministicAnswers.build with an immutable catalogue', () => {
    const deepFrozen = (rows: readonly QuestionRow[]): readonly QuestionRow[] =>
        Object.freeze(rows.map((r) => Object.freeze({ ...r })))

    it('answers from a frozen row list (checked once, then taken as it is) exactly as from a fresh copy', async () => {
        const main = schemaFixture('nominatim-geocoding')
        const pretest = await pretestOf('nominatim-geocoding')
        const frozen = deepFrozen(questions)
        const first = DeterministicAnswers.build({ main, pretest, questions: frozen, now })
        const again = DeterministicAnswers.build({ main, pretest, questions: frozen, now })
        const fresh = DeterministicAnswers.build({ main, pretest, questions: questions.map((r) => ({ ...r })), now })
        expect(again).toEqual(first)
        expect(first).toEqual(fresh)
    })

    it('reports a broken row of a frozen list on every call', () => {
        const broken = Object.freeze([
            ...deepFrozen(questions),
            Object.freeze({
                id: 'not-a-question',
                area: 'single-test',
                weight: 1,
                determinism: 'deterministic',
                dimension: 'x'
            })
        ])
        for (let i = 0; i < 2; i += 1) {
            const { errors } = DeterministicAnswers.build({
                main: schemaFixture('nominatim-geocoding'),
                questions: broken,
                now
            })
            expect(errors.map((e) => `${e.code} ${e.path}`)).toContain(`DET-002 /questions/${questions.length}/id`)
        }
    })
})

describe('DeterministicAnswers.buildNamespace', () => {
    const schemas = [
        { main: schemaFixture('nominatim-geocoding'), schemaId: 'nominatim.geocoding' },
        { main: { ...schemaFixture('nominatim-geocoding'), resources: {} }, schemaId: 'nominatim.more' }
    ]

    it('answers domainCoverage against a documented-endpoint baseline and aboutRouteExists across schemas', () => {
        const result = DeterministicAnswers.buildNamespace({
            schemas,
            eligibleEndpoints: 7,
            justifiedOmissions: 1,
            aboutFileExists: true,
            questions,
            now,
            grader
        })
        expect(result.errors).toEqual([])
        expect(result.byArea['tools-aggregate-namespace'][0]).toMatchObject({
            questionId: 'Q-tools-aggregate-namespace-01',
            score: 'pass',
            weight: 0.2,
            evidence: { tools: 6, justified: 1, baseline: 7 }
        })
        expect(result.byArea['about-namespace'][0]).toMatchObject({
            questionId: 'Q-about-namespace-01',
            score: 'pass',
            evidence: { declaredIn: ['nominatim.geocoding'] }
        })
    })

    it('answers domainCoverage n/a without a baseline and fails an About declared twice or nowhere', () => {
        const twice = DeterministicAnswers.buildNamespace({
            schemas: [schemas[0]!, schemas[0]!],
            aboutFileExists: true,
            questions,
            now
        })
        expect(twice.byArea['tools-aggregate-namespace'][0]).toMatchObject({
            score: 'n/a',
            naReason: 'blocked-by-precondition'
        })
        expect(twice.byArea['about-namespace'][0]?.score).toBe('fail')
        expect(
            DeterministicAnswers.buildNamespace({ schemas: [schemas[1]!], eligibleEndpoints: 10, questions, now })
                .byArea['about-namespace'][0]
        ).toMatchObject({ score: 'fail', evidence: { declaredIn: [] } })
        expect(
            DeterministicAnswers.buildNamespace({ schemas: [schemas[1]!], eligibleEndpoints: 10, questions, now })
                .byArea['tools-aggregate-namespace'][0]?.score
        ).toBe('fail')
    })

    it('rejects bad input with coded issues and never throws (fuzz)', () => {
        expect(DeterministicAnswers.buildNamespace({ schemas: 'x', questions, now } as never).errors[0]).toMatchObject({
            code: 'DET-002',
            path: '/schemas'
        })
        fc.assert(
            fc.property(fc.anything(), (input) => {
                for (const e of DeterministicAnswers.buildNamespace(input as never).errors)
                    expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
            })
        )
    })
})

describe('DeterministicAnswers.buildSelection', () => {
    it('answers aboutRouteExists for the selection About', () => {
        expect(
            DeterministicAnswers.buildSelection({ aboutFileExists: true, questions, now }).byArea['about-selection'][0]
        ).toMatchObject({ questionId: 'Q-about-selection-01', score: 'pass', weight: 0.34 })
        expect(
            DeterministicAnswers.buildSelection({ aboutFileExists: false, questions, now }).byArea['about-selection'][0]
                ?.score
        ).toBe('fail')
    })

    it('rejects a missing flag and never throws (fuzz)', () => {
        expect(DeterministicAnswers.buildSelection({ questions, now } as never).errors[0]).toMatchObject({
            code: 'DET-001',
            path: '/aboutFileExists'
        })
        fc.assert(
            fc.property(fc.anything(), (input) => {
                for (const e of DeterministicAnswers.buildSelection(input as never).errors)
                    expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
            })
        )
    })
})
