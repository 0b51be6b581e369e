import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { computeAggregate } from '../../src/grading/aggregate.js'
import { CROSS_AREA_QUESTIONS } from '../../src/grading/question-index.js'
import { CATALOGUE_QUESTION_IDS, CROSS_AREA_QUESTION_IDS } from '../../src/model/question-ids.js'
import { validateGradingEntry } from '../../src/index.js'
import { catalogueEntry } from './helpers.js'
import { shared } from '../support/shared.js'

// Issue 34, done-when: random mutations of honest entries are rejected, or leave the recomputed
// grade and the entry's meaning unchanged; in strict mode no accepted mutation changes aggregateGrade.

const NOW = '2026-06-01T00:00:00Z'
type Entry = Record<string, unknown> & { gradings: Array<Record<string, unknown>> }

const specExamples = shared('spec/examples/')
/** A spec example as one more honest entry; a clone without ../shared runs the catalogue's entries only. */
const spec = (name: string, label: string): Array<{ name: string; entry: Entry; catalogue: boolean }> =>
    specExamples.present
        ? [
              {
                  name: label,
                  entry: JSON.parse(readFileSync(join(specExamples.path, `${name}.json`), 'utf8')) as Entry,
                  catalogue: false
              }
          ]
        : []
const clone = (e: Entry): Entry => JSON.parse(JSON.stringify(e)) as Entry
const HONEST: ReadonlyArray<{ name: string; entry: Entry; catalogue: boolean }> = [
    { name: 'single-test, scores 2', entry: catalogueEntry('single-test', 2) as unknown as Entry, catalogue: true },
    { name: 'single-test, scores 4', entry: catalogueEntry('single-test', 4) as unknown as Entry, catalogue: true },
    {
        name: 'tools-aggregate-schema, scores 3',
        entry: catalogueEntry('tools-aggregate-schema', 3) as unknown as Entry,
        catalogue: true
    },
    {
        name: 'selection-aggregate, scores 4',
        entry: catalogueEntry('selection-aggregate', 4) as unknown as Entry,
        catalogue: true
    },
    ...spec('grading-autonomous', 'spec autonomous example'),
    ...spec('grading-rejected', 'spec rejected example')
]

const grade = (e: Entry): unknown => computeAggregate(e, {}, false).aggregateGrade
const scoreArb = fc.oneof(fc.constantFrom('pass', 'fail', 'stale', 'n/a'), fc.double({ min: 1, max: 5, noNaN: true }))
const graderArb = fc.record({
    kind: fc.constantFrom('script', 'llm', 'human'),
    name: fc.constantFrom('single-schema-validator', 'claude-opus-4-7', 'reviewer', 'x'),
    version: fc.constantFrom('0.1.0', '1m', '1')
})
const KNOWN_IDS = [...CATALOGUE_QUESTION_IDS, ...CROSS_AREA_QUESTION_IDS]
const idArb = fc.oneof(
    fc.constantFrom(...KNOWN_IDS),
    fc.string({ minLength: 1, maxLength: 12 }).map((s) => `Q-${s}`),
    fc.constantFrom('Q-bribe', 'Q-single-test-99', 'Q-single-test-04\u200b')
)

/** True when `id` is a question of the entry's area that the entry does not answer yet. */
function answerable(e: Entry, id: string): boolean {
    const area = String(e.area)
    const own = id.startsWith(`Q-${area}-`) && (CATALOGUE_QUESTION_IDS as readonly string[]).includes(id)
    const cross =
        Object.hasOwn(CROSS_AREA_QUESTIONS, id) &&
        (CROSS_AREA_QUESTIONS[id as keyof typeof CROSS_AREA_QUESTIONS].areas as readonly string[]).includes(area)
    return (own || cross) && !e.gradings.some((g) => g.questionId === id)
}

/** One mutation: what a forger (or a careless writer) might do to an honest entry. */
type Mutation = (e: Entry, pick: number) => void
const at = (e: Entry, pick: number): Record<string, unknown> =>
    e.gradings[pick % e.gradings.length] as Record<string, unknown>

const mutationArb: fc.Arbitrary<{ name: string; apply: Mutation }> = fc.oneof(
    fc.record({ id: idArb, score: scoreArb, weight: fc.constantFrom(0.25, 1, 5, 50) }).map(({ id, score, weight }) => ({
        name: `add answer ${id}`,
        apply: (e: Entry, pick: number) => {
            // An answer to a question of the area the entry leaves unanswered is one a conforming grader could give: not a forgery.
            if (answerable(e, id)) return
            e.gradings.push({
                ...at(e, pick),
                questionId: id,
                score,
                weight,
                ...(score === 'n/a' ? { naReason: 'requires-private-data' } : {})
            })
        }
    })),
    fc
        .constantFrom(0, 0.1, 2, 5)
        .map((w) => ({ name: `weight ${w}`, apply: (e: Entry, pick: number) => void (at(e, pick).weight = w) })),
    fc.constant({ name: 'stale', apply: (e: Entry, pick: number) => void (at(e, pick).score = 'stale') }),
    fc
        .record({
            score: scoreArb,
            grader: fc.option(graderArb),
            ts: fc.constantFrom('2026-05-29T10:00:00Z', '2026-05-29T10:01:00Z', '2026-05-30T00:00:00Z')
        })
        .map(({ score, grader, ts }) => ({
            name: `re-answer ${String(score)} by ${grader === null ? 'the same grader' : grader.kind} at ${ts}`,
            apply: (e: Entry, pick: number) => {
                const g = at(e, pick)
                e.gradings.push({
                    ...g,
                    score,
                    timestamp: ts,
                    ...(grader !== null ? { graderIdentity: grader } : {}),
                    ...(score === 'n/a' ? { naReason: 'requires-private-data' } : {})
                })
            }
        })),
    fc
        .constantFrom('gradingSystem/2.0.0', 'gradingSystem/1.1.0', 'gradingSystem/1.0.7')
        .map((v) => ({ name: v, apply: (e: Entry) => void (e.gradingSystem = v) })),
    fc
        .constantFrom('scoringSystem/2.0.0', 'scoringSystem/1.0.3')
        .map((v) => ({ name: v, apply: (e: Entry) => void (e.scoringSystem = v) })),
    fc.constant({ name: 'partial', apply: (e: Entry) => void (e.gradingMode = 'partial') }),
    fc.constant({
        name: 'remove an answer',
        apply: (e: Entry, pick: number) =>
            void (e.gradings.length > 1 ? e.gradings.splice(pick % e.gradings.length, 1) : undefined)
    }),
    graderArb.map((grader) => ({
        name: `grader ${grader.kind} ${grader.name}`,
        apply: (e: Entry, pick: number) => void (at(e, pick).graderIdentity = grader)
    })),
    fc.constant({
        name: 'deterministic',
        apply: (e: Entry, pick: number) => void (at(e, pick).determinism = 'deterministic')
    }),
    fc.constant({
        name: 'future timestamp',
        apply: (e: Entry, pick: number) => void (at(e, pick).timestamp = '2027-01-01T00:00:00Z')
    }),
    fc.constant({
        name: 'prototype key',
        apply: (e: Entry, pick: number) =>
            void Object.defineProperty(at(e, pick), '__proto__', {
                value: { isAdmin: true },
                enumerable: true,
                writable: true,
                configurable: true
            })
    })
)

const caseArb = fc.record({
    honest: fc.nat({ max: HONEST.length - 1 }),
    mutations: fc.array(fc.record({ mutation: mutationArb, pick: fc.nat({ max: 40 }) }), {
        minLength: 1,
        maxLength: 3
    }),
    // A forger who knows the rules writes the recomputed grade; a careless one keeps the old one or picks any.
    regrade: fc.constantFrom('recompute', 'keep', 'A', 'B', 'C', 'D', 'F')
})

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never

function mutated(c: Case): { before: Entry; after: Entry; catalogue: boolean } {
    const { entry, catalogue } = HONEST[c.honest] as (typeof HONEST)[number]
    const after = clone(entry)
    for (const { mutation, pick } of c.mutations) {
        // Removing an answer from an entry outside the catalogue cannot be seen: nothing says which answers it must hold.
        if (!catalogue && mutation.name === 'remove an answer') continue
        mutation.apply(after, pick)
    }
    if (c.regrade === 'recompute') after.aggregateGrade = grade(after) ?? after.aggregateGrade
    else if (c.regrade !== 'keep') after.aggregateGrade = c.regrade
    return { before: entry, after, catalogue }
}

describe('mutations of honest entries (issue 34)', () => {
    it('every honest entry passes both modes with no warning', () => {
        for (const { entry } of HONEST) {
            expect(validateGradingEntry({ entry }).errors.filter((i) => i.severity !== 'info')).toEqual([])
            expect(
                validateGradingEntry({ entry, strict: true, now: NOW }).errors.filter((i) => i.severity !== 'info')
            ).toEqual([])
        }
    })

    it('in strict mode, an accepted mutation changes neither aggregateGrade nor the recomputed grade', () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const { before, after } = mutated(c)
                const result = validateGradingEntry({ entry: after, strict: true, now: NOW })
                if (!result.valid) return
                expect(result.errors.filter((i) => i.severity === 'warning')).toEqual([])
                expect(result.entry.aggregateGrade).toBe(before.aggregateGrade)
                expect(grade(result.entry as unknown as Entry)).toBe(grade(before))
            }),
            { numRuns: 400 }
        )
    })

    it("by default, an invented id, another area's question or a stale on a question that cannot age is always rejected", () => {
        fc.assert(
            fc.property(fc.nat({ max: HONEST.length - 1 }), idArb, fc.nat({ max: 40 }), (h, id, pick) => {
                const e = clone((HONEST[h] as (typeof HONEST)[number]).entry)
                const known = (KNOWN_IDS as readonly string[]).includes(id)
                e.gradings.push({ ...at(e, pick), questionId: id, score: 'stale' })
                const result = validateGradingEntry({ entry: e })
                // A known id is either the area's own (then its stale cannot be shown to have aged) or another area's.
                expect(result.valid).toBe(false)
                const codes = result.errors.filter((i) => i.severity === 'error').map((i) => i.code)
                expect(
                    codes.some((code) =>
                        (known
                            ? ['GRD-059', 'GRD-068', 'GRD-069', 'GRD-070']
                            : ['GRD-068', 'GRD-060', 'GRD-009']
                        ).includes(code)
                    )
                ).toBe(true)
            }),
            { numRuns: 300 }
        )
    })

    it('by default, an accepted mutation leaves the recomputed grade unchanged unless a newer or higher-ranked answer to a catalogue question supersedes (⚠ A9)', () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const { before, after } = mutated(c)
                const result = validateGradingEntry({ entry: after, now: NOW })
                if (!result.valid || grade(after) === grade(before)) return
                // The grade moved: only the read-tolerant paths may explain it, each reported or legal by ⚠ A9.
                const names = c.mutations.map((m) => m.mutation.name)
                const explained = names.some(
                    (n) =>
                        n.startsWith('re-answer') ||
                        n.startsWith('weight') ||
                        n.startsWith('add answer') ||
                        n.startsWith('gradingSystem/') ||
                        n === 'partial' ||
                        n.startsWith('grader')
                )
                expect(explained).toBe(true)
            }),
            { numRuns: 300 }
        )
    })
})
