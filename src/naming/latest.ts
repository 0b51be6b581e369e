import { parseGradingFilename } from './grading-filename.js'
import { parseSnapshotFilename } from './snapshot-filename.js'

/** Which grammar a name must follow to be considered. */
export type LatestKind = 'grading' | 'snapshot'

/** The newest version of a logical name among file names. */
export interface LatestPick {
    /** The newest file name, or `null` for an explicit "no version". */
    readonly file: string | null
    /** Its `YYYY-MM-DDTHH-MM-SSZ` timestamp. */
    readonly timestamp: string | null
    /** How many names matched the logical name. */
    readonly matches: number
}

/** The keys a grading file answers to: its area, and `<area>--<basePersona>--<lens>` for a persona variant. */
function gradingKeys(name: string): { keys: string[]; timestamp: string } | null {
    const parts = parseGradingFilename(name)
    if (parts === null) return null
    const keys = [parts.area as string]
    if (parts.basePersona !== null && parts.lens !== null)
        keys.push(`${parts.area}--${parts.basePersona}--${parts.lens}`)
    return { keys, timestamp: parts.timestamp }
}

/**
 * Picks the newest version of `logicalName` among file names (03 §4 with ⚠ C7).
 *
 * Rule: only names that parse under the naming grammar count (temp files and strays never do).
 * A snapshot matches when its name part equals `logicalName`. A grading file matches when
 * `logicalName` is its area (newest of the area **across persona variants**) or exactly
 * `<area>--<basePersona>--<lens>` (newest of one variant). Candidates are ordered by the parsed
 * timestamp, then by the full file name (code-unit order) as a deterministic tie-break. This
 * equals the spec's plain sort within one prefix and stays right where the plain sort is wrong:
 * across persona variants, and for a prefix of another name (`price` never matches `price-entry--…`).
 * @param input - `{ names, logicalName, kind? }`
 * @returns `{ file, timestamp, matches }`; `file: null` when nothing matches
 * @example
 * selectLatest({
 *     names: ['a--2026-01-01T00-00-00Z--0000000a.mjs', 'a--2026-02-01T00-00-00Z--0000000b.mjs'],
 *     logicalName: 'a'
 * }).file
 */
export function selectLatest(input: { names: readonly string[]; logicalName: string; kind?: LatestKind }): LatestPick {
    const { names, logicalName, kind } = input
    let best: string | null = null
    let bestTs: string | null = null
    let matches = 0
    for (const name of names) {
        let ts: string | null = null
        if (kind !== 'snapshot') {
            const g = gradingKeys(name)
            if (g?.keys.includes(logicalName)) ts = g.timestamp
        }
        if (ts === null && kind !== 'grading') {
            const s = parseSnapshotFilename(name)
            if (s !== null && s.name === logicalName) ts = s.timestamp
        }
        if (ts === null) continue
        matches += 1
        if (best === null || bestTs === null || ts > bestTs || (ts === bestTs && name > best)) {
            best = name
            bestTs = ts
        }
    }
    return { file: best, timestamp: bestTs, matches }
}
