import { defineCodes, RUN_NOTICE } from '../define.js'

/** The command-line judge (`--judge-command`): an LLM tool run once per area unit. */
export const JUDGE_COMMAND_CODES = defineCodes({
    'JCMD-001': [
        'error',
        'The judge command could not be started: {detail}',
        'cli: a judge that cannot run is never a score',
        RUN_NOTICE
    ],
    'JCMD-002': [
        'error',
        'The judge command did not finish within {timeoutMs} ms and was killed',
        'cli: --judge-timeout bounds every call',
        RUN_NOTICE
    ],
    'JCMD-003': [
        'error',
        'The judge command exited with {status}; the tail of its stderr follows',
        'cli: a non-zero exit is a failed judge, whatever it printed',
        RUN_NOTICE
    ],
    'JCMD-004': [
        'error',
        'The judge command printed more than {limit} bytes and was killed',
        'cli: a reply is bounded',
        RUN_NOTICE
    ],
    'JCMD-005': ['error', 'Invalid judge option {option}: {detail}', 'cli: argument check', RUN_NOTICE]
})
