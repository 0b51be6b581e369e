import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { findingCost, gradeEffectOf } from '../../src/errors/grade-effect.js'
import { SchemaCheck } from '../../src/index.js'
import {
    GENERIC_TOOL_NAMES,
    isGenericToolName,
    shortDescriptionReason,
    testValueProblem
} from '../../src/schema/beginner-checks.js'
import { memoryIo } from '../cli/helpers.js'
import { writeSyntheticRecordings } from '../support/synthetic-recordings.js'

type Main = Record<string, any>

const BEGINNER = ['SCH-WARN-021', 'SCH-WARN-022', 'SCH-WARN-023', 'SCH-WARN-024']

/** A weather schema as a beginner writes it, one planted mistake per check; `polished` is the fixed version. */
function draftSource(polished: boolean): string {
    const name = polished ? 'getHourlyForecastByCoordinates' : 'getData'
    const description = polished
        ? 'Returns the hourly temperature forecast in °C for a latitude and longitude.'
        : 'Returns data.'
    const latitude = polished ? ", description: 'Latitude in degrees, -90 to 90'" : ''
    const berlin = polished ? '52.52' : "'52.52'"
    return `export const main = {
    namespace: 'weather',
    name: 'WeatherForecast',
    description: 'Hourly weather forecasts for a coordinate from Open-Meteo.',
    version: '4.0.0',
    docs: ['https://open-meteo.com/en/docs'],
    tags: ['weather'],
    root: 'https://api.open-meteo.com',
    tools: {
        ${name}: {
            method: 'GET',
            path: '/v1/forecast',
            description: '${description}',
            parameters: [
                { position: { key: 'latitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [] }${latitude} },
                { position: { key: 'longitude', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'number()', options: [] }, description: 'Longitude in degrees, -180 to 180' },
                { position: { key: 'hourly', value: 'temperature_2m', location: 'query' }, z: { primitive: 'string()', options: [] } }
            ],
            tests: [
                { _description: 'Berlin', latitude: ${berlin}, longitude: 13.41 },
                { _description: 'Paris', latitude: 48.85, longitude: 2.35 },
                { _description: 'Rome', latitude: 41.9, longitude: 12.5 }
            ]
        }
    }
}
`
}

/** The same schema as data, for the library calls. */
function draft(polished: boolean): Main {
    const json = draftSource(polished)
        .replace('export const main = ', '')
        .replace(/'/g, '"')
        .replace(/([{,]\s*)([A-Za-z_]+):/g, '$1"$2":')
        .replace(/,(\s*[}\]])/g, '$1')
    return JSON.parse(json) as Main
}

/** 1-based line and column of the first occurrence of `needle` on a line that contains `context`. */
function at(source: string, context: string, needle: string): string {
    const lines = source.split('\n')
    const index = lines.findIndex((l) => l.includes(context))
    const line = lines[index] as string
    return `${index + 1}:${line.indexOf(needle) + 1}`
}

const findings = (main: Main) =>
    SchemaCheck.validateMain({ main })
        .errors.filter((e) => BEGINNER.includes(e.code))
        .map((e) => [e.code, e.path])

describe('beginner mistakes found deterministically (issue 44)', () => {
    it('finds each planted mistake at its pointer, and none in the polished version', () => {
        const result = SchemaCheck.validateMain({ main: draft(false) })
        expect(result.valid).toBe(true)
        expect(findings(draft(false))).toEqual([
            ['SCH-WARN-023', '/tools/getData'],
            ['SCH-WARN-024', '/tools/getData/description'],
            ['SCH-WARN-022', '/tools/getData/parameters/0'],
            ['SCH-WARN-021', '/tools/getData/tests/0/latitude']
        ])
        expect(findings(draft(true))).toEqual([])
    })

    it('SCH-WARN-021: a numeric string for number() says the request is the same but the input schema refuses it', () => {
        const issue = SchemaCheck.validateMain({ main: draft(false) }).errors.find((e) => e.code === 'SCH-WARN-021')
        expect(issue?.severity).toBe('warning')
        expect(issue?.message).toBe(
            "test 0 of tool getData sets latitude to the string '52.52', but the parameter is number(): the runtime puts a numeric string in a URL unchanged (a JSON body gets a string), but the tool's input schema (zod number(), no coercion) rejects it; write 52.52 without quotes"
        )
    })

    it('SCH-WARN-021: flags a value of the wrong type for each checked primitive, not one of the right type', () => {
        const main = draft(true)
        const tool = main.tools.getHourlyForecastByCoordinates
        tool.parameters.push(
            {
                position: { key: 'name', value: '{{USER_PARAM}}', location: 'query' },
                z: { primitive: 'string()' },
                description: 'City name'
            },
            {
                position: { key: 'daily', value: '{{USER_PARAM}}', location: 'query' },
                z: { primitive: 'boolean()' },
                description: 'Daily values'
            },
            {
                position: { key: 'models', value: '{{USER_PARAM}}', location: 'body' },
                z: { primitive: 'array()' },
                description: 'Model ids'
            },
            {
                position: { key: 'opts', value: '{{USER_PARAM}}', location: 'body' },
                z: { primitive: 'object()' },
                description: 'Options'
            }
        )
        tool.tests[1] = { ...tool.tests[1], name: 5, daily: 'true', models: 'icon', opts: [] }
        tool.tests[2] = { ...tool.tests[2], name: 'Rome', daily: false, models: ['icon', 'gfs'], opts: { a: 1 } }
        expect(findings(main)).toEqual([
            ['SCH-WARN-021', '/tools/getHourlyForecastByCoordinates/tests/1/name'],
            ['SCH-WARN-021', '/tools/getHourlyForecastByCoordinates/tests/1/daily'],
            ['SCH-WARN-021', '/tools/getHourlyForecastByCoordinates/tests/1/models'],
            ['SCH-WARN-021', '/tools/getHourlyForecastByCoordinates/tests/1/opts']
        ])
    })

    it('SCH-WARN-021 and SCH-WARN-022 leave fixed and server-parameter values alone: the runtime never takes them from a caller', () => {
        const main = draft(true)
        const tool = main.tools.getHourlyForecastByCoordinates
        tool.tests[0].hourly = 7
        expect(findings(main)).toEqual([])
    })

    it('SCH-WARN-021 skips enum(…) and unknown primitives, whose values the runtime builds from lists', () => {
        const main = draft(true)
        const tool = main.tools.getHourlyForecastByCoordinates
        tool.parameters[0].z.primitive = 'enum({{evmChains:alias}})'
        tool.parameters[1].z.primitive = 'decimal()'
        tool.tests[0] = { _description: 'x', latitude: 1, longitude: 'a' }
        expect(findings(main)).toEqual([])
    })

    it('SCH-WARN-022: a user parameter with a blank description is flagged too', () => {
        const main = draft(true)
        main.tools.getHourlyForecastByCoordinates.parameters[1].description = '   '
        expect(findings(main)).toEqual([['SCH-WARN-022', '/tools/getHourlyForecastByCoordinates/parameters/1']])
    })

    it('SCH-WARN-023: a generic name fires whatever its case or separators; a longer name does not', () => {
        for (const name of ['getData', 'GETDATA', 'get_data', 'fetch', 'Query', 'run'])
            expect(isGenericToolName(name), name).toBe(true)
        for (const name of ['getDataFeed', 'search', 'listStations', 'getForecast', 'prices', 'fetchBlock'])
            expect(isGenericToolName(name), name).toBe(false)
    })

    it('SCH-WARN-024: empty, short or name-only descriptions fire; a sentence does not', () => {
        expect(shortDescriptionReason('getData', '  ')).toBe('is empty')
        expect(shortDescriptionReason('getData', 'Returns data.')).toBe("has 2 words ('Returns data.')")
        expect(shortDescriptionReason('getData', 'Weather')).toBe("has one word ('Weather')")
        expect(shortDescriptionReason('getTokenPrice', 'Get token price.')).toBe(
            "only repeats the tool name ('Get token price.')"
        )
        expect(shortDescriptionReason('getTokenPrice', 'Get the USD price of a token by its contract address.')).toBe(
            null
        )
        expect(shortDescriptionReason('christmasMarkets', 'Christmas markets in Berlin via Berlin.de.')).toBe(null)
    })

    it('rejects an empty tool description as the runtime does (SCH-004), not as a short one', () => {
        const main = draft(true)
        main.tools.getHourlyForecastByCoordinates.description = ''
        const result = SchemaCheck.validateMain({ main })
        expect(result.valid).toBe(false)
        expect(result.errors.map((e) => [e.code, e.path])).toEqual([
            ['SCH-004', '/tools/getHourlyForecastByCoordinates/description']
        ])
    })

    it('lowers no score and blocks nothing: warnings without a grade effect, ranked after those that cost points', () => {
        for (const code of BEGINNER) expect(gradeEffectOf(code)).toEqual({ kind: 'none', cost: 0.1 })
        expect(findingCost('SCH-WARN-022', 'warning')).toBeLessThan(findingCost('SCH-WARN-003', 'warning'))
    })

    it('testValueProblem accepts every value of the primitive’s own type (property)', () => {
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.tuple(fc.constant('number()' as const), fc.double({ noNaN: true })),
                    fc.tuple(fc.constant('string()' as const), fc.string()),
                    fc.tuple(fc.constant('boolean()' as const), fc.boolean()),
                    fc.tuple(fc.constant('array()' as const), fc.array(fc.string())),
                    fc.tuple(fc.constant('object()' as const), fc.dictionary(fc.string(), fc.jsonValue()))
                ),
                ([primitive, value]) => testValueProblem(primitive, value) === null
            )
        )
    })

    it('testValueProblem refuses every value of another type, and says what to write (property)', () => {
        const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
        const own = {
            'number()': 'number',
            'string()': 'string',
            'boolean()': 'boolean',
            'array()': 'array',
            'object()': 'object'
        } as const
        fc.assert(
            fc.property(
                fc.constantFrom(...(Object.keys(own) as Array<keyof typeof own>)),
                fc.jsonValue(),
                (primitive, value) => {
                    fc.pre(typeOf(value) !== own[primitive])
                    const problem = testValueProblem(primitive, value)
                    return problem !== null && /rejects/.test(problem) && /write|leave the key out/.test(problem)
                }
            )
        )
    })

    it('isGenericToolName matches only the whole name: a listed name with a suffix is not generic (property)', () => {
        fc.assert(
            fc.property(
                fc.constantFrom(...GENERIC_TOOL_NAMES),
                fc.stringMatching(/^[A-Z][a-z]{2,8}$/),
                (name, suffix) => {
                    fc.pre(!isGenericToolName(name + suffix))
                    return isGenericToolName(name) && isGenericToolName(name.toUpperCase())
                }
            )
        )
        expect(GENERIC_TOOL_NAMES.filter((n) => isGenericToolName(`${n}ByCity`))).toEqual([])
    })
})

describe('beginner mistakes in the CLI text output: file:line:col at the line the author edits', () => {
    let dir = ''
    beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), 'flowmcp-beginner-'))
    })
    afterAll(async () => {
        await rm(dir, { recursive: true, force: true })
    })

    async function gradeText(polished: boolean): Promise<{ text: string; file: string; source: string }> {
        const root = join(dir, polished ? 'polished' : 'draft')
        await mkdir(join(root, 'weather'), { recursive: true })
        const file = join(root, 'weather', 'forecast.mjs')
        const source = draftSource(polished)
        await writeFile(file, source)
        const io = memoryIo({}, { env: {} })
        await run(['grade', root, '--now', '2026-11-25T10:00:00Z'], io)
        return { text: io.out(), file, source }
    }

    it('names every planted mistake at its line and column, and none once fixed', async () => {
        const { text, file, source } = await gradeText(false)
        expect(text).toContain(file)
        const expectAt = (position: string, code: string) =>
            expect(text).toMatch(new RegExp(`\\n\\s+${position}\\s+warning\\s+${code}\\s`))
        expectAt(at(source, 'getData: {', 'getData'), 'SCH-WARN-023')
        expectAt(at(source, "description: 'Returns data.'", 'description'), 'SCH-WARN-024')
        expectAt(at(source, "key: 'latitude'", '{ position'), 'SCH-WARN-022')
        expectAt(at(source, "_description: 'Berlin'", 'latitude'), 'SCH-WARN-021')
        const polished = await gradeText(true)
        for (const code of BEGINNER) expect(polished.text).not.toContain(code)
    }, 60_000)

    /** A judge that reads what the author wrote: 2 for every question while the tool says only "Returns data.". */
    const JUDGE = `import { readFileSync } from 'node:fs'
const request = JSON.parse(readFileSync(0, 'utf8'))
const weak = request.attachments.some((a) => a.content.includes('Returns data.'))
process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: weak ? 2 : 5, reasoning: weak ? 'says nothing about what it returns' : 'clear' })), improvementHints: [] }))
`

    it('gives the polished schema a strictly higher score than the draft, each planted mistake named at its line', async () => {
        await writeFile(join(dir, 'judge.mjs'), JUDGE)
        const graded = async (polished: boolean) => {
            const root = join(dir, polished ? 'judged-polished' : 'judged-draft')
            await mkdir(join(root, 'weather'), { recursive: true })
            const file = join(root, 'weather', 'forecast.mjs')
            await writeFile(file, draftSource(polished))
            await writeSyntheticRecordings([file], join(root, 'recordings'))
            const args = [
                '--recordings',
                join(root, 'recordings'),
                '--min-working-tests',
                '1',
                '--now',
                '2026-11-25T10:00:00Z'
            ]
            const judge = ['--judge-command', `node ${join(dir, 'judge.mjs')}`, '--judge-model', 'stand-in']
            const text = memoryIo({}, { env: { PATH: process.env.PATH ?? '' } })
            await run(['grade', root, ...args, ...judge, '--verbose'], text)
            const json = memoryIo({}, { env: { PATH: process.env.PATH ?? '' } })
            await run(['grade', root, ...args, ...judge, '--json'], json)
            const schemas = (
                JSON.parse(json.out()) as { schemas: Array<{ grading: { basis: { score: number } | null } }> }
            ).schemas
            return { text: text.out(), score: schemas[0]?.grading.basis?.score ?? null }
        }
        const [draftRun, polishedRun] = [await graded(false), await graded(true)]
        for (const code of BEGINNER)
            expect(draftRun.text).toMatch(new RegExp(`\\n\\s+\\d+:\\d+\\s+warning\\s+${code}\\s`))
        expect(draftRun.score).not.toBeNull()
        expect(polishedRun.score).not.toBeNull()
        expect(polishedRun.score as number).toBeGreaterThan(draftRun.score as number)
        // The table shows the score, not only the capped letter.
        expect(polishedRun.text).toMatch(/weather\.forecast\s+\S+\s+B 5\.00 \(raw A\)/)
    }, 120_000)
})
