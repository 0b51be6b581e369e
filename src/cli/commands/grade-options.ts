// The options of `grade` (and of `check`, which grades the same way), as run.ts builds them from the flags.

import type { JudgeCliValues } from '../judge-command.js'

/** `--runtime` and its options: the FlowMCP runtime that runs the tests of handler schemas, in a child process. */
export interface GradeRuntimeOptions {
    /** The flowmcp-core folder (`--runtime`). */
    readonly folder: string
    /**
     * The folder whose `node_modules` holds the schemas' libraries (`--runtime-libraries`); default: the runtime
     * folder.
     */
    readonly libraries?: string
    /** The shared lists folder (`--runtime-lists`). */
    readonly lists?: string
    /** The child script; default: `runtime-child.js` beside the CLI (tests pass a build of their own). */
    readonly childScript?: string
}

export interface GradeCommandOptions {
    readonly json: boolean
    /** Namespaces graded at once (default 1). */
    readonly concurrency?: number
    /** Working tests a tool needs to be graded (default 3, the spec's SHOULD; a parameterless tool needs 1). */
    readonly minWorkingTests?: number
    /** Grade schemas again that the island already holds graded for the same content. */
    readonly force?: boolean
    /** `--judge-command` and its options: any LLM command line as the judge (docs/judges.md). */
    readonly judgeCli?: JudgeCliValues
    /** Where to write the HTML report of the island after grading (needs `island`). */
    readonly report?: string
    readonly island?: string
    readonly answers?: string
    readonly live: boolean
    readonly recordings?: string
    readonly now?: string
    /** Import (run) each schema module instead of reading its syntax tree; only for trusted sources. */
    readonly trustedImport?: boolean
    /**
     * Print the judge calls and input tokens the grading would cost (total and prefix-cacheable), calling no judge and
     * writing nothing.
     */
    readonly estimate?: boolean
    /** Re-grade the schema files under the paths whenever one is saved, printing what moved (`--watch`). */
    readonly watch?: boolean
    /** Every item of each schema's fix list, not only the worst few. */
    readonly verbose?: boolean
    /** Write every fix item as SARIF 2.1.0 to this file (code-scanning results). */
    readonly sarif?: string
    /** Run the tests of handler schemas through the FlowMCP runtime, in a child process (`--runtime`). */
    readonly runtime?: GradeRuntimeOptions
    /**
     * The config file's rules (`{ "<code>": "off" | "warning" | "error" }`), applied to what is shown, never to a
     * grade.
     */
    readonly rules?: Readonly<Record<string, unknown>>
    /**
     * With `live`: write every HTTP exchange into this folder as recordings `--recordings` replays
     * (docs/recordings.md).
     */
    readonly record?: string
    /** The paths came from a list (`--paths-from`): an empty one is nothing to do, not a usage error. */
    readonly pathsListed?: boolean
    /** Sign each entry written to the island with the Ed25519 private JWK in this file (`--sign-key`). */
    readonly signKey?: string
    /** With `estimate`: US dollars per million input and output tokens. */
    readonly prices?: { readonly input?: number; readonly output?: number }
}
