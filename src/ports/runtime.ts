import { fetchThroughPort } from './fetch-bridge.js'
import type {
    HttpPort,
    HttpRequest,
    HttpResponse,
    RuntimePort,
    RuntimeRequestRecord,
    RuntimeTestOutcome,
    RuntimeTestRequest
} from './types.js'
import { isObject } from '../model/object.js'
import { definedFields } from '../model/fields.js'

/** The part of the flowmcp-core v4 module the adapter calls (`import * as core from 'flowmcp-core'`). */
export interface FlowMCPCoreLike {
    readonly FlowMCP: {
        loadSchema(args: {
            filePath: string
            listsDir?: string
            allowlist?: unknown
            resolveBase?: string
        }): Promise<unknown>
        fetch(args: {
            main: unknown
            handlerMap: unknown
            userParams: unknown
            serverParams: unknown
            routeName: string
        }): Promise<unknown>
    }
}

/** Options of {@link runtimePortFromFlowMCP}. */
export interface FlowMCPRuntimeOptions {
    /** The host's own imported flowmcp-core v4 module. */
    readonly core: FlowMCPCoreLike
    /** Folder of the shared lists (`FlowMCP.loadSchema` `listsDir`). */
    readonly listsDir?: string
    /** Libraries a schema may require (`requiredLibraries`), as the runtime takes them; its default when omitted. */
    readonly allowlist?: unknown
    /** Where `requiredLibraries` resolve from (`resolveBase`): a folder whose `node_modules` holds them. */
    readonly resolveBase?: string
    /** Recorded in `summary.json` (`runtime.version`); e.g. flowmcp-core's package version. */
    readonly version?: string
    /**
     * The host's network for the runtime, with {@link FlowMCPRuntimeOptions.swapGlobalFetch}: every
     * `fetch` the runtime (or a handler) makes while a test runs goes through this port (live,
     * `recordingHttpPort`, or `httpPortFromRecordings`), and the outcome lists those requests.
     * Without `swapGlobalFetch: true` a port given here fails every test, saying why: the runtime
     * reads the process-wide `fetch`, and a host that wants its port answered without touching it
     * runs the runtime in a child process (`runtimePortFromChildProcess` of `flowmcp-grading/node`).
     */
    readonly http?: HttpPort
    /**
     * Opt-in: replace `globalThis.fetch` by one that sends to `http` for the length of each test,
     * one test at a time. Every other `fetch` of this process meanwhile (the host's own) also goes
     * to `http`; only a port that looks `fetch` up as it starts sending (the first, synchronous part
     * of `send`) reaches the real one. For processes that run nothing else, such as the CLI's
     * runtime child; a host service uses `runtimePortFromChildProcess` instead.
     */
    readonly swapGlobalFetch?: boolean
}

/** The messages of a runtime answer, as strings (a message that is no string is described, never thrown on). */
function messagesOf(value: unknown): string[] {
    if (!isObject(value) || !Array.isArray(value.messages)) return []
    return value.messages
        .map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : (JSON.stringify(m) ?? String(m))))
        .slice(0, 20)
}

/** `HTTP <code>` in the runtime's messages: the status of a non-2xx response. */
function httpStatusOf(messages: readonly string[]): number | null {
    for (const m of messages) {
        const found = /\bHTTP (\d{3})\b/.exec(m)
        if (found !== null) return Number(found[1])
    }
    return null
}

const failure = (message: string): RuntimeTestOutcome => ({ ok: false, httpStatus: null, messages: [message] })

/**
 * A {@link RuntimePort} over the host's own flowmcp-core v4 (`FlowMCP.loadSchema`, `FlowMCP.fetch`):
 * each schema file is loaded once (the runtime imports it, with its handlers and libraries), each
 * test is one `FlowMCP.fetch`. flowmcp-core is not a dependency of this library: the host imports it
 * (it is installed from its repository) and passes the module. Loading runs the schema's code, so
 * hosts run this where that is acceptable — the CLI runs it in a child process under Node's
 * permission model (`grade --runtime`). Never throws: a failure is an outcome with its message.
 * With `http` and `swapGlobalFetch: true`, the runtime's network is the host's port (the global `fetch`
 * replaced during each test: opt-in, for a process that runs nothing else); a host service runs the
 * runtime in a child process answered by its port instead (`runtimePortFromChildProcess` of
 * `flowmcp-grading/node`), which leaves this process's globals alone.
 * @param options - `{ core, listsDir?, allowlist?, resolveBase?, version?, http?, swapGlobalFetch? }`
 * @returns a {@link RuntimePort}
 * @example const runtime = runtimePortFromFlowMCP({ core: await import('flowmcp-core'), resolveBase: process.cwd() })
 */
export function runtimePortFromFlowMCP(options: FlowMCPRuntimeOptions): RuntimePort {
    // The options are read once, here: a hostile or missing object gives a port whose every run fails with the reason.
    let read: FlowMCPRuntimeOptions | null = null
    let unreadable = "runtimePortFromFlowMCP needs { core }: the host's imported flowmcp-core v4 module"
    try {
        if (isObject(options) && isObject(options.core)) read = { core: options.core, ...pick(options) }
    } catch (cause) {
        unreadable = `the options of runtimePortFromFlowMCP could not be read: ${cause instanceof Error ? cause.message : String(cause)}`
    }
    if (read === null) return { run: async () => failure(unreadable) }
    return portOver(read)
}

/** The optional fields, copied when they have the right type. */
function pick(options: FlowMCPRuntimeOptions): Omit<FlowMCPRuntimeOptions, 'core'> {
    return {
        ...(typeof options.listsDir === 'string' ? { listsDir: options.listsDir } : {}),
        ...definedFields({ allowlist: options.allowlist }),
        ...(typeof options.resolveBase === 'string' ? { resolveBase: options.resolveBase } : {}),
        ...(typeof options.version === 'string' ? { version: options.version } : {}),
        ...(isObject(options.http) && typeof options.http.send === 'function' ? { http: options.http } : {}),
        ...(options.swapGlobalFetch === true ? { swapGlobalFetch: true } : {})
    }
}

/** The global `fetch`, as the runtime reads it. */
type GlobalFetch = { fetch?: unknown }

/**
 * Runs `work` with the global `fetch` going through `http`, one run at a time (the runtime reads
 * the global, so two tests at once could not be told apart): the requests it made come back with it.
 */
function throughPort(
    http: HttpPort
): (
    serverParams: Readonly<Record<string, string>>,
    work: () => Promise<RuntimeTestOutcome>
) => Promise<RuntimeTestOutcome> {
    let queue: Promise<unknown> = Promise.resolve()
    const g = globalThis as unknown as GlobalFetch
    return (serverParams, work) => {
        const turn = queue.then(async (): Promise<RuntimeTestOutcome> => {
            const requests: RuntimeRequestRecord[] = []
            const before = g.fetch
            let bridged: ((input: unknown, init?: unknown) => Promise<unknown>) | null = null
            // The port's own sending starts with the process's real fetch in place: a port that looks `fetch` up
            // lazily reaches the network, not this bridge (which would call the port again, without end).
            const send = (r: HttpRequest): Promise<HttpResponse> => {
                const swapped = g.fetch === bridged
                if (swapped) g.fetch = before
                try {
                    return http.send(r)
                } finally {
                    if (swapped) g.fetch = bridged
                }
            }
            bridged = fetchThroughPort({ send, serverParams, onRequest: (r) => requests.push(r) })
            if (bridged === null)
                return failure(
                    "this platform has no fetch Response: the runtime's fetch cannot go through options.http"
                )
            g.fetch = bridged
            try {
                const outcome = await work()
                return { ...outcome, requests: requests.slice(0, 50) }
            } finally {
                g.fetch = before
            }
        })
        queue = turn.catch(() => undefined)
        return turn
    }
}

/** Why a port given without `swapGlobalFetch` is not used: the runtime's fetch is the process's. */
const NO_SWAP =
    "runtimePortFromFlowMCP runs the runtime in this process, whose fetch is the global one: pass swapGlobalFetch: true to send it through options.http (every fetch of the process goes there during a test), or run the runtime in a child process answered by the port (runtimePortFromChildProcess of 'flowmcp-grading/node')"

function portOver(options: FlowMCPRuntimeOptions): RuntimePort {
    if (options.http !== undefined && options.swapGlobalFetch !== true)
        return {
            ...definedFields({ version: options.version }),
            run: async () => failure(NO_SWAP)
        }
    const routed = options.http !== undefined ? throughPort(options.http) : null
    const loaded = new Map<string, Promise<{ main: unknown; handlerMap: unknown } | { problem: string }>>()
    const load = (filePath: string): Promise<{ main: unknown; handlerMap: unknown } | { problem: string }> => {
        let pending = loaded.get(filePath)
        if (pending === undefined) {
            pending = (async () => {
                try {
                    const result: unknown = await options.core.FlowMCP.loadSchema({
                        filePath,
                        ...definedFields({
                            listsDir: options.listsDir,
                            allowlist: options.allowlist,
                            resolveBase: options.resolveBase
                        })
                    })
                    if (!isObject(result) || result.status !== true)
                        return {
                            problem: `the runtime did not load the schema: ${messagesOf(result).join('; ') || 'no message'}`
                        }
                    return { main: result.main, handlerMap: result.handlerMap ?? {} }
                } catch (cause) {
                    return {
                        problem: `the runtime did not load the schema: ${cause instanceof Error ? cause.message : String(cause)}`
                    }
                }
            })()
            loaded.set(filePath, pending)
        }
        return pending
    }
    return {
        ...definedFields({ version: options.version }),
        hasLists: options.listsDir !== undefined,
        async run(request: RuntimeTestRequest): Promise<RuntimeTestOutcome> {
            return routed === null
                ? runOne(request)
                : routed(isObject(request?.serverParams) ? (request.serverParams as Record<string, string>) : {}, () =>
                      runOne(request)
                  )
        }
    }

    async function runOne(request: RuntimeTestRequest): Promise<RuntimeTestOutcome> {
        try {
            if (request.schemaPath === null)
                return failure(
                    'the schema was given as an object: the runtime needs its file (schemaPath) to load its handlers'
                )
            const schema = await load(request.schemaPath)
            if ('problem' in schema) return failure(schema.problem)
            const answer: unknown = await options.core.FlowMCP.fetch({
                main: schema.main,
                handlerMap: schema.handlerMap,
                userParams: { ...request.userParams },
                serverParams: { ...request.serverParams },
                routeName: request.tool
            })
            const messages = messagesOf(answer)
            if (!isObject(answer)) return failure('the runtime returned no result object')
            // A success may never have touched HTTP (executeRequest computes offline): its status is not known.
            return {
                ok: answer.status === true,
                data: answer.data,
                httpStatus: answer.status === true ? null : httpStatusOf(messages),
                messages
            }
        } catch (cause) {
            return failure(`the runtime threw: ${cause instanceof Error ? cause.message : String(cause)}`)
        }
    }
}
