import { defineCodes } from '../define.js'

/** Fix items written as a SARIF 2.1.0 log (`Sarif.fromFixItems`). */
export const SARIF_CODES = defineCodes({
    'SRF-001': ['error', 'Required argument missing: {field}', 'library: argument check'],
    'SRF-002': ['error', 'Argument {field} must be {expected}, got {actual}', 'library: argument check'],
    'SRF-003': [
        'error',
        'At most {max} fix items are written into one log, got {count}',
        'library: bounded input cost'
    ],
    'SRF-004': [
        'warning',
        'Item {index} is {actual}, not a fix item object; it is left out of the log',
        'library: one bad item does not spoil the log'
    ],
    'SRF-005': [
        'warning',
        'Item {index}: {field} must be {expected}, got {actual}; the item is left out of the log',
        'SARIF 2.1.0 §3.27 a result needs a rule id, a level and a message'
    ],
    'SRF-006': [
        'warning',
        'Item {index}: {field} must be {expected}, got {actual}; the field is left out of the result',
        'SARIF 2.1.0 §3.30 region lines and columns are positive integers'
    ],
    'SRF-007': [
        'warning',
        '{count} more problems with items are not listed (the first {max} are); those items or fields are left out too',
        'library: one issue per wrong input, never one per item'
    ]
})
