// One runtime child process of `grade --runtime`: started for one schema, it serves that schema's
// tests over the JSON-lines protocol (protocol.ts) and ends on a fatal line, a timeout, its
// exit or the end of the run.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { maskServerParams } from '../../ports/fetch-bridge.js'
import { isMissingRecording } from '../../ports/replay.js'
import type {
    HttpPort,
    HttpRequest,
    RuntimeRequestRecord,
    RuntimeTestOutcome,
    RuntimeTestRequest
} from '../../ports/types.js'
import type { ChildInit, ChildMessage, ChildRun, ParentAnswer } from './protocol.js'
import { checkedOutcome, failure } from './outcome.js'

/** Longest line the parent buffers from a child (an answer with more data is refused). */
const MAX_LINE = 64 * 1024 * 1024

/** A test sent to a child and not answered yet, with the requests it sent through the parent so far. */
export interface Pending {
    readonly request: RuntimeTestRequest
    readonly resolve: (outcome: RuntimeTestOutcome) => void
    timer: ReturnType<typeof setTimeout> | null
    readonly requests: RuntimeRequestRecord[]
}

/** Most requests kept per test (a handler that loops is cut short in the record, not in its run). */
const MAX_REQUESTS = 50

/** One child process: started for one schema, serving its tests. */
export class RuntimeChild {
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
        /** The parent's network for the child's requests (live, recorded or replayed); null offline. */
        private readonly http: HttpPort | null,
        startupTimeoutMs: number,
        private readonly onEnd: (child: RuntimeChild, orphans: Pending[]) => void
    ) {
        this.ready = new Promise((settle) => {
            this.settleReady = settle
        })
        this.proc = spawn(command, [...args], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true })
        const startup = setTimeout(
            () => this.stop(`the runtime did not start within ${startupTimeoutMs} ms`),
            startupTimeoutMs
        )
        void this.ready.then(() => clearTimeout(startup))
        this.proc.on('error', (error) => this.stop(`the runtime process could not run: ${error.message}`))
        this.proc.on('exit', (code, signal) =>
            this.stop(`the runtime process ended (${signal ?? `exit code ${code}`})`)
        )
        this.proc.stdin.on('error', () => undefined)
        this.proc.stderr.setEncoding('utf8')
        this.proc.stderr.on('data', (chunk: string) => {
            this.stderrTail = (this.stderrTail + chunk).slice(-4000)
        })
        this.proc.stdout.setEncoding('utf8')
        this.proc.stdout.on('data', (chunk: string) => this.receive(chunk))
        // A child never keeps the grading process alive on its own; a waiting test's timer does.
        this.proc.unref()
        for (const stream of [this.proc.stdin, this.proc.stdout, this.proc.stderr])
            (stream as unknown as { unref?: () => void }).unref?.()
        this.proc.stdin.write(`${JSON.stringify(init)}\n`)
    }

    get idle(): boolean {
        return this.pending.size === 0
    }

    /** The last lines the child wrote to stderr, for a failure message. */
    private tail(): string {
        const lines = this.stderrTail
            .trim()
            .split('\n')
            .filter((l) => l.trim().length > 0)
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
        else if (message.type === 'fatal')
            this.stop(typeof message.message === 'string' ? message.message : 'the runtime did not start')
        else if (message.type === 'fetch') void this.fetch(message)
        else if (message.type === 'outcome') {
            const entry = this.pending.get(message.id)
            if (entry === undefined) return
            this.pending.delete(message.id)
            if (entry.timer !== null) clearTimeout(entry.timer)
            const outcome = checkedOutcome(message.outcome)
            entry.resolve(entry.requests.length > 0 ? { ...outcome, requests: [...entry.requests] } : outcome)
        }
    }

    /**
     * One request of the child's: sent through the parent's port, kept (keys masked) on the test
     * that sent it, and answered on the child's stdin. Offline, or outside any test, it is refused.
     */
    private async fetch(message: { id: number; run: number | null; request: HttpRequest }): Promise<void> {
        const entry = typeof message.run === 'number' ? this.pending.get(message.run) : undefined
        const request = message.request
        let answer: ParentAnswer
        if (
            this.http === null ||
            entry === undefined ||
            request === null ||
            typeof request !== 'object' ||
            typeof request.url !== 'string'
        ) {
            answer = {
                type: 'answer',
                id: message.id,
                response: null,
                error:
                    this.http === null
                        ? 'network not granted: the grading runs offline'
                        : 'network not granted: the request was sent outside any test'
            }
        } else {
            const record = {
                method: String(request.method ?? 'GET').toUpperCase(),
                url: maskServerParams(request.url, entry.request.serverParams)
            }
            try {
                const response = await this.http.send({
                    url: request.url,
                    method: record.method,
                    headers: { ...(request.headers ?? {}) },
                    ...(typeof request.body === 'string' ? { body: request.body } : {}),
                    timeoutMs: entry.request.timeoutMs
                })
                if (entry.requests.length < MAX_REQUESTS)
                    entry.requests.push({
                        ...record,
                        status: response.status,
                        missingRecording: isMissingRecording(response)
                    })
                answer = {
                    type: 'answer',
                    id: message.id,
                    response: { status: response.status, headers: { ...response.headers }, body: response.body },
                    error: null
                }
            } catch (cause) {
                if (entry.requests.length < MAX_REQUESTS)
                    entry.requests.push({ ...record, status: null, missingRecording: false })
                answer = {
                    type: 'answer',
                    id: message.id,
                    response: null,
                    error: cause instanceof Error ? cause.message : String(cause)
                }
            }
        }
        if (!this.ended) this.proc.stdin.write(`${JSON.stringify(answer)}\n`)
    }

    /** Sends one test; resolves with its outcome, or a failure when the child times out or dies. */
    async run(
        request: RuntimeTestRequest & { schemaPath: string },
        onTimeout: (child: RuntimeChild) => void
    ): Promise<RuntimeTestOutcome> {
        return new Promise((resolveOutcome) => {
            const id = this.nextId++
            const entry: Pending = { request, resolve: resolveOutcome, timer: null, requests: [] }
            this.pending.set(id, entry)
            void this.ready.then((problem) => {
                if (problem !== null || !this.pending.has(id)) return
                const message: ChildRun = {
                    type: 'run',
                    id,
                    schemaPath: request.schemaPath,
                    main: request.main,
                    tool: request.tool,
                    testIndex: request.testIndex,
                    userParams: request.userParams,
                    serverParamKeys: Object.keys(request.serverParams),
                    timeoutMs: request.timeoutMs
                }
                const timeoutMs =
                    Number.isFinite(request.timeoutMs) && request.timeoutMs > 0 ? request.timeoutMs : 30_000
                entry.timer = setTimeout(() => {
                    if (!this.pending.delete(id)) return
                    resolveOutcome(
                        failure(`the runtime did not answer within ${timeoutMs} ms: its process was stopped`)
                    )
                    onTimeout(this)
                }, timeoutMs)
                this.proc.stdin.write(`${JSON.stringify(message)}\n`)
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
