import { compareJudge, rankJudge } from './compare.js'
import { evaluateJudge } from './evaluate.js'
import { validateJudgeRubric, type JudgeRubricValidation } from './rubric-document.js'
import type { JudgeComparison, JudgeEvaluateInput, JudgeEvaluation, JudgeRanking } from './types.js'

/**
 * The judge rubric of seed 002 (`judgeSystem/1.0.0`): a weighted composite of seven 1–10
 * dimensions, capped red-flag deductions and bonuses, a twelve-grade scale, the nine-step
 * tie-break order and a supplementary historical-consistency check. Pure and deterministic:
 * numbers are read as the decimals they spell and computed exactly.
 */
export class JudgeRubric {
    private constructor() {}

    /**
     * Scores one evaluation: composite → deductions (0.50 each, at most 2.00, floor 1.00) →
     * bonuses (0.25 each, at most 1.00, ceiling 10.00) → clamp → grade → historical check → report.
     * @param input - `{ scores, weights?, redFlags?, bonuses?, history? }`
     * @returns `{ system, compositeScore, deductions, bonuses, finalScore, grade, label, historicalFlags, report,
     *   trace, errors }`; values are `null` when an error is found. Codes: `JDG-001` not plain JSON, `JDG-002` missing
     *   field or dimension, `JDG-003` wrong type, `JDG-004` score outside 1–10, `JDG-005` unknown dimension, `JDG-006`
     *   weight outside 0–1, `JDG-007` weights not summing to 1, `JDG-008` -0 or |x| > 1e15, `JDG-010` unknown property;
     *   warnings `JDG-WARN-001`/`JDG-WARN-002` for repeated red flags/bonuses.
     * @example
     * JudgeRubric.evaluate({
     *     scores: {
     *         correctness: 9,
     *         completeness: 8,
     *         adherence: 9,
     *         actionability: 8,
     *         efficiency: 7,
     *         safety: 10,
     *         consistency: 9
     *     },
     *     redFlags: [{ id: 'no-tests', explanation: 'No tests were added' }]
     * }).finalScore // 8.05 (composite 8.55 − 0.50)
     */
    static evaluate(input: JudgeEvaluateInput): JudgeEvaluation {
        return evaluateJudge(input)
    }

    /**
     * Orders two evaluations: higher final score, then higher correctness, safety, completeness,
     * actionability, adherence, efficiency, consistency, then fewer red flags, then more bonuses.
     * @param input - `{ a, b }`, each an `evaluate` input
     * @returns `{ system, winner: 'a' | 'b' | 'equivalent', decidedBy, steps, errors }`; errors of either
     *   evaluation come back under `/a` or `/b` (all `evaluate` codes), plus `JDG-002`/`JDG-003`/`JDG-010`.
     * @example JudgeRubric.compare({ a, b }).decidedBy // 'safety' when scores and correctness tie
     */
    static compare(input: { a: JudgeEvaluateInput; b: JudgeEvaluateInput }): JudgeComparison {
        return compareJudge(input)
    }

    /**
     * Ranks evaluations best first with the same ordering as `compare`; equivalent ones share a rank.
     * @param input - `{ evaluations }`, a non-empty array of `evaluate` inputs
     * @returns `{ system, ranking: [{ index, rank, finalScore, grade, decidedBy }], errors }`; errors
     *   come back under `/evaluations/<i>` (all `evaluate` codes), plus `JDG-002`/`JDG-003`/`JDG-010`.
     * @example JudgeRubric.rank({ evaluations: [a, b, c] }).ranking?.map((r) => r.index)
     */
    static rank(input: { evaluations: readonly JudgeEvaluateInput[] }): JudgeRanking {
        return rankJudge(input)
    }

    /**
     * Checks a judge rubric document: `{ system?, rubric_id, version?, description?, weights?, red_flags?, bonuses? }`
     * with complete weights summing to 1.0 and unique red-flag and bonus ids.
     * @param input - `{ rubric }`
     * @returns `{ system, valid, errors }`; codes `JDG-001`–`JDG-010` with JSON Pointers into the input.
     * @example
     * JudgeRubric.validateRubric({
     *     rubric: { rubric_id: 'code-review', red_flags: [{ id: 'secrets', description: 'Secrets in code' }] }
     * }).valid // true
     */
    static validateRubric(input: { rubric: unknown }): JudgeRubricValidation {
        return validateJudgeRubric(input)
    }
}
