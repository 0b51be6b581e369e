import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { gradeOptionsOf } from '../../src/cli/command-options.js'
import { rerecordCommand } from '../../src/cli/commands/grade-outputs.js'
import { parseCommandLine } from '../../src/cli/options.js'
import { run } from '../../src/cli/run.js'
import type { Recording } from '../../src/index.js'
import { memoryIo } from './helpers.js'

// `grade --live --record <dir>` into a folder that already holds recordings merges by request: the
// exchanges of the host's other schemas stay, the same request gets this run's answer, each file is
// written whole. And the re-record command DPT-022 prints is the run's own: parsed back with the
// CLI's option parser it carries every option that shapes the schema's requests.
const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-25T10:00:00Z'
const FILE = 'api.open-meteo.com.json'
let dir = ''
let version = 1

/** The "live" network: every request answered with JSON that names the run (its version) and the URL. */
function liveNetwork(): void {
    vi.stubGlobal('fetch', async (url: string) => ({
        status: 200,
        headers: new Headers({ 'content-type': 'application/json' }),
        text: async () => JSON.stringify({ version, url, hourly: { time: ['2026-11-25T00:00'] } })
    }))
}

const io = () => memoryIo({}, { cwd: dir, env: { PATH: process.env.PATH ?? '' } })
const recorded = async (): Promise<Recording> =>
    JSON.parse(await readFile(join(dir, 'recordings', FILE), 'utf8')) as Recording
/** Each exchange's request, as `path?latitude` and the rest of its query. */
const latitudes = (r: Recording): string[] =>
    r.exchanges
        .map((e) => {
            const { latitude = '', ...rest } = e.request.query ?? {}
            return `${e.request.method} ${e.request.path}?${latitude} ${JSON.stringify(Object.entries(rest).sort())}`
        })
        .sort()

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-record-merge-'))
    // Two schemas of one host: the example, and a copy whose tests ask for other places.
    const folder = join(dir, 'providers', 'openmeteo')
    await cp(join(examples, 'providers', 'openmeteo'), folder, { recursive: true })
    const source = await readFile(join(folder, 'forecast.mjs'), 'utf8')
    await writeFile(
        join(folder, 'coast.mjs'),
        source.replaceAll('latitude: 52.52', 'latitude: 53.55').replaceAll('latitude: -33.87', 'latitude: -33.9')
    )
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})
afterEach(() => {
    vi.unstubAllGlobals()
})

describe('grade --live --record <dir>: recording never loses an exchange', () => {
    it('two schemas of one host recorded one after another: the exchanges of both are kept, and replay answers both', async () => {
        liveNetwork()
        const first = io()
        const record = ['--live', '--record', 'recordings', '--now', now]
        expect(await run(['grade', 'providers/openmeteo/forecast.mjs', ...record], first)).toBe(0)
        const alone = latitudes(await recorded())
        expect(alone.length).toBeGreaterThan(3)
        const second = io()
        expect(await run(['grade', 'providers/openmeteo/coast.mjs', ...record], second)).toBe(0)
        vi.unstubAllGlobals()
        expect(second.err()).toMatch(/merged by request: \d+ earlier exchanges kept, \d+ replaced by this run's answer/)
        const both = latitudes(await recorded())
        // Every exchange of the first schema is still there, and the second's places were added.
        for (const request of alone) expect(both).toContain(request)
        expect(both.filter((r) => r.startsWith('GET /v1/forecast?53.55 ')).length).toBeGreaterThan(0)
        expect(both.filter((r) => r.startsWith('GET /v1/forecast?-33.9 ')).length).toBeGreaterThan(0)
        expect(new Set(both).size).toBe(both.length)
        // Nothing half-written beside the files: no temp file is left.
        expect((await readdir(join(dir, 'recordings'))).filter((n) => n.startsWith('.'))).toEqual([])
        const replay = io()
        await run(['grade', 'providers/openmeteo', '--recordings', 'recordings', '--json', '--now', now], replay)
        expect(replay.out()).not.toContain('missing-recording')
        expect(replay.out()).not.toContain('DPT-022')
    })

    it('the same request recorded again: the newer answer wins, the others stay as they were', async () => {
        const before = await recorded()
        version = 2
        liveNetwork()
        expect(
            await run(
                ['grade', 'providers/openmeteo/coast.mjs', '--live', '--record', 'recordings', '--now', now],
                io()
            )
        ).toBe(0)
        vi.unstubAllGlobals()
        const after = await recorded()
        expect(latitudes(after)).toEqual(latitudes(before))
        const bodyOf = (r: Recording, latitude: string): unknown =>
            (
                JSON.parse(r.exchanges.find((e) => e.request.query?.latitude === latitude)?.response.body ?? '{}') as {
                    version?: number
                }
            ).version
        // coast.mjs asked for 53.55 again: its answer is this run's; 52.52 only forecast.mjs asks for: kept.
        expect(bodyOf(after, '53.55')).toBe(2)
        expect(bodyOf(after, '52.52')).toBe(1)
    })

    it('a file of the host that is not a readable recording is left as it is, and the run says so (exit 2)', async () => {
        const broken = join(dir, 'broken-recordings')
        await mkdir(broken, { recursive: true })
        await writeFile(join(broken, FILE), '{ not json')
        liveNetwork()
        const out = io()
        expect(
            await run(['grade', 'providers/openmeteo/coast.mjs', '--live', '--record', broken, '--now', now], out)
        ).toBe(2)
        expect(out.err()).toContain(
            `REC-003 ${join(broken, FILE)} holds the host's exchanges but is not a readable recording`
        )
        expect(out.err()).toContain(
            "it is left as it is, and this run's exchanges of https://api.open-meteo.com are not written"
        )
        expect(await readFile(join(broken, FILE), 'utf8')).toBe('{ not json')
    })
})

/** A command line split as a POSIX shell splits one of plain words and single-quoted ones. */
function words(command: string): string[] {
    const out: string[] = []
    for (const match of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
        out.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : (match[2] as string))
    return out
}

describe('the re-record command DPT-022 prints reproduces the run', () => {
    const run = {
        runtime: {
            folder: '/opt/flowmcp core',
            libraries: '/work/repo',
            lists: '/work/repo/lists'
        },
        minWorkingTests: 2,
        trustedImport: true
    }

    it("parsed back with the CLI's option parser, it carries the schema, the recordings folder and every option of the run", () => {
        const command = rerecordCommand('/work/repo/providers/x/my schema.mjs', 'recordings', '/work/repo', run)
        const [npx, bin, ...argv] = words(command)
        expect([npx, bin]).toEqual(['npx', 'flowmcp-grading'])
        const parsed = parseCommandLine(argv)
        expect(parsed.positionals).toEqual(['grade', 'providers/x/my schema.mjs'])
        const options = gradeOptionsOf('grade', parsed.values, undefined, memoryIo())
        if (typeof options === 'number') throw new Error('the printed command is not a valid grade command line')
        // Paths relative to the working folder the command is run in.
        const at = (p: string | undefined): string | undefined => (p === undefined ? p : resolve('/work/repo', p))
        expect({
            live: options.live,
            record: at(options.record),
            runtime: {
                folder: at(options.runtime?.folder),
                libraries: at(options.runtime?.libraries),
                lists: at(options.runtime?.lists)
            },
            minWorkingTests: options.minWorkingTests,
            trustedImport: options.trustedImport
        }).toEqual({ ...run, live: true, record: '/work/repo/recordings' })
    })

    it('names only what the run used: no runtime, no bar, for a run without them', () => {
        const command = rerecordCommand('/work/repo/providers/x/a.mjs', '/work/repo/recordings', '/work/repo')
        expect(command).toBe('npx flowmcp-grading grade providers/x/a.mjs --live --record recordings')
        const parsed = parseCommandLine(words(command).slice(2))
        expect(parsed.values.runtime).toBeUndefined()
        expect(parsed.values['min-working-tests']).toBeUndefined()
    })

    it('a failure: a command that loses an option of the run does not parse back to it', () => {
        const command = rerecordCommand('/r/a.mjs', 'rec', '/r', run).replace(/ --runtime-lists \S+/, '')
        const options = gradeOptionsOf('grade', parseCommandLine(words(command).slice(2)).values, undefined, memoryIo())
        expect(typeof options === 'number' ? null : options.runtime?.lists).toBeUndefined()
    })
})
