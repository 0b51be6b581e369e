import { SEVERITY } from '../../model/constants.js'
import {
    acceptGradingEntry,
    Artifacts,
    ErrorCodes,
    type EntryExpectation,
    type IssueLike,
    type ValidateJson
} from '../../index.js'
import { EXIT, table, type CliIo } from '../io.js'
import { definedFields } from '../../model/fields.js'

interface FileVerdict {
    readonly file: string
    readonly kind: string
    readonly valid: boolean
    /** Codes of the catalogue, and `IO` for a file that could not be read. */
    readonly errors: IssueLike[]
}

/** `validate`'s options: the artefact checks, and registry intake's for grading entries (docs/registry.md). */
export interface ValidateOptions {
    readonly json: boolean
    readonly strict?: boolean
    readonly kind?: string
    readonly now?: string
    /** The schema module's file: `expect.source`. */
    readonly schema?: string
    readonly schemaId?: string
    readonly tool?: string
    /** The DSSE envelope's file, for the one entry named. */
    readonly envelope?: string
    /** The trusted keys' file: a JSON array of JWKs, or a JWK Set. */
    readonly trustedKeys?: string
}

/** What registry intake reads besides the entries: the facts stated, the envelope, the trusted keys. */
interface IntakeInput {
    readonly expect: EntryExpectation
    readonly envelope?: string
    readonly trustedKeys?: unknown
}

const usesIntake = (o: ValidateOptions): boolean =>
    [o.schema, o.schemaId, o.tool, o.envelope, o.trustedKeys].some((v) => v !== undefined)

/** Reads the intake files; a message on stderr and `null` when one cannot be read or parsed. */
async function intakeOf(options: ValidateOptions, io: CliIo): Promise<IntakeInput | null> {
    try {
        const source = options.schema !== undefined ? await io.readText(options.schema) : undefined
        const envelope = options.envelope !== undefined ? await io.readText(options.envelope) : undefined
        let trustedKeys: unknown
        if (options.trustedKeys !== undefined) {
            const parsed = JSON.parse(await io.readText(options.trustedKeys)) as unknown
            // A JWK Set (RFC 7517 §5) or a plain array of keys.
            trustedKeys =
                parsed !== null && typeof parsed === 'object' && 'keys' in parsed
                    ? (parsed as { keys: unknown }).keys
                    : parsed
        }
        const expect: EntryExpectation = {
            ...definedFields({ source, schemaId: options.schemaId, tool: options.tool })
        }
        return {
            expect,
            ...definedFields({ envelope, trustedKeys })
        }
    } catch (cause) {
        io.stderr(`validate: cannot read the intake files (${cause instanceof Error ? cause.message : 'unreadable'})\n`)
        return null
    }
}

/** One file as registry intake checks it: a grading entry, with the stated facts, the envelope and the keys. */
function intakeVerdict(
    text: string,
    intake: IntakeInput,
    strict: boolean,
    now: string | undefined
): Omit<FileVerdict, 'file'> {
    const result = acceptGradingEntry({
        text,
        strict,
        ...definedFields({ now }),
        ...(Object.keys(intake.expect).length > 0 ? { expect: intake.expect } : {}),
        ...definedFields({ envelope: intake.envelope, trustedKeys: intake.trustedKeys })
    })
    return { kind: 'grading-entry', valid: result.valid, errors: result.errors }
}

/**
 * `validate <file…>`: detects each file's artefact kind and prints its verdict with codes and paths.
 * `--strict` checks grading entries as registry intake; its validation time is `--now`, else the clock's.
 * `--schema`, `--schema-id`, `--tool`, `--envelope` and `--trusted-keys` check each file as a grading entry against
 * what the registry holds (acceptGradingEntry).
 */
export async function validateCommand(files: readonly string[], options: ValidateOptions, io: CliIo): Promise<number> {
    if (files.length === 0) {
        io.stderr('validate: name at least one file\n')
        return EXIT.USAGE
    }
    if (options.envelope !== undefined && files.length !== 1) {
        io.stderr('validate: --envelope belongs to one entry; name exactly one file\n')
        return EXIT.USAGE
    }
    const intake = usesIntake(options) ? await intakeOf(options, io) : null
    if (usesIntake(options) && intake === null) return EXIT.USAGE
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
        const result =
            intake !== null
                ? intakeVerdict(text, intake, options.strict === true, now)
                : Artifacts.validate({
                      json: text,
                      ...definedFields({ kind: options.kind }),
                      ...(options.strict === true ? { strict: true } : {}),
                      ...definedFields({ now })
                  })
        verdicts.push({ file, ...result })
    }
    if (options.json) {
        const document: ValidateJson = { files: verdicts }
        io.stdout(`${JSON.stringify(document, null, 2)}\n`)
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
                    `  ${v.file}: ${issue.severity === SEVERITY.error ? 'error  ' : 'warning'} ${ErrorCodes.format({ issue }).text ?? issue.message}\n`
                )
            }
        }
    }
    if (ioFailure) return EXIT.USAGE
    return verdicts.every((v) => v.valid) ? EXIT.OK : EXIT.FINDINGS
}
