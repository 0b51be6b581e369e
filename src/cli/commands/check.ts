// `check`: the pull-request gate. Reads as its stages: read the baseline (or say it is missing), grade
// the paths that still exist (a folder removed since the baseline is reported, not a crash), turn each
// schema into a row with its verdict (ok, fails, unverified, removed), print, write SARIF and the summary.
import { stat } from 'node:fs/promises'
import { UNIT_STATUS } from '../../model/constants.js'
import { colourEnabled, paint } from '../colour.js'
import { EXIT, type CliIo } from '../io.js'
import { absolute } from '../node.js'
import { readBaseline, type BaselineNode } from './check-baseline.js'
import { removedSchemas } from './check-removed.js'
import { checkJson, checkText, writeOutputs, type CheckState } from './check-render.js'
import {
    checkedSchema,
    firstJudgeFailure,
    isLetter,
    notStartedSchema,
    rowOf,
    unreadableSchema,
    unverifiedCause,
    warningGate,
    type CheckedSchema,
    type CheckRow
} from './check-verdict.js'
import { runGrading } from './grade.js'
import type { GradeCommandOptions } from './grade-options.js'
import { fixListsOf, writeReport } from './grade-outputs.js'
import { definedFields } from '../../model/fields.js'

/** What `--baseline-missing` may say: fail the check, or check every schema as new. */
export const BASELINE_MISSING = ['fail', 'new'] as const

export interface CheckCommandOptions extends GradeCommandOptions {
    /** A schema below this grade (or without a grade) fails the check. */
    readonly minGrade?: string
    /** An island folder or one `index.json`: a schema whose grade fell below the one there fails the check. */
    readonly baseline?: string
    /**
     * When the baseline is missing or empty: `fail` (the default) fails the check saying so, `new` checks every schema
     * as new.
     */
    readonly baselineMissing?: string
    /**
     * Fail on every tool not tested here (an environment reason: a missing key, recording, runtime, …), unchanged
     * schemas' too (they are only reported by default; a new or changed one is unverified).
     */
    readonly failOnUntested?: boolean
    /** Fail on a schema the baseline has and the checked folders no longer do (reported as removed by default). */
    readonly failOnRemoved?: boolean
    /**
     * A schema the run could not verify (a failed judge, an interruption) does not fail the check (it is still
     * reported).
     */
    readonly allowUnverified?: boolean
    /** Append a Markdown summary to this file (a CI job summary, e.g. `$GITHUB_STEP_SUMMARY`). */
    readonly summary?: string
    /**
     * Fail the check when the fix lists hold more warnings than this, over all schemas (eslint's `--max-warnings`);
     * notices of the environment are not counted.
     */
    readonly maxWarnings?: number
}

/**
 * `check [<schema.mjs|dir…>]`: grades the schemas as `grade` does (or reads `--island` when no path is
 * given) and exits 1 when a schema is below `--min-grade`, got worse than `--baseline`, has an error
 * finding the baseline did not have, could not be verified by this run (unless `--allow-unverified`),
 * or when the fix lists hold more warnings than `--max-warnings`; 0 otherwise (tools of unchanged schemas not
 * tested here are reported, and fail only with `--fail-on-untested`; a new or changed schema not tested here is
 * unverified); 130 when interrupted; 2 for a usage or environment error.
 */
export async function checkCommand(paths: readonly string[], options: CheckCommandOptions, io: CliIo): Promise<number> {
    // Whatever happens below, the SARIF file and the summary are written (a CI step uploads them `if: always()`).
    const problems: string[] = []
    const said = {
        ...io,
        stderr: (text: string) => {
            problems.push(text.trim())
            io.stderr(text)
        }
    }
    const allowUnverified = options.allowUnverified === true
    const outcome = await checkOutcome(paths, options, said)
    if (typeof outcome === 'number') {
        const wrote = await writeOutputs(options, [], io, {
            failed: 0,
            tooManyWarnings: null,
            problem: problems.join(' ') || 'the check could not run',
            interrupted: null,
            notices: [],
            allowUnverified
        })
        return wrote ? outcome : EXIT.USAGE
    }
    const { rows, interrupted, notices } = outcome
    const failed = rows.filter((r) => r.fails.length > 0).length
    const tooManyWarnings = warningGate(
        rows.flatMap((r) => r.s.fixes),
        options.maxWarnings
    )
    const state: CheckState = { failed, tooManyWarnings, interrupted, problem: null, notices, allowUnverified }
    for (const notice of notices) io.stderr(`check: ${notice}\n`)
    const passed = failed === 0 && tooManyWarnings === null && interrupted === null
    io.stdout(
        options.json
            ? checkJson(rows, state, passed)
            : paint(checkText(rows, state, options.verbose === true), colourEnabled(io.env, io.stdoutIsTTY === true))
    )
    const wrote = await writeOutputs(options, rows, io, state)
    if (interrupted !== null) return EXIT.INTERRUPTED
    if (!wrote) return EXIT.USAGE
    return passed ? EXIT.OK : EXIT.FINDINGS
}

type Outcome = { rows: CheckRow[]; interrupted: readonly string[] | null; notices: string[] }

/** The options checked: what is wrong, in words, or null. */
function wrongOption(options: CheckCommandOptions): string | null {
    if (options.minGrade !== undefined && !(isLetter(options.minGrade) || options.minGrade === 'REJECTED'))
        return `--min-grade must be one of A, B, C, D, F, got ${JSON.stringify(options.minGrade)}`
    if (options.minGrade === 'A')
        return '--min-grade A can never pass: a provider schema is graded autonomously and its grade stops at B (A is reached only in a selection); use --min-grade B'
    if (options.maxWarnings !== undefined && !(Number.isInteger(options.maxWarnings) && options.maxWarnings >= 0))
        return '--max-warnings must be a whole number of 0 or more'
    if (
        options.baselineMissing !== undefined &&
        !(BASELINE_MISSING as readonly string[]).includes(options.baselineMissing)
    )
        return `--baseline-missing must be fail or new, got ${JSON.stringify(options.baselineMissing)}`
    return null
}

/**
 * What the check found: a row per schema, what an interruption skipped and what it says once; or the exit code of an
 * error (the reason on stderr).
 */
async function checkOutcome(
    paths: readonly string[],
    options: CheckCommandOptions,
    io: CliIo
): Promise<Outcome | number> {
    const wrong = wrongOption(options)
    if (wrong !== null) {
        io.stderr(`check: ${wrong}\n`)
        return EXIT.USAGE
    }
    const notices: string[] = []
    const baseline = await baselineOf(options, io, notices)
    if (typeof baseline === 'number') return baseline
    let schemas: CheckedSchema[]
    let interrupted: readonly string[] | null = null
    if (paths.length > 0 || options.pathsListed === true) {
        const graded = await gradedSchemas(paths, options, io, baseline, notices)
        if (typeof graded === 'number') return graded
        ;({ schemas, interrupted } = graded)
    } else if (options.island !== undefined) {
        const read = await readBaseline(absolute(options.island, io.cwd), options.rules)
        if (!('nodes' in read)) {
            io.stderr(
                `check: cannot read the island ${options.island}: ${'error' in read ? read.error : read.missing}\n`
            )
            return EXIT.USAGE
        }
        schemas = [...read.nodes.entries()].map(([id, node]) =>
            checkedSchema({
                id,
                namespace: node.namespace,
                file: null,
                standing: node.standing,
                hash: node.hash,
                fixes: [],
                unverified: null
            })
        )
    } else {
        io.stderr('check: name schema files or folders to grade, or --island <dir> to check an island as it is\n')
        return EXIT.USAGE
    }
    const gates = {
        ...definedFields({ minGrade: options.minGrade }),
        failOnUntested: options.failOnUntested === true,
        failOnRemoved: options.failOnRemoved === true,
        allowUnverified: options.allowUnverified === true,
        // A baseline named but missing, checked on with --baseline-missing new: every schema is new.
        everySchemaNew: baseline === null && options.baseline !== undefined
    }
    return { rows: schemas.map((s) => rowOf(s, gates, baseline)), interrupted, notices }
}

/**
 * The baseline of `--baseline` (null without one, or when missing and `--baseline-missing new`); the exit code when it
 * is missing (1) or cannot be read (2).
 */
async function baselineOf(
    options: CheckCommandOptions,
    io: CliIo,
    notices: string[]
): Promise<ReadonlyMap<string, BaselineNode> | null | number> {
    if (options.baseline === undefined) return null
    const read = await readBaseline(absolute(options.baseline, io.cwd), options.rules)
    if ('error' in read) {
        io.stderr(`check: cannot read the baseline ${options.baseline}: ${read.error}\n`)
        return EXIT.USAGE
    }
    if ('missing' in read) {
        if (options.baselineMissing === 'new') {
            notices.push(
                `the baseline ${options.baseline} ${read.missing}: every schema is checked as new (--baseline-missing new)`
            )
            return null
        }
        // A gate with nothing to compare with cannot say whether anything got worse: it fails, and says how to choose
        // otherwise.
        io.stderr(
            `check: the baseline ${options.baseline} ${read.missing}; nothing to compare with, so the check fails (pass --baseline-missing new to check every schema as new, as for a first pull request)\n`
        )
        return EXIT.FINDINGS
    }
    return read.nodes
}

/**
 * Grades the paths that exist and turns each schema into a checked one: graded, unreadable, or (an
 * interrupted run) never started; then the schemas of the baseline's namespaces checked now, or of a
 * path gone since, that the tree no longer has: removed.
 */
async function gradedSchemas(
    paths: readonly string[],
    options: CheckCommandOptions,
    io: CliIo,
    baseline: ReadonlyMap<string, BaselineNode> | null,
    notices: string[]
): Promise<{ schemas: CheckedSchema[]; interrupted: readonly string[] | null } | number> {
    const exists = await Promise.all(
        paths.map((p) =>
            stat(absolute(p, io.cwd)).then(
                () => true,
                () => false
            )
        )
    )
    // Without a baseline a path that does not exist stays an error (a typo); with one, it may be a folder the pull
    // request removed.
    const gone = baseline !== null ? paths.filter((_, i) => exists[i] !== true) : []
    const present = paths.filter((p) => !gone.includes(p))
    const run = await runGrading(
        present,
        { ...options, pathsListed: options.pathsListed === true || gone.length > 0 },
        io,
        'check'
    )
    if (typeof run === 'number') return run
    await writeReport(options, io, 'check')
    const fixes = await fixListsOf(
        run.results,
        options.rules,
        options.recordings !== undefined ? { recordings: options.recordings, cwd: io.cwd, run: options } : undefined
    )
    const runFailure = firstJudgeFailure([
        ...run.results.flatMap((r) => r.result.errors),
        ...run.namespaces.flatMap((n) => n.errors)
    ])
    const schemas: CheckedSchema[] = run.results.map((row) => {
        const g = row.result.grading
        // A schema that does not parse (or cannot be read) is a finding at its file and line; the others are still
        // checked.
        if (g === null) return unreadableSchema(row.file, row.result.errors, io.cwd)
        return checkedSchema({
            id: g.schemaId,
            namespace: g.namespace,
            file: row.file,
            standing: g.standing,
            hash: g.schemaHash,
            fixes: fixes.get(row) ?? [],
            unverified: unverifiedCause(row, runFailure)
        })
    })
    schemas.push(...run.notStarted.map(notStartedSchema))
    const provisional = schemas.filter((s) => s.standing.status === 'provisional').length
    if (provisional > 0 && options.judgeCli?.judgeCommand === undefined && options.answers === undefined) {
        notices.push(
            `no judge given (--judge-command): ${provisional} schema${provisional === 1 ? ' has' : 's have'} deterministic answers only and no grade; a baseline grade cannot be held against changed content`
        )
    }
    // A namespace's own units are not a schema's standing, but what the run left of them is said.
    for (const ns of run.namespaces) {
        const failed = ns.units.filter((u) => u.status === UNIT_STATUS.error)
        if (failed.length > 0)
            notices.push(
                `namespace ${ns.namespace ?? '?'}: ${failed.length} unit${failed.length === 1 ? '' : 's'} not graded (${failed.map((u) => u.unit).join(', ')}): ${firstJudgeFailure(ns.errors) ?? failed[0]?.reason ?? 'failed'}`
            )
    }
    if (baseline !== null) schemas.push(...removedSchemas(schemas, gone, baseline, notices))
    return { schemas, interrupted: run.interrupted }
}
