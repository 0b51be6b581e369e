import { readFile } from 'node:fs/promises'
import { importSchemaLoader } from '../../grade/loader.js'
import { readModuleSource } from '../../schema/source-loader.js'
import { ErrorCodes, parseJson, ScoringProtocol, SchemaCheck, type Issue } from '../../index.js'
import { EXIT, type CliIo } from '../io.js'
import { absolute } from '../node.js'

function printIssues(issues: readonly Issue[], io: CliIo): void {
    for (const issue of issues.filter((i) => i.severity !== 'info')) io.stderr(`${issue.severity === 'error' ? 'error  ' : 'warning'} ${ErrorCodes.format({ issue }).text ?? issue.message}\n`)
}

async function loadMain(path: string, trustedImport: boolean): Promise<{ main: unknown; text: string }> {
    const text = await readFile(path, 'utf8')
    // Importing runs the module's top level: only with --trusted-import; otherwise the syntax tree is read.
    if (trustedImport) {
        const mod = await importSchemaLoader.load(path)
        return { main: mod.main ?? mod.schema, text }
    }
    const read = readModuleSource({ source: text })
    const problem = read.errors.find((e) => e.severity === 'error')
    if (read.module === null || problem !== undefined) throw new Error(problem !== undefined ? `${problem.code}: ${problem.message}` : 'unreadable module')
    return { main: read.module.main ?? read.module.schema, text }
}

/** `emit-prompts <schema.mjs>`: prints the Scoring Protocol v1 prompts.json for one schema. */
export async function emitPromptsCommand(args: readonly string[], options: { schemaId?: string; trustedImport?: boolean }, io: CliIo): Promise<number> {
    if (args.length !== 1) {
        io.stderr('emit-prompts: name exactly one schema file\n')
        return EXIT.USAGE
    }
    const path = absolute(args[0] as string, io.cwd)
    let loaded
    try {
        loaded = await loadMain(path, options.trustedImport === true)
    } catch (cause) {
        io.stderr(`emit-prompts: cannot load ${path}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
    const main = loaded.main as { namespace?: unknown } | undefined
    const base = path.split('/').pop()?.replace(/\.mjs$/, '') ?? 'schema'
    const schemaId = options.schemaId ?? `${String(main?.namespace)}/${base}`
    const { prompts, errors } = ScoringProtocol.emitPrompts({ schemaId, schemaPath: args[0], schema: loaded.main })
    printIssues(errors, io)
    if (prompts === null) return EXIT.FINDINGS
    io.stdout((ScoringProtocol.serialize({ value: prompts }).text ?? '') + '\n')
    return EXIT.OK
}

/** `consume-scores <prompts.json> <scores.json> --schema <schema.mjs>`: validates the scores and prints the grade report. */
export async function consumeScoresCommand(args: readonly string[], options: { schema?: string; now?: string; trustedImport?: boolean }, io: CliIo): Promise<number> {
    if (args.length !== 2 || options.schema === undefined) {
        io.stderr('consume-scores: usage: consume-scores <prompts.json> <scores.json> --schema <schema.mjs>\n')
        return EXIT.USAGE
    }
    let promptsText: string
    let scoresText: string
    let loaded
    try {
        promptsText = await io.readText(args[0] as string)
        scoresText = await io.readText(args[1] as string)
        loaded = await loadMain(absolute(options.schema, io.cwd), options.trustedImport === true)
    } catch (cause) {
        io.stderr(`consume-scores: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
    const prompts = ScoringProtocol.validatePrompts({ text: promptsText })
    if (!prompts.valid) {
        printIssues(prompts.errors, io)
        return EXIT.FINDINGS
    }
    const scores = parseJson({ text: scoresText })
    if (scores.errors.length > 0) {
        printIssues(scores.errors, io)
        return EXIT.FINDINGS
    }
    const validation = SchemaCheck.validateMain({ main: loaded.main })
    const failures = validation.errors.filter((e) => e.severity === 'error')
    const built = ScoringProtocol.buildReport({
        prompts: prompts.prompts,
        scores: scores.value,
        schemaSource: loaded.text,
        validation: { passed: failures.length === 0, errors: failures.map((e) => ErrorCodes.format({ issue: e }).text ?? e.message) },
        now: options.now ?? new Date().toISOString()
    })
    printIssues(built.errors, io)
    if (built.report === null) return EXIT.FINDINGS
    io.stdout((ScoringProtocol.serialize({ value: built.report }).text ?? '') + '\n')
    return built.report.validationPassed ? EXIT.OK : EXIT.FINDINGS
}
