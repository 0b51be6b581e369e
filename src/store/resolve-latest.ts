import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { selectLatest, type LatestKind } from '../naming/latest.js'
import type { FsPort } from '../ports/types.js'
import { checkFsPort, listDir } from './fs-ops.js'
import { joinPath, normalizeDir } from './paths.js'
import { definedFields } from '../model/fields.js'
import { type ArgCodes, parseArgs, says } from '../validation/args.js'

// Absent: ISL-001; anything but a non-empty string (null too): ISL-002, with the value's type.
const ARGS: ArgCodes<'ISL-001' | 'ISL-002'> = { missing: 'ISL-001', mismatch: 'ISL-002', create: createIssue }
const LOGICAL_NAME = v.object({
    logicalName: v.custom<string>((n) => typeof n === 'string' && n.length > 0, says('non-empty string'))
})

/** Result of {@link resolveLatest}. */
export interface ResolveLatestResult {
    /** Newest file name, or `null` for an explicit "no version". */
    readonly file: string | null
    readonly path: string | null
    readonly timestamp: string | null
    /** `'no-version'` when the folder is missing or nothing matches; `'invalid-input'` for bad arguments. */
    readonly reason: 'no-version' | 'invalid-input' | null
    readonly errors: Issue[]
}

/**
 * The single resolver for primitives and gradings (03 §4 with ⚠ C7): lists `dir` through the port
 * and picks the newest version of `logicalName` with {@link selectLatest}. Temp files and names that
 * do not parse are ignored; a missing folder is "no version", never a default.
 * @param input - `{ fs, dir, logicalName, kind? }` (`kind` restricts to `'grading'` or `'snapshot'` names)
 * @returns `{ file, path, timestamp, reason, errors }`; ISL-001/ISL-002/FS-003/FS-004 for bad arguments,
 *   FS-001 when the port fails
 * @example await resolveLatest({ fs, dir: '/island/providers/defillama/prices/schema', logicalName: 'prices' })
 */
export async function resolveLatest(input: {
    fs?: unknown
    dir?: unknown
    logicalName?: unknown
    kind?: LatestKind
}): Promise<ResolveLatestResult> {
    const none = (reason: ResolveLatestResult['reason'], errors: Issue[]): ResolveLatestResult => ({
        file: null,
        path: null,
        timestamp: null,
        reason,
        errors
    })
    const errors: Issue[] = []
    const portIssue = checkFsPort(input?.fs)
    if (portIssue !== null) errors.push(portIssue)
    const { dir, issue } = normalizeDir(input?.dir, '/dir', 'dir')
    if (issue !== null) errors.push(issue)
    const name = parseArgs(LOGICAL_NAME, { logicalName: input?.logicalName }, ARGS, { actual: 'type' })
    errors.push(...name.errors)
    if (errors.length > 0 || dir === null || name.value === null) return none('invalid-input', errors)
    const listing = await listDir(input.fs as FsPort, dir)
    if (!listing.ok) return none(null, [listing.issue])
    if (listing.value === null) return none('no-version', [])
    const names = listing.value.filter((e) => e.kind === 'file').map((e) => e.name)
    const pick = selectLatest({
        names,
        logicalName: name.value.logicalName,
        ...definedFields({ kind: input.kind })
    })
    return pick.file === null
        ? none('no-version', [])
        : { file: pick.file, path: joinPath(dir, pick.file), timestamp: pick.timestamp, reason: null, errors: [] }
}
