import { redactSecretText, secretForms } from '../prompts/redact.js'
import type { RecordedExchange, Recording } from './replay.js'
import type { HttpPort, HttpRequest, HttpResponse } from './types.js'

/** The response headers a recording keeps: what a reader of the body needs, never a cookie or a token. */
const KEPT_HEADERS = ['content-type']

/** A URL split as a recording keys it: origin, path, and the query as an object (last value of a repeated name wins, as replay reads it). */
function split(url: string): { host: string; path: string; query: Record<string, string> } | null {
    const match = /^(https?:\/\/[^/?#]+)([^?#]*)(?:\?([^#]*))?/.exec(url)
    if (match === null) return null
    const decode = (text: string): string => {
        try {
            return decodeURIComponent(text.replace(/\+/g, ' '))
        } catch {
            return text
        }
    }
    const pairs = (match[3] ?? '')
        .split('&')
        .filter((pair) => pair.length > 0)
        .map((pair): [string, string] => {
            const at = pair.indexOf('=')
            return at < 0 ? [decode(pair), ''] : [decode(pair.slice(0, at)), decode(pair.slice(at + 1))]
        })
    return { host: match[1] as string, path: decode(match[2] || '/'), query: Object.fromEntries(pairs) }
}

/**
 * An {@link HttpPort} that answers through `http` and keeps every exchange, ready to be written as
 * the recordings `httpPortFromRecordings` replays (docs/recordings.md): one recording per host, the
 * first answer to each request. A query value equal to a server param becomes
 * `{{SERVER_PARAM:<KEY>}}` (replay matches any value there); the param's value anywhere else (a
 * path, a body) becomes `[redacted]`, so a recording never holds a key. Only `content-type` of the
 * response headers is kept. Pure: the host writes `recordings()` where it wants.
 */
export function recordingHttpPort(input: { http: HttpPort; serverParams?: Readonly<Record<string, string>>; recordedAt?: string }): { port: HttpPort; recordings: () => Recording[] } {
    const params = Object.entries(input.serverParams ?? {}).filter(([, v]) => typeof v === 'string' && v.length > 0)
    const forms = secretForms(Object.fromEntries(params))
    const byHost = new Map<string, { exchanges: RecordedExchange[]; seen: Set<string> }>()
    const keep = (request: HttpRequest, response: HttpResponse): void => {
        const parts = split(request.url)
        if (parts === null) return
        const placeholder = (v: string): string => {
            const name = params.find(([, value]) => value === v)?.[0]
            return name !== undefined ? `{{SERVER_PARAM:${name}}}` : redactSecretText(v, forms)
        }
        const query = Object.fromEntries(Object.entries(parts.query).map(([k, v]) => [k, placeholder(v)]))
        const method = request.method.toUpperCase()
        const path = redactSecretText(parts.path, forms)
        const slot = byHost.get(parts.host) ?? { exchanges: [], seen: new Set<string>() }
        const key = JSON.stringify([method, path, Object.entries(query).sort()])
        if (slot.seen.has(key)) return
        slot.seen.add(key)
        const headers = Object.fromEntries(Object.entries(response.headers).filter(([k]) => KEPT_HEADERS.includes(k.toLowerCase())))
        slot.exchanges.push({ request: { method, path, ...(Object.keys(query).length > 0 ? { query } : {}) }, response: { status: response.status, ...(Object.keys(headers).length > 0 ? { headers } : {}), body: redactSecretText(response.body, forms) } })
        byHost.set(parts.host, slot)
    }
    return {
        port: {
            async send(request) {
                const response = await input.http.send(request)
                keep(request, response)
                return response
            }
        },
        recordings: () => [...byHost.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([host, slot]) => ({ host, ...(input.recordedAt !== undefined ? { recordedAt: input.recordedAt } : {}), exchanges: slot.exchanges }))
    }
}
