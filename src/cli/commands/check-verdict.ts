// Each schema as `check` judges it: what it is (its standing, fix list, content hash), whether the run
// could establish it at all (`unverified`), and why it fails the gate; and the warnings gate.
import { countFixItems, fixLine, isEnvironmentItem, isStaleRecordingItem } from '../../fix/fix-list.js'
import { createIssue } from '../../errors/issue.js'
import type { FixItem, Issue } from '../../index.js'
import { GRADE_RANK, NODE_STATUS, SEVERITY, UNIT_STATUS, type LetterGrade } from '../../model/constants.js'
import { compareStandings, standingOfSchemaNode, type SchemaStanding } from '../../rollup/standing.js'
import { aggregateRank } from '../../model/grades.js'
import { findingKey, type BaselineNode } from './check-baseline.js'
import { noteOf, untestedChange, untestedOf } from './check-untested.js'
import type { SchemaRow } from './grade-render.js'

/** A schema as the check compares it (not the library's `Standing` class: a row of this command). */
export interface CheckedSchema {
    readonly id: string
    readonly namespace: string | null
    readonly file: string | null
    readonly standing: SchemaStanding
    /** The content hash graded, null when not known (an island checked as it is, a schema that could not be read). */
    readonly hash: string | null
    /** What the status column says instead of the standing's status (`unreadable`, `removed`). */
    readonly label?: string
    readonly note: string | null
    readonly fixes: readonly FixItem[]
    readonly untested: readonly string[]
    /** Why the run could not establish its standing (the judge's own error, an interruption), null when it could. */
    readonly unverified: string | null
}

/**
 * What a row of the check says: `ok`, `fails` (the gate), `unverified` (the run could not tell), `removed` (gone since
 * the baseline).
 */
export type Verdict = 'ok' | 'fails' | 'unverified' | 'removed'

export interface CheckRow {
    readonly s: CheckedSchema
    /** What the baseline said of it (its grade, its status, or a dash). */
    readonly before: string
    /** Why it fails the check, in words; empty when it passes. */
    readonly fails: readonly string[]
    readonly verdict: Verdict
    /** The warnings of its fix list the baseline did not have (all of them without a baseline). */
    readonly newWarnings: readonly FixItem[]
}

/** The gates of `check`, as its options set them. */
export interface Gates {
    readonly minGrade?: string
    readonly failOnUntested: boolean
    readonly failOnRemoved: boolean
    readonly allowUnverified: boolean
    /** Every schema is new (`--baseline-missing new` with the baseline missing): none has a baseline to keep. */
    readonly everySchemaNew?: boolean
}

const rank = (grade: string | null): number => aggregateRank(grade)
export const isLetter = (value: string): value is LetterGrade => Object.hasOwn(GRADE_RANK, value)
/** The judge's failures, as the grading reports them: a call that failed, a judge given up on, a run aborted. */
const JUDGE_FAILURES: readonly string[] = ['GRA-006', 'GRA-025', 'GRA-026']

export function checkedSchema(fields: {
    id: string
    namespace: string | null
    file: string | null
    standing: SchemaStanding
    hash: string | null
    fixes: readonly FixItem[]
    unverified: string | null
}): CheckedSchema {
    return { ...fields, note: noteOf(fields.standing), untested: untestedOf(fields.standing) }
}

/**
 * The first failure of the judge anywhere in the run, in its own (redacted) words: the cause a unit given up on later
 * points back to.
 */
export function firstJudgeFailure(errors: readonly Issue[]): string | null {
    return errors.find((e) => JUDGE_FAILURES.includes(e.code))?.message ?? null
}

/**
 * Why the run could not establish a graded schema's standing: its units the judge left ungraded, with the judge's
 * error; null when none.
 */
export function unverifiedCause(row: SchemaRow, runFailure: string | null): string | null {
    const g = row.result.grading
    if (g === null) return null
    const failed = g.units.filter((u) => u.status === UNIT_STATUS.error)
    if (failed.length === 0) return null
    const own = firstJudgeFailure(row.result.errors)
    const inRun = runFailure !== null ? ` (the judge's first failure in this run: ${runFailure})` : ''
    const reason = own ?? `${failed[0]?.reason ?? 'the unit failed'}${inRun}`
    return `${failed.length} of ${g.units.length} unit${g.units.length === 1 ? '' : 's'} not graded: ${reason}`
}

/**
 * Content changed since the baseline and left without a grade by this run (no judge, or answers that
 * did not cover it): the baseline's grade cannot be held against it, so the gate cannot tell. Null
 * when it was graded, is blocked or rejected (the schema's own state), or is the content the baseline graded.
 */
function changedUngraded(s: CheckedSchema, before: BaselineNode | undefined): string | null {
    if (before === undefined || before.standing.grade === null || s.standing.grade !== null) return null
    const open = s.standing.status === NODE_STATUS.pending || s.standing.status === 'provisional'
    if (!open) return null
    if (s.hash !== null && before.hash === s.hash) return null
    return `changed since the baseline (graded ${before.standing.grade} there) and not graded in this run${s.standing.reason !== null ? ` (${s.standing.reason})` : ''}`
}

/**
 * A finding of the schema's own checks (what a baseline's state keeps), not a tool its tests left ungraded (compared
 * through the standing).
 */
const isSchemaFinding = (f: FixItem): boolean => f.kind === 'finding' && f.unit === undefined

/** The warnings of a fix list the baseline did not have: every one without a baseline node or its findings. */
function newWarningsOf(s: CheckedSchema, before: BaselineNode | undefined, baselineGiven: boolean): FixItem[] {
    const warnings = s.fixes.filter((f) => isSchemaFinding(f) && f.severity === SEVERITY.warning)
    const known = before?.findings
    if (!baselineGiven || known === null || known === undefined) return warnings
    const keys = new Set(known.map(findingKey))
    return warnings.filter((f) => !keys.has(findingKey(f)))
}

/** A row of the check: the schema, what the baseline said, and its verdict with why. */
export function rowOf(s: CheckedSchema, gates: Gates, baseline: ReadonlyMap<string, BaselineNode> | null): CheckRow {
    const before = baseline?.get(s.id)
    const label = before === undefined ? '—' : (before.standing.grade ?? before.standing.status)
    if (s.label === 'removed')
        return {
            s,
            before: label,
            fails: gates.failOnRemoved ? ['removed since the baseline (--fail-on-removed)'] : [],
            verdict: 'removed',
            newWarnings: []
        }
    const unverified =
        s.unverified ??
        changedUngraded(s, before) ??
        untestedChange(s, before, { baselineGiven: baseline !== null, everySchemaNew: gates.everySchemaNew === true })
    const fails: string[] = []
    const { grade, status } = s.standing
    // A schema only this environment could not test has no grade to hold against --min-grade: it is reported, not
    // failed.
    const excused = (s.standing.untestedHere && !gates.failOnUntested) || unverified !== null
    if (gates.minGrade !== undefined && !excused) {
        if (grade === null)
            fails.push(
                `no grade (${status}${s.standing.reason !== null ? `: ${s.standing.reason}` : ''}); --min-grade ${gates.minGrade} needs one`
            )
        else if (rank(grade) < rank(gates.minGrade)) fails.push(`grade ${grade} is below --min-grade ${gates.minGrade}`)
    }
    // The same comparison as `report --baseline`.
    fails.push(...compareStandings(before?.standing, s.standing).messages)
    const known = before?.findings
    const keys = known === null || known === undefined ? null : new Set(known.map(findingKey))
    // New: not in the baseline at any level; the level shown is this config's, on both sides.
    for (const f of s.fixes.filter(
        (x) => isSchemaFinding(x) && x.severity === SEVERITY.error && (keys === null || !keys.has(findingKey(x)))
    ))
        fails.push(`new error ${fixLine(f)}`)
    // A stale recording the config raised to an error fails the gate (a warning by default, counted by --max-warnings).
    for (const f of s.fixes.filter((x) => isStaleRecordingItem(x) && x.severity === SEVERITY.error))
        fails.push(`stale recording ${fixLine(f)}`)
    if (gates.failOnUntested && s.untested.length > 0) fails.push(`tools not tested here: ${s.untested.join(', ')}`)
    const newWarnings = newWarningsOf(s, before, baseline !== null)
    const row = {
        s: unverified !== null && s.unverified === null ? { ...s, unverified } : s,
        before: label,
        newWarnings
    }
    // What the run could not verify is said on the row whatever else it fails on; it fails the check unless allowed.
    const all = unverified !== null && !gates.allowUnverified ? [...fails, `not verified: ${unverified}`] : fails
    return { ...row, fails: all, verdict: fails.length > 0 ? 'fails' : unverified !== null ? 'unverified' : 'ok' }
}

/**
 * The standing of a schema that could not be graded: no grade, and one error finding at its file and
 * line (the parser's line when it does not parse), so the table, SARIF and the summary all show it.
 * Its id is the one grading would give it, `<folder>.<file base>`, so a baseline still finds it.
 */
export function unreadableSchema(file: string, errors: readonly Issue[], cwd: string): CheckedSchema {
    const first = errors.find((e) => e.severity === SEVERITY.error)
    const message = first?.message ?? 'the schema could not be graded'
    const at = /\((\d+):(\d+)\)/.exec(message) ?? /at line (\d+)/.exec(message)
    const id = idOfFile(file)
    const item: FixItem = {
        schemaId: id,
        file,
        kind: 'finding',
        code: first?.code ?? 'SRC-001',
        severity: SEVERITY.error,
        message,
        pointer: '',
        line: at !== null ? Number(at[1]) : 1,
        column: at?.[2] !== undefined ? Number(at[2]) + 1 : 1,
        cost: 0
    }
    const shown = file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file
    return {
        ...checkedSchema({
            id,
            namespace: null,
            file,
            standing: standingOfSchemaNode(undefined),
            hash: null,
            fixes: [item],
            unverified: null
        }),
        label: 'unreadable',
        note: `${shown}: ${message}`
    }
}

/** The id grading would give a schema file it never read: `<folder>.<file base>`. */
export function idOfFile(file: string): string {
    const parts = file.split('/')
    return `${parts.at(-2) ?? ''}.${(parts.at(-1) ?? file).replace(/\.mjs$/, '')}`
}

/** A schema of a namespace the interrupted run never started: no standing established. */
export function notStartedSchema(file: string): CheckedSchema {
    const id = idOfFile(file)
    return checkedSchema({
        id,
        namespace: id.split('.')[0] ?? null,
        file,
        standing: standingOfSchemaNode(undefined),
        hash: null,
        fixes: [],
        unverified: 'the run was interrupted (Ctrl-C) before its namespace was graded'
    })
}

/** A schema of the baseline the checked folders no longer hold. */
export function removedSchema(id: string, node: BaselineNode): CheckedSchema {
    return {
        ...checkedSchema({
            id,
            namespace: node.namespace,
            file: null,
            standing: standingOfSchemaNode(undefined),
            hash: node.hash,
            fixes: [],
            unverified: null
        }),
        label: 'removed',
        note: null
    }
}

/** The item SARIF and the fix list show for a schema the check could not verify: at its file, line 1. */
export function unverifiedItem(s: CheckedSchema, allowed: boolean): FixItem {
    const message = createIssue('CHK-001', '', { cause: s.unverified ?? 'unknown', schema: s.id }).message
    return {
        schemaId: s.id,
        file: s.file,
        kind: 'finding',
        code: 'CHK-001',
        severity: allowed ? SEVERITY.warning : SEVERITY.error,
        message,
        pointer: '',
        line: s.file !== null ? 1 : null,
        column: s.file !== null ? 1 : null,
        cost: 0
    }
}

/**
 * `--max-warnings <n>`: why the check fails for the warnings of the fix lists (notices of the environment not counted),
 * or null.
 */
export function warningGate(fixes: readonly FixItem[], max: number | undefined): string | null {
    if (max === undefined) return null
    const notices = fixes.filter(isEnvironmentItem).length
    const warnings = countFixItems(fixes.filter((f) => !isEnvironmentItem(f))).warnings
    const besides =
        notices > 0 ? ` (besides ${notices} notice${notices === 1 ? '' : 's'} of the environment, not counted)` : ''
    return warnings > max
        ? `${warnings} warning${warnings === 1 ? '' : 's'} in the fix lists${besides}, more than --max-warnings ${max}`
        : null
}
