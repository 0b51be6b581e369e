import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { joinPath, normalizeDir } from '../store/paths.js'
import { parseArgs, pointerKeys, says } from '../validation/args.js'

/** Which rule decided the island root (03 ⚠ C1). */
export type RootSource = 'flag' | 'env' | 'config' | 'default'

/** Result of {@link resolveRoot}. */
export interface ResolveRootResult {
    readonly root: string | null
    readonly source: RootSource | null
    readonly errors: Issue[]
}

/** The environment variable that names the island root. */
export const GRADING_DATA_ENV = 'FLOWMCP_GRADING_DATA'

/** The codes of the argument checks: ISL-001 missing, ISL-002 wrong type. */
const ROOT_ARGS = { missing: 'ISL-001', mismatch: 'ISL-002', create: createIssue } as const
// Any object (an array too), as the hand-written check took it: the root reads one key of it.
const ANY_OBJECT = v.optional(
    v.custom<object>(
        (value) => value !== null && typeof value === 'object',
        says({ expected: 'object', actual: 'type' })
    )
)

const ABSOLUTE_DIR = v.custom<string>(
    (value) => typeof value === 'string' && value.startsWith('/'),
    says({ expected: 'absolute path', actual: 'value' })
)

/** The issues of an optional object argument `field` (`env`, `config`). */
function objectArgIssues(value: unknown, field: string): Issue[] {
    return parseArgs(ANY_OBJECT, value, ROOT_ARGS, { at: [field] }).errors
}

/** The issues of a root named at `path` (`/env/FLOWMCP_GRADING_DATA`): a string, its field named by the path. */
function rootValueIssues(value: unknown, path: string): Issue[] {
    const schema = v.string(says({ expected: 'string', actual: 'type', field: path.slice(1) }))
    return parseArgs(schema, value, ROOT_ARGS, { at: pointerKeys(path) }).errors
}

/**
 * Resolves the island root (03 ⚠ C1), first match wins: `flag` → env `FLOWMCP_GRADING_DATA` →
 * config `gradingDataDir` → `<home>/.flowmcp/grading`. Empty strings count as not set. A leading
 * `~/` means `home`. Relative flag/env values resolve against `cwd`, a relative config value against
 * `<home>/.flowmcp/`. Pure: the host passes env, config, home and cwd in.
 * @param input - `{ flag?, env?, config?, home, cwd? }`
 * @returns `{ root, source, errors }`; ISL-001/ISL-002 bad arguments, ISL-005 a relative path without `cwd`,
 *   FS-003 a path with NUL or control characters
 * @example
 * resolveRoot({ env: { FLOWMCP_GRADING_DATA: '/data/island' }, home: '/home/me' })
 * // { root: '/data/island', source: 'env', errors: [] }
 */
export function resolveRoot(input: {
    flag?: unknown
    env?: unknown
    config?: unknown
    home?: unknown
    cwd?: unknown
}): ResolveRootResult {
    const fail = (errors: Issue[]): ResolveRootResult => ({ root: null, source: null, errors })
    const home = normalizeDir(input?.home, '/home', 'home')
    if (home.issue !== null || home.dir === null) return fail([home.issue as Issue])
    // After the path checks of normalizeDir (FS-003 first); normalising never changes whether a path is absolute.
    const absolute = parseArgs(ABSOLUTE_DIR, input.home, ROOT_ARGS, { at: ['home'] })
    if (absolute.errors.length > 0) return fail(absolute.errors)
    // The first wrong argument alone, as before: env, then config.
    const { env, config } = input
    const shape = objectArgIssues(env, 'env')
    if (shape.length > 0) return fail(shape)
    const configShape = objectArgIssues(config, 'config')
    if (configShape.length > 0) return fail(configShape)
    const envValue = (env as Record<string, unknown> | undefined)?.[GRADING_DATA_ENV]
    const configValue = (config as Record<string, unknown> | undefined)?.gradingDataDir

    const candidates: Array<[RootSource, unknown, string, string | null]> = [
        ['flag', input.flag, '/flag', null],
        ['env', envValue, `/env/${GRADING_DATA_ENV}`, null],
        ['config', configValue, '/config/gradingDataDir', joinPath(home.dir, '.flowmcp')]
    ]
    for (const [source, value, path, relativeBase] of candidates) {
        if (value === undefined || value === null || value === '') continue
        if (typeof value !== 'string') return fail(rootValueIssues(value, path))
        let raw: string = value
        if (raw === '~' || raw.startsWith('~/')) raw = home.dir + raw.slice(1)
        if (!raw.startsWith('/')) {
            const base = relativeBase ?? (typeof input.cwd === 'string' && input.cwd.startsWith('/') ? input.cwd : null)
            if (base === null) return fail([createIssue('ISL-005', '/cwd', { value: describeValue(value), source })])
            raw = `${base}/${raw}`
        }
        const { dir, issue } = normalizeDir(raw, path, source)
        return dir === null ? fail([issue as Issue]) : { root: dir, source, errors: [] }
    }
    return { root: joinPath(home.dir, '.flowmcp', 'grading'), source: 'default', errors: [] }
}
