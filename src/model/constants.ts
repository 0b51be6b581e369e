import { GRADE_RANK, type AggregateGrade } from './grades.js'

/** The eleven Areas, in the order of the spec's area enum (chapter 08). */
export const AREAS = Object.freeze([
    'single-test',
    'tools-aggregate-schema',
    'tools-aggregate-namespace',
    'namespace-description',
    'namespace-skills',
    'about-namespace',
    'about-selection',
    'selection-skills-L1',
    'selection-skills-L2',
    'selection-skills-L3',
    'selection-aggregate'
] as const)
export type Area = (typeof AREAS)[number]

/** Areas 1–6: provider side, tier `autonomous`. */
export const PROVIDER_AREAS = Object.freeze(AREAS.slice(0, 6)) as readonly Area[]
/**
 * Areas 3–6: the namespace's units, graded once per namespace with every schema in view (the other provider areas,
 * single-test and tools-aggregate-schema, once per schema).
 */
export const NAMESPACE_AREAS = Object.freeze(AREAS.slice(2, 6)) as readonly Area[]
/** Whether a unit (an area, or `<area>/<skill>` for a per-skill area) is one of the namespace's. */
export function isNamespaceUnit(unit: string): boolean {
    const slash = unit.indexOf('/')
    return (NAMESPACE_AREAS as readonly string[]).includes(slash === -1 ? unit : unit.slice(0, slash))
}
/** Areas 7–11: selection side, tier `group-bound`. */
export const SELECTION_AREAS = Object.freeze(AREAS.slice(6)) as readonly Area[]
/** Areas whose entries must carry a `persona` object (schema allOf). */
export const PERSONA_AREAS: readonly Area[] = Object.freeze([
    'namespace-skills',
    'about-namespace',
    'about-selection',
    'selection-skills-L1',
    'selection-skills-L2',
    'selection-skills-L3',
    'selection-aggregate'
])
/** Areas graded once per skill; entries must carry `skillId` (schema allOf). */
export const PER_SKILL_AREAS: readonly Area[] = Object.freeze([
    'namespace-skills',
    'selection-skills-L1',
    'selection-skills-L2',
    'selection-skills-L3'
])
/** Areas whose entries must carry `aboutHash` (01-model ⚠ A16). */
export const ABOUT_AREAS: readonly Area[] = Object.freeze(['about-namespace', 'about-selection'])

export const GRADING_TIERS = Object.freeze(['autonomous', 'group-bound'] as const)
export type GradingTier = (typeof GRADING_TIERS)[number]

// The grade order lives with the bands and the stable threshold (grades.ts); re-exported for the names' old home.
export { GRADE_RANK, LETTER_GRADES, type AggregateGrade, type LetterGrade } from './grades.js'
export type MaxAttainableGrade = 'A' | 'B'

/** Tier → maximum attainable grade (chapter 06, schema-enforced). */
export const TIER_MAX_GRADE: Readonly<Record<GradingTier, MaxAttainableGrade>> = Object.freeze({
    autonomous: 'B',
    'group-bound': 'A'
})

/** Whether a value is a grade an entry or node can carry: A–F or `REJECTED`. Never throws. */
export function isAggregateGrade(value: unknown): value is AggregateGrade {
    return typeof value === 'string' && (value === 'REJECTED' || Object.hasOwn(GRADE_RANK, value))
}

export const GRADING_MODES = Object.freeze(['partial', 'full'] as const)
export type GradingMode = (typeof GRADING_MODES)[number]

export const HARNESSES = Object.freeze(['claude-code'] as const)
export type Harness = (typeof HARNESSES)[number]

export const BASE_PERSONAS = Object.freeze([
    'ai-engineer',
    'decision-maker',
    'hackathon-builder',
    'schema-maintainer'
] as const)
export type BasePersonaId = (typeof BASE_PERSONAS)[number]

export const DETERMINISM_VALUES = Object.freeze(['deterministic', 'non-deterministic'] as const)
export type Determinism = (typeof DETERMINISM_VALUES)[number]

export const GRADER_KINDS = Object.freeze(['llm', 'human', 'script'] as const)
export type GraderKind = (typeof GRADER_KINDS)[number]

export const SCORE_ENUMS = Object.freeze(['pass', 'fail', 'stale', 'n/a'] as const)
export type ScoreEnum = (typeof SCORE_ENUMS)[number]
export type Score = number | ScoreEnum

/** Closed `naReason` set (chapter 08 §5.3); anything else is `NA-001`. */
export const NA_REASONS = Object.freeze([
    'not-applicable-to-tool-type',
    'requires-private-data',
    'blocked-by-precondition',
    'out-of-scope-resource',
    'out-of-scope-prompt',
    'out-of-scope-procedure'
] as const)
export type NaReason = (typeof NA_REASONS)[number]

/** Closed veto trigger list (chapter 08); extending it is a gradingSystem bump, never a runtime call. */
export const VETO_TRIGGERS = Object.freeze([
    'malicious-module',
    'api-key-domain-mismatch',
    'illegal-content',
    'ai-security-veto'
] as const)
export type VetoTrigger = (typeof VETO_TRIGGERS)[number]

export const REGRADING_TRIGGERS = Object.freeze([
    'user-report',
    'scheduled',
    'scoring-system-bump',
    'grading-system-bump'
] as const)
export type RegradingTriggerKind = (typeof REGRADING_TRIGGERS)[number]

/** Node statuses of the index (chapter 21); never mixed with rollup statuses. */
export const NODE_STATUSES = Object.freeze(['pending', 'blocked', 'graded', 'stable', 'rejected'] as const)
export type NodeStatus = (typeof NODE_STATUSES)[number]

/** Rollup statuses of a namespace or selection summary. */
export const ROLLUP_STATUSES = Object.freeze(['operational', 'partial', 'blocked', 'pending', 'rejected'] as const)
export type RollupStatus = (typeof ROLLUP_STATUSES)[number]

/** The node statuses by name: code compares with `NODE_STATUS.blocked`, never a repeated string. */
export const NODE_STATUS = Object.freeze({
    pending: 'pending',
    blocked: 'blocked',
    graded: 'graded',
    stable: 'stable',
    rejected: 'rejected'
} as const satisfies Record<NodeStatus, NodeStatus>)

/** The rollup statuses by name; the same words as some node statuses, another vocabulary (chapter 21). */
export const ROLLUP_STATUS = Object.freeze({
    operational: 'operational',
    partial: 'partial',
    blocked: 'blocked',
    pending: 'pending',
    rejected: 'rejected'
} as const satisfies Record<RollupStatus, RollupStatus>)

/** How one area unit of a run ended (its `UnitResult.status`); a run's vocabulary, not the index's. */
export const UNIT_STATUSES = Object.freeze([
    'graded',
    'rejected',
    'provisional',
    'blocked',
    'gated',
    'skipped',
    'error'
] as const)
export type UnitStatus = (typeof UNIT_STATUSES)[number]

/** The unit statuses by name: code compares with `UNIT_STATUS.blocked`, never a repeated string. */
export const UNIT_STATUS = Object.freeze({
    graded: 'graded',
    rejected: 'rejected',
    provisional: 'provisional',
    blocked: 'blocked',
    gated: 'gated',
    skipped: 'skipped',
    error: 'error'
} as const satisfies Record<UnitStatus, UnitStatus>)

/** Issue severities, most serious first. `error` makes a result invalid; `warning` and `info` never do. */
export const SEVERITIES = Object.freeze(['error', 'warning', 'info'] as const)

/** The issue severities by name. */
export const SEVERITY = Object.freeze({ error: 'error', warning: 'warning', info: 'info' } as const satisfies Record<
    (typeof SEVERITIES)[number],
    (typeof SEVERITIES)[number]
>)

/** Timestamp grammar used in file names and grading ids: `YYYY-MM-DDTHH-MM-SSZ`. */
export const FILE_TIMESTAMP_REGEX = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/

/** The literal disclaimer a legal assessment must start with (01-model S9 / A19). */
export const LEGAL_DISCLAIMER = 'grader assessment, not legally binding'
/** Question id of the ToS legal assessment answer (01-model A19). */
export const LEGAL_ASSESSMENT_QUESTION_ID = 'Q-legal-assessment'

/**
 * Working tests a tool needs before it can be graded in full (02-areas §2.1, ⚠ B4: the spec's 3, not the reference's
 * 2).
 */
export const MIN_WORKING_TESTS = 3

/**
 * Why the pretest blocks a tool (`summary.json` `perTool.<tool>.reason`), first match wins in that
 * order; the working-count reason of a tool with a bar of N is `fewer-than-N-working-tests`
 * ({@link fewerThanWorkingTests}). A blocked tool is never graded, and neither is its schema.
 */
// Marked pure: a bundle that never reads the blocked reasons (the entry validator alone) leaves them out.
export const BLOCKED_REASONS = /* @__PURE__ */ Object.freeze({
    /** The runtime would refuse the schema: error-level structural findings (unknown method, …). */
    invalidSchema: 'invalid-schema',
    /** PUT/DELETE or `meta` says it changes state: graders never call it. */
    stateChanging: 'state-changing-tool',
    /** Its key belongs to another company's domain and is never sent to this host. */
    keyDomainMismatch: 'api-key-domain-mismatch',
    /** A required server param (key) was not given. */
    keyGated: 'key-gated-missing-server-param',
    noTests: 'no-tests',
    /** The schema exports handlers and no runtime was given. */
    handlersNeedRuntime: 'handlers-need-runtime',
    unbuildableTests: 'unbuildable-tests',
    /** Its tests did not run: offline (no HTTP port, no recordings) or a dry run. */
    untested: 'untested',
    /** Its tests, run by the runtime without a network, tried to reach one. */
    networkNotGranted: 'network-not-granted',
    /** Below its bar only because the recordings lack requests of its tests (a replay of another tree's requests). */
    missingRecording: 'missing-recording',
    /** Below its bar because its handlers need the shared lists the schema declares and the runtime was given none. */
    sharedListsNotGiven: 'shared-lists-not-given',
    /** Below its bar because a library the schema requires (`requiredLibraries`) is not installed where it runs. */
    libraryNotInstalled: 'library-not-installed',
    noWorkingTest: 'no-working-test'
} as const)

/** A blocked reason: one of {@link BLOCKED_REASONS} or a working-count reason. */
export type BlockedReason =
    | (typeof BLOCKED_REASONS)[keyof typeof BLOCKED_REASONS]
    | `fewer-than-${number}-working-tests`

/**
 * The working-count reason of a tool whose bar is `bar` working tests (the spec's 3 for anything but a whole number ≥
 * 1). Never throws.
 */
export function fewerThanWorkingTests(bar: number): BlockedReason {
    const count = typeof bar === 'number' && Number.isInteger(bar) && bar >= 1 ? bar : MIN_WORKING_TESTS
    return `fewer-than-${count}-working-tests`
}

/**
 * Whether a pretest reason for a blocked tool is about its working-test count (`fewer-than-3-working-tests`,
 * `no-working-test`): true only of a run that sent its tests; every other reason holds offline too.
 * Never throws: anything but such a string is `false`.
 */
export function isWorkingCountReason(reason: unknown): boolean {
    try {
        return (
            typeof reason === 'string' &&
            (reason === BLOCKED_REASONS.noWorkingTest || /^fewer-than-\d+-working-tests$/.test(reason))
        )
    } catch {
        return false
    }
}
