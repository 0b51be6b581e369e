// The argument checks as callers see them, continued (see arg-checks-table.test.ts): the run options a judge and a
// tree read (limits, signal, boundary, concurrency), the file-system port every island call takes, SARIF's tool,
// a selection's definition file and validateGradingEntry's clock skew. Recorded on the hand-written checks before
// their move to valibot schemas through parseArgs.
import { describe } from 'vitest'
import type { Issue } from '../../src/errors/types.js'
import { gradeNamespace, gradeTree, RebuildIndex, Sarif, validateGradingEntry } from '../../src/index.js'
import { resolveLatest } from '../../src/store/resolve-latest.js'
import { createMemoryFs } from '../../src/ports/memory-fs.js'
import { catalogueEntry } from '../grading/helpers.js'
import { grader as judgeGrader } from '../grade/helpers.js'
import { BAD, recorded, recordedAsync, rows, table, type Row } from './arg-rows.js'
import { runBase, start } from './arg-calls.js'

const NOW = '2026-06-01T10:00:00Z'
const option = (field: string, value: unknown): Issue[] =>
    start({ ...runBase, options: { ...runBase.options, [field]: value } })

const sarifTool = (tool: unknown): readonly Issue[] => Sarif.fromFixItems({ items: [], tool } as never).errors
const lock = (file: unknown): readonly Issue[] =>
    RebuildIndex.buildLockSnapshot({
        index: { selectionId: 'demo-sel', members: {} },
        definition: { file, value: { selectionId: 'demo-sel', schemaIds: [] } },
        now: NOW
    } as never).errors
const skew = (value: unknown): readonly Issue[] =>
    validateGradingEntry({ entry: catalogueEntry(), now: NOW, maxClockSkewMs: value } as never).errors

const TABLE: Record<string, Row[]> = {
    'startRun judge limits, signal and boundary': table(
        ['judgeTimeoutMs', 'judgeBudgetMs', 'judgeRetries', 'judgeBackoffMs', 'maxConsecutiveJudgeFailures'],
        option
    ),
    'startRun signal and boundary': [
        ...table(['signal', 'boundary'], option),
        ...rows('signal, boundary and a limit', (v) =>
            start({ ...runBase, options: { ...runBase.options, signal: v, boundary: v, judgeRetries: v } })
        )
    ],
    'Sarif.fromFixItems tool fields': [
        ...rows('tool.name', (v) => sarifTool({ name: v, version: '1' })),
        ...rows('tool.version', (v) => sarifTool({ name: 'n', version: v })),
        ...rows('tool.informationUri', (v) => sarifTool({ name: 'n', version: '1', informationUri: v })),
        ...rows('all', (v) => sarifTool({ name: v, version: v, informationUri: v })),
        ...rows('too long', (v) => sarifTool({ name: 'n'.repeat(201), version: v }), ['string', 'undefined'])
    ],
    'RebuildIndex.buildLockSnapshot definition.file': rows('definition.file', lock),
    'validateGradingEntry maxClockSkewMs': rows('maxClockSkewMs', skew)
}

async function asyncRows(): Promise<Record<string, Row[]>> {
    const list: Row[] = []
    const add = async (name: string, run: (value: unknown) => Promise<readonly Issue[]>) => {
        for (const [label, value] of Object.entries(BAD)) {
            const issues = (await run(value)).map(({ code, path, message }) => ({ code, path, message }))
            list.push({ case: `${name} = ${label}`, issues })
        }
    }
    const ns = { schemas: [], grader: judgeGrader, options: { now: NOW, answers: {} } }
    await add(
        'gradeNamespace boundary',
        async (v) => (await gradeNamespace({ ...ns, options: { ...ns.options, boundary: v } } as never)).errors
    )
    const tree = (options: Record<string, unknown>) =>
        gradeTree({ root: '/src', options: { sourceFs: createMemoryFs(), ...options } } as never)
    await add('gradeTree boundary', async (v) => (await tree({ boundary: v })).errors)
    await add('gradeTree concurrency', async (v) => (await tree({ concurrency: v })).errors)
    const treeRows = list.splice(0)
    await add(
        'RebuildIndex.rebuildNamespaceIndex fs',
        async (v) =>
            (await RebuildIndex.rebuildNamespaceIndex({ fs: v, namespaceDir: '/i/providers/demo', now: NOW })).errors
    )
    await add(
        'resolveLatest fs',
        async (v) =>
            (await resolveLatest({ fs: v, dir: '/i/providers/demo', logicalName: 'prices', kind: 'snapshot' } as never))
                .errors
    )
    return { 'gradeNamespace and gradeTree run options': treeRows, 'the fs port': list }
}

describe('argument checks keep their codes, paths and messages (table recorded on the hand-written checks), 5', () => {
    recorded(TABLE)
    recordedAsync(asyncRows)
})
