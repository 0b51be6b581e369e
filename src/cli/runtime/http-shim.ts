// `http.request` / `https.request` inside the runtime child when the parent owns the network (live
// and under --recordings): libraries that speak HTTP without `fetch` (ethers' JSON-RPC provider,
// axios' Node adapter) get a request object whose exchange goes over the same channel as `fetch`,
// to the parent's HttpPort. No socket is ever opened: the module doors stay closed beneath it.

import { EventEmitter } from 'node:events'
import { Readable } from 'node:stream'
import type { HttpRequest, HttpResponse } from '../../ports/types.js'

/** Sends one request to the parent and resolves with its answer (rejects when the parent's port failed). */
export type ParentSend = (request: HttpRequest) => Promise<HttpResponse>

type Options = Record<string, unknown>

/** The URL a `request(url?, options?, callback?)` call names, as Node reads its arguments. */
function urlOf(protocol: 'http:' | 'https:', first: unknown, options: Options): string {
    if (typeof first === 'string') return first
    if (first instanceof URL) return first.href
    const host = String(options.hostname ?? options.host ?? 'localhost')
    const port =
        options.port !== undefined && options.port !== null && options.port !== '' ? `:${String(options.port)}` : ''
    return `${String(options.protocol ?? protocol)}//${host}${port}${String(options.path ?? '/')}`
}

/** Header values as strings, names lower-case (what an HttpRequest carries). */
function headersOf(given: unknown): Record<string, string> {
    const out: Record<string, string> = {}
    if (given === null || typeof given !== 'object') return out
    for (const [k, v] of Object.entries(given as Record<string, unknown>))
        if (v !== undefined && v !== null) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v)
    return out
}

/** The answer as an IncomingMessage would give it: status, headers, the body as one chunk. */
function incoming(
    answer: HttpResponse
): Readable & { statusCode: number; statusMessage: string; headers: Record<string, string> } {
    const body = Buffer.from(answer.body, 'utf8')
    const message = Readable.from(body.length > 0 ? [body] : []) as Readable & {
        statusCode: number
        statusMessage: string
        headers: Record<string, string>
        setEncoding: Readable['setEncoding']
    }
    message.statusCode = answer.status
    message.statusMessage = ''
    message.headers = { ...answer.headers }
    return message
}

/** A ClientRequest stand-in: collects the body, sends it on `end()`, emits `response` or `error`. */
class ParentRequest extends EventEmitter {
    private readonly chunks: Buffer[] = []
    private readonly headers: Record<string, string>
    private ended = false
    destroyed = false

    constructor(
        private readonly send: ParentSend,
        private readonly url: string,
        private readonly method: string,
        headers: Record<string, string>
    ) {
        super()
        this.headers = headers
    }

    setHeader(name: string, value: unknown): this {
        this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
        return this
    }
    getHeader(name: string): string | undefined {
        return this.headers[name.toLowerCase()]
    }
    removeHeader(name: string): void {
        delete this.headers[name.toLowerCase()]
    }
    setTimeout(): this {
        return this
    }
    setNoDelay(): void {}
    setSocketKeepAlive(): void {}
    flushHeaders(): void {}

    write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
        if (chunk !== undefined && chunk !== null)
            this.chunks.push(
                typeof chunk === 'string'
                    ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
                    : Buffer.from(chunk as Uint8Array)
            )
        const done = typeof encoding === 'function' ? encoding : callback
        if (typeof done === 'function') queueMicrotask(() => (done as () => void)())
        return true
    }

    end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
        if (typeof chunk === 'function') return this.end(undefined, undefined, chunk)
        if (this.ended) return this
        this.ended = true
        if (chunk !== undefined && chunk !== null) this.write(chunk, encoding)
        const done = typeof encoding === 'function' ? encoding : callback
        const body = Buffer.concat(this.chunks).toString('utf8')
        this.send({
            url: this.url,
            method: this.method,
            headers: { ...this.headers },
            ...(body.length > 0 ? { body } : {})
        }).then(
            (answer) => {
                if (this.destroyed) return
                this.emit('response', incoming(answer))
                this.emit('finish')
                this.emit('close')
            },
            (cause: unknown) => {
                if (this.destroyed) return
                this.emit('error', cause instanceof Error ? cause : new Error(String(cause)))
                this.emit('close')
            }
        )
        if (typeof done === 'function') queueMicrotask(() => (done as () => void)())
        return this
    }

    abort(): void {
        this.destroy()
    }
    destroy(error?: Error): this {
        if (this.destroyed) return this
        this.destroyed = true
        if (error !== undefined) this.emit('error', error)
        this.emit('close')
        return this
    }
}

/**
 * `request` and `get` for `node:http` or `node:https` over the parent's port: the same arguments
 * as Node's (`url`, `options`, `callback` in any of Node's orders), a request whose `end()` sends.
 */
export function requestOverParent(
    send: ParentSend,
    protocol: 'http:' | 'https:'
): { request: (...args: unknown[]) => ParentRequest; get: (...args: unknown[]) => ParentRequest } {
    const request = (...args: unknown[]): ParentRequest => {
        const first = args[0]
        const options = (
            typeof first === 'string' || first instanceof URL
                ? typeof args[1] === 'object' && args[1] !== null
                    ? args[1]
                    : {}
                : (first ?? {})
        ) as Options
        const callback = args.find((a): a is (response: unknown) => void => typeof a === 'function')
        const req = new ParentRequest(
            send,
            urlOf(protocol, first, options),
            String(options.method ?? 'GET').toUpperCase(),
            headersOf(options.headers)
        )
        if (callback !== undefined) req.once('response', callback)
        return req
    }
    const get = (...args: unknown[]): ParentRequest => {
        const req = request(...args)
        req.end()
        return req
    }
    return { request, get }
}
