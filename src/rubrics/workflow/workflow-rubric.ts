import { compareWorkflowRuns, type WorkflowComparison, type WorkflowRunSummary } from './compare.js'
import { evaluateWorkflow } from './evaluate.js'
import {
    adjustWorkflow,
    normalizeWorkflow,
    profileWorkflow,
    type WorkflowAdjustment,
    type WorkflowNormalization,
    type WorkflowProfileResult
} from './normalize.js'
import {
    adjudicatePairwise,
    pairwiseOrder,
    type PairVerdict,
    type PairwiseAdjudication,
    type PairwiseOrderResult
} from './pairwise.js'
import { promoteWorkflow, type WorkflowPromotion, type WorkflowPromotionTolerances } from './promotion.js'
import { reportWorkflow, type WorkflowReportResult } from './reporting.js'
import { validateWorkflowRubric, type WorkflowRubricValidation } from './rubric-document.js'
import type { WorkflowFormulaId } from './constants.js'
import type { WorkflowProfileId } from './profiles.js'
import type { WorkflowEvaluateInput, WorkflowEvaluation, WorkflowRawScore } from './types.js'

/**
 * The workflow rubric of seed 004 (`workflowSystem/1.0.0`): hard gates that no score can override,
 * a normaliser registry, a weighted 0..100 score with A–F bands, critical floors that cap at D,
 * profiles A–D, rubric documents, bias-aware pairwise judging, a reporting bundle and a promotion
 * policy. Pure and deterministic: exact rational arithmetic, seeded randomness only.
 */
export class WorkflowRubric {
    private constructor() {}

    /**
     * Grades one run with the algorithm of seed 004 §5.1: gates → normalise → aggregate → band →
     * floor cap → gate override → pass/fail, plus the §5.2 placement explanation.
     * @param input - `{ hardGates, criteria, passThreshold?, requiredGates?, profile?, reliability?,
     *   judgeInconsistencyRate? }`
     * @returns `{ system, passed, grade, provisionalGrade, weightedScore, adjustedWeightedScore, reason, gateFailures,
     *   floorFailures, normalized, placement, trace, errors }`; values are `null` on error. Codes: `WFL-001` not plain
     *   JSON, `WFL-002` missing, `WFL-003` wrong type, `WFL-004` unknown formula, `WFL-005` raw out of domain,
     *   `WFL-006` bad SLO params, `WFL-007` zero weight sum, `WFL-008` duplicate name, `WFL-009` reserved name,
     *   `WFL-010` two floors, `WFL-011` raw floor not normalisable, `WFL-012` -0 or |x| > 1e15, `WFL-013` unknown
     *   profile, `WFL-014` option out of range, `WFL-021` unknown property; warning `WFL-WARN-001` when `clamp-0-1`
     *   clamps.
     * @example
     * WorkflowRubric.evaluate({
     *     hardGates: { schema_contract_valid: true },
     *     criteria: [{ name: 'correctness', rawScore: 4, formulaId: 'likert-1-5', weight: 1, category: 'correctness' }]
     * }).weightedScore // 75
     */
    static evaluate(input: WorkflowEvaluateInput): WorkflowEvaluation {
        return evaluateWorkflow(input)
    }

    /**
     * Normalises one raw value with a registry formula and, when a sample count is known, applies
     * the reliability adjustment `(n·norm + k·prior)/(n + k)`.
     * @param input - `{ formulaId, rawScore, params?, samples?, prior?, k? }`
     * @returns `{ system, formulaId, raw, normalized, adjusted, samples, errors }`; codes `WFL-002`–`WFL-006`,
     *   `WFL-012`, `WFL-014`, `WFL-021`, warning `WFL-WARN-001`.
     * @example
     * WorkflowRubric.normalize({ formulaId: 'lower-is-better', rawScore: 12, params: { good: 8, bad: 30 } }).normalized
     * // 0.8181…
     */
    static normalize(input: {
        formulaId: WorkflowFormulaId
        rawScore: WorkflowRawScore
        params?: { good: number; bad: number }
        samples?: number
        prior?: number
        k?: number
    }): WorkflowNormalization {
        return normalizeWorkflow(input)
    }

    /**
     * The reliability adjustment alone: `(n·normalized + k·prior)/(n + k)`, prior 0.5 and k 20 by default.
     * @param input - `{ normalized, n, prior?, k? }`
     * @returns `{ system, normalized, adjusted, n, prior, k, errors }`; codes `WFL-002`, `WFL-003`, `WFL-012`,
     *   `WFL-014`, `WFL-021`.
     * @example WorkflowRubric.adjust({ normalized: 1, n: 5 }).adjusted // 0.6
     */
    static adjust(input: { normalized: number; n: number; prior?: number; k?: number }): WorkflowAdjustment {
        return adjustWorkflow(input)
    }

    /**
     * Looks up a profile of seed 004 §6 (hard gates and default weights).
     * @param input - `{ id: 'swe' | 'dag' | 'rag' | 'agentic-tool-use' }`
     * @returns `{ system, profile, errors }`; codes `WFL-002`, `WFL-003`, `WFL-013`, `WFL-021`.
     * @example WorkflowRubric.profile({ id: 'rag' }).profile?.hardGates.map((g) => g.id)
     */
    static profile(input: { id: WorkflowProfileId }): WorkflowProfileResult {
        return profileWorkflow(input)
    }

    /**
     * Orders two runs: a score difference of at least `nearEqual` (1.0) decides; closer runs go to the
     * tie-breakers of §5.2: fewer gate failures, higher correctness, higher safety, lower p95 latency,
     * lower cost, and only then the residual score difference.
     * @param input - `{ a, b, nearEqual? }` with run summaries `{ weightedScore, gateFailures, correctness?, safety?,
     *   p95Latency?, cost? }`
     * @returns `{ system, winner, decidedBy, nearEqual, steps, errors }`; codes `WFL-002`, `WFL-003`, `WFL-012`,
     *   `WFL-014`, `WFL-021`.
     * @example
     * WorkflowRubric.compare({
     *     a: { weightedScore: 80.5, gateFailures: 0 },
     *     b: { weightedScore: 80, gateFailures: 1 }
     * }).decidedBy // 'gateFailures'
     */
    static compare(input: { a: WorkflowRunSummary; b: WorkflowRunSummary; nearEqual?: number }): WorkflowComparison {
        return compareWorkflowRuns(input)
    }

    /**
     * Seeded presentation order for pairwise judging (§8): each pair gets a random first candidate
     * and a swapped second pass. A tiny 32-bit generator, so the same seed gives the same order everywhere.
     * @param input - `{ pairs: string[] (ids), seed: uint32 }`
     * @returns `{ system, seed, orders: [{ id, forward, swapped }], errors }`; codes `WFL-002`, `WFL-003`, `WFL-008`,
     *   `WFL-012`, `WFL-014`, `WFL-021`.
     * @example WorkflowRubric.pairwiseOrder({ pairs: ['q1', 'q2'], seed: 42 }).orders?.[0]?.forward.first
     */
    static pairwiseOrder(input: { pairs: readonly string[]; seed: number }): PairwiseOrderResult {
        return pairwiseOrder(input)
    }

    /**
     * Swapped-order adjudication (§8): a pair whose two verdicts (in candidate terms) differ is
     * inconsistent and becomes a tie or a rerun; reports the inconsistency rate and warns above 0.10.
     * @param input - `{ judgments: [{ id, forward, swapped }], onInconsistent?: 'tie' | 'rerun', warningThreshold? }`
     * @returns `{ system, outcomes, total, inconsistent, inconsistencyRate, warningThreshold, warning, reruns, tally,
     *   errors }`; codes `WFL-002`, `WFL-003`, `WFL-008`, `WFL-012`, `WFL-014`, `WFL-021`, warning `WFL-WARN-002`.
     * @example
     * WorkflowRubric.adjudicatePairwise({ judgments: [{ id: 'q1', forward: 'a', swapped: 'b' }] }).outcomes?.[0]
     *     ?.outcome // 'tie'
     */
    static adjudicatePairwise(input: {
        judgments: ReadonlyArray<{ id: string; forward: PairVerdict; swapped: PairVerdict }>
        onInconsistent?: 'tie' | 'rerun'
        warningThreshold?: number
    }): PairwiseAdjudication {
        return adjudicatePairwise(input)
    }

    /**
     * The minimum reporting bundle of §10 over many runs: pass rate, weighted-score mean, standard
     * deviation, standard error and a seeded percentile-bootstrap 95% interval, gate failure rates
     * by gate, floor failure rates, per-criterion distributions and the top failure reasons.
     * @param input - `{ runs: evaluate inputs[], seed? (0), resamples? (2000), top? (10) }`
     * @returns `{ system, report, errors }`; run issues come back under `/runs/<i>` (all `evaluate` codes), plus
     *   `WFL-014`.
     * @example WorkflowRubric.report({ runs, seed: 7 }).report?.weightedScore.ci95
     */
    static report(input: {
        runs: readonly WorkflowEvaluateInput[]
        seed?: number
        resamples?: number
        top?: number
    }): WorkflowReportResult {
        return reportWorkflow(input)
    }

    /**
     * The promotion policy of §10: the candidate promotes only if its hard-gate failure rate is not
     * worse, its mean adjusted weighted score is non-inferior, no floor-failure rate rises and severe
     * validation/security failures do not increase — each within an explicit tolerance.
     * @param input - `{ candidate: runs[], baseline: runs[], tolerances?, severeGates? }`
     * @returns `{ system, promote, reasons, errors }`; run issues under `/candidate/<i>` and `/baseline/<i>`, plus
     *   `WFL-014`.
     * @example WorkflowRubric.promote({ candidate, baseline }).reasons.filter((r) => !r.holds)
     */
    static promote(input: {
        candidate: readonly WorkflowEvaluateInput[]
        baseline: readonly WorkflowEvaluateInput[]
        tolerances?: WorkflowPromotionTolerances
        severeGates?: readonly string[]
    }): WorkflowPromotion {
        return promoteWorkflow(input)
    }

    /**
     * Validates a rubric document against `schemas/workflow-rubric.schema.json` (ajv, draft 2020-12,
     * all errors) and the rules a schema cannot express.
     * @param input - `{ rubric }`
     * @returns `{ system, valid, errors }`, every defect with a JSON Pointer; codes `WFL-015` (schema),
     *   `WFL-016` scale, `WFL-017` missing anchor, `WFL-018` anchor outside the scale, `WFL-019` weight sum,
     *   `WFL-020` floor outside the scale, `WFL-008` duplicate name, plus `WFL-001`/`WFL-002`/`WFL-012`/`WFL-021`.
     * @example WorkflowRubric.validateRubric({ rubric }).errors.map((e) => e.path)
     */
    static validateRubric(input: { rubric: unknown }): WorkflowRubricValidation {
        return validateWorkflowRubric(input)
    }
}
