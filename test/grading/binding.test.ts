import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateGradingEntry } from '../../src/grading/validate-entry.js'
import { gradingIdInstant } from '../../src/grading/binding.js'
import { computeAggregate } from '../../src/grading/aggregate.js'
import type { GradingEntry } from '../../src/index.js'
import { catalogueEntry } from './helpers.js'

const NOW = '2026-06-01T00:00:00Z'
const codes = (r: { errors: ReadonlyArray<{ code: string; severity: string }> }, severity = 'error'): string[] =>
    r.errors.filter((i) => i.severity === severity).map((i) => i.code)

/** The library's own full single-test entry, with the ids a registry would hold for it. */
function entry(extra: Record<string, unknown> = {}): GradingEntry {
    return { ...catalogueEntry('single-test'), ...extra } as GradingEntry
}

describe('binding: expect states what the registry holds (issue 45)', () => {
    it('accepts an entry whose every stated fact matches', () => {
        const e = entry()
        const r = validateGradingEntry({
            entry: e,
            now: NOW,
            strict: true,
            expect: { schemaId: e.schemaId, schemaHash: e.schemaHash, area: 'single-test' }
        })
        expect(r.valid).toBe(true)
        expect(r.errors).toEqual([])
    })

    it('reports each mismatch with its own code: schemaId BND-001, schemaHash BND-002, area BND-003', () => {
        const e = entry()
        const r = validateGradingEntry({
            entry: e,
            expect: { schemaId: 'other.schema', schemaHash: '00000000', area: 'tools-aggregate-schema' }
        })
        expect(r.valid).toBe(false)
        expect(codes(r).sort()).toEqual(['BND-001', 'BND-002', 'BND-003'])
        expect(r.errors.find((i) => i.code === 'BND-001')?.message).toBe(
            `The entry grades schema ${e.schemaId}, but the registry expects other.schema`
        )
    })

    it('a consistent rewrite of schemaId, schemaHash and gradingId is caught by the stated facts', () => {
        const e = entry()
        const forged = {
            ...e,
            schemaId: 'other.schema',
            schemaHash: 'ffffffff',
            gradingId: `ffffffff--2026-05-29T10-00-00Z`
        }
        expect(validateGradingEntry({ entry: forged, now: NOW, strict: true }).valid).toBe(true)
        const r = validateGradingEntry({
            entry: forged,
            now: NOW,
            strict: true,
            expect: { schemaId: e.schemaId, schemaHash: e.schemaHash }
        })
        expect(codes(r).sort()).toEqual(['BND-001', 'BND-002'])
    })

    it('expect.tool: only a single-test entry grades a tool, and its evidence names no other tool (BND-004)', () => {
        const e = entry()
        const other = validateGradingEntry({
            entry: catalogueEntry('tools-aggregate-schema'),
            expect: { tool: 'getBalance' }
        })
        expect(codes(other)).toEqual(['BND-004'])
        const named = {
            ...e,
            gradings: e.gradings.map((g, i) => (i === 0 ? { ...g, evidence: { tool: 'getPrice' } } : g))
        }
        const r = validateGradingEntry({ entry: named, expect: { tool: 'getBalance' } })
        expect(r.errors.find((i) => i.code === 'BND-004')?.path).toBe('/gradings/0/evidence/tool')
        expect(validateGradingEntry({ entry: named, expect: { tool: 'getPrice' } }).valid).toBe(true)
    })

    it('rejects a malformed expect at /expect (BND-008) and never throws', () => {
        for (const expectValue of [
            null,
            'x',
            5,
            { schemaHash: 'XYZ' },
            { area: 'nowhere' },
            { tool: '' },
            { bogus: 1 }
        ]) {
            const r = validateGradingEntry({ entry: entry(), expect: expectValue as never })
            expect(r.valid).toBe(false)
            expect(r.errors.some((i) => i.code === 'BND-008' && i.path.startsWith('/expect'))).toBe(true)
        }
    })

    it('the validate-only function refuses expect.source and an envelope rather than skipping them (BND-011)', () => {
        const r = validateGradingEntry({ entry: entry(), expect: { source: 'export const main = {}' } })
        expect(codes(r)).toEqual(['BND-011'])
        expect(codes(validateGradingEntry({ entry: entry(), envelope: {} }))).toEqual(['BND-011'])
    })
})

describe('the gradingId grammar, read whole (01-model ⚠ A13)', () => {
    it.each([
        ['a1b2c3d4--2026-05-29T10-00-00Z', true],
        ['a1b2c3d4--2026-05-29T15-34Z', true],
        ['a1b2c3d4--2026-05-29T10-00-00.123Z', true],
        ['a1b2c3d4--lol', false],
        ['a1b2c3d4--2026-05-29T10-00-00Z\u2060', false],
        ['a1b2c3d4--2026-02-30T10-00-00Z', false],
        ['a1b2c3d4--2026-05-29T25-00-00Z', false],
        ['a1b2c3d4--2026-05-29T10:00:00Z', false]
    ])('%s follows the grammar: %s', (id, ok) => {
        expect(gradingIdInstant(id) !== null).toBe(ok)
        const r = validateGradingEntry({ entry: entry({ gradingId: id }), now: NOW, strict: true })
        expect(codes(r).includes('BND-006')).toBe(!ok)
        if (!ok)
            expect(codes(validateGradingEntry({ entry: entry({ gradingId: id }) }), 'warning')).toContain('BND-006')
    })

    it('names the invisible character of a gradingId instead of echoing it', () => {
        const r = validateGradingEntry({ entry: entry({ gradingId: 'a1b2c3d4--2026-05-29T10-00-00Z\u2060' }) })
        const message = r.errors.find((i) => i.code === 'BND-006')?.message ?? ''
        expect(message).toContain('U+2060')
        expect(message).not.toContain('\u2060')
    })

    it('a stamp a year before the answers is BND-007 (a warning by default, an error in strict mode)', () => {
        const old = entry({ gradingId: 'a1b2c3d4--2025-05-29T10-00-00Z' })
        expect(codes(validateGradingEntry({ entry: old }), 'warning')).toContain('BND-007')
        expect(codes(validateGradingEntry({ entry: old, now: NOW, strict: true }))).toContain('BND-007')
        // The spec's own example stamps its id hours after its answers: accepted.
        expect(
            codes(
                validateGradingEntry({
                    entry: entry({ gradingId: 'a1b2c3d4--2026-05-29T15-34Z' }),
                    now: NOW,
                    strict: true
                })
            )
        ).toEqual([])
    })
})

describe('clock skew and the aged grade (issue 45)', () => {
    const AT = '2026-05-29T10:00:00Z'
    const ahead = (seconds: number): GradingEntry => {
        const e = entry()
        const t = new Date(Date.parse(AT) + seconds * 1000).toISOString().replace('.000Z', 'Z')
        return { ...e, gradings: e.gradings.map((g, i) => (i === 0 ? { ...g, timestamp: t } : g)) } as GradingEntry
    }

    it('tolerates an answer up to maxClockSkewMs (default one minute) after now', () => {
        expect(validateGradingEntry({ entry: ahead(30), now: AT, strict: true }).errors).toEqual([])
        expect(codes(validateGradingEntry({ entry: ahead(90), now: AT, strict: true }))).toEqual(['GRD-061'])
        expect(codes(validateGradingEntry({ entry: ahead(30), now: AT, maxClockSkewMs: 0 }))).toEqual(['GRD-061'])
        expect(validateGradingEntry({ entry: ahead(90), now: AT, maxClockSkewMs: 120_000 }).valid).toBe(true)
    })

    it('rejects a maxClockSkewMs that is no non-negative number (BND-008)', () => {
        const r = validateGradingEntry({ entry: entry(), maxClockSkewMs: -1 })
        expect(r.errors.map((i) => [i.code, i.path])).toEqual([['BND-008', '/maxClockSkewMs']])
    })

    it('carries the grade aged at now beside the stored one (stored B, aged C once Q-api-availability is stale)', () => {
        const e = catalogueEntry('single-test', 2)
        const api = { ...e.gradings[0], questionId: 'Q-api-availability', weight: 1, score: 'pass' }
        const g = { ...e, gradings: [...e.gradings, api] } as GradingEntry
        const withApi = { ...g, aggregateGrade: computeAggregate(g, {}, false).aggregateGrade } as GradingEntry
        const fresh = validateGradingEntry({ entry: withApi, now: NOW })
        expect(fresh).toMatchObject({ valid: true, agedGrade: 'B', entry: { aggregateGrade: 'B' } })
        const later = validateGradingEntry({ entry: withApi, now: '2027-01-01T00:00:00Z' })
        expect(later).toMatchObject({ valid: true, agedGrade: 'C', entry: { aggregateGrade: 'B' } })
        expect(validateGradingEntry({ entry: withApi })).toMatchObject({ valid: true, agedGrade: null })
    })
})

describe('messages name invisible characters instead of echoing them (issue 45)', () => {
    const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\p{Cs}]|(?! )\p{Zs}/u

    it('GRD-009 names a U+202E in a schemaHash', () => {
        const r = validateGradingEntry({ entry: entry({ schemaHash: 'a1b2\u202ec3d4' }) })
        const message = r.errors.find((i) => i.code === 'GRD-009')?.message ?? ''
        expect(message).toContain('⟦U+202E⟧')
        expect(INVISIBLE.test(message)).toBe(false)
    })

    it('no message of entry validation carries an invisible character, wherever one is put into the entry', () => {
        const paths = (value: unknown, at: Array<string | number> = []): Array<Array<string | number>> =>
            typeof value === 'string'
                ? [at]
                : Array.isArray(value)
                  ? value.flatMap((v, i) => paths(v, [...at, i]))
                  : value !== null && typeof value === 'object'
                    ? Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))
                    : []
        const base = entry()
        const all = paths(base)
        fc.assert(
            fc.property(
                fc.nat(),
                fc.nat(),
                fc.constantFrom('\u202e', '\u2060', '\u200b', '\u0007', '\u2028', '\u00a0', '\ufeff'),
                fc.boolean(),
                (pick, offset, char, strict) => {
                    const path = all[pick % all.length] as Array<string | number>
                    const copy = JSON.parse(JSON.stringify(base)) as Record<string, unknown>
                    let owner = copy as Record<string | number, unknown>
                    for (const key of path.slice(0, -1)) owner = owner[key] as Record<string | number, unknown>
                    const last = path[path.length - 1] as string | number
                    const text = owner[last] as string
                    const at = offset % (text.length + 1)
                    owner[last] = text.slice(0, at) + char + text.slice(at)
                    const r = validateGradingEntry({
                        entry: copy,
                        strict,
                        now: NOW,
                        expect: { schemaId: base.schemaId }
                    })
                    for (const issue of r.errors) expect(INVISIBLE.test(issue.message)).toBe(false)
                }
            ),
            { numRuns: 400 }
        )
    })
})
