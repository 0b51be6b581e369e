import { PACKAGE_VERSION } from '../version.js'
import { decodeFacts, encodeFacts, type FolderRecord } from './folder-state.js'

/**
 * The rebuild record: a file beside `index.json` that remembers, per `_gradings/` folder, which
 * files the index was derived from and the few facts a status rests on. It is a cache: deleting it
 * only makes the next rebuild read every file again. `index.json` itself stays exactly as the
 * spec's schema describes it.
 */
export const INDEX_RECORD_FILE = '.index-record.json'

/** Bumps whenever what a record holds, or how facts are derived from a file, changes. */
export const INDEX_RECORD_VERSION = 1

/** Two FNV-1a passes with different offsets: catches a damaged record, cheap over a few hundred kB. */
function checksum(text: string): string {
    let a = 0x811c9dc5
    let b = 0x01000193 ^ text.length
    for (let i = 0; i < text.length; i += 1) {
        const c = text.charCodeAt(i)
        a = Math.imul(a ^ c, 0x01000193) >>> 0
        b = Math.imul(b ^ c, 0x5bd1e995) >>> 0
    }
    return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')
}

/** Which index a record belongs to: `namespace:<ns>` or `selection:<sel>`. */
export type RecordOwner = `namespace:${string}` | `selection:${string}`

/**
 * Serialises the folder records: a header line (record version, library version, owner, checksum
 * of the body line) and the body line. Deterministic: folders and names sorted.
 */
export function serializeRecord(owner: RecordOwner, folders: ReadonlyMap<string, FolderRecord>): string {
    const body: Record<string, unknown> = {}
    for (const rel of [...folders.keys()].sort()) {
        const f = folders.get(rel) as FolderRecord
        body[rel] = { names: f.names, kept: Object.fromEntries(f.kept.map((k) => [k.screened.file, k.verified === null ? [encodeFacts(k.screened)] : [encodeFacts(k.screened), encodeFacts(k.verified)]])) }
    }
    const bodyText = JSON.stringify(body)
    const header = JSON.stringify({ indexRecord: INDEX_RECORD_VERSION, library: PACKAGE_VERSION, owner, checksum: checksum(bodyText) })
    return `${header}\n${bodyText}\n`
}

/** Why a record was not used; `null` reason with a result means it was. */
export interface ParsedRecord {
    readonly folders: Map<string, FolderRecord> | null
    readonly reason: string | null
}

function isSortedUniqueStrings(v: unknown): v is string[] {
    if (!Array.isArray(v)) return false
    for (let i = 0; i < v.length; i += 1) if (typeof v[i] !== 'string' || (i > 0 && !((v[i - 1] as string) < (v[i] as string)))) return false
    return true
}

/**
 * Reads a record back. Anything unexpected — another record or library version, another owner, a
 * checksum that does not match, a malformed folder or fact — makes the whole record unusable: the
 * rebuild then reads every file, as without a record. Never throws.
 */
export function parseRecord(text: string | null, owner: RecordOwner): ParsedRecord {
    if (text === null) return { folders: null, reason: null }
    const cut = text.indexOf('\n')
    if (cut < 0 || !text.endsWith('\n')) return { folders: null, reason: 'not a rebuild record' }
    let header: unknown
    let body: unknown
    try {
        header = JSON.parse(text.slice(0, cut))
    } catch {
        return { folders: null, reason: 'unreadable header' }
    }
    const h = header as { indexRecord?: unknown; library?: unknown; owner?: unknown; checksum?: unknown } | null
    if (h === null || typeof h !== 'object') return { folders: null, reason: 'unreadable header' }
    if (h.indexRecord !== INDEX_RECORD_VERSION || h.library !== PACKAGE_VERSION) return { folders: null, reason: `written by another version (${String(h.indexRecord)}, ${String(h.library)})` }
    if (h.owner !== owner) return { folders: null, reason: `it belongs to ${String(h.owner)}` }
    const bodyText = text.slice(cut + 1, -1)
    if (h.checksum !== checksum(bodyText)) return { folders: null, reason: 'checksum mismatch' }
    try {
        body = JSON.parse(bodyText)
    } catch {
        return { folders: null, reason: 'unreadable body' }
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return { folders: null, reason: 'unreadable body' }
    const folders = new Map<string, FolderRecord>()
    for (const [rel, value] of Object.entries(body as Record<string, unknown>)) {
        const v = value as { names?: unknown; kept?: unknown } | null
        if (v === null || typeof v !== 'object' || !isSortedUniqueStrings(v.names) || v.kept === null || typeof v.kept !== 'object' || Array.isArray(v.kept)) return { folders: null, reason: `malformed folder ${rel}` }
        const names = new Set(v.names)
        const kept: Array<{ screened: ReturnType<typeof decodeFacts> & object; verified: ReturnType<typeof decodeFacts> }> = []
        for (const [file, pair] of Object.entries(v.kept as Record<string, unknown>)) {
            if (!names.has(file) || !Array.isArray(pair) || pair.length < 1 || pair.length > 2) return { folders: null, reason: `malformed facts ${rel}/${file}` }
            const screened = decodeFacts(file, pair[0])
            const verified = pair.length === 2 ? decodeFacts(file, pair[1]) : null
            if (screened === null || (pair.length === 2 && (verified === null || !verified.verified))) return { folders: null, reason: `malformed facts ${rel}/${file}` }
            kept.push({ screened, verified })
        }
        folders.set(rel, { names: v.names, kept })
    }
    return { folders, reason: null }
}
