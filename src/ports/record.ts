import { redactSecretText, secretForms } from '../prompts/redact.js'
import { keyForms, keyNameOf, maskKeyForms } from '../prompts/secret-forms.js'
import {
    decodePath,
    isClockValue,
    queryPairs,
    TIME_PLACEHOLDER,
    type RecordedExchange,
    type Recording
} from './replay.js'
import type { HttpPort, HttpRequest, HttpResponse } from './types.js'
import { definedFields } from '../model/fields.js'

/** The response headers a recording keeps: what a reader of the body needs, never a cookie or a token. */
const KEPT_HEADERS = ['content-type']

/**
 * A URL split as a recording keys it: origin, path (percent-decoded, `+` kept), and the query as an object (last value
 * of a repeated name wins, as replay reads it).
 */
function split(url: string): { host: string; path: string; query: Record<string, string> } | null {
    const match = /^(https?:\/\/[^/?#]+)([^?#]*)(?:\?([^#]*))?/.exec(url)
    if (match === null) return null
    return {
        host: match[1] as string,
        path: decodePath(match[2] || '/'),
        query: Object.fromEntries(queryPairs(match[3] ?? ''))
    }
}

/** The options, read once: a hostile or missing object gives a port whose every request rejects with the reason. */
function readInput(input: unknown): {
    http: HttpPort | null
    params: Array<[string, string]>
    recordedAt: string | null
    problem: string
} {
    try {
        const o = (input !== null && typeof input === 'object' ? input : {}) as Record<string, unknown>
        const http =
            o.http !== null && typeof o.http === 'object' && typeof (o.http as { send?: unknown }).send === 'function'
                ? (o.http as HttpPort)
                : null
        const given =
            o.serverParams !== null && typeof o.serverParams === 'object'
                ? (o.serverParams as Record<string, unknown>)
                : {}
        const params = Object.entries(given).filter(
            (e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0
        )
        return {
            http,
            params,
            recordedAt: typeof o.recordedAt === 'string' ? o.recordedAt : null,
            problem: 'recordingHttpPort needs { http }: the HttpPort that answers'
        }
    } catch (cause) {
        return {
            http: null,
            params: [],
            recordedAt: null,
            problem: `the options of recordingHttpPort could not be read: ${cause instanceof Error ? cause.message : String(cause)}`
        }
    }
}

/**
 * An {@link HttpPort} that answers through `http` and keeps every exchange, ready to be written as
 * the recordings `httpPortFromRecordings` replays (docs/recordings.md): one recording per host, the
 * first answer to each request. A query value equal to a server param, or the param's value in the
 * path, becomes `{{SERVER_PARAM:<KEY>}}` (replay matches any value there); the param's value
 * anywhere else (a response body) becomes `[redacted]`, so a recording never holds a key. A request
 * body is kept (a key in it as its placeholder): replay tells calls to one URL apart by it. With `recordedAt`, a
 * query value that reads as a clock within five years of it becomes `{{TIME}}`. Only `content-type` of the
 * response headers is kept. Pure: the host writes `recordings()` where it wants (one JSON file per
 * recording). `grade --live --record` uses it, for plain requests and the runtime child's alike.
 * @param input - `{ http, serverParams?, recordedAt? }`
 * @returns the recording port and `recordings()`, what it kept so far
 * @example const recorder = recordingHttpPort({ http: httpPortFromFetch(fetch), serverParams: { KEY: key } })
 */
export function recordingHttpPort(input: {
    http: HttpPort
    serverParams?: Readonly<Record<string, string>>
    recordedAt?: string
}): { port: HttpPort; recordings: () => Recording[] } {
    const read = readInput(input)
    const { http, params, recordedAt } = read
    const forms = secretForms(Object.fromEntries(params))
    // Every spelling of a key (raw, percent-, form- or twice-encoded) is written as its placeholder; in a path or a
    // body only a value long enough not to match ordinary text by chance (8 characters).
    const named = keyForms(Object.fromEntries(params))
    const namedLong = keyForms(Object.fromEntries(params), 8)
    const byHost = new Map<string, { exchanges: RecordedExchange[]; seen: Set<string> }>()
    const keep = (request: HttpRequest, response: HttpResponse): void => {
        // The URL as sent, every spelling of a key written as its placeholder before it is split: a key sent raw (as
        // the runtime inserts it into a path template) may hold `+`, `&` or `=`, which splitting would tear apart.
        const parts = split(maskKeyForms(request.url, namedLong))
        if (parts === null) return
        const placeholder = (v: string): string => {
            const name = keyNameOf(v, named)
            if (name !== undefined) return `{{SERVER_PARAM:${name}}}`
            // A value read from the handler's clock differs in every run: kept as the time placeholder.
            return recordedAt !== null && isClockValue(v, recordedAt) ? TIME_PLACEHOLDER : redactSecretText(v, forms)
        }
        const query = Object.fromEntries(Object.entries(parts.query).map(([k, v]) => [k, placeholder(v)]))
        const method = request.method.toUpperCase()
        // A key in a path segment is written as its placeholder, which replay matches with any value there.
        const path = redactSecretText(parts.path, forms)
        const slot = byHost.get(parts.host) ?? { exchanges: [], seen: new Set<string>() }
        // A body (a JSON-RPC call, a GraphQL query) tells requests to one URL apart: kept, each key as its placeholder.
        const body =
            typeof request.body === 'string' && request.body.length > 0
                ? redactSecretText(maskKeyForms(request.body, namedLong), forms)
                : undefined
        const key = JSON.stringify([method, path, Object.entries(query).sort(), body ?? null])
        if (slot.seen.has(key)) return
        slot.seen.add(key)
        const headers = Object.fromEntries(
            Object.entries(response.headers).filter(([k]) => KEPT_HEADERS.includes(k.toLowerCase()))
        )
        slot.exchanges.push({
            request: {
                method,
                path,
                ...(Object.keys(query).length > 0 ? { query } : {}),
                ...definedFields({ body })
            },
            response: {
                status: response.status,
                ...(Object.keys(headers).length > 0 ? { headers } : {}),
                body: redactSecretText(response.body, forms)
            }
        })
        byHost.set(parts.host, slot)
    }
    return {
        port: {
            async send(request) {
                if (http === null) throw new Error(read.problem)
                const response = await http.send(request)
                keep(request, response)
                return response
            }
        },
        recordings: () =>
            [...byHost.entries()]
                .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
                .map(([host, slot]) => ({
                    host,
                    ...(recordedAt !== null ? { recordedAt } : {}),
                    exchanges: slot.exchanges
                }))
    }
}
