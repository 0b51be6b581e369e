import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { FsPort } from '../ports/types.js'
import { checkFsPort, Journal, readText, writeAtomic } from '../store/fs-ops.js'
import { joinPath, LAYOUT, normalizeDir } from '../store/paths.js'
import { stampOf } from './stamps.js'
import { fromFileTimestamp } from '../time.js'
import { isObject } from '../model/object.js'
import { guardStatics } from '../errors/guard.js'
import { type ArgCodes, objectArg, parseArgs, says } from '../validation/args.js'

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
class ProviderProofUnguarded {
    private constructor() {}

    /**
     * Writes `<dir>/grade.json` atomically from a namespace index. `monitoring.githubIssue` and
     * `monitoring.boardColumn` start as `null`; any non-null value already in an existing grade.json is kept.
     * @param input - `{ fs, dir, index, now }`
     * @returns `{ status, proofPath, proof, errors }`; PRF-001 missing, PRF-002 wrong type, PRF-003 empty dir,
     *   PRF-004 unreadable existing proof (warning), PRF-008 write failed
     * @example await ProviderProof.write({ fs, dir: '/export/providers/defillama', index, now: clock.now() })
     */
    static async write(input: {
        fs?: unknown
        dir?: unknown
        index?: unknown
        now?: unknown
    }): Promise<{ status: boolean; proofPath: string | null; proof: ProviderProofDocument | null; errors: Issue[] }> {
        const { errors, dir, stamp } = checkProofInput(input)
        if (errors.length > 0 || dir === null || stamp === null) {
            return { status: false, proofPath: null, proof: null, errors }
        }

        const fs = input.fs as FsPort
        const proofPath = joinPath(dir, LAYOUT.proof)
        const existing = await readText(fs, proofPath)
        if (!existing.ok) return { status: false, proofPath, proof: null, errors: [existing.issue] }
        const { monitoring, warnings } = keptMonitoring(existing.value)
        const proof = digestIndex(input.index as Obj, stamp, monitoring)
        const text = `${JSON.stringify(proof, null, 4)}\n`
        const problems = await writeAtomic(fs, proofPath, text, { overwrite: true, journal: new Journal() })
        if (problems.length > 0) {
            const failed = createIssue('PRF-008', '/dir', { detail: (problems[0] as Issue).message })
            return { status: false, proofPath, proof: null, errors: [failed, ...problems] }
        }
        return { status: true, proofPath, proof, errors: warnings }
    }
}

/**
 * The public ProviderProof: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const ProviderProof = /* @__PURE__ */ guardStatics(ProviderProofUnguarded, 'ProviderProof')

type ProofInput = Parameters<typeof ProviderProof.write>[0]

// Absent (or null): PRF-001; wrong type: PRF-002 with the value's type; an empty dir has a code of its own (PRF-003).
const ARGS: ArgCodes<'PRF-001' | 'PRF-002'> = { missing: 'PRF-001', mismatch: 'PRF-002', create: createIssue }
const STYLE = { actual: 'type' } as const
const DIR = v.object({ dir: v.string(says('string')) })
const INDEX = v.object({ index: objectArg() })
const INDEX_PARTS = v.object({
    schemas: objectArg({ expected: 'object', missing: false }),
    blockers: v.array(v.unknown(), says({ expected: 'array', missing: false }))
})
const NOW = v.object({
    now: v.custom<string>((now) => stampOf(now) !== null, says({ expected: 'ISO-8601 date-time', missing: false }))
})

/** Every input checked first; the directory is normalised only once the rest is valid. */
function checkProofInput(input: ProofInput): { errors: Issue[]; dir: string | null; stamp: string | null } {
    const errors: Issue[] = []
    const port = checkFsPort(input?.fs)
    if (port !== null) errors.push(port)
    const dir = input?.dir
    const given = parseArgs(DIR, { dir: dir ?? undefined }, ARGS, STYLE)
    errors.push(...given.errors)
    if (given.value?.dir === '') errors.push(createIssue('PRF-003', '/dir', { field: 'dir' }))
    errors.push(...checkIndex(input?.index))
    errors.push(...parseArgs(NOW, { now: input?.now }, ARGS, STYLE).errors)
    const stamp = stampOf(input?.now)
    const norm = errors.length === 0 ? normalizeDir(dir, '/dir', 'dir') : { dir: null, issue: null }
    if (norm.issue !== null) errors.push(norm.issue)
    return { errors, dir: norm.dir, stamp }
}

/** The fields of a namespace index the proof digests. */
function checkIndex(value: unknown): Issue[] {
    const given = parseArgs(INDEX, { index: value ?? undefined }, ARGS, STYLE)
    if (given.value === null) return given.errors
    const index = given.value.index
    const errors: Issue[] = []
    // The three the proof copies as they are read as absent whatever else they hold (PRF-001, not a type mismatch):
    // plain checks, ahead of the two it walks.
    for (const key of ['namespace', 'status'] as const) {
        if (typeof index[key] === 'string') continue
        errors.push(createIssue('PRF-001', `/index/${key}`, { field: `index.${key}` }))
    }
    if (!isObject(index.namespaceAggregate)) {
        errors.push(createIssue('PRF-001', '/index/namespaceAggregate', { field: 'index.namespaceAggregate' }))
    }
    // Both keys given, absent ones as `undefined`, so each is worded as its own mismatch.
    const parts = { schemas: index.schemas, blockers: index.blockers }
    errors.push(...parseArgs(INDEX_PARTS, parts, ARGS, { ...STYLE, at: ['index'] }).errors)
    return errors
}

/** The host's monitoring values survive a re-run; an unreadable old proof only warns (PRF-004). */
function keptMonitoring(existing: string | null): { monitoring: ProofMonitoring; warnings: Issue[] } {
    const monitoring: { githubIssue: unknown; boardColumn: unknown } = { githubIssue: null, boardColumn: null }
    if (existing === null) return { monitoring, warnings: [] }
    try {
        const old = JSON.parse(existing) as unknown
        const m = isObject(old) && isObject(old.monitoring) ? old.monitoring : {}
        if (m.githubIssue !== undefined && m.githubIssue !== null) monitoring.githubIssue = m.githubIssue
        if (m.boardColumn !== undefined && m.boardColumn !== null) monitoring.boardColumn = m.boardColumn
    } catch (cause) {
        const detail = cause instanceof Error ? cause.message : 'invalid JSON'
        return { monitoring, warnings: [createIssue('PRF-004', '/dir', { detail })] }
    }
    return { monitoring, warnings: [] }
}

/** What the proof keeps of each schema node and of the namespace aggregate. */
const SCHEMA_FIELDS = ['status', 'grade', 'reason'] as const
const AGGREGATE_FIELDS = ['status', 'grade', 'rawGrade', 'normalizedScore', 'ref', 'reason'] as const

function digestIndex(ix: Obj, stamp: string, monitoring: ProofMonitoring): ProviderProofDocument {
    const schemas = Object.entries(ix.schemas as Obj).map(([name, node]) => [name, pick(node, SCHEMA_FIELDS)])
    return {
        proofVersion: 1,
        namespace: ix.namespace as string,
        generatedAt: fromFileTimestamp(stamp) as string,
        status: ix.status as string,
        ...(typeof ix.grade === 'string' ? { grade: ix.grade } : {}),
        namespaceAggregate: pick(ix.namespaceAggregate, AGGREGATE_FIELDS),
        schemas: Object.fromEntries(schemas),
        blockers: (ix.blockers as unknown[]).map((b) => (isObject(b) ? { ...b } : b)),
        monitoring
    }
}
