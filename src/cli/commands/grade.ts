import { readFile } from 'node:fs/promises'
import { importSchemaLoader } from '../../grade/loader.js'
import { ErrorCodes, gradeSingleSchema, type GradeSingleSchemaInput, type GradeSingleSchemaResult, type GraderInput, type Issue } from '../../index.js'
import { EXIT, table, type CliIo } from '../io.js'
import { aboutBeside, absolute, httpPort, nodeFs, schemaFiles } from '../node.js'

export interface GradeCommandOptions {
    readonly json: boolean
    readonly island?: string
    readonly answers?: string
    readonly live: boolean
    readonly recordings?: string
    readonly now?: string
    /** Import (run) each schema module instead of reading its syntax tree; only for trusted sources. */
    readonly trustedImport?: boolean
}

/** The answers file: the grader identity and, per schema id, the area outputs keyed by unit. */
interface AnswersFile {
    readonly grader?: GraderInput
    readonly answers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

function topIssues(errors: readonly Issue[]): string {
    const shown = errors.filter((e) => e.severity === 'error').concat(errors.filter((e) => e.severity === 'warning'))
    const codes = [...new Set(shown.map((e) => e.code))]
    return codes.length === 0 ? '-' : codes.slice(0, 3).join(' ') + (codes.length > 3 ? ` +${codes.length - 3}` : '')
}

/** `grade <schema.mjs|dir…>`: grades each schema (offline by default) and prints one row per schema. */
export async function gradeCommand(paths: readonly string[], options: GradeCommandOptions, io: CliIo): Promise<number> {
    if (paths.length === 0) {
        io.stderr('grade: name at least one schema file or folder\n')
        return EXIT.USAGE
    }
    let files: string[] = []
    try {
        for (const p of paths) files.push(...(await schemaFiles(absolute(p, io.cwd))))
    } catch (cause) {
        io.stderr(`grade: ${cause instanceof Error ? cause.message : String(cause)}\n`)
        return EXIT.USAGE
    }
    files = [...new Set(files)]
    if (files.length === 0) {
        io.stderr('grade: no .mjs schema files found\n')
        return EXIT.USAGE
    }
    let answersFile: AnswersFile = {}
    if (options.answers !== undefined) {
        try {
            answersFile = JSON.parse(await readFile(absolute(options.answers, io.cwd), 'utf8')) as AnswersFile
        } catch (cause) {
            io.stderr(`grade: cannot read answers ${options.answers}: ${cause instanceof Error ? cause.message : String(cause)}\n`)
            return EXIT.USAGE
        }
    }
    const fs = nodeFs()
    const now = options.now ?? new Date().toISOString()
    const results: Array<{ file: string; result: GradeSingleSchemaResult }> = []
    for (const [i, file] of files.entries()) {
        if (io.isTTY && files.length > 1) io.stderr(`\r[${i + 1}/${files.length}] ${file}`.padEnd(80))
        // Server-param values come from the environment, only for the keys the loaded schema requires,
        // and go only to the HTTP port. gradeSingleSchema reads the schema's syntax tree; it imports it only with --trusted-import.
        const serverParams = (keys: readonly string[]): Record<string, string> => Object.fromEntries(keys.filter((k) => typeof io.env[k] === 'string').map((k) => [k, io.env[k] as string]))
        const http = await httpPort({ live: options.live, ...(options.recordings !== undefined ? { recordings: absolute(options.recordings, io.cwd) } : {}) })
        const about = await aboutBeside(file)
        const base = file.replace(/\\/g, '/').split('/').pop()?.replace(/\.mjs$/, '') ?? ''
        const found = Object.entries(answersFile.answers ?? {}).find(([id]) => id.endsWith(`.${base}`))?.[1]
        // A unit answered with null (as emit-prompts --areas writes them) is still open.
        const schemaAnswers = found === undefined || found === null ? undefined : Object.fromEntries(Object.entries(found).filter(([, v]) => v !== null))
        // The answers file is data read at run time: the library checks the grader and answers it holds (GRA-001/002/009).
        const result = await gradeSingleSchema({
            schemaPath: file,
            ...(answersFile.grader !== undefined ? { grader: answersFile.grader } : {}),
            options: {
                sourceFs: fs,
                now,
                ...(options.trustedImport === true ? { trustedLoader: importSchemaLoader } : {}),
                serverParams,
                ...(http !== undefined ? { http } : {}),
                ...(about !== undefined ? { about } : {}),
                ...(schemaAnswers !== undefined ? { answers: schemaAnswers } : {}),
                ...(options.island !== undefined ? { fs, root: absolute(options.island, io.cwd) } : {})
            }
        } as GradeSingleSchemaInput)
        results.push({ file, result })
    }
    if (io.isTTY && files.length > 1) io.stderr('\n')

    if (options.json) {
        io.stdout(
            JSON.stringify(
                {
                    now,
                    schemas: results.map(({ file, result }) => ({
                        file,
                        grading: result.grading,
                        // The open units, ready to be answered: emit-prompts --areas writes the same into an answers file.
                        prompts: result.prompts.map((p) => ({ unit: p.unit, area: p.area, questions: p.questions })),
                        errors: result.errors
                    }))
                },
                null,
                2
            ) + '\n'
        )
    } else {
        const rows = results.map(({ file, result }) => {
            const g = result.grading
            const graded = g?.units.filter((u) => u.status === 'graded' || u.status === 'rejected').length ?? 0
            const status = g === null ? 'error' : g.veto !== null ? 'rejected' : g.units.some((u) => u.status === 'blocked') ? `${g.mode}, blocked units` : g.mode
            // A provisional grade rests on deterministic answers only: always shown in parentheses.
            const mark = (grade: string | null | undefined): string => (grade === null || grade === undefined ? '-' : g?.mode === 'provisional' && grade !== 'REJECTED' ? `(${grade})` : grade)
            return {
                schema: g?.schemaId ?? file.split('/').pop() ?? file,
                areas: g === null ? '-' : `${graded}/${g.units.length}`,
                grade: mark(g?.grade),
                schemaGrade: mark(g?.schemaGrade),
                status: g?.rollupStatus !== null && g?.rollupStatus !== undefined ? `${status} · index ${g.rollupStatus}${g.rollupGrade !== null ? ` ${g.rollupGrade}` : ''}` : status,
                issues: topIssues(result.errors)
            }
        })
        io.stdout(table(rows, ['schema', 'areas', 'grade', 'schemaGrade', 'status', 'issues']))
        for (const { file, result } of results) {
            const name = result.grading?.schemaId ?? file
            for (const unit of result.grading?.units ?? []) {
                if (unit.status === 'blocked' || unit.status === 'rejected' || unit.status === 'error') io.stdout(`  ${name}: ${unit.unit} ${unit.status}${unit.reason !== null ? ` — ${unit.reason}` : ''}\n`)
            }
            for (const issue of result.errors.filter((e) => e.severity === 'error').slice(0, 5)) io.stdout(`  ${name}: ${ErrorCodes.format({ issue }).text ?? issue.message}\n`)
        }
        io.stdout('\ngrade = the headline grade: the worst unit of the schema, as index.json rolls nodes up; schemaGrade = its tools-aggregate-schema grade.\n')
        if (results.some(({ result }) => result.grading?.mode === 'provisional')) {
            io.stdout('(grade) = provisional, from deterministic answers only; pass --answers to complete the non-deterministic areas.\n')
        }
    }
    const findings = results.some(({ result }) => result.grading === null || result.errors.some((e) => e.severity === 'error') || result.grading.veto !== null || result.grading.units.some((u) => u.status === 'blocked' || u.status === 'error'))
    return findings ? EXIT.FINDINGS : EXIT.OK
}
