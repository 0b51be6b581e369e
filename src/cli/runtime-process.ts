// `grade --runtime`: a RuntimePort whose runtime runs in a child process, never in the grading
// process. One child per schema (and per set of server params): its environment holds exactly that
// schema's server params, and one schema's code (module side effects, patched globals, a hang)
// never reaches another schema's outcome. The child runs under Node's permission model.

import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RuntimePort, RuntimeTestOutcome, RuntimeTestRequest } from '../ports/types.js'
import type { ChildInit, ChildMessage, ChildNetwork, ChildRun } from './runtime-protocol.js'

/** Options of {@link runtimePortFromChildProcess}. */
export interface ChildRuntimeOptions {
    /** The flowmcp-core folder (its package.json and `src/`). */
    readonly runtime: string
    /** The folder whose `node_modules` holds the schemas' `requiredLibraries`; default: the runtime folder. */
    readonly libraries?: string
    /** The shared lists folder (`listsDir`). */
    readonly lists?: string
    /** How `fetch` behaves in the child: the grade mode. */
    readonly network: ChildNetwork
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
     * How the child is kept off the network offline and under recordings: `auto` (default) takes the
     * strongest the platform offers; `module-doors` only closes the module doors in the child.
     */
    readonly isolation?: 'auto' | 'module-doors'
    /** The `unshare` binary for a network namespace (default: found on PATH on Linux; `null`: none). */
    readonly unsharePath?: string | null
}

/** A {@link RuntimePort} backed by child processes; `close()` stops them. */
export interface ChildRuntimePort extends RuntimePort {
    /** How the children are kept off the network, e.g. `network-namespace+module-doors`, or `granted (--live)`. */
    readonly isolation: string
    close(): Promise<void>
}

/** The `unshare` binaries found to make a network namespace, by path (probed once per process). */
const namespaceProbes = new Map<string, boolean>()

/** `unshare` on PATH (Linux only), or null. */
function findUnshare(): string | null {
    if (process.platform !== 'linux') return null
    for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
        const candidate = join(dir, 'unshare')
        if (dir.length > 0 && existsSync(candidate)) return candidate
    }
    return null
}

/**
 * Whether `unshare -rn` makes a network namespace here without privileges (a user namespace mapped
 * to the caller): tried once with this Node, as the child would be started.
 */
export function networkNamespaceWorks(unshare: string, nodePath: string): boolean {
    const key = `${unshare}\u0000${nodePath}`
    let works = namespaceProbes.get(key)
    if (works === undefined) {
        const probe = spawnSync(unshare, ['-rn', '--', nodePath, '-e', ''], { stdio: 'ignore', timeout: 10_000, windowsHide: true })
        works = probe.error === undefined && probe.status === 0
        namespaceProbes.set(key, works)
    }
    return works
}

/**
 * The isolation of a child: none in live mode; otherwise the module doors always, under the
 * strongest the platform adds: a network namespace (no interface but a loopback that is down), or
 * Node's own network permission (a permission model that restricts the network, on a Node with `--allow-net`).
 */
export function chooseIsolation(input: { live: boolean; forced: 'auto' | 'module-doors'; unshare: string | null; nodePath: string; hasFlag: (flag: string) => boolean }): { isolation: string; unshare: string | null } {
    if (input.live) return { isolation: 'granted (--live)', unshare: null }
    if (input.forced === 'module-doors') return { isolation: 'module-doors', unshare: null }
    if (input.unshare !== null && networkNamespaceWorks(input.unshare, input.nodePath)) return { isolation: 'network-namespace+module-doors', unshare: input.unshare }
    if (input.hasFlag('--allow-net')) return { isolation: 'node-permission+module-doors', unshare: null }
    return { isolation: 'module-doors', unshare: null }
}

/**
 * The permission-model flag of a Node version: `--permission` from 23.5 and 22.13 (where it became
 * stable), `--experimental-permission` from 20.0, `null` before (no permission model).
 * @param version - e.g. `v20.20.2`
 */
export function permissionFlag(version: string): '--permission' | '--experimental-permission' | null {
    const m = /^v?(\d+)\.(\d+)/.exec(version)
    if (m === null) return null
    const major = Number(m[1])
    const minor = Number(m[2])
    if (major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return '--permission'
    if (major >= 20) return '--experimental-permission'
    return null
}

/**
 * The Node flags of a runtime child: the permission model with read access to `allowRead` only (no
 * `--allow-fs-write`, `--allow-child-process`, `--allow-worker`, `--allow-addons`, `--allow-wasi`);
 * network access (`--allow-net`, on a Node that restricts it) only in live mode.
 * @returns the flags, or `null` when this Node has no permission model (the child is then not started)
 */
export function childNodeArgs(input: { nodeVersion: string; hasFlag: (flag: string) => boolean; allowRead: readonly string[]; live: boolean }): string[] | null {
    const flag = permissionFlag(input.nodeVersion)
    if (flag === null) return null
    return ['--no-warnings', flag, ...input.allowRead.map((p) => `--allow-fs-read=${p}`), ...(input.live && input.hasFlag('--allow-net') ? ['--allow-net'] : [])]
}

type PackageJson = { name?: unknown; version?: unknown; main?: unknown; exports?: unknown; dependencies?: unknown }

function readPackage(dir: string): PackageJson | null {
    try {
        return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson
    } catch {
        return null
    }
}

/** The module `import('<package>')` loads: `exports['.']` (import/default), else `main`, else `src/index.mjs`. */
function entryOf(dir: string, pkg: PackageJson): string {
    const dot = typeof pkg.exports === 'string' ? pkg.exports : (pkg.exports as Record<string, unknown> | undefined)?.['.']
    const fromExports = typeof dot === 'string' ? dot : typeof (dot as Record<string, unknown> | undefined)?.import === 'string' ? ((dot as Record<string, unknown>).import as string) : typeof (dot as Record<string, unknown> | undefined)?.default === 'string' ? ((dot as Record<string, unknown>).default as string) : undefined
    return resolve(dir, fromExports ?? (typeof pkg.main === 'string' ? pkg.main : 'src/index.mjs'))
}

const real = (p: string): string => {
    try {
        return realpathSync(p)
    } catch {
        return p
    }
}

/** The folders of a package's dependencies, followed transitively (real paths): what importing it reads. */
function dependencyFolders(fromDir: string, pkg: PackageJson, seen: Set<string>, limit = 400): void {
    const deps = pkg.dependencies !== null && typeof pkg.dependencies === 'object' ? Object.keys(pkg.dependencies) : []
    const req = createRequire(join(fromDir, 'index.js'))
    for (const dep of deps) {
        if (seen.size >= limit) return
        let dir: string | null = null
        for (const base of req.resolve.paths(dep) ?? []) {
            if (existsSync(join(base, dep, 'package.json'))) {
                dir = real(join(base, dep))
                break
            }
        }
        if (dir === null || seen.has(dir)) continue
        seen.add(dir)
        const depPkg = readPackage(dir)
        if (depPkg !== null) dependencyFolders(dir, depPkg, seen, limit)
    }
}

/** `<folder>/node_modules` and the real folders its linked packages point at. */
function modulesFolders(folder: string): string[] {
    const modules = join(folder, 'node_modules')
    if (!existsSync(modules)) return []
    const out = [modules, real(modules)]
    const visit = (dir: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const full = join(dir, entry.name)
            if (entry.isDirectory() && entry.name.startsWith('@')) visit(full)
            else if (entry.isSymbolicLink()) out.push(real(full))
        }
    }
    try {
        visit(modules)
    } catch {
        // An unreadable node_modules grants nothing beyond itself.
    }
    return out
}

/** The parts of a runtime folder the parent resolves before any child starts. */
export interface ResolvedRuntime {
    readonly entry: string
    readonly version: string | null
    readonly libraries: string
    readonly lists: string | null
    /** What every child may read (its schema's folder is added per child). */
    readonly allowRead: readonly string[]
}

/**
 * Checks a runtime folder and works out what a child may read: the child script's folder, the
 * runtime folder, its dependencies, the libraries folder's `node_modules`, the lists and recordings.
 * @returns the resolved runtime, or the problems (each a sentence)
 */
export function resolveRuntime(options: Pick<ChildRuntimeOptions, 'runtime' | 'libraries' | 'lists' | 'network'> & { childScript: string }): { runtime: ResolvedRuntime | null; errors: string[] } {
    const errors: string[] = []
    const folder = resolve(options.runtime)
    const pkg = readPackage(folder)
    if (pkg === null) errors.push(`--runtime ${options.runtime}: no readable package.json there (name the flowmcp-core folder)`)
    const entry = pkg === null ? '' : entryOf(folder, pkg)
    if (pkg !== null && !existsSync(entry)) errors.push(`--runtime ${options.runtime}: its entry ${entry} does not exist`)
    const isDir = (p: string): boolean => {
        try {
            return statSync(p).isDirectory()
        } catch {
            return false
        }
    }
    const libraries = resolve(options.libraries ?? folder)
    if (options.libraries !== undefined && !isDir(libraries)) errors.push(`--runtime-libraries ${options.libraries}: not a folder`)
    const lists = options.lists !== undefined ? resolve(options.lists) : null
    if (lists !== null && !isDir(lists)) errors.push(`--runtime-lists ${options.lists ?? ''}: not a folder`)
    if (!existsSync(options.childScript)) errors.push(`the runtime child script ${options.childScript} is missing (a broken install?)`)
    if (errors.length > 0 || pkg === null) return { runtime: null, errors }
    const deps = new Set<string>()
    dependencyFolders(folder, pkg, deps)
    const allowRead = [
        dirname(options.childScript),
        folder,
        real(folder),
        ...deps,
        ...modulesFolders(libraries),
        ...(lists !== null ? [lists, real(lists)] : []),
        ...(options.network.mode === 'recordings' ? [resolve(options.network.dir), real(resolve(options.network.dir))] : [])
    ]
    return { runtime: { entry, version: typeof pkg.version === 'string' ? pkg.version : null, libraries, lists, allowRead: [...new Set(allowRead)] }, errors: [] }
}

const failure = (message: string): RuntimeTestOutcome => ({ ok: false, httpStatus: null, messages: [message] })

/** An outcome as the child sent it, checked: anything else is a failure that says so. */
function checkedOutcome(value: unknown): RuntimeTestOutcome {
    if (value === null || typeof value !== 'object') return failure('the runtime process sent no outcome object')
    const o = value as Record<string, unknown>
    const messages = Array.isArray(o.messages) ? o.messages.filter((m): m is string => typeof m === 'string').slice(0, 20) : []
    const doors = Array.isArray(o.networkNotGranted) ? o.networkNotGranted.filter((d): d is string => typeof d === 'string').slice(0, 20) : []
    return {
        // A test that tried a closed door is never a success, whatever the child said.
        ok: o.ok === true && doors.length === 0,
        ...(Object.hasOwn(o, 'data') ? { data: o.data } : {}),
        httpStatus: typeof o.httpStatus === 'number' && Number.isInteger(o.httpStatus) ? o.httpStatus : null,
        messages,
        ...(doors.length > 0 ? { networkNotGranted: doors } : {})
    }
}

/** Longest line the parent buffers from a child (an answer with more data is refused). */
const MAX_LINE = 64 * 1024 * 1024

interface Pending {
    readonly request: RuntimeTestRequest
    readonly resolve: (outcome: RuntimeTestOutcome) => void
    timer: ReturnType<typeof setTimeout> | null
}

/** One child process: started for one schema, serving its tests. */
class RuntimeChild {
    readonly pending = new Map<number, Pending>()
    readonly ready: Promise<string | null>
    private readonly proc: ChildProcessWithoutNullStreams
    private stderrTail = ''
    private buffer = ''
    private nextId = 1
    private settleReady: (problem: string | null) => void = () => undefined
    private ended = false

    constructor(
        command: string,
        args: readonly string[],
        env: Record<string, string>,
        cwd: string,
        init: ChildInit,
        startupTimeoutMs: number,
        private readonly onEnd: (child: RuntimeChild, orphans: Pending[]) => void
    ) {
        this.ready = new Promise((settle) => {
            this.settleReady = settle
        })
        this.proc = spawn(command, [...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
        const startup = setTimeout(() => this.stop(`the runtime did not start within ${startupTimeoutMs} ms`), startupTimeoutMs)
        void this.ready.then(() => clearTimeout(startup))
        this.proc.on('error', (error) => this.stop(`the runtime process could not run: ${error.message}`))
        this.proc.on('exit', (code, signal) => this.stop(`the runtime process ended (${signal ?? `exit code ${code}`})`))
        this.proc.stdin.on('error', () => undefined)
        this.proc.stderr.setEncoding('utf8')
        this.proc.stderr.on('data', (chunk: string) => {
            this.stderrTail = (this.stderrTail + chunk).slice(-4000)
        })
        this.proc.stdout.setEncoding('utf8')
        this.proc.stdout.on('data', (chunk: string) => this.receive(chunk))
        // A child never keeps the grading process alive on its own; a waiting test's timer does.
        this.proc.unref()
        for (const stream of [this.proc.stdin, this.proc.stdout, this.proc.stderr]) (stream as unknown as { unref?: () => void }).unref?.()
        this.proc.stdin.write(JSON.stringify(init) + '\n')
    }

    get idle(): boolean {
        return this.pending.size === 0
    }

    /** The last lines the child wrote to stderr, for a failure message. */
    private tail(): string {
        const lines = this.stderrTail.trim().split('\n').filter((l) => l.trim().length > 0)
        return lines.length === 0 ? '' : `: ${lines.slice(-3).join(' | ').slice(0, 600)}`
    }

    private receive(chunk: string): void {
        this.buffer += chunk
        if (this.buffer.length > MAX_LINE && !this.buffer.includes('\n')) {
            this.stop('the runtime process sent an answer larger than 64 MB')
            return
        }
        let at = this.buffer.indexOf('\n')
        while (at >= 0) {
            const line = this.buffer.slice(0, at)
            this.buffer = this.buffer.slice(at + 1)
            this.handle(line)
            at = this.buffer.indexOf('\n')
        }
    }

    private handle(line: string): void {
        let message: ChildMessage
        try {
            message = JSON.parse(line) as ChildMessage
        } catch {
            return // Not a protocol line (schema code writing to stdout): ignored.
        }
        if (message === null || typeof message !== 'object') return
        if (message.type === 'ready') this.settleReady(null)
        else if (message.type === 'fatal') this.stop(typeof message.message === 'string' ? message.message : 'the runtime did not start')
        else if (message.type === 'outcome') {
            const entry = this.pending.get(message.id)
            if (entry === undefined) return
            this.pending.delete(message.id)
            if (entry.timer !== null) clearTimeout(entry.timer)
            entry.resolve(checkedOutcome(message.outcome))
        }
    }

    /** Sends one test; resolves with its outcome, or a failure when the child times out or dies. */
    async run(request: RuntimeTestRequest & { schemaPath: string }, onTimeout: (child: RuntimeChild) => void): Promise<RuntimeTestOutcome> {
        return new Promise((resolveOutcome) => {
            const id = this.nextId++
            const entry: Pending = { request, resolve: resolveOutcome, timer: null }
            this.pending.set(id, entry)
            void this.ready.then((problem) => {
                if (problem !== null || !this.pending.has(id)) return
                const message: ChildRun = { type: 'run', id, schemaPath: request.schemaPath, main: request.main, tool: request.tool, testIndex: request.testIndex, userParams: request.userParams, serverParamKeys: Object.keys(request.serverParams), timeoutMs: request.timeoutMs }
                const timeoutMs = Number.isFinite(request.timeoutMs) && request.timeoutMs > 0 ? request.timeoutMs : 30_000
                entry.timer = setTimeout(() => {
                    if (!this.pending.delete(id)) return
                    resolveOutcome(failure(`the runtime did not answer within ${timeoutMs} ms: its process was stopped`))
                    onTimeout(this)
                }, timeoutMs)
                this.proc.stdin.write(JSON.stringify(message) + '\n')
            })
        })
    }

    /** Ends the child: its waiting tests fail with `reason`, or go back to the port (`orphans`) after a timeout. */
    stop(reason: string, requeue = false): void {
        if (this.ended) return
        this.ended = true
        const problem = `${reason}${this.tail()}`
        this.settleReady(problem)
        const orphans = [...this.pending.values()]
        this.pending.clear()
        for (const entry of orphans) if (entry.timer !== null) clearTimeout(entry.timer)
        if (!requeue) for (const entry of orphans) entry.resolve(failure(problem))
        this.proc.stdin.end()
        if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL')
        this.onEnd(this, requeue ? orphans : [])
    }

    /** Asks the child to finish (stdin closed) and kills it when it has not after `graceMs`. */
    async close(graceMs = 1000): Promise<void> {
        if (this.ended) return
        await new Promise<void>((done) => {
            const timer = setTimeout(() => {
                this.stop('the grading run ended')
                done()
            }, graceMs)
            this.proc.once('exit', () => {
                clearTimeout(timer)
                done()
            })
            this.proc.stdin.end()
        })
        this.stop('the grading run ended')
    }
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
export function runtimePortFromChildProcess(options: ChildRuntimeOptions): { port: ChildRuntimePort | null; errors: string[] } {
    const childScript = resolve(options.childScript ?? fileURLToPath(new URL('./runtime-child.js', import.meta.url)))
    const resolved = resolveRuntime({ ...options, childScript })
    if (resolved.runtime === null) return { port: null, errors: resolved.errors }
    const runtime = resolved.runtime
    const nodeVersion = options.nodeVersion ?? process.version
    const hasFlag = options.nodeHasFlag ?? ((flag: string) => process.allowedNodeEnvironmentFlags.has(flag))
    if (permissionFlag(nodeVersion) === null) return { port: null, errors: [`--runtime needs Node's permission model (Node 20 or later); this is Node ${nodeVersion}`] }
    const init: ChildInit = { type: 'init', entry: runtime.entry, libraries: runtime.libraries, lists: runtime.lists, network: options.network, version: runtime.version }
    const nodePath = options.nodePath ?? process.execPath
    const { isolation, unshare } = chooseIsolation({ live: options.network.mode === 'live', forced: options.isolation ?? 'auto', unshare: options.unsharePath === undefined ? findUnshare() : options.unsharePath, nodePath, hasFlag })
    const children = new Map<string, RuntimeChild>()
    const maxChildren = options.maxChildren ?? 4
    const keyOf = (request: RuntimeTestRequest & { schemaPath: string }): string => JSON.stringify([request.schemaPath, Object.entries(request.serverParams).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))])

    const childFor = (key: string, request: RuntimeTestRequest & { schemaPath: string }): RuntimeChild => {
        const existing = children.get(key)
        if (existing !== undefined) {
            // Most recently used last: the oldest idle child is the one stopped when too many run.
            children.delete(key)
            children.set(key, existing)
            return existing
        }
        const schemaDir = dirname(resolve(request.schemaPath))
        const args = childNodeArgs({ nodeVersion, hasFlag, allowRead: [...new Set([...runtime.allowRead, schemaDir, real(schemaDir)])], live: options.network.mode === 'live' }) ?? []
        // Only the schema's server params; Windows needs SystemRoot to start a process at all.
        const env: Record<string, string> = { ...request.serverParams, ...(process.platform === 'win32' && process.env.SystemRoot !== undefined ? { SystemRoot: process.env.SystemRoot } : {}) }
        // In a network namespace of its own: `unshare` replaces itself with Node (same pid, so a kill reaches it).
        const [command, commandArgs] = unshare !== null ? [unshare, ['-rn', '--', nodePath, ...args, childScript]] : [nodePath, [...args, childScript]]
        const child = new RuntimeChild(command, commandArgs, env, runtime.libraries, init, options.startupTimeoutMs ?? 20_000, (ended, orphans) => {
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
        ...(runtime.version !== null ? { version: runtime.version } : {}),
        isolation,
        async run(request: RuntimeTestRequest): Promise<RuntimeTestOutcome> {
            try {
                if (request.schemaPath === null) return failure('the schema was given as an object: the runtime needs its file (schemaPath) to load its handlers')
                const withPath = request as RuntimeTestRequest & { schemaPath: string }
                const child = childFor(keyOf(withPath), withPath)
                // A timeout kills the child; the tests still waiting in it are sent to a fresh one.
                return await child.run(withPath, (timedOut) => timedOut.stop('another test of this schema timed out', true))
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
