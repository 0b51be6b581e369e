import type { Area } from '../model/constants.js'

/**
 * The facts about each catalogue question the answer rules need, per area in catalogue order:
 * `[deterministic (1) or not (0), weight]`; the question of position i is `Q-<area>-<i+1, two digits>`.
 * A compact copy of `src/areas/data/questions.json`, so entry validation does not carry the question
 * texts (about 10 KB gzip) into a bundle that only validates entries.
 * `test/grading/answer-rules.test.ts` fails when it differs from the catalogue.
 */
export const QUESTION_INDEX_VERSION = '1.1.0'

export const QUESTION_INDEX: Readonly<Record<Area, ReadonlyArray<readonly [deterministic: 0 | 1, weight: number]>>> = {
    'single-test': [[1, 0.34], [1, 0.33], [1, 0.33], [0, 0.34], [0, 0.33], [0, 0.33], [0, 0.25], [0, 0.25], [0, 0.25], [0, 0.25]],
    'tools-aggregate-schema': [[1, 0.25], [0, 0.25], [0, 0.25], [0, 0.25], [0, 0.5], [0, 0.5]],
    'tools-aggregate-namespace': [[1, 0.2], [0, 0.2], [0, 0.2], [0, 0.2], [0, 0.2]],
    'about-namespace': [[1, 0.34], [0, 0.33], [0, 0.33], [0, 0.25], [0, 0.25], [0, 0.25], [0, 0.25]],
    'about-selection': [[1, 0.34], [0, 0.33], [0, 0.33], [0, 0.25], [0, 0.25], [0, 0.25], [0, 0.25]],
    'namespace-description': [[0, 0.25], [0, 0.25], [0, 0.25], [0, 0.25]],
    'selection-skills-L1': [[0, 0.5], [0, 0.5], [0, 0.5], [0, 0.5]],
    'selection-skills-L2': [[0, 0.5], [0, 0.5], [0, 0.34], [0, 0.33], [0, 0.33]],
    'selection-skills-L3': [[0, 0.34], [0, 0.33], [0, 0.33], [0, 0.34], [0, 0.33], [0, 0.33]],
    'namespace-skills': [[0, 0.34], [0, 0.33], [0, 0.33], [0, 0.34], [0, 0.33], [0, 0.33]],
    'selection-aggregate': [[1, 0.5], [0, 0.25], [0, 0.25], [0, 0.25], [0, 0.25], [1, 0.5]]
}

/** One catalogue question as the answer rules see it. */
export interface IndexedQuestion {
    readonly id: string
    readonly area: Area
    readonly deterministic: boolean
    readonly weight: number
}

/** Every catalogue question, area by area in catalogue order. */
export function indexedQuestions(): IndexedQuestion[] {
    return (Object.keys(QUESTION_INDEX) as Area[]).flatMap((area) =>
        QUESTION_INDEX[area].map(([det, weight], i) => ({ id: `Q-${area}-${String(i + 1).padStart(2, '0')}`, area, deterministic: det === 1, weight }))
    )
}
