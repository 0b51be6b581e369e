import { defineCodes } from '../define.js'

/** Reading module sources from their syntax tree (05 §2.2 without executing the module). */
export const SOURCE_CODES = defineCodes({
    'SRC-001': [
        'error',
        'The module source does not parse at line {line}: {detail}',
        '05 §2.2 a schema module is an ES module'
    ],
    'SRC-002': [
        'error',
        'Export {name} uses {construct} at line {line}; only plain values are read (literals, arrays, objects, template strings without expressions, unary minus, const names, JSON.stringify of those) and the source is never run',
        'library: grading never executes schema code'
    ],
    'SRC-003': ['error', 'The module source must be a string, got {actual}', 'library: argument check'],
    'SRC-004': [
        'error',
        'The module source has {length} characters; at most {max} are read',
        'library: bounded input cost'
    ],
    'SRC-005': [
        'error',
        'The module exports neither main nor schema',
        '05 §2.2 SchemaLoader: neither "main" nor "schema"'
    ],
    'SRC-006': [
        'warning',
        'Top-level code ({construct}) at line {line} is not run; exports are read as written',
        'library: grading never executes schema code'
    ]
})
