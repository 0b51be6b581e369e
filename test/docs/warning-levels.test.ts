import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from '../cli/helpers.js'
import { shared } from '../support/shared.js'

// Every default warning that fires on more than half of the corpus sample has its level argued in
// docs/schema-checks.md, with the count measured here.
const DOC = readFileSync(new URL('../../docs/schema-checks.md', import.meta.url), 'utf8')
const { path: SAMPLE, present } = shared('corpus-sample/schemas/')

type Row = { fixList: Array<{ code: string; severity: string; kind: string }> }

describe.skipIf(!present)('levels of the findings most schemas have', () => {
    it('each default warning on more than half of the sample has a row with its count and level; the cacheTtl tags are notes', async () => {
        const io = memoryIo({}, { env: {} })
        await run(['grade', SAMPLE, '--json', '--now', '2026-11-25T10:00:00Z'], io)
        const schemas = (JSON.parse(io.out()) as { schemas: Row[] }).schemas
        expect(schemas.length).toBe(61)
        const count = (code: string, severity: string): number =>
            schemas.filter((s) =>
                s.fixList.some((f) => f.kind === 'finding' && f.code === code && f.severity === severity)
            ).length
        const codes = [
            ...new Set(schemas.flatMap((s) => s.fixList.filter((f) => f.kind === 'finding').map((f) => f.code)))
        ]
        const frequent = codes.filter((code) => count(code, 'warning') > schemas.length / 2)
        expect(frequent.length).toBeGreaterThan(0)
        const section = DOC.slice(DOC.indexOf('### Levels of the findings most schemas have'))
        for (const code of frequent)
            expect(section).toMatch(
                new RegExp(`\\| ${code} \\| ${count(code, 'warning')} of ${schemas.length} \\| warning`)
            )
        // The registry's cache tags: notes now, on as many schemas as the doc says.
        expect(count('SCH-WARN-012', 'warning')).toBe(0)
        expect(section).toMatch(
            new RegExp(`\\| SCH-WARN-012 \\| ${count('SCH-WARN-012', 'info')} of ${schemas.length} \\| note`)
        )
    }, 60_000)
})
