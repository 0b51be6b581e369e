// The JSON-lines protocol between `grade --runtime` (the parent) and the runtime child process
// (runtime-child.ts): one JSON object per line on the child's stdin and stdout.

import type { RuntimeTestOutcome } from '../ports/types.js'

/** How the child's `fetch` behaves: the grade mode. */
export type ChildNetwork = { readonly mode: 'offline' } | { readonly mode: 'live' } | { readonly mode: 'recordings'; readonly dir: string }

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

/** What the child writes back. */
export type ChildMessage =
    | { readonly type: 'ready' }
    | { readonly type: 'fatal'; readonly message: string }
    | { readonly type: 'outcome'; readonly id: number; readonly outcome: RuntimeTestOutcome }
