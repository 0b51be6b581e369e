import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NODE_STATUS, NODE_STATUSES, ROLLUP_STATUS, ROLLUP_STATUSES, SEVERITIES, SEVERITY } from '../../src/index.js'
import { ErrorCodes } from '../../src/index.js'

const SRC = join(import.meta.dirname, '..', '..', 'src')

function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
}

/** Lines of `src/` (the generated validators and the catalogue aside) where `pattern` matches outside a comment. */
function offenders(pattern: RegExp, under = SRC): string[] {
    return sources(under)
        .filter((f) => !relative(SRC, f).startsWith('validation/') && !relative(SRC, f).startsWith('errors/catalogue/') && !f.endsWith(join('model', 'constants.ts')))
        .flatMap((f) => readFileSync(f, 'utf8').split('\n').flatMap((line, i) => (!/^\s*(\*|\/\/|\/\*)/.test(line) && pattern.test(line) ? [`${relative(SRC, f)}:${i + 1}`] : [])))
}

describe('one vocabulary: statuses and severities as exported constants', () => {
    it('names every node status, rollup status and severity once, matching the ordered lists', () => {
        expect(Object.values(NODE_STATUS)).toEqual([...NODE_STATUSES])
        expect(Object.values(ROLLUP_STATUS)).toEqual([...ROLLUP_STATUSES])
        expect(Object.values(SEVERITY)).toEqual([...SEVERITIES])
        expect(Object.isFrozen(NODE_STATUS) && Object.isFrozen(ROLLUP_STATUS) && Object.isFrozen(SEVERITY)).toBe(true)
    })

    it('uses every catalogue severity from the list', () => {
        for (const def of ErrorCodes.list().codes) expect(SEVERITIES).toContain(def.severity)
    })

    it('compares severities with SEVERITY, never a repeated string', () => {
        expect(offenders(/\bseverity\s*(===|!==)\s*'(error|warning|info)'|'(error|warning|info)'\s*(===|!==)\s*[\w.?]*\bseverity\b/)).toEqual([])
    })

    it('compares and writes node and rollup statuses in the rollup with NODE_STATUS and ROLLUP_STATUS', () => {
        // Other vocabularies share these words: a promise's 'rejected' (read-listing) and the promotion reasons and their types (stable-promotion).
        const elsewhere = ['rollup/read-listing.ts:', 'rollup/stable-promotion.ts:']
        expect(offenders(/'(pending|blocked|graded|stable|rejected|operational|partial)'/, join(SRC, 'rollup')).filter((at) => !elsewhere.some((p) => at.startsWith(p)))).toEqual([])
    })

    it('fails when a literal creeps back in (the scan sees it)', () => {
        expect(/\bseverity\s*(===|!==)\s*'(error|warning|info)'/.test("if (issue.severity === 'error')")).toBe(true)
    })
})
