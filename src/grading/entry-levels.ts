import type { ErrorCode } from '../errors/catalogue/index.js'
import type { Issue } from '../errors/types.js'
import { SEVERITY } from '../model/constants.js'

/** How a rule of entry validation reports: an error rejects the entry, a warning does not, `off` does not check. */
export type RuleLevel = 'error' | 'warning' | 'off'

/** One rule of entry validation, by its code, with its level in each mode. */
export interface EntryRule {
    readonly code: ErrorCode
    readonly default: RuleLevel
    readonly strict: RuleLevel
}

// [code, default level, strict level]; compact, since every bundle that validates an entry carries it.
const LEVELS: ReadonlyArray<readonly [ErrorCode, RuleLevel, RuleLevel]> = [
    ['GRD-068', 'error', 'error'],
    ['GRD-059', 'error', 'error'],
    ['GRD-060', 'error', 'error'],
    ['GRD-069', 'error', 'error'],
    ['GRD-070', 'error', 'error'],
    ['GRD-056', 'error', 'error'],
    ['GRD-058', 'error', 'error'],
    ['GRD-053', 'error', 'error'],
    ['GRD-054', 'warning', 'error'],
    ['GRD-071', 'warning', 'error'],
    ['GRD-072', 'warning', 'error'],
    ['GRD-073', 'warning', 'error'],
    ['VER-004', 'warning', 'error'],
    ['VER-005', 'warning', 'error'],
    ['BND-006', 'warning', 'error'],
    ['BND-007', 'warning', 'error'],
    ['GRD-065', 'warning', 'error'],
    ['GRD-057', 'warning', 'error'],
    ['GRD-026', 'warning', 'error'],
    ['GRD-055', 'warning', 'error'],
    ['GRD-074', 'off', 'error'],
    ['GRD-061', 'error', 'error'],
    ['GRD-063', 'error', 'error'],
    ['GRD-014', 'error', 'error'],
    ['GRD-075', 'warning', 'error']
]

/**
 * The semantic rules of `validateGradingEntry` and their level in the default (read-tolerant) and
 * the strict (registry intake) mode. The one place a level is decided: the checks emit issues, and
 * {@link applyLevels} gives each its mode's severity. docs/grading.md prints this table with each
 * rule in words, and `test/grading/entry-levels.test.ts` fails when the two differ. Every other
 * warning of entry validation is read-tolerance, and strict mode makes it an error too.
 */
export const ENTRY_RULES: readonly EntryRule[] = /* @__PURE__ */ Object.freeze(
    LEVELS.map(([code, d, strict]) => Object.freeze({ code, default: d, strict }))
)

const BY_CODE: ReadonlyMap<string, EntryRule> = /* @__PURE__ */ new Map(ENTRY_RULES.map((r) => [r.code, r]))

/** The level of a code in a mode; `undefined` for a code the table does not list. */
export function levelOf(code: string, strict: boolean): RuleLevel | undefined {
    const row = BY_CODE.get(code)
    return row === undefined ? undefined : strict ? row.strict : row.default
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
        const severity = level ?? (strict && issue.severity === SEVERITY.warning ? SEVERITY.error : issue.severity)
        out.push(severity === issue.severity ? issue : { ...issue, severity })
    }
    return out
}
