import type { HttpPort, HttpRequest, HttpResponse } from './types.js'
import { isObject } from '../model/object.js'

/** One recorded exchange. Server-parameter values are stored as `{{SERVER_PARAM:KEY}}`, never as values. */
export interface RecordedExchange {
    /**
     * `body`: the request body as sent (a POST's JSON-RPC call or GraphQL query), keys as placeholders; omitted for
     * none.
     */
    readonly request: {
        readonly method: string
        readonly path: string
        readonly query?: Readonly<Record<string, string>>
        readonly body?: string
    }
    readonly response: {
        readonly status: number
        readonly headers?: Readonly<Record<string, string>>
        readonly body: string
    }
}

/** A recording of one API host. */
export interface Recording {
    readonly host: string
    /** When the exchanges were recorded (ISO 8601); informative, replay does not read it. */
    readonly recordedAt?: string
    readonly exchanges: readonly RecordedExchange[]
}

const PLACEHOLDER = /^\{\{SERVER_PARAM:[A-Za-z0-9_]+\}\}$/
/** A server-param placeholder inside a recorded path (a key carried in a path segment). */
const PATH_PLACEHOLDER = /\{\{SERVER_PARAM:[A-Za-z0-9_]+\}\}/g
const HAS_PLACEHOLDER = /\{\{SERVER_PARAM:[A-Za-z0-9_]+\}\}/

/**
 * A query value a handler computed from its clock (`fromDate = now - 7 days`), as a recording
 * writes it: replay matches any value of a clock's form there (an ISO 8601 date-time, Unix seconds
 * or milliseconds), since a replay runs at another time than the recording.
 */
export const TIME_PLACEHOLDER = '{{TIME}}'

/** An ISO 8601 date-time with a time of day, Unix seconds (10 digits) or milliseconds (13 digits). */
const CLOCK_FORM = /^(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})|\d{10}|\d{13})$/

/** Five years, in milliseconds: how far from the recording a value may be to count as read from the clock. */
const CLOCK_WINDOW_MS = 5 * 365 * 24 * 3600 * 1000

/**
 * Whether a query value looks read from a clock near `recordedAt` (what a recording writes as {@link
 * TIME_PLACEHOLDER}).
 */
export function isClockValue(value: string, recordedAt: string): boolean {
    if (!CLOCK_FORM.test(value)) return false
    const at = Date.parse(recordedAt)
    const ms = /^\d{10}$/.test(value)
        ? Number(value) * 1000
        : /^\d{13}$/.test(value)
          ? Number(value)
          : Date.parse(value)
    return Number.isFinite(at) && Number.isFinite(ms) && Math.abs(ms - at) <= CLOCK_WINDOW_MS
}

/** The `error` of the 404 a replay answers for a request no recording holds. */
export const NO_RECORDING = 'no recorded response for this request'

/** A query name or value: percent-decoded, `+` as a space (form encoding, as URLSearchParams writes it). */
function decodeQueryPart(text: string): string {
    try {
        return decodeURIComponent(text.replace(/\+/g, ' '))
    } catch {
        return text
    }
}

/** A path: percent-decoded only; a `+` in a path is a plus sign (RFC 3986), never a space. */
export function decodePath(text: string): string {
    try {
        return decodeURIComponent(text)
    } catch {
        return text
    }
}

/** The query of a URL as decoded pairs (the last value of a repeated name wins). */
export function queryPairs(search: string): Array<[string, string]> {
    return search
        .split('&')
        .filter((pair) => pair.length > 0)
        .map((pair): [string, string] => {
            const at = pair.indexOf('=')
            return at < 0
                ? [decodeQueryPart(pair), '']
                : [decodeQueryPart(pair.slice(0, at)), decodeQueryPart(pair.slice(at + 1))]
        })
}

function sameQuery(recorded: Readonly<Record<string, string>>, actual: ReadonlyMap<string, string>): boolean {
    const keys = Object.keys(recorded)
    if (keys.length !== actual.size) return false
    // A recorded server-param placeholder stands for whatever key the live request carries.
    // A recorded clock value stands for any value of a clock's form.
    return keys.every(
        (k) =>
            actual.has(k) &&
            (PLACEHOLDER.test(recorded[k] as string) ||
                recorded[k] === actual.get(k) ||
                (recorded[k] === TIME_PLACEHOLDER && CLOCK_FORM.test(actual.get(k) as string)))
    )
}

/** Parsed JSON, or `undefined` for text that is not JSON. */
function jsonOf(text: string): unknown {
    try {
        return JSON.parse(text) as unknown
    } catch {
        return undefined
    }
}

/** JSON values equal, a recorded placeholder string standing for any string (a key the request carries). */
function sameJson(recorded: unknown, actual: unknown): boolean {
    if (typeof recorded === 'string')
        return (
            recorded === actual ||
            (typeof actual === 'string' &&
                HAS_PLACEHOLDER.test(recorded) &&
                placeholderPattern(recorded, '[\\s\\S]*').test(actual))
        )
    if (recorded === null || typeof recorded !== 'object') return recorded === actual
    if (actual === null || typeof actual !== 'object' || Array.isArray(recorded) !== Array.isArray(actual)) return false
    const r = recorded as Record<string, unknown>
    const a = actual as Record<string, unknown>
    const keys = Object.keys(r)
    return keys.length === Object.keys(a).length && keys.every((k) => Object.hasOwn(a, k) && sameJson(r[k], a[k]))
}

/**
 * Whether a request's body matches a recorded one. An exchange recorded without a body matches any
 * (recordings written before bodies were kept). JSON is compared as JSON, a JSON-RPC call's `id`
 * aside (a client numbers its calls in the order they happen to run); other text literally, a
 * placeholder in it standing for any text.
 */
function sameBody(recorded: string | undefined, actual: string | undefined): boolean {
    if (recorded === undefined) return true
    if (actual === undefined) return recorded.length === 0
    const r = jsonOf(recorded)
    const a = jsonOf(actual)
    if (r !== undefined && a !== undefined) {
        const rpc = (v: unknown): unknown =>
            isObject(v) && 'jsonrpc' in v
                ? { ...(v as Record<string, unknown>), id: null }
                : Array.isArray(v)
                  ? v.map(rpc)
                  : v
        return sameJson(rpc(r), rpc(a))
    }
    return HAS_PLACEHOLDER.test(recorded) ? placeholderPattern(recorded, '[\\s\\S]*').test(actual) : recorded === actual
}

/**
 * Whether a response is the 404 {@link httpPortFromRecordings} answers for a request its
 * recordings lack (not a 404 the API itself answered and that was recorded).
 */
export function isMissingRecording(response: { readonly status: number; readonly body: string }): boolean {
    try {
        if (response?.status !== 404 || typeof response.body !== 'string' || !response.body.includes(NO_RECORDING))
            return false
        return (JSON.parse(response.body) as { error?: unknown }).error === NO_RECORDING
    } catch {
        return false
    }
}

/**
 * A recorded text with placeholders as a pattern: each placeholder matches `gap` (any text of a path segment, of a
 * body).
 */
function placeholderPattern(text: string, gap: string): RegExp {
    const parts = text.split(PATH_PLACEHOLDER).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    return new RegExp(`^${parts.join(gap)}$`)
}

/**
 * An {@link HttpPort} that answers from recordings, for offline and reproducible grading. Requests match on method,
 * origin, path, query (in any order) and, where one was recorded, the body (JSON as JSON, a JSON-RPC `id` aside).
 * Recordings hold no key: a recorded `{{SERVER_PARAM:KEY}}` query value, or one inside a path, matches any value, so
 * the port never needs a secret; a `{{TIME}}` query value matches any date-time or Unix time. An unrecorded request
 * gets a 404 whose body says so and names the request (`{"error":"no recorded response for this request","request":"GET
 * https://…"}`, see {@link isMissingRecording}).
 * @param input - `{ recordings }`
 * @returns an {@link HttpPort}
 * @example const http = httpPortFromRecordings({ recordings: [JSON.parse(text)] })
 */
export function httpPortFromRecordings(input: { recordings: readonly Recording[] }): HttpPort {
    const byRoute = new Map<string, RecordedExchange[]>()
    const patterns: Array<{ readonly prefix: string; readonly path: RegExp; readonly exchange: RecordedExchange }> = []
    // Unreadable recordings answer nothing (every request then gets the port's 404), never a throw.
    try {
        for (const recording of input?.recordings ?? []) {
            const origin = String(recording?.host ?? '').replace(/\/+$/, '')
            for (const exchange of recording?.exchanges ?? []) {
                const prefix = `${exchange.request.method.toUpperCase()} ${origin}`
                if (HAS_PLACEHOLDER.test(exchange.request.path))
                    patterns.push({ prefix, path: placeholderPattern(exchange.request.path, '[^/]*'), exchange })
                const route = `${prefix}${exchange.request.path}`
                byRoute.set(route, [...(byRoute.get(route) ?? []), exchange])
            }
        }
    } catch {
        byRoute.clear()
        patterns.length = 0
    }
    return {
        async send(request: HttpRequest): Promise<HttpResponse> {
            const match = /^(https?:\/\/[^/?#]+)([^?#]*)(?:\?([^#]*))?/.exec(request.url)
            if (match === null) return { status: 400, headers: {}, body: '{"error":"not an http(s) URL"}' }
            const query = new Map(queryPairs(match[3] ?? ''))
            const method = request.method.toUpperCase()
            const prefix = `${method} ${match[1] as string}`
            const rawPath = match[2] || '/'
            const path = decodePath(rawPath)
            const candidates = [
                ...(byRoute.get(`${prefix}${path}`) ?? []),
                // Recordings written before paths kept their `+`: the space they decoded it to still matches.
                ...(rawPath.includes('+') ? (byRoute.get(`${prefix}${decodeQueryPart(rawPath)}`) ?? []) : []),
                ...patterns.filter((p) => p.prefix === prefix && p.path.test(path)).map((p) => p.exchange)
            ]
            const hit = candidates.find(
                (c) => sameQuery(c.request.query ?? {}, query) && sameBody(c.request.body, request.body)
            )
            if (hit === undefined)
                return {
                    status: 404,
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({
                        error: NO_RECORDING,
                        request: `${method} ${match[1] as string}${rawPath}${match[3] !== undefined ? `?${match[3]}` : ''}`
                    })
                }
            return {
                status: hit.response.status,
                headers: { ...(hit.response.headers ?? {}) },
                body: hit.response.body
            }
        }
    }
}
