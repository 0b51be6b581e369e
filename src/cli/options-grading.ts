// The options of the command-line table (options.ts) that say what grading reads and how it reaches the
// network and the FlowMCP runtime; all of them may be set in a config file.
import { ALL, GRADING, type OptionSpec } from './option-spec.js'

/** What a grading run reads, its network and its runtime, in the order `--print-config` lists them. */
export const GRADING_OPTIONS = {
    json: {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: ALL.filter((c) => c !== 'emit-prompts'),
        help: 'machine-readable output'
    },
    island: {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: [...GRADING, 'affected', 'export', 'consume-scores'],
        arg: '<dir>',
        help: 'the island root: entries and index.json are written there',
        per: {
            check: 'grade into this island; with no schema named, check the island as it is',
            affected: "the island whose summary.json files say which schema's tests read which host",
            export: 'the island to export from'
        }
    },
    answers: {
        type: 'string',
        config: { kind: 'string', path: true, input: 'file' },
        commands: GRADING,
        arg: '<file>',
        help: 'pre-collected area outputs instead of a judge: { grader, answers: { <schemaId>: { <unit>: output } } }'
    },
    offline: {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: GRADING,
        help: 'no HTTP: live answers are n/a (the default)'
    },
    live: {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: [...GRADING, 'emit-prompts'],
        help: "run each tool's tests against the real API (server params from the environment); on the command line it overrides a configured recordings or offline"
    },
    recordings: {
        type: 'string',
        config: { kind: 'string', path: true, input: 'folder' },
        commands: [...GRADING, 'affected', 'emit-prompts'],
        arg: '<dir>',
        help: 'answer HTTP from the recorded exchanges (*.json) in this folder instead of the network (docs/recordings.md); on the command line it overrides a configured live or offline',
        per: { affected: 'the recordings folder: a changed *.json in it touches the schemas that read its host' }
    },
    record: {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: GRADING,
        arg: '<dir>',
        help: 'with --live: write every HTTP exchange into this folder as a recording --recordings replays'
    },
    runtime: {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: GRADING,
        arg: '<dir>',
        help: "run the tests of schemas that export handlers through the FlowMCP runtime in this flowmcp-core folder, in a child process under Node's permission model (docs/cli.md)"
    },
    'runtime-libraries': {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: GRADING,
        arg: '<dir>',
        help: "the folder whose node_modules holds the schemas' requiredLibraries (default: the --runtime folder)"
    },
    'runtime-lists': {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: GRADING,
        arg: '<dir>',
        help: 'the shared lists folder the runtime resolves sharedLists from'
    },
    concurrency: {
        type: 'string',
        config: { kind: 'number' },
        commands: GRADING,
        arg: '<n>',
        help: 'namespaces graded at once (1–32, default 1)'
    },
    'min-working-tests': {
        type: 'string',
        config: { kind: 'number' },
        commands: GRADING,
        arg: '<n>',
        help: 'working tests a tool needs to be graded (1–20, default 3)'
    }
} as const satisfies Readonly<Record<string, OptionSpec>>
