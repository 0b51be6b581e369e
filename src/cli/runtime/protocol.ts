// The JSON-lines protocol between `grade --runtime` (the parent) and the runtime child process
// (child.ts): one JSON object per line on the child's stdin and stdout.

import type { HttpRequest, HttpResponse, RuntimeTestOutcome } from '../../ports/types.js'

/**
 * The grade mode: offline the child's `fetch` is refused; live and under recordings it goes to the
 * parent's HttpPort over this protocol (the parent's network, or the recordings in `dir` when the
 * parent was given no port of its own).
 */
export type ChildNetwork =
    | { readonly mode: 'offline' }
    | { readonly mode: 'live' }
    | { readonly mode: 'recordings'; readonly dir?: string }

/** The first line the parent sends: what to import and how the network behaves. */
export interface ChildInit {
    readonly type: 'init'
    /** The runtime's entry module (flowmcp-core's `src/index.mjs`), an absolute path. */
    readonly entry: string
    /** Where `requiredLibraries` resolve from (`resolveBase`). */
    readonly libraries: string
    /** The shared lists folder (`listsDir`), or null. */
    readonly lists: string | null
    readonly network: ChildNetwork
    /** The runtime's version, as the parent read it from its package.json. */
    readonly version: string | null
}

/**
 * One tool test. Server params travel in the child's environment (set when it starts), never on
 * stdin: the request names only their keys.
 */
export interface ChildRun {
    readonly type: 'run'
    readonly id: number
    readonly schemaPath: string
    readonly main: Readonly<Record<string, unknown>>
    readonly tool: string
    readonly testIndex: number
    readonly userParams: Readonly<Record<string, unknown>>
    readonly serverParamKeys: readonly string[]
    readonly timeoutMs: number
}

/** The parent's answer to a child's `fetch` line: the response, or why there is none. */
export interface ParentAnswer {
    readonly type: 'answer'
    readonly id: number
    readonly response: HttpResponse | null
    readonly error: string | null
}

/** What the child writes back: readiness, outcomes, and each request its tests send (`run`: the test's id). */
export type ChildMessage =
    | { readonly type: 'ready' }
    | { readonly type: 'fatal'; readonly message: string }
    | { readonly type: 'outcome'; readonly id: number; readonly outcome: RuntimeTestOutcome }
    | { readonly type: 'fetch'; readonly id: number; readonly run: number | null; readonly request: HttpRequest }
