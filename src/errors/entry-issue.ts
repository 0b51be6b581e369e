import { BINDING_CODES } from './catalogue/binding.js'
import { GRADING_CODES } from './catalogue/grading.js'
import { INPUT_CODES } from './catalogue/input.js'
import { INTERNAL_CODES } from './catalogue/internal.js'
import { NA_CODES } from './catalogue/na-reason.js'
import { SCORING_CODES } from './catalogue/scoring.js'
import { VERSION_CODES } from './catalogue/version.js'
import { VETO_CODES } from './catalogue/veto.js'
import { issueFactory, type IssueParams } from './issue.js'
import type { ParamsArgs } from './params.js'
import { markInvisible } from './invisible.js'
import type { Issue } from './types.js'

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

const entryIssue = /* @__PURE__ */ issueFactory(ENTRY_CODES)

/**
 * `createIssue` for the codes of {@link ENTRY_CODES}. Every string param is shown with its invisible characters named
 * (`⟦U+202E⟧`): entry messages echo what a third party submitted, and a bidi override or a zero-width character
 * would make the message say something other than what the entry holds.
 */
export function createEntryIssue<C extends keyof typeof ENTRY_CODES>(
    code: C,
    path: string,
    ...[params = {}]: ParamsArgs<typeof ENTRY_CODES, C>
): Issue {
    let shown: IssueParams | null = null
    for (const [key, value] of Object.entries(params)) {
        if (typeof value !== 'string') continue
        const marked = markInvisible(value)
        if (marked !== value) shown = { ...(shown ?? params), [key]: marked }
    }
    return entryIssue(code as keyof typeof ENTRY_CODES, path, shown ?? params)
}
