import { describe, expect, it } from 'vitest'
import { COMMANDS, optionsHelp } from '../../src/cli/options.js'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

// Each command's help is generated from the option table: every option a command takes is listed with its prose.
describe('help is complete', () => {
    it.each(COMMANDS.map((c) => [c]))(
        '%s --help lists every option the table gives it, each with its words',
        async (command) => {
            const io = memoryIo()
            expect(await run([command, '--help'], io)).toBe(0)
            const text = io.out().replace(/\n {26}/g, ' ')
            const options = optionsHelp(command)
            expect(options.length).toBeGreaterThan(2)
            for (const option of options)
                expect(text).toContain(`--${option.name}${option.arg !== undefined ? ` ${option.arg}` : ''}`)
            for (const option of options) expect(text).toContain(option.help.split(' ').slice(0, 4).join(' '))
            // Nothing another command takes only.
            const listed = [...text.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1])
            expect(listed).toEqual(options.map((o) => o.name))
        }
    )

    it('check --help names the options the gate reads: --max-warnings, --min-working-tests, --allow-unverified, --baseline-missing', async () => {
        const io = memoryIo()
        await run(['check', '--help'], io)
        for (const option of [
            '--max-warnings <n>',
            '--min-working-tests <n>',
            '--allow-unverified',
            '--baseline-missing <fail|new>',
            '--fail-on-removed',
            '--paths-from <file>'
        ])
            expect(io.out()).toContain(option)
    })

    it('the whole usage lists every option once, with the commands that take it', async () => {
        const io = memoryIo()
        expect(await run(['--help'], io)).toBe(0)
        const listed = [...io.out().matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1])
        expect(listed).toEqual(optionsHelp().map((o) => o.name))
        expect(io.out().replace(/\n {26}/g, ' ')).toContain('--max-warnings <n>      (check) more than n warnings')
    })
})
