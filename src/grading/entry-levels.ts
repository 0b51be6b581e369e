import type { ErrorCode } from '../errors/catalogue/index.js'
import type { Issue } from '../errors/types.js'

/** How a rule of entry validation reports: an error rejects the entry, a warning does not, `off` does not check. */
export type RuleLevel = 'error' | 'warning' | 'off'

/** One rule of entry validation with its level in each mode. */
export interface EntryRule {
    readonly code: ErrorCode
    /** The rule in words, as docs/grading.md prints it. */
    readonly rule: string
    readonly default: RuleLevel
    readonly strict: RuleLevel
}

/**
 * The semantic rules of `validateGradingEntry` and their level in the default (read-tolerant) and
 * the strict (registry intake) mode. The one place a level is decided: the checks emit issues, and
 * {@link applyLevels} gives each its mode's severity. docs/grading.md prints this table, and
 * `test/grading/entry-levels.test.ts` fails when the two differ. Every other warning of entry
 * validation is read-tolerance, and strict mode makes it an error too.
 */
export const ENTRY_RULES: readonly EntryRule[] = Object.freeze([
    { code: 'GRD-068', rule: 'every questionId is a question the catalogue defines for the entry\'s area (its own, or a cross-area question of 01 §11)', default: 'error', strict: 'error' },
    { code: 'GRD-059', rule: 'no answer to another area\'s catalogue question', default: 'error', strict: 'error' },
    { code: 'GRD-060', rule: 'no catalogue-shaped id the catalogue does not hold', default: 'error', strict: 'error' },
    { code: 'GRD-069', rule: '`stale` only on a time-dependent question', default: 'error', strict: 'error' },
    { code: 'GRD-070', rule: '`stale` only once the aging window has passed at the answer\'s own timestamp', default: 'error', strict: 'error' },
    { code: 'GRD-056', rule: 'determinism as the catalogue defines it', default: 'error', strict: 'error' },
    { code: 'GRD-058', rule: 'a full entry answers every question of its area', default: 'error', strict: 'error' },
    { code: 'GRD-053', rule: 'no question answered twice by one grader at the same instant', default: 'error', strict: 'error' },
    { code: 'GRD-054', rule: 'no question answered again by the same grader later', default: 'warning', strict: 'error' },
    { code: 'GRD-071', rule: 'each question answered once (no second grader overriding the first)', default: 'off', strict: 'error' },
    { code: 'GRD-072', rule: 'one grader identity per grader kind', default: 'off', strict: 'error' },
    { code: 'GRD-073', rule: 'the entry is `full`', default: 'off', strict: 'error' },
    { code: 'VER-004', rule: 'gradingSystem is the version this library implements', default: 'warning', strict: 'error' },
    { code: 'VER-005', rule: 'scoringSystem is the version this library implements', default: 'off', strict: 'error' },
    { code: 'GRD-065', rule: 'weights are the catalogue\'s', default: 'warning', strict: 'error' },
    { code: 'GRD-057', rule: 'gradingId names the entry\'s schemaHash', default: 'warning', strict: 'error' },
    { code: 'GRD-026', rule: 'minimum-LLM rule: B or better rests on at least one included non-deterministic answer (01 §4 step 7)', default: 'warning', strict: 'error' },
    { code: 'GRD-055', rule: 'every LLM answer has its reasoning', default: 'warning', strict: 'error' },
    { code: 'GRD-074', rule: '`now` is given', default: 'off', strict: 'error' },
    { code: 'GRD-061', rule: 'no timestamp after `now` (when `now` is given)', default: 'error', strict: 'error' },
    { code: 'GRD-063', rule: '`now` is an ISO 8601 date-time or a valid Date', default: 'error', strict: 'error' },
    { code: 'GRD-014', rule: 'aggregateGrade equals the recomputation (full entries)', default: 'error', strict: 'error' },
    { code: 'GRD-075', rule: 'no `__proto__`, `constructor` or `prototype` key and no accessor property (left out of the accepted entry)', default: 'warning', strict: 'error' }
] satisfies EntryRule[])

const BY_CODE: ReadonlyMap<string, EntryRule> = /* @__PURE__ */ new Map(ENTRY_RULES.map((r) => [r.code, r]))

/** The level of a code in a mode; `undefined` for a code the table does not list. */
export function levelOf(code: string, strict: boolean): RuleLevel | undefined {
    const row = BY_CODE.get(code)
    return row === undefined ? undefined : strict ? row.strict : row.default
}

/** True when the rule of `code` is checked in this mode. */
export function isChecked(code: ErrorCode, strict: boolean): boolean {
    return levelOf(code, strict) !== 'off'
}

/**
 * Gives every issue its mode's severity: a listed code its level (dropped when `off`); in strict
 * mode every other warning becomes an error, so an entry strict validation accepts carries no warning.
 */
export function applyLevels(issues: readonly Issue[], strict: boolean): Issue[] {
    const out: Issue[] = []
    for (const issue of issues) {
        const level = levelOf(issue.code, strict)
        if (level === 'off') continue
        const severity = level ?? (strict && issue.severity === 'warning' ? 'error' : issue.severity)
        out.push(severity === issue.severity ? issue : { ...issue, severity })
    }
    return out
}
