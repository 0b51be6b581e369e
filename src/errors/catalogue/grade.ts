import { defineCodes, RUN_NOTICE } from '../define.js'

/** End-to-end grading: gradeSingleSchema and gradeSelection. */
export const GRADE_CODES = defineCodes({
    'GRA-001': ['error', 'Required field missing: {field}', 'library: argument check', RUN_NOTICE],
    'GRA-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check',
        RUN_NOTICE
    ],
    'GRA-003': ['error', 'The schema module could not be loaded: {detail}', '05 §2.2 SchemaLoader', RUN_NOTICE],
    'GRA-004': [
        'error',
        'The schema source could not be read: {detail}',
        'library: the scan needs the source before anything is loaded',
        RUN_NOTICE
    ],
    'GRA-006': [
        'error',
        'The judge failed for {unit}: {detail}',
        '04 fail-closed: a failed judge is never a score',
        RUN_NOTICE
    ],
    'GRA-007': [
        'error',
        'The judge reply for {unit} is not JSON: {detail}',
        '04 fail-closed: a malformed reply is never a score',
        RUN_NOTICE
    ],
    'GRA-027': [
        'info',
        'The judge wrapped its JSON reply in {detail} (first in {unit}); only the JSON object was read. Said once per run',
        'library: the reply is the JSON object inside the text (docs/judges.md, Replies)'
    ],
    'GRA-028': [
        'info',
        'The reply for {unit} held {detail}: left out, never graded',
        '04 no silent defaults: nothing is stored that the judge did not give'
    ],
    'GRA-029': [
        'info',
        'The first reply for {unit} was not usable ({detail}); the judge was asked once more and its second reply was graded',
        'library: one repair turn per unit (docs/judges.md, Replies)'
    ],
    'GRA-008': [
        'error',
        'The reply for {unit} contradicts the envelope it was given: {field} is {actual}, expected {expected}',
        '04 §2 the envelope identifies the grading',
        RUN_NOTICE
    ],
    'GRA-009': [
        'error',
        'Non-deterministic answers need a grader persona (basePersonaId and lensId): {detail}',
        '01-model ⚠ A17 / GRD-005',
        RUN_NOTICE
    ],
    'GRA-010': ['warning', 'No answer for {unit}: the area stays ungraded', '04 no silent defaults', RUN_NOTICE],
    'GRA-011': ['info', '{unit} is blocked: {reason}', '02-areas blocking rules', RUN_NOTICE],
    'GRA-012': ['info', '{unit} was not graded: {reason}', '02-areas applicability and gates', RUN_NOTICE],
    'GRA-013': ['info', '{unit} stopped by the categorical veto ({trigger})', '02-areas §3.3 cascade stop', RUN_NOTICE],
    'GRA-014': [
        'warning',
        'Provisional result: deterministic answers only, no grade; no grading entry was written (pass a judge or answers to finish)',
        '01-model S7 an area grading needs its non-deterministic block',
        RUN_NOTICE
    ],
    'GRA-015': [
        'warning',
        'Answers were given for {unit}, which this run does not grade',
        'library: answers must match the emitted units',
        RUN_NOTICE
    ],
    'GRA-016': ['error', 'Writing {unit} into the island failed: {detail}', 'ch. 19 island writes', RUN_NOTICE],
    'GRA-017': [
        'error',
        'The schema id {value} does not match the schema namespace {namespace}',
        '01-model ⚠ A14',
        RUN_NOTICE
    ],
    'GRA-018': ['error', 'The area output for {unit} was rejected: {detail}', '04 fail-closed', RUN_NOTICE],
    'GRA-019': ['error', 'Selection {selection}: {detail}', '02-areas §9 selection grading', RUN_NOTICE],
    'GRA-021': [
        'error',
        'The reply for {unit} names answer {index} by "id"; answers name their question by "questionId", as the request does',
        '04 fail-closed; the judge contract (docs/guide.md)',
        RUN_NOTICE
    ],
    'GRA-020': [
        'warning',
        'No file name was given: the schema id {schemaId} was derived from main.name; pass fileName (or schemaId) for <namespace>.<file base>',
        '01-model ⚠ A14 one schema id: <namespace>.<file base>',
        RUN_NOTICE
    ],
    'GRA-022': [
        'warning',
        "The About {file} is not declared by the schema, so about-namespace is not graded: declare it in main.resources as about: { source: 'markdown', origin: 'inline', name: '{name}', description: '…' }",
        '02-areas §2.6 the About detector needs a resource named about in main.resources (05 §2.3 markdown resource)',
        RUN_NOTICE
    ],
    'GRA-023': [
        'warning',
        'The schema declares the About {file} in main.resources.about, but no About text came with it, so about-namespace is not graded: put the file at {file} beside the schema, or pass options.about',
        '02-areas §2.6 the About detector needs the declared file',
        RUN_NOTICE
    ],
    'GRA-025': [
        'error',
        'The judge failed {count} units in a row, so this run stops calling it and leaves every unit not asked yet ungraded (last failure: {detail}); fix the judge and run again',
        'library: a judge that keeps failing is not called for every unit (docs/judges.md)'
    ],
    'GRA-026': [
        'warning',
        'The run was aborted before {unit} was answered: the units not asked yet stay ungraded ({detail})',
        'library: an aborted run writes nothing half'
    ],
    'GRA-030': [
        'error',
        'The judge budget of {budget} ms for this schema ran out while {unit} waited: its call was aborted, and it and the units not asked yet stay ungraded; the next schema gets a budget of its own (judgeBudgetMs)',
        'library: every wait on a judge is bounded (docs/judges.md, Budgets)',
        RUN_NOTICE
    ],
    'GRA-031': [
        'warning',
        'The judge reported unusable token usage for {unit} ({detail}): that call is counted, its tokens are not',
        'library: judge usage is counted as reported (docs/judges.md, Usage)'
    ],
    'GRA-024': [
        'warning',
        "The reply for {unit} names an unusable model ({detail}); the grader's llmModel is recorded instead",
        'ch. 08 llmModel: the model that answered, never guessed',
        RUN_NOTICE
    ]
})
