import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
    createMemoryFs,
    gradeNamespace,
    gradeTree,
    validateGradingEntry,
    type FsPort,
    type TreeProgress
} from '../../src/index.js'
import { dataHttp, grader, scriptedJudge } from './helpers.js'

const now = '2026-11-24T10:00:00Z'
const forms = JSON.parse(
    readFileSync(new URL('../fixtures/schemas/real-forms.json', import.meta.url), 'utf8')
) as Record<string, any>

/**
 * A namespace of three schemas (the real-forms fixture split by tool), written as module sources.
 * `testable` leaves out listSpeeches, whose tests cannot be built (it blocks its schema and the namespace aggregate).
 */
function schemas(namespace: string, testable = false): Record<string, string> {
    const split: Array<[string, string[]]> = [
        ['members', ['getMember', 'searchMembers']],
        ['votes', ['getVote']],
        ['speeches', testable ? ['searchSpeeches'] : ['listSpeeches', 'searchSpeeches']]
    ]
    return Object.fromEntries(
        split.map(([file, tools]) => {
            const main = {
                ...forms,
                namespace,
                name: `Demo ${file}`,
                tools: Object.fromEntries(tools.map((t) => [t, forms.tools[t]]))
            }
            return [`${file}.mjs`, `export const main = ${JSON.stringify(main, null, 4)}\n`]
        })
    )
}

async function tree(fs: FsPort, layout: Record<string, Record<string, string>>): Promise<void> {
    for (const dir of ['/src', ...Object.keys(layout).map((ns) => `/src/${ns}`)]) await fs.mkdir(dir)
    for (const [ns, files] of Object.entries(layout))
        for (const [name, text] of Object.entries(files)) await fs.writeFile(`/src/${ns}/${name}`, text)
}

describe('gradeNamespace', () => {
    it('grades every schema, then the namespace areas once with every tool in view, into one index', async () => {
        const fs = createMemoryFs()
        await tree(fs, { parlamentdemo: schemas('parlamentdemo', true) })
        const { judge, asked } = scriptedJudge(4)
        const result = await gradeNamespace({
            dir: '/src/parlamentdemo',
            grader,
            options: {
                sourceFs: fs,
                fs,
                root: '/island',
                now,
                judge,
                http: dataHttp(),
                serverParams: { PARLAMENTDEMO_API_KEY: 'demo-key-value-0001' }
            }
        })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.schemas.map((s) => s.result.grading?.schemaId)).toEqual([
            'parlamentdemo.members',
            'parlamentdemo.speeches',
            'parlamentdemo.votes'
        ])
        // Namespace areas once, not once per schema.
        expect(asked.filter((r) => r.area === 'namespace-description')).toHaveLength(1)
        expect(asked.filter((r) => r.area === 'tools-aggregate-namespace')).toHaveLength(1)
        // Every judge call of the run counted once: the schemas' and the namespace units'.
        expect(result.judgeCalls).toMatchObject({ calls: asked.length, repairs: 0 })
        const prompt = asked.find((r) => r.area === 'tools-aggregate-namespace')?.prompt ?? ''
        for (const tool of ['getMember', 'searchMembers', 'getVote', 'searchSpeeches']) expect(prompt).toContain(tool)
        expect(result.units.map((u) => u.unit)).toEqual([
            'tools-aggregate-namespace',
            'namespace-description',
            'about-namespace'
        ])
        expect(result.grade).toMatch(/^[A-F]$/)
        expect(result.rollupGrade).toBe(result.grade)
        for (const entry of result.entries) expect(validateGradingEntry({ entry }).valid).toBe(true)
        const index = JSON.parse((await fs.readFile('/island/providers/parlamentdemo/index.json')) as string) as {
            schemas: Record<string, unknown>
        }
        expect(Object.keys(index.schemas).sort()).toEqual(['members', 'speeches', 'votes'])
    })

    it('keeps a server-param value given as a function out of the namespace prompts and attachments', async () => {
        const fs = createMemoryFs()
        await tree(fs, { parlamentdemo: schemas('parlamentdemo') })
        const key = 'pd-secret-value-0123456789'
        const { judge, asked } = scriptedJudge(4)
        await gradeNamespace({
            dir: '/src/parlamentdemo',
            grader,
            options: {
                sourceFs: fs,
                now,
                judge,
                about: { text: `# About\nCall it with ${key}.\n` },
                serverParams: (keys) => Object.fromEntries(keys.map((k) => [k, key]))
            }
        })
        const namespaceAsks = asked.filter(
            (r) => r.area === 'namespace-description' || r.area === 'tools-aggregate-namespace'
        )
        expect(namespaceAsks.length).toBeGreaterThan(0)
        expect(JSON.stringify(namespaceAsks)).not.toContain(key)
    })

    it('reports a broken schema on its row and grades the others', async () => {
        const fs = createMemoryFs()
        await tree(fs, {
            parlamentdemo: {
                ...schemas('parlamentdemo'),
                'broken.mjs': 'export const main = { namespace: "parlamentdemo", tools: compute() }\n'
            }
        })
        const result = await gradeNamespace({ dir: '/src/parlamentdemo', options: { sourceFs: fs, now } })
        const broken = result.schemas.find((s) => s.file.endsWith('broken.mjs'))
        expect(broken?.result.grading).toBeNull()
        expect(broken?.result.errors.length).toBeGreaterThan(0)
        expect(result.schemas.filter((s) => s.result.grading !== null)).toHaveLength(3)
        expect(result.mode).toBe('provisional')
    })

    it('refuses input without schemas or time, with codes', async () => {
        expect((await gradeNamespace({ options: { now } } as never)).errors).toContainEqual(
            expect.objectContaining({ code: 'GRA-001', path: '/dir' })
        )
        expect((await gradeNamespace({ dir: '/x', options: {} } as never)).errors).toContainEqual(
            expect.objectContaining({ code: 'GRA-001', path: '/options/now' })
        )
        expect(
            (await gradeNamespace({ dir: '/missing', options: { sourceFs: createMemoryFs(), now } })).errors[0]?.code
        ).toBe('GRA-004')
    })
})

describe('gradeTree', () => {
    it('grades every namespace into one island in name order, reports progress, and resumes without redoing work', async () => {
        const fs = createMemoryFs()
        await tree(fs, { zetademo: schemas('zetademo'), alphademo: schemas('alphademo') })
        const events: TreeProgress[] = []
        const first = scriptedJudge(4)
        const options = {
            sourceFs: fs,
            fs,
            root: '/island',
            now,
            http: dataHttp(),
            serverParams: { PARLAMENTDEMO_API_KEY: 'demo-key-value-0001' }
        }
        const run = await gradeTree({
            root: '/src',
            grader,
            options: { ...options, judge: first.judge, concurrency: 2, onProgress: (e) => events.push(e) }
        })
        expect(run.namespaces.map((n) => n.namespace)).toEqual(['alphademo', 'zetademo'])
        expect(
            events
                .filter((e) => e.phase === 'done')
                .map((e) => e.done)
                .sort()
        ).toEqual([1, 2])
        const again = scriptedJudge(4)
        const second = await gradeTree({ root: '/src', grader, options: { ...options, judge: again.judge } })
        // speeches has a tool whose tests cannot be built (blocked, no entry): its schema runs again, its graded units are kept.
        expect(second.namespaces.flatMap((n) => n.schemas.map((s) => s.resumed))).toEqual([
            true,
            false,
            true,
            true,
            false,
            true
        ])
        expect(second.namespaces.flatMap((n) => n.schemas.map((s) => s.result.grading?.unitCounts))).toEqual(
            run.namespaces.flatMap((n) =>
                n.schemas.map((s) => ({ kept: s.result.grading?.unitCounts.graded, graded: 0 }))
            )
        )
        expect(again.asked.filter((r) => r.area === 'single-test' || r.area === 'tools-aggregate-schema')).toEqual([])
        expect(again.asked).toEqual([])
        const forced = scriptedJudge(4)
        await gradeTree({ root: '/src', grader, options: { ...options, judge: forced.judge, force: true } })
        // Two namespaces of three schemas; the two speeches schemas rest on an untestable tool, so their aggregates are not asked.
        expect(forced.asked.filter((r) => r.area === 'tools-aggregate-schema')).toHaveLength(4)
    })

    it('starts nothing after the signal aborts and leaves the island readable', async () => {
        const fs = createMemoryFs()
        await tree(fs, { alphademo: schemas('alphademo'), zetademo: schemas('zetademo') })
        const signal = { aborted: false }
        const run = await gradeTree({
            root: '/src',
            options: {
                sourceFs: fs,
                fs,
                root: '/island',
                now,
                signal,
                onProgress: (e) => void (e.phase === 'done' ? (signal.aborted = true) : undefined)
            }
        })
        expect(run.cancelled).toBe(true)
        expect(run.namespaces.map((n) => n.namespace)).toEqual(['alphademo'])
    })

    it('refuses a bad root or concurrency with a code', async () => {
        expect((await gradeTree({ root: '/src', options: { now } })).errors[0]?.code).toBe('GRA-004')
        expect(
            (await gradeTree({ root: '/src', options: { sourceFs: createMemoryFs(), now, concurrency: 0 } })).errors[0]
                ?.code
        ).toBe('GRA-002')
    })
})
