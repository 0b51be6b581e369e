// Each command's options, built from the option values of one run (the command line merged with the
// config file): run.ts parses and dispatches, this file turns values into the options a command takes.
import type { CheckCommandOptions } from './commands/check.js'
import type { GradeCommandOptions } from './commands/grade-options.js'
import type { exportCommand } from './commands/island.js'
import type { consumeScoresCommand, emitPromptsCommand } from './commands/protocol.js'
import type { reportCommand } from './commands/report.js'
import type { ValidateOptions } from './commands/validate.js'
import { EXIT, type CliIo } from './io.js'
import type { OptionValues } from './options.js'
import { definedFields } from '../model/fields.js'

/** The rules of the config file (`rules: { "<code>": "off" | … }`), when it has some. */
export type Rules = Readonly<Record<string, unknown>> | undefined

/** `validate`'s options. */
export function validateOptionsOf(values: OptionValues): ValidateOptions {
    return {
        json: values.json === true,
        strict: values.strict === true,
        ...definedFields({
            kind: values.kind,
            now: values.now,
            schema: values.schema,
            schemaId: values['schema-id'],
            tool: values.tool,
            envelope: values.envelope,
            trustedKeys: values['trusted-keys']
        })
    }
}

/** `emit-prompts`' options. */
export function emitPromptsOptionsOf(values: OptionValues): Parameters<typeof emitPromptsCommand>[1] {
    return {
        areas: values.areas === true,
        trustedImport: values['trusted-import'] === true,
        live: values.live === true,
        ...definedFields({ recordings: values.recordings, schemaId: values['schema-id'], now: values.now })
    }
}

/** `consume-scores`' options. */
export function consumeScoresOptionsOf(values: OptionValues): Parameters<typeof consumeScoresCommand>[1] {
    return {
        json: values.json === true,
        trustedImport: values['trusted-import'] === true,
        ...definedFields({ schema: values.schema, now: values.now, island: values.island })
    }
}

/** `export`'s options. */
export function exportOptionsOf(values: OptionValues): Parameters<typeof exportCommand>[1] {
    return {
        json: values.json === true,
        selection: values.selection === true,
        includeSchemas: values['include-schemas'] === true,
        ...definedFields({ island: values.island })
    }
}

/** `report`'s options: the config file's rules apply to the report's fix lists too. */
export function reportOptionsOf(values: OptionValues, rules: Rules): Parameters<typeof reportCommand>[1] {
    return {
        json: values.json === true,
        ...definedFields({ rules, out: values.out, baseline: values.baseline })
    }
}

/**
 * `--price-input` / `--price-output` (US dollars per million tokens): the prices, null when neither is given, or what
 * is wrong.
 */
function pricesOf(
    input: string | undefined,
    output: string | undefined
): { input?: number; output?: number } | null | string {
    if (input === undefined && output === undefined) return null
    const out: { input?: number; output?: number } = {}
    for (const [name, text] of [
        ['input', input],
        ['output', output]
    ] as const) {
        if (text === undefined) continue
        const value = Number(text)
        if (!/^\d+(?:\.\d+)?$/.test(text) || !Number.isFinite(value))
            return `--price-${name} must be a price in US dollars per million tokens, such as 3 or 0.15, got ${JSON.stringify(text)}`
        out[name] = value
    }
    return out
}

/**
 * The flags of `grade` or `check` checked together: the prices of `--estimate` (null without), or what is wrong, in
 * words.
 */
function checkedGradeFlags(values: OptionValues): { prices: { input?: number; output?: number } | null } | string {
    if (values.live === true && (values.offline === true || values.recordings !== undefined))
        return '--live excludes --offline and --recordings'
    if (
        values.runtime === undefined &&
        (values['runtime-libraries'] !== undefined || values['runtime-lists'] !== undefined)
    )
        return '--runtime-libraries and --runtime-lists need --runtime <flowmcp-core folder>'
    if (values.record !== undefined && values.live !== true)
        return '--record <dir> records live exchanges: it needs --live'
    const prices = pricesOf(values['price-input'], values['price-output'])
    if (typeof prices === 'string') return prices
    if (values.concurrency !== undefined && !/^(?:[1-9]|[12]\d|3[0-2])$/.test(values.concurrency))
        return '--concurrency must be an integer from 1 to 32'
    if (values['min-working-tests'] !== undefined && !/^(?:[1-9]|1\d|20)$/.test(values['min-working-tests']))
        return '--min-working-tests must be an integer from 1 to 20'
    return { prices }
}

/**
 * The options of `grade` (and the grading part of `check`'s), or the exit code when a flag is wrong (the reason on
 * stderr).
 */
export function gradeOptionsOf(
    command: string,
    values: OptionValues,
    rules: Rules,
    io: CliIo
): GradeCommandOptions | number {
    const checked = checkedGradeFlags(values)
    if (typeof checked === 'string') {
        io.stderr(`${command}: ${checked}\n`)
        return EXIT.USAGE
    }
    const { prices } = checked
    return {
        json: values.json === true,
        force: values.force === true,
        estimate: values.estimate === true,
        watch: values.watch === true,
        verbose: values.verbose === true,
        ...definedFields({ sarif: values.sarif }),
        ...(values.concurrency !== undefined ? { concurrency: Number(values.concurrency) } : {}),
        ...(values['min-working-tests'] !== undefined ? { minWorkingTests: Number(values['min-working-tests']) } : {}),
        live: values.live === true,
        ...definedFields({
            island: values.island,
            signKey: values['sign-key'],
            answers: values.answers,
            recordings: values.recordings
        }),
        ...(values.runtime !== undefined
            ? {
                  runtime: {
                      folder: values.runtime,
                      ...definedFields({ libraries: values['runtime-libraries'], lists: values['runtime-lists'] })
                  }
              }
            : {}),
        ...definedFields({ now: values.now, report: values.report }),
        judgeCli: {
            ...definedFields({
                judgeCommand: values['judge-command'],
                judgeTimeout: values['judge-timeout'],
                judgeEnv: values['judge-env'],
                judgeConcurrency: values['judge-concurrency'],
                judgeModel: values['judge-model'],
                judgeHarness: values['judge-harness']
            })
        },
        trustedImport: values['trusted-import'] === true,
        ...definedFields({ rules, record: values.record }),
        ...(prices !== null ? { prices } : {})
    }
}

/** `check`'s options: the grading ones and its gates. */
export function checkOptionsOf(gradeOptions: GradeCommandOptions, values: OptionValues): CheckCommandOptions {
    return {
        ...gradeOptions,
        failOnUntested: values['fail-on-untested'] === true,
        failOnRemoved: values['fail-on-removed'] === true,
        allowUnverified: values['allow-unverified'] === true,
        ...definedFields({
            baselineMissing: values['baseline-missing'],
            minGrade: values['min-grade'],
            baseline: values.baseline,
            summary: values.summary
        }),
        ...(values['max-warnings'] !== undefined
            ? { maxWarnings: /^\d{1,9}$/.test(values['max-warnings']) ? Number(values['max-warnings']) : Number.NaN }
            : {})
    }
}
