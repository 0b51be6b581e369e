// The one place that decides how a secret value can be spelled once it has been on the wire or in a file: raw,
// percent-encoded by each encoder a request goes through (encodeURIComponent, encodeURI, HTML forms and
// URLSearchParams, RFC 3986, the WHATWG URL parser's path, query and userinfo sets), each of those percent-encoded
// once more, with upper- or lower-case hex, JSON-escaped (also ASCII-only and with `\/`) and HTML-escaped. Every
// writer that keeps a request, a response, a message or a file asks here (docs/security.md lists the forms).

/** Which characters an encoder leaves as they are; `plus`: a space becomes `+` (form encoding). */
interface Encoder {
    readonly keep: (c: string) => boolean
    readonly plus?: boolean
}

const isAlnum = (c: string): boolean => /^[A-Za-z0-9]$/.test(c)
/** Printable ASCII other than the space: what the WHATWG URL sets start from (C0 controls, space and DEL go). */
const isVisibleAscii = (c: string): boolean => c > ' ' && c < '\u007f'

const COMPONENT: Encoder = { keep: (c) => isAlnum(c) || "-_.!~*'()".includes(c) }
const ENCODERS: readonly Encoder[] = [
    // encodeURIComponent
    COMPONENT,
    // application/x-www-form-urlencoded, as URLSearchParams and HTML forms write it
    { keep: (c) => isAlnum(c) || '*-._'.includes(c), plus: true },
    // RFC 3986 unreserved only (what strict clients and signers write)
    { keep: (c) => isAlnum(c) || '-._~'.includes(c) },
    // encodeURI
    { keep: (c) => COMPONENT.keep(c) || ';,/?:@&=+$#'.includes(c) },
    // the WHATWG URL parser: path, query and userinfo percent-encode sets
    { keep: (c) => isVisibleAscii(c) && !'"#<>?`{}'.includes(c) },
    { keep: (c) => isVisibleAscii(c) && !'"#<>\''.includes(c) },
    { keep: (c) => isVisibleAscii(c) && !'"#<>?`{}/:;=@[\\]^|'.includes(c) }
]
// What a percent-encoded form is encoded with once more (a URL put into a query, a redirect target).
const SECOND_LEVEL: readonly Encoder[] = [COMPONENT, ENCODERS[1] as Encoder]

function hex(code: number): string {
    return `%${code.toString(16).toUpperCase().padStart(2, '0')}`
}

/** The UTF-8 percent-encoding of one code point; a lone surrogate is sent as U+FFFD, as a URL parser sends it. */
function percentOf(codePoint: string): string {
    if (codePoint.length === 1 && codePoint < '\u0080') return hex(codePoint.charCodeAt(0))
    try {
        return encodeURIComponent(codePoint)
    } catch {
        return '%EF%BF%BD'
    }
}

function percentEncode(value: string, encoder: Encoder): string {
    let out = ''
    for (const c of value) {
        if (encoder.plus === true && c === ' ') out += '+'
        else out += c.length === 1 && encoder.keep(c) ? c : percentOf(c)
    }
    return out
}

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())

/** JSON string bodies: as JSON.stringify writes it, ASCII-only (`\uXXXX`, as Python and others write it), `\/`. */
function jsonForms(value: string): string[] {
    const plain = JSON.stringify(value).slice(1, -1)
    const ascii = plain.replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    return [plain, ascii, ascii.replace(/\\u([0-9a-f]{4})/g, (_w, h: string) => `\\u${h.toUpperCase()}`)].flatMap(
        (f) => [f, f.replace(/\//g, '\\/')]
    )
}

const HTML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function htmlForms(value: string): string[] {
    const escaped = value.replace(/[&<>"']/g, (c) => HTML[c] as string)
    return [escaped, escaped.replace(/&#39;/g, '&#x27;')]
}

/**
 * Every spelling of `value` that a request, a response, a message or a file may carry (see the module comment),
 * distinct, longest first: replacing them in this order never leaves a longer spelling half-replaced by a shorter one.
 * @example wireForms('a b!') // includes 'a b!', 'a%20b!', 'a+b%21', 'a%2520b!', …
 */
export function wireForms(value: string): string[] {
    const forms = new Set<string>([value, ...jsonForms(value), ...htmlForms(value)])
    for (const encoder of ENCODERS) {
        const once = percentEncode(value, encoder)
        const twice = SECOND_LEVEL.map((again) => percentEncode(once, again))
        for (const form of [once, ...twice]) forms.add(form).add(lowerHex(form))
    }
    forms.delete('')
    return [...forms].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
}

/** A server-param placeholder, what recordings and request records hold instead of a key. */
export const KEY_PLACEHOLDER = /^\{\{SERVER_PARAM:[A-Za-z0-9_]+\}\}$/

/** One spelling of one server parameter's value. */
export interface KeyForm {
    readonly name: string
    readonly form: string
}

/**
 * The value, and the value as the runtime puts it into its placeholder: `String#replace` reads `$$` and `$&` in a
 * replacement (a key holding them is sent rewritten, and the pretest sends what the runtime sends).
 */
function sentValues(name: string, value: string): Set<string> {
    const placeholders = [`{{${name}}}`, `{{SERVER_PARAM:${name}}}`]
    return new Set([value, ...placeholders.map((p) => p.replace(p, value))])
}

/**
 * Every spelling of every server-param value of at least `minLength` characters, longest first across all
 * parameters (a key that contains another is replaced whole). A `{{SERVER_PARAM:KEY}}` value (what a replay
 * without keys is given) is no secret and has no forms.
 */
export function keyForms(serverParams: unknown, minLength = 1): KeyForm[] {
    if (serverParams === null || typeof serverParams !== 'object') return []
    const out: KeyForm[] = []
    for (const [name, value] of Object.entries(serverParams as Record<string, unknown>)) {
        if (typeof value !== 'string' || value.length === 0 || value.length < minLength) continue
        if (KEY_PLACEHOLDER.test(value)) continue
        for (const sent of sentValues(name, value)) for (const form of wireForms(sent)) out.push({ name, form })
    }
    return out.sort((a, b) => b.form.length - a.form.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** `text` with every spelling of a key written as its `{{SERVER_PARAM:<KEY>}}` placeholder, as recordings hold it. */
export function maskKeyForms(text: string, forms: readonly KeyForm[]): string {
    let out = text
    for (const { name, form } of forms) if (out.includes(form)) out = out.split(form).join(`{{SERVER_PARAM:${name}}}`)
    // A placeholder sent as the value (a replay without the key) reads as recordings write it, not percent-encoded.
    return out.replace(/%7B%7BSERVER_PARAM%3A([A-Za-z0-9_]+)%7D%7D/gi, '{{SERVER_PARAM:$1}}')
}

/** The parameter whose value `text` spells exactly, in any of its forms; `undefined` when none. */
export function keyNameOf(text: string, forms: readonly KeyForm[]): string | undefined {
    return forms.find((f) => f.form === text)?.name
}
