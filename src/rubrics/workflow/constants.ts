/** The workflow rubric's version string; it appears as `system` in every workflow result. */
export const WORKFLOW_SYSTEM_VERSION = 'workflowSystem/1.0.0'

/** The normaliser registry's ids (seed 004 §4.1). */
export const WORKFLOW_FORMULA_IDS = Object.freeze([
    'binary',
    'likert-1-5',
    'likert-neg2-2',
    'pairwise-ties',
    'lower-is-better',
    'clamp-0-1',
    'swe-fail-to-pass',
    'swe-pass-to-pass'
] as const)

/** One normaliser id. */
export type WorkflowFormulaId = (typeof WORKFLOW_FORMULA_IDS)[number]

/** Criterion categories; `correctness`, `safety` and `validation` carry default critical floors. */
export const WORKFLOW_CATEGORIES = Object.freeze(['correctness', 'safety', 'validation', 'other'] as const)

/** A criterion category. */
export type WorkflowCategory = (typeof WORKFLOW_CATEGORIES)[number]

/** Default critical floors on the normalised 0..1 scale (seed 004 §5, §13). */
export const WORKFLOW_DEFAULT_FLOORS: Readonly<Record<'correctness' | 'safety' | 'validation', number>> = Object.freeze(
    {
        correctness: 0.7,
        safety: 0.8,
        validation: 0.8
    }
)

/** Default pass threshold on the 0..100 scale (seed 004 §5.1, §13). */
export const WORKFLOW_DEFAULT_PASS_THRESHOLD = 70

/** Reliability shrinkage prior: `(n·norm + k·prior) / (n + k)` (seed 004 §4.1). */
export const WORKFLOW_DEFAULT_PRIOR = 0.5
/** Reliability shrinkage strength `k` (seed 004 §4.1). */
export const WORKFLOW_DEFAULT_K = 20

/** Letter grades of the workflow rubric. */
export type WorkflowGrade = 'A' | 'B' | 'C' | 'D' | 'F'

/** Grade bands on the rounded 0..100 score: lower bound inclusive (seed 004 §5). */
export const WORKFLOW_GRADE_BANDS: ReadonlyArray<{
    readonly grade: WorkflowGrade
    readonly min: number
    readonly range: string
}> = Object.freeze([
    Object.freeze({ grade: 'A' as const, min: 90, range: '90-100' }),
    Object.freeze({ grade: 'B' as const, min: 80, range: '80-89.99' }),
    Object.freeze({ grade: 'C' as const, min: 70, range: '70-79.99' }),
    Object.freeze({ grade: 'D' as const, min: 60, range: '60-69.99' }),
    Object.freeze({ grade: 'F' as const, min: 0, range: '<60' })
])

/** The margin above a floor that §5.2 expects for an A. */
export const WORKFLOW_FLOOR_MARGIN_FOR_A = 0.1

/** Scores closer than this (on 0..100) are near-equal and go to the tie-breakers (§5.2). */
export const WORKFLOW_NEAR_EQUAL = 1

/** Pairwise judging: the inconsistency rate above which a warning is raised (§13). */
export const WORKFLOW_INCONSISTENCY_WARNING = 0.1

/** Weights of a rubric document may differ from 1.0 by at most this (inclusive, exact decimals). */
export const WORKFLOW_WEIGHT_TOLERANCE = 0.000001
