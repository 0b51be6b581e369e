import { defineCodes } from '../define.js'

/** Limits and shape checks on any external JSON before it is interpreted. */
export const INPUT_CODES = defineCodes({
    'INP-001': ['error', 'Not a plain JSON value: {detail}', 'library: external JSON must be plain JSON'],
    'INP-002': ['error', 'Nesting deeper than {limit} levels', 'library: input depth limit'],
    'INP-003': ['error', 'Input too large: {detail} (limit {limit})', 'library: input size limits'],
    'INP-004': ['error', 'Invalid JSON text: {detail}', 'library: parsing external JSON'],
    'INP-005': ['error', 'Byte order mark (U+FEFF) before the JSON text; remove it', 'RFC 8259 §8.1'],
    'INP-006': ['error', 'Duplicate key {key}{invisible}: two meanings; keep one', 'I-JSON, RFC 7493 §2.3'],
    'INP-007': ['error', 'Lone surrogate {codePoint} in {where}; remove it', 'I-JSON, RFC 7493 §2.1'],
    'INP-008': ['error', 'The bytes are not UTF-8: {detail}', 'I-JSON, RFC 7493 §2.1 (RFC 8259 §8.1)']
})
