import { SEVERITY } from '../model/constants.js'
import { lookup } from '../json/own.js'
import { createIssue, dedupeIssues, describeValue, typeOfValue } from '../errors/issue.js'
import { fieldPath, joinPointer, pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { DEFAULT_JSON_LIMITS, inspectJson, resolveLimits, type JsonLimits } from '../json/guard.js'
import {
    ABOUT_AREAS,
    AREAS,
    BASE_PERSONAS,
    GRADE_RANK,
    LEGAL_ASSESSMENT_QUESTION_ID,
    LEGAL_DISCLAIMER,
    PER_SKILL_AREAS,
    PERSONA_AREAS,
    PROVIDER_AREAS,
    SCORE_ENUMS,
    TIER_MAX_GRADE,
    type GradingTier,
    type LetterGrade
} from '../model/constants.js'
import { validateGradingModel } from '../validation/validators.js'
import type { GradingEntry } from '../model/types.js'
import { isIsoDateTime } from '../time.js'
import type { ErrorObject } from '../validation/types.js'
import { GRADING_SYSTEM_VERSION, sameMinorLine } from '../version.js'
import { computeAggregate, type AggregateResult } from './aggregate.js'
import { answerRuleIssues } from './answer-rules.js'
import { calendarProblem } from './calendar.js'
import { validateVetoRecord } from './veto-record.js'
import { isObject } from '../model/object.js'


/**
 * Fields of the reference implementation's and the FlowMCP CLI's entry shape that a spec entry
 * does not have, with what to use instead (06-reference §4.1, 05-consumers §1.6).
 */
export const LEGACY_FIELD_HINTS: Readonly<Record<string, string>> = Object.freeze({
    grader: 'per-answer graderIdentity replaces the entry-level grader',
    previousGradingId: 'lives in regradingTrigger.previousGradingId',
    createdAt: 'the spec entry has no createdAt; answers carry timestamp',
    updatedAt: 'the spec entry has no updatedAt',
    options: 'the spec entry has no options',
    grade: 'use aggregateGrade',
    rawGrade: 'rawGrade is returned by the aggregation and stored on index.json nodes, never in an entry (A7)',
    normalizedScore: 'normalizedScore is derived, not stored in an entry',
    iteration: 'iteration belongs to the area output envelope, not the entry',
    improvementHints: 'improvementHints belong to the area output envelope, not the entry',
    status: 'node status is derived by RebuildIndex, not stored in an entry',
    level: 'not part of the entry',
    blocked: 'blocked state is a node status in index.json',
    blockedReason: 'blocked reasons live in index.json blockers[]',
    dimension: 'answers are keyed by questionId',
    recordedAt: 'use timestamp',
    area: 'answer-level area is not allowed; the entry has one area',
    httpStatus: 'put HTTP details into evidence',
    workingTests: 'put pretest details into evidence',
    isVeto: 'vetoes live in categoricalVeto'
})

/** Paths whose enum violations have a more specific code than GRD-010. */
function enumCode(path: string): 'GRD-003' | 'GRD-033' | 'GRD-034' | 'NA-001' | 'GRD-032' | 'GRD-010' {
    if (path === '/gradingTier') return 'GRD-003'
    if (path === '/area') return 'GRD-033'
    if (path === '/harness') return 'GRD-034'
    if (/^\/gradings\/\d+\/naReason$/.test(path)) return 'NA-001'
    if (path === '/persona/basePersonaId') return 'GRD-032'
    return 'GRD-010'
}

const includes = (list: readonly string[], value: unknown): boolean => typeof value === 'string' && list.includes(value)

const fieldName = (path: string): string => fieldPath(path, 'entry')

function formatIssue(at: string, format: string, data: unknown): Issue {
    const detail = format === 'date-time' && typeof data === 'string' ? calendarProblem(data) : null
    if (detail !== null) return createIssue('GRD-062', at, { field: fieldName(at), value: describeValue(data), detail })
    const expected = format === 'date-time' ? `an ISO 8601 date-time with colons and a time zone, such as 2026-05-29T10:00:00Z; got ${describeValue(data)}` : `${format}; got ${describeValue(data)}`
    return createIssue('GRD-009', at, { field: fieldName(at), expected })
}

function requiredCode(parent: string, missing: string, schemaPath: string, data: unknown): Issue | null {
    const owner = (data ?? {}) as Record<string, unknown>
    const path = joinPointer(parent, missing)
    // The schema's `if` on an absent gradingTier or area passes vacuously: report the obligation only when it applies.
    if (parent === '' && missing === 'selectionId') return owner.gradingTier === 'group-bound' ? createIssue('GRD-004', path) : null
    if (parent === '' && missing === 'persona') return includes(PERSONA_AREAS, owner.area) ? createIssue('GRD-021', path, { area: owner.area as string }) : null
    if (parent === '' && missing === 'skillId') return includes(PER_SKILL_AREAS, owner.area) ? createIssue('GRD-037', path, { area: owner.area as string }) : null
    if (/^\/gradings\/\d+$/.test(parent)) {
        if (missing === 'llmModel') return createIssue('GRD-007', path)
        // A JSON Schema `if` on an absent property passes vacuously; only report the obligation when it applies.
        if (missing === 'naReason') return owner.score === 'n/a' ? createIssue('NA-001', path, { detail: 'naReason is required when score is n/a' }) : null
        if (missing === 'selectionContext' && schemaPath.includes('allOf')) return owner.determinism === 'non-deterministic' ? createIssue('GRD-005', path) : null
    }
    if (/^\/gradings\/\d+\/selectionContext$/.test(parent) && missing === 'personaIds') return createIssue('GRD-005', path)
    if (parent === '/regradingTrigger' && missing === 'previousGradingId') return createIssue('GRD-006', path, { detail: 'regradingTrigger.previousGradingId is missing' })
    return createIssue('GRD-001', path, { field: missing })
}

/** Maps one ajv error to our issue, or `null` for the structural noise of `oneOf`/`if` branches. */
function mapAjvError(err: ErrorObject): Issue | null {
    const at = err.instancePath
    const params = err.params as Record<string, unknown>
    switch (err.keyword) {
        case 'required':
            return requiredCode(at, String(params.missingProperty), err.schemaPath, err.data)
        case 'additionalProperties': {
            const field = String(params.additionalProperty)
            const path = joinPointer(at, field)
            const hint = lookup(LEGACY_FIELD_HINTS, field)
            return hint !== undefined ? createIssue('GRD-044', path, { field, hint }) : createIssue('GRD-008', path, { field })
        }
        case 'type':
            return createIssue('GRD-002', at, { field: fieldName(at), expected: String(params.type), actual: typeOfValue(err.data) })
        case 'enum':
            return createIssue(enumCode(at), at, at.endsWith('/naReason') ? { detail: describeValue(err.data) } : { field: fieldName(at), value: describeValue(err.data), expected: ((params.allowedValues as unknown[]) ?? []).join(', '), actual: describeValue(err.data), detail: describeValue(err.data) })
        case 'const':
            if (at === '/maxAttainableGrade') return null // reported once by the semantic tier check (GRD-015)
            if (at === '/aggregateGrade') return null // reported once by the semantic veto check (GRD-011)
            return createIssue('GRD-010', at, { field: fieldName(at), expected: describeValue(params.allowedValue), actual: describeValue(err.data) })
        case 'pattern':
            if (at === '/scoringSystem') return createIssue('VER-001', at, { value: describeValue(err.data) })
            if (at === '/gradingSystem') return createIssue('VER-002', at, { value: describeValue(err.data) })
            if (at === '/version') return createIssue('VER-003', at, { value: describeValue(err.data) })
            return createIssue('GRD-009', at, { field: fieldName(at), expected: `pattern ${String(params.pattern)}; got ${describeValue(err.data)}` })
        case 'format':
            return formatIssue(at, String(params.format), err.data)
        case 'minimum':
            if (at.endsWith('/weight')) return createIssue('SCO-004', at, { value: describeValue(err.data) })
            return createIssue('GRD-009', at, { field: fieldName(at), expected: `at least ${String(params.limit)}; got ${describeValue(err.data)}` })
        case 'minLength':
            return createIssue('GRD-002', at, { field: fieldName(at), expected: 'non-empty string', actual: 'empty string' })
        case 'minItems':
            if (at === '/gradings') return createIssue('GRD-023', at)
            if (at.endsWith('/personaIds')) return createIssue('GRD-005', at)
            return createIssue('GRD-002', at, { field: fieldName(at), expected: `at least ${String(params.limit)} items`, actual: `${(err.data as unknown[]).length} items` })
        default:
            // oneOf / if / maximum inside handled subtrees: reported by the dedicated checks below.
            return null
    }
}

/** Subtrees checked by our own code because their `oneOf` makes ajv's report ambiguous. */
function ownedByDedicatedCheck(path: string): boolean {
    return path.startsWith('/categoricalVeto') || /^\/gradings\/\d+\/(score|evidence)$/.test(path)
}

// Both checks take the answer's index, not its path: the pointer is built only for an issue.
function scoreIssue(score: unknown, index: number): Issue | null {
    if (score === undefined) return null // reported by `required`
    const path = (): string => pointer('gradings', index, 'score')
    if (typeof score === 'number') {
        return Number.isFinite(score) && score >= 1 && score <= 5 ? null : createIssue('SCO-001', path(), { value: describeValue(score) })
    }
    if (typeof score === 'string') {
        if ((SCORE_ENUMS as readonly string[]).includes(score)) return null
        return score.trim() !== '' && Number.isFinite(Number(score)) ? createIssue('SCO-005', path(), { value: score }) : createIssue('SCO-003', path(), { value: score })
    }
    return createIssue('GRD-002', path(), { field: 'score', expected: 'number or string', actual: typeOfValue(score) })
}

function evidenceIssue(evidence: unknown, index: number): Issue | null {
    if (evidence === undefined) return null
    if (typeof evidence === 'string') {
        return evidence.length > 0 ? null : createIssue('GRD-002', pointer('gradings', index, 'evidence'), { field: 'evidence', expected: 'non-empty string or object', actual: 'empty string' })
    }
    if (evidence !== null && typeof evidence === 'object' && !Array.isArray(evidence)) return null
    return createIssue('GRD-002', pointer('gradings', index, 'evidence'), { field: 'evidence', expected: 'non-empty string or object', actual: typeOfValue(evidence) })
}

type Obj = Record<string, unknown>

/**
 * Semantic rules of 01-model §7.6 that apply to one entry (S1–S3, S5–S7, S9, S10) plus A16, and
 * the untraced recomputation S3 made (`null` when the rule did not recompute).
 */
function semanticIssues(entry: Obj): { issues: Issue[]; recomputed: AggregateResult | null } {
    const issues: Issue[] = []
    let recomputed: AggregateResult | null = null
    const area = typeof entry.area === 'string' && (AREAS as readonly string[]).includes(entry.area) ? entry.area : null
    const tier = entry.gradingTier === 'autonomous' || entry.gradingTier === 'group-bound' ? (entry.gradingTier as GradingTier) : null
    const gradings = Array.isArray(entry.gradings) ? entry.gradings.filter(isObject) : []
    const vetoed = entry.categoricalVeto !== null && entry.categoricalVeto !== undefined

    // S1: REJECTED ⇔ veto (the schema enforces only veto ⇒ REJECTED; A12).
    if (vetoed && entry.aggregateGrade !== 'REJECTED') {
        issues.push(createIssue('GRD-011', '/aggregateGrade', { detail: `categoricalVeto is set but aggregateGrade is ${describeValue(entry.aggregateGrade)}` }))
    }
    if (!vetoed && entry.aggregateGrade === 'REJECTED') {
        issues.push(createIssue('GRD-011', '/aggregateGrade', { detail: 'aggregateGrade is REJECTED but categoricalVeto is null' }))
    }
    // S2: area → tier (A10).
    if (area !== null && tier !== null) {
        const expected: GradingTier = (PROVIDER_AREAS as readonly string[]).includes(area) ? 'autonomous' : 'group-bound'
        if (tier !== expected) issues.push(createIssue('GRD-012', '/gradingTier', { area, expected, actual: tier }))
    }
    // Tier → maxAttainableGrade (schema const, reported here once with the tier named).
    if (tier !== null && entry.maxAttainableGrade !== TIER_MAX_GRADE[tier]) {
        issues.push(createIssue('GRD-015', '/maxAttainableGrade', { expected: TIER_MAX_GRADE[tier], tier, actual: describeValue(entry.maxAttainableGrade) }))
    }
    // S3: grade ≤ max, and equal to the recomputation for full entries.
    const grade = entry.aggregateGrade
    const max = entry.maxAttainableGrade
    const rank = lookup(GRADE_RANK, grade)
    if (typeof grade === 'string' && rank !== undefined && (max === 'A' || max === 'B') && rank > GRADE_RANK[max]) {
        issues.push(createIssue('GRD-013', '/aggregateGrade', { grade, max }))
    }
    if (entry.gradingMode === 'full' && !vetoed && typeof grade === 'string' && rank !== undefined && tier !== null) {
        const system = entry.gradingSystem
        if (typeof system === 'string' && system !== GRADING_SYSTEM_VERSION && !sameMinorLine(system, GRADING_SYSTEM_VERSION)) {
            issues.push(createIssue('VER-004', '/gradingSystem', { namespace: 'gradingSystem', value: system, supported: GRADING_SYSTEM_VERSION }))
        } else {
            recomputed = computeAggregate(entry, {}, false)
            if (recomputed.errors.every((i) => i.severity !== SEVERITY.error) && recomputed.aggregateGrade !== grade) {
                issues.push(createIssue('GRD-014', '/aggregateGrade', { grade, expected: recomputed.aggregateGrade ?? `no grade (${recomputed.noGradeReason ?? 'unknown'})` }))
            }
        }
    }
    // S5: group-bound personaIds must be base personas.
    if (tier === 'group-bound') {
        gradings.forEach((g, i) => {
            const ids = isObject(g.selectionContext) && Array.isArray(g.selectionContext.personaIds) ? g.selectionContext.personaIds : []
            ids.forEach((id, j) => {
                if (typeof id === 'string' && id.length > 0 && !(BASE_PERSONAS as readonly string[]).includes(id)) {
                    issues.push(createIssue('GRD-016', pointer('gradings', i, 'selectionContext', 'personaIds', j), { value: id }))
                }
            })
        })
    }
    // S6: naReason only with n/a.
    gradings.forEach((g, i) => {
        if (g.naReason !== undefined && g.score !== 'n/a') {
            issues.push(createIssue('GRD-017', pointer('gradings', i, 'naReason'), { score: describeValue(g.score) }))
        }
    })
    // S7: not deterministic-only. A vetoed entry stops before the harness runs (cascade stop) and a
    // partial entry may iterate on one deterministic dimension, so both are exempt.
    if (!vetoed && entry.gradingMode === 'full' && gradings.length > 0 && gradings.every((g) => g.determinism === 'deterministic')) {
        issues.push(createIssue('GRD-018', '/gradings'))
    }
    // S9: legal assessment disclaimer; S10: no "FlowMCP accepts".
    gradings.forEach((g, i) => {
        if (g.questionId === LEGAL_ASSESSMENT_QUESTION_ID && !(typeof g.reasoning === 'string' && g.reasoning.startsWith(LEGAL_DISCLAIMER))) {
            issues.push(createIssue('GRD-019', pointer('gradings', i, 'reasoning')))
        }
        for (const field of ['reasoning', 'evidence'] as const) {
            const text = typeof g[field] === 'string' ? (g[field] as string) : ''
            if (/flowmcp accepts/i.test(text)) issues.push(createIssue('GRD-048', pointer('gradings', i, field)))
        }
    })
    // A16: aboutHash on About areas.
    if (area !== null && (ABOUT_AREAS as readonly string[]).includes(area) && entry.aboutHash === undefined) {
        issues.push(createIssue('GRD-022', '/aboutHash', { area }))
    }
    return { issues, recomputed }
}


/** A valid entry, typed: what the checks established. `errors` may still hold warnings and infos. */
export interface ValidEntryResult {
    readonly valid: true
    readonly entry: GradingEntry
    readonly errors: Issue[]
}

/** An invalid entry: at least one issue of severity `error`. */
export interface InvalidEntryResult {
    readonly valid: false
    readonly errors: Issue[]
}

/** Result of {@link validateGradingEntry}; narrow on `valid` to reach the typed `entry`. */
export type GradingEntryValidation = ValidEntryResult | InvalidEntryResult

/** Options beside the entry. */
export interface ValidateEntryInput {
    readonly entry?: unknown
    readonly limits?: Partial<JsonLimits>
    /** The validation time (ISO 8601); when given, a timestamp later than it is an error (GRD-061). */
    readonly now?: unknown
}

/**
 * Validates one grading entry completely: plain-JSON limits, the spec's JSON Schema 2020-12
 * (`schemas/grading-model.schema.json`, ajv with `allErrors`), every semantic rule of 01-model
 * §7.6 that applies to a single entry, and the answer rules (one answer per question and grader,
 * reasoning on LLM answers, the catalogue's determinism and area, complete full entries, the
 * gradingId's hash, no timestamp after `now`). Collects all issues; never throws. Paths are JSON
 * Pointers into the entry (`/gradings/0/score`); a bad `now` is reported at `/now` (docs/errors.md, Paths).
 * @param input - `{ entry, limits?, now? }`
 * @returns `{ valid: true, entry, errors }` (entry typed {@link GradingEntry}; errors hold only warnings
 *   and infos) or `{ valid: false, errors }`. Codes: GRD-*, SCO-*, VET-*, NA-001, VER-*, INP-* (see docs/errors.md).
 * @example const r = validateGradingEntry({ entry: JSON.parse(text) }); if (r.valid) r.entry.aggregateGrade
 */
export function validateGradingEntry(input: ValidateEntryInput): GradingEntryValidation {
    const entry = input?.entry
    return entryVerdict(entry, checkEntry(entry, input?.limits, input?.now).errors)
}

/**
 * True when `value` is a grading entry that passes {@link validateGradingEntry} (warnings allowed).
 * @example if (isGradingEntry(json)) json.gradings.length
 */
export function isGradingEntry(value: unknown): value is GradingEntry {
    // A predicate answers, whatever it is given: a value that throws when read (a hostile or revoked Proxy) is no entry.
    try {
        return validateGradingEntry({ entry: value }).valid
    } catch {
        return false
    }
}

/**
 * {@link validateGradingEntry} with the untraced recomputation its rule S3 made (see
 * {@link checkParsedEntry}), for callers that need the entry's figures as well as its verdict.
 */
export function checkEntry(entry: unknown, limits?: Partial<JsonLimits>, now?: unknown): { errors: Issue[]; recomputed: AggregateResult | null } {
    if (entry === undefined) {
        return { errors: [createIssue('GRD-001', '', { field: 'entry' })], recomputed: null }
    }
    if (entry === null) {
        return { errors: [createIssue('GRD-064', '')], recomputed: null }
    }
    if (!isObject(entry)) {
        return { errors: [createIssue('GRD-002', '', { field: 'entry', expected: 'a grading entry object', actual: typeOfValue(entry) })], recomputed: null }
    }
    const guard = inspectJson(entry, limits === undefined ? DEFAULT_JSON_LIMITS : resolveLimits(limits))
    if (guard.length > 0) return { errors: guard, recomputed: null }
    if (now !== undefined && !isIsoDateTime(now)) {
        const checked = checkParsedEntry(entry)
        return { ...checked, errors: [createIssue('GRD-063', '/now', { value: describeValue(now) }), ...checked.errors] }
    }
    return checkParsedEntry(entry, now)
}

function entryVerdict(entry: unknown, errors: Issue[]): GradingEntryValidation {
    return errors.some((e) => e.severity === SEVERITY.error) ? { valid: false, errors } : { valid: true, entry: entry as GradingEntry, errors }
}

/**
 * {@link validateGradingEntry} past the plain-JSON guard, for an entry that already passed it
 * (one parsed by `parseJsonText`), with the untraced recomputation of its grade (`null` when the
 * entry is not a full, unvetoed entry of this grading system) so a caller needs not aggregate twice.
 * @param now - a checked ISO 8601 validation time; timestamps are not compared when omitted
 */
export function checkParsedEntry(entry: Obj, now?: string): { errors: Issue[]; recomputed: AggregateResult | null } {
    const validate = validateGradingModel
    validate(entry)
    const structural = (validate.errors ?? []).filter((err) => !ownedByDedicatedCheck(err.instancePath)).map(mapAjvError).filter((i): i is Issue => i !== null)

    const dedicated: Issue[] = []
    if (Array.isArray(entry.gradings)) {
        entry.gradings.forEach((g: unknown, i) => {
            if (!isObject(g)) return
            const s = scoreIssue(g.score, i)
            if (s !== null) dedicated.push(s)
            const ev = evidenceIssue(g.evidence, i)
            if (ev !== null) dedicated.push(ev)
        })
    }
    if (entry.categoricalVeto !== null && entry.categoricalVeto !== undefined) {
        dedicated.push(...validateVetoRecord(entry.categoricalVeto, '/categoricalVeto'))
    }
    const semantic = semanticIssues(entry)
    const answers = answerRuleIssues(entry, now ?? null)
    return { errors: dedupeIssues([...structural, ...dedicated, ...semantic.issues, ...answers]), recomputed: semantic.recomputed }
}
