import fc from 'fast-check'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONFIG_FILE, loadConfig } from '../../src/cli/config.js'
import { helpOf } from '../../src/cli/help.js'
import { COMMANDS, optionsHelp, refusedOption, unknownOption } from '../../src/cli/options.js'
import { run } from '../../src/cli/run.js'
import { closest } from '../../src/cli/suggest.js'
import { editDistance } from '../../src/model/edit-distance.js'
import { ErrorCodes } from '../../src/index.js'
import { memoryIo } from './helpers.js'

let dir = ''
let configFile = ''
beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-options-'))
    configFile = join(dir, 'empty.config.json')
    await writeFile(configFile, '{}')
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

/** Every option of the table with a value its checks accept, so only whether the command takes it decides. */
function argsOf(option: { name: string; arg?: string }): string[] {
    if (option.arg === undefined) return [`--${option.name}`]
    const value = option.name === 'now' ? '2026-11-25T10:00:00Z' : option.name === 'config' ? configFile : 'x'
    return [`--${option.name}`, value]
}

const TABLE = optionsHelp()
const CASES = COMMANDS.flatMap((command) => TABLE.map((option) => [command, option.name] as const))

describe('each command takes the options the table declares for it, and refuses the others (CLI-001)', () => {
    it.each(CASES)('%s --%s', async (command, name) => {
        const option = TABLE.find((o) => o.name === name) as (typeof TABLE)[number]
        const declared = optionsHelp(command).some((o) => o.name === name)
        const io = memoryIo({}, { cwd: dir })
        // --help after the option: a command that takes it prints its help; one that does not is a usage error.
        const code = await run([command, ...argsOf(option), '--help'], io)
        if (declared) {
            expect(code).toBe(0)
            if (name !== 'print-config') expect(io.out()).toBe(helpOf(command))
            expect(io.err()).toBe('')
        } else {
            expect(code).toBe(2)
            expect(io.out()).toBe('')
            expect(io.err()).toBe(
                `CLI-001: usage error: '${command}' does not take --${name} (it is an option of ${
                    option.commands.length === COMMANDS.length - 1 ? 'every other command' : option.commands.join(', ')
                })\n`
            )
        }
    })

    it('validate --estimate x.json is refused (it exited 0 and estimated nothing)', async () => {
        const io = memoryIo({}, { cwd: dir })
        expect(await run(['validate', '--estimate', 'x.json'], io)).toBe(2)
        expect(io.err()).toBe("CLI-001: usage error: 'validate' does not take --estimate (it is an option of grade)\n")
    })

    it('names the first refused option in the order given, on one line', () => {
        expect(refusedOption('report', { json: true, island: 'x', estimate: true })).toBe(
            "CLI-001: usage error: 'report' does not take --island (it is an option of grade, check, affected, export, consume-scores)"
        )
        expect(refusedOption('emit-prompts', { json: true })).toBe(
            "CLI-001: usage error: 'emit-prompts' does not take --json (it is an option of every other command)"
        )
        expect(refusedOption('grade', { json: true, island: 'x', estimate: true })).toBeNull()
    })

    it('leaves a name that is no command to the usage: help <command> and an unknown command', async () => {
        expect(refusedOption('help', { estimate: true })).toBeNull()
        expect(refusedOption(undefined, { estimate: true })).toBeNull()
        const io = memoryIo({}, { cwd: dir })
        expect(await run(['frobnicate', '--estimate'], io)).toBe(2)
        expect(io.err().split('\n')[0]).toBe('unknown command: frobnicate')
    })

    it('checks the flags only: a config file serves every command, each reading the keys it takes', async () => {
        const file = join(dir, CONFIG_FILE)
        await writeFile(file, JSON.stringify({ minGrade: 'B', island: 'isl' }))
        const io = memoryIo({}, { cwd: dir })
        expect(await run(['report', '--print-config'], io)).toBe(0)
        expect(JSON.parse(io.out())).toMatchObject({ minGrade: 'B' })
        await rm(file)
    })

    it('CLI-001 and CLI-002 are catalogue codes, errors', () => {
        for (const code of ['CLI-001', 'CLI-002']) expect(ErrorCodes.get({ code }).entry?.severity).toBe('error')
    })
})

describe('an unknown option says which was meant (CLI-002)', () => {
    const tail = (o: string) =>
        `(an argument that starts with '-' but is not an option goes after '--', as in: -- ${o})`

    it.each([
        [
            ['grade', '--islnd', 'x'],
            `CLI-002: usage error: unknown option --islnd; did you mean --island? ${tail('--islnd')}`
        ],
        [
            ['grade', '--isalnd'],
            `CLI-002: usage error: unknown option --isalnd; did you mean --island? ${tail('--isalnd')}`
        ],
        [
            ['check', '--min-grad', 'B'],
            `CLI-002: usage error: unknown option --min-grad; did you mean --min-grade? ${tail('--min-grad')}`
        ],
        [
            ['grade', '--jsno', 'x'],
            `CLI-002: usage error: unknown option --jsno; did you mean --json? ${tail('--jsno')}`
        ],
        [
            ['report', '--estmate', 'x'],
            `CLI-002: usage error: unknown option --estmate; did you mean --estimate (an option of grade)? ${tail('--estmate')}`
        ],
        [['check', '--only'], `CLI-002: usage error: unknown option --only ${tail('--only')}`],
        [['grade', '--bogus', 'x'], `CLI-002: usage error: unknown option --bogus ${tail('--bogus')}`],
        [['validate', '-z'], `CLI-002: usage error: unknown option -z ${tail('-z')}`],
        [
            ['--islnd', 'x', 'grade'],
            `CLI-002: usage error: unknown option --islnd; did you mean --island? ${tail('--islnd')}`
        ]
    ])('%j', async (argv, line) => {
        const io = memoryIo({}, { cwd: dir })
        expect(await run(argv, io)).toBe(2)
        expect(io.err().split('\n')[0]).toBe(line)
        expect(io.err()).toContain('Usage: flowmcp-grading')
        expect(io.out()).toBe('')
    })

    it("prefers the command's own option to another command's at the same distance", () => {
        // --now is every-command-but-some, --out report's: one edit each from --nout; report takes --out.
        expect(unknownOption('report', '--nout')).toContain('did you mean --out?')
        expect(unknownOption('validate', '--nout')).toContain('did you mean --now?')
        expect(unknownOption('validate', '--schem')).toContain('did you mean --schema?')
        expect(unknownOption('grade', '--sumary')).toContain('did you mean --summary (an option of check)?')
    })

    it('a config file key that is not one names the key meant', async () => {
        const file = join(dir, 'typo.config.json')
        await writeFile(file, JSON.stringify({ judgeComand: './judge.sh', zzzzzz: 1 }))
        const { errors } = loadConfig(file)
        expect(errors[0]).toMatch(
            /unknown key "judgeComand"; the keys are long options in camelCase, and rules; did you mean "judgeCommand"\?$/
        )
        expect(errors[1]).toMatch(/unknown key "zzzzzz"; the keys are long options in camelCase, and rules$/)
    })
})

describe('editDistance and closest', () => {
    it.each([
        ['', '', 0],
        ['island', 'island', 0],
        ['islnd', 'island', 1],
        ['isalnd', 'island', 1],
        ['kitten', 'sitting', 3],
        ['ca', 'abc', 3]
    ])('%s → %s: %i edits', (a, b, d) => {
        expect(editDistance(a, b)).toBe(d)
    })

    it('is 0 only for equal strings, symmetric, and bounded by the lengths', () => {
        fc.assert(
            fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
                const d = editDistance(a, b)
                expect(d === 0).toBe(a === b)
                expect(editDistance(b, a)).toBe(d)
                expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length))
                expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length))
            })
        )
    })

    it('one insertion, deletion, substitution or swap of neighbours is one edit', () => {
        fc.assert(
            fc.property(
                fc.string({ minLength: 2, maxLength: 12 }),
                fc.nat(),
                fc.string({ minLength: 1, maxLength: 1 }),
                (s, n, c) => {
                    const i = n % (s.length - 1)
                    const swapped = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2)
                    expect(editDistance(s, swapped)).toBeLessThanOrEqual(1)
                    expect(editDistance(s, s.slice(0, i) + c + s.slice(i))).toBe(1)
                    expect(editDistance(s, s.slice(0, i) + s.slice(i + 1))).toBe(1)
                }
            )
        )
    })

    it('suggests nothing far away, and the first of equals', () => {
        expect(closest('only', ['out', 'json', 'island'])).toBeNull()
        expect(closest('x', ['y', 'z'])).toBeNull()
        expect(closest('jsn', ['json', 'jsx'])).toBe('json')
        expect(closest('ab', ['ac', 'ad'])).toBe('ac')
    })
})
