import { SEVERITY } from '../../model/constants.js'
import { ErrorCodes, Island, RebuildIndex, type ExportJson, type Issue, type RebuildIndexJson } from '../../index.js'
import { EXIT, type CliIo } from '../io.js'
import { absolute, nodeFs } from '../node.js'

function report(issues: readonly Issue[], io: CliIo): void {
    for (const issue of issues.filter((i) => i.severity !== SEVERITY.info))
        io.stderr(
            `${issue.severity === SEVERITY.error ? 'error  ' : 'warning'} ${ErrorCodes.format({ issue }).text ?? issue.message}\n`
        )
}

/**
 * `rebuild-index <dir>`: rebuilds `index.json` of a namespace (`providers/<ns>`) or selection (`selections/<sel>`)
 * folder.
 */
export async function rebuildIndexCommand(
    args: readonly string[],
    options: { json: boolean; now?: string },
    io: CliIo
): Promise<number> {
    if (args.length !== 1) {
        io.stderr('rebuild-index: name exactly one namespace or selection folder\n')
        return EXIT.USAGE
    }
    const dir = absolute(args[0] as string, io.cwd).replace(/\/+$/, '')
    const parts = dir.split('/')
    const kind = parts[parts.length - 2]
    const now = options.now ?? new Date().toISOString()
    const fs = nodeFs()
    const result =
        kind === 'selections'
            ? await RebuildIndex.rebuildSelectionIndex({
                  fs,
                  selectionDir: dir,
                  providersRoot: [...parts.slice(0, -2), 'providers'].join('/'),
                  now
              })
            : kind === 'providers'
              ? await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: dir, now })
              : null
    if (result === null) {
        io.stderr(
            'rebuild-index: the folder must be <island>/providers/<namespace> or <island>/selections/<selection>\n'
        )
        return EXIT.USAGE
    }
    report(result.errors, io)
    const index = result.index as { status?: string; grade?: string } | null
    // `ok` says whether the rebuild ran; the rollup status is `index.status`.
    if (options.json) {
        const document: RebuildIndexJson = {
            ok: result.status,
            indexPath: result.indexPath,
            index: result.index,
            errors: result.errors
        }
        io.stdout(`${JSON.stringify(document, null, 2)}\n`)
    } else
        io.stdout(
            `${result.indexPath ?? '-'}: ${index?.status ?? 'not written'}${index?.grade !== undefined ? `, grade ${index.grade}` : ''}\n`
        )
    return result.status
        ? result.errors.some((e) => e.severity === SEVERITY.error)
            ? EXIT.FINDINGS
            : EXIT.OK
        : EXIT.FINDINGS
}

/**
 * `export <namespace|selection> <dir> --island <root>`: exports a graded namespace (or `--selection`) into a new
 * folder.
 */
export async function exportCommand(
    args: readonly string[],
    options: { island?: string; selection: boolean; includeSchemas: boolean; json: boolean },
    io: CliIo
): Promise<number> {
    if (args.length !== 2 || options.island === undefined) {
        io.stderr('export: usage: export <namespace> <dir> --island <root> [--selection] [--include-schemas]\n')
        return EXIT.USAGE
    }
    const [name, out] = args as [string, string]
    const result = await Island.exportTarget({
        fs: nodeFs(),
        root: absolute(options.island, io.cwd),
        target: options.selection ? { selection: name } : { namespace: name },
        exportDir: absolute(out, io.cwd),
        includeSchemas: options.includeSchemas
    })
    report(result.errors, io)
    const written = result.files.length + (result.indexExportPath !== null ? 1 : 0)
    const document: ExportJson = { ok: result.status, ...result }
    if (options.json) io.stdout(`${JSON.stringify(document, null, 2)}\n`)
    else if (result.status)
        io.stdout(
            `exported ${result.flow} ${name} to ${result.exportDir} (${written} ${written === 1 ? 'file' : 'files'}: index.json${result.files.length > 0 ? ` and ${result.files.length} more` : ''})\n`
        )
    if (result.status) return EXIT.OK
    // A folder that exists or lies inside the island is a usage problem, not a finding about the grading.
    return result.errors.some(
        (e) => e.code === 'EXP-003' || e.code === 'EXP-006' || e.code === 'EXP-001' || e.code.startsWith('FS-')
    )
        ? EXIT.USAGE
        : EXIT.FINDINGS
}
