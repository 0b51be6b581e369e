import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { answersText, namespaceFixListText, namespaceStatusText } from '../../src/cli/commands/grade-namespace.js'
import { FixList, sourceLocations, type FixItem, type GradingEntry, type UnitResult } from '../../src/index.js'
import { exampleGradeArgs, memoryIo } from '../cli/helpers.js'

const _examples = fileURLToPath(new URL('../../examples/', import.meta.url))
const dir = await mkdtemp(join(tmpdir(), 'flowmcp-nsfix-'))
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

const SOURCE = `export const main = {
    namespace: 'demo',
    name: 'Demo',
    description: 'Demo data.',
    tools: {}
}
`

const unit = (name: string, over: Partial<UnitResult> = {}): UnitResult => ({
    unit: name,
    area: name as UnitResult['area'],
    target: { namespace: 'demo' },
    status: 'graded',
    aggregateGrade: 'C',
    rawGrade: 'C',
    normalizedScore: 3,
    reason: null,
    written: null,
    ...over
})

const entry = (area: string, scores: Record<string, number>): GradingEntry =>
    ({
        area,
        gradings: Object.entries(scores).map(([questionId, score]) => ({
            questionId,
            score,
            weight: 0.25,
            determinism: 'non-deterministic',
            reasoning: `scored ${score}`
        }))
    }) as unknown as GradingEntry

const { locate, resolve } = sourceLocations({ source: SOURCE })
const input = {
    namespace: 'demo',
    units: [
        unit('namespace-description', {
            improvementHints: [{ targetField: 'description', suggestion: 'Say what Demo is.', priority: 'high' }]
        }),
        unit('tools-aggregate-namespace')
    ],
    entries: [
        {
            unit: 'namespace-description',
            entry: entry('namespace-description', {
                'Q-namespace-description-01': 2,
                'Q-namespace-description-02': 3,
                'Q-namespace-description-03': 5,
                'Q-namespace-description-04': 5
            })
        },
        {
            unit: 'tools-aggregate-namespace',
            entry: entry('tools-aggregate-namespace', { 'Q-tools-aggregate-namespace-02': 3.5 })
        }
    ],
    errors: [{ code: 'IDX-014', severity: 'warning' as const, message: 'No About', path: '' }],
    schema: { file: 'providers/demo/data.mjs', locate, resolve },
    about: { file: 'providers/demo/resources/demo-about.md' },
    folder: 'providers/demo'
}

describe('FixList.buildNamespace: the namespace-level answers and the About, each at its file', () => {
    it('lists the missing About first, then the answers that cost points, each at the file it is fixed in', () => {
        const { items, errors } = FixList.buildNamespace(input)
        expect(errors).toEqual([])
        expect(items.map((i) => [i.code, i.file, i.line])).toEqual([
            ['IDX-014', 'providers/demo/resources/demo-about.md', null],
            ['Q-tools-aggregate-namespace-02', 'providers/demo', null],
            ['Q-namespace-description-01', 'providers/demo/data.mjs', 4],
            // The hint sorts right after its unit's costliest answer, at the field it names.
            ['HINT-namespace-description', 'providers/demo/data.mjs', 4],
            ['Q-namespace-description-02', 'providers/demo/data.mjs', 4]
        ])
        expect(items[0]?.message).toContain('create providers/demo/resources/demo-about.md')
        expect(items[0]?.message).toContain('main.resources.about')
        // Sorted by what fixing gains, from the catalogue's weights: (5 − score) × weight share.
        const costs = items.map((i) => i.cost)
        expect(costs).toEqual([...costs].sort((a, b) => b - a))
        expect(items[2]?.cost).toBe(0.75)
        expect(items[1]?.cost).toBe(1.5)
        expect(items.every((i) => i.schemaId === 'demo')).toBe(true)
    })

    it('says how to fix an About that is declared but missing (GRA-023) or present but undeclared (GRA-022)', () => {
        const missing = FixList.buildNamespace({
            ...input,
            errors: [{ code: 'GRA-023', severity: 'warning', message: 'put the file at x', path: '/dir' }]
        }).items[0]
        expect([missing?.code, missing?.file, missing?.message]).toEqual([
            'GRA-023',
            'providers/demo/resources/demo-about.md',
            'put the file at x'
        ])
        const undeclared = FixList.buildNamespace({
            ...input,
            errors: [{ code: 'GRA-022', severity: 'warning', message: 'declare it', path: '/dir' }]
        }).items[0]
        expect([undeclared?.code, undeclared?.file]).toEqual(['GRA-022', 'providers/demo/data.mjs'])
    })

    it('names the About from its skipped unit when a resumed run reports no IDX-014, and one present but undeclared', () => {
        const resumed = {
            ...input,
            units: [unit('about-namespace', { status: 'skipped', reason: 'the schema declares no about resource' })],
            entries: [],
            errors: []
        }
        expect(FixList.buildNamespace(resumed).items.map((i) => [i.code, i.file])).toEqual([
            ['IDX-014', 'providers/demo/resources/demo-about.md']
        ])
        const present = FixList.buildNamespace({
            ...resumed,
            about: { file: 'providers/demo/resources/demo-about.md', exists: true }
        }).items
        expect(present.map((i) => [i.code, i.file])).toEqual([['GRA-022', 'providers/demo/data.mjs']])
        expect(present[0]?.message).toContain("name: 'demo-about.md'")
    })

    it('has nothing to say for a namespace whose answers cost nothing and whose About is there', () => {
        const { items } = FixList.buildNamespace({
            namespace: 'demo',
            units: [unit('namespace-description')],
            entries: [
                {
                    unit: 'namespace-description',
                    entry: entry('namespace-description', { 'Q-namespace-description-01': 4.5 })
                }
            ],
            errors: []
        })
        expect(items).toEqual([])
    })

    it('refuses input without a namespace name (GRA-002), never throwing', () => {
        for (const bad of [null, 42, {}, { namespace: 7 }]) {
            const result = FixList.buildNamespace(bad as never)
            expect(result.items).toEqual([])
            expect(result.errors.map((e) => [e.code, e.path])).toEqual([['GRA-002', '/namespace']])
        }
        // Units and entries that are not what they say add nothing.
        expect(
            FixList.buildNamespace({ namespace: 'demo', units: [null, 5] as never, entries: 'x' as never }).items
        ).toEqual([])
    })

    it('prints the list in the schemas line format, grouped under each file, with a limit', () => {
        const { items } = FixList.buildNamespace(input)
        const lines = namespaceFixListText('demo', items, { indent: '  ', grade: 'C', limit: 2 })
        expect(lines[0]).toBe('  demo (namespace, grade C): ✖ 5 problems (0 errors, 2 warnings, 3 notes)\n')
        expect(lines[1]).toBe('    providers/demo/resources/demo-about.md\n')
        expect(lines[2]).toMatch(/^ {6}- {8}warning {2}IDX-014 {2}No About: create /)
        expect(lines[3]).toBe('    providers/demo\n')
        expect(lines[4]).toMatch(/^ {6}- {8}note {5}Q-tools-aggregate-namespace-02 {2}/)
        expect(lines.at(-1)).toBe('    … 3 more lines for demo (namespace) (--verbose lists them all)\n')
        expect(namespaceFixListText('demo', [] as FixItem[])).toEqual([])
    })
})

describe('grade prints each namespace fix list after the schemas', () => {
    it('in the text after every schema fix list, and in --json under namespaces[].fixList', async () => {
        const args = exampleGradeArgs('providers', join(dir, 'island'), '2026-11-22T18:00:00Z')
        const env = { ETHERSCAN_API_KEY: 'example-key-not-real' }
        const text = memoryIo({}, { env })
        await run(['grade', ...args, '--verbose'], text)
        const out = text.out()
        const lastSchemaList = out.lastIndexOf('sportsodds/odds.mjs (sportsodds.odds')
        const firstNamespaceList = out.indexOf(' (namespace, grade ')
        expect(lastSchemaList).toBeGreaterThan(-1)
        expect(firstNamespaceList).toBeGreaterThan(lastSchemaList)
        // The namespace description's answers at the schema's description line.
        expect(out).toMatch(/\n {4}\S+\/etherscan\/contracts\.mjs\n {6}\d+:\d+\s+\w+\s+Q-namespace-description-\d\d\s/)
        const json = memoryIo({}, { env })
        await run(['grade', ...args, '--json'], json)
        const namespaces = (JSON.parse(json.out()) as { namespaces: Array<{ namespace: string; fixList: FixItem[] }> })
            .namespaces
        const byName = Object.fromEntries(namespaces.map((n) => [n.namespace, n.fixList]))
        expect(byName.etherscan?.[0]?.code).toBe('IDX-014')
        expect(byName.etherscan?.[0]?.file).toMatch(/\/etherscan\/resources\/etherscan-about\.md$/)
        // openmeteo has its About: no IDX-014 line.
        expect(byName.openmeteo?.some((i) => i.code === 'IDX-014')).toBe(false)
    }, 180_000)
})

describe('the namespace row words', () => {
    it('names how the questions were answered and the index status, each on its own', () => {
        expect(answersText({ mode: 'full', provisionalGrade: null })).toBe('judged')
        expect(answersText({ mode: 'provisional', provisionalGrade: 'B' })).toBe('provisional (deterministic only: B)')
        expect(answersText({ mode: 'provisional', provisionalGrade: null })).toBe('provisional')
        expect(answersText({ mode: 'none', provisionalGrade: null })).toBe('none')
        expect(namespaceStatusText({ rollupStatus: 'partial', rollupGrade: 'C', grade: 'C' })).toBe('partial')
    })

    it('says where the index grade differs from the run grade, and a dash without an index (failing cases)', () => {
        expect(namespaceStatusText({ rollupStatus: 'partial', rollupGrade: 'C', grade: null })).toBe(
            'partial (index grade C)'
        )
        expect(namespaceStatusText({ rollupStatus: null, rollupGrade: null, grade: 'B' })).toBe('-')
    })
})
