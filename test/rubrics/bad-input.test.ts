import { describe, expect, it } from 'vitest'
import { evaluateRubricInput, JudgeRubric, validateRubricDocument, WorkflowRubric } from '../../src/rubrics.js'
import { uniform } from './helpers.js'

const judgeInput = { scores: uniform(7) }
const workflowRun = {
    hardGates: { g: true },
    criteria: [{ name: 'q', rawScore: 0.5, formulaId: 'clamp-0-1', weight: 1 }]
}
const rubric = {
    rubric_id: 'r',
    version: 1,
    criteria: [
        {
            name: 'c',
            definition: 'd',
            evidence_required: ['e'],
            scale: [0, 1],
            anchors: { '0': 'no', '1': 'yes' },
            weight: 1
        }
    ]
}

// Each public entry point with a valid argument; every mutation below must turn it into coded issues.
const entries: Array<
    [string, (x: unknown) => { errors: ReadonlyArray<{ code: string; severity: string }> }, Record<string, unknown>]
> = [
    ['JudgeRubric.evaluate', (x) => JudgeRubric.evaluate(x as never), judgeInput],
    ['JudgeRubric.compare', (x) => JudgeRubric.compare(x as never), { a: judgeInput, b: judgeInput }],
    ['JudgeRubric.rank', (x) => JudgeRubric.rank(x as never), { evaluations: [judgeInput] }],
    ['JudgeRubric.validateRubric', (x) => JudgeRubric.validateRubric(x as never), { rubric: { rubric_id: 'r' } }],
    ['WorkflowRubric.evaluate', (x) => WorkflowRubric.evaluate(x as never), workflowRun],
    ['WorkflowRubric.normalize', (x) => WorkflowRubric.normalize(x as never), { formulaId: 'binary', rawScore: 1 }],
    ['WorkflowRubric.adjust', (x) => WorkflowRubric.adjust(x as never), { normalized: 0.5, n: 3 }],
    ['WorkflowRubric.profile', (x) => WorkflowRubric.profile(x as never), { id: 'rag' }],
    [
        'WorkflowRubric.compare',
        (x) => WorkflowRubric.compare(x as never),
        { a: { weightedScore: 1, gateFailures: 0 }, b: { weightedScore: 2, gateFailures: 0 } }
    ],
    ['WorkflowRubric.pairwiseOrder', (x) => WorkflowRubric.pairwiseOrder(x as never), { pairs: ['p'], seed: 1 }],
    [
        'WorkflowRubric.adjudicatePairwise',
        (x) => WorkflowRubric.adjudicatePairwise(x as never),
        { judgments: [{ id: 'p', forward: 'a', swapped: 'a' }] }
    ],
    ['WorkflowRubric.report', (x) => WorkflowRubric.report(x as never), { runs: [workflowRun] }],
    [
        'WorkflowRubric.promote',
        (x) => WorkflowRubric.promote(x as never),
        { candidate: [workflowRun], baseline: [workflowRun] }
    ],
    ['WorkflowRubric.validateRubric', (x) => WorkflowRubric.validateRubric(x as never), { rubric }],
    [
        'evaluateRubricInput',
        (x) => evaluateRubricInput(x as never),
        { input: { system: 'judgeSystem/1.0.0', ...judgeInput } }
    ],
    [
        'validateRubricDocument',
        (x) => validateRubricDocument(x as never),
        { document: { system: 'workflowSystem/1.0.0', ...rubric } }
    ]
]

const mutations: Array<[string, (base: Record<string, unknown>) => unknown]> = [
    ['an array instead of the argument object', () => []],
    ['a string instead of the argument object', () => 'input'],
    ['null', () => null],
    ['an empty object (missing fields)', () => ({})],
    ['an extra NaN', (base) => ({ ...base, extra: Number.NaN })],
    ['an extra -0', (base) => ({ ...base, extra: -0 })],
    ['an extra huge number', (base) => ({ ...base, extra: 1e300 })],
    ['an own __proto__ key', (base) => ({ ...JSON.parse('{"__proto__": {"polluted": true}}'), ...base })],
    ['every field replaced by an array', (base) => Object.fromEntries(Object.keys(base).map((key) => [key, [[]]]))],
    ['every field replaced by a string', (base) => Object.fromEntries(Object.keys(base).map((key) => [key, 'x']))]
]

describe('every rubric entry point turns bad input into coded issues', () => {
    it.each(entries)('%s accepts its valid base argument', (_name, call, base) => {
        expect(call(base).errors.filter((e) => e.severity === 'error')).toEqual([])
    })

    for (const [name, call, base] of entries) {
        it.each(mutations)(`${name} rejects %s without throwing`, (_m, mutate) => {
            const input = mutate(base)
            let result: ReturnType<typeof call> | undefined
            expect(() => {
                result = call(input)
            }).not.toThrow()
            const errors = result!.errors.filter((e) => e.severity === 'error')
            expect(errors.length).toBeGreaterThan(0)
            for (const e of errors) expect(e.code).toMatch(/^(JDG|WFL|RUB)-\d{3}$/)
            expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        })
    }
})
