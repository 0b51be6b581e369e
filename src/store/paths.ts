import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { SNAPSHOT_NAME_REGEX } from '../naming/snapshot-filename.js'
import { type ArgCodes, parseArgs, pointerKeys, says } from '../validation/args.js'

/** Kinds of names the island puts into paths; each has its own pattern. */
export type NameKind = 'namespace' | 'schema' | 'tool' | 'skill' | 'selection' | 'file'

/**
 * Patterns per kind. All forbid `--`, the field separator of the naming grammar (03 ⚠ C5).
 * `namespace` follows Schemas-Spec v4 (`^[a-z][a-z0-9-]*$`), `selection` chapter 16 (`[a-z0-9-]+`);
 * schema slugs, tools and skills follow the reference's NAME_REGEX, which also admits camelCase
 * tool keys and skill names such as `summarizePrices`.
 */
export const NAME_PATTERNS: Readonly<Record<NameKind, RegExp>> = Object.freeze({
    namespace: /^[a-z](?:[a-z0-9]|-(?!-))*$/,
    schema: /^[A-Za-z](?:[A-Za-z0-9_]|-(?!-))*$/,
    tool: /^[A-Za-z](?:[A-Za-z0-9_]|-(?!-))*$/,
    skill: /^[A-Za-z](?:[A-Za-z0-9_]|-(?!-))*$/,
    selection: /^[a-z0-9](?:[a-z0-9]|-(?!-))*$/,
    file: /^[A-Za-z0-9_][A-Za-z0-9._-]*$/
})

// C0 controls, DEL and C1 controls: never part of a name we write to disk.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

// Windows device names open the device, not a file, with or without an extension (`nul.json`).
const RESERVED = /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?:\.[^.]*)*$/i

/** Why a string cannot be one path segment, or `null` when it can. */
export function unsafeSegmentReason(value: string): string | null {
    if (value.length === 0) return 'empty'
    if (value.includes('\u0000')) return 'contains NUL'
    if (CONTROL.test(value)) return 'contains a control character'
    if (value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value)) return 'is an absolute path'
    if (value.includes('/') || value.includes('\\')) return 'contains a path separator'
    if (value === '.' || value === '..' || value.includes('..')) return 'contains ..'
    if (value.length > 200) return 'longer than 200 characters'
    if (RESERVED.test(value)) return 'is a reserved device name'
    if (value.endsWith('.') || value.endsWith(' ')) return 'ends with a dot or a space'
    return null
}

// Absent or null: ISL-001; not a string: ISL-002 with the value's type, at the caller's path under its field name.
const ARGS: ArgCodes<'ISL-001' | 'ISL-002'> = { missing: 'ISL-001', mismatch: 'ISL-002', create: createIssue }

function stringArg(
    value: unknown,
    path: string,
    field: string
): { value: string; issue: null } | { value: null; issue: Issue } {
    const schema = v.string(says({ expected: 'string', field }))
    const given = parseArgs(schema, value ?? undefined, ARGS, { actual: 'type', at: pointerKeys(path) })
    const [issue] = given.errors
    return given.value === null && issue !== undefined
        ? { value: null, issue }
        : { value: given.value as string, issue: null }
}

/**
 * Checks a name before it becomes a path segment: first safety (ISL-003), then the kind's pattern (ISL-004).
 * Runs before any port call, so a hostile id never reaches the file system.
 */
export function checkName(given: unknown, kind: NameKind, path: string, field: string = kind): Issue | null {
    const name = stringArg(given, path, field)
    if (name.value === null) return name.issue
    const value = name.value
    const unsafe = unsafeSegmentReason(value)
    if (unsafe !== null)
        return createIssue('ISL-003', path, { field, value: describeValue(JSON.stringify(value)), detail: unsafe })
    if (!NAME_PATTERNS[kind].test(value))
        return createIssue('ISL-004', path, {
            field,
            value: describeValue(value),
            expected: String(NAME_PATTERNS[kind])
        })
    return null
}

/**
 * Normalises a root or directory path given by the host: POSIX separators, no empty or `.`
 * segments, `..` resolved lexically, no trailing slash. NUL and control characters are refused.
 * @returns the normalised path, or an FS-003 issue
 */
export function normalizeDir(given: unknown, path: string, field: string): { dir: string | null; issue: Issue | null } {
    const dir = stringArg(given, path, field)
    if (dir.value === null) return { dir: null, issue: dir.issue }
    const value = dir.value
    if (value.length === 0)
        return { dir: null, issue: createIssue('FS-003', path, { path: '""', detail: `${field} is empty` }) }
    if (CONTROL.test(value))
        return {
            dir: null,
            issue: createIssue('FS-003', path, {
                path: describeValue(JSON.stringify(value)),
                detail: 'contains NUL or a control character'
            })
        }
    const absolute = value.startsWith('/')
    const out: string[] = []
    for (const part of value.split('/')) {
        if (part === '' || part === '.') continue
        if (part === '..') {
            if (out.length > 0 && out[out.length - 1] !== '..') out.pop()
            else if (!absolute) out.push('..')
        } else out.push(part)
    }
    const joined = out.join('/')
    return { dir: absolute ? `/${joined}` : joined === '' ? '.' : joined, issue: null }
}

/** Joins an already normalised directory with checked segments. */
export function joinPath(dir: string, ...segments: readonly string[]): string {
    const base = dir === '/' ? '' : dir
    return segments.length === 0 ? dir : `${base}/${segments.join('/')}`
}

/** The last segment of a path. */
export function baseName(path: string): string {
    const i = path.lastIndexOf('/')
    return i < 0 ? path : path.slice(i + 1)
}

/** The directory part of a path (`.` when there is none). */
export function dirName(path: string): string {
    const i = path.lastIndexOf('/')
    return i < 0 ? '.' : i === 0 ? '/' : path.slice(0, i)
}

/** True when `inner` equals `outer` or lies below it (both normalised). */
export function isInside(inner: string, outer: string): boolean {
    if (outer === '/') return inner.startsWith('/')
    return inner === outer || inner.startsWith(`${outer}/`)
}

/** Fixed folder and file names of the island layout (chapter 19). */
export const LAYOUT = Object.freeze({
    providers: 'providers',
    selections: 'selections',
    sharedLists: 'shared-lists',
    gradings: '_gradings',
    index: 'index.json',
    schemaSnapshots: 'schema',
    selectionSnapshots: 'selection',
    summary: 'summary.json',
    /** The improvement loop's state beside a target's index (04 ⚠ D8): hints and iterations per unit. */
    state: 'state.json',
    resources: 'resources',
    about: 'about',
    skills: 'skills',
    tools: 'tools',
    tests: 'tests',
    proof: 'grade.json'
})

/** Prefix that marks an escaped island name (see {@link islandName}). */
export const ESCAPED_NAME_PREFIX = 'esc_'

/**
 * The island folder name of a schema file base, tool key or skill name as the FlowMCP runtime
 * accepts it. A name that already fits the naming grammar (and does not start with
 * {@link ESCAPED_NAME_PREFIX}) is kept. Any other name (`/block/:hash`, `--pnlRoutes`) is escaped:
 * `esc_`, then every ASCII letter and digit as is and every other UTF-8 byte as `_` plus two
 * lower-case hex digits. The mapping is one to one and {@link originalName} reverses it.
 * @returns the island name, or `null` when even the escaped form is longer than 200 characters
 * @example islandName('/block/:hash', 'tool') // 'esc__2fblock_2f_3ahash'
 */
export function islandName(name: string, kind: 'schema' | 'tool' | 'skill'): string | null {
    if (
        NAME_PATTERNS[kind].test(name) &&
        SNAPSHOT_NAME_REGEX.test(name) &&
        !name.startsWith(ESCAPED_NAME_PREFIX) &&
        unsafeSegmentReason(name) === null
    )
        return name
    let out = ESCAPED_NAME_PREFIX
    for (const byte of utf8Bytes(name)) {
        const ch = String.fromCharCode(byte)
        out += /[A-Za-z0-9]/.test(ch) ? ch : `_${byte.toString(16).padStart(2, '0')}`
    }
    return out.length > 200 ? null : out
}

/**
 * Reverses {@link islandName}: the runtime's name of an island folder.
 * @returns the original name, or `null` for a malformed escaped name
 * @example originalName('esc__2d_2dpnlRoutes') // '--pnlRoutes'
 */
export function originalName(name: string): string | null {
    if (!name.startsWith(ESCAPED_NAME_PREFIX)) return name
    const body = name.slice(ESCAPED_NAME_PREFIX.length)
    if (!/^(?:[A-Za-z0-9]|_[0-9a-f]{2})*$/.test(body)) return null
    const bytes: number[] = []
    for (let i = 0; i < body.length; ) {
        if (body[i] === '_') {
            bytes.push(parseInt(body.slice(i + 1, i + 3), 16))
            i += 3
        } else {
            bytes.push(body.charCodeAt(i))
            i += 1
        }
    }
    return utf8Decode(bytes)
}

function utf8Bytes(text: string): number[] {
    const bytes: number[] = []
    for (const ch of text) {
        const cp = ch.codePointAt(0) as number
        if (cp < 0x80) bytes.push(cp)
        else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f))
        else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f))
        else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f))
    }
    return bytes
}

function utf8Decode(bytes: readonly number[]): string | null {
    let out = ''
    for (let i = 0; i < bytes.length; ) {
        const lead = bytes[i] as number
        const extra = lead < 0x80 ? 0 : lead >= 0xf8 ? -1 : lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1
        if (extra < 0) return null
        let cp = extra === 0 ? lead : lead & (0x3f >> extra)
        for (let k = 1; k <= extra; k += 1) {
            const next = bytes[i + k]
            if (next === undefined || (next & 0xc0) !== 0x80) return null
            cp = (cp << 6) | (next & 0x3f)
        }
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null
        out += String.fromCodePoint(cp)
        i += extra + 1
    }
    return out
}
