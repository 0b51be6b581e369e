// The argument checks as callers see them, continued (see arg-checks-table.test.ts): entry points whose checks were
// written `{ field, expected, actual: typeOfValue(x) }`. Recorded on the hand-written checks before their move to
// valibot schemas through parseArgs; the schemas keep what is recorded here.
import { describe } from 'vitest'
import { checkExpectation } from '../../src/grading/binding.js'
import { recorded, rows, table, type Row } from './arg-rows.js'

const EXPECT_FIELDS = ['schemaId', 'schemaHash', 'source', 'tool', 'area']
const expectation = (value: unknown) => checkExpectation(value).issues

const TABLE: Record<string, Row[]> = {
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
})
