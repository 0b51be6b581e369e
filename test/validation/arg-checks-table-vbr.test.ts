// The argument checks as callers see them, continued (see arg-checks-table.test.ts): the rubrics' entry points, whose
// checks were written `{ field, expected, actual: typeOfValue(x) }` (and RUB-001's `describeValue(x)`). Recorded on
// the hand-written checks before their move to valibot schemas through parseArgs; the schemas keep what is here.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Issue } from '../../src/errors/types.js'
import { evaluateRubricInput, JudgeRubric, validateRubricDocument, WorkflowRubric } from '../../src/rubrics.js'
import { expectRecorded, recorded, rows, type Row } from './arg-rows.js'

type Errors = (value: unknown) => readonly Issue[]

// Every entry point's whole argument: the rubrics' shared front door (guardInput) refuses a non-object first.
const ENTRIES: Record<string, Errors> = {
    'JudgeRubric.evaluate': (x) => JudgeRubric.evaluate(x as never).errors,
    'JudgeRubric.compare': (x) => JudgeRubric.compare(x as never).errors,
    'JudgeRubric.rank': (x) => JudgeRubric.rank(x as never).errors,
    'JudgeRubric.validateRubric': (x) => JudgeRubric.validateRubric(x as never).errors,
    'WorkflowRubric.evaluate': (x) => WorkflowRubric.evaluate(x as never).errors,
    'WorkflowRubric.normalize': (x) => WorkflowRubric.normalize(x as never).errors,
    'WorkflowRubric.adjust': (x) => WorkflowRubric.adjust(x as never).errors,
    'WorkflowRubric.profile': (x) => WorkflowRubric.profile(x as never).errors,
    'WorkflowRubric.compare': (x) => WorkflowRubric.compare(x as never).errors,
    'WorkflowRubric.pairwiseOrder': (x) => WorkflowRubric.pairwiseOrder(x as never).errors,
    'WorkflowRubric.adjudicatePairwise': (x) => WorkflowRubric.adjudicatePairwise(x as never).errors,
    'WorkflowRubric.report': (x) => WorkflowRubric.report(x as never).errors,
    'WorkflowRubric.promote': (x) => WorkflowRubric.promote(x as never).errors,
    'WorkflowRubric.validateRubric': (x) => WorkflowRubric.validateRubric(x as never).errors
}

const criterion = { name: 'q', rawScore: 0.5, formulaId: 'clamp-0-1', weight: 1 }
const run = (criteria: unknown[]) => ({ hardGates: { g: true }, criteria })
const evaluate = (criteria: unknown[]) => WorkflowRubric.evaluate(run(criteria) as never).errors
const profile = (input: Record<string, unknown>) => WorkflowRubric.profile(input as never).errors
const judgeDocument = (input: Record<string, unknown>) => JudgeRubric.validateRubric(input as never).errors
const rubricInput = (input: unknown) => evaluateRubricInput(input as never).errors
const rubricDocument = (input: unknown) => validateRubricDocument(input as never).errors
const WORKFLOW = 'workflowSystem/1.0.0'

// A value whose keys cannot be read: readField reports it as an unreadable value.
const unreadable = new Proxy(
    {},
    {
        ownKeys() {
            throw new Error('no keys')
        }
    }
)
class Inherits {
    get input(): unknown {
        return { system: 'judgeSystem/1.0.0', scores: {} }
    }
}
const issuesOf = (list: readonly Issue[]) => list.map(({ code, path, message }) => ({ code, path, message }))

const TABLE: Record<string, Row[]> = {
    'rubrics-input': Object.entries(ENTRIES).flatMap(([name, run]) => rows(`${name} input`, run)),
    'WorkflowRubric.evaluate-criteria': [
        ...rows('criteria.0', (value) => evaluate([value])),
        ...rows('criteria.1', (value) => evaluate([criterion, value])),
        ...rows('criteria.0, criteria.1', (value) => evaluate([value, value])),
        ...rows('runs.0.criteria.0', (value) => WorkflowRubric.report({ runs: [run([value])] } as never).errors),
        ...rows(
            'baseline.0.criteria.1',
            (value) =>
                WorkflowRubric.promote({ candidate: [run([criterion])], baseline: [run([criterion, value])] } as never)
                    .errors
        ),
        ...rows('input.criteria.0', (value) => rubricInput({ input: { system: WORKFLOW, ...run([value]) } }))
    ],
    'WorkflowRubric.profile': [
        ...rows('id', (value) => profile({ id: value })),
        ...rows('id and an unknown key', (value) => profile({ extra: 1, id: value }))
    ],
    'JudgeRubric.validateRubric': [
        ...rows('rubric', (value) => judgeDocument({ rubric: value })),
        ...rows('rubric and an unknown key', (value) => judgeDocument({ rubric: value, extra: 1 }))
    ],
    evaluateRubricInput: [
        ...rows('argument', rubricInput),
        ...rows('input', (value) => rubricInput({ input: value })),
        ...rows('input and unknown keys', (value) => rubricInput({ extra: 1, input: value, more: value })),
        ...rows('input.system', (value) => rubricInput({ input: { system: value } })),
        ...rows('input.system and a judge score', (value) => rubricInput({ input: { system: value, scores: {} } }))
    ],
    validateRubricDocument: [
        ...rows('argument', rubricDocument),
        ...rows('document', (value) => rubricDocument({ document: value })),
        ...rows('document and unknown keys', (value) => rubricDocument({ document: value, extra: value })),
        ...rows('document.system', (value) => rubricDocument({ document: { system: value } })),
        ...rows('document.system and a rubric id', (value) =>
            rubricDocument({ document: { rubric_id: 'r', system: value } })
        )
    ]
}

describe('argument checks keep their codes, paths and messages (table recorded on the hand-written checks), vbr', () => {
    recorded(TABLE)
    it('unreadable and odd values', () =>
        expectRecorded('rubrics-odd-values', [
            { case: 'evaluateRubricInput argument = unreadable', issues: issuesOf(rubricInput(unreadable)) },
            { case: 'evaluateRubricInput input = unreadable', issues: issuesOf(rubricInput({ input: unreadable })) },
            {
                case: 'validateRubricDocument document = unreadable',
                issues: issuesOf(rubricDocument({ document: unreadable }))
            },
            // Only own keys count: an `input` the argument inherits is absent.
            { case: 'evaluateRubricInput argument = inherited input', issues: issuesOf(rubricInput(new Inherits())) },
            {
                case: 'evaluateRubricInput input.system = own undefined',
                issues: issuesOf(rubricInput({ input: { system: undefined } }))
            },
            {
                case: 'validateRubricDocument document.system = long string',
                issues: issuesOf(rubricDocument({ document: { system: 'x'.repeat(200) } }))
            }
        ]))

    // Every rubric entry point shares one front door: any value that is no object is one finding at the root, worded
    // alike by both families, and a system that is no string is RUB-001 whatever its kind.
    it('a non-object argument is one root finding, alike at every entry point', () => {
        const nonObject = fc.anything().filter((x) => x === null || typeof x !== 'object' || Array.isArray(x))
        fc.assert(
            fc.property(nonObject, (value) => {
                const found = Object.values(ENTRIES).map((run) => run(value))
                for (const issues of found) {
                    expect(issues.map((i) => [i.code.slice(4), i.path])).toEqual([['003', '']])
                    expect(issues[0]?.message).toBe(found[0]?.[0]?.message)
                }
                expect(rubricInput({ input: { system: value } }).map((i) => [i.code, i.path])).toEqual([
                    ['RUB-001', '/input/system']
                ])
            })
        )
    })
})
