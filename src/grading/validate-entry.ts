import { SEVERITY } from '../model/constants.js'
import { lookup } from '../json/own.js'
import { dedupeIssues, describeValue, typeOfValue } from '../errors/issue.js'
import * as v from 'valibot'
import { type ArgCodes, objectArg, parseArgs, says } from '../validation/args.js'
import { createEntryIssue } from '../errors/entry-issue.js'
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
    type GradingTier
} from '../model/constants.js'
import { validateGradingModel } from '../validation/validators.js'
import type { GradingEntry } from '../model/types.js'
import { isIsoDateTime } from '../time.js'
import type { ErrorObject } from '../validation/types.js'
import { GRADING_SYSTEM_VERSION, SCORING_SYSTEM_VERSION, sameMinorLine } from '../version.js'
import { computeAggregate, type AggregateResult } from './aggregate.js'
import { answerRuleIssues, DEFAULT_MAX_CLOCK_SKEW_MS } from './answer-rules.js'
import { BINDING_CODES, bindingIssues, checkExpectation, type EntryExpectation } from './binding.js'
import { provenanceOf, type EntryProvenance, type IntakeExtensions, type RecheckOutcome } from './provenance.js'
import { calendarProblem } from './calendar.js'
import { copyEntry, guardedCopy, type EntryCopy } from './entry-copy.js'
import { applyLevels } from './entry-levels.js'
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
    if (detail !== null)
        return createEntryIssue('GRD-062', at, { field: fieldName(at), value: describeValue(data), detail })
    const expected =
        format === 'date-time'
            ? `an ISO 8601 date-time with colons and a time zone, such as 2026-05-29T10:00:00Z; got ${describeValue(data)}`
            : `${format}; got ${describeValue(data)}`
    return createEntryIssue('GRD-009', at, { field: fieldName(at), expected })
}

function requiredCode(parent: string, missing: string, schemaPath: string, data: unknown): Issue | null {
    const owner = (data ?? {}) as Record<string, unknown>
    const path = joinPointer(parent, missing)
    // The schema's `if` on an absent gradingTier or area passes vacuously: report the obligation only when it applies.
    if (parent === '' && missing === 'selectionId')
        return owner.gradingTier === 'group-bound' ? createEntryIssue('GRD-004', path) : null
    if (parent === '' && missing === 'persona')
        return includes(PERSONA_AREAS, owner.area)
            ? createEntryIssue('GRD-021', path, { area: owner.area as string })
            : null
    if (parent === '' && missing === 'skillId')
        return includes(PER_SKILL_AREAS, owner.area)
            ? createEntryIssue('GRD-037', path, { area: owner.area as string })
            : null
    if (/^\/gradings\/\d+$/.test(parent)) {
        if (missing === 'llmModel') return createEntryIssue('GRD-007', path)
        // A JSON Schema `if` on an absent property passes vacuously; only report the obligation when it applies.
        if (missing === 'naReason')
            return owner.score === 'n/a'
                ? createEntryIssue('NA-001', path, { detail: 'naReason is required when score is n/a' })
                : null
        if (missing === 'selectionContext' && schemaPath.includes('allOf'))
            return owner.determinism === 'non-deterministic' ? createEntryIssue('GRD-005', path) : null
    }
    if (/^\/gradings\/\d+\/selectionContext$/.test(parent) && missing === 'personaIds')
        return createEntryIssue('GRD-005', path)
    if (parent === '/regradingTrigger' && missing === 'previousGradingId')
        return createEntryIssue('GRD-006', path, { detail: 'regradingTrigger.previousGradingId is missing' })
    return createEntryIssue('GRD-001', path, { field: missing })
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
            return hint !== undefined
                ? createEntryIssue('GRD-044', path, { field, hint })
                : createEntryIssue('GRD-008', path, { field })
        }
        case 'type':
            return createEntryIssue('GRD-002', at, {
                field: fieldName(at),
                expected: String(params.type),
                actual: typeOfValue(err.data)
            })
        case 'enum':
            return createEntryIssue(
                enumCode(at),
                at,
                at.endsWith('/naReason')
                    ? { detail: describeValue(err.data) }
                    : {
                          field: fieldName(at),
                          value: describeValue(err.data),
                          expected: ((params.allowedValues as unknown[]) ?? []).join(', '),
                          actual: describeValue(err.data),
                          detail: describeValue(err.data)
                      }
            )
        case 'const':
            if (at === '/maxAttainableGrade') return null // reported once by the semantic tier check (GRD-015)
            if (at === '/aggregateGrade') return null // reported once by the semantic veto check (GRD-011)
            return createEntryIssue('GRD-010', at, {
                field: fieldName(at),
                expected: describeValue(params.allowedValue),
                actual: describeValue(err.data)
            })
        case 'pattern':
            if (at === '/scoringSystem') return createEntryIssue('VER-001', at, { value: describeValue(err.data) })
            if (at === '/gradingSystem') return createEntryIssue('VER-002', at, { value: describeValue(err.data) })
            if (at === '/version') return createEntryIssue('VER-003', at, { value: describeValue(err.data) })
            return createEntryIssue('GRD-009', at, {
                field: fieldName(at),
                expected: `pattern ${String(params.pattern)}; got ${describeValue(err.data)}`
            })
        case 'format':
            return formatIssue(at, String(params.format), err.data)
        case 'minimum':
            if (at.endsWith('/weight')) return createEntryIssue('SCO-004', at, { value: describeValue(err.data) })
            return createEntryIssue('GRD-009', at, {
                field: fieldName(at),
                expected: `at least ${String(params.limit)}; got ${describeValue(err.data)}`
            })
        case 'minLength':
            return createEntryIssue('GRD-002', at, {
                field: fieldName(at),
                expected: 'non-empty string',
                actual: 'empty string'
            })
        case 'minItems':
            if (at === '/gradings') return createEntryIssue('GRD-023', at)
            if (at.endsWith('/personaIds')) return createEntryIssue('GRD-005', at)
            return createEntryIssue('GRD-002', at, {
                field: fieldName(at),
                expected: `at least ${String(params.limit)} items`,
                actual: `${(err.data as unknown[]).length} items`
            })
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
        return Number.isFinite(score) && score >= 1 && score <= 5
            ? null
            : createEntryIssue('SCO-001', path(), { value: describeValue(score) })
    }
    if (typeof score === 'string') {
        if ((SCORE_ENUMS as readonly string[]).includes(score)) return null
        return score.trim() !== '' && Number.isFinite(Number(score))
            ? createEntryIssue('SCO-005', path(), { value: score })
            : createEntryIssue('SCO-003', path(), { value: score })
    }
    return createEntryIssue('GRD-002', path(), {
        field: 'score',
        expected: 'number or string',
        actual: typeOfValue(score)
    })
}

function evidenceIssue(evidence: unknown, index: number): Issue | null {
    if (evidence === undefined) return null
    if (typeof evidence === 'string') {
        return evidence.length > 0
            ? null
            : createEntryIssue('GRD-002', pointer('gradings', index, 'evidence'), {
                  field: 'evidence',
                  expected: 'non-empty string or object',
                  actual: 'empty string'
              })
    }
    if (isObject(evidence)) return null
    return createEntryIssue('GRD-002', pointer('gradings', index, 'evidence'), {
        field: 'evidence',
        expected: 'non-empty string or object',
        actual: typeOfValue(evidence)
    })
}

type Obj = Record<string, unknown>

/** A declared system version this library implements: its own, or a patch of the same minor line. */
function implemented(declared: string, own: string): boolean {
    return declared === own || sameMinorLine(declared, own)
}

/**
 * S3's recomputation of a full, unvetoed entry's grade under this library's grading system, and the
 * minimum-LLM rule it evaluates on the way; another grading system skips it with VER-004.
 */
function recomputationIssues(entry: Obj, grade: string): { issues: Issue[]; recomputed: AggregateResult | null } {
    if (typeof entry.gradingSystem === 'string' && !implemented(entry.gradingSystem, GRADING_SYSTEM_VERSION)) {
        return {
            issues: [
                createEntryIssue('VER-004', '/gradingSystem', {
                    namespace: 'gradingSystem',
                    value: entry.gradingSystem,
                    supported: GRADING_SYSTEM_VERSION
                })
            ],
            recomputed: null
        }
    }
    const recomputed = computeAggregate(entry, {}, false)
    const issues: Issue[] = []
    if (recomputed.errors.every((i) => i.severity !== SEVERITY.error) && recomputed.aggregateGrade !== grade) {
        issues.push(
            createEntryIssue('GRD-014', '/aggregateGrade', {
                grade,
                expected: recomputed.aggregateGrade ?? `no grade (${recomputed.noGradeReason ?? 'unknown'})`
            })
        )
    }
    // Minimum-LLM rule (01 §4 step 7): a SHOULD, so a warning by default and an error in strict mode.
    issues.push(...recomputed.errors.filter((i) => i.code === 'GRD-026'))
    return { issues, recomputed }
}

/** The entry-level rules of strict mode: a full entry under the scoring system this library implements. */
function strictEntryIssues(entry: Obj): Issue[] {
    const issues: Issue[] = []
    if (entry.gradingMode !== undefined && entry.gradingMode !== 'full')
        issues.push(createEntryIssue('GRD-073', '/gradingMode', { mode: describeValue(entry.gradingMode) }))
    if (typeof entry.scoringSystem === 'string' && !implemented(entry.scoringSystem, SCORING_SYSTEM_VERSION)) {
        issues.push(
            createEntryIssue('VER-005', '/scoringSystem', {
                namespace: 'scoringSystem',
                value: entry.scoringSystem,
                supported: SCORING_SYSTEM_VERSION
            })
        )
    }
    return issues
}

/**
 * Semantic rules of 01-model §7.6 that apply to one entry (S1–S3, S5–S7, S9, S10) plus A16, and
 * the untraced recomputation S3 made (`null` when the rule did not recompute).
 */
/** S1 REJECTED ⇔ veto, S2 area → tier, and the tier's maxAttainableGrade. */
function consistencyIssues(entry: Obj, area: string | null, tier: GradingTier | null, vetoed: boolean): Issue[] {
    const issues: Issue[] = []
    // S1: REJECTED ⇔ veto (the schema enforces only veto ⇒ REJECTED; A12).
    if (vetoed && entry.aggregateGrade !== 'REJECTED') {
        issues.push(
            createEntryIssue('GRD-011', '/aggregateGrade', {
                detail: `categoricalVeto is set but aggregateGrade is ${describeValue(entry.aggregateGrade)}`
            })
        )
    }
    if (!vetoed && entry.aggregateGrade === 'REJECTED') {
        issues.push(
            createEntryIssue('GRD-011', '/aggregateGrade', {
                detail: 'aggregateGrade is REJECTED but categoricalVeto is null'
            })
        )
    }
    // S2: area → tier (A10).
    if (area !== null && tier !== null) {
        const expected: GradingTier = (PROVIDER_AREAS as readonly string[]).includes(area)
            ? 'autonomous'
            : 'group-bound'
        if (tier !== expected)
            issues.push(createEntryIssue('GRD-012', '/gradingTier', { area, expected, actual: tier }))
    }
    // Tier → maxAttainableGrade (schema const, reported here once with the tier named).
    if (tier !== null && entry.maxAttainableGrade !== TIER_MAX_GRADE[tier]) {
        issues.push(
            createEntryIssue('GRD-015', '/maxAttainableGrade', {
                expected: TIER_MAX_GRADE[tier],
                tier,
                actual: describeValue(entry.maxAttainableGrade)
            })
        )
    }
    return issues
}

/** The rules on the answers themselves: S5 base personas, S6 naReason, S7 not deterministic-only, S9 and S10. */
function answerSetIssues(entry: Obj, gradings: readonly Obj[], tier: GradingTier | null, vetoed: boolean): Issue[] {
    const issues: Issue[] = []
    // S5: group-bound personaIds must be base personas.
    if (tier === 'group-bound') {
        gradings.forEach((g, i) => {
            const ids =
                isObject(g.selectionContext) && Array.isArray(g.selectionContext.personaIds)
                    ? g.selectionContext.personaIds
                    : []
            ids.forEach((id, j) => {
                if (typeof id === 'string' && id.length > 0 && !(BASE_PERSONAS as readonly string[]).includes(id)) {
                    issues.push(
                        createEntryIssue('GRD-016', pointer('gradings', i, 'selectionContext', 'personaIds', j), {
                            value: id
                        })
                    )
                }
            })
        })
    }
    // S6: naReason only with n/a.
    gradings.forEach((g, i) => {
        if (g.naReason !== undefined && g.score !== 'n/a') {
            issues.push(
                createEntryIssue('GRD-017', pointer('gradings', i, 'naReason'), { score: describeValue(g.score) })
            )
        }
    })
    // S7: not deterministic-only. A vetoed entry stops before the harness runs (cascade stop) and a
    // partial entry may iterate on one deterministic dimension, so both are exempt.
    if (
        !vetoed &&
        entry.gradingMode === 'full' &&
        gradings.length > 0 &&
        gradings.every((g) => g.determinism === 'deterministic')
    ) {
        issues.push(createEntryIssue('GRD-018', '/gradings'))
    }
    // S9: legal assessment disclaimer; S10: no "FlowMCP accepts".
    gradings.forEach((g, i) => {
        if (
            g.questionId === LEGAL_ASSESSMENT_QUESTION_ID &&
            !(typeof g.reasoning === 'string' && g.reasoning.startsWith(LEGAL_DISCLAIMER))
        ) {
            issues.push(createEntryIssue('GRD-019', pointer('gradings', i, 'reasoning')))
        }
        for (const field of ['reasoning', 'evidence'] as const) {
            const text = typeof g[field] === 'string' ? (g[field] as string) : ''
            if (/flowmcp accepts/i.test(text)) issues.push(createEntryIssue('GRD-048', pointer('gradings', i, field)))
        }
    })
    return issues
}

function semanticIssues(entry: Obj): { issues: Issue[]; recomputed: AggregateResult | null } {
    let recomputed: AggregateResult | null = null
    const area = typeof entry.area === 'string' && (AREAS as readonly string[]).includes(entry.area) ? entry.area : null
    const tier =
        entry.gradingTier === 'autonomous' || entry.gradingTier === 'group-bound'
            ? (entry.gradingTier as GradingTier)
            : null
    const gradings = Array.isArray(entry.gradings) ? entry.gradings.filter(isObject) : []
    const vetoed = entry.categoricalVeto !== null && entry.categoricalVeto !== undefined
    const issues = consistencyIssues(entry, area, tier, vetoed)
    // S3: grade ≤ max, and equal to the recomputation for full entries.
    const grade = entry.aggregateGrade
    const max = entry.maxAttainableGrade
    const rank = lookup(GRADE_RANK, grade)
    if (typeof grade === 'string' && rank !== undefined && (max === 'A' || max === 'B') && rank > GRADE_RANK[max]) {
        issues.push(createEntryIssue('GRD-013', '/aggregateGrade', { grade, max }))
    }
    if (entry.gradingMode === 'full' && !vetoed && typeof grade === 'string' && rank !== undefined && tier !== null) {
        const checked = recomputationIssues(entry, grade)
        issues.push(...checked.issues)
        recomputed = checked.recomputed
    } else if (typeof entry.gradingSystem === 'string' && !implemented(entry.gradingSystem, GRADING_SYSTEM_VERSION)) {
        issues.push(
            createEntryIssue('VER-004', '/gradingSystem', {
                namespace: 'gradingSystem',
                value: entry.gradingSystem,
                supported: GRADING_SYSTEM_VERSION
            })
        )
    }
    // Strict mode refuses these; the default mode names them as warnings (entry-levels.ts).
    issues.push(...strictEntryIssues(entry))
    issues.push(...answerSetIssues(entry, gradings, tier, vetoed))
    // A16: aboutHash on About areas.
    if (area !== null && (ABOUT_AREAS as readonly string[]).includes(area) && entry.aboutHash === undefined) {
        issues.push(createEntryIssue('GRD-022', '/aboutHash', { area }))
    }
    return { issues, recomputed }
}

/**
 * A valid entry, typed: what the checks established. `errors` may still hold warnings and infos (none but infos in
 * strict mode).
 */
export interface ValidEntryResult {
    readonly valid: true
    /**
     * The checked copy: a deep copy of the input holding only its own data properties, deep-frozen,
     * without `__proto__`/`constructor`/`prototype` keys. Never the caller's object.
     */
    readonly entry: GradingEntry
    readonly errors: Issue[]
    /**
     * The grade of a full entry aged at `now` (time-dependent answers past their window count as stale, 01-model §9):
     * what a reader sees today, beside the stored `aggregateGrade`. `null` without `now` or for a partial entry.
     */
    readonly agedGrade: string | null
    /** How each answer is known to be true: recomputed, attested, unverifiable or self-declared. */
    readonly provenance: EntryProvenance
}

/** An invalid entry: at least one issue of severity `error`. */
export interface InvalidEntryResult {
    readonly valid: false
    readonly errors: Issue[]
}

/** Result of {@link validateGradingEntry}; narrow on `valid` to reach the typed `entry`. */
export type GradingEntryValidation = ValidEntryResult | InvalidEntryResult

/** What every check takes, strict or not. */
interface EntryCheckCommon {
    readonly limits?: Partial<JsonLimits>
    /**
     * How far a timestamp may lie after `now` before it is GRD-061: a grader's clock running ahead of the
     * registry's. Default {@link DEFAULT_MAX_CLOCK_SKEW_MS} (60 000 ms, one minute); `0` allows none.
     */
    readonly maxClockSkewMs?: number
    /**
     * What the registry knows about the object the entry must grade; every stated fact must match (BND-*). Given
     * `source`, the schema hash is computed from it and every deterministic answer computable without a network is
     * re-checked (RCK-*; not in `flowmcp-grading/entry`, BND-011). See docs/registry.md.
     */
    readonly expect?: EntryExpectation
}

/** A check short of registry intake: `now` optional. */
export interface LenientEntryCheck extends EntryCheckCommon {
    /**
     * The validation time: an ISO 8601 string or a `Date` (its instant). When given, a timestamp
     * later than it (by more than `maxClockSkewMs`) is an error (GRD-061), and the result carries the
     * grade aged at it (`agedGrade`); a string that is no date-time, or an invalid Date, is GRD-063.
     */
    readonly now?: string | Date
    readonly strict?: false
}

/**
 * Registry intake: valid only when the entry is full, answered once per question by one grader
 * identity per kind, under this library's system versions and the catalogue's weights, with a
 * gradingId `<schemaHash>--<stamp>` read whole, the minimum-LLM rule met, every LLM reasoning present, no
 * timestamp after `now`, and the recomputed aggregateGrade. Every warning becomes an error
 * (docs/grading.md, Validation levels). `now` is required in the type, as at run time (GRD-074).
 */
export interface StrictEntryCheck extends EntryCheckCommon {
    readonly now: string | Date
    readonly strict: true
}

/**
 * How strictly an entry is checked, and against which time: `strict: true` (registry intake) needs `now`, and so
 * does a `strict` known only as a `boolean`. A host value that slips past the types is still refused at run time
 * (GRD-074).
 */
export type EntryCheckOptions =
    | LenientEntryCheck
    | StrictEntryCheck
    | (EntryCheckCommon & { readonly strict: boolean; readonly now: string | Date })

/** Options beside the entry. */
export type ValidateEntryInput = EntryCheckOptions & {
    readonly entry?: unknown
    /**
     * A DSSE envelope over the entry's RFC 8785 bytes (`Grading.sign`): verified against `trustedKeys`, it binds the
     * grader to a key (`provenance.graderKeyId`). Not in `flowmcp-grading/entry` (BND-011).
     */
    readonly envelope?: unknown
    /** The Ed25519 public keys (RFC 8037 JWK) whose signatures the registry trusts; see `envelope`. */
    readonly trustedKeys?: unknown
}

/**
 * Validates one grading entry completely: plain-JSON limits, the spec's JSON Schema 2020-12
 * (`schemas/grading-model.schema.json`, ajv with `allErrors`), every semantic rule of 01-model
 * §7.6 that applies to a single entry, and the answer rules (questions of the closed catalogue,
 * `stale` only where aging allows it, one answer per question and grader, reasoning on LLM answers,
 * the catalogue's determinism, area and weights, complete full entries, the gradingId read whole, no
 * timestamp after `now`), then what binds it to the registry's object (`expect`). `strict: true` is registry
 * intake (see {@link EntryCheckOptions.strict}). This is the validate-only form of `flowmcp-grading/entry`:
 * `expect.source` and `envelope` need the root entry point's (BND-011).
 * Collects all issues; never throws. Paths are JSON Pointers into the entry (`/gradings/0/score`);
 * a bad or missing `now` is reported at `/now`, a bad `expect` at `/expect` (docs/errors.md, Paths).
 * @param input - `{ entry, limits?, now?, strict?, maxClockSkewMs?, expect? }`
 * @returns `{ valid: true, entry, errors, agedGrade, provenance }` (entry typed {@link GradingEntry}: a deep-frozen
 *   copy of what was checked; errors hold only warnings and infos) or `{ valid: false, errors }`.
 *   Codes: GRD-*, BND-*, SCO-*, VET-*, NA-001, VER-*, INP-* (see docs/errors.md).
 * @example
 * const r = validateGradingEntry({ entry: parsed.value, strict: true, now: new Date(), expect: { schemaId } })
 * if (r.valid) r.entry.aggregateGrade
 */
export function validateGradingEntry(input: ValidateEntryInput): GradingEntryValidation {
    return validateWith(input, null)
}

/** {@link validateGradingEntry} with the parts the validate-only bundle leaves out, when the caller passes them. */
export function validateWith(input: ValidateEntryInput, extensions: IntakeExtensions | null): GradingEntryValidation {
    const options = input ?? {}
    const checked = runChecks(options.entry, options, true, extensions)
    if (checked.errors.some((e) => e.severity === SEVERITY.error) || checked.copy === null)
        return { valid: false, errors: checked.errors }
    const copy = checked.copy as Obj
    return {
        valid: true,
        entry: copy as unknown as GradingEntry,
        errors: checked.errors,
        agedGrade: agedGradeOf(copy, checked.now),
        provenance: provenanceOf(copy, checked.recheck, checked.graderKeyId)
    }
}

/** The grade of a full entry aged at `now`; `null` without `now` or for a partial entry. */
function agedGradeOf(entry: Obj, now: string | null): string | null {
    if (now === null || entry.gradingMode !== 'full') return null
    if (entry.categoricalVeto !== null && entry.categoricalVeto !== undefined) return 'REJECTED'
    return computeAggregate(entry, { now }, false).aggregateGrade
}

/**
 * True when `value` is a grading entry that passes {@link validateGradingEntry} with these options
 * (warnings allowed, none in strict mode).
 * @example if (isGradingEntry(json, { strict: true, now: new Date() })) json.gradings.length
 */
export function isGradingEntry(value: unknown, options?: EntryCheckOptions): value is GradingEntry {
    // A predicate answers, whatever it is given: a value that throws when read (a hostile or revoked Proxy) is no
    // entry.
    try {
        return validateGradingEntry({ ...(isObject(options) ? options : {}), entry: value }).valid
    } catch {
        return false
    }
}

/**
 * {@link validateGradingEntry} with the untraced recomputation its rule S3 made (see
 * {@link checkParsedEntry}), for callers that need the entry's figures as well as its verdict.
 * @param schemaChecked - internal: the caller has just validated this very entry against the shipped
 *   schema without a finding (the rebuild's screen), so the schema step is not run a second time
 */
export function checkEntry(
    entry: unknown,
    limits?: Partial<JsonLimits>,
    now?: unknown,
    strict = false,
    schemaChecked = false
): { errors: Issue[]; recomputed: AggregateResult | null } {
    const { errors, recomputed } = runChecks(entry, { limits, now, strict, schemaChecked }, false, null)
    return { errors, recomputed }
}

/** The validation time as a checked ISO string (`null` when absent or unusable) and the issue it raised. */
export function resolveNow(now: unknown, strict: boolean): { iso: string | null; issue: Issue | null } {
    if (now === undefined) return { iso: null, issue: strict ? createEntryIssue('GRD-074', '/now') : null }
    if (isIsoDateTime(now)) return { iso: now, issue: null }
    // A Date means its instant; checked by its tag, so a Date of another realm counts too.
    if (Object.prototype.toString.call(now) === '[object Date]') {
        const ms = Date.prototype.getTime.call(now as Date)
        if (Number.isFinite(ms)) return { iso: new Date(ms).toISOString(), issue: null }
        return {
            iso: null,
            issue: createEntryIssue('GRD-063', '/now', { value: 'an invalid Date (it holds no instant)' })
        }
    }
    return { iso: null, issue: createEntryIssue('GRD-063', '/now', { value: describeValue(now) }) }
}

const SKEW = v.looseObject({
    maxClockSkewMs: v.optional(
        v.custom<number>(
            (ms) => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0,
            says({ expected: 'a non-negative number of milliseconds', actual: 'value' })
        )
    )
})

/** The tolerated clock skew: a non-negative finite number of milliseconds, else the default and an issue. */
function resolveSkew(value: unknown): { ms: number; issue: Issue | null } {
    const checked = parseArgs(SKEW, { maxClockSkewMs: value }, BINDING_CODES)
    if (checked.value === null) return { ms: DEFAULT_MAX_CLOCK_SKEW_MS, issue: checked.errors[0] ?? null }
    return { ms: checked.value.maxClockSkewMs ?? DEFAULT_MAX_CLOCK_SKEW_MS, issue: null }
}

/** What the checks of one entry produced; `copy` is `null` when the value never reached the copy. */
interface CheckRun {
    readonly errors: Issue[]
    readonly recomputed: AggregateResult | null
    readonly copy: unknown
    readonly now: string | null
    readonly recheck: RecheckOutcome | null
    readonly graderKeyId: string | null
}

/** Absent is GRD-001; wrong type GRD-002; `null` has a code of its own (GRD-064), checked before the schema. */
const ENTRY_ARG = objectArg({ expected: 'a grading entry object', actual: 'type', field: 'entry' })
const ENTRY_CODES: ArgCodes<'GRD-001' | 'GRD-002'> = {
    missing: 'GRD-001',
    mismatch: 'GRD-002',
    create: createEntryIssue
}

/** The value is no object: one issue, nothing else checked. */
function notAnEntry(entry: unknown): Issue | null {
    if (entry === null) return createEntryIssue('GRD-064', '')
    return parseArgs(ENTRY_ARG, entry, ENTRY_CODES).errors[0] ?? null
}

interface RunOptions {
    readonly limits?: Partial<JsonLimits> | undefined
    readonly now?: unknown
    readonly strict?: unknown
    readonly schemaChecked?: boolean
    readonly maxClockSkewMs?: unknown
    readonly expect?: unknown
    readonly envelope?: unknown
    readonly trustedKeys?: unknown
}

/** Every check of one entry, on its checked copy. */
function runChecks(
    entry: unknown,
    options: RunOptions,
    freeze: boolean,
    extensions: IntakeExtensions | null
): CheckRun {
    const strict = options.strict === true
    const empty = { recomputed: null, copy: null, now: null, recheck: null, graderKeyId: null }
    const refused = notAnEntry(entry)
    if (refused !== null) return { errors: [refused], ...empty }
    const limits = options.limits === undefined ? DEFAULT_JSON_LIMITS : resolveLimits(options.limits)
    // One walk guards and copies the usual entry; anything it would have to describe takes both walks.
    let copied: EntryCopy | null = guardedCopy(entry, limits, freeze) as EntryCopy | null
    if (copied === null) {
        const guard = inspectJson(entry, limits)
        if (guard.length > 0) return { errors: guard, ...empty }
        copied = copyEntry(entry, freeze)
    }
    const copy = copied.value as Obj
    const now = resolveNow(options.now, strict)
    const skew = resolveSkew(options.maxClockSkewMs)
    const checked = checkParsedEntry(copy, now.iso ?? undefined, strict, options.schemaChecked === true, skew.ms)
    const intake = intakeIssues(copy, options, extensions)
    const first = [now.issue, skew.issue].filter((i): i is Issue => i !== null)
    const issues = [...first, ...(copied.issues ?? []), ...intake.issues]
    const errors = issues.length === 0 ? checked.errors : applyLevels([...issues, ...checked.errors], strict)
    return {
        errors,
        recomputed: checked.recomputed,
        copy,
        now: now.iso,
        recheck: intake.recheck,
        graderKeyId: intake.graderKeyId
    }
}

/** The intake's part: the stated facts, the re-check against the source, the envelope. */
function intakeIssues(
    copy: Obj,
    options: RunOptions,
    extensions: IntakeExtensions | null
): { issues: Issue[]; recheck: RecheckOutcome | null; graderKeyId: string | null } {
    const { expect, issues } = checkExpectation(options.expect)
    let recheck: RecheckOutcome | null = null
    let graderKeyId: string | null = null
    const needsFull =
        expect?.source !== undefined || options.envelope !== undefined || options.trustedKeys !== undefined
    if (needsFull && extensions === null)
        return { issues: [...issues, createEntryIssue('BND-011', '')], recheck, graderKeyId }
    if (expect !== null && expect.source !== undefined && extensions !== null) {
        recheck = extensions.recheck(copy, expect)
        issues.push(...recheck.issues)
    }
    if (expect !== null) issues.push(...bindingIssues(copy, expect, recheck?.schemaHash ?? null))
    if ((options.envelope !== undefined || options.trustedKeys !== undefined) && extensions !== null) {
        const verified = extensions.verify(copy, options.envelope, options.trustedKeys)
        issues.push(...verified.issues)
        graderKeyId = verified.graderKeyId
    }
    return { issues, recheck, graderKeyId }
}

/**
 * {@link validateGradingEntry} past the plain-JSON guard, for an entry that already passed it
 * (one parsed by `parseJsonText`), with the untraced recomputation of its grade (`null` when the
 * entry is not a full, unvetoed entry of this grading system) so a caller needs not aggregate twice.
 * @param now - a checked ISO 8601 validation time; timestamps are not compared when omitted
 * @param strict - the rules and levels of strict mode (the caller checks that `now` was given)
 * @param schemaChecked - the entry passed the shipped schema with no finding just before (the copy
 *   only leaves keys out, which no `required` names), so its structural findings are known to be none
 */
export function checkParsedEntry(
    entry: Obj,
    now?: string,
    strict = false,
    schemaChecked = false,
    skewMs = DEFAULT_MAX_CLOCK_SKEW_MS
): { errors: Issue[]; recomputed: AggregateResult | null } {
    const validate = validateGradingModel
    const findings = schemaChecked || validate(entry) ? null : validate.errors
    const structural = (findings ?? [])
        .filter((err) => !ownedByDedicatedCheck(err.instancePath))
        .map(mapAjvError)
        .filter((i): i is Issue => i !== null)

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
    const answers = answerRuleIssues(entry, now ?? null, skewMs)
    return {
        errors: applyLevels(dedupeIssues([...structural, ...dedicated, ...semantic.issues, ...answers]), strict),
        recomputed: semantic.recomputed
    }
}
