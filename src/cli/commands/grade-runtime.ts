// `grade --runtime`: the child-process runtime port, its network following the grade mode, noting
// which tests it ran for the table and `--json`.

import type { HttpPort, RuntimePort } from '../../index.js'
import { absolute } from '../node.js'
import { runtimePortFromChildProcess, type ChildRuntimePort } from '../runtime/process.js'
import type { ChildNetwork } from '../runtime/protocol.js'
import type { GradeCommandOptions } from './grade-options.js'
import { definedFields } from '../../model/fields.js'

/** What the runtime ran in this grading run: per schema file, per tool, its tests and how many returned data. */
export type RuntimeRuns = Map<string, Map<string, { tests: number; ok: number }>>

/**
 * The runtime port of `grade --runtime`: the child-process port, its network the run's own `http`
 * (`--live`: the real fetch, behind the recorder with `--record`; `--recordings <dir>`: those
 * recordings replayed; otherwise a fetch that rejects), wrapped to note which tests it ran (the
 * table and `--json` mark them).
 * @returns the port (call `close()` when grading is done) and what it ran, or the problems with the options
 */
export function runtimeForGrade(
    options: Pick<GradeCommandOptions, 'runtime' | 'live' | 'recordings'>,
    cwd: string,
    http?: HttpPort
): { port: (RuntimePort & { close(): Promise<void> }) | null; runs: RuntimeRuns; errors: string[] } {
    const runs: RuntimeRuns = new Map()
    if (options.runtime === undefined) return { port: null, runs, errors: [] }
    const network: ChildNetwork = options.live
        ? { mode: 'live' }
        : options.recordings !== undefined
          ? { mode: 'recordings', dir: absolute(options.recordings, cwd) }
          : { mode: 'offline' }
    const built = runtimePortFromChildProcess({
        runtime: absolute(options.runtime.folder, cwd),
        ...(options.runtime.libraries !== undefined ? { libraries: absolute(options.runtime.libraries, cwd) } : {}),
        ...(options.runtime.lists !== undefined ? { lists: absolute(options.runtime.lists, cwd) } : {}),
        ...definedFields({ childScript: options.runtime.childScript }),
        network,
        ...definedFields({ http })
    })
    if (built.port === null) return { port: null, runs, errors: built.errors }
    const child: ChildRuntimePort = built.port
    const port: RuntimePort & { close(): Promise<void> } = {
        ...definedFields({ version: child.version }),
        isolation: child.isolation,
        ...definedFields({ hasLists: child.hasLists }),
        async run(request) {
            const outcome = await child.run(request)
            if (request.schemaPath !== null) {
                const tools = runs.get(request.schemaPath) ?? new Map<string, { tests: number; ok: number }>()
                const seen = tools.get(request.tool) ?? { tests: 0, ok: 0 }
                tools.set(request.tool, { tests: seen.tests + 1, ok: seen.ok + (outcome.ok ? 1 : 0) })
                runs.set(request.schemaPath, tools)
            }
            return outcome
        },
        close: () => child.close()
    }
    return { port, runs, errors: [] }
}
