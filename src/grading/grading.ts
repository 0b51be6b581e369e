import { SEVERITY } from '../model/constants.js'
import * as v from 'valibot'
import { lookup } from '../json/own.js'
import { describeValue } from '../errors/issue.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { parseJsonText, resolveLimits } from '../json/guard.js'
import { signGradingEntry, type SignEntryResult } from './sign.js'
import {
    AREAS,
    BASE_PERSONAS,
    GRADING_MODES,
    HARNESSES,
    PROVIDER_AREAS,
    REGRADING_TRIGGERS,
    TIER_MAX_GRADE,
    type AggregateGrade,
    type Area,
    type GradingTier
} from '../model/constants.js'
import type { GradingAnswer, GradingEntry, GradingEntryDraft, Persona, RegradingTrigger } from '../model/types.js'
import { formatGradingFilename, parseGradingFilename, type GradingFilenameParts } from '../naming/grading-filename.js'
import { isIsoDateTime, toFileTimestamp } from '../time.js'
import { objectArg, parseArgs, says, wholeArg, type ArgCodes } from '../validation/args.js'
import { FLOWMCP_VERSION_REGEX, GRADING_SYSTEM_VERSION, SCORING_SYSTEM_VERSION } from '../version.js'
import { AGING_DEFAULTS, ageInDays, isExpired, TIME_DEPENDENT_QUESTIONS, type AgingDefaults } from './aging.js'
import { computeAggregate, noAggregate, type AggregateOptions, type AggregateResult } from './aggregate.js'
import { normalizeLegacyEntry, type LegacyMapping } from './legacy.js'
import {
    validateGradingEntry,
    type EntryCheckOptions,
    type GradingEntryValidation,
    type ValidateEntryInput
} from './validate-entry.js'
import { guardStatics } from '../errors/guard.js'
import { definedFields } from '../model/fields.js'

const CODES: ArgCodes<'GRD-001' | 'GRD-002'> = { missing: 'GRD-001', mismatch: 'GRD-002', create: createEntryIssue }
/** The entry-taking calls name a field by its own key (`gradings`, not `entry.gradings`) and write a value's type. */
const KEY_STYLE = { field: 'key', actual: 'type' } as const
// An absent `gradings` is reported by the object around it, so the wording stands on both.
const GRADINGS_WORDING = says({ expected: 'array', missing: false })
const WITH_GRADINGS = v.looseObject({ gradings: v.array(v.unknown(), GRADINGS_WORDING) }, GRADINGS_WORDING)
const ADD_ENTRY = v.object({ entry: v.pipe(objectArg(), WITH_GRADINGS) })
const ADD_GRADING = v.object({ grading: objectArg() })
/** checkAging reads nothing but the answers: a wrong entry is one finding, an absent one too (never GRD-001). */
const AGING_ENTRY = v.object({
    entry: wholeArg(v.pipe(objectArg(), v.looseObject({ gradings: v.array(v.unknown()) })), {
        expected: 'entry object with gradings[]',
        missing: false
    })
})
const REGRADED_ENTRY = v.object({ entry: objectArg() })
/** A re-grading's trigger: one of a closed list (GRD-010, ch. 08), absent too; a wrong one written as it came. */
const TRIGGER_CODES: ArgCodes<'GRD-010'> = { mismatch: 'GRD-010', create: createEntryIssue }
const TRIGGER = v.looseObject({
    triggeredBy: v.picklist(REGRADING_TRIGGERS, says({ expected: REGRADING_TRIGGERS.join(', '), actual: 'value' }))
})

const isoDateTime = v.pipe(
    v.string(),
    v.check((s: string) => isIsoDateTime(s), 'ISO-8601 date-time')
)

const CreateEntryArgs = v.object({
    schemaId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+$/, '<namespace>.<schema>')),
    area: v.picklist(AREAS),
    version: v.pipe(v.string(), v.regex(FLOWMCP_VERSION_REGEX, 'flowmcp/4.x.y')),
    schemaHash: v.pipe(v.string(), v.regex(/^[a-f0-9]{8}$/, '8 lowercase hex')),
    gradingMode: v.picklist(GRADING_MODES),
    now: isoDateTime,
    gradingTier: v.optional(v.picklist(['autonomous', 'group-bound'] as const)),
    selectionId: v.optional(v.pipe(v.string(), v.minLength(1))),
    aboutHash: v.optional(v.pipe(v.string(), v.regex(/^[a-f0-9]{8}$/, '8 lowercase hex'))),
    harness: v.optional(v.picklist(HARNESSES)),
    persona: v.optional(
        v.strictObject({ basePersonaId: v.picklist(BASE_PERSONAS), lensId: v.pipe(v.string(), v.minLength(1)) })
    ),
    skillId: v.optional(v.pipe(v.string(), v.minLength(1))),
    gradings: v.optional(v.array(v.unknown())),
    categoricalVeto: v.optional(v.unknown()),
    regradingTrigger: v.optional(v.unknown()),
    previousFullGrade: v.optional(v.picklist(['A', 'B', 'C', 'D', 'F', 'REJECTED'] as const))
})

/** Arguments of {@link Grading.createEntry}. */
export interface CreateEntryInput {
    readonly schemaId: string
    readonly area: Area
    /** FlowMCP schema version, `flowmcp/4.x.y`. */
    readonly version: string
    /** 8-hex hash of the canonical schema. */
    readonly schemaHash: string
    readonly gradingMode: 'full' | 'partial'
    /** Creation time (ISO 8601); becomes the `gradingId` timestamp. */
    readonly now: string
    /** Derived from the area when omitted (areas 1–6 autonomous, 7–11 group-bound); must match when given. */
    readonly gradingTier?: GradingTier
    readonly selectionId?: string
    readonly aboutHash?: string
    /** `claude-code`, the only value the spec allows; written when omitted. */
    readonly harness?: 'claude-code'
    readonly persona?: Persona
    readonly skillId?: string
    readonly gradings?: readonly unknown[]
    readonly categoricalVeto?: unknown
    readonly regradingTrigger?: unknown
    /** For `partial` entries: the node's last full aggregateGrade, which the entry must carry (⚠ A15). */
    readonly previousFullGrade?: AggregateGrade
}

/** Result of building or changing an entry. */
export interface EntryResult {
    /** The entry; a draft (`aggregateGrade: null`) until its answers produce a grade. `null` on error. */
    readonly entry: GradingEntryDraft | null
    readonly aggregate: AggregateResult | null
    readonly errors: Issue[]
}

function tierOf(area: Area): GradingTier {
    return (PROVIDER_AREAS as readonly string[]).includes(area) ? 'autonomous' : 'group-bound'
}

function withAggregate(
    draft: GradingEntryDraft,
    previousFullGrade: AggregateGrade | undefined
): { entry: GradingEntryDraft; aggregate: AggregateResult } {
    if (draft.gradingMode === 'partial') {
        const carried = { ...draft, aggregateGrade: previousFullGrade ?? draft.aggregateGrade }
        return { entry: carried, aggregate: computeAggregate(carried) }
    }
    const aggregate = computeAggregate(draft)
    return { entry: { ...draft, aggregateGrade: aggregate.aggregateGrade }, aggregate }
}

/** Issues of the entry that concern `/gradings/<index>`, rebased to `/grading`. */
function answerIssues(entry: unknown, index: number): Issue[] {
    const prefix = pointer('gradings', index)
    return validateGradingEntry({ entry })
        .errors.filter((i) => i.path === prefix || i.path.startsWith(`${prefix}/`))
        .map((i) => ({ ...i, path: `/grading${i.path.slice(prefix.length)}` }))
}

/** The body of {@link Grading.createEntry}, for the library's own stages (they need not bring the whole class). */
export function createEntry(input: CreateEntryInput): EntryResult {
    const { value: args, errors } = parseArgs(CreateEntryArgs, input, CODES)
    if (args === null) {
        return { entry: null, aggregate: null, errors }
    }
    const tier = tierOf(args.area)
    const issues: Issue[] = []
    if (args.gradingTier !== undefined && args.gradingTier !== tier) {
        issues.push(
            createEntryIssue('GRD-012', '/gradingTier', {
                area: args.area,
                expected: tier,
                actual: args.gradingTier
            })
        )
    }
    if (tier === 'group-bound' && args.selectionId === undefined)
        issues.push(createEntryIssue('GRD-004', '/selectionId'))
    if (args.gradingMode === 'partial' && args.previousFullGrade === undefined) {
        issues.push(
            createEntryIssue('GRD-028', '/previousFullGrade', {
                detail: 'pass previousFullGrade, or grade in full mode'
            })
        )
    }
    if (issues.length > 0) {
        return { entry: null, aggregate: null, errors: issues }
    }
    const stamp = toFileTimestamp(args.now) as string
    const draft: GradingEntryDraft = {
        gradingId: `${args.schemaHash}--${stamp}`,
        schemaId: args.schemaId,
        ...definedFields({ selectionId: args.selectionId }),
        area: args.area,
        version: args.version,
        schemaHash: args.schemaHash,
        ...definedFields({ aboutHash: args.aboutHash }),
        gradingMode: args.gradingMode,
        gradingTier: tier,
        harness: args.harness ?? 'claude-code',
        ...(args.persona !== undefined ? { persona: args.persona as Persona } : {}),
        ...definedFields({ skillId: args.skillId }),
        scoringSystem: SCORING_SYSTEM_VERSION,
        gradingSystem: GRADING_SYSTEM_VERSION,
        gradings: (args.gradings ?? []) as GradingAnswer[],
        categoricalVeto: (args.categoricalVeto ?? null) as GradingEntryDraft['categoricalVeto'],
        ...(args.regradingTrigger !== undefined ? { regradingTrigger: args.regradingTrigger as RegradingTrigger } : {}),
        aggregateGrade: null,
        maxAttainableGrade: TIER_MAX_GRADE[tier]
    }
    const { entry, aggregate } = withAggregate(draft, args.previousFullGrade)
    const check = validateGradingEntry({ entry })
    // A draft without answers (or without a grade yet) is legitimate; every other defect is not.
    const blocking = check.errors.filter(
        (i) =>
            i.severity === SEVERITY.error &&
            !(
                entry.aggregateGrade === null &&
                (i.path === '/aggregateGrade' || i.code === 'GRD-023' || i.code === 'GRD-018')
            )
    )
    if (blocking.length > 0) {
        return { entry: null, aggregate: null, errors: blocking }
    }
    return { entry, aggregate, errors: aggregate.errors.filter((i) => i.severity !== SEVERITY.error) }
}

/** The body of {@link Grading.addGrading}, for the library's own stages (they need not bring the whole class). */
export function addGrading(input: { entry?: unknown; grading?: unknown }): EntryResult {
    // The entry first, then the answer: only the first wrong one is reported, as before the schemas.
    const checked = parseArgs(ADD_ENTRY, { entry: input?.entry }, CODES, KEY_STYLE)
    if (checked.value === null) return { entry: null, aggregate: null, errors: checked.errors }
    const added = parseArgs(ADD_GRADING, { grading: input?.grading }, CODES, KEY_STYLE)
    if (added.value === null) return { entry: null, aggregate: null, errors: added.errors }
    const base = checked.value.entry as unknown as GradingEntryDraft
    const grading: unknown = added.value.grading
    const candidate: GradingEntryDraft = { ...base, gradings: [...base.gradings, grading as GradingAnswer] }
    const problems = answerIssues(candidate, candidate.gradings.length - 1).filter((i) => i.severity === SEVERITY.error)
    if (problems.length > 0) {
        return { entry: null, aggregate: null, errors: problems }
    }
    const { entry: next, aggregate } = withAggregate(
        candidate,
        base.gradingMode === 'partial' ? (base.aggregateGrade ?? undefined) : undefined
    )
    return { entry: next, aggregate, errors: aggregate.errors.filter((i) => i.severity !== SEVERITY.error) }
}

/** The options of an aggregate that are not dates: a member count and the domain-knowledge flag. */
const AGGREGATE_OPTIONS = v.looseObject({
    memberCount: v.optional(
        v.custom((x) => Number.isInteger(x) && (x as number) >= 0, says({ expected: 'non-negative integer' }))
    ),
    domainKnowledge: v.optional(v.custom((x) => typeof x === 'boolean', says({ expected: 'boolean' })))
})

/** The body of {@link Grading.computeAggregateGrade}, for the library's own stages (they need not bring the whole class). */
export function computeAggregateGrade(input: { entry?: unknown } & AggregateOptions): AggregateResult {
    const options: AggregateOptions = {
        ...definedFields({
            now: input?.now,
            agingDefaults: input?.agingDefaults,
            memberCount: input?.memberCount,
            domainKnowledge: input?.domainKnowledge
        })
    }
    if (options.now !== undefined && !isIsoDateTime(options.now)) {
        return noAggregate([createEntryIssue('GRD-046', '/now', { value: describeValue(options.now) })])
    }
    // The first wrong option only, as the checks report one at a time.
    const first = parseArgs(AGGREGATE_OPTIONS, options, CODES).errors.slice(0, 1)
    if (first.length > 0) return noAggregate(first)
    const result = computeAggregate(input?.entry, options)
    return {
        ...result,
        errors: result.errors.map((i) =>
            i.path.startsWith('/') || i.path === '' ? { ...i, path: `/entry${i.path}` } : i
        )
    }
}

/**
 * Grading entries: building, aggregating, aging, re-grading and reading (chapters 06–08). Every
 * method is pure; time is passed in as `now`.
 */
class GradingUnguarded {
    private constructor() {}

    /**
     * Builds a new entry for one Area and target. The tier follows the area (S2); `gradingId` is
     * `<schemaHash>--<YYYY-MM-DDTHH-MM-SSZ>` (⚠ A13); `scoringSystem`/`gradingSystem` are this
     * library's versions. Answers given here are validated like {@link Grading.addGrading}.
     * @param input - see {@link CreateEntryInput}
     * @returns `{ entry, aggregate, errors }`; GRD-001/GRD-002 for bad arguments, GRD-012 for a tier
     *   that contradicts the area, GRD-004/GRD-021/GRD-037/GRD-022 for missing conditional fields,
     *   GRD-028 for a partial entry without `previousFullGrade`, plus the answer and veto codes.
     * @example
     * Grading.createEntry({
     *     schemaId: 'etherscan.getBalance',
     *     area: 'single-test',
     *     version: 'flowmcp/4.0.0',
     *     schemaHash: 'a1b2c3d4',
     *     gradingMode: 'full',
     *     now: '2026-05-29T10:00:00Z'
     * })
     */
    static createEntry(input: CreateEntryInput): EntryResult {
        return createEntry(input)
    }

    /**
     * Returns a new entry with one more answer and the aggregate recomputed; the input is not mutated.
     * @param input - `{ entry, grading }`
     * @returns `{ entry, aggregate, errors }`; `entry` is `null` when the answer is invalid (paths under `/grading`).
     * @example
     * const grading = { questionId: 'Q-when-to-use', score: 4, weight: 1, determinism: 'non-deterministic', … }
     * Grading.addGrading({ entry, grading })
     */
    static addGrading(input: { entry?: unknown; grading?: unknown }): EntryResult {
        return addGrading(input)
    }

    /**
     * Computes the grade of an entry (gradingSystem/1.0.0): partial gate, veto short-circuit,
     * newest answer per question, optional aging, weighted mean, band on the unrounded mean,
     * tier trim (`rawGrade` keeps the untrimmed band), selection size cap, Domain-Knowledge cap, minimum-LLM warning.
     * All answers excluded or zero total weight → `aggregateGrade: null` with GRD-024/GRD-025, never F.
     * @param input - `{ entry, now?, agingDefaults?, memberCount?, domainKnowledge? }` (`domainKnowledge: false`
     *   caps a selection-side grade at B, GRD-052)
     * @returns `{ aggregateGrade, rawGrade, normalizedScore, maxAttainableGrade, noGradeReason, trace, errors }`
     * @example Grading.computeAggregateGrade({ entry }).aggregateGrade // 'B'
     */
    static computeAggregateGrade(input: { entry?: unknown } & AggregateOptions): AggregateResult {
        return computeAggregateGrade(input)
    }

    /**
     * Applies the aging windows as a derived view (⚠ A22): time-dependent answers older than their
     * window (`ageDays > window`, ⚠ A21) read as `stale`, never `fail`. The stored entry is not changed.
     * @param input - `{ entry, now, agingDefaults? }`
     * @returns `{ entry, agedQuestions, retentionExceeded, errors }`; GRD-046 for a bad `now`,
     *   SCO-WARN-001 per aged answer, GRD-WARN-001 once when the entry is past RETENTION_DAYS.
     * @example Grading.checkAging({ entry, now: '2026-07-01T00:00:00Z' }).agedQuestions
     */
    static checkAging(input: { entry?: unknown; now?: unknown; agingDefaults?: AgingDefaults }): {
        entry: GradingEntryDraft | null
        agedQuestions: Array<{ questionId: string; index: number; ageDays: number; windowDays: number }>
        retentionExceeded: boolean
        errors: Issue[]
    } {
        const entry = input?.entry
        const now = input?.now
        if (!isIsoDateTime(now)) {
            return {
                entry: null,
                agedQuestions: [],
                retentionExceeded: false,
                errors: [
                    createEntryIssue(now === undefined ? 'GRD-001' : 'GRD-046', '/now', {
                        field: 'now',
                        value: describeValue(now)
                    })
                ]
            }
        }
        const checked = parseArgs(AGING_ENTRY, { entry }, CODES, KEY_STYLE)
        if (checked.value === null) {
            return { entry: null, agedQuestions: [], retentionExceeded: false, errors: checked.errors }
        }
        const aging = input.agingDefaults ?? AGING_DEFAULTS
        const source = entry as GradingEntryDraft
        const errors: Issue[] = []
        const agedQuestions: Array<{ questionId: string; index: number; ageDays: number; windowDays: number }> = []
        let oldest = 0
        const gradings = source.gradings.map((answer, index) => {
            const ageDays = typeof answer?.timestamp === 'string' ? ageInDays(answer.timestamp, now) : null
            if (ageDays === null) return answer
            oldest = Math.max(oldest, ageDays)
            const key = lookup(TIME_DEPENDENT_QUESTIONS, answer.questionId)
            if (
                key === undefined ||
                answer.score === 'n/a' ||
                answer.score === 'stale' ||
                !isExpired(ageDays, aging[key])
            )
                return answer
            agedQuestions.push({ questionId: answer.questionId, index, ageDays, windowDays: aging[key] })
            errors.push(
                createEntryIssue('SCO-WARN-001', pointer('entry', 'gradings', index, 'score'), {
                    days: aging[key],
                    questionId: answer.questionId
                })
            )
            const { naReason: _dropped, ...rest } = answer
            return { ...rest, score: 'stale' as const }
        })
        const retentionExceeded = isExpired(oldest, aging.RETENTION_DAYS)
        if (retentionExceeded) errors.push(createEntryIssue('GRD-WARN-001', '/entry', { days: aging.RETENTION_DAYS }))
        return { entry: { ...source, gradings }, agedQuestions, retentionExceeded, errors }
    }

    /**
     * Starts a re-grading: a new entry linked to the old one through `regradingTrigger.previousGradingId`.
     * The old entry is never changed. A `grading-system-bump` re-aggregates the same answers under this
     * library's grading system; every other trigger starts with no answers, to be graded afresh.
     * @param input - `{ entry, triggeredBy, now, reportedIssue?, requestedBy? }`
     * @returns `{ newEntry, errors }`; GRD-006 when the old entry has no gradingId, GRD-010 for an unknown trigger,
     *   GRD-001 when a user report lacks `reportedIssue`/`requestedBy`.
     * @example Grading.applyRegradingTrigger({ entry, triggeredBy: 'scheduled', now })
     */
    static applyRegradingTrigger(input: {
        entry?: unknown
        triggeredBy?: unknown
        now?: unknown
        reportedIssue?: unknown
        requestedBy?: unknown
    }): { newEntry: GradingEntryDraft | null; errors: Issue[] } {
        const { entry, triggeredBy, now, reportedIssue, requestedBy } = input ?? {}
        const errors: Issue[] = []
        const checked = parseArgs(REGRADED_ENTRY, { entry }, CODES, KEY_STYLE)
        if (checked.value === null) {
            return { newEntry: null, errors: checked.errors }
        }
        const old = entry as GradingEntryDraft
        if (typeof old.gradingId !== 'string' || old.gradingId.length === 0)
            errors.push(
                createEntryIssue('GRD-006', '/entry/gradingId', { detail: 'the superseded entry has no gradingId' })
            )
        errors.push(...parseArgs(TRIGGER, { triggeredBy }, TRIGGER_CODES, KEY_STYLE).errors)
        // `now` has a rule of its own (GRD-046, the injected clock): a plain check after the schema.
        if (!isIsoDateTime(now)) errors.push(createEntryIssue('GRD-046', '/now', { value: describeValue(now) }))
        if (triggeredBy === 'user-report') {
            if (typeof reportedIssue !== 'string' || reportedIssue.length === 0)
                errors.push(createEntryIssue('GRD-001', '/reportedIssue', { field: 'reportedIssue' }))
            if (typeof requestedBy !== 'string' || requestedBy.length === 0)
                errors.push(createEntryIssue('GRD-001', '/requestedBy', { field: 'requestedBy' }))
        }
        if (errors.length > 0) {
            return { newEntry: null, errors }
        }
        const stamp = toFileTimestamp(now as string) as string
        const trigger: RegradingTrigger = {
            triggeredBy: triggeredBy as RegradingTrigger['triggeredBy'],
            ...(triggeredBy === 'user-report'
                ? { reportedIssue: reportedIssue as string, requestedBy: requestedBy as string }
                : {}),
            previousGradingId: old.gradingId,
            timestamp: now as string
        }
        const carryAnswers = triggeredBy === 'grading-system-bump'
        const draft: GradingEntryDraft = {
            ...old,
            gradingId: `${String(old.schemaHash)}--${stamp}`,
            gradingMode: 'full',
            scoringSystem: carryAnswers ? old.scoringSystem : SCORING_SYSTEM_VERSION,
            gradingSystem: GRADING_SYSTEM_VERSION,
            gradings: carryAnswers ? old.gradings : [],
            categoricalVeto: carryAnswers ? old.categoricalVeto : null,
            regradingTrigger: trigger,
            aggregateGrade: null
        }
        const aggregate = computeAggregate(draft)
        return {
            newEntry: { ...draft, aggregateGrade: aggregate.aggregateGrade },
            errors: [
                createEntryIssue('GRD-INFO-001', '', {
                    triggeredBy: String(triggeredBy),
                    previousGradingId: old.gradingId
                })
            ]
        }
    }

    /**
     * Reads an entry from JSON text or a parsed value. Entries written by the reference
     * implementation or the FlowMCP CLI are normalised to the spec shape; every mapping is reported
     * (`mapped`, GRD-029). The result is validated with {@link validateGradingEntry}.
     * With `strict: true` (registry intake, `now` required) a legacy mapping is an error like every other warning.
     * @param input - `{ json, limits?, now?, strict? }` (`json`: a string or an already parsed value)
     * @returns `{ entry, legacy, mapped, errors }`; `entry` (the checked, deep-frozen copy) is `null` unless the
     *   (normalised) entry is valid. GRD-020 for unparseable text, INP-* past the limits.
     * @example Grading.readEntry({ json: text }).entry
     */
    static readEntry(input: { json?: unknown } & EntryCheckOptions): {
        entry: GradingEntry | null
        legacy: boolean
        mapped: LegacyMapping[]
        errors: Issue[]
    } {
        const json = input?.json
        if (json === undefined || json === null) {
            return {
                entry: null,
                legacy: false,
                mapped: [],
                errors: [createEntryIssue('GRD-001', '/json', { field: 'json' })]
            }
        }
        let value: unknown = json
        if (typeof json === 'string') {
            const parsed = parseJsonText(json, resolveLimits(input.limits))
            if (parsed.errors.length > 0) {
                const errors = parsed.errors.map((i) =>
                    i.code === 'INP-004' ? createEntryIssue('GRD-020', '', { detail: i.message }) : i
                )
                return { entry: null, legacy: false, mapped: [], errors }
            }
            value = parsed.value
        }
        const { entry: normalized, legacy, mapped } = normalizeLegacyEntry(value)
        const strict = input.strict === true
        // Read-tolerance: a mapped legacy field is a warning, and an error in strict mode.
        const mappings = mapped
            .map((m) => createEntryIssue('GRD-029', m.path, { from: m.from, to: m.to }))
            .map((i) => (strict ? { ...i, severity: SEVERITY.error } : i))
        // The options as the host gave them: strict without now is GRD-074 at run time.
        const check = validateGradingEntry({
            entry: normalized,
            ...definedFields({ limits: input.limits, now: input.now }),
            strict
        } as ValidateEntryInput)
        return {
            entry: check.valid && (!strict || mappings.length === 0) ? check.entry : null,
            legacy,
            mapped,
            errors: [...mappings, ...check.errors]
        }
    }

    /**
     * Signs a grading entry: a DSSE envelope over its RFC 8785 canonical bytes with an Ed25519 JWK private key
     * (RFC 8037). Only a valid entry is signed. A registry verifies it with
     * `validateGradingEntry({ entry, envelope, trustedKeys })` (docs/registry.md).
     * @param input - `{ entry, privateKey }`
     * @returns `{ envelope, keyId, errors }` or `{ envelope: null, keyId: null, errors }` (ATT-001, ATT-005)
     * @example const { envelope } = Grading.sign({ entry, privateKey: { kty: 'OKP', crv: 'Ed25519', x, d } })
     */
    static sign(input: { entry?: unknown; privateKey?: unknown }): SignEntryResult {
        return signGradingEntry(input)
    }

    /**
     * Validates a complete entry (same as the top-level {@link validateGradingEntry}).
     * @param input - `{ entry, limits?, now?, strict? }`
     * @returns `{ valid: true, entry, errors }` or `{ valid: false, errors }`
     * @example Grading.validateEntry({ entry }).valid
     */
    static validateEntry(input: ValidateEntryInput): GradingEntryValidation {
        return validateGradingEntry(input)
    }

    /**
     * File name of an entry: `<area>[--<basePersona>--<lens>]--<YYYY-MM-DDTHH-MM-SSZ>.json`.
     * @param input - `{ area, basePersona?, lens?, timestamp }` (`timestamp` in file form or ISO 8601)
     * @returns `{ filename, errors }`; GRD-043 unknown area, GRD-041 bad timestamp, GRD-042 persona pair.
     * @example
     * Grading.formatGradingFilename({ area: 'single-test', timestamp: '2026-05-29T10:00:00Z' }).filename
     * // 'single-test--2026-05-29T10-00-00Z.json'
     */
    static formatGradingFilename(input: {
        area?: unknown
        basePersona?: unknown
        lens?: unknown
        timestamp?: unknown
    }): { filename: string | null; errors: Issue[] } {
        return formatGradingFilename(input)
    }

    /**
     * Parses a grading file name; `null` parts when the name does not follow the grammar.
     * @param input - `{ filename }`
     * @returns `{ parts, errors }`; GRD-041 when the name is not a grading file name.
     * @example
     * Grading.parseGradingFilename({ filename: 'about-namespace--ai-engineer--crypto--2026-05-29T10-00-00Z.json' })
     *     .parts?.lens // 'crypto'
     */
    static parseGradingFilename(input: { filename?: unknown }): {
        parts: GradingFilenameParts | null
        errors: Issue[]
    } {
        const parts = parseGradingFilename(input?.filename)
        return parts === null
            ? { parts, errors: [createEntryIssue('GRD-041', '/filename', { value: describeValue(input?.filename) })] }
            : { parts, errors: [] }
    }
}

/**
 * The public Grading: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Grading = /* @__PURE__ */ guardStatics(GradingUnguarded, 'Grading')
