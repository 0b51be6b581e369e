import { parseArgs } from 'node:util'
import { getVersion } from '../index.js'
import { EXIT, type CliIo } from './io.js'
import { rubricCommand } from './commands/rubric.js'
import { validateCommand } from './commands/validate.js'

const USAGE = `Usage: flowmcp-grading <command> [options]

Commands:
  validate <file…>        check grading entries and other grading JSON; prints each file's verdict
  rubric <input.json>     evaluate a judge (judgeSystem/1.0.0) or workflow (workflowSystem/1.0.0) rubric input
  version                 print the spec, system and package versions

Options:
  --json                  machine-readable output
  --kind <kind>           (validate) skip detection and validate as this artefact kind
  -h, --help              this text

Exit codes: 0 ok · 1 findings · 2 usage or I/O error
`

/** Runs one CLI invocation against the given I/O and returns its exit code. Never throws. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
    let parsed
    try {
        parsed = parseArgs({
            args: [...argv],
            allowPositionals: true,
            strict: true,
            options: {
                json: { type: 'boolean', default: false },
                kind: { type: 'string' },
                help: { type: 'boolean', short: 'h', default: false }
            }
        })
    } catch (cause) {
        io.stderr(`${cause instanceof Error ? cause.message : String(cause)}\n\n${USAGE}`)
        return EXIT.USAGE
    }
    const [command, ...rest] = parsed.positionals
    const { values } = parsed
    if (values.help === true || command === undefined || command === 'help') {
        io.stdout(USAGE)
        return command === undefined && values.help !== true ? EXIT.USAGE : EXIT.OK
    }
    try {
        switch (command) {
            case 'validate':
                return await validateCommand(rest, { json: values.json === true, ...(values.kind !== undefined ? { kind: values.kind } : {}) }, io)
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
