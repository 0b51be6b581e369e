import { defineCodes } from '../define.js'

/** Grading entries and the Grading class (spec chapters 06–08). Reference meanings kept where they exist. */
export const GRADING_CODES = defineCodes({
    'GRD-001': ['error', 'Required field missing: {field}', 'ch. 08 required fields'],
    'GRD-002': ['error', 'Type mismatch for field {field}: expected {expected}, got {actual}', 'ch. 08 field types'],
    'GRD-003': ['error', 'Invalid gradingTier: {value} (expected `autonomous` or `group-bound`)', 'ch. 06 tier axis'],
    'GRD-004': [
        'error',
        'selectionId required when gradingTier=group-bound',
        'ch. 08 allOf: group-bound requires selectionId'
    ],
    'GRD-005': [
        'error',
        'personaIds[] required when determinism=non-deterministic',
        'ch. 08 selectionContext obligation'
    ],
    'GRD-006': [
        'error',
        'previousGradingId required when applying regradingTrigger: {detail}',
        'ch. 08 regradingTrigger lineage'
    ],
    'GRD-007': [
        'error',
        'llmModel required when graderIdentity.kind=llm',
        'ch. 08 allOf: llm grader requires llmModel'
    ],
    'GRD-008': ['error', 'Unknown property {field} (not allowed here)', 'ch. 08 additionalProperties: false'],
    'GRD-009': ['error', 'Field {field} does not match the required format: {expected}', 'ch. 08 patterns and formats'],
    'GRD-010': ['error', 'Field {field} must be one of [{expected}], got {actual}', 'ch. 08 closed enums'],
    'GRD-011': [
        'error',
        'aggregateGrade must be REJECTED exactly when categoricalVeto is set: {detail}',
        '01-model S1 / A12'
    ],
    'GRD-012': ['error', 'Area {area} requires gradingTier {expected}, got {actual}', '01-model S2 / A10'],
    'GRD-013': ['error', 'aggregateGrade {grade} exceeds maxAttainableGrade {max}', '01-model S3 tier trim'],
    'GRD-014': [
        'error',
        'aggregateGrade {grade} does not match the recomputed grade {expected}',
        '01-model S3 recomputation'
    ],
    'GRD-015': [
        'error',
        'maxAttainableGrade must be {expected} for gradingTier {tier}, got {actual}',
        'ch. 06 tier → max grade'
    ],
    'GRD-016': [
        'error',
        'personaIds of a group-bound entry must be base personas, got {value}',
        '01-model S5 (ch. 12)'
    ],
    'GRD-017': ['error', 'naReason is only allowed when score is n/a (score is {score})', '01-model S6'],
    'GRD-018': ['error', 'An Area grading must not hold only deterministic answers', '01-model S7 (ch. 08/24)'],
    'GRD-019': [
        'error',
        'A legal assessment must start with the disclaimer "grader assessment, not legally binding"',
        '01-model S9 / A19'
    ],
    'GRD-020': ['error', 'readEntry: invalid JSON, parse-error: {detail}', 'library: reading external JSON'],
    'GRD-021': [
        'error',
        'persona {basePersonaId, lensId} required for persona-bound area {area}',
        'ch. 08 allOf: persona-bound areas'
    ],
    'GRD-022': ['error', 'aboutHash required for area {area}', '01-model A16'],
    'GRD-023': ['error', 'gradings[] must contain at least one answer', 'ch. 08 gradings minItems 1'],
    'GRD-024': [
        'warning',
        'No grade: every answer is excluded ({na} n/a, {stale} stale)',
        'ch. 07 all-excluded → no grade (pending)'
    ],
    'GRD-025': ['warning', 'No grade: the included answers have a total weight of 0', '01-model A6'],
    'GRD-026': [
        'warning',
        'Grade {grade} has no non-deterministic (LLM) answer',
        'ch. 06/07 minimum-LLM rule (SHOULD)'
    ],
    'GRD-027': ['info', 'Answer superseded for {questionId}: {detail}', '01-model A9 newest answer per questionId'],
    'GRD-028': [
        'error',
        'A partial entry needs the last full aggregateGrade of the node: {detail}',
        '01-model A15 / S4'
    ],
    'GRD-029': ['warning', 'Legacy field {from} mapped to {to}', 'library: reading reference/CLI entries'],
    'GRD-032': ['error', 'Invalid persona: {detail}', 'ch. 12 persona object'],
    'GRD-033': ['error', 'Unknown area {value} (not one of the eleven areas)', 'ch. 08 area enum'],
    'GRD-034': ['error', 'Unknown harness {value} (expected claude-code)', 'ch. 08 harness enum'],
    'GRD-037': ['error', 'skillId required for per-skill area {area}', 'ch. 08 allOf: per-skill areas'],
    'GRD-041': [
        'error',
        'Invalid file-name timestamp {value} (expected YYYY-MM-DDTHH-MM-SSZ)',
        'ch. 19 naming grammar'
    ],
    'GRD-042': [
        'error',
        'basePersona and lens must be given together, each matching ^[a-z][a-z0-9-]*$: {detail}',
        'ch. 19 naming grammar'
    ],
    'GRD-043': ['error', 'formatGradingFilename: unknown area {value}', 'ch. 19 naming grammar'],
    'GRD-044': [
        'error',
        'Legacy field {field} is not part of a spec grading entry: {hint}',
        'ch. 08 (legacy reference/CLI shape)'
    ],
    'GRD-045': [
        'error',
        'Entry already carries a categoricalVeto; a second veto is not applied',
        'ch. 08 veto is written once'
    ],
    'GRD-046': ['error', 'Invalid timestamp {value} (expected an ISO-8601 date-time)', 'library: injected time'],
    'GRD-048': ['error', 'Grader output must not claim that "FlowMCP accepts" anything', '01-model S10 (ch. 03)'],
    'GRD-049': [
        'info',
        'Selection with {count} members: grade capped at B (A needs at least 7 members)',
        'ch. 05/10/24 selection size cap'
    ],
    'GRD-051': [
        'error',
        'Selection areas need at least {min} member namespaces, got {count}: no selection grade',
        'ch. 05/10/24 selection threshold'
    ],
    'GRD-052': [
        'info',
        'No Domain-Knowledge content (selection About): grade capped at B',
        '02-areas §8 without Domain-Knowledge content no A'
    ],
    'GRD-053': [
        'error',
        'Question {questionId} is answered twice by the same grader ({grader}) at the same time {timestamp} (answers {first} and {index}); keep one of them, since the newest-answer rule cannot choose',
        '01-model ⚠ A9 newest answer per questionId'
    ],
    'GRD-054': [
        'warning',
        'Question {questionId} is answered again by the same grader ({grader}) in answer {index}, first in answer {first}; only the newest counts, so drop the older one',
        '01-model ⚠ A9 newest answer per questionId (read-tolerant)'
    ],
    'GRD-055': [
        'warning',
        'The LLM answer to {questionId} has {found}; an LLM-graded answer should explain its score in reasoning',
        '01-model §7.2 reasoning SHOULD'
    ],
    'GRD-056': [
        'error',
        'The answer to {questionId} says determinism deterministic, but the question catalogue defines it as non-deterministic (an LLM judgement); record it as non-deterministic with its selectionContext',
        '01-model §5 determinism axis; 02 ⚠ B1 question catalogue'
    ],
    'GRD-057': [
        'warning',
        'gradingId starts with hash {found}, but schemaHash is {schemaHash}; a gradingId is <schemaHash>--<timestamp>',
        '01-model ⚠ A13 gradingId format (read-tolerant)'
    ],
    'GRD-058': [
        'error',
        'A full {area} entry must answer all {total} questions of its area; {count} missing: {missing} (answer n/a with a naReason where a question does not apply, or write a partial entry)',
        '01-model §8 a full grading covers every applicable dimension'
    ],
    'GRD-059': [
        'error',
        "Question {questionId} belongs to area {owner}, not to this entry's area {area}; answer it in a {owner} entry",
        '01-model §7.1 one area per entry; 02 ⚠ B1 question sets'
    ],
    'GRD-060': [
        'error',
        'Question {questionId} is named like a question of area {area}, but question catalogue {version} has no such question',
        '01-model S8 dimensions must be declared; 02 ⚠ B1 question sets'
    ],
    'GRD-061': [
        'error',
        'Timestamp {value} is later than the validation time {now}; an answer cannot be recorded in the future',
        'ch. 08 timestamps record when a grader answered'
    ],
    'GRD-062': [
        'error',
        'Field {field} holds {value}, which is not a real calendar date and time: {detail}',
        'ch. 08 format: date-time (RFC 3339)'
    ],
    'GRD-063': [
        'error',
        'The now option {value} is not an ISO 8601 date-time such as 2026-05-29T10:00:00Z; no timestamp was compared with it',
        'library: injected time'
    ],
    'GRD-064': ['error', 'The entry is null; expected a grading entry object', 'ch. 08 an entry is a JSON object'],
    'GRD-065': [
        'warning',
        'The answer to {questionId} has weight {weight}, but question catalogue {version} gives it {expected}; weights come from the catalogue, not from the grader',
        '01-model ⚠ A8 weights live in one versioned table (read-tolerant)'
    ],
    'GRD-067': [
        'error',
        "regradingTrigger.previousGradingId is this entry's own gradingId {gradingId}; a re-grading names the entry it supersedes",
        '01-model §7.5 lineage through previousGradingId'
    ],
    'GRD-068': [
        'error',
        'Question {questionId} is not a question of area {area} in question catalogue {version}; answer only the questions the catalogue defines for the area (Areas.catalogue()), since an invented question would count toward the grade',
        '01-model S8 / ⚠ A25 the question catalogue is closed'
    ],
    'GRD-069': [
        'error',
        'The answer to {questionId} is stale, but {questionId} is not time-dependent and never ages; record the score it was graded with (stale is only for Q-api-availability, Q-tos-match and Q-legal-assessment past their aging window)',
        '01-model §9 aging yields stale only for time-dependent answers'
    ],
    'GRD-070': [
        'error',
        'The answer to {questionId} is stale at {timestamp}, but its {days}-day aging window had not passed then: {detail}; keep the fresh answer until the window has passed, then record stale',
        '01-model §9 / ⚠ A21 stale once the aging window is exceeded'
    ],
    'GRD-071': [
        'warning',
        'Question {questionId} is answered {count} times (answers {indexes}); strict validation accepts each question answered once',
        'library strict mode: one answer per question (01-model ⚠ A9)'
    ],
    'GRD-072': [
        'warning',
        'The {kind} answers come from {count} grader identities ({graders}); strict validation accepts one grader identity per kind',
        'library strict mode: one grader identity'
    ],
    'GRD-073': [
        'warning',
        "The entry is {mode}; strict validation accepts full entries only, since a partial entry carries its node's last full grade, which the entry alone cannot show",
        'library strict mode: full entries (01-model ⚠ A15, S4)'
    ],
    'GRD-074': [
        'error',
        'Strict validation needs now, the validation time (an ISO 8601 string or a Date), to check that no timestamp lies in the future',
        'library strict mode: no timestamp after now'
    ],
    'GRD-075': [
        'warning',
        'The key {key} is {why}; it is left out of the accepted entry: remove it',
        'library: what is accepted is what was checked'
    ],
    'GRD-WARN-001': [
        'warning',
        'Grading entry exceeds retention threshold of {days} days',
        'ch. 08 RETENTION_DAYS / A24'
    ],
    'GRD-INFO-001': [
        'info',
        'Re-grading triggered by {triggeredBy}; previous entry {previousGradingId} preserved',
        'ch. 08 regradingTrigger'
    ]
})
