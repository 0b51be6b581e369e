import { describe, expect, it } from 'vitest'
import { Areas, Grading, validateGradingEntry } from '../../src/index.js'
import { AREAS } from '../../src/model/constants.js'
import { codeAnswers, standardContext, validOutput } from './helpers.js'

const convert = (
    area: string,
    patchOutput: Record<string, unknown> = {},
    patchContext: Record<string, unknown> = {},
    deterministic: unknown = codeAnswers(area)
) => {
    const output = validOutput(area, patchOutput)
    return Areas.toGradingEntry({
        output,
        deterministic,
        context: { ...standardContext(area, output), ...patchContext }
    })
}

describe('Areas.toGradingEntry', () => {
    it.each(['about-selection', 'selection-skills-L1', 'selection-aggregate'])(
        'records the selection scope on the first answer of a %s entry so a 5–6 namespace selection stays at B (01 §4 step 8)',
        (area) => {
            const output = validOutput(area)
            const answers = (output.answers as Array<Record<string, unknown>>).map((a) => ({ ...a, score: 5 }))
            const context = {
                ...standardContext(area, output),
                selectionScope: { memberNamespaces: 6, domainKnowledge: true }
            }
            const result = Areas.toGradingEntry({
                output: { ...output, answers },
                deterministic: codeAnswers(area),
                context
            })
            expect(result.entry?.aggregateGrade).toBe('B')
            expect(result.entry?.gradings[0]?.evidence).toMatchObject({ memberNamespaces: 6, domainKnowledge: true })
            expect(validateGradingEntry({ entry: result.entry }).valid).toBe(true)
        }
    )

    it.each([...AREAS])(
        'turns a %s output plus code answers into an entry that passes validateGradingEntry',
        (area) => {
            const result = convert(area)
            expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
            expect(result.entry).not.toBeNull()
            expect(validateGradingEntry({ entry: result.entry }).valid).toBe(true)
            expect(result.entry?.gradings).toHaveLength(Areas.get({ area }).area?.questionCount ?? -1)
            expect(result.sidecar).toEqual({ iteration: 1, improvementHints: [] })
        }
    )

    it('copies gradingId, schemaHash, area, persona and harness from the output (04 §2 conversion)', () => {
        const { entry } = convert('about-namespace')
        expect(entry).toMatchObject({
            gradingId: '3f9a1c2e--2026-05-31T11-05-00Z',
            schemaHash: '3f9a1c2e',
            area: 'about-namespace',
            persona: { basePersonaId: 'decision-maker', lensId: 'crypto-trader' },
            harness: 'claude-code',
            aboutHash: '0a1b2c3d',
            gradingTier: 'autonomous',
            maxAttainableGrade: 'B',
            gradingMode: 'full',
            scoringSystem: 'scoringSystem/1.0.0',
            gradingSystem: 'gradingSystem/1.0.0',
            categoricalVeto: null
        })
    })

    it('marks code answers deterministic (script grader) and harness answers non-deterministic (llm + llmModel + selectionContext)', () => {
        const { entry } = convert('single-test')
        const first = entry?.gradings[0]
        const fourth = entry?.gradings[3]
        expect(first).toMatchObject({
            questionId: 'Q-single-test-01',
            determinism: 'deterministic',
            graderIdentity: { kind: 'script', name: 'flowmcp-grading', version: '0.1.0' },
            timestamp: '2026-05-31T11:06:00Z',
            weight: 0.34
        })
        expect(first).not.toHaveProperty('llmModel')
        expect(fourth).toMatchObject({
            questionId: 'Q-single-test-04',
            determinism: 'non-deterministic',
            graderIdentity: { kind: 'llm', name: 'claude-opus-4-7' },
            llmModel: 'claude-opus-4-7',
            selectionContext: { groupId: 'crypto', personaIds: ['schema-maintainer'] },
            timestamp: '2026-05-31T11:05:00Z',
            weight: 0.34
        })
    })

    it('takes the weights from the question catalogue', () => {
        const { entry } = convert('tools-aggregate-schema')
        expect(entry?.gradings.map((g) => g.weight)).toEqual(
            Areas.questions({ area: 'tools-aggregate-schema' }).questions.map((q) => q.weight)
        )
    })

    it('computes the grade with Grading: autonomous entries are capped at B, rawGrade kept in the aggregate', () => {
        const result = convert('single-test', {
            answers: (validOutput('single-test').answers as Array<Record<string, unknown>>).map((a) => ({
                ...a,
                score: typeof a.score === 'number' ? 5 : a.score
            }))
        })
        expect(result.entry?.aggregateGrade).toBe('B')
        expect(result.aggregate?.rawGrade).toBe('A')
    })

    it('records a harness answer to a deterministic question as non-deterministic, with a warning', () => {
        const result = convert('single-test', {}, { scriptGrader: undefined }, [])
        expect(result.entry?.gradings[0]?.determinism).toBe('non-deterministic')
        expect(result.errors.filter((e) => e.code === 'ARE-WARN-001').map((e) => e.path)).toEqual([
            '/output/answers/0',
            '/output/answers/1',
            '/output/answers/2'
        ])
    })

    it('reports with an info issue when a code answer replaces the harness answer', () => {
        expect(convert('single-test').errors.filter((e) => e.code === 'ARE-INFO-001')).toHaveLength(3)
    })

    it('answers the blocker shortcut with blocker and no entry', () => {
        const result = Areas.toGradingEntry({
            area: 'about-namespace',
            output: { blocker: 'about.md', reason: 'missing' },
            context: {}
        })
        expect(result).toEqual({
            entry: null,
            blocker: { blocker: 'about.md', reason: 'missing' },
            sidecar: null,
            aggregate: null,
            errors: []
        })
    })

    it('keeps the area output fields that are not entry fields in the sidecar (04 ⚠ D4)', () => {
        const hints = [{ targetField: 'description', suggestion: 'Name the unit.', priority: 'high' }]
        const result = convert('single-test', { iteration: 3, improvementHints: hints })
        expect(result.sidecar).toEqual({ iteration: 3, improvementHints: hints })
        expect(result.entry).not.toHaveProperty('iteration')
        expect(result.entry).not.toHaveProperty('improvementHints')
    })

    it('writes a partial entry carrying the last full grade (01-model ⚠ A15)', () => {
        const result = convert('single-test', {}, { gradingMode: 'partial', previousFullGrade: 'C' })
        expect(result.entry).toMatchObject({ gradingMode: 'partial', aggregateGrade: 'C' })
    })

    it.each([
        ['schemaId', 'single-test', { schemaId: undefined }, 'ARE-011', '/context/schemaId'],
        ['a dotted schemaId', 'single-test', { schemaId: 'coingecko/market-chart' }, 'ARE-012', '/context/schemaId'],
        ['version', 'single-test', { version: '4.2.0' }, 'ARE-012', '/context/version'],
        ['now', 'single-test', { now: 'yesterday' }, 'ARE-012', '/context/now'],
        ['grader', 'single-test', { grader: undefined }, 'ARE-011', '/context/grader'],
        ['llmModel', 'single-test', { llmModel: '' }, 'ARE-012', '/context/llmModel'],
        ['selectionContext', 'single-test', { selectionContext: undefined }, 'ARE-011', '/context/selectionContext'],
        [
            'personaIds',
            'single-test',
            { selectionContext: { groupId: 'x', personaIds: [] } },
            'ARE-012',
            '/context/selectionContext/personaIds'
        ],
        [
            'selectionId of a group-bound area',
            'about-selection',
            { selectionId: undefined },
            'ARE-011',
            '/context/selectionId'
        ],
        ['skillId of a per-skill area', 'namespace-skills', { skillId: undefined }, 'ARE-011', '/context/skillId'],
        ['aboutHash of an About area', 'about-namespace', { aboutHash: undefined }, 'ARE-011', '/context/aboutHash'],
        [
            'persona of a persona-bound area',
            'selection-aggregate',
            { persona: undefined },
            'ARE-011',
            '/context/persona'
        ],
        [
            'scriptGrader when there are code answers',
            'single-test',
            { scriptGrader: undefined },
            'ARE-011',
            '/context/scriptGrader'
        ],
        [
            'a persona on a neutral area',
            'single-test',
            { persona: { basePersonaId: 'ai-engineer', lensId: 'x' } },
            'ARE-010',
            '/context/persona'
        ],
        [
            'a schemaHash the output does not carry',
            'single-test',
            { schemaHash: 'aaaaaaaa' },
            'ARE-013',
            '/context/schemaHash'
        ],
        [
            'a persona the output does not carry',
            'about-namespace',
            { persona: { basePersonaId: 'ai-engineer', lensId: 'x' } },
            'ARE-013',
            '/context/persona'
        ],
        ['a partial entry without previousFullGrade', 'single-test', { gradingMode: 'partial' }, 'GRD-028', ''],
        [
            'a selectionScope on a provider area',
            'single-test',
            { selectionScope: { memberNamespaces: 7, domainKnowledge: true } },
            'ARE-010',
            '/context/selectionScope'
        ],
        [
            'a selectionScope with a fractional count',
            'about-selection',
            { selectionScope: { memberNamespaces: 5.5, domainKnowledge: true } },
            'ARE-012',
            '/context/selectionScope/memberNamespaces'
        ],
        [
            'a lens persona id on a group-bound entry',
            'about-selection',
            { selectionContext: { groupId: 'crypto', personaIds: ['crypto-trader-2026'] } },
            'GRD-016',
            '/context/selectionContext'
        ]
    ])('refuses a missing or wrong context field: %s', (_name, area, patch, code, path) => {
        const output = validOutput(area)
        const context = Object.fromEntries(
            Object.entries({ ...standardContext(area, output), ...patch }).filter(([, v]) => v !== undefined)
        )
        const result = Areas.toGradingEntry({ output, deterministic: codeAnswers(area), context })
        expect(result.entry).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it.each([
        [
            'a question that is not deterministic',
            [{ questionId: 'Q-single-test-04', score: 'pass' }],
            'ARE-014',
            '/deterministic/0/questionId'
        ],
        [
            'a question of another area',
            [{ questionId: 'Q-about-namespace-01', score: 'pass' }],
            'ARE-014',
            '/deterministic/0/questionId'
        ],
        [
            'the same question twice',
            [
                { questionId: 'Q-single-test-01', score: 'pass' },
                { questionId: 'Q-single-test-01', score: 'fail' }
            ],
            'ARE-015',
            '/deterministic/1/questionId'
        ],
        ['a score out of range', [{ questionId: 'Q-single-test-01', score: 9 }], 'SCO-001', '/deterministic/0/score'],
        [
            'an unknown score word',
            [{ questionId: 'Q-single-test-01', score: 'ok' }],
            'SCO-003',
            '/deterministic/0/score'
        ],
        [
            'n/a without a reason',
            [{ questionId: 'Q-single-test-01', score: 'n/a' }],
            'NA-001',
            '/deterministic/0/naReason'
        ],
        [
            'an unknown field',
            [{ questionId: 'Q-single-test-01', score: 'pass', request: { url: 'x' } }],
            'ARE-004',
            '/deterministic/0/request'
        ],
        [
            'a bad timestamp',
            [{ questionId: 'Q-single-test-01', score: 'pass', timestamp: 'now' }],
            'ARE-009',
            '/deterministic/0/timestamp'
        ],
        ['not an array', { questionId: 'Q-single-test-01' }, 'ARE-003', '/deterministic']
    ])('refuses bad deterministic answers: %s', (_name, deterministic, code, path) => {
        const result = convert('single-test', {}, {}, deterministic)
        expect(result.entry).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('gives no entry when every answer is excluded (ARE-019), never an F', () => {
        const result = convert('namespace-description', {
            answers: (validOutput('namespace-description').answers as Array<Record<string, unknown>>).map((a) => ({
                ...a,
                score: 'n/a',
                naReason: 'requires-private-data'
            }))
        })
        expect(result.entry).toBeNull()
        expect(result.errors.map((e) => e.code)).toContain('ARE-019')
    })

    it('maps entry-level failures back onto the output answer they came from', () => {
        const result = convert('single-test', {
            answers: (validOutput('single-test').answers as Array<Record<string, unknown>>).map((a, i) =>
                i === 5 ? { ...a, reasoning: 'FlowMCP accepts these terms.' } : a
            )
        })
        expect(result.errors).toContainEqual(
            expect.objectContaining({ code: 'GRD-048', path: '/output/answers/5/reasoning' })
        )
    })

    it('passes malformed outputs through as errors with paths under /output', () => {
        const result = convert('single-test', { iteration: 0 })
        expect(result.entry).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code: 'GRD-030', path: '/output/iteration' }))
    })

    it('produces an entry Grading can extend', () => {
        const { entry } = convert('single-test')
        const more = Grading.addGrading({
            entry,
            grading: {
                ...entry?.gradings[3],
                questionId: 'Q-single-test-04',
                score: 1,
                timestamp: '2026-06-01T00:00:00Z'
            }
        })
        expect(more.errors.filter((e) => e.severity === 'error')).toEqual([])
    })
})

describe('Areas.toGradingEntry with an output that answers only what code does not', () => {
    const withoutCodeQuestions = (area: string): Record<string, unknown> => {
        const byCode = new Set(codeAnswers(area).map((a) => a.questionId))
        const output = validOutput(area)
        return {
            ...output,
            answers: (output.answers as Array<{ questionId: string }>).filter((a) => !byCode.has(a.questionId))
        }
    }

    it.each([...AREAS].filter((area) => (Areas.get({ area }).area?.deterministicQuestionIds.length ?? 0) > 0))(
        'gives the same %s entry as an output that answers every question, without the ARE-INFO-001 notes',
        (area) => {
            const full = convert(area)
            const output = withoutCodeQuestions(area)
            const partial = Areas.toGradingEntry({
                output,
                deterministic: codeAnswers(area),
                context: standardContext(area, output)
            })
            expect(partial.errors).toEqual([])
            expect(JSON.stringify(partial.entry)).toBe(JSON.stringify(full.entry))
            expect(full.errors.map((e) => e.code)).toContain('ARE-INFO-001')
        }
    )

    it('refuses an output that leaves out a question code does not answer (ARE-020), naming it', () => {
        const output = withoutCodeQuestions('single-test')
        const answers = (output.answers as Array<{ questionId: string }>).filter(
            (a) => a.questionId !== 'Q-single-test-07'
        )
        const result = Areas.toGradingEntry({
            output: { ...output, answers },
            deterministic: codeAnswers('single-test'),
            context: standardContext('single-test', output)
        })
        expect(result.entry).toBeNull()
        expect(result.errors).toEqual([
            expect.objectContaining({
                code: 'ARE-020',
                path: '/output/answers',
                message: expect.stringContaining('Q-single-test-07')
            })
        ])
    })

    it('still needs every question answered by the output when code answers none (ARE-006)', () => {
        const output = withoutCodeQuestions('single-test')
        const result = Areas.toGradingEntry({
            output,
            deterministic: [],
            context: standardContext('single-test', output)
        })
        expect(result.entry).toBeNull()
        expect(result.errors.map((e) => e.code)).toContain('ARE-006')
    })

    it('keeps Areas.validateOutput for complete area outputs: the schema still needs every question', () => {
        expect(
            Areas.validateOutput({ area: 'single-test', output: withoutCodeQuestions('single-test') }).errors.map(
                (e) => e.code
            )
        ).toContain('ARE-006')
    })
})
