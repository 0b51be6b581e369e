import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONFIG_FILE } from '../../src/cli/config.js'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

// A test whose request the recordings lack (its parameter changed, nothing recorded again) is named
// at its test, with the request and the command that records it again: in the text of grade and
// check, --json, SARIF and the summary, at a bar of one (the tool still reaches it) and of three.
const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-25T10:00:00Z'
// The schema alone, live into the folder the run replayed, with the run's options: `--record` merges by request.
const COMMAND = (bar: number): string =>
    `npx flowmcp-grading grade providers/openmeteo/forecast.mjs --live --record recordings --min-working-tests ${bar}`
const REQUEST =
    /GET https:\/\/api\.open-meteo\.com\/v1\/forecast\?latitude=-33\.5&longitude=151\.21&hourly=temperature_2m%2Cprecipitation/
let dir = ''
let sydneyLine = 0

const require = createRequire(import.meta.url)
const {
    id,
    $schema: _draft04,
    ...SARIF_SCHEMA
} = JSON.parse(
    readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')
) as Record<string, unknown>
const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false })
for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format as never)
const validateSarif = ajv.compile({ ...SARIF_SCHEMA, $id: String(id) })

type SarifResult = {
    ruleId: string
    level: string
    message: { text: string }
    locations: Array<{ physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } } }>
    properties: {
        pointer: string
        recording?: { testIndex: number; method: string; url: string; command: string | null }
    }
}
type JsonItem = {
    code: string
    severity: string
    pointer: string
    line: number | null
    tool?: string
    message: string
    recording?: { testIndex: number; method: string; url: string; command: string | null }
}

const io = (cwd = dir): ReturnType<typeof memoryIo> => memoryIo({}, { cwd, env: { PATH: process.env.PATH ?? '' } })
const replay = (bar: number): string[] => [
    '--recordings',
    'recordings',
    '--min-working-tests',
    String(bar),
    '--now',
    now
]

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-stale-'))
    // The recordings a repository keeps beside its schemas, and two copies of a schema they cover: one
    // whose second test of getHourlyForecast (Sydney) got another latitude since, one left as recorded.
    await cp(join(examples, 'recordings'), join(dir, 'recordings'), { recursive: true })
    await cp(join(examples, 'providers', 'openmeteo'), join(dir, 'providers', 'openmeteo'), { recursive: true })
    await cp(join(examples, 'providers', 'openmeteo'), join(dir, 'control', 'openmeteo'), { recursive: true })
    const forecast = join(dir, 'providers', 'openmeteo', 'forecast.mjs')
    const source = await readFile(forecast, 'utf8')
    expect(source).toContain("{ _description: 'Sydney', latitude: -33.87")
    const changed = source.replace(
        "{ _description: 'Sydney', latitude: -33.87",
        "{ _description: 'Sydney', latitude: -33.5"
    )
    await writeFile(forecast, changed)
    sydneyLine = changed.split('\n').findIndex((l) => l.includes("_description: 'Sydney', latitude: -33.5")) + 1
    expect(sydneyLine).toBeGreaterThan(0)
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe('stale recordings are named at their test, at every bar', () => {
    it.each([1, 3])(
        'check at a bar of %i names the test, its request and the re-record command in the text, --json, SARIF and the summary',
        async (bar) => {
            const sarif = join(dir, `stale-${bar}.sarif`)
            const summary = join(dir, `stale-${bar}.md`)
            const out = io()
            expect(
                await run(['check', 'providers/openmeteo', ...replay(bar), '--sarif', sarif, '--summary', summary], out)
            ).toBe(0)
            const text = out.out()
            expect(text).toContain('stale recordings (record them again and commit the recordings):')
            expect(text).toContain(
                `openmeteo.forecast  ${join(dir, 'providers', 'openmeteo', 'forecast.mjs')}:${sydneyLine}:`
            )
            expect(text).toMatch(
                /DPT-022 Test 1 of tool getHourlyForecast: the recordings hold no exchange for GET https:\/\/api\.open-meteo\.com/
            )
            expect(text).toMatch(REQUEST)
            expect(text).toContain(`re-record: ${COMMAND(bar)}`)

            const json = io()
            expect(await run(['check', 'providers/openmeteo', ...replay(bar), '--json'], json)).toBe(0)
            const items =
                (JSON.parse(json.out()) as { schemas: Array<{ fixList: JsonItem[] }> }).schemas[0]?.fixList ?? []
            const stale = items.filter((i) => i.code === 'DPT-022')
            expect(stale).toHaveLength(1)
            expect(stale[0]).toMatchObject({
                severity: 'warning',
                pointer: '/tools/getHourlyForecast/tests/1',
                line: sydneyLine,
                tool: 'getHourlyForecast',
                recording: { testIndex: 1, method: 'GET', command: COMMAND(bar) }
            })
            expect(stale[0]?.recording?.url).toMatch(/latitude=-33\.5&longitude=151\.21/)

            const log = JSON.parse(await readFile(sarif, 'utf8')) as { runs: Array<{ results: SarifResult[] }> }
            expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true)
            const result = log.runs[0]?.results.find((r) => r.ruleId === 'DPT-022')
            expect(result).toMatchObject({
                level: 'warning',
                properties: {
                    pointer: '/tools/getHourlyForecast/tests/1',
                    recording: { testIndex: 1, command: COMMAND(bar) }
                }
            })
            expect(result?.message.text).toMatch(REQUEST)
            expect(result?.message.text).toContain(COMMAND(bar))
            expect(result?.locations[0]?.physicalLocation).toMatchObject({
                artifactLocation: { uri: 'providers/openmeteo/forecast.mjs' },
                region: { startLine: sydneyLine }
            })

            const md = await readFile(summary, 'utf8')
            expect(md).toContain('Stale recordings (record them again and commit the recordings):')
            expect(md).toMatch(
                /- `DPT-022` openmeteo\.forecast: Test 1 of tool getHourlyForecast: .*\(line \d+\) — `GET https:\/\/api\.open-meteo\.com\/v1\/forecast\?latitude=-33\.5/
            )
            expect(md).toContain(`: \`${COMMAND(bar)}\``)
        }
    )

    it.each([1, 3])('grade at a bar of %i lists the stale test in its fix list, text and --json', async (bar) => {
        const out = io()
        expect(await run(['grade', 'providers/openmeteo', ...replay(bar)], out)).toBe(0)
        expect(out.out()).toMatch(
            new RegExp(
                `${sydneyLine}:\\d+\\s+warning\\s+DPT-022\\s+Test 1 of tool getHourlyForecast: the recordings hold no exchange for GET`
            )
        )
        expect(out.out()).toContain(`re-record: ${COMMAND(bar)}`)
        const json = io()
        expect(await run(['grade', 'providers/openmeteo', ...replay(bar), '--json'], json)).toBe(0)
        const schema = (
            JSON.parse(json.out()) as {
                schemas: Array<{
                    fixList: JsonItem[]
                    grading: { pretest: { tests: Array<{ tool: string; testIndex: number; verdict: string }> } }
                }>
            }
        ).schemas[0]
        expect(schema?.fixList.filter((i) => i.code === 'DPT-022').map((i) => i.pointer)).toEqual([
            '/tools/getHourlyForecast/tests/1'
        ])
        expect(
            schema?.grading.pretest.tests.find((t) => t.tool === 'getHourlyForecast' && t.testIndex === 1)?.verdict
        ).toBe('missing-recording')
    })

    it('at a bar of three the blocked tool says which test did not work and that its recording is missing, where it used to say only "2 of 3"', async () => {
        const out = io()
        // Below its bar only for the stale recording: not tested here (DPT-023), an environment reason; with no
        // baseline to hold it against it is reported, and --min-grade does not fail it.
        expect(await run(['check', 'providers/openmeteo', ...replay(3), '--min-grade', 'C'], out)).toBe(0)
        expect(out.out()).toMatch(/openmeteo\.forecast .* blocked \(1 tool not tested here: missing-recording\)\s+ok/)
        expect(out.out()).toMatch(/DPT-022 Test 1 of tool getHourlyForecast: the recordings hold no exchange for GET/)
        const grade = io()
        await run(['grade', 'providers/openmeteo', ...replay(3)], grade)
        expect(grade.out()).toMatch(
            /single-test\/getHourlyForecast blocked — missing-recording — not tested here: the recordings lack requests of 1 of its tests \(2 of its tests returned data, 3 needed\); record them \(grade --live --record <dir>\) to test it; not working: test 1: the recordings lack GET/
        )
    })

    it('a stale recording is a warning of the repository: --max-warnings counts it (not an environment notice), and a rule set to error fails the gate', async () => {
        const out = io()
        expect(await run(['check', 'providers/openmeteo', ...replay(1), '--max-warnings', '0'], out)).toBe(1)
        expect(out.out()).toContain('1 warning in the fix lists, more than --max-warnings 0')
        const ruled = join(dir, 'ruled')
        await rm(ruled, { recursive: true, force: true })
        await cp(join(dir, 'providers'), join(ruled, 'providers'), { recursive: true })
        await cp(join(dir, 'recordings'), join(ruled, 'recordings'), { recursive: true })
        await writeFile(join(ruled, CONFIG_FILE), JSON.stringify({ rules: { 'DPT-022': 'error' } }))
        const strict = io(ruled)
        expect(await run(['check', 'providers/openmeteo', ...replay(1)], strict)).toBe(1)
        expect(strict.out()).toMatch(
            /openmeteo\.forecast: stale recording \S+forecast\.mjs:\d+:\d+ DPT-022 Test 1 of tool getHourlyForecast/
        )
    })

    it('the control: recordings that match every test show no stale recording anywhere', async () => {
        const sarif = join(dir, 'control.sarif')
        const summary = join(dir, 'control.md')
        for (const bar of [1, 3]) {
            const out = io()
            expect(
                await run(
                    [
                        'check',
                        'control/openmeteo',
                        ...replay(bar),
                        '--sarif',
                        sarif,
                        '--summary',
                        summary,
                        '--max-warnings',
                        '0'
                    ],
                    out
                )
            ).toBe(0)
            expect(out.out()).not.toContain('stale recording')
            expect(out.out()).not.toContain('DPT-022')
            const json = io()
            expect(await run(['check', 'control/openmeteo', ...replay(bar), '--json'], json)).toBe(0)
            expect(json.out()).not.toContain('DPT-022')
            const log = JSON.parse(await readFile(sarif, 'utf8')) as { runs: Array<{ results: SarifResult[] }> }
            expect(validateSarif(log)).toBe(true)
            expect(log.runs[0]?.results.some((r) => r.ruleId === 'DPT-022')).toBe(false)
            const grade = io()
            expect(await run(['grade', 'control/openmeteo', ...replay(bar)], grade)).toBe(0)
            expect(grade.out()).not.toContain('DPT-022')
            expect(grade.out()).not.toContain('not working')
        }
        const md = await readFile(summary, 'utf8')
        expect(md).not.toContain('Stale recordings')
    })
})
