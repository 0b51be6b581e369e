import { isObject } from '../model/object.js'
import { keyForms, maskKeyForms } from '../prompts/secret-forms.js'
import { isMissingRecording } from './replay.js'
import type { HttpRequest, HttpResponse, RuntimeRequestRecord } from './types.js'

/** Statuses whose response carries no body (a Response with one is a TypeError). */
const NO_BODY = new Set([101, 204, 205, 304])

/** The platform's fetch classes, feature-detected: the core compiles without DOM or Node typings. */
interface PlatformFetchClasses {
    readonly Response: new (body: string | null, init: { status: number; headers: Record<string, string> }) => unknown
    readonly Headers: new (init?: unknown) => { forEach(callback: (value: string, key: string) => void): void }
    readonly TextDecoder?: new () => { decode(input: unknown): string }
}

function platform(): PlatformFetchClasses | null {
    const g = globalThis as unknown as Partial<PlatformFetchClasses>
    return typeof g.Response === 'function' && typeof g.Headers === 'function' ? (g as PlatformFetchClasses) : null
}

type Obj = Record<string, unknown>

/**
 * A URL with every server-param value written `{{SERVER_PARAM:<KEY>}}`, as recordings write it, in each of its
 * spellings (raw, percent-, form- and twice-encoded: {@link keyForms}): what a test's request record keeps instead of
 * a key.
 */
export function maskServerParams(url: string, serverParams: Readonly<Record<string, string>>): string {
    return maskKeyForms(url, keyForms(serverParams))
}

/** The request a `fetch(input, init)` call describes, as an {@link HttpRequest}. */
async function requestOf(input: unknown, init: unknown, classes: PlatformFetchClasses): Promise<HttpRequest> {
    // An array passed as `input` or `init` (never meant) reads as an object with none of these fields.
    const req = isObject(input) && typeof input.url === 'string' && typeof input.method === 'string' ? input : null
    const url =
        typeof input === 'string'
            ? input
            : req !== null
              ? (req.url as string)
              : isObject(input) && typeof input.href === 'string'
                ? input.href
                : String(input)
    const o: Obj = isObject(init) ? init : {}
    const headers: Record<string, string> = {}
    new classes.Headers(o.headers ?? req?.headers ?? {}).forEach((value, key) => {
        headers[key] = value
    })
    const method = String(o.method ?? req?.method ?? 'GET').toUpperCase()
    let body: string | undefined
    const given = o.body
    if (typeof given === 'string') body = given
    else if ((given instanceof ArrayBuffer || ArrayBuffer.isView(given)) && classes.TextDecoder !== undefined)
        body = new classes.TextDecoder().decode(given)
    else if (given !== undefined && given !== null) body = String(given)
    else if (req !== null && method !== 'GET' && method !== 'HEAD' && typeof req.text === 'function')
        body = await (req.text as () => Promise<string>)()
    return { url, method, headers, ...(body !== undefined && body.length > 0 ? { body } : {}) }
}

/**
 * A `fetch` that sends every request through `send` (the host's {@link HttpPort}: live, recorded
 * or replayed) and reports each as a {@link RuntimeRequestRecord}, key values masked. A port that
 * rejects makes the fetch reject with a TypeError, as a failed network call does.
 * @returns the fetch function, or `null` where the platform has no `Response`/`Headers`
 */
export function fetchThroughPort(args: {
    send: (request: HttpRequest) => Promise<HttpResponse>
    serverParams: Readonly<Record<string, string>>
    onRequest: (record: RuntimeRequestRecord) => void
}): ((input: unknown, init?: unknown) => Promise<unknown>) | null {
    const classes = platform()
    if (classes === null) return null
    return async (input: unknown, init?: unknown): Promise<unknown> => {
        const request = await requestOf(input, init, classes)
        const record = { method: request.method, url: maskServerParams(request.url, args.serverParams) }
        let answer: HttpResponse
        try {
            answer = await args.send(request)
        } catch (cause) {
            args.onRequest({ ...record, status: null, missingRecording: false })
            throw new TypeError(`fetch failed: ${cause instanceof Error ? cause.message : String(cause)}`)
        }
        args.onRequest({ ...record, status: answer.status, missingRecording: isMissingRecording(answer) })
        if (!Number.isInteger(answer.status) || answer.status < 200 || answer.status > 599)
            throw new TypeError(`fetch failed: the port answered status ${String(answer.status)}`)
        return new classes.Response(NO_BODY.has(answer.status) ? null : answer.body, {
            status: answer.status,
            headers: { ...answer.headers }
        })
    }
}
