import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { buildLockSnapshot } from '../rollup/lock-snapshot.js'
import { rebuildNamespaceWith, rebuildSelectionWith } from '../rollup/rebuild-index.js'
import type { LockSnapshot, RollupIndex } from '../rollup/types.js'
import { exportTarget, type ExportResult } from './export.js'
import { importProvider, type ImportResult } from './import.js'
import { checkName, islandName, joinPath, LAYOUT, normalizeDir, originalName } from '../store/paths.js'
import { resolveRoot, type ResolveRootResult } from './root.js'
import { gradingFolderFor, type GradingFolder } from './targets.js'
import { writeGrading, type WriteGradingResult } from './write-grading.js'
import { guardStatics } from '../errors/guard.js'
import { type ArgCodes, parseArgs, says } from '../validation/args.js'

// Absent: ISL-001; wrong type or not one of the list: ISL-002, with the value's type.
const ARGS: ArgCodes<'ISL-001' | 'ISL-002'> = { missing: 'ISL-001', mismatch: 'ISL-002', create: createIssue }
const STYLE = { actual: 'type' } as const
const NAME = v.object({ name: v.string(says('string')) })
const KIND = v.object({
    name: v.string(),
    kind: v.picklist(['schema', 'tool', 'skill'] as const, says("'schema', 'tool' or 'skill'"))
})
/** Exactly one of `namespace` and `selection`; an absent target is this mismatch too, never ISL-001. */
const TARGET = v.object({
    target: v.custom<Record<string, unknown>>(
        (t) =>
            t !== null &&
            typeof t === 'object' &&
            ((t as Record<string, unknown>).namespace !== undefined) !==
                ((t as Record<string, unknown>).selection !== undefined),
        says({ expected: '{ namespace } or { selection }', missing: false })
    )
})

/** Result of {@link Island.startGradingRun}. */
export interface StartRunResult {
    readonly status: boolean
    readonly index: RollupIndex | null
    readonly indexPath: string | null
    readonly lockSnapshot: LockSnapshot | null
    readonly errors: Issue[]
}

/**
 * The workbench island (chapters 14–16, 19, 22): where it lives, how files are named and placed,
 * and the operations that move data in (import, grading writes) and out (export). Every operation
 * goes through the injected {@link FsPort}, writes atomically and never overwrites an entry or a snapshot.
 */
class IslandUnguarded {
    private constructor() {}

    /**
     * Resolves the island root: flag → `FLOWMCP_GRADING_DATA` → config `gradingDataDir` → `<home>/.flowmcp/grading`.
     * @param input - `{ flag?, env?, config?, home, cwd? }`
     * @returns `{ root, source, errors }`; ISL-001/ISL-002/ISL-005/FS-003
     * @example Island.resolveRoot({ flag: '/tmp/island', home: '/home/me' }).source // 'flag'
     */
    static resolveRoot(input: {
        flag?: unknown
        env?: unknown
        config?: unknown
        home?: unknown
        cwd?: unknown
    }): ResolveRootResult {
        return resolveRoot(input)
    }

    /**
     * Maps (area, target) to its `_gradings/` folder and index (02-areas §1). Pure.
     * @param input - `{ area, target }`
     * @returns `{ segments, indexSegments, scope, errors }`; GRD-033, ISL-001…ISL-006
     * @example
     * Island.gradingFolderFor({ area: 'namespace-description', target: { namespace: 'defillama' } }).segments
     * // ['providers', 'defillama', '_gradings']
     */
    static gradingFolderFor(input: { area?: unknown; target?: unknown }): GradingFolder {
        return gradingFolderFor(input)
    }

    /**
     * The island folder name of a schema file base, tool key or skill name the FlowMCP runtime
     * accepts (`/block/:hash`, `--pnlRoutes`): kept when it fits the naming grammar, otherwise
     * escaped reversibly as `esc_` + letters and digits as is + every other UTF-8 byte as `_xx`.
     * @param input - `{ name, kind: 'schema' | 'tool' | 'skill' }`
     * @returns `{ name, errors }`; ISL-001/ISL-002 for a missing or non-string name or kind, ISL-003 when even the
     *   escaped name is longer than 200 characters
     * @example Island.islandName({ name: '--pnlRoutes', kind: 'schema' }).name // 'esc__2d_2dpnlRoutes'
     */
    static islandName(input: { name?: unknown; kind?: unknown }): { name: string | null; errors: Issue[] } {
        const { name, kind } = (input ?? {}) as { name?: unknown; kind?: unknown }
        // The name first, then the kind: only the first wrong one is reported.
        const given = parseArgs(NAME, { name }, ARGS, STYLE)
        if (given.value === null) return { name: null, errors: given.errors }
        const named = parseArgs(KIND, { name: given.value.name, kind }, ARGS, STYLE)
        if (named.value === null) return { name: null, errors: named.errors }
        const mapped = islandName(named.value.name, named.value.kind)
        if (mapped === null)
            return {
                name: null,
                errors: [
                    createIssue('ISL-003', '/name', {
                        field: 'name',
                        value: `${named.value.name.slice(0, 40)}…`,
                        detail: 'longer than 200 characters once escaped'
                    })
                ]
            }
        return { name: mapped, errors: [] }
    }

    /**
     * Reverses {@link Island.islandName}: the runtime's name behind an island folder name.
     * @param input - `{ name }`
     * @returns `{ name, errors }`; ISL-001/ISL-002 for a missing or non-string name, ISL-004 for a malformed escaped
     *   name
     * @example Island.originalName({ name: 'esc__2fblock_2f_3ahash' }).name // '/block/:hash'
     */
    static originalName(input: { name?: unknown }): { name: string | null; errors: Issue[] } {
        const given = parseArgs(NAME, { name: (input as { name?: unknown } | null | undefined)?.name }, ARGS, STYLE)
        if (given.value === null) return { name: null, errors: given.errors }
        const name = given.value.name
        const original = originalName(name)
        if (original === null)
            return {
                name: null,
                errors: [
                    createIssue('ISL-004', '/name', {
                        field: 'name',
                        value: name,
                        expected: 'esc_ followed by letters, digits and _xx escapes of UTF-8'
                    })
                ]
            }
        return { name: original, errors: [] }
    }

    /**
     * Imports a provider folder (IN). See {@link importProvider}.
     * @param input - `{ fs, root, now, files | sourceDir, sourceFs?, trustedLoader? }`
     * @returns `{ status, namespace, imported, about, skills, indexPath, index, errors }`
     * @example await Island.importProvider({ fs, root, files, now })
     */
    static async importProvider(input: Parameters<typeof importProvider>[0]): Promise<ImportResult> {
        return importProvider(input)
    }

    /**
     * Exports a namespace or selection (OUT). See {@link exportTarget}.
     * @param input - `{ fs, root, target, exportDir | exportRoot, now?, includeSchemas? }`
     * @returns `{ status, flow, exportDir, indexExportPath, files, errors }`
     * @example
     * await Island.exportTarget({
     *     fs,
     *     root,
     *     target: { namespace: 'defillama' },
     *     exportDir: '/out/defillama',
     *     includeSchemas: true
     * })
     */
    static async exportTarget(input: Parameters<typeof exportTarget>[0]): Promise<ExportResult> {
        return exportTarget(input)
    }

    /**
     * Writes one grading entry and rebuilds its index. See {@link writeGrading}.
     * @param input - `{ fs, root, target, entry, now }`
     * @returns `{ status, file, path, indexPath, index, errors }`
     * @example
     * await Island.writeGrading({ fs, root, target: { namespace: 'defillama', schema: 'prices' }, entry, now })
     */
    static async writeGrading(input: Parameters<typeof writeGrading>[0]): Promise<WriteGradingResult> {
        return writeGrading(input)
    }

    /**
     * Starts a grading run: rebuilds the live index and freezes a new `lockSnapshot` from it — the only
     * operation that replaces the frozen part (03 ⚠ C16; for a namespace, ⚠ C17). Every later rebuild
     * copies it byte for byte, and the pre-condition gate reads only it.
     * @param input - `{ fs, root, target: { namespace } | { selection }, now }`
     * @returns `{ status, index, indexPath, lockSnapshot, errors }`; ISL-001…ISL-004, IDX-*, FS-*
     * @example await Island.startGradingRun({ fs, root, target: { selection: 'defi-core' }, now })
     */
    static async startGradingRun(input: {
        fs?: unknown
        root?: unknown
        target?: unknown
        now?: unknown
    }): Promise<StartRunResult> {
        const fail = (errors: Issue[]): StartRunResult => ({
            status: false,
            index: null,
            indexPath: null,
            lockSnapshot: null,
            errors
        })
        const { dir: root, issue } = normalizeDir(input?.root, '/root', 'root')
        if (root === null) return fail([issue as Issue])
        const given = parseArgs(TARGET, { target: input?.target }, ARGS, STYLE)
        if (given.value === null) return fail(given.errors)
        const target = given.value.target
        const kind = target.namespace !== undefined ? 'namespace' : 'selection'
        const bad = checkName(target[kind], kind, `/target/${kind}`)
        if (bad !== null) return fail([bad])
        const freeze = (
            index: RollupIndex,
            definition: { file: string; value: unknown } | null
        ): { lockSnapshot: LockSnapshot | null; errors: Issue[] } =>
            buildLockSnapshot({ index, ...(definition !== null ? { definition } : {}), now: input.now })
        const result =
            kind === 'namespace'
                ? await rebuildNamespaceWith(
                      {
                          fs: input.fs,
                          namespaceDir: joinPath(root, LAYOUT.providers, target.namespace as string),
                          now: input.now
                      },
                      { freeze }
                  )
                : await rebuildSelectionWith(
                      {
                          fs: input.fs,
                          selectionDir: joinPath(root, LAYOUT.selections, target.selection as string),
                          providersRoot: joinPath(root, LAYOUT.providers),
                          now: input.now
                      },
                      { freeze }
                  )
        return {
            status: result.status,
            index: result.index,
            indexPath: result.indexPath,
            lockSnapshot: result.index?.lockSnapshot ?? null,
            errors: result.errors
        }
    }
}

/**
 * The public Island: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Island = /* @__PURE__ */ guardStatics(IslandUnguarded, 'Island')
