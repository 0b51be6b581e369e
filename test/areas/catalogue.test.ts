import { describe, expect, it } from 'vitest'
import { Areas } from '../../src/index.js'
import { AREA_CATALOGUE, QUESTIONS, SCHEMA_HOST } from '../../src/catalogue.js'
import { AREAS, PROVIDER_AREAS } from '../../src/model/constants.js'

// 02-areas §1 and the reference data README, restated as a table.
const TABLE = [
    [
        'single-test',
        1,
        'provider',
        'autonomous',
        'B',
        false,
        false,
        10,
        3,
        'providers/{namespace}/{schema}/tools/{tool}/_gradings/'
    ],
    [
        'tools-aggregate-schema',
        2,
        'provider',
        'autonomous',
        'B',
        false,
        false,
        6,
        1,
        'providers/{namespace}/{schema}/_gradings/'
    ],
    [
        'tools-aggregate-namespace',
        3,
        'provider',
        'autonomous',
        'B',
        false,
        false,
        5,
        1,
        'providers/{namespace}/_gradings/'
    ],
    ['namespace-description', 4, 'provider', 'autonomous', 'B', false, false, 4, 0, 'providers/{namespace}/_gradings/'],
    [
        'namespace-skills',
        5,
        'provider',
        'autonomous',
        'B',
        true,
        true,
        6,
        0,
        'providers/{namespace}/{schema}/skills/{skill}/_gradings/'
    ],
    [
        'about-namespace',
        6,
        'provider',
        'autonomous',
        'B',
        true,
        false,
        7,
        1,
        'providers/{namespace}/{schema}/resources/about/_gradings/'
    ],
    [
        'about-selection',
        7,
        'selection',
        'group-bound',
        'A',
        true,
        false,
        7,
        1,
        'selections/{selection}/resources/about/_gradings/'
    ],
    [
        'selection-skills-L1',
        8,
        'selection',
        'group-bound',
        'A',
        true,
        true,
        4,
        0,
        'selections/{selection}/skills/{skill}/_gradings/'
    ],
    [
        'selection-skills-L2',
        9,
        'selection',
        'group-bound',
        'A',
        true,
        true,
        5,
        0,
        'selections/{selection}/skills/{skill}/_gradings/'
    ],
    [
        'selection-skills-L3',
        10,
        'selection',
        'group-bound',
        'A',
        true,
        true,
        6,
        0,
        'selections/{selection}/skills/{skill}/_gradings/'
    ],
    ['selection-aggregate', 11, 'selection', 'group-bound', 'A', true, false, 6, 2, 'selections/{selection}/_gradings/']
] as const

describe('Areas catalogue (02-areas §1)', () => {
    it.each(TABLE)(
        'describes %s as number %i, %s side, tier %s, max grade %s',
        (id, number, side, tier, maxGrade, persona, perSkill, count, det, dir) => {
            const { area, errors } = Areas.get({ area: id })
            expect(errors).toEqual([])
            expect(area).toMatchObject({
                id,
                number,
                side,
                tier,
                maxGrade,
                personaRequired: persona,
                perSkill,
                questionCount: count,
                gradingsDir: dir
            })
            expect(area?.deterministicQuestionIds).toHaveLength(det)
            expect(area?.nonDeterministicQuestionIds).toHaveLength(count - det)
        }
    )

    it('lists the eleven areas in spec order, six provider-side and five selection-side', () => {
        const areas = Areas.list().areas
        expect(areas.map((a) => a.id)).toEqual([...AREAS])
        expect(areas.filter((a) => a.side === 'provider').map((a) => a.id)).toEqual([...PROVIDER_AREAS])
        expect(areas.filter((a) => a.side === 'selection')).toHaveLength(5)
    })

    it('keeps provider and selection areas disjoint, with autonomous capped at B and group-bound reaching A', () => {
        for (const a of Areas.list().areas)
            expect([a.side, a.tier, a.maxGrade]).toEqual(
                a.side === 'provider' ? ['provider', 'autonomous', 'B'] : ['selection', 'group-bound', 'A']
            )
    })

    it('requires a persona on about-*, *-skills and selection-aggregate only (02 §10)', () => {
        expect(
            Areas.list()
                .areas.filter((a) => a.personaRequired)
                .map((a) => a.id)
        ).toEqual([
            'namespace-skills',
            'about-namespace',
            'about-selection',
            'selection-skills-L1',
            'selection-skills-L2',
            'selection-skills-L3',
            'selection-aggregate'
        ])
    })

    it('requires aboutHash on the two About areas (01-model ⚠ A16)', () => {
        expect(
            Areas.list()
                .areas.filter((a) => a.aboutHashRequired)
                .map((a) => a.id)
        ).toEqual(['about-namespace', 'about-selection'])
    })

    it('numbers question ids from 01 without gaps in every area (B1 question sets)', () => {
        for (const a of Areas.list().areas) {
            expect(a.questionIds).toEqual(a.questionIds.map((_, i) => `Q-${a.id}-${String(i + 1).padStart(2, '0')}`))
        }
        expect(QUESTIONS).toHaveLength(66)
    })

    it('adds the six selection-aggregate questions the reference catalogue lacks, two of them deterministic', () => {
        const { questions, version } = Areas.questions({ area: 'selection-aggregate' })
        expect(version).toBe('1.1.0')
        expect(questions.map((q) => [q.id, q.dimension, q.determinism])).toEqual([
            ['Q-selection-aggregate-01', 'memberThresholds', 'deterministic'],
            ['Q-selection-aggregate-02', 'topicCoherence', 'non-deterministic'],
            ['Q-selection-aggregate-03', 'domainConformance', 'non-deterministic'],
            ['Q-selection-aggregate-04', 'personaUseCaseFit', 'non-deterministic'],
            ['Q-selection-aggregate-05', 'groupBoundValue', 'non-deterministic'],
            ['Q-selection-aggregate-06', 'cascadeStop', 'deterministic']
        ])
    })

    it('derives the classification from the question blocks', () => {
        const of = (id: string): string | undefined => Areas.get({ area: id }).area?.classification
        expect(of('single-test')).toBe('both')
        expect(of('namespace-description')).toBe('non-deterministic')
        expect(of('selection-aggregate')).toBe('both')
    })

    it('carries the dependency graph: about-namespace gates on stable, selection areas are deferred (06 §19.3)', () => {
        expect(AREA_CATALOGUE['about-namespace']).toMatchObject({
            dependsOn: 'about-resource-present',
            requiredLevel: 'stable',
            deferred: false
        })
        expect(AREA_CATALOGUE['tools-aggregate-namespace']).toMatchObject({
            dependsOn: 'all-namespace-schemas',
            requiredLevel: 'deterministic-green'
        })
        for (const a of Areas.list().areas.filter((x) => x.side === 'selection'))
            expect([a.dependsOn, a.requiredLevel, a.deferred]).toEqual(['all-member-schemas', 'stable', true])
        const graph = Areas.dependencyGraph()
        expect(graph.version).toBe('1.2.0')
        expect(graph.entries.map((e) => e.area).sort()).toEqual([...AREAS].sort())
    })

    it('names the blocking conditions: the 3-test bar on single-test, no About, the selection pre-condition (02 §2.1, §2.6, §9.1)', () => {
        const ids = (area: string): string[] => (Areas.get({ area }).area?.blockingConditions ?? []).map((b) => b.id)
        expect(ids('single-test')).toContain('fewer-than-3-working-tests')
        expect(ids('about-namespace')).toEqual(expect.arrayContaining(['no-about', 'namespace-schemas-not-stable']))
        for (const area of [
            'about-selection',
            'selection-skills-L1',
            'selection-skills-L2',
            'selection-skills-L3',
            'selection-aggregate'
        ]) {
            expect(ids(area)).toEqual(expect.arrayContaining(['blocked-by-precondition', 'below-soft-threshold']))
        }
        expect(ids('selection-skills-L2')).toContain('missing-predecessor-grades')
    })

    it('is frozen', () => {
        expect(Object.isFrozen(AREA_CATALOGUE['single-test'])).toBe(true)
        expect(Object.isFrozen(AREA_CATALOGUE['single-test'].questionIds)).toBe(true)
    })

    it.each([
        [{}, 'ARE-011'],
        [{ area: 'security' }, 'ARE-001'],
        [{ area: 42 }, 'ARE-001']
    ])('rejects a missing or unknown area %j with %s', (input, code) => {
        expect(Areas.get(input).errors[0]).toMatchObject({ code, path: '/area' })
        expect(Areas.questions(input).errors[0]?.code).toBe(code)
        expect(Areas.outputSchema(input)).toMatchObject({ schema: null, errors: [{ code }] })
    })
})

describe('area output schemas (shipped in schemas/area-output/)', () => {
    it('use absolute $ids under one host and no relative $ref', () => {
        for (const area of AREAS) {
            const schema = Areas.outputSchema({ area }).schema as { $id: string }
            expect(schema.$id).toBe(`${SCHEMA_HOST}area-output/${area}.schema.json`)
            const refs = JSON.stringify(schema).match(/"\$ref":"[^"]+"/g) ?? []
            for (const ref of refs)
                expect(ref).toMatch(
                    /"\$ref":"(https:\/\/flowmcp-grading\.dev\/schemas\/area-output\/_master\.schema\.json)?#\/\$defs\/[a-zA-Z]+"/
                )
        }
        expect((Areas.outputSchema({ area: 'single-test' }).master as { $id: string }).$id).toBe(
            `${SCHEMA_HOST}area-output/_master.schema.json`
        )
    })

    it('list exactly the catalogue question ids and count for each area', () => {
        for (const a of Areas.list().areas) {
            const env = (
                Areas.outputSchema({ area: a.id }).schema as {
                    $defs: {
                        envelope: {
                            properties: {
                                answers: {
                                    minItems: number
                                    maxItems: number
                                    items: { allOf: Array<{ properties?: { questionId?: { enum: string[] } } }> }
                                }
                            }
                        }
                    }
                }
            ).$defs.envelope.properties.answers
            expect([env.minItems, env.maxItems]).toEqual([a.questionCount, a.questionCount])
            expect(env.items.allOf[1]?.properties?.questionId?.enum).toEqual(a.questionIds)
        }
    })

    it('let the master envelope name all eleven areas, selection-aggregate included', () => {
        const master = Areas.outputSchema({ area: 'single-test' }).master as {
            $defs: { envelope: { properties: { area: { enum: string[] } } } }
        }
        expect(master.$defs.envelope.properties.area.enum).toEqual([...AREAS])
    })

    it('give a self-contained copy for prompts with every reference resolved', () => {
        const text = JSON.stringify(Areas.outputSchema({ area: 'about-namespace', selfContained: true }).schema)
        expect(text).not.toContain('$ref')
        expect(text).not.toContain('contains')
        expect(text).toContain('basePersonaId')
    })
})
