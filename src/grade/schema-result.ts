// A schema's result: its standing read from its index node, the units the island kept, the context a namespace run
// reads.
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { islandName } from '../store/paths.js'
import {
    NODE_STATUS,
    UNIT_STATUS,
    isAggregateGrade,
    type AggregateGrade,
    type NodeStatus,
    type RollupStatus
} from '../model/constants.js'
import { isStableGrade } from '../model/grades.js'
import type { CategoricalVeto } from '../model/types.js'
import { Redact, redactSecretsDeep } from '../prompts/redact.js'
import { rollupGrade as worstNodeGrade } from '../rollup/nodes.js'
import { standingOfSchemaNode } from '../rollup/standing.js'
import type { UnitPlan } from './units.js'
import type { GradeSingleSchemaResult, SchemaGrading, UnitResult } from './types.js'
import type { KeptUnit } from './island-state.js'
import { keptResult } from './run-plans.js'
import type { SchemaIdentity } from './schema-read.js'

type Obj = Record<string, unknown>

/**
 * The worst grade over the units that have one, as `index.json` rolls its nodes up (03 ⚠ C15);
 * provisional units count with their deterministic aggregate. Shared with gradeNamespace.
 */
export function headlineGrade(units: readonly UnitResult[]): AggregateGrade | null {
    const nodes = units
        .filter(
            (u) =>
                u.aggregateGrade !== null &&
                (u.status === UNIT_STATUS.graded ||
                    u.status === UNIT_STATUS.provisional ||
                    u.status === UNIT_STATUS.rejected)
        )
        .map((u) => ({
            status: (u.status === UNIT_STATUS.rejected ? NODE_STATUS.rejected : NODE_STATUS.graded) as NodeStatus,
            grade: u.aggregateGrade as AggregateGrade
        }))
    return worstNodeGrade(nodes) ?? null
}

/** What a namespace run needs to know of one graded schema. */
export interface SchemaRunContext {
    readonly schemaId: string
    readonly namespace: string
    readonly slug: string
    readonly schemaFolder: string
    readonly schemaHash: string
    readonly version: string
    readonly main: Readonly<Record<string, unknown>>
    readonly schemaText: string
    /** `schemaText` as redacted for this schema's prompts, and the server params it was redacted with. */
    readonly redacted: { readonly serverParams: Readonly<Record<string, string>>; readonly text: string }
    readonly veto: CategoricalVeto | null
    /** Its tools-aggregate-schema grade is A or B. */
    readonly stable: boolean
    readonly aboutDeclared: boolean
    /**
     * Where the injection scan found text aimed at the grader in this schema's requests (its `main`, source, About and
     * skills).
     */
    readonly flagged?: readonly string[]
    /** The inputs key of the schema's own units (inputs-key.ts); null when it could not be computed. */
    readonly inputsKey: string | null
}

/**
 * Stage "resume": every own unit of the schema is current in the island, so the island is the answer —
 * nothing is sent, tested or written; the namespace run still gets the schema's context.
 */
export function resultFromIsland(args: {
    id: SchemaIdentity
    version: string
    main: Obj
    schemaText: string
    tools: readonly string[]
    kept: ReadonlyMap<string, KeptUnit>
    aboutDeclared: boolean
    errors: Issue[]
    node: unknown
    inputsKey: string | null
    /** This run's pretest (the evidence the key was computed from). */
    pretest: SchemaGrading['pretest']
}): { result: GradeSingleSchemaResult; context: SchemaRunContext } {
    const { id, errors } = args
    const { schemaId, namespace, slug, schemaFolder, schemaHash, serverParams, secrets } = id
    const units = ownPlans(args.tools, namespace, schemaFolder).map((plan) =>
        keptResult(plan, args.kept.get(plan.unit) as KeptUnit)
    )
    const schemaUnit = units.find((u) => u.area === 'tools-aggregate-schema')
    const context: SchemaRunContext = {
        schemaId,
        namespace,
        slug,
        schemaFolder,
        schemaHash,
        version: args.version,
        main: args.main,
        schemaText: args.schemaText,
        redacted: { serverParams, text: Redact.text({ text: args.schemaText, serverParams }).text ?? '' },
        veto: null,
        stable: isStableGrade(schemaUnit?.aggregateGrade),
        aboutDeclared: args.aboutDeclared,
        inputsKey: args.inputsKey
    }
    errors.push(
        createIssue('GRA-012', '', {
            unit: schemaId,
            reason: `kept: the island holds every unit graded from the same inputs (schema hash ${schemaHash}, its tests' evidence, options, judge); pass force to grade again`
        })
    )
    const grading = schemaGradingOf({
        schemaId,
        namespace,
        slug,
        schemaHash,
        version: args.version,
        units,
        veto: null,
        pretest: args.pretest,
        indexPath: null,
        rollupStatus: null,
        rollupGrade: null,
        node: args.node
    })
    return {
        result: redactSecretsDeep({ grading, entries: [], prompts: [], provisional: {}, errors }, secrets),
        context
    }
}

/** Whether every own unit of the schema is held graded (not vetoed) for this content, so the island answers for it. */
export function allOwnUnitsKept(tools: readonly string[], kept: ReadonlyMap<string, KeptUnit>): boolean {
    return [...tools.map((t) => `single-test/${t}`), 'tools-aggregate-schema'].every(
        (u) => kept.has(u) && kept.get(u)?.aggregateGrade !== 'REJECTED'
    )
}

/** The schema's own units (single-test per tool, tools-aggregate-schema) with their island targets. */
function ownPlans(tools: readonly string[], namespace: string, schemaFolder: string): UnitPlan[] {
    return [
        ...tools.map(
            (tool): UnitPlan => ({
                unit: `single-test/${tool}`,
                area: 'single-test',
                target: { namespace, schema: schemaFolder, tool: islandName(tool, 'tool') ?? tool },
                deterministic: [],
                focus: tool
            })
        ),
        {
            unit: 'tools-aggregate-schema',
            area: 'tools-aggregate-schema',
            target: { namespace, schema: schemaFolder },
            deterministic: [],
            focus: null
        }
    ]
}

/**
 * The schema's result: its standing read from its `index.json` node by the one function every surface
 * uses (`standingOfSchemaNode`: status, the grade, `schemaGrade`), the deterministic-only figures under
 * names that say so, and how many units were kept or graded.
 */
export function schemaGradingOf(run: {
    schemaId: string
    namespace: string
    slug: string
    schemaHash: string
    version: string
    units: UnitResult[]
    veto: CategoricalVeto | null
    pretest: SchemaGrading['pretest']
    indexPath: string | null
    rollupStatus: RollupStatus | null
    rollupGrade: string | null
    /** The schema's node of the rebuilt `index.json`. */
    node: unknown
}): SchemaGrading {
    const { units, veto } = run
    const schemaUnit = units.find((u) => u.area === 'tools-aggregate-schema')
    const provisional = units.some((u) => u.status === UNIT_STATUS.provisional)
    const mode: SchemaGrading['mode'] = provisional
        ? 'provisional'
        : units.some((u) => u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected)
          ? 'full'
          : 'none'
    const standing = standingOfSchemaNode(run.node, mode)
    const rejected = standing.status === NODE_STATUS.rejected
    return {
        schemaId: run.schemaId,
        namespace: run.namespace,
        schema: run.slug,
        schemaHash: run.schemaHash,
        version: run.version,
        gradingTier: 'autonomous',
        maxAttainableGrade: 'B',
        mode,
        status: standing.status,
        grade: standing.grade,
        schemaGrade: standing.schemaGrade,
        provisionalGrade: provisional && !rejected ? headlineGrade(units) : null,
        provisionalSchemaGrade: provisional && !rejected ? (schemaUnit?.aggregateGrade ?? null) : null,
        unitCounts: {
            kept: units.filter((u) => u.kept === true).length,
            graded: units.filter(
                (u) => u.kept !== true && (u.status === UNIT_STATUS.graded || u.status === UNIT_STATUS.rejected)
            ).length
        },
        rawGrade: standing.grade !== null ? (schemaUnit?.rawGrade ?? null) : null,
        basis: standing.basis,
        unitGrades: Object.fromEntries(units.map((u) => [u.unit, u.aggregateGrade])),
        rollupGrade: isAggregateGrade(run.rollupGrade) ? run.rollupGrade : null,
        veto,
        units,
        pretest: run.pretest,
        indexPath: run.indexPath,
        rollupStatus: run.rollupStatus,
        reason:
            standing.status === NODE_STATUS.graded || standing.status === NODE_STATUS.stable ? null : standing.reason,
        standing
    }
}
