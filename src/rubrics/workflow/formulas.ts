import * as v from 'valibot'
import { createIssue, typeOfValue } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { isRecord, unknownKeys } from '../shared/guard.js'
import { type ArgCodes, parseArgs, says } from '../../validation/args.js'
import {
    add,
    clamp,
    cmp,
    decimalText,
    div,
    fromNumber,
    mul,
    ONE,
    ratio,
    sub,
    ZERO,
    type Rational
} from '../shared/rational.js'
import { WORKFLOW_FORMULA_IDS, type WorkflowFormulaId } from './constants.js'

/** What one normaliser expects and computes (seed 004 §4.1). */
export interface WorkflowFormula {
    readonly id: WorkflowFormulaId
    /** Shape of `rawScore`: a number, `{ wins, losses, ties }` or `{ passed, total }`. */
    readonly raw: 'number' | 'pairwise-counts' | 'test-counts'
    readonly domain: string
    readonly formula: string
    /** Whether a floor may be given on the raw scale (`rawCriticalFloor`). */
    readonly rawFloor: boolean
}

const f = (
    id: WorkflowFormulaId,
    raw: WorkflowFormula['raw'],
    domain: string,
    formula: string,
    rawFloor: boolean
): WorkflowFormula => Object.freeze({ id, raw, domain, formula, rawFloor })

/** The normaliser registry, keyed by `formulaId`. Every formula maps its domain into [0, 1]. */
export const WORKFLOW_FORMULAS: Readonly<Record<WorkflowFormulaId, WorkflowFormula>> = Object.freeze({
    binary: f('binary', 'number', '0 or 1', 'norm = raw', true),
    'likert-1-5': f('likert-1-5', 'number', '1 <= raw <= 5', 'norm = (raw - 1) / 4', true),
    'likert-neg2-2': f('likert-neg2-2', 'number', '-2 <= raw <= 2', 'norm = (raw + 2) / 4', true),
    'pairwise-ties': f(
        'pairwise-ties',
        'pairwise-counts',
        '{ wins, losses, ties }: integers >= 0, total > 0',
        'norm = (wins + 0.5 * ties) / (wins + losses + ties)',
        false
    ),
    'lower-is-better': f(
        'lower-is-better',
        'number',
        'raw >= 0, with params { good, bad }, 0 <= good < bad',
        'norm = clamp((bad - raw) / (bad - good))',
        true
    ),
    'clamp-0-1': f(
        'clamp-0-1',
        'number',
        'any finite number (0..1 expected; outside is clamped with a warning)',
        'norm = clamp(raw)',
        true
    ),
    'swe-fail-to-pass': f(
        'swe-fail-to-pass',
        'test-counts',
        '{ passed, total }: integers, 0 <= passed <= total, total >= 1',
        'norm = passed / total',
        false
    ),
    'swe-pass-to-pass': f(
        'swe-pass-to-pass',
        'test-counts',
        '{ passed, total }: integers, 0 <= passed <= total, total >= 1',
        'norm = passed / total',
        false
    )
})

/** Where a criterion's fields live in the caller's input, for issue paths. */
export interface FormulaPaths {
    readonly raw: string
    readonly params: string
    readonly criterion: string
}

/** A normalised value: exact, with the sample count the raw value implies (pairwise/test counts). */
export interface Normalised {
    readonly norm: Rational
    readonly impliedSamples: number | null
    readonly warnings: Issue[]
}

export function isFormulaId(value: unknown): value is WorkflowFormulaId {
    return typeof value === 'string' && (WORKFLOW_FORMULA_IDS as readonly string[]).includes(value)
}

function unknownFormula(value: unknown, path: string): Issue {
    return createIssue('WFL-004', path, {
        value: typeof value === 'string' ? value : typeOfValue(value),
        expected: WORKFLOW_FORMULA_IDS.join(', ')
    })
}

// A raw score's shape: absent count WFL-002, wrong type WFL-003; a count out of range has its own code (WFL-005) and
// an unknown key too (WFL-021), plain checks. The findings stand at the criterion's own `/rawScore` path.
const STYLE = { actual: 'type' } as const
function rawCodes(path: string): ArgCodes<'WFL-002' | 'WFL-003'> {
    return {
        missing: 'WFL-002',
        mismatch: 'WFL-003',
        create: (code, at, params) => createIssue(code, path + at.slice('/rawScore'.length), params)
    }
}
// Any number, NaN too (valibot's number schema refuses NaN): the range is WFL-005's, after the type.
const isNumber = (n: unknown): n is number => typeof n === 'number'
const COUNT = v.custom<number>(isNumber, says('integer >= 0'))
const RAW_NUMBER = v.object({ rawScore: v.custom<number>(isNumber, says({ expected: 'number', missing: false })) })

function counts(
    raw: unknown,
    keys: readonly string[],
    path: string,
    formula: string
): { values: number[] | null; errors: Issue[] } {
    const codes = rawCodes(path)
    const shape = v.object({
        rawScore: v.custom<Record<string, unknown>>(
            isRecord,
            says({ expected: `{ ${keys.join(', ')} }`, missing: false })
        )
    })
    const given = parseArgs(shape, { rawScore: raw }, codes, STYLE)
    if (given.value === null) return { values: null, errors: given.errors }
    const record = given.value.rawScore
    const errors: Issue[] = unknownKeys(record, keys, path).map(([key, at]) =>
        createIssue('WFL-021', at, { field: key })
    )
    const values: number[] = []
    for (const key of keys) {
        // Key by key, so a missing, a mistyped and an out-of-range count keep the order of the keys.
        const value = Object.hasOwn(record, key) ? record[key] : undefined
        const schema = v.object({ rawScore: v.object({ [key]: COUNT }) })
        const count = parseArgs(schema, { rawScore: { [key]: value } }, codes, STYLE)
        const n = count.value?.rawScore[key]
        if (n === undefined) {
            errors.push(...count.errors)
        } else if (!Number.isInteger(n) || n < 0) {
            errors.push(
                createIssue('WFL-005', path + pointer(key), {
                    value: n,
                    formula,
                    detail: `${key} must be an integer >= 0`
                })
            )
        } else {
            values.push(n)
        }
    }
    return errors.length > 0 ? { values: null, errors } : { values, errors }
}

function sloBounds(params: unknown, path: string): { good: Rational; bad: Rational } | Issue[] {
    if (!isRecord(params)) {
        return [
            createIssue('WFL-006', path, { formula: 'lower-is-better', detail: 'params { good, bad } are required' })
        ]
    }
    const errors: Issue[] = unknownKeys(params, ['good', 'bad'], path).map(([key, at]) =>
        createIssue('WFL-021', at, { field: key })
    )
    const good = params.good
    const bad = params.bad
    if (typeof good !== 'number' || typeof bad !== 'number') {
        errors.push(
            createIssue('WFL-006', path, { formula: 'lower-is-better', detail: 'good and bad must both be numbers' })
        )
        return errors
    }
    if (good < 0 || bad <= good) {
        errors.push(
            createIssue('WFL-006', path, {
                formula: 'lower-is-better',
                detail: `need 0 <= good < bad, got good=${good}, bad=${bad}`
            })
        )
    }
    return errors.length > 0 ? errors : { good: fromNumber(good), bad: fromNumber(bad) }
}

function lowerIsBetter(raw: Rational, bounds: { good: Rational; bad: Rational }): Rational {
    return clamp(div(sub(bounds.bad, raw), sub(bounds.bad, bounds.good)), ZERO, ONE)
}

function checkParamsAbsent(formula: WorkflowFormulaId, params: unknown, path: string): Issue[] {
    return params === undefined || formula === 'lower-is-better'
        ? []
        : [createIssue('WFL-006', path, { formula, detail: 'this formula takes no params' })]
}

type NormaliseResult = { value: Normalised | null; errors: Issue[] }

/** `wins + ties/2` over all comparisons; the comparison count is the sample size. */
function normalisePairwiseCounts(formulaId: WorkflowFormulaId, raw: unknown, paths: FormulaPaths): NormaliseResult {
    const { values, errors } = counts(raw, ['wins', 'losses', 'ties'], paths.raw, formulaId)
    if (values === null) return { value: null, errors }
    const [wins, losses, ties] = values as [number, number, number]
    const total = wins + losses + ties
    if (total === 0) {
        return {
            value: null,
            errors: [
                createIssue('WFL-005', paths.raw, {
                    value: '0 comparisons',
                    formula: formulaId,
                    detail: 'wins + losses + ties must be > 0'
                })
            ]
        }
    }
    return {
        value: { norm: div(add(ratio(wins), ratio(ties, 2)), ratio(total)), impliedSamples: total, warnings: [] },
        errors: []
    }
}

/** `passed / total`; the test count is the sample size. */
function normaliseTestCounts(formulaId: WorkflowFormulaId, raw: unknown, paths: FormulaPaths): NormaliseResult {
    const { values, errors } = counts(raw, ['passed', 'total'], paths.raw, formulaId)
    if (values === null) return { value: null, errors }
    const [passed, total] = values as [number, number]
    if (total < 1 || passed > total) {
        return {
            value: null,
            errors: [
                createIssue('WFL-005', paths.raw, {
                    value: `${passed}/${total}`,
                    formula: formulaId,
                    detail: 'need 0 <= passed <= total and total >= 1'
                })
            ]
        }
    }
    return { value: { norm: ratio(passed, total), impliedSamples: total, warnings: [] }, errors: [] }
}

/** The formulas whose raw score is one number. */
function normaliseNumber(
    formulaId: WorkflowFormulaId,
    raw: number,
    params: unknown,
    paths: FormulaPaths
): NormaliseResult {
    const domainError = (detail: string): { value: null; errors: Issue[] } => ({
        value: null,
        errors: [createIssue('WFL-005', paths.raw, { value: raw, formula: formulaId, detail })]
    })
    const q = fromNumber(raw)
    switch (formulaId) {
        case 'binary':
            return raw === 0 || raw === 1
                ? { value: { norm: q, impliedSamples: null, warnings: [] }, errors: [] }
                : domainError('expected 0 or 1')
        case 'likert-1-5':
            return raw >= 1 && raw <= 5
                ? { value: { norm: div(sub(q, ONE), ratio(4)), impliedSamples: null, warnings: [] }, errors: [] }
                : domainError('expected 1..5')
        case 'likert-neg2-2':
            return raw >= -2 && raw <= 2
                ? { value: { norm: div(add(q, ratio(2)), ratio(4)), impliedSamples: null, warnings: [] }, errors: [] }
                : domainError('expected -2..2')
        case 'lower-is-better': {
            const bounds = sloBounds(params, paths.params)
            if (Array.isArray(bounds)) return { value: null, errors: bounds }
            return raw >= 0
                ? { value: { norm: lowerIsBetter(q, bounds), impliedSamples: null, warnings: [] }, errors: [] }
                : domainError('expected raw >= 0 (cost, latency, retries)')
        }
        default: {
            // clamp-0-1: the only remaining number formula.
            const norm = clamp(q, ZERO, ONE)
            const warnings =
                cmp(norm, q) === 0
                    ? []
                    : [
                          createIssue('WFL-WARN-001', paths.raw, {
                              value: raw,
                              criterion: paths.criterion,
                              clamped: decimalText(norm)
                          })
                      ]
            return { value: { norm, impliedSamples: null, warnings }, errors: [] }
        }
    }
}

/**
 * Normalises one raw score with the formula `formulaId`, exactly. Out-of-domain raws and unknown
 * formulas are coded issues; `clamp-0-1` clamps with a warning instead (that is its definition).
 */
export function normaliseRaw(
    formulaId: unknown,
    raw: unknown,
    params: unknown,
    paths: FormulaPaths
): { value: Normalised | null; errors: Issue[] } {
    if (!isFormulaId(formulaId)) {
        return { value: null, errors: [unknownFormula(formulaId, paths.raw.replace(/\/rawScore$/, '/formulaId'))] }
    }
    const paramIssues = checkParamsAbsent(formulaId, params, paths.params)
    if (paramIssues.length > 0) {
        return { value: null, errors: paramIssues }
    }
    const spec = WORKFLOW_FORMULAS[formulaId]
    if (spec.raw === 'pairwise-counts') return normalisePairwiseCounts(formulaId, raw, paths)
    if (spec.raw === 'test-counts') return normaliseTestCounts(formulaId, raw, paths)
    const given = parseArgs(RAW_NUMBER, { rawScore: raw }, rawCodes(paths.raw), STYLE)
    if (given.value === null) return { value: null, errors: given.errors }
    return normaliseNumber(formulaId, given.value.rawScore, params, paths)
}

/**
 * Normalises a floor given on the raw scale with the criterion's own formula, so that
 * `raw >= rawFloor` and `norm >= normalisedFloor` agree (for lower-is-better: `raw <= rawFloor`).
 */
export function normaliseRawFloor(
    formulaId: WorkflowFormulaId,
    rawFloor: number,
    params: unknown,
    paths: { floor: string; params: string }
): { value: Rational | null; errors: Issue[] } {
    const spec = WORKFLOW_FORMULAS[formulaId]
    const fail = (detail: string): { value: null; errors: Issue[] } => ({
        value: null,
        errors: [createIssue('WFL-011', paths.floor, { value: rawFloor, formula: formulaId, detail })]
    })
    if (!spec.rawFloor) {
        return fail('the raw score is a set of counts; give criticalFloor on the normalised 0..1 scale')
    }
    const q = fromNumber(rawFloor)
    switch (formulaId) {
        case 'binary':
            return rawFloor === 0 || rawFloor === 1 ? { value: q, errors: [] } : fail('expected 0 or 1')
        case 'likert-1-5':
            return rawFloor >= 1 && rawFloor <= 5
                ? { value: div(sub(q, ONE), ratio(4)), errors: [] }
                : fail('expected 1..5')
        case 'likert-neg2-2':
            return rawFloor >= -2 && rawFloor <= 2
                ? { value: div(add(q, ratio(2)), ratio(4)), errors: [] }
                : fail('expected -2..2')
        case 'lower-is-better': {
            const bounds = sloBounds(params, paths.params)
            if (Array.isArray(bounds)) return { value: null, errors: bounds }
            return rawFloor >= 0 ? { value: lowerIsBetter(q, bounds), errors: [] } : fail('expected >= 0')
        }
        default:
            return rawFloor >= 0 && rawFloor <= 1 ? { value: q, errors: [] } : fail('expected 0..1')
    }
}

/** `(n·norm + k·prior) / (n + k)`; callers guarantee `n + k > 0`. */
export function reliabilityAdjust(norm: Rational, n: number, k: Rational, prior: Rational): Rational {
    const nQ = ratio(n)
    return div(add(mul(nQ, norm), mul(k, prior)), add(nQ, k))
}
