// `grade --runtime`: a RuntimePort whose runtime runs in a child process, never in the grading
// process. One child per schema (and per set of server params): its environment holds exactly that
// schema's server params, and one schema's code (module side effects, patched globals, a hang)
// never reaches another schema's outcome. The child runs under Node's permission model.

// This file is the port: the sandbox layers are in sandbox.ts, the runtime folder's read list
// in resolve.ts, one child and its protocol in ipc.ts, its answers in outcome.ts.

import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { httpPortFromFetch } from '../../ports/http.js'
import { httpPortFromRecordings, type Recording } from '../../ports/replay.js'
import type { HttpPort, RuntimePort, RuntimeTestOutcome, RuntimeTestRequest } from '../../ports/types.js'
import type { ChildInit, ChildNetwork } from './protocol.js'
import { RuntimeChild, type Pending } from './ipc.js'
import { failure } from './outcome.js'
import { real, resolveRuntime, type ResolvedRuntime } from './resolve.js'
import { childNodeArgs, chooseIsolation, findUnshare, permissionFlag } from './sandbox.js'

/** Options of {@link runtimePortFromChildProcess}. */
export interface ChildRuntimeOptions {
    /** The flowmcp-core folder (its package.json and `src/`). */
    readonly runtime: string
    /** The folder whose `node_modules` holds the schemas' `requiredLibraries`; default: the runtime folder. */
    readonly libraries?: string
    /** The shared lists folder (`listsDir`). */
    readonly lists?: string
    /**
     * How `fetch` behaves in the child: the grade mode. Default: `live` when `http` is given (the child's requests
     * reach that port and nothing else), `offline` otherwise.
     */
    readonly network?: ChildNetwork
    /**
     * The parent's network, which the child's `fetch` and `http(s).request` reach over the protocol
     * (live and under recordings; never offline): e.g. the recording port of `--record`. Default:
     * the global `fetch` live, the recordings of `network.dir` under recordings.
     */
    readonly http?: HttpPort
    /** The child script; default: `runtime-child.js` beside the CLI. */
    readonly childScript?: string
    /** How long the child may take to import the runtime (default 20 000 ms). */
    readonly startupTimeoutMs?: number
    /** Children kept alive at once; an idle one is stopped when a new schema needs one (default 4). */
    readonly maxChildren?: number
    /** The Node binary (default: this one, `process.execPath`). */
    readonly nodePath?: string
    /** Its version (default `process.version`): decides the permission flag. */
    readonly nodeVersion?: string
    /** Whether that Node knows a flag (default: `process.allowedNodeEnvironmentFlags`). */
    readonly nodeHasFlag?: (flag: string) => boolean
    /**
     * How the child is kept off the network (in every mode: its requests go through the parent):
     * `auto` (default) takes the strongest the platform offers; `module-doors` only closes the
     * module doors in the child.
     */
    readonly isolation?: 'auto' | 'module-doors'
    /** The `unshare` binary for a network namespace (default: found on PATH on Linux; `null`: none). */
    readonly unsharePath?: string | null
}

/**
 * The network the children's requests reach: the given port, else the global `fetch` live, else the
 * recordings of `network.dir`; none offline. A string when the recordings cannot be read.
 */
function parentNetwork(options: ChildRuntimeOptions & { network: ChildNetwork }): HttpPort | null | string {
    if (options.network.mode === 'offline') return null
    if (options.http !== undefined) return options.http
    if (options.network.mode === 'live') return httpPortFromFetch(globalThis.fetch)
    const dir = options.network.dir
    if (dir === undefined) return 'the runtime under recordings needs their folder (network.dir) or an HTTP port (http)'
    try {
        const names = readdirSync(dir)
            .filter((n) => n.endsWith('.json'))
            .sort()
        return httpPortFromRecordings({
            recordings: names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Recording)
        })
    } catch (cause) {
        return `the recordings in ${dir} cannot be read: ${cause instanceof Error ? cause.message : String(cause)}`
    }
}

/** A {@link RuntimePort} backed by child processes; `close()` stops them. */
export interface ChildRuntimePort extends RuntimePort {
    /**
     * How the children are kept off the network, e.g. `network-namespace+module-doors` (their requests go through the
     * parent).
     */
    readonly isolation: string
    close(): Promise<void>
}

/** What every child of a port starts with, settled once before the first: the runtime, the Node, the sandbox. */
interface ChildLaunch {
    readonly childScript: string
    readonly runtime: ResolvedRuntime
    readonly init: ChildInit
    readonly http: HttpPort | null
    readonly nodePath: string
    readonly nodeVersion: string
    readonly hasFlag: (flag: string) => boolean
    /** `unshare` for a network namespace of the child's own, or null. */
    readonly unshare: string | null
    readonly isolation: string
    readonly startupTimeoutMs: number
}

/** The launch settings of `options`, or the problems with them (the runtime folder, the Node, the recordings). */
function childLaunchOf(given: ChildRuntimeOptions): ChildLaunch | { errors: string[] } {
    const network: ChildNetwork = given.network ?? { mode: given.http !== undefined ? 'live' : 'offline' }
    const options = { ...given, network }
    const childScript = resolve(options.childScript ?? fileURLToPath(new URL('./runtime-child.js', import.meta.url)))
    const resolved = resolveRuntime({ ...options, childScript })
    if (resolved.runtime === null) return { errors: resolved.errors }
    const runtime = resolved.runtime
    const nodeVersion = options.nodeVersion ?? process.version
    const hasFlag = options.nodeHasFlag ?? ((flag: string) => process.allowedNodeEnvironmentFlags.has(flag))
    if (permissionFlag(nodeVersion) === null)
        return { errors: [`--runtime needs Node's permission model (Node 20 or later); this is Node ${nodeVersion}`] }
    const http = parentNetwork(options)
    if (typeof http === 'string') return { errors: [http] }
    const init: ChildInit = {
        type: 'init',
        entry: runtime.entry,
        libraries: runtime.libraries,
        lists: runtime.lists,
        network: options.network.mode === 'recordings' ? { mode: 'recordings' } : options.network,
        version: runtime.version
    }
    const nodePath = options.nodePath ?? process.execPath
    const { isolation, unshare } = chooseIsolation({
        forced: options.isolation ?? 'auto',
        unshare: options.unsharePath === undefined ? findUnshare() : options.unsharePath,
        nodePath,
        hasFlag
    })
    const startupTimeoutMs = options.startupTimeoutMs ?? 20_000
    return { childScript, runtime, init, http, nodePath, nodeVersion, hasFlag, unshare, isolation, startupTimeoutMs }
}

/** The child a request runs in: one per schema file and set of server params (sorted: their order does not count). */
function childKey(request: RuntimeTestRequest & { schemaPath: string }): string {
    return JSON.stringify([
        request.schemaPath,
        Object.entries(request.serverParams).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    ])
}

/**
 * Starts the child of one schema: it may read the schema's folder besides the runtime's; it gets only its server
 * params.
 */
function startChild(
    launch: ChildLaunch,
    request: RuntimeTestRequest & { schemaPath: string },
    onEnd: (ended: RuntimeChild, orphans: Pending[]) => void
): RuntimeChild {
    const { nodePath, childScript, unshare } = launch
    const schemaDir = dirname(resolve(request.schemaPath))
    // A schema that declares libraries may need a native one (talib): its child may load addons, still without a
    // network of its own.
    const libraries = (request.main as Readonly<Record<string, unknown>> | undefined)?.requiredLibraries
    const addons = Array.isArray(libraries) && libraries.length > 0
    const allowRead = [...new Set([...launch.runtime.allowRead, schemaDir, real(schemaDir)])]
    const args = childNodeArgs({ nodeVersion: launch.nodeVersion, hasFlag: launch.hasFlag, allowRead, addons }) ?? []
    // Only the schema's server params; Windows needs SystemRoot to start a process at all.
    const env: Record<string, string> = {
        ...request.serverParams,
        ...(process.platform === 'win32' && process.env.SystemRoot !== undefined
            ? { SystemRoot: process.env.SystemRoot }
            : {})
    }
    // In a network namespace of its own: `unshare` replaces itself with Node (same pid, so a kill reaches it).
    const [command, commandArgs] =
        unshare !== null ? [unshare, ['-rn', '--', nodePath, ...args, childScript]] : [nodePath, [...args, childScript]]
    const { runtime, init, http, startupTimeoutMs } = launch
    return new RuntimeChild(command, commandArgs, env, runtime.libraries, init, http, startupTimeoutMs, onEnd)
}

/**
 * A {@link RuntimePort} that runs the FlowMCP runtime in child processes (`runtime-child.js`), one
 * per schema, each under Node's permission model: it may read the schema's folder, the runtime,
 * the libraries and the lists (and recordings), nothing else; it may not write files, start
 * processes or workers; its environment holds only the schema's server params. A test that does not
 * answer within its `timeoutMs` fails and its child is killed (the next test starts a fresh one).
 * Never throws from `run`: every failure is an outcome.
 * @returns the port, or the problems with the options (each a sentence)
 */
export function runtimePortFromChildProcess(options: ChildRuntimeOptions): {
    port: ChildRuntimePort | null
    errors: string[]
} {
    const launch = childLaunchOf(options)
    if ('errors' in launch) return { port: null, errors: launch.errors }
    const children = new Map<string, RuntimeChild>()
    const maxChildren = options.maxChildren ?? 4

    const childFor = (key: string, request: RuntimeTestRequest & { schemaPath: string }): RuntimeChild => {
        const existing = children.get(key)
        if (existing !== undefined) {
            // Most recently used last: the oldest idle child is the one stopped when too many run.
            children.delete(key)
            children.set(key, existing)
            return existing
        }
        const child = startChild(launch, request, (ended, orphans) => {
            if (children.get(key) === ended) children.delete(key)
            for (const orphan of orphans) void port.run(orphan.request).then(orphan.resolve)
        })
        children.set(key, child)
        for (const [k, c] of children) {
            if (children.size <= maxChildren) break
            if (c !== child && c.idle) {
                children.delete(k)
                void c.close()
            }
        }
        return child
    }

    const port: ChildRuntimePort = {
        ...(launch.runtime.version !== null ? { version: launch.runtime.version } : {}),
        isolation: launch.isolation,
        hasLists: launch.runtime.lists !== null,
        async run(request: RuntimeTestRequest): Promise<RuntimeTestOutcome> {
            try {
                if (request.schemaPath === null)
                    return failure(
                        'the schema was given as an object: the runtime needs its file (schemaPath) to load its handlers'
                    )
                const withPath = request as RuntimeTestRequest & { schemaPath: string }
                const child = childFor(childKey(withPath), withPath)
                // A timeout kills the child; the tests still waiting in it are sent to a fresh one.
                return await child.run(withPath, (timedOut) =>
                    timedOut.stop('another test of this schema timed out', true)
                )
            } catch (cause) {
                return failure(`the runtime process failed: ${cause instanceof Error ? cause.message : String(cause)}`)
            }
        },
        async close(): Promise<void> {
            const all = [...children.values()]
            children.clear()
            await Promise.all(all.map((c) => c.close()))
        }
    }
    return { port, errors: [] }
}
