// The options of the command-line table (options.ts) for `check`'s gates and the files a run writes
// besides its report; all of them may be set in a config file.
import { GRADING, type OptionSpec } from './option-spec.js'

/** How much a run says, `check`'s gates, and the files it writes, in the order `--print-config` lists them. */
export const GATE_OPTIONS = {
    'max-warnings': {
        type: 'string',
        config: { kind: 'number' },
        commands: ['check'],
        arg: '<n>',
        help: 'more than n warnings in the fix lists, over all schemas, fail the check (notices of the environment, such as a key not set, are not counted)'
    },
    force: {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: GRADING,
        help: 'grade again what the island already holds graded for the same content'
    },
    verbose: {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: GRADING,
        help: "every line of each schema's fix list, not only the costliest few"
    },
    'min-grade': {
        type: 'string',
        config: { kind: 'string' },
        commands: ['check'],
        arg: '<A-F>',
        help: 'a schema below this grade, or without one, fails the check'
    },
    baseline: {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: ['check', 'report'],
        arg: '<dir|file>',
        help: 'an island or an index.json to compare with: a schema whose grade fell, or that gained an error finding, fails the check',
        per: { report: 'an earlier island: the schemas graded worse since are listed' }
    },
    'baseline-missing': {
        type: 'string',
        config: { kind: 'string', values: ['fail', 'new'] },
        commands: ['check'],
        arg: '<fail|new>',
        help: 'when the --baseline folder is missing or holds no index.json: fail (the default) fails the check saying so; new checks every schema as new'
    },
    'fail-on-untested': {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: ['check'],
        help: 'tools not tested here (a missing key, recording, runtime, lists or library) fail the check, unchanged schemas too (reported otherwise; a new or changed schema not tested here is unverified)'
    },
    'fail-on-removed': {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: ['check'],
        help: 'a schema in the baseline but gone from the checked folders fails the check (it is reported as removed otherwise)'
    },
    'allow-unverified': {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: ['check'],
        help: 'a schema the run could not verify (the judge failed, the run was interrupted, changed content left ungraded) does not fail the check; it is still reported as unverified'
    },
    sarif: {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: GRADING,
        arg: '<file>',
        help: 'write every fix item as SARIF 2.1.0 (code-scanning results); check writes it whatever happens'
    },
    summary: {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: ['check'],
        arg: '<file>',
        help: 'append a Markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)'
    },
    report: {
        type: 'string',
        config: { kind: 'string', path: true },
        commands: GRADING,
        arg: '<file>',
        help: 'with --island: also write the HTML report of the island to this file'
    }
} as const satisfies Readonly<Record<string, OptionSpec>>
