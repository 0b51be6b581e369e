// The CLI's entry: parses the command line (options.ts), merges the config file, and calls the
// command. `run` reads as those stages; each command's options are built from the values here.
import { statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { getVersion, type VersionJson } from '../index.js'
import { isIsoDateTime } from '../time.js'
import { EXIT, redactingIo, type CliIo } from './io.js'
import { affectedCommand } from './commands/affected.js'
import { checkCommand } from './commands/check.js'
import { gradeCommand } from './commands/grade.js'
import { exportCommand, rebuildIndexCommand } from './commands/island.js'
import { reportCommand } from './commands/report.js'
import { consumeScoresCommand, emitPromptsCommand } from './commands/protocol.js'
import { rubricCommand } from './commands/rubric.js'
import { validateCommand } from './commands/validate.js'
import { findConfig, loadConfig } from './config.js'
import { helpOf, USAGE } from './help.js'
import { absolute } from './node.js'
import {
    checkOptionsOf,
    consumeScoresOptionsOf,
    emitPromptsOptionsOf,
    exportOptionsOf,
    gradeOptionsOf
} from './command-options.js'
import { reportOptionsOf, validateOptionsOf, type Rules } from './command-options.js'
import {
    CONFIG_KEYS,
    commandOf,
    EXCLUSIVE_GROUPS,
    inputOptions,
    optionOf,
    parseCommandLine,
    refusedOption,
    unknownOption,
    type OptionValues
} from './options.js'
import { definedFields } from '../model/fields.js'

/**
 * The line for an argument `parseArgs` refused. Node's own text for an unknown option ends in an
 * unbalanced quote (`as in '-- "--bogus"`), so that one is worded here, with the option meant when one is near.
 */
function argsError(cause: unknown, argv: readonly string[]): string {
    const message = cause instanceof Error ? cause.message : String(cause)
    const unknown =
        (cause as { code?: unknown } | null)?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
            ? /^Unknown option '([^']+)'/.exec(message)
            : null
    return unknown === null ? message : unknownOption(commandOf(argv), unknown[1] as string)
}

/**
 * The option values after the config file (`--config <file>`, else `flowmcp-grading.config.json` in
 * the working folder or a parent up to the repository root): the flags win over the file. A config
 * that is not valid is a usage error (exit 2), each problem named.
 */
function configFor<V extends Record<string, unknown>>(
    given: V,
    io: CliIo
):
    | {
          values: V
          rules: Readonly<Record<string, unknown>> | undefined
          file: string | null
          configured: ReadonlySet<string>
      }
    | number {
    const file = typeof given.config === 'string' ? absolute(given.config, io.cwd) : findConfig(io.cwd)
    if (file === null) return { values: given, rules: undefined, file: null, configured: new Set() }
    const loaded = loadConfig(file)
    if (loaded.config === null) {
        for (const e of loaded.errors) io.stderr(`${e}\n`)
        return EXIT.USAGE
    }
    const flags = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined))
    // A flag of a group that says one thing three ways (--offline, --live, --recordings) replaces what the file sets
    // for the others.
    const overridden = new Set(EXCLUSIVE_GROUPS.filter((group) => group.some((o) => o in flags)).flat())
    const fromFile = Object.fromEntries(
        Object.entries(loaded.config.values).filter(([option]) => !(option in flags) && !overridden.has(option))
    )
    return {
        values: { ...fromFile, ...flags } as V,
        rules: loaded.config.rules,
        file,
        configured: new Set(Object.keys(fromFile))
    }
}

/**
 * The folders and files the command's options name to be read (`--recordings`, `--answers`): the
 * first that does not exist, in words naming it and where it was set (the file or a flag), or null.
 */
function missingInput(
    command: string,
    values: Readonly<Record<string, unknown>>,
    configured: ReadonlySet<string>,
    file: string | null,
    cwd: string
): string | null {
    for (const { option, key, input } of inputOptions(command)) {
        const path = values[option]
        if (typeof path !== 'string') continue
        let kind: 'folder' | 'file' | null = null
        try {
            const stat = statSync(absolute(path, cwd))
            kind = stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : null
        } catch {
            kind = null
        }
        if (kind === input) continue
        const where = configured.has(option)
            ? `set as "${key}" in ${file ?? 'the config file'}`
            : `given by --${option}`
        return `the ${input} ${path} (${where}) ${kind === null ? 'does not exist' : `is not a ${input}`}`
    }
    return null
}

/** `--paths-from <file>`: the paths it lists, one per line (blank lines skipped), or what is wrong. */
async function pathsFrom(file: string | undefined, io: CliIo): Promise<string[] | string> {
    if (file === undefined) return []
    try {
        return (await readFile(absolute(file, io.cwd), 'utf8'))
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter((line) => line.length > 0)
    } catch (cause) {
        return `cannot read --paths-from ${file}: ${cause instanceof Error ? cause.message : String(cause)}`
    }
}

/**
 * What `--print-config` shows: the config file used, every option set (camelCase, as the file writes it) and the rules.
 */
function printedConfig(values: Readonly<Record<string, unknown>>, rules: unknown, file: string | null): unknown {
    const options = Object.fromEntries(
        Object.keys(CONFIG_KEYS)
            .filter((key) => values[optionOf(key)] !== undefined)
            .map((key) => [
                key,
                CONFIG_KEYS[key]?.kind === 'number' ? Number(values[optionOf(key)]) : values[optionOf(key)]
            ])
    )
    return { configFile: file, ...options, rules: rules ?? {} }
}

/** Runs one CLI invocation against the given I/O and returns its exit code. Never throws. */
export async function run(argv: readonly string[], plainIo: CliIo): Promise<number> {
    // Everything this run writes is redacted: key shapes, secret-named variables, and the values it reads later.
    let io = redactingIo(plainIo)
    let parsed: ReturnType<typeof parseCommandLine>
    try {
        parsed = parseCommandLine(argv)
    } catch (cause) {
        io.stderr(`${argsError(cause, argv)}\n\n${USAGE}`)
        return EXIT.USAGE
    }
    const [command, ...rest] = parsed.positionals
    // An option of another command is refused, not ignored: only the flags are checked, since one config file serves
    // every command and each reads the keys it takes.
    const refused = refusedOption(command, parsed.values)
    if (refused !== null) {
        io.stderr(`${refused}\n`)
        return EXIT.USAGE
    }
    // The config file fills what the flags leave unset; the flags win.
    const configured = configFor(parsed.values, io)
    if (typeof configured === 'number') return configured
    const { values, rules, file: configFile } = configured
    const missing =
        command === undefined ? null : missingInput(command, values, configured.configured, configFile, io.cwd)
    if (missing !== null && values['print-config'] !== true && values.help !== true) {
        io.stderr(`${command as string}: ${missing}\n`)
        return EXIT.USAGE
    }
    if (values['judge-env'] !== undefined) io = redactingIo(plainIo, values['judge-env'])
    if (values['print-config'] === true) {
        io.stdout(`${JSON.stringify(printedConfig(values, rules, configFile), null, 2)}\n`)
        return EXIT.OK
    }
    if (values.now !== undefined && !isIsoDateTime(values.now)) {
        io.stderr(
            `--now must be an ISO-8601 date-time such as 2026-11-24T10:00:00Z, got ${JSON.stringify(values.now)}\n`
        )
        return EXIT.USAGE
    }
    if (values.help === true || command === undefined || command === 'help') {
        // `<command> --help` and `help <command>`: that command's help only.
        const about = helpOf(command === 'help' ? rest[0] : command)
        io.stdout(about ?? USAGE)
        return command === undefined && values.help !== true ? EXIT.USAGE : EXIT.OK
    }
    try {
        return await dispatch(command, rest, values, rules, io)
    } catch (cause) {
        // A bug, not bad input: report it plainly and exit 2 (EXIT.USAGE, usage or environment error: the
        // CLI has no code of its own for a bug) rather than crash.
        io.stderr(`internal error: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
}

/** Calls the command named on the command line with its options: its exit code. */
async function dispatch(
    command: string,
    rest: readonly string[],
    values: OptionValues,
    rules: Rules,
    io: CliIo
): Promise<number> {
    switch (command) {
        case 'validate':
            return await validateCommand(rest, validateOptionsOf(values), io)
        case 'grade':
        case 'check':
            return await gradingCommand(command, rest, values, rules, io)
        case 'affected':
            return await affectedCommand(
                rest,
                {
                    json: values.json === true,
                    configFile:
                        typeof values.config === 'string' ? absolute(values.config, io.cwd) : findConfig(io.cwd),
                    ...definedFields({
                        changedFiles: values['changed-files'],
                        island: values.island,
                        recordings: values.recordings,
                        base: values['base-tree']
                    })
                },
                io
            )
        case 'emit-prompts':
            return await emitPromptsCommand(rest, emitPromptsOptionsOf(values), io)
        case 'consume-scores':
            return await consumeScoresCommand(rest, consumeScoresOptionsOf(values), io)
        case 'rebuild-index':
            return await rebuildIndexCommand(
                rest,
                { json: values.json === true, ...definedFields({ now: values.now }) },
                io
            )
        case 'export':
            return await exportCommand(rest, exportOptionsOf(values), io)
        case 'report':
            return await reportCommand(rest, reportOptionsOf(values, rules), io)
        case 'rubric':
            return await rubricCommand(rest, { json: values.json === true }, io)
        case 'version':
            io.stdout(versionText(values.json === true))
            return EXIT.OK
        default:
            io.stderr(`unknown command: ${command}\n\n${USAGE}`)
            return EXIT.USAGE
    }
}

/** `grade` and `check`: their options checked, the paths named and those `--paths-from` lists, then the command. */
async function gradingCommand(
    command: 'grade' | 'check',
    rest: readonly string[],
    values: OptionValues,
    rules: Rules,
    io: CliIo
): Promise<number> {
    const gradeOptions = gradeOptionsOf(command, values, rules, io)
    if (typeof gradeOptions === 'number') return gradeOptions
    const listed = await pathsFrom(values['paths-from'], io)
    if (typeof listed === 'string') {
        io.stderr(`${command}: ${listed}\n`)
        return EXIT.USAGE
    }
    const paths = [...rest, ...listed]
    // A list that names nothing is a run with nothing to do, not a usage error: a pull request that changed no schema.
    const options = { ...gradeOptions, ...(values['paths-from'] !== undefined ? { pathsListed: true } : {}) }
    if (command === 'grade') return await gradeCommand(paths, options, io)
    return await checkCommand(paths, checkOptionsOf(options, values), io)
}

/** What `version` prints: the JSON document, or one `key: value` line each. */
function versionText(json: boolean): string {
    const document: VersionJson = getVersion()
    if (json) return `${JSON.stringify(document, null, 2)}\n`
    return `${Object.entries(getVersion())
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}\n`
}
