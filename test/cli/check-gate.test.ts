import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONFIG_FILE } from '../../src/cli/config.js'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

// The gate of `check` never passes what it could not verify, and follows the tree: copies of the
// bundled examples, graded with a stand-in judge into a baseline, then changed, broken or removed.
const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-25T10:00:00Z'
let dir = ''

const GOOD_JUDGE = `import { readFileSync } from 'node:fs'
const request = JSON.parse(readFileSync(0, 'utf8'))
process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'clear' })) }))
`
// A judge whose key was refused: it says so on stderr, with the key it holds, and exits 1.
const BROKEN_JUDGE = `process.stderr.write('HTTP 401 invalid key sk-ant-api03-REFUSEDrefusedREFUSED0001\\n')
process.exit(1)
`

const io = (cwd = dir): ReturnType<typeof memoryIo> => memoryIo({}, { cwd, env: { PATH: process.env.PATH ?? '' } })
const judge = (name: string): string[] => [
    '--judge-command',
    `node ${join(dir, name)}`,
    '--judge-model',
    'stand-in-model'
]
const offline = (): string[] => ['--recordings', join(examples, 'recordings'), '--min-working-tests', '1', '--now', now]

/** A copy of the base tree under `name`, with `edit` applied to the files it names (relative to the copy). */
async function tree(name: string, edit: Record<string, (source: string) => string | null> = {}): Promise<string> {
    const root = join(dir, name)
    await rm(root, { recursive: true, force: true })
    await cp(join(dir, 'base'), root, { recursive: true })
    for (const [file, change] of Object.entries(edit)) {
        const changed = change(await readFile(join(root, file), 'utf8'))
        if (changed === null) await rm(join(root, file))
        else await writeFile(join(root, file), changed)
    }
    return root
}

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-gate-'))
    await writeFile(join(dir, 'good.mjs'), GOOD_JUDGE)
    await writeFile(join(dir, 'broken.mjs'), BROKEN_JUDGE)
    // The base tree: two namespaces, one with two schemas; one schema with a tag the spec's pattern refuses (SCH-WARN-012, a warning).
    await cp(join(examples, 'providers', 'openmeteo'), join(dir, 'base', 'openmeteo'), { recursive: true })
    await cp(join(examples, 'providers', 'quakefeed'), join(dir, 'base', 'quakefeed'), { recursive: true })
    await cp(join(dir, 'base', 'quakefeed', 'events.mjs'), join(dir, 'base', 'quakefeed', 'events2.mjs'))
    const forecast = join(dir, 'base', 'openmeteo', 'forecast.mjs')
    await writeFile(
        forecast,
        (await readFile(forecast, 'utf8')).replace("tags: [ 'weather', 'forecast' ]", "tags: [ 'weather', 'Bad Tag' ]")
    )
    const code = await run(
        ['grade', join(dir, 'base'), '--island', join(dir, 'baseline'), ...judge('good.mjs'), ...offline()],
        io()
    )
    expect(code).toBe(0)
}, 60_000)
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe('check: a schema the run could not verify never passes', () => {
    it('a judge that exits 1 with "HTTP 401 invalid key" makes the schema unverified, with the judge\'s own words (redacted), in the text, --json, SARIF and the summary: exit 1', async () => {
        const out = io()
        const sarif = join(dir, 'broken.sarif')
        const summary = join(dir, 'broken.md')
        expect(
            await run(
                [
                    'check',
                    join(dir, 'base', 'openmeteo'),
                    ...judge('broken.mjs'),
                    ...offline(),
                    '--sarif',
                    sarif,
                    '--summary',
                    summary
                ],
                out
            )
        ).toBe(1)
        expect(out.out()).toMatch(/openmeteo\.forecast\s+-\s+—\s+pending\s+UNVERIFIED/)
        expect(out.out()).toMatch(
            /openmeteo\.forecast: not verified: \d of \d units not graded: .*HTTP 401 invalid key/
        )
        expect(out.out()).toContain('check failed: 1 not verified')
        const json = io()
        expect(
            await run(['check', join(dir, 'base', 'openmeteo'), ...judge('broken.mjs'), ...offline(), '--json'], json)
        ).toBe(1)
        const parsed = JSON.parse(json.out()) as {
            passed: boolean
            schemas: Array<{ verdict: string; unverified: string | null; failures: string[] }>
        }
        expect(parsed.passed).toBe(false)
        expect(parsed.schemas[0]).toMatchObject({
            verdict: 'unverified',
            unverified: expect.stringContaining('HTTP 401 invalid key')
        })
        const log = JSON.parse(await readFile(sarif, 'utf8')) as {
            runs: Array<{ results: Array<{ ruleId: string; level: string; message: { text: string } }> }>
        }
        expect(log.runs[0]?.results.find((r) => r.ruleId === 'CHK-001')).toMatchObject({
            level: 'error',
            message: { text: expect.stringContaining('HTTP 401 invalid key') }
        })
        const text = await readFile(summary, 'utf8')
        expect(text).toMatch(/^## flowmcp-grading check: 1 schema not verified/)
        expect(text).toContain('| openmeteo.forecast | — | — | pending | **unverified** |')
        expect(text).toMatch(/- not verified: .*HTTP 401 invalid key/)
        for (const written of [out.out(), out.err(), json.out(), await readFile(sarif, 'utf8'), text])
            expect(written).not.toContain('REFUSEDrefusedREFUSED0001')
    })

    it('--allow-unverified (or allowUnverified in the config) lets it pass, still reported as unverified', async () => {
        const flag = io()
        expect(
            await run(
                ['check', join(dir, 'base', 'openmeteo'), ...judge('broken.mjs'), ...offline(), '--allow-unverified'],
                flag
            )
        ).toBe(0)
        expect(flag.out()).toMatch(/openmeteo\.forecast\s.*\sunverified\n/)
        expect(flag.out()).toContain('not verified (allowed by --allow-unverified)')
        const cwd = join(dir, 'configured')
        await mkdir(cwd, { recursive: true })
        await writeFile(join(cwd, CONFIG_FILE), JSON.stringify({ allowUnverified: true }))
        expect(
            await run(['check', join(dir, 'base', 'openmeteo'), ...judge('broken.mjs'), ...offline()], io(cwd))
        ).toBe(0)
    })

    it('without a judge it says so once; unchanged content passes against its baseline, changed content is unverified', async () => {
        const unchanged = io()
        expect(
            await run(['check', join(dir, 'base'), '--baseline', join(dir, 'baseline'), ...offline()], unchanged)
        ).toBe(0)
        expect(unchanged.err().match(/no judge given/g)).toHaveLength(1)
        const changed = await tree('reworded', {
            'openmeteo/forecast.mjs': (s) => s.replace('Returns the hourly 2 m', 'Returns the hourly two-metre')
        })
        const out = io()
        expect(await run(['check', changed, '--baseline', join(dir, 'baseline'), ...offline()], out)).toBe(1)
        expect(out.out()).toMatch(
            /openmeteo\.forecast: not verified: changed since the baseline \(graded B there\) and not graded in this run/
        )
        expect(out.out()).toMatch(/quakefeed\.events\s.*\sok\n/)
    })
})

describe('check: baselines follow the tree', () => {
    it('a namespace folder removed since the baseline (the path no longer exists) and a schema file removed are reported removed, never a crash; --fail-on-removed fails on them', async () => {
        const pr = await tree('removed', { 'quakefeed/events2.mjs': () => null })
        await rm(join(pr, 'openmeteo'), { recursive: true })
        const args = [
            'check',
            join(pr, 'openmeteo'),
            join(pr, 'quakefeed'),
            '--baseline',
            join(dir, 'baseline'),
            ...judge('good.mjs'),
            ...offline()
        ]
        const out = io()
        expect(await run(args, out)).toBe(0)
        expect(out.err()).not.toContain('ENOENT')
        expect(out.out()).toMatch(/openmeteo\.forecast\s+-\s+B\s+removed\s+removed/)
        expect(out.out()).toMatch(/quakefeed\.events2\s+-\s+\S+\s+removed\s+removed/)
        expect(out.out()).toMatch(/quakefeed\.events\s.*\sok\n/)
        const strict = io()
        expect(await run([...args, '--fail-on-removed'], strict)).toBe(1)
        expect(strict.out()).toContain('openmeteo.forecast: removed since the baseline (--fail-on-removed)')
    })

    it('a rule raised to "error" in the config fails no unchanged schema (the baseline is read under the same rules); a new finding of that rule still fails', async () => {
        const cwd = join(dir, 'raised')
        await mkdir(cwd, { recursive: true })
        await writeFile(join(cwd, CONFIG_FILE), JSON.stringify({ rules: { 'SCH-WARN-012': 'error' } }))
        const unchanged = io(cwd)
        expect(
            await run(
                [
                    'check',
                    join(dir, 'base', 'openmeteo'),
                    '--baseline',
                    join(dir, 'baseline'),
                    ...judge('good.mjs'),
                    ...offline()
                ],
                unchanged
            )
        ).toBe(0)
        expect(unchanged.out()).not.toContain('new error')
        const more = await tree('more-tags', {
            'openmeteo/forecast.mjs': (s) =>
                s.replace("tags: [ 'weather', 'Bad Tag' ]", "tags: [ 'Weather', 'Bad Tag' ]")
        })
        const out = io(cwd)
        expect(
            await run(
                [
                    'check',
                    join(more, 'openmeteo'),
                    '--baseline',
                    join(dir, 'baseline'),
                    ...judge('good.mjs'),
                    ...offline()
                ],
                out
            )
        ).toBe(1)
        expect(out.out()).toMatch(/openmeteo\.forecast: new error .*SCH-WARN-012 .*Weather/)
        expect(out.out()).not.toMatch(/new error .*Bad Tag/)
    })

    it.each([
        ['missing', async () => join(dir, 'no-such-island')],
        [
            'empty',
            async () => {
                const empty = join(dir, 'empty-island')
                await mkdir(join(empty, 'providers'), { recursive: true })
                return empty
            }
        ]
    ])(
        'a %s baseline fails the check with a clear message (exit 1, not 2), or with --baseline-missing new checks every schema as new',
        async (_kind, make) => {
            const baseline = await make()
            const summary = join(dir, `baseline-${_kind}.md`)
            const out = io()
            expect(
                await run(
                    [
                        'check',
                        join(dir, 'base', 'openmeteo'),
                        '--baseline',
                        baseline,
                        ...judge('good.mjs'),
                        ...offline(),
                        '--summary',
                        summary
                    ],
                    out
                )
            ).toBe(1)
            expect(out.err()).toMatch(
                /the baseline .* (does not exist|holds no graded namespace[^;]*); nothing to compare with, so the check fails \(pass --baseline-missing new/
            )
            expect(await readFile(summary, 'utf8')).toMatch(/could not run[\s\S]*--baseline-missing new/)
            const fresh = io()
            expect(
                await run(
                    [
                        'check',
                        join(dir, 'base', 'openmeteo'),
                        '--baseline',
                        baseline,
                        '--baseline-missing',
                        'new',
                        ...judge('good.mjs'),
                        ...offline(),
                        '--summary',
                        summary
                    ],
                    fresh
                )
            ).toBe(0)
            expect(fresh.err()).toContain('every schema is checked as new (--baseline-missing new)')
            expect(await readFile(summary, 'utf8')).toMatch(
                /## flowmcp-grading check: passed\n\n> the baseline .* every schema is checked as new/
            )
        }
    )

    it('a renamed tool passes, graded in place into a copy of the baseline island: no ghost of the old name (issue 43)', async () => {
        const pr = await tree('renamed-tool', {
            'openmeteo/forecast.mjs': (s) => s.replaceAll('getCurrentWeather', 'getCurrentConditions')
        })
        const island = join(dir, 'renamed-island')
        await rm(island, { recursive: true, force: true })
        await cp(join(dir, 'baseline'), island, { recursive: true })
        const args = ['check', join(pr, 'openmeteo'), '--baseline', join(dir, 'baseline'), '--island', island]
        const out = io()
        expect(await run([...args, ...judge('good.mjs'), ...offline(), '--json'], out)).toBe(0)
        const parsed = JSON.parse(out.out()) as {
            passed: boolean
            schemas: Array<{ schemaId: string; verdict: string; unverified: string | null }>
        }
        expect(parsed.passed).toBe(true)
        expect(parsed.schemas.find((s) => s.schemaId === 'openmeteo.forecast')).toMatchObject({
            verdict: 'ok',
            unverified: null
        })
        const index = JSON.parse(await readFile(join(island, 'providers', 'openmeteo', 'index.json'), 'utf8'))
        expect(Object.keys(index.schemas.forecast.tools).sort()).toEqual(['getCurrentConditions', 'getHourlyForecast'])
    })

    it("a renamed schema file passes; graded in place, the namespace's index.json lists the new name only, the old stays as history", async () => {
        const pr = await tree('renamed-schema', { 'quakefeed/events2.mjs': () => null })
        await cp(join(dir, 'base', 'quakefeed', 'events2.mjs'), join(pr, 'quakefeed', 'quakes.mjs'))
        const island = join(dir, 'renamed-schema-island')
        await rm(island, { recursive: true, force: true })
        await cp(join(dir, 'baseline'), island, { recursive: true })
        const out = io()
        const args = ['check', join(pr, 'quakefeed'), '--baseline', join(dir, 'baseline'), '--island', island]
        expect(await run([...args, ...judge('good.mjs'), ...offline()], out)).toBe(0)
        expect(out.out()).toMatch(/quakefeed\.events2\s+-\s+\S+\s+removed\s+removed/)
        const index = JSON.parse(await readFile(join(island, 'providers', 'quakefeed', 'index.json'), 'utf8'))
        expect(Object.keys(index.schemas).sort()).toEqual(['events', 'quakes'])
        expect(index.summary.removed).toEqual(['events2'])
        const summary = JSON.parse(
            await readFile(join(island, 'providers', 'quakefeed', 'events2', 'summary.json'), 'utf8')
        )
        expect(summary.removedAt).toBe(now)
    })

    it('a baseline whose index cannot be read stops the check before grading (exit 2), naming the index', async () => {
        const broken = join(dir, 'broken-island')
        await mkdir(join(broken, 'providers', 'openmeteo'), { recursive: true })
        await writeFile(join(broken, 'providers', 'openmeteo', 'index.json'), '{')
        const out = io()
        expect(await run(['check', join(dir, 'base', 'openmeteo'), '--baseline', broken, ...offline()], out)).toBe(2)
        expect(out.err()).toContain(
            `check: cannot read the baseline ${broken}: ${join(broken, 'providers', 'openmeteo', 'index.json')}: `
        )
    })

    it('--paths-from an empty list checks nothing and passes, writing an empty SARIF run and the summary', async () => {
        await writeFile(join(dir, 'nothing.txt'), '\n')
        const sarif = join(dir, 'nothing.sarif')
        const summary = join(dir, 'nothing.md')
        expect(
            await run(
                [
                    'check',
                    '--paths-from',
                    join(dir, 'nothing.txt'),
                    '--baseline',
                    join(dir, 'baseline'),
                    '--sarif',
                    sarif,
                    '--summary',
                    summary,
                    ...offline()
                ],
                io()
            )
        ).toBe(0)
        expect(
            (JSON.parse(await readFile(sarif, 'utf8')) as { runs: Array<{ results: unknown[] }> }).runs[0]?.results
        ).toEqual([])
        expect(await readFile(summary, 'utf8')).toMatch(/^## flowmcp-grading check: passed/)
    })
})

describe('check: signal over noise', () => {
    it('a passing check lists the warnings new since the baseline, marked new, and not the known ones', async () => {
        const pr = await tree('new-warning', {
            'quakefeed/events.mjs': (s) =>
                s.replace("tags: [ 'earthquakes', 'geology' ]", "tags: [ 'earthquakes', 'Geo Logy' ]")
        })
        const out = io()
        expect(
            await run(
                [
                    'check',
                    join(pr, 'quakefeed'),
                    join(pr, 'openmeteo'),
                    '--baseline',
                    join(dir, 'baseline'),
                    ...judge('good.mjs'),
                    ...offline()
                ],
                out
            )
        ).toBe(0)
        expect(out.out()).toMatch(/new warnings:\n {2}new {2}quakefeed\.events {2}.*SCH-WARN-012 .*Geo Logy/)
        expect(out.out()).not.toMatch(/new .*Bad Tag/)
        const json = io()
        await run(
            [
                'check',
                join(pr, 'quakefeed'),
                '--baseline',
                join(dir, 'baseline'),
                ...judge('good.mjs'),
                ...offline(),
                '--json'
            ],
            json
        )
        const events = (
            JSON.parse(json.out()) as {
                schemas: Array<{ schemaId: string; newWarnings: Array<{ code: string; message: string }> }>
            }
        ).schemas.find((s) => s.schemaId === 'quakefeed.events')
        expect(events?.newWarnings).toEqual([
            expect.objectContaining({ code: 'SCH-WARN-012', message: expect.stringContaining('Geo Logy') })
        ])
    })

    it('--max-warnings does not count notices of the environment (a key not set)', async () => {
        // Offline, not from recordings: a replay needs no key, so only a run without one says it is not set.
        const keyless = (): string[] => ['--offline', '--min-working-tests', '1', '--now', now]
        const keyed = join(examples, 'providers', 'etherscan')
        const json = io()
        await run(['check', keyed, '--json', ...keyless()], json)
        const fixList = (
            JSON.parse(json.out()) as { schemas: Array<{ fixList: Array<{ code: string; severity: string }> }> }
        ).schemas.flatMap((s) => s.fixList)
        const notices = fixList.filter((f) => f.code === 'DPT-007').length
        const warnings = fixList.filter((f) => f.severity === 'warning').length - notices
        expect(notices).toBeGreaterThan(0)
        expect(await run(['check', keyed, '--max-warnings', String(warnings), ...keyless()], io())).toBe(0)
        if (warnings > 0) {
            const over = io()
            expect(await run(['check', keyed, '--max-warnings', String(warnings - 1), ...keyless()], over)).toBe(1)
            expect(over.out()).toContain(
                `besides ${notices} notice${notices === 1 ? '' : 's'} of the environment, not counted`
            )
        }
    })
})

describe('check: not tested here is one class (ENVIRONMENT_BLOCKED_REASONS)', () => {
    /** The forecast schema again as `openmeteo/forecast2.mjs`, every test at a latitude the recordings do not hold. */
    const unrecorded = (source: string): string =>
        source.replace(/latitude: (-?[\d.]+)/g, (_, v: string) => `latitude: ${(Number(v) + 1).toFixed(2)}`)
    const addedTree = async (name: string): Promise<string> => {
        const root = await tree(name)
        await writeFile(
            join(root, 'openmeteo', 'forecast2.mjs'),
            unrecorded(await readFile(join(root, 'openmeteo', 'forecast.mjs'), 'utf8'))
        )
        return root
    }

    it('a new schema that cannot be tested here (its requests are not recorded) is unverified and fails: text, --json, SARIF, summary', async () => {
        const pr = await addedTree('added-unrecorded')
        const out = io()
        const sarif = join(dir, 'added.sarif')
        const summary = join(dir, 'added.md')
        const args = ['check', pr, '--baseline', join(dir, 'baseline'), ...judge('good.mjs'), ...offline()]
        expect(await run([...args, '--sarif', sarif, '--summary', summary], out)).toBe(1)
        expect(out.out()).toMatch(/openmeteo\.forecast2\s.*blocked \(2 tools not tested here: missing-recording\)/)
        expect(out.out()).toMatch(
            /openmeteo\.forecast2: not verified: new since the baseline and not tested here \(missing-recording: getCurrentWeather, getHourlyForecast\)/
        )
        // The schemas the baseline holds, unchanged, still pass.
        expect(out.out()).toMatch(/openmeteo\.forecast\s.*\sok\n/)
        const json = io()
        expect(await run([...args, '--json'], json)).toBe(1)
        const row = (
            JSON.parse(json.out()) as {
                schemas: Array<{ schemaId: string; verdict: string; untested: string[]; unverified: string | null }>
            }
        ).schemas.find((s) => s.schemaId === 'openmeteo.forecast2')
        expect(row).toMatchObject({
            verdict: 'unverified',
            untested: ['getCurrentWeather', 'getHourlyForecast'],
            unverified: expect.stringContaining('not tested here')
        })
        const results = (
            JSON.parse(await readFile(sarif, 'utf8')) as {
                runs: Array<{ results: Array<{ ruleId: string; level: string; properties?: Record<string, unknown> }> }>
            }
        ).runs[0]?.results
        expect(results?.find((r) => r.ruleId === 'CHK-001')?.level).toBe('error')
        // The tools not tested here are notices of the environment in SARIF too.
        expect(results?.filter((r) => r.ruleId === 'DPT-023').map((r) => r.properties?.notTestedHere)).toEqual([
            true,
            true
        ])
        expect(await readFile(summary, 'utf8')).toMatch(/new since the baseline and not tested here/)
        // --allow-unverified: reported, not failed.
        const allowed = io()
        expect(await run([...args, '--allow-unverified'], allowed)).toBe(0)
        expect(allowed.out()).toMatch(/openmeteo\.forecast2\s.*\sunverified\n/)
    })

    it('a changed schema whose baseline was blocked for the same reason passes: nothing that could be checked before is lost', async () => {
        const before = await addedTree('added-before')
        const baseline = join(dir, 'baseline-untested')
        await run(['grade', before, '--island', baseline, ...judge('good.mjs'), ...offline()], io())
        const pr = await addedTree('added-changed')
        const file = join(pr, 'openmeteo', 'forecast2.mjs')
        await writeFile(
            file,
            (await readFile(file, 'utf8')).replace('Returns the hourly 2 m', 'Returns the hourly two-metre')
        )
        const out = io()
        expect(await run(['check', pr, '--baseline', baseline, ...judge('good.mjs'), ...offline()], out)).toBe(0)
        expect(out.out()).toMatch(
            /openmeteo\.forecast2\s.*blocked \(2 tools not tested here: missing-recording\)\s+ok\n/
        )
        // Checked against a baseline that graded it (its requests recorded there), the same change is unverified.
        const recAll = join(dir, 'rec-all')
        await cp(join(examples, 'recordings'), recAll, { recursive: true })
        type Exchange = { request: { query?: Record<string, string> } }
        const meteo = JSON.parse(await readFile(join(recAll, 'openmeteo.json'), 'utf8')) as { exchanges: Exchange[] }
        const moved = meteo.exchanges.map((e) => ({
            ...e,
            request: {
                ...e.request,
                query: { ...e.request.query, latitude: unrecorded(`latitude: ${e.request.query?.latitude}`).slice(10) }
            }
        }))
        await writeFile(
            join(recAll, 'openmeteo.json'),
            JSON.stringify({ ...meteo, exchanges: [...meteo.exchanges, ...moved] })
        )
        const graded = join(dir, 'baseline-graded')
        await run(
            [
                'grade',
                before,
                '--island',
                graded,
                ...judge('good.mjs'),
                '--recordings',
                join(dir, 'rec-all'),
                '--now',
                now
            ],
            io()
        )
        const against = io()
        expect(await run(['check', pr, '--baseline', graded, ...judge('good.mjs'), ...offline()], against)).toBe(1)
        expect(against.out()).toMatch(
            /openmeteo\.forecast2: not verified: changed since the baseline and not tested here/
        )
    })

    it('without a baseline a schema not tested here is reported, not failed; --baseline-missing new checks it as new', async () => {
        const pr = await addedTree('added-nobaseline')
        expect(await run(['check', pr, ...judge('good.mjs'), ...offline()], io())).toBe(0)
        const out = io()
        const missing = join(dir, 'no-such-baseline')
        const args = ['--baseline', missing, '--baseline-missing', 'new']
        expect(await run(['check', pr, ...args, ...judge('good.mjs'), ...offline()], out)).toBe(1)
        expect(out.out()).toMatch(/openmeteo\.forecast2: not verified: new since the baseline and not tested here/)
    })
})
