/** What `<command> --help` prints: the command's usage, its options, and an example. */
const JUDGE_OPTIONS = `  --judge-command <cmd>   run this shell command once per area unit as the judge (docs/judges.md)
  --judge-model <name>    the model the command asks (required with --judge-command)
  --judge-timeout <s>     kill a judge call after this many seconds (default 120); retried like a rate limit
  --judge-env <NAME>      pass this environment variable to the judge command (repeatable)
  --judge-concurrency <n> at most n judge calls at once
  --judge-harness <name>  the harness recorded in every entry (claude-code)`

const GRADE_OPTIONS = `  --island <dir>          write entries and index.json into this island
  --answers <file>        pre-collected area outputs instead of a judge
  --offline | --live | --recordings <dir>
                          no HTTP (default) | the real APIs | recorded exchanges (docs/recordings.md)
  --record <dir>          with --live: write every exchange as a recording --recordings replays
  --runtime <dir>         test handler schemas through a flowmcp-core folder (docs/cli.md)
  --concurrency <n>       namespaces graded at once (1–32)
  --force                 grade again what the island holds for the same content
  --sarif <file>          write every fix item as SARIF 2.1.0
  --report <file>         (with --island) also write the HTML report
  --verbose               every fix item, not only the worst three
  --trusted-import        import schema modules instead of reading their syntax tree
${JUDGE_OPTIONS}
  --config <file>         the config file (default: flowmcp-grading.config.json here or in a parent)
  --print-config          print the options after the config file and the flags are merged`

const HELP: Readonly<Record<string, string>> = Object.freeze({
    grade: `Usage: flowmcp-grading grade <schema.mjs|dir…> [options]

Grades FlowMCP v4 schemas (offline by default) and prints one row per schema.

Options:
${GRADE_OPTIONS}
  --estimate              print the judge calls, input and expected output tokens (and, with prices,
                          the cost) the grading would take; calls no judge, writes nothing
  --price-input <usd>     with --estimate: the price of a million input tokens
  --price-output <usd>    with --estimate: the price of a million output tokens
  --json                  machine-readable output

Exit codes: 0 graded · 1 the grading has holes (a schema that does not parse, a failed judge call) ·
2 usage or environment error · 130 interrupted

Example:
  flowmcp-grading grade providers --island grading-island --judge-command ./judge.sh --judge-model gpt-4o-mini
`,
    check: `Usage: flowmcp-grading check [<schema.mjs|dir…>] [options]

Grades as grade does (or reads --island) and fails when a schema is below --min-grade, fell from
--baseline, gained an error finding, or does not parse. SARIF and the summary are always written.

Options:
  --min-grade <A-F>       a schema below this grade, or without one, fails the check
  --baseline <dir|file>   an island or an index.json to compare with
  --fail-on-untested      tools not tested for a missing key fail the check too
  --summary <file>        append a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)
${GRADE_OPTIONS}
  --json                  machine-readable output

Exit codes: 0 passed · 1 the gate failed · 2 usage or environment error · 130 interrupted

Example:
  flowmcp-grading check providers/etherscan --baseline baseline-island --sarif grading.sarif --summary "$GITHUB_STEP_SUMMARY"
`,
    validate: `Usage: flowmcp-grading validate <file…> [--kind <kind>] [--strict] [--now <iso>] [--json]

Checks grading entries and other grading JSON; prints each file's verdict.
--strict checks grading entries as registry intake (docs/grading.md, Validation levels): every
warning is an error, and no timestamp may lie after --now (the clock's time when not given).
--now without --strict checks grading entries' timestamps against that time.

Example:
  flowmcp-grading validate grading-island/providers/frankfurter/index.json
  flowmcp-grading validate --strict submitted-entry.json
`,
    'emit-prompts': `Usage: flowmcp-grading emit-prompts <schema.mjs> [--areas] [--schema-id <id>] [--now <iso>]

Prints the Scoring Protocol v1 prompts.json of a schema; with --areas, an answers file of its open
area units for grade --answers.

Example:
  flowmcp-grading emit-prompts providers/frankfurter/frankfurter.mjs --areas > answers.json
`,
    'consume-scores': `Usage: flowmcp-grading consume-scores <prompts.json> <scores.json> --schema <schema.mjs> [--island <dir>] [--json]

Validates a scores.json against its prompts and prints the grade report; with --island, writes it
into the island as the schema's entry.

Example:
  flowmcp-grading consume-scores prompts.json scores.json --schema providers/frankfurter/frankfurter.mjs
`,
    'rebuild-index': `Usage: flowmcp-grading rebuild-index <dir> [--json]

Rebuilds index.json of <island>/providers/<ns> or <island>/selections/<sel>.

Example:
  flowmcp-grading rebuild-index grading-island/providers/frankfurter
`,
    export: `Usage: flowmcp-grading export <name> <dir> --island <root> [--selection] [--include-schemas] [--json]

Exports a graded namespace (or --selection) from the island into a new folder.

Example:
  flowmcp-grading export frankfurter out --island grading-island
`,
    report: `Usage: flowmcp-grading report <island> [--out <file>] [--baseline <island>] [--json]

Writes one self-contained HTML page of a graded island (stdout, or --out); --baseline lists the
schemas graded worse than in that earlier copy. The rules of the config file apply to its fix lists.

Example:
  flowmcp-grading report grading-island --out report.html
`,
    rubric: `Usage: flowmcp-grading rubric <input.json> [--json]

Evaluates a judge (judgeSystem/1.0.0) or workflow (workflowSystem/1.0.0) rubric input.

Example:
  flowmcp-grading rubric rubric-input.json --json
`,
    version: `Usage: flowmcp-grading version [--json]

Prints the spec, system and package versions.

Example:
  flowmcp-grading version --json
`
})

/** The help of one command, or undefined for no command or an unknown one (the whole usage is printed then). */
export function helpOf(command: string | undefined): string | undefined {
    return command !== undefined && Object.hasOwn(HELP, command) ? HELP[command] : undefined
}

/** The usage of the whole CLI: what `--help`, a bare invocation and a wrong argument print. */
export const USAGE = `Usage: flowmcp-grading <command> [options]

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
  --strict                (validate) check grading entries as registry intake: every warning is an
                          error, no timestamp after --now (the clock's time when not given)
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
