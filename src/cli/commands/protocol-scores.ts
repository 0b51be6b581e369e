// `consume-scores`' two steps beside the protocol: the prompts must be those of the schema given, and
// with `--island` the report is stored there as the schema's tools-aggregate-schema entry.
import { createIssue as createCliIssue } from '../../errors/issue.js'
import { HashGenerator, Island, ScoringProtocol, type GradeReportV1, type Issue, type PromptsV1 } from '../../index.js'
import { nodeFs } from '../node.js'

/** The schema a prompts.json was emitted for must be the one given: same id, and the same prompts from it. */
export function promptsMismatch(prompts: PromptsV1, main: unknown, schemaPath: string): Issue | null {
    const namespace = (main as { namespace?: unknown } | null)?.namespace
    const base =
        schemaPath
            .split('/')
            .pop()
            ?.replace(/\.mjs$/, '') ?? ''
    const id = `${String(namespace)}/${base}`
    if (prompts.schemaId !== id)
        return createCliIssue('SPV-020', '/prompts/schemaId', {
            expected: prompts.schemaId,
            actual: id,
            detail: 'another schema id'
        })
    const again = ScoringProtocol.emitPrompts({
        schemaId: prompts.schemaId,
        schemaPath: prompts.schemaPath,
        schema: main as Readonly<Record<string, unknown>>
    })
    if (again.prompts === null || JSON.stringify(again.prompts.prompts) !== JSON.stringify(prompts.prompts)) {
        return createCliIssue('SPV-020', '/prompts/prompts', {
            expected: prompts.schemaId,
            actual: schemaPath,
            detail: 'the prompt text differs: another version of the schema'
        })
    }
    return null
}

/**
 * Imports the schema into the island and writes the report as its tools-aggregate-schema entry, so index.json reflects
 * it.
 */
export async function storeReport(
    report: GradeReportV1,
    loaded: { main: unknown; text: string },
    schemaPath: string,
    root: string,
    now: string
): Promise<{ path: string | null; errors: Issue[] }> {
    const main = loaded.main as { namespace?: unknown; version?: unknown }
    const fileName = schemaPath.split('/').pop() ?? 'schema.mjs'
    const schemaHash = HashGenerator.computeSchemaHash({ schema: main }).short
    const converted = ScoringProtocol.reportToGradingEntry({
        report,
        version: String(main.version),
        now,
        ...(schemaHash !== null ? { schemaHash } : {})
    })
    if (converted.entry === null) return { path: null, errors: converted.errors }
    const fs = nodeFs()
    const imported = await Island.importProvider({
        fs,
        root,
        now,
        files: [{ name: fileName, text: loaded.text, main }]
    })
    if (!imported.status) return { path: null, errors: imported.errors }
    const schema = imported.imported[0]?.schema ?? fileName.replace(/\.mjs$/, '')
    const result = await Island.writeGrading({
        fs,
        root,
        target: { namespace: String(main.namespace), schema },
        entry: converted.entry,
        now
    })
    return { path: result.path, errors: result.errors }
}
