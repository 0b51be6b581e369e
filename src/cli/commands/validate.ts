import { SEVERITY } from '../../model/constants.js'
import { Artifacts, ErrorCodes, type IssueLike } from '../../index.js'
import { EXIT, table, type CliIo } from '../io.js'

interface FileVerdict {
    readonly file: string
    readonly kind: string
    readonly valid: boolean
    /** Codes of the catalogue, and `IO` for a file that could not be read. */
    readonly errors: IssueLike[]
}

/**
 * `validate <file…>`: detects each file's artefact kind and prints its verdict with codes and paths.
 * `--strict` checks grading entries as registry intake; its validation time is `--now`, else the clock's.
 */
export async function validateCommand(
    files: readonly string[],
    options: { json: boolean; strict?: boolean; kind?: string; now?: string },
    io: CliIo
): Promise<number> {
    if (files.length === 0) {
        io.stderr('validate: name at least one file\n')
        return EXIT.USAGE
    }
    const verdicts: FileVerdict[] = []
    const now = options.now ?? (options.strict === true ? new Date().toISOString() : undefined)
    let ioFailure = false
    for (const file of files) {
        let text: string
        try {
            text = await io.readText(file)
        } catch (cause) {
            ioFailure = true
            const reason =
                cause instanceof Error && 'code' in cause ? String((cause as { code: unknown }).code) : 'unreadable'
            verdicts.push({
                file,
                kind: 'unreadable',
                valid: false,
                errors: [{ code: 'IO', severity: SEVERITY.error, message: `cannot read file (${reason})`, path: '' }]
            })
            continue
        }
        const result = Artifacts.validate({
            json: text,
            ...(options.kind !== undefined ? { kind: options.kind } : {}),
            ...(options.strict === true ? { strict: true } : {}),
            ...(now !== undefined ? { now } : {})
        })
        verdicts.push({ file, ...result })
    }
    if (options.json) {
        io.stdout(JSON.stringify({ files: verdicts }, null, 2) + '\n')
    } else {
        io.stdout(
            table(
                verdicts.map((v) => ({
                    file: v.file,
                    kind: v.kind,
                    verdict: v.valid ? 'valid' : 'INVALID',
                    errors: v.errors.filter((e) => e.severity === SEVERITY.error).length,
                    warnings: v.errors.filter((e) => e.severity === SEVERITY.warning).length
                })),
                ['file', 'kind', 'verdict', 'errors', 'warnings']
            )
        )
        for (const v of verdicts) {
            for (const issue of v.errors.filter((e) => e.severity !== SEVERITY.info)) {
                io.stdout(
                    `  ${v.file}: ${issue.severity === SEVERITY.error ? 'error  ' : 'warning'} ` +
                        `${ErrorCodes.format({ issue }).text ?? issue.message}\n`
                )
            }
        }
    }
    if (ioFailure) return EXIT.USAGE
    return verdicts.every((v) => v.valid) ? EXIT.OK : EXIT.FINDINGS
}
