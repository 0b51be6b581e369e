import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ErrorCodes } from '../../src/index.js'
import { filesUnder, SRC } from '../support/files.js'

const CODE_PATTERN = /['"`]([A-Z]{2,5}(?:-WARN|-INFO)?-(?:\d{3}|S\d))['"`]/g

const sourceFiles = (dir: string): string[] => filesUnder(dir, '.ts')

function codesUsedOutsideCatalogue(): Map<string, string> {
    const used = new Map<string, string>()
    for (const file of sourceFiles(SRC)) {
        const rel = relative(SRC, file)
        if (rel.startsWith('errors/catalogue/')) {
            continue
        }
        for (const match of readFileSync(file, 'utf8').matchAll(CODE_PATTERN)) {
            used.set(match[1] as string, rel)
        }
    }
    return used
}

describe('ErrorCodes catalogue', () => {
    const all = ErrorCodes.list().codes.map((c) => c.code)

    it('registers every code that src/ emits', () => {
        const missing = [...codesUsedOutsideCatalogue()].filter(([code]) => !all.includes(code))
        expect(missing).toEqual([])
    })

    it('has no code that src/ never emits', () => {
        const used = codesUsedOutsideCatalogue()
        expect(all.filter((code) => !used.has(code))).toEqual([])
    })

    it('gives every code a severity, a template and a rule', () => {
        for (const def of ErrorCodes.list().codes) {
            expect(['error', 'warning', 'info']).toContain(def.severity)
            expect(def.template.length).toBeGreaterThan(5)
            expect(def.rule.length).toBeGreaterThan(2)
            expect(def.code).toMatch(/^[A-Z]{2,5}(-WARN|-INFO)?-(\d{3}|S\d)$/)
        }
    })

    it('matches the severity implied by WARN/INFO infixes', () => {
        for (const def of ErrorCodes.list().codes) {
            if (def.code.includes('-WARN-')) expect(def.severity).toBe('warning')
            if (def.code.includes('-INFO-')) expect(def.severity).toBe('info')
        }
    })

    it('is frozen and cannot be extended at runtime', () => {
        const { entry } = ErrorCodes.get({ code: 'GRD-001' })
        expect(Object.isFrozen(entry)).toBe(true)
        expect(() => {
            ;(entry as { template: string }).template = 'x'
        }).toThrow()
    })
})

describe('ErrorCodes.list', () => {
    it('filters by prefix and severity', () => {
        const vet = ErrorCodes.list({ prefix: 'VET' }).codes.map((c) => c.code)
        expect(vet).toContain('VET-003')
        expect(vet.every((c) => c.startsWith('VET-'))).toBe(true)
        const warnings = ErrorCodes.list({ severity: 'warning' }).codes
        expect(warnings.length).toBeGreaterThan(0)
        expect(warnings.every((c) => c.severity === 'warning')).toBe(true)
    })

    it('rejects an unknown prefix or severity with a coded issue', () => {
        const result = ErrorCodes.list({ prefix: 'NOPE', severity: 'fatal' })
        expect(result.codes).toEqual([])
        expect(result.errors.map((e) => [e.code, e.path])).toEqual([
            ['GRD-010', '/prefix'],
            ['GRD-010', '/severity']
        ])
    })
})

describe('ErrorCodes.get', () => {
    it('finds a code with its rule', () => {
        const { entry, found } = ErrorCodes.get({ code: 'GRD-005' })
        expect(found).toBe(true)
        expect(entry?.template).toBe('personaIds[] required when determinism=non-deterministic')
    })

    it('reports unknown, missing and mistyped codes', () => {
        expect(ErrorCodes.get({ code: 'XYZ-999' })).toEqual({ entry: null, found: false, errors: [] })
        expect(ErrorCodes.get({}).errors[0]?.code).toBe('GRD-001')
        expect(ErrorCodes.get({ code: 42 }).errors[0]?.code).toBe('GRD-002')
        expect(ErrorCodes.get({ code: '__proto__' }).found).toBe(false)
    })
})

describe('ErrorCodes.format', () => {
    it('formats an issue with its pointer', () => {
        const text = ErrorCodes.format({
            issue: {
                code: 'SCO-001',
                severity: 'error',
                message: 'Score out of range: 7 (expected 1.0-5.0 or enum)',
                path: '/gradings/0/score'
            }
        }).text
        expect(text).toMatchInlineSnapshot(
            `"SCO-001 at /gradings/0/score: Score out of range: 7 (expected 1.0-5.0 or enum)"`
        )
        expect(ErrorCodes.format({ issue: { code: 'GRD-023', severity: 'error', message: 'm', path: '' } }).text).toBe(
            'GRD-023 at (root): m'
        )
    })

    it('rejects something that is not an issue', () => {
        expect(ErrorCodes.format({ issue: 'GRD-001' })).toMatchObject({ text: null, errors: [{ code: 'GRD-002' }] })
        expect(ErrorCodes.format({} as never).errors[0]?.code).toBe('GRD-002')
    })
})

describe('ErrorCodes.prefixes', () => {
    it('lists each prefix once', () => {
        const { prefixes } = ErrorCodes.prefixes()
        expect(prefixes).toContain('GRD')
        expect(new Set(prefixes).size).toBe(prefixes.length)
    })
})
