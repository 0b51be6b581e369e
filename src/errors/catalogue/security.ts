import { defineCodes } from '../define.js'

/**
 * Static security scan findings (05 §2.4 SEC001–SEC014, 02 §13 key hygiene) and the key-domain /
 * registrable-domain checks (02 §12, §13 (3)). Finding codes name a pattern; whether a finding is
 * veto evidence is the finding's `vetoClass`, not the code's severity.
 */
export const SECURITY_CODES = defineCodes({
    'SEC-001': [
        'error',
        'Forbidden pattern "import" (static, dynamic or re-export) at line {line}',
        '05 §2.4 SEC001; 02 §13 imports'
    ],
    'SEC-002': ['error', 'Forbidden pattern "require(" at line {line}', '05 §2.4 SEC002'],
    'SEC-003': ['error', 'Forbidden pattern "eval" at line {line}', '05 §2.4 SEC003'],
    'SEC-004': ['error', 'Forbidden pattern "Function(" (Function constructor) at line {line}', '05 §2.4 SEC004'],
    'SEC-005': ['error', 'Forbidden pattern "new Function" at line {line}', '05 §2.4 SEC005'],
    'SEC-006': ['error', 'Forbidden pattern: member access on process at line {line}', '05 §2.4 SEC006'],
    'SEC-007': ['error', 'Forbidden pattern "child_process" at line {line}', '05 §2.4 SEC007'],
    'SEC-008': ['error', 'Forbidden pattern "fs." at line {line}', '05 §2.4 SEC008'],
    'SEC-009': ['error', 'Forbidden pattern "node:fs" at line {line}', '05 §2.4 SEC009'],
    'SEC-010': ['error', 'Forbidden pattern "fs/promises" at line {line}', '05 §2.4 SEC010'],
    'SEC-011': ['error', 'Forbidden pattern "globalThis." / "globalThis[" at line {line}', '05 §2.4 SEC011'],
    'SEC-012': ['error', 'Forbidden pattern "global." / "global[" at line {line}', '05 §2.4 SEC012'],
    'SEC-013': ['error', 'Forbidden pattern "__dirname" at line {line}', '05 §2.4 SEC013'],
    'SEC-014': ['error', 'Forbidden pattern "__filename" at line {line}', '05 §2.4 SEC014'],
    'SEC-015': ['error', 'Key-like literal in a comment at line {line}', '02 §13 (2) keys never in comments'],
    'SEC-016': ['error', 'stdout/stderr writer at line {line}', '02 §13 (1) keys never printed'],
    'SEC-017': ['error', 'Required field missing: {field}', 'library: SecurityScan input'],
    'SEC-018': ['error', 'Source too long to scan: {length} characters (limit {limit})', 'library: input size limits'],
    'SEC-019': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: SecurityScan / KeyDomain / Tos input'
    ],
    'SEC-020': ['error', 'Required field missing: {field}', 'library: KeyDomain / Tos input'],
    'SEC-021': [
        'error',
        'requiredServerParams cannot be checked: root {value} names no host',
        '02 §13 (3) key-domain match needs the API host'
    ],
    'SEC-022': ['error', 'No registrable domain (eTLD+1) for {value}', '02 §12 ⚠ B17 Public Suffix List'],
    'SEC-WARN-001': ['warning', 'More than {limit} findings; the rest are not listed', 'library: bounded evidence'],
    'SEC-WARN-002': [
        'warning',
        'Key {param} names {brand}, which the check cannot hold against the API host ({reason}); no veto, the grader judges it',
        '01-model §6.1 a veto needs certainty; 02 §13 (3)'
    ]
})
