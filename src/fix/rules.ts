import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { QUESTIONS } from '../areas/catalogue.js'
import { CATALOGUE } from '../errors/catalogue/index.js'
import { SEVERITY } from '../model/constants.js'
import type { FixItem } from './types.js'
import { isObject } from '../model/object.js'
import { editDistance } from '../model/edit-distance.js'
import { guardStatics } from '../errors/guard.js'

/** What a rule is set to: eslint's words, or its numbers (0 off, 1 warning, 2 error). */
export type RuleSetting = 'off' | 'warning' | 'error' | 0 | 1 | 2

/** Per issue code or question id, what it is set to. */
export type RulesMap = Readonly<Record<string, RuleSetting>>

const LEVEL: Readonly<Record<string, 'off' | 'warning' | 'error'>> = {
    off: 'off',
    warning: 'warning',
    warn: 'warning',
    error: 'error',
    '0': 'off',
    '1': 'warning',
    '2': 'error'
}
// An issue code (SCH-WARN-012, GRA-006) or a question id (Q-single-test-05).
const RULE_NAME = /^(?:[A-Z]{2,6}(?:-[A-Z]{2,6})?-\d{3}|Q-[a-z][a-z0-9-]*-\d{2})$/

let known: readonly string[] | null = null
/** Every name a rule can set: the issue codes of the catalogue and the question ids. */
function knownNames(): readonly string[] {
    known ??= [...Object.keys(CATALOGUE), ...QUESTIONS.map((q) => q.id)].sort()
    return known
}

/** The known names nearest to an unknown one (at most three edits away, at most three of them), nearest first. */
export function nearestRuleNames(code: string): string[] {
    const scored = knownNames()
        .map((name) => ({ name, d: editDistance(code, name) }))
        .filter((x) => x.d <= 3)
    const best = Math.min(...scored.map((x) => x.d))
    return scored
        .filter((x) => x.d === best)
        .slice(0, 3)
        .map((x) => x.name)
}

/** The rules map checked: the usable settings, and one issue per rule that is not (CFG-001…003, CFG-005). */
function checkRules(rules: unknown): { levels: Map<string, 'off' | 'warning' | 'error'>; errors: Issue[] } {
    const levels = new Map<string, 'off' | 'warning' | 'error'>()
    if (rules === undefined) return { levels, errors: [] }
    if (!isObject(rules)) return { levels, errors: [createIssue('CFG-001', '/rules', { actual: typeOfValue(rules) })] }
    const errors: Issue[] = []
    for (const [code, setting] of Object.entries(rules as Record<string, unknown>)) {
        const level = typeof setting === 'string' || typeof setting === 'number' ? LEVEL[String(setting)] : undefined
        if (!RULE_NAME.test(code)) errors.push(createIssue('CFG-003', pointer('rules', code), { code }))
        else if (level === undefined)
            errors.push(createIssue('CFG-002', pointer('rules', code), { code, actual: describeValue(setting) }))
        else {
            // A well-formed name nothing emits sets nothing: said, with the nearest names, and the other rules still
            // apply.
            if (!knownNames().includes(code)) {
                const near = nearestRuleNames(code)
                errors.push(
                    createIssue('CFG-005', pointer('rules', code), {
                        code,
                        suggestion: near.length > 0 ? `; did you mean ${near.join(' or ')}?` : ''
                    })
                )
            }
            levels.set(code, level)
        }
    }
    return { levels, errors }
}

/**
 * A config's `rules` applied to what a maintainer reads (eslint style): a rule set to `off` leaves
 * the fix list and the issues shown, `warning` and `error` set the severity they are shown with. Only
 * what is shown changes: grades are computed before and never from this.
 */
class FixRulesUnguarded {
    private constructor() {}

    /**
     * Checks a rules map.
     * @param input - `{ rules }`
     * @returns `{ errors }`: CFG-001 not an object, CFG-002 a setting other than off/warning/error (0/1/2), CFG-003 a
     *   name that is no code, CFG-005 (a warning) a code no check of this version emits, with the nearest codes
     * @example FixRules.check({ rules: { 'SCH-WARN-012': 'off' } }).errors // []
     */
    static check(input: { rules?: unknown }): { errors: Issue[] } {
        return { errors: checkRules(input?.rules).errors }
    }

    /**
     * Applies a rules map to fix items and issues.
     * @param input - `{ items?, issues?, rules }`
     * @returns `{ items, issues, errors }`: the items and issues without the rules turned off, the others at the
     *   severity set; with a wrong rules map, everything as given and the errors of {@link FixRules.check}
     * @example FixRules.apply({ items, rules: { 'SCH-WARN-012': 'off' } }).items
     */
    static apply(input: { items?: readonly FixItem[]; issues?: readonly Issue[]; rules?: unknown }): {
        items: FixItem[]
        issues: Issue[]
        errors: Issue[]
    } {
        const items = Array.isArray(input?.items) ? (input.items as FixItem[]) : []
        const issues = Array.isArray(input?.issues) ? (input.issues as Issue[]) : []
        const { levels, errors } = checkRules(input?.rules)
        if (errors.some((e) => e.severity === SEVERITY.error) || levels.size === 0)
            return { items: [...items], issues: [...issues], errors }
        const relevel = <T extends { code: string; severity: string }>(list: readonly T[]): T[] =>
            list.flatMap((x) => {
                const level = x !== null && typeof x === 'object' ? levels.get(x.code) : undefined
                if (level === undefined) return [x]
                return level === 'off' ? [] : [{ ...x, severity: level }]
            })
        return { items: relevel(items), issues: relevel(issues), errors }
    }
}

/**
 * The public FixRules: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const FixRules = /* @__PURE__ */ guardStatics(FixRulesUnguarded, 'FixRules')
