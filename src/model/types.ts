import type { QuestionId } from './question-ids.js'
import type {
    AggregateGrade,
    Area,
    BasePersonaId,
    Determinism,
    GraderKind,
    GradingMode,
    GradingTier,
    Harness,
    MaxAttainableGrade,
    NaReason,
    RegradingTriggerKind,
    Score,
    VetoTrigger
} from './constants.js'

/** Who produced an answer or a veto. */
export interface GraderIdentity {
    readonly kind: GraderKind
    readonly name: string
    readonly version: string
}

/** Group context of a non-deterministic answer. */
export interface SelectionContext {
    readonly groupId: string
    readonly personaIds: readonly string[]
    readonly domainDocId?: string
}

/** One answer to one Area question (`gradings[]` element, chapter 08 §7.2). */
export interface GradingAnswer {
    /** A question of the catalogue or a cross-area question (01-model S8, ⚠ A25: the catalogue is closed). */
    readonly questionId: QuestionId
    readonly score: Score
    readonly naReason?: NaReason
    readonly weight: number
    readonly determinism: Determinism
    readonly graderIdentity: GraderIdentity
    readonly llmModel?: string
    readonly selectionContext?: SelectionContext
    readonly timestamp: string
    readonly evidence?: string | Readonly<Record<string, unknown>>
    readonly reasoning?: string
}

/** A categorical veto record (chapter 08 §6.2). */
export interface CategoricalVeto {
    readonly triggeredBy: VetoTrigger
    readonly graderIdentity: GraderIdentity
    readonly evidence: string
    readonly reasoning?: string
    readonly timestamp: string
}

/** Persona lens of a persona-bound entry. */
export interface Persona {
    readonly basePersonaId: BasePersonaId
    readonly lensId: string
}

/** Present iff the entry is a re-grading of `previousGradingId`. */
export interface RegradingTrigger {
    readonly triggeredBy: RegradingTriggerKind
    readonly reportedIssue?: string
    readonly requestedBy?: string
    readonly previousGradingId: string
    readonly timestamp: string
}

/** One grading entry: one Area for one target (chapter 08, `08-grading-model.schema.json`). */
export interface GradingEntry {
    readonly gradingId: string
    readonly schemaId: string
    readonly selectionId?: string
    readonly area: Area
    readonly version: string
    readonly schemaHash: string
    readonly aboutHash?: string
    readonly gradingMode: GradingMode
    readonly gradingTier: GradingTier
    readonly harness: Harness
    readonly persona?: Persona
    readonly skillId?: string
    readonly scoringSystem: string
    readonly gradingSystem: string
    readonly gradings: readonly GradingAnswer[]
    readonly categoricalVeto: CategoricalVeto | null
    readonly regradingTrigger?: RegradingTrigger
    readonly aggregateGrade: AggregateGrade
    readonly maxAttainableGrade: MaxAttainableGrade
}

/**
 * An entry under construction: same shape, but `gradings` may be empty and `aggregateGrade` is
 * `null` until the answers produce a grade. A draft is never written; `validateGradingEntry` says why.
 */
export interface GradingEntryDraft extends Omit<GradingEntry, 'aggregateGrade'> {
    readonly aggregateGrade: AggregateGrade | null
}
