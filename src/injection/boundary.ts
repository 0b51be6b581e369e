import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/**
 * The boundary of the data blocks of a judge request: a fixed prefix and 16 hex characters, e.g.
 * `FLOWMCP-DATA-1a2b3c4d5e6f7a8b`. The system message names it; a block of graded text opens with
 * `<<<BOUNDARY name="…">>>` and ends only at `<<<END BOUNDARY>>>`. Chosen once per run so the system
 * message stays the same for every call (a prefix cache keeps serving it), and checked to occur in
 * none of the texts it fences, so no text can end its block early.
 */

/** The prefix of the boundaries the library chooses. */
export const BOUNDARY_PREFIX = 'FLOWMCP-DATA'

/** What a boundary looks like, the host's (`options.boundary`) included: a prefix, a hyphen, 16 lower-case hex. */
export const BOUNDARY_PATTERN = /^[A-Z][A-Z0-9-]{3,40}-[0-9a-f]{16}$/

/** Where a boundary came from: the host's option, random bytes, or the fallback derived from the texts. */
export type BoundarySource = 'given' | 'random' | 'derived'

/** Whether `value` is a usable boundary (a string of at most 58 characters matching {@link BOUNDARY_PATTERN}). */
export function isBoundary(value: unknown): value is string {
    return typeof value === 'string' && value.length <= 58 && BOUNDARY_PATTERN.test(value)
}

// Random bytes are drawn 256 at a time (one call to the platform serves 32 boundaries).
let pool: Uint8Array | null = null
let used = 256

/**
 * 16 hex characters from the platform's random source (`globalThis.crypto.getRandomValues`: Node ≥ 20, browsers,
 * workers), or null without one.
 */
function randomHex(): string | null {
    const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto
    if (typeof crypto?.getRandomValues !== 'function') return null
    try {
        if (pool === null || used + 8 > pool.length) {
            pool = new Uint8Array(256)
            crypto.getRandomValues(pool)
            used = 0
        }
        used += 8
        return bytesToHex(pool.subarray(used - 8, used))
    } catch {
        return null
    }
}

/**
 * The fallback without a random source: the first 16 hex of SHA-256 over the texts and an attempt
 * number. Anyone holding the texts can compute it, so it is forgeable in principle; it still cannot
 * occur in a text it was derived from, since writing it into that text changes the text and with it
 * the hash (a text holding its own SHA-256 is a fixed point no one can find), and the check below
 * moves on to the next attempt should a text of another party hold it.
 */
function derivedHex(texts: readonly string[], attempt: number): string {
    const hash = sha256.create()
    for (const text of texts) hash.update(utf8ToBytes(`${text.length}:${text}\u0000`))
    hash.update(utf8ToBytes(`attempt ${attempt}`))
    return bytesToHex(hash.digest()).slice(0, 16)
}

/**
 * The boundary of a run: the host's when it is valid and occurs in none of `texts`, else a random
 * one, else one derived from `texts`; never one that occurs in any of them.
 * @param args - `given`: the host's boundary (`options.boundary`) or the run's; `texts`: every text the blocks will
 *   fence (names included)
 * @returns `{ boundary, source }`
 */
export function chooseBoundary(args: { given?: unknown; texts: readonly string[] }): {
    boundary: string
    source: BoundarySource
} {
    const { texts } = args
    const free = (boundary: string): boolean => !texts.some((t) => t.includes(boundary))
    const given = isBoundary(args.given) ? args.given : null
    if (given !== null && free(given)) return { boundary: given, source: 'given' }
    // The host's prefix is kept when its own boundary had to be replaced.
    const prefix = given !== null ? given.slice(0, -17) : BOUNDARY_PREFIX
    for (let i = 0; i < 4; i += 1) {
        const hex = randomHex()
        if (hex === null) break
        if (free(`${prefix}-${hex}`)) return { boundary: `${prefix}-${hex}`, source: 'random' }
    }
    let boundary = `${prefix}-${derivedHex(texts, 0)}`
    for (let attempt = 1; attempt < 64 && !free(boundary); attempt += 1)
        boundary = `${prefix}-${derivedHex(texts, attempt)}`
    return { boundary, source: 'derived' }
}

/**
 * The boundary a whole run (`gradeNamespace`, `gradeTree`) hands to each of its schemas: the host's,
 * else a random one; `undefined` without a random source, when each schema derives its own from its
 * texts (the system message then differs between schemas, the only cost).
 */
export function runBoundary(given: unknown): string | undefined {
    if (isBoundary(given)) return given
    const hex = randomHex()
    return hex === null ? undefined : `${BOUNDARY_PREFIX}-${hex}`
}
