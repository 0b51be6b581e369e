import { describe, expect, it } from 'vitest'
import { createMemoryFs, gradeSelection, gradeSingleSchema, validateGradingEntry, type FsPort } from '../../src/index.js'
import { exampleMain, grader, scriptedJudge } from './helpers.js'

const now = '2026-11-22T18:00:00Z'
const later = '2026-11-22T19:00:00Z'
const selectionGrader = { ...grader, persona: { basePersonaId: 'decision-maker', lensId: 'weather-planner' } } as const
const about = '# Weather core\n\n## Identity\n...\n## Shared Lists\n...\n## Conventions\n...\n## Forbidden Conventions\n...\n## Use Cases\n...\n## Personas Reference and Lens\n...\n## Aging Rule\n90 days\n'

/** An island with `count` provider namespaces, each graded by a judge with `score`. */
async function islandWith(count: number, score = 5): Promise<{ fs: FsPort; schemaIds: string[] }> {
    const fs = createMemoryFs()
    const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
    const schemaIds: string[] = []
    for (let i = 1; i <= count; i += 1) {
        const namespace = `weather${i}`
        const { judge } = scriptedJudge(score)
        const result = await gradeSingleSchema({ schema: { main: { ...main, namespace } }, schemaId: `${namespace}.forecast`, grader, options: { fs, root: '/island', now, source: source.replace("'openmeteo'", `'${namespace}'`), judge } })
        expect(result.grading?.aggregateGrade).toBe('B')
        schemaIds.push(`${namespace}.forecast`)
    }
    return { fs, schemaIds }
}

describe('gradeSelection', () => {
    it('grades the selection chain with A reachable at 7 member namespaces (group-bound tier)', async () => {
        const { fs, schemaIds } = await islandWith(7)
        const { judge, asked } = scriptedJudge(5)
        const result = await gradeSelection({
            selectionId: 'weather-core',
            schemaIds,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills: [{ name: 'weather-entry', level: 'L1', text: 'export const skill = {}\n' }] }
        })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading).toMatchObject({ memberNamespaces: 7, maxAttainableGrade: 'A', membersPassing: { passing: 7, total: 7 }, preCondition: { passed: true }, mode: 'full', aggregateGrade: 'A' })
        expect(result.grading?.units.map((u) => [u.unit, u.status])).toEqual([
            ['about-selection', 'graded'],
            ['selection-skills-L1/weather-entry', 'graded'],
            ['selection-aggregate', 'graded']
        ])
        expect(asked.every((r) => r.envelope.persona?.basePersonaId === 'decision-maker')).toBe(true)
        for (const entry of result.entries) {
            expect(validateGradingEntry({ entry }).valid).toBe(true)
            expect(entry).toMatchObject({ gradingTier: 'group-bound', maxAttainableGrade: 'A', selectionId: 'weather-core' })
        }
        const aggregate = result.entries.find((e) => e.area === 'selection-aggregate')
        expect(aggregate?.gradings.find((g) => g.questionId === 'Q-selection-aggregate-06')).toMatchObject({ score: 'pass', evidence: { passing: 7, total: 7 } })
    })

    it('caps the selection at B with 5–6 member namespaces (soft threshold)', async () => {
        const { fs, schemaIds } = await islandWith(5)
        const { judge } = scriptedJudge(5)
        const result = await gradeSelection({ selectionId: 'weather-five', schemaIds, grader: selectionGrader, options: { fs, root: '/island', now: later, judge, about: { text: about } } })
        expect(result.grading).toMatchObject({ memberNamespaces: 5, maxAttainableGrade: 'B', aggregateGrade: 'B', rawGrade: 'A' })
        for (const entry of result.entries) expect(validateGradingEntry({ entry }).valid).toBe(true)
    })

    it('runs no selection area below 5 member namespaces (⚠ B10)', async () => {
        const { fs, schemaIds } = await islandWith(4)
        const { judge, asked } = scriptedJudge(5)
        const result = await gradeSelection({ selectionId: 'weather-four', schemaIds, grader: selectionGrader, options: { fs, root: '/island', now: later, judge } })
        expect(result.grading).toMatchObject({ mode: 'blocked', memberNamespaces: 4, aggregateGrade: null })
        expect(result.entries).toEqual([])
        expect(asked).toEqual([])
        expect(result.errors.map((e) => e.code)).toContain('GRA-019')
    })

    it('blocks the whole run when a member is not stable in the frozen lockSnapshot (pre-condition)', async () => {
        const { fs, schemaIds } = await islandWith(6)
        const { judge, asked } = scriptedJudge(5)
        const result = await gradeSelection({ selectionId: 'weather-gap', schemaIds: [...schemaIds, 'missing.schema'], grader: selectionGrader, options: { fs, root: '/island', now: later, judge } })
        expect(result.grading?.preCondition.passed).toBe(false)
        expect(result.grading?.preCondition.blockedMembers.map((m) => m.schemaId)).toEqual(['missing.schema'])
        expect(asked).toEqual([])
        expect(result.errors.map((e) => e.code)).toEqual(expect.arrayContaining(['PRE-004', 'GRA-019']))
    })

    it('returns the prompts without a judge and writes nothing', async () => {
        const { fs, schemaIds } = await islandWith(5)
        const result = await gradeSelection({ selectionId: 'weather-dry', schemaIds, grader: selectionGrader, options: { fs, root: '/island', now: later, about: { text: about } } })
        expect(result.grading?.mode).toBe('provisional')
        expect(result.prompts.map((p) => p.unit)).toEqual(['about-selection', 'selection-aggregate'])
        expect(result.entries).toEqual([])
    })

    it.each([
        ['no options', { selectionId: 'x', schemaIds: [] }, 'GRA-001'],
        ['a bad selection id', { selectionId: 'Bad Id', schemaIds: [], options: { fs: createMemoryFs(), root: '/i', now } }, 'GRA-002'],
        ['no members', { selectionId: 'x', options: { fs: createMemoryFs(), root: '/i', now } }, 'GRA-001'],
        ['a judge without a persona', { selectionId: 'x', schemaIds: [], grader: { name: 'g', version: '1', llmModel: 'm' }, options: { fs: createMemoryFs(), root: '/i', now, judge: async (): Promise<string> => '{}' } }, 'GRA-009']
    ])('reports %s with a code', async (_name, input, code) => {
        const result = await gradeSelection(input as never)
        expect(result.grading).toBeNull()
        expect(result.errors.map((e) => e.code)).toContain(code)
    })
})
