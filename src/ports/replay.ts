import type { HttpPort, HttpRequest, HttpResponse } from './types.js'

/** One recorded exchange. Server-parameter values are stored as `{{SERVER_PARAM:KEY}}`, never as values. */
export interface RecordedExchange {
    readonly request: { readonly method: string; readonly path: string; readonly query?: Readonly<Record<string, string>> }
    readonly response: { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body: string }
}

/** A recording of one API host. */
export interface Recording {
    readonly host: string
    /** When the exchanges were recorded (ISO 8601); informative, replay does not read it. */
    readonly recordedAt?: string
    readonly exchanges: readonly RecordedExchange[]
}

const PLACEHOLDER = /^\{\{SERVER_PARAM:[A-Za-z0-9_]+\}\}$/

function decode(text: string): string {
    try {
        return decodeURIComponent(text.replace(/\+/g, ' '))
    } catch {
        return text
    }
}

function sameQuery(recorded: Readonly<Record<string, string>>, actual: ReadonlyMap<string, string>): boolean {
    const keys = Object.keys(recorded)
    if (keys.length !== actual.size) return false
    // A recorded server-param placeholder stands for whatever key the live request carries.
    return keys.every((k) => actual.has(k) && (PLACEHOLDER.test(recorded[k] as string) || recorded[k] === actual.get(k)))
}

/**
 * An {@link HttpPort} that answers from recordings, for offline and reproducible grading. Requests
 * match on method, origin, path and query (in any order). Recordings hold no key: a recorded
 * `{{SERVER_PARAM:KEY}}` query value matches any value, so the port never needs a secret. An
 * unrecorded request gets a 404 whose body says so.
 * @param input - `{ recordings }`
 * @returns an {@link HttpPort}
 * @example const http = httpPortFromRecordings({ recordings: [JSON.parse(text)] })
 */
export function httpPortFromRecordings(input: { recordings: readonly Recording[] }): HttpPort {
    const byRoute = new Map<string, RecordedExchange[]>()
    // Unreadable recordings answer nothing (every request then gets the port's 404), never a throw.
    try {
        for (const recording of input?.recordings ?? []) {
            const origin = String(recording?.host ?? '').replace(/\/+$/, '')
            for (const exchange of recording?.exchanges ?? []) {
                const route = `${exchange.request.method.toUpperCase()} ${origin}${exchange.request.path}`
                byRoute.set(route, [...(byRoute.get(route) ?? []), exchange])
            }
        }
    } catch {
        byRoute.clear()
    }
    return {
        async send(request: HttpRequest): Promise<HttpResponse> {
            const match = /^(https?:\/\/[^/?#]+)([^?#]*)(?:\?([^#]*))?/.exec(request.url)
            if (match === null) return { status: 400, headers: {}, body: '{"error":"not an http(s) URL"}' }
            const query = new Map(
                (match[3] ?? '')
                    .split('&')
                    .filter((pair) => pair.length > 0)
                    .map((pair): [string, string] => {
                        const at = pair.indexOf('=')
                        return at < 0 ? [decode(pair), ''] : [decode(pair.slice(0, at)), decode(pair.slice(at + 1))]
                    })
            )
            const candidates = byRoute.get(`${request.method.toUpperCase()} ${match[1] as string}${decode(match[2] || '/')}`) ?? []
            const hit = candidates.find((c) => sameQuery(c.request.query ?? {}, query))
            if (hit === undefined) return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"no recorded response for this request"}' }
            return { status: hit.response.status, headers: { ...(hit.response.headers ?? {}) }, body: hit.response.body }
        }
    }
}
