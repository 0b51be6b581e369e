import { describe, expect, it } from 'vitest'
import {
    Grading,
    isGradingEntry,
    validateGradingEntry,
    type GradingAnswer,
    type GradingEntry,
    type Issue
} from '../../src/index.js'
import { AREAS } from '../../src/catalogue.js'
import { QUESTION_CATALOGUE_VERSION, QUESTIONS } from '../../src/areas/catalogue.js'
import { CROSS_AREA_QUESTIONS, indexedQuestions, QUESTION_INDEX_VERSION } from '../../src/grading/question-index.js'
import { TIME_DEPENDENT_QUESTIONS } from '../../src/grading/aging.js'
import { describeId, invisibleCodePoints, visibleText, withoutInvisible } from '../../src/grading/visible.js'
import { CATALOGUE_QUESTION_IDS, CROSS_AREA_QUESTION_IDS } from '../../src/model/question-ids.js'
import { isQuestionId } from '../../src/index.js'
import { catalogueEntry, example, nd } from './helpers.js'

const NOW = '2026-06-01T00:00:00Z'
const codes = (issues: readonly Issue[]): string[] => issues.map((i) => i.code)
const withGradings = (entry: GradingEntry, gradings: readonly GradingAnswer[]): GradingEntry => ({ ...entry, gradings })
const answerAt = (entry: GradingEntry, i: number): GradingAnswer => entry.gradings[i] as GradingAnswer
/** Index of the first answer the catalogue calls non-deterministic (an LLM answer in catalogueEntry). */
const firstLlm = (entry: GradingEntry): number => entry.gradings.findIndex((g) => g.graderIdentity.kind === 'llm')

describe('answer rules of validateGradingEntry', () => {
    it.each([...AREAS])('accepts a full %s entry the library writes, with no issue at all', (area) => {
        const entry = catalogueEntry(area)
        expect(validateGradingEntry({ entry, now: NOW })).toMatchObject({ valid: true, entry, errors: [] })
    })

    it.each(['grading-autonomous', 'grading-rejected'] as const)(
        'keeps the spec example %s valid with no issue, now included',
        (name) => {
            expect(validateGradingEntry({ entry: example(name), now: NOW }).errors).toEqual([])
        }
    )

    it('⚠ A9 one answer per question and grader: the same answer twice at the same time is an error (GRD-053)', () => {
        const entry = catalogueEntry()
        const i = firstLlm(entry)
        const result = validateGradingEntry({ entry: withGradings(entry, [...entry.gradings, answerAt(entry, i)]) })
        expect(result.valid).toBe(false)
        expect(result.errors).toEqual([
            expect.objectContaining({
                code: 'GRD-053',
                severity: 'error',
                path: `/gradings/${entry.gradings.length}/questionId`
            })
        ])
        expect(result.errors[0]?.message).toContain(`answers ${i} and ${entry.gradings.length}`)
    })

    it('⚠ A9 one answer per question and grader: a later second answer by the same grader is a warning (GRD-054)', () => {
        const entry = catalogueEntry()
        const again = { ...answerAt(entry, firstLlm(entry)), timestamp: '2026-05-29T11:00:00Z' }
        const result = validateGradingEntry({ entry: withGradings(entry, [...entry.gradings, again]) })
        expect(result.valid).toBe(true)
        expect(codes(result.errors)).toEqual(['GRD-054'])
    })

    it('answers by two different graders to one question are not duplicates (⚠ A9 multiple graders)', () => {
        const entry = catalogueEntry()
        const other = {
            ...answerAt(entry, firstLlm(entry)),
            graderIdentity: { kind: 'human', name: 'reviewer', version: '1' }
        } as GradingAnswer
        const { llmModel: _drop, ...human } = other
        const result = validateGradingEntry({ entry: withGradings(entry, [...entry.gradings, human as GradingAnswer]) })
        // Legal by default (the newest answer wins); named as a warning, since strict intake refuses it.
        expect(result.valid).toBe(true)
        expect(result.errors.map((i) => [i.code, i.severity])).toEqual([['GRD-071', 'warning']])
    })

    it.each([
        ['no reasoning', undefined, 'no reasoning'],
        ['a blank reasoning', '  ', 'a blank reasoning']
    ])('§7.2 reasoning SHOULD: an LLM answer with %s is a warning (GRD-055)', (_name, reasoning, found) => {
        const entry = catalogueEntry()
        const i = firstLlm(entry)
        const { reasoning: _drop, ...bare } = answerAt(entry, i)
        const answer = reasoning === undefined ? bare : { ...bare, reasoning }
        const result = validateGradingEntry({
            entry: withGradings(
                entry,
                entry.gradings.map((g, j) => (j === i ? answer : g))
            )
        })
        expect(result.valid).toBe(true)
        expect(result.errors).toEqual([
            expect.objectContaining({ code: 'GRD-055', severity: 'warning', path: `/gradings/${i}` })
        ])
        expect(result.errors[0]?.message).toContain(found)
    })

    it('§5 determinism: deterministic on a question the catalogue defines as non-deterministic is an error (GRD-056)', () => {
        const entry = catalogueEntry()
        const i = firstLlm(entry)
        const result = validateGradingEntry({
            entry: withGradings(
                entry,
                entry.gradings.map((g, j) => (j === i ? { ...g, determinism: 'deterministic' } : g))
            )
        })
        expect(result.valid).toBe(false)
        expect(result.errors).toEqual([
            expect.objectContaining({ code: 'GRD-056', path: `/gradings/${i}/determinism` })
        ])
    })

    it('§5 determinism: a deterministic catalogue question answered by an LLM as non-deterministic stays valid', () => {
        const entry = catalogueEntry()
        const i = entry.gradings.findIndex((g) => g.determinism === 'deterministic')
        const llmAnswer = nd(answerAt(entry, i).questionId, 4, { weight: answerAt(entry, i).weight })
        const result = validateGradingEntry({
            entry: withGradings(
                entry,
                entry.gradings.map((g, j) => (j === i ? llmAnswer : g))
            )
        })
        expect(result.valid).toBe(true)
    })

    it('⚠ A13 gradingId format: a hash part other than schemaHash is a warning (GRD-057)', () => {
        const entry = { ...catalogueEntry(), gradingId: 'deadbeef--2026-05-29T10-00-00Z' }
        const result = validateGradingEntry({ entry })
        expect(result.valid).toBe(true)
        expect(result.errors).toEqual([
            expect.objectContaining({ code: 'GRD-057', severity: 'warning', path: '/gradingId' })
        ])
        expect(result.errors[0]?.message).toBe(
            'gradingId starts with hash deadbeef, but schemaHash is a1b2c3d4; a gradingId is <schemaHash>--<timestamp>'
        )
    })

    it('§8 full covers every applicable dimension: a full entry missing a catalogue question is an error (GRD-058)', () => {
        const entry = catalogueEntry()
        const i = firstLlm(entry)
        const missing = answerAt(entry, i).questionId
        const result = validateGradingEntry({
            entry: withGradings(
                entry,
                entry.gradings.filter((_, j) => j !== i)
            )
        })
        expect(result.valid).toBe(false)
        expect(result.errors).toContainEqual(expect.objectContaining({ code: 'GRD-058', path: '/gradings' }))
        expect(result.errors.find((e) => e.code === 'GRD-058')?.message).toContain(`1 missing: ${missing}`)
    })

    it('§8 a partial entry, a vetoed entry and an entry without catalogue questions need not be complete', () => {
        const entry = catalogueEntry()
        const two = entry.gradings.filter((g) => g.graderIdentity.kind === 'llm').slice(0, 2)
        expect(
            codes(validateGradingEntry({ entry: { ...withGradings(entry, two), gradingMode: 'partial' } }).errors)
        ).not.toContain('GRD-058')
        const vetoed = {
            ...withGradings(entry, two),
            aggregateGrade: 'REJECTED',
            categoricalVeto: example('grading-rejected').categoricalVeto
        } as GradingEntry
        expect(codes(validateGradingEntry({ entry: vetoed }).errors)).not.toContain('GRD-058')
        expect(codes(validateGradingEntry({ entry: example('grading-autonomous') }).errors)).not.toContain('GRD-058')
    })

    it("§7.1 one area per entry: an answer to another area's question is an error (GRD-059)", () => {
        const entry = catalogueEntry()
        const foreign = nd('Q-namespace-description-01', 4)
        const result = validateGradingEntry({ entry: withGradings(entry, [...entry.gradings, foreign]) })
        expect(result.valid).toBe(false)
        const issue = result.errors.find((e) => e.code === 'GRD-059')
        expect(issue).toMatchObject({ path: `/gradings/${entry.gradings.length}/questionId` })
        expect(issue?.message).toBe(
            "Question Q-namespace-description-01 belongs to area namespace-description, not to this entry's area single-test; answer it in a namespace-description entry"
        )
    })

    it('S8 declared dimensions: a catalogue-shaped id the catalogue does not have is an error (GRD-060)', () => {
        const entry = catalogueEntry()
        const result = validateGradingEntry({
            entry: withGradings(entry, [...entry.gradings, nd('Q-single-test-99', 4)])
        })
        expect(codes(result.errors)).toContain('GRD-060')
    })

    it('timestamps: an answer after now is an error (GRD-061); without now timestamps are not compared', () => {
        const entry = catalogueEntry()
        const late = withGradings(
            entry,
            entry.gradings.map((g, j) => (j === 0 ? { ...g, timestamp: '2031-05-29T10:00:00Z' } : g))
        )
        const result = validateGradingEntry({ entry: late, now: NOW })
        expect(result.valid).toBe(false)
        expect(result.errors.filter((i) => i.severity === 'error')).toEqual([
            expect.objectContaining({ code: 'GRD-061', path: '/gradings/0/timestamp' })
        ])
        expect(result.errors[0]?.message).toBe(
            'Timestamp 2031-05-29T10:00:00Z is later than the validation time 2026-06-01T00:00:00Z; an answer cannot be recorded in the future'
        )
        expect(validateGradingEntry({ entry: late }).valid).toBe(true)
        expect(validateGradingEntry({ entry: late, now: '2031-05-29T10:00:00Z' }).valid).toBe(true)
    })

    it('timestamps: a veto or a re-grading trigger after now is an error too (GRD-061)', () => {
        const rejected = example('grading-rejected')
        const veto = {
            ...rejected,
            categoricalVeto: { ...(rejected.categoricalVeto as object), timestamp: '2027-01-01T00:00:00Z' }
        }
        expect(validateGradingEntry({ entry: veto, now: NOW }).errors).toEqual([
            expect.objectContaining({ code: 'GRD-061', path: '/categoricalVeto/timestamp' })
        ])
        const regraded = {
            ...example('grading-autonomous'),
            regradingTrigger: {
                triggeredBy: 'scheduled',
                previousGradingId: 'a1b2c3d4--2026-05-01T10-00-00Z',
                timestamp: '2027-01-01T00:00:00Z'
            }
        }
        expect(validateGradingEntry({ entry: regraded, now: NOW }).errors).toEqual([
            expect.objectContaining({ code: 'GRD-061', path: '/regradingTrigger/timestamp' })
        ])
    })

    it('timestamps: a gradingId stamped after now is an error too (GRD-061)', () => {
        const entry = { ...catalogueEntry(), gradingId: 'a1b2c3d4--2031-01-01T00-00-00Z' }
        expect(validateGradingEntry({ entry, now: NOW }).errors).toEqual([
            expect.objectContaining({ code: 'GRD-061', path: '/gradingId' })
        ])
        expect(validateGradingEntry({ entry }).errors).toEqual([])
    })

    it('⚠ A8 weights come from the catalogue: another weight on a catalogue question is a warning (GRD-065)', () => {
        const entry = catalogueEntry()
        const i = firstLlm(entry)
        const result = validateGradingEntry({
            entry: withGradings(
                entry,
                entry.gradings.map((g, j) => (j === i ? { ...g, weight: 5 } : g))
            )
        })
        expect(result.errors).toContainEqual(
            expect.objectContaining({ code: 'GRD-065', severity: 'warning', path: `/gradings/${i}/weight` })
        )
    })

    it('§7.5 lineage: a re-grading that names its own gradingId as the previous one is an error (GRD-067)', () => {
        const entry = catalogueEntry()
        const self = {
            ...entry,
            regradingTrigger: {
                triggeredBy: 'scheduled',
                previousGradingId: entry.gradingId,
                timestamp: '2026-05-29T10:00:00Z'
            }
        }
        expect(validateGradingEntry({ entry: self }).errors).toEqual([
            expect.objectContaining({ code: 'GRD-067', path: '/regradingTrigger/previousGradingId' })
        ])
    })

    it('reports a now that is not a date-time at /now (GRD-063) and still checks the entry', () => {
        const result = validateGradingEntry({ entry: example('grading-autonomous'), now: 'yesterday' })
        expect(result.valid).toBe(false)
        expect(result.errors).toEqual([expect.objectContaining({ code: 'GRD-063', path: '/now' })])
    })
})

describe('the compact question index of the answer rules', () => {
    it('equals the question catalogue: ids, areas, determinism, weights and version', () => {
        const fromCatalogue = QUESTIONS.map((q) => ({
            id: q.id,
            area: q.area,
            deterministic: q.determinism === 'deterministic',
            weight: q.weight
        }))
        const sortById = <T extends { id: string }>(list: T[]): T[] => [...list].sort((a, b) => (a.id < b.id ? -1 : 1))
        expect(sortById(indexedQuestions())).toEqual(sortById(fromCatalogue))
        expect(QUESTION_INDEX_VERSION).toBe(QUESTION_CATALOGUE_VERSION)
    })

    it("CATALOGUE_QUESTION_IDS (the QuestionId union) holds exactly the catalogue's ids", () => {
        expect([...CATALOGUE_QUESTION_IDS].sort()).toEqual(QUESTIONS.map((q) => q.id).sort())
    })

    it('every cross-area question has a row, in areas that exist, and none is a catalogue id', () => {
        expect(Object.keys(CROSS_AREA_QUESTIONS).sort()).toEqual([...CROSS_AREA_QUESTION_IDS].sort())
        for (const [id, q] of Object.entries(CROSS_AREA_QUESTIONS)) {
            expect(q.areas.length).toBeGreaterThan(0)
            expect(q.areas.every((a) => (AREAS as readonly string[]).includes(a))).toBe(true)
            expect((CATALOGUE_QUESTION_IDS as readonly string[]).includes(id)).toBe(false)
        }
        // The time-dependent questions are cross-area questions, so stale can apply to them at all.
        for (const id of Object.keys(TIME_DEPENDENT_QUESTIONS))
            expect((CROSS_AREA_QUESTION_IDS as readonly string[]).includes(id)).toBe(true)
    })
})

describe('isQuestionId', () => {
    it.each(['Q-single-test-01', 'Q-selection-aggregate-06', 'Q-api-availability', 'Q-legal-assessment'])(
        'accepts %s',
        (id) => {
            expect(isQuestionId(id)).toBe(true)
        }
    )
    it.each(['Q-bribe', 'Q-single-test-99', 'Q-single-test-04\u200b', '', 7, null, { questionId: 'Q-single-test-01' }])(
        'rejects %j',
        (value) => {
            expect(isQuestionId(value)).toBe(false)
        }
    )
})

describe('invisible characters in ids (visible.ts)', () => {
    it('shows and names each Cf/Cc character by code point, and leaves a plain id alone', () => {
        expect(describeId('Q-single-test-04')).toBe('Q-single-test-04')
        expect(describeId('Q-a\u200b\u202eb\u200b')).toBe(
            'Q-a⟦U+200B⟧⟦U+202E⟧b⟦U+200B⟧ (it holds the invisible characters U+200B, U+202E)'
        )
        expect(visibleText('\ufeffkey')).toBe('⟦U+FEFF⟧key')
        expect(invisibleCodePoints('plain')).toEqual([])
        expect(withoutInvisible('Q-\u2060x')).toBe('Q-x')
    })
})

describe('messages of validateGradingEntry', () => {
    it('says February 30 is not a real calendar date (GRD-062), not that colons are missing', () => {
        const entry = example('grading-autonomous')
        const broken = withGradings(
            entry,
            entry.gradings.map((g, j) => (j === 0 ? { ...g, timestamp: '2026-02-30T10:00:00Z' } : g))
        )
        const result = validateGradingEntry({ entry: broken })
        expect(result.errors).toEqual([expect.objectContaining({ code: 'GRD-062', path: '/gradings/0/timestamp' })])
        expect(result.errors[0]?.message).toMatchInlineSnapshot(
            `"Field gradings[0].timestamp holds 2026-02-30T10:00:00Z, which is not a real calendar date and time: February 2026 has 28 days, not 30"`
        )
    })

    it('names the expected form when a timestamp is not a date-time at all (GRD-009)', () => {
        const entry = example('grading-autonomous')
        const broken = withGradings(
            entry,
            entry.gradings.map((g, j) => (j === 0 ? { ...g, timestamp: '2026-05-29T10-00-00Z' } : g))
        )
        expect(validateGradingEntry({ entry: broken }).errors[0]?.message).toMatchInlineSnapshot(
            `"Field gradings[0].timestamp does not match the required format: an ISO 8601 date-time with colons and a time zone, such as 2026-05-29T10:00:00Z; got 2026-05-29T10-00-00Z"`
        )
    })

    it('says the entry is null for { entry: null } (GRD-064)', () => {
        expect(validateGradingEntry({ entry: null }).errors).toEqual([
            {
                code: 'GRD-064',
                severity: 'error',
                path: '',
                message: 'The entry is null; expected a grading entry object'
            }
        ])
    })

    it('does not claim selectionId, persona or skillId are required for an empty entry without gradingTier or area', () => {
        const found = codes(validateGradingEntry({ entry: {} }).errors)
        expect(found).not.toContain('GRD-004')
        expect(found).not.toContain('GRD-021')
        expect(found).not.toContain('GRD-037')
        expect(found).toContain('GRD-001')
    })

    it('still names the conditional obligations when tier and area make them apply', () => {
        const found = codes(
            validateGradingEntry({ entry: { gradingTier: 'group-bound', area: 'namespace-skills' } }).errors
        )
        expect(found).toEqual(expect.arrayContaining(['GRD-004', 'GRD-021', 'GRD-037']))
    })
})

describe('typed results', () => {
    it('narrows to a typed entry when valid', () => {
        const result = validateGradingEntry({ entry: JSON.parse(JSON.stringify(catalogueEntry())) as unknown })
        if (!result.valid) throw new Error('expected a valid entry')
        // Compiles only because `entry` is a GradingEntry on the valid branch.
        const grade: 'A' | 'B' | 'C' | 'D' | 'F' | 'REJECTED' = result.entry.aggregateGrade
        expect(grade).toBe('B')
    })

    it('has no entry on the invalid branch', () => {
        const result = validateGradingEntry({ entry: { gradings: [] } })
        expect(result.valid).toBe(false)
        expect('entry' in result).toBe(false)
    })

    it('isGradingEntry accepts a valid entry and refuses an invalid one, a string and null', () => {
        const value: unknown = catalogueEntry()
        expect(isGradingEntry(value)).toBe(true)
        if (isGradingEntry(value)) expect(value.gradings.length).toBe(10)
        expect(isGradingEntry({ ...example('grading-autonomous'), aggregateGrade: 'A' })).toBe(false)
        expect(isGradingEntry('{}')).toBe(false)
        expect(isGradingEntry(null)).toBe(false)
    })

    it('Grading.validateEntry returns the same discriminated union', () => {
        const entry = catalogueEntry()
        expect(Grading.validateEntry({ entry })).toEqual(validateGradingEntry({ entry }))
    })
})
