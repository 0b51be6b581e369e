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
    validate: `Usage: flowmcp-grading validate <file…> [--kind <kind>] [--json]

Checks grading entries and other grading JSON; prints each file's verdict.

Example:
  flowmcp-grading validate grading-island/providers/frankfurter/index.json
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
