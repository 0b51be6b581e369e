import { defineCodes } from '../define.js'

/** Limits and shape checks on any external JSON before it is interpreted. */
export const INPUT_CODES = defineCodes({
    'INP-001': ['error', 'Not a plain JSON value: {detail}', 'library: external JSON must be plain JSON'],
    'INP-002': ['error', 'Nesting deeper than {limit} levels', 'library: input depth limit'],
    'INP-003': ['error', 'Input too large: {detail} (limit {limit})', 'library: input size limits'],
    'INP-004': ['error', 'Invalid JSON text: {detail}', 'library: parsing external JSON']
})
