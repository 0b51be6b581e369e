import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { validateVetoRecord } from '../grading/veto-record.js'
import { VETO_TRIGGERS, type VetoTrigger } from '../model/constants.js'
import type { CategoricalVeto, GradingEntryDraft } from '../model/types.js'
import { guardStatics } from '../errors/guard.js'
import { definedFields } from '../model/fields.js'
import { type ArgCodes, objectArg, parseArgs } from '../validation/args.js'

// The entry: absent GRD-001, not an object GRD-002 (the veto's own fields are validateVetoRecord's).
const ARGS: ArgCodes<'GRD-001' | 'GRD-002'> = { missing: 'GRD-001', mismatch: 'GRD-002', create: createIssue }
const STYLE = { actual: 'type' } as const
const ENTRY = v.object({ entry: objectArg() })

/**
 * The categorical veto (chapter 08 §6): a closed list of triggers that replace the whole grade
 * with `REJECTED`. The list is frozen; adding a trigger is a gradingSystem bump, not a call.
 */
class VetoUnguarded {
    private constructor() {}

    /**
     * The closed trigger list.
     * @returns `{ triggers }` — a copy; changing it changes nothing in the library.
     * @example
     * Veto.getTriggers().triggers
     * // ['malicious-module', 'api-key-domain-mismatch', 'illegal-content', 'ai-security-veto']
     */
    static getTriggers(): { triggers: VetoTrigger[] } {
        return { triggers: [...VETO_TRIGGERS] }
    }

    /**
     * Checks a veto record, collecting every defect.
     * @param input - `{ veto }`
     * @returns `{ valid, errors }`; VET-001 unknown trigger, VET-002 no evidence, VET-003 ai-security-veto
     *   without reasoning, VET-004 no graderIdentity, VET-005 bad timestamp, VET-006 unknown field.
     * @example Veto.validateVeto({ veto }).valid
     */
    static validateVeto(input: { veto?: unknown }): { valid: boolean; errors: Issue[] } {
        const veto = input?.veto
        if (veto === undefined || veto === null) {
            return { valid: false, errors: [createIssue('GRD-001', '/veto', { field: 'veto' })] }
        }
        const errors = validateVetoRecord(veto, '/veto')
        return { valid: errors.length === 0, errors }
    }

    /**
     * Returns a new entry carrying the veto and `aggregateGrade: 'REJECTED'`; the input is not mutated.
     * An entry that already carries a veto is not changed (GRD-045): a veto is written once.
     * @param input - `{ entry, triggeredBy, graderIdentity, evidence, reasoning?, timestamp }`
     * @returns `{ entry, errors }`; the codes of {@link Veto.validateVeto} (paths relative to the input).
     * @example
     * Veto.applyVeto({
     *     entry,
     *     triggeredBy: 'api-key-domain-mismatch',
     *     graderIdentity,
     *     evidence: 'FACEBOOK_API_KEY on example.xyz',
     *     timestamp
     * })
     */
    static applyVeto(input: {
        entry?: unknown
        triggeredBy?: unknown
        graderIdentity?: unknown
        evidence?: unknown
        reasoning?: unknown
        timestamp?: unknown
    }): { entry: GradingEntryDraft | null; errors: Issue[] } {
        const { entry, triggeredBy, graderIdentity, evidence, reasoning, timestamp } = input ?? {}
        const given = parseArgs(ENTRY, { entry }, ARGS, STYLE)
        if (given.value === null) return { entry: null, errors: given.errors }
        const base = given.value.entry as unknown as GradingEntryDraft
        if (base.categoricalVeto !== null && base.categoricalVeto !== undefined) {
            return { entry: null, errors: [createIssue('GRD-045', '/entry/categoricalVeto')] }
        }
        const record = {
            ...definedFields({ triggeredBy, graderIdentity, evidence, reasoning, timestamp })
        }
        const errors = validateVetoRecord(record, '')
        if (errors.length > 0) {
            return { entry: null, errors }
        }
        return {
            entry: { ...base, categoricalVeto: record as unknown as CategoricalVeto, aggregateGrade: 'REJECTED' },
            errors: []
        }
    }

    /**
     * Whether an entry carries a veto.
     * @param input - `{ entry }`
     * @returns `{ vetoed, triggeredBy, errors }`; GRD-001/GRD-002 when `entry` is not an object.
     * @example Veto.isVetoed({ entry }).vetoed
     */
    static isVetoed(input: { entry?: unknown }): { vetoed: boolean; triggeredBy: string | null; errors: Issue[] } {
        const given = parseArgs(ENTRY, { entry: input?.entry }, ARGS, STYLE)
        if (given.value === null) return { vetoed: false, triggeredBy: null, errors: given.errors }
        const veto = given.value.entry.categoricalVeto
        if (veto === null || veto === undefined) {
            return { vetoed: false, triggeredBy: null, errors: [] }
        }
        const trigger = (veto as { triggeredBy?: unknown }).triggeredBy
        return { vetoed: true, triggeredBy: typeof trigger === 'string' ? trigger : null, errors: [] }
    }
}

/**
 * The public Veto: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Veto = /* @__PURE__ */ guardStatics(VetoUnguarded, 'Veto')
