import graphData from './data/area-dependency-graph.json' with { type: 'json' }
import questionData from './data/questions.json' with { type: 'json' }
import type { CatalogueQuestionId } from '../model/question-ids.js'
import {
    AREAS,
    PER_SKILL_AREAS,
    PERSONA_AREAS,
    ABOUT_AREAS,
    PROVIDER_AREAS,
    TIER_MAX_GRADE,
    type Area,
    type Determinism,
    type GradingTier,
    type MaxAttainableGrade
} from '../model/constants.js'

/** Which side of the grading an area belongs to (02 §1). */
export type AreaSide = 'provider' | 'selection'
/** Which blocks an area carries: computed by code, by the harness, or both. */
export type AreaClassification = 'deterministic' | 'non-deterministic' | 'both'
/** What an area depends on before it may run (area dependency graph). */
export type DependsOnKind = 'none' | 'all-namespace-schemas' | 'about-resource-present' | 'all-member-schemas'
/** The level ladder a dependency is measured on, lowest first (06 §19.2). */
export const LEVEL_LADDER = Object.freeze(['imported', 'structural-valid', 'deterministic-green', 'stable'] as const)
export type Level = (typeof LEVEL_LADDER)[number]
/** Which identifier fills `<target>` in a `[GRADING] area=<area>/<target>` line (04 ⚠ D7). */
export type SurfacingTarget = 'tool' | 'schema' | 'namespace' | 'skill' | 'selection'

/** One question of an area's question set (versioned data, 02 ⚠ B1). */
export interface AreaQuestion {
    readonly id: CatalogueQuestionId
    readonly area: Area
    readonly dimension: string
    readonly question: string
    readonly scoreType: 'boolean' | 'scale-1-5'
    readonly weight: number
    readonly determinism: Determinism
    readonly tier: string
    /** File placeholders such as `{{schemaPath}}` the evaluator must read first. */
    readonly filesToRead: readonly string[]
    readonly evaluatorTask: string
    readonly personaRequired: boolean
}

/** A condition under which an area does not produce a normal grade. */
export interface BlockingCondition {
    /** Stable id, also used as the blocked reason where one is written. */
    readonly id: string
    /**
     * `blocked`: the node is blocked with a reason; `not-run`: the area does not run at all; `stop`: a cascade stop.
     */
    readonly effect: 'blocked' | 'not-run' | 'stop'
    readonly description: string
    /** Where the rule comes from (spec digest section). */
    readonly source: string
}

/** Everything the library knows about one area, as plain data. */
export interface AreaDescriptor {
    readonly id: Area
    /** Position 1–11 in the spec's area table. */
    readonly number: number
    readonly side: AreaSide
    readonly tier: GradingTier
    readonly maxGrade: MaxAttainableGrade
    readonly evaluates: string
    readonly personaRequired: boolean
    readonly perSkill: boolean
    readonly aboutHashRequired: boolean
    readonly classification: AreaClassification
    readonly questionIds: readonly string[]
    readonly questionCount: number
    readonly deterministicQuestionIds: readonly string[]
    readonly nonDeterministicQuestionIds: readonly string[]
    /** `_gradings/` folder as a path template relative to the island root, e.g. `providers/{namespace}/_gradings/`. */
    readonly gradingsDir: string
    /** The `index.json` node the area's grade lands on, as a template. */
    readonly indexNode: string
    readonly surfacingTarget: SurfacingTarget
    readonly group: string
    readonly dependsOn: DependsOnKind
    readonly requiredLevel: Level
    /** The CLI defers this area at emit time unless a persona is supplied for it. */
    readonly deferred: boolean
    readonly blockingConditions: readonly BlockingCondition[]
    readonly outputSchemaId: string
}

/** Host of every schema this library ships. */
export const SCHEMA_HOST = 'https://flowmcp-grading.dev/schemas/'
/** `$id` of the shared definitions of the area output schemas. */
export const AREA_OUTPUT_MASTER_ID = `${SCHEMA_HOST}area-output/_master.schema.json`
/** Version of the question catalogue shipped with this library. */
export const QUESTION_CATALOGUE_VERSION: string = questionData.version
/** Inner-loop bound of the area output envelope (04 ⚠ D6). */
export const MAX_ITERATIONS = 5

const PRE_CONDITION: BlockingCondition = {
    id: 'blocked-by-precondition',
    effect: 'blocked',
    description:
        'every member in the frozen lockSnapshot must be stable; any other member status blocks the run before any area',
    source: '02 §9.1'
}
const BELOW_SOFT_THRESHOLD: BlockingCondition = {
    id: 'below-soft-threshold',
    effect: 'not-run',
    description: 'fewer than 5 distinct member namespaces: no selection area runs and the selection grade is n/a',
    source: '02 §8, ⚠ B10'
}
const VETO_STOP: BlockingCondition = {
    id: 'categorical-veto',
    effect: 'stop',
    description:
        'a categorical veto in any area stops all further grading of the schema and replaces the grade with REJECTED',
    source: '02 §3.3'
}

interface StaticFacts {
    readonly evaluates: string
    readonly gradingsDir: string
    readonly indexNode: string
    readonly surfacingTarget: SurfacingTarget
    readonly blockingConditions: readonly BlockingCondition[]
}

// Facts the spec states per area that are not in the reference data files (02 §1, 03 §2, 04 ⚠ D7).
const STATIC: Readonly<Record<Area, StaticFacts>> = {
    'single-test': {
        evaluates: 'one tool',
        gradingsDir: 'providers/{namespace}/{schema}/tools/{tool}/_gradings/',
        indexNode: 'schemas.{schema}.tools.{tool}',
        surfacingTarget: 'tool',
        blockingConditions: [
            {
                id: 'fewer-than-3-working-tests',
                effect: 'blocked',
                description: 'fewer than 3 working tests (status true, non-empty data) block full grading of the tool',
                source: '02 §2.1, ⚠ B4'
            },
            {
                id: 'key-gated',
                effect: 'blocked',
                description: 'a required server parameter is missing: no live calls, the tool is blocked, never failed',
                source: '04 ⚠ D9'
            },
            VETO_STOP
        ]
    },
    'tools-aggregate-schema': {
        evaluates: 'the tool set of one schema',
        gradingsDir: 'providers/{namespace}/{schema}/_gradings/',
        indexNode: 'schemas.{schema}.toolsAggregate',
        surfacingTarget: 'schema',
        blockingConditions: [VETO_STOP]
    },
    'tools-aggregate-namespace': {
        evaluates: 'all tools across the namespace',
        gradingsDir: 'providers/{namespace}/_gradings/',
        indexNode: 'namespaceAggregate',
        surfacingTarget: 'namespace',
        blockingConditions: [VETO_STOP]
    },
    'namespace-description': {
        evaluates: 'the namespace metadata',
        gradingsDir: 'providers/{namespace}/_gradings/',
        indexNode: 'description',
        surfacingTarget: 'namespace',
        blockingConditions: [VETO_STOP]
    },
    'namespace-skills': {
        evaluates: 'one namespace skill',
        gradingsDir: 'providers/{namespace}/{schema}/skills/{skill}/_gradings/',
        indexNode: 'skills["{schema}.{skill}"]',
        surfacingTarget: 'skill',
        blockingConditions: [VETO_STOP]
    },
    'about-namespace': {
        evaluates: 'the About resource (declared in one schema)',
        gradingsDir: 'providers/{namespace}/{schema}/resources/about/_gradings/',
        indexNode: 'about',
        surfacingTarget: 'schema',
        blockingConditions: [
            {
                id: 'no-about',
                effect: 'blocked',
                description:
                    'no schema declares an about resource, or its markdown file is missing: content grading does not run',
                source: '02 §2.6'
            },
            {
                id: 'namespace-schemas-not-stable',
                effect: 'blocked',
                description: 'every schema node of the namespace must be stable first',
                source: '02 ⚠ B8'
            },
            VETO_STOP
        ]
    },
    'about-selection': {
        evaluates: 'the selection About (Domain-Knowledge document)',
        gradingsDir: 'selections/{selection}/resources/about/_gradings/',
        indexNode: 'about',
        surfacingTarget: 'selection',
        blockingConditions: [PRE_CONDITION, BELOW_SOFT_THRESHOLD]
    },
    'selection-skills-L1': {
        evaluates: 'one L1 (signpost) skill',
        gradingsDir: 'selections/{selection}/skills/{skill}/_gradings/',
        indexNode: 'skills["{skill}"]',
        surfacingTarget: 'skill',
        blockingConditions: [PRE_CONDITION, BELOW_SOFT_THRESHOLD]
    },
    'selection-skills-L2': {
        evaluates: 'one L2 (topic) skill',
        gradingsDir: 'selections/{selection}/skills/{skill}/_gradings/',
        indexNode: 'skills["{skill}"]',
        surfacingTarget: 'skill',
        blockingConditions: [
            PRE_CONDITION,
            BELOW_SOFT_THRESHOLD,
            {
                id: 'missing-predecessor-grades',
                effect: 'blocked',
                description: 'the grades of every L1 skill of the selection must exist first',
                source: '02 §9.3, ⚠ B13'
            }
        ]
    },
    'selection-skills-L3': {
        evaluates: 'one L3 (use-case) skill',
        gradingsDir: 'selections/{selection}/skills/{skill}/_gradings/',
        indexNode: 'skills["{skill}"]',
        surfacingTarget: 'skill',
        blockingConditions: [
            PRE_CONDITION,
            BELOW_SOFT_THRESHOLD,
            {
                id: 'missing-predecessor-grades',
                effect: 'blocked',
                description: 'the grades of the L2 skills that name this skill must exist first',
                source: '02 §9.3, ⚠ B13'
            }
        ]
    },
    'selection-aggregate': {
        evaluates: 'the selection as a whole',
        gradingsDir: 'selections/{selection}/_gradings/',
        indexNode: 'selectionAggregate',
        surfacingTarget: 'selection',
        blockingConditions: [
            PRE_CONDITION,
            BELOW_SOFT_THRESHOLD,
            {
                id: 'domain-knowledge-invalid',
                effect: 'stop',
                description:
                    'a Domain-Knowledge document without its seven sections caps domainConformance at stale or n/a',
                source: '02 §9.5'
            }
        ]
    }
}

interface GraphEntry {
    readonly area: string
    readonly group: string
    readonly dependsOn: { readonly kind: string }
    readonly requiredLevel: string
    readonly classification: string
    readonly deferred: boolean
}

function freezeDeep<T>(value: T): T {
    if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
        Object.freeze(value)
        for (const child of Object.values(value as Record<string, unknown>)) freezeDeep(child)
    }
    return value
}

/** Every question of every area, in catalogue order (frozen). */
export const QUESTIONS: readonly AreaQuestion[] = freezeDeep(
    (questionData.questions as ReadonlyArray<Record<string, unknown>>).map((q) => ({
        // questions.json and CATALOGUE_QUESTION_IDS hold the same ids (a test compares them).
        id: q.id as CatalogueQuestionId,
        area: q.area as Area,
        dimension: q.dimension as string,
        question: q.question as string,
        scoreType: q.scoreType as AreaQuestion['scoreType'],
        weight: q.weight as number,
        determinism: q.determinism as Determinism,
        tier: q.tier as string,
        filesToRead: [...(q.filesToRead as string[])],
        evaluatorTask: q.evaluatorTask as string,
        personaRequired: q.personaRequired as boolean
    }))
)

function buildDescriptor(area: Area, index: number): AreaDescriptor {
    const graph = (graphData.entries as readonly GraphEntry[]).find((e) => e.area === area) as GraphEntry
    const questions = QUESTIONS.filter((q) => q.area === area)
    const det = questions.filter((q) => q.determinism === 'deterministic').map((q) => q.id)
    const nonDet = questions.filter((q) => q.determinism === 'non-deterministic').map((q) => q.id)
    const side: AreaSide = (PROVIDER_AREAS as readonly string[]).includes(area) ? 'provider' : 'selection'
    const tier: GradingTier = side === 'provider' ? 'autonomous' : 'group-bound'
    const facts = STATIC[area]
    return {
        id: area,
        number: index + 1,
        side,
        tier,
        maxGrade: TIER_MAX_GRADE[tier],
        evaluates: facts.evaluates,
        personaRequired: (PERSONA_AREAS as readonly string[]).includes(area),
        perSkill: (PER_SKILL_AREAS as readonly string[]).includes(area),
        aboutHashRequired: (ABOUT_AREAS as readonly string[]).includes(area),
        // Derived from the question data, so a question-set change moves the classification with it.
        classification:
            det.length > 0 && nonDet.length > 0 ? 'both' : det.length > 0 ? 'deterministic' : 'non-deterministic',
        questionIds: questions.map((q) => q.id),
        questionCount: questions.length,
        deterministicQuestionIds: det,
        nonDeterministicQuestionIds: nonDet,
        gradingsDir: facts.gradingsDir,
        indexNode: facts.indexNode,
        surfacingTarget: facts.surfacingTarget,
        group: graph.group,
        dependsOn: graph.dependsOn.kind as DependsOnKind,
        requiredLevel: graph.requiredLevel as Level,
        deferred: graph.deferred,
        blockingConditions: facts.blockingConditions,
        outputSchemaId: `${SCHEMA_HOST}area-output/${area}.schema.json`
    }
}

/** The eleven areas, in spec order, as frozen descriptors. */
export const AREA_CATALOGUE: Readonly<Record<Area, AreaDescriptor>> = freezeDeep(
    Object.fromEntries(AREAS.map((area, i) => [area, buildDescriptor(area, i)])) as Record<Area, AreaDescriptor>
)

/** True when `value` is one of the eleven area ids. */
export function isArea(value: unknown): value is Area {
    return typeof value === 'string' && (AREAS as readonly string[]).includes(value)
}

/** The questions of one area, in id order. */
export function questionsOf(area: Area): readonly AreaQuestion[] {
    return QUESTIONS.filter((q) => q.area === area)
}
