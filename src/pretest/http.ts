/** One HTTP request, as the pretest hands it to the host's port. */
export interface HttpRequest {
    readonly url: string
    readonly method: string
    readonly headers: Record<string, string>
    readonly body?: string
    /** The port should abort the request after this many milliseconds (the core has no timers). */
    readonly timeoutMs?: number
}

/** What the port returns. Header names are expected in lower case; the pretest does not rely on them. */
export interface HttpResponse {
    readonly status: number
    readonly headers: Record<string, string>
    readonly body: string
}

/**
 * The host's HTTP client. The pretest never talks to the network itself: it builds requests and
 * passes them here. Structurally identical to the orchestration layer's `HttpPort`.
 */
export interface HttpPort {
    send(req: HttpRequest): Promise<HttpResponse>
}
