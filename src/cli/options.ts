// The one table of the command line's options: how parseArgs reads each flag and, for those a config
// file may set, the kind of its value there and whether it is a path. run.ts parses with it and
// config.ts checks a config file with the keys it derives, so a new option is added in one place.

import { parseArgs } from 'node:util'

/** The kind of a config value: `number` options are strings on the command line, numbers in the file. */
export type ConfigKind = 'string' | 'boolean' | 'number' | 'strings'

interface OptionSpec {
    readonly type: 'string' | 'boolean'
    readonly multiple?: true
    readonly short?: string
    /** Settable in the config file (key: the option in camelCase), with its kind and whether it is a path. */
    readonly config?: { readonly kind: ConfigKind; readonly path?: true }
}

// The configurable options come first, in the order `--print-config` lists them.
const OPTIONS = {
    json: { type: 'boolean', config: { kind: 'boolean' } },
    island: { type: 'string', config: { kind: 'string', path: true } },
    answers: { type: 'string', config: { kind: 'string', path: true } },
    offline: { type: 'boolean', config: { kind: 'boolean' } },
    live: { type: 'boolean', config: { kind: 'boolean' } },
    recordings: { type: 'string', config: { kind: 'string', path: true } },
    record: { type: 'string', config: { kind: 'string', path: true } },
    runtime: { type: 'string', config: { kind: 'string', path: true } },
    'runtime-libraries': { type: 'string', config: { kind: 'string', path: true } },
    'runtime-lists': { type: 'string', config: { kind: 'string', path: true } },
    concurrency: { type: 'string', config: { kind: 'number' } },
    'min-working-tests': { type: 'string', config: { kind: 'number' } },
    'max-warnings': { type: 'string', config: { kind: 'number' } },
    force: { type: 'boolean', config: { kind: 'boolean' } },
    verbose: { type: 'boolean', config: { kind: 'boolean' } },
    'min-grade': { type: 'string', config: { kind: 'string' } },
    baseline: { type: 'string', config: { kind: 'string', path: true } },
    'fail-on-untested': { type: 'boolean', config: { kind: 'boolean' } },
    sarif: { type: 'string', config: { kind: 'string', path: true } },
    summary: { type: 'string', config: { kind: 'string', path: true } },
    report: { type: 'string', config: { kind: 'string', path: true } },
    'trusted-import': { type: 'boolean', config: { kind: 'boolean' } },
    'judge-command': { type: 'string', config: { kind: 'string' } },
    'judge-timeout': { type: 'string', config: { kind: 'number' } },
    'judge-env': { type: 'string', multiple: true, config: { kind: 'strings' } },
    'judge-concurrency': { type: 'string', config: { kind: 'number' } },
    'judge-model': { type: 'string', config: { kind: 'string' } },
    'judge-harness': { type: 'string', config: { kind: 'string' } },
    'price-input': { type: 'string', config: { kind: 'number' } },
    'price-output': { type: 'string', config: { kind: 'number' } },
    // Per run only: what to do, not how to grade.
    kind: { type: 'string' },
    now: { type: 'string' },
    strict: { type: 'boolean' },
    schema: { type: 'string' },
    'schema-id': { type: 'string' },
    selection: { type: 'boolean' },
    'include-schemas': { type: 'boolean' },
    areas: { type: 'boolean' },
    estimate: { type: 'boolean' },
    out: { type: 'string' },
    config: { type: 'string' },
    'print-config': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
} as const satisfies Readonly<Record<string, OptionSpec>>

type ParseOptions = { readonly [K in keyof typeof OPTIONS]: Omit<(typeof OPTIONS)[K], 'config'> }

/** The options as parseArgs takes them (the config part left out). */
const PARSE_OPTIONS = Object.fromEntries(Object.entries(OPTIONS).map(([name, spec]) => [name, Object.fromEntries(Object.entries(spec).filter(([key]) => key !== 'config'))])) as ParseOptions

/** Parses the command line strictly (an unknown option throws, as parseArgs does): the values and the positionals. */
export function parseCommandLine(argv: readonly string[]) {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: PARSE_OPTIONS })
}

/** The option values of one run, keyed by long option name. */
export type OptionValues = ReturnType<typeof parseCommandLine>['values']

/** The option name a config key stands for: `judgeCommand` → `judge-command`. */
export const optionOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** The config key of an option: `judge-command` → `judgeCommand`. */
const keyOf = (option: string): string => option.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

/**
 * The keys of a config file: the long options in camelCase, their kind, and whether the value is a
 * path (resolved from the config file's folder, as eslint does). `schemas/config.schema.json` says the same.
 */
export const CONFIG_KEYS: Readonly<Record<string, { readonly kind: ConfigKind; readonly path?: true }>> = Object.freeze(
    Object.fromEntries(Object.entries(OPTIONS as Readonly<Record<string, OptionSpec>>).flatMap(([option, spec]) => (spec.config !== undefined ? [[keyOf(option), spec.config]] : [])))
)
