import { modelNameProblem } from '../grade/units.js'
import { HARNESSES } from '../catalogue.js'
import { Redact, type Harness, type JudgeCallContext, type JudgeRequest } from '../index.js'
import { JudgeCommandError, runCommandOnce, type CommandCall, type CommandJudge } from './judge-process.js'

/** The variables every judge command gets from the parent environment (when set there). */
export const BASE_JUDGE_ENV: readonly string[] = Object.freeze(['PATH', 'HOME', 'LANG', 'TERM'])

/**
 * Defaults: two minutes a call (an LLM call is slow), 8 MiB of reply, 380 characters of stderr (GRA-006 keeps 500).
 */
export const JUDGE_COMMAND_DEFAULTS = Object.freeze({
    timeoutMs: 120_000,
    maxOutputBytes: 8 * 1024 * 1024,
    stderrChars: 380,
    shell: '/bin/sh'
})

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export interface JudgeCommandOptions {
    /** A shell command line, run as `<shell> -c <command>`; the JudgeRequest JSON arrives on its stdin. */
    readonly command: string
    /** Kill the command (and its process group) after this many milliseconds. */
    readonly timeoutMs?: number
    /** The parent environment to pick from; nothing else of it reaches the command. */
    readonly env?: Readonly<Record<string, string | undefined>>
    /** Further variable names passed through besides {@link BASE_JUDGE_ENV} (e.g. the LLM tool's own API key). */
    readonly allowEnv?: readonly string[]
    /** Names never passed, even when allowed (the server-param keys of the graded schemas). */
    readonly denyEnv?: readonly string[]
    /** Further values to redact from the stderr tail, besides the values of the allowed variables. */
    readonly redact?: readonly string[]
    readonly shell?: string
    /** The working directory of the command; the current one when omitted. */
    readonly cwd?: string
    readonly maxOutputBytes?: number
    /** Called with each coded failure before the call rejects (e.g. to log it). */
    readonly onError?: (error: JudgeCommandError) => void
}

/** Checks the options; one message per wrong option, coded JCMD-005. */
export function checkJudgeCommandOptions(options: Partial<JudgeCommandOptions>): JudgeCommandError[] {
    const errors: JudgeCommandError[] = []
    if (typeof options.command !== 'string' || options.command.trim() === '')
        errors.push(new JudgeCommandError('JCMD-005', { option: 'command', detail: 'an empty command' }))
    if (options.timeoutMs !== undefined && !(Number.isSafeInteger(options.timeoutMs) && options.timeoutMs > 0))
        errors.push(
            new JudgeCommandError('JCMD-005', {
                option: 'timeoutMs',
                detail: `expected a positive whole number of milliseconds, got ${String(options.timeoutMs)}`
            })
        )
    if (
        options.maxOutputBytes !== undefined &&
        !(Number.isSafeInteger(options.maxOutputBytes) && options.maxOutputBytes > 0)
    )
        errors.push(
            new JudgeCommandError('JCMD-005', {
                option: 'maxOutputBytes',
                detail: `expected a positive whole number, got ${String(options.maxOutputBytes)}`
            })
        )
    const bad = (options.allowEnv ?? []).filter((n) => typeof n !== 'string' || !ENV_NAME.test(n))
    if (bad.length > 0)
        errors.push(
            new JudgeCommandError('JCMD-005', {
                option: 'allowEnv',
                detail: `not a variable name: ${bad
                    .slice(0, 3)
                    .map((n) => JSON.stringify(n))
                    .join(', ')}`
            })
        )
    return errors
}

/** The environment a judge command runs with: the base variables and the allowed ones, minus the denied ones. */
export function judgeEnvironment(
    options: Pick<JudgeCommandOptions, 'env' | 'allowEnv' | 'denyEnv'>
): Record<string, string> {
    const deny = new Set(options.denyEnv ?? [])
    const names = [...new Set([...BASE_JUDGE_ENV, ...(options.allowEnv ?? [])])].filter(
        (n) => ENV_NAME.test(n) && !deny.has(n)
    )
    const env = options.env ?? {}
    return Object.fromEntries(
        names.filter((n) => Object.hasOwn(env, n) && typeof env[n] === 'string').map((n) => [n, env[n] as string])
    )
}

/**
 * A library `Judge` that runs `command` once per call through a shell: the JudgeRequest JSON on
 * stdin, the reply JSON text from stdout. The command sees only {@link judgeEnvironment}, never
 * the grading's server params; a timeout, a non-zero exit, a spawn failure or an oversized reply
 * rejects with a `JCMD-` coded error. Never throws: bad options give a judge that rejects (JCMD-005).
 */
export function judgeFromCommand(options: JudgeCommandOptions): CommandJudge {
    const invalid = checkJudgeCommandOptions(options)
    if (invalid.length > 0) {
        return async () => {
            options.onError?.(invalid[0] as JudgeCommandError)
            throw invalid[0]
        }
    }
    const env = judgeEnvironment(options)
    const call: CommandCall = {
        command: options.command,
        shell: options.shell ?? JUDGE_COMMAND_DEFAULTS.shell,
        env,
        cwd: options.cwd,
        timeoutMs: options.timeoutMs ?? JUDGE_COMMAND_DEFAULTS.timeoutMs,
        maxOutputBytes: options.maxOutputBytes ?? JUDGE_COMMAND_DEFAULTS.maxOutputBytes,
        tail: stderrTail(env, options.redact),
        onError: options.onError
    }
    return (request: JudgeRequest, context?: JudgeCallContext) => runCommandOnce(call, request, context)
}

/**
 * How the stderr of a failed call is shown: without the values the command was handed, control characters or more than
 * the last characters.
 */
function stderrTail(
    env: Readonly<Record<string, string>>,
    redact: readonly string[] | undefined
): (text: string) => string {
    // Everything the command was handed beyond the base variables may be a credential of the LLM tool.
    const secretValues = Object.entries(env)
        .filter(([k]) => !BASE_JUDGE_ENV.includes(k))
        .map(([, v]) => v)
        .concat(redact ?? [])
    const serverParams = Object.fromEntries(secretValues.map((v, i) => [`JUDGE_${i}`, v]))
    return (text: string): string => {
        // Redact before cutting, so a cut never leaves half a secret; control characters go too.
        const redacted = Redact.text({ text, serverParams }).text ?? ''
        const clean = redacted.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').trim()
        return clean.length === 0
            ? '(empty)'
            : clean.length > JUDGE_COMMAND_DEFAULTS.stderrChars
              ? `…${clean.slice(-JUDGE_COMMAND_DEFAULTS.stderrChars)}`
              : clean
    }
}

/**
 * Bounds how many calls of `judge` run at once, across every schema graded concurrently; the rest
 * wait in order. `n` below 1 or not a whole number counts as 1.
 */
export function limitConcurrency(judge: CommandJudge, n: number): CommandJudge {
    const limit = Number.isSafeInteger(n) && n >= 1 ? n : 1
    let active = 0
    const waiting: Array<() => void> = []
    const release = (): void => {
        active--
        waiting.shift()?.()
    }
    return async (request, context) => {
        if (active >= limit) await new Promise<void>((r) => waiting.push(r))
        active++
        try {
            return await judge(request, context)
        } finally {
            release()
        }
    }
}

/** The judge options of the command line, as parseArgs returns them. */
export interface JudgeCliValues {
    readonly judgeCommand?: string
    readonly judgeTimeout?: string
    readonly judgeEnv?: readonly string[]
    readonly judgeConcurrency?: string
    /**
     * The model the command asks, recorded as every answer's `llmModel` (unless a reply names its own). Required with
     * `judgeCommand`.
     */
    readonly judgeModel?: string
    /**
     * The harness recorded in every entry; one of {@link HARNESSES} (the spec's only one, `claude-code`, by default).
     */
    readonly judgeHarness?: string
}

/** What {@link judgeFromCliOptions} builds: the judge, and the model and harness its answers are recorded with. */
export interface JudgeFromCli {
    readonly judge: CommandJudge | null
    /** `--judge-model`; null without a judge command. */
    readonly model: string | null
    readonly harness: Harness
    readonly errors: string[]
}

/** The sentence of a wrong judge flag, coded JCMD-005 as the option checks word theirs. */
const wrongFlag = (option: string, detail: string): string =>
    new JudgeCommandError('JCMD-005', { option, detail }).message

type JudgeFlags = {
    recorded: Harness
    model: string | null
    seconds: number | undefined
    concurrency: number | undefined
}

/**
 * Reads the judge flags one by one, before their combination is checked: a wrong one adds its sentence
 * to `errors`, in flag order. `recorded`: the harness entries record; `seconds`: `--judge-timeout`.
 */
function judgeFlagValues(values: JudgeCliValues, errors: string[]): JudgeFlags {
    const harness =
        values.judgeHarness === undefined
            ? HARNESSES[0]
            : (HARNESSES as readonly string[]).includes(values.judgeHarness)
              ? (values.judgeHarness as Harness)
              : null
    // The spec enumerates the harnesses an entry may record; another name would make every entry invalid.
    if (harness === null)
        errors.push(
            wrongFlag(
                '--judge-harness',
                `expected ${HARNESSES.join(' | ')} (the harnesses a grading entry may record), got ${JSON.stringify(values.judgeHarness)}`
            )
        )
    const modelProblem = values.judgeModel === undefined ? null : modelNameProblem(values.judgeModel)
    if (modelProblem !== null) errors.push(wrongFlag('--judge-model', modelProblem))
    const model = values.judgeModel !== undefined && modelProblem === null ? values.judgeModel.trim() : null
    const recorded = harness ?? HARNESSES[0]
    const positive = (text: string | undefined, option: string): number | undefined => {
        if (text === undefined) return undefined
        const value = Number(text)
        if (/^\d+(\.\d+)?$/.test(text) && value > 0) return value
        errors.push(wrongFlag(option, `expected a positive number, got ${JSON.stringify(text)}`))
        return undefined
    }
    const seconds = positive(values.judgeTimeout, '--judge-timeout')
    const concurrency = positive(values.judgeConcurrency, '--judge-concurrency')
    if (concurrency !== undefined && !Number.isSafeInteger(concurrency))
        errors.push(wrongFlag('--judge-concurrency', `expected a whole number, got ${String(values.judgeConcurrency)}`))
    return { recorded, model, seconds, concurrency }
}

/**
 * Builds the judge of `--judge-command` (limited by `--judge-concurrency`), or `null` without one,
 * with the model (`--judge-model`, required with a command: nothing is guessed from the command
 * line) and the harness (`--judge-harness`) its answers are recorded with.
 * `errors` lists wrong options (a usage error, exit 2); `--judge-timeout` is in seconds.
 */
export function judgeFromCliOptions(
    values: JudgeCliValues,
    env: Readonly<Record<string, string | undefined>>,
    extra: Pick<JudgeCommandOptions, 'denyEnv' | 'redact' | 'onError'> = {}
): JudgeFromCli {
    const errors: string[] = []
    const { recorded, model, seconds, concurrency } = judgeFlagValues(values, errors)
    if (values.judgeCommand === undefined) {
        if (
            values.judgeTimeout !== undefined ||
            values.judgeEnv !== undefined ||
            values.judgeConcurrency !== undefined ||
            values.judgeModel !== undefined ||
            values.judgeHarness !== undefined
        ) {
            errors.push(
                wrongFlag(
                    '--judge-command',
                    '--judge-timeout, --judge-env, --judge-concurrency, --judge-model and --judge-harness need --judge-command'
                )
            )
        }
        return { judge: null, model: null, harness: recorded, errors }
    }
    // Every entry records the model that answered: it is named, never guessed from the command line.
    if (values.judgeModel === undefined)
        errors.push(
            wrongFlag(
                '--judge-model',
                '--judge-command needs --judge-model <name>, the model the command asks (recorded as llmModel in every entry)'
            )
        )
    const options: JudgeCommandOptions = {
        command: values.judgeCommand,
        env,
        allowEnv: values.judgeEnv ?? [],
        ...(seconds !== undefined ? { timeoutMs: Math.max(1, Math.round(seconds * 1000)) } : {}),
        ...extra
    }
    errors.push(...checkJudgeCommandOptions(options).map((e) => e.message))
    if (errors.length > 0 || model === null) return { judge: null, model: null, harness: recorded, errors }
    const judge = judgeFromCommand(options)
    return {
        judge: concurrency !== undefined ? limitConcurrency(judge, concurrency) : judge,
        model,
        harness: recorded,
        errors
    }
}
