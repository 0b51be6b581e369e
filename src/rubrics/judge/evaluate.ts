import {
    add,
    cmp,
    formatScaled,
    fromNumber,
    mul,
    ratio,
    roundScaled,
    sub,
    toFixedNumber,
    toNumber,
    ZERO,
    type Rational
} from '../shared/rational.js'
import {
    JUDGE_BONUS,
    JUDGE_DIMENSIONS,
    JUDGE_GRADE_BANDS,
    JUDGE_HISTORY_SIGMAS,
    JUDGE_HISTORY_WINDOW,
    JUDGE_MAX_BONUS,
    JUDGE_MAX_DEDUCTION,
    JUDGE_RED_FLAG_DEDUCTION,
    JUDGE_SCORE_MAX,
    JUDGE_SCORE_MIN,
    JUDGE_SYSTEM_VERSION,
    type JudgeDimension,
    type JudgeGradeBand
} from './constants.js'
import type { JudgeItem, ParsedJudgeInput } from './parse.js'
import { parseJudgeInput } from './parse.js'
import type {
    JudgeEvaluation,
    JudgeHistoricalFlag,
    JudgeHistoryDimension,
    JudgeReport,
    JudgeReportBonus,
    JudgeReportRedFlag,
    JudgeTraceStep
} from './types.js'

// Every score after the composite is a whole number of hundredths: the deductions (0.50) and
// bonuses (0.25) and the bounds (1.00, 10.00) are exact there, so rounding the composite once and
// then working in integers gives the same result as rounding at the end.
const H = 100
const PER_FLAG_H = Math.round(JUDGE_RED_FLAG_DEDUCTION * H)
const MAX_DEDUCTION_H = Math.round(JUDGE_MAX_DEDUCTION * H)
const PER_BONUS_H = Math.round(JUDGE_BONUS * H)
const MAX_BONUS_H = Math.round(JUDGE_MAX_BONUS * H)
const MIN_H = JUDGE_SCORE_MIN * H
const MAX_H = JUDGE_SCORE_MAX * H

/** Hundredths → number (`899` → `8.99`). */
export function fromHundredths(h: number): number {
    return h / H
}

/** Hundredths → two-decimal text (`900` → `'9.00'`). */
export function hundredthsText(h: number): string {
    return formatScaled(BigInt(h), 2)
}

/** The band for a final score in hundredths: lower bound inclusive, upper exclusive, A+ up to 10.00 inclusive. */
export function bandForHundredths(h: number): JudgeGradeBand {
    for (const band of JUDGE_GRADE_BANDS) {
        if (h >= Math.round(band.min * H)) {
            return band
        }
    }
    // Scores are clamped to >= 1.00 first, so the F band always matches; this is the same band.
    return JUDGE_GRADE_BANDS[JUDGE_GRADE_BANDS.length - 1] as JudgeGradeBand
}

/** Everything `evaluate`, `compare` and `rank` need from one checked input. */
export interface JudgeCore {
    readonly compositeH: number
    readonly deductionH: number
    readonly afterDeductionsH: number
    readonly bonusH: number
    readonly afterBonusesH: number
    readonly finalH: number
    readonly band: JudgeGradeBand
    readonly redFlags: readonly JudgeReportRedFlag[]
    readonly bonuses: readonly JudgeReportBonus[]
    readonly historicalFlags: readonly JudgeHistoricalFlag[]
    readonly trace: readonly JudgeTraceStep[]
    readonly input: ParsedJudgeInput
}

function capped(items: readonly JudgeItem[], per: number, cap: number): Share[] {
    let left = cap
    return items.map((item) => {
        const amount = Math.min(per, left)
        left -= amount
        return { item, amount }
    })
}

function round4(q: Rational): number {
    return toFixedNumber(q, 4)
}

function historyCheck(input: ParsedJudgeInput): { flags: JudgeHistoricalFlag[]; step: JudgeTraceStep } {
    const window = input.history.slice(-JUDGE_HISTORY_WINDOW)
    const m = window.length
    if (m < 2) {
        // One point has no spread: the check needs two, and baseline calibration starts at the first.
        return {
            flags: [],
            step: {
                step: 'history',
                status: 'insufficient-history',
                window: JUDGE_HISTORY_WINDOW,
                samples: m,
                sigma: 'sample',
                dimensions: []
            }
        }
    }
    const flags: JudgeHistoricalFlag[] = []
    const dimensions: JudgeHistoryDimension[] = []
    const sigmas2 = ratio(JUDGE_HISTORY_SIGMAS * JUDGE_HISTORY_SIGMAS)
    for (const dimension of JUDGE_DIMENSIONS) {
        const values = window.map((entry) => fromNumber(entry[dimension]))
        let total = ZERO
        for (const x of values) total = add(total, x)
        const mean = mul(total, ratio(1, m))
        let squares = ZERO
        for (const x of values) {
            const dx = sub(x, mean)
            squares = add(squares, mul(dx, dx))
        }
        const variance = mul(squares, ratio(1, m - 1))
        const current = input.scoresQ[dimension]
        const deviation = sub(current, mean)
        // |x − μ| > 2σ  ⇔  (x − μ)² > 4σ²: exact, no square root in the decision. With σ = 0 any change flags.
        const flagged = cmp(mul(deviation, deviation), mul(sigmas2, variance)) > 0
        const stdDev = Math.sqrt(toNumber(variance))
        const meanN = round4(mean)
        const stdDevN = round4(fromNumber(stdDev))
        dimensions.push({ dimension, current: input.scores[dimension], mean: meanN, stdDev: stdDevN, flagged })
        if (flagged) {
            flags.push({
                dimension,
                current: input.scores[dimension],
                mean: meanN,
                stdDev: stdDevN,
                deviation: round4(deviation),
                zScore: stdDev === 0 ? null : round4(fromNumber(toNumber(deviation) / stdDev)),
                samples: m
            })
        }
    }
    return {
        flags,
        step: {
            step: 'history',
            status: 'checked',
            window: JUDGE_HISTORY_WINDOW,
            samples: m,
            sigma: 'sample',
            dimensions
        }
    }
}

type Share = { item: JudgeItem; amount: number }

/** Red-flag deductions, capped in total and floored at the minimum score. */
function deductionsStep(
    input: ParsedJudgeInput,
    compositeH: number,
    trace: JudgeTraceStep[]
): { flagShares: Share[]; deductionH: number; afterDeductionsH: number } {
    const flagShares = capped(input.redFlags, PER_FLAG_H, MAX_DEDUCTION_H)
    const deductionH = flagShares.reduce((s, f) => s + f.amount, 0)
    const afterDeductionsH = Math.max(MIN_H, compositeH - deductionH)
    trace.push({
        step: 'deductions',
        redFlags: input.redFlags.length,
        perFlag: JUDGE_RED_FLAG_DEDUCTION,
        uncapped: fromHundredths(input.redFlags.length * PER_FLAG_H),
        cap: JUDGE_MAX_DEDUCTION,
        applied: fromHundredths(deductionH),
        before: fromHundredths(compositeH),
        after: fromHundredths(afterDeductionsH),
        flooredAtMinimum: compositeH - deductionH < MIN_H
    })
    return { flagShares, deductionH, afterDeductionsH }
}

/** Bonuses, capped in total and at the maximum score. */
function bonusesStep(
    input: ParsedJudgeInput,
    afterDeductionsH: number,
    trace: JudgeTraceStep[]
): { bonusShares: Share[]; bonusH: number; afterBonusesH: number } {
    const bonusShares = capped(input.bonuses, PER_BONUS_H, MAX_BONUS_H)
    const bonusH = bonusShares.reduce((s, b) => s + b.amount, 0)
    const afterBonusesH = Math.min(MAX_H, afterDeductionsH + bonusH)
    trace.push({
        step: 'bonuses',
        bonuses: input.bonuses.length,
        perBonus: JUDGE_BONUS,
        uncapped: fromHundredths(input.bonuses.length * PER_BONUS_H),
        cap: JUDGE_MAX_BONUS,
        applied: fromHundredths(bonusH),
        before: fromHundredths(afterDeductionsH),
        after: fromHundredths(afterBonusesH),
        cappedAtMaximum: afterDeductionsH + bonusH > MAX_H
    })
    return { bonusShares, bonusH, afterBonusesH }
}

/** The scoring pipeline of seed 002, steps 2–7, over a checked input. */
export function computeJudge(input: ParsedJudgeInput): JudgeCore {
    const trace: JudgeTraceStep[] = []
    trace.push({
        step: 'weights',
        source: input.weightSource,
        weights: input.weights,
        sum: toNumber(JUDGE_DIMENSIONS.reduce((s, d) => add(s, input.weightsQ[d]), ZERO))
    })

    let composite = ZERO
    const terms = JUDGE_DIMENSIONS.map((dimension: JudgeDimension) => {
        const product = mul(input.scoresQ[dimension], input.weightsQ[dimension])
        composite = add(composite, product)
        return {
            dimension,
            score: input.scores[dimension],
            weight: input.weights[dimension],
            product: toNumber(product)
        }
    })
    const compositeH = Number(roundScaled(composite, 2))
    trace.push({ step: 'composite', terms, exact: toNumber(composite), rounded: fromHundredths(compositeH) })

    const { flagShares, deductionH, afterDeductionsH } = deductionsStep(input, compositeH, trace)
    const { bonusShares, bonusH, afterBonusesH } = bonusesStep(input, afterDeductionsH, trace)

    // Step 5 of the pipeline; after the floor and the ceiling above it only matters if weights summed
    // a hair above 1.0 (within tolerance), but it is what guarantees the range.
    const finalH = Math.min(MAX_H, Math.max(MIN_H, afterBonusesH))
    trace.push({
        step: 'clamp',
        min: JUDGE_SCORE_MIN,
        max: JUDGE_SCORE_MAX,
        before: fromHundredths(afterBonusesH),
        after: fromHundredths(finalH)
    })

    const band = bandForHundredths(finalH)
    trace.push({
        step: 'grade',
        score: fromHundredths(finalH),
        grade: band.grade,
        label: band.label,
        min: band.min,
        max: band.max,
        maxInclusive: band.grade === 'A+'
    })

    const history = historyCheck(input)
    trace.push(history.step)

    return {
        compositeH,
        deductionH,
        afterDeductionsH,
        bonusH,
        afterBonusesH,
        finalH,
        band,
        redFlags: flagShares.map(({ item, amount }) => ({
            id: item.id,
            explanation: item.explanation ?? '',
            deduction: fromHundredths(amount),
            counted: amount > 0
        })),
        bonuses: bonusShares.map(({ item, amount }) => ({
            id: item.id,
            explanation: item.explanation,
            bonus: fromHundredths(amount),
            counted: amount > 0
        })),
        historicalFlags: history.flags,
        trace,
        input
    }
}

function reportLines(core: JudgeCore): string[] {
    const lines = [`Composite score (before adjustments): ${hundredthsText(core.compositeH)}`]
    if (core.redFlags.length === 0) {
        lines.push('Red flags: none')
    }
    for (const flag of core.redFlags) {
        const note = flag.counted ? '' : ` (deduction cap ${hundredthsText(MAX_DEDUCTION_H)} reached)`
        lines.push(
            `Red flag "${flag.id}": ${flag.explanation} -${hundredthsText(Math.round(flag.deduction * H))}${note}`
        )
    }
    if (core.redFlags.length > 0) {
        const floor = core.compositeH - core.deductionH < MIN_H ? ` (floored at ${hundredthsText(MIN_H)})` : ''
        lines.push(
            `Total deductions: -${hundredthsText(core.deductionH)} -> ${hundredthsText(core.afterDeductionsH)}${floor}`
        )
    }
    if (core.bonuses.length === 0) {
        lines.push('Bonuses: none')
    }
    for (const bonus of core.bonuses) {
        const note = bonus.counted ? '' : ` (bonus cap ${hundredthsText(MAX_BONUS_H)} reached)`
        const why = bonus.explanation === null ? '' : `: ${bonus.explanation}`
        lines.push(`Bonus "${bonus.id}"${why} +${hundredthsText(Math.round(bonus.bonus * H))}${note}`)
    }
    if (core.bonuses.length > 0) {
        const ceiling = core.afterDeductionsH + core.bonusH > MAX_H ? ` (capped at ${hundredthsText(MAX_H)})` : ''
        lines.push(`Total bonuses: +${hundredthsText(core.bonusH)} -> ${hundredthsText(core.afterBonusesH)}${ceiling}`)
    }
    lines.push(`Final score: ${hundredthsText(core.finalH)} (${core.band.grade}, ${core.band.label})`)
    return lines
}

function report(core: JudgeCore): JudgeReport {
    return {
        originalComposite: fromHundredths(core.compositeH),
        redFlags: core.redFlags,
        totalDeduction: fromHundredths(core.deductionH),
        scoreAfterDeductions: fromHundredths(core.afterDeductionsH),
        bonuses: core.bonuses,
        totalBonus: fromHundredths(core.bonusH),
        finalScore: fromHundredths(core.finalH),
        grade: core.band.grade,
        label: core.band.label,
        lines: reportLines(core)
    }
}

/** `JudgeRubric.evaluate` without the class: check, score, report. */
export function evaluateJudge(input: unknown): JudgeEvaluation {
    const parsed = parseJudgeInput(input)
    if (parsed.value === null) {
        return {
            system: JUDGE_SYSTEM_VERSION,
            compositeScore: null,
            deductions: null,
            bonuses: null,
            finalScore: null,
            grade: null,
            label: null,
            historicalFlags: [],
            report: null,
            trace: [],
            errors: parsed.errors
        }
    }
    const core = computeJudge(parsed.value)
    return {
        system: JUDGE_SYSTEM_VERSION,
        compositeScore: fromHundredths(core.compositeH),
        deductions: fromHundredths(core.deductionH),
        bonuses: fromHundredths(core.bonusH),
        finalScore: fromHundredths(core.finalH),
        grade: core.band.grade,
        label: core.band.label,
        historicalFlags: core.historicalFlags,
        report: report(core),
        trace: core.trace,
        errors: parsed.errors
    }
}
