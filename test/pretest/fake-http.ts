import type { HttpPort, HttpRequest, HttpResponse } from '../../src/index.js'

/** A scripted HttpPort: records every request, tracks how many were in flight at once. */
export function fakeHttp(
    reply: (req: HttpRequest) => HttpResponse | Promise<HttpResponse>
): HttpPort & { requests: HttpRequest[]; maxInFlight: number } {
    let inFlight = 0
    const port = {
        requests: [] as HttpRequest[],
        maxInFlight: 0,
        async send(req: HttpRequest): Promise<HttpResponse> {
            port.requests.push(req)
            inFlight += 1
            port.maxInFlight = Math.max(port.maxInFlight, inFlight)
            try {
                await Promise.resolve()
                await Promise.resolve()
                return await reply(req)
            } finally {
                inFlight -= 1
            }
        }
    }
    return port
}

export const json = (value: unknown, status = 200): HttpResponse => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value)
})
