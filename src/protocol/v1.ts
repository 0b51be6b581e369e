import * as v from 'valibot'
import { isObject } from '../model/object.js'
import { createIssue, dedupeIssues, describeValue, typeOfValue } from '../errors/issue.js'
import { fieldPath, joinPointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import type { CrossAreaQuestionId } from '../model/question-ids.js'
import { inspectJson, parseJsonText, type JsonLimits } from '../json/guard.js'
import { isIsoDateTime } from '../time.js'
import { validatePromptsV1, validateScoresV1 } from '../validation/validators.js'
import type { ErrorObject } from '../validation/types.js'
import { SCORING_PROTOCOL_VERSION } from '../version.js'
import { objectArg, parseArgs } from '../validation/args.js'

/** The two transport dimensions, in the fixed order of the v1 grader (05 §2.1). */
export const TRANSPORT_DIMENSIONS = Object.freeze(['whenToUse', 'parameters'] as const)
export type TransportDimension = (typeof TRANSPORT_DIMENSIONS)[number]
/** Question ids the transport dimensions map to in a grading entry (04 §1.8). */
export const TRANSPORT_QUESTION_IDS: Readonly<Record<TransportDimension, CrossAreaQuestionId>> = Object.freeze({
    whenToUse: 'Q-when-to-use',
    parameters: 'Q-parameters'
})

/** One rating prompt of prompts.json v1. */
export interface EvalPrompt {
    readonly dimension: TransportDimension
    readonly prompt: string
}

/** prompts.json, Scoring Protocol v1 (written by the CLI, read by the grader). */
export interface PromptsV1 {
    readonly schemaId: string
    readonly schemaIdSlug: string
    readonly schemaPath: string
    readonly scoringProtocol: 'v1'
    readonly scoringInstructions: string
    readonly prompts: readonly EvalPrompt[]
}

/** Transport harness object (04 ⚠ D2: not the entry's `harness` string). */
export interface TransportHarness {
    readonly name: string
    readonly version: string
    readonly model: string
    readonly modelContext: string
}

/** Who produced the scores. */
export interface TransportCreator {
    readonly skill: string
    readonly skillVersion: string
    readonly session: string
}

/** One dimension score. */
export interface TransportScore {
    readonly dimension: TransportDimension
    readonly score: number
    readonly reasoning: string
}

/** scores.json, Scoring Protocol v1 (written by the grader). */
export interface ScoresV1 {
    readonly schemaIdSlug: string
    readonly scoringProtocol: 'v1'
    readonly creator: TransportCreator
    readonly harness: TransportHarness
    readonly timestamp: string
    readonly scores: readonly TransportScore[]
}

type Obj = Record<string, unknown>

/** `/` → `_` (replace-all; 04 §1.6). */
export function slugOf(schemaId: string): string {
    return schemaId.split('/').join('_')
}

/** A v1 schema id has exactly one `/` with a non-empty, whitespace-free part on each side. */
export const SCHEMA_ID_V1 = /^[^/\s]+\/[^/\s]+$/

function mapAjv(err: ErrorObject): Issue | null {
    const at = err.instancePath
    const params = err.params as Obj
    if (/^\/scores\/\d+\/score$/.test(at)) {
        return err.keyword === 'type'
            ? createIssue('SPV-002', at, {
                  field: fieldPath(at, 'document'),
                  expected: 'number',
                  actual: typeOfValue(err.data)
              })
            : createIssue('SPV-007', at, { value: describeValue(err.data) })
    }
    switch (err.keyword) {
        case 'required':
            return createIssue('SPV-001', joinPointer(at, String(params.missingProperty)), {
                field: String(params.missingProperty)
            })
        case 'additionalProperties':
            return createIssue('SPV-011', joinPointer(at, String(params.additionalProperty)), {
                field: String(params.additionalProperty)
            })
        case 'type':
            return createIssue('SPV-002', at, {
                field: fieldPath(at, 'document'),
                expected: String(params.type),
                actual: typeOfValue(err.data)
            })
        case 'enum':
            if (/\/dimension$/.test(at))
                return createIssue('SPV-004', at, {
                    value: describeValue(err.data),
                    expected: TRANSPORT_DIMENSIONS.join(', ')
                })
            return createIssue('SPV-002', at, {
                field: fieldPath(at, 'document'),
                expected: ((params.allowedValues as unknown[]) ?? []).join(' | '),
                actual: describeValue(err.data)
            })
        case 'const':
            return at === '/scoringProtocol' ? createIssue('SPV-003', at, { value: describeValue(err.data) }) : null
        case 'minLength':
            return createIssue('SPV-015', at, { field: fieldPath(at, 'document') })
        case 'minItems':
            return createIssue('SPV-015', at, { field: fieldPath(at, 'document') })
        case 'format':
            return createIssue('SPV-012', at, { field: fieldPath(at, 'document'), value: describeValue(err.data) })
        case 'pattern':
            if (at === '/schemaId') return createIssue('SPV-008', at, { value: describeValue(err.data) })
            return createIssue('SPV-002', at, {
                field: fieldPath(at, 'document'),
                expected: `pattern ${String(params.pattern)}`,
                actual: describeValue(err.data)
            })
        default:
            return null
    }
}

const TEXT = v.looseObject({ text: v.string() })
const STYLE = { actual: 'type' } as const
/** A document read is an object, or a wrong type named after the document (`prompts`, `scores`). */
const documentOf = (field: string) => objectArg({ expected: 'object', actual: 'type', field, missing: false })
const PROMPTS_DOCUMENT = documentOf('prompts')
const SCORES_DOCUMENT = documentOf('scores')
// The document's wording never reports it missing (an absent one is a wrong type here): SPV-001 only types the factory.
const DOCUMENT_ARGS = { missing: 'SPV-001', mismatch: 'SPV-002', create: createIssue } as const

/** Reads a document given as a value or as JSON text, within the limits. */
export function readDocument(
    value: unknown,
    text: unknown,
    field: string,
    limits: JsonLimits,
    missing: 'SPV-001' | 'PB-001'
): { doc: unknown; errors: Issue[] } {
    if (value === undefined && text === undefined)
        return { doc: undefined, errors: [createIssue(missing, `/${field}`, { field })] }
    if (value !== undefined) {
        const guard = inspectJson(value, limits, `/${field}`)
        return guard.length > 0 ? { doc: undefined, errors: guard } : { doc: value, errors: [] }
    }
    const codes = { mismatch: missing === 'SPV-001' ? 'SPV-002' : 'PB-002', create: createIssue } as const
    const given = parseArgs(TEXT, { text }, codes, STYLE)
    if (given.value === null) return { doc: undefined, errors: given.errors }
    const parsed = parseJsonText(given.value.text, limits)
    return { doc: parsed.value, errors: parsed.errors }
}

/** A NaN or ±Infinity in a score is a bad score, not just bad JSON. */
function recodeGuard(issues: Issue[]): Issue[] {
    return issues.map((i) =>
        i.code === 'INP-001' && /^(?:\/scores)?\/scores\/\d+\/score$/.test(i.path)
            ? createIssue('SPV-007', i.path, { value: 'non-finite number' })
            : i
    )
}

/** Validates prompts.json v1 (already read). Paths are relative to the document. */
export function checkPromptsV1(input: unknown): { prompts: PromptsV1 | null; errors: Issue[] } {
    const root = parseArgs(PROMPTS_DOCUMENT, input, DOCUMENT_ARGS, STYLE)
    if (root.value === null) return { prompts: null, errors: root.errors }
    const doc = root.value
    // Version first: an unknown protocol is rejected before anything else is interpreted (04 §1.1).
    if (doc.scoringProtocol !== SCORING_PROTOCOL_VERSION) {
        return {
            prompts: null,
            errors: [
                doc.scoringProtocol === undefined
                    ? createIssue('SPV-001', '/scoringProtocol', { field: 'scoringProtocol' })
                    : createIssue('SPV-003', '/scoringProtocol', { value: describeValue(doc.scoringProtocol) })
            ]
        }
    }
    const validate = validatePromptsV1
    validate(doc)
    const errors = (validate.errors ?? []).map(mapAjv).filter((i): i is Issue => i !== null)
    if (errors.length === 0) {
        const dims = (doc.prompts as EvalPrompt[]).map((p) => p.dimension)
        if (dims.join(',') !== TRANSPORT_DIMENSIONS.join(','))
            errors.push(createIssue('SPV-017', '/prompts', { actual: dims.join(', ') }))
        if (doc.schemaIdSlug !== slugOf(doc.schemaId as string))
            errors.push(
                createIssue('SPV-009', '/schemaIdSlug', {
                    actual: describeValue(doc.schemaIdSlug),
                    expected: slugOf(doc.schemaId as string)
                })
            )
    }
    return errors.length > 0
        ? { prompts: null, errors: dedupeIssues(errors) }
        : { prompts: doc as unknown as PromptsV1, errors: [] }
}

/** Validates scores.json v1 (already read) and, when given, its match with the prompts it answers. */
export function checkScoresV1(input: unknown, prompts: PromptsV1 | null): { scores: ScoresV1 | null; errors: Issue[] } {
    const root = parseArgs(SCORES_DOCUMENT, input, DOCUMENT_ARGS, STYLE)
    if (root.value === null) return { scores: null, errors: root.errors }
    const doc = root.value
    if (doc.scoringProtocol !== SCORING_PROTOCOL_VERSION) {
        return {
            scores: null,
            errors: [
                doc.scoringProtocol === undefined
                    ? createIssue('SPV-001', '/scoringProtocol', { field: 'scoringProtocol' })
                    : createIssue('SPV-003', '/scoringProtocol', { value: describeValue(doc.scoringProtocol) })
            ]
        }
    }
    const validate = validateScoresV1
    validate(doc)
    const errors = (validate.errors ?? []).map(mapAjv).filter((i): i is Issue => i !== null)
    if (typeof doc.timestamp === 'string' && !isIsoDateTime(doc.timestamp))
        errors.push(createIssue('SPV-012', '/timestamp', { field: 'timestamp', value: describeValue(doc.timestamp) }))
    const list = Array.isArray(doc.scores) ? doc.scores : []
    const counts = new Map<string, number>()
    list.forEach((s, i) => {
        if (!isObject(s) || typeof s.dimension !== 'string') return
        if ((TRANSPORT_DIMENSIONS as readonly string[]).includes(s.dimension)) {
            const n = (counts.get(s.dimension) ?? 0) + 1
            counts.set(s.dimension, n)
            if (n === 2) errors.push(createIssue('SPV-006', `/scores/${i}/dimension`, { dimension: s.dimension }))
        }
    })
    const expected = prompts === null ? [...TRANSPORT_DIMENSIONS] : prompts.prompts.map((p) => p.dimension)
    if (Array.isArray(doc.scores)) {
        for (const dimension of expected)
            if (!counts.has(dimension)) errors.push(createIssue('SPV-005', '/scores', { dimension }))
    }
    if (prompts !== null) {
        if (typeof doc.schemaIdSlug === 'string' && doc.schemaIdSlug !== prompts.schemaIdSlug) {
            errors.push(
                createIssue('SPV-009', '/schemaIdSlug', { actual: doc.schemaIdSlug, expected: prompts.schemaIdSlug })
            )
        }
        const answered = [...counts.keys()]
        const extra = answered.filter((d) => !expected.includes(d as TransportDimension))
        if (extra.length > 0)
            errors.push(
                createIssue('SPV-010', '/scores', { actual: answered.join(', '), expected: expected.join(', ') })
            )
    }
    return errors.length > 0
        ? { scores: null, errors: dedupeIssues(recodeGuard(errors)) }
        : { scores: doc as unknown as ScoresV1, errors: [] }
}

export { recodeGuard }
