/** What a path points at; `symlink` only from {@link FsPort.lstat} and listings (links are not followed there). */
export type FsEntryKind = 'file' | 'directory' | 'symlink' | 'other'

/** One entry of a directory listing. */
export interface FsDirEntry {
    readonly name: string
    readonly kind: FsEntryKind
}

/** Metadata of an existing path. */
export interface FsStat {
    readonly kind: FsEntryKind
    readonly size: number
    readonly mtimeMs: number
}

/**
 * Storage as the library sees it: POSIX path strings, UTF-8 text. "Not found" is a value (`null`),
 * never a rejection, so adapters normalise it once (isomorphic-git style). Any other failure may
 * reject; the library turns every rejection into a coded issue (`FS-001`).
 *
 * The library builds atomic writes, never-overwrite checks, confinement to the island root and
 * temp-file hiding on top of these nine calls, so an adapter needs nothing more. What each call
 * must guarantee (the conformance suite in `test/ports/` checks every shipped adapter):
 * - `writeFile` with `{ exclusive: true }` creates the file only when nothing exists at `path`
 *   (`wx`); otherwise it rejects with an error whose `code` is `EEXIST`, leaving the file untouched.
 *   Two writers racing for one name: exactly one succeeds.
 * - `link` publishes a complete file under a second name only when that name is free (`EEXIST`
 *   otherwise), so a never-overwrite write is both atomic and exclusive.
 * - `rename` replaces the target atomically: a reader sees the old or the new bytes, never a mix.
 * - `lstat` never follows a symbolic link at `path`; the library uses it to refuse any link on the
 *   way from the island root to what it writes.
 */
export interface FsPort {
    /** File content as UTF-8 text, or `null` when the file does not exist. */
    readFile(path: string): Promise<string | null>
    /**
     * Creates or replaces a file. The parent directory exists (the library creates it first).
     * With `{ exclusive: true }` an existing path is never replaced: reject with `code: 'EEXIST'`.
     */
    writeFile(path: string, data: string, options?: { readonly exclusive?: boolean }): Promise<void>
    /** Creates a directory and any missing parents; an existing directory is fine. */
    mkdir(path: string): Promise<void>
    /** The entries of a directory (any order), or `null` when the directory does not exist. */
    readdir(path: string): Promise<readonly FsDirEntry[] | null>
    /** Metadata, or `null` when nothing exists at `path`. */
    stat(path: string): Promise<FsStat | null>
    /** Like `stat`, but a symbolic link at `path` is reported as `kind: 'symlink'`, not followed. */
    lstat(path: string): Promise<FsStat | null>
    /** Gives the file at `existing` a second name; rejects with `code: 'EEXIST'` when `path` exists. */
    link(existing: string, path: string): Promise<void>
    /** Moves a file; an existing target file is replaced (POSIX `rename`). */
    rename(from: string, to: string): Promise<void>
    /** Removes a file or a directory tree; a missing path is not an error. */
    rm(path: string): Promise<void>
}

/** One HTTP request. */
export interface HttpRequest {
    readonly url: string
    readonly method: string
    readonly headers: Readonly<Record<string, string>>
    readonly body?: string
    /** Abort after this many milliseconds, when the adapter supports it. */
    readonly timeoutMs?: number
}

/** One HTTP response; header names are lower-case. */
export interface HttpResponse {
    readonly status: number
    readonly headers: Readonly<Record<string, string>>
    readonly body: string
}

/** The network, as the library sees it. */
export interface HttpPort {
    send(request: HttpRequest): Promise<HttpResponse>
}

/** One tool test, as the FlowMCP runtime is asked to run it (handlers included). */
export interface RuntimeTestRequest {
    /**
     * Where the schema module is, for the runtime to load it (with its handlers); `null` when the host gave `main` as
     * an object.
     */
    readonly schemaPath: string | null
    /** The schema's `main` as read from its syntax tree (plain JSON). */
    readonly main: Readonly<Record<string, unknown>>
    /** The tool (route) name, as the schema writes it. */
    readonly tool: string
    readonly testIndex: number
    /** The test's values without `_description`: the user parameters of `FlowMCP.fetch`. */
    readonly userParams: Readonly<Record<string, unknown>>
    /** The server params the host gave for this schema's required keys (never written anywhere). */
    readonly serverParams: Readonly<Record<string, string>>
    readonly timeoutMs: number
}

/** What the runtime made of one test: its data or its failure, the HTTP status where one is known, its messages. */
export interface RuntimeTestOutcome {
    /** The runtime's own verdict (`FlowMCP.fetch` `status`). */
    readonly ok: boolean
    readonly data?: unknown
    readonly httpStatus?: number | null
    readonly messages?: readonly string[]
    /**
     * The network doors the test tried while the network was not granted (offline, or past the recordings): it then
     * failed for that.
     */
    readonly networkNotGranted?: readonly string[]
    /**
     * The requests the test's `fetch` sent through the host's {@link HttpPort}, in order (absent: none went through a
     * port).
     */
    readonly requests?: readonly RuntimeRequestRecord[]
}

/**
 * One request a test sent, as kept: never a key value. Every server-param value in the URL is
 * written `{{SERVER_PARAM:<KEY>}}`, as recordings write it.
 */
export interface RuntimeRequestRecord {
    /** The HTTP method, upper case. */
    readonly method: string
    /** The URL with every server-param value written `{{SERVER_PARAM:<KEY>}}`. */
    readonly url: string
    /** The status answered; `null` when no answer came (the port failed, the network refused). */
    readonly status: number | null
    /** `true` when the answer was the recordings' 404 for a request they lack (`httpPortFromRecordings`). */
    readonly missingRecording: boolean
}

/**
 * The FlowMCP runtime, as the library sees it: runs one tool test the way a host runs the tool
 * (`preRequest`, `executeRequest`, `postRequest`). The library never imports or runs schema code
 * itself; it decides working / not working from the outcome, exactly as for HTTP results.
 */
export interface RuntimePort {
    /** The runtime's version, recorded in `summary.json`. */
    readonly version?: string
    /** How the runtime is kept off the network (e.g. `network-namespace`), recorded in `summary.json`. */
    readonly isolation?: string
    /**
     * Whether the runtime was given the shared lists folder (`listsDir`). `false`: a handler failure of a schema that
     * declares `sharedLists` is named `shared-lists-not-given`, not tested here; absent: not known, not assumed.
     */
    readonly hasLists?: boolean
    run(request: RuntimeTestRequest): Promise<RuntimeTestOutcome>
}

/** The time, as the library sees it. */
export interface Clock {
    /** The current time as an ISO-8601 date-time string (UTC recommended). */
    now(): string
}

/**
 * What loading a FlowMCP module yields: its exports. Schema modules export `main` (or the legacy
 * alias `schema`) and optionally `handlers`; skill modules export `skill`.
 */
export interface LoadedModule {
    readonly main?: unknown
    readonly schema?: unknown
    readonly handlers?: unknown
    readonly skill?: unknown
}

/**
 * Loads a FlowMCP `.mjs` module. The core never executes sources; the host decides how (the Node
 * default is a dynamic `import()` in the CLI). A rejection becomes a coded issue.
 */
export interface SchemaLoader {
    load(path: string): Promise<LoadedModule>
}
