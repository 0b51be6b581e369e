import { describe, expect, it } from 'vitest'
import { FixRules, type ErrorCode, type FixItem, type Issue } from '../../src/index.js'

const item = (code: string, severity: FixItem['severity']): FixItem => ({
    schemaId: 'frankfurter.frankfurter',
    file: 'providers/frankfurter/frankfurter.mjs',
    kind: code.startsWith('Q-') ? 'answer' : 'finding',
    code,
    severity,
    message: `${code} message`,
    pointer: '',
    line: 3,
    column: 5,
    cost: 1
})
const issue = (code: ErrorCode, severity: Issue['severity']): Issue => ({
    code,
    severity,
    message: `${code} message`,
    path: ''
})
const items = [
    item('SCH-WARN-012', 'warning'),
    item('SCH-WARN-011', 'warning'),
    item('Q-single-test-05', 'warning'),
    item('SCH-003', 'error')
]

describe('FixRules (config rules, eslint style)', () => {
    it.each([
        [{ 'SCH-WARN-012': 'off' }, ['SCH-WARN-011:warning', 'Q-single-test-05:warning', 'SCH-003:error']],
        [{ 'SCH-WARN-012': 0, 'SCH-003': 1 }, ['SCH-WARN-011:warning', 'Q-single-test-05:warning', 'SCH-003:warning']],
        [
            { 'SCH-WARN-011': 'error', 'Q-single-test-05': 2 },
            ['SCH-WARN-012:warning', 'SCH-WARN-011:error', 'Q-single-test-05:error', 'SCH-003:error']
        ],
        [{}, ['SCH-WARN-012:warning', 'SCH-WARN-011:warning', 'Q-single-test-05:warning', 'SCH-003:error']]
    ])('applies %j to the fix items in their order', (rules, expected) => {
        const out = FixRules.apply({ items, rules })
        expect(out.errors).toEqual([])
        expect(out.items.map((i) => `${i.code}:${i.severity}`)).toEqual(expected)
    })

    it('applies the same rules to issues', () => {
        const out = FixRules.apply({
            issues: [issue('SCH-WARN-012', 'warning'), issue('GRA-006', 'error')],
            rules: { 'SCH-WARN-012': 'off', 'GRA-006': 'warning' }
        })
        expect(out.issues.map((i) => `${i.code}:${i.severity}`)).toEqual(['GRA-006:warning'])
    })

    it.each([
        [[], 'CFG-001', '/rules'],
        [{ 'SCH-WARN-012': 'warn-ish' }, 'CFG-002', '/rules/SCH-WARN-012'],
        [{ 'SCH-WARN-012': 3 }, 'CFG-002', '/rules/SCH-WARN-012'],
        [{ 'not a code': 'off' }, 'CFG-003', '/rules/not a code']
    ])('refuses the rules %j (%s) and changes nothing', (rules, code, path) => {
        const out = FixRules.apply({ items, rules })
        expect(out.errors.map((e) => [e.code, e.path])).toEqual([[code, path]])
        expect(out.items).toEqual(items)
        expect(FixRules.check({ rules }).errors.map((e) => e.code)).toEqual([code])
    })

    it('warns of a well-formed code nothing emits (CFG-005) with the nearest codes, and still applies the other rules', () => {
        const out = FixRules.apply({ items, rules: { 'SCH-WARN-211': 'off', 'SCH-WARN-011': 'error' } })
        expect(out.errors.map((e) => [e.code, e.severity, e.path])).toEqual([
            ['CFG-005', 'warning', '/rules/SCH-WARN-211']
        ])
        expect(out.errors[0]?.message).toContain('did you mean SCH-WARN-011?')
        expect(out.items.find((i) => i.code === 'SCH-WARN-011')?.severity).toBe('error')
        expect(FixRules.check({ rules: { 'ZZZZZZ-999': 'off' } }).errors[0]?.message).toMatch(/sets nothing$/)
    })
})
