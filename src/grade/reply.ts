import { AREA_CATALOGUE } from '../areas/catalogue.js'
import type { Issue } from '../errors/types.js'
import { DEFAULT_JSON_LIMITS, parseJsonText, type JsonLimits } from '../json/guard.js'
import type { JudgeMessage } from './messages.js'
import type { JudgeRequest } from './types.js'
import { isObject } from '../model/object.js'

type Obj = Record<string, unknown>

/** A reply longer than this is not read at all (a judge answering ten questions writes a few kilobytes). */
export const MAX_REPLY_LENGTH = 2_000_000
const REPLY_LIMITS: JsonLimits = { ...DEFAULT_JSON_LIMITS, maxTextLength: MAX_REPLY_LENGTH }

/**
 * What a reply text held:
 * - `json`: one JSON value, the whole text (a fence around it allowed) or the one reply object in it;
 *   `around` says what other text was set aside (`null`: none but a fence);
 * - `truncated`: an object opened and never closed: the reply was cut off (a repair turn can fix it);
 * - `ambiguous`: two different objects that each look like a reply (a repair turn, never a guess);
 * - `none`: no JSON object at all (a refusal, prose) or a text past {@link MAX_REPLY_LENGTH}.
 */
export type ExtractedReply =
    | { readonly kind: 'json'; readonly value: unknown; readonly around: string | null }
    | { readonly kind: 'truncated' | 'ambiguous' | 'none'; readonly detail: string }

const FENCE = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/

/**
 * The index of the `}` closing the object opened at `start` (strings and escapes skipped), or -1 when it never closes.
 */
function closingBrace(text: string, start: number): number {
    let depth = 0
    let inString = false
    for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i)
        if (inString) {
            if (c === 92)
                i++ // a backslash: the next character is escaped
            else if (c === 34) inString = false
            continue
        }
        if (c === 34) inString = true
        else if (c === 123) depth++
        else if (c === 125 && --depth === 0) return i
    }
    return -1
}

/** Whether a parsed object has a reply's shape: `answers` or the blocker shortcut. */
const replyShaped = (v: unknown): boolean => isObject(v) && (Object.hasOwn(v, 'answers') || Object.hasOwn(v, 'blocker'))

/** What surrounds the object at [start, end]: a fence, text before it, text after it (for the once-per-run note). */
function aroundOf(text: string, start: number, end: number): string | null {
    let before = text.slice(0, start).trim()
    let after = text.slice(end + 1).trim()
    const fenced = /```[a-zA-Z]*$/.test(before) && after.startsWith('```')
    if (fenced) {
        before = before.replace(/```[a-zA-Z]*$/, '').trim()
        after = after.slice(3).trim()
    }
    const parts = [before !== '' ? 'text before it' : null, after !== '' ? 'text after it' : null].filter(
        (p): p is string => p !== null
    )
    if (parts.length === 0) return null
    return `${parts.join(' and ')}${fenced ? ', with a Markdown fence' : ''}`
}

// Restarts after an object that never closes (a stray brace in prose): bounded, so a hostile text costs linear time.
const MAX_RESTARTS = 16
const MAX_OBJECTS = 64

/**
 * Finds the reply's JSON object in what a model wrote. The whole text (or a Markdown fence around
 * it) is tried first; otherwise the top-level `{…}` spans of the text are read in order, and the one
 * that parses and has a reply's shape (`answers` or `blocker`) is the reply. Pure, bounded: the text
 * is read within {@link MAX_REPLY_LENGTH} and the JSON guard's depth and size limits.
 */
export function extractReply(text: string): ExtractedReply {
    if (text.length > MAX_REPLY_LENGTH)
        return { kind: 'none', detail: `reply longer than ${MAX_REPLY_LENGTH} characters` }
    const trimmed = text.trim()
    const fenced = FENCE.exec(trimmed)
    const whole = parseJsonText(fenced !== null ? (fenced[1] as string) : trimmed, REPLY_LIMITS)
    if (whole.errors.length === 0) return { kind: 'json', value: whole.value, around: null }
    const shaped: Array<{ value: unknown; start: number; end: number }> = []
    const objects: Array<{ value: unknown; start: number; end: number }> = []
    let unclosed = false
    let restarts = 0
    for (let i = text.indexOf('{'); i >= 0 && objects.length < MAX_OBJECTS; ) {
        const end = closingBrace(text, i)
        if (end < 0) {
            unclosed = true
            if (++restarts > MAX_RESTARTS) break
            i = text.indexOf('{', i + 1)
            continue
        }
        const parsed = parseJsonText(text.slice(i, end + 1), REPLY_LIMITS)
        if (parsed.errors.length === 0) {
            objects.push({ value: parsed.value, start: i, end })
            if (replyShaped(parsed.value)) shaped.push({ value: parsed.value, start: i, end })
        }
        i = text.indexOf('{', end + 1)
    }
    // Only pieces of an object that never closes: the reply was cut off.
    if (shaped.length === 0 && unclosed)
        return { kind: 'truncated', detail: 'the reply was cut off: its JSON object never closes' }
    const candidates = shaped.length > 0 ? shaped : objects
    const distinct = new Set(candidates.map((c) => JSON.stringify(c.value)))
    if (distinct.size > 1)
        return {
            kind: 'ambiguous',
            detail: `the reply holds ${distinct.size} different JSON objects${shaped.length > 0 ? ' that each look like a reply' : ''}; send exactly one`
        }
    const found = candidates[0]
    if (found !== undefined) return { kind: 'json', value: found.value, around: aroundOf(text, found.start, found.end) }
    return { kind: 'none', detail: whole.errors[0]?.message.replace(/^[^:]*:\s*/, '') ?? 'no JSON object in the reply' }
}

/** The keys a schema object allows (an `allOf` merged), from an area output schema. */
function keysOf(node: unknown): Set<string> {
    const keys = new Set<string>()
    if (!isObject(node)) return keys
    for (const part of [node, ...(Array.isArray(node.allOf) ? node.allOf : [])])
        if (isObject(part) && isObject(part.properties)) for (const k of Object.keys(part.properties)) keys.add(k)
    return keys
}

/**
 * The top-level and per-answer keys a reply may carry, read from the request's `outputSchema` (its envelope branch).
 */
function allowedKeys(outputSchema: object): { top: Set<string>; answer: Set<string> } {
    const root = outputSchema as Obj
    const branches = Array.isArray(root.oneOf) ? root.oneOf.filter(isObject) : [root]
    const envelope = branches.find((b) => isObject(b.properties) && isObject(b.properties.answers))
    const answers = isObject(envelope?.properties) ? (envelope.properties as Obj).answers : undefined
    return { top: keysOf(envelope), answer: keysOf(isObject(answers) ? answers.items : undefined) }
}

/**
 * A reply without what no entry may hold: top-level fields and answer fields the area's output does
 * not have (a `confidence`), and answers to questions the area does not ask (an invented id); each
 * left out and named in `dropped`, never graded. A `null` in an optional answer field (`naReason`,
 * `evidence`) reads as not given — the form {@link JudgeRequest.responseSchema} asks a provider for.
 * A blocker reply, or anything that is not an object, is returned as it is.
 */
export function tidyReply(
    reply: unknown,
    request: Pick<JudgeRequest, 'area' | 'outputSchema'>
): { output: unknown; dropped: string[] } {
    if (!isObject(reply) || Object.hasOwn(reply, 'blocker')) return { output: reply, dropped: [] }
    const { top, answer } = allowedKeys(request.outputSchema)
    if (top.size === 0) return { output: reply, dropped: [] }
    const dropped: string[] = []
    const extra = Object.keys(reply).filter((k) => !top.has(k))
    if (extra.length > 0)
        dropped.push(
            `the field${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')}, which the area output does not have`
        )
    const out: Obj = Object.fromEntries(Object.entries(reply).filter(([k]) => top.has(k)))
    if (Array.isArray(reply.answers)) {
        const known = new Set<string>(AREA_CATALOGUE[request.area]?.questionIds ?? [])
        const invented = reply.answers
            .filter((a) => isObject(a) && typeof a.questionId === 'string' && !known.has(a.questionId))
            .map((a) => (a as Obj).questionId as string)
        if (invented.length > 0)
            dropped.push(
                `answers to ${invented.map((id) => JSON.stringify(id)).join(', ')}, which ${invented.length > 1 ? 'are not questions' : 'is not a question'} of ${request.area}`
            )
        const fields = new Set<string>()
        out.answers = reply.answers
            .filter((a) => !(isObject(a) && typeof a.questionId === 'string' && !known.has(a.questionId)))
            .map((a) => {
                if (!isObject(a) || answer.size === 0) return a
                for (const k of Object.keys(a)) if (!answer.has(k)) fields.add(k)
                return Object.fromEntries(
                    Object.entries(a).filter(
                        ([k, v]) => answer.has(k) && !(v === null && (k === 'naReason' || k === 'evidence'))
                    )
                )
            })
        if (fields.size > 0)
            dropped.push(
                `the answer field${fields.size > 1 ? 's' : ''} ${[...fields].map((k) => JSON.stringify(k)).join(', ')}, which an answer does not have`
            )
    }
    return { output: out, dropped }
}

/** Longest list of problems a repair message quotes; the rest are counted. */
const MAX_QUOTED = 10

/** The problems of a reply as the judge reads them: each issue's code, where in the reply, and what is wrong. */
export function replyProblems(issues: readonly Issue[]): string[] {
    return issues.map((e) => {
        const at = e.path.startsWith('/output') ? e.path.slice('/output'.length) : ''
        return `${e.code}${at !== '' ? ` at ${at}` : ''}: ${e.message}`
    })
}

/**
 * The request of a repair turn: the first request with one message appended that quotes the
 * problems of the first reply (also appended to `prompt`), and `repair` set. Every message before
 * it is the first request's, unchanged, so a provider's prefix cache serves them again.
 */
export function repairRequest<R extends JudgeRequest>(request: R, problems: readonly string[]): R {
    const message = repairMessage(
        request.questions.map((q) => q.questionId),
        problems
    )
    return {
        ...request,
        messages: [...request.messages, message],
        prompt: `${request.prompt}\n\n${message.content}`,
        repair: { problems: [...problems] }
    }
}

/**
 * The one message a repair turn appends: the problems quoted (at most ten, the rest counted), then what to send
 * instead.
 */
export function repairMessage(questionIds: readonly string[], problems: readonly string[]): JudgeMessage {
    const quoted = problems.slice(0, MAX_QUOTED).map((p) => `- ${p}`)
    const more = problems.length > MAX_QUOTED ? [`- and ${problems.length - MAX_QUOTED} more`] : []
    const content = [
        'Your previous reply to this request could not be used:',
        ...quoted,
        ...more,
        '',
        `Reply again with the complete JSON object and nothing else: every question (${questionIds.join(', ')}) answered once by its questionId, each score a number from 1 to 5 (not a string) or "pass", "fail" or "n/a" with a naReason, each with a reasoning; no other field.`
    ].join('\n')
    return { role: 'user', content, cacheable: false, part: 'repair' }
}
