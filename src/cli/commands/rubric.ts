import { SEVERITY } from '../../model/constants.js'
import { ErrorCodes, parseJson } from '../../index.js'
import { evaluateRubricInput, type RubricJson } from '../../rubrics.js'
import { EXIT, type CliIo } from '../io.js'

/** `rubric <input.json>`: evaluates a judge or workflow rubric input and prints grade, score and report. */
export async function rubricCommand(files: readonly string[], options: { json: boolean }, io: CliIo): Promise<number> {
    if (files.length !== 1) {
        io.stderr('rubric: name exactly one input file\n')
        return EXIT.USAGE
    }
    const file = files[0] as string
    let text: string
    try {
        text = await io.readText(file)
    } catch {
        io.stderr(`rubric: cannot read ${file}\n`)
        return EXIT.USAGE
    }
    const parsed = parseJson({ text })
    const evaluation: RubricJson =
        parsed.errors.length > 0
            ? { system: null, result: null, errors: parsed.errors }
            : evaluateRubricInput({ input: parsed.value })
    const failed = evaluation.errors.some((e) => e.severity === SEVERITY.error)
    if (options.json) {
        io.stdout(`${JSON.stringify(evaluation, null, 2)}\n`)
        return failed ? EXIT.FINDINGS : EXIT.OK
    }
    for (const issue of evaluation.errors) {
        io.stdout(
            `${issue.severity === SEVERITY.error ? 'error  ' : 'warning'} ${ErrorCodes.format({ issue }).text ?? issue.message}\n`
        )
    }
    const result = evaluation.result as Record<string, unknown> | null
    if (result === null) return EXIT.FINDINGS
    io.stdout(`system: ${String(result.system)}\n`)
    if ('finalScore' in result) {
        io.stdout(
            `grade: ${String(result.grade)} (${String(result.label)})  final score: ${String(result.finalScore)}\n`
        )
        const report = result.report as { lines?: readonly string[] } | null
        for (const line of report?.lines ?? []) io.stdout(`  ${line}\n`)
    } else {
        io.stdout(
            `grade: ${String(result.grade)}  passed: ${String(result.passed)}  weighted score: ${String(result.weightedScore)}\n`
        )
        const placement = result.placement as {
            summary?: string
            checks?: ReadonlyArray<{ check: string; status: string; detail: string }>
        } | null
        if (placement?.summary !== undefined) io.stdout(`  ${placement.summary}\n`)
        for (const check of placement?.checks ?? []) io.stdout(`  ${check.check}: ${check.status} — ${check.detail}\n`)
    }
    return failed ? EXIT.FINDINGS : EXIT.OK
}
