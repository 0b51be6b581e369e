import { defineCodes, RUN_NOTICE } from '../define.js'

/** The boundary of every public entry point: what escapes a function becomes one of these, never a throw. */
export const INTERNAL_CODES = defineCodes({
    'INT-001': [
        'error',
        'Internal error in {fn}: {detail}; nothing was produced',
        'library: never throws, by design',
        RUN_NOTICE
    ],
    'INT-002': [
        'error',
        'The input of {fn} could not be read: {detail}',
        'library: inputs are read once, inside a guard',
        RUN_NOTICE
    ]
})
