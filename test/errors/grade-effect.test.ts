import { describe, expect, it, vi } from 'vitest'
import type { Issue } from '../../src/errors/types.js'

// Two rows only this test knows: a warning with no grade effect and no cost, and a spec-strict one.
vi.mock('../../src/errors/catalogue/index.js', async (importOriginal) => {
    const real = await importOriginal<typeof import('../../src/errors/catalogue/index.js')>()
    const { defineCodes, LOWERS_STRUCTURE } = await import('../../src/errors/define.js')
    const extra = defineCodes({
        'SCH-WARN-900': ['warning', 'a warning no answer reads', 'test', { kind: 'none', cost: 0 }],
        'SCH-WARN-901': ['warning', 'a spec-strict warning', 'test', LOWERS_STRUCTURE]
    })
    return { ...real, CATALOGUE: Object.freeze({ ...real.CATALOGUE, ...extra }) }
})

const { CATALOGUE } = await import('../../src/errors/catalogue/index.js')
const { codesLowering, findingCost, gradeEffectOf } = await import('../../src/errors/grade-effect.js')
const { FixList } = await import('../../src/fix/fix-list.js')
const { SPEC_STRICT_CODES, structureScore } = await import('../../src/deterministic/answers.js')

// The two test rows are outside the catalogue's type, as a code read back from a file may be.
const warning = (code: string): Issue => ({ code, severity: 'warning', message: '', path: '' }) as unknown as Issue

const costOfFinding = (code: string, severity: 'error' | 'warning' | 'info'): number | null => {
    const { items } = FixList.build({
        schemaId: 'x.s',
        errors: [{ code, severity, message: code, path: '/schema/main/tags/0' }],
        units: []
    })
    return items[0]?.cost ?? null
}

describe('the catalogue column of a grade effect', () => {
    it('ranks a code with no grade effect at cost 0 in the fix list, as its row says', () => {
        expect(gradeEffectOf('SCH-WARN-900')).toEqual({ kind: 'none', cost: 0 })
        expect(costOfFinding('SCH-WARN-900', 'warning')).toBe(0)
    })

    it('makes a spec-strict row lower Q-schema-structure: the deterministic answers read the column', () => {
        expect(SPEC_STRICT_CODES).toContain('SCH-WARN-901')
        expect(codesLowering('Q-schema-structure')).toEqual(SPEC_STRICT_CODES)
        expect(structureScore({ valid: true, errors: [warning('SCH-WARN-901')] })).toEqual({
            score: 4.5,
            strictCodes: ['SCH-WARN-901']
        })
        expect(structureScore({ valid: true, errors: [warning('SCH-WARN-900')] })).toEqual({
            score: 'pass',
            strictCodes: []
        })
    })

    it('keeps the spec-strict codes of the runtime-tolerated rules (SCH-WARN-011 to 020)', () => {
        expect(SPEC_STRICT_CODES.filter((c) => c !== 'SCH-WARN-901')).toEqual(
            Array.from({ length: 10 }, (_, i) => `SCH-WARN-0${11 + i}`)
        )
    })

    it.each(
        Object.values(CATALOGUE).filter(
            (row) =>
                row.code.startsWith('SCH-') ||
                row.code.startsWith('SEC-') ||
                row.code.startsWith('GRA-') ||
                row.code.startsWith('ISL-')
        )
    )('ranks $code in the fix list by its row (or leaves a notice of the run out)', (row) => {
        const cost = costOfFinding(row.code, row.severity)
        if (row.grade.kind === 'run') expect(cost).toBeNull()
        else if (row.severity === 'info' && !row.code.startsWith('SCH-')) expect(cost).toBeNull()
        else expect(cost).toBe(row.grade.cost)
    })

    it('ranks a finding whose level the rules changed by that level, and a code outside the catalogue by its level', () => {
        expect(findingCost('SCH-WARN-012', 'info')).toBe(0)
        expect(findingCost('SCH-WARN-003', 'error')).toBe(2)
        expect(findingCost('XYZ-001', 'warning')).toBe(0.5)
        expect(gradeEffectOf('XYZ-001')).toBeNull()
        expect(gradeEffectOf('__proto__')).toBeNull()
    })

    it('says an error blocks, a warning lowers nothing unless its row says so, and the run codes are the run', () => {
        expect(gradeEffectOf('SCH-004')).toEqual({ kind: 'blocks', cost: 2 })
        expect(gradeEffectOf('SCH-WARN-003')).toEqual({ kind: 'none', cost: 0.5 })
        expect(gradeEffectOf('SCH-WARN-011')).toEqual({ kind: 'lowers', question: 'Q-schema-structure', cost: 0.5 })
        expect(gradeEffectOf('GRA-014')?.kind).toBe('run')
        expect(gradeEffectOf('GRA-025')?.kind).toBe('blocks')
    })
})
