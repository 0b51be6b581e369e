import { createIssue, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { FsPort } from '../ports/types.js'
import { checkFsPort, Journal, readText, writeAtomic } from '../store/fs-ops.js'
import { joinPath, LAYOUT, normalizeDir } from '../store/paths.js'
import { stampOf } from './stamps.js'
import { fromFileTimestamp } from '../time.js'
import { isObject } from '../model/object.js'

/** Monitoring slots of a proof; filled by the host (issue tracker, board), never reset by a re-run. */
export interface ProofMonitoring {
    readonly githubIssue: unknown
    readonly boardColumn: unknown
}

/** `grade.json`: the provider proof a CLI or site reads (05 §1.6). */
export interface ProviderProofDocument {
    readonly proofVersion: 1
    readonly namespace: string
    readonly generatedAt: string
    readonly status: string
    readonly grade?: string
    readonly namespaceAggregate: Readonly<Record<string, unknown>>
    readonly schemas: Readonly<Record<string, Readonly<Record<string, unknown>>>>
    readonly blockers: readonly unknown[]
    readonly monitoring: ProofMonitoring
}

type Obj = Record<string, unknown>

function pick(node: unknown, keys: readonly string[]): Obj {
    if (!isObject(node)) return {}
    return Object.fromEntries(keys.filter((k) => node[k] !== undefined).map((k) => [k, node[k]]))
}

/**
 * The provider proof `grade.json` (05 §1.6): a short digest of a namespace index for consumers
 * that do not read the whole index.
 */
export class ProviderProof {
    private constructor() {}

    /**
     * Writes `<dir>/grade.json` atomically from a namespace index. `monitoring.githubIssue` and
     * `monitoring.boardColumn` start as `null`; any non-null value already in an existing grade.json is kept.
     * @param input - `{ fs, dir, index, now }`
     * @returns `{ status, proofPath, proof, errors }`; PRF-001 missing, PRF-002 wrong type, PRF-003 empty dir,
     *   PRF-004 unreadable existing proof (warning), PRF-008 write failed
     * @example await ProviderProof.write({ fs, dir: '/export/providers/defillama', index, now: clock.now() })
     */
    static async write(input: { fs?: unknown; dir?: unknown; index?: unknown; now?: unknown }): Promise<{ status: boolean; proofPath: string | null; proof: ProviderProofDocument | null; errors: Issue[] }> {
        const errors: Issue[] = []
        const port = checkFsPort(input?.fs)
        if (port !== null) errors.push(port)
        if (input?.dir === undefined || input.dir === null) errors.push(createIssue('PRF-001', '/dir', { field: 'dir' }))
        else if (typeof input.dir !== 'string') errors.push(createIssue('PRF-002', '/dir', { field: 'dir', expected: 'string', actual: typeOfValue(input.dir) }))
        else if (input.dir.length === 0) errors.push(createIssue('PRF-003', '/dir', { field: 'dir' }))
        const index = input?.index
        if (index === undefined || index === null) errors.push(createIssue('PRF-001', '/index', { field: 'index' }))
        else if (!isObject(index)) errors.push(createIssue('PRF-002', '/index', { field: 'index', expected: 'object', actual: typeOfValue(index) }))
        else {
            for (const key of ['namespace', 'status'] as const) if (typeof index[key] !== 'string') errors.push(createIssue('PRF-001', `/index/${key}`, { field: `index.${key}` }))
            if (!isObject(index.namespaceAggregate)) errors.push(createIssue('PRF-001', '/index/namespaceAggregate', { field: 'index.namespaceAggregate' }))
            if (!isObject(index.schemas)) errors.push(createIssue('PRF-002', '/index/schemas', { field: 'index.schemas', expected: 'object', actual: typeOfValue(index.schemas) }))
            if (!Array.isArray(index.blockers)) errors.push(createIssue('PRF-002', '/index/blockers', { field: 'index.blockers', expected: 'array', actual: typeOfValue(index.blockers) }))
        }
        const stamp = stampOf(input?.now)
        if (stamp === null) errors.push(createIssue('PRF-002', '/now', { field: 'now', expected: 'ISO-8601 date-time', actual: typeOfValue(input?.now) }))
        const norm = errors.length === 0 ? normalizeDir(input.dir, '/dir', 'dir') : { dir: null, issue: null }
        if (norm.issue !== null) errors.push(norm.issue)
        if (errors.length > 0 || norm.dir === null || stamp === null) return { status: false, proofPath: null, proof: null, errors }

        const fs = input.fs as FsPort
        const ix = index as Obj
        const proofPath = joinPath(norm.dir, LAYOUT.proof)
        const monitoring: { githubIssue: unknown; boardColumn: unknown } = { githubIssue: null, boardColumn: null }
        const warnings: Issue[] = []
        const existing = await readText(fs, proofPath)
        if (!existing.ok) return { status: false, proofPath, proof: null, errors: [existing.issue] }
        if (existing.value !== null) {
            try {
                const old = JSON.parse(existing.value) as unknown
                const m = isObject(old) && isObject(old.monitoring) ? old.monitoring : {}
                if (m.githubIssue !== undefined && m.githubIssue !== null) monitoring.githubIssue = m.githubIssue
                if (m.boardColumn !== undefined && m.boardColumn !== null) monitoring.boardColumn = m.boardColumn
            } catch (cause) {
                warnings.push(createIssue('PRF-004', '/dir', { detail: cause instanceof Error ? cause.message : 'invalid JSON' }))
            }
        }
        const schemas = Object.fromEntries(Object.entries(ix.schemas as Obj).map(([name, node]) => [name, pick(node, ['status', 'grade', 'reason'])]))
        const proof: ProviderProofDocument = {
            proofVersion: 1,
            namespace: ix.namespace as string,
            generatedAt: fromFileTimestamp(stamp) as string,
            status: ix.status as string,
            ...(typeof ix.grade === 'string' ? { grade: ix.grade } : {}),
            namespaceAggregate: pick(ix.namespaceAggregate, ['status', 'grade', 'rawGrade', 'normalizedScore', 'ref', 'reason']),
            schemas,
            blockers: (ix.blockers as unknown[]).map((b) => (isObject(b) ? { ...b } : b)),
            monitoring
        }
        const problems = await writeAtomic(fs, proofPath, JSON.stringify(proof, null, 4) + '\n', { overwrite: true, journal: new Journal() })
        if (problems.length > 0) return { status: false, proofPath, proof: null, errors: [createIssue('PRF-008', '/dir', { detail: (problems[0] as Issue).message }), ...problems] }
        return { status: true, proofPath, proof, errors: warnings }
    }
}
