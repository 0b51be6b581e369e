import { defineCodes } from '../define.js'

/** The rubric dispatcher used by the CLI (`evaluateRubricInput`, `validateRubricDocument`). */
export const RUBRIC_CODES = defineCodes({
    'RUB-001': [
        'error',
        'Unknown or missing rubric system {value} (expected one of {expected})',
        'library: rubric inputs name their system version'
    ],
    'RUB-002': ['error', 'Rubric {field} must be an object, got {actual}', 'library: rubric inputs are JSON objects'],
    'RUB-003': ['error', 'Unknown property {field} (not allowed here)', 'library: closed input shapes catch typos']
})
