import * as v from 'valibot'
import { createIssue } from '../../errors/issue.js'
import type { Issue } from '../../errors/types.js'
import { parseArgs } from '../../validation/args.js'
import { guardInput, isRecord, unknownKeys } from '../shared/guard.js'
import { fromNumber, toNumber } from '../shared/rational.js'
import {
    WORKFLOW_DEFAULT_K,
    WORKFLOW_DEFAULT_PRIOR,
    WORKFLOW_SYSTEM_VERSION,
    type WorkflowFormulaId
} from './constants.js'
import { normaliseRaw, reliabilityAdjust } from './formulas.js'
import { rangeIssue, WORKFLOW_ARGS, WORKFLOW_GUARD } from './parse.js'
import { WORKFLOW_PROFILE_IDS, WORKFLOW_PROFILES, type WorkflowProfile, type WorkflowProfileId } from './profiles.js'
import type { WorkflowRawScore } from './types.js'

/** The result of `WorkflowRubric.normalize`: raw, normalised and formula id side by side. */
export interface WorkflowNormalization {
    readonly system: string
    readonly formulaId: WorkflowFormulaId | null
    readonly raw: WorkflowRawScore | null
    readonly normalized: number | null
    /** Reliability-adjusted value; `null` when no sample count is known. */
    readonly adjusted: number | null
    readonly samples: number | null
    readonly errors: readonly Issue[]
}

/** The result of `WorkflowRubric.adjust`. */
export interface WorkflowAdjustment {
    readonly system: string
    readonly normalized: number | null
    readonly adjusted: number | null
    readonly n: number | null
    readonly prior: number | null
    readonly k: number | null
    readonly errors: readonly Issue[]
}

/** The result of `WorkflowRubric.profile`. */
export interface WorkflowProfileResult {
    readonly system: string
    readonly profile: WorkflowProfile | null
    readonly errors: readonly Issue[]
}

const NORMALIZE = v.object({
    formulaId: v.unknown(),
    rawScore: v.unknown(),
    params: v.optional(v.unknown()),
    samples: v.optional(v.number()),
    prior: v.optional(v.number()),
    k: v.optional(v.number())
})
const ADJUST = v.object({
    normalized: v.number(),
    n: v.number(),
    prior: v.optional(v.number()),
    k: v.optional(v.number())
})
// The profile id's type; the value received is written as its JSON type (`got number`).
const PROFILE = v.object({ id: v.string() })

function checkShrinkage(prior: number, k: number): Issue[] {
    return [
        ...rangeIssue(prior >= 0 && prior <= 1, '/prior', 'prior', 'a number in 0..1', prior),
        ...rangeIssue(k > 0, '/k', 'k', 'a number > 0', k)
    ]
}

/** `WorkflowRubric.normalize` without the class. */
export function normalizeWorkflow(input: unknown): WorkflowNormalization {
    const failed = (errors: Issue[]): WorkflowNormalization => ({
        system: WORKFLOW_SYSTEM_VERSION,
        formulaId: null,
        raw: null,
        normalized: null,
        adjusted: null,
        samples: null,
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const raw = guarded.value
    const errors: Issue[] = unknownKeys(raw, ['formulaId', 'rawScore', 'params', 'samples', 'prior', 'k'], '').map(
        ([key, path]) => createIssue('WFL-021', path, { field: key })
    )
    const args = parseArgs(NORMALIZE, raw, WORKFLOW_ARGS)
    if (args.value === null) return failed([...errors, ...args.errors])
    for (const key of ['formulaId', 'rawScore'] as const) {
        if (!Object.hasOwn(raw, key)) errors.push(createIssue('WFL-002', `/${key}`, { field: key }))
    }
    const prior = args.value.prior ?? WORKFLOW_DEFAULT_PRIOR
    const k = args.value.k ?? WORKFLOW_DEFAULT_K
    errors.push(...checkShrinkage(prior, k))
    const samples = args.value.samples
    if (samples !== undefined)
        errors.push(
            ...rangeIssue(Number.isInteger(samples) && samples >= 0, '/samples', 'samples', 'an integer >= 0', samples)
        )
    if (errors.length > 0) return failed(errors)
    const result = normaliseRaw(args.value.formulaId, args.value.rawScore, args.value.params, {
        raw: '/rawScore',
        params: '/params',
        criterion: 'rawScore'
    })
    if (result.value === null) return failed(result.errors)
    const n = samples ?? result.value.impliedSamples
    return {
        system: WORKFLOW_SYSTEM_VERSION,
        formulaId: args.value.formulaId as WorkflowFormulaId,
        raw: (isRecord(args.value.rawScore)
            ? Object.fromEntries(Object.entries(args.value.rawScore))
            : args.value.rawScore) as WorkflowRawScore,
        normalized: toNumber(result.value.norm),
        adjusted:
            n === null ? null : toNumber(reliabilityAdjust(result.value.norm, n, fromNumber(k), fromNumber(prior))),
        samples: n,
        errors: result.value.warnings
    }
}

/** `WorkflowRubric.adjust` without the class. */
export function adjustWorkflow(input: unknown): WorkflowAdjustment {
    const failed = (errors: Issue[]): WorkflowAdjustment => ({
        system: WORKFLOW_SYSTEM_VERSION,
        normalized: null,
        adjusted: null,
        n: null,
        prior: null,
        k: null,
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const errors: Issue[] = unknownKeys(guarded.value, ['normalized', 'n', 'prior', 'k'], '').map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    const args = parseArgs(ADJUST, guarded.value, WORKFLOW_ARGS)
    if (args.value === null) return failed([...errors, ...args.errors])
    const { normalized, n } = args.value
    const prior = args.value.prior ?? WORKFLOW_DEFAULT_PRIOR
    const k = args.value.k ?? WORKFLOW_DEFAULT_K
    errors.push(
        ...rangeIssue(normalized >= 0 && normalized <= 1, '/normalized', 'normalized', 'a number in 0..1', normalized)
    )
    errors.push(...rangeIssue(Number.isInteger(n) && n >= 0, '/n', 'n', 'an integer >= 0', n))
    errors.push(...checkShrinkage(prior, k))
    if (errors.length > 0) return failed(errors)
    const adjusted = reliabilityAdjust(fromNumber(normalized), n, fromNumber(k), fromNumber(prior))
    return { system: WORKFLOW_SYSTEM_VERSION, normalized, adjusted: toNumber(adjusted), n, prior, k, errors: [] }
}

/** `WorkflowRubric.profile` without the class. */
export function profileWorkflow(input: unknown): WorkflowProfileResult {
    const failed = (errors: Issue[]): WorkflowProfileResult => ({
        system: WORKFLOW_SYSTEM_VERSION,
        profile: null,
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const errors: Issue[] = unknownKeys(guarded.value, ['id'], '').map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    const args = parseArgs(PROFILE, guarded.value, WORKFLOW_ARGS, { actual: 'type' })
    if (args.value === null) return failed([...errors, ...args.errors])
    // An id of no profile has a code of its own (WFL-013, the value echoed), so it is checked after the shape.
    const { id } = args.value
    if (!(WORKFLOW_PROFILE_IDS as readonly string[]).includes(id))
        return failed([
            ...errors,
            createIssue('WFL-013', '/id', { value: id, expected: WORKFLOW_PROFILE_IDS.join(', ') })
        ])
    if (errors.length > 0) return failed(errors)
    return { system: WORKFLOW_SYSTEM_VERSION, profile: WORKFLOW_PROFILES[id as WorkflowProfileId], errors: [] }
}
