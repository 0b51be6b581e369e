import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    gradeNamespace,
    gradeSingleSchema,
    RebuildIndex,
    type FsPort,
    type JudgeRequest
} from '../../src/index.js'
import { keptUnits, writeUnitState } from '../../src/grade/island-state.js'
import { schemaGradingOf } from '../../src/grade/schema-result.js'
import { dataHttp, grader, replyFor, scriptedJudge } from './helpers.js'

const now = '2026-11-25T10:00:00Z'
const forms = JSON.parse(
    readFileSync(new URL('../fixtures/schemas/real-forms.json', import.meta.url), 'utf8')
) as Record<string, any>

/** A keyed schema in the real form (`{{KEY}}` in a parameter value, declared in requiredServerParams), written as a module. */
function keyedSource(namespace = 'keyeddemo'): string {
    const main = {
        ...forms,
        namespace,
        name: 'Keyed demo',
        tools: { getMember: forms.tools.getMember, getVote: forms.tools.getVote }
    }
    return `export const main = ${JSON.stringify(main, null, 4)}\n`
}

async function island(files: Record<string, string>): Promise<FsPort> {
    const fs = createMemoryFs()
    await fs.mkdir('/src')
    for (const [path, text] of Object.entries(files)) {
        const dir = path.slice(0, path.lastIndexOf('/'))
        if ((await fs.stat(dir)) === null) await fs.mkdir(dir)
        await fs.writeFile(path, text)
    }
    return fs
}

const readJson = async (fs: FsPort, path: string): Promise<any> => JSON.parse((await fs.readFile(path)) as string)

describe('untested is never better than tested', () => {
    it('key-gated tools are blocked in index.json with the missing variable named, offline as well as live (04 §8 rule 4, 03 §6.2, ⚠ C13)', async () => {
        const fs = await island({ '/src/keyeddemo/demo.mjs': keyedSource() })
        const { judge, asked } = scriptedJudge(4)
        const result = await gradeNamespace({
            dir: '/src/keyeddemo',
            grader,
            options: { sourceFs: fs, fs, root: '/island', now, judge }
        })
        const grading = result.schemas[0]?.result.grading
        expect(grading?.status).toBe('blocked')
        expect(grading?.grade).toBeNull()
        expect(grading?.units.filter((u) => u.area === 'single-test').map((u) => u.status)).toEqual([
            'blocked',
            'blocked'
        ])
        expect(grading?.units.find((u) => u.unit === 'single-test/getMember')?.reason).toContain(
            'set PARLAMENTDEMO_API_KEY'
        )
        expect(asked.some((r) => r.area === 'single-test')).toBe(false)
        const summary = await readJson(fs, '/island/providers/keyeddemo/demo/summary.json')
        expect(summary).toMatchObject({
            ran: false,
            perTool: {
                getMember: {
                    blocked: true,
                    reason: 'key-gated-missing-server-param',
                    missingServerParams: ['PARLAMENTDEMO_API_KEY']
                }
            }
        })
        const index = await readJson(fs, '/island/providers/keyeddemo/index.json')
        expect(index.schemas.demo.status).toBe('blocked')
        expect(index.schemas.demo.grade).toBeUndefined()
        expect(index.schemas.demo.tools.getMember).toEqual({
            status: 'blocked',
            cause: 'key-gated-missing-server-param',
            reason: expect.stringMatching(
                /^IDX-030: Tool getMember was not tested \(key-gated-missing-server-param\): not tested: set PARLAMENTDEMO_API_KEY/
            )
        })
        // The namespace follows 03 §6.3: something graded and something blocked is partial, never operational.
        expect(index.status).toBe('partial')
    })

    it('a live summary of the same content is not replaced by an offline plan, and an offline summary says nothing about counts', async () => {
        const fs = await island({ '/src/keyeddemo/demo.mjs': keyedSource() })
        await gradeNamespace({ dir: '/src/keyeddemo', options: { sourceFs: fs, fs, root: '/island', now } })
        const path = '/island/providers/keyeddemo/demo/summary.json'
        const offline = await readJson(fs, path)
        // Counts of an offline plan (0 working) never block a tool by themselves.
        await fs.writeFile(
            path,
            JSON.stringify({
                ...offline,
                perTool: { ...offline.perTool, getMember: { working: 0, bar: 3, blocked: false, reason: null } }
            })
        )
        const rebuilt = await RebuildIndex.rebuildNamespaceIndex({
            fs,
            namespaceDir: '/island/providers/keyeddemo',
            now
        })
        expect((rebuilt.index as any).schemas.demo.tools.getMember.status).not.toBe('blocked')
        // A live summary (ran: true) of this content stays when an offline run follows.
        const live = {
            ...offline,
            ran: true,
            perTool: { ...offline.perTool, getMember: { working: 3, total: 3, bar: 3, blocked: false, reason: null } }
        }
        await fs.writeFile(path, JSON.stringify(live))
        await gradeNamespace({
            dir: '/src/keyeddemo',
            options: { sourceFs: fs, fs, root: '/island', now: '2026-11-25T11:00:00Z' }
        })
        expect(await readJson(fs, path)).toEqual(live)
    })
})

describe('provisional is never a headline', () => {
    it('without a judge the headline grade is null and the deterministic-only figure is provisionalGrade', async () => {
        const main = { ...forms, tools: { getMember: forms.tools.getMember, getVote: forms.tools.getVote } }
        const result = await gradeSingleSchema({
            schema: { main },
            fileName: 'forms.mjs',
            options: { now, http: dataHttp(), serverParams: { PARLAMENTDEMO_API_KEY: 'demo-value-0001' } }
        })
        expect(result.grading).toMatchObject({
            mode: 'provisional',
            status: 'provisional',
            grade: null,
            schemaGrade: null
        })
        expect(result.grading?.provisionalGrade).toMatch(/^[A-F]$/)
        expect(result.grading?.provisionalSchemaGrade).toMatch(/^[A-F]$/)
        expect(result.errors).toContainEqual(
            expect.objectContaining({ code: 'GRA-014', message: expect.stringContaining('no grade') })
        )
    })

    it('a run where every unit is blocked reports mode none, not full', async () => {
        const blocker = async (): Promise<string> =>
            JSON.stringify({ blocker: 'api-down', reason: 'the API answered 503 to every call' })
        const result = await gradeSingleSchema({
            schema: { main: forms },
            fileName: 'forms.mjs',
            grader,
            options: { now, judge: blocker, serverParams: { PARLAMENTDEMO_API_KEY: 'demo-value-0001' } }
        })
        expect(
            result.grading?.units.every((u) => u.status === 'blocked' || u.status === 'skipped' || u.status === 'gated')
        ).toBe(true)
        expect(result.grading).toMatchObject({ mode: 'none', grade: null })
    })
})

describe('a re-run grades exactly the units without an entry for the current content', () => {
    it('keeps graded units, asks only for the failed ones, and reports the grades the island holds', async () => {
        // Without listSpeeches, whose tests cannot be built: every other tool is tested, so every unit can be graded.
        const { listSpeeches: _untestable, ...testable } = forms.tools as Record<string, unknown>
        const fs = await island({
            '/src/rerundemo/demo.mjs': `export const main = ${JSON.stringify({ ...forms, namespace: 'rerundemo', tools: testable }, null, 4)}\n`
        })
        const options = {
            sourceFs: fs,
            fs,
            root: '/island',
            now,
            http: dataHttp(),
            serverParams: { PARLAMENTDEMO_API_KEY: 'demo-value-0001' },
            resume: true
        }
        let calls = 0
        const flaky = async (request: JudgeRequest): Promise<string> => {
            calls += 1
            if (request.unit === 'single-test/getVote' || request.unit === 'namespace-description')
                throw new Error('429 rate limited')
            return JSON.stringify(replyFor(request.area, 4))
        }
        const first = await gradeNamespace({ dir: '/src/rerundemo', grader, options: { ...options, judge: flaky } })
        expect(first.schemas[0]?.result.grading?.units.find((u) => u.unit === 'single-test/getVote')?.status).toBe(
            'error'
        )
        const { judge, asked } = scriptedJudge(4)
        const second = await gradeNamespace({ dir: '/src/rerundemo', grader, options: { ...options, judge } })
        expect(asked.map((r) => r.unit).sort()).toEqual(['namespace-description', 'single-test/getVote'])
        const grading = second.schemas[0]?.result.grading
        expect(grading?.unitCounts).toEqual({
            kept: first.schemas[0]?.result.grading?.unitCounts.graded ?? 0,
            graded: 1
        })
        expect(second.units.find((u) => u.unit === 'tools-aggregate-namespace')).toMatchObject({
            kept: true,
            status: 'graded'
        })
        const index = await readJson(fs, '/island/providers/rerundemo/index.json')
        expect(second.grade).toBe(index.grade ?? null)
        expect(calls).toBeGreaterThan(0)
    })

    it('keeps nothing from an unreadable or foreign index, nor an entry of other inputs', async () => {
        const fs = createMemoryFs()
        await fs.mkdir('/island')
        await fs.mkdir('/island/providers')
        await fs.mkdir('/island/providers/x')
        await fs.writeFile('/island/providers/x/index.json', '{ not json')
        const key = `sha256:${'a'.repeat(64)}`
        expect(
            (await keptUnits(fs, '/island', 'x', { schemaFolder: 's', schemaHash: 'aaaaaaaa', tools: ['t'] }, key)).size
        ).toBe(0)
        const ref = 's/_gradings/tools-aggregate-schema--2026-01-01T00-00-00Z.json'
        await fs.writeFile(
            '/island/providers/x/index.json',
            JSON.stringify({
                schemas: {
                    s: {
                        snapshot: { hash: 'bbbbbbbb' },
                        toolsAggregate: { status: 'stable', grade: 'B', boundTo: 'bbbbbbbb', ref },
                        tools: {}
                    }
                }
            })
        )
        const scope = { schemaFolder: 's', schemaHash: 'bbbbbbbb', tools: [] }
        // No state.json line says which inputs the entry was computed from: nothing is reused.
        expect((await keptUnits(fs, '/island', 'x', scope, key)).size).toBe(0)
        await fs.writeFile(
            '/island/providers/x/state.json',
            JSON.stringify({ areas: [{ area: 'tools-aggregate-schema', lastGradingRef: ref, inputsKey: key }] })
        )
        expect((await keptUnits(fs, '/island', 'x', { ...scope, schemaHash: 'aaaaaaaa' }, key)).size).toBe(0)
        expect((await keptUnits(fs, '/island', 'x', scope, `sha256:${'b'.repeat(64)}`)).size).toBe(0)
        expect((await keptUnits(fs, '/island', 'x', scope, null)).size).toBe(0)
        expect((await keptUnits(fs, '/island', 'x', scope, key)).get('tools-aggregate-schema')).toMatchObject({
            aggregateGrade: 'B'
        })
    })
})

describe("the judge's advice is kept", () => {
    it('writes improvement hints per unit into state.json, replacing an unreadable state whole', async () => {
        const fs = createMemoryFs()
        for (const d of ['/island', '/island/providers', '/island/providers/x']) await fs.mkdir(d)
        await fs.writeFile('/island/providers/x/state.json', 'garbage')
        const unit = {
            unit: 'namespace-description',
            area: 'namespace-description' as const,
            target: { namespace: 'x' },
            status: 'graded' as const,
            aggregateGrade: 'B' as const,
            rawGrade: 'B' as const,
            normalizedScore: 4,
            reason: null,
            written: '/island/providers/x/_gradings/namespace-description--2026-11-25T10-00-00Z.json'
        }
        const hints = [{ targetField: 'description', suggestion: 'name the data source', priority: 'high' as const }]
        const issues = await writeUnitState(
            fs,
            '/island',
            'x',
            [unit],
            [
                {
                    plan: { unit: unit.unit, area: unit.area, target: unit.target, deterministic: [], focus: null },
                    sidecar: { iteration: 1, improvementHints: hints }
                }
            ]
        )
        expect(issues).toEqual([])
        const state = await readJson(fs, '/island/providers/x/state.json')
        expect(state).toEqual({
            target: { namespace: 'x' },
            areas: [
                {
                    area: 'namespace-description',
                    target: { namespace: 'x' },
                    unit: 'namespace-description',
                    status: 'graded',
                    iteration: 1,
                    improvementHints: hints,
                    lastGradingRef: '_gradings/namespace-description--2026-11-25T10-00-00Z.json'
                }
            ],
            done: 1,
            total: 1
        })
        // A later provisional run never replaces what a judge said.
        await writeUnitState(fs, '/island', 'x', [{ ...unit, status: 'provisional', written: null }], [])
        expect(await readJson(fs, '/island/providers/x/state.json')).toEqual(state)
        // Another writer's fields (the emit baton) are kept beside the areas.
        await fs.writeFile(
            '/island/providers/x/state.json',
            JSON.stringify({ ...state, target: 'x', taskId: 'x--0a1b2c3d', status: 'prompts-emitted' })
        )
        await writeUnitState(
            fs,
            '/island',
            'x',
            [{ ...unit, unit: 'tools-aggregate-namespace', area: 'tools-aggregate-namespace' }],
            []
        )
        expect(await readJson(fs, '/island/providers/x/state.json')).toMatchObject({
            target: 'x',
            taskId: 'x--0a1b2c3d',
            status: 'prompts-emitted',
            total: 2
        })
    })

    it('schemaGradingOf gives no headline to a schema whose aggregate has no grade (pending)', () => {
        const plan = {
            unit: 'tools-aggregate-schema',
            area: 'tools-aggregate-schema' as const,
            target: { namespace: 'x', schema: 's' },
            status: 'error' as const,
            aggregateGrade: null,
            rawGrade: null,
            normalizedScore: null,
            reason: 'the judge failed',
            written: null
        }
        const tool = {
            ...plan,
            unit: 'single-test/t',
            area: 'single-test' as const,
            status: 'graded' as const,
            aggregateGrade: 'B' as const,
            reason: null
        }
        // The index node the rebuild writes for it: the aggregate has no full grading, so the schema is pending.
        const node = {
            status: 'pending',
            reason: 'no full grading: the tools aggregate',
            toolsAggregate: { status: 'pending', reason: 'no full grading' },
            tools: { t: { status: 'graded', grade: 'B' } }
        }
        const grading = schemaGradingOf({
            schemaId: 'x.s',
            namespace: 'x',
            slug: 's',
            schemaHash: 'aaaaaaaa',
            version: '4.0.0',
            units: [tool, plan],
            veto: null,
            pretest: { ran: false, reason: null, ok: false, blocked: [], tests: [] },
            indexPath: null,
            rollupStatus: null,
            rollupGrade: null,
            node
        })
        expect(grading).toMatchObject({
            status: 'pending',
            grade: null,
            schemaGrade: null,
            mode: 'full',
            reason: 'no full grading: the tools aggregate'
        })
    })
})

describe('a malformed schemaId never reaches the island', () => {
    it('refuses hostile../../escape with GRA-002 at /schemaId and writes nothing, without a judge too', async () => {
        const fs = createMemoryFs()
        const main = { ...forms, namespace: 'hostile' }
        const result = await gradeSingleSchema({
            schema: { main },
            schemaId: 'hostile../../escape',
            options: { fs, root: '/island', now }
        })
        expect(result.grading).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code: 'GRA-002', path: '/schemaId' }))
        expect(await fs.stat('/island')).toBeNull()
        const ok = await gradeSingleSchema({ schema: { main }, schemaId: 'hostile.members', options: { now } })
        expect(ok.grading?.schemaId).toBe('hostile.members')
    })
})
