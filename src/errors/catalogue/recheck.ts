import { defineCodes } from '../define.js'

/** Registry intake's re-check of an entry against the schema source it claims to grade. */
export const RECHECK_CODES = defineCodes({
    'RCK-001': [
        'error',
        'The answer to {questionId} ({kind}) is {found}, but recomputed from expect.source it is {expected}; a deterministic answer is what the code computes, whoever records it',
        'library intake: deterministic answers are recomputed'
    ],
    'RCK-002': [
        'error',
        'categoricalVeto {trigger} is not supported by expect.source: {detail}',
        'library intake: a computed veto is recomputed'
    ],
    'RCK-003': [
        'error',
        'expect.source carries a {trigger} veto ({evidence}), but the entry has none; a vetoed schema is REJECTED',
        'library intake: a computed veto is recomputed (01-model S1)'
    ]
})
