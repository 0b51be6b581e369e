import { describe, expect, expectTypeOf, it } from 'vitest'
import { createEntryIssue } from '../../src/errors/entry-issue.js'
import { createIssue, fillTemplate } from '../../src/errors/issue.js'
import type { Placeholders } from '../../src/errors/params.js'

// The compile-time half is checked by `npm run typecheck` (test/tsconfig.json): each `@ts-expect-error` must meet an
// error, so a call with a missing or unknown placeholder cannot compile.
describe('message params typed per code', () => {
    it('reads the placeholders of a template as fillTemplate does', () => {
        expectTypeOf<Placeholders<'Rubric {field} must be an object, got {actual}'>>().toEqualTypeOf<
            'field' | 'actual'
        >()
        expectTypeOf<Placeholders<'{{{param}}} is used but {param} is not listed'>>().toEqualTypeOf<'param'>()
        expectTypeOf<Placeholders<'entries must be {{list:alias}} references, got {value}'>>().toEqualTypeOf<'value'>()
        expectTypeOf<Placeholders<'The rules must be { "<code>": "off" } ({count})'>>().toEqualTypeOf<'count'>()
        expectTypeOf<Placeholders<'No placeholder here'>>().toEqualTypeOf<never>()
        const filled = fillTemplate('{{{param}}} and {{list:alias}} and { "a": 1 } {n}', { param: 'p', n: 2 })
        expect(filled).toBe('{{p}} and {{list:alias}} and { "a": 1 } 2')
    })

    it('accepts exactly the placeholders of the code, and fills every one', () => {
        const issue = createIssue('RUB-002', '/input', { field: 'input', actual: 'string' })
        expect(issue.message).toBe('Rubric input must be an object, got string')
        // @ts-expect-error a placeholder of the message is missing
        const missing = createIssue('RUB-002', '/input', { field: 'input' })
        expect(missing.message).toContain('{actual}')
        // @ts-expect-error a key the message does not name
        createIssue('RUB-003', '', { field: 'x', extra: 1 })
        // @ts-expect-error the message has placeholders, so params are required
        createIssue('RUB-003', '')
        // @ts-expect-error the entry factory checks its codes' params the same way
        createEntryIssue('INT-002', '', { fn: 'f' })
        expect(createEntryIssue('INT-002', '', { fn: 'f', detail: 'd' }).code).toBe('INT-002')
    })
})
