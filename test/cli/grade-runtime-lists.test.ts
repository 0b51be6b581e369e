import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gradeCommand } from '../../src/cli/commands/grade.js'
import type { GradeCommandOptions } from '../../src/cli/commands/grade-options.js'
import { buildChildScript, prepareRuntime, runtimePresent, type PreparedRuntime } from '../runtime/harness.js'
import { memoryIo } from './helpers.js'

// A handler schema that reads a shared list, graded through the real FlowMCP runtime (child process,
// offline: its handler computes locally) without and with --runtime-lists.
const FIXTURES = fileURLToPath(new URL('../fixtures/runtime/', import.meta.url))
const now = '2026-12-01T10:00:00Z'

describe.skipIf(!runtimePresent)('grade --runtime of a schema that declares sharedLists', () => {
    let runtime: PreparedRuntime
    let work = ''
    let childScript = ''
    const grade = async (extra: Partial<GradeCommandOptions>): Promise<{ out: string; err: string }> => {
        const io = memoryIo({}, { env: {}, cwd: work })
        await gradeCommand(
            [join(work, 'providers', 'listedfixture')],
            {
                json: true,
                live: false,
                now,
                runtime: { folder: runtime.folder, libraries: runtime.base, childScript },
                ...extra
            },
            io
        )
        return { out: io.out(), err: io.err() }
    }
    const toolUnit = (out: string) =>
        (
            JSON.parse(out) as {
                schemas: Array<{ grading: { units: Array<{ unit: string; status: string; reason: string | null }> } }>
            }
        ).schemas[0]?.grading.units.find((u) => u.unit === 'single-test/getChain')

    beforeAll(async () => {
        runtime = await prepareRuntime()
        work = realpathSync(mkdtempSync(join(tmpdir(), 'grade-lists-')))
        mkdirSync(join(work, 'child'))
        childScript = await buildChildScript(join(work, 'child'))
        mkdirSync(join(work, 'providers', 'listedfixture'), { recursive: true })
        cpSync(join(FIXTURES, 'listed', 'chains.mjs'), join(work, 'providers', 'listedfixture', 'chains.mjs'))
    }, 60_000)

    afterAll(() => {
        runtime?.cleanup()
        if (work !== '') rmSync(work, { recursive: true, force: true })
    })

    it('without --runtime-lists: not tested here (shared-lists-not-given) with a hint at --runtime-lists, not the raw TypeError as the schema’s own failure', async () => {
        const { out } = await grade({})
        const unit = toolUnit(out)
        expect(unit?.status).toBe('blocked')
        expect(unit?.reason).toMatch(
            /^shared-lists-not-given — not tested here: the schema declares shared lists, the runtime has none; pass --runtime-lists <folder> \(listsDir\) \(0 of its tests returned data, 3 needed; test 0: the runtime reported a failure: .*reading 'filter'/
        )
    })

    it('with --runtime-lists: the handler reads the list and the tool is tested', async () => {
        const { out } = await grade({
            runtime: {
                folder: runtime.folder,
                libraries: runtime.base,
                childScript,
                lists: join(FIXTURES, 'lists')
            }
        })
        expect(toolUnit(out)?.reason ?? '').not.toMatch(/blocked|shared-lists|fewer-than/)
        expect(toolUnit(out)?.status).not.toBe('blocked')
    })
})
