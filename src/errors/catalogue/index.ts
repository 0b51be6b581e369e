import { GRADING_CODES } from './grading.js'
import { HASHING_CODES } from './hashing.js'
import { INPUT_CODES } from './input.js'
import { ISLAND_CODES } from './island.js'
import { NA_CODES } from './na-reason.js'
import { SCORING_CODES } from './scoring.js'
import { VERSION_CODES } from './version.js'
import { VETO_CODES } from './veto.js'

// One line per module group. Adding a group here is all it takes to register its codes.
export const CATALOGUE = Object.freeze({
    ...GRADING_CODES,
    ...SCORING_CODES,
    ...VETO_CODES,
    ...NA_CODES,
    ...HASHING_CODES,
    ...INPUT_CODES,
    ...VERSION_CODES,
    ...ISLAND_CODES
})

/** Every code the library can emit. */
export type ErrorCode = keyof typeof CATALOGUE
