import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { bandOf } from '../grading/aggregate.js'
import { createEntry } from '../grading/grading.js'
import { resolveLimits, type JsonLimits } from '../json/guard.js'
import type { GradingAnswer, GradingEntry } from '../model/types.js'
import { isIsoDateTime } from '../time.js'
import { isObject } from '../model/object.js'
import { readDocument, SCHEMA_ID_V1, TRANSPORT_QUESTION_IDS } from './v1.js'
import { type ArgWording, objectArg, parseArgs, says, wholeArg } from '../validation/args.js'

/** Which report shape a document has: the library's own `buildReport` output, or the public registry's entries. */
export type ReportKind = 'library' | 'registry'

/** A Scoring Protocol v1 grade report as the public FlowMCP registry (`registry.json`) lists it. */
export interface RegistryReportV1 {
    readonly schemaId: string
    readonly schemaPath: string
    readonly grade: string
    readonly score: number
    readonly date: string
    readonly scoringProtocol: 'v1'
    readonly schemaHash: string
    readonly dimensions: ReadonlyArray<{
        readonly dimension: string
        readonly score: number
        readonly reasoning?: string
    }>
    readonly validationPassed: boolean
    readonly termsOfService?: string | null
    readonly termsOfServiceCheckedAt?: string | null
}

/** Result of {@link validateReport}. */
export interface ReportValidation {
    readonly valid: boolean
    readonly kind: ReportKind | null
    readonly report: Record<string, unknown> | null
    readonly errors: Issue[]
}

const SHA256 = /^sha256:[0-9a-f]{64}$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const LIBRARY_ONLY = ['schemaIdSlug', 'creator', 'harness', 'timestamps', 'validationErrors'] as const
// The registry shows the mean to float precision (4.699999999999999); a report mean is compared at this tolerance.
const SCORE_TOLERANCE = 1e-9

/** The codes and wording of this module's checks: a wrong string is shown as itself, any other value by its type. */
const ARGS = { missing: 'SPV-001', mismatch: 'SPV-002', create: createIssue } as const
const STYLE = { field: 'indexed', actual: 'text', missing: 'keys' } as const

/** A report field that `check` accepts, else "expected `expected`". */
function field(check: (value: unknown) => boolean, expected: string | ArgWording) {
    return v.custom<unknown>(check, says(expected))
}
const isString = (value: unknown): value is string => typeof value === 'string'

const REPORT = objectArg({ expected: 'object', actual: 'type', field: 'report', missing: false })
/** The fields both report shapes carry, in the order their problems are listed. */
const SHARED_FIELDS = v.looseObject({
    schemaId: field((s) => isString(s) && SCHEMA_ID_V1.test(s), '<namespace>/<file base>'),
    schemaPath: field((s) => isString(s) && s.length > 0, 'non-empty string'),
    grade: field((g) => isString(g) && ['A', 'B', 'C', 'D', 'F'].includes(g), 'A, B, C, D or F'),
    score: field((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 5, 'number 0–5'),
    date: field((d) => isString(d) && DATE.test(d), 'YYYY-MM-DD'),
    scoringProtocol: field((p) => p === 'v1', "'v1'"),
    schemaHash: field((h) => isString(h) && SHA256.test(h), 'sha256:<64 hex> of the raw schema file'),
    validationPassed: field((b) => typeof b === 'boolean', 'boolean')
})
const NON_EMPTY = { expected: 'non-empty array', actual: 'type' } as const
const DIMENSIONS = v.looseObject({
    dimensions: v.pipe(v.array(v.unknown(), says(NON_EMPTY)), v.minLength(1, says(NON_EMPTY)))
})
const inRange = (score: unknown): boolean =>
    typeof score === 'number' && Number.isFinite(score) && score >= 1 && score <= 5
const DIMENSION = v.custom<{ dimension: string; score: number }>(
    (d) => isObject(d) && typeof d.dimension === 'string' && inRange(d.score),
    says({ expected: '{ dimension, score 1–5, reasoning? }', actual: 'type' })
)

/**
 * Checks a grade report: the library's (`buildReport`) and the public registry's shape, told apart
 * by the fields only the library writes. Both must hold together: the grade is F exactly when
 * validation failed, otherwise the band of the mean; the score is the mean of the dimension scores.
 */
export function validateReport(input: {
    report?: unknown
    text?: unknown
    limits?: Partial<JsonLimits>
}): ReportValidation {
    const limits = resolveLimits(input?.limits)
    const read = readDocument(input?.report, input?.text, 'report', limits, 'SPV-001')
    if (read.errors.length > 0) return { valid: false, kind: null, report: null, errors: read.errors }
    const root = parseArgs(REPORT, read.doc, ARGS, STYLE)
    if (root.value === null) return { valid: false, kind: null, report: null, errors: root.errors }
    const value = root.value
    const kind: ReportKind = LIBRARY_ONLY.some((k) => value[k] !== undefined) ? 'library' : 'registry'
    const errors = [...parseArgs(SHARED_FIELDS, value, ARGS, STYLE).errors]
    checkDimensions(value.dimensions, errors)
    if (kind === 'library') checkLibraryFields(value, errors)
    if (errors.length > 0) return { valid: false, kind, report: null, errors }
    errors.push(...checkScoreAndGrade(value))
    return { valid: errors.length === 0, kind, report: errors.length === 0 ? value : null, errors }
}

/** `dimensions`: a non-empty array of `{ dimension, score 1–5 }`, each dimension once (SPV-006). */
function checkDimensions(dims: unknown, errors: Issue[]): void {
    const list = parseArgs(DIMENSIONS, { dimensions: dims }, ARGS, STYLE)
    errors.push(...list.errors)
    if (list.value === null) return
    const seen = new Set<string>()
    // Item by item, so that a wrong item and a repeated dimension (SPV-006, a rule of its own) keep the list order.
    list.value.dimensions.forEach((item, i) => {
        const d = parseArgs(DIMENSION, item, ARGS, { ...STYLE, at: ['dimensions', i] })
        if (d.value === null) errors.push(...d.errors)
        else if (seen.has(d.value.dimension)) {
            errors.push(createIssue('SPV-006', pointer('dimensions', i, 'dimension'), { dimension: d.value.dimension }))
        } else seen.add(d.value.dimension)
    })
}

/** The fields only the library's report writes. */
function checkLibraryFields(value: Record<string, unknown>, errors: Issue[]): void {
    const slug = String(value.schemaId).replace(/\//g, '_')
    const strings = (list: unknown): boolean => Array.isArray(list) && list.every(isString)
    const timestamps = (t: unknown): boolean => isObject(t) && isIsoDateTime(t.scoredAt) && isIsoDateTime(t.gradedAt)
    const fields = v.looseObject({
        schemaIdSlug: field((s) => s === slug, 'schemaId with / as _'),
        validationErrors: field(strings, 'array of strings'),
        timestamps: field(timestamps, '{ scoredAt, gradedAt, … } ISO-8601')
    })
    errors.push(...parseArgs(fields, value, ARGS, STYLE).errors)
}

/** On a well-shaped report: the score is the mean of the dimensions (SPV-018), the grade F or the band (SPV-019). */
function checkScoreAndGrade(value: Record<string, unknown>): Issue[] {
    const errors: Issue[] = []
    const scores = (value.dimensions as Array<{ score: number }>).map((d) => d.score)
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length
    if (Math.abs(mean - (value.score as number)) > SCORE_TOLERANCE) {
        errors.push(createIssue('SPV-018', '/score', { score: String(value.score), expected: String(mean) }))
    }
    const passed = value.validationPassed === true
    const expected = passed ? bandOf(value.score as number).grade : 'F'
    if (value.grade !== expected) {
        const detail = passed ? `the band of ${String(value.score)}` : 'validation failed'
        errors.push(createIssue('SPV-019', '/grade', { grade: String(value.grade), expected, detail }))
    }
    return errors
}

/** Arguments of {@link reportToGradingEntry}. */
export interface ReportToEntryInput {
    readonly report: unknown
    /** The schema version: `4.0.0`, `v4.0.0` or `flowmcp/4.0.0` (the registry lists it once, at the top). */
    readonly version: string
    /** Creation time of the entry (ISO 8601); the report's own time when omitted. */
    readonly now?: string
    /** Who scored: required for a registry report, which names no harness; the library report's harness otherwise. */
    readonly grader?: { readonly name: string; readonly version: string; readonly llmModel: string }
    /** `selectionContext.personaIds` of the answers; `['neutral']` (no persona lens) when omitted. */
    readonly personaIds?: readonly string[]
    /**
     * The entry's 8-hex schema hash; the first 8 hex digits of the report's `sha256:` when omitted. Pass the canonical
     * `main` hash to write into an island.
     */
    readonly schemaHash?: string
}

/**
 * Turns a valid v1 grade report into a `tools-aggregate-schema` grading entry, doing the three
 * conversions a report needs: the slash id `ns/file` becomes the dot id `ns.file`, the version
 * becomes `flowmcp/x.y.z`, and the `sha256:` hash of the raw file becomes its first 8 hex digits.
 * The two dimensions become `Q-when-to-use` and `Q-parameters`; `validationPassed` becomes the
 * deterministic `Q-schema-structure` answer.
 */
export function reportToGradingEntry(input: ReportToEntryInput): {
    entry: GradingEntry | null
    kind: ReportKind | null
    errors: Issue[]
} {
    const checked = validateReport({ report: input?.report })
    if (checked.report === null) return { entry: null, kind: checked.kind, errors: checked.errors }
    const report = checked.report
    const args = entryArgs(input, report, checked.kind === 'library')
    if (args.errors.length > 0 || args.grader === null || args.version === null) {
        return { entry: null, kind: checked.kind, errors: args.errors }
    }
    const { grader, scoredAt, personaIds } = args
    const schemaId = (report.schemaId as string).replace('/', '.')
    const namespace = schemaId.split('.')[0] as string
    const dims = report.dimensions as Array<{ dimension: string; score: number; reasoning?: string }>
    const llm = dims.flatMap((d) => dimensionAnswer(d, { grader, groupId: namespace, personaIds, scoredAt }))
    const structure: GradingAnswer = {
        questionId: 'Q-schema-structure',
        score: report.validationPassed === true ? 'pass' : 'fail',
        weight: 1,
        determinism: 'deterministic',
        graderIdentity: { kind: 'script', name: 'flowmcp-grading/report', version: 'v1' },
        timestamp: scoredAt,
        evidence: { validationPassed: report.validationPassed, source: `${checked.kind} v1 report` }
    } as GradingAnswer
    const created = createEntry({
        schemaId,
        area: 'tools-aggregate-schema',
        version: `flowmcp/${args.version[1] as string}`,
        schemaHash: input.schemaHash ?? (report.schemaHash as string).slice('sha256:'.length, 'sha256:'.length + 8),
        gradingMode: 'full',
        now: args.now,
        gradings: [structure, ...llm]
    })
    return { entry: created.entry as GradingEntry | null, kind: checked.kind, errors: created.errors }
}

/** Who scored, from the arguments or the library report's harness. */
type EntryGrader = { readonly name: string; readonly version: string; readonly llmModel: string }

/** The arguments of {@link reportToGradingEntry} beside the report, with what they resolve to. */
interface EntryArgs {
    /** The version match; its group 1 is `x.y.z`. */
    readonly version: RegExpExecArray | null
    readonly grader: EntryGrader | null
    readonly scoredAt: string
    readonly now: string
    readonly personaIds: readonly string[]
    readonly errors: Issue[]
}

const ENTRY_VERSION = /^(?:v|flowmcp\/)?(4\.\d+\.\d+)$/
const ENTRY_VERSION_ARG = v.looseObject({
    version: field((s) => isString(s) && ENTRY_VERSION.test(s.trim()), {
        expected: '4.x.y, v4.x.y or flowmcp/4.x.y',
        actual: 'value'
    })
})
const NAME = v.custom<string>((s) => isString(s) && s !== '')
const ENTRY_GRADER = v.looseObject({
    grader: wholeArg(v.pipe(objectArg(), v.looseObject({ name: NAME, version: NAME, llmModel: NAME })), {
        expected: '{ name, version, llmModel } non-empty strings',
        actual: 'type'
    })
})
const ENTRY_PERSONAS = v.looseObject({
    personaIds: wholeArg(v.pipe(v.array(NAME), v.minLength(1)), {
        expected: 'non-empty array of strings',
        actual: 'type'
    })
})

/** Checks the arguments beside the report; problems in argument order (version, grader, now, personaIds). */
function entryArgs(input: ReportToEntryInput, report: Record<string, unknown>, library: boolean): EntryArgs {
    const errors = [...parseArgs(ENTRY_VERSION_ARG, { version: input.version }, ARGS, STYLE).errors]
    const version = typeof input.version === 'string' ? ENTRY_VERSION.exec(input.version.trim()) : null
    const harness = library ? (report.harness as { model: string; modelContext: string; name: string }) : null
    const fromHarness = harness && { name: harness.name, version: harness.modelContext, llmModel: harness.model }
    const grader = input.grader ?? fromHarness
    // Required only where the report names no harness (a registry report): a rule of the two together.
    if (grader === null) {
        errors.push(createIssue('SPV-001', '/grader', { field: 'grader (a registry report names no harness)' }))
    } else errors.push(...parseArgs(ENTRY_GRADER, { grader }, ARGS, STYLE).errors)
    // A registry report carries only its date: the answers are dated at its midnight (UTC).
    const scoredAt = library ? (report.timestamps as { scoredAt: string }).scoredAt : `${String(report.date)}T00:00:00Z`
    const now = input.now ?? scoredAt
    if (!isIsoDateTime(now)) errors.push(createIssue('SPV-012', '/now', { field: 'now', value: describeValue(now) }))
    const personaIds = input.personaIds ?? ['neutral']
    errors.push(...parseArgs(ENTRY_PERSONAS, { personaIds }, ARGS, STYLE).errors)
    return { version, grader, scoredAt, now, personaIds, errors }
}

/** One report dimension as an LLM answer; a dimension with no transport question gives none. */
function dimensionAnswer(
    d: { dimension: string; score: number; reasoning?: string },
    by: { grader: EntryGrader; groupId: string; personaIds: readonly string[]; scoredAt: string }
): GradingAnswer[] {
    const questionId = (TRANSPORT_QUESTION_IDS as Readonly<Record<string, string>>)[d.dimension]
    if (questionId === undefined || !Object.hasOwn(TRANSPORT_QUESTION_IDS, d.dimension)) return []
    const given = typeof d.reasoning === 'string' && d.reasoning.length > 0
    const reasoning = given ? (d.reasoning as string) : `v1 report dimension ${d.dimension}`
    return [
        {
            questionId,
            score: d.score,
            weight: 1,
            determinism: 'non-deterministic',
            graderIdentity: { kind: 'llm', name: by.grader.name, version: by.grader.version },
            llmModel: by.grader.llmModel,
            selectionContext: { groupId: by.groupId, personaIds: [...by.personaIds] },
            timestamp: by.scoredAt,
            reasoning
        } as GradingAnswer
    ]
}
