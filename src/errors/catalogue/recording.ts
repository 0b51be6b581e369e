import { defineCodes } from '../define.js'

/** Recordings merged and written into a folder (`mergeRecordings`, `grade --live --record`). */
export const RECORDING_CODES = defineCodes({
    'REC-001': [
        'error',
        'The {which} recording is not a recording: {detail}; nothing is merged',
        'docs/recordings.md: a recording is { host, exchanges: [{ request, response }] }'
    ],
    'REC-002': [
        'error',
        'The recordings are of different hosts, {earlier} and {newer}; nothing is merged',
        'library: a merge is of the recordings of one host'
    ],
    'REC-003': [
        'error',
        "{path} holds the host's exchanges but is not a readable recording ({detail}); it is left as it is, and this run's exchanges of {host} are not written",
        'library: nothing already written is overwritten'
    ]
})
