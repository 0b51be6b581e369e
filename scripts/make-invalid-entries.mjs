// Writes test/fixtures/entries/invalid/*.json: one mutation of a spec example per file, with the
// codes a validator must report. The expected codes are written here by hand, not computed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'

const dir = new URL('../test/fixtures/entries/', import.meta.url)
const base = JSON.parse(readFileSync(new URL('valid/grading-autonomous.json', dir), 'utf8'))
const rejected = JSON.parse(readFileSync(new URL('valid/grading-rejected.json', dir), 'utf8'))
const clone = (v) => JSON.parse(JSON.stringify(v))
const llm = base.gradings[2]

const cases = [
    [
        'missing-schema-id',
        'schemaId is missing',
        (e) => {
            delete e.schemaId
        },
        ['GRD-001']
    ],
    [
        'schema-id-without-dot',
        'schemaId has no namespace dot',
        (e) => {
            e.schemaId = 'etherscan'
        },
        ['GRD-009']
    ],
    [
        'unknown-area',
        'area is not one of the eleven',
        (e) => {
            e.area = 'single-tests'
        },
        ['GRD-033']
    ],
    [
        'invalid-tier',
        'gradingTier is not a tier',
        (e) => {
            e.gradingTier = 'solo'
        },
        ['GRD-003']
    ],
    [
        'bad-flowmcp-version',
        'FlowMCP major is not 4',
        (e) => {
            e.version = 'flowmcp/5.0.0'
        },
        ['VER-003']
    ],
    [
        'bad-scoring-system',
        'scoringSystem is not scoringSystem/X.Y.Z',
        (e) => {
            e.scoringSystem = 'scoringSystem/1.0'
        },
        ['VER-001']
    ],
    [
        'bad-grading-system',
        'gradingSystem has a v prefix',
        (e) => {
            e.gradingSystem = 'gradingSystem/v1.0.0'
        },
        ['VER-002']
    ],
    [
        'missing-scoring-system',
        'scoringSystem is missing',
        (e) => {
            delete e.scoringSystem
        },
        ['GRD-001']
    ],
    [
        'uppercase-schema-hash',
        'schemaHash is not lowercase hex',
        (e) => {
            e.schemaHash = 'A1B2C3D4'
        },
        ['GRD-009']
    ],
    [
        'bad-grading-id',
        'gradingId lacks the hash prefix',
        (e) => {
            e.gradingId = '2026-05-29T15-34Z'
        },
        ['GRD-009']
    ],
    [
        'unknown-harness',
        'harness is not claude-code',
        (e) => {
            e.harness = 'cursor'
        },
        ['GRD-034']
    ],
    [
        'extra-top-level-field',
        'an unknown top-level field',
        (e) => {
            e.notes = 'x'
        },
        ['GRD-008']
    ],
    [
        'raw-grade-in-entry',
        'rawGrade is stored in the entry (A7)',
        (e) => {
            e.rawGrade = 'A'
        },
        ['GRD-044']
    ],
    [
        'empty-gradings',
        'gradings is empty',
        (e) => {
            e.gradings = []
        },
        ['GRD-023']
    ],
    [
        'score-too-high',
        'a numeric score above 5.0',
        (e) => {
            e.gradings[1].score = 5.5
        },
        ['SCO-001']
    ],
    [
        'score-zero',
        'a numeric score below 1.0',
        (e) => {
            e.gradings[1].score = 0
        },
        ['SCO-001']
    ],
    [
        'numeric-string-score',
        'score "3.0" is a string, not a number',
        (e) => {
            e.gradings[1].score = '3.0'
        },
        ['SCO-005']
    ],
    [
        'unknown-score-enum',
        'score "passed" is not an enum value',
        (e) => {
            e.gradings[0].score = 'passed'
        },
        ['SCO-003']
    ],
    [
        'boolean-score',
        'score true has the wrong type',
        (e) => {
            e.gradings[0].score = true
        },
        ['GRD-002']
    ],
    [
        'negative-weight',
        'weight below 0',
        (e) => {
            e.gradings[0].weight = -1
        },
        ['SCO-004']
    ],
    [
        'missing-weight',
        'weight is missing (no silent 1.0)',
        (e) => {
            delete e.gradings[0].weight
        },
        ['GRD-001']
    ],
    [
        'na-without-reason',
        'n/a without naReason',
        (e) => {
            e.gradings[1].score = 'n/a'
        },
        ['NA-001']
    ],
    [
        'na-free-text-reason',
        'naReason is free text',
        (e) => {
            e.gradings[1].score = 'n/a'
            e.gradings[1].naReason = 'did not test'
        },
        ['NA-001']
    ],
    [
        'na-reason-on-number',
        'naReason on a numeric score (S6)',
        (e) => {
            e.gradings[1].naReason = 'requires-private-data'
        },
        ['GRD-017']
    ],
    [
        'llm-without-model',
        'an llm answer without llmModel',
        (e) => {
            delete e.gradings[2].llmModel
        },
        ['GRD-007']
    ],
    [
        'non-deterministic-without-context',
        'a non-deterministic answer without selectionContext',
        (e) => {
            delete e.gradings[2].selectionContext
        },
        ['GRD-005']
    ],
    [
        'empty-persona-ids',
        'personaIds is empty',
        (e) => {
            e.gradings[2].selectionContext.personaIds = []
        },
        ['GRD-005']
    ],
    [
        'bad-grader-kind',
        'graderIdentity.kind is not llm/human/script',
        (e) => {
            e.gradings[0].graderIdentity.kind = 'robot'
        },
        ['GRD-010']
    ],
    [
        'answer-timestamp-filename-form',
        'answer timestamp in file-name form, not ISO',
        (e) => {
            e.gradings[0].timestamp = '2026-05-29T10-00-00Z'
        },
        ['GRD-009']
    ],
    [
        'question-id-without-prefix',
        'questionId lacks the Q- prefix',
        (e) => {
            e.gradings[0].questionId = 'api-availability'
        },
        ['GRD-009']
    ],
    [
        'empty-evidence',
        'evidence is an empty string',
        (e) => {
            e.gradings[0].evidence = ''
        },
        ['GRD-002']
    ],
    [
        'legacy-dimension-field',
        'an answer keyed by dimension (reference shape)',
        (e) => {
            e.gradings[0].dimension = 'apiAvailability'
        },
        ['GRD-044']
    ],
    [
        'grade-above-tier',
        'aggregateGrade A on an autonomous entry (S3)',
        (e) => {
            e.aggregateGrade = 'A'
        },
        ['GRD-013', 'GRD-014']
    ],
    [
        'grade-not-recomputed',
        'aggregateGrade C while the answers give B (S3)',
        (e) => {
            e.aggregateGrade = 'C'
        },
        ['GRD-014']
    ],
    [
        'wrong-max-grade',
        'maxAttainableGrade A on an autonomous entry',
        (e) => {
            e.maxAttainableGrade = 'A'
        },
        ['GRD-015']
    ],
    [
        'rejected-without-veto',
        'REJECTED with categoricalVeto null (S1)',
        (e) => {
            e.aggregateGrade = 'REJECTED'
        },
        ['GRD-011']
    ],
    [
        'selection-area-autonomous',
        'a selection area on an autonomous entry (S2)',
        (e) => {
            e.area = 'selection-aggregate'
            e.selectionId = 'crypto'
        },
        ['GRD-012']
    ],
    [
        'group-bound-without-selection',
        'group-bound without selectionId',
        (e) => {
            e.area = 'selection-aggregate'
            e.gradingTier = 'group-bound'
            e.maxAttainableGrade = 'A'
            e.aggregateGrade = 'A'
        },
        ['GRD-004']
    ],
    [
        'group-bound-technical-persona',
        'a group-bound answer naming a technical persona (S5)',
        (e) => {
            e.area = 'selection-aggregate'
            e.gradingTier = 'group-bound'
            e.selectionId = 'crypto'
            e.maxAttainableGrade = 'A'
            e.aggregateGrade = 'A'
            e.gradings[2].selectionContext.personaIds = ['documentation-dx-reviewer']
        },
        ['GRD-016']
    ],
    [
        'persona-area-without-persona',
        'a persona-bound area without persona',
        (e) => {
            e.area = 'about-namespace'
            e.aboutHash = 'b1c2d3e4'
            delete e.persona
        },
        ['GRD-021']
    ],
    [
        'skill-area-without-skill',
        'a per-skill area without skillId',
        (e) => {
            e.area = 'namespace-skills'
        },
        ['GRD-037']
    ],
    [
        'about-without-hash',
        'an About area without aboutHash (A16)',
        (e) => {
            e.area = 'about-namespace'
        },
        ['GRD-022']
    ],
    [
        'persona-bad-base',
        'persona with an unknown base persona',
        (e) => {
            e.persona.basePersonaId = 'ceo'
        },
        ['GRD-032']
    ],
    [
        'persona-without-lens',
        'persona without lensId',
        (e) => {
            delete e.persona.lensId
        },
        ['GRD-001']
    ],
    [
        'only-deterministic',
        'a full entry with only deterministic answers (S7)',
        (e) => {
            e.gradings = e.gradings.slice(0, 2)
            e.aggregateGrade = 'B'
        },
        ['GRD-018']
    ],
    [
        'legal-assessment-without-disclaimer',
        'a legal assessment without the disclaimer (S9)',
        (e) => {
            e.gradings.push({ ...clone(llm), questionId: 'Q-legal-assessment', reasoning: 'Looks fine to me.' })
        },
        ['GRD-019']
    ],
    [
        'flowmcp-accepts',
        'grader output claiming "FlowMCP accepts" (S10)',
        (e) => {
            e.gradings[2].reasoning = 'FlowMCP accepts these terms.'
        },
        ['GRD-048']
    ],
    [
        'regrading-without-previous',
        'regradingTrigger without previousGradingId',
        (e) => {
            e.regradingTrigger = { triggeredBy: 'scheduled', timestamp: '2026-06-01T00:00:00Z' }
        },
        ['GRD-006']
    ],
    [
        'user-report-without-issue',
        'a user-report trigger without reportedIssue and requestedBy',
        (e) => {
            e.regradingTrigger = {
                triggeredBy: 'user-report',
                previousGradingId: 'a1b2c3d4--2026-05-01T00-00-00Z',
                timestamp: '2026-06-01T00:00:00Z'
            }
        },
        ['GRD-001']
    ],
    [
        'veto-unknown-trigger',
        'a veto with a trigger outside the closed list',
        (e) => {
            Object.assign(e, clone(rejected))
            e.categoricalVeto.triggeredBy = 'suspicious-vibes'
        },
        ['VET-001']
    ],
    [
        'veto-without-evidence',
        'a veto without evidence',
        (e) => {
            Object.assign(e, clone(rejected))
            delete e.categoricalVeto.evidence
        },
        ['VET-002']
    ],
    [
        'ai-security-veto-without-reasoning',
        'ai-security-veto without reasoning',
        (e) => {
            Object.assign(e, clone(rejected))
            e.categoricalVeto.triggeredBy = 'ai-security-veto'
        },
        ['VET-003']
    ],
    [
        'veto-without-grader',
        'a veto without graderIdentity',
        (e) => {
            Object.assign(e, clone(rejected))
            delete e.categoricalVeto.graderIdentity
        },
        ['VET-004']
    ],
    [
        'veto-not-rejected',
        'a veto but aggregateGrade F (S1)',
        (e) => {
            Object.assign(e, clone(rejected))
            e.aggregateGrade = 'F'
        },
        ['GRD-011']
    ],
    [
        'veto-extra-field',
        'a veto with an unknown field',
        (e) => {
            Object.assign(e, clone(rejected))
            e.categoricalVeto.severity = 'high'
        },
        ['VET-006']
    ],
    [
        'reference-entry-shape',
        'the reference implementation shape, unnormalised',
        (e) => {
            e.grader = { kind: 'script' }
            e.createdAt = '2026-05-29T10:00:00Z'
        },
        ['GRD-044']
    ]
]

mkdirSync(new URL('invalid/', dir), { recursive: true })
for (const [name, description, mutate, expectedCodes] of cases) {
    const entry = clone(base)
    mutate(entry)
    writeFileSync(
        new URL(`invalid/${name}.json`, dir),
        `${JSON.stringify({ description, expectedCodes, entry }, null, 4)}\n`
    )
}
process.stdout.write(`${cases.length} invalid entries written\n`)
