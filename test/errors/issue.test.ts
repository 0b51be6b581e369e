import { describe, expect, it } from 'vitest'
import { createIssue, fillTemplate, issueFactory, MAX_PARAM_CHARS } from '../../src/errors/issue.js'
import { createEntryIssue } from '../../src/errors/entry-issue.js'
import { VETO_CODES } from '../../src/errors/catalogue/veto.js'

describe('fillTemplate', () => {
    it('writes a sentence-long param whole: no message is cut mid-sentence', () => {
        const detail =
            'not tested: the schema exports handlers, which the FlowMCP runtime runs on every call of this tool; pass a runtime (options.runtime, CLI --runtime <flowmcp-core folder>) to test it as the runtime runs it'
        expect(detail.length).toBeGreaterThan(120)
        expect(
            createIssue('IDX-030', '/x', { tool: 'getPrice', reason: 'handlers-need-runtime', detail }).message
        ).toBe(`Tool getPrice was not tested (handlers-need-runtime): ${detail}`)
    })

    it('bounds a param past the limit and says how much it left out, and keeps a missing param visible', () => {
        const dump = 'x'.repeat(MAX_PARAM_CHARS + 5)
        expect(fillTemplate('got {value}', { value: dump })).toBe(
            `got ${'x'.repeat(MAX_PARAM_CHARS)} (5 more characters not shown)`
        )
        expect(fillTemplate('got {value} and {other}', { value: 3 })).toBe('got 3 and {other}')
    })
})

describe('issueFactory: createIssue over some groups of the catalogue', () => {
    it('creates the same issue as createIssue for a code of its groups', () => {
        expect(createEntryIssue('GRD-014', '/aggregateGrade', { grade: 'B', expected: 'D' })).toEqual(
            createIssue('GRD-014', '/aggregateGrade', { grade: 'B', expected: 'D' })
        )
        expect(createEntryIssue('INP-006', '/a', { key: '"a"', invisible: '' }).severity).toBe('error')
    })

    it('accepts only the codes of its groups', () => {
        const onlyVeto = issueFactory(VETO_CODES)
        // @ts-expect-error GRD-014 is not a veto code
        expect(() => onlyVeto('GRD-014', '')).toThrow(TypeError)
        expect(onlyVeto('VET-001', '', { value: 'x' }).code).toBe('VET-001')
    })
})
