// Merging a run's recording of a host into the recording a folder already holds: recording never loses an exchange
// another test or schema needs. Whether two exchanges are of the same request is decided by replay itself
// (httpPortFromRecordings), so the merge and the replay can never disagree on it.
import { RECORDING_CODES } from '../errors/catalogue/recording.js'
import { issueFactory } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { httpPortFromRecordings, type RecordedExchange, type Recording } from './replay.js'
import type { HttpRequest } from './types.js'
import { definedFields } from '../model/fields.js'

// Only the recording codes: the bundle of a host that merges recordings carries no other message.
const issue = issueFactory(RECORDING_CODES)

/** What a merge did: the recording to write and how many of the earlier exchanges it kept and replaced. */
export interface RecordingMerge {
    /** The merged recording; null when the two could not be merged (`errors` says why). */
    readonly recording: Recording | null
    /** Earlier exchanges kept as they were (their request is not one the newer recording holds). */
    readonly kept: number
    /** Earlier exchanges replaced by the newer answer to the same request. */
    readonly replaced: number
    /** The exchanges are the newer ones first (keeping the earlier order would let an earlier one answer first). */
    readonly reordered: boolean
    /** REC-001 for what is not a recording, REC-002 for recordings of two hosts; empty when merged. */
    readonly errors: readonly Issue[]
}

/**
 * A recorded request as replay would receive it: the host, the path and query encoded again, the body as recorded. A
 * placeholder (`{{SERVER_PARAM:KEY}}`, `{{TIME}}`) is sent as its own text, which a recorded placeholder matches.
 */
function asRequest(host: string, exchange: RecordedExchange): HttpRequest {
    const { method, path, query, body } = exchange.request
    const encodedPath = path.split('/').map(encodeURIComponent).join('/')
    const search = Object.entries(query ?? {})
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&')
    return {
        url: `${host}${encodedPath}${search.length > 0 ? `?${search}` : ''}`,
        method,
        headers: {},
        ...definedFields({ body })
    }
}

/**
 * Which of `exchanges` replay answers `request` with: its index, or -1 when none matches. Each exchange answers with
 * its own index, so two exchanges with the same response are told apart.
 */
async function answeredBy(host: string, exchanges: readonly RecordedExchange[], request: HttpRequest): Promise<number> {
    const tagged = exchanges.map((e, i) => ({ request: e.request, response: { status: 200, body: String(i) } }))
    const response = await httpPortFromRecordings({ recordings: [{ host, exchanges: tagged }] }).send(request)
    return response.status === 200 && /^\d+$/.test(response.body) ? Number(response.body) : -1
}

/** Whether replay, holding only `recorded`, answers the request of `other` with it. */
async function covers(host: string, recorded: RecordedExchange, other: RecordedExchange): Promise<boolean> {
    return (await answeredBy(host, [recorded], asRequest(host, other))) === 0
}

/** A host as replay keys it: no trailing slash. */
const hostOf = (recording: Recording): string => String(recording.host).replace(/\/+$/, '')

/**
 * Merges a newer recording of a host into an earlier one, by request (docs/recordings.md, "Recording into a folder"):
 * an earlier exchange is replaced only by a newer answer to the same request — the two requests match each other
 * under replay's rule — and kept otherwise, so the exchanges of other tests and schemas of the host survive a run
 * that did not send them. The earlier order is kept (a replaced exchange is answered in its place, a new request is
 * added at the end) unless that would let an earlier exchange answer a request of the newer recording first; then the
 * newer exchanges come first. Either way, replay of the merged recording answers every request of the newer one as
 * the newer one alone does. `recordedAt` is the newer recording's when it has one. Never throws: what is not a
 * recording (REC-001) or a recording of another host (REC-002) is an error in `errors`, and nothing is merged.
 * @param input - `{ earlier, newer }`: two recordings of the same host
 * @returns the merged recording and what became of the earlier exchanges; `recording: null` with the errors
 * @example const { recording } = await mergeRecordings({ earlier: JSON.parse(text), newer })
 */
export async function mergeRecordings(input: {
    readonly earlier: Recording
    readonly newer: Recording
}): Promise<RecordingMerge> {
    const failed = (errors: Issue[]): RecordingMerge => ({
        recording: null,
        kept: 0,
        replaced: 0,
        reordered: false,
        errors
    })
    const problem = notARecording(input?.earlier, 'earlier') ?? notARecording(input?.newer, 'newer')
    if (problem !== null) return failed([problem])
    const { earlier, newer } = input
    const host = hostOf(newer)
    if (hostOf(earlier) !== host)
        return failed([issue('REC-002', '/newer/host', { earlier: hostOf(earlier), newer: host })])
    const older = earlier.exchanges
    const fresh = newer.exchanges
    // For each earlier exchange, the first newer one of the same request (each matches the other), or -1.
    const sameAs: number[] = []
    for (const old of older) {
        let found = -1
        for (const [j, n] of fresh.entries())
            if (
                String(old.request.method).toUpperCase() === String(n.request.method).toUpperCase() &&
                (await covers(host, old, n)) &&
                (await covers(host, n, old))
            ) {
                found = j
                break
            }
        sameAs.push(found)
    }
    const inPlace = placed(older, fresh, sameAs)
    // The earlier order holds only when every request of the newer recording is still answered as it alone answers it.
    let stable = true
    for (const n of fresh) {
        const request = asRequest(host, n)
        const alone = await answeredBy(host, fresh, request)
        const merged = await answeredBy(host, inPlace, request)
        if ((alone < 0 ? undefined : fresh[alone]) !== (merged < 0 ? undefined : inPlace[merged])) {
            stable = false
            break
        }
    }
    const kept = older.filter((_, i) => sameAs[i] === -1)
    const exchanges = stable ? inPlace : [...fresh, ...kept]
    const recordedAt = newer.recordedAt ?? earlier.recordedAt
    return {
        recording: { host: newer.host, ...definedFields({ recordedAt }), exchanges },
        kept: kept.length,
        replaced: older.length - kept.length,
        reordered: !stable,
        errors: []
    }
}

/** The earlier exchanges in their order, each replaced one answered in its place, the new requests after them. */
function placed(
    older: readonly RecordedExchange[],
    fresh: readonly RecordedExchange[],
    sameAs: readonly number[]
): RecordedExchange[] {
    const used = new Set<number>()
    const out: RecordedExchange[] = []
    older.forEach((old, i) => {
        const j = sameAs[i] ?? -1
        if (j < 0) out.push(old)
        else if (!used.has(j)) {
            used.add(j)
            out.push(fresh[j] as RecordedExchange)
        }
    })
    fresh.forEach((n, j) => {
        if (!used.has(j)) out.push(n)
    })
    return out
}

/**
 * What keeps a value from being merged as a recording (a host and an array of exchanges with requests): REC-001 at
 * its place, or null.
 */
function notARecording(value: unknown, which: 'earlier' | 'newer'): Issue | null {
    const at = (path: string, detail: string): Issue => issue('REC-001', `/${which}${path}`, { which, detail })
    if (value === null || typeof value !== 'object') return at('', 'not an object')
    const r = value as { host?: unknown; exchanges?: unknown }
    if (typeof r.host !== 'string' || !/^https?:\/\/[^/?#]+\/*$/.test(r.host))
        return at('/host', 'no host (scheme and host, such as https://api.example.org)')
    if (!Array.isArray(r.exchanges)) return at('/exchanges', 'no exchanges array')
    const bad = r.exchanges.findIndex(
        (e: unknown) =>
            e === null ||
            typeof e !== 'object' ||
            typeof (e as RecordedExchange).request?.method !== 'string' ||
            typeof (e as RecordedExchange).request?.path !== 'string' ||
            typeof (e as RecordedExchange).response?.status !== 'number' ||
            typeof (e as RecordedExchange).response?.body !== 'string'
    )
    return bad >= 0 ? at(`/exchanges/${bad}`, `exchange ${bad} is not a request and its response`) : null
}
