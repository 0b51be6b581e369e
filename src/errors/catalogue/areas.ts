import { defineCodes } from '../define.js'

/** The area catalogue and area outputs (the harness answer envelope, 02-areas and 04 §2). */
export const AREA_CODES = defineCodes({
    'ARE-001': ['error', 'Unknown area {value} (expected one of the eleven areas)', '02 §1 area catalogue'],
    'ARE-002': ['error', 'Required field missing: {field}', '04 §2 area output envelope'],
    'ARE-003': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        '04 §2 area output envelope'
    ],
    'ARE-004': ['error', 'Unknown property {field} (not allowed here)', '04 §2 envelope additionalProperties: false'],
    'ARE-005': ['error', 'Area output is for area {actual}, expected {expected}', '04 §2 area is constant per area'],
    'ARE-006': ['error', 'Area {area} needs exactly {expected} answers, got {actual}', '02 ⚠ B1 question sets'],
    'ARE-007': ['error', 'Question {value} does not belong to area {area}', '02 ⚠ B1 question sets'],
    'ARE-008': [
        'error',
        'Question {questionId} answered {count} times (each question exactly once)',
        '02 ⚠ B1 question sets'
    ],
    'ARE-009': ['error', 'Field {field} does not match the required format: {expected}', '04 §2 envelope patterns'],
    'ARE-010': ['error', 'Persona {detail}', '02 §10 persona-bearing areas'],
    'ARE-011': ['error', 'Context field missing: {field}', '04 §2 conversion: no silent defaults'],
    'ARE-012': [
        'error',
        'Context field {field} is invalid: expected {expected}, got {actual}',
        '04 §2 conversion: no silent defaults'
    ],
    'ARE-013': [
        'error',
        'Context {field} {expected} does not match the area output ({actual})',
        '04 §2 conversion: copy, never invent'
    ],
    'ARE-014': [
        'error',
        'Deterministic answer {value} is not a deterministic question of area {area}',
        '02 §1 deterministic block computed by code'
    ],
    'ARE-015': [
        'error',
        'Question {questionId} has more than one deterministic answer',
        '02 §1 deterministic block computed by code'
    ],
    'ARE-016': ['error', 'Unknown level {value} (expected one of {expected})', '06 §19.2 level ladder'],
    'ARE-017': ['error', 'Gate signal {field} missing for area {area}', '06 §19.3 dependency graph'],
    'ARE-018': ['error', 'The blocker reply is malformed: {detail}', '04 §2 blocker shortcut'],
    'ARE-019': [
        'error',
        'No grade can be computed from the answers ({reason}); there is no entry to write',
        '01-model §4 all-excluded gives no grade, never F'
    ],
    'ARE-020': [
        'error',
        'Area {area}: no answer for {missing}; the output answers every question code does not',
        '02 §1 deterministic block computed by code, the rest by the harness'
    ],
    'ARE-WARN-001': [
        'warning',
        'Deterministic question {questionId} was answered by the harness, not by code; recorded as non-deterministic',
        '02 §1 deterministic block computed by code'
    ],
    'ARE-INFO-001': [
        'info',
        'The code answer for {questionId} replaces the harness answer',
        '02 §1 deterministic-first'
    ],
    'GRD-030': [
        'error',
        'iteration must be an integer from 1 to {max}, was {value}',
        '04 ⚠ D6 MAX_ITERATIONS (reference GRD-030)'
    ],
    'GRD-031': [
        'error',
        'improvementHints must be an array of {targetField, suggestion, priority}: {detail}',
        '04 §2 improvementHints (reference GRD-031)'
    ]
})
