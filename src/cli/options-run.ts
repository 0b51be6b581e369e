// The options of the command-line table (options.ts) that hold for one run only: what to do, not how
// to grade, so a config file does not set them.
import { ALL, GRADING, type OptionSpec } from './option-spec.js'

/** The options of one run, in the order the help lists them. */
export const RUN_OPTIONS = {
    'paths-from': {
        type: 'string',
        commands: GRADING,
        arg: '<file>',
        help: 'the schema files or folders to take, one per line, besides those named (a CI step writes the changed folders there); an empty file checks nothing and passes, with an empty SARIF log'
    },
    'changed-files': {
        type: 'string',
        commands: ['affected'],
        arg: '<file>',
        help: 'the changed files, one per line, relative to the working folder (git diff --name-only writes them)'
    },
    'base-tree': {
        type: 'string',
        commands: ['affected'],
        arg: '<dir>',
        help: "the base commit's checkout: a changed recording the tree no longer has is read there"
    },
    estimate: {
        type: 'boolean',
        commands: ['grade'],
        help: 'print the judge calls, input tokens (total and the part a prefix cache serves) and expected output tokens the grading would take, and with prices the cost, and what repair turns could add (at most one call per unit); calls no judge, writes nothing'
    },
    watch: {
        type: 'boolean',
        commands: ['grade'],
        help: 'after the first run, grade again whenever a schema, recording or About under the paths is saved, asking the judge only for units whose inputs changed, and print what moved (score before → after, findings fixed and new); Ctrl-C ends it (exit 130)'
    },
    kind: {
        type: 'string',
        commands: ['validate'],
        arg: '<kind>',
        help: 'skip detection and validate as this artefact kind'
    },
    now: {
        type: 'string',
        commands: [...GRADING, 'validate', 'emit-prompts', 'consume-scores', 'rebuild-index'],
        arg: '<iso>',
        help: 'the time of the run, for reproducible output',
        per: {
            validate:
                "check grading entries' timestamps against this time (with --strict: the clock's time when not given)"
        }
    },
    strict: {
        type: 'boolean',
        commands: ['validate'],
        help: 'check grading entries as registry intake (docs/grading.md, Validation levels): every warning is an error, and no timestamp may lie after --now'
    },
    schema: {
        type: 'string',
        commands: ['consume-scores', 'validate'],
        arg: '<file>',
        help: 'the schema the scores are about',
        per: {
            validate:
                'the schema module the grading entries grade: its hash is computed from it and every deterministic answer it decides is re-checked (docs/registry.md)'
        }
    },
    'schema-id': {
        type: 'string',
        commands: ['emit-prompts', 'validate'],
        arg: '<id>',
        help: 'override <namespace>/<file>',
        per: { validate: 'the schemaId the grading entries must name' }
    },
    tool: {
        type: 'string',
        commands: ['validate'],
        arg: '<name>',
        help: 'the tool a single-test grading entry must grade'
    },
    envelope: {
        type: 'string',
        commands: ['validate'],
        arg: '<file>',
        help: 'the DSSE envelope (Grading.sign) of the one grading entry named; verified against --trusted-keys'
    },
    'sign-key': {
        type: 'string',
        commands: ['grade'],
        arg: '<file>',
        help: 'sign every grading entry written to --island with this Ed25519 private JWK (RFC 8037): a DSSE envelope beside each, named <entry>.dsse (docs/registry.md); the key is never printed or written'
    },
    'trusted-keys': {
        type: 'string',
        commands: ['validate'],
        arg: '<file>',
        help: 'a JSON file of the Ed25519 public JWKs (RFC 8037) whose signatures are trusted: an array or a JWK Set { "keys": [...] }; with --envelope, binds the grader to the key'
    },
    selection: { type: 'boolean', commands: ['export'], help: 'the name is a selection' },
    'include-schemas': {
        type: 'boolean',
        commands: ['export'],
        help: 'also export clean schema, About and skill files'
    },
    areas: {
        type: 'boolean',
        commands: ['emit-prompts'],
        help: "emit the area prompts as an answers file for grade --answers (a tool's units only when its tests ran: pass --recordings <dir> or --live)"
    },
    out: {
        type: 'string',
        commands: ['report'],
        arg: '<file>',
        help: 'write the HTML page to this file instead of stdout'
    },
    config: {
        type: 'string',
        commands: ALL,
        arg: '<file>',
        help: 'the config file; default: flowmcp-grading.config.json in the working folder or a parent up to the repository root (keys: the long options in camelCase, and rules: { "<code>": "off" | "warning" | "error" }); flags win over it'
    },
    'print-config': {
        type: 'boolean',
        commands: ALL,
        help: 'print the options after the config file and the flags are merged'
    },
    help: {
        type: 'boolean',
        short: 'h',
        commands: ALL,
        help: "this text; <command> --help: that command's help, with an example"
    }
} as const satisfies Readonly<Record<string, OptionSpec>>
