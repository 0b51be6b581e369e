import { parseArgs } from 'node:util'
import { getVersion } from '../index.js'
import { isIsoDateTime } from '../time.js'
import { EXIT, redactingIo, type CliIo } from './io.js'
import { checkCommand } from './commands/check.js'
import { gradeCommand } from './commands/grade.js'
import { exportCommand, rebuildIndexCommand } from './commands/island.js'
import { reportCommand } from './commands/report.js'
import { consumeScoresCommand, emitPromptsCommand } from './commands/protocol.js'
import { rubricCommand } from './commands/rubric.js'
import { validateCommand } from './commands/validate.js'
import { CONFIG_KEYS, findConfig, loadConfig, optionOf } from './config.js'
import { helpOf } from './help.js'
import { absolute } from './node.js'

const USAGE = `Usage: flowmcp-grading <command> [options]

Commands:
  grade <schema.mjs|dir…> grade FlowMCP v4 schemas (offline by default) and print one row per schema
  check [<schema.mjs|dir…>] grade as grade does (or read --island) and exit 1 when a schema is below
                          --min-grade, fell from --baseline, or has a new error finding (for CI)
  validate <file…>        check grading entries and other grading JSON; prints each file's verdict
  emit-prompts <schema>   print the Scoring Protocol v1 prompts.json of a schema; with --areas, an
                          answers file of its open area units for grade --answers
  consume-scores <prompts.json> <scores.json> --schema <schema.mjs>
                          validate a scores.json against its prompts and print the grade report;
                          with --island, write it into the island as the schema's entry
  rebuild-index <dir>     rebuild index.json of <island>/providers/<ns> or <island>/selections/<sel>
  export <name> <dir>     export a graded namespace (or --selection) from --island into a new folder
  report <island>         write one self-contained HTML page of a graded island (stdout, or --out);
                          --baseline <island> lists the schemas graded worse than in that earlier copy
  rubric <input.json>     evaluate a judge (judgeSystem/1.0.0) or workflow (workflowSystem/1.0.0) rubric input
  version                 print the spec, system and package versions

Options:
  --json                  machine-readable output
  --island <dir>          (grade, export, consume-scores) the island root; entries and index.json are written there
  --answers <file>        (grade) pre-collected area outputs: { grader, answers: { <schemaId>: { <unit>: output } } }
  --offline               (grade) no HTTP: live answers are n/a (the default)
  --live                  (grade) run each tool's tests against the real API (server params from the environment)
  --recordings <dir>      (grade) answer HTTP from recorded exchanges (*.json) instead of the network
  --runtime <dir>         (grade) run the tests of schemas that export handlers through the FlowMCP
                          runtime in <dir> (a flowmcp-core folder), in a child process under Node's
                          permission model (reads only; no writes, processes or workers; its
                          environment holds only the schema's server params); with --live or --recordings
  --runtime-libraries <dir>
                          (grade) the folder whose node_modules holds the schemas' requiredLibraries
                          (default: the --runtime folder)
  --runtime-lists <dir>   (grade) the shared lists folder the runtime resolves sharedLists from
  --concurrency <n>       (grade) namespaces graded at once (1–32, default 1)
  --min-working-tests <n> (grade) working tests a tool needs to be graded (1–20, default 3)
  --force                 (grade) grade schemas the island already holds graded for the same content again
  --min-grade <A-F>       (check) a schema below this grade, or without one, fails the check
  --baseline <dir|file>   (check) an island or an index.json: a schema whose grade fell fails the check;
                          (report) an earlier island: the schemas graded worse since are listed
  --fail-on-untested      (check) tools not tested for a missing key fail the check (reported otherwise)
  --max-warnings <n>      (check) more than n warnings in the fix lists (over all schemas) fail the check
  --sarif <file>          (grade, check) write every fix item as SARIF 2.1.0 (code-scanning results)
  --summary <file>        (check) append a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)
  --verbose               (grade, check) every line of each schema's fix list, not only the costliest five
  --estimate              (grade) print the judge calls, input tokens (total and the part a prefix cache
                          serves) and expected output tokens the grading would cost, and with prices the
                          cost; calls no judge, writes nothing
  --price-input <usd>     (grade --estimate) US dollars per million input tokens
  --price-output <usd>    (grade --estimate) US dollars per million output tokens
  --record <dir>          (grade, check, with --live) write every HTTP exchange as a recording that
                          --recordings <dir> replays (docs/recordings.md)
  --config <file>         the config file; default: flowmcp-grading.config.json in the working folder or
                          a parent up to the repository root (keys: the long options in camelCase, and
                          rules: { "<code>": "off" | "warning" | "error" }); flags win over it
  --print-config          print the options after the config file and the flags are merged
  --now <iso>             the time of the run, for reproducible output
  --trusted-import        (grade, emit-prompts, consume-scores) import (run) schema modules instead of
                          reading them from their syntax tree; only for sources you trust
  --schema <file>         (consume-scores) the schema the scores are about
  --schema-id <id>        (emit-prompts) override <namespace>/<file>
  --areas                 (emit-prompts) emit the area prompts of gradeSingleSchema as an answers file
                          (a tool's units only when its tests ran: pass --recordings <dir> or --live)
  --selection             (export) the name is a selection
  --include-schemas       (export) also export clean schema, About and skill files
  --kind <kind>           (validate) skip detection and validate as this artefact kind
  --out <file>            (report) write the HTML page to this file instead of stdout
  --report <file>         (grade, with --island) also write the HTML report of the island to this file
  --judge-command <cmd>   (grade) run this shell command once per area unit as the judge: the
                          request JSON on stdin, the reply JSON on stdout (see docs/judges.md)
  --judge-timeout <s>     (grade) kill a judge call after this many seconds (default 120)
  --judge-env <NAME>      (grade) pass this environment variable to the judge command (repeatable);
                          it gets only PATH, HOME, LANG, TERM otherwise
  --judge-concurrency <n> (grade) at most n judge calls at once
  --judge-model <name>    (grade, required with --judge-command) the model the command asks, recorded
                          as llmModel in every entry (a reply naming its "model" is recorded with that)
  --judge-harness <name>  (grade) the harness recorded in every entry: claude-code, the only value the
                          grading spec allows (the default)
  -h, --help              this text; <command> --help: that command's help, with an example

Exit codes: 0 ok · 1 findings (check: the gate failed; grade: the grading has holes) · 2 usage or
environment error · 130 interrupted (Ctrl-C)
`

/**
 * The line for an argument `parseArgs` refused. Node's own text for an unknown option ends in an
 * unbalanced quote (`as in '-- "--bogus"`), so that one is worded here.
 */
function argsError(cause: unknown): string {
    const message = cause instanceof Error ? cause.message : String(cause)
    const unknown = (cause as { code?: unknown } | null)?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '([^']+)'/.exec(message) : null
    if (unknown === null) return message
    const option = unknown[1] as string
    return `unknown option: ${option} (an argument that starts with '-' but is not an option goes after '--', as in: -- ${option})`
}

/**
 * The option values after the config file (`--config <file>`, else `flowmcp-grading.config.json` in
 * the working folder or a parent up to the repository root): the flags win over the file. A config
 * that is not valid is a usage error (exit 2), each problem named.
 */
function configFor<V extends Record<string, unknown>>(given: V, io: CliIo): { values: V; rules: Readonly<Record<string, unknown>> | undefined; file: string | null } | number {
    const file = typeof given.config === 'string' ? absolute(given.config, io.cwd) : findConfig(io.cwd)
    if (file === null) return { values: given, rules: undefined, file: null }
    const loaded = loadConfig(file)
    if (loaded.config === null) {
        for (const e of loaded.errors) io.stderr(`${e}\n`)
        return EXIT.USAGE
    }
    const flags = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined))
    return { values: { ...loaded.config.values, ...flags } as V, rules: loaded.config.rules, file }
}

/** What `--print-config` shows: the config file used, every option set (camelCase, as the file writes it) and the rules. */
function printedConfig(values: Readonly<Record<string, unknown>>, rules: unknown, file: string | null): unknown {
    const options = Object.fromEntries(
        Object.keys(CONFIG_KEYS)
            .filter((key) => values[optionOf(key)] !== undefined)
            .map((key) => [key, CONFIG_KEYS[key]?.kind === 'number' ? Number(values[optionOf(key)]) : values[optionOf(key)]])
    )
    return { configFile: file, ...options, rules: rules ?? {} }
}

/** `--price-input` / `--price-output` (US dollars per million tokens): the prices, null when neither is given, or what is wrong. */
function pricesOf(input: string | undefined, output: string | undefined): { input?: number; output?: number } | null | string {
    if (input === undefined && output === undefined) return null
    const out: { input?: number; output?: number } = {}
    for (const [name, text] of [['input', input], ['output', output]] as const) {
        if (text === undefined) continue
        const value = Number(text)
        if (!/^\d+(?:\.\d+)?$/.test(text) || !Number.isFinite(value)) return `--price-${name} must be a price in US dollars per million tokens, such as 3 or 0.15, got ${JSON.stringify(text)}`
        out[name] = value
    }
    return out
}

/** Runs one CLI invocation against the given I/O and returns its exit code. Never throws. */
export async function run(argv: readonly string[], plainIo: CliIo): Promise<number> {
    // Everything this run writes is redacted: key shapes, secret-named variables, and the values it reads later.
    let io = redactingIo(plainIo)
    let parsed
    try {
        parsed = parseArgs({
            args: [...argv],
            allowPositionals: true,
            strict: true,
            options: {
                json: { type: 'boolean' },
                kind: { type: 'string' },
                island: { type: 'string' },
                answers: { type: 'string' },
                offline: { type: 'boolean' },
                live: { type: 'boolean' },
                recordings: { type: 'string' },
                runtime: { type: 'string' },
                'runtime-libraries': { type: 'string' },
                'runtime-lists': { type: 'string' },
                now: { type: 'string' },
                schema: { type: 'string' },
                'schema-id': { type: 'string' },
                selection: { type: 'boolean' },
                'trusted-import': { type: 'boolean' },
                'include-schemas': { type: 'boolean' },
                areas: { type: 'boolean' },
                concurrency: { type: 'string' },
                'min-working-tests': { type: 'string' },
                force: { type: 'boolean' },
                estimate: { type: 'boolean' },
                verbose: { type: 'boolean' },
                'min-grade': { type: 'string' },
                baseline: { type: 'string' },
                'fail-on-untested': { type: 'boolean' },
                'max-warnings': { type: 'string' },
                summary: { type: 'string' },
                sarif: { type: 'string' },
                out: { type: 'string' },
                report: { type: 'string' },
                'judge-command': { type: 'string' },
                'judge-timeout': { type: 'string' },
                'judge-env': { type: 'string', multiple: true },
                'judge-concurrency': { type: 'string' },
                'judge-model': { type: 'string' },
                'judge-harness': { type: 'string' },
                config: { type: 'string' },
                'print-config': { type: 'boolean' },
                record: { type: 'string' },
                'price-input': { type: 'string' },
                'price-output': { type: 'string' },
                help: { type: 'boolean', short: 'h' }
            }
        })
    } catch (cause) {
        io.stderr(`${argsError(cause)}\n\n${USAGE}`)
        return EXIT.USAGE
    }
    const [command, ...rest] = parsed.positionals
    // The config file fills what the flags leave unset; the flags win.
    const configured = configFor(parsed.values, io)
    if (typeof configured === 'number') return configured
    const { values, rules, file: configFile } = configured
    if (values['judge-env'] !== undefined) io = redactingIo(plainIo, values['judge-env'])
    if (values['print-config'] === true) {
        io.stdout(JSON.stringify(printedConfig(values, rules, configFile), null, 2) + '\n')
        return EXIT.OK
    }
    if (values.now !== undefined && !isIsoDateTime(values.now)) {
        io.stderr(`--now must be an ISO-8601 date-time such as 2026-11-24T10:00:00Z, got ${JSON.stringify(values.now)}\n`)
        return EXIT.USAGE
    }
    if (values.help === true || command === undefined || command === 'help') {
        // `<command> --help` and `help <command>`: that command's help only.
        const about = helpOf(command === 'help' ? rest[0] : command)
        io.stdout(about ?? USAGE)
        return command === undefined && values.help !== true ? EXIT.USAGE : EXIT.OK
    }
    try {
        switch (command) {
            case 'validate':
                return await validateCommand(rest, { json: values.json === true, ...(values.kind !== undefined ? { kind: values.kind } : {}) }, io)
            case 'grade':
            case 'check': {
                if (values.live === true && (values.offline === true || values.recordings !== undefined)) {
                    io.stderr(`${command}: --live excludes --offline and --recordings\n`)
                    return EXIT.USAGE
                }
                if (values.runtime === undefined && (values['runtime-libraries'] !== undefined || values['runtime-lists'] !== undefined)) {
                    io.stderr(`${command}: --runtime-libraries and --runtime-lists need --runtime <flowmcp-core folder>\n`)
                    return EXIT.USAGE
                }
                if (values.record !== undefined && values.live !== true) {
                    io.stderr(`${command}: --record <dir> records live exchanges: it needs --live\n`)
                    return EXIT.USAGE
                }
                const prices = pricesOf(values['price-input'], values['price-output'])
                if (typeof prices === 'string') {
                    io.stderr(`${command}: ${prices}\n`)
                    return EXIT.USAGE
                }
                if (values.concurrency !== undefined && !/^(?:[1-9]|[12]\d|3[0-2])$/.test(values.concurrency)) {
                    io.stderr(`${command}: --concurrency must be an integer from 1 to 32\n`)
                    return EXIT.USAGE
                }
                if (values['min-working-tests'] !== undefined && !/^(?:[1-9]|1\d|20)$/.test(values['min-working-tests'])) {
                    io.stderr(`${command}: --min-working-tests must be an integer from 1 to 20\n`)
                    return EXIT.USAGE
                }
                const gradeOptions = {
                    json: values.json === true,
                    force: values.force === true,
                    estimate: values.estimate === true,
                    verbose: values.verbose === true,
                    ...(values.sarif !== undefined ? { sarif: values.sarif } : {}),
                    ...(values.concurrency !== undefined ? { concurrency: Number(values.concurrency) } : {}),
                    ...(values['min-working-tests'] !== undefined ? { minWorkingTests: Number(values['min-working-tests']) } : {}),
                    live: values.live === true,
                    ...(values.island !== undefined ? { island: values.island } : {}),
                    ...(values.answers !== undefined ? { answers: values.answers } : {}),
                    ...(values.recordings !== undefined ? { recordings: values.recordings } : {}),
                    ...(values.runtime !== undefined
                        ? { runtime: { folder: values.runtime, ...(values['runtime-libraries'] !== undefined ? { libraries: values['runtime-libraries'] } : {}), ...(values['runtime-lists'] !== undefined ? { lists: values['runtime-lists'] } : {}) } }
                        : {}),
                    ...(values.now !== undefined ? { now: values.now } : {}),
                    ...(values.report !== undefined ? { report: values.report } : {}),
                    judgeCli: {
                        ...(values['judge-command'] !== undefined ? { judgeCommand: values['judge-command'] } : {}),
                        ...(values['judge-timeout'] !== undefined ? { judgeTimeout: values['judge-timeout'] } : {}),
                        ...(values['judge-env'] !== undefined ? { judgeEnv: values['judge-env'] } : {}),
                        ...(values['judge-concurrency'] !== undefined ? { judgeConcurrency: values['judge-concurrency'] } : {}),
                        ...(values['judge-model'] !== undefined ? { judgeModel: values['judge-model'] } : {}),
                        ...(values['judge-harness'] !== undefined ? { judgeHarness: values['judge-harness'] } : {})
                    },
                    trustedImport: values['trusted-import'] === true,
                    ...(rules !== undefined ? { rules } : {}),
                    ...(values.record !== undefined ? { record: values.record } : {}),
                    ...(prices !== null ? { prices } : {})
                }
                if (command === 'grade') return await gradeCommand(rest, gradeOptions, io)
                return await checkCommand(
                    rest,
                    {
                        ...gradeOptions,
                        failOnUntested: values['fail-on-untested'] === true,
                        ...(values['min-grade'] !== undefined ? { minGrade: values['min-grade'] } : {}),
                        ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
                        ...(values.summary !== undefined ? { summary: values.summary } : {}),
                        ...(values['max-warnings'] !== undefined ? { maxWarnings: /^\d{1,9}$/.test(values['max-warnings']) ? Number(values['max-warnings']) : Number.NaN } : {})
                    },
                    io
                )
            }
            case 'emit-prompts':
                return await emitPromptsCommand(rest, { areas: values.areas === true, trustedImport: values['trusted-import'] === true, live: values.live === true, ...(values.recordings !== undefined ? { recordings: values.recordings } : {}), ...(values['schema-id'] !== undefined ? { schemaId: values['schema-id'] } : {}), ...(values.now !== undefined ? { now: values.now } : {}) }, io)
            case 'consume-scores':
                return await consumeScoresCommand(rest, { json: values.json === true, trustedImport: values['trusted-import'] === true, ...(values.schema !== undefined ? { schema: values.schema } : {}), ...(values.now !== undefined ? { now: values.now } : {}), ...(values.island !== undefined ? { island: values.island } : {}) }, io)
            case 'rebuild-index':
                return await rebuildIndexCommand(rest, { json: values.json === true, ...(values.now !== undefined ? { now: values.now } : {}) }, io)
            case 'export':
                return await exportCommand(rest, { json: values.json === true, selection: values.selection === true, includeSchemas: values['include-schemas'] === true, ...(values.island !== undefined ? { island: values.island } : {}) }, io)
            case 'report':
                return await reportCommand(rest, { json: values.json === true, ...(rules !== undefined ? { rules } : {}), ...(values.out !== undefined ? { out: values.out } : {}), ...(values.baseline !== undefined ? { baseline: values.baseline } : {}) }, io)
            case 'rubric':
                return await rubricCommand(rest, { json: values.json === true }, io)
            case 'version':
                io.stdout(values.json === true ? JSON.stringify(getVersion(), null, 2) + '\n' : Object.entries(getVersion()).map(([k, v]) => `${k}: ${v}`).join('\n') + '\n')
                return EXIT.OK
            default:
                io.stderr(`unknown command: ${command}\n\n${USAGE}`)
                return EXIT.USAGE
        }
    } catch (cause) {
        // A bug, not bad input: report it plainly and exit as an I/O failure rather than crash.
        io.stderr(`internal error: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
}
