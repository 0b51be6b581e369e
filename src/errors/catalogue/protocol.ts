import { defineCodes } from '../define.js'

/** Scoring Protocol v1: prompts.json, scores.json and the grade report (04 §1, seed 001). */
export const PROTOCOL_CODES = defineCodes({
    'SPV-001': ['error', 'Required field missing: {field}', '04 §1.4 all fields of scores.json required (⚠ D3)'],
    'SPV-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        '04 §1.3/§1.4 field types'
    ],
    'SPV-003': [
        'error',
        'Unknown scoringProtocol {value} (this library reads v1 only)',
        '04 §1.1 reject unknown protocol versions'
    ],
    'SPV-004': ['error', 'Unknown dimension {value} (expected one of {expected})', '04 §1.2 transport dimensions'],
    'SPV-005': ['error', 'Dimension {dimension} has no score', '04 ⚠ D1 missing dimensions are rejected'],
    'SPV-006': ['error', 'Dimension {dimension} is scored more than once', '04 §1.7 one score per prompt'],
    'SPV-007': [
        'error',
        'Score {value} is outside 1.0-5.0 or not a finite number',
        '04 §1.2 scores are floats on 1.0-5.0'
    ],
    'SPV-008': [
        'error',
        'schemaId {value} must be <namespace>/<file-base> (exactly one /)',
        '04 §1.6 schema id convention'
    ],
    'SPV-009': [
        'error',
        'schemaIdSlug {actual} does not match the prompts ({expected})',
        '04 §1.4 schemaIdSlug must match the prompts file'
    ],
    'SPV-010': [
        'error',
        'The scores answer dimensions [{actual}] but the prompts ask [{expected}]',
        '04 §1.7 scores match the prompts'
    ],
    'SPV-011': ['error', 'Unknown property {field} (not allowed here)', '04 ⚠ D3 JSON Schema for scores.json'],
    'SPV-012': ['error', 'Field {field} must be an ISO 8601 date-time, got {value}', '04 §1.4 timestamp'],
    'SPV-013': [
        'error',
        'schema must be an object (the schema main export), got {actual}',
        '05 §2.1 buildEvalPrompts input'
    ],
    'SPV-014': ['error', 'schemaPath must be an absolute path, got {value}', '04 §1.3 schemaPath is absolute'],
    'SPV-015': ['error', 'Field {field} must not be empty', '04 §1.3/§1.4 field contents'],
    'SPV-016': [
        'error',
        'harness.name must be claude-code to become a grading answer, got {value}',
        '04 ⚠ D2 transport harness vs. entry harness'
    ],
    'SPV-017': [
        'error',
        'The prompts do not ask the two transport dimensions in order (whenToUse, parameters): [{actual}]',
        '05 §2.1 fixed dimension order'
    ],
    'SPV-018': [
        'error',
        'Report score {score} is not the mean of its dimension scores ({expected})',
        '05 §2.1 averageScore = sum / count'
    ],
    'SPV-019': [
        'error',
        'Report grade {grade} should be {expected} ({detail})',
        '05 §2.1 grade bands; F when the deterministic check did not pass'
    ],
    'SPV-020': [
        'error',
        'The prompts were emitted for {expected}, not for the schema given ({actual}): {detail}',
        '04 §1.7 scores match the prompts of this schema'
    ],
    'SPV-021': [
        'error',
        'scores.json is dated {value}, later than the time it is read ({now}); a score cannot be recorded in the future',
        'ch. 08 timestamps record when a grader answered (as GRD-061)'
    ],
    'SPV-WARN-001': [
        'warning',
        'A secret-shaped value was redacted from the prompts ({detail})',
        '04 ⚠ D9 no secrets in prompts'
    ]
})
