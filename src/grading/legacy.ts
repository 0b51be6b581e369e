import { REGRADING_TRIGGERS } from '../model/constants.js'
import { kebabCase } from '../naming/case.js'
import { toFileTimestamp } from '../time.js'
import { GRADING_SYSTEM_VERSION, SCORING_SYSTEM_VERSION } from '../version.js'
import { isObject } from '../model/object.js'

/** One field the reader mapped from a legacy shape to the spec shape. */
export interface LegacyMapping {
    /** JSON Pointer of the field in the input. */
    readonly path: string
    readonly from: string
    readonly to: string
}

type Obj = Record<string, unknown>

/** Fields only legacy entries have; their presence marks an entry as legacy. */
const LEGACY_MARKERS = [
    'grader',
    'createdAt',
    'updatedAt',
    'options',
    'previousGradingId',
    'grade',
    'rawGrade',
    'normalizedScore',
    'iteration',
    'improvementHints',
    'status',
    'level',
    'blocked',
    'blockedReason'
]
/** Entry-level fields a legacy entry carries that the spec shape has no place for; dropped, and reported. */
const DROPPED_ENTRY_FIELDS = [
    'createdAt',
    'updatedAt',
    'options',
    'rawGrade',
    'normalizedScore',
    'iteration',
    'improvementHints',
    'status',
    'level',
    'blocked',
    'blockedReason',
    'grader',
    'previousGradingId',
    'grade'
]
/** Answer fields of the reference that become evidence. */
const EVIDENCE_FIELDS = ['httpStatus', 'workingTests']

/**
 * Maps the reference implementation's / FlowMCP CLI's entry shape (entry-level `grader`,
 * answers keyed by `dimension` with `recordedAt`, `createdAt`, string persona, …) to the spec
 * shape. Values are only moved or renamed, never invented; the few implied constants (the
 * reference always wrote scoringSystem/gradingSystem 1.0.0, `harness: claude-code`, full
 * gradings, weight 1.0) are reported like every other mapping. Spec-shaped input passes unchanged.
 */
export function normalizeLegacyEntry(value: unknown): { entry: unknown; legacy: boolean; mapped: LegacyMapping[] } {
    if (!isObject(value)) {
        return { entry: value, legacy: false, mapped: [] }
    }
    const answers = Array.isArray(value.gradings) ? value.gradings : []
    const legacy =
        LEGACY_MARKERS.some((k) => k in value) ||
        answers.some((a) => isObject(a) && ('dimension' in a || 'recordedAt' in a)) ||
        typeof value.persona === 'string'
    if (!legacy) {
        return { entry: value, legacy: false, mapped: [] }
    }
    const mapped: LegacyMapping[] = []
    const note = (path: string, from: string, to: string): void => {
        mapped.push({ path, from, to })
    }
    const grader = isObject(value.grader) ? value.grader : null
    const createdAt = typeof value.createdAt === 'string' ? value.createdAt : null

    const out: Obj = Object.fromEntries(Object.entries(value).filter(([k]) => !DROPPED_ENTRY_FIELDS.includes(k)))
    mapRenamedFields(value, out, note)
    addImpliedConstants(value, out, note)
    mapRegradingLink(value, out, createdAt, note)

    if (Array.isArray(value.gradings)) {
        out.gradings = value.gradings.map((a: unknown, i) =>
            isObject(a) ? normalizeAnswer(a, i, grader, createdAt, note) : a
        )
    }
    if (grader !== null) note('/grader', 'grader', 'gradings[].graderIdentity')
    if (isObject(value.categoricalVeto)) {
        out.categoricalVeto = normalizeVeto(value.categoricalVeto, grader, note)
    }
    return { entry: out, legacy: true, mapped }
}

type Note = (path: string, from: string, to: string) => void

/** Dropped fields, `grade` → `aggregateGrade`, a string persona → the persona object. */
function mapRenamedFields(value: Obj, out: Obj, note: Note): void {
    for (const k of DROPPED_ENTRY_FIELDS) {
        if (k in value && k !== 'grader' && k !== 'grade' && k !== 'previousGradingId')
            note(`/${k}`, k, '(dropped: not part of a spec entry)')
    }
    if (!('aggregateGrade' in value) || value.aggregateGrade === null) {
        if (typeof value.grade === 'string') {
            out.aggregateGrade = value.grade
            note('/grade', 'grade', 'aggregateGrade')
        }
    } else if ('grade' in value) {
        note('/grade', 'grade', '(dropped: duplicate of aggregateGrade)')
    }
    if (typeof value.persona === 'string') {
        const m = /^([a-z][a-z0-9-]*)--([a-z][a-z0-9-]*)$/.exec(value.persona)
        if (m !== null) {
            out.persona = { basePersonaId: m[1], lensId: m[2] }
            note('/persona', `persona "${value.persona}"`, 'persona {basePersonaId, lensId}')
        } else {
            delete out.persona
            note('/persona', `persona "${value.persona}"`, '(dropped: no persona object)')
        }
    }
}

/** What the reference always wrote without saying: the system versions, the harness, a full grading. */
function addImpliedConstants(value: Obj, out: Obj, note: Note): void {
    if (!('scoringSystem' in value)) {
        out.scoringSystem = SCORING_SYSTEM_VERSION
        note('/scoringSystem', '(absent; the reference wrote scoringSystem/1.0.0)', SCORING_SYSTEM_VERSION)
    }
    if (!('gradingSystem' in value)) {
        out.gradingSystem = GRADING_SYSTEM_VERSION
        note('/gradingSystem', '(absent; the reference wrote gradingSystem/1.0.0)', GRADING_SYSTEM_VERSION)
    }
    if (!('harness' in value)) {
        out.harness = 'claude-code'
        note('/harness', '(absent; the only harness the spec allows)', 'claude-code')
    }
    if (!('gradingMode' in value)) {
        out.gradingMode = 'full'
        note('/gradingMode', '(absent; reference entries are full gradings)', 'full')
    }
}

/** `gradingId` from hash and time, and `previousGradingId` + trigger kind → `regradingTrigger`. */
function mapRegradingLink(value: Obj, out: Obj, createdAt: string | null, note: Note): void {
    if (
        !('gradingId' in value) &&
        typeof value.schemaHash === 'string' &&
        createdAt !== null &&
        toFileTimestamp(createdAt) !== null
    ) {
        out.gradingId = `${value.schemaHash}--${toFileTimestamp(createdAt) as string}`
        note('/gradingId', 'schemaHash + createdAt', 'gradingId')
    }
    if (typeof value.previousGradingId === 'string' && value.previousGradingId.length > 0) {
        const kind = value.regradingTrigger
        if (
            typeof kind === 'string' &&
            (REGRADING_TRIGGERS as readonly string[]).includes(kind) &&
            createdAt !== null
        ) {
            out.regradingTrigger = {
                triggeredBy: kind,
                previousGradingId: value.previousGradingId,
                timestamp: createdAt
            }
            note('/previousGradingId', 'previousGradingId + regradingTrigger + createdAt', 'regradingTrigger')
        } else {
            note('/previousGradingId', 'previousGradingId', '(dropped: no trigger kind to link it with)')
        }
    } else if ('previousGradingId' in value) {
        note('/previousGradingId', 'previousGradingId', '(dropped: empty)')
    }
    if (typeof value.regradingTrigger === 'string' && !isObject(out.regradingTrigger)) {
        delete out.regradingTrigger
        note('/regradingTrigger', 'regradingTrigger (string)', '(dropped: no previousGradingId)')
    }
}

function identityOf(grader: Obj | null): Obj | null {
    if (grader === null) return null
    return Object.fromEntries(['kind', 'name', 'version'].filter((k) => k in grader).map((k) => [k, grader[k]]))
}

function normalizeAnswer(
    a: Obj,
    i: number,
    grader: Obj | null,
    createdAt: string | null,
    note: (p: string, f: string, t: string) => void
): Obj {
    const at = `/gradings/${i}`
    const out: Obj = Object.fromEntries(
        Object.entries(a).filter(
            ([k]) => !['dimension', 'recordedAt', 'area', 'isVeto', ...EVIDENCE_FIELDS].includes(k)
        )
    )
    if (!('questionId' in a) && typeof a.dimension === 'string') {
        out.questionId = a.dimension.startsWith('Q-') ? a.dimension : `Q-${kebabCase(a.dimension)}`
        note(`${at}/dimension`, 'dimension', 'questionId')
    }
    if (!('timestamp' in a)) {
        if (typeof a.recordedAt === 'string') {
            out.timestamp = a.recordedAt
            note(`${at}/recordedAt`, 'recordedAt', 'timestamp')
        } else if (createdAt !== null) {
            out.timestamp = createdAt
            note(at, 'createdAt (entry)', 'timestamp')
        }
    }
    if (!('weight' in a)) {
        out.weight = 1
        note(`${at}`, '(absent; the reference counted a missing weight as 1.0)', 'weight: 1')
    }
    if (!('graderIdentity' in a) && grader !== null) {
        out.graderIdentity = identityOf(grader)
        if (typeof grader.llmModel === 'string' && !('llmModel' in a)) out.llmModel = grader.llmModel
        note(at, 'grader (entry)', 'graderIdentity')
    }
    const extra = EVIDENCE_FIELDS.filter((k) => k in a)
    if (extra.length > 0 && !('evidence' in a)) {
        out.evidence = Object.fromEntries(extra.map((k) => [k, a[k]]))
        note(at, extra.join(', '), 'evidence')
    }
    if ('area' in a) note(`${at}/area`, 'area', '(dropped: the entry has one area)')
    if ('isVeto' in a) note(`${at}/isVeto`, 'isVeto', '(dropped: vetoes live in categoricalVeto)')
    if (a.reasoning === null) {
        delete out.reasoning
        note(`${at}/reasoning`, 'reasoning: null', '(dropped)')
    }
    return out
}

function normalizeVeto(veto: Obj, grader: Obj | null, note: (p: string, f: string, t: string) => void): Obj {
    const out: Obj = Object.fromEntries(Object.entries(veto).filter(([k]) => !['grader', 'recordedAt'].includes(k)))
    if (!('graderIdentity' in veto) && isObject(veto.grader)) {
        out.graderIdentity = identityOf(veto.grader)
        note('/categoricalVeto/grader', 'grader', 'graderIdentity')
    } else if (!('graderIdentity' in veto) && grader !== null) {
        out.graderIdentity = identityOf(grader)
        note('/categoricalVeto', 'grader (entry)', 'graderIdentity')
    }
    if (!('timestamp' in veto) && typeof veto.recordedAt === 'string') {
        out.timestamp = veto.recordedAt
        note('/categoricalVeto/recordedAt', 'recordedAt', 'timestamp')
    }
    if (veto.reasoning === null) {
        delete out.reasoning
        note('/categoricalVeto/reasoning', 'reasoning: null', '(dropped)')
    }
    return out
}
