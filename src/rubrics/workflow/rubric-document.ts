import { SEVERITY } from '../../model/constants.js'
import { createIssue } from '../../errors/issue.js'
import { pointer } from '../../errors/pointer.js'
import type { Issue } from '../../errors/types.js'
import { validateWorkflowRubricSchema } from '../../validation/validators.js'
import type { ErrorObject } from '../../validation/types.js'
import { guardInput, isRecord, unknownKeys } from '../shared/guard.js'
import { abs, cmp, decimalText, fromNumber, sub, sum } from '../shared/rational.js'
import { WORKFLOW_SYSTEM_VERSION, WORKFLOW_WEIGHT_TOLERANCE } from './constants.js'
import { WORKFLOW_GUARD } from './parse.js'

/** The shipped JSON Schema's `$id`. */
export const WORKFLOW_RUBRIC_SCHEMA_ID = 'https://flowmcp-grading.dev/schemas/workflow-rubric.schema.json'

/** A scale may have at most this many score points (each needs an anchor). */
export const WORKFLOW_MAX_SCALE_POINTS = 11

/** The result of `WorkflowRubric.validateRubric`. */
export interface WorkflowRubricValidation {
    readonly system: string
    readonly valid: boolean
    readonly errors: readonly Issue[]
}

function ajvIssue(error: ErrorObject, base: string): Issue {
    const params = error.params as Record<string, unknown>
    let path = base + error.instancePath
    if (error.keyword === 'required' && typeof params.missingProperty === 'string')
        path += pointer(params.missingProperty)
    if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string')
        path += pointer(params.additionalProperty)
    // A failing property name is reported on the name itself: ajv puts it on the error (inner
    // keyword) or in params (the propertyNames keyword).
    const name = error.propertyName ?? (error.keyword === 'propertyNames' ? params.propertyName : undefined)
    if (typeof name === 'string') path += pointer(name)
    return createIssue('WFL-015', path, { keyword: error.keyword, detail: error.message ?? 'invalid' })
}

/** Checks what JSON Schema cannot: scale order, anchors for exactly the score points, floors, names, weight sum. */
function semanticIssues(rubric: Record<string, unknown>, base: string): Issue[] {
    const issues: Issue[] = []
    const criteria = Array.isArray(rubric.criteria) ? rubric.criteria : []
    const names = new Set<string>()
    const weights: number[] = []
    criteria.forEach((c: unknown, i) => {
        if (!isRecord(c)) return
        const at = base + pointer('criteria', i)
        if (typeof c.name === 'string') {
            if (names.has(c.name)) issues.push(createIssue('WFL-008', `${at}/name`, { value: c.name }))
            names.add(c.name)
        }
        if (typeof c.weight === 'number') weights.push(c.weight)
        const scale = c.scale
        if (!Array.isArray(scale) || scale.length !== 2 || !Number.isInteger(scale[0]) || !Number.isInteger(scale[1]))
            return
        const [lo, hi] = scale as [number, number]
        const scaleText = `[${lo}, ${hi}]`
        if (lo >= hi || hi - lo + 1 > WORKFLOW_MAX_SCALE_POINTS) {
            issues.push(createIssue('WFL-016', `${at}/scale`, { value: scaleText, limit: WORKFLOW_MAX_SCALE_POINTS }))
            return
        }
        if (isRecord(c.anchors)) {
            const anchors = c.anchors
            for (let point = lo; point <= hi; point += 1) {
                if (!Object.hasOwn(anchors, String(point)))
                    issues.push(createIssue('WFL-017', `${at}/anchors`, { point, scale: scaleText }))
            }
            for (const key of Object.keys(anchors)) {
                const point = Number(key)
                if (/^-?(0|[1-9][0-9]*)$/.test(key) && (point < lo || point > hi))
                    issues.push(
                        createIssue('WFL-018', `${at}/anchors${pointer(key)}`, { point: key, scale: scaleText })
                    )
            }
        }
        if (typeof c.critical_floor === 'number' && (c.critical_floor < lo || c.critical_floor > hi)) {
            issues.push(createIssue('WFL-020', `${at}/critical_floor`, { value: c.critical_floor, scale: scaleText }))
        }
    })
    if (weights.length > 0 && weights.length === criteria.length) {
        const total = sum(weights.map(fromNumber))
        if (cmp(abs(sub(total, fromNumber(1))), fromNumber(WORKFLOW_WEIGHT_TOLERANCE)) > 0) {
            issues.push(
                createIssue('WFL-019', `${base}/criteria`, {
                    tolerance: WORKFLOW_WEIGHT_TOLERANCE,
                    sum: decimalText(total)
                })
            )
        }
    }
    return issues
}

/** `WorkflowRubric.validateRubric` without the class. */
export function validateWorkflowRubric(input: unknown): WorkflowRubricValidation {
    const done = (errors: Issue[]): WorkflowRubricValidation => ({
        system: WORKFLOW_SYSTEM_VERSION,
        valid: !errors.some((e) => e.severity === SEVERITY.error),
        errors
    })
    const guarded = guardInput(input, WORKFLOW_GUARD)
    if (guarded.value === null) return done(guarded.errors)
    const errors: Issue[] = unknownKeys(guarded.value, ['rubric'], '').map(([key, path]) =>
        createIssue('WFL-021', path, { field: key })
    )
    const rubric = guarded.value.rubric
    if (rubric === undefined) return done([...errors, createIssue('WFL-002', '/rubric', { field: 'rubric' })])
    // schemas/workflow-rubric.schema.json, as ajv's code generated at build time (src/validation/validators.ts).
    const validate = validateWorkflowRubricSchema
    if (!validate(rubric)) {
        errors.push(...(validate.errors ?? []).map((e) => ajvIssue(e, '/rubric')))
    }
    if (isRecord(rubric)) errors.push(...semanticIssues(rubric, '/rubric'))
    return done(errors)
}
