import * as v from 'valibot'
import { isObject } from '../model/object.js'
import { SEVERITY } from '../model/constants.js'
import { createIssue, describeValue, rebaseIssues } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { bandOf } from '../grading/aggregate.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { inspectJson, resolveLimits, type JsonLimits } from '../json/guard.js'
import type { LetterGrade } from '../model/constants.js'
import type { GradingAnswer, GradingEntry } from '../model/types.js'
import { describeRedactions, redactTrusted, Redact, type Redaction } from '../prompts/redact.js'
import { isIsoDateTime } from '../time.js'
import { SCORING_PROTOCOL_VERSION } from '../version.js'
import {
    reportToGradingEntry,
    validateReport,
    type ReportKind,
    type ReportToEntryInput,
    type ReportValidation
} from './report.js'
import {
    checkPromptsV1,
    checkScoresV1,
    readDocument,
    recodeGuard,
    SCHEMA_ID_V1,
    slugOf,
    TRANSPORT_DIMENSIONS,
    TRANSPORT_QUESTION_IDS,
    type EvalPrompt,
    type PromptsV1,
    type ScoresV1,
    type TransportCreator,
    type TransportDimension,
    type TransportHarness
} from './v1.js'
import { guardStatics } from '../errors/guard.js'
import { definedFields } from '../model/fields.js'
import { nullAsMissing, objectArg, parseArgs, says, wholeArg } from '../validation/args.js'

/** The rater instruction written into every prompts.json v1 (our wording; the protocol fixes only its role). */
export const SCORING_INSTRUCTIONS_V1 =
    'You rate FlowMCP schemas. Rate every prompt on its own, using only the text it contains: no outside knowledge, no tools, no earlier scores. Answer with one JSON object, the scores.json of Scoring Protocol v1: { "schemaIdSlug": "<from this file>", "scoringProtocol": "v1", "creator": { "skill", "skillVersion", "session" }, "harness": { "name", "version", "model", "modelContext" }, "timestamp": "<ISO 8601>", "scores": [ { "dimension": "<each dimension below, once>", "score": <1.0-5.0>, "reasoning": "..." } ] }.'

/** Placeholder sentence when no skill `whenToUse` is given (05 §2.1). */
export const NO_SKILL_WHEN_TO_USE = 'No skill whenToUse provided.'

export { TRANSPORT_QUESTION_IDS }

/** One dimension as the report lists it. */
export interface ReportDimension {
    readonly dimension: TransportDimension
    readonly score: number
    readonly weight: number
    readonly reasoning: string
}

/** The grade report (seed 001), with the keys in the order they are written. */
export interface GradeReportV1 {
    readonly schemaId: string
    readonly schemaIdSlug: string
    readonly schemaPath: string
    readonly schemaHash: string
    readonly date: string
    readonly grade: LetterGrade
    readonly score: number
    readonly scoringProtocol: 'v1'
    readonly creator: TransportCreator
    readonly harness: TransportHarness
    readonly timestamps: {
        readonly startedAt: string | null
        readonly scoredAt: string
        readonly gradedAt: string
        readonly reportedAt: string
    }
    readonly dimensions: readonly ReportDimension[]
    readonly validationPassed: boolean
    readonly validationErrors: readonly string[]
}

/** One step that shaped the report grade. */
export type ReportTraceStep =
    | {
          readonly step: 'dimension'
          readonly dimension: TransportDimension
          readonly score: number
          readonly weight: number
      }
    | { readonly step: 'mean'; readonly sum: number; readonly count: number; readonly mean: number }
    | { readonly step: 'validation'; readonly passed: boolean; readonly errorCount: number }
    | { readonly step: 'band'; readonly mean: number; readonly grade: LetterGrade; readonly min: number }
    | { readonly step: 'validation-failed'; readonly grade: 'F' }

/** Deterministic validation outcome of the schema (from the host's validator). */
export interface SchemaValidation {
    readonly passed: boolean
    readonly errors: readonly string[]
}

function scoresAgainst(
    value: unknown,
    prompts: PromptsV1 | null,
    limits: JsonLimits,
    text?: unknown,
    now?: string
): { valid: boolean; scores: ScoresV1 | null; errors: Issue[] } {
    const { doc, errors } = readDocument(value, text, 'scores', limits, 'SPV-001')
    if (errors.length > 0)
        return {
            valid: false,
            scores: null,
            errors: recodeGuard(
                errors.map((i) =>
                    i.path.startsWith('/scores') || i.path === '/text' ? i : { ...i, path: `/scores${i.path}` }
                )
            )
        }
    const checked = checkScoresV1(doc, prompts)
    // The same rule as for entry answers (GRD-061): a score cannot be dated after the time it is read.
    if (checked.scores !== null && now !== undefined && Date.parse(checked.scores.timestamp) > Date.parse(now)) {
        return {
            valid: false,
            scores: null,
            errors: [createIssue('SPV-021', '/scores/timestamp', { value: checked.scores.timestamp, now })]
        }
    }
    return { valid: checked.scores !== null, scores: checked.scores, errors: rebaseIssues(checked.errors, '/scores') }
}

const ABSOLUTE_PATH = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/

function sortedCopy<T extends Record<string, unknown>>(source: T, keys: readonly (keyof T)[]): T {
    return Object.fromEntries(keys.map((k) => [k, source[k]])) as T
}

function evalPromptsOf(
    schema: Record<string, unknown>,
    skill: unknown,
    serverParams: unknown
): { evalPrompts: EvalPrompt[]; redactions: Redaction[]; errors: Issue[] } {
    const whenToUse =
        isObject(skill) && typeof skill.whenToUse === 'string' && skill.whenToUse.length > 0 ? skill.whenToUse : null
    const description = typeof schema.description === 'string' ? schema.description : ''
    const skillSentence = whenToUse === null ? NO_SKILL_WHEN_TO_USE : `The skill says to use it when: "${whenToUse}".`
    const first = `Rate from 1.0 to 5.0 how clearly and specifically the schema description below tells an LLM when to use this schema. ${skillSentence} Schema description: "${description}"`
    const tools = redactTrusted(schema.tools ?? {}, serverParams)
    if (tools.errors.length > 0) return { evalPrompts: [], redactions: [], errors: tools.errors }
    const second = `Rate from 1.0 to 5.0 how well the parameter descriptions of the tools below let an LLM call each tool correctly. Schema: ${JSON.stringify(tools.value)}`
    const a = Redact.text({ text: first, serverParams })
    const b = Redact.text({ text: second, serverParams })
    const redactions = [
        ...a.redactions.map((r) => ({ ...r, path: '/description' })),
        ...tools.redactions.map((r) => ({ ...r, path: `/tools${r.path}` })),
        ...b.redactions.map((r) => ({ ...r, path: '/tools' }))
    ]
    return {
        evalPrompts: [
            { dimension: 'whenToUse', prompt: a.text as string },
            { dimension: 'parameters', prompt: b.text as string }
        ],
        redactions,
        errors: []
    }
}

/** `schema` of buildEvalPrompts: absent or `null` is SPV-001, anything but a plain object SPV-013. */
const SCHEMA_ARGS = { missing: 'SPV-001', mismatch: 'SPV-013', create: createIssue } as const
// Stricter than the v1 grader, which let arrays through: a schema's main export is an object.
const SCHEMA_ARG = v.looseObject({ schema: nullAsMissing(objectArg()) })

function checkSchemaArg(schema: unknown, limits: JsonLimits): Issue[] {
    const checked = parseArgs(SCHEMA_ARG, { schema }, SCHEMA_ARGS, STYLE)
    // An object is then held to the JSON limits: a guard of its own, not an argument check.
    return checked.value === null ? checked.errors : inspectJson(checked.value.schema, limits, '/schema')
}

/** The codes and wording of the argument checks of this module (a nested field is named by its key alone). */
const ARGS = { missing: 'SPV-001', mismatch: 'SPV-002', create: createIssue } as const
const STYLE = { field: 'key', actual: 'type' } as const

const SCHEMA_SOURCE = v.looseObject({ schemaSource: v.string(says('string (the raw schema file text)')) })
const VALIDATION = v.looseObject({
    validation: v.pipe(
        objectArg({ expected: '{ passed, errors }', actual: 'type' }),
        v.looseObject({
            passed: v.boolean(),
            errors: wholeArg(v.array(v.string()), { expected: 'array of strings', actual: 'type' })
        })
    )
})
const SKILL = v.looseObject({ skill: v.optional(objectArg()) })
const SCHEMA_ID = v.looseObject({ schemaId: v.string() })
const SCHEMA_PATH = v.looseObject({ schemaPath: v.string() })
const NAME = v.custom<string>((s) => typeof s === 'string' && s.length > 0)
const SELECTION_CONTEXT = v.pipe(
    objectArg(),
    v.strictObject({ groupId: NAME, personaIds: v.pipe(v.array(NAME), v.minLength(1)), domainDocId: v.optional(NAME) })
)
const ANSWER_ARGS = v.object({
    selectionContext: wholeArg(SELECTION_CONTEXT, {
        expected: '{ groupId, personaIds (non-empty), domainDocId? }',
        actual: 'type'
    }),
    evidence: v.optional(
        v.custom<string | Record<string, unknown>>(
            (e) => (typeof e === 'string' ? e.length > 0 : isObject(e)),
            says({ expected: 'non-empty string or object', actual: 'type' })
        )
    )
})

/** The plain arguments of `buildReport`: the schema text and the two times. */
function checkReportArgs(schemaSource: unknown, now: unknown, startedAt: unknown): Issue[] {
    const errors = parseArgs(SCHEMA_SOURCE, { schemaSource }, ARGS, STYLE).errors
    // A time has a code of its own (SPV-012): a wrong one is not an ISO 8601 date-time, whatever its type.
    if (now === undefined) errors.push(createIssue('SPV-001', '/now', { field: 'now' }))
    else if (!isIsoDateTime(now)) {
        errors.push(createIssue('SPV-012', '/now', { field: 'now', value: describeValue(now) }))
    }
    if (startedAt !== undefined && !isIsoDateTime(startedAt)) {
        errors.push(createIssue('SPV-012', '/startedAt', { field: 'startedAt', value: describeValue(startedAt) }))
    }
    return errors
}

/** The host's validation outcome, checked and copied; `validation` is null when it has errors. */
function checkValidationArg(validation: unknown): { validation: SchemaValidation | null; errors: Issue[] } {
    const parsed = parseArgs(VALIDATION, { validation }, ARGS, STYLE)
    if (parsed.value === null) return { validation: null, errors: parsed.errors }
    const { passed, errors: messages } = parsed.value.validation
    // Two fields that must agree: a rule of the protocol, checked once both have the right type.
    if (passed && messages.length > 0) {
        const actual = `${messages.length} errors`
        const detail = { field: 'errors', expected: 'no errors when passed is true', actual }
        return { validation: null, errors: [createIssue('SPV-002', '/validation/errors', detail)] }
    }
    return { validation: { passed, errors: [...messages] }, errors: [] }
}

/** The graded dimensions of a checked prompts/scores pair, with every step that shaped the grade. */
interface GradedScores {
    readonly dimensions: ReportDimension[]
    readonly mean: number
    readonly grade: LetterGrade
    readonly trace: ReportTraceStep[]
}

/** Equal-weight mean of the dimension scores (in prompt order), then F on a failed validation, else the band. */
function gradeOf(prompts: PromptsV1, scores: ScoresV1, validation: SchemaValidation): GradedScores {
    const byDimension = new Map(scores.scores.map((x) => [x.dimension, x]))
    const trace: ReportTraceStep[] = []
    const dimensions: ReportDimension[] = prompts.prompts.map((prompt) => {
        const x = byDimension.get(prompt.dimension) as ScoresV1['scores'][number]
        trace.push({ step: 'dimension', dimension: x.dimension, score: x.score, weight: 1 })
        return { dimension: x.dimension, score: x.score, weight: 1, reasoning: x.reasoning }
    })
    const sum = dimensions.reduce((acc, d) => acc + d.score, 0)
    const mean = sum / dimensions.length
    trace.push({ step: 'mean', sum, count: dimensions.length, mean })
    trace.push({ step: 'validation', passed: validation.passed, errorCount: validation.errors.length })
    if (!validation.passed) {
        trace.push({ step: 'validation-failed', grade: 'F' })
        return { dimensions, mean, grade: 'F', trace }
    }
    const band = bandOf(mean)
    trace.push({ step: 'band', mean, grade: band.grade, min: band.min })
    return { dimensions, mean, grade: band.grade, trace }
}

const CREATOR_KEYS = ['skill', 'skillVersion', 'session']
const HARNESS_KEYS = ['name', 'version', 'model', 'modelContext']

/** The report object, keys in the order they are written (seed 001). */
function assembleReport(parts: {
    prompts: PromptsV1
    scores: ScoresV1
    validation: SchemaValidation
    graded: GradedScores
    schemaSource: unknown
    now: unknown
    startedAt: unknown
}): GradeReportV1 {
    const { prompts, scores, validation, graded } = parts
    const now = parts.now as string
    const creator = sortedCopy(scores.creator as unknown as Record<string, unknown>, CREATOR_KEYS)
    const harness = sortedCopy(scores.harness as unknown as Record<string, unknown>, HARNESS_KEYS)
    const startedAt = (parts.startedAt as string | undefined) ?? null
    return {
        schemaId: prompts.schemaId,
        schemaIdSlug: prompts.schemaIdSlug,
        schemaPath: prompts.schemaPath,
        schemaHash: HashGenerator.hashBytes({ text: parts.schemaSource as string }).hash as string,
        date: new Date(Date.parse(now)).toISOString().slice(0, 10),
        grade: graded.grade,
        score: graded.mean,
        scoringProtocol: SCORING_PROTOCOL_VERSION,
        creator: creator as unknown as TransportCreator,
        harness: harness as unknown as TransportHarness,
        timestamps: { startedAt, scoredAt: scores.timestamp, gradedAt: now, reportedAt: now },
        dimensions: graded.dimensions,
        validationPassed: validation.passed,
        validationErrors: validation.errors
    }
}

/**
 * Scoring Protocol v1 (Schemas-Spec v4.2.0 chapter 22): the deterministic prompts.json /
 * scores.json / grade report exchange between the CLI and an external grader. Every method is pure;
 * identical inputs give byte-identical output through {@link ScoringProtocol.serialize}.
 */
class ScoringProtocolUnguarded {
    private constructor() {}

    /**
     * The two rating prompts for one schema, `whenToUse` then `parameters` (05 §2.1 rules: the skill's
     * `whenToUse` only when it is a non-empty string, the description as `""` when not a string, the
     * tools as compact JSON). Secrets are redacted (04 ⚠ D9).
     * @param input - `{ schema, skill?, serverParams?, limits? }` with `schema` the `main` export
     * @returns `{ evalPrompts, redactions, errors }`; SPV-001 missing schema, SPV-013 not an object, INP-* not
     *   plain JSON, PB-002 bad serverParams, SPV-WARN-001 when something was redacted.
     * @example
     * ScoringProtocol.buildEvalPrompts({ schema: main }).evalPrompts.map((p) => p.dimension)
     * // ['whenToUse', 'parameters']
     */
    static buildEvalPrompts(input: {
        schema: Readonly<Record<string, unknown>>
        skill?: Readonly<Record<string, unknown>>
        serverParams?: Readonly<Record<string, string>>
        limits?: Partial<JsonLimits>
    }): { evalPrompts: EvalPrompt[]; redactions: Redaction[]; errors: Issue[] } {
        const limits = resolveLimits(input?.limits)
        const schemaErrors = checkSchemaArg(input?.schema, limits)
        if (schemaErrors.length > 0) return { evalPrompts: [], redactions: [], errors: schemaErrors }
        const skill = parseArgs(SKILL, input, ARGS, STYLE)
        if (skill.value === null) return { evalPrompts: [], redactions: [], errors: skill.errors }
        const built = evalPromptsOf(input.schema as Record<string, unknown>, skill.value.skill, input.serverParams)
        if (built.errors.length > 0) return built
        const warnings =
            built.redactions.length > 0
                ? [createIssue('SPV-WARN-001', '/schema', { detail: describeRedactions(built.redactions) })]
                : []
        return { ...built, errors: warnings }
    }

    /**
     * The prompts.json v1 object for one schema, keys in protocol order.
     * @param input - `{ schemaId, schemaPath, schema, skill?, serverParams?, limits? }`; `schemaId` is
     *   `<namespace>/<file-base>`, `schemaPath` absolute
     * @returns `{ prompts, redactions, errors }`; SPV-001/002 missing or mistyped, SPV-008 bad id, SPV-014 relative
     *   path, plus the codes of {@link ScoringProtocol.buildEvalPrompts}.
     * @example
     * ScoringProtocol.emitPrompts({ schemaId: 'mudab/marine-data', schemaPath: '/abs/marine-data.mjs', schema: main })
     *     .prompts?.schemaIdSlug // 'mudab_marine-data'
     */
    static emitPrompts(input: {
        schemaId: string
        schemaPath: string
        schema: Readonly<Record<string, unknown>>
        skill?: Readonly<Record<string, unknown>>
        serverParams?: Readonly<Record<string, string>>
        limits?: Partial<JsonLimits>
    }): { prompts: PromptsV1 | null; redactions: Redaction[]; errors: Issue[] } {
        const { schemaId, schemaPath } = input ?? {}
        // Each string is checked for its type, then for its form (SPV-008, SPV-014: codes of their own).
        const id = parseArgs(SCHEMA_ID, { schemaId }, ARGS, STYLE)
        const errors = [...id.errors]
        if (id.value !== null && !SCHEMA_ID_V1.test(id.value.schemaId))
            errors.push(createIssue('SPV-008', '/schemaId', { value: id.value.schemaId }))
        const path = parseArgs(SCHEMA_PATH, { schemaPath }, ARGS, STYLE)
        errors.push(...path.errors)
        if (path.value !== null && !ABSOLUTE_PATH.test(path.value.schemaPath))
            errors.push(createIssue('SPV-014', '/schemaPath', { value: describeValue(path.value.schemaPath) }))
        const built = ScoringProtocol.buildEvalPrompts(input ?? {})
        const all = [...errors, ...built.errors]
        if (all.some((e) => e.severity === SEVERITY.error)) return { prompts: null, redactions: [], errors: all }
        const prompts: PromptsV1 = {
            schemaId: schemaId as string,
            schemaIdSlug: slugOf(schemaId as string),
            schemaPath: schemaPath as string,
            scoringProtocol: SCORING_PROTOCOL_VERSION,
            scoringInstructions: SCORING_INSTRUCTIONS_V1,
            prompts: built.evalPrompts
        }
        return { prompts, redactions: built.redactions, errors: all }
    }

    /**
     * Validates a prompts.json v1 document (as a value or as JSON text). The protocol version is
     * checked first; an unknown one stops validation.
     * @param input - `{ prompts }` or `{ text }`, plus `limits?`
     * @returns `{ valid, prompts, errors }` with paths under `/prompts`; SPV-001..004, SPV-008, SPV-009, SPV-011,
     *   SPV-015, SPV-017, INP-*.
     * @example ScoringProtocol.validatePrompts({ text: readFileSync('prompts.json', 'utf8') }).valid
     */
    static validatePrompts(input: { prompts?: unknown; text?: unknown; limits?: Partial<JsonLimits> }): {
        valid: boolean
        prompts: PromptsV1 | null
        errors: Issue[]
    } {
        const { doc, errors } = readDocument(
            input?.prompts,
            input?.text,
            'prompts',
            resolveLimits(input?.limits),
            'SPV-001'
        )
        if (errors.length > 0)
            return {
                valid: false,
                prompts: null,
                errors: errors.map((i) =>
                    i.path.startsWith('/prompts') || i.path === '/text' ? i : { ...i, path: `/prompts${i.path}` }
                )
            }
        const checked = checkPromptsV1(doc)
        return {
            valid: checked.prompts !== null,
            prompts: checked.prompts,
            errors: rebaseIssues(checked.errors, '/prompts')
        }
    }

    /**
     * Validates a scores.json v1 document against `schemas/scores-v1.schema.json` and the protocol
     * rules; with `prompts`, also that it answers exactly those prompts. Fail-closed: a malformed
     * judge reply is an error, never a score.
     * @param input - `{ scores }` or `{ text }`, plus `prompts?`, `limits?` and `now?` (the reading time:
     *   a scores.json dated after it is SPV-021)
     * @returns `{ valid, scores, errors }` with paths under `/scores`; SPV-003 unknown protocol, SPV-004 unknown
     *   dimension, SPV-005 missing dimension, SPV-006 duplicate, SPV-007 score outside 1.0–5.0 or not finite,
     *   SPV-002 a non-number, SPV-001 missing creator/harness/timestamp, SPV-009/010 mismatch with the prompts,
     *   SPV-011 unknown field, SPV-012 bad timestamp, INP-* size and depth.
     * @example ScoringProtocol.validateScores({ text, prompts }).valid
     */
    static validateScores(input: {
        scores?: unknown
        text?: unknown
        prompts?: unknown
        limits?: Partial<JsonLimits>
        now?: unknown
    }): { valid: boolean; scores: ScoresV1 | null; errors: Issue[] } {
        const limits = resolveLimits(input?.limits)
        const now = input?.now
        if (now !== undefined && !isIsoDateTime(now))
            return {
                valid: false,
                scores: null,
                errors: [createIssue('SPV-012', '/now', { field: 'now', value: describeValue(now) })]
            }
        let prompts: PromptsV1 | null = null
        if (input?.prompts !== undefined) {
            const p = ScoringProtocol.validatePrompts({ prompts: input.prompts, limits })
            if (p.prompts === null) return { valid: false, scores: null, errors: p.errors }
            prompts = p.prompts
        }
        return scoresAgainst(input?.scores, prompts, limits, input?.text, now)
    }

    /**
     * Builds the grade report of one schema from its prompts, the grader's scores, the raw schema
     * file text and the deterministic validation outcome. `score` is the mean of the dimension scores
     * (equal weights, 04 ⚠ D1); the grade uses the gradingSystem/1.0.0 bands (A ≥ 4.5, B ≥ 3.5,
     * C ≥ 2.5, D ≥ 1.5, else F) on the unrounded mean, and is F whenever the validation failed.
     * @param input - `{ prompts, scores, schemaSource, validation: { passed, errors }, now, startedAt? }`
     * @returns `{ report, suggestedFileName, trace, errors }`; the codes of {@link ScoringProtocol.validateScores},
     *   SPV-001/002 for missing or mistyped arguments, SPV-012 for a bad `now`/`startedAt`.
     * @example
     * ScoringProtocol.buildReport({
     *     prompts,
     *     scores,
     *     schemaSource: text,
     *     validation: { passed: true, errors: [] },
     *     now: '2026-05-18T03:16:00Z'
     * }).report?.grade // 'B'
     */
    static buildReport(input: {
        /** From `emitPrompts` or `validatePrompts` (checked again). */
        prompts: PromptsV1 | null
        /** The scores.json value as parsed: checked here, fail-closed. */
        scores: unknown
        /** The raw schema file text (its `sha256:` is the report's hash). */
        schemaSource: string
        validation: SchemaValidation
        now: string
        startedAt?: string
        limits?: Partial<JsonLimits>
    }): { report: GradeReportV1 | null; suggestedFileName: string | null; trace: ReportTraceStep[]; errors: Issue[] } {
        const { schemaSource, now, startedAt } = input ?? {}
        const args = checkReportArgs(schemaSource, now, startedAt)
        const checked = checkValidationArg(input?.validation)
        const limits = resolveLimits(input?.limits)
        const p = ScoringProtocol.validatePrompts({ prompts: input?.prompts, limits })
        // The prompts are checked once; the scores are then matched against the checked copy.
        const readAt = typeof now === 'string' && isIsoDateTime(now) ? now : undefined
        const s = p.prompts === null ? null : scoresAgainst(input?.scores, p.prompts, limits, undefined, readAt)
        const all = [...args, ...checked.errors, ...p.errors, ...(s?.errors ?? [])]
        if (all.length > 0 || p.prompts === null || s === null || s.scores === null || checked.validation === null) {
            return { report: null, suggestedFileName: null, trace: [], errors: all }
        }
        const prompts = p.prompts
        const graded = gradeOf(prompts, s.scores, checked.validation)
        const validation = checked.validation
        const report = assembleReport({ prompts, scores: s.scores, validation, graded, schemaSource, now, startedAt })
        const suggestedFileName = `${prompts.schemaIdSlug}-${report.date}.json`
        return { report, suggestedFileName, trace: graded.trace, errors: [] }
    }

    /**
     * Checks a v1 grade report: the library's own (`buildReport`) and the public registry's
     * (`registry.json` entries: no slug, creator, harness, timestamps or validationErrors). Beyond the
     * shape, the score must be the mean of the dimension scores and the grade F exactly when the
     * validation failed, else the band of the score.
     * @param input - `{ report }` or `{ text }`, plus `limits?`
     * @returns `{ valid, kind: 'library' | 'registry' | null, report, errors }`; SPV-001/002/005 shape, SPV-018 score,
     *   SPV-019 grade, INP-*.
     * @example ScoringProtocol.validateReport({ report: registryEntry }).kind // 'registry'
     */
    static validateReport(input: { report?: unknown; text?: unknown; limits?: Partial<JsonLimits> }): ReportValidation {
        return validateReport(input ?? {})
    }

    /**
     * Turns a valid v1 report (library or registry) into a `tools-aggregate-schema` grading entry:
     * `ns/file` → `ns.file`, the version → `flowmcp/x.y.z`, `sha256:<hex>` → its first 8 hex digits
     * (the raw-file hash, not the canonical `main` hash); dimensions → `Q-when-to-use`/`Q-parameters`,
     * `validationPassed` → `Q-schema-structure`.
     * @param input - `{ report, version, now?, grader?, personaIds? }`; `grader` is required for a registry report
     * @returns `{ entry, kind, errors }`; the codes of {@link ScoringProtocol.validateReport}, SPV-001/002/012, GRD-*
     * @example
     * ScoringProtocol.reportToGradingEntry({
     *     report,
     *     version: 'v4.0.0',
     *     grader: { name: 'registry', version: 'v1', llmModel: 'unknown' }
     * }).entry?.schemaId
     */
    static reportToGradingEntry(input: ReportToEntryInput): {
        entry: GradingEntry | null
        kind: ReportKind | null
        errors: Issue[]
    } {
        return reportToGradingEntry(input)
    }

    /**
     * The file-path slug of a schema id: every `/` becomes `_`.
     * @param input - `{ schemaId }`
     * @returns `{ slug, errors }`; SPV-001/002 missing or not a string, SPV-008 not `<namespace>/<file-base>`.
     * @example ScoringProtocol.slug({ schemaId: 'coingecko-com/search-ohlc' }).slug // 'coingecko-com_search-ohlc'
     */
    static slug(input: { schemaId: string }): { slug: string | null; errors: Issue[] } {
        const parsed = parseArgs(SCHEMA_ID, { schemaId: input?.schemaId }, ARGS, STYLE)
        if (parsed.value === null) return { slug: null, errors: parsed.errors }
        const id = parsed.value.schemaId
        if (!SCHEMA_ID_V1.test(id)) return { slug: null, errors: [createIssue('SPV-008', '/schemaId', { value: id })] }
        return { slug: slugOf(id), errors: [] }
    }

    /**
     * The suggested report file name `<slug>-<YYYY-MM-DD>.json`.
     * @param input - `{ schemaId, date }` with `date` a `YYYY-MM-DD` date or an ISO date-time (its UTC date is used)
     * @returns `{ fileName, errors }`; the codes of {@link ScoringProtocol.slug}, SPV-001 for a missing date, SPV-012
     *   for a bad one.
     * @example
     * ScoringProtocol.suggestedFileName({ schemaId: 'etherscan-io/contracts', date: '2026-05-18' }).fileName
     * // 'etherscan-io_contracts-2026-05-18.json'
     */
    static suggestedFileName(input: { schemaId: string; date: string }): { fileName: string | null; errors: Issue[] } {
        const { slug, errors } = ScoringProtocol.slug(input ?? {})
        const date = input?.date
        let day: string | null = null
        if (date === undefined) errors.push(createIssue('SPV-001', '/date', { field: 'date' }))
        else if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && isIsoDateTime(`${date}T00:00:00Z`))
            day = date
        else if (isIsoDateTime(date)) day = new Date(Date.parse(date)).toISOString().slice(0, 10)
        else errors.push(createIssue('SPV-012', '/date', { field: 'date', value: describeValue(date) }))
        return slug === null || day === null ? { fileName: null, errors } : { fileName: `${slug}-${day}.json`, errors }
    }

    /**
     * Writes a plain JSON value as text, deterministically: 4-space indentation, keys in insertion
     * order (every object this library builds has a fixed key order), a trailing newline.
     * @param input - `{ value, limits? }`
     * @returns `{ text, errors }`; SPV-001 when `value` is missing, INP-* when it is not plain JSON.
     * @example ScoringProtocol.serialize({ value: report }).text
     */
    static serialize(input: { value?: unknown; limits?: Partial<JsonLimits> }): {
        text: string | null
        errors: Issue[]
    } {
        if (input?.value === undefined)
            return { text: null, errors: [createIssue('SPV-001', '/value', { field: 'value' })] }
        const guard = inspectJson(input.value, resolveLimits(input.limits), '/value')
        if (guard.length > 0) return { text: null, errors: guard }
        return { text: `${JSON.stringify(input.value, null, 4)}\n`, errors: [] }
    }

    /**
     * Maps validated transport scores onto grading answers (04 §1.8): `Q-when-to-use` / `Q-parameters`,
     * weight 1.0, non-deterministic, an `llm` grader named after `harness.model` with version
     * `harness.modelContext`, `llmModel`, the given `selectionContext`, the scores' timestamp.
     * @param input - `{ scores, selectionContext: { groupId, personaIds, domainDocId? }, evidence?, limits? }`
     * @returns `{ gradings, errors }`; the codes of {@link ScoringProtocol.validateScores}, SPV-016 when `harness.name`
     *   is not `claude-code` (04 ⚠ D2), SPV-001/002 for a bad selectionContext or evidence.
     * @example
     * ScoringProtocol.toGradingAnswers({
     *     scores,
     *     selectionContext: { groupId: 'demo', personaIds: ['schema-maintainer'] }
     * }).gradings
     */
    static toGradingAnswers(input: {
        scores: unknown
        selectionContext: {
            readonly groupId: string
            readonly personaIds: readonly string[]
            readonly domainDocId?: string
        }
        evidence?: string | Readonly<Record<string, unknown>>
        limits?: Partial<JsonLimits>
    }): { gradings: GradingAnswer[]; errors: Issue[] } {
        const s = ScoringProtocol.validateScores({
            scores: input?.scores,
            ...definedFields({ limits: input?.limits })
        })
        const args = parseArgs(
            ANSWER_ARGS,
            { selectionContext: input?.selectionContext, evidence: input?.evidence },
            ARGS,
            STYLE
        )
        const errors = [...s.errors, ...args.errors]
        if (s.scores !== null && s.scores.harness.name !== 'claude-code')
            errors.push(createIssue('SPV-016', '/scores/harness/name', { value: s.scores.harness.name }))
        if (errors.length > 0 || s.scores === null || args.value === null) return { gradings: [], errors }
        const scores = s.scores
        const { selectionContext: context, evidence } = args.value
        const gradings = TRANSPORT_DIMENSIONS.map((dimension): GradingAnswer => {
            const x = scores.scores.find((y) => y.dimension === dimension) as ScoresV1['scores'][number]
            return {
                questionId: TRANSPORT_QUESTION_IDS[dimension],
                score: x.score,
                weight: 1,
                determinism: 'non-deterministic',
                graderIdentity: { kind: 'llm', name: scores.harness.model, version: scores.harness.modelContext },
                llmModel: scores.harness.model,
                selectionContext: {
                    groupId: context.groupId,
                    personaIds: [...context.personaIds],
                    ...definedFields({ domainDocId: context.domainDocId })
                },
                timestamp: scores.timestamp,
                ...definedFields({ evidence }),
                reasoning: x.reasoning
            }
        })
        return { gradings, errors: [] }
    }
}

/**
 * The public ScoringProtocol: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const ScoringProtocol = /* @__PURE__ */ guardStatics(ScoringProtocolUnguarded, 'ScoringProtocol')

export { TRANSPORT_DIMENSIONS }
export type { EvalPrompt, PromptsV1, ScoresV1, TransportCreator, TransportHarness, TransportDimension }
