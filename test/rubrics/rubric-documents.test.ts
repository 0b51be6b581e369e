import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { evaluateRubricInput, validateRubricDocument, WorkflowRubric } from '../../src/rubrics.js'
import { WORKFLOW_RUBRIC_SCHEMA_ID } from '../../src/rubrics.js'
import { codes } from './helpers.js'

const fixture = (name: string): Record<string, unknown> =>
    JSON.parse(readFileSync(new URL(`../fixtures/rubrics/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>
const schema = JSON.parse(
    readFileSync(new URL('../../schemas/workflow-rubric.schema.json', import.meta.url), 'utf8')
) as Record<string, unknown>

describe('schemas/workflow-rubric.schema.json', () => {
    it('is a valid draft 2020-12 schema with an absolute $id', () => {
        expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
        expect(schema.$id).toBe(WORKFLOW_RUBRIC_SCHEMA_ID)
        expect(new Ajv2020({ strict: true }).validateSchema(schema)).toBe(true)
    })
})

describe('WorkflowRubric.validateRubric — the authoring standard of seed 004 §7', () => {
    it('accepts the golden valid rubric, including a -2..2 scale', () => {
        expect(WorkflowRubric.validateRubric({ rubric: fixture('workflow-rubric.valid.json') })).toEqual({
            system: 'workflowSystem/1.0.0',
            valid: true,
            errors: []
        })
    })

    it('reports every defect of the golden invalid rubric with a JSON Pointer', () => {
        const result = WorkflowRubric.validateRubric({ rubric: fixture('workflow-rubric.invalid.json') })
        expect(result.valid).toBe(false)
        expect(codes(result.errors)).toEqual([
            ['WFL-015', '/rubric/version'],
            ['WFL-015', '/rubric/rubric_id'],
            ['WFL-015', '/rubric/criteria/0/notes'],
            ['WFL-015', '/rubric/criteria/0/evidence_required'],
            ['WFL-015', '/rubric/criteria/1/definition'],
            ['WFL-015', '/rubric/criteria/1/anchors/01'],
            ['WFL-015', '/rubric/criteria/1/anchors/01'],
            ['WFL-015', '/rubric/criteria/2/definition'],
            ['WFL-015', '/rubric/criteria/2/scale/0'],
            ['WFL-015', '/rubric/criteria/2/weight'],
            ['WFL-017', '/rubric/criteria/0/anchors'],
            ['WFL-018', '/rubric/criteria/0/anchors/7'],
            ['WFL-020', '/rubric/criteria/0/critical_floor'],
            ['WFL-008', '/rubric/criteria/1/name'],
            ['WFL-016', '/rubric/criteria/1/scale'],
            ['WFL-019', '/rubric/criteria']
        ])
    })

    it('words schema and semantic defects for people', () => {
        const messages = WorkflowRubric.validateRubric({ rubric: fixture('workflow-rubric.invalid.json') }).errors.map(
            (e) => `${e.path}: ${e.message}`
        )
        expect(messages).toMatchInlineSnapshot(`
          [
            "/rubric/version: Rubric document violates the schema (required): must have required property 'version'",
            "/rubric/rubric_id: Rubric document violates the schema (pattern): must match pattern "^[A-Za-z0-9][A-Za-z0-9_.-]*$"",
            "/rubric/criteria/0/notes: Rubric document violates the schema (additionalProperties): must NOT have additional properties",
            "/rubric/criteria/0/evidence_required: Rubric document violates the schema (minItems): must NOT have fewer than 1 items",
            "/rubric/criteria/1/definition: Rubric document violates the schema (minLength): must NOT have fewer than 1 characters",
            "/rubric/criteria/1/anchors/01: Rubric document violates the schema (pattern): must match pattern "^-?(0|[1-9][0-9]?)$"",
            "/rubric/criteria/1/anchors/01: Rubric document violates the schema (propertyNames): property name must be valid",
            "/rubric/criteria/2/definition: Rubric document violates the schema (required): must have required property 'definition'",
            "/rubric/criteria/2/scale/0: Rubric document violates the schema (type): must be integer",
            "/rubric/criteria/2/weight: Rubric document violates the schema (maximum): must be <= 1",
            "/rubric/criteria/0/anchors: Anchor missing for score point 4 of scale [1, 5]",
            "/rubric/criteria/0/anchors/7: Anchor 7 lies outside the scale [1, 5]",
            "/rubric/criteria/0/critical_floor: critical_floor 6 lies outside the scale [1, 5]",
            "/rubric/criteria/1/name: Duplicate name correctness",
            "/rubric/criteria/1/scale: Scale [5, 1] must be [min, max] integers with min < max and at most 11 points",
            "/rubric/criteria: Criterion weights must sum to 1.0 (tolerance 0.000001), got 2",
          ]
        `)
    })

    it.each([
        [
            'a scale with more than 11 points',
            { scale: [0, 11], anchors: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [String(i), 'x'])) },
            [['WFL-016', '/rubric/criteria/0/scale']]
        ],
        [
            'a missing anchor in the middle',
            { anchors: { '1': 'a', '2': 'b', '4': 'd', '5': 'e' } },
            [['WFL-017', '/rubric/criteria/0/anchors']]
        ],
        ['a floor below the scale', { critical_floor: 0 }, [['WFL-020', '/rubric/criteria/0/critical_floor']]],
        ['a reserved criterion name', { name: '__proto__' }, [['WFL-015', '/rubric/criteria/0/name']]],
        ['a three-item scale', { scale: [1, 3, 5] }, [['WFL-015', '/rubric/criteria/0/scale']]]
    ])('rejects %s', (_name, patch, expected) => {
        const base = fixture('workflow-rubric.valid.json')
        const criteria = base.criteria as Array<Record<string, unknown>>
        const rubric = { ...base, criteria: [{ ...criteria[0], ...patch }, criteria[1], criteria[2]] }
        expect(codes(WorkflowRubric.validateRubric({ rubric }).errors)).toEqual(expected)
    })

    it('accepts weights that sum to 1 only within the tolerance of 0.000001', () => {
        const base = fixture('workflow-rubric.valid.json')
        const criteria = base.criteria as Array<Record<string, unknown>>
        const within = { ...base, criteria: [{ ...criteria[0], weight: 0.3499995 }, criteria[1], criteria[2]] }
        const outside = { ...base, criteria: [{ ...criteria[0], weight: 0.349998 }, criteria[1], criteria[2]] }
        expect(WorkflowRubric.validateRubric({ rubric: within }).valid).toBe(true)
        expect(codes(WorkflowRubric.validateRubric({ rubric: outside }).errors)).toEqual([
            ['WFL-019', '/rubric/criteria']
        ])
    })

    it.each([
        ['a missing rubric', {}, [['WFL-002', '/rubric']]],
        ['an array', { rubric: [] }, [['WFL-015', '/rubric']]],
        [
            'a rubric holding NaN',
            { rubric: { criteria: [{ weight: Number.NaN }] } },
            [['WFL-001', '/rubric/criteria/0/weight']]
        ]
    ])('rejects %s', (_name, input, expected) => {
        expect(codes(WorkflowRubric.validateRubric(input as never).errors)).toEqual(expected)
    })
})

describe('validateRubricDocument — the CLI entry for rubric documents', () => {
    it('dispatches a workflow document and rebases paths onto /document', () => {
        expect(validateRubricDocument({ document: fixture('workflow-rubric.valid.json') })).toMatchObject({
            system: 'workflowSystem/1.0.0',
            result: { valid: true },
            errors: []
        })
        const invalid = validateRubricDocument({
            document: { ...fixture('workflow-rubric.invalid.json'), system: 'workflowSystem/1.0.0' }
        })
        expect(invalid.result?.valid).toBe(false)
        expect(invalid.errors[0]?.path).toBe('/document/version')
        expect(invalid.result?.errors).toEqual(invalid.errors)
    })

    it('dispatches a judge document', () => {
        expect(validateRubricDocument({ document: fixture('judge-rubric.valid.json') })).toMatchObject({
            system: 'judgeSystem/1.0.0',
            result: { valid: true },
            errors: []
        })
        const bad = validateRubricDocument({
            document: { ...fixture('judge-rubric.valid.json'), weights: { correctness: 1 } }
        })
        expect(codes(bad.errors).slice(0, 2)).toEqual([
            ['JDG-002', '/document/weights/completeness'],
            ['JDG-002', '/document/weights/adherence']
        ])
    })

    it.each([
        ['a missing system', { document: { rubric_id: 'x' } }, [['RUB-001', '/document/system']]],
        ['an unknown system', { document: { system: 'gradingSystem/1.0.0' } }, [['RUB-001', '/document/system']]],
        ['a document that is not an object', { document: 'rubric.json' }, [['RUB-002', '/document']]],
        ['no argument', undefined, [['RUB-002', '']]],
        [
            'an unknown property beside the document',
            { document: { system: 'judgeSystem/1.0.0' }, strict: true },
            [['RUB-003', '/strict']]
        ]
    ])('rejects %s', (_name, input, expected) => {
        const result = validateRubricDocument(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result).toMatchObject({ system: null, result: null })
    })
})

describe('evaluateRubricInput — the CLI entry for rubric inputs', () => {
    it('evaluates the golden judge input (composite 8.55 − 0.50 + 0.25 = 8.30, B+; safety breaks a constant history)', () => {
        const { system, result, errors } = evaluateRubricInput({ input: fixture('judge-input.json') })
        expect(errors).toEqual([])
        expect(system).toBe('judgeSystem/1.0.0')
        expect(result).toMatchObject({
            system: 'judgeSystem/1.0.0',
            compositeScore: 8.55,
            deductions: 0.5,
            bonuses: 0.25,
            finalScore: 8.3,
            grade: 'B+',
            label: 'Good'
        })
        expect(result && 'historicalFlags' in result ? result.historicalFlags : null).toEqual([
            { dimension: 'safety', current: 10, mean: 9, stdDev: 0, deviation: 1, zScore: null, samples: 3 }
        ])
    })

    it('evaluates the golden workflow input (87.84, B, passed)', () => {
        const { system, result, errors } = evaluateRubricInput({ input: fixture('workflow-input.json') })
        expect(errors).toEqual([])
        expect(system).toBe('workflowSystem/1.0.0')
        expect(result).toMatchObject({
            system: 'workflowSystem/1.0.0',
            passed: true,
            grade: 'B',
            weightedScore: 87.84,
            gateFailures: []
        })
    })

    it('returns no result and issues under /input when the evaluation fails', () => {
        const input = { ...fixture('workflow-input.json'), hardGates: [] }
        expect(evaluateRubricInput({ input })).toMatchObject({
            system: 'workflowSystem/1.0.0',
            result: null,
            errors: [{ code: 'WFL-003', path: '/input/hardGates' }]
        })
    })

    it('keeps warnings beside a result', () => {
        const input = {
            system: 'judgeSystem/1.0.0',
            scores: fixture('judge-input.json').scores,
            bonuses: [{ id: 'x' }, { id: 'x' }]
        }
        const out = evaluateRubricInput({ input })
        expect(out.result).not.toBeNull()
        expect(codes(out.errors)).toEqual([['JDG-WARN-002', '/input/bonuses/1']])
    })

    it.each([
        ['a missing system', { input: { scores: {} } }, [['RUB-001', '/input/system']]],
        ['a non-string system', { input: { system: 1 } }, [['RUB-001', '/input/system']]],
        ['an input that is an array', { input: [] }, [['RUB-002', '/input']]],
        ['a missing input', {}, [['RUB-002', '/input']]],
        [
            'an unknown property beside the input',
            { input: { system: 'judgeSystem/1.0.0' }, dryRun: true },
            [['RUB-003', '/dryRun']]
        ]
    ])('rejects %s', (_name, input, expected) => {
        const result = evaluateRubricInput(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result.result).toBeNull()
    })
})
