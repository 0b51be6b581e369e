// The runtime child of `grade --runtime`: the only place where schema code (handlers) runs. The
// parent (runtime-process.ts) starts it under Node's permission model (read-only access to the
// schema, runtime, libraries and lists folders; no writes, no child processes, no workers) with an
// environment that holds only the schema's server params. JSON lines in on stdin, JSON lines out
// on stdout (runtime-protocol.ts). Never imported by the grading process.

import { AsyncLocalStorage } from 'node:async_hooks'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { httpPortFromRecordings, type Recording } from '../ports/replay.js'
import { runtimePortFromFlowMCP, type FlowMCPCoreLike } from '../ports/runtime.js'
import type { RuntimePort, RuntimeTestOutcome } from '../ports/types.js'
import { closeNetworkDoors, NetworkNotGranted } from './runtime-doors.js'
import type { ChildInit, ChildMessage, ChildNetwork, ChildRun } from './runtime-protocol.js'

// The protocol owns stdout: schema code that logs is sent to stderr instead.
const writeOut = process.stdout.write.bind(process.stdout)
const toStderr = (...args: unknown[]): void => {
    process.stderr.write(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' ') + '\n')
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
        line = JSON.stringify({ ...message, outcome: { ...rest, messages: [...(rest.messages ?? []), `the data is not JSON: ${cause instanceof Error ? cause.message : String(cause)}`] } })
    }
    writeOut(line + '\n', then)
}

const failure = (message: string): RuntimeTestOutcome => ({ ok: false, httpStatus: null, messages: [message] })

/** Statuses whose response carries no body (a Response with one is a TypeError). */
const NO_BODY = new Set([101, 204, 205, 304])

/** The doors each running test tried: a knock outside any test (a stray timer) is denied all the same. */
const knocks = new AsyncLocalStorage<string[]>()
const knock = (door: string): void => {
    knocks.getStore()?.push(door)
}

/** Reads the recordings folder: every `*.json` file, in name order. */
async function readRecordings(dir: string): Promise<Recording[]> {
    const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()
    return Promise.all(names.map(async (n) => JSON.parse(await readFile(join(dir, n), 'utf8')) as Recording))
}

/**
 * Installs the grade mode's network: live keeps the real one; offline and under recordings every
 * module door is closed first (runtime-doors.ts), then `fetch` knocks (offline) or is answered from
 * the recordings only.
 */
async function installNetwork(network: ChildNetwork): Promise<void> {
    if (network.mode === 'live') return
    // Read before the doors close: nothing of ours needs the network after this.
    const recordings = network.mode === 'recordings' ? await readRecordings(network.dir) : []
    closeNetworkDoors(knock)
    if (network.mode === 'offline') {
        globalThis.fetch = (async () => {
            knock('fetch')
            throw new NetworkNotGranted('fetch', 'offline')
        }) as typeof fetch
        return
    }
    const port = httpPortFromRecordings({ recordings })
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
        const headers: Record<string, string> = {}
        new Headers(init?.headers ?? (input instanceof Request ? input.headers : {})).forEach((value, key) => {
            headers[key] = value
        })
        const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
        const answer = await port.send({ url, method, headers, ...(typeof init?.body === 'string' ? { body: init.body } : {}) })
        return new Response(NO_BODY.has(answer.status) ? null : answer.body, { status: answer.status, headers: answer.headers })
    }) as typeof fetch
}

/** A test that tried a closed door fails for that, whatever it made of the refusal (its data is kept for the record). */
function notGranted(outcome: RuntimeTestOutcome, tried: readonly string[], mode: ChildNetwork['mode']): RuntimeTestOutcome {
    const doors = [...new Set(tried)]
    const way = mode === 'recordings' ? 'under --recordings only fetch is answered, from the recordings; pass --live to grant the network' : 'pass --live to grant the network, or --recordings <dir> to answer its fetch from recordings'
    const said = `network not granted: the test tried ${doors.slice(0, 5).join(', ')}${doors.length > 5 ? ` and ${doors.length - 5} more` : ''}; ${way}`
    return { ...outcome, ok: false, httpStatus: null, messages: [said, ...(outcome.messages ?? [])].slice(0, 20), networkNotGranted: doors.slice(0, 20) }
}

async function start(init: ChildInit): Promise<RuntimePort> {
    await installNetwork(init.network)
    const core = (await import(pathToFileURL(init.entry).href)) as FlowMCPCoreLike
    if (typeof core?.FlowMCP?.loadSchema !== 'function' || typeof core.FlowMCP.fetch !== 'function') throw new Error(`${init.entry} does not export FlowMCP.loadSchema and FlowMCP.fetch (flowmcp-core v4)`)
    return runtimePortFromFlowMCP({ core, resolveBase: init.libraries, ...(init.lists !== null ? { listsDir: init.lists } : {}), ...(init.version !== null ? { version: init.version } : {}) })
}

async function runOne(port: RuntimePort, message: ChildRun, mode: ChildNetwork['mode']): Promise<void> {
    // The schema's server params: from the environment the parent gave this process.
    const serverParams = Object.fromEntries(message.serverParamKeys.filter((k) => typeof process.env[k] === 'string').map((k) => [k, process.env[k] as string]))
    let outcome: RuntimeTestOutcome
    const tried: string[] = []
    try {
        outcome = await knocks.run(tried, () => port.run({ schemaPath: message.schemaPath, main: message.main, tool: message.tool, testIndex: message.testIndex, userParams: message.userParams, serverParams, timeoutMs: message.timeoutMs }))
    } catch (cause) {
        outcome = failure(`the runtime threw: ${cause instanceof Error ? cause.message : String(cause)}`)
    }
    send({ type: 'outcome', id: message.id, outcome: tried.length > 0 ? notGranted(outcome, tried, mode) : outcome })
}

// Schema code that leaves a stray rejection or throws from a timer fails its own test at most; the
// process keeps serving the others.
process.on('unhandledRejection', (reason) => toStderr('unhandled rejection:', reason instanceof Error ? reason.message : String(reason)))
process.on('uncaughtException', (error) => toStderr('uncaught exception:', error.message))

let port: Promise<RuntimePort> | null = null
let mode: ChildNetwork['mode'] = 'offline'
const inFlight = new Set<Promise<void>>()
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
lines.on('line', (line) => {
    let message: ChildInit | ChildRun
    try {
        message = JSON.parse(line) as ChildInit | ChildRun
    } catch {
        return
    }
    if (message.type === 'init' && port === null) {
        mode = message.network.mode
        port = start(message)
        port.then(
            () => send({ type: 'ready' }),
            (cause: unknown) => {
                send({ type: 'fatal', message: `the runtime did not start: ${cause instanceof Error ? cause.message : String(cause)}` }, () => process.exit(1))
            }
        )
    } else if (message.type === 'run' && port !== null) {
        const running = port.then((p) => runOne(p, message as ChildRun, mode), () => undefined)
        inFlight.add(running)
        void running.then(() => inFlight.delete(running))
    }
})
// stdin closed: the tests already asked for are answered, then the process ends.
lines.on('close', () => {
    void Promise.all([...inFlight]).then(() => writeOut('', () => process.exit(0)))
})
