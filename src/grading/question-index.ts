import type { Area } from '../model/constants.js'
import type { CatalogueQuestionId, CrossAreaQuestionId } from '../model/question-ids.js'

/**
 * The facts about each catalogue question the answer rules need, per area in catalogue order:
 * `[deterministic (1) or not (0), weight]`; the question of position i is `Q-<area>-<i+1, two digits>`.
 * A compact copy of `src/areas/data/questions.json`, so entry validation does not carry the question
 * texts (about 10 KB gzip) into a bundle that only validates entries.
 * `test/grading/answer-rules.test.ts` fails when it differs from the catalogue.
 */
export const QUESTION_INDEX_VERSION = '1.1.0'

export const QUESTION_INDEX: Readonly<Record<Area, ReadonlyArray<readonly [deterministic: 0 | 1, weight: number]>>> = {
    'single-test': [
        [1, 0.34],
        [1, 0.33],
        [1, 0.33],
        [0, 0.34],
        [0, 0.33],
        [0, 0.33],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25]
    ],
    'tools-aggregate-schema': [
        [1, 0.25],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25],
        [0, 0.5],
        [0, 0.5]
    ],
    'tools-aggregate-namespace': [
        [1, 0.2],
        [0, 0.2],
        [0, 0.2],
        [0, 0.2],
        [0, 0.2]
    ],
    'about-namespace': [
        [1, 0.34],
        [0, 0.33],
        [0, 0.33],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25]
    ],
    'about-selection': [
        [1, 0.34],
        [0, 0.33],
        [0, 0.33],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25]
    ],
    'namespace-description': [
        [0, 0.25],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25]
    ],
    'selection-skills-L1': [
        [0, 0.5],
        [0, 0.5],
        [0, 0.5],
        [0, 0.5]
    ],
    'selection-skills-L2': [
        [0, 0.5],
        [0, 0.5],
        [0, 0.34],
        [0, 0.33],
        [0, 0.33]
    ],
    'selection-skills-L3': [
        [0, 0.34],
        [0, 0.33],
        [0, 0.33],
        [0, 0.34],
        [0, 0.33],
        [0, 0.33]
    ],
    'namespace-skills': [
        [0, 0.34],
        [0, 0.33],
        [0, 0.33],
        [0, 0.34],
        [0, 0.33],
        [0, 0.33]
    ],
    'selection-aggregate': [
        [1, 0.5],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25],
        [0, 0.25],
        [1, 0.5]
    ]
}

/** One catalogue question as the answer rules see it. */
export interface IndexedQuestion {
    readonly id: CatalogueQuestionId
    readonly area: Area
    readonly deterministic: boolean
    readonly weight: number
}

/** Every catalogue question, area by area in catalogue order. */
export function indexedQuestions(): IndexedQuestion[] {
    return (Object.keys(QUESTION_INDEX) as Area[]).flatMap((area) =>
        QUESTION_INDEX[area].map(([det, weight], i) => ({
            id: `Q-${area}-${String(i + 1).padStart(2, '0')}` as CatalogueQuestionId,
            area,
            deterministic: det === 1,
            weight
        }))
    )
}

/**
 * How a cross-area question may be answered: by code, by a judge, or either (the security audit is both, 01-model §11).
 */
export type CrossAreaDeterminism = 'deterministic' | 'non-deterministic' | 'either'

/** One cross-area question: the areas whose entries may carry it, its determinism and its weight. */
export interface CrossAreaQuestion {
    readonly areas: readonly Area[]
    readonly determinism: CrossAreaDeterminism
    readonly weight: number
}

/**
 * The cross-area questions of 01-model §11 (`CROSS_AREA_QUESTION_IDS`): the areas that carry each
 * dimension, as the spec's table and this library's writers place them. Every weight is `1`, the
 * weight this library writes for them (`DEFAULT_EXTRA_WEIGHTS`, the scoring transport). Changing
 * this table is a gradingSystem bump.
 */
export const CROSS_AREA_QUESTIONS: Readonly<Record<CrossAreaQuestionId, CrossAreaQuestion>> = Object.freeze({
    'Q-api-availability': { areas: ['single-test'], determinism: 'deterministic', weight: 1 },
    'Q-security': { areas: ['single-test', 'tools-aggregate-schema'], determinism: 'either', weight: 1 },
    'Q-schema-structure': { areas: ['tools-aggregate-schema'], determinism: 'deterministic', weight: 1 },
    'Q-when-to-use': { areas: ['single-test', 'tools-aggregate-schema'], determinism: 'non-deterministic', weight: 1 },
    'Q-parameters': { areas: ['single-test', 'tools-aggregate-schema'], determinism: 'non-deterministic', weight: 1 },
    'Q-description-neutrality': {
        areas: ['single-test', 'tools-aggregate-schema'],
        determinism: 'deterministic',
        weight: 1
    },
    'Q-tos-match': { areas: ['namespace-description'], determinism: 'deterministic', weight: 1 },
    'Q-legal-assessment': { areas: ['namespace-description'], determinism: 'non-deterministic', weight: 1 }
} satisfies Record<CrossAreaQuestionId, CrossAreaQuestion>)
