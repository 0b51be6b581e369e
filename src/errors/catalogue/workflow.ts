import { defineCodes } from '../define.js'

/** The workflow rubric, `workflowSystem/1.0.0` (seed 004: workflow scoring reference). */
export const WORKFLOW_CODES = defineCodes({
    'WFL-001': [
        'error',
        'Input is not plain JSON or exceeds the input limits: {detail}',
        'library: rubric input must be plain JSON'
    ],
    'WFL-002': ['error', 'Required field missing: {field}', 'library: argument check'],
    'WFL-003': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check'
    ],
    'WFL-004': ['error', 'Unknown formulaId {value} (expected one of {expected})', 'seed 004 §4.1 formula registry'],
    'WFL-005': [
        'error',
        'Raw score {value} is outside the domain of {formula}: {detail}',
        'seed 004 §4.1 normalisation domains'
    ],
    'WFL-006': ['error', 'Invalid parameters for {formula}: {detail}', 'seed 004 §4.1 lower-is-better SLO bounds'],
    'WFL-007': [
        'error',
        'Criterion weights sum to 0; at least one weight must be positive',
        'seed 004 §5.1 step 3 (division by sum of weights)'
    ],
    'WFL-008': ['error', 'Duplicate name {value}', 'library: criteria, gates and pairs are keyed by name'],
    'WFL-009': ['error', 'Reserved name {value} is not allowed for {field}', 'library: names become keys in results'],
    'WFL-010': [
        'error',
        'Give either criticalFloor (normalised 0..1) or rawCriticalFloor (raw scale), not both',
        'seed 004 §5 critical floors'
    ],
    'WFL-011': [
        'error',
        'rawCriticalFloor {value} cannot be normalised with {formula}: {detail}',
        'seed 004 §5/§7 floors on the raw scale'
    ],
    'WFL-012': [
        'error',
        'Number {value} at {field} is not accepted: {detail}',
        'library: -0 and magnitudes above 1e15 are rejected'
    ],
    'WFL-013': ['error', 'Unknown profile {value} (expected one of {expected})', 'seed 004 §6 profiles A-D'],
    'WFL-014': ['error', 'Value for {field} must be {expected}, got {value}', 'library: numeric ranges of options'],
    'WFL-015': [
        'error',
        'Rubric document violates the schema ({keyword}): {detail}',
        'seed 004 §7 rubric authoring standard'
    ],
    'WFL-016': [
        'error',
        'Scale {value} must be [min, max] integers with min < max and at most {limit} points',
        'seed 004 §7 scale'
    ],
    'WFL-017': [
        'error',
        'Anchor missing for score point {point} of scale {scale}',
        'seed 004 §7 anchors for each score point'
    ],
    'WFL-018': ['error', 'Anchor {point} lies outside the scale {scale}', 'seed 004 §7 anchors for each score point'],
    'WFL-019': [
        'error',
        'Criterion weights must sum to 1.0 (tolerance {tolerance}), got {sum}',
        'seed 004 §6/§7 weighted profiles'
    ],
    'WFL-020': ['error', 'critical_floor {value} lies outside the scale {scale}', 'seed 004 §7 critical_floor'],
    'WFL-021': ['error', 'Unknown property {field} (not allowed here)', 'library: closed input shapes catch typos'],
    'WFL-WARN-001': [
        'warning',
        'Raw score {value} for {criterion} is outside 0..1 and was clamped to {clamped}',
        'seed 004 §4.1 clamp(raw)'
    ],
    'WFL-WARN-002': [
        'warning',
        'Pairwise inconsistency rate {rate} is above the warning threshold {threshold}',
        'seed 004 §13 inconsistent pairwise judge rate > 0.10'
    ]
})
