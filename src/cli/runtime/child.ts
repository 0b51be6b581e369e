// The runtime child of `grade --runtime`: the only place where schema code (handlers) runs. The
// parent (process.ts) starts it under Node's permission model (read-only access to the
// schema, runtime, libraries and lists folders; no writes, no child processes, no workers) with an
// environment that holds only the schema's server params. JSON lines in on stdin, JSON lines out
// on stdout (protocol.ts). The network is the parent's: every module door is closed, and
// `fetch` (and `http(s).request`) send each request to the parent as a protocol line, live and
// under --recordings alike; offline they are refused. Never imported by the grading process.

import { AsyncLocalStorage } from 'node:async_hooks'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { fetchThroughPort } from '../../ports/fetch-bridge.js'
import { runtimePortFromFlowMCP, type FlowMCPCoreLike } from '../../ports/runtime.js'
import type { HttpRequest, HttpResponse, RuntimePort, RuntimeTestOutcome } from '../../ports/types.js'
import { closeNetworkDoors, NetworkNotGranted } from './doors.js'
import type { ChildInit, ChildMessage, ChildNetwork, ChildRun, ParentAnswer } from './protocol.js'

// The protocol owns stdout: schema code that logs is sent to stderr instead.
const writeOut = process.stdout.write.bind(process.stdout)
const toStderr = (...args: unknown[]): void => {
    process.stderr.write(`${args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ')}\n`)
}
console.log = toStderr
console.info = toStderr
console.debug = toStderr
console.warn = toStderr

function send(message: ChildMessage, then?: () => void): void {
    let line: string
    try {
        // Libraries answer with bigint (ethers): sent as decimal strings.
        line = JSON.stringify(message, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))
    } catch (cause) {
        if (message.type !== 'outcome') return
        const { data: _data, ...rest } = message.outcome
        line = JSON.stringify({
            ...message,
            outcome: {
                ...rest,
                messages: [
                    ...(rest.messages ?? []),
                    `the data is not JSON: ${cause instanceof Error ? cause.message : String(cause)}`
                ]
            }
        })
    }
    writeOut(`${line}\n`, then)
}

const failure = (message: string): RuntimeTestOutcome => ({ ok: false, httpStatus: null, messages: [message] })

/** What the running test is: its id (for the parent to attribute its requests) and the doors it tried. */
interface TestScope {
    readonly run: number
    readonly tried: string[]
}

/** The doors each running test tried: a knock outside any test (a stray timer) is denied all the same. */
const scope = new AsyncLocalStorage<TestScope>()
const knock = (door: string): void => {
    scope.getStore()?.tried.push(door)
}

/** Requests sent to the parent and not answered yet, by id. */
const waiting = new Map<number, { resolve: (response: HttpResponse) => void; reject: (cause: Error) => void }>()
let nextFetch = 1

/** Sends one request to the parent's HttpPort over the protocol and waits for its answer. */
function sendToParent(request: HttpRequest): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
        const id = nextFetch++
        waiting.set(id, { resolve, reject })
        send({ type: 'fetch', id, run: scope.getStore()?.run ?? null, request })
    })
}

/** The parent's answer to one of our requests. */
function answered(message: ParentAnswer): void {
    const entry = waiting.get(message.id)
    if (entry === undefined) return
    waiting.delete(message.id)
    if (message.response !== null && typeof message.response === 'object') entry.resolve(message.response)
    else entry.reject(new Error(message.error ?? 'the parent sent no response'))
}

/**
 * Installs the grade mode's network: every module door is closed first (doors.ts); then
 * offline `fetch` knocks, and live and under recordings `fetch` and `http(s).request` go to the parent.
 */
function installNetwork(network: ChildNetwork): void {
    if (network.mode === 'offline') {
        closeNetworkDoors(knock)
        globalThis.fetch = (async () => {
            knock('fetch')
            throw new NetworkNotGranted('fetch', 'offline')
        }) as typeof fetch
        return
    }
    closeNetworkDoors(knock, sendToParent)
    // The parent masks the keys of what it keeps: the child reports nothing itself.
    const bridged = fetchThroughPort({ send: sendToParent, serverParams: {}, onRequest: () => undefined })
    if (bridged !== null) globalThis.fetch = bridged as typeof fetch
}

/**
 * A test that tried a closed door fails for that, whatever it made of the refusal (its data is kept for the record).
 */
function notGranted(
    outcome: RuntimeTestOutcome,
    tried: readonly string[],
    mode: ChildNetwork['mode']
): RuntimeTestOutcome {
    const doors = [...new Set(tried)]
    const way =
        mode === 'offline'
            ? 'pass --live to grant the network, or --recordings <dir> to answer its fetch from recordings'
            : 'only fetch and http(s) requests reach the network, through the grading process; other doors stay closed'
    const said = `network not granted: the test tried ${doors.slice(0, 5).join(', ')}${doors.length > 5 ? ` and ${doors.length - 5} more` : ''}; ${way}`
    return {
        ...outcome,
        ok: false,
        httpStatus: null,
        messages: [said, ...(outcome.messages ?? [])].slice(0, 20),
        networkNotGranted: doors.slice(0, 20)
    }
}

async function start(init: ChildInit): Promise<RuntimePort> {
    installNetwork(init.network)
    const core = (await import(pathToFileURL(init.entry).href)) as FlowMCPCoreLike
    if (typeof core?.FlowMCP?.loadSchema !== 'function' || typeof core.FlowMCP.fetch !== 'function')
        throw new Error(`${init.entry} does not export FlowMCP.loadSchema and FlowMCP.fetch (flowmcp-core v4)`)
    return runtimePortFromFlowMCP({
        core,
        resolveBase: init.libraries,
        ...(init.lists !== null ? { listsDir: init.lists } : {}),
        ...(init.version !== null ? { version: init.version } : {})
    })
}

async function runOne(port: RuntimePort, message: ChildRun, mode: ChildNetwork['mode']): Promise<void> {
    // The schema's server params: from the environment the parent gave this process.
    const serverParams = Object.fromEntries(
        message.serverParamKeys
            .filter((k) => typeof process.env[k] === 'string')
            .map((k) => [k, process.env[k] as string])
    )
    let outcome: RuntimeTestOutcome
    const tried: string[] = []
    try {
        outcome = await scope.run({ run: message.id, tried }, () =>
            port.run({
                schemaPath: message.schemaPath,
                main: message.main,
                tool: message.tool,
                testIndex: message.testIndex,
                userParams: message.userParams,
                serverParams,
                timeoutMs: message.timeoutMs
            })
        )
    } catch (cause) {
        outcome = failure(`the runtime threw: ${cause instanceof Error ? cause.message : String(cause)}`)
    }
    send({ type: 'outcome', id: message.id, outcome: tried.length > 0 ? notGranted(outcome, tried, mode) : outcome })
}

// Schema code that leaves a stray rejection or throws from a timer fails its own test at most; the
// process keeps serving the others.
process.on('unhandledRejection', (reason) =>
    toStderr('unhandled rejection:', reason instanceof Error ? reason.message : String(reason))
)
process.on('uncaughtException', (error) => toStderr('uncaught exception:', error.message))

let port: Promise<RuntimePort> | null = null
let mode: ChildNetwork['mode'] = 'offline'
const inFlight = new Set<Promise<void>>()
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
lines.on('line', (line) => {
    let message: ChildInit | ChildRun | ParentAnswer
    try {
        message = JSON.parse(line) as ChildInit | ChildRun | ParentAnswer
    } catch {
        return
    }
    if (message.type === 'answer') answered(message)
    else if (message.type === 'init' && port === null) {
        mode = message.network.mode
        port = start(message)
        port.then(
            () => send({ type: 'ready' }),
            (cause: unknown) => {
                send(
                    {
                        type: 'fatal',
                        message: `the runtime did not start: ${cause instanceof Error ? cause.message : String(cause)}`
                    },
                    () => process.exit(1)
                )
            }
        )
    } else if (message.type === 'run' && port !== null) {
        const running = port.then(
            (p) => runOne(p, message as ChildRun, mode),
            () => undefined
        )
        inFlight.add(running)
        void running.then(() => inFlight.delete(running))
    }
})
// stdin closed: the tests already asked for are answered, then the process ends.
lines.on('close', () => {
    void Promise.all([...inFlight]).then(() => writeOut('', () => process.exit(0)))
})
