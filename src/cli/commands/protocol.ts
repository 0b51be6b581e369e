import { SEVERITY } from '../../model/constants.js'
import { readFile } from 'node:fs/promises'
import { importSchemaLoader } from '../../grade/loader.js'
import { readModuleSource } from '../../schema/source-loader.js'
import {
    ErrorCodes,
    gradeSingleSchema,
    parseJson,
    ScoringProtocol,
    SchemaCheck,
    type ConsumeScoresJson,
    type HttpPort,
    type Issue
} from '../../index.js'
import { EXIT, type CliIo } from '../io.js'
import { aboutBeside, absolute, httpPort, nodeFs } from '../node.js'
import { promptsMismatch, storeReport } from './protocol-scores.js'
import { definedFields } from '../../model/fields.js'

function printIssues(issues: readonly Issue[], io: CliIo): void {
    for (const issue of issues.filter((i) => i.severity !== SEVERITY.info))
        io.stderr(
            `${issue.severity === SEVERITY.error ? 'error  ' : 'warning'} ${ErrorCodes.format({ issue }).text ?? issue.message}\n`
        )
}

async function loadMain(path: string, trustedImport: boolean): Promise<{ main: unknown; text: string }> {
    const text = await readFile(path, 'utf8')
    // Importing runs the module's top level: only with --trusted-import; otherwise the syntax tree is read.
    if (trustedImport) {
        const mod = await importSchemaLoader.load(path)
        return { main: mod.main ?? mod.schema, text }
    }
    const read = readModuleSource({ source: text })
    const problem = read.errors.find((e) => e.severity === SEVERITY.error)
    if (read.module === null || problem !== undefined)
        throw new Error(problem !== undefined ? `${problem.code}: ${problem.message}` : 'unreadable module')
    return { main: read.module.main ?? read.module.schema, text }
}

/**
 * `emit-prompts <schema.mjs>`: prints the Scoring Protocol v1 prompts.json for one schema; with `--areas`, an answers
 * file of its open area units.
 */
export async function emitPromptsCommand(
    args: readonly string[],
    options: {
        schemaId?: string
        areas?: boolean
        now?: string
        trustedImport?: boolean
        recordings?: string
        live?: boolean
    },
    io: CliIo
): Promise<number> {
    if (args.length !== 1) {
        io.stderr('emit-prompts: name exactly one schema file\n')
        return EXIT.USAGE
    }
    const path = absolute(args[0] as string, io.cwd)
    // A tool's unit is asked only once its tests ran: --recordings or --live run them, as for grade.
    if (options.areas === true)
        return emitAreaPrompts(
            path,
            options.now ?? new Date().toISOString(),
            io,
            await httpPort({
                live: options.live === true,
                ...(options.recordings !== undefined ? { recordings: absolute(options.recordings, io.cwd) } : {})
            })
        )
    let loaded: Awaited<ReturnType<typeof loadMain>>
    try {
        loaded = await loadMain(path, options.trustedImport === true)
    } catch (cause) {
        io.stderr(`emit-prompts: cannot load ${path}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
    const main = loaded.main as { namespace?: unknown } | undefined
    const base =
        path
            .split('/')
            .pop()
            ?.replace(/\.mjs$/, '') ?? 'schema'
    const schemaId = options.schemaId ?? `${String(main?.namespace)}/${base}`
    const { prompts, errors } = ScoringProtocol.emitPrompts({
        schemaId,
        schemaPath: args[0] as string,
        schema: loaded.main as Readonly<Record<string, unknown>>
    })
    printIssues(errors, io)
    if (prompts === null) return EXIT.FINDINGS
    io.stdout(`${ScoringProtocol.serialize({ value: prompts }).text ?? ''}\n`)
    return EXIT.OK
}

/**
 * The answers file `grade --answers` reads, for the open area units of one schema: `grader` to fill
 * in, `answers[<schemaId>][<unit>]` set to `null` until answered (a null answer leaves the unit open),
 * and per unit the prompt, the question ids and the output schema the answer must match.
 */
async function emitAreaPrompts(path: string, now: string, io: CliIo, http: HttpPort | undefined): Promise<number> {
    const fs = nodeFs()
    const about = await aboutBeside(path)
    // The persona of persona-bound prompts (about-namespace); the answers file carries the same one back.
    const namespace = await namespaceOf(path)
    const grader = {
        name: '<your harness>',
        version: '<its version>',
        llmModel: '<the model>',
        persona: { basePersonaId: 'schema-maintainer' as const, lensId: namespace ?? 'neutral' }
    }
    const result = await gradeSingleSchema({
        schemaPath: path,
        grader,
        options: {
            sourceFs: fs,
            now,
            ...definedFields({ http, about })
        }
    })
    printIssues(
        result.errors.filter((e) => e.severity === SEVERITY.error),
        io
    )
    const grading = result.grading
    if (grading === null) return EXIT.FINDINGS
    const units = Object.fromEntries(
        result.prompts.map((p) => [
            p.unit,
            {
                area: p.area,
                prompt: p.prompt,
                questions: p.questions,
                outputSchema: p.outputSchema,
                envelope: p.envelope
            }
        ])
    )
    const file = {
        grader,
        answers: { [grading.schemaId]: Object.fromEntries(result.prompts.map((p) => [p.unit, null])) },
        prompts: { [grading.schemaId]: units }
    }
    io.stdout(`${JSON.stringify(file, null, 2)}\n`)
    return EXIT.OK
}

async function namespaceOf(path: string): Promise<string | null> {
    try {
        const loaded = await loadMain(path, false)
        const namespace = (loaded.main as { namespace?: unknown } | null)?.namespace
        return typeof namespace === 'string' ? namespace : null
    } catch {
        return null
    }
}

/**
 * `consume-scores <prompts.json> <scores.json> --schema <schema.mjs>`: validates the scores and prints the grade
 * report.
 */
export async function consumeScoresCommand(
    args: readonly string[],
    options: { schema?: string; now?: string; json?: boolean; island?: string; trustedImport?: boolean },
    io: CliIo
): Promise<number> {
    const json = options.json === true
    // With --json, stdout always carries exactly one JSON document: the report, or why there is none.
    const done = (code: number, body: Omit<ConsumeScoresJson, 'ok'>): number => {
        const document: ConsumeScoresJson = { ok: code === EXIT.OK, ...body }
        if (json) io.stdout(`${JSON.stringify(document, null, 2)}\n`)
        return code
    }
    if (args.length !== 2 || options.schema === undefined) {
        io.stderr(
            'consume-scores: usage: consume-scores <prompts.json> <scores.json> --schema <schema.mjs> [--island <dir>]\n'
        )
        return done(EXIT.USAGE, {
            report: null,
            errors: [
                { code: 'CLI-USAGE', message: 'consume-scores <prompts.json> <scores.json> --schema <schema.mjs>' }
            ]
        })
    }
    let promptsText: string
    let scoresText: string
    let loaded: Awaited<ReturnType<typeof loadMain>>
    const schemaPath = absolute(options.schema, io.cwd)
    try {
        promptsText = await io.readText(args[0] as string)
        scoresText = await io.readText(args[1] as string)
        loaded = await loadMain(schemaPath, options.trustedImport === true)
    } catch (cause) {
        const message = cause instanceof Error ? cause.message : String(cause)
        io.stderr(`consume-scores: ${message}\n`)
        return done(EXIT.USAGE, { report: null, errors: [{ code: 'CLI-IO', message }] })
    }
    const prompts = ScoringProtocol.validatePrompts({ text: promptsText })
    if (!prompts.valid || prompts.prompts === null) {
        printIssues(prompts.errors, io)
        return done(EXIT.FINDINGS, { report: null, errors: prompts.errors })
    }
    const mismatch = promptsMismatch(prompts.prompts, loaded.main, schemaPath)
    if (mismatch !== null) {
        printIssues([mismatch], io)
        return done(EXIT.FINDINGS, { report: null, errors: [mismatch] })
    }
    const scores = parseJson({ text: scoresText })
    if (scores.errors.length > 0) {
        printIssues(scores.errors, io)
        return done(EXIT.FINDINGS, { report: null, errors: scores.errors })
    }
    const validation = SchemaCheck.validateMain({ main: loaded.main })
    const failures = validation.errors.filter((e) => e.severity === SEVERITY.error)
    const now = options.now ?? new Date().toISOString()
    const built = ScoringProtocol.buildReport({
        prompts: prompts.prompts,
        scores: scores.value,
        schemaSource: loaded.text,
        validation: {
            passed: failures.length === 0,
            errors: failures.map((e) => ErrorCodes.format({ issue: e }).text ?? e.message)
        },
        now
    })
    printIssues(built.errors, io)
    if (built.report === null) return done(EXIT.FINDINGS, { report: null, errors: built.errors })
    let written: string | null = null
    const errors: Issue[] = []
    if (options.island !== undefined) {
        const stored = await storeReport(built.report, loaded, schemaPath, absolute(options.island, io.cwd), now)
        written = stored.path
        errors.push(...stored.errors)
        printIssues(stored.errors, io)
    }
    if (!json) {
        io.stdout(`${ScoringProtocol.serialize({ value: built.report }).text ?? ''}\n`)
        if (written !== null) io.stderr(`written: ${written}\n`)
    }
    const failed = !built.report.validationPassed || errors.some((e) => e.severity === SEVERITY.error)
    return done(failed ? EXIT.FINDINGS : EXIT.OK, { report: built.report, trace: built.trace, written, errors })
}
