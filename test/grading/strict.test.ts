import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { computeAggregate } from '../../src/grading/aggregate.js'
import {
    Grading,
    isGradingEntry,
    validateGradingEntry,
    type GradingAnswer,
    type GradingEntry,
    type Issue
} from '../../src/index.js'
import { catalogueEntry, det, example, nd } from './helpers.js'
import { shared } from '../support/shared.js'
import { AREAS } from '../../src/model/constants.js'

/** A time after every timestamp of the honest entries below. */
const NOW = '2026-06-01T00:00:00Z'
const human = { kind: 'human', name: 'registry-visitor', version: '1' } as const

/**
 * An honest single-test entry whose scores give D: the three deterministic questions (one failing)
 * by a script, the seven LLM questions scored 1.75 by one judge.
 */
function honest(): GradingEntry {
    const q = (n: number): string => `Q-single-test-${String(n).padStart(2, '0')}`
    const weights = [0.34, 0.33, 0.33, 0.34, 0.33, 0.33, 0.25, 0.25, 0.25, 0.25]
    const gradings = weights.map((weight, i) =>
        i < 3 ? det(q(i + 1), i === 0 ? 'fail' : 'pass', { weight }) : nd(q(i + 1), 1.75, { weight })
    )
    const { entry } = Grading.createEntry({
        schemaId: 'etherscan.getBalance',
        area: 'single-test',
        version: 'flowmcp/4.0.0',
        schemaHash: 'a1b2c3d4',
        gradingMode: 'full',
        now: '2026-05-29T10:00:00Z',
        gradings
    })
    return entry as GradingEntry
}

/** The entry with its aggregateGrade set to the recomputation, as a forger who knows the rules would. */
function regraded(entry: GradingEntry): GradingEntry {
    const grade = computeAggregate(entry, {}, false).aggregateGrade
    return { ...entry, aggregateGrade: grade ?? entry.aggregateGrade } as GradingEntry
}

const withGradings = (gradings: GradingAnswer[], extra: Partial<GradingEntry> = {}): GradingEntry =>
    regraded({ ...honest(), ...extra, gradings } as GradingEntry)
const errorCodes = (issues: readonly Issue[]): string[] =>
    [...new Set(issues.filter((i) => i.severity === 'error').map((i) => i.code))].sort()
const warningCodes = (issues: readonly Issue[]): string[] =>
    [...new Set(issues.filter((i) => i.severity === 'warning').map((i) => i.code))].sort()

/** The forgeries of issue 34's "Why" list, each with the grade it reached, its codes by default and in strict mode. */
const FORGERIES: ReadonlyArray<{
    name: string
    forge: () => GradingEntry
    grade: string
    defaultErrors: string[]
    strict: string
}> = [
    {
        name: '20 invented answers Q-extra-N scored 5',
        forge: () =>
            withGradings([...honest().gradings, ...Array.from({ length: 20 }, (_, n) => det(`Q-extra-${n + 1}`, 5))]),
        grade: 'B',
        defaultErrors: ['GRD-068'],
        strict: 'GRD-068'
    },
    {
        name: 'an invented Q-bribe with a heavy weight',
        forge: () => withGradings([...honest().gradings, det('Q-bribe', 5, { weight: 50 })]),
        grade: 'B',
        defaultErrors: ['GRD-068'],
        strict: 'GRD-068'
    },
    {
        name: 'gradingSystem/2.0.0 to skip the recomputation',
        forge: () => ({ ...honest(), gradingSystem: 'gradingSystem/2.0.0', aggregateGrade: 'B' }) as GradingEntry,
        grade: 'B',
        defaultErrors: [],
        strict: 'VER-004'
    },
    {
        name: 'tampered weights C→B',
        forge: () => withGradings(honest().gradings.map((g) => (g.score === 'pass' ? { ...g, weight: 5 } : g))),
        grade: 'B',
        defaultErrors: [],
        strict: 'GRD-065'
    },
    {
        name: 'the same grader re-answering a minute later D→B',
        forge: () =>
            withGradings([
                ...honest().gradings,
                ...honest()
                    .gradings.filter((g) => g.determinism === 'non-deterministic')
                    .map((g) => ({ ...g, score: 5, timestamp: '2026-05-29T10:01:00Z' }))
            ]),
        grade: 'B',
        defaultErrors: [],
        strict: 'GRD-054'
    },
    {
        name: 'a second, self-declared human grader at the same instant overriding every LLM answer D→B',
        forge: () =>
            withGradings([
                ...honest().gradings,
                ...honest()
                    .gradings.filter((g) => g.determinism === 'non-deterministic')
                    .map((g) => ({ ...g, score: 5, graderIdentity: human, reasoning: 'I say so.' }))
            ]),
        grade: 'B',
        defaultErrors: [],
        strict: 'GRD-071'
    },
    {
        name: 'a failing deterministic answer resubmitted as stale D→C',
        forge: () => withGradings(honest().gradings.map((g) => (g.score === 'fail' ? { ...g, score: 'stale' } : g))),
        grade: 'C',
        defaultErrors: ['GRD-069'],
        strict: 'GRD-069'
    },
    {
        name: 'a failing API answer resubmitted as stale before its window passed',
        forge: () =>
            withGradings([
                ...honest().gradings.map((g) => (g.score === 'fail' ? { ...g, score: 'pass' as const } : g)),
                det('Q-api-availability', 'stale')
            ]),
        grade: 'C',
        defaultErrors: ['GRD-070'],
        strict: 'GRD-070'
    },
    {
        name: 'every LLM question n/a, so B rests on deterministic answers alone',
        forge: () =>
            withGradings(
                honest().gradings.map((g) =>
                    g.determinism === 'non-deterministic'
                        ? { ...g, score: 'n/a', naReason: 'requires-private-data' }
                        : g
                )
            ),
        grade: 'B',
        defaultErrors: [],
        strict: 'GRD-026'
    },
    {
        name: 'a partial entry with any grade',
        forge: () => ({ ...honest(), gradingMode: 'partial', aggregateGrade: 'B' }) as GradingEntry,
        grade: 'B',
        defaultErrors: [],
        strict: 'GRD-073'
    }
]

describe('strict mode: registry intake (issue 34)', () => {
    it('starts from an honest entry that grades D and passes both modes with no warning', () => {
        const entry = honest()
        expect(entry.aggregateGrade).toBe('D')
        expect(validateGradingEntry({ entry })).toMatchObject({ valid: true, entry, errors: [] })
        expect(validateGradingEntry({ entry, strict: true, now: NOW })).toMatchObject({
            valid: true,
            entry,
            errors: []
        })
    })

    it.each(FORGERIES)('rejects in strict mode: $name', ({ forge, grade, strict }) => {
        const entry = forge()
        expect(entry.aggregateGrade).toBe(grade)
        const result = validateGradingEntry({ entry, strict: true, now: NOW })
        expect(result.valid).toBe(false)
        expect(errorCodes(result.errors)).toContain(strict)
    })

    it.each(FORGERIES)('by default, errors exactly where the spec is clear: $name', ({ forge, defaultErrors }) => {
        const result = validateGradingEntry({ entry: forge(), now: NOW })
        expect(errorCodes(result.errors)).toEqual(defaultErrors)
        expect(result.valid).toBe(defaultErrors.length === 0)
    })

    it('keeps several graders and re-answers legal by default, and names what strict refuses as a warning', () => {
        const reAnswered = FORGERIES[4]?.forge() as GradingEntry
        expect(warningCodes(validateGradingEntry({ entry: reAnswered }).errors)).toEqual(['GRD-054'])
        const overridden = FORGERIES[5]?.forge() as GradingEntry
        const result = validateGradingEntry({ entry: overridden })
        expect(result.valid).toBe(true)
        expect(result.errors.filter((i) => i.severity === 'error')).toEqual([])
        expect(result.errors.filter((i) => i.severity !== 'info').length).toBeGreaterThan(0)
        expect(warningCodes(result.errors)).toContain('GRD-071')
    })

    it.each([
        [
            'a second LLM identity answering other questions',
            (e: GradingEntry) => ({
                ...e,
                gradings: e.gradings.map((g, i) =>
                    i === 9 ? { ...g, graderIdentity: { kind: 'llm', name: 'other-model', version: '1' } } : g
                )
            }),
            'GRD-072'
        ],
        [
            'a timestamp after now',
            (e: GradingEntry) => ({
                ...e,
                gradings: e.gradings.map((g, i) => (i === 0 ? { ...g, timestamp: '2026-07-01T00:00:00Z' } : g))
            }),
            'GRD-061'
        ],
        [
            'a scoringSystem this library does not implement',
            (e: GradingEntry) => ({ ...e, scoringSystem: 'scoringSystem/2.0.0' }),
            'VER-005'
        ],
        [
            'a gradingId naming another schemaHash',
            (e: GradingEntry) => ({ ...e, gradingId: 'deadbeef--2026-05-29T10-00-00Z' }),
            'GRD-057'
        ],
        [
            'an LLM answer without reasoning',
            (e: GradingEntry) => ({
                ...e,
                gradings: e.gradings.map((g, i) => (i === 5 ? { ...g, reasoning: undefined } : g))
            }),
            'GRD-055'
        ],
        [
            'an aggregateGrade other than the recomputation',
            (e: GradingEntry) => ({ ...e, aggregateGrade: 'C' }),
            'GRD-014'
        ],
        [
            "a gradingSystem other than this library's on a vetoed entry",
            (_e: GradingEntry) => ({ ...example('grading-rejected'), gradingSystem: 'gradingSystem/2.0.0' }),
            'VER-004'
        ]
    ])('rejects in strict mode %s', (_name, mutate, code) => {
        const entry = JSON.parse(JSON.stringify(mutate(honest()))) as GradingEntry
        expect(errorCodes(validateGradingEntry({ entry, strict: true, now: NOW }).errors)).toContain(code)
    })

    it('requires now in strict mode (GRD-074) and takes a Date as its instant', () => {
        const entry = honest()
        // @ts-expect-error strict without now: refused by the type, and at run time for a host that slips past it
        expect(validateGradingEntry({ entry, strict: true }).errors).toEqual([
            expect.objectContaining({ code: 'GRD-074', severity: 'error', path: '/now' })
        ])
        expect(validateGradingEntry({ entry, strict: true, now: new Date(NOW) })).toMatchObject({
            valid: true,
            errors: []
        })
        // A Date before the answers is their future: the Date means its instant, not "now".
        expect(errorCodes(validateGradingEntry({ entry, now: new Date('2026-05-01T00:00:00Z') }).errors)).toEqual([
            'GRD-061'
        ])
    })

    it('reports an invalid Date as now with a code (GRD-063), in both modes', () => {
        for (const strict of [false, true]) {
            const result = validateGradingEntry({ entry: honest(), strict, now: new Date('not a date') })
            expect(result.errors).toEqual([
                expect.objectContaining({
                    code: 'GRD-063',
                    path: '/now',
                    message: expect.stringContaining('invalid Date')
                })
            ])
        }
    })

    it('makes every read-tolerant warning an error: an accepted strict entry carries no warning', () => {
        const text = JSON.stringify(honest()).replace('"timestamp"', '"constructor": 1, "timestamp"')
        expect(warningCodes(validateGradingEntry({ entry: JSON.parse(text) }).errors)).toEqual(['GRD-075'])
        expect(errorCodes(validateGradingEntry({ entry: JSON.parse(text), strict: true, now: NOW }).errors)).toEqual([
            'GRD-075'
        ])
    })

    it('offers the option on isGradingEntry and Grading', () => {
        const forged = FORGERIES[3]?.forge() as GradingEntry
        expect(isGradingEntry(forged)).toBe(true)
        expect(isGradingEntry(forged, { strict: true, now: NOW })).toBe(false)
        expect(isGradingEntry(honest(), { strict: true, now: NOW })).toBe(true)
        expect(Grading.validateEntry({ entry: forged, strict: true, now: NOW }).valid).toBe(false)
        expect(Grading.readEntry({ json: JSON.stringify(forged), strict: true, now: NOW }).entry).toBeNull()
        expect(Grading.readEntry({ json: JSON.stringify(honest()), strict: true, now: NOW }).entry).toEqual(honest())
    })
})

describe('entries the library and the spec write pass both modes', () => {
    const specExamples = shared('spec/examples/')
    const files = [
        ...(specExamples.present
            ? readdirSync(specExamples.path).map((f) => pathToFileURL(join(specExamples.path, f)))
            : []),
        new URL('../../examples/entries/etherscan-getBalance.single-test.json', import.meta.url),
        new URL('../../examples/entries/example-maliciousAdapter.single-test.json', import.meta.url)
    ]
    it.each(files.map((u) => [u.pathname.split('/').slice(-2).join('/'), u] as const))('%s', (_name, url) => {
        const entry = JSON.parse(readFileSync(url, 'utf8')) as unknown
        expect(validateGradingEntry({ entry })).toMatchObject({ valid: true, errors: [] })
        expect(validateGradingEntry({ entry, strict: true, now: NOW })).toMatchObject({ valid: true, errors: [] })
    })

    it.each(AREAS.map((a) => [a]))('a full %s entry answering the whole catalogue', (area) => {
        const entry = catalogueEntry(area)
        expect(validateGradingEntry({ entry }).errors.filter((i) => i.severity !== 'info')).toEqual([])
        expect(validateGradingEntry({ entry, strict: true, now: NOW })).toMatchObject({
            valid: true,
            entry,
            errors: []
        })
    })
})

describe('stale (01-model §9)', () => {
    const api = (score: GradingAnswer['score'], timestamp: string): GradingAnswer =>
        det('Q-api-availability', score, { timestamp })
    it('accepts stale once the window has passed since the earlier answer in the entry', () => {
        const entry = withGradings([
            ...honest().gradings,
            api('pass', '2026-05-01T00:00:00Z'),
            api('stale', '2026-05-16T00:00:01Z')
        ])
        expect(errorCodes(validateGradingEntry({ entry }).errors)).toEqual([])
    })

    it('accepts stale once the window has passed since the previous grading the entry re-grades', () => {
        const entry = withGradings([...honest().gradings, api('stale', '2026-05-29T10:00:00Z')], {
            regradingTrigger: {
                triggeredBy: 'scheduled',
                previousGradingId: 'a1b2c3d4--2026-05-01T00-00-00Z',
                timestamp: '2026-05-29T10:00:00Z'
            }
        } as Partial<GradingEntry>)
        expect(errorCodes(validateGradingEntry({ entry }).errors)).toEqual([])
    })

    it.each([
        ['14 days exactly after the earlier answer (⚠ A21: exceeded means greater)', '2026-05-15T00:00:00Z'],
        ['a day after the earlier answer', '2026-05-02T00:00:00Z']
    ])('rejects stale %s (GRD-070)', (_name, at) => {
        const entry = withGradings([...honest().gradings, api('pass', '2026-05-01T00:00:00Z'), api('stale', at)])
        const result = validateGradingEntry({ entry })
        expect(result.errors).toContainEqual(
            expect.objectContaining({ code: 'GRD-070', severity: 'error', path: '/gradings/11/score' })
        )
    })
})

describe('cross-area questions (01-model §11)', () => {
    it.each([
        [
            'Q-api-availability in an area that does not carry it',
            { ...example('grading-autonomous'), area: 'tools-aggregate-namespace' },
            'GRD-068',
            '/gradings/0/questionId'
        ],
        [
            'Q-when-to-use recorded as deterministic',
            {
                ...example('grading-autonomous'),
                gradings: example('grading-autonomous').gradings.map((g, i) =>
                    i === 2 ? { ...g, determinism: 'deterministic' } : g
                )
            },
            'GRD-056',
            '/gradings/2/determinism'
        ],
        [
            'Q-description-neutrality with another weight',
            {
                ...example('grading-autonomous'),
                gradings: example('grading-autonomous').gradings.map((g, i) => (i === 1 ? { ...g, weight: 2 } : g))
            },
            'GRD-065',
            '/gradings/1/weight'
        ]
    ])('reports %s', (_name, entry, code, path) => {
        expect(validateGradingEntry({ entry, now: NOW }).errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    it('accepts the cross-area questions the library writes in the areas it writes them', () => {
        const structure = det('Q-schema-structure', 'pass')
        const security = det('Q-security', 4)
        const entry = regraded({
            ...example('grading-autonomous'),
            area: 'tools-aggregate-schema',
            gradings: [structure, security, nd('Q-when-to-use', 4), nd('Q-parameters', 4)]
        } as GradingEntry)
        expect(validateGradingEntry({ entry, strict: true, now: NOW })).toMatchObject({ valid: true, errors: [] })
    })
})

describe('question ids with invisible characters are named by code point', () => {
    it('names U+200B in the unknown-question and the missing-question messages', () => {
        const entry = withGradings(
            honest().gradings.map((g) =>
                g.questionId === 'Q-single-test-04'
                    ? ({ ...g, questionId: 'Q-single-test-04\u200b' } as unknown as GradingAnswer)
                    : g
            )
        )
        const result = validateGradingEntry({ entry })
        const byCode = new Map(result.errors.map((i) => [i.code, i.message]))
        expect(byCode.get('GRD-068')).toContain('Q-single-test-04⟦U+200B⟧ (it holds the invisible character U+200B)')
        expect(byCode.get('GRD-058')).toContain('answer 3 has Q-single-test-04⟦U+200B⟧')
    })

    it('names U+200B in an invented id', () => {
        const result = validateGradingEntry({ entry: withGradings([...honest().gradings, det('Q-\u200bbribe', 5)]) })
        expect(result.errors.find((i) => i.code === 'GRD-068')?.message).toContain(
            'Q-⟦U+200B⟧bribe (it holds the invisible character U+200B)'
        )
    })
})

describe('the accepted entry is what was checked (issue 34 point 5)', () => {
    it("returns a deep-frozen copy, never the caller's object", () => {
        const input = honest()
        const result = validateGradingEntry({ entry: input })
        if (!result.valid) throw new Error('expected valid')
        expect(result.entry).not.toBe(input)
        expect(result.entry).toEqual(input)
        expect(Object.isFrozen(result.entry)).toBe(true)
        expect(Object.isFrozen(result.entry.gradings)).toBe(true)
        expect(Object.isFrozen(result.entry.gradings[0])).toBe(true)
        expect(Object.isFrozen(result.entry.gradings[0]?.graderIdentity)).toBe(true)
    })

    it('drops an own __proto__ key in evidence with a warning, so no merge of the accepted entry inherits from it', () => {
        const text = JSON.stringify(honest()).replace(
            '"timestamp"',
            '"evidence": { "__proto__": { "isAdmin": true }, "note": "x" }, "timestamp"'
        )
        const result = validateGradingEntry({ entry: JSON.parse(text) })
        if (!result.valid) throw new Error('expected valid')
        expect(result.errors).toEqual([
            expect.objectContaining({ code: 'GRD-075', severity: 'warning', path: '/gradings/0/evidence/__proto__' })
        ])
        const evidence = result.entry.gradings[0]?.evidence as Record<string, unknown>
        expect(Object.keys(evidence)).toEqual(['note'])
        expect((Object.assign({}, evidence) as Record<string, unknown>).isAdmin).toBeUndefined()
    })

    it('keeps only own data properties: an accessor is left out and never read twice', () => {
        const input = JSON.parse(JSON.stringify(honest())) as Record<string, unknown>
        const evidence: Record<string, unknown> = { note: 'x' }
        let reads = 0
        Object.defineProperty(evidence, 'flip', { enumerable: true, get: () => (reads += 1) })
        ;(input.gradings as Array<Record<string, unknown>>)[0]!.evidence = evidence
        const result = validateGradingEntry({ entry: input })
        expect(result.errors).toEqual([expect.objectContaining({ code: 'GRD-075', path: '/gradings/0/evidence/flip' })])
        expect(result.valid && Object.keys(result.entry.gradings[0]?.evidence as object)).toEqual(['note'])
        expect(reads).toBe(1)
    })
})
