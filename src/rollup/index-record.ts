import { PACKAGE_VERSION } from '../version.js'
import { decodeFacts, decodeVerified, encodeFacts, encodeVerified, type FolderRecord } from './folder-state.js'
import type { GradingFacts } from './types.js'
import { isObject } from '../model/object.js'

/**
 * The rebuild record: a file beside `index.json` that remembers, per `_gradings/` folder, which
 * files the index was derived from and the few facts a status rests on. It is a cache: deleting it
 * only makes the next rebuild read every file again. One line per folder, so a damaged line is
 * found without trusting the rest. `index.json` itself stays exactly as the
 * spec's schema describes it. Its lines are `<checksum> <json>`, so the name claims neither JSON
 * nor JSON Lines: a tool that parses every `.json` file of an island must not trip over it.
 */
export const INDEX_RECORD_FILE = '.index-record'

/**
 * The record's earlier name. Ignored, never read: it is only a cache, so a folder that
 * still holds it rebuilds as without a record (every file read), and a successful rebuild removes
 * it. Listings skip it like the record itself, so it is never taken for an input or a change.
 */
export const LEGACY_INDEX_RECORD_FILE = '.index-record.json'

/** Bumps whenever what a record holds, or how facts are derived from a file, changes. */
export const INDEX_RECORD_VERSION = 1

/** FNV-1a over the body: catches a damaged record, cheap over a few hundred kB. */
function checksum(text: string): string {
    let a = 0x811c9dc5
    for (let i = 0; i < text.length; i += 1) a = Math.imul(a ^ text.charCodeAt(i), 0x01000193) >>> 0
    return a.toString(16).padStart(8, '0') + text.length.toString(16)
}

/** Which index a record belongs to: `namespace:<ns>` or `selection:<sel>`. */
export type RecordOwner = `namespace:${string}` | `selection:${string}`

function encodeLine(rel: string, f: FolderRecord): string {
    const kept = Object.fromEntries(
        f.kept.map((k) => [
            k.screened.file,
            k.verified === null ? [encodeFacts(k.screened)] : [encodeFacts(k.screened), encodeVerified(k.verified)]
        ])
    )
    const json = JSON.stringify([rel, f.listing, f.strays, kept])
    return `${checksum(json)} ${json}`
}

/**
 * Serialises the folder records: a header line (record version, library version, owner), then one
 * line per folder, `<checksum> <json>`, sorted by folder. A folder whose record came back unchanged
 * reuses its line as read, so a rebuild after one new entry encodes one folder.
 */
export function serializeRecord(owner: RecordOwner, folders: ReadonlyMap<string, FolderRecord>): string {
    const lines = [JSON.stringify({ indexRecord: INDEX_RECORD_VERSION, library: PACKAGE_VERSION, owner })]
    for (const rel of [...folders.keys()].sort()) {
        const f = folders.get(rel) as FolderRecord
        lines.push(f.line ?? encodeLine(rel, f))
    }
    return `${lines.join('\n')}\n`
}

/** Why a record was not used; `null` reason with a result means it was. */
export interface ParsedRecord {
    readonly folders: Map<string, FolderRecord> | null
    readonly reason: string | null
}

function isStrings(v: unknown): v is string[] {
    return Array.isArray(v) && v.every((x) => typeof x === 'string')
}

function parseLine(line: string): { rel: string; record: FolderRecord } | string {
    const space = line.indexOf(' ')
    const json = line.slice(space + 1)
    if (space < 0 || line.slice(0, space) !== checksum(json)) return 'checksum mismatch'
    let value: unknown
    try {
        value = JSON.parse(json)
    } catch {
        return 'unreadable folder line'
    }
    if (!Array.isArray(value) || value.length !== 4) return 'malformed folder line'
    const [rel, listing, strays, keptValue] = value as [unknown, unknown, unknown, unknown]
    if (typeof rel !== 'string' || typeof listing !== 'string' || !isStrings(strays) || !isObject(keptValue))
        return 'malformed folder line'
    const bounded = `/${listing}/`
    const kept: Array<{ screened: GradingFacts; verified: GradingFacts | null }> = []
    for (const [file, pair] of Object.entries(keptValue as Record<string, unknown>)) {
        if (
            !bounded.includes(`/${file}/`) ||
            strays.includes(file) ||
            !Array.isArray(pair) ||
            pair.length < 1 ||
            pair.length > 2
        )
            return `malformed facts ${rel}/${file}`
        const screened = decodeFacts(file, pair[0])
        const verified = screened !== null && pair.length === 2 ? decodeVerified(screened, pair[1]) : null
        if (screened === null || (pair.length === 2 && verified === null)) return `malformed facts ${rel}/${file}`
        kept.push({ screened, verified })
    }
    return { rel, record: { listing, strays, kept, line } }
}

/**
 * Reads a record back. Anything unexpected — another record or library version, another owner, a
 * line whose checksum does not match, a malformed folder or fact — makes the whole record
 * unusable: the rebuild then reads every file, as without a record. Never throws.
 */
export function parseRecord(text: string | null, owner: RecordOwner): ParsedRecord {
    if (text === null) return { folders: null, reason: null }
    if (!text.endsWith('\n')) return { folders: null, reason: 'not a rebuild record' }
    const lines = text.slice(0, -1).split('\n')
    let header: unknown
    try {
        header = JSON.parse(lines[0] as string)
    } catch {
        return { folders: null, reason: 'not a rebuild record' }
    }
    const h = header as { indexRecord?: unknown; library?: unknown; owner?: unknown } | null
    if (h === null || typeof h !== 'object' || h.indexRecord === undefined)
        return { folders: null, reason: 'not a rebuild record' }
    if (h.indexRecord !== INDEX_RECORD_VERSION || h.library !== PACKAGE_VERSION)
        return { folders: null, reason: `written by another version (${String(h.indexRecord)}, ${String(h.library)})` }
    if (h.owner !== owner) return { folders: null, reason: `it belongs to ${String(h.owner)}` }
    const folders = new Map<string, FolderRecord>()
    for (let i = 1; i < lines.length; i += 1) {
        const parsed = parseLine(lines[i] as string)
        if (typeof parsed === 'string') return { folders: null, reason: parsed }
        if (folders.has(parsed.rel)) return { folders: null, reason: `folder ${parsed.rel} twice` }
        folders.set(parsed.rel, parsed.record)
    }
    return { folders, reason: null }
}
