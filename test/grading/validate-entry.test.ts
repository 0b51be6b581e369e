import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkEntry, checkParsedEntry } from '../../src/grading/validate-entry.js'
import { validateGradingEntry } from '../../src/index.js'

const dir = new URL('../fixtures/entries/', import.meta.url)
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, dir), 'utf8'))
const invalid = readdirSync(new URL('invalid/', dir))
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({
        file,
        ...(read(`invalid/${file}`) as { description: string; expectedCodes: string[]; entry: unknown })
    }))

describe('validateGradingEntry', () => {
    it.each(['grading-autonomous.json', 'grading-rejected.json'])('accepts the spec example %s', (file) => {
        const entry = read(`valid/${file}`)
        expect(validateGradingEntry({ entry })).toMatchObject({ valid: true, entry, errors: [] })
    })

    it('has at least 30 invalid golden entries', () => {
        expect(invalid.length).toBeGreaterThanOrEqual(30)
    })

    it.each(invalid)('rejects $file ($description) with exactly its expected codes', ({ entry, expectedCodes }) => {
        const result = validateGradingEntry({ entry })
        expect(result.valid).toBe(false)
        const codes = [...new Set(result.errors.filter((e) => e.severity === 'error').map((e) => e.code))].sort()
        expect(codes).toEqual([...expectedCodes].sort())
        for (const issue of result.errors) {
            expect(issue.path === '' || issue.path.startsWith('/')).toBe(true)
        }
    })

    it.each([
        [undefined, 'GRD-001'],
        [null, 'GRD-064'],
        ['{}', 'GRD-002'],
        [[1], 'GRD-002'],
        [42, 'GRD-002']
    ])('rejects a non-object entry %j with %s', (entry, code) => {
        expect(validateGradingEntry({ entry }).errors).toMatchObject([{ code, path: '' }])
    })

    it('reports every defect at once with JSON-Pointer paths', () => {
        const entry = read('valid/grading-autonomous.json') as Record<string, unknown>
        const broken = {
            ...entry,
            harness: 'x',
            gradings: [
                {
                    questionId: 'Q-a',
                    score: 9,
                    weight: -2,
                    determinism: 'deterministic',
                    graderIdentity: { kind: 'script', name: 's', version: '1' },
                    timestamp: '2026-01-01T00:00:00Z'
                }
            ]
        }
        const paths = validateGradingEntry({ entry: broken }).errors.map((e) => `${e.code} ${e.path}`)
        expect(paths).toEqual(
            expect.arrayContaining(['GRD-034 /harness', 'SCO-001 /gradings/0/score', 'SCO-004 /gradings/0/weight'])
        )
    })

    it('skips the recomputation check for an entry of another gradingSystem line and says so (VER-004)', () => {
        const entry = {
            ...(read('valid/grading-autonomous.json') as object),
            gradingSystem: 'gradingSystem/2.0.0',
            aggregateGrade: 'C'
        }
        const result = validateGradingEntry({ entry })
        expect(result.valid).toBe(true)
        expect(result.errors.map((e) => e.code)).toEqual(['VER-004'])
    })

    it('enforces the size limits on external JSON', () => {
        const entry = { ...(read('valid/grading-autonomous.json') as object), schemaId: 'x'.repeat(2_000_000) }
        expect(validateGradingEntry({ entry }).errors[0]).toMatchObject({ code: 'INP-003', path: '/schemaId' })
        expect(
            validateGradingEntry({ entry: read('valid/grading-autonomous.json'), limits: { maxDepth: 2 } }).errors[0]
                ?.code
        ).toBe('INP-002')
    })

    it('does not let a __proto__ key change any prototype: dropped with a warning, an error in strict mode (GRD-075)', () => {
        const text = readFileSync(new URL('valid/grading-autonomous.json', dir), 'utf8').replace(
            '"gradingId"',
            '"__proto__": { "polluted": 1 }, "gradingId"'
        )
        const result = validateGradingEntry({ entry: JSON.parse(text) })
        expect(result.errors.map((e) => `${e.code} ${e.severity} ${e.path}`)).toEqual(['GRD-075 warning /__proto__'])
        expect(result.valid && Object.hasOwn(result.entry, '__proto__')).toBe(false)
        expect(
            validateGradingEntry({ entry: JSON.parse(text), strict: true, now: '2026-06-01T00:00:00Z' }).errors.map(
                (e) => `${e.code} ${e.severity}`
            )
        ).toEqual(['GRD-075 error'])
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    })
})

describe('checkParsedEntry (validation past the JSON guard)', () => {
    it('returns no issue and the untraced recomputation for a valid full entry', () => {
        const entry = read('valid/grading-autonomous.json') as Record<string, unknown>
        const { errors, recomputed } = checkParsedEntry(entry)
        expect(errors).toEqual([])
        expect(recomputed).toMatchObject({ aggregateGrade: 'B', rawGrade: 'A', normalizedScore: 4.5, trace: [] })
    })

    it('reports the same issues as validateGradingEntry for every invalid fixture that passes the guard', () => {
        for (const { entry } of invalid) {
            if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue
            const full = validateGradingEntry({ entry })
            if (full.errors.some((e) => e.code.startsWith('INP-'))) continue
            expect(checkParsedEntry(entry as Record<string, unknown>).errors).toEqual(full.errors)
        }
    })

    it('does not recompute a vetoed entry', () => {
        expect(checkParsedEntry(read('valid/grading-rejected.json') as Record<string, unknown>).recomputed).toBeNull()
    })
})

describe('checkEntry (validation with the recomputed grade)', () => {
    it("gives validateGradingEntry's issues and the recomputed figures of a valid full entry", () => {
        const { errors, recomputed } = checkEntry(read('valid/grading-autonomous.json'))
        expect(errors).toEqual([])
        expect(recomputed).toMatchObject({ aggregateGrade: 'B', rawGrade: 'A', normalizedScore: 4.5 })
    })

    it('fails like validateGradingEntry on a non-object, a non-JSON value and tight limits, without a recomputation', () => {
        expect(checkEntry(42)).toEqual({ errors: validateGradingEntry({ entry: 42 }).errors, recomputed: null })
        expect(checkEntry({ a: Number.NaN }).errors[0]).toMatchObject({ code: 'INP-001', path: '/a' })
        expect(checkEntry(read('valid/grading-autonomous.json'), { maxDepth: 1 })).toMatchObject({
            errors: [{ code: 'INP-002' }],
            recomputed: null
        })
    })
})
