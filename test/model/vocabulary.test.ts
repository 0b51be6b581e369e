import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NODE_STATUS, ROLLUP_STATUS, SEVERITY, UNIT_STATUS } from '../../src/index.js'
import { NODE_STATUSES, ROLLUP_STATUSES, SEVERITIES, UNIT_STATUSES } from '../../src/catalogue.js'
import { ErrorCodes } from '../../src/index.js'
import { filesUnder } from '../support/files.js'

const SRC = join(import.meta.dirname, '..', '..', 'src')

const sources = (dir: string): string[] => filesUnder(dir, '.ts')

/** Lines of `src/` (the generated validators and the catalogue aside) where `pattern` matches outside a comment. */
function offenders(pattern: RegExp, under = SRC): string[] {
    return sources(under)
        .filter(
            (f) =>
                !relative(SRC, f).startsWith('validation/') &&
                !relative(SRC, f).startsWith('errors/catalogue/') &&
                !f.endsWith(join('model', 'constants.ts'))
        )
        .flatMap((f) =>
            readFileSync(f, 'utf8')
                .split('\n')
                .flatMap((line, i) =>
                    !/^\s*(\*|\/\/|\/\*)/.test(line) && pattern.test(line) ? [`${relative(SRC, f)}:${i + 1}`] : []
                )
        )
}

describe('one vocabulary: statuses and severities as exported constants', () => {
    it('names every node status, rollup status and severity once, matching the ordered lists', () => {
        expect(Object.values(NODE_STATUS)).toEqual([...NODE_STATUSES])
        expect(Object.values(ROLLUP_STATUS)).toEqual([...ROLLUP_STATUSES])
        expect(Object.values(SEVERITY)).toEqual([...SEVERITIES])
        expect(Object.values(UNIT_STATUS)).toEqual([...UNIT_STATUSES])
        expect(
            Object.isFrozen(NODE_STATUS) &&
                Object.isFrozen(ROLLUP_STATUS) &&
                Object.isFrozen(SEVERITY) &&
                Object.isFrozen(UNIT_STATUS)
        ).toBe(true)
    })

    it('uses every catalogue severity from the list', () => {
        for (const def of ErrorCodes.list().codes) expect(SEVERITIES).toContain(def.severity)
    })

    it('compares severities with SEVERITY, never a repeated string', () => {
        expect(
            offenders(
                /\bseverity\s*(===|!==)\s*'(error|warning|info)'|'(error|warning|info)'\s*(===|!==)\s*[\w.?]*\bseverity\b/
            )
        ).toEqual([])
    })

    it('compares and writes node and rollup statuses in the rollup with NODE_STATUS and ROLLUP_STATUS', () => {
        // Other vocabularies share these words: a promise's 'rejected' (read-listing) and the promotion reasons and their types (stable-promotion).
        const elsewhere = ['rollup/read-listing.ts:', 'rollup/stable-promotion.ts:']
        expect(
            offenders(/'(pending|blocked|graded|stable|rejected|operational|partial)'/, join(SRC, 'rollup')).filter(
                (at) => !elsewhere.some((p) => at.startsWith(p))
            )
        ).toEqual([])
    })

    it('compares and writes unit and node statuses in the run, the CLI and the report with UNIT_STATUS and NODE_STATUS', () => {
        const compared =
            /\bstatus\s*(===|!==)\s*'(graded|rejected|provisional|blocked|gated|skipped|error|pending|stable)'|\bunitResult\(\w+,\s*'/
        // A schema's standing adds one word of its own, 'provisional' (SchemaStatus): neither a unit's nor a node's.
        const standingWord = /status\s*===\s*'provisional'/
        const found = ['grade', 'cli', 'report'].flatMap((dir) => offenders(compared, join(SRC, dir)))
        const lines = found.filter((at) => {
            const [file, line] = at.split(':') as [string, string]
            return (
                !standingWord.test(readFileSync(join(SRC, file), 'utf8').split('\n')[Number(line) - 1] ?? '') ||
                !/^cli\//.test(file)
            )
        })
        expect(lines).toEqual([])
    })

    it('fails when a literal creeps back in (the scan sees it)', () => {
        expect(/\bunitResult\(\w+,\s*'/.test("units.push(unitResult(plan, 'blocked', { reason }))")).toBe(true)
        expect(/\bseverity\s*(===|!==)\s*'(error|warning|info)'/.test("if (issue.severity === 'error')")).toBe(true)
    })
})
