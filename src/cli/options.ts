// The one table of the command line's options: how parseArgs reads each flag, which commands take it,
// what it does (the help is generated from it) and, for those a config file may set, the kind of its
// value there and whether it is a path. run.ts parses with it, config.ts checks a config file with the
// keys it derives, help.ts prints it: a new option is added in one place. Its rows are kept in parts by
// what they are about (options-grading.ts, options-gates.ts, options-judge.ts, options-run.ts).

import { parseArgs } from 'node:util'
import { createIssue } from '../errors/issue.js'
import { COMMANDS, type Command, type OptionSpec } from './option-spec.js'
import { GATE_OPTIONS } from './options-gates.js'
import { GRADING_OPTIONS } from './options-grading.js'
import { JUDGE_OPTIONS } from './options-judge.js'
import { RUN_OPTIONS } from './options-run.js'
import { closest } from './suggest.js'
import { definedFields } from '../model/fields.js'

export { COMMANDS, type Command, type ConfigKind } from './option-spec.js'

// The configurable options come first, in the order `--print-config` lists them; then those of one run.
const OPTIONS = {
    ...GRADING_OPTIONS,
    ...GATE_OPTIONS,
    ...JUDGE_OPTIONS,
    ...RUN_OPTIONS
} as const satisfies Readonly<Record<string, OptionSpec>>

type ParseOptions = {
    readonly [K in keyof typeof OPTIONS]: Pick<
        (typeof OPTIONS)[K],
        Extract<keyof (typeof OPTIONS)[K], 'type' | 'multiple' | 'short'>
    >
}

/** The options as parseArgs takes them (the type, multiple and short of each). */
const PARSE_OPTIONS = Object.fromEntries(
    Object.entries(OPTIONS).map(([name, spec]) => [
        name,
        Object.fromEntries(
            Object.entries(spec).filter(([key]) => key === 'type' || key === 'multiple' || key === 'short')
        )
    ])
) as ParseOptions

/** Parses the command line strictly (an unknown option throws, as parseArgs does): the values and the positionals. */
export function parseCommandLine(argv: readonly string[]) {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: PARSE_OPTIONS })
}

/**
 * The command a command line names, read leniently (an unknown option is taken for a flag), so a refusal can speak of
 * it; undefined when none is named.
 */
export function commandOf(argv: readonly string[]): string | undefined {
    try {
        return parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: PARSE_OPTIONS })
            .positionals[0]
    } catch {
        return undefined
    }
}

/** The commands that take `option`, or undefined for a name the table does not have. */
export function commandsOf(option: string): readonly Command[] | undefined {
    return Object.hasOwn(OPTIONS, option)
        ? (OPTIONS as Readonly<Record<string, OptionSpec>>)[option]?.commands
        : undefined
}

/** Whether `command` takes `option` (a name of the table); the help lists exactly these. */
export function takes(command: Command, option: string): boolean {
    return commandsOf(option)?.includes(command) === true
}

/** The commands that take an option, as a refusal names them: "every other command" when all but one do. */
function ownersText(owners: readonly Command[]): string {
    return owners.length === COMMANDS.length - 1 ? 'every other command' : owners.join(', ')
}

/**
 * The refusal of the first option given on the command line that `command` does not take (`CLI-001`, one line), or
 * null when it takes them all. A name that is not a command (`help`, a typo) is left to the usage: nothing is refused.
 */
export function refusedOption(command: string | undefined, given: Readonly<Record<string, unknown>>): string | null {
    if (command === undefined || !(COMMANDS as readonly string[]).includes(command)) return null
    for (const [option, value] of Object.entries(given)) {
        if (value === undefined || takes(command as Command, option)) continue
        const owners = ownersText(commandsOf(option) ?? [])
        return `CLI-001: ${createIssue('CLI-001', '', { command, option, owners }).message}`
    }
    return null
}

/**
 * The line for an option the table does not have (`CLI-002`): with the closest name when one is near, first among
 * those `command` takes, then among every other (saying whose it is).
 */
export function unknownOption(command: string | undefined, typed: string): string {
    const name = typed.replace(/^--?/, '')
    const own =
        command !== undefined && (COMMANDS as readonly string[]).includes(command)
            ? Object.keys(OPTIONS).filter((o) => takes(command as Command, o))
            : Object.keys(OPTIONS)
    const near = typed.startsWith('--') ? (closest(name, own) ?? closest(name, Object.keys(OPTIONS))) : null
    let suggestion = ''
    if (near !== null)
        suggestion = own.includes(near)
            ? `; did you mean --${near}?`
            : `; did you mean --${near} (an option of ${ownersText(commandsOf(near) ?? [])})?`
    return `CLI-002: ${createIssue('CLI-002', '', { option: typed, suggestion }).message}`
}

/** The option values of one run, keyed by long option name. */
export type OptionValues = ReturnType<typeof parseCommandLine>['values']

/** One option as the help shows it. */
export interface OptionHelp {
    readonly name: string
    readonly short?: string
    readonly arg?: string
    readonly help: string
    readonly commands: readonly Command[]
}

/** Every option in table order, or those `command` takes, each worded for it. */
export function optionsHelp(command?: Command): OptionHelp[] {
    return Object.entries(OPTIONS as Readonly<Record<string, OptionSpec>>).flatMap(([name, spec]) => {
        if (command !== undefined && !spec.commands.includes(command)) return []
        const help = (command !== undefined ? spec.per?.[command] : undefined) ?? spec.help
        return [
            {
                name,
                ...definedFields({ short: spec.short, arg: spec.arg }),
                help,
                commands: spec.commands
            }
        ]
    })
}

/** The option name a config key stands for: `judgeCommand` → `judge-command`. */
export const optionOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** The config key of an option: `judge-command` → `judgeCommand`. */
const keyOf = (option: string): string => option.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

/** A config key's kind, whether it is a path (and one that must exist), and the values it may take. */
export type ConfigSpec = NonNullable<OptionSpec['config']>

/**
 * The keys of a config file: the long options in camelCase, their kind, and whether the value is a
 * path (resolved from the config file's folder, as eslint does). `schemas/config.schema.json` says the same.
 */
export const CONFIG_KEYS: Readonly<Record<string, ConfigSpec>> = Object.freeze(
    Object.fromEntries(
        Object.entries(OPTIONS as Readonly<Record<string, OptionSpec>>).flatMap(([option, spec]) =>
            spec.config !== undefined ? [[keyOf(option), spec.config]] : []
        )
    )
)

/** The options `command` reads whose value is a folder or file that must exist, by long name. */
export function inputOptions(command: string): Array<{ option: string; key: string; input: 'folder' | 'file' }> {
    return Object.entries(OPTIONS as Readonly<Record<string, OptionSpec>>).flatMap(([option, spec]) =>
        spec.config?.input !== undefined && (spec.commands as readonly string[]).includes(command)
            ? [{ option, key: keyOf(option), input: spec.config.input }]
            : []
    )
}

/**
 * Options that say the same thing three ways: given on the command line, one of them replaces what
 * the config file sets for the others (`--live` over a configured `recordings`).
 */
export const EXCLUSIVE_GROUPS: readonly (readonly string[])[] = Object.freeze([['offline', 'live', 'recordings']])
