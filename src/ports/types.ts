/** What a path points at. */
export type FsEntryKind = 'file' | 'directory' | 'other'

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
 * The library builds atomic writes, never-overwrite checks and temp-file hiding on top of these
 * seven calls, so an adapter needs nothing more.
 */
export interface FsPort {
    /** File content as UTF-8 text, or `null` when the file does not exist. */
    readFile(path: string): Promise<string | null>
    /** Creates or replaces a file. The parent directory exists (the library creates it first). */
    writeFile(path: string, data: string): Promise<void>
    /** Creates a directory and any missing parents; an existing directory is fine. */
    mkdir(path: string): Promise<void>
    /** The entries of a directory (any order), or `null` when the directory does not exist. */
    readdir(path: string): Promise<readonly FsDirEntry[] | null>
    /** Metadata, or `null` when nothing exists at `path`. */
    stat(path: string): Promise<FsStat | null>
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
