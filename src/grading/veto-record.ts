import * as v from 'valibot'
import { describeValue } from '../errors/issue.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import { joinPointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { GRADER_KINDS, VETO_TRIGGERS } from '../model/constants.js'
import { isIsoDateTime } from '../time.js'
import { type ArgCodes, objectArg, parseArgs, pointerKeys, says } from '../validation/args.js'

const VETO_FIELDS = new Set(['triggeredBy', 'graderIdentity', 'evidence', 'reasoning', 'timestamp'])
const GRADER_FIELDS = new Set(['kind', 'name', 'version'])

const isNonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0

// Wrong type or absent: GRD-002/GRD-001. The codes of the veto's own rules (VET-*, GRD-010) stay plain checks.
const CODES: ArgCodes<'GRD-001' | 'GRD-002'> = { missing: 'GRD-001', mismatch: 'GRD-002', create: createEntryIssue }
const STYLE = { field: 'key', actual: 'type' } as const
const GRADER = objectArg({ expected: 'object', actual: 'type', field: 'graderIdentity', missing: false })
const NON_EMPTY = v.custom<string>(isNonEmpty, says('non-empty string'))
const GRADER_STRINGS = v.looseObject({ name: NON_EMPTY, version: NON_EMPTY })
const VETO = objectArg({ expected: 'object or null', actual: 'type', field: 'categoricalVeto', missing: false })
const REASONING = v.looseObject({ reasoning: v.optional(v.string()) })

/** Checks a `graderIdentity` object; shared by vetoes and answers. */
export function validateGraderIdentity(value: unknown, path: string): Issue[] {
    const at = pointerKeys(path)
    const root = parseArgs(GRADER, value, CODES, { ...STYLE, at })
    if (root.value === null) return root.errors
    const g = root.value
    const issues: Issue[] = []
    // `kind` is one of a list with a code of its own (GRD-010): a plain check, before the strings.
    if (g.kind === undefined) issues.push(createEntryIssue('GRD-001', joinPointer(path, 'kind'), { field: 'kind' }))
    else if (!(GRADER_KINDS as readonly unknown[]).includes(g.kind)) {
        issues.push(
            createEntryIssue('GRD-010', joinPointer(path, 'kind'), {
                field: 'graderIdentity.kind',
                expected: GRADER_KINDS.join(', '),
                actual: describeValue(g.kind)
            })
        )
    }
    issues.push(...parseArgs(GRADER_STRINGS, g, CODES, { ...STYLE, at }).errors)
    for (const key of Object.keys(g)) {
        if (!GRADER_FIELDS.has(key)) issues.push(createEntryIssue('GRD-008', joinPointer(path, key), { field: key }))
    }
    return issues
}

/**
 * Checks a categorical veto record (chapter 08 §6.2), collecting every defect. Stricter than the
 * schema where the spec's intent is clear: an `ai-security-veto` needs non-blank reasoning and
 * evidence, not merely present strings.
 */
export function validateVetoRecord(value: unknown, path: string): Issue[] {
    const at = pointerKeys(path)
    const root = parseArgs(VETO, value, CODES, { ...STYLE, at })
    if (root.value === null) return root.errors
    const veto = root.value
    const issues: Issue[] = []
    if (veto.triggeredBy === undefined)
        issues.push(createEntryIssue('GRD-001', joinPointer(path, 'triggeredBy'), { field: 'triggeredBy' }))
    else if (!(VETO_TRIGGERS as readonly unknown[]).includes(veto.triggeredBy))
        issues.push(
            createEntryIssue('VET-001', joinPointer(path, 'triggeredBy'), { value: describeValue(veto.triggeredBy) })
        )
    if (veto.graderIdentity === undefined) issues.push(createEntryIssue('VET-004', joinPointer(path, 'graderIdentity')))
    else issues.push(...validateGraderIdentity(veto.graderIdentity, joinPointer(path, 'graderIdentity')))
    if (!isNonEmpty(veto.evidence)) issues.push(createEntryIssue('VET-002', joinPointer(path, 'evidence')))
    issues.push(...parseArgs(REASONING, veto, CODES, { ...STYLE, at }).errors)
    if (veto.triggeredBy === 'ai-security-veto' && !isNonEmpty(veto.reasoning))
        issues.push(createEntryIssue('VET-003', joinPointer(path, 'reasoning')))
    if (!isIsoDateTime(veto.timestamp))
        issues.push(
            createEntryIssue('VET-005', joinPointer(path, 'timestamp'), { value: describeValue(veto.timestamp) })
        )
    for (const key of Object.keys(veto)) {
        if (!VETO_FIELDS.has(key)) issues.push(createEntryIssue('VET-006', joinPointer(path, key), { field: key }))
    }
    return issues
}
