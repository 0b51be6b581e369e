import { beforeAll, describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    gradeSelection,
    gradeSingleSchema,
    httpPortFromRecordings,
    validateGradingEntry,
    type FsPort,
    type JudgeRequest
} from '../../src/index.js'
import { exampleMain, grader, recording, replyFor, scriptedJudge } from './helpers.js'

const now = '2026-11-22T18:00:00Z'
const later = '2026-11-22T19:00:00Z'
const selectionGrader = { ...grader, persona: { basePersonaId: 'decision-maker', lensId: 'weather-planner' } } as const
const about =
    '# Weather core\n\n## Identity\n...\n## Shared Lists\n...\n## Conventions\n...\n## Forbidden Conventions\n...\n## Use Cases\n...\n## Personas Reference and Lens\n...\n## Aging Rule\n90 days\n'

/** An island with `count` provider namespaces, each graded by a judge with `score`. */
async function islandWith(count: number, score = 5): Promise<{ fs: FsPort; schemaIds: string[] }> {
    const fs = createMemoryFs()
    const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
    const schemaIds: string[] = []
    for (let i = 1; i <= count; i += 1) {
        const namespace = `weather${i}`
        const { judge } = scriptedJudge(score)
        const result = await gradeSingleSchema({
            schema: { main: { ...main, namespace } },
            schemaId: `${namespace}.forecast`,
            grader,
            options: {
                fs,
                root: '/island',
                now,
                source: source.replace("'openmeteo'", `'${namespace}'`),
                judge,
                http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
            }
        })
        expect(result.grading).toMatchObject({ grade: 'B', schemaGrade: 'B' })
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
            options: {
                fs,
                root: '/island',
                now: later,
                judge,
                about: { text: about },
                skills: [{ name: 'weather-entry', level: 'L1', text: 'export const skill = {}\n' }]
            }
        })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading).toMatchObject({
            memberNamespaces: 7,
            maxAttainableGrade: 'A',
            membersPassing: { passing: 7, total: 7 },
            preCondition: { passed: true },
            mode: 'full',
            aggregateGrade: 'A'
        })
        expect(result.grading?.units.map((u) => [u.unit, u.status])).toEqual([
            ['about-selection', 'graded'],
            ['selection-skills-L1/weather-entry', 'graded'],
            ['selection-aggregate', 'graded']
        ])
        expect(asked.every((r) => r.envelope.persona?.basePersonaId === 'decision-maker')).toBe(true)
        for (const entry of result.entries) {
            expect(validateGradingEntry({ entry }).valid).toBe(true)
            expect(validateGradingEntry({ entry, strict: true, now: later })).toMatchObject({ valid: true, errors: [] })
            expect(entry).toMatchObject({
                gradingTier: 'group-bound',
                maxAttainableGrade: 'A',
                selectionId: 'weather-core'
            })
        }
        const aggregate = result.entries.find((e) => e.area === 'selection-aggregate')
        expect(aggregate?.gradings.find((g) => g.questionId === 'Q-selection-aggregate-06')).toMatchObject({
            score: 'pass',
            evidence: { passing: 7, total: 7 }
        })
    })

    it('caps the selection at B with 5–6 member namespaces (soft threshold)', async () => {
        const { fs, schemaIds } = await islandWith(5)
        const { judge } = scriptedJudge(5)
        const result = await gradeSelection({
            selectionId: 'weather-five',
            schemaIds,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about } }
        })
        expect(result.grading).toMatchObject({
            memberNamespaces: 5,
            maxAttainableGrade: 'B',
            aggregateGrade: 'B',
            rawGrade: 'A'
        })
        for (const entry of result.entries) expect(validateGradingEntry({ entry }).valid).toBe(true)
        for (const entry of result.entries)
            expect(
                validateGradingEntry({ entry, strict: true, now: later }).errors.filter((e) => e.severity !== 'info')
            ).toEqual([])
    })

    it('runs no selection area below 5 member namespaces (⚠ B10)', async () => {
        const { fs, schemaIds } = await islandWith(4)
        const { judge, asked } = scriptedJudge(5)
        const result = await gradeSelection({
            selectionId: 'weather-four',
            schemaIds,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge }
        })
        expect(result.grading).toMatchObject({ mode: 'blocked', memberNamespaces: 4, aggregateGrade: null })
        expect(result.entries).toEqual([])
        expect(asked).toEqual([])
        expect(result.errors.map((e) => e.code)).toContain('GRA-019')
    })

    it('blocks the whole run when a member is not stable in the frozen lockSnapshot (pre-condition)', async () => {
        const { fs, schemaIds } = await islandWith(6)
        const { judge, asked } = scriptedJudge(5)
        const result = await gradeSelection({
            selectionId: 'weather-gap',
            schemaIds: [...schemaIds, 'missing.schema'],
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge }
        })
        expect(result.grading?.preCondition.passed).toBe(false)
        expect(result.grading?.preCondition.blockedMembers.map((m) => m.schemaId)).toEqual(['missing.schema'])
        expect(asked).toEqual([])
        expect(result.errors.map((e) => e.code)).toEqual(expect.arrayContaining(['PRE-004', 'GRA-019']))
    })

    it('returns the prompts without a judge and writes nothing', async () => {
        const { fs, schemaIds } = await islandWith(5)
        const result = await gradeSelection({
            selectionId: 'weather-dry',
            schemaIds,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, about: { text: about } }
        })
        expect(result.grading?.mode).toBe('provisional')
        expect(result.prompts.map((p) => p.unit)).toEqual(['about-selection', 'selection-aggregate'])
        expect(result.entries).toEqual([])
    })

    it.each([
        ['no options', { selectionId: 'x', schemaIds: [] }, 'GRA-001'],
        [
            'a bad selection id',
            { selectionId: 'Bad Id', schemaIds: [], options: { fs: createMemoryFs(), root: '/i', now } },
            'GRA-002'
        ],
        ['no members', { selectionId: 'x', options: { fs: createMemoryFs(), root: '/i', now } }, 'GRA-001'],
        [
            'a judge without a persona',
            {
                selectionId: 'x',
                schemaIds: [],
                grader: { name: 'g', version: '1', llmModel: 'm' },
                options: { fs: createMemoryFs(), root: '/i', now, judge: async (): Promise<string> => '{}' }
            },
            'GRA-009'
        ]
    ])('reports %s with a code', async (_name, input, code) => {
        const result = await gradeSelection(input as never)
        expect(result.grading).toBeNull()
        expect(result.errors.map((e) => e.code)).toContain(code)
    })
})

const skill = (
    name: string,
    level: 'L1' | 'L2' | 'L3',
    names: string[] = []
): { name: string; level: 'L1' | 'L2' | 'L3'; text: string } => ({
    name,
    level,
    text: `export const skill = { name: '${name}', description: 'Weather ${level} skill.', whenToUse: 'Covers ${names.map((n) => `{{skill:${n}}}`).join(', ') || 'itself'}.' }\n`
})

/** A full chain: one L1 naming the L2, the L2 naming the L3. */
const chain = [
    skill('weather-entry', 'L1', ['weather-topic']),
    skill('weather-topic', 'L2', ['weather-usecase']),
    skill('weather-usecase', 'L3')
]

async function readIndex(fs: FsPort, selectionId: string): Promise<Record<string, unknown> | null> {
    const text = await fs.readFile(`/island/selections/${selectionId}/index.json`)
    return text === null ? null : (JSON.parse(text) as Record<string, unknown>)
}

describe('gradeSelection by the book', () => {
    let fs: FsPort
    let all: string[]
    beforeAll(async () => {
        const island = await islandWith(7)
        fs = island.fs
        all = island.schemaIds
    }, 30_000)

    const definition = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
        selectionId: 'weather-book',
        namespace: 'weather',
        name: 'Weather book',
        version: 'flowmcp/4.0.0',
        description: 'Forecasts across seven weather providers.',
        whenToUse: 'When a forecast must be cross-checked.',
        personaIds: ['decision-maker'],
        members: all.map((schemaId) => ({ schemaId })),
        skills: [],
        ...overrides
    })

    it.each([
        {
            name: 'a forbidden override key',
            change: { members: [{ schemaId: 'weather1.forecast', override: { name: 'x', root: 'https://evil' } }] },
            code: 'SEL-007',
            path: '/selection/members/0/override/root'
        },
        {
            name: 'members as a string',
            change: { members: 'weather1.forecast' },
            code: 'SEL-002',
            path: '/selection/members'
        },
        { name: 'no members', change: { members: [] }, code: 'SEL-005', path: '/selection/members' },
        {
            name: 'a member without { schemaId }',
            change: { members: ['weather1.forecast'] },
            code: 'SEL-006',
            path: '/selection/members/0'
        },
        {
            name: 'a malformed member schemaId',
            change: { members: [{ schemaId: 'weather1' }] },
            code: 'SEL-006',
            path: '/selection/members/0/schemaId'
        },
        { name: 'version 1.0.0', change: { version: '1.0.0' }, code: 'SEL-003', path: '/selection/version' },
        { name: 'no personaIds', change: { personaIds: [] }, code: 'SEL-005', path: '/selection/personaIds' },
        {
            name: 'a description under 10 characters',
            change: { description: 'Weather' },
            code: 'SEL-004',
            path: '/selection/description'
        },
        { name: 'no whenToUse', change: { whenToUse: undefined }, code: 'SEL-001', path: '/selection/whenToUse' },
        {
            name: 'another selectionId',
            change: { selectionId: 'other-selection' },
            code: 'SEL-008',
            path: '/selection/selectionId'
        },
        {
            name: 'a bad namespace',
            change: { namespace: 'Weather Core' },
            code: 'SEL-003',
            path: '/selection/namespace'
        },
        {
            name: 'a derived selectionHash',
            change: { selectionHash: 'ef67ab12' },
            code: 'SEL-009',
            path: '/selection/selectionHash'
        },
        {
            name: 'five skills',
            change: {
                skills: [1, 2, 3, 4, 5].map((i) => ({
                    file: `skills/s${i}/s${i}--2026-05-30T09-00-00Z--0000000${i}.mjs`
                }))
            },
            code: 'SKL-018',
            path: '/selection/skills'
        },
        {
            name: 'a skill item that is not a file ref',
            change: { skills: ['weather-entry'] },
            code: 'SEL-012',
            path: '/selection/skills/0'
        },
        {
            name: 'a v4.2.0 primitive given as is',
            change: { selectionId: undefined, members: undefined, tools: ['weather1/tool/getForecast'] },
            code: 'SEL-013',
            path: '/selection'
        }
    ])(
        'rejects a definition with $name as $code at $path and writes nothing (ch. 16, 03 ⚠ C24)',
        async ({ change, code, path }) => {
            const def = Object.fromEntries(Object.entries(definition(change)).filter(([, v]) => v !== undefined))
            const { judge, asked } = scriptedJudge(5)
            const result = await gradeSelection({
                selectionId: 'weather-book',
                selection: def,
                grader: selectionGrader,
                options: { fs, root: '/island', now: later, judge, about: { text: about } }
            })
            expect(result.grading).toBeNull()
            expect(result.errors.map((e) => [e.code, e.path])).toContainEqual([code, path])
            expect(asked).toEqual([])
            expect(await fs.readdir('/island/selections/weather-book')).toBeNull()
        }
    )

    it('reports more than four selection skills as SKL-018 and writes nothing (02 §11.1 SKL018)', async () => {
        const { judge } = scriptedJudge(5)
        const skills = [...chain, skill('weather-extra', 'L1'), skill('weather-more', 'L1')]
        const result = await gradeSelection({
            selectionId: 'weather-many',
            schemaIds: all,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills }
        })
        expect(result.grading).toBeNull()
        expect(result.errors.map((e) => [e.code, e.path])).toContainEqual(['SKL-018', '/options/skills'])
        expect(await fs.readdir('/island/selections/weather-many')).toBeNull()
    })

    it('grades a valid definition and a full L1→L2→L3 chain (ch. 13, 02 §9.3)', async () => {
        const { judge } = scriptedJudge(5)
        const result = await gradeSelection({
            selectionId: 'weather-book',
            selection: definition(),
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills: chain }
        })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading?.units.map((u) => [u.unit, u.status, u.aggregateGrade])).toEqual([
            ['about-selection', 'graded', 'A'],
            ['selection-skills-L1/weather-entry', 'graded', 'A'],
            ['selection-skills-L2/weather-topic', 'graded', 'A'],
            ['selection-skills-L3/weather-usecase', 'graded', 'A'],
            ['selection-aggregate', 'graded', 'A']
        ])
        const index = (await readIndex(fs, 'weather-book')) as {
            grade: string
            skills: Record<string, { normalizedScore: number; grade: string }>
        }
        expect(index.grade).toBe('A')
        // ⚠ A5 display: the mean of 5s under weights 0.5/0.34/0.33 is 5.000000000000001 unrounded.
        expect(Object.values(index.skills).map((n) => n.normalizedScore)).toEqual([5, 5, 5])
    })

    it('blocks an L2 when one of the L1 skills is blocked, naming it (02 ⚠ B13)', async () => {
        const judge = async (r: JudgeRequest): Promise<string> =>
            JSON.stringify(
                r.unit === 'selection-skills-L1/weather-alt'
                    ? { blocker: 'skills/weather-alt.mjs', reason: 'file unreadable' }
                    : replyFor(r.area, 5)
            )
        const skills = [
            skill('weather-entry', 'L1', ['weather-topic']),
            skill('weather-alt', 'L1', ['weather-topic']),
            skill('weather-topic', 'L2', ['weather-usecase']),
            skill('weather-usecase', 'L3')
        ]
        const result = await gradeSelection({
            selectionId: 'weather-gate-l1',
            schemaIds: all,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills }
        })
        const units = Object.fromEntries((result.grading?.units ?? []).map((u) => [u.unit, [u.status, u.reason]]))
        expect(units['selection-skills-L1/weather-entry']).toEqual(['graded', null])
        expect(units['selection-skills-L1/weather-alt']?.[0]).toBe('blocked')
        expect(units['selection-skills-L2/weather-topic']).toEqual([
            'blocked',
            'predecessor weather-alt (L1) is blocked'
        ])
        expect(units['selection-skills-L3/weather-usecase']).toEqual([
            'blocked',
            'predecessor weather-topic (L2) is blocked'
        ])
        expect(result.entries.map((e) => e.skillId ?? e.area)).toEqual([
            'about-selection',
            'weather-entry',
            'selection-aggregate'
        ])
    })

    it('blocks an L3 when the L2 that names it is blocked, and grades an L3 another graded L2 names (02 ⚠ B13)', async () => {
        const judge = async (r: JudgeRequest): Promise<string> =>
            JSON.stringify(
                r.unit === 'selection-skills-L2/weather-topic'
                    ? { blocker: 'skills/weather-topic.mjs', reason: 'file unreadable' }
                    : replyFor(r.area, 5)
            )
        const skills = [
            skill('weather-entry', 'L1', ['weather-topic', 'weather-other']),
            skill('weather-topic', 'L2', ['weather-usecase']),
            skill('weather-other', 'L2', ['weather-daily']),
            skill('weather-usecase', 'L3')
        ]
        const result = await gradeSelection({
            selectionId: 'weather-gate-l2',
            schemaIds: all,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills }
        })
        const units = Object.fromEntries((result.grading?.units ?? []).map((u) => [u.unit, [u.status, u.reason]]))
        expect(units['selection-skills-L2/weather-other']).toEqual(['graded', null])
        expect(units['selection-skills-L3/weather-usecase']).toEqual([
            'blocked',
            'predecessor weather-topic (L2) is blocked'
        ])
    })

    it('reports Rule A as SKC-001 with the skill and the missing name, and blocks the chain below it (02 §11.3 Rule A)', async () => {
        const { judge } = scriptedJudge(5)
        const skills = [
            skill('weather-entry', 'L1'),
            skill('weather-topic', 'L2', ['weather-usecase']),
            skill('weather-usecase', 'L3')
        ]
        const result = await gradeSelection({
            selectionId: 'weather-rule-a',
            schemaIds: all,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills }
        })
        const skc = result.errors.find((e) => e.code === 'SKC-001')
        expect(skc).toMatchObject({
            severity: 'error',
            path: '/options/skills/0/text',
            message: 'L1 skill weather-entry does not name L2 skill weather-topic (Rule A)'
        })
        const units = Object.fromEntries((result.grading?.units ?? []).map((u) => [u.unit, [u.status, u.reason]]))
        expect(units['selection-skills-L1/weather-entry']).toEqual([
            'blocked',
            'SKC-001: L1 skill weather-entry does not name L2 skill weather-topic (Rule A)'
        ])
        expect(units['selection-skills-L2/weather-topic']).toEqual([
            'blocked',
            'predecessor weather-entry (L1) is blocked'
        ])
    })

    it('reports Rule B as SKC-002 for an L3 no L2 names, and does not grade it (02 §11.3 Rule B)', async () => {
        const { judge } = scriptedJudge(5)
        const skills = [
            skill('weather-entry', 'L1', ['weather-topic']),
            skill('weather-topic', 'L2'),
            skill('weather-usecase', 'L3')
        ]
        const result = await gradeSelection({
            selectionId: 'weather-rule-b',
            schemaIds: all,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills }
        })
        expect(result.errors.find((e) => e.code === 'SKC-002')).toMatchObject({
            path: '/options/skills/2',
            message: 'L3 skill weather-usecase is not named by any L2 skill (Rule B)'
        })
        expect(result.grading?.units.find((u) => u.unit === 'selection-skills-L3/weather-usecase')).toMatchObject({
            status: 'blocked',
            reason: 'SKC-002: L3 skill weather-usecase is not named by any L2 skill (Rule B)'
        })
        expect(result.grading?.units.find((u) => u.unit === 'selection-skills-L2/weather-topic')?.status).toBe('graded')
    })

    it('writes selectionAggregate blocked with reason below-soft-threshold (<5 namespaces) and no grade (02 ⚠ B10)', async () => {
        const { judge } = scriptedJudge(5)
        const result = await gradeSelection({
            selectionId: 'weather-small',
            schemaIds: all.slice(0, 4),
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, about: { text: about }, skills: chain }
        })
        expect(result.entries).toEqual([])
        const index = (await readIndex(fs, 'weather-small')) as Record<string, unknown>
        expect(index.selectionAggregate).toEqual({ status: 'blocked', reason: 'below-soft-threshold (<5 namespaces)' })
        expect(index.grade).toBeUndefined()
    })

    it('caps every selection-side entry and index node of a 5–6 namespace selection at B (01 §4 step 8)', async () => {
        for (const count of [5, 6]) {
            const { judge } = scriptedJudge(5)
            const selectionId = `weather-cap-${count}`
            const result = await gradeSelection({
                selectionId,
                schemaIds: all.slice(0, count),
                grader: selectionGrader,
                options: { fs, root: '/island', now: later, judge, about: { text: about }, skills: chain }
            })
            expect(result.entries).toHaveLength(5)
            for (const entry of result.entries) {
                expect(entry.aggregateGrade).toBe('B')
                expect(validateGradingEntry({ entry }).valid).toBe(true)
            }
            for (const unit of result.grading?.units ?? [])
                expect(unit.trace).toContainEqual({ step: 'selection-size', memberCount: count, from: 'A', to: 'B' })
            const index = (await readIndex(fs, selectionId)) as {
                grade: string
                about: { grade: string }
                selectionAggregate: { grade: string }
                skills: Record<string, { grade: string }>
            }
            expect([
                index.grade,
                index.about.grade,
                index.selectionAggregate.grade,
                ...Object.values(index.skills).map((n) => n.grade)
            ]).toEqual(['B', 'B', 'B', 'B', 'B', 'B'])
        }
    })

    it('gives no A without the selection About and says why in the trace (02 §8 Domain-Knowledge)', async () => {
        const { judge } = scriptedJudge(5)
        const result = await gradeSelection({
            selectionId: 'weather-no-about',
            schemaIds: all,
            grader: selectionGrader,
            options: { fs, root: '/island', now: later, judge, skills: chain }
        })
        expect(result.grading).toMatchObject({ memberNamespaces: 7, maxAttainableGrade: 'B', aggregateGrade: 'B' })
        const aggregate = result.grading?.units.find((u) => u.unit === 'selection-aggregate')
        const skillUnit = result.grading?.units.find((u) => u.unit === 'selection-skills-L1/weather-entry')
        for (const unit of [skillUnit])
            expect(unit?.trace).toContainEqual({
                step: 'domain-knowledge',
                present: false,
                from: 'A',
                to: 'B',
                reason: 'no Domain-Knowledge content (selection About): no A (02-areas §8)'
            })
        expect(aggregate?.aggregateGrade).toBe('B')
        for (const entry of result.entries) {
            expect(entry.aggregateGrade).toBe('B')
            expect(validateGradingEntry({ entry }).valid).toBe(true)
        }
        const index = (await readIndex(fs, 'weather-no-about')) as { grade: string }
        expect(index.grade).toBe('B')
    })
})
