import { describe, expect, it } from 'vitest'
import { isEnvironmentItem, isStaleRecordingItem } from '../../src/fix/fix-list.js'
import {
    checkSummaryMarkdown,
    FixList,
    Sarif,
    type FixItem,
    type PretestTestRecord,
    type UnitResult
} from '../../src/index.js'

const URL_OF = (lat: number): string =>
    `https://api.example.com/v1/forecast?lat=${lat}&key={{SERVER_PARAM:EXAMPLE_API_KEY}}`
const record = (testIndex: number, missing: boolean[], over: Partial<PretestTestRecord> = {}): PretestTestRecord => ({
    tool: 'getForecast',
    testIndex,
    status: missing.some(Boolean) ? 'failed' : 'passed',
    working: !missing.some(Boolean),
    via: 'http',
    verdict: missing.some(Boolean) ? 'missing-recording' : 'working',
    httpStatus: missing.some(Boolean) ? 404 : 200,
    error: missing.some(Boolean) ? 'DPT-004: HTTP 404 (no recorded response for this request)' : null,
    requests: missing.map((m, i) => ({
        method: 'GET',
        url: URL_OF(testIndex * 10 + i),
        status: m ? 404 : 200,
        missingRecording: m
    })),
    ...over
})
const blockedUnit: UnitResult = {
    unit: 'single-test/getForecast',
    area: 'single-test',
    target: { namespace: 'x', schema: 's', tool: 'getForecast' },
    status: 'blocked',
    aggregateGrade: null,
    rawGrade: null,
    normalizedScore: null,
    reason: 'fewer-than-3-working-tests — 2 of 3 distinct tests returned data, 3 needed',
    written: null
} as unknown as UnitResult
const COMMAND = 'flowmcp-grading grade providers/x --live --record recordings'
const locate = (pointer: string): { line: number; column: number } | null =>
    pointer === '/tools/getForecast/tests/1' ? { line: 21, column: 17 } : null

describe('FixList.build: stale recordings (DPT-022)', () => {
    it('names a test whose request the recordings lack at that test: the request (keys masked) and the command that records it again', () => {
        const { items } = FixList.build({
            schemaId: 'x.s',
            file: 'providers/x/s.mjs',
            errors: [],
            units: [],
            tests: [record(0, [false]), record(1, [true])],
            recordCommand: COMMAND,
            locate
        })
        expect(items).toHaveLength(1)
        const item = items[0] as FixItem
        expect(item).toMatchObject({
            kind: 'finding',
            code: 'DPT-022',
            severity: 'warning',
            pointer: '/tools/getForecast/tests/1',
            line: 21,
            column: 17,
            tool: 'getForecast',
            unit: 'single-test/getForecast',
            cost: 2,
            recording: { testIndex: 1, method: 'GET', url: URL_OF(10), command: COMMAND }
        })
        expect(item.message).toBe(
            `Test 1 of tool getForecast: the recordings hold no exchange for GET ${URL_OF(10)} (recorded before the test changed, or never); re-record: ${COMMAND}`
        )
        expect(isStaleRecordingItem(item)).toBe(true)
        // The repository's state, not the environment's: --max-warnings counts it.
        expect(isEnvironmentItem(item)).toBe(false)
    })

    it('costs what a blocked tool costs when its tool is blocked, counts the further missing requests of a test, and without a command names the general one', () => {
        const { items } = FixList.build({
            schemaId: 'x.s',
            errors: [],
            units: [blockedUnit],
            tests: [record(2, [false, true, true, true])]
        })
        const stale = items.filter(isStaleRecordingItem)
        expect(stale).toHaveLength(1)
        expect(stale[0]).toMatchObject({
            cost: 4,
            line: null,
            recording: { testIndex: 2, url: URL_OF(21), command: null }
        })
        expect(stale[0]?.message).toContain(`GET ${URL_OF(21)} (and 2 more requests)`)
        expect(stale[0]?.message).toContain(
            're-record: npx flowmcp-grading grade <the schema file> --live --record <the recordings folder>, with the options of the run'
        )
    })

    it('adds nothing for tests whose requests were all recorded, and never throws on malformed test records', () => {
        expect(
            FixList.build({ schemaId: 'x.s', errors: [], units: [], tests: [record(0, [false]), record(1, [])] }).items
        ).toEqual([])
        const hostile = [
            null,
            7,
            'x',
            { tool: 'a' },
            { tool: 'a', testIndex: 1.5, requests: [{ method: 'GET', url: 'u', missingRecording: true }] },
            { tool: 'a', testIndex: 0, requests: 'nope' },
            { tool: 'a', testIndex: 0, requests: [null, { method: 1, url: 'u', missingRecording: true }] }
        ]
        expect(
            FixList.build({ schemaId: 'x.s', errors: [], units: [], tests: hostile as unknown as PretestTestRecord[] })
        ).toEqual({ items: [], errors: [] })
        expect(
            FixList.build({ schemaId: 'x.s', errors: [], units: [], tests: 'nope' as unknown as PretestTestRecord[] })
        ).toEqual({ items: [], errors: [] })
    })
})

describe('stale recordings in SARIF and the check summary', () => {
    const item = FixList.build({
        schemaId: 'x.s',
        file: 'providers/x/s.mjs',
        errors: [],
        units: [],
        tests: [record(1, [true])],
        recordCommand: COMMAND,
        locate
    }).items[0] as FixItem

    it("SARIF carries the test, the request and the command as the result's recording property, at the test's line", () => {
        const { log, errors } = Sarif.fromFixItems({
            items: [item],
            tool: { name: 'flowmcp-grading', version: '0.0.0' }
        })
        expect(errors).toEqual([])
        const result = log?.runs[0]?.results[0]
        expect(result).toMatchObject({
            ruleId: 'DPT-022',
            level: 'warning',
            properties: {
                pointer: '/tools/getForecast/tests/1',
                recording: { testIndex: 1, method: 'GET', url: URL_OF(10), command: COMMAND }
            }
        })
        expect(result?.locations[0]?.physicalLocation?.region).toEqual({ startLine: 21, startColumn: 17 })
    })

    it('SARIF drops a malformed recording property with SRF-006 and keeps the item', () => {
        const { log, errors } = Sarif.fromFixItems({
            items: [
                {
                    ...item,
                    recording: { testIndex: 'one', method: 'GET', url: 'u', command: null }
                } as unknown as FixItem
            ],
            tool: { name: 'flowmcp-grading', version: '0.0.0' }
        })
        expect(errors.map((e) => [e.code, e.path])).toEqual([['SRF-006', '/items/0/recording']])
        expect(log?.runs[0]?.results[0]?.properties.recording).toBeUndefined()
    })

    it("the summary lists a passing schema's stale recordings with the request and the command; none when there are none", () => {
        const row = { schema: 'x.s', grade: null, baseline: '—', status: 'provisional', failures: [], fixes: [item] }
        const { markdown } = checkSummaryMarkdown({ rows: [row] })
        expect(markdown.startsWith('## flowmcp-grading check: passed')).toBe(true)
        expect(markdown).toContain('Stale recordings (record them again and commit the recordings):')
        expect(markdown).toContain(
            `- \`DPT-022\` x.s: Test 1 of tool getForecast: the recordings hold no exchange for GET ${URL_OF(10)}`
        )
        expect(markdown).toContain(`(line 21) — \`GET ${URL_OF(10)}\`: \`${COMMAND}\``)
        expect(checkSummaryMarkdown({ rows: [{ ...row, fixes: [] }] }).markdown).not.toContain('Stale recordings')
    })
})
