import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { joinPath, normalizeDir } from '../store/paths.js'

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

function isSet(value: unknown): value is string {
    return typeof value === 'string' && value.length > 0
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
    if (!home.dir.startsWith('/'))
        return fail([
            createIssue('ISL-002', '/home', {
                field: 'home',
                expected: 'absolute path',
                actual: describeValue(input.home)
            })
        ])
    const env = input.env
    if (env !== undefined && (env === null || typeof env !== 'object'))
        return fail([createIssue('ISL-002', '/env', { field: 'env', expected: 'object', actual: typeOfValue(env) })])
    const config = input.config
    if (config !== undefined && (config === null || typeof config !== 'object'))
        return fail([
            createIssue('ISL-002', '/config', { field: 'config', expected: 'object', actual: typeOfValue(config) })
        ])
    const envValue = (env as Record<string, unknown> | undefined)?.[GRADING_DATA_ENV]
    const configValue = (config as Record<string, unknown> | undefined)?.gradingDataDir

    const candidates: Array<[RootSource, unknown, string, string | null]> = [
        ['flag', input.flag, '/flag', null],
        ['env', envValue, `/env/${GRADING_DATA_ENV}`, null],
        ['config', configValue, '/config/gradingDataDir', joinPath(home.dir, '.flowmcp')]
    ]
    for (const [source, value, path, relativeBase] of candidates) {
        if (value === undefined || value === null || value === '') continue
        if (!isSet(value))
            return fail([
                createIssue('ISL-002', path, { field: path.slice(1), expected: 'string', actual: typeOfValue(value) })
            ])
        let raw = value
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
