import { describeValue } from '../errors/issue.js'
import { createEntryIssue } from '../errors/entry-issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { AREAS, type Area } from '../model/constants.js'
import { fromFileTimestamp } from '../time.js'
import { AGING_DEFAULTS, isExpired, TIME_DEPENDENT_QUESTIONS } from './aging.js'
import { lookup } from '../json/own.js'
import {
    CROSS_AREA_QUESTIONS,
    indexedQuestions,
    QUESTION_INDEX_VERSION,
    type IndexedQuestion
} from './question-index.js'
import { describeId, withoutInvisible } from './visible.js'
import { gradingIdGrammarIssues } from './binding.js'
import { isObject } from '../model/object.js'
import { rx } from '../model/regex.js'

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
// Per area, computed once: every full entry asks for its area's list.
const IDS_BY_AREA: ReadonlyMap<Area, readonly string[]> = /* @__PURE__ */ new Map(
    AREAS.map((area) => [area, QUESTIONS.filter((q) => q.area === area).map((q) => q.id)])
)
const idsOf = (area: Area): readonly string[] => IDS_BY_AREA.get(area) ?? []
// A catalogue id is `Q-<area>-<two digits>`; longest areas first so `selection-skills-L1` wins over a prefix.
const AREA_ALTERNATION = /* @__PURE__ */ [...AREAS].sort((a, b) => b.length - a.length).join('|')
const CATALOGUE_SHAPED = /* @__PURE__ */ rx('')`^Q-(${AREA_ALTERNATION})-\d+$`
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
    readonly score: unknown
}

function viewOf(g: unknown, index: number): AnswerView | null {
    if (!isObject(g)) return null
    const id = isObject(g.graderIdentity) ? g.graderIdentity : null
    const named =
        id !== null && typeof id.kind === 'string' && typeof id.name === 'string' && typeof id.version === 'string'
            ? { kind: id.kind, name: id.name, version: id.version }
            : null
    const grader = named === null ? null : `${named.kind} ${named.name} ${named.version}`
    // Length-prefixed parts: as unambiguous as a JSON array of the three, without serialising one per answer.
    const graderKey =
        named === null ? '' : `${named.kind.length}:${named.kind}${named.name.length}:${named.name}${named.version}`
    return {
        index,
        questionId: typeof g.questionId === 'string' ? g.questionId : null,
        grader,
        graderKey,
        kind: id?.kind,
        timestamp: g.timestamp,
        determinism: g.determinism,
        reasoning: g.reasoning,
        weight: g.weight,
        score: g.score
    }
}

/**
 * The same question answered twice by the same grader: an error at the same instant (⚠ A9 cannot pick one), else a
 * warning.
 */
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
        const params = {
            questionId: describeId(a.questionId),
            grader: a.grader,
            first: earlier.index,
            index: a.index,
            timestamp: describeValue(a.timestamp)
        }
        issues.push(
            createEntryIssue(
                earlier.timestamp === a.timestamp ? 'GRD-053' : 'GRD-054',
                pointer('gradings', a.index, 'questionId'),
                params
            )
        )
    }
    return issues
}

function reasoningIssues(answers: readonly AnswerView[]): Issue[] {
    // A non-string reasoning is a type error the schema reports; only a missing or blank one is this rule's.
    return answers
        .filter(
            (a) =>
                a.kind === 'llm' &&
                (a.reasoning === undefined || (typeof a.reasoning === 'string' && a.reasoning.trim() === ''))
        )
        .map((a) =>
            createEntryIssue('GRD-055', pointer('gradings', a.index), {
                questionId: a.questionId ?? `answer ${a.index}`,
                found: a.reasoning === undefined ? 'no reasoning' : 'a blank reasoning'
            })
        )
}

/**
 * Catalogue membership of each answer: another area's question, an id shaped like one that does not
 * exist, an id the catalogue does not define for the area at all (01 S8, ⚠ A25: the catalogue is
 * closed), a determinism the catalogue contradicts, a weight other than the catalogue's.
 */
function catalogueIssues(answers: readonly AnswerView[], area: Area | null): Issue[] {
    const issues: Issue[] = []
    for (const a of answers) {
        if (a.questionId === null) continue
        const q = BY_ID.get(a.questionId)
        if (q === undefined) {
            issues.push(...uncataloguedIssues(a, a.questionId, area))
            continue
        }
        if (area !== null && q.area !== area)
            issues.push(
                createEntryIssue('GRD-059', pointer('gradings', a.index, 'questionId'), {
                    questionId: a.questionId,
                    area,
                    owner: q.area
                })
            )
        // The reverse is allowed: a deterministic question answered by an LLM is recorded as non-deterministic.
        if (!q.deterministic && a.determinism === 'deterministic') {
            issues.push(
                createEntryIssue('GRD-056', pointer('gradings', a.index, 'determinism'), { questionId: a.questionId })
            )
        }
        issues.push(...weightIssues(a, q.id, q.weight))
    }
    return issues
}

/** An id that is no area's own question: a cross-area question of the entry's area, or an error. */
function uncataloguedIssues(a: AnswerView, id: string, area: Area | null): Issue[] {
    // Built only for an issue: most uncatalogued ids are the cross-area questions, which are fine.
    const at = (): string => pointer('gradings', a.index, 'questionId')
    const cross = lookup(CROSS_AREA_QUESTIONS, id)
    if (cross !== undefined && (area === null || cross.areas.includes(area))) {
        if (cross.determinism === 'non-deterministic' && a.determinism === 'deterministic') {
            return [
                createEntryIssue('GRD-056', pointer('gradings', a.index, 'determinism'), { questionId: id }),
                ...weightIssues(a, id, cross.weight)
            ]
        }
        return weightIssues(a, id, cross.weight)
    }
    // Catalogue ids are short; a long id cannot be one, and the regex never sees it.
    const shaped = id.length <= 64 ? CATALOGUE_SHAPED.exec(id) : null
    if (shaped !== null)
        return [
            createEntryIssue('GRD-060', at(), {
                questionId: describeId(id),
                area: shaped[1] ?? '',
                version: QUESTION_INDEX_VERSION
            })
        ]
    // Without a known area the schema reports the area, and an id without `Q-` its pattern: one issue per wrong input.
    return area === null || !id.startsWith('Q-')
        ? []
        : [createEntryIssue('GRD-068', at(), { questionId: describeId(id), area, version: QUESTION_INDEX_VERSION })]
}

/** The catalogue's weight (⚠ A8: weights live in one versioned table), read-tolerantly. */
function weightIssues(a: AnswerView, id: string, weight: number): Issue[] {
    if (typeof a.weight !== 'number' || a.weight === weight) return []
    return [
        createEntryIssue('GRD-065', pointer('gradings', a.index, 'weight'), {
            questionId: id,
            weight: a.weight,
            expected: weight,
            version: QUESTION_INDEX_VERSION
        })
    ]
}

/**
 * A full entry that answers its area's catalogue answers all of it (01-model §8: full covers every
 * applicable dimension; n/a marks the inapplicable ones). Entries with none of the catalogue's ids
 * (the spec's own examples) and vetoed entries (the cascade stops before the rest runs) are exempt.
 */
function completenessIssues(entry: Obj, answers: readonly AnswerView[], area: Area | null): Issue[] {
    if (
        area === null ||
        entry.gradingMode !== 'full' ||
        (entry.categoricalVeto !== null && entry.categoricalVeto !== undefined)
    )
        return []
    const catalogue = idsOf(area)
    const answered = new Set(answers.map((a) => a.questionId))
    if (!catalogue.some((id) => answered.has(id))) return []
    const missing = catalogue.filter((id) => !answered.has(id))
    if (missing.length === 0) return []
    // An answer whose id reads as a missing one on screen is named with its invisible characters.
    const lookalike = (id: string): string => {
        const near = answers.find(
            (a) => a.questionId !== null && a.questionId !== id && withoutInvisible(a.questionId) === id
        )
        return near === undefined ? id : `${id} (answer ${near.index} has ${describeId(near.questionId as string)})`
    }
    return [
        createEntryIssue('GRD-058', '/gradings', {
            area,
            count: missing.length,
            total: catalogue.length,
            missing: missing.map(lookalike).join(', ')
        })
    ]
}

/** A re-grading names the entry it supersedes; naming itself would make the lineage a loop. */
function lineageIssues(entry: Obj): Issue[] {
    const trigger = entry.regradingTrigger
    if (!isObject(trigger) || typeof entry.gradingId !== 'string' || trigger.previousGradingId !== entry.gradingId)
        return []
    return [createEntryIssue('GRD-067', '/regradingTrigger/previousGradingId', { gradingId: entry.gradingId })]
}

function gradingIdIssues(entry: Obj): Issue[] {
    if (
        typeof entry.gradingId !== 'string' ||
        typeof entry.schemaHash !== 'string' ||
        !/^[a-f0-9]{8}$/.test(entry.schemaHash)
    )
        return []
    const m = HASH_PART.exec(entry.gradingId)
    if (m === null || m[1] === entry.schemaHash) return []
    return [createEntryIssue('GRD-057', '/gradingId', { found: m[1] ?? '', schemaHash: entry.schemaHash })]
}

/** Every timestamp of the entry with its pointer: answers, the veto, the re-grading trigger. */
function timestampsOf(entry: Obj, answers: readonly AnswerView[]): Array<{ path: string; value: string }> {
    const out: Array<{ path: string; value: string }> = []
    for (const a of answers)
        if (typeof a.timestamp === 'string')
            out.push({ path: pointer('gradings', a.index, 'timestamp'), value: a.timestamp })
    // The gradingId's stamp is in the file-name form (`2026-05-29T10-00-00Z`); other stamps are accepted on read (⚠
    // A13).
    const iso = stampOf(entry.gradingId)
    if (iso !== null) out.push({ path: '/gradingId', value: iso })
    for (const field of ['categoricalVeto', 'regradingTrigger'] as const) {
        const owner = entry[field]
        if (isObject(owner) && typeof owner.timestamp === 'string')
            out.push({ path: pointer(field, 'timestamp'), value: owner.timestamp })
    }
    return out
}

function futureIssues(entry: Obj, answers: readonly AnswerView[], now: string | null, skewMs: number): Issue[] {
    if (now === null) return []
    // A grader's clock may run ahead of the registry's by up to the tolerated skew.
    const limit = Date.parse(now) + skewMs
    // An unparsable timestamp is a format error reported by the schema check; it is not compared.
    return timestampsOf(entry, answers)
        .filter((t) => Date.parse(t.value) > limit)
        .map((t) => createEntryIssue('GRD-061', t.path, { value: t.value, now }))
}

/** The file-name stamp of a gradingId (`<hash>--2026-05-29T10-00-00Z`) as an ISO date-time, or `null`. */
function stampOf(gradingId: unknown): string | null {
    const m =
        typeof gradingId === 'string' ? /^[a-f0-9]{8}--(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)$/.exec(gradingId) : null
    return m?.[1] !== undefined ? fromFileTimestamp(m[1]) : null
}

/**
 * `stale` is the lack of a recent positive answer (01-model §9): only a time-dependent question can
 * be stale, and only once its aging window has passed at the stale answer's own timestamp, counted
 * from the fresh answer it replaces: the newest earlier answer to the question in this entry, or the
 * previous grading the entry re-grades (`regradingTrigger.previousGradingId`, ⚠ A22).
 */
function staleIssues(entry: Obj, answers: readonly AnswerView[]): Issue[] {
    const stale = answers.filter((a) => a.score === 'stale' && a.questionId !== null)
    if (stale.length === 0) return []
    const issues: Issue[] = []
    const previous = isObject(entry.regradingTrigger) ? stampOf(entry.regradingTrigger.previousGradingId) : null
    const fresh = freshTimes(answers)
    for (const a of stale) {
        const id = a.questionId as string
        // An id outside the catalogue is reported by the catalogue rule; its aging is moot.
        if (!BY_ID.has(id) && lookup(CROSS_AREA_QUESTIONS, id) === undefined) continue
        const at = pointer('gradings', a.index, 'score')
        const windowKey = lookup(TIME_DEPENDENT_QUESTIONS, id)
        if (windowKey === undefined) {
            issues.push(createEntryIssue('GRD-069', at, { questionId: id }))
            continue
        }
        const stamp = typeof a.timestamp === 'string' ? Date.parse(a.timestamp) : Number.NaN
        if (Number.isNaN(stamp)) continue // the schema reports the timestamp
        const days = AGING_DEFAULTS[windowKey]
        const earlier = newestBefore(fresh.get(id) ?? [], stamp)
        const prev =
            previous !== null && Date.parse(previous) < stamp
                ? { ms: Date.parse(previous), source: 'the previous grading' }
                : null
        const anchor = earlier !== null && (prev === null || earlier.ms >= prev.ms) ? earlier : prev
        const params = { questionId: id, timestamp: a.timestamp as string, days }
        if (anchor === null) {
            issues.push(
                createEntryIssue('GRD-070', at, {
                    ...params,
                    detail: 'there is no earlier answer to it in this entry and no previous grading (regradingTrigger.previousGradingId) to age from'
                })
            )
            continue
        }
        const age = (stamp - anchor.ms) / 86_400_000
        if (!isExpired(age, days))
            issues.push(
                createEntryIssue('GRD-070', at, {
                    ...params,
                    detail: `it comes ${Math.round(age * 100) / 100} days after ${anchor.source} of ${new Date(anchor.ms).toISOString()}`
                })
            )
    }
    return issues
}

/** Per question, the times of its answers that are neither stale nor n/a, ascending, each with its answer. */
function freshTimes(answers: readonly AnswerView[]): Map<string, Array<{ ms: number; source: string }>> {
    const out = new Map<string, Array<{ ms: number; source: string }>>()
    for (const b of answers) {
        if (b.questionId === null || b.score === 'stale' || b.score === 'n/a' || typeof b.timestamp !== 'string')
            continue
        const ms = Date.parse(b.timestamp)
        if (Number.isNaN(ms)) continue
        const list = out.get(b.questionId) ?? []
        list.push({ ms, source: `answer ${b.index}` })
        out.set(b.questionId, list)
    }
    for (const list of out.values()) list.sort((x, y) => x.ms - y.ms)
    return out
}

/** The latest entry strictly before `ms` in an ascending list (binary search: a hostile entry may hold thousands). */
function newestBefore(
    list: ReadonlyArray<{ ms: number; source: string }>,
    ms: number
): { ms: number; source: string } | null {
    let lo = 0
    let hi = list.length
    while (lo < hi) {
        const mid = (lo + hi) >> 1
        if ((list[mid] as { ms: number }).ms < ms) lo = mid + 1
        else hi = mid
    }
    return lo === 0 ? null : (list[lo - 1] as { ms: number; source: string })
}

/**
 * Strict mode: each question answered once, whoever answers it (⚠ A9's newest-answer rule stays for the default mode).
 */
function answeredOnceIssues(answers: readonly AnswerView[]): Issue[] {
    const byQuestion = new Map<string, AnswerView[]>()
    for (const a of answers) {
        if (a.questionId === null) continue
        const list = byQuestion.get(a.questionId) ?? []
        list.push(a)
        byQuestion.set(a.questionId, list)
    }
    const issues: Issue[] = []
    for (const [id, list] of byQuestion) {
        // A repeat by the same grader is GRD-053/GRD-054's; this rule is about a second grader.
        if (list.length < 2 || new Set(list.map((a) => a.graderKey)).size < 2) continue
        const second = list[1] as AnswerView
        issues.push(
            createEntryIssue('GRD-071', pointer('gradings', second.index, 'questionId'), {
                questionId: describeId(id),
                count: list.length,
                indexes: list.map((a) => a.index).join(', ')
            })
        )
    }
    return issues
}

/**
 * Strict mode: one grader identity per kind (one script, one judge, one human), so no second grader can override the
 * first.
 */
function oneGraderIssues(answers: readonly AnswerView[]): Issue[] {
    const byKind = new Map<string, Map<string, AnswerView>>()
    for (const a of answers) {
        if (a.grader === null || typeof a.kind !== 'string') continue
        const graders = byKind.get(a.kind) ?? new Map<string, AnswerView>()
        if (!graders.has(a.graderKey)) graders.set(a.graderKey, a)
        byKind.set(a.kind, graders)
    }
    const issues: Issue[] = []
    for (const [kind, graders] of byKind) {
        if (graders.size < 2) continue
        const list = [...graders.values()]
        const second = list[1] as AnswerView
        issues.push(
            createEntryIssue('GRD-072', pointer('gradings', second.index, 'graderIdentity'), {
                kind,
                count: graders.size,
                graders: list.map((a) => a.grader).join('; ')
            })
        )
    }
    return issues
}

/** How far an answer's timestamp may lie after `now` before it counts as recorded in the future (one minute). */
export const DEFAULT_MAX_CLOCK_SKEW_MS = 60_000

/**
 * The answer rules of one entry. The rules of strict mode run in both modes: the default mode names what strict
 * refuses as a warning (entry-levels.ts gives each its level).
 * @param entry - the entry (already known to be a plain object)
 * @param now - the validation time (a checked ISO 8601 date-time), or `null` to skip the timestamp rule
 * @param skewMs - how far a timestamp may lie after `now` (a grader's clock running ahead)
 */
export function answerRuleIssues(entry: Obj, now: string | null, skewMs = DEFAULT_MAX_CLOCK_SKEW_MS): Issue[] {
    const answers = Array.isArray(entry.gradings)
        ? entry.gradings.map(viewOf).filter((a): a is AnswerView => a !== null)
        : []
    const area =
        typeof entry.area === 'string' && (AREAS as readonly string[]).includes(entry.area)
            ? (entry.area as Area)
            : null
    return [
        ...gradingIdIssues(entry),
        ...lineageIssues(entry),
        ...duplicateIssues(answers),
        ...reasoningIssues(answers),
        ...catalogueIssues(answers, area),
        ...completenessIssues(entry, answers, area),
        ...staleIssues(entry, answers),
        ...futureIssues(entry, answers, now, skewMs),
        ...answeredOnceIssues(answers),
        ...oneGraderIssues(answers),
        ...gradingIdGrammarIssues(entry)
    ]
}
