/**
 * Every question id an entry may answer (01-model S8, ⚠ A25: the question catalogue is closed).
 * The catalogue's own ids follow `Q-<area>-<two digits>`; `test/grading/answer-rules.test.ts` fails
 * when this list and `src/areas/data/questions.json` differ.
 */
export const CATALOGUE_QUESTION_IDS = Object.freeze([
    'Q-single-test-01',
    'Q-single-test-02',
    'Q-single-test-03',
    'Q-single-test-04',
    'Q-single-test-05',
    'Q-single-test-06',
    'Q-single-test-07',
    'Q-single-test-08',
    'Q-single-test-09',
    'Q-single-test-10',
    'Q-tools-aggregate-schema-01',
    'Q-tools-aggregate-schema-02',
    'Q-tools-aggregate-schema-03',
    'Q-tools-aggregate-schema-04',
    'Q-tools-aggregate-schema-05',
    'Q-tools-aggregate-schema-06',
    'Q-tools-aggregate-namespace-01',
    'Q-tools-aggregate-namespace-02',
    'Q-tools-aggregate-namespace-03',
    'Q-tools-aggregate-namespace-04',
    'Q-tools-aggregate-namespace-05',
    'Q-namespace-description-01',
    'Q-namespace-description-02',
    'Q-namespace-description-03',
    'Q-namespace-description-04',
    'Q-namespace-skills-01',
    'Q-namespace-skills-02',
    'Q-namespace-skills-03',
    'Q-namespace-skills-04',
    'Q-namespace-skills-05',
    'Q-namespace-skills-06',
    'Q-about-namespace-01',
    'Q-about-namespace-02',
    'Q-about-namespace-03',
    'Q-about-namespace-04',
    'Q-about-namespace-05',
    'Q-about-namespace-06',
    'Q-about-namespace-07',
    'Q-about-selection-01',
    'Q-about-selection-02',
    'Q-about-selection-03',
    'Q-about-selection-04',
    'Q-about-selection-05',
    'Q-about-selection-06',
    'Q-about-selection-07',
    'Q-selection-skills-L1-01',
    'Q-selection-skills-L1-02',
    'Q-selection-skills-L1-03',
    'Q-selection-skills-L1-04',
    'Q-selection-skills-L2-01',
    'Q-selection-skills-L2-02',
    'Q-selection-skills-L2-03',
    'Q-selection-skills-L2-04',
    'Q-selection-skills-L2-05',
    'Q-selection-skills-L3-01',
    'Q-selection-skills-L3-02',
    'Q-selection-skills-L3-03',
    'Q-selection-skills-L3-04',
    'Q-selection-skills-L3-05',
    'Q-selection-skills-L3-06',
    'Q-selection-aggregate-01',
    'Q-selection-aggregate-02',
    'Q-selection-aggregate-03',
    'Q-selection-aggregate-04',
    'Q-selection-aggregate-05',
    'Q-selection-aggregate-06'
] as const)

/**
 * The dimensions of 01-model §11 that answers carry under their own `Q-<dimension>` id across
 * areas: those this library writes (`Q-api-availability`, `Q-security`, `Q-schema-structure`, the
 * scoring transport's `Q-when-to-use` and `Q-parameters`), the spec example's
 * `Q-description-neutrality`, and the two ToS questions with their aging windows.
 */
export const CROSS_AREA_QUESTION_IDS = Object.freeze([
    'Q-api-availability',
    'Q-security',
    'Q-schema-structure',
    'Q-when-to-use',
    'Q-parameters',
    'Q-description-neutrality',
    'Q-tos-match',
    'Q-legal-assessment'
] as const)

/** A question of one area's catalogue. */
export type CatalogueQuestionId = (typeof CATALOGUE_QUESTION_IDS)[number]
/** A dimension question answered across areas (01-model §11). */
export type CrossAreaQuestionId = (typeof CROSS_AREA_QUESTION_IDS)[number]
/** Every question id an entry may answer. */
export type QuestionId = CatalogueQuestionId | CrossAreaQuestionId

/** True when `value` is a question id of the catalogue or a cross-area question. */
export function isQuestionId(value: unknown): value is QuestionId {
    return (
        typeof value === 'string' &&
        ((CATALOGUE_QUESTION_IDS as readonly string[]).includes(value) ||
            (CROSS_AREA_QUESTION_IDS as readonly string[]).includes(value))
    )
}
