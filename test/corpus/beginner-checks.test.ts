import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { structureScore } from '../../src/deterministic/answers.js'
import { SchemaCheck } from '../../src/index.js'
import { shared } from '../support/shared.js'

// The beginner-mistake checks (SCH-WARN-021…024) over the 61 real schemas of ../shared/corpus-sample.
// Every hit was read: the counts below are real instances, and a check that fires on a schema without
// the mistake is a wrong rule (docs/schema-checks.md, "Beginner mistakes").
const { path: SAMPLE, present } = shared('corpus-sample/files.json')
const ROOT = SAMPLE.replace(/files\.json$/, '')

const BEGINNER = ['SCH-WARN-021', 'SCH-WARN-022', 'SCH-WARN-023', 'SCH-WARN-024']

interface Count {
    findings: number
    tools: Set<string>
    schemas: Set<string>
}

async function measure(): Promise<{ counts: Record<string, Count>; hits021: string[] }> {
    const files = JSON.parse(readFileSync(SAMPLE, 'utf8')) as string[]
    const counts: Record<string, Count> = {}
    const hits021: string[] = []
    for (const code of BEGINNER) counts[code] = { findings: 0, tools: new Set(), schemas: new Set() }
    for (const file of files) {
        const mod = (await import(`${ROOT}schemas/${file}`)) as { main?: unknown; schema?: unknown }
        for (const issue of SchemaCheck.validateMain({ main: mod.main ?? mod.schema }).errors) {
            const count = counts[issue.code]
            if (count === undefined) continue
            count.findings++
            count.tools.add(`${file}#${issue.path.split('/')[2]}`)
            count.schemas.add(file)
            if (issue.code === 'SCH-WARN-021') hits021.push(`${file} ${issue.path}`)
        }
    }
    return { counts, hits021 }
}

describe.skipIf(!present)('beginner mistakes on the real corpus sample (../shared/corpus-sample)', () => {
    it('fires as measured: 3 wrong-type test values, 518 undescribed user parameters, no generic name, no short description', async () => {
        const { counts, hits021 } = await measure()
        const summary = Object.fromEntries(
            Object.entries(counts).map(([code, c]) => [code, [c.findings, c.tools.size, c.schemas.size]])
        )
        // [findings, tools, schemas]
        expect(summary).toEqual({
            'SCH-WARN-021': [3, 1, 1],
            'SCH-WARN-022': [518, 164, 44],
            'SCH-WARN-023': [0, 0, 0],
            'SCH-WARN-024': [0, 0, 0]
        })
        // The one schema that writes a number()'s test values as strings: limit: '10', '5', '10'.
        expect(hits021).toEqual([
            'simdune/tokenHoldersEVM.mjs /tools/getTokenHoldersEVM/tests/0/limit',
            'simdune/tokenHoldersEVM.mjs /tools/getTokenHoldersEVM/tests/1/limit',
            'simdune/tokenHoldersEVM.mjs /tools/getTokenHoldersEVM/tests/2/limit'
        ])
    }, 60_000)

    it('moves no Q-schema-structure answer: the same score with and without the beginner findings', async () => {
        const files = JSON.parse(readFileSync(SAMPLE, 'utf8')) as string[]
        let withFindings = 0
        for (const file of files) {
            const mod = (await import(`${ROOT}schemas/${file}`)) as { main?: unknown; schema?: unknown }
            const validation = SchemaCheck.validateMain({ main: mod.main ?? mod.schema })
            const without = { ...validation, errors: validation.errors.filter((e) => !BEGINNER.includes(e.code)) }
            if (without.errors.length < validation.errors.length) withFindings++
            expect(structureScore(validation), file).toEqual(structureScore(without))
            expect(validation.valid, file).toBe(true)
        }
        expect(withFindings).toBe(44)
    }, 60_000)
})
