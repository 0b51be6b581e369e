import { defineCodes } from '../define.js'

/** `n/a` reasons (spec chapter 08). */
export const NA_CODES = defineCodes({
    'NA-001': ['error', 'naReason missing or outside closed-set: {detail}', 'ch. 08 naReason closed set']
})
