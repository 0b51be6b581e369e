// The one table of the command line's options: how parseArgs reads each flag, which commands take it,
// what it does (the help is generated from it) and, for those a config file may set, the kind of its
// value there and whether it is a path. run.ts parses with it, config.ts checks a config file with the
// keys it derives, help.ts prints it: a new option is added in one place.

import { parseArgs } from 'node:util'

/** The kind of a config value: `number` options are strings on the command line, numbers in the file. */
export type ConfigKind = 'string' | 'boolean' | 'number' | 'strings'

/** The commands of the CLI, in the order the usage lists them. */
export const COMMANDS = ['grade', 'check', 'validate', 'emit-prompts', 'consume-scores', 'rebuild-index', 'export', 'report', 'rubric', 'version'] as const
export type Command = (typeof COMMANDS)[number]

/** Every command: the options any command takes (the config file, help). */
const ALL = COMMANDS
/** The options of grading: `grade` and `check` take them alike. */
const GRADING = ['grade', 'check'] as const

interface OptionSpec {
    readonly type: 'string' | 'boolean'
    readonly multiple?: true
    readonly short?: string
    /**
     * Settable in the config file (key: the option in camelCase), with its kind, whether it is a path,
     * and whether that path must already exist (`input`; the runtime's folders have checks of their own).
     */
    readonly config?: { readonly kind: ConfigKind; readonly path?: true; readonly input?: 'folder' | 'file'; readonly values?: readonly string[] }
    /** The commands that read it. */
    readonly commands: readonly Command[]
    /** The value's placeholder in the help (`<dir>`). */
    readonly arg?: string
    /** What it does, in a sentence; `per` words it for one command where it means something else there. */
    readonly help: string
    readonly per?: Partial<Readonly<Record<Command, string>>>
}

// The configurable options come first, in the order `--print-config` lists them.
const OPTIONS = {
    json: { type: 'boolean', config: { kind: 'boolean' }, commands: ALL.filter((c) => c !== 'emit-prompts'), help: 'machine-readable output' },
    island: { type: 'string', config: { kind: 'string', path: true }, commands: [...GRADING, 'export', 'consume-scores'], arg: '<dir>', help: 'the island root: entries and index.json are written there', per: { check: 'grade into this island; with no schema named, check the island as it is', export: 'the island to export from' } },
    answers: { type: 'string', config: { kind: 'string', path: true, input: 'file' }, commands: GRADING, arg: '<file>', help: 'pre-collected area outputs instead of a judge: { grader, answers: { <schemaId>: { <unit>: output } } }' },
    offline: { type: 'boolean', config: { kind: 'boolean' }, commands: GRADING, help: 'no HTTP: live answers are n/a (the default)' },
    live: { type: 'boolean', config: { kind: 'boolean' }, commands: [...GRADING, 'emit-prompts'], help: "run each tool's tests against the real API (server params from the environment); on the command line it overrides a configured recordings or offline" },
    recordings: { type: 'string', config: { kind: 'string', path: true, input: 'folder' }, commands: [...GRADING, 'emit-prompts'], arg: '<dir>', help: 'answer HTTP from the recorded exchanges (*.json) in this folder instead of the network (docs/recordings.md); on the command line it overrides a configured live or offline' },
    record: { type: 'string', config: { kind: 'string', path: true }, commands: GRADING, arg: '<dir>', help: 'with --live: write every HTTP exchange into this folder as a recording --recordings replays' },
    runtime: { type: 'string', config: { kind: 'string', path: true }, commands: GRADING, arg: '<dir>', help: "run the tests of schemas that export handlers through the FlowMCP runtime in this flowmcp-core folder, in a child process under Node's permission model (docs/cli.md)" },
    'runtime-libraries': { type: 'string', config: { kind: 'string', path: true }, commands: GRADING, arg: '<dir>', help: "the folder whose node_modules holds the schemas' requiredLibraries (default: the --runtime folder)" },
    'runtime-lists': { type: 'string', config: { kind: 'string', path: true }, commands: GRADING, arg: '<dir>', help: 'the shared lists folder the runtime resolves sharedLists from' },
    concurrency: { type: 'string', config: { kind: 'number' }, commands: GRADING, arg: '<n>', help: 'namespaces graded at once (1–32, default 1)' },
    'min-working-tests': { type: 'string', config: { kind: 'number' }, commands: GRADING, arg: '<n>', help: 'working tests a tool needs to be graded (1–20, default 3)' },
    'max-warnings': { type: 'string', config: { kind: 'number' }, commands: ['check'], arg: '<n>', help: 'more than n warnings in the fix lists, over all schemas, fail the check (notices of the environment, such as a key not set, are not counted)' },
    force: { type: 'boolean', config: { kind: 'boolean' }, commands: GRADING, help: 'grade again what the island already holds graded for the same content' },
    verbose: { type: 'boolean', config: { kind: 'boolean' }, commands: GRADING, help: "every line of each schema's fix list, not only the costliest few" },
    'min-grade': { type: 'string', config: { kind: 'string' }, commands: ['check'], arg: '<A-F>', help: 'a schema below this grade, or without one, fails the check' },
    baseline: { type: 'string', config: { kind: 'string', path: true }, commands: ['check', 'report'], arg: '<dir|file>', help: 'an island or an index.json to compare with: a schema whose grade fell, or that gained an error finding, fails the check', per: { report: 'an earlier island: the schemas graded worse since are listed' } },
    'baseline-missing': { type: 'string', config: { kind: 'string', values: ['fail', 'new'] }, commands: ['check'], arg: '<fail|new>', help: 'when the --baseline folder is missing or holds no index.json: fail (the default) fails the check saying so; new checks every schema as new' },
    'fail-on-untested': { type: 'boolean', config: { kind: 'boolean' }, commands: ['check'], help: 'tools not tested here for a missing key fail the check (they are reported otherwise)' },
    'fail-on-removed': { type: 'boolean', config: { kind: 'boolean' }, commands: ['check'], help: 'a schema in the baseline but gone from the checked folders fails the check (it is reported as removed otherwise)' },
    'allow-unverified': { type: 'boolean', config: { kind: 'boolean' }, commands: ['check'], help: 'a schema the run could not verify (the judge failed, the run was interrupted, changed content left ungraded) does not fail the check; it is still reported as unverified' },
    sarif: { type: 'string', config: { kind: 'string', path: true }, commands: GRADING, arg: '<file>', help: 'write every fix item as SARIF 2.1.0 (code-scanning results); check writes it whatever happens' },
    summary: { type: 'string', config: { kind: 'string', path: true }, commands: ['check'], arg: '<file>', help: 'append a Markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)' },
    report: { type: 'string', config: { kind: 'string', path: true }, commands: GRADING, arg: '<file>', help: 'with --island: also write the HTML report of the island to this file' },
    'trusted-import': { type: 'boolean', config: { kind: 'boolean' }, commands: [...GRADING, 'emit-prompts', 'consume-scores'], help: 'import (run) schema modules instead of reading them from their syntax tree; only for sources you trust' },
    'judge-command': { type: 'string', config: { kind: 'string' }, commands: GRADING, arg: '<cmd>', help: 'run this shell command once per area unit as the judge: the request JSON on stdin, the reply JSON on stdout (docs/judges.md)' },
    'judge-timeout': { type: 'string', config: { kind: 'number' }, commands: GRADING, arg: '<s>', help: 'kill a judge call after this many seconds; retried like a rate limit' },
    'judge-env': { type: 'string', multiple: true, config: { kind: 'strings' }, commands: GRADING, arg: '<NAME>', help: 'pass this environment variable to the judge command (repeatable); it gets only PATH, HOME, LANG, TERM otherwise' },
    'judge-concurrency': { type: 'string', config: { kind: 'number' }, commands: GRADING, arg: '<n>', help: 'at most n judge calls at once' },
    'judge-model': { type: 'string', config: { kind: 'string' }, commands: GRADING, arg: '<name>', help: 'the model the command asks (required with --judge-command), recorded as llmModel in every entry' },
    'judge-harness': { type: 'string', config: { kind: 'string' }, commands: GRADING, arg: '<name>', help: 'the harness recorded in every entry: claude-code, the only value the grading spec allows (the default)' },
    'price-input': { type: 'string', config: { kind: 'number' }, commands: ['grade'], arg: '<usd>', help: 'with --estimate: US dollars per million input tokens' },
    'price-output': { type: 'string', config: { kind: 'number' }, commands: ['grade'], arg: '<usd>', help: 'with --estimate: US dollars per million output tokens' },
    // Per run only: what to do, not how to grade.
    'paths-from': { type: 'string', commands: GRADING, arg: '<file>', help: 'the schema files or folders to take, one per line, besides those named (a CI step writes the changed folders there); an empty file checks nothing and passes, with an empty SARIF log' },
    estimate: { type: 'boolean', commands: ['grade'], help: 'print the judge calls, input tokens (total and the part a prefix cache serves) and expected ' +
        'output tokens the grading would take, and with prices the cost, and what repair turns could add ' +
        '(at most one call per unit); calls no judge, writes nothing' },
    kind: { type: 'string', commands: ['validate'], arg: '<kind>', help: 'skip detection and validate as this artefact kind' },
    now: { type: 'string', commands: [...GRADING, 'validate', 'emit-prompts', 'consume-scores', 'rebuild-index'], arg: '<iso>', help: 'the time of the run, for reproducible output', per: { validate: "check grading entries' timestamps against this time (with --strict: the clock's time when not given)" } },
    strict: { type: 'boolean', commands: ['validate'], help: 'check grading entries as registry intake (docs/grading.md, Validation levels): every warning is an error, and no timestamp may lie after --now' },
    schema: { type: 'string', commands: ['consume-scores'], arg: '<file>', help: 'the schema the scores are about' },
    'schema-id': { type: 'string', commands: ['emit-prompts'], arg: '<id>', help: 'override <namespace>/<file>' },
    selection: { type: 'boolean', commands: ['export'], help: 'the name is a selection' },
    'include-schemas': { type: 'boolean', commands: ['export'], help: 'also export clean schema, About and skill files' },
    areas: { type: 'boolean', commands: ['emit-prompts'], help: "emit the area prompts as an answers file for grade --answers (a tool's units only when its tests ran: pass --recordings <dir> or --live)" },
    out: { type: 'string', commands: ['report'], arg: '<file>', help: 'write the HTML page to this file instead of stdout' },
    config: { type: 'string', commands: ALL, arg: '<file>', help: 'the config file; default: flowmcp-grading.config.json in the working folder or a parent up to ' +
        'the repository root (keys: the long options in camelCase, and rules: { "<code>": "off" | ' +
        '"warning" | "error" }); flags win over it' },
    'print-config': { type: 'boolean', commands: ALL, help: 'print the options after the config file and the flags are merged' },
    help: { type: 'boolean', short: 'h', commands: ALL, help: "this text; <command> --help: that command's help, with an example" }
} as const satisfies Readonly<Record<string, OptionSpec>>

type ParseOptions = { readonly [K in keyof typeof OPTIONS]: Pick<(typeof OPTIONS)[K], Extract<keyof (typeof OPTIONS)[K], 'type' | 'multiple' | 'short'>> }

/** The options as parseArgs takes them (the type, multiple and short of each). */
const PARSE_OPTIONS = Object.fromEntries(Object.entries(OPTIONS).map(([name, spec]) => [name, Object.fromEntries(Object.entries(spec).filter(([key]) => key === 'type' || key === 'multiple' || key === 'short'))])) as ParseOptions

/** Parses the command line strictly (an unknown option throws, as parseArgs does): the values and the positionals. */
export function parseCommandLine(argv: readonly string[]) {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: PARSE_OPTIONS })
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
        return [{ name, ...(spec.short !== undefined ? { short: spec.short } : {}), ...(spec.arg !== undefined ? { arg: spec.arg } : {}), help, commands: spec.commands }]
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
    Object.fromEntries(Object.entries(OPTIONS as Readonly<Record<string, OptionSpec>>).flatMap(([option, spec]) => (spec.config !== undefined ? [[keyOf(option), spec.config]] : [])))
)

/** The options `command` reads whose value is a folder or file that must exist, by long name. */
export function inputOptions(command: string): Array<{ option: string; key: string; input: 'folder' | 'file' }> {
    return Object.entries(OPTIONS as Readonly<Record<string, OptionSpec>>).flatMap(([option, spec]) =>
        spec.config?.input !== undefined && (spec.commands as readonly string[]).includes(command) ? [{ option, key: keyOf(option), input: spec.config.input }] : []
    )
}

/**
 * Options that say the same thing three ways: given on the command line, one of them replaces what
 * the config file sets for the others (`--live` over a configured `recordings`).
 */
export const EXCLUSIVE_GROUPS: readonly (readonly string[])[] = Object.freeze([['offline', 'live', 'recordings']])
