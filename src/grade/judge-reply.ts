import type { ToGradingEntryResult } from '../areas/to-entry.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { redactMessage, redactSecretsDeep } from '../prompts/redact.js'
import { askJudge, firstTimeInRun, settleUnit, unitPath, type JudgeCallOptions, type JudgeTally } from './judge-call.js'
import { extractReply, MAX_REPLY_LENGTH, repairRequest, replyProblems, tidyReply } from './reply.js'
import { takeReplyModel, type UnitPlan } from './units.js'
import type { EmittedPrompt, GradeOptionsBase } from './types.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'

type Obj = Record<string, unknown>

/** A reply ready for conversion: the area output, and the model it names. */
export interface UnitReply {
    readonly output: unknown
    readonly model?: string
}

export type { JudgeTally } from './judge-call.js'
export { newJudgeTally, judgeCallCountOf, addJudgeCallCounts } from './judge-call.js'

/**
 * How a unit's answer came out: none to give (the prompt is returned), an error (its issue added), or the reply
 * converted (an entry or a blocker).
 */
export type UnitAnswer =
    | { readonly kind: 'none' }
    | { readonly kind: 'error'; readonly reason: string }
    | { readonly kind: 'converted'; readonly converted: ToGradingEntryResult }

/** The options a unit's answer reads: the judge's, and the pre-collected answers. */
export type UnitAnswerOptions = JudgeCallOptions & Pick<GradeOptionsBase, 'answers'>

/**
 * What one reply gave: the reply converted, a content slip a repair turn may fix (with the issue it is when it stays),
 * or a failure.
 */
type OneReply =
    | { readonly kind: 'converted'; readonly converted: ToGradingEntryResult; readonly dropped: readonly string[] }
    | { readonly kind: 'slip'; readonly problems: readonly string[]; readonly issue: Issue }
    | { readonly kind: 'failed'; readonly reason: string; readonly failure: string | null }

/** The problems of a rejected conversion in one GRA-018 detail: the first three, and how many more. */
function rejectedDetail(problems: readonly string[]): string {
    return problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; +${problems.length - 3} more` : '')
}

/**
 * Fills the envelope fields the library itself issued when a reply omits them, and refuses a reply
 * that contradicts them: they identify the grading, they are not the grader's judgement.
 */
function fillEnvelope(
    plan: UnitPlan,
    request: EmittedPrompt,
    output: unknown
): { output: unknown } | { problem: Issue } {
    if (!isObject(output) || 'blocker' in output) return { output }
    const env = request.envelope as unknown as Obj
    // The obvious default: a reply without improvement hints has none.
    const filled: Obj = { ...output, ...(output.improvementHints === undefined ? { improvementHints: [] } : {}) }
    for (const [key, expected] of Object.entries(env)) {
        if (!(key in output)) {
            filled[key] = expected
            continue
        }
        const actual = output[key]
        const same =
            key === 'iteration' || key === 'timestamp' ? true : JSON.stringify(actual) === JSON.stringify(expected)
        if (!same)
            return {
                problem: createIssue('GRA-008', unitPath(plan.unit), {
                    unit: plan.unit,
                    field: key,
                    actual: describeValue(JSON.stringify(actual)),
                    expected: describeValue(JSON.stringify(expected))
                })
            }
    }
    return { output: filled }
}

/**
 * An answer naming its question by `id`: said precisely (GRA-021), before the unknown `id` field would be left out and
 * the reader left with a missing key.
 */
function misnamedAnswer(plan: UnitPlan, output: unknown): Issue | null {
    const answers = isObject(output) && Array.isArray(output.answers) ? (output.answers as unknown[]) : []
    const index = answers.findIndex((a) => isObject(a) && a.questionId === undefined && a.id !== undefined)
    return index >= 0 ? createIssue('GRA-021', unitPath(plan.unit, 'answers', index), { unit: plan.unit, index }) : null
}

/**
 * A reply given as an area output (a pre-collected answer, or the judge's object) turned into an entry, or the slip it
 * is.
 */
function convertOutput(
    plan: UnitPlan,
    request: EmittedPrompt,
    value: unknown,
    errors: Issue[],
    convert: (reply: UnitReply) => ToGradingEntryResult
): OneReply {
    const named = takeReplyModel(plan.unit, value, errors)
    const misnamed = misnamedAnswer(plan, named.output)
    if (misnamed !== null) return { kind: 'slip', problems: [misnamed.message], issue: misnamed }
    const tidied = tidyReply(named.output, request)
    const filled = fillEnvelope(plan, request, tidied.output)
    if ('problem' in filled)
        return {
            kind: 'slip',
            problems: [filled.problem.message, ...tidied.dropped.map((d) => `left out: ${d}`)],
            issue: filled.problem
        }
    const converted = convert({ output: filled.output, ...definedFields({ model: named.model }) })
    if (converted.entry !== null || converted.blocker !== null)
        return { kind: 'converted', converted, dropped: tidied.dropped }
    const problems = [...replyProblems(converted.errors), ...tidied.dropped.map((d) => `left out: ${d}`)]
    return {
        kind: 'slip',
        problems,
        issue: createIssue('GRA-018', unitPath(plan.unit), { unit: plan.unit, detail: rejectedDetail(problems) })
    }
}

/** How much of a reply without JSON its issue and repair message quote: its first words, redacted. */
const FIRST_WORDS = 12
const FIRST_CHARS = 120

/** The first words of a reply, redacted before they are cut, on one line. */
function firstWordsOf(text: string, secrets: readonly string[]): string {
    const words = redactMessage(text, secrets).trim().split(/\s+/).filter(Boolean)
    const cut = words.slice(0, FIRST_WORDS).join(' ')
    const short = cut.length > FIRST_CHARS ? `${cut.slice(0, FIRST_CHARS)}…` : cut
    return words.length > FIRST_WORDS && !short.endsWith('…') ? `${short} …` : short
}

/** One call of the judge (a first ask, or the repair turn): its text read (the JSON object found in it), then converted. */
async function askOnce(
    plan: UnitPlan,
    request: EmittedPrompt,
    options: UnitAnswerOptions,
    errors: Issue[],
    secrets: readonly string[],
    convert: (reply: UnitReply) => ToGradingEntryResult,
    turn: { readonly tally: JudgeTally; readonly kind: 'first' | 'repair' }
): Promise<OneReply> {
    const asked = await askJudge(plan.unit, request, options, errors, secrets, turn.tally, turn.kind)
    if (asked.kind === 'error') return { kind: 'failed', reason: asked.reason, failure: asked.failure }
    const text = asked.text
    if (typeof text !== 'string') {
        const detail = `the judge returned ${typeOfValue(text)}, not a string or { text, usage }`
        errors.push(createIssue('GRA-006', unitPath(plan.unit), { unit: plan.unit, detail }))
        return { kind: 'failed', reason: 'the judge returned no text', failure: detail }
    }
    const found = extractReply(text)
    if (found.kind === 'none') {
        // A refusal or prose: a slip like a malformed reply, so the repair turn asks once more, saying what it saw.
        const said = text.trim() === '' ? 'the reply was empty' : `it began: "${firstWordsOf(text, secrets)}"`
        const what = text.length > MAX_REPLY_LENGTH ? found.detail : 'no JSON object was found in the reply'
        const detail = `${what}; ${said}`
        return {
            kind: 'slip',
            problems: [detail],
            issue: createIssue('GRA-007', unitPath(plan.unit), { unit: plan.unit, detail })
        }
    }
    if (found.kind !== 'json')
        return {
            kind: 'slip',
            problems: [found.detail],
            issue: createIssue('GRA-007', unitPath(plan.unit), { unit: plan.unit, detail: found.detail })
        }
    // Said once per run: a model that always adds a sentence does so on every call.
    if (found.around !== null && firstTimeInRun(options, 'around'))
        errors.push(createIssue('GRA-027', unitPath(plan.unit), { unit: plan.unit, detail: found.around }))
    // A reply echoing a key never reaches an entry: redacted as parsed, before any check or cut.
    return convertOutput(plan, request, redactSecretsDeep(found.value, secrets), errors, convert)
}

/** The notes of a reply that was graded: what was left out of it. */
function noteDropped(plan: UnitPlan, dropped: readonly string[], errors: Issue[]): void {
    if (dropped.length > 0)
        errors.push(createIssue('GRA-028', unitPath(plan.unit), { unit: plan.unit, detail: dropped.join('; ') }))
}

/**
 * A unit's answer: the pre-collected one, or the judge's. A judge reply is read as the JSON object in
 * its text; one that breaks the area's output contract, is cut off or holds two candidate objects
 * gets one repair turn (the same request plus one message quoting its problems), and a second slip
 * is the unit's one error. Every unit the judge was asked for is settled toward the stop after
 * failures in a row. Nothing is converted that the judge did not give.
 */
export async function answerUnit(
    plan: UnitPlan,
    request: EmittedPrompt,
    options: UnitAnswerOptions,
    errors: Issue[],
    secrets: readonly string[],
    convert: (reply: UnitReply) => ToGradingEntryResult,
    tally: JudgeTally
): Promise<UnitAnswer> {
    if (options.answers !== undefined && Object.hasOwn(options.answers, plan.unit)) {
        // The model a reply names is provenance, not part of the area output.
        const given = convertOutput(
            plan,
            request,
            redactSecretsDeep(options.answers[plan.unit], secrets),
            errors,
            convert
        )
        if (given.kind === 'converted') {
            noteDropped(plan, given.dropped, errors)
            return { kind: 'converted', converted: given.converted }
        }
        errors.push((given as { issue: Issue }).issue)
        return { kind: 'error', reason: 'the area output was rejected' }
    }
    if (options.judge === undefined) {
        if (options.answers !== undefined) errors.push(createIssue('GRA-010', unitPath(plan.unit), { unit: plan.unit }))
        return { kind: 'none' }
    }
    let reply = await askOnce(plan, request, options, errors, secrets, convert, { tally, kind: 'first' })
    let repaired: readonly string[] | null = null
    if (reply.kind === 'slip') {
        repaired = reply.problems
        const again = repairRequest(request, reply.problems)
        reply = await askOnce(plan, again, options, errors, secrets, convert, { tally, kind: 'repair' })
    }
    if (reply.kind === 'failed') {
        if (reply.failure !== null) settleUnit(options, plan.unit, reply.failure, errors)
        return { kind: 'error', reason: reply.reason }
    }
    if (reply.kind === 'slip') {
        // The unit's one error, saying that the repair turn did not help (GRA-008 and GRA-021 say what is wrong on
        // their own).
        const after = (detail: string): string =>
            repaired !== null ? `still, after one repair turn: ${detail}` : detail
        errors.push(
            reply.issue.code === 'GRA-018'
                ? createIssue('GRA-018', unitPath(plan.unit), {
                      unit: plan.unit,
                      detail: after(rejectedDetail(reply.problems))
                  })
                : reply.issue.code === 'GRA-007'
                  ? createIssue('GRA-007', unitPath(plan.unit), {
                        unit: plan.unit,
                        detail: after(reply.problems[0] ?? '')
                    })
                  : reply.issue
        )
        settleUnit(
            options,
            plan.unit,
            `still unusable after its repair turn: ${reply.problems[0] ?? reply.issue.message}`,
            errors
        )
        return { kind: 'error', reason: 'the area output was rejected after one repair turn' }
    }
    if (repaired !== null)
        errors.push(createIssue('GRA-029', unitPath(plan.unit), { unit: plan.unit, detail: rejectedDetail(repaired) }))
    noteDropped(plan, reply.dropped, errors)
    settleUnit(options, plan.unit, null, errors)
    return { kind: 'converted', converted: reply.converted }
}
