import { defineCodes } from '../define.js'

/** The judge rubric, `judgeSystem/1.0.0` (seed 002: scoring methodology). */
export const JUDGE_CODES = defineCodes({
    'JDG-001': [
        'error',
        'Input is not plain JSON or exceeds the input limits: {detail}',
        'library: rubric input must be plain JSON'
    ],
    'JDG-002': ['error', 'Required field missing: {field}', 'library: argument check'],
    'JDG-003': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check'
    ],
    'JDG-004': [
        'error',
        'Score for {dimension} must be within 1-10, got {value}',
        'seed 002: dimensions are scored on a 1-10 scale'
    ],
    'JDG-005': ['error', 'Unknown dimension {field} (expected one of {expected})', 'seed 002: the seven dimensions'],
    'JDG-006': ['error', 'Weight for {dimension} must be within 0-1, got {value}', 'seed 002: custom weight overrides'],
    'JDG-007': [
        'error',
        'Custom weights must sum to 1.0 (tolerance {tolerance}), got {sum}',
        'seed 002: custom weights MUST sum to 100%'
    ],
    'JDG-008': [
        'error',
        'Number {value} at {field} is not accepted: {detail}',
        'library: -0 and magnitudes above 1e15 are rejected'
    ],
    'JDG-009': [
        'error',
        'Duplicate {kind} id {id} in the rubric document',
        'library: rubric red flags and bonuses have unique ids'
    ],
    'JDG-010': ['error', 'Unknown property {field} (not allowed here)', 'library: closed input shapes catch typos'],
    'JDG-WARN-001': [
        'warning',
        'Red flag {id} is listed more than once; it is counted once',
        'seed 002 deduction rule 5 (no double-counting)'
    ],
    'JDG-WARN-002': [
        'warning',
        'Bonus {id} is listed more than once; it is counted once',
        'seed 002 bonus rule 5 (each bonus once)'
    ]
})
