// Who answers a grading run's area units: the judge of `--judge-command` and the grader its entries
// record, or the answers file of `--answers` (pre-collected outputs and their grader).

import { readFile } from 'node:fs/promises'
import { judgeForRun } from '../../grade/judge-call.js'
import type { GraderInput, Judge } from '../../index.js'
import { readModuleSource } from '../../schema/source-loader.js'
import { EXIT, type CliIo } from '../io.js'
import { judgeFromCliOptions } from '../judge-command.js'
import { absolute } from '../node.js'
import type { GradeCommandOptions } from './grade-options.js'

/** The answers file: the grader identity and, per schema id, the area outputs keyed by unit. */
export interface AnswersFile {
    readonly grader?: GraderInput
    readonly answers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

/** The `requiredServerParams` of every schema file, read from their syntax trees (never run). */
async function requiredServerParamsOf(files: readonly string[]): Promise<string[]> {
    const names = new Set<string>()
    for (const file of files) {
        try {
            const main = readModuleSource({ source: await readFile(file, 'utf8') }).module?.main as
                | { requiredServerParams?: unknown }
                | undefined
            if (Array.isArray(main?.requiredServerParams))
                for (const n of main.requiredServerParams) if (typeof n === 'string') names.add(n)
        } catch {
            // Unreadable here means unreadable for grading too; it is reported there.
        }
    }
    return [...names]
}

/** The answers file of `--answers` (empty without one), or the exit code when it cannot be read. */
export async function readAnswers(
    options: Pick<GradeCommandOptions, 'answers'>,
    io: CliIo,
    command: string
): Promise<{ file: AnswersFile } | number> {
    if (options.answers === undefined) return { file: {} }
    try {
        return { file: JSON.parse(await readFile(absolute(options.answers, io.cwd), 'utf8')) as AnswersFile }
    } catch (cause) {
        io.stderr(
            `${command}: cannot read answers ${options.answers}: ${cause instanceof Error ? cause.message : String(cause)}\n`
        )
        return EXIT.USAGE
    }
}

/** The judge of a run, the grader its entries record, and the server-param names no judge command may see. */
export interface RunJudge {
    readonly judge: Judge | undefined
    readonly grader: GraderInput | undefined
    readonly denyEnv: readonly string[]
}

/**
 * Builds the judge of `--judge-command` and the grader its entries record; the exit code when its options are wrong.
 */
export async function judgeOf(
    files: readonly string[],
    options: GradeCommandOptions,
    io: CliIo,
    answersFile: AnswersFile,
    command: string
): Promise<RunJudge | number> {
    // The judge command never sees a server param, even one named with --judge-env.
    const denyEnv = await requiredServerParamsOf(files)
    const built = judgeFromCliOptions(options.judgeCli ?? {}, io.env, { denyEnv })
    if (built.errors.length > 0) {
        for (const e of built.errors) io.stderr(`${command}: ${e}\n`)
        return EXIT.USAGE
    }
    // One judge for the whole command: every namespace shares its count of failures in a row (judge-call.ts).
    const judge: Judge | undefined = judgeForRun(built.judge ?? undefined)
    io.addSecrets?.(denyEnv.flatMap((k) => (typeof io.env[k] === 'string' ? [io.env[k] as string] : [])))
    // A judge's answers need a grader with a persona (GRA-009): the judge command's, recorded with the
    // model and harness its options name (never guessed from the command line) and the answers file's
    // persona when it has one; without a judge, the answers file's grader.
    const defaultPersona = { basePersonaId: 'schema-maintainer', lensId: 'neutral' } as const
    const grader: GraderInput | undefined =
        judge !== undefined && built.model !== null
            ? {
                  name: 'judge-command',
                  version: '1',
                  llmModel: built.model,
                  harness: built.harness,
                  persona: answersFile.grader?.persona ?? defaultPersona
              }
            : options.estimate === true
              ? // The persona a judge run would use, so the estimated requests are the ones it would send.
                {
                    name: 'estimate',
                    version: '1',
                    llmModel: 'none',
                    persona: answersFile.grader?.persona ?? defaultPersona
                }
              : answersFile.grader
    return { judge, grader, denyEnv }
}
