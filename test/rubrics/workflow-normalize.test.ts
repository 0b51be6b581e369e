import { describe, expect, it } from 'vitest'
import { WorkflowRubric } from '../../src/rubrics.js'
import { WORKFLOW_FORMULA_IDS, WORKFLOW_FORMULAS, WORKFLOW_PROFILE_IDS, WORKFLOW_PROFILES } from '../../src/rubrics.js'
import { codes } from './helpers.js'

describe('WorkflowRubric.normalize — the formula registry of seed 004 §4.1', () => {
    it.each([
        ['binary', 0, undefined, 0],
        ['binary', 1, undefined, 1],
        ['likert-1-5', 1, undefined, 0],
        ['likert-1-5', 2, undefined, 0.25],
        ['likert-1-5', 3, undefined, 0.5],
        ['likert-1-5', 4, undefined, 0.75],
        ['likert-1-5', 5, undefined, 1],
        ['likert-1-5', 3.5, undefined, 0.625],
        ['likert-1-5', 3.8, undefined, 0.7],
        ['likert-neg2-2', -2, undefined, 0],
        ['likert-neg2-2', -1, undefined, 0.25],
        ['likert-neg2-2', 0, undefined, 0.5],
        ['likert-neg2-2', 1, undefined, 0.75],
        ['likert-neg2-2', 2, undefined, 1],
        ['likert-neg2-2', 0.5, undefined, 0.625],
        ['pairwise-ties', { wins: 6, losses: 3, ties: 1 }, undefined, 0.65],
        ['pairwise-ties', { wins: 0, losses: 0, ties: 3 }, undefined, 0.5],
        ['pairwise-ties', { wins: 5, losses: 0, ties: 0 }, undefined, 1],
        ['pairwise-ties', { wins: 0, losses: 4, ties: 0 }, undefined, 0],
        ['pairwise-ties', { wins: 2, losses: 1, ties: 1 }, undefined, 0.625],
        // The seed's example: good 8 s, bad 30 s, raw 12 s → (30 − 12)/(30 − 8) = 18/22.
        ['lower-is-better', 12, { good: 8, bad: 30 }, 18 / 22],
        ['lower-is-better', 8, { good: 8, bad: 30 }, 1],
        ['lower-is-better', 5, { good: 8, bad: 30 }, 1],
        ['lower-is-better', 19, { good: 8, bad: 30 }, 0.5],
        ['lower-is-better', 30, { good: 8, bad: 30 }, 0],
        ['lower-is-better', 40, { good: 8, bad: 30 }, 0],
        ['lower-is-better', 0.3, { good: 0.1, bad: 0.5 }, 0.5],
        ['clamp-0-1', 0.42, undefined, 0.42],
        ['clamp-0-1', 0, undefined, 0],
        ['clamp-0-1', 1, undefined, 1],
        ['swe-fail-to-pass', { passed: 3, total: 4 }, undefined, 0.75],
        ['swe-fail-to-pass', { passed: 4, total: 4 }, undefined, 1],
        ['swe-pass-to-pass', { passed: 19, total: 20 }, undefined, 0.95],
        ['swe-pass-to-pass', { passed: 0, total: 5 }, undefined, 0]
    ])('normalises %s raw %j to %s', (formulaId, rawScore, params, normalized) => {
        const result = WorkflowRubric.normalize({ formulaId, rawScore, params } as never)
        expect(result.errors).toEqual([])
        expect(result).toMatchObject({ system: 'workflowSystem/1.0.0', formulaId, raw: rawScore, normalized })
    })

    it.each([
        ['above 1', 1.3, 1],
        ['below 0', -0.2, 0]
    ])('clamps a clamp-0-1 value %s and warns', (_name, rawScore, normalized) => {
        const result = WorkflowRubric.normalize({ formulaId: 'clamp-0-1', rawScore })
        expect(result.normalized).toBe(normalized)
        expect(codes(result.errors)).toEqual([['WFL-WARN-001', '/rawScore']])
    })

    it.each([
        [
            'pairwise counts imply n = 10',
            { formulaId: 'pairwise-ties', rawScore: { wins: 6, losses: 3, ties: 1 } },
            10,
            0.55
        ],
        ['test counts imply n = 20', { formulaId: 'swe-pass-to-pass', rawScore: { passed: 19, total: 20 } }, 20, 0.725],
        ['explicit samples win over nothing', { formulaId: 'likert-1-5', rawScore: 4, samples: 5 }, 5, 0.55],
        [
            'explicit samples win over implied counts',
            { formulaId: 'swe-pass-to-pass', rawScore: { passed: 19, total: 20 }, samples: 60 },
            60,
            0.8375
        ],
        ['a custom prior and k', { formulaId: 'binary', rawScore: 1, samples: 10, prior: 0.8, k: 10 }, 10, 0.9],
        ['no sample count, no adjustment', { formulaId: 'likert-1-5', rawScore: 4 }, null, null]
    ])('keeps the reliability-adjusted value beside the raw normalised one: %s', (_name, input, samples, adjusted) => {
        expect(WorkflowRubric.normalize(input as never)).toMatchObject({ samples, adjusted })
    })

    it.each([
        ['an unknown formula', { formulaId: 'likert-0-10', rawScore: 3 }, [['WFL-004', '/formulaId']]],
        ['a binary 0.5', { formulaId: 'binary', rawScore: 0.5 }, [['WFL-005', '/rawScore']]],
        ['a Likert 6', { formulaId: 'likert-1-5', rawScore: 6 }, [['WFL-005', '/rawScore']]],
        ['a Likert 0.99', { formulaId: 'likert-1-5', rawScore: 0.99 }, [['WFL-005', '/rawScore']]],
        ['a Likert −2..2 value of 3', { formulaId: 'likert-neg2-2', rawScore: 3 }, [['WFL-005', '/rawScore']]],
        [
            'no comparisons at all',
            { formulaId: 'pairwise-ties', rawScore: { wins: 0, losses: 0, ties: 0 } },
            [['WFL-005', '/rawScore']]
        ],
        [
            'negative wins',
            { formulaId: 'pairwise-ties', rawScore: { wins: -1, losses: 2, ties: 0 } },
            [['WFL-005', '/rawScore/wins']]
        ],
        [
            'fractional ties',
            { formulaId: 'pairwise-ties', rawScore: { wins: 1, losses: 2, ties: 0.5 } },
            [['WFL-005', '/rawScore/ties']]
        ],
        [
            'missing losses',
            { formulaId: 'pairwise-ties', rawScore: { wins: 1, ties: 0 } },
            [['WFL-002', '/rawScore/losses']]
        ],
        [
            'a number where counts are expected',
            { formulaId: 'pairwise-ties', rawScore: 0.6 },
            [['WFL-003', '/rawScore']]
        ],
        [
            'more passed than total',
            { formulaId: 'swe-fail-to-pass', rawScore: { passed: 5, total: 4 } },
            [['WFL-005', '/rawScore']]
        ],
        [
            'zero tests',
            { formulaId: 'swe-pass-to-pass', rawScore: { passed: 0, total: 0 } },
            [['WFL-005', '/rawScore']]
        ],
        [
            'a negative latency',
            { formulaId: 'lower-is-better', rawScore: -1, params: { good: 8, bad: 30 } },
            [['WFL-005', '/rawScore']]
        ],
        ['missing SLO bounds', { formulaId: 'lower-is-better', rawScore: 12 }, [['WFL-006', '/params']]],
        [
            'bad not above good',
            { formulaId: 'lower-is-better', rawScore: 12, params: { good: 30, bad: 8 } },
            [['WFL-006', '/params']]
        ],
        [
            'equal bounds',
            { formulaId: 'lower-is-better', rawScore: 12, params: { good: 8, bad: 8 } },
            [['WFL-006', '/params']]
        ],
        [
            'params on a formula that takes none',
            { formulaId: 'binary', rawScore: 1, params: { good: 0, bad: 1 } },
            [['WFL-006', '/params']]
        ],
        ['a string raw score', { formulaId: 'likert-1-5', rawScore: '4' }, [['WFL-003', '/rawScore']]],
        ['a missing raw score', { formulaId: 'likert-1-5' }, [['WFL-002', '/rawScore']]],
        ['NaN', { formulaId: 'clamp-0-1', rawScore: Number.NaN }, [['WFL-001', '/rawScore']]],
        ['-0', { formulaId: 'clamp-0-1', rawScore: -0 }, [['WFL-012', '/rawScore']]],
        [
            'a huge raw score',
            { formulaId: 'lower-is-better', rawScore: 1e16, params: { good: 8, bad: 30 } },
            [['WFL-012', '/rawScore']]
        ],
        ['fractional samples', { formulaId: 'binary', rawScore: 1, samples: 2.5 }, [['WFL-014', '/samples']]],
        ['k = 0', { formulaId: 'binary', rawScore: 1, k: 0 }, [['WFL-014', '/k']]],
        ['an unknown property', { formulaId: 'binary', rawScore: 1, weight: 1 }, [['WFL-021', '/weight']]]
    ])('rejects %s', (_name, input, expected) => {
        const result = WorkflowRubric.normalize(input as never)
        expect(codes(result.errors)).toEqual(expected)
        expect(result.normalized).toBeNull()
    })

    it('describes every formula of the registry', () => {
        expect(Object.keys(WORKFLOW_FORMULAS)).toEqual([...WORKFLOW_FORMULA_IDS])
        expect(WORKFLOW_FORMULAS['lower-is-better'].formula).toBe('norm = clamp((bad - raw) / (bad - good))')
    })
})

describe('WorkflowRubric.adjust — reliability shrinkage (n·norm + k·prior)/(n + k)', () => {
    it.each([
        [1, 5, undefined, undefined, 0.6],
        [0, 0, undefined, undefined, 0.5],
        [0.9, 20, undefined, undefined, 0.7],
        [0.6, 10, 0.8, 10, 0.7],
        [0.75, 980, undefined, undefined, 0.745],
        [0.3, 0, 0.3, undefined, 0.3],
        [0.5, 1_000_000, undefined, undefined, 0.5],
        [1, 20, 0, 20, 0.5]
    ])('adjusts %s with n=%s, prior=%s, k=%s to %s', (normalized, n, prior, k, adjusted) => {
        const result = WorkflowRubric.adjust({ normalized, n, prior, k } as never)
        expect(result.errors).toEqual([])
        expect(result.adjusted).toBe(adjusted)
        expect(result).toMatchObject({ normalized, n, prior: prior ?? 0.5, k: k ?? 20 })
    })

    it.each([
        ['a normalised value above 1', { normalized: 1.2, n: 3 }, [['WFL-014', '/normalized']]],
        ['a negative n', { normalized: 0.5, n: -1 }, [['WFL-014', '/n']]],
        ['a prior above 1', { normalized: 0.5, n: 1, prior: 2 }, [['WFL-014', '/prior']]],
        ['a missing n', { normalized: 0.5 }, [['WFL-002', '/n']]]
    ])('rejects %s', (_name, input, expected) => {
        expect(codes(WorkflowRubric.adjust(input as never).errors)).toEqual(expected)
    })
})

describe('WorkflowRubric.profile — profiles A–D of seed 004 §6', () => {
    it.each([
        [
            'swe',
            'A',
            [
                'patch_applies_cleanly',
                'tests_fail_to_pass_all_green',
                'tests_pass_to_pass_threshold_met',
                'no_security_policy_violations'
            ],
            [0.6, 0.25, 0.1, 0.05]
        ],
        [
            'dag',
            'B',
            ['required_outputs_present', 'no_critical_step_failures', 'schema_contract_valid'],
            [0.35, 0.25, 0.2, 0.1, 0.1]
        ],
        [
            'rag',
            'C',
            ['answer_grounded_in_context', 'citations_present_for_claims', 'no_high_severity_hallucinations'],
            [0.35, 0.25, 0.2, 0.1, 0.1]
        ],
        [
            'agentic-tool-use',
            'D',
            ['tool_call_schema_valid', 'no_forbidden_tool_invoked', 'handoff_graph_rules_respected'],
            [0.25, 0.25, 0.2, 0.2, 0.1]
        ]
    ])('describes profile %s (%s) with its gates and weights', (id, letter, gates, weights) => {
        const { profile, errors } = WorkflowRubric.profile({ id } as never)
        expect(errors).toEqual([])
        expect(profile?.letter).toBe(letter)
        expect(profile?.hardGates.map((g) => g.id)).toEqual(gates)
        expect(profile?.criteria.map((c) => c.weight)).toEqual(weights)
    })

    it('has weights summing to exactly 1 in every profile (in hundredths)', () => {
        for (const id of WORKFLOW_PROFILE_IDS) {
            expect(WORKFLOW_PROFILES[id].criteria.reduce((s, c) => s + Math.round(c.weight * 100), 0)).toBe(100)
        }
    })

    it.each([
        ['an unknown id', { id: 'E' }, [['WFL-013', '/id']]],
        ['a missing id', {}, [['WFL-002', '/id']]],
        ['a numeric id', { id: 1 }, [['WFL-003', '/id']]]
    ])('rejects %s', (_name, input, expected) => {
        expect(codes(WorkflowRubric.profile(input as never).errors)).toEqual(expected)
    })
})
