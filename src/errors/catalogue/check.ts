import { defineCodes } from '../define.js'

/** The pull-request gate of the CLI (`flowmcp-grading check`): what it could not verify. */
export const CHECK_CODES = defineCodes({
    'CHK-001': [
        'error',
        'Not verified: {cause}. The check could not establish the standing of {schema}, so it fails unless --allow-unverified',
        'cli: check never passes a schema it could not verify'
    ]
})
