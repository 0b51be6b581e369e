// What `--help` prints. Each command's options are generated from the option table (options.ts), so
// a command's help lists every option it takes, in the words the table gives it.
import { COMMANDS, optionsHelp, type Command, type OptionHelp } from './options.js'

/** What a command's help says beside its options: usage, what it does, its exit codes, an example. */
interface CommandText {
    readonly usage: string
    readonly about: string
    readonly exits?: string
    readonly example: string
}

const TEXT: Readonly<Record<Command, CommandText>> = {
    grade: {
        usage: 'grade <schema.mjs|dir…> [options]',
        about: 'Grades FlowMCP v4 schemas (offline by default) and prints one row per schema.',
        exits: '0 graded · 1 the grading has holes (a schema that does not parse, a failed judge call) · 2 usage or environment error · 130 interrupted',
        example:
            'flowmcp-grading grade providers --island grading-island --judge-command ./judge.sh --judge-model gpt-4o-mini'
    },
    check: {
        usage: 'check [<schema.mjs|dir…>] [options]',
        about: 'Grades as grade does (or reads --island) and fails when a schema is below --min-grade, fell from --baseline, gained an error finding, does not parse, or could not be verified (the judge failed, the run was interrupted). SARIF and the summary are always written.',
        exits: '0 passed · 1 the gate failed · 2 usage or environment error · 130 interrupted',
        example:
            'flowmcp-grading check providers/etherscan --baseline baseline-island --sarif grading.sarif --summary "$GITHUB_STEP_SUMMARY"'
    },
    affected: {
        usage: 'affected <schema dir…> --changed-files <file> [options]',
        about: 'Prints the schema folders the changed files touch, one per line, for --paths-from: a schema file its folder, an About or other file of a schema folder that folder, the config file every folder, a recording the folders of the schemas that read its host (from --island, and each schema’s root).',
        exits: '0 listed (none is an empty list) · 2 usage error',
        example:
            'flowmcp-grading affected providers --changed-files changed-files.txt --island hosts-island > changed.txt'
    },
    validate: {
        usage: 'validate <file…> [options]',
        about: "Checks grading entries and other grading JSON; prints each file's verdict.",
        example: 'flowmcp-grading validate --strict submitted-entry.json'
    },
    'emit-prompts': {
        usage: 'emit-prompts <schema.mjs> [options]',
        about: 'Prints the Scoring Protocol v1 prompts.json of a schema; with --areas, an answers file of its open area units for grade --answers.',
        example: 'flowmcp-grading emit-prompts providers/frankfurter/frankfurter.mjs --areas > answers.json'
    },
    'consume-scores': {
        usage: 'consume-scores <prompts.json> <scores.json> --schema <schema.mjs> [options]',
        about: "Validates a scores.json against its prompts and prints the grade report; with --island, writes it into the island as the schema's entry.",
        example:
            'flowmcp-grading consume-scores prompts.json scores.json --schema providers/frankfurter/frankfurter.mjs'
    },
    'rebuild-index': {
        usage: 'rebuild-index <dir> [options]',
        about: 'Rebuilds index.json of <island>/providers/<ns> or <island>/selections/<sel>.',
        example: 'flowmcp-grading rebuild-index grading-island/providers/frankfurter'
    },
    export: {
        usage: 'export <name> <dir> --island <root> [options]',
        about: 'Exports a graded namespace (or --selection) from the island into a new folder.',
        example: 'flowmcp-grading export frankfurter out --island grading-island'
    },
    report: {
        usage: 'report <island> [options]',
        about: 'Writes one self-contained HTML page of a graded island (stdout, or --out); --baseline lists the schemas graded worse than in that earlier copy. The rules of the config file apply to its fix lists.',
        example: 'flowmcp-grading report grading-island --out report.html'
    },
    rubric: {
        usage: 'rubric <input.json> [options]',
        about: 'Evaluates a judge (judgeSystem/1.0.0) or workflow (workflowSystem/1.0.0) rubric input.',
        example: 'flowmcp-grading rubric rubric-input.json --json'
    },
    version: {
        usage: 'version [options]',
        about: 'Prints the spec, system and package versions.',
        example: 'flowmcp-grading version --json'
    }
}

const WIDTH = 104
const COLUMN = 26

/** Words wrapped to `width`, every line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: string): string {
    const lines: string[] = []
    let line = ''
    for (const word of text.split(' ')) {
        if (line.length > 0 && line.length + 1 + word.length > width) {
            lines.push(line)
            line = word
        } else line = line.length > 0 ? `${line} ${word}` : word
    }
    lines.push(line)
    return lines.join(`\n${indent}`)
}

/** A label and the prose beside it (below it when the label is long), wrapped. */
function entryLines(label: string, text: string): string {
    const indent = ' '.repeat(COLUMN)
    const prose = wrap(text, WIDTH - COLUMN, indent)
    return label.length < COLUMN ? `${label.padEnd(COLUMN)}${prose}\n` : `${label}\n${indent}${prose}\n`
}

/** One option's lines: the flag and its value, then the prose beside it. */
function optionLines(option: OptionHelp, prefix = ''): string {
    const short = option.short !== undefined ? `-${option.short}, ` : ''
    const arg = option.arg !== undefined ? ` ${option.arg}` : ''
    return entryLines(`  ${short}--${option.name}${arg}`, `${prefix}${option.help}`)
}

/**
 * The help of one command: its usage, what it does, every option it takes (from the table), its exit codes and an
 * example.
 */
function commandHelp(command: Command): string {
    const text = TEXT[command]
    const options = optionsHelp(command)
        .map((o) => optionLines(o))
        .join('')
    const exits = text.exits !== undefined ? `\nExit codes: ${wrap(text.exits, WIDTH - 12, '')}\n` : ''
    return `Usage: flowmcp-grading ${text.usage}\n\n${wrap(text.about, WIDTH, '')}\n\nOptions:\n${options}${exits}\nExample:\n  ${text.example}\n`
}

/** The help of one command, or undefined for no command or an unknown one (the whole usage is printed then). */
export function helpOf(command: string | undefined): string | undefined {
    return command !== undefined && (COMMANDS as readonly string[]).includes(command)
        ? commandHelp(command as Command)
        : undefined
}

/** Which commands an option belongs to, as the usage prefixes it: none for one every command takes. */
function commandsPrefix(option: OptionHelp): string {
    return option.commands.length === COMMANDS.length ? '' : `(${option.commands.join(', ')}) `
}

/** The usage of the whole CLI: what `--help`, a bare invocation and a wrong argument print. */
export const USAGE = `Usage: flowmcp-grading <command> [options]

Commands:
${COMMANDS.map((c) => entryLines(`  ${c}`, TEXT[c].about)).join('')}
Options (<command> --help lists those of one command):
${optionsHelp()
    .map((o) => optionLines(o, commandsPrefix(o)))
    .join('')}
Exit codes: 0 ok · 1 findings (check: the gate failed; grade: the grading has holes) · 2 usage or
environment error · 130 interrupted (Ctrl-C)
`
