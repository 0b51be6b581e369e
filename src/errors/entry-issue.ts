import { BINDING_CODES } from './catalogue/binding.js'
import { GRADING_CODES } from './catalogue/grading.js'
import { INPUT_CODES } from './catalogue/input.js'
import { INTERNAL_CODES } from './catalogue/internal.js'
import { NA_CODES } from './catalogue/na-reason.js'
import { SCORING_CODES } from './catalogue/scoring.js'
import { VERSION_CODES } from './catalogue/version.js'
import { VETO_CODES } from './catalogue/veto.js'
import { issueFactory } from './issue.js'

/**
 * The groups of the catalogue that validating a grading entry can report: the entry, its scores, its
 * veto and n/a reasons, versions, external JSON and the boundary's own. The modules a registry
 * bundles to validate entries create their issues here, so that bundle holds these messages and not
 * the other three quarters of the catalogue (scripts/size.mjs measures it).
 */
const ENTRY_CODES = {
    ...GRADING_CODES,
    ...BINDING_CODES,
    ...SCORING_CODES,
    ...VETO_CODES,
    ...NA_CODES,
    ...VERSION_CODES,
    ...INPUT_CODES,
    ...INTERNAL_CODES
}

/** `createIssue` for the codes of {@link ENTRY_CODES}. */
export const createEntryIssue = /* @__PURE__ */ issueFactory(ENTRY_CODES)
