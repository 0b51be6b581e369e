import { defineCodes } from '../define.js'

/** The command line: each command takes the options its help lists (src/cli/options.ts, the one table). */
export const CLI_CODES = defineCodes({
    'CLI-001': [
        'error',
        "usage error: '{command}' does not take --{option} (it is an option of {owners})",
        'cli: each command takes only the options its help lists (docs/cli.md)'
    ],
    'CLI-002': [
        'error',
        "usage error: unknown option {option}{suggestion} (an argument that starts with '-' but is not an option goes after '--', as in: -- {option})",
        'cli: the options are those of the option table (docs/cli.md)'
    ]
})
