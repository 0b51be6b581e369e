import {
    add,
    cmp,
    div,
    formatScaled,
    fromNumber,
    mul,
    ratio,
    roundScaled,
    sub,
    toNumber,
    ZERO,
    type Rational
} from '../shared/rational.js'
import {
    WORKFLOW_FLOOR_MARGIN_FOR_A,
    WORKFLOW_GRADE_BANDS,
    WORKFLOW_INCONSISTENCY_WARNING,
    WORKFLOW_SYSTEM_VERSION,
    type WorkflowGrade
} from './constants.js'
import { parseWorkflowInput, type ParsedCriterion, type ParsedWorkflowInput } from './parse.js'
import type {
    WorkflowEvaluation,
    WorkflowFailureReason,
    WorkflowFloorFailure,
    WorkflowGateFailure,
    WorkflowNormalizedCriterion,
    WorkflowPlacement,
    WorkflowPlacementCheck,
    WorkflowTraceStep
} from './types.js'

const GRADE_ORDER: readonly WorkflowGrade[] = ['A', 'B', 'C', 'D', 'F']
const HUNDRED = ratio(100)
const MARGIN_FOR_A = fromNumber(WORKFLOW_FLOOR_MARGIN_FOR_A)
const WARNING_RATE = fromNumber(WORKFLOW_INCONSISTENCY_WARNING)

/** The band of a two-decimal score given in hundredths (`8999` → B). */
export function bandOf(hundredths: number): (typeof WORKFLOW_GRADE_BANDS)[number] {
    for (const band of WORKFLOW_GRADE_BANDS) {
        if (hundredths >= band.min * 100) return band
    }
    return WORKFLOW_GRADE_BANDS[WORKFLOW_GRADE_BANDS.length - 1] as (typeof WORKFLOW_GRADE_BANDS)[number]
}

/** The worse of two grades (`min(grade, D)` in §5.1 step 5, where A is the maximum). */
export function worseGrade(a: WorkflowGrade, b: WorkflowGrade): WorkflowGrade {
    return GRADE_ORDER.indexOf(a) >= GRADE_ORDER.indexOf(b) ? a : b
}

/** `round(Σ wᵢ·xᵢ / Σ wᵢ · 100, 2)` in hundredths, exactly. */
export function weightedHundredths(
    criteria: readonly ParsedCriterion[],
    pick: (c: ParsedCriterion) => Rational
): { hundredths: number; exact: Rational; weightSum: Rational } {
    let numerator = ZERO
    let weightSum = ZERO
    for (const c of criteria) {
        numerator = add(numerator, mul(c.weightQ, pick(c)))
        weightSum = add(weightSum, c.weightQ)
    }
    const exact = div(numerator, weightSum)
    return { hundredths: Number(roundScaled(mul(exact, HUNDRED), 2)), exact, weightSum }
}

/** Everything `evaluate`, `report` and `promote` need from one checked run. */
export interface WorkflowCore {
    readonly input: ParsedWorkflowInput
    readonly scoreH: number
    readonly adjustedScoreH: number
    readonly provisional: WorkflowGrade
    readonly grade: WorkflowGrade
    readonly passed: boolean
    readonly reason: WorkflowFailureReason | null
    readonly gateFailures: readonly WorkflowGateFailure[]
    readonly floorFailures: readonly WorkflowFloorFailure[]
    readonly normalized: readonly WorkflowNormalizedCriterion[]
    readonly trace: readonly WorkflowTraceStep[]
}

function floorFailed(c: ParsedCriterion): boolean {
    return c.floor !== null && cmp(c.norm, c.floor) < 0
}

/** The criteria as reported, and the floors they miss. */
interface NormalisedCriteria {
    readonly normalized: WorkflowNormalizedCriterion[]
    readonly floorFailures: WorkflowFloorFailure[]
}

/** STEP 2: normalise (done while parsing) and test floors. */
function normaliseStep(input: ParsedWorkflowInput, trace: WorkflowTraceStep[]): NormalisedCriteria {
    const normalized: WorkflowNormalizedCriterion[] = input.criteria.map((c) => ({
        name: c.name,
        formulaId: c.formulaId,
        category: c.category,
        raw: c.raw,
        normalized: toNumber(c.norm),
        adjusted: c.adjusted === null ? null : toNumber(c.adjusted),
        samples: c.samples,
        weight: c.weight,
        criticalFloor: c.floor === null ? null : toNumber(c.floor),
        floorSource: c.floorSource,
        floorFailed: floorFailed(c),
        floorMargin: c.floor === null ? null : toNumber(sub(c.norm, c.floor))
    }))
    const floorFailures: WorkflowFloorFailure[] = input.criteria.filter(floorFailed).map((c) => ({
        criterion: c.name,
        normalized: toNumber(c.norm),
        floor: toNumber(c.floor as Rational),
        floorSource: c.floorSource as WorkflowFloorFailure['floorSource']
    }))
    trace.push({
        step: 'normalize',
        criteria: normalized.map((n) => ({
            name: n.name,
            formulaId: n.formulaId,
            normalized: n.normalized,
            adjusted: n.adjusted,
            floor: n.criticalFloor,
            floorFailed: n.floorFailed
        }))
    })
    return { normalized, floorFailures }
}

/** STEP 3: aggregate. */
function aggregateStep(input: ParsedWorkflowInput, trace: WorkflowTraceStep[]): ReturnType<typeof weightedHundredths> {
    const weighted = weightedHundredths(input.criteria, (c) => c.norm)
    trace.push({
        step: 'aggregate',
        terms: input.criteria.map((c) => ({
            name: c.name,
            weight: c.weight,
            normalized: toNumber(c.norm),
            product: toNumber(mul(c.weightQ, c.norm))
        })),
        weightSum: toNumber(weighted.weightSum),
        weighted01: toNumber(weighted.exact),
        weighted100: weighted.hundredths / 100
    })
    return weighted
}

/** STEP 6: pass/fail, with the first failed condition as the reason. */
function passStep(
    input: ParsedWorkflowInput,
    scoreH: number,
    gatesPassed: boolean,
    floorsPassed: boolean,
    trace: WorkflowTraceStep[]
): { passed: boolean; reason: WorkflowFailureReason | null } {
    const meetsThreshold = cmp(ratio(scoreH, 100), input.passThresholdQ) >= 0
    const passed = gatesPassed && floorsPassed && meetsThreshold
    const reason: WorkflowFailureReason | null = !gatesPassed
        ? 'hard_gate_failure'
        : !floorsPassed
          ? 'critical_floor_failure'
          : !meetsThreshold
            ? 'below_pass_threshold'
            : null
    const score = scoreH / 100
    trace.push({
        step: 'pass-decision',
        score,
        threshold: input.passThreshold,
        meetsThreshold,
        floorsPassed,
        gatesPassed,
        passed,
        reason
    })
    return { passed, reason }
}

/** Seed 004 §5.1, steps 1–6, over a checked input. */
export function computeWorkflow(input: ParsedWorkflowInput): WorkflowCore {
    const trace: WorkflowTraceStep[] = []
    // STEP 1: gates. The algorithm returns early on a failure; we keep going for diagnostics and apply
    // the override after the other steps, which gives the same grade and pass/fail.
    const gateFailures: WorkflowGateFailure[] = input.gates
        .filter((g) => !g.passed)
        .map((g) => ({ gate: g.gate, reason: g.reason === 'not-reported' ? 'not-reported' : 'reported-false' }))
    trace.push({ step: 'hard-gates', gates: input.gates, failed: gateFailures.length })

    const { normalized, floorFailures } = normaliseStep(input, trace)
    const weighted = aggregateStep(input, trace)
    const adjusted = weightedHundredths(input.criteria, (c) => c.adjusted ?? c.norm)
    const score = weighted.hundredths / 100

    // STEP 4: provisional band.
    const band = bandOf(weighted.hundredths)
    trace.push({ step: 'band', score, grade: band.grade, min: band.min })

    // STEP 5: floor cap at D.
    const capped = floorFailures.length > 0 ? worseGrade(band.grade, 'D') : band.grade
    trace.push({ step: 'floor-cap', failed: floorFailures.map((f) => f.criterion), before: band.grade, after: capped })

    // STEP 1 (applied): any failed gate forces F.
    const gatesPassed = gateFailures.length === 0
    const grade = gatesPassed ? capped : 'F'
    trace.push({ step: 'gate-override', applied: !gatesPassed, before: capped, after: grade })

    const { passed, reason } = passStep(input, weighted.hundredths, gatesPassed, floorFailures.length === 0, trace)
    return {
        input,
        scoreH: weighted.hundredths,
        adjustedScoreH: adjusted.hundredths,
        provisional: band.grade,
        grade,
        passed,
        reason,
        gateFailures,
        floorFailures,
        normalized,
        trace
    }
}

function fmt(x: number): string {
    return String(x)
}

function failedFloorNames(core: WorkflowCore): string {
    return core.floorFailures.map((f) => f.criterion).join(', ')
}

function gatesCheck(core: WorkflowCore): WorkflowPlacementCheck {
    return core.gateFailures.length === 0
        ? { check: 'hard-gates', status: 'pass', detail: `all hard gates pass (${core.input.gates.length})` }
        : { check: 'hard-gates', status: 'fail', detail: `failed: ${core.gateFailures.map((g) => g.gate).join(', ')}` }
}

function floorsCheck(core: WorkflowCore, floorCount: number): WorkflowPlacementCheck {
    return floorCount === 0
        ? { check: 'critical-floors', status: 'not-applicable', detail: 'no criterion has a critical floor' }
        : core.floorFailures.length === 0
          ? { check: 'critical-floors', status: 'pass', detail: `all critical floors pass (${floorCount})` }
          : { check: 'critical-floors', status: 'fail', detail: `missed: ${failedFloorNames(core)}` }
}

/** The smallest margin above a floor (negative when a floor is missed), or `null` without floors. */
function smallestFloorMargin(withFloors: readonly ParsedCriterion[]): Rational | null {
    return withFloors.reduce<Rational | null>((m, c) => {
        const margin = sub(c.norm, c.floor as Rational)
        return m === null || cmp(margin, m) < 0 ? margin : m
    }, null)
}

function marginCheck(minMargin: Rational | null): WorkflowPlacementCheck {
    return minMargin === null
        ? { check: 'floor-margin', status: 'not-applicable', detail: 'no criterion has a critical floor' }
        : cmp(minMargin, MARGIN_FOR_A) >= 0
          ? {
                check: 'floor-margin',
                status: 'pass',
                detail: `smallest margin above a floor is ${fmt(toNumber(minMargin))} (>= ${WORKFLOW_FLOOR_MARGIN_FOR_A})`
            }
          : cmp(minMargin, ZERO) >= 0
            ? {
                  check: 'floor-margin',
                  status: 'near-boundary',
                  detail: `smallest margin above a floor is ${fmt(toNumber(minMargin))} (< ${WORKFLOW_FLOOR_MARGIN_FOR_A})`
              }
            : {
                  check: 'floor-margin',
                  status: 'fail',
                  detail: `a floor is missed by ${fmt(toNumber(sub(ZERO, minMargin)))}`
              }
}

function judgeCheck(rate: number | null): WorkflowPlacementCheck {
    const WARNING = WORKFLOW_INCONSISTENCY_WARNING
    return rate === null
        ? { check: 'judge-agreement', status: 'not-assessed', detail: 'no judgeInconsistencyRate given' }
        : cmp(fromNumber(rate), WARNING_RATE) > 0
          ? { check: 'judge-agreement', status: 'fail', detail: `inconsistency rate ${rate} > ${WARNING}` }
          : { check: 'judge-agreement', status: 'pass', detail: `inconsistency rate ${rate} <= ${WARNING}` }
}

/** The notes that qualify an A (margin, judge agreement) or a D that no floor caused. */
function placementNotes(
    core: WorkflowCore,
    checks: readonly WorkflowPlacementCheck[],
    determinedBy: WorkflowPlacement['determinedBy']
): string[] {
    const notes: string[] = []
    const status = (name: WorkflowPlacementCheck['check']): WorkflowPlacementCheck['status'] =>
        (checks.find((c) => c.check === name) as WorkflowPlacementCheck).status
    if (core.grade === 'A' && status('floor-margin') === 'near-boundary') {
        notes.push(
            `The A band expects every floor passed with a margin of at least ${WORKFLOW_FLOOR_MARGIN_FOR_A}; the smallest margin is below that.`
        )
    }
    if (core.grade === 'A' && status('judge-agreement') === 'fail') {
        notes.push('The A band expects low judge disagreement; the inconsistency rate is above the warning threshold.')
    }
    if (core.grade === 'D' && determinedBy === 'score-band') {
        notes.push('No floor was missed: the D comes from the weighted score (material quality gaps).')
    }
    return notes
}

function placementSummary(
    core: WorkflowCore,
    range: string,
    floorCount: number,
    determinedBy: WorkflowPlacement['determinedBy']
): string {
    const score = formatScaled(BigInt(core.scoreH), 2)
    const floorsMet = core.floorFailures.length > 0 ? '' : floorCount > 0 ? ' and all critical floors met' : ''
    return determinedBy === 'hard-gate-failure'
        ? `F: release-blocking hard-gate failure (${core.gateFailures.map((g) => g.gate).join(', ')}); weighted score ${score} kept for diagnostics.`
        : determinedBy === 'floor-cap'
          ? `D: the weighted score ${score} is in the ${core.provisional} band, but a critical floor was missed (${failedFloorNames(core)}), which caps the grade at D.`
          : `${core.grade}: weighted score ${score} is in the ${range} band with all hard gates passing${floorsMet}.`
}

/** Explains the band with the checklist of seed 004 §5.2; never changes the grade. */
export function placementOf(core: WorkflowCore): WorkflowPlacement {
    const band = WORKFLOW_GRADE_BANDS.find((b) => b.grade === core.grade) as (typeof WORKFLOW_GRADE_BANDS)[number]
    const withFloors = core.input.criteria.filter((c) => c.floor !== null)
    const checks: WorkflowPlacementCheck[] = [
        gatesCheck(core),
        floorsCheck(core, withFloors.length),
        marginCheck(smallestFloorMargin(withFloors)),
        judgeCheck(core.input.judgeInconsistencyRate)
    ]
    const determinedBy =
        core.gateFailures.length > 0
            ? 'hard-gate-failure'
            : core.grade !== core.provisional
              ? 'floor-cap'
              : 'score-band'
    const notes = placementNotes(core, checks, determinedBy)
    const summary = placementSummary(core, band.range, withFloors.length, determinedBy)
    return { grade: core.grade, range: band.range, determinedBy, checks, notes, summary }
}

/** `WorkflowRubric.evaluate` without the class. */
export function evaluateWorkflow(input: unknown): WorkflowEvaluation {
    const parsed = parseWorkflowInput(input)
    if (parsed.value === null) {
        return {
            system: WORKFLOW_SYSTEM_VERSION,
            passed: null,
            grade: null,
            provisionalGrade: null,
            weightedScore: null,
            adjustedWeightedScore: null,
            reason: null,
            gateFailures: [],
            floorFailures: [],
            normalized: [],
            placement: null,
            trace: [],
            errors: parsed.errors
        }
    }
    const core = computeWorkflow(parsed.value)
    return {
        system: WORKFLOW_SYSTEM_VERSION,
        passed: core.passed,
        grade: core.grade,
        provisionalGrade: core.provisional,
        weightedScore: core.scoreH / 100,
        adjustedWeightedScore: core.adjustedScoreH / 100,
        reason: core.reason,
        gateFailures: core.gateFailures,
        floorFailures: core.floorFailures,
        normalized: core.normalized,
        placement: placementOf(core),
        trace: core.trace,
        errors: parsed.errors
    }
}
