import { describe, expect, it } from 'vitest'
import { createIssue, fillTemplate, MAX_PARAM_CHARS } from '../../src/errors/issue.js'

describe('fillTemplate', () => {
    it('writes a sentence-long param whole: no message is cut mid-sentence', () => {
        const detail = "not tested: the schema exports handlers, which the FlowMCP runtime runs on every call of this tool; pass a runtime (options.runtime, CLI --runtime <flowmcp-core folder>) to test it as the runtime runs it"
        expect(detail.length).toBeGreaterThan(120)
        expect(createIssue('IDX-030', '/x', { tool: 'getPrice', reason: 'handlers-need-runtime', detail }).message).toBe(`Tool getPrice was not tested (handlers-need-runtime): ${detail}`)
    })

    it('bounds a param past the limit and says how much it left out, and keeps a missing param visible', () => {
        const dump = 'x'.repeat(MAX_PARAM_CHARS + 5)
        expect(fillTemplate('got {value}', { value: dump })).toBe(`got ${'x'.repeat(MAX_PARAM_CHARS)} (5 more characters not shown)`)
        expect(fillTemplate('got {value} and {other}', { value: 3 })).toBe('got 3 and {other}')
    })
})
