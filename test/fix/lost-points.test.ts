import { describe, expect, it } from 'vitest'
import { fixEntriesOf } from '../../src/fix/fix-list.js'
import { createMemoryFs, FixList, gradeSingleSchema, type HttpPort } from '../../src/index.js'
import { exampleMain, grader, scriptedJudge } from '../grade/helpers.js'

// Every lost point has a line: an output-schema mismatch names its JSON Pointer and the expected and actual type; a
// tool without an output schema says what it loses.

const now = '2026-11-22T18:00:00Z'

/** An API whose every answer is an array where the forecast's output schema declares an object. */
const arrayApi: HttpPort = {
    send: async () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '[{"t": 1}]' })
}

async function fixItems(main: Record<string, unknown>, source: string, http: HttpPort) {
    const result = await gradeSingleSchema({
        schema: { main },
        grader,
        options: {
            fs: createMemoryFs(),
            root: '/island',
            now,
            source,
            http,
            minWorkingTests: 1,
            judge: scriptedJudge(5).judge
        }
    })
    const g = result.grading
    if (g === null) throw new Error('not graded')
    return FixList.build({
        schemaId: g.schemaId,
        errors: result.errors,
        units: g.units,
        entries: fixEntriesOf(g.units, result.entries ?? [])
    }).items
}

describe('every lost point has a line', () => {
    it('names where a response left its output schema: the pointer, the expected and the actual type', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const items = await fixItems(main, source, arrayApi)
        const mismatch = items.find((i) => i.code === 'Q-single-test-02')
        expect(mismatch?.message).toMatch(/does not match output\.schema at \(root\): expected object, got array/)
    })

    it('says what a tool without an output schema loses, with the points it would gain', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const tools = main.tools as Record<string, Record<string, unknown>>
        const bare = Object.fromEntries(Object.entries(tools).map(([k, t]) => [k, { ...t, output: undefined }]))
        const items = await fixItems({ ...main, tools: JSON.parse(JSON.stringify(bare)) }, source, arrayApi)
        const lost = items.filter((i) => i.code === 'Q-single-test-02')
        expect(lost.length).toBe(Object.keys(tools).length)
        for (const item of lost) {
            expect(item.message).toContain('the tool declares no output.schema')
            expect(item.cost).toBeGreaterThanOrEqual(0)
        }
    })

    it('has no such line for a tool whose output schema matched (a failing case)', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const ok: HttpPort = {
            send: async () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"hourly": {}}' })
        }
        const items = await fixItems(main, source, ok)
        expect(items.filter((i) => i.code === 'Q-single-test-02')).toEqual([])
    })
})
