import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { objectArg, parseArgs, says } from '../validation/args.js'
import type { Issue } from '../errors/types.js'
import {
    NODE_STATUS,
    BLOCKED_REASONS,
    GRADE_RANK,
    NODE_STATUSES,
    isWorkingCountReason,
    type AggregateGrade,
    type BlockedReason,
    type LetterGrade,
    type NodeStatus
} from '../model/constants.js'
import { ENVIRONMENT_BLOCKED_REASONS } from '../model/environment.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'

/**
 * Where a schema stands: its `index.json` node (03 §6.2, the rollup of its subtree), plus
 * `provisional` for a run whose answers are deterministic only. Every surface — the result of
 * `gradeSingleSchema`/`gradeNamespace`/`gradeTree`, the CLI tables and `--json`, `check` and its
 * baseline, the HTML report, SARIF and the Markdown summary — reads this one value (docs/guide.md,
 * "Which grade to quote").
 */
export type SchemaStatus = NodeStatus | 'provisional'

/**
 * A blocked tool and why: its blocked reason (`BLOCKED_REASONS`, from `summary.json`), `null` when the index names
 * none.
 */
export interface BlockedTool {
    readonly tool: string
    readonly cause: BlockedReason | null
    readonly reason: string | null
}

/**
 * Where a schema's grade comes from: of its graded tools and tools aggregate (its `index.json` leaves), the one with
 * the lowest normalized score, with that score as the index shows it and its band before the tier trim.
 */
export interface GradeBasis {
    /** The unit, e.g. `single-test/getPrice` or `tools-aggregate-schema`. */
    readonly unit: string
    /** Its normalized score, 1–5, as `index.json` holds it (two decimals). */
    readonly score: number
    /** Its band before the tier trim (`A` where the autonomous cap gave `B`). */
    readonly rawGrade: LetterGrade | null
}

/** The standing of one schema, read from its index node. */
export interface SchemaStanding {
    readonly status: SchemaStatus
    /**
     * **The grade**: the worst grade of the schema's subtree, `REJECTED` under a veto; `null` unless `graded`, `stable`
     * or `rejected`.
     */
    readonly grade: AggregateGrade | null
    /** The schema's own `tools-aggregate-schema` grade (`toolsAggregate.grade`), shown only where `grade` is. */
    readonly schemaGrade: AggregateGrade | null
    /**
     * The score the grade comes from ({@link basisOfSchemaNode}): the one value the CLI table, `--json`, the check
     * summary and the HTML report show beside the grade. `null` without a letter grade (and under a veto).
     */
    readonly basis: GradeBasis | null
    /** Why it is blocked or pending, as the index says. */
    readonly reason: string | null
    readonly blockedTools: readonly BlockedTool[]
    /**
     * Blocked only because this environment could not test it (`ENVIRONMENT_BLOCKED_REASONS`: a missing key,
     * recording, runtime, …): nothing in the schema is wrong.
     */
    readonly untestedHere: boolean
}

/**
 * The blocked reasons that say nothing about the schema, only about where it was graded: the same list as
 * `ENVIRONMENT_BLOCKED_REASONS`, under the name this module has exported it by.
 */
export const ENVIRONMENT_CAUSES: readonly string[] = ENVIRONMENT_BLOCKED_REASONS

const GRADED: ReadonlySet<string> = new Set([NODE_STATUS.graded, NODE_STATUS.stable, NODE_STATUS.rejected])

function field(value: unknown, key: string): unknown {
    if (!isObject(value)) return undefined
    try {
        return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined
    } catch {
        return undefined
    }
}

/** The own keys of a plain object, sorted; none for anything else or an object whose traps throw. */
function keysOf(value: unknown): string[] {
    if (!isObject(value)) return []
    try {
        return Object.keys(value).sort()
    } catch {
        return []
    }
}

function gradeOf(value: unknown): AggregateGrade | null {
    return typeof value === 'string' && (value === 'REJECTED' || Object.hasOwn(GRADE_RANK, value))
        ? (value as AggregateGrade)
        : null
}

function statusOf(value: unknown): NodeStatus | null {
    return typeof value === 'string' && (NODE_STATUSES as readonly string[]).includes(value)
        ? (value as NodeStatus)
        : null
}

/**
 * The standing a schema node of `index.json` gives (pure, never throws). `mode` is the run's: a
 * `provisional` run shows `provisional` where the node is `pending`. A node that is not one (missing,
 * not an object, an unknown status) stands `pending` with no grade.
 */
export function standingOfSchemaNode(node: unknown, mode: 'full' | 'provisional' | 'none' = 'full'): SchemaStanding {
    const nodeStatus = statusOf(field(node, 'status')) ?? NODE_STATUS.pending
    const status: SchemaStatus =
        nodeStatus === NODE_STATUS.pending && mode === 'provisional' ? 'provisional' : nodeStatus
    const shown = GRADED.has(nodeStatus)
    const grade = shown ? (nodeStatus === NODE_STATUS.rejected ? 'REJECTED' : gradeOf(field(node, 'grade'))) : null
    const aggregate = field(node, 'toolsAggregate')
    const schemaGrade = !shown
        ? null
        : nodeStatus === NODE_STATUS.rejected
          ? 'REJECTED'
          : GRADED.has(statusOf(field(aggregate, 'status')) ?? '')
            ? gradeOf(field(aggregate, 'grade'))
            : null
    const tools = field(node, 'tools')
    const blockedTools: BlockedTool[] = []
    for (const name of keysOf(tools)) {
        const tool = field(tools, name)
        if (field(tool, 'status') !== NODE_STATUS.blocked) continue
        const cause = field(tool, 'cause')
        const reason = field(tool, 'reason')
        blockedTools.push({
            tool: name,
            cause: isBlockedReason(cause) ? cause : null,
            reason: typeof reason === 'string' ? reason : null
        })
    }
    const reason = field(node, 'reason')
    const untestedHere =
        nodeStatus === NODE_STATUS.blocked &&
        blockedTools.length > 0 &&
        blockedTools.every((t) => t.cause !== null && ENVIRONMENT_CAUSES.includes(t.cause))
    return {
        status,
        grade,
        schemaGrade,
        basis: grade === null || grade === 'REJECTED' ? null : basisOfSchemaNode(node),
        reason: typeof reason === 'string' ? reason : null,
        blockedTools,
        untestedHere
    }
}

const isLetterGrade = (value: unknown): value is LetterGrade =>
    typeof value === 'string' && Object.hasOwn(GRADE_RANK, value)

/**
 * The score a schema node's grade comes from (pure, never throws): of its tools and its tools aggregate that are
 * graded or stable with a finite `normalizedScore`, the lowest (the grade is the worst of them; on a tie the tool
 * first, then the aggregate), with its `rawGrade`. `null` when no leaf has a score. Every surface reads a schema's
 * score through this one function, so the table, `--json`, the summary and the report cannot disagree.
 */
export function basisOfSchemaNode(node: unknown): GradeBasis | null {
    const tools = field(node, 'tools')
    const leaves: Array<[string, unknown]> = [
        ...keysOf(tools).map((name): [string, unknown] => [`single-test/${name}`, field(tools, name)]),
        ['tools-aggregate-schema', field(node, 'toolsAggregate')]
    ]
    let basis: GradeBasis | null = null
    for (const [unit, leaf] of leaves) {
        const status = statusOf(field(leaf, 'status'))
        const score = field(leaf, 'normalizedScore')
        if (status !== NODE_STATUS.graded && status !== NODE_STATUS.stable) continue
        if (typeof score !== 'number' || !Number.isFinite(score)) continue
        if (basis !== null && score >= basis.score) continue
        const raw = field(leaf, 'rawGrade')
        basis = { unit, score, rawGrade: isLetterGrade(raw) ? raw : null }
    }
    return basis
}

/**
 * How high a standing is, for comparisons: rejected, then blocked, then pending/provisional, then
 * the letters F…A. Damage to a schema never moves it up this order.
 */
export function standingRank(standing: Pick<SchemaStanding, 'status' | 'grade'>): number {
    if (standing.status === NODE_STATUS.rejected) return 0
    if (standing.status === NODE_STATUS.blocked) return 1
    if (standing.grade === null || standing.grade === 'REJECTED') return 2
    return 3 + GRADE_RANK[standing.grade as LetterGrade]
}

/** What `compareStandings` reports for one schema: the ways it got worse, in words; empty when it did not. */
export interface StandingChange {
    readonly worse: boolean
    readonly messages: readonly string[]
}

/**
 * Compares a schema's standing with its baseline. It got worse when its grade fell, when it became
 * rejected, or when it became blocked — unless it was blocked or rejected already, or is now blocked
 * only because this environment could not test it (a missing key, offline) and had no grade to lose.
 * A schema now pending or provisional is not graded again yet: not worse. An unchanged standing,
 * and a schema new since the baseline (`before` undefined), never got worse.
 */
export function compareStandings(before: SchemaStanding | undefined, after: SchemaStanding): StandingChange {
    if (before === undefined) return { worse: false, messages: [] }
    const why = after.reason !== null ? `: ${after.reason}` : ''
    const was = before.grade ?? before.status
    const messages: string[] = []
    if (after.status === NODE_STATUS.rejected) {
        if (before.status !== NODE_STATUS.rejected) messages.push(`was ${was}, now rejected${why}`)
    } else if (after.status === NODE_STATUS.blocked) {
        const hadGrade = before.grade !== null && before.status !== NODE_STATUS.rejected
        if (
            before.status !== NODE_STATUS.blocked &&
            before.status !== NODE_STATUS.rejected &&
            (hadGrade || !after.untestedHere)
        )
            messages.push(`was ${was}, now blocked${why}`)
    } else if (
        after.grade !== null &&
        before.grade !== null &&
        before.status !== NODE_STATUS.rejected &&
        standingRank(after) < standingRank(before)
    ) {
        messages.push(`grade fell from ${before.grade} to ${after.grade}`)
    }
    return { worse: messages.length > 0, messages }
}

/**
 * Every schema standing of a namespace `index.json`, keyed `<namespace>.<schema>`, and the namespace's own status and
 * grade.
 */
export interface IndexStandings {
    readonly namespace: string | null
    readonly status: string | null
    readonly grade: AggregateGrade | null
    readonly schemas: ReadonlyMap<string, SchemaStanding>
}

/** Reads the standings of a namespace `index.json` value (pure, never throws). */
export function standingsOfIndex(index: unknown): IndexStandings {
    const namespace = field(index, 'namespace')
    const ns = typeof namespace === 'string' ? namespace : null
    const schemas = field(index, 'schemas')
    const out = new Map<string, SchemaStanding>()
    for (const name of keysOf(schemas)) out.set(`${ns ?? ''}.${name}`, standingOfSchemaNode(field(schemas, name)))
    const status = field(index, 'status')
    return {
        namespace: ns,
        status: typeof status === 'string' ? status : null,
        grade: gradeOf(field(index, 'grade')),
        schemas: out
    }
}

/**
 * Standings of schemas, read from their `index.json` nodes: the one function every surface uses.
 */
/** The codes and wording of the argument checks: each argument is reported whole, with its JSON type. */
const ARGS = { missing: 'IDX-001', mismatch: 'IDX-002', create: createIssue } as const
const STYLE = { actual: 'type' } as const
const whole = (expected: string) => objectArg({ expected, actual: 'type', missing: false })
const NODE = v.looseObject({ node: whole('a schema node of index.json (object)') })
const INDEX = v.looseObject({ index: whole('a namespace index.json (object)') })
// Any object, an array too: the standing is read by its fields.
const AFTER = v.looseObject({
    after: v.custom<SchemaStanding>(
        (a) => a !== null && typeof a === 'object',
        says({ expected: 'a schema standing (object)', actual: 'type', missing: false })
    )
})

class StandingUnguarded {
    private constructor() {}

    /**
     * The standing of one schema node of `index.json`; `mode: 'provisional'` shows a pending node of a
     * deterministic-only run as `provisional`.
     */
    static ofSchemaNode(input: { node: unknown; mode?: 'full' | 'provisional' | 'none' }): {
        standing: SchemaStanding
        errors: Issue[]
    } {
        const node = input?.node
        // A wrong node still gets its standing (unknown): the finding goes with it.
        const errors = parseArgs(NODE, { node }, ARGS, STYLE).errors
        const mode = input?.mode === 'provisional' || input?.mode === 'none' ? input.mode : 'full'
        return { standing: standingOfSchemaNode(node, mode), errors }
    }

    /** Every schema standing of a namespace `index.json`, keyed `<namespace>.<schema>`. */
    static ofIndex(input: { index: unknown }): IndexStandings & { errors: Issue[] } {
        const index = input?.index
        const errors = parseArgs(INDEX, { index }, ARGS, STYLE).errors
        return { ...standingsOfIndex(index), errors }
    }

    /** Whether a schema got worse than its baseline standing, and how, in words. */
    static compare(input: { before?: SchemaStanding; after: SchemaStanding }): StandingChange & { errors: Issue[] } {
        const checked = parseArgs(AFTER, { after: input?.after }, ARGS, STYLE)
        if (checked.value === null) return { worse: false, messages: [], errors: checked.errors }
        return { ...compareStandings(input.before, checked.value.after), errors: [] }
    }
}

/**
 * The public Standing: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Standing = /* @__PURE__ */ guardStatics(StandingUnguarded, 'Standing')

const KNOWN_REASONS: ReadonlySet<string> = new Set(Object.values(BLOCKED_REASONS))

/** A cause read from an index node is one of the blocked reasons, or none (an unknown string is not passed on). */
function isBlockedReason(value: unknown): value is BlockedReason {
    return typeof value === 'string' && (KNOWN_REASONS.has(value) || isWorkingCountReason(value))
}
