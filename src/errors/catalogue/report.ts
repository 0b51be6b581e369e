import { defineCodes } from '../define.js'

/** The HTML report of a graded island (`flowmcp-grading report`). */
export const REPORT_CODES = defineCodes({
    'RPT-001': ['error', 'No providers folder under the island root {root}', 'cli: a report needs an island'],
    'RPT-002': [
        'warning',
        'The index {path} could not be read: {detail}',
        'cli: an unreadable index is shown as such, the rest still renders'
    ],
    'RPT-003': [
        'warning',
        'The grading entry {path} behind {node} could not be read: {detail}',
        'cli: a missing trace is shown as such'
    ],
    'RPT-004': [
        'error',
        'The baseline {root} {reason}; nothing was compared',
        'cli: a baseline to compare with is an island'
    ]
})
