import { describeValue, typeOfValue } from '../errors/issue.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import { joinPointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { GRADER_KINDS, VETO_TRIGGERS } from '../model/constants.js'
import { isIsoDateTime } from '../time.js'

const VETO_FIELDS = new Set(['triggeredBy', 'graderIdentity', 'evidence', 'reasoning', 'timestamp'])
const GRADER_FIELDS = new Set(['kind', 'name', 'version'])

const isNonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0

/** Checks a `graderIdentity` object; shared by vetoes and answers. */
export function validateGraderIdentity(value: unknown, path: string): Issue[] {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return [
            createEntryIssue('GRD-002', path, {
                field: 'graderIdentity',
                expected: 'object',
                actual: typeOfValue(value)
            })
        ]
    }
    const g = value as Record<string, unknown>
    const issues: Issue[] = []
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
    for (const key of ['name', 'version'] as const) {
        if (g[key] === undefined) issues.push(createEntryIssue('GRD-001', joinPointer(path, key), { field: key }))
        else if (!isNonEmpty(g[key]))
            issues.push(
                createEntryIssue('GRD-002', joinPointer(path, key), {
                    field: key,
                    expected: 'non-empty string',
                    actual: typeOfValue(g[key])
                })
            )
    }
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
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return [
            createEntryIssue('GRD-002', path, {
                field: 'categoricalVeto',
                expected: 'object or null',
                actual: typeOfValue(value)
            })
        ]
    }
    const veto = value as Record<string, unknown>
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
    if (veto.reasoning !== undefined && typeof veto.reasoning !== 'string') {
        issues.push(
            createEntryIssue('GRD-002', joinPointer(path, 'reasoning'), {
                field: 'reasoning',
                expected: 'string',
                actual: typeOfValue(veto.reasoning)
            })
        )
    }
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
