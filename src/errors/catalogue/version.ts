import { defineCodes } from '../define.js'

/** Version strings of the independent namespaces (spec chapter 07). */
export const VERSION_CODES = defineCodes({
    'VER-001': [
        'error',
        'Invalid scoringSystem version {value} (expected scoringSystem/X.Y.Z)',
        'ch. 07 ^scoringSystem/\\d+\\.\\d+\\.\\d+$'
    ],
    'VER-002': [
        'error',
        'Invalid gradingSystem version {value} (expected gradingSystem/X.Y.Z)',
        'ch. 07 ^gradingSystem/\\d+\\.\\d+\\.\\d+$'
    ],
    'VER-003': [
        'error',
        'Invalid FlowMCP version {value} (expected flowmcp/4.x.y)',
        'ch. 08 ^flowmcp/4\\.[0-9]+\\.[0-9]+$'
    ],
    'VER-004': [
        'warning',
        'Entry declares {namespace} version {value}; this library implements {supported}, so the recomputation check is skipped',
        'ch. 07 rule 3: never mix versions silently'
    ],
    'VER-005': [
        'warning',
        'Entry declares {namespace} version {value}; strict validation accepts only {supported}, the version this library implements',
        'library strict mode: the system versions this library implements'
    ]
})
