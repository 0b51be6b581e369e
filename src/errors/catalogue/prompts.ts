import { defineCodes } from '../define.js'

/**
 * PromptBuilder (reference meanings for PB-001..008, 06 §17), surfacing lines, prompts.json v2, task ids (06 §19.4).
 */
export const PROMPT_CODES = defineCodes({
    'PB-001': ['error', 'Missing required parameter: {field}', '06 §17 PromptBuilder input'],
    'PB-002': ['error', "Parameter '{field}' must be of type {expected}, got {actual}", '06 §17 PromptBuilder input'],
    'PB-003': ['error', "Parameter '{field}' must not be empty", '06 §17 PromptBuilder input'],
    'PB-004': ['error', 'Invalid area: {value}. Allowed: {expected}', '06 §17 VALID_AREAS'],
    'PB-005': ['error', "persona is required for area '{area}'", '02 §10 persona-bearing areas'],
    'PB-006': ['error', "Parameter 'persona.{field}' is invalid: {detail}", '02 §10 base personas and lenses'],
    'PB-007': [
        'error',
        'Goal condition is {length} characters long (limit {limit}, suffix included)',
        '04 §5 /goal condition at most 4000 characters'
    ],
    'PB-008': ['error', 'maxTurns must be a positive integer, got {value}', '04 §4 Goal-Block turn bound'],
    'PB-009': ['error', 'Questions do not match the catalogue of area {area}: {detail}', '02 ⚠ B1 question sets'],
    'PB-010': ['error', 'Not a [GRADING] line: {detail}', '04 §6 surfacing convention'],
    'PB-011': ['error', 'Surfacing line names an unknown area {value}', '04 §6 surfacing convention'],
    'PB-012': [
        'error',
        'Surfacing line has an invalid status {value} (expected a node status)',
        '04 §6 status is the node status'
    ],
    'PB-013': ['error', 'PROGRESS {done}/{total} is impossible: {detail}', '04 ⚠ D7 progress and done'],
    'PB-014': ['error', 'DONE {detail}', '04 ⚠ D7 DONE exactly once, only when done = total'],
    'PB-015': [
        'error',
        'Area {area} is a {side} area and cannot run in the {flow} flow',
        '02 §1 provider and selection areas are disjoint'
    ],
    'PB-016': [
        'error',
        'Area {area} is listed more than once: {detail}',
        '05 §1.6 emitted, skipped and gated areas are disjoint'
    ],
    'PB-017': [
        'error',
        'Persona {value} is not declared in the selection personaIds [{expected}]',
        '04 §3 persona obligation (selection gradings)'
    ],
    'PB-018': ['error', 'Field {field} must never be emitted (request data or key values)', '05 §1.6 F26, 04 ⚠ D9'],
    'PB-019': ['error', 'Invalid scores format: {detail}', '05 §1.6 scores.json: scores must be an array'],
    'PB-020': ['error', 'No open emit to verify against: {detail}', '05 §1.6 verifyConsumePayload step 2'],
    'PB-021': ['error', 'Area(s) not in the emitted set: {value}', '05 §1.6 verifyConsumePayload step 5'],
    'PB-022': [
        'error',
        'Per-area question-count mismatch: {area} (answered {actual} != asked {expected})',
        '05 §1.6 verifyConsumePayload step 6'
    ],
    'PB-023': [
        'error',
        'Invalid answer {value} for {questionId}: expected 1-5 or "n/a"',
        'peers: a malformed judge reply is an error, never a score'
    ],
    'PB-024': ['error', 'Invalid prompts.json v2: {detail}', '05 §1.6 prompts.json v2 shape'],
    'PB-025': ['error', 'Invalid state.json: {detail}', '04 ⚠ D8 / 05 §1.6 state.json'],
    'PB-026': ['error', 'Invalid scores payload field {field}: {detail}', '05 §1.6 scores.json areas[] shape'],
    'PB-WARN-001': ['warning', 'A secret-shaped value was redacted ({detail})', '04 ⚠ D9 no secrets in prompts'],
    'PB-WARN-002': [
        'warning',
        'Unresolved file placeholder {value} in area {area}',
        '06 §19.13 placeholder substitution'
    ],
    'PB-WARN-003': [
        'warning',
        'No PROGRESS line after the area line for {value}',
        '04 ⚠ D7 PROGRESS after every area line'
    ],
    'PB-WARN-004': [
        'warning',
        'No persona for a single grading (line 1 SHOULD name one)',
        '04 §3 persona obligation (single gradings)'
    ],
    'TID-001': ['error', 'Required field missing: {field}', '06 §19.4 TaskId'],
    'TID-002': ['error', 'Type mismatch for field {field}: expected {expected}, got {actual}', '06 §19.4 TaskId'],
    'TID-003': ['error', 'Parameter must not be empty: {field}', '06 §19.4 TaskId'],
    'TID-004': ['error', 'Invalid area: {value} (not in the area whitelist)', '06 §19.4 TaskId'],
    'TID-005': ['error', 'Hash computation failed: {detail}', '06 §19.4 TaskId'],
    'TID-006': ['error', "Malformed Task-ID (no '--' separator): {value}", '06 §19.4 TaskId'],
    'TID-007': ['error', 'Malformed area-set hash tail (not 8-hex): {value}', '06 §19.4 TaskId'],
    'TID-008': [
        'error',
        'Unknown taskId: {value} does not match the open emit ({expected})',
        '05 §1.6 verifyConsumePayload step 3'
    ]
})
