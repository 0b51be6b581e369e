import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ENTRY_RULES, applyLevels, levelOf } from '../../src/grading/entry-levels.js'
import { CATALOGUE } from '../../src/errors/catalogue/index.js'
import { createIssue } from '../../src/errors/issue.js'
import { Grading, validateGradingEntry, type GradingEntry, type ValidateEntryInput } from '../../src/index.js'
import { det, example, nd } from './helpers.js'

const NOW = '2026-06-01T00:00:00Z'
const START = '<!-- entry-levels:start (checked against ENTRY_RULES by test/grading/entry-levels.test.ts) -->'
const END = '<!-- entry-levels:end -->'

/** The rows of the docs table: rule in words, default level, strict level, code. */
function docsRows(): string[][] {
    const doc = readFileSync(new URL('../../docs/grading.md', import.meta.url), 'utf8')
    const from = doc.indexOf(START)
    const to = doc.indexOf(END)
    if (from < 0 || to < from) return []
    return doc
        .slice(from + START.length, to)
        .trim()
        .split('\n')
        .slice(2)
        .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s\|$/g, '').trim()))
}

/** A full single-test entry answering the whole catalogue (B), one script and one judge, for the rules to break. */
function base(): GradingEntry {
    const q = (n: number): string => `Q-single-test-${String(n).padStart(2, '0')}`
    const weights = [0.34, 0.33, 0.33, 0.34, 0.33, 0.33, 0.25, 0.25, 0.25, 0.25]
    const gradings = weights.map((weight, i) =>
        i < 3 ? det(q(i + 1), 'pass', { weight }) : nd(q(i + 1), 4, { weight })
    )
    const { entry } = Grading.createEntry({
        schemaId: 'etherscan.getBalance',
        area: 'single-test',
        version: 'flowmcp/4.0.0',
        schemaHash: 'a1b2c3d4',
        gradingMode: 'full',
        now: '2026-05-29T10:00:00Z',
        gradings
    })
    return JSON.parse(JSON.stringify(entry)) as GradingEntry
}
type Mut = Record<string, unknown> & { gradings: Array<Record<string, unknown>> }
const edit = (f: (e: Mut) => void, now: unknown = NOW): { entry: unknown; now: unknown } => {
    const e = base() as unknown as Mut
    f(e)
    return { entry: e, now }
}

/** For every rule of the table, an entry that breaks exactly that rule. */
const BREAKS: Record<string, () => { entry: unknown; now: unknown }> = {
    'GRD-068': () => edit((e) => void e.gradings.push({ ...e.gradings[0], questionId: 'Q-bribe' })),
    'GRD-059': () => edit((e) => void e.gradings.push({ ...e.gradings[0], questionId: 'Q-about-namespace-01' })),
    'GRD-060': () => edit((e) => void e.gradings.push({ ...e.gradings[0], questionId: 'Q-single-test-99' })),
    'GRD-069': () => edit((e) => void ((e.gradings[0] as Record<string, unknown>).score = 'stale')),
    'GRD-070': () =>
        edit(
            (e) =>
                void e.gradings.push({ ...e.gradings[0], questionId: 'Q-api-availability', score: 'stale', weight: 1 })
        ),
    'GRD-056': () => edit((e) => void ((e.gradings[5] as Record<string, unknown>).determinism = 'deterministic')),
    'GRD-058': () => edit((e) => void e.gradings.pop()),
    'GRD-053': () => edit((e) => void e.gradings.push({ ...e.gradings[4] })),
    'GRD-054': () => edit((e) => void e.gradings.push({ ...e.gradings[4], timestamp: '2026-05-29T11:00:00Z' })),
    'GRD-071': () =>
        edit(
            (e) =>
                void e.gradings.push({
                    ...e.gradings[4],
                    graderIdentity: { kind: 'human', name: 'reviewer', version: '1' }
                })
        ),
    'GRD-072': () =>
        edit(
            (e) =>
                void ((e.gradings[9] as Record<string, unknown>).graderIdentity = {
                    kind: 'llm',
                    name: 'second-judge',
                    version: '1'
                })
        ),
    'GRD-073': () => edit((e) => void (e.gradingMode = 'partial')),
    'VER-004': () => edit((e) => void (e.gradingSystem = 'gradingSystem/2.0.0')),
    'VER-005': () => edit((e) => void (e.scoringSystem = 'scoringSystem/2.0.0')),
    'GRD-065': () => edit((e) => void ((e.gradings[9] as Record<string, unknown>).weight = 1)),
    'GRD-057': () => edit((e) => void (e.gradingId = 'deadbeef--2026-05-29T10-00-00Z')),
    'BND-006': () => edit((e) => void (e.gradingId = 'a1b2c3d4--2026-05-29T10-00-00Z\u2060')),
    'BND-007': () => edit((e) => void (e.gradingId = 'a1b2c3d4--2025-05-29T10-00-00Z')),
    'GRD-026': () =>
        edit((e) =>
            e.gradings.forEach(
                (g) =>
                    g.determinism === 'non-deterministic' &&
                    Object.assign(g, { score: 'n/a', naReason: 'requires-private-data' })
            )
        ),
    'GRD-055': () => edit((e) => void delete (e.gradings[6] as Record<string, unknown>).reasoning),
    'GRD-074': () => ({ entry: base(), now: undefined }),
    'GRD-061': () => edit((e) => void ((e.gradings[0] as Record<string, unknown>).timestamp = '2026-12-01T00:00:00Z')),
    'GRD-063': () => edit(() => undefined, new Date(Number.NaN)),
    'GRD-014': () => edit((e) => void (e.aggregateGrade = 'C')),
    'GRD-075': () =>
        edit(
            (e) =>
                void Object.defineProperty(e.gradings[0], 'constructor', {
                    value: 1,
                    enumerable: true,
                    configurable: true,
                    writable: true
                })
        )
}

describe('the validation levels (docs/grading.md, Validation levels)', () => {
    it('docs/grading.md prints exactly ENTRY_RULES: each code once, in order, with its two levels and the rule in words', () => {
        const rows = docsRows()
        const last = rows.pop()
        expect(rows.map(([, d, strict, code]) => [code, d, strict])).toEqual(
            ENTRY_RULES.map((r) => [r.code, r.default, r.strict])
        )
        for (const [rule] of rows) expect((rule ?? '').length).toBeGreaterThan(10)
        expect(last?.slice(1)).toEqual(['warning', 'error', '—'])
    })

    it('starts from an entry that passes both modes without any issue', () => {
        const entry = base()
        expect(validateGradingEntry({ entry, now: NOW })).toMatchObject({ valid: true, entry, errors: [] })
        expect(validateGradingEntry({ entry, now: NOW, strict: true })).toMatchObject({
            valid: true,
            entry,
            errors: []
        })
    })

    it('has a breaking entry for every rule, and every rule of the table is listed once', () => {
        expect(Object.keys(BREAKS).sort()).toEqual(ENTRY_RULES.map((r) => r.code).sort())
        expect(new Set(ENTRY_RULES.map((r) => r.code)).size).toBe(ENTRY_RULES.length)
    })

    it.each(ENTRY_RULES.map((r) => [r.code, r] as const))('%s reports at its level in each mode', (code, rule) => {
        for (const strict of [false, true]) {
            const { entry, now } = (BREAKS[code] as () => { entry: unknown; now: unknown })()
            // A rule breaking `now` itself is checked without one, strict or not: what a host may send.
            const input = { entry, ...(now !== undefined ? { now: now as string } : {}), strict } as ValidateEntryInput
            const result = validateGradingEntry(input)
            const level = strict ? rule.strict : rule.default
            const found = result.errors.filter((i) => i.code === code)
            if (level === 'off') expect(found).toEqual([])
            else expect(found.length > 0 && found.every((i) => i.severity === level)).toBe(true)
            if (strict) expect(result.valid).toBe(false)
        }
    })

    it('gives each code of the table the catalogue severity of its default level (error where the rule is strict-only)', () => {
        for (const r of ENTRY_RULES)
            expect([r.code, CATALOGUE[r.code].severity]).toEqual([r.code, r.default === 'off' ? 'error' : r.default])
    })

    it('makes every other warning an error in strict mode and leaves infos alone', () => {
        const issues = [
            createIssue('GRD-029', '/x', { from: 'a', to: 'b' }),
            createIssue('GRD-027', '/y', { questionId: 'Q', detail: 'd' })
        ]
        expect(applyLevels(issues, false).map((i) => i.severity)).toEqual(['warning', 'info'])
        expect(applyLevels(issues, true).map((i) => i.severity)).toEqual(['error', 'info'])
        expect(levelOf('GRD-029', true)).toBeUndefined()
    })

    it('accepts the spec examples in both modes (the examples stay valid)', () => {
        for (const name of ['grading-autonomous', 'grading-rejected'] as const) {
            expect(validateGradingEntry({ entry: example(name), now: NOW, strict: true }).errors).toEqual([])
        }
    })
})
