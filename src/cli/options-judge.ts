// The options of the command-line table (options.ts) for the judge: how schemas are read for it, the
// command that answers, and the prices of an estimate; all of them may be set in a config file.
import { GRADING, type OptionSpec } from './option-spec.js'

/** The judge's options, in the order `--print-config` lists them. */
export const JUDGE_OPTIONS = {
    'trusted-import': {
        type: 'boolean',
        config: { kind: 'boolean' },
        commands: [...GRADING, 'emit-prompts', 'consume-scores'],
        help: 'import (run) schema modules instead of reading them from their syntax tree; only for sources you trust'
    },
    'judge-command': {
        type: 'string',
        config: { kind: 'string' },
        commands: GRADING,
        arg: '<cmd>',
        help: 'run this shell command once per area unit as the judge: the request JSON on stdin, the reply JSON on stdout (docs/judges.md)'
    },
    'judge-timeout': {
        type: 'string',
        config: { kind: 'number' },
        commands: GRADING,
        arg: '<s>',
        help: 'kill a judge call after this many seconds; retried like a rate limit'
    },
    'judge-env': {
        type: 'string',
        multiple: true,
        config: { kind: 'strings' },
        commands: GRADING,
        arg: '<NAME>',
        help: 'pass this environment variable to the judge command (repeatable); it gets only PATH, HOME, LANG, TERM otherwise'
    },
    'judge-concurrency': {
        type: 'string',
        config: { kind: 'number' },
        commands: GRADING,
        arg: '<n>',
        help: 'at most n judge calls at once'
    },
    'judge-model': {
        type: 'string',
        config: { kind: 'string' },
        commands: GRADING,
        arg: '<name>',
        help: 'the model the command asks (required with --judge-command), recorded as llmModel in every entry'
    },
    'judge-harness': {
        type: 'string',
        config: { kind: 'string' },
        commands: GRADING,
        arg: '<name>',
        help: 'the harness recorded in every entry: claude-code, the only value the grading spec allows (the default)'
    },
    'price-input': {
        type: 'string',
        config: { kind: 'number' },
        commands: ['grade'],
        arg: '<usd>',
        help: 'with --estimate: US dollars per million input tokens'
    },
    'price-output': {
        type: 'string',
        config: { kind: 'number' },
        commands: ['grade'],
        arg: '<usd>',
        help: 'with --estimate: US dollars per million output tokens'
    }
} as const satisfies Readonly<Record<string, OptionSpec>>
