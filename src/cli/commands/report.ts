import { SEVERITY } from '../../model/constants.js'
import { writeFile } from 'node:fs/promises'
import { ErrorCodes, renderIslandReport, type ReportJson } from '../../index.js'
import { EXIT, redacted, type CliIo } from '../io.js'
import { absolute, nodeFs } from '../node.js'
import { definedFields } from '../../model/fields.js'

/**
 * `report <island> [--out report.html] [--baseline <island>]`: one self-contained HTML page of a
 * graded island; with a baseline (an earlier copy of the island) it lists the schemas graded worse since.
 */
export async function reportCommand(
    args: readonly string[],
    options: { json: boolean; out?: string; baseline?: string; rules?: Readonly<Record<string, unknown>> },
    io: CliIo
): Promise<number> {
    if (args.length !== 1) {
        io.stderr('report: usage: report <island> [--out report.html] [--baseline <island>]\n')
        return EXIT.USAGE
    }
    const root = absolute(args[0] as string, io.cwd)
    const report = await renderIslandReport({
        fs: nodeFs(),
        root,
        ...definedFields({ rules: options.rules }),
        ...(options.baseline !== undefined
            ? { baseline: { fs: nodeFs(), root: absolute(options.baseline, io.cwd) } }
            : {})
    })
    for (const issue of report.errors)
        io.stderr(
            `${issue.severity === SEVERITY.error ? 'error  ' : 'warning'} ${ErrorCodes.format({ issue }).text ?? issue.message}\n`
        )
    // Not an island, or a baseline that is none: nothing worth writing.
    if (report.errors.some((e) => e.code === 'RPT-001' || e.code === 'RPT-004')) return EXIT.USAGE
    let out: string | null = null
    if (options.out !== undefined) {
        out = absolute(options.out, io.cwd)
        try {
            await writeFile(out, redacted(io, report.html), 'utf8')
        } catch (cause) {
            io.stderr(
                `report: cannot write ${options.out}: ${cause instanceof Error ? cause.message : String(cause)}\n`
            )
            return EXIT.USAGE
        }
    }
    if (options.json) {
        const document: ReportJson = {
            ok: report.errors.length === 0,
            out,
            namespaces: report.namespaces,
            selections: report.selections,
            errors: report.errors,
            ...(out === null ? { html: report.html } : {})
        }
        io.stdout(`${JSON.stringify(document, null, 2)}\n`)
    } else if (out === null) io.stdout(report.html)
    else {
        const selections = report.selections > 0 ? `, ${report.selections} selections` : ''
        io.stdout(
            `wrote ${out}: ${report.namespaces} ${report.namespaces === 1 ? 'namespace' : 'namespaces'}${selections}\n`
        )
    }
    // An unreadable index or entry is a finding about the island.
    return report.errors.length > 0 ? EXIT.FINDINGS : EXIT.OK
}
