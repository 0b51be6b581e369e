import { Ajv2020 } from 'ajv/dist/2020.js'
import { readFileSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONFIG_FILE, findConfig, loadConfig } from '../../src/cli/config.js'
import { CONFIG_KEYS } from '../../src/cli/options.js'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'
import { shared } from '../support/shared.js'

const { path: SAMPLE, present } = shared('corpus-sample/schemas/frankfurter/')
const SCHEMA = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as Record<
    string,
    unknown
>
const now = '2026-11-25T10:00:00Z'
let dir = ''

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-config-'))
    await mkdir(join(dir, 'repo', '.git'), { recursive: true })
    await mkdir(join(dir, 'repo', 'sub', 'deeper'), { recursive: true })
    if (present) await cp(SAMPLE, join(dir, 'repo', 'providers', 'frankfurter'), { recursive: true })
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

async function config(where: string, value: unknown): Promise<string> {
    const file = join(where, CONFIG_FILE)
    await writeFile(file, JSON.stringify(value))
    return file
}

describe('the config file', () => {
    it('is found in the working folder or a parent up to the repository root, not above it', async () => {
        await config(dir, { verbose: true })
        expect(findConfig(join(dir, 'repo', 'sub', 'deeper'))).toBeNull()
        const file = await config(join(dir, 'repo'), { verbose: true })
        expect(findConfig(join(dir, 'repo', 'sub', 'deeper'))).toBe(file)
        await rm(file)
        await rm(join(dir, CONFIG_FILE))
    })

    it('fills what the flags leave unset, the flags win, paths resolve from its folder: --print-config shows the merge', async () => {
        const file = await config(join(dir, 'repo'), {
            concurrency: 2,
            sarif: 'out/grading.sarif',
            judgeEnv: ['OPENAI_API_KEY'],
            rules: { 'SCH-WARN-012': 'off' }
        })
        const io = memoryIo({}, { cwd: join(dir, 'repo', 'sub') })
        expect(await run(['grade', 'x', '--concurrency', '3', '--print-config'], io)).toBe(0)
        expect(JSON.parse(io.out())).toEqual({
            configFile: file,
            concurrency: 3,
            sarif: join(dir, 'repo', 'out', 'grading.sarif'),
            judgeEnv: ['OPENAI_API_KEY'],
            rules: { 'SCH-WARN-012': 'off' }
        })
        await rm(file)
    })

    it.each([
        [{ judgeComand: './judge.sh' }, /CFG-004: .*unknown key "judgeComand"/],
        [{ concurrency: 'many' }, /CFG-004: .*concurrency must be a positive number/],
        [{ judgeEnv: 'OPENAI_API_KEY' }, /CFG-004: .*judgeEnv must be an array of strings/],
        [{ rules: { 'SCH-WARN-012': 'silent' } }, /CFG-002: .*SCH-WARN-012/],
        [{ rules: ['SCH-WARN-012'] }, /CFG-001/]
    ])('refuses %j with exit 2, naming what is wrong', async (value, message) => {
        const file = await config(dir, value)
        const io = memoryIo({}, { cwd: dir })
        expect(await run(['grade', 'x', '--config', file], io)).toBe(2)
        expect(io.err()).toMatch(message)
    })

    it('a --config that does not exist is a usage error', async () => {
        const io = memoryIo({}, { cwd: dir })
        expect(await run(['grade', 'x', '--config', 'missing.json'], io)).toBe(2)
        expect(io.err()).toMatch(/cannot read the config file/)
    })

    it.each([
        [
            {
                judgeCommand: './judge.sh',
                judgeModel: 'm',
                judgeTimeout: 30,
                rules: { 'SCH-WARN-012': 'off', 'Q-single-test-05': 1 }
            }
        ],
        [{ $schema: './node_modules/flowmcp-grading/schemas/config.schema.json', live: true, record: 'recordings' }],
        [{ judgeComand: './judge.sh' }],
        [{ concurrency: 0 }],
        [{ rules: { 'SCH-WARN-012': 'silent' } }],
        [{ rules: { 'not a code': 'off' } }],
        [{ judgeEnv: [1] }]
    ])('the shipped JSON Schema and the CLI agree on %j', async (value) => {
        const validate = new Ajv2020({ strict: false }).compile(SCHEMA)
        const file = await config(dir, value)
        expect(loadConfig(file).errors.length === 0).toBe(validate(value))
    })

    it('the shipped JSON Schema lists every key the CLI reads', () => {
        expect(Object.keys(SCHEMA.properties as object).sort()).toEqual(
            ['$schema', 'rules', ...Object.keys(CONFIG_KEYS)].sort()
        )
    })
})

describe('config and flags compose', () => {
    const examples = new URL('../../examples/', import.meta.url).pathname

    it('a flag overrides the config key it conflicts with: --live over a configured recordings, --offline or --recordings over a configured live', async () => {
        const cwd = join(dir, 'compose')
        await mkdir(join(cwd, 'recordings'), { recursive: true })
        const file = await config(cwd, { recordings: 'recordings', minWorkingTests: 1 })
        const live = memoryIo({}, { cwd })
        expect(await run(['grade', 'providers', '--live', '--record', 'recordings', '--print-config'], live)).toBe(0)
        expect(JSON.parse(live.out())).toEqual({
            configFile: file,
            live: true,
            record: 'recordings',
            minWorkingTests: 1,
            rules: {}
        })
        await config(cwd, { live: true })
        const schema = join(examples, 'providers', 'openmeteo')
        // Each would be "--live excludes --offline and --recordings" (exit 2) if the file's live stood beside the flag.
        expect(await run(['grade', schema, '--offline', '--now', now], memoryIo({}, { cwd }))).toBe(0)
        const replayed = memoryIo({}, { cwd })
        expect(
            await run(['grade', schema, '--recordings', join(examples, 'recordings'), '--now', now, '--json'], replayed)
        ).toBe(0)
        expect(
            (JSON.parse(replayed.out()) as { schemas: Array<{ grading: { pretest: { ran: boolean } } }> }).schemas[0]
                ?.grading.pretest.ran
        ).toBe(true)
        await rm(join(cwd, CONFIG_FILE))
    })

    it.each([
        [
            { recordings: 'no-such-recordings' },
            [] as string[],
            /the folder \S*no-such-recordings \(set as "recordings" in \S+flowmcp-grading\.config\.json\) does not exist/
        ],
        [{ runtime: 'no-such-core' }, [], /--runtime \S*no-such-core: no readable package\.json there/],
        [
            {},
            ['--recordings', 'missing-folder'],
            /the folder \S*missing-folder \(given by --recordings\) does not exist/
        ],
        [{}, ['--answers', 'missing.json'], /the file \S*missing\.json \(given by --answers\) does not exist/]
    ])(
        'a folder or file to read that does not exist (%j %j) is a usage error naming it, never an internal error',
        async (value, flags, message) => {
            const cwd = join(dir, 'missing-input')
            await mkdir(cwd, { recursive: true })
            await config(cwd, value)
            for (const command of ['grade', 'check']) {
                const io = memoryIo({}, { cwd })
                expect(await run([command, join(examples, 'providers', 'openmeteo'), ...flags], io)).toBe(2)
                expect(io.err()).toMatch(message)
                expect(io.err()).not.toMatch(/internal error|ENOENT/)
            }
        }
    )

    it('an unknown rule code is a usage error with the nearest codes; a known one is accepted', async () => {
        const file = await config(dir, { rules: { 'SCH-WARN-999': 'off' } })
        const io = memoryIo({}, { cwd: dir })
        expect(await run(['grade', 'x', '--config', file], io)).toBe(2)
        expect(io.err()).toMatch(
            /CFG-005: .*The rule SCH-WARN-999 names no issue code or question id of this version, so it sets nothing; did you mean SCH-WARN-\d{3}( or SCH-WARN-\d{3})*\?/
        )
        const typo = await config(dir, { rules: { 'SCH-WARN-01': 'off', 'Q-single-test-5': 'off' } })
        expect(loadConfig(typo).errors.join('\n')).toMatch(/CFG-003/)
        const near = await config(dir, { rules: { 'SHC-WARN-012': 'off' } })
        expect(loadConfig(near).errors.join('\n')).toContain('did you mean SCH-WARN-012?')
        expect(
            loadConfig(await config(dir, { rules: { 'SCH-WARN-012': 'off', 'Q-single-test-05': 1 } })).errors
        ).toEqual([])
    })

    it("a value outside an option's choices is refused in the file as on the command line", async () => {
        const file = await config(dir, { baselineMissing: 'ignore' })
        expect(loadConfig(file).errors.join('\n')).toMatch(/baselineMissing must be one of "fail", "new", got "ignore"/)
    })
})

describe.skipIf(!present)('a config that turns a rule off', () => {
    it('leaves the fix list, SARIF and the summary without it, and the grade as it was', async () => {
        const cwd = join(dir, 'repo')
        // Offline, the tools are untested: --fail-on-untested makes that fail the check, whatever the rules say.
        const args = [
            'check',
            'providers',
            '--min-grade',
            'B',
            '--fail-on-untested',
            '--sarif',
            'g.sarif',
            '--summary',
            'summary.md',
            '--json',
            '--verbose',
            '--now',
            now
        ]
        // The sample's undescribed parameters (SCH-WARN-022) are off in both runs: as warnings they rank before the
        // SCH-WARN-012 note and would push it out of the summary's first lines.
        const quiet = await config(cwd, { rules: { 'SCH-WARN-022': 'off' } })
        const plain = memoryIo({}, { cwd })
        expect(await run(args, plain)).toBe(1)
        const before = JSON.parse(plain.out()) as {
            schemas: Array<{ grade: string | null; status: string; fixList: Array<{ code: string }> }>
        }
        expect(before.schemas[0]?.fixList.map((i) => i.code)).toContain('SCH-WARN-012')
        expect(await readFile(join(cwd, 'g.sarif'), 'utf8')).toContain('SCH-WARN-012')
        expect(await readFile(join(cwd, 'summary.md'), 'utf8')).toContain('SCH-WARN-012')
        await rm(join(cwd, 'summary.md'))

        await rm(quiet)
        const file = await config(cwd, { rules: { 'SCH-WARN-012': 'off', 'SCH-WARN-022': 'off' } })
        const io = memoryIo({}, { cwd })
        expect(await run(args, io)).toBe(1)
        const after = JSON.parse(io.out()) as typeof before
        expect(after.schemas[0]?.fixList.map((i) => i.code)).not.toContain('SCH-WARN-012')
        expect(after.schemas[0]?.fixList.length).toBe((before.schemas[0]?.fixList.length ?? 0) - 1)
        expect([after.schemas[0]?.grade, after.schemas[0]?.status]).toEqual([
            before.schemas[0]?.grade,
            before.schemas[0]?.status
        ])
        expect(await readFile(join(cwd, 'g.sarif'), 'utf8')).not.toContain('SCH-WARN-012')
        expect(await readFile(join(cwd, 'summary.md'), 'utf8')).not.toContain('SCH-WARN-012')
        await rm(file)
    })
})

describe('per-command help', () => {
    it.each([
        'grade',
        'check',
        'validate',
        'emit-prompts',
        'consume-scores',
        'rebuild-index',
        'export',
        'report',
        'rubric',
        'version'
    ])('%s --help prints only its help, with an example', async (command) => {
        const io = memoryIo()
        expect(await run([command, '--help'], io)).toBe(0)
        expect(io.out()).toMatch(new RegExp(`^Usage: flowmcp-grading ${command}`))
        expect(io.out()).toMatch(/\nExample:\n {2}flowmcp-grading /)
        expect(io.out()).not.toContain('Commands:')
    })

    it('help <command> prints the same; an unknown command gets the whole usage', async () => {
        const io = memoryIo()
        expect(await run(['help', 'check'], io)).toBe(0)
        expect(io.out()).toMatch(/^Usage: flowmcp-grading check/)
        const all = memoryIo()
        expect(await run(['help', 'nope'], all)).toBe(0)
        expect(all.out()).toContain('Commands:')
    })
})
