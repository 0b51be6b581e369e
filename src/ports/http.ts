import type { HttpPort } from './types.js'

/** The part of a `fetch` Response the adapter reads. */
export interface FetchResponseLike {
    readonly status: number
    readonly headers: { forEach(callback: (value: string, key: string) => void): void }
    text(): Promise<string>
}

/**
 * A `fetch`-like function (global `fetch`, undici, a test double). `S` is its abort-signal type:
 * inferred from the function passed (`AbortSignal | null | undefined` for the global `fetch`), so
 * `httpPortFromFetch(fetch)` type-checks under `strict` with or without the DOM lib.
 */
export type FetchLike<S = unknown> = (
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string; signal?: S }
) => Promise<FetchResponseLike>

/** Options of {@link httpPortFromFetch}. */
export interface HttpPortOptions<S = unknown> {
    /**
     * Makes an abort signal that fires after `ms`. Defaults to the platform's
     * `AbortSignal.timeout` when it exists; without either, `timeoutMs` cannot be honoured and the
     * request is sent without a timeout.
     */
    readonly timeoutSignal?: (ms: number) => S
}

function platformTimeout(): ((ms: number) => unknown) | undefined {
    // Feature-detected rather than typed: the core compiles without DOM or Node typings.
    const signal = (globalThis as unknown as { AbortSignal?: { timeout?: (ms: number) => unknown } }).AbortSignal
    return typeof signal?.timeout === 'function'
        ? (ms: number) => (signal.timeout as (ms: number) => unknown)(ms)
        : undefined
}

/**
 * Wraps a fetch-like function as an {@link HttpPort}. Header names of the response are lower-cased;
 * a network failure or timeout rejects (callers turn that into a coded issue).
 * @param fetchFn - e.g. `globalThis.fetch`
 * @param options - optional `{ timeoutSignal }`
 * @returns an {@link HttpPort}
 * @example const http = httpPortFromFetch(fetch); await http.send({ url, method: 'GET', headers: {} })
 */
export function httpPortFromFetch<S = unknown>(fetchFn: FetchLike<S>, options: HttpPortOptions<S> = {}): HttpPort {
    // The platform's AbortSignal.timeout makes the signal type the platform's fetch expects.
    const makeTimeout = options.timeoutSignal ?? (platformTimeout() as ((ms: number) => S) | undefined)
    return {
        async send(request) {
            const init: { method: string; headers: Record<string, string>; body?: string; signal?: S } = {
                method: request.method,
                headers: { ...request.headers }
            }
            if (request.body !== undefined) init.body = request.body
            if (request.timeoutMs !== undefined && makeTimeout !== undefined)
                init.signal = makeTimeout(request.timeoutMs)
            const response = await fetchFn(request.url, init)
            const headers: Array<[string, string]> = []
            response.headers.forEach((value, key) => {
                headers.push([key.toLowerCase(), value])
            })
            headers.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
            return { status: response.status, headers: Object.fromEntries(headers), body: await response.text() }
        }
    }
}
