import { SEVERITY } from '../../model/constants.js'
import * as v from 'valibot'
import { createIssue, rebaseIssues } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { parseArgs } from '../../validation/args.js'
import { guardInput, unknownKeys } from '../shared/guard.js'
import { createPrng } from '../shared/prng.js'
import { ratio, toNumber } from '../shared/rational.js'
import { WORKFLOW_SYSTEM_VERSION, type WorkflowGrade } from './constants.js'
import { computeWorkflow, type WorkflowCore } from './evaluate.js'
import { parseWorkflowInput, rangeIssue, WORKFLOW_ARGS, WORKFLOW_GUARD, type ParsedCriterion } from './parse.js'

/** Defaults of the bootstrap interval. */
export const WORKFLOW_BOOTSTRAP_DEFAULTS = Object.freeze({ seed: 0, resamples: 2000, top: 10 })

/** A failure rate with its counts. */
export interface WorkflowRate {
    readonly failures: number
    /** Runs in which the gate (or floor) was evaluated. */
    readonly evaluated: number
    readonly rate: number
}

/** The distribution of one criterion's normalised values across runs. */
export interface WorkflowCriterionDistribution {
    readonly name: string
    readonly count: number
    readonly mean: number
    /** Sample standard deviation (n − 1); `null` for fewer than 2 values. */
    readonly stdDev: number | null
    readonly min: number
    readonly median: number
    readonly max: number
    /** Counts in [0, 0.2), [0.2, 0.4), [0.4, 0.6), [0.6, 0.8), [0.8, 1]. */
    readonly histogram: readonly [number, number, number, number, number]
}

/** The minimum reporting bundle of seed 004 §10, plus standard error and a bootstrap interval. */
export interface WorkflowReportBundle {
    readonly runs: number
    readonly passRate: number
    readonly grades: Readonly<Record<WorkflowGrade, number>>
    readonly weightedScore: {
        readonly mean: number
        /** Sample standard deviation (n − 1); `null` for a single run. */
        readonly stdDev: number | null
        /** `stdDev / √n`; `null` for a single run. */
        readonly standardError: number | null
        /** Percentile bootstrap 95% interval of the mean; `null` for a single run. */
        readonly ci95: {
            readonly lower: number
            readonly upper: number
            readonly method: 'percentile-bootstrap'
            readonly resamples: number
            readonly seed: number
        } | null
    }
    /** Mean of the reliability-adjusted weighted scores (used by the promotion policy). */
    readonly adjustedWeightedScoreMean: number
    /** Share of runs with at least one failed hard gate. */
    readonly hardGateFailureRate: number
    readonly gateFailureRates: ReadonlyArray<{ readonly gate: string } & WorkflowRate>
    readonly floorFailureRates: ReadonlyArray<{ readonly criterion: string } & WorkflowRate>
    readonly criteria: readonly WorkflowCriterionDistribution[]
    readonly topFailureReasons: ReadonlyArray<{ readonly reason: string; readonly count: number }>
}

/** The result of `WorkflowRubric.report`. */
export interface WorkflowReportResult {
    readonly system: string
    readonly report: WorkflowReportBundle | null
    readonly errors: readonly Issue[]
}

const REPORT = v.object({
    runs: v.pipe(v.array(v.unknown()), v.minLength(1)),
    seed: v.optional(v.number()),
    resamples: v.optional(v.number()),
    top: v.optional(v.number())
})

/** Evaluates every run; issues come back under `<base>/<i>`. */
export function evaluateRuns(
    runs: readonly unknown[],
    base: string
): { cores: WorkflowCore[] | null; errors: Issue[] } {
    const cores: WorkflowCore[] = []
    const errors: Issue[] = []
    runs.forEach((run, i) => {
        const parsed = parseWorkflowInput(run)
        errors.push(...rebaseIssues(parsed.errors, base + pointer(i)))
        if (parsed.value !== null) cores.push(computeWorkflow(parsed.value))
    })
    return errors.some((e) => e.severity === SEVERITY.error) ? { cores: null, errors } : { cores, errors }
}

function byName<T>(map: Map<string, T>): Array<[string, T]> {
    // Code-unit order, not localeCompare: the same bytes on every engine and locale.
    return [...map.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
}

function sampleStdDev(values: readonly number[], mean: number): number | null {
    if (values.length < 2) return null
    let squares = 0
    for (const x of values) squares += (x - mean) * (x - mean)
    return Math.sqrt(squares / (values.length - 1))
}

function quantileRank(resamples: number, perMille: number): number {
    // Nearest-rank percentile: the ceil(p·B)-th smallest value, in integers (no 0.025 in binary).
    return Math.floor((perMille * resamples + 999) / 1000) - 1
}

function bootstrap(hundredths: readonly number[], seed: number, resamples: number): { lower: number; upper: number } {
    const n = hundredths.length
    const prng = createPrng(seed)
    const means = new Float64Array(resamples)
    for (let r = 0; r < resamples; r += 1) {
        let total = 0
        for (let i = 0; i < n; i += 1) total += hundredths[prng.below(n)] as number
        means[r] = total / (100 * n)
    }
    means.sort()
    return { lower: means[quantileRank(resamples, 25)] as number, upper: means[quantileRank(resamples, 975)] as number }
}

function rateOf(failures: number, evaluated: number): WorkflowRate {
    return { failures, evaluated, rate: toNumber(ratio(failures, evaluated)) }
}

/** Sample standard deviation of scores in hundredths, or `null` with fewer than two runs. */
function scoreStdDev(scores: readonly number[]): number | null {
    const n = scores.length
    if (n < 2) return null
    // Variance from integer hundredths: (nΣh² − (Σh)²) / (n(n − 1)) / 100², exact in BigInt.
    const big = scores.map(BigInt)
    const s1 = big.reduce((s, h) => s + h, 0n)
    const s2 = big.reduce((s, h) => s + h * h, 0n)
    const variance = ratio(BigInt(n) * s2 - s1 * s1, BigInt(n) * BigInt(n - 1) * 10000n)
    return Math.sqrt(toNumber(variance))
}

type Counts = { failures: number; evaluated: number }
type BinnedValue = { x: number; bin: number }

/** Per-gate and per-floor failure counts, each criterion's values with their histogram bins, and failure reasons. */
interface RunTally {
    readonly gates: Map<string, Counts>
    readonly floors: Map<string, Counts>
    readonly values: Map<string, BinnedValue[]>
    readonly reasons: Map<string, number>
}

function tallyRuns(cores: readonly WorkflowCore[]): RunTally {
    const gates = new Map<string, Counts>()
    const floors = new Map<string, Counts>()
    const values = new Map<string, BinnedValue[]>()
    const reasons = new Map<string, number>()
    const bump = (reason: string): void => {
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
    }
    for (const core of cores) {
        for (const g of core.input.gates) {
            const entry = gates.get(g.gate) ?? { failures: 0, evaluated: 0 }
            gates.set(g.gate, { failures: entry.failures + (g.passed ? 0 : 1), evaluated: entry.evaluated + 1 })
            if (!g.passed) bump(`gate:${g.gate}`)
        }
        core.normalized.forEach((c, i) => {
            // Bin from the exact value, so 0.6 lands in [0.6, 0.8) and not in a binary-rounded neighbour.
            const q = (core.input.criteria[i] as ParsedCriterion).norm
            const bin = Math.min(4, Number((q.n * 5n) / q.d))
            const list = values.get(c.name) ?? []
            list.push({ x: c.normalized, bin })
            values.set(c.name, list)
            if (c.criticalFloor !== null) {
                const entry = floors.get(c.name) ?? { failures: 0, evaluated: 0 }
                floors.set(c.name, {
                    failures: entry.failures + (c.floorFailed ? 1 : 0),
                    evaluated: entry.evaluated + 1
                })
                if (c.floorFailed) bump(`floor:${c.name}`)
            }
        })
        if (core.trace.some((s) => s.step === 'pass-decision' && !s.meetsThreshold)) bump('below_pass_threshold')
    }
    return { gates, floors, values, reasons }
}

function criterionDistribution(name: string, entries: readonly BinnedValue[]): WorkflowCriterionDistribution {
    const list = entries.map((e) => e.x)
    const sorted = [...list].sort((x, y) => x - y)
    const m = list.reduce((s, x) => s + x, 0) / list.length
    const mid = sorted.length >> 1
    const median =
        sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
    const histogram: [number, number, number, number, number] = [0, 0, 0, 0, 0]
    for (const e of entries) histogram[e.bin] = (histogram[e.bin] as number) + 1
    return {
        name,
        count: list.length,
        mean: m,
        stdDev: sampleStdDev(list, m),
        min: sorted[0] as number,
        median,
        max: sorted[sorted.length - 1] as number,
        histogram
    }
}

/** Builds the bundle from evaluated runs. `withInterval: false` skips the bootstrap (promotion needs no interval). */
export function buildBundle(
    cores: readonly WorkflowCore[],
    options: { seed: number; resamples: number; top: number; withInterval: boolean }
): WorkflowReportBundle {
    const n = cores.length
    const scores = cores.map((c) => c.scoreH)
    const sumH = scores.reduce((s, h) => s + h, 0)
    const mean = sumH / (100 * n)
    const stdDev = scoreStdDev(scores)
    const interval = options.withInterval && n >= 2 ? bootstrap(scores, options.seed, options.resamples) : null
    const { gates, floors, values, reasons } = tallyRuns(cores)

    const grades: Record<WorkflowGrade, number> = { A: 0, B: 0, C: 0, D: 0, F: 0 }
    for (const core of cores) grades[core.grade] += 1

    const criteria = byName(values).map(([name, entries]) => criterionDistribution(name, entries))

    return {
        runs: n,
        passRate: toNumber(ratio(cores.filter((c) => c.passed).length, n)),
        grades,
        weightedScore: {
            mean,
            stdDev,
            standardError: stdDev === null ? null : stdDev / Math.sqrt(n),
            ci95:
                interval === null
                    ? null
                    : { ...interval, method: 'percentile-bootstrap', resamples: options.resamples, seed: options.seed }
        },
        adjustedWeightedScoreMean: cores.reduce((s, c) => s + c.adjustedScoreH, 0) / (100 * n),
        hardGateFailureRate: toNumber(ratio(cores.filter((c) => c.gateFailures.length > 0).length, n)),
        gateFailureRates: byName(gates).map(([gate, r]) => ({ gate, ...rateOf(r.failures, r.evaluated) })),
        floorFailureRates: byName(floors).map(([criterion, r]) => ({ criterion, ...rateOf(r.failures, r.evaluated) })),
        criteria,
        topFailureReasons: [...reasons.entries()]
            .sort(([x, cx], [y, cy]) => cy - cx || (x < y ? -1 : x > y ? 1 : 0))
            .slice(0, options.top)
            .map(([reason, count]) => ({ reason, count }))
    }
}

/** `WorkflowRubric.report` without the class. */
export function reportWorkflow(input: unknown): WorkflowReportResult {
    const failed = (errors: Issue[]): WorkflowReportResult => ({
        system: WORKFLOW_SYSTEM_VERSION,
        report: null,
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return failed(guarded.errors)
    const errors: Issue[] = unknownKeys(guarded.value, ['runs', 'seed', 'resamples', 'top'], '').map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    const args = parseArgs(REPORT, guarded.value, WORKFLOW_ARGS)
    if (args.value === null) return failed([...errors, ...args.errors])
    const seed = args.value.seed ?? WORKFLOW_BOOTSTRAP_DEFAULTS.seed
    const resamples = args.value.resamples ?? WORKFLOW_BOOTSTRAP_DEFAULTS.resamples
    const top = args.value.top ?? WORKFLOW_BOOTSTRAP_DEFAULTS.top
    errors.push(
        ...rangeIssue(
            Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff,
            '/seed',
            'seed',
            'an integer in 0..4294967295',
            seed
        )
    )
    errors.push(
        ...rangeIssue(
            Number.isInteger(resamples) && resamples >= 1 && resamples <= 100000,
            '/resamples',
            'resamples',
            'an integer in 1..100000',
            resamples
        )
    )
    errors.push(
        ...rangeIssue(Number.isInteger(top) && top >= 1 && top <= 1000, '/top', 'top', 'an integer in 1..1000', top)
    )
    // The bootstrap draws indices below 2^21 exactly; more runs than that is not a realistic report.
    errors.push(
        ...rangeIssue(
            args.value.runs.length <= 2 ** 21,
            '/runs',
            'runs',
            'at most 2097152 runs',
            args.value.runs.length
        )
    )
    if (errors.length > 0) return failed(errors)
    const { cores, errors: runErrors } = evaluateRuns(args.value.runs, '/runs')
    if (cores === null) return failed(runErrors)
    return {
        system: WORKFLOW_SYSTEM_VERSION,
        report: buildBundle(cores, { seed, resamples, top, withInterval: true }),
        errors: runErrors
    }
}
