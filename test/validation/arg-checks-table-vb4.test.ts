// The argument checks as callers see them, continued (see arg-checks-table.test.ts): entry points whose checks were
// written `{ field, expected, actual: typeOfValue(x) }`. Recorded on the hand-written checks before their move to
// valibot schemas through parseArgs; the schemas keep what is recorded here.
import { describe } from 'vitest'
import { checkExpectation } from '../../src/grading/binding.js'
import { Areas, Grading, gradeSingleSchema, PromptBuilder, SecurityScan } from '../../src/index.js'
import { BAD, recorded, recordedAsync, rows, table, type Row } from './arg-rows.js'

const EXPECT_FIELDS = ['schemaId', 'schemaHash', 'source', 'tool', 'area']
const expectation = (value: unknown) => checkExpectation(value).issues

const gates = (input: { areas?: unknown; signals?: unknown }) => Areas.evaluateGates(input).errors

const scan = (input: { source?: unknown; requiredServerParams?: unknown }) => SecurityScan.scan(input).errors

const aggregate = (entry: unknown) => Grading.computeAggregateGrade({ entry }).errors
const tiered = { gradingId: 'abcd1234--2026-05-31T11-00Z', gradingTier: 'autonomous' }

const goal = (input: Record<string, unknown>) => PromptBuilder.buildGoalBlock(input).errors
const payload = (input: Record<string, unknown>) =>
    PromptBuilder.payloadToAreaOutputs({ area: 'single-test', ...input } as never).errors
const result = { unit: 'getPrice', questionId: 'Q-single-test-1', score: 4, reasoning: 'r' }
const envelope = { schemaHash: 'abcd1234', timestamp: '2026-05-31T11:00:00Z', iteration: 1 }

const TABLE: Record<string, Row[]> = {
    'PromptBuilder.buildGoalBlock': [
        ...rows('condition', (value) => goal({ condition: value })),
        ...rows('all', (value) => goal({ condition: value, area: value, maxTurns: value })),
        ...rows('condition, area', (value) => goal({ condition: value, area: 'nope' }))
    ],
    'PromptBuilder.payloadToAreaOutputs': [
        ...rows('results', (value) => payload({ results: value, envelope })),
        ...rows('envelope', (value) => payload({ results: [result], envelope: value })),
        ...rows('results, envelope', (value) => payload({ results: value, envelope: value })),
        ...rows('envelope, defaultNaReason', (value) =>
            payload({ results: [result], envelope: value, defaultNaReason: value })
        )
    ],
    'Grading.computeAggregateGrade-entry': [
        ...rows('entry', aggregate),
        ...rows('entry.gradingTier', (value) => aggregate({ gradingTier: value, gradings: [] })),
        ...rows('entry.gradings', (value) => aggregate({ ...tiered, gradings: value })),
        ...rows('entry fields', (value) => aggregate({ gradingTier: value, gradings: value }))
    ],
    'SecurityScan.scan': [
        ...rows('source', (value) => scan({ source: value })),
        ...rows('requiredServerParams', (value) =>
            scan({ source: 'export const main = {}', requiredServerParams: value })
        ),
        ...rows('all', (value) => scan({ source: value, requiredServerParams: value })),
        ...rows('input', (value) => SecurityScan.scan(value as never).errors),
        ...rows('too long', (value) => scan({ source: 'x'.repeat(2_000_000), requiredServerParams: value }), [
            'string',
            'number'
        ])
    ],
    'Areas.evaluateGates': [
        ...rows('areas', (value) => gates({ areas: value })),
        ...rows('signals', (value) => gates({ signals: value })),
        ...rows('signals.aboutPresent', (value) => gates({ signals: { aboutPresent: value } })),
        ...rows('signals.namespaceLevel', (value) => gates({ signals: { namespaceLevel: value } })),
        ...rows('all', (value) => gates({ areas: value, signals: value })),
        ...rows('areas, signals fields', (value) =>
            gates({ areas: value, signals: { namespaceLevel: value, memberLevel: value, aboutPresent: value } })
        ),
        ...rows('bad ids and fields', (value) =>
            gates({ areas: ['nope', value], signals: { memberLevel: value, aboutPresent: value } })
        )
    ],
    'Grading.validateEntry-expect': [
        ...rows('expect', expectation),
        ...table(EXPECT_FIELDS, (field, value) => expectation({ [field]: value })),
        ...rows('all fields', (value) => expectation(Object.fromEntries(EXPECT_FIELDS.map((f) => [f, value])))),
        ...rows('unknown field and schemaHash', (value) => expectation({ extra: 1, schemaHash: value, area: 'nope' })),
        ...rows('well-formed but wrong', () => expectation({ schemaHash: 'ABCD1234', area: 'no-area', tool: 't' }), [
            'undefined'
        ])
    ]
}

describe('argument checks keep their codes, paths and messages (table recorded on the hand-written checks), vb4', () => {
    recorded(TABLE)
    recordedAsync(async () => {
        const list: Row[] = []
        for (const [label, value] of Object.entries(BAD)) {
            const { errors } = await gradeSingleSchema(value as never)
            list.push({
                case: `input = ${label}`,
                issues: errors.map(({ code, path, message }) => ({ code, path, message }))
            })
        }
        return { 'gradeSingleSchema-input': list }
    })
})
