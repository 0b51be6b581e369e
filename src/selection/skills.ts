import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { MAX_SELECTION_SKILLS } from './definition.js'
import { guardStatics } from '../errors/guard.js'
import { parseArgs, says, wholeArg } from '../validation/args.js'

/** A selection skill as the grader sees it: its name, its `level` and its source text. */
export interface SelectionSkillInput {
    readonly name: string
    readonly level: 'L1' | 'L2' | 'L3'
    readonly text: string
}

/** The cross-reference graph of a selection's skills (02-areas §11.3, ⚠ B13). */
export interface SkillCrossReferences {
    /** Per skill, its predecessors (⚠ B13): L2 ⇒ every L1; L3 ⇒ the L2 skills that name it; L1 ⇒ none. */
    readonly predecessors: Readonly<Record<string, readonly string[]>>
    /** Per skill that breaks Rule A or B, its SKC-001/SKC-002 issues (also in `errors`). */
    readonly violations: Readonly<Record<string, readonly Issue[]>>
    readonly errors: Issue[]
}

const LEVELS = ['L1', 'L2', 'L3'] as const

/** The codes of the argument checks: SEL-002 for every unusable value, an absent one too. */
const SKILL_ARGS = { missing: 'SEL-001', mismatch: 'SEL-002', create: createIssue } as const
const SKILL_LIST = v.array(v.unknown(), says({ expected: 'array', actual: 'type', missing: false }))
// A skill as a whole: one finding per wrong skill, never one per field inside it.
const SKILL = wholeArg(v.object({ name: v.string(), level: v.picklist(LEVELS), text: v.string() }), {
    expected: '{ name, level: L1|L2|L3, text }',
    actual: 'type',
    missing: false
})

function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Whether `text` names the skill `name` verbatim (⚠ B16): case-sensitive, bounded by characters
 * other than `[a-z0-9-]` (so `price` does not match `price-entry`); the `{{skill:<name>}}`
 * placeholder form matches too, since `:` and `}` are such boundaries.
 */
export function namesSkill(text: string, name: string): boolean {
    return new RegExp(`(?<![a-z0-9-])${escapeRegExp(name)}(?![a-z0-9-])`).test(text)
}

/**
 * Checks the deterministic cross-reference rules of selection skills (02-areas §11.3) over each
 * skill's text (content, description and `whenToUse` live in it) and derives the predecessors of
 * ⚠ B13. Rule A: every L1 names every L2 (`SKC-001` per missing name). Rule B: every L3 is named by
 * at least one L2 (`SKC-002`). More than four skills: `SKL-018`.
 * @param input - `{ skills: [{ name, level, text }] }`
 * @returns `{ predecessors, violations, errors }`; SEL-002 for unusable input
 * @example SelectionSkills.crossReferences({ skills }).errors.map((e) => e.code) // ['SKC-001']
 */
function crossReferencesOf(input: { skills?: unknown }): SkillCrossReferences {
    const list = input?.skills
    const shape = parseArgs(SKILL_LIST, list, SKILL_ARGS, { at: ['skills'] })
    if (!Array.isArray(list)) return { predecessors: {}, violations: {}, errors: shape.errors }
    const errors: Issue[] = []
    const skills: Array<SelectionSkillInput & { index: number }> = []
    // Item by item (forEach skips holes): a wrong skill is reported, the others still checked against each other.
    list.forEach((s: unknown, index) => {
        const skill = parseArgs(SKILL, s, SKILL_ARGS, { field: 'indexed', at: ['skills', index] })
        if (skill.value === null) errors.push(...skill.errors)
        else skills.push({ ...skill.value, index })
    })
    if (list.length > MAX_SELECTION_SKILLS)
        errors.push(createIssue('SKL-018', '/skills', { count: list.length, max: MAX_SELECTION_SKILLS }))
    const at = (level: SelectionSkillInput['level']): typeof skills => skills.filter((s) => s.level === level)
    const violations = new Map<string, Issue[]>()
    const predecessors: Array<[string, string[]]> = []
    const note = (name: string, issue: Issue): void => {
        errors.push(issue)
        violations.set(name, [...(violations.get(name) ?? []), issue])
    }
    for (const l1 of at('L1')) {
        predecessors.push([l1.name, []])
        for (const l2 of at('L2'))
            if (!namesSkill(l1.text, l2.name))
                note(
                    l1.name,
                    createIssue('SKC-001', pointer('skills', l1.index, 'text'), { skill: l1.name, missing: l2.name })
                )
    }
    for (const l2 of at('L2')) predecessors.push([l2.name, at('L1').map((s) => s.name)])
    for (const l3 of at('L3')) {
        const namers = at('L2')
            .filter((l2) => namesSkill(l2.text, l3.name))
            .map((s) => s.name)
        predecessors.push([l3.name, namers])
        if (namers.length === 0) note(l3.name, createIssue('SKC-002', pointer('skills', l3.index), { skill: l3.name }))
    }
    return { predecessors: Object.fromEntries(predecessors), violations: Object.fromEntries(violations), errors }
}

/** Selection skills (chapter 13): cross-reference rules and the predecessor chain. */
class SelectionSkillsUnguarded {
    private constructor() {}

    /**
     * Rules A and B over the skills' texts plus the ⚠ B13 predecessors (see {@link crossReferencesOf}).
     * @param input - `{ skills: [{ name, level, text }] }`
     * @returns `{ predecessors, violations, errors }`; SKC-001, SKC-002, SKL-018, SEL-002
     * @example SelectionSkills.crossReferences({ skills }).predecessors['price-usecase'] // ['price-topic']
     */
    static crossReferences(input: { skills?: unknown }): SkillCrossReferences {
        return crossReferencesOf(input)
    }
}

/**
 * The public SelectionSkills: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const SelectionSkills = /* @__PURE__ */ guardStatics(SelectionSkillsUnguarded, 'SelectionSkills')
