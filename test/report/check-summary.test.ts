import { describe, expect, it } from 'vitest'
import { checkSummaryMarkdown, type CheckSummaryRow, type FixItem } from '../../src/index.js'

const fix = (code: string, tool: string, line: number | null): FixItem =>
    ({
        kind: 'finding',
        code,
        severity: 'error',
        message: `Tool ${tool} has no description.`,
        schemaId: 'demo.x',
        file: 'x.mjs',
        pointer: `/tools/${tool}/description`,
        tool,
        line,
        column: line === null ? null : 5,
        cost: 0
    }) as unknown as FixItem

const passing: CheckSummaryRow = {
    schema: 'demo.ok',
    grade: 'A',
    baseline: 'A',
    status: 'stable',
    note: null,
    failures: [],
    fixes: []
}
const failing: CheckSummaryRow = {
    schema: 'demo.x|y',
    grade: 'C',
    baseline: 'A',
    status: 'graded',
    failures: ['was A, now C'],
    fixes: [fix('SCH-001', 'getX', 3)]
}

describe('checkSummaryMarkdown', () => {
    it('writes the verdict, a row per schema and, under a failing schema, why and what to fix first', () => {
        const { markdown, failed, errors } = checkSummaryMarkdown({ rows: [passing, failing] })
        expect(errors).toEqual([])
        expect(failed).toBe(1)
        expect(markdown.startsWith('## flowmcp-grading check: 1 schema failed\n')).toBe(true)
        expect(markdown).toContain('| demo.ok | A | A | stable | ok |')
        // A pipe in a schema id would end the table cell.
        expect(markdown).toContain('| demo.x\\|y | C | A | graded | **fails** |')
        expect(markdown).toContain('### demo.x\\|y\n\n- was A, now C')
        expect(markdown).toMatch(
            /What to fix first \(.+\):\n\n- `SCH-001` Tool getX has no description\. — tool getX \(line 3\)/
        )
        expect(markdown.endsWith('\n')).toBe(true)
    })

    it('says passed, too many warnings, could not run, and what an interruption skipped', () => {
        expect(checkSummaryMarkdown({ rows: [passing] }).markdown).toMatch(/^## flowmcp-grading check: passed\n/)
        expect(checkSummaryMarkdown({ rows: [passing], tooManyWarnings: '7 warnings' }).markdown).toMatch(
            /^## flowmcp-grading check: too many warnings\n\n.*: 7 warnings\n/
        )
        expect(checkSummaryMarkdown({ rows: [], problem: 'no schema | found' }).markdown).toBe(
            '## flowmcp-grading check: could not run\n\nno schema \\| found\n'
        )
        expect(checkSummaryMarkdown({ rows: [passing], interrupted: ['demo.y'] }).markdown).toMatch(
            /\n\n\*\*Interrupted\*\* \(Ctrl-C\); skipped: demo\.y\n$/
        )
    })

    it('never heads an interrupted check "passed": its heading says interrupted', () => {
        expect(checkSummaryMarkdown({ rows: [passing], interrupted: ['not started: providers/b'] }).markdown).toMatch(
            /^## flowmcp-grading check: interrupted\n/
        )
        expect(checkSummaryMarkdown({ rows: [failing], interrupted: [] }).markdown).toMatch(
            /^## flowmcp-grading check: interrupted \(1 schema failed\)\n/
        )
    })

    it('shows an unverified row with its cause, a removed one, the notices once, and the warnings new since the baseline marked new', () => {
        const unverified: CheckSummaryRow = {
            schema: 'demo.judged',
            grade: null,
            baseline: 'B',
            status: 'pending',
            failures: ['not verified: 3 of 3 units not graded: HTTP 401 invalid key'],
            fixes: [],
            verdict: 'unverified',
            unverified: '3 of 3 units not graded: HTTP 401 invalid key'
        }
        const removed: CheckSummaryRow = {
            schema: 'demo.gone',
            grade: null,
            baseline: 'A',
            status: 'removed',
            failures: [],
            fixes: [],
            verdict: 'removed'
        }
        const warned: CheckSummaryRow = {
            ...passing,
            newWarnings: [
                {
                    ...fix('SCH-WARN-011', 'getX', 2),
                    severity: 'warning',
                    tool: undefined,
                    message: 'name should be PascalCase'
                } as unknown as FixItem
            ]
        }
        const { markdown } = checkSummaryMarkdown({ rows: [unverified, removed, warned], notices: ['no judge given'] })
        expect(markdown).toMatch(/^## flowmcp-grading check: 1 schema not verified\n\n> no judge given\n/)
        expect(markdown).toContain('| demo.judged | — | B | pending | **unverified** |')
        expect(markdown).toContain('| demo.gone | — | A | removed | removed |')
        expect(markdown).toContain('### demo.judged\n\n- not verified: 3 of 3 units not graded: HTTP 401 invalid key')
        expect(markdown).toContain(
            'New warnings:\n\n- **new** `SCH-WARN-011` demo.ok: name should be PascalCase (line 2)'
        )
    })

    it('shows the status note and no more fix lines than asked', () => {
        const noted = checkSummaryMarkdown({
            rows: [{ ...passing, grade: null, status: 'blocked', note: '1 tool not tested here' }]
        }).markdown
        expect(noted).toContain('| demo.ok | — | A | blocked (1 tool not tested here) | ok |')
        const none = checkSummaryMarkdown({ rows: [failing], fixItemsShown: 0 }).markdown
        expect(none).not.toContain('What to fix first')
    })

    it('answers a malformed input with GRA-002 and an empty summary, never a throw', () => {
        expect(checkSummaryMarkdown(undefined as never).errors.map((e) => [e.code, e.path])).toEqual([['GRA-002', '']])
        expect(checkSummaryMarkdown({ rows: 'x' } as never).errors.map((e) => [e.code, e.path])).toEqual([
            ['GRA-002', '/rows']
        ])
        const bad = checkSummaryMarkdown({ rows: [passing, { schema: 5 }] } as never)
        expect(bad.errors.map((e) => [e.code, e.path])).toEqual([['GRA-002', '/rows/1']])
        expect(bad.markdown).toBe('')
    })
})
