import { defineCodes } from '../define.js'

/** What binds an entry to the object it grades: the facts a registry states (`expect`) and the gradingId's grammar. */
export const BINDING_CODES = defineCodes({
    'BND-001': [
        'error',
        'The entry grades schema {found}, but the registry expects {expected}',
        'library intake: expect.schemaId'
    ],
    'BND-002': [
        'error',
        'The entry names schemaHash {found}, but the schema hash {from} is {expected}',
        'library intake: expect.schemaHash, the hash computed from expect.source'
    ],
    'BND-003': [
        'error',
        'The entry is of area {found}, but the registry expects area {expected}',
        'library intake: expect.area'
    ],
    'BND-004': [
        'error',
        'The registry expects an entry about tool {expected}, but {detail}',
        'library intake: expect.tool'
    ],
    'BND-005': [
        'error',
        'The expected tool {tool} is not a tool of the schema read from expect.source (its tools: {tools})',
        'library intake: expect.tool names a tool of the source'
    ],
    'BND-006': [
        'warning',
        'gradingId {value} is not <schemaHash>--<YYYY-MM-DDTHH-MM-SSZ>: the part after -- is no real time stamp',
        '01-model ⚠ A13 gradingId grammar'
    ],
    'BND-007': [
        'warning',
        'The stamp of gradingId {value} lies {days} days before the newest answer ({timestamp}); a grading run stamps its id when it answers',
        '01-model ⚠ A13 gradingId stamp'
    ],
    'BND-008': ['error', 'Option {field} must be {expected}, got {actual}', 'library intake: the expect option'],
    'BND-009': [
        'error',
        'expect.schemaHash {stated} contradicts the hash {computed} computed from expect.source',
        'library intake: the source is the truth'
    ],
    'BND-010': ['error', 'expect.source cannot be read as a schema module: {detail}', 'library intake: expect.source'],
    'BND-011': [
        'error',
        'Re-checking against expect.source and verifying an envelope need the full library: validateGradingEntry of flowmcp-grading/entry leaves them out to stay small; call it from flowmcp-grading or use acceptGradingEntry',
        'library intake: the validate-only entry point'
    ],
    'BND-012': [
        'error',
        'The entry grades schema {found}, but the source is namespace {namespace}; a schemaId is <namespace>.<file base>',
        'library intake: expect.source namespace'
    ]
})
