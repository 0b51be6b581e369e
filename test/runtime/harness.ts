import {
    cpSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    realpathSync,
    rmSync,
    symlinkSync,
    writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { httpPortFromRecordings, type FlowMCPCoreLike, type Recording } from '../../src/index.js'
import { shared } from '../support/shared.js'
import { esbuildValidators } from '../../scripts/validators.mjs'

// The FlowMCP runtime (flowmcp-core v4 source, never written to) and the 61 real schemas, both in
// ../shared of the workspace. A clone without shared/ has neither: the runtime tests skip there.
export const CORE_SOURCE = shared('flowmcp-core/').path
export const SAMPLE = shared('corpus-sample/').path
export const runtimePresent: boolean =
    shared('flowmcp-core/src/index.mjs').present && shared('flowmcp-core/package.json').present
export const samplePresent: boolean = shared('corpus-sample/files.json').present

/** The project's own node_modules: the runtime's dependencies and the schemas' libraries come from there. */
export const PROJECT_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url))

/**
 * What the runtime imports (zod, flatted) and what the sample's handler schemas declare in
 * `requiredLibraries` and the project installs (devDependencies). `talib` (native) and `echarts`
 * (not on the runtime's default allowlist) are not installed: those schemas fail to load, as they
 * would on a host without them.
 */
export const LINKED_PACKAGES = ['zod', 'flatted', 'trading-signals', 'indicatorts', 'moment'] as const

/** The runtime, prepared in a temp folder and imported. */
export interface PreparedRuntime {
    /** The imported flowmcp-core module (`FlowMCP`, …). */
    readonly core: FlowMCPCoreLike & Readonly<Record<string, unknown>>
    /** The temp root: its `node_modules` holds the links and the stand-in; the `resolveBase` of the adapter. */
    readonly base: string
    /** The runtime folder (`<base>/node_modules/flowmcp-core`: package.json and src/), what `grade --runtime` takes. */
    readonly folder: string
    /** flowmcp-core's package version. */
    readonly version: string
    /** Removes the temp folder. */
    readonly cleanup: () => void
}

/**
 * Copies flowmcp-core (`src/`, `package.json`) into a temp folder, as `<tmp>/node_modules/flowmcp-core`,
 * beside links to the project's own zod, flatted and libraries and a stand-in for `better-sqlite3`,
 * then imports it. Under `node_modules`, so vitest leaves it to Node's own loader (the runtime's
 * `import()` of schema files and libraries then works as on a host). Once per test file.
 */
export async function prepareRuntime(): Promise<PreparedRuntime> {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'flowmcp-runtime-')))
    const modules = join(base, 'node_modules')
    const folder = join(modules, 'flowmcp-core')
    mkdirSync(folder, { recursive: true })
    cpSync(join(CORE_SOURCE, 'src'), join(folder, 'src'), { recursive: true })
    cpSync(join(CORE_SOURCE, 'package.json'), join(folder, 'package.json'))
    for (const name of LINKED_PACKAGES) {
        const target = join(PROJECT_MODULES, name)
        if (existsSync(target)) symlinkSync(realpathSync(target), join(modules, name), 'dir')
    }
    // better-sqlite3 is native and its install downloads a prebuilt binary, so the project does not
    // depend on it: the runtime imports it at load but only resources construct a database, and
    // grading runs tools only. This stand-in is what the runtime gets.
    const sqlite = join(modules, 'better-sqlite3')
    mkdirSync(sqlite)
    writeFileSync(
        join(sqlite, 'package.json'),
        JSON.stringify({ name: 'better-sqlite3', version: '0.0.0-stand-in', type: 'module', main: 'index.js' })
    )
    writeFileSync(
        join(sqlite, 'index.js'),
        "export default class Database {\n    constructor() {\n        throw new Error('resources are not used when grading tools')\n    }\n}\n"
    )
    const version = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version
    const core = (await import(pathToFileURL(join(folder, 'src', 'index.mjs')).href)) as PreparedRuntime['core']
    return { core, base, folder, version, cleanup: () => rmSync(base, { recursive: true, force: true }) }
}

/** One request the stubbed network saw. */
export interface RecordedCall {
    readonly url: string
    readonly method: string
    readonly headers: Readonly<Record<string, string>>
    readonly body: string | null
}

/** A canned answer of the stubbed network. */
export interface StubAnswer {
    readonly status?: number
    /** Sent as JSON (content-type application/json). */
    readonly json?: unknown
    /** Sent as is, when `json` is not given. */
    readonly body?: string
    readonly headers?: Readonly<Record<string, string>>
}

/** The stubbed network: every call recorded, `restore()` puts the real `fetch` back. */
export interface NetworkStub {
    readonly calls: RecordedCall[]
    readonly restore: () => void
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
    const out: Record<string, string> = {}
    new Headers(init?.headers ?? {}).forEach((value, key) => {
        out[key] = value
    })
    return out
}

/**
 * Replaces `globalThis.fetch` with a recorder and replayer: every call is recorded, and answered by
 * `answer` (a function, or recordings in the format of `httpPortFromRecordings`). A call nothing
 * answers rejects at once with a TypeError (as a failed `fetch` does), so no test ever touches the
 * network or waits on it.
 */
export function stubNetwork(
    answer: ((call: RecordedCall) => StubAnswer | undefined) | readonly Recording[] = () => undefined
): NetworkStub {
    const original = globalThis.fetch
    const calls: RecordedCall[] = []
    const replay = typeof answer === 'function' ? null : httpPortFromRecordings({ recordings: answer })
    const stub = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
        const call: RecordedCall = {
            url,
            method: (init?.method ?? 'GET').toUpperCase(),
            headers: headersOf(init),
            body: typeof init?.body === 'string' ? init.body : null
        }
        calls.push(call)
        if (replay !== null) {
            const hit = await replay.send({
                url: call.url,
                method: call.method,
                headers: call.headers,
                ...(call.body !== null ? { body: call.body } : {})
            })
            return new Response(hit.body, { status: hit.status, headers: hit.headers })
        }
        const found = typeof answer === 'function' ? answer(call) : undefined
        if (found === undefined)
            throw new TypeError(`fetch failed: the test network has no answer for ${call.method} ${url}`)
        const body = found.json !== undefined ? JSON.stringify(found.json) : (found.body ?? '')
        return new Response(body, {
            status: found.status ?? 200,
            headers: {
                ...(found.json !== undefined ? { 'content-type': 'application/json' } : {}),
                ...(found.headers ?? {})
            }
        })
    }
    globalThis.fetch = stub as typeof globalThis.fetch
    return {
        calls,
        restore: () => {
            globalThis.fetch = original
        }
    }
}

/** The sample's files (`files.json`), or none when the sample is absent. */
export function sampleFiles(): string[] {
    return samplePresent ? (JSON.parse(readFileSync(join(SAMPLE, 'files.json'), 'utf8')) as string[]) : []
}

/**
 * Bundles the runtime child (`src/cli/runtime/child.ts`) into `<dir>/runtime-child.mjs` with esbuild,
 * as tsup builds `dist/runtime-child.js` for the package: the child runs in plain Node, without vitest.
 */
export async function buildChildScript(dir: string): Promise<string> {
    const { build } = await import('esbuild')
    const outfile = join(dir, 'runtime-child.mjs')
    await build({
        entryPoints: [fileURLToPath(new URL('../../src/cli/runtime/child.ts', import.meta.url))],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile,
        logLevel: 'silent',
        plugins: [esbuildValidators]
    })
    return outfile
}
