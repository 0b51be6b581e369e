import masterSchema from '../../schemas/area-output/_master.schema.json' with { type: 'json' }
import aboutNamespace from '../../schemas/area-output/about-namespace.schema.json' with { type: 'json' }
import aboutSelection from '../../schemas/area-output/about-selection.schema.json' with { type: 'json' }
import namespaceDescription from '../../schemas/area-output/namespace-description.schema.json' with { type: 'json' }
import namespaceSkills from '../../schemas/area-output/namespace-skills.schema.json' with { type: 'json' }
import selectionAggregate from '../../schemas/area-output/selection-aggregate.schema.json' with { type: 'json' }
import selectionSkillsL1 from '../../schemas/area-output/selection-skills-L1.schema.json' with { type: 'json' }
import selectionSkillsL2 from '../../schemas/area-output/selection-skills-L2.schema.json' with { type: 'json' }
import selectionSkillsL3 from '../../schemas/area-output/selection-skills-L3.schema.json' with { type: 'json' }
import singleTest from '../../schemas/area-output/single-test.schema.json' with { type: 'json' }
import toolsAggregateNamespace from '../../schemas/area-output/tools-aggregate-namespace.schema.json' with {
    type: 'json'
}
import toolsAggregateSchema from '../../schemas/area-output/tools-aggregate-schema.schema.json' with { type: 'json' }
import { createIssue, dedupeIssues, describeValue, rebaseIssues, typeOfValue } from '../errors/issue.js'
import { fieldPath, joinPointer, pointer } from '../errors/pointer.js'
import { calendarProblem } from '../grading/calendar.js'
import type { Issue } from '../errors/types.js'
import { inspectJson, type JsonLimits } from '../json/guard.js'
import { SEVERITY, SCORE_ENUMS, type Area, type NaReason, type Score } from '../model/constants.js'
import type { Persona } from '../model/types.js'
import * as areaValidators from '../validation/validators.js'
import type { ErrorObject, ValidateFunction } from '../validation/types.js'
import { AREA_CATALOGUE, AREA_OUTPUT_MASTER_ID, isArea, MAX_ITERATIONS } from './catalogue.js'
import { isObject } from '../model/object.js'
import { objectArg, parseArgs } from '../validation/args.js'

/** The area output schemas this library ships, keyed by area (draft 2020-12, absolute `$id`s). */
export const AREA_OUTPUT_SCHEMAS: Readonly<Record<Area, object>> = Object.freeze({
    'single-test': singleTest,
    'tools-aggregate-schema': toolsAggregateSchema,
    'tools-aggregate-namespace': toolsAggregateNamespace,
    'namespace-description': namespaceDescription,
    'namespace-skills': namespaceSkills,
    'about-namespace': aboutNamespace,
    'about-selection': aboutSelection,
    'selection-skills-L1': selectionSkillsL1,
    'selection-skills-L2': selectionSkillsL2,
    'selection-skills-L3': selectionSkillsL3,
    'selection-aggregate': selectionAggregate
})

/** The shared `$defs` of the area output schemas. */
export const AREA_OUTPUT_MASTER_SCHEMA: object = masterSchema

function inline(
    node: unknown,
    defs: Readonly<Record<string, unknown>>,
    local: Readonly<Record<string, unknown>>
): unknown {
    if (Array.isArray(node)) return node.map((n) => inline(n, defs, local))
    if (node === null || typeof node !== 'object') return node
    const obj = node as Record<string, unknown>
    if (typeof obj.$ref === 'string') {
        const ref = obj.$ref
        const name = ref.slice(ref.lastIndexOf('/') + 1)
        const target = ref.startsWith(AREA_OUTPUT_MASTER_ID)
            ? defs[name]
            : ref.startsWith('#/$defs/')
              ? local[name]
              : undefined
        if (target !== undefined) return inline(target, defs, local)
    }
    return Object.fromEntries(
        Object.entries(obj)
            // Drop what only a validator needs: ids, comments, local definitions and the "each question once" probes.
            .filter(
                ([k, v]) =>
                    !['$schema', '$id', '$comment', '$defs'].includes(k) &&
                    !(
                        k === 'allOf' &&
                        Array.isArray(v) &&
                        v.every((x) => x !== null && typeof x === 'object' && 'contains' in x)
                    )
            )
            .map(([k, v]) => [k, inline(v, defs, local)])
    )
}

/**
 * A self-contained copy of an area's output schema for a prompt: every `$ref` resolved inline, ids,
 * comments and validator-only parts removed. An evaluator cannot follow references; a validator
 * should keep using the shipped schema.
 */
export function selfContainedOutputSchema(area: Area): object {
    const schema = AREA_OUTPUT_SCHEMAS[area] as Record<string, unknown>
    const defs = (masterSchema as { $defs: Record<string, unknown> }).$defs
    const local = (schema.$defs ?? {}) as Record<string, unknown>
    return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...(inline(schema, defs, local) as object) }
}

/**
 * The self-contained output schema of a reply that answers exactly `asked` (a subset of the area's
 * questions, e.g. without the deterministic ones code answered): `answers` holds those ids, each once.
 * The whole area's schema when `asked` is every question of the area.
 */
export function askedOutputSchema(area: Area, asked: readonly string[]): object {
    const schema = selfContainedOutputSchema(area) as Record<string, unknown>
    const all = AREA_CATALOGUE[area].questionIds
    if (asked.length === all.length && all.every((id) => asked.includes(id))) return schema
    const restrict = (answers: Record<string, unknown>): Record<string, unknown> => {
        const items = answers.items as Record<string, unknown> | undefined
        const parts = Array.isArray(items?.allOf) ? (items.allOf as unknown[]) : []
        const narrowed = parts.map((part) => {
            if (
                !isObject(part) ||
                !isObject(part.properties) ||
                !isObject(part.properties.questionId) ||
                !Array.isArray(part.properties.questionId.enum)
            )
                return part
            const props = part.properties
            return {
                ...part,
                properties: { ...props, questionId: { ...part.properties.questionId, enum: [...asked] } }
            }
        })
        return {
            ...answers,
            minItems: asked.length,
            maxItems: asked.length,
            ...(items !== undefined ? { items: { ...items, allOf: narrowed } } : {})
        }
    }
    const oneOf = Array.isArray(schema.oneOf) ? (schema.oneOf as unknown[]) : []
    return {
        ...schema,
        oneOf: oneOf.map((branch) =>
            isObject(branch) && isObject(branch.properties) && isObject(branch.properties.answers)
                ? { ...branch, properties: { ...branch.properties, answers: restrict(branch.properties.answers) } }
                : branch
        )
    }
}

// What a provider's structured-output mode accepts of a schema (OpenAI's strict mode is the narrowest:
// no oneOf/allOf/if, no pattern/format/minLength, every property required, no open object).
const PROVIDER_KEYWORDS = new Set([
    'type',
    'enum',
    'const',
    'minimum',
    'maximum',
    'minItems',
    'maxItems',
    'description'
])

/**
 * A property schema in the form a provider enforces: `oneOf` as `anyOf`, the keywords it lacks dropped, objects closed.
 */
function providerForm(node: unknown): Record<string, unknown> {
    if (!isObject(node)) return {}
    const choices = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : null
    if (choices !== null)
        return {
            anyOf: choices.map(providerForm),
            ...(typeof node.description === 'string' ? { description: node.description } : {})
        }
    if (node.type === 'object' || isObject(node.properties)) return providerObject([node])
    const kept: Record<string, unknown> = Object.fromEntries(
        Object.entries(node).filter(([k]) => PROVIDER_KEYWORDS.has(k))
    )
    if (node.type === 'array')
        kept.items = providerForm(
            isObject(node.items) && Array.isArray(node.items.allOf)
                ? { type: 'object', allOf: node.items.allOf }
                : node.items
        )
    if (kept.type === undefined && Array.isArray(kept.enum) && kept.enum.every((e) => typeof e === 'string'))
        kept.type = 'string'
    return kept
}

/**
 * An object from its parts (an `allOf` merged, later parts narrowing earlier ones): every property
 * required, an optional one nullable (`null` meaning "not given"); an optional property that may be a
 * free object (an answer's `evidence`) is left out, since a closed schema cannot describe it.
 */
function providerObject(parts: readonly Obj[]): Record<string, unknown> {
    const all = parts.flatMap((p) => [p, ...(Array.isArray(p.allOf) ? (p.allOf as unknown[]).filter(isObject) : [])])
    const props: Record<string, Obj> = {}
    const required = new Set<string>()
    for (const part of all) {
        for (const [key, value] of Object.entries(isObject(part.properties) ? part.properties : {}))
            if (isObject(value)) props[key] = { ...(props[key] ?? {}), ...value }
        for (const key of Array.isArray(part.required) ? part.required : [])
            if (typeof key === 'string') required.add(key)
    }
    const freeObject = (p: Obj): boolean =>
        [p, ...(Array.isArray(p.oneOf) ? p.oneOf : [])].some(
            (x) => isObject(x) && x.type === 'object' && !isObject(x.properties)
        )
    const kept = Object.entries(props).filter(([key, p]) => required.has(key) || !freeObject(p))
    const properties = Object.fromEntries(
        kept.map(([key, p]) => [
            key,
            required.has(key) ? providerForm(p) : { anyOf: [providerForm(p), { type: 'null' }] }
        ])
    )
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }
}

/**
 * The reply schema a provider can enforce (OpenAI's `response_format` `json_schema` with `strict: true`,
 * Anthropic's tool `input_schema`, Ollama's `format`), derived from an area output schema such as
 * {@link askedOutputSchema}'s: an object of `answers` (the questions asked, each once, by the same
 * ids and scores) and `improvementHints` (`[]` for none), every property required and closed. The
 * envelope fields are left out (the library fills them in), and so are the blocker form (a provider
 * enforces an object at the root, never a choice of two) and `evidence` (a free object); an optional
 * field is nullable instead, and a `null` there reads as "not given".
 */
export function providerResponseSchema(outputSchema: object): object {
    const root = outputSchema as Obj
    const branches = Array.isArray(root.oneOf) ? root.oneOf.filter(isObject) : [root]
    const envelope = branches.find((b) => isObject(b.properties) && isObject(b.properties.answers)) ?? {}
    const props = (isObject(envelope.properties) ? envelope.properties : {}) as Obj
    const answers = providerForm(props.answers)
    const hints = providerForm(props.improvementHints ?? { type: 'array', items: { type: 'object', properties: {} } })
    return {
        type: 'object',
        properties: { answers, improvementHints: hints },
        required: ['answers', 'improvementHints'],
        additionalProperties: false
    }
}

/** One answer of an area output (maps to one `gradings[]` element). */
export interface AreaAnswer {
    readonly questionId: string
    readonly score: Score
    readonly reasoning: string
    readonly evidence?: string | Readonly<Record<string, unknown>>
    readonly naReason?: NaReason
}

/** A concrete change the improvement loop can apply. */
export interface ImprovementHint {
    readonly targetField: string
    readonly suggestion: string
    readonly priority: 'low' | 'medium' | 'high'
}

/** The harness answer for one area (04 §2, the chapter 24 envelope). */
export interface AreaOutput {
    readonly gradingId: string
    readonly schemaHash: string
    readonly area: Area
    readonly iteration: number
    readonly timestamp: string
    readonly persona: Persona | null
    readonly answers: readonly AreaAnswer[]
    readonly improvementHints: readonly ImprovementHint[]
    readonly harness: 'claude-code'
}

/** The blocker shortcut: the harness could not satisfy the pre-instructions. */
export interface AreaBlocker {
    readonly blocker: string
    readonly reason: string
}

/** Result of {@link validateAreaOutput}. */
export interface AreaOutputValidation {
    /** True for a valid envelope or a valid blocker. */
    readonly valid: boolean
    readonly kind: 'envelope' | 'blocker' | null
    readonly output: AreaOutput | null
    readonly blocker: AreaBlocker | null
    readonly errors: Issue[]
}

interface Validators {
    readonly envelope: Readonly<Record<Area, ValidateFunction>>
    readonly blocker: ValidateFunction
}

// The master and the eleven area schemas, as ajv's code generated at build time (src/validation/validators.ts):
// each area's `$defs/envelope` and the master's `$defs/blocker`.
function getValidators(): Validators {
    return {
        envelope: {
            'single-test': areaValidators.validate_singleTest,
            'tools-aggregate-schema': areaValidators.validate_toolsAggregateSchema,
            'tools-aggregate-namespace': areaValidators.validate_toolsAggregateNamespace,
            'namespace-description': areaValidators.validate_namespaceDescription,
            'namespace-skills': areaValidators.validate_namespaceSkills,
            'about-namespace': areaValidators.validate_aboutNamespace,
            'about-selection': areaValidators.validate_aboutSelection,
            'selection-skills-L1': areaValidators.validate_selectionSkillsL1,
            'selection-skills-L2': areaValidators.validate_selectionSkillsL2,
            'selection-skills-L3': areaValidators.validate_selectionSkillsL3,
            'selection-aggregate': areaValidators.validate_selectionAggregate
        },
        blocker: areaValidators.validateBlocker
    }
}

type Obj = Record<string, unknown>
const ANSWER_OWNED = /^\/answers\/\d+\/(score|evidence)$/

function isHintPath(path: string): boolean {
    return path === '/improvementHints' || path.startsWith('/improvementHints/')
}

/** A `required` failure: the property's own code where it has one (iteration, hints, naReason), else ARE-002. */
function missingPropertyIssue(at: string, missing: string): Issue {
    const path = joinPointer(at, missing)
    if (at === '' && missing === 'iteration') {
        return createIssue('GRD-030', path, { max: MAX_ITERATIONS, value: 'undefined' })
    }
    if (at === '' && missing === 'improvementHints') {
        return createIssue('GRD-031', path, { detail: 'improvementHints is missing' })
    }
    if (isHintPath(at)) return createIssue('GRD-031', path, { detail: `${missing} is missing` })
    if (/^\/answers\/\d+$/.test(at) && missing === 'naReason') {
        return createIssue('NA-001', path, { detail: 'naReason is required when score is n/a' })
    }
    return createIssue('ARE-002', path, { field: missing })
}

/** An `enum` failure: question ids, n/a reasons, harnesses and base personas have their own codes, else ARE-003. */
function enumIssue(at: string, data: unknown, allowedValues: unknown, area: Area): Issue {
    if (/^\/answers\/\d+\/questionId$/.test(at)) return createIssue('ARE-007', at, { value: describeValue(data), area })
    if (/^\/answers\/\d+\/naReason$/.test(at)) return createIssue('NA-001', at, { detail: describeValue(data) })
    if (at === '/harness') return createIssue('GRD-034', at, { value: describeValue(data) })
    if (at === '/persona/basePersonaId') {
        const detail = `basePersonaId ${describeValue(data)} is not one of the four base personas`
        return createIssue('GRD-032', at, { detail })
    }
    const expected = ((allowedValues as unknown[]) ?? []).map(String).join(' | ')
    return createIssue('ARE-003', at, { field: fieldPath(at, 'output'), expected, actual: describeValue(data) })
}

function mapEnvelopeError(err: ErrorObject, area: Area): Issue | null {
    const at = err.instancePath
    const params = err.params as Obj
    // Failures inside `contains` are the per-item probes of "each question once"; the duplicate check reports them.
    if (err.schemaPath.includes('/contains')) return null
    if (ANSWER_OWNED.test(at) || (at.startsWith('/answers/') && /\/(score|evidence)\//.test(at))) return null
    if (at === '/iteration') return createIssue('GRD-030', at, { max: MAX_ITERATIONS, value: describeValue(err.data) })
    if (isHintPath(at) && err.keyword !== 'required')
        return createIssue('GRD-031', at, { detail: `${at} ${err.message ?? 'is invalid'}` })
    switch (err.keyword) {
        case 'required':
            return missingPropertyIssue(at, String(params.missingProperty))
        case 'additionalProperties':
            return createIssue('ARE-004', joinPointer(at, String(params.additionalProperty)), {
                field: String(params.additionalProperty)
            })
        case 'const':
            if (at === '/area') return createIssue('ARE-005', at, { actual: describeValue(err.data), expected: area })
            return createIssue('ARE-003', at, {
                field: fieldPath(at, 'output'),
                expected: describeValue(params.allowedValue),
                actual: describeValue(err.data)
            })
        case 'type':
            if (at === '/persona') {
                return createIssue('ARE-010', at, {
                    detail: AREA_CATALOGUE[area].personaRequired
                        ? `{basePersonaId, lensId} is required for persona-bound area ${area}`
                        : `must be null for neutral area ${area}`
                })
            }
            return createIssue('ARE-003', at, {
                field: fieldPath(at, 'output'),
                expected: String(params.type),
                actual: typeOfValue(err.data)
            })
        case 'minItems':
        case 'maxItems':
            if (at === '/answers')
                return createIssue('ARE-006', at, {
                    area,
                    expected: AREA_CATALOGUE[area].questionCount,
                    actual: Array.isArray(err.data) ? err.data.length : 0
                })
            return null
        case 'enum':
            return enumIssue(at, err.data, params.allowedValues, area)
        case 'pattern':
            return createIssue('ARE-009', at, {
                field: fieldPath(at, 'output'),
                expected: `pattern ${String(params.pattern)}`
            })
        case 'format':
            return createIssue('ARE-009', at, {
                field: fieldPath(at, 'output'),
                expected: dateTimeExpectation(err.data)
            })
        case 'minLength':
            return createIssue('ARE-003', at, {
                field: fieldPath(at, 'output'),
                expected: 'non-empty string',
                actual: 'empty string'
            })
        default:
            // oneOf / allOf / contains / if: reported precisely by the dedicated checks.
            return null
    }
}

/** What a date-time field should hold, with the calendar problem when the value has the right shape. */
function dateTimeExpectation(value: unknown): string {
    const problem = typeof value === 'string' ? calendarProblem(value) : null
    return problem !== null
        ? `a real calendar date and time (${problem})`
        : `an ISO 8601 date-time such as 2026-05-29T10:00:00Z; got ${describeValue(value)}`
}

/** The output as a whole: an object (its fields are the compiled validators' to check). */
const OUTPUT = objectArg({ expected: 'object (area output or blocker)', actual: 'type' })
const OUTPUT_ARGS = { missing: 'ARE-002', mismatch: 'ARE-003', create: createIssue } as const

// A score is a number 1–5 or an enum value, each wrong form with a code of its own (SCO-001, SCO-003, SCO-005):
// the type finding is the last of those rules, not an argument check, and stays with them.
function scoreIssue(score: unknown, path: string): Issue | null {
    if (score === undefined) return null
    if (typeof score === 'number')
        return score >= 1 && score <= 5 ? null : createIssue('SCO-001', path, { value: describeValue(score) })
    if (typeof score === 'string') {
        if ((SCORE_ENUMS as readonly string[]).includes(score)) return null
        return score.trim() !== '' && Number.isFinite(Number(score))
            ? createIssue('SCO-005', path, { value: score })
            : createIssue('SCO-003', path, { value: score })
    }
    return createIssue('ARE-003', path, {
        field: fieldPath(path, 'output'),
        expected: 'number 1-5 or pass | fail | stale | n/a',
        actual: typeOfValue(score)
    })
}

function answerIssues(answers: unknown): Issue[] {
    if (!Array.isArray(answers)) return []
    const issues: Issue[] = []
    const seen = new Map<string, number>()
    answers.forEach((a, i) => {
        if (!isObject(a)) return
        const s = scoreIssue(a.score, pointer('answers', i, 'score'))
        if (s !== null) issues.push(s)
        if (
            a.evidence !== undefined &&
            !(typeof a.evidence === 'string' ? a.evidence.length > 0 : isObject(a.evidence))
        ) {
            issues.push(
                createIssue('ARE-003', pointer('answers', i, 'evidence'), {
                    field: `answers[${i}].evidence`,
                    expected: 'non-empty string or object',
                    actual: a.evidence === '' ? 'empty string' : typeOfValue(a.evidence)
                })
            )
        }
        if (a.naReason !== undefined && a.score !== 'n/a') {
            issues.push(createIssue('GRD-017', pointer('answers', i, 'naReason'), { score: describeValue(a.score) }))
        }
        if (typeof a.questionId === 'string') seen.set(a.questionId, (seen.get(a.questionId) ?? 0) + 1)
    })
    for (const [questionId, count] of seen) {
        if (count > 1) issues.push(createIssue('ARE-008', '/answers', { questionId, count }))
    }
    return issues
}

/** The blocker shortcut: valid with its blocker and reason, or ARE-018 per schema failure. */
function blockerResult(output: Obj, validate: ValidateFunction): AreaOutputValidation {
    if (validate(output)) {
        const blocker = { blocker: output.blocker as string, reason: output.reason as string }
        return { valid: true, kind: 'blocker', output: null, blocker, errors: [] }
    }
    const errors = (validate.errors ?? []).map((err) => {
        const params = err.params as Obj
        const at = err.instancePath
        if (err.keyword === 'additionalProperties') {
            const name = String(params.additionalProperty)
            const detail = `unknown property ${name} (a blocker has only blocker and reason)`
            return createIssue('ARE-018', `/output${joinPointer(at, name)}`, { detail })
        }
        const path = err.keyword === 'required' ? joinPointer(at, String(params.missingProperty)) : at
        return createIssue('ARE-018', `/output${path}`, { detail: `${path || '/'} ${err.message ?? 'is invalid'}` })
    })
    return { valid: false, kind: 'blocker', output: null, blocker: null, errors: dedupeIssues(errors) }
}

/** ARE-020 for the area's questions answered neither in the output nor by code, or null. */
function coverageIssue(area: Area, answers: readonly unknown[], answeredByCode: ReadonlySet<string>): Issue | null {
    const answered = new Set(answers.map((a: unknown) => (isObject(a) ? a.questionId : undefined)))
    const missing = AREA_CATALOGUE[area].questionIds.filter((id) => !answered.has(id) && !answeredByCode.has(id))
    return missing.length > 0 ? createIssue('ARE-020', '/output/answers', { area, missing: missing.join(', ') }) : null
}

/** ARE-009 when a well-formed schemaHash is not the prefix of the gradingId, or null. */
function gradingIdIssue(output: Obj): Issue | null {
    const { gradingId, schemaHash } = output
    if (typeof gradingId !== 'string' || typeof schemaHash !== 'string') return null
    if (!/^[a-f0-9]{8}$/.test(schemaHash) || gradingId.startsWith(`${schemaHash}--`)) return null
    const expected = `<schemaHash>--<timestamp> with schemaHash ${schemaHash}`
    return createIssue('ARE-009', '/output/gradingId', { field: 'gradingId', expected })
}

const NONE: ReadonlySet<string> = new Set()

/**
 * Validates one harness answer for `area` (issue paths under `/output`): plain-JSON limits, then either the blocker
 * shortcut (an object with a `blocker` key) or the area's envelope schema, then the checks JSON Schema reports poorly
 * (scores, duplicate questions, the gradingId/schemaHash binding). Never throws. `answeredByCode`: deterministic
 * questions code answers beside the output; the output may leave them out, and every other question must be answered
 * (ARE-020 names the ones that are not).
 */
export function validateAreaOutput(
    area: unknown,
    given: unknown,
    limits: JsonLimits,
    answeredByCode: ReadonlySet<string> = NONE
): AreaOutputValidation {
    const none = (errors: Issue[]): AreaOutputValidation => ({
        valid: false,
        kind: null,
        output: null,
        blocker: null,
        errors
    })
    if (given === undefined || given === null) {
        return none([createIssue('ARE-002', '/output', { field: 'output' })])
    }
    const guard = inspectJson(given, limits, '/output')
    if (guard.length > 0) return none(guard)
    const checked = parseArgs(OUTPUT, given, OUTPUT_ARGS, { at: ['output'] })
    if (checked.value === null) return none(checked.errors)
    const output = checked.value
    const { envelope, blocker } = getValidators()
    // The blocker shortcut has the same shape in every area, so it is recognised before the area is looked at.
    if (Object.hasOwn(output, 'blocker')) return blockerResult(output, blocker)
    if (!isArea(area)) {
        return none([
            area === undefined
                ? createIssue('ARE-011', '/area', { field: 'area' })
                : createIssue('ARE-001', '/area', { value: describeValue(area) })
        ])
    }
    const validate = envelope[area]
    validate(output)
    // With code answers beside the output, fewer answers than questions is not by itself an error: coverage is checked
    // below.
    const partial = answeredByCode.size > 0
    const countOnly = (err: ErrorObject): boolean =>
        partial && err.keyword === 'minItems' && err.instancePath === '/answers'
    const mapped = (validate.errors ?? []).map((err) => (countOnly(err) ? null : mapEnvelopeError(err, area)))
    const structural = rebaseIssues(
        mapped.filter((i): i is Issue => i !== null),
        '/output'
    )
    const own = rebaseIssues(answerIssues(output.answers), '/output')
    if (partial && Array.isArray(output.answers)) {
        const coverage = coverageIssue(area, output.answers, answeredByCode)
        if (coverage !== null) own.push(coverage)
    }
    const binding = gradingIdIssue(output)
    if (binding !== null) own.push(binding)
    const errors = dedupeIssues([...structural, ...own])
    if (errors.some((e) => e.severity === SEVERITY.error)) {
        return { valid: false, kind: 'envelope', output: null, blocker: null, errors }
    }
    return { valid: true, kind: 'envelope', output: output as unknown as AreaOutput, blocker: null, errors }
}
