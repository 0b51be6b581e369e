import { createIssue, describeValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { AREAS, type Area } from '../model/constants.js'
import { fromFileTimestamp } from '../time.js'
import { indexedQuestions, QUESTION_INDEX_VERSION, type IndexedQuestion } from './question-index.js'
import { isObject } from '../model/object.js'

/**
 * Rules about the answers of one entry that the spec's JSON Schema cannot express: each answer
 * once per grader, LLM answers with reasoning, determinism as the question catalogue defines it,
 * answers to the entry's own area only with the catalogue's weights, complete full entries, the
 * gradingId bound to the schemaHash (⚠ A13), a lineage that does not name itself, and no timestamp
 * after the validation time. Pure; `now` is an input.
 */

type Obj = Record<string, unknown>

const QUESTIONS: readonly IndexedQuestion[] = /* @__PURE__ */ indexedQuestions()
const BY_ID: ReadonlyMap<string, IndexedQuestion> = /* @__PURE__ */ new Map(QUESTIONS.map((q) => [q.id, q]))
const idsOf = (area: Area): string[] => QUESTIONS.filter((q) => q.area === area).map((q) => q.id)
// A catalogue id is `Q-<area>-<two digits>`; longest areas first so `selection-skills-L1` wins over a prefix.
const AREA_ALTERNATION = /* @__PURE__ */ [...AREAS].sort((a, b) => b.length - a.length).join('|')
const CATALOGUE_SHAPED = /* @__PURE__ */ new RegExp(`^Q-(${AREA_ALTERNATION})-\\d+$`)
const HASH_PART = /^([a-f0-9]{8})--/

/** One answer with the fields the rules read, or `null` for a non-object element (the schema reports it). */
interface AnswerView {
    readonly index: number
    readonly questionId: string | null
    readonly grader: string | null
    /** The grader's identity as an unambiguous key (the display form may join names containing spaces). */
    readonly graderKey: string
    readonly kind: unknown
    readonly timestamp: unknown
    readonly determinism: unknown
    readonly reasoning: unknown
    readonly weight: unknown
}

function viewOf(g: unknown, index: number): AnswerView | null {
    if (!isObject(g)) return null
    const id = isObject(g.graderIdentity) ? g.graderIdentity : null
    const grader = id !== null && typeof id.kind === 'string' && typeof id.name === 'string' && typeof id.version === 'string' ? `${id.kind} ${id.name} ${id.version}` : null
    const graderKey = grader === null ? '' : JSON.stringify([id?.kind, id?.name, id?.version])
    return { index, questionId: typeof g.questionId === 'string' ? g.questionId : null, grader, graderKey, kind: id?.kind, timestamp: g.timestamp, determinism: g.determinism, reasoning: g.reasoning, weight: g.weight }
}

/** The same question answered twice by the same grader: an error at the same instant (⚠ A9 cannot pick one), else a warning. */
function duplicateIssues(answers: readonly AnswerView[]): Issue[] {
    const first = new Map<string, AnswerView>()
    const issues: Issue[] = []
    for (const a of answers) {
        if (a.questionId === null || a.grader === null) continue
        // The JSON key keeps graders apart whose space-joined display forms coincide.
        const key = `${a.questionId}\u0000${a.graderKey}`
        const earlier = first.get(key)
        if (earlier === undefined) {
            first.set(key, a)
            continue
        }
        const params = { questionId: a.questionId, grader: a.grader, first: earlier.index, index: a.index, timestamp: describeValue(a.timestamp) }
        issues.push(createIssue(earlier.timestamp === a.timestamp ? 'GRD-053' : 'GRD-054', pointer('gradings', a.index, 'questionId'), params))
    }
    return issues
}

function reasoningIssues(answers: readonly AnswerView[]): Issue[] {
    // A non-string reasoning is a type error the schema reports; only a missing or blank one is this rule's.
    return answers
        .filter((a) => a.kind === 'llm' && (a.reasoning === undefined || (typeof a.reasoning === 'string' && a.reasoning.trim() === '')))
        .map((a) => createIssue('GRD-055', pointer('gradings', a.index), { questionId: a.questionId ?? `answer ${a.index}`, found: a.reasoning === undefined ? 'no reasoning' : 'a blank reasoning' }))
}

/** Catalogue membership of each answer: another area's question, an id shaped like one that does not exist, a determinism the catalogue contradicts. */
function catalogueIssues(answers: readonly AnswerView[], area: Area | null): Issue[] {
    const issues: Issue[] = []
    for (const a of answers) {
        if (a.questionId === null) continue
        const q = BY_ID.get(a.questionId)
        const at = pointer('gradings', a.index, 'questionId')
        if (q === undefined) {
            // Catalogue ids are short; a long id cannot be one, and the regex never sees it.
            const shaped = a.questionId.length <= 64 ? CATALOGUE_SHAPED.exec(a.questionId) : null
            if (shaped !== null) issues.push(createIssue('GRD-060', at, { questionId: a.questionId, area: shaped[1] ?? '', version: QUESTION_INDEX_VERSION }))
            continue
        }
        if (area !== null && q.area !== area) issues.push(createIssue('GRD-059', at, { questionId: a.questionId, area, owner: q.area }))
        // The reverse is allowed: a deterministic question answered by an LLM is recorded as non-deterministic.
        if (!q.deterministic && a.determinism === 'deterministic') {
            issues.push(createIssue('GRD-056', pointer('gradings', a.index, 'determinism'), { questionId: a.questionId }))
        }
        issues.push(...weightIssues(a, q))
    }
    return issues
}

/** The catalogue's weight (⚠ A8: weights live in one versioned table), read-tolerantly. */
function weightIssues(a: AnswerView, q: IndexedQuestion): Issue[] {
    if (typeof a.weight !== 'number' || a.weight === q.weight) return []
    return [createIssue('GRD-065', pointer('gradings', a.index, 'weight'), { questionId: q.id, weight: a.weight, expected: q.weight, version: QUESTION_INDEX_VERSION })]
}

/**
 * A full entry that answers its area's catalogue answers all of it (01-model §8: full covers every
 * applicable dimension; n/a marks the inapplicable ones). Entries with none of the catalogue's ids
 * (the spec's own examples) and vetoed entries (the cascade stops before the rest runs) are exempt.
 */
function completenessIssues(entry: Obj, answers: readonly AnswerView[], area: Area | null): Issue[] {
    if (area === null || entry.gradingMode !== 'full' || (entry.categoricalVeto !== null && entry.categoricalVeto !== undefined)) return []
    const catalogue = idsOf(area)
    const answered = new Set(answers.map((a) => a.questionId))
    if (!catalogue.some((id) => answered.has(id))) return []
    const missing = catalogue.filter((id) => !answered.has(id))
    return missing.length === 0 ? [] : [createIssue('GRD-058', '/gradings', { area, count: missing.length, total: catalogue.length, missing: missing.join(', ') })]
}

/** A re-grading names the entry it supersedes; naming itself would make the lineage a loop. */
function lineageIssues(entry: Obj): Issue[] {
    const trigger = entry.regradingTrigger
    if (!isObject(trigger) || typeof entry.gradingId !== 'string' || trigger.previousGradingId !== entry.gradingId) return []
    return [createIssue('GRD-067', '/regradingTrigger/previousGradingId', { gradingId: entry.gradingId })]
}

function gradingIdIssues(entry: Obj): Issue[] {
    if (typeof entry.gradingId !== 'string' || typeof entry.schemaHash !== 'string' || !/^[a-f0-9]{8}$/.test(entry.schemaHash)) return []
    const m = HASH_PART.exec(entry.gradingId)
    if (m === null || m[1] === entry.schemaHash) return []
    return [createIssue('GRD-057', '/gradingId', { found: m[1] ?? '', schemaHash: entry.schemaHash })]
}

/** Every timestamp of the entry with its pointer: answers, the veto, the re-grading trigger. */
function timestampsOf(entry: Obj, answers: readonly AnswerView[]): Array<{ path: string; value: string }> {
    const out: Array<{ path: string; value: string }> = []
    for (const a of answers) if (typeof a.timestamp === 'string') out.push({ path: pointer('gradings', a.index, 'timestamp'), value: a.timestamp })
    // The gradingId's stamp is in the file-name form (`2026-05-29T10-00-00Z`); other stamps are accepted on read (⚠ A13).
    const stamp = typeof entry.gradingId === 'string' ? /^[a-f0-9]{8}--(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)$/.exec(entry.gradingId) : null
    const iso = stamp?.[1] !== undefined ? fromFileTimestamp(stamp[1]) : null
    if (iso !== null) out.push({ path: '/gradingId', value: iso })
    for (const field of ['categoricalVeto', 'regradingTrigger'] as const) {
        const owner = entry[field]
        if (isObject(owner) && typeof owner.timestamp === 'string') out.push({ path: pointer(field, 'timestamp'), value: owner.timestamp })
    }
    return out
}

function futureIssues(entry: Obj, answers: readonly AnswerView[], now: string | null): Issue[] {
    if (now === null) return []
    const limit = Date.parse(now)
    // An unparsable timestamp is a format error reported by the schema check; it is not compared.
    return timestampsOf(entry, answers)
        .filter((t) => Date.parse(t.value) > limit)
        .map((t) => createIssue('GRD-061', t.path, { value: t.value, now }))
}

/**
 * The answer rules of one entry.
 * @param entry - the entry (already known to be a plain object)
 * @param now - the validation time (a checked ISO 8601 date-time), or `null` to skip the timestamp rule
 */
export function answerRuleIssues(entry: Obj, now: string | null): Issue[] {
    const answers = Array.isArray(entry.gradings) ? entry.gradings.map(viewOf).filter((a): a is AnswerView => a !== null) : []
    const area = typeof entry.area === 'string' && (AREAS as readonly string[]).includes(entry.area) ? (entry.area as Area) : null
    return [
        ...gradingIdIssues(entry),
        ...lineageIssues(entry),
        ...duplicateIssues(answers),
        ...reasoningIssues(answers),
        ...catalogueIssues(answers, area),
        ...completenessIssues(entry, answers, area),
        ...futureIssues(entry, answers, now)
    ]
}
