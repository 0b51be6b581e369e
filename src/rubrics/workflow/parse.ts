import * as v from 'valibot'
import { createIssue, rebaseIssues } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { objectArg, parseArgs, type ArgCodes } from '../../validation/args.js'
import {
    arraysForObjects,
    guardInput,
    isRecord,
    RESERVED_NAMES,
    unknownKeys,
    type GuardCodes
} from '../shared/guard.js'
import { fromNumber, type Rational } from '../shared/rational.js'
import {
    WORKFLOW_CATEGORIES,
    WORKFLOW_DEFAULT_FLOORS,
    WORKFLOW_DEFAULT_K,
    WORKFLOW_DEFAULT_PASS_THRESHOLD,
    WORKFLOW_DEFAULT_PRIOR,
    type WorkflowCategory,
    type WorkflowFormulaId
} from './constants.js'
import { normaliseRaw, normaliseRawFloor, reliabilityAdjust } from './formulas.js'
import { WORKFLOW_PROFILE_IDS, WORKFLOW_PROFILES, type WorkflowProfileId } from './profiles.js'
import type { WorkflowRawScore } from './types.js'

export const WORKFLOW_GUARD: GuardCodes = { notJson: 'WFL-001', mismatch: 'WFL-003', badNumber: 'WFL-012' }
export const WORKFLOW_ARGS: ArgCodes = { missing: 'WFL-002', mismatch: 'WFL-003', create: createIssue }

const NAME = v.pipe(v.string(), v.minLength(1), v.maxLength(200))
const CRITERION = v.object({
    name: NAME,
    rawScore: v.unknown(),
    formulaId: v.unknown(),
    weight: v.number(),
    criticalFloor: v.optional(v.number()),
    rawCriticalFloor: v.optional(v.number()),
    category: v.optional(v.picklist(WORKFLOW_CATEGORIES)),
    params: v.optional(v.unknown()),
    samples: v.optional(v.number())
})
const CRITERION_KEYS = [
    'name',
    'rawScore',
    'formulaId',
    'weight',
    'criticalFloor',
    'rawCriticalFloor',
    'category',
    'params',
    'samples'
]
const INPUT = v.object({
    hardGates: v.record(v.string(), v.boolean()),
    criteria: v.pipe(v.array(v.unknown()), v.minLength(1)),
    passThreshold: v.optional(v.number()),
    requiredGates: v.optional(v.array(NAME)),
    profile: v.optional(v.string()),
    reliability: v.optional(v.object({ prior: v.optional(v.number()), k: v.optional(v.number()) })),
    judgeInconsistencyRate: v.optional(v.number())
})
const TOP_KEYS = [
    'hardGates',
    'criteria',
    'passThreshold',
    'requiredGates',
    'profile',
    'reliability',
    'judgeInconsistencyRate'
]

/** A checked criterion with exact values. */
export interface ParsedCriterion {
    readonly name: string
    readonly formulaId: WorkflowFormulaId
    readonly category: WorkflowCategory | null
    readonly raw: WorkflowRawScore
    readonly norm: Rational
    readonly adjusted: Rational | null
    readonly samples: number | null
    readonly weight: number
    readonly weightQ: Rational
    readonly floor: Rational | null
    readonly floorSource: 'criterion' | 'raw-scale' | 'category-default' | null
}

/** A checked `evaluate` input. */
export interface ParsedWorkflowInput {
    readonly gates: ReadonlyArray<{
        readonly gate: string
        readonly passed: boolean
        readonly reason: 'reported' | 'reported-false' | 'not-reported'
    }>
    readonly criteria: readonly ParsedCriterion[]
    readonly passThreshold: number
    readonly passThresholdQ: Rational
    readonly judgeInconsistencyRate: number | null
}

/** A range check on an option, as `WFL-014`. */
export function rangeIssue(ok: boolean, path: string, field: string, expected: string, value: number): Issue[] {
    return ok ? [] : [createIssue('WFL-014', path, { field, expected, value })]
}

function reserved(name: string, path: string, field: string): Issue[] {
    return RESERVED_NAMES.includes(name) ? [createIssue('WFL-009', path, { value: name, field })] : []
}

function copyRaw(raw: unknown): WorkflowRawScore {
    // Echo a fresh copy so a result never aliases the caller's object.
    return (isRecord(raw) ? Object.fromEntries(Object.entries(raw)) : raw) as WorkflowRawScore
}

type CriterionArgs = v.InferOutput<typeof CRITERION>

/** The criterion's shape, its keys and the ranges of weight, floor and samples; nothing is normalised yet. */
function checkCriterion(item: unknown, index: number, base: string): { value: CriterionArgs | null; errors: Issue[] } {
    // A criterion that is no object is one WFL-003 at its own place (`criteria.<i>`), never one per field.
    const shape = parseArgs(objectArg(), item, WORKFLOW_ARGS, { at: ['criteria', index], missing: 'keys' })
    if (shape.value === null) return { value: null, errors: shape.errors }
    const object = shape.value
    const errors: Issue[] = unknownKeys(object, CRITERION_KEYS, base).map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    const parsed = parseArgs(CRITERION, object, WORKFLOW_ARGS)
    if (parsed.value === null) {
        return { value: null, errors: [...errors, ...rebaseIssues(parsed.errors, base)] }
    }
    const c = parsed.value
    if (!Object.hasOwn(object, 'rawScore'))
        errors.push(createIssue('WFL-002', `${base}/rawScore`, { field: `criteria.${index}.rawScore` }))
    if (!Object.hasOwn(object, 'formulaId'))
        errors.push(createIssue('WFL-002', `${base}/formulaId`, { field: `criteria.${index}.formulaId` }))
    errors.push(...reserved(c.name, `${base}/name`, 'criterion name'))
    errors.push(...rangeIssue(c.weight >= 0, `${base}/weight`, 'weight', 'a number >= 0', c.weight))
    if (c.criticalFloor !== undefined)
        errors.push(
            ...rangeIssue(
                c.criticalFloor >= 0 && c.criticalFloor <= 1,
                `${base}/criticalFloor`,
                'criticalFloor',
                'a number in 0..1',
                c.criticalFloor
            )
        )
    if (c.samples !== undefined)
        errors.push(
            ...rangeIssue(
                Number.isInteger(c.samples) && c.samples >= 0,
                `${base}/samples`,
                'samples',
                'an integer >= 0',
                c.samples
            )
        )
    if (c.criticalFloor !== undefined && c.rawCriticalFloor !== undefined) errors.push(createIssue('WFL-010', base))
    return errors.length > 0 ? { value: null, errors } : { value: c, errors }
}

type FloorChoice = Pick<ParsedCriterion, 'floor' | 'floorSource'>

function chosen(
    floor: Rational | null,
    floorSource: FloorChoice['floorSource']
): { value: FloorChoice; errors: Issue[] } {
    return { value: { floor, floorSource }, errors: [] }
}

/** The floor a criterion is held to: its own, its raw-scale floor normalised, or its category's default. */
function resolveFloor(
    c: CriterionArgs,
    formulaId: WorkflowFormulaId,
    base: string
): { value: FloorChoice | null; errors: Issue[] } {
    if (c.criticalFloor !== undefined) return chosen(fromNumber(c.criticalFloor), 'criterion')
    if (c.rawCriticalFloor !== undefined) {
        const paths = { floor: `${base}/rawCriticalFloor`, params: `${base}/params` }
        const f = normaliseRawFloor(formulaId, c.rawCriticalFloor, c.params, paths)
        return f.value === null ? { value: null, errors: f.errors } : chosen(f.value, 'raw-scale')
    }
    if (c.category !== undefined && c.category !== 'other') {
        return chosen(fromNumber(WORKFLOW_DEFAULT_FLOORS[c.category]), 'category-default')
    }
    return chosen(null, null)
}

function parseCriterion(
    item: unknown,
    index: number,
    prior: Rational,
    k: Rational
): { value: ParsedCriterion | null; errors: Issue[] } {
    const base = pointer('criteria', index)
    const checked = checkCriterion(item, index, base)
    if (checked.value === null) return { value: null, errors: checked.errors }
    const c = checked.value
    const normalised = normaliseRaw(c.formulaId, c.rawScore, c.params, {
        raw: `${base}/rawScore`,
        params: `${base}/params`,
        criterion: c.name
    })
    if (normalised.value === null) return { value: null, errors: normalised.errors }
    const formulaId = c.formulaId as WorkflowFormulaId

    const resolved = resolveFloor(c, formulaId, base)
    if (resolved.value === null) return { value: null, errors: resolved.errors }
    const { floor, floorSource } = resolved.value
    const samples = c.samples ?? normalised.value.impliedSamples
    return {
        value: {
            name: c.name,
            formulaId,
            category: c.category ?? null,
            raw: copyRaw(c.rawScore),
            norm: normalised.value.norm,
            adjusted: samples === null ? null : reliabilityAdjust(normalised.value.norm, samples, k, prior),
            samples,
            weight: c.weight,
            weightQ: fromNumber(c.weight),
            floor,
            floorSource
        },
        errors: normalised.value.warnings
    }
}

type WorkflowArgs = v.InferOutput<typeof INPUT>

/** The gates that must be reported: `requiredGates` and the profile's gates. Issues go to `errors`. */
function requiredGateNames(value: WorkflowArgs, errors: Issue[]): string[] {
    const required = [...(value.requiredGates ?? [])]
    ;(value.requiredGates ?? []).forEach((gate, i) => {
        errors.push(...reserved(gate, pointer('requiredGates', i), 'gate name'))
    })
    if (value.profile !== undefined) {
        if ((WORKFLOW_PROFILE_IDS as readonly string[]).includes(value.profile)) {
            required.push(...WORKFLOW_PROFILES[value.profile as WorkflowProfileId].hardGates.map((g) => g.id))
        } else {
            errors.push(
                createIssue('WFL-013', '/profile', { value: value.profile, expected: WORKFLOW_PROFILE_IDS.join(', ') })
            )
        }
    }
    return required
}

/** Every criterion, with duplicate names and an all-zero weight set as issues in `errors`; warnings apart. */
function parseCriteria(
    items: readonly unknown[],
    prior: Rational,
    k: Rational,
    errors: Issue[]
): { criteria: ParsedCriterion[]; warnings: Issue[] } {
    const criteria: ParsedCriterion[] = []
    const warnings: Issue[] = []
    const names = new Set<string>()
    items.forEach((item, i) => {
        const c = parseCriterion(item, i, prior, k)
        if (c.value === null) {
            errors.push(...c.errors)
            return
        }
        warnings.push(...c.errors)
        if (names.has(c.value.name))
            errors.push(createIssue('WFL-008', pointer('criteria', i, 'name'), { value: c.value.name }))
        names.add(c.value.name)
        criteria.push(c.value)
    })
    if (errors.length === 0 && criteria.every((c) => c.weight === 0)) errors.push(createIssue('WFL-007', '/criteria'))
    return { criteria, warnings }
}

/** Checks an `evaluate` input completely and normalises every criterion exactly. */
export function parseWorkflowInput(input: unknown): { value: ParsedWorkflowInput | null; errors: Issue[] } {
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return { value: null, errors: guarded.errors }
    const raw = guarded.value
    const errors: Issue[] = unknownKeys(raw, TOP_KEYS, '').map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    if (isRecord(raw.reliability)) {
        for (const [key, path] of unknownKeys(raw.reliability, ['prior', 'k'], '/reliability'))
            errors.push(createIssue('WFL-021', path, { field: key }))
    }
    const arrays = arraysForObjects(raw, [['hardGates'], ['reliability']], 'WFL-003')
    if (arrays.length > 0) return { value: null, errors: [...errors, ...arrays] }
    const parsed = parseArgs(INPUT, raw, WORKFLOW_ARGS)
    if (parsed.value === null) return { value: null, errors: [...errors, ...parsed.errors] }
    const value = parsed.value

    // valibot's record() skips `__proto__`-like keys, so reserved gate names are checked on the raw map.
    const gateMap = raw.hardGates as Record<string, boolean>
    for (const gate of Object.keys(gateMap)) errors.push(...reserved(gate, pointer('hardGates', gate), 'gate name'))
    const required = requiredGateNames(value, errors)
    const passThreshold = value.passThreshold ?? WORKFLOW_DEFAULT_PASS_THRESHOLD
    errors.push(
        ...rangeIssue(
            passThreshold >= 0 && passThreshold <= 100,
            '/passThreshold',
            'passThreshold',
            'a number in 0..100',
            passThreshold
        )
    )
    const prior = value.reliability?.prior ?? WORKFLOW_DEFAULT_PRIOR
    const k = value.reliability?.k ?? WORKFLOW_DEFAULT_K
    errors.push(
        ...rangeIssue(prior >= 0 && prior <= 1, '/reliability/prior', 'reliability.prior', 'a number in 0..1', prior)
    )
    errors.push(...rangeIssue(k > 0, '/reliability/k', 'reliability.k', 'a number > 0', k))
    const rate = value.judgeInconsistencyRate ?? null
    if (rate !== null)
        errors.push(
            ...rangeIssue(
                rate >= 0 && rate <= 1,
                '/judgeInconsistencyRate',
                'judgeInconsistencyRate',
                'a number in 0..1',
                rate
            )
        )
    if (errors.length > 0) return { value: null, errors }

    const { criteria, warnings } = parseCriteria(value.criteria, fromNumber(prior), fromNumber(k), errors)
    if (errors.length > 0) return { value: null, errors: [...errors, ...warnings] }

    const reported = Object.entries(gateMap).map(([gate, passed]) => ({
        gate,
        passed,
        reason: passed ? ('reported' as const) : ('reported-false' as const)
    }))
    const missing = [...new Set(required)].filter((gate) => !Object.hasOwn(gateMap, gate))
    return {
        value: {
            gates: [...reported, ...missing.map((gate) => ({ gate, passed: false, reason: 'not-reported' as const }))],
            criteria,
            passThreshold,
            passThresholdQ: fromNumber(passThreshold),
            judgeInconsistencyRate: rate
        },
        errors: warnings
    }
}
