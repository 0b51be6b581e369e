import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { inspectJson, resolveLimits, type JsonLimits } from '../json/guard.js'
import { isPlainObject } from '../model/object.js'
import { rx } from '../model/regex.js'
import { keyForms, wireForms } from './secret-forms.js'
import { guardStatics } from '../errors/guard.js'
import { objectArg, parseArgs, says } from '../validation/args.js'

/** The codes of the argument checks: PB-001 missing, PB-002 wrong type. */
const REDACT_ARGS = { missing: 'PB-001', mismatch: 'PB-002', create: createIssue } as const
const PARAMS = objectArg({ expected: 'object of strings', actual: 'type' })
const TEXT = v.string()
// A parameter whose value is `undefined` is a wrong value (PB-002), never an absent argument.
const PARAM_VALUE = v.string(says({ expected: 'string', actual: 'type', missing: false }))

/** Why a piece of text was redacted. */
export type RedactionKind =
    | 'server-param'
    | 'secret-field'
    | 'url-credential'
    | 'auth-header'
    | 'key-shape'
    | 'private-key'
    | 'assignment'

/** One redaction: where (JSON Pointer into the value, `''` for plain text) and why. Never the secret itself. */
export interface Redaction {
    readonly path: string
    readonly kind: RedactionKind
    /** The server-parameter name, for `server-param` redactions. */
    readonly key?: string
}

/** What replaces a redacted secret; `[redacted:<KEY>]` for a known server parameter. */
export const REDACTED = '[redacted]'

/** Values shorter than this are not treated as server-parameter secrets: replacing them would corrupt text. */
export const MIN_SECRET_LENGTH = 4

const PLACEHOLDER_ONLY = /^(?:(?:Bearer|Basic|Token)\s+)?(?:\{\{[^{}]+\}\}\s*)+$/
const REDACTED_MARK = /^\[redacted(?::[^\]]+)?\]$/

// Field names whose string value is a credential (compared lower-case without `-`/`_`).
const SECRET_NAMES = new Set([
    'apikey',
    'xapikey',
    'apisecret',
    'apitoken',
    'xapitoken',
    'accesstoken',
    'xaccesstoken',
    'refreshtoken',
    'authtoken',
    'xauthtoken',
    'idtoken',
    'sessiontoken',
    'clientsecret',
    'secret',
    'secretkey',
    'privatekey',
    'password',
    'passwd',
    'authorization',
    'proxyauthorization',
    'cookie',
    'bearer',
    'accesskey',
    'secretaccesskey',
    'credentials',
    'credential'
])
const SECRET_SUFFIXES = ['apikey', 'apitoken', 'accesstoken', 'secret', 'password', 'privatekey']
// `token` and `key` name credentials in headers and URLs, but name ordinary data (a token symbol) elsewhere.
const AMBIGUOUS_NAMES = new Set(['token', 'key', 'auth'])

function normalise(name: string): string {
    return name.toLowerCase().replace(/[^a-z0-9]/g, '')
}

/** Whether a field, header or query-parameter name denotes a credential. */
export function isSecretName(name: string, strict = false): boolean {
    const n = normalise(name)
    return SECRET_NAMES.has(n) || SECRET_SUFFIXES.some((s) => n.endsWith(s)) || (strict && AMBIGUOUS_NAMES.has(n))
}

function keepsValue(value: string): boolean {
    return PLACEHOLDER_ONLY.test(value.trim()) || REDACTED_MARK.test(value)
}

// Credential shapes of widely used providers, plus long bare hex (not a 0x address, not a sha256: digest).
// Each comes with a cheap necessary condition: most prompt text holds no candidate, and the full
// patterns (lookbehinds, alternations) cost far more to scan with than the pre-test.
const KEY_SHAPE_HINTS: ReadonlyArray<(s: string) => boolean> = [
    (s) => s.includes('sk-'),
    (s) => s.includes('_live_') || s.includes('_test_'),
    (s) => /\bgh[oprsu]_/.test(s),
    (s) => s.includes('github_pat_'),
    (s) => s.includes('AKIA') || s.includes('ASIA'),
    (s) => s.includes('AIza'),
    (s) => s.includes('xox'),
    (s) => s.includes('glpat-'),
    (s) => s.includes('eyJ'),
    (s) => hasBareHexRun(s, 32)
]

/** Whether a UTF-16 unit counts as a hex digit here (`| 0x20` folds A–F to a–f). */
function isHexUnit(text: string, i: number): boolean {
    const c = text.charCodeAt(i) | 0x20
    return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)
}

/**
 * Whether `text` holds a run of at least `length` hex digits that starts a word (not after a letter,
 * digit, `:` or `_`), as the bare-hex pattern needs: a `0x` address or a hash inside a word is no
 * candidate. Reads the last character of each window first, so text without long runs is mostly
 * stepped over rather than read (a regex retries at every start).
 */
export function hasBareHexRun(text: string, length: number): boolean {
    let start = 0
    // text[start .. known - 1] are hex digits.
    let known = 0
    while (start + length <= text.length) {
        let k = start + length - 1
        while (k >= known && isHexUnit(text, k)) k -= 1
        if (k >= known) {
            // text[k] is no hex digit: no run of `length` starts at or before it.
            known = start + length
            start = k + 1
            continue
        }
        // text[start .. start + length - 1] are hex: find where this run begins and ends.
        let begin = start
        while (begin > 0 && isHexUnit(text, begin - 1)) begin -= 1
        let end = start + length
        while (end < text.length && isHexUnit(text, end)) end += 1
        if (begin === 0 || !/[0-9A-Za-z:_]/.test(text[begin - 1] as string)) return true
        start = end + 1
        known = start
    }
    return false
}
const KEY_SHAPES: readonly RegExp[] = [
    /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
    /\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
    /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
    /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
    /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
    /\bAIza[0-9A-Za-z_-]{35}/g,
    /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
    /\bglpat-[A-Za-z0-9_-]{20,}/g,
    /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    /(?<![0-9A-Za-z:_])(?<!0x)(?:[0-9a-f]{32,}|[0-9A-F]{32,})(?![0-9A-Za-z])/g
]
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)([^\s/@]+)(@)/gi
const URL_QUERY = /([?&;]([A-Za-z0-9_-]+)=)([^&#\s"'<>]+)/g
const AUTH_SCHEME = /\b(Bearer|Basic|Token)(\s+)([A-Za-z0-9._~+/=-]{8,})/g
// A `"name": "value"` pair inside text, plain or JSON-escaped (a schema fragment quoted into a prompt).
const QUOTED_PAIR = /(\\?")([A-Za-z0-9_.-]{2,64})\1(\s*:\s*)\1([^"\\]{1,512})\1/g
const ASSIGNMENT = rx(
    'gi'
)`\b(api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key|password)
        (\s*[:=]\s*["']?)([^\s"',;&]{8,})`

function looksLikeCredential(value: string): boolean {
    return value.length >= 16 && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && !/^0x[0-9a-fA-F]+$/.test(value)
}

function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

type Params = ReadonlyArray<readonly [key: string, value: string]>

/** One pattern pass: what it finds, how a hit is replaced (null keeps it), its cheap necessary condition. */
interface Pass {
    readonly re: RegExp
    readonly kind: RedactionKind
    readonly fn: (...m: string[]) => string | null
    readonly hint?: (text: string) => boolean
    /** What a match can span across a line break: `null` when no match ever holds one (see {@link mayCross}). */
    readonly spans: 'private-key' | 'auth-header' | 'secret-field' | 'assignment' | null
}

// The passes in the order they run; each runs over the output of the one before.
const PASSES: readonly Pass[] = [
    {
        re: PRIVATE_KEY,
        kind: 'private-key',
        fn: () => REDACTED,
        hint: (t) => t.includes('PRIVATE KEY'),
        spans: 'private-key'
    },
    {
        re: URL_USERINFO,
        kind: 'url-credential',
        fn: (_w, head, secret, at) => (keepsValue(secret as string) ? null : `${head}${REDACTED}${at}`),
        hint: (t) => t.includes('://') && t.includes('@'),
        spans: null
    },
    {
        re: URL_QUERY,
        kind: 'url-credential',
        fn: (_w, head, name, value) => {
            const v = value as string
            if (keepsValue(v)) return null
            const named =
                isSecretName(name as string) ||
                (AMBIGUOUS_NAMES.has(normalise(name as string)) && looksLikeCredential(v))
            return named ? `${head}${REDACTED}` : null
        },
        hint: (t) => t.includes('='),
        spans: null
    },
    {
        re: AUTH_SCHEME,
        kind: 'auth-header',
        fn: (_w, scheme, gap, token) => (keepsValue(token as string) ? null : `${scheme}${gap}${REDACTED}`),
        hint: (t) => t.includes('Bearer') || t.includes('Basic') || t.includes('Token'),
        spans: 'auth-header'
    },
    {
        re: QUOTED_PAIR,
        kind: 'secret-field',
        fn: (_w, quote, name, sep, value) => {
            const v = value as string
            const named =
                isSecretName(name as string) ||
                (AMBIGUOUS_NAMES.has(normalise(name as string)) && looksLikeCredential(v))
            return named && !keepsValue(v) ? `${quote}${name}${quote}${sep}${quote}${REDACTED}${quote}` : null
        },
        hint: (t) => t.includes('"'),
        spans: 'secret-field'
    },
    {
        re: ASSIGNMENT,
        kind: 'assignment',
        fn: (_w, name, sep, value) =>
            keepsValue(value as string) || !/[0-9]/.test(value as string) ? null : `${name}${sep}${REDACTED}`,
        hint: (t) => /key|token|secret|password/i.test(t),
        spans: 'assignment'
    },
    ...KEY_SHAPES.map(
        (re, i): Pass => ({
            re,
            kind: 'key-shape',
            fn: () => REDACTED,
            hint: KEY_SHAPE_HINTS[i] as (text: string) => boolean,
            spans: null
        })
    )
]

function replacePass(text: string, pass: Pass, path: string, out: Redaction[]): string {
    return text.replace(pass.re, (...args: unknown[]) => {
        const groups = args.slice(0, -2).map((g) => (typeof g === 'string' ? g : '')) as string[]
        const next = pass.fn(...groups)
        if (next === null) return groups[0] as string
        out.push({ path, kind: pass.kind })
        return next
    })
}

function redactString(text: string, params: Params, path: string, out: Redaction[]): string {
    let s = text
    for (const [key, value] of params) {
        for (const form of wireForms(value)) {
            if (s.includes(form)) {
                s = s.replace(new RegExp(escapeRegExp(form), 'g'), `[redacted:${key}]`)
                out.push({ path, kind: 'server-param', key })
            }
        }
    }
    for (const pass of PASSES) {
        if (pass.hint === undefined || pass.hint(s)) s = replacePass(s, pass, path, out)
    }
    return s
}

/** What joins the sections of a prompt: a blank line. */
export const SECTION_JOINER = '\n\n'

const WHITESPACE = /\s/

/** The index of the first `"` or backslash in `text`, or -1. */
function firstQuoteOrEscape(text: string): number {
    const quote = text.indexOf('"')
    const backslash = text.indexOf('\\')
    return quote < 0 ? backslash : backslash < 0 ? quote : Math.min(quote, backslash)
}

/**
 * Whether a match of a pass that can hold line breaks could run from `left` over the
 * {@link SECTION_JOINER} into `right`. Sound, not exact: `true` whenever it cannot rule a match out.
 * A match holding the joiner holds both of its line breaks, so it must reach the joiner through the
 * pass's whitespace (or, for `"name": "value"`, through the value), and each case needs a shape at the
 * end of `left` and at the start of `right` that is checked here. `leftIsFirst`: nothing lies before `left`.
 */
function mayCross(spans: NonNullable<Pass['spans']>, left: string, right: string, leftIsFirst: boolean): boolean {
    if (spans === 'private-key') return left.includes('PRIVATE KEY') || right.includes('PRIVATE KEY')
    const l = left.trimEnd()
    const r = right.trimStart()
    // Only whitespace on one side: a match could reach past it, into a section not looked at here.
    if (l === '' || r === '') return true
    if (spans === 'auth-header') {
        // `Bearer`, whitespace holding the joiner, then at least 8 token characters.
        return (l.endsWith('Bearer') || l.endsWith('Basic') || l.endsWith('Token')) && /^[A-Za-z0-9._~+/=-]{8}/.test(r)
    }
    if (spans === 'assignment') {
        // The joiner sits in the whitespace before or after the `:`/`=`; the name ends in one of these words (any
        // case).
        const nameBefore =
            /(?:key|token|secret|password)$/.test(l.slice(-8).toLowerCase()) && (r[0] === ':' || r[0] === '=')
        const valueAfter = (l.endsWith(':') || l.endsWith('=')) && /^["']?[^\s"',;&]{8}/.test(r)
        return nameBefore || valueAfter
    }
    // secret-field: the joiner sits in the whitespace around the `:` …
    if ((l.endsWith('"') && r[0] === ':') || (l.endsWith(':') && (r[0] === '"' || r[0] === '\\'))) return true
    // … or in the value, which holds no `"` and no backslash: then its opening quote is the last `"` of `left`.
    const q = left.lastIndexOf('"')
    if (q < 0) return !leftIsFirst
    const tail = left.length - q - 1
    if (tail + SECTION_JOINER.length > 512 || left.indexOf('\\', q + 1) >= 0) return false
    // The quote opens a value only after `"name"` and a `:` (whitespace around it, backslash-quote quoting allowed).
    let p = q - 1
    if (p >= 0 && left[p] === '\\') p -= 1
    while (p >= 0 && WHITESPACE.test(left[p] as string)) p -= 1
    if (p < 0) return !leftIsFirst
    if (left[p] !== ':') return false
    // The value must close within 512 characters, at the first quote (or backslash-quote) of `right`.
    const close = firstQuoteOrEscape(right)
    const reach = tail + SECTION_JOINER.length + (close < 0 ? right.length + SECTION_JOINER.length : close)
    return reach <= 512
}

// Blocks known to be inert: no pass changes them and they hold no `PRIVATE KEY`. Keyed by the
// block's text (an output schema, a question list), so a cached answer is always the answer for that
// text. Only inert blocks are kept (nothing in them looks like a secret), only short ones, at most a
// few (the list is cleared when full), so it never grows with the input. A list compared with `===`,
// not a Set: a fresh 9 KB block compares against a stored one faster than it hashes.
const INERT_BLOCKS: string[] = []
const INERT_BLOCKS_MAX = 32
const INERT_BLOCK_MAX_LENGTH = 65_536

function isInert(block: string): boolean {
    if (INERT_BLOCKS.includes(block)) return true
    if (block.length > INERT_BLOCK_MAX_LENGTH || block.includes('PRIVATE KEY')) return false
    const found: Redaction[] = []
    if (redactString(block, [], '', found) !== block || found.length > 0) return false
    if (INERT_BLOCKS.length >= INERT_BLOCKS_MAX) INERT_BLOCKS.length = 0
    INERT_BLOCKS.push(block)
    return true
}

/**
 * Redacts `head + SECTION_JOINER + block + SECTION_JOINER + tail` exactly as {@link redactString}
 * redacts that joined text (same text, same redactions in the same order), without scanning `block`
 * once it is known to be inert. Each pass runs over `head` and `tail` alone; that is the same as one
 * run over the joined text when no match can hold a joiner, which {@link mayCross} checks before every
 * pass that can span lines, and when no server-parameter value holds a line break or occurs in `block`.
 * Returns `null` when any of that cannot be shown: the caller then redacts the joined text.
 */
function aroundInert(
    head: string,
    block: string,
    tail: string,
    params: Params,
    path: string,
    out: Redaction[]
): string | null {
    // Host-given values first: a block holding one is never cached (nor redacted here).
    const forms = params.map(([key, value]) => [key, wireForms(value)] as const)
    if (forms.some(([, list]) => list.some((form) => form.includes('\n') || block.includes(form)))) return null
    if (!isInert(block)) return null
    const found: Redaction[] = []
    let h = head
    let t = tail
    for (const [key, list] of forms) {
        for (const form of list) {
            const inHead = h.includes(form)
            const inTail = t.includes(form)
            if (!inHead && !inTail) continue
            const re = new RegExp(escapeRegExp(form), 'g')
            if (inHead) h = h.replace(re, `[redacted:${key}]`)
            if (inTail) t = t.replace(re, `[redacted:${key}]`)
            found.push({ path, kind: 'server-param', key })
        }
    }
    for (const pass of PASSES) {
        if (pass.spans !== null && (mayCross(pass.spans, h, block, true) || mayCross(pass.spans, block, t, false)))
            return null
        if (pass.hint === undefined || pass.hint(h)) h = replacePass(h, pass, path, found)
        if (pass.hint === undefined || pass.hint(t)) t = replacePass(t, pass, path, found)
    }
    out.push(...found)
    return h + SECTION_JOINER + block + SECTION_JOINER + t
}

/**
 * The shortcut of {@link redactSections} alone: the redaction of the joined text when it can be had
 * without scanning `block`, else `null` (also for bad server parameters, which the full path reports).
 * @param head - the sections before the block, joined
 * @param block - a block that is the same for many texts (its inertness is remembered)
 * @param tail - the sections after the block, joined
 * @param serverParams - the flat `{ KEY: value }` object of the host
 * @returns `{ text, redactions, errors }` equal to {@link Redact.text} of the joined text, or `null`.
 * @example
 * redactAroundInert('# Head', '## Block', '## Tail\n', {})
 * // { text: '# Head\n\n## Block\n\n## Tail\n', redactions: [], errors: [] }
 */
export function redactAroundInert(
    head: string,
    block: string,
    tail: string,
    serverParams: unknown
): { text: string; redactions: Redaction[]; errors: Issue[] } | null {
    const { params, errors } = checkParams(serverParams)
    if (errors.length > 0) return null
    const redactions: Redaction[] = []
    const text = aroundInert(head, block, tail, params, '', redactions)
    return text === null ? null : { text, redactions, errors }
}

/**
 * Redacts a text made of `head`, a `block` shared by many texts (an output schema, the catalogue's
 * questions) and `tail`, joined by {@link SECTION_JOINER}: the result is the redaction of the joined
 * text, byte for byte, with an inert block scanned once per distinct text instead of once per prompt.
 * @param head - the sections before the block, joined
 * @param block - the shared block
 * @param tail - the sections after the block, joined
 * @param serverParams - the flat `{ KEY: value }` object of the host
 * @returns `{ text, redactions, errors }` as {@link Redact.text} returns them for the joined text (PB-002 for a bad
 *   parameter).
 * @example
 * redactSections('# Head', '## Block', 'Bearer abcdefgh1234\n', {}).text // '# Head\n\n## Block\n\nBearer [redacted]\n'
 */
export function redactSections(
    head: string,
    block: string,
    tail: string,
    serverParams: unknown
): { text: string | null; redactions: Redaction[]; errors: Issue[] } {
    const { params, errors } = checkParams(serverParams)
    if (errors.length > 0) return { text: null, redactions: [], errors }
    const redactions: Redaction[] = []
    const fast = aroundInert(head, block, tail, params, '', redactions)
    return {
        text: fast ?? redactString(head + SECTION_JOINER + block + SECTION_JOINER + tail, params, '', redactions),
        redactions,
        errors
    }
}

function redactNode(value: unknown, params: Params, path: string, inHeaders: boolean, out: Redaction[]): unknown {
    if (typeof value === 'string') return redactString(value, params, path, out)
    if (Array.isArray(value)) return value.map((v, i) => redactNode(v, params, path + pointer(i), inHeaders, out))
    if (value === null || typeof value !== 'object') return value
    const obj = value as Record<string, unknown>
    // A `{ key: 'apikey', value: '...' }` pair (a FlowMCP parameter position) names its secret in a sibling.
    const pairName = typeof obj.key === 'string' ? obj.key : typeof obj.name === 'string' ? obj.name : null
    const pairSecret = pairName !== null && isSecretName(pairName, inHeaders)
    return Object.fromEntries(
        Object.entries(obj).map(([k, v]) => {
            const at = path + pointer(k)
            const secretField = isSecretName(k, inHeaders) || (pairSecret && k === 'value')
            if (secretField && typeof v === 'string' && !keepsValue(v)) {
                out.push({ path: at, kind: 'secret-field' })
                return [k, REDACTED]
            }
            return [k, redactNode(v, params, at, inHeaders || normalise(k) === 'headers', out)]
        })
    )
}

function checkParams(serverParams: unknown): { params: Params; errors: Issue[] } {
    if (serverParams === undefined) return { params: [], errors: [] }
    const shape = parseArgs(PARAMS, serverParams, REDACT_ARGS, { at: ['serverParams'] })
    if (shape.value === null) return { params: [], errors: shape.errors }
    const errors: Issue[] = []
    const params: Array<[string, string]> = []
    // Each own key in turn (Object.entries, `constructor` and `__proto__` too), where a record schema would skip some.
    for (const [key, value] of Object.entries(shape.value)) {
        if (typeof value !== 'string')
            errors.push(...parseArgs(PARAM_VALUE, value, REDACT_ARGS, { at: ['serverParams', key] }).errors)
        else if (value.length >= MIN_SECRET_LENGTH) params.push([key, value])
    }
    // Longest first, so a value that contains another is replaced whole.
    params.sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    return { params, errors }
}

/**
 * Keeps secrets out of prompts and emitted files (04 ⚠ D9): values of loaded server parameters,
 * credentials in secret-named fields, headers and URLs, and common key shapes are replaced by
 * `[redacted]` (`[redacted:<KEY>]` for a server parameter, so only the key name appears). Pure;
 * reused by every prompt builder and by the end-to-end grading code.
 */
class RedactUnguarded {
    private constructor() {}

    /**
     * Redacts one text.
     * @param input - `{ text, serverParams? }` with `serverParams` the flat `{ KEY: value }` object the host loaded
     * @returns `{ text, redactions, errors }`; PB-001 when `text` is missing, PB-002 for a non-string text or parameter
     *   value.
     * @example
     * Redact.text({ text: 'https://x.io/?apikey=abc123def456', serverParams: {} }).text
     * // 'https://x.io/?apikey=[redacted]'
     */
    static text(input: { text?: unknown; serverParams?: unknown }): {
        text: string | null
        redactions: Redaction[]
        errors: Issue[]
    } {
        const { value: text, errors: textErrors } = parseArgs(TEXT, input?.text, REDACT_ARGS, {
            actual: 'type',
            at: ['text']
        })
        if (text === null) return { text: null, redactions: [], errors: textErrors }
        const { params, errors } = checkParams(input.serverParams)
        if (errors.length > 0) return { text: null, redactions: [], errors }
        const redactions: Redaction[] = []
        return { text: redactString(text, params, '', redactions), redactions, errors }
    }

    /**
     * Redacts every string of a plain JSON value (keys are kept). Secret-named fields lose their value
     * unless it is only a `{{PLACEHOLDER}}`.
     * @param input - `{ value, serverParams?, limits? }`
     * @returns `{ value, redactions, errors }`; INP-* when `value` is not plain JSON, PB-002 for bad parameters.
     * @example
     * Redact.value({ value: { headers: { 'X-API-Key': 'abc123' } } }).value
     * // { headers: { 'X-API-Key': '[redacted]' } }
     */
    static value(input: { value?: unknown; serverParams?: unknown; limits?: Partial<JsonLimits> }): {
        value: unknown
        redactions: Redaction[]
        errors: Issue[]
    } {
        const guard = inspectJson(input?.value, resolveLimits(input?.limits), '/value')
        if (input?.value === undefined)
            return { value: null, redactions: [], errors: [createIssue('PB-001', '/value', { field: 'value' })] }
        if (guard.length > 0) return { value: null, redactions: [], errors: guard }
        const { params, errors } = checkParams(input.serverParams)
        if (errors.length > 0) return { value: null, redactions: [], errors }
        const redactions: Redaction[] = []
        return { value: redactNode(input.value, params, '', false, redactions), redactions, errors }
    }

    /**
     * Scans a text without changing it, for a writer that must abort on any hit.
     * @param input - `{ text, serverParams? }`
     * @returns `{ clean, hits, errors }`; the codes of {@link Redact.text}.
     * @example Redact.scan({ text: prompt, serverParams }).clean
     */
    static scan(input: { text?: unknown; serverParams?: unknown }): {
        clean: boolean
        hits: Redaction[]
        errors: Issue[]
    } {
        const { redactions, errors } = Redact.text(input)
        return { clean: errors.length === 0 && redactions.length === 0, hits: redactions, errors }
    }
}

/**
 * The public Redact: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Redact = /* @__PURE__ */ guardStatics(RedactUnguarded, 'Redact')

/** Internal helper: redacts a value already known to be plain JSON, with checked parameters. */
export function redactTrusted(
    value: unknown,
    serverParams: unknown
): { value: unknown; redactions: Redaction[]; errors: Issue[] } {
    const { params, errors } = checkParams(serverParams)
    if (errors.length > 0) return { value: null, redactions: [], errors }
    const redactions: Redaction[] = []
    return { value: redactNode(value, params, '', false, redactions), redactions, errors }
}

/** Summary of redactions for a warning message: kinds and paths, never values. */
export function describeRedactions(redactions: readonly Redaction[]): string {
    const parts = redactions
        .slice(0, 5)
        .map((r) => `${r.kind}${r.key !== undefined ? ` ${r.key}` : ''}${r.path !== '' ? ` at ${r.path}` : ''}`)
    return redactions.length > 5 ? `${parts.join('; ')}; and ${redactions.length - 5} more` : parts.join('; ')
}

/** The mark that replaces a host-given secret value. */
export const SECRET_MARK = '[redacted]'

/**
 * Every spelling of the host-given values a text may carry ({@link wireForms}: raw, percent-encoded by each encoder a
 * request meets and once more, form-encoded, JSON- and HTML-escaped), longest first (so a longer value is never left
 * half-replaced by a shorter one). Values shorter than {@link MIN_SECRET_LENGTH} are not secrets worth erasing
 * everywhere, nor is a `{{SERVER_PARAM:KEY}}` placeholder (what a replay without keys gives).
 */
export function secretForms(serverParams: unknown, minLength: number = MIN_SECRET_LENGTH): string[] {
    return [...new Set(keyForms(serverParams, minLength).map((f) => f.form))]
}

/** Replaces every form of every secret in a text; cut texts only after this. */
export function redactSecretText(text: string, forms: readonly string[]): string {
    let out = text
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(SECRET_MARK)
    return out
}

/**
 * Replaces every secret in every string and key of a plain value (a result, an entry, a reply):
 * the last line of defence before anything leaves the library or reaches a file. Other values are
 * returned as they are.
 */
export function redactSecretsDeep<T>(value: T, forms: readonly string[], maxDepth: number = 200): T {
    if (forms.length === 0) return value
    const walk = (v: unknown, depth: number): unknown => {
        if (typeof v === 'string') return redactSecretText(v, forms)
        if (depth > maxDepth || v === null || typeof v !== 'object') return v
        if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1))
        if (!isPlainObject(v)) return v
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactSecretText(k, forms), walk(x, depth + 1)]))
    }
    return walk(value, 0) as T
}

// A credential header written out in a message (`Authorization: abc…`, `x-api-key=abc…`); a scheme
// (`Bearer …`) is left to the auth-header pass, which keeps the scheme's name.
const HEADER_LINE = rx(
    'gi'
)`\b((?:proxy-)?authorization|x-api-key|api-key)(\s*[:=]\s*"?)(?!(?:Bearer|Basic|Token)\s)(?!\[redacted)
        ([^\s"',;]{8,})`
// The passes a free-form message gets: every credential shape, but not the bare-hex one (a message
// quotes content hashes, which look like it).
const MESSAGE_PASSES: readonly Pass[] = [
    ...PASSES.filter((p) => p.re !== KEY_SHAPES[KEY_SHAPES.length - 1]),
    {
        re: HEADER_LINE,
        kind: 'auth-header',
        fn: (_w, name, sep, value) => (keepsValue(value as string) ? null : `${name}${sep}${REDACTED}`),
        hint: (t) => /authorization|api-key/i.test(t),
        spans: null
    }
]

/**
 * Redacts a message the library or the CLI writes (an issue's text, a judge's error or stderr, a log
 * line): every form of the run's own secret values (see {@link secretForms}), then the common
 * credential shapes (`sk-…`, `Bearer …`, `Authorization:` headers, keys in URL query strings, AWS-style
 * keys, `"apiKey": "…"`). Content hashes are left as they are. Pure; never throws on a string.
 */
export function redactMessage(text: string, forms: readonly string[] = []): string {
    let out = redactSecretText(text, forms)
    const ignored: Redaction[] = []
    for (const pass of MESSAGE_PASSES)
        if (pass.hint === undefined || pass.hint(out)) out = replacePass(out, pass, '', ignored)
    return out
}
