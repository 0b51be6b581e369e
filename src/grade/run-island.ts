// The island a run writes to: the host's, or a private in-memory one whose paths never reach the result.
import type { FsPort } from '../ports/types.js'
import { createMemoryFs } from '../ports/memory-fs.js'
import type { GradeOptionsBase, GradeSingleSchemaResult } from './types.js'
import { definedFields } from '../model/fields.js'

/**
 * The run's island: the host's `fs` and `root`, or a fresh in-memory island (sources still read from the host's
 * `sourceFs ?? fs`).
 */
export function runIsland<O extends GradeOptionsBase>(
    options: O
): {
    options: O & { readonly fs: FsPort; readonly root: string }
    host: boolean
    finish(result: GradeSingleSchemaResult): GradeSingleSchemaResult
} {
    if (options.fs !== undefined && typeof options.root === 'string')
        return { options: options as O & { fs: FsPort; root: string }, host: true, finish: (r) => r }
    const sourceFs = options.sourceFs ?? options.fs
    const own = {
        ...options,
        ...definedFields({ sourceFs }),
        fs: createMemoryFs(),
        root: PRIVATE_ISLAND_ROOT
    }
    return { options: own, host: false, finish: withoutIslandPaths }
}

/** Where a run without a host island keeps its private in-memory island. */
const PRIVATE_ISLAND_ROOT = '/island'

/** A result without the paths of a private island: they would name files the host never sees. */
export function withoutIslandPaths(result: GradeSingleSchemaResult): GradeSingleSchemaResult {
    const g = result.grading
    if (g === null) return result
    return {
        ...result,
        grading: {
            ...g,
            indexPath: null,
            rollupStatus: null,
            rollupGrade: null,
            units: g.units.map((u) => (u.written === null ? u : { ...u, written: null }))
        }
    }
}
