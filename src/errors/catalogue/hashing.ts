import { defineCodes } from '../define.js'

/** Canonical JSON and hashes (spec chapter 19, RFC 8785). */
export const HASHING_CODES = defineCodes({
    'HSH-001': ['error', 'Required field missing: {field}', 'library: argument check'],
    'HSH-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check'
    ],
    'HSH-003': ['error', 'Invalid value: {detail}', 'RFC 8785 input must be I-JSON'],
    'HSH-004': ['error', 'Hash computation failed: {detail}', 'library: canonicalisation']
})
