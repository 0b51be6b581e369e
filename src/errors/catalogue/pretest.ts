import { defineCodes } from '../define.js'

/**
 * Live data pretest (02 §2.1, 06 §19.5). DPT-001…DPT-008 keep the reference implementation's
 * meanings, DPT-009 is the structural gate; DPT-010 and up are new cases.
 */
export const PRETEST_CODES = defineCodes({
    'DPT-001': ['error', 'Required field missing: {field}', '06 §19.5 DPT-001'],
    'DPT-002': ['error', 'Type mismatch for field {field}: expected {expected}, got {actual}', '06 §19.5 DPT-002'],
    'DPT-003': [
        'error',
        'Tool {tool} below {bar} working downloadable tests ({working}/{bar})',
        '02 §2.1 ⚠ B4 working-test bar; 06 §19.5 DPT-003'
    ],
    'DPT-004': [
        'error',
        'Test {index} of tool {tool} failed (not counted as a working download): {detail}',
        '02 §4 only HTTP 200 with data passes; 06 §19.5 DPT-004'
    ],
    'DPT-005': [
        'error',
        'Required server parameter absent from serverParams: {param}',
        '06 §19.5 DPT-005 (the key name only)'
    ],
    'DPT-006': ['info', 'Parameterless tool {tool} (no user-input vector): own class, bar {bar}', '06 §19.5 DPT-006'],
    'DPT-007': ['info', 'Tool {tool} is key-gated, not evaluable without {params}', '06 §19.5 DPT-007'],
    'DPT-008': [
        'error',
        'Test {index} of tool {tool} duplicates test {first} (only _description differs); counted once',
        '06 §19.5 DPT-008'
    ],
    'DPT-009': [
        'error',
        'Structural validation failed, nothing was sent: {detail}',
        '06 §19.5 DPT-009; area dependency structural-valid'
    ],
    'DPT-010': [
        'error',
        'Test {index} of tool {tool}: the HTTP port failed: {detail}',
        'library: a failing port is a failed test, never a rejection'
    ],
    'DPT-011': [
        'error',
        'Test {index} of tool {tool}: the HTTP port returned no valid response: {detail}',
        'library: HttpPort contract'
    ],
    'DPT-012': [
        'error',
        'Test {index} of tool {tool} cannot be turned into a request: {detail}',
        '03 §13.1 parameter positions'
    ],
    'DPT-013': [
        'error',
        'Tool {tool} not called: server param {params} names another domain than the API (api-key-domain-mismatch); the key is withheld',
        '01-model §6.1 api-key-domain-mismatch; 02 §2.1 vetoed tests never pass'
    ],
    'DPT-014': ['info', 'No HTTP port: the live pretest was skipped', 'library: ports are injected by the host'],
    'DPT-015': ['error', 'Tool {tool} has no tests', '03 §13.1 tests[] (at least 1)'],
    'DPT-016': [
        'error',
        'docs[{index}] is not reachable with HTTP 200: {detail}',
        'question Q-single-test-01 docsUrlReachable'
    ],
    'DPT-017': [
        'error',
        'Test {index} of tool {tool}: the transform failed: {detail}',
        'library: optional response transform'
    ],
    'DPT-018': [
        'error',
        'Test {index} of tool {tool}: the response does not match output.schema',
        'question Q-single-test-02 outputSchemaMatch'
    ],
    'DPT-019': [
        'error',
        'Tool {tool} not called: {method} (or meta isDestructive / isReadOnly: false) is state-changing',
        '02 §2.1 graders make read-only calls only'
    ],
    'DPT-020': [
        'error',
        'Tool {tool} runs through the FlowMCP runtime (its schema exports handlers): {detail}',
        '05 §2.5 the runtime runs preRequest / executeRequest / postRequest on every call'
    ],
    'DPT-021': [
        'error',
        'Test {index} of tool {tool} failed, network not granted ({detail}): the runtime child opens no connection of its own (live and under --recordings only fetch and http(s) requests reach the network, through the grading process); offline, pass --live to test it against its API, or --recordings <dir> with recordings of its requests',
        'library: the runtime child has no network of its own; the grading process answers its fetch and http(s) requests, live only with --live'
    ],
    // Ranked in the fix list like an error (cost 2): the test it names did not run as written.
    'DPT-022': [
        'warning',
        'Test {index} of tool {tool}: the recordings hold no exchange for {request} (recorded before the test changed, or never); re-record: {command}',
        "library: a replay answers only recorded requests; a stale recording is the repository's state, named at its test",
        { kind: 'none', cost: 2 }
    ],
    // DPT-023…DPT-025 name a tool not tested here (an environment reason, ENVIRONMENT_BLOCKED_REASONS): another
    // machine, with the recordings, the lists or the library, tests it.
    'DPT-023': [
        'info',
        'Tool {tool} not tested here (missing-recording): the recordings lack requests of its tests',
        'library: a replay answers only recorded requests; a tool below its bar only for them was not tested here'
    ],
    'DPT-024': [
        'info',
        'Tool {tool} not tested here (shared-lists-not-given): pass --runtime-lists <folder> to test it',
        '05 §2.2 handlers get sharedLists from the runtime (listsDir), §2.5 Pipeline.load'
    ],
    'DPT-025': [
        'info',
        'Tool {tool} not tested here (library-not-installed): install the library the schema requires',
        '05 §2.5 Pipeline.load: requiredLibraries are loaded from the runtime resolve bases'
    ]
})
