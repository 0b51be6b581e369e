import type { Issue } from '../errors/types.js'
import type { AggregateGrade, Area, GradingMode, LetterGrade, NodeStatus, RollupStatus } from '../model/constants.js'

/**
 * What the rollup needs from one grading file, extracted once (see `RebuildIndex.digestGradingFile`).
 * Holding these instead of whole entries keeps a 50k-file rebuild small in memory.
 */
export interface GradingFacts {
    /** File name inside its `_gradings/` folder. */
    readonly file: string
    /** `YYYY-MM-DDTHH-MM-SSZ`, from the file name. */
    readonly timestamp: string
    /** Area, from the file name. */
    readonly area: Area
    readonly basePersona: string | null
    readonly lens: string | null
    /**
     * Why this file cannot be used (unreadable IDX-020, unparseable IDX-004, invalid IDX-012,
     * name/content mismatch IDX-010); `null` for a valid entry. Any problem blocks the node (⚠ C13).
     */
    readonly problem: Issue | null
    /**
     * True once every semantic rule of `validateGradingEntry` ran (or a problem made that moot).
     * Every file is screened against the entry schema; only the entries a status rests on are verified.
     */
    readonly verified: boolean
    readonly gradingId: string | null
    readonly gradingMode: GradingMode | null
    readonly aggregateGrade: AggregateGrade | null
    /** Band before the tier trim (01-model ⚠ A7), from `Grading.computeAggregateGrade`. */
    readonly rawGrade: LetterGrade | null
    readonly normalizedScore: number | null
    readonly schemaHash: string | null
    readonly aboutHash: string | null
    readonly skillId: string | null
    readonly selectionId: string | null
    /** `categoricalVeto.triggeredBy` whenever the parsed entry carries a veto, even an otherwise invalid one. */
    readonly veto: string | null
    /** `regradingTrigger.previousGradingId` (the lineage that can lift a veto, 01-model ⚠ A11). */
    readonly previousGradingId: string | null
    readonly scoringSystem: string | null
    readonly gradingSystem: string | null
}

/**
 * One file of a `_gradings/` folder as the builder receives it: the parsed `entry`, or the
 * `problem` that kept it from being parsed, or already digested `facts`.
 */
export interface GradingFileInput {
    readonly name: string
    readonly entry?: unknown
    readonly problem?: Issue
    readonly facts?: GradingFacts
    /**
     * Set by the shell, instead of `facts`, for a file it screened and found usable that decides no
     * status (audit trail, see `docs/island.md`): only its area (from its name) is checked, so a
     * large folder stays small in memory.
     */
    readonly audit?: Area
}

/** A primitive folder: its snapshot file names and its `_gradings/` files. */
export interface PrimitiveListing {
    readonly snapshots: readonly string[]
    readonly gradings: readonly GradingFileInput[]
}

/** `<schema>/tools/<tool>/`. */
export interface ToolListing {
    readonly name: string
    readonly gradings: readonly GradingFileInput[]
}

/** `<schema>/skills/<skill>/` or `selections/<sel>/skills/<skill>/`. */
export interface SkillListing extends PrimitiveListing {
    readonly name: string
}

/** `providers/<ns>/<schema>/`, described in memory. */
export interface SchemaListing {
    readonly name: string
    /** File names in `schema/`. */
    readonly snapshots: readonly string[]
    /** Parsed `summary.json` (pretest counts), `undefined` when absent. */
    readonly summary?: unknown
    /** Why `summary.json` could not be read or parsed. */
    readonly summaryProblem?: Issue
    /** `<schema>/_gradings/` (tools-aggregate-schema). */
    readonly gradings: readonly GradingFileInput[]
    /** `<schema>/resources/about/`. */
    readonly about: PrimitiveListing
    readonly skills: readonly SkillListing[]
    readonly tools: readonly ToolListing[]
}

/** `providers/<ns>/`, described in memory: the input of the pure namespace builder. */
export interface NamespaceListing {
    readonly namespace: string
    /** `providers/<ns>/_gradings/` (tools-aggregate-namespace, namespace-description). */
    readonly gradings: readonly GradingFileInput[]
    readonly schemas: readonly SchemaListing[]
}

/** A selection member's provider schema, as resolved by the shell (`null` when not imported). */
export interface MemberSchemaListing {
    readonly schemaId: string
    readonly schema: SchemaListing | null
}

/** `selections/<sel>/`, described in memory: the input of the pure selection builder. */
export interface SelectionListing {
    readonly selectionId: string
    /** File names in `selection/`. */
    readonly definitionSnapshots: readonly string[]
    /** The parsed newest selection definition; `undefined` when there is none. */
    readonly definition?: unknown
    /** Why the newest definition could not be read or parsed. */
    readonly definitionProblem?: Issue
    /** `selections/<sel>/_gradings/` (selection-aggregate). */
    readonly gradings: readonly GradingFileInput[]
    readonly about: PrimitiveListing
    readonly skills: readonly SkillListing[]
    /** One per member schemaId the shell could resolve to a provider folder name. */
    readonly providers: readonly MemberSchemaListing[]
}

/** The veto a rejected node rests on. */
export interface NodeVeto {
    readonly triggeredBy: string
    readonly gradingId: string
}

/** A leaf node of `index.json` (`$defs/node`), plus the extra fields the schema allows. */
export interface IndexNode {
    readonly status: NodeStatus
    readonly grade?: AggregateGrade
    readonly rawGrade?: LetterGrade
    readonly normalizedScore?: number
    readonly reason?: string
    /** The grading file the status rests on, relative to the index's folder. */
    readonly ref?: string
    /** The content hash the grade is bound to. */
    readonly boundTo?: string
    readonly veto?: NodeVeto
    /** Selection skills: `L1` | `L2` | `L3`. */
    readonly level?: string
    /** Selection-side nodes: the grade was capped (5–6 namespaces or no About; 01-model §4 step 8, 02-areas §8). */
    readonly capped?: { readonly from: LetterGrade; readonly to: LetterGrade; readonly reason: string }
    /**
     * A tool blocked by its pretest (`summary.json`): the blocked reason (`key-gated-missing-server-param`, `untested`,
     * …; see `BLOCKED_REASONS`).
     */
    readonly cause?: string
}

/** The snapshot a schema (or member) node resolves to. */
export interface SnapshotRef {
    readonly file: string
    readonly hash: string
}

/** `schemas.<schema>` of a namespace index. */
export interface SchemaNode {
    readonly status: NodeStatus
    readonly grade?: AggregateGrade
    readonly rawGrade?: LetterGrade
    readonly reason?: string
    readonly snapshot?: SnapshotRef
    readonly toolsAggregate: IndexNode
    readonly tools: Readonly<Record<string, IndexNode>>
}

/** `members.<schemaId>` of a selection index (member-resolution manifest, 03 §8). */
export interface MemberNode {
    readonly status: NodeStatus
    readonly grade?: AggregateGrade
    readonly rawGrade?: LetterGrade
    readonly reason?: string
    /** The member's `tools-aggregate-schema` file, relative to `providers/`. */
    readonly ref?: string
    /** `<ns>/<schema>/schema/<schema>--<ts>--<hash8>.mjs`, relative to `providers/`; `null` when not imported. */
    readonly resolvedArtifact: string | null
    readonly snapshot?: SnapshotRef
}

/** One entry of `blockers[]`: a dotted node path and a reason that starts with its code. */
export interface Blocker {
    readonly node: string
    readonly reason: string
}

/** One member of a frozen lockSnapshot (03 §9). */
export interface LockMember {
    readonly schemaId: string
    readonly schemaVersion: string | null
    readonly schemaHash: string | null
    readonly gradingStatus: NodeStatus
    readonly override: { readonly name?: string; readonly description?: string } | null
}

/** The frozen pins of a grading run (03 §9; for namespaces ⚠ C17). */
export interface LockSnapshot {
    readonly selectionId?: string
    readonly namespace?: string
    readonly selectionVersion?: string | null
    readonly selectionHash?: string | null
    readonly generatedAt: string
    readonly members: readonly LockMember[]
}

/** Live counters of a namespace index. */
export interface NamespaceSummary {
    readonly schemas: number
    readonly tools: number
    readonly toolsStable: number
    readonly about: NodeStatus
    readonly description: NodeStatus
    readonly skills: number
    /** Distinct versions of the entries behind graded/stable nodes (⚠ C18). */
    readonly scoringSystem: readonly string[]
    readonly gradingSystem: readonly string[]
    /** Schema folders removed from the tree (history, counted nowhere); absent when there is none. */
    readonly removed?: readonly string[]
}

/** Live counters of a selection index. */
export interface SelectionSummary {
    readonly members: number
    readonly membersStable: number
    readonly memberNamespaces: number
    readonly about: NodeStatus
    readonly skills: number
    readonly scoringSystem: readonly string[]
    readonly gradingSystem: readonly string[]
}

/** `providers/<ns>/index.json`. */
export interface NamespaceIndex {
    readonly indexVersion: 2
    readonly namespace: string
    readonly updatedAt: string
    readonly status: RollupStatus
    readonly grade?: AggregateGrade
    readonly summary: NamespaceSummary
    readonly about: IndexNode
    readonly description: IndexNode
    readonly skills: Readonly<Record<string, IndexNode>>
    readonly namespaceAggregate: IndexNode
    readonly schemas: Readonly<Record<string, SchemaNode>>
    readonly blockers: readonly Blocker[]
    readonly lockSnapshot?: LockSnapshot
}

/** `selections/<sel>/index.json`. */
export interface SelectionIndex {
    readonly indexVersion: 2
    readonly selectionId: string
    readonly updatedAt: string
    readonly status: RollupStatus
    readonly grade?: AggregateGrade
    readonly summary: SelectionSummary
    readonly about: IndexNode
    readonly skills: Readonly<Record<string, IndexNode>>
    readonly selectionAggregate: IndexNode
    readonly members: Readonly<Record<string, MemberNode>>
    readonly blockers: readonly Blocker[]
    readonly lockSnapshot?: LockSnapshot
}

/** Either index. */
export type RollupIndex = NamespaceIndex | SelectionIndex
