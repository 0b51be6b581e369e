import type { HttpPort, HttpRequest, HttpResponse } from './types.js'

/** One recorded exchange. Server-parameter values are stored as `{{SERVER_PARAM:KEY}}`, never as values. */
export interface RecordedExchange {
    readonly request: { readonly method: string; readonly path: string; readonly query?: Readonly<Record<string, string>> }
    readonly response: { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body: string }
}

/** A recording of one API host. */
export interface Recording {
    readonly host: string
    readonly exchanges: readonly RecordedExchange[]
}

function keyOf(method: string, origin: string, path: string, query: ReadonlyArray<readonly [string, string]>): string {
    const sorted = [...query].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    return `${method.toUpperCase()} ${origin}${path}?${sorted.map(([k, v]) => `${k}=${v}`).join('&')}`
}

function decode(text: string): string {
    try {
        return decodeURIComponent(text.replace(/\+/g, ' '))
    } catch {
        return text
    }
}

/**
 * An {@link HttpPort} that answers from recordings, for offline and reproducible grading. Requests
 * match on method, origin, path and query (in any order); server-parameter values in the live request
 * are put back as `{{SERVER_PARAM:KEY}}` placeholders first, so recordings never hold a key. An
 * unrecorded request gets a 404 whose body says so.
 * @param input - `{ recordings, serverParams? }`
 * @returns an {@link HttpPort}
 * @example const http = httpPortFromRecordings({ recordings: [JSON.parse(text)], serverParams })
 */
export function httpPortFromRecordings(input: { recordings: readonly Recording[]; serverParams?: Readonly<Record<string, string>> }): HttpPort {
    const table = new Map<string, RecordedExchange['response']>()
    for (const recording of input.recordings ?? []) {
        const origin = String(recording.host).replace(/\/+$/, '')
        for (const exchange of recording.exchanges ?? []) {
            const query = Object.entries(exchange.request.query ?? {})
            table.set(keyOf(exchange.request.method, origin, exchange.request.path, query), exchange.response)
        }
    }
    // Longest values first, so a key that contains another key is restored whole.
    const secrets = Object.entries(input.serverParams ?? {})
        .filter(([, value]) => typeof value === 'string' && value.length > 0)
        .sort((a, b) => b[1].length - a[1].length)
    const placeholders = (text: string): string => secrets.reduce((acc, [key, value]) => acc.split(value).join(`{{SERVER_PARAM:${key}}}`), text)
    return {
        async send(request: HttpRequest): Promise<HttpResponse> {
            const match = /^(https?:\/\/[^/?#]+)([^?#]*)(?:\?([^#]*))?/.exec(request.url)
            if (match === null) return { status: 400, headers: {}, body: '{"error":"not an http(s) URL"}' }
            const query = (match[3] ?? '')
                .split('&')
                .filter((pair) => pair.length > 0)
                .map((pair): [string, string] => {
                    const at = pair.indexOf('=')
                    return at < 0 ? [decode(pair), ''] : [decode(pair.slice(0, at)), placeholders(decode(pair.slice(at + 1)))]
                })
            const response = table.get(keyOf(request.method, match[1] as string, decode(match[2] || '/'), query))
            if (response === undefined) return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"no recorded response for this request"}' }
            return { status: response.status, headers: { ...(response.headers ?? {}) }, body: response.body }
        }
    }
}
