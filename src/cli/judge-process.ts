// One call of a judge command as a process: spawned through a shell in a process group of its own,
// the request on its stdin and the reply from its stdout, ended once by its reply, a coded failure,
// its timeout or the caller giving up (judge-command.ts builds the call from its options).

import { spawn, type ChildProcess } from 'node:child_process'
import type { ErrorCode } from '../errors/catalogue/index.js'
import { createIssue, type IssueParams } from '../errors/issue.js'
import type { JudgeCallContext, JudgeRequest, JudgeResponse, JudgeUsage } from '../index.js'
import { rx } from '../model/regex.js'
import { definedFields } from '../model/fields.js'

/** A failed call: `message` starts with the code, so GRA-006 carries it as `JCMD-00x: …`. */
export class JudgeCommandError extends Error {
    readonly code: ErrorCode
    /**
     * Worth another try (the library retries it with backoff): a timeout, exit code 75, or a rate limit or overload in
     * the stderr tail.
     */
    readonly retryable: boolean
    /** `detail` is appended whole: catalogue parameters are cut to 120 characters, a stderr tail needs more. */
    constructor(code: ErrorCode, params: IssueParams, detail?: string, retryable = false) {
        super(`${code}: ${createIssue(code, '', params).message}${detail !== undefined ? `: ${detail}` : ''}`)
        this.name = 'JudgeCommandError'
        this.code = code
        this.retryable = retryable
    }
}

/** Exit code 75 (`EX_TEMPFAIL` of sysexits.h): the command says "try again later". */
export const RETRY_EXIT_CODE = 75
// What an LLM tool prints when the service, not the request, failed: it is throttled, or the server is down.
const THROTTLED = '429|too many requests|rate[ -]?limit(?:ed)?|overloaded'
const SERVER_DOWN = '50[0234]|bad gateway|service unavailable|gateway time-?out'
const TRANSIENT = rx('i')`\b(?:${THROTTLED}|${SERVER_DOWN})\b`

/**
 * Whether a failed run of the command is worth another try: exit code 75, or a rate limit or overload in its stderr.
 */
export function isTransientExit(code: number | null, stderr: string): boolean {
    return code === RETRY_EXIT_CODE || TRANSIENT.test(stderr.slice(-4096))
}

/** One call of a judge command: the command line, what it runs with, and the limits it runs under. */
export interface CommandCall {
    readonly command: string
    readonly shell: string
    readonly env: Record<string, string>
    readonly cwd: string | undefined
    readonly timeoutMs: number
    readonly maxOutputBytes: number
    /** The stderr of a failed call as its error shows it. */
    readonly tail: (text: string) => string
    readonly onError: ((error: JudgeCommandError) => void) | undefined
}

/**
 * Kills the command's process group: the group, not only the shell, since a grandchild may still hold the pipes open.
 */
function killGroup(child: ChildProcess): void {
    if (child.pid === undefined) return
    try {
        process.kill(-child.pid, 'SIGKILL')
    } catch {
        // The group is gone already.
    }
}

/** How a call ends, once: with the reply, with a coded failure, or abandoned by its caller. */
interface CallEnd {
    readonly settled: boolean
    succeed(reply: string | JudgeResponse): void
    fail(error: JudgeCommandError): void
}

/**
 * Ends a call at most once and starts its timeout: each ending clears the timer and the abort
 * listener; a failure or an abandoned call kills the process group, and only a failure is reported.
 */
function endOnce(
    child: ChildProcess,
    call: CommandCall,
    signal: JudgeCallContext['signal'] | undefined,
    resolve: (reply: string | JudgeResponse) => void,
    reject: (error: Error) => void
): CallEnd {
    let settled = false
    const fail = (error: JudgeCommandError): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        signal?.removeEventListener?.('abort', abandon)
        killGroup(child)
        call.onError?.(error)
        reject(error)
    }
    // The caller gave up (its timeout, or Ctrl-C): the command and what it started are killed, nothing is reported
    // twice.
    const abandon = (): void => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        killGroup(child)
        reject(new Error('the judge call was abandoned'))
    }
    const timer = setTimeout(
        () => fail(new JudgeCommandError('JCMD-002', { timeoutMs: call.timeoutMs }, undefined, true)),
        call.timeoutMs
    )
    if (signal?.aborted === true) abandon()
    else signal?.addEventListener?.('abort', abandon, { once: true })
    return {
        get settled() {
            return settled
        },
        succeed(reply) {
            if (settled) return
            settled = true
            clearTimeout(timer)
            signal?.removeEventListener?.('abort', abandon)
            resolve(reply)
        },
        fail
    }
}

/**
 * Runs the command once: the request on its stdin, its stdout the reply (or `{ text, usage }`); a coded failure when it cannot run, times out,
 * says too much or exits non-zero.
 */
export function runCommandOnce(
    call: CommandCall,
    request: JudgeRequest,
    context: JudgeCallContext | undefined
): Promise<string | JudgeResponse> {
    return new Promise<string | JudgeResponse>((resolve, reject) => {
        let child: ChildProcess
        try {
            // detached: the shell leads its own process group, so a timeout kills what it started too.
            child = spawn(call.shell, ['-c', call.command], {
                env: call.env,
                detached: true,
                stdio: ['pipe', 'pipe', 'pipe'],
                ...definedFields({ cwd: call.cwd })
            })
        } catch (cause) {
            const error = new JudgeCommandError('JCMD-001', {
                detail: cause instanceof Error ? cause.message : String(cause)
            })
            call.onError?.(error)
            reject(error)
            return
        }
        const end = endOnce(child, call, context?.signal, resolve, reject)
        if (end.settled) return
        const out: Buffer[] = []
        let outBytes = 0
        let err = ''
        child.stdout?.on('data', (chunk: Buffer) => {
            outBytes += chunk.length
            if (outBytes > call.maxOutputBytes)
                end.fail(new JudgeCommandError('JCMD-004', { limit: call.maxOutputBytes }))
            else out.push(chunk)
        })
        child.stderr?.on('data', (chunk: Buffer) => {
            // Only the tail is ever shown: keep a bounded window.
            err = (err + chunk.toString('utf8')).slice(-64 * 1024)
        })
        child.on('error', (cause) => end.fail(new JudgeCommandError('JCMD-001', { detail: cause.message })))
        child.on('close', (code, signal) => {
            if (end.settled) return
            if (code === 0) return end.succeed(responseOfCommand(Buffer.concat(out).toString('utf8')))
            const status =
                signal !== null
                    ? `signal ${signal}`
                    : code === 127
                      ? 'code 127 (command not found)'
                      : `code ${String(code)}`
            end.fail(new JudgeCommandError('JCMD-003', { status }, call.tail(err), isTransientExit(code, err)))
        })
        // A command that does not read its stdin closes the pipe early: not an error of the call.
        child.stdin?.on('error', () => undefined)
        child.stdin?.end(JSON.stringify(request))
    })
}

/** A judge that may also be called without a context (no signal: only its own timeout ends it). */
export type CommandJudge = (request: JudgeRequest, context?: JudgeCallContext) => Promise<string | JudgeResponse>

/**
 * What a command printed: the reply text, or, when it printed one JSON object with a string `text` (and neither
 * `answers` nor `blocker`: no reply), that text with the `usage` it reported (the recipes print the provider's token
 * counts that way; the library checks them).
 */
export function responseOfCommand(stdout: string): string | JudgeResponse {
    const trimmed = stdout.trim()
    if (!trimmed.startsWith('{') || !trimmed.includes('"text"')) return stdout
    try {
        const value = JSON.parse(trimmed) as Record<string, unknown>
        if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof value.text !== 'string')
            return stdout
        if ('answers' in value || 'blocker' in value) return stdout
        return value.usage === undefined ? { text: value.text } : { text: value.text, usage: value.usage as JudgeUsage }
    } catch {
        return stdout
    }
}
