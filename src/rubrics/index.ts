import * as v from 'valibot'
import { SEVERITY } from '../model/constants.js'
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { type ArgCodes, objectArg, parseArgs, pointerKeys } from '../validation/args.js'
import { JUDGE_SYSTEM_VERSION } from './judge/constants.js'
import { evaluateJudge } from './judge/evaluate.js'
import { validateJudgeRubric, type JudgeRubricValidation } from './judge/rubric-document.js'
import type { JudgeEvaluation } from './judge/types.js'
import { WORKFLOW_SYSTEM_VERSION } from './workflow/constants.js'
import { evaluateWorkflow } from './workflow/evaluate.js'
import { validateWorkflowRubric, type WorkflowRubricValidation } from './workflow/rubric-document.js'
import type { WorkflowEvaluation } from './workflow/types.js'

export * from './judge/index.js'
export * from './workflow/index.js'

/** The rubric systems this library implements. */
export const RUBRIC_SYSTEMS = Object.freeze([JUDGE_SYSTEM_VERSION, WORKFLOW_SYSTEM_VERSION] as const)

/** A rubric system version string. */
export type RubricSystem = (typeof RUBRIC_SYSTEMS)[number]

/** The result of `evaluateRubricInput`. */
export interface RubricEvaluationResult {
    /** The system the input named, or `null` when it named none this library knows. */
    readonly system: RubricSystem | null
    /** The evaluation, or `null` when `errors` holds an error. */
    readonly result: JudgeEvaluation | WorkflowEvaluation | null
    readonly errors: readonly Issue[]
}

/** The result of `validateRubricDocument`. */
export interface RubricDocumentValidation {
    readonly system: RubricSystem | null
    /** The validation (`{ system, valid, errors }`), or `null` when the system is unknown. */
    readonly result: JudgeRubricValidation | WorkflowRubricValidation | null
    readonly errors: readonly Issue[]
}

// RUB-002 takes the part's name (`input`, `document`) and the JSON type received, whichever level is no object.
const PART_ARGS: ArgCodes<'RUB-002'> = {
    mismatch: 'RUB-002',
    create: (code, path, { field, actual }) => createIssue(code, path, { field, actual })
}

function readField(value: unknown, field: string): { object: Record<string, unknown> | null; errors: Issue[] } {
    const part = objectArg({ expected: 'object', actual: 'type', field })
    try {
        // The argument itself no object is reported at the part it should hold; at the root only when absent.
        const outer = parseArgs(part, value, PART_ARGS, { at: value === undefined ? [] : [field] })
        if (outer.value === null) return { object: null, errors: outer.errors }
        const extra = Object.keys(outer.value)
            .filter((key) => key !== field)
            .map((key) => createIssue('RUB-003', pointer(key), { field: key }))
        // Own keys only: a part the argument inherits is absent.
        const own = Object.hasOwn(outer.value, field) ? outer.value[field] : undefined
        const inner = parseArgs(part, own, PART_ARGS, { at: [field] })
        if (inner.value === null) return { object: null, errors: [...extra, ...inner.errors] }
        if (extra.length > 0) {
            return { object: null, errors: extra }
        }
        // A fresh copy: what we hand on is a plain object even if the caller's was exotic.
        return { object: Object.fromEntries(Object.entries(inner.value)), errors: [] }
    } catch {
        return { object: null, errors: [createIssue('RUB-002', `/${field}`, { field, actual: 'unreadable value' })] }
    }
}

// RUB-001 words an absent system `missing` (the missing finding has no `actual`) and any other value as itself.
const SYSTEM_ARGS: ArgCodes<'RUB-001'> = {
    missing: 'RUB-001',
    mismatch: 'RUB-001',
    create: (code, path, { actual }) =>
        createIssue(code, path, { value: actual ?? 'missing', expected: RUBRIC_SYSTEMS.join(', ') })
}
const SYSTEM = v.object({ system: v.picklist(RUBRIC_SYSTEMS) })

// `object` is readField's fresh plain copy, so the schema reads `system` as an own key.
function systemOf(object: Record<string, unknown>, base: string): { system: RubricSystem | null; errors: Issue[] } {
    const parsed = parseArgs(SYSTEM, object, SYSTEM_ARGS, { at: pointerKeys(base) })
    return parsed.value === null ? { system: null, errors: parsed.errors } : { system: parsed.value.system, errors: [] }
}

function rebase(issues: readonly Issue[], from: string, to: string): Issue[] {
    return issues.map((issue) =>
        issue.path === from || issue.path.startsWith(`${from}/`)
            ? { ...issue, path: to + issue.path.slice(from.length) }
            : { ...issue, path: to + issue.path }
    )
}

/**
 * Evaluates a parsed rubric input for the CLI: `{ system: 'judgeSystem/1.0.0' | 'workflowSystem/1.0.0', ... }`
 * goes to `JudgeRubric.evaluate` or `WorkflowRubric.evaluate` without its `system` field.
 * @param input - `{ input }`, the parsed JSON
 * @returns `{ system, result, errors }`; issue paths point into `input` (`/input/...`). Codes: `RUB-001` unknown or
 *   missing system, `RUB-002` not an object, `RUB-003` unknown property, plus every code of the chosen `evaluate`.
 * @example evaluateRubricInput({ input: { system: 'judgeSystem/1.0.0', scores } }).result?.grade
 */
export function evaluateRubricInput(input: { input: unknown }): RubricEvaluationResult {
    const read = readField(input, 'input')
    if (read.object === null) return { system: null, result: null, errors: read.errors }
    const { system, errors } = systemOf(read.object, '/input')
    if (system === null) return { system, result: null, errors }
    const rest = Object.fromEntries(Object.entries(read.object).filter(([key]) => key !== 'system'))
    const evaluation = system === JUDGE_SYSTEM_VERSION ? evaluateJudge(rest) : evaluateWorkflow(rest)
    const issues = rebase(evaluation.errors, '', '/input')
    const failed = issues.some((issue) => issue.severity === SEVERITY.error)
    return { system, result: failed ? null : { ...evaluation, errors: issues }, errors: issues }
}

/**
 * Validates a rubric document for the CLI: `{ system: 'judgeSystem/1.0.0', rubric_id, ... }` goes to
 * `JudgeRubric.validateRubric`, `{ system: 'workflowSystem/1.0.0', rubric_id, version, criteria }` to
 * `WorkflowRubric.validateRubric`.
 * @param input - `{ document }`, the parsed JSON
 * @returns `{ system, result: { system, valid, errors }, errors }`; issue paths point into `document`
 *   (`/document/...`). Codes: `RUB-001`, `RUB-002`, `RUB-003`, plus every code of the chosen validator.
 * @example validateRubricDocument({ document }).result?.valid
 */
export function validateRubricDocument(input: { document: unknown }): RubricDocumentValidation {
    const read = readField(input, 'document')
    if (read.object === null) return { system: null, result: null, errors: read.errors }
    const { system, errors } = systemOf(read.object, '/document')
    if (system === null) return { system, result: null, errors }
    const validation =
        system === JUDGE_SYSTEM_VERSION
            ? validateJudgeRubric({ rubric: read.object })
            : validateWorkflowRubric({ rubric: read.object })
    const issues = rebase(validation.errors, '/rubric', '/document')
    return { system, result: { ...validation, errors: issues }, errors: issues }
}
