import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'
import { writeSyntheticRecordings } from '../support/synthetic-recordings.js'
import { shared } from '../support/shared.js'

// Copies of real schemas of ../shared/corpus-sample, made at test time (never kept in the project).
const { path: SAMPLE, present } = shared('corpus-sample/schemas/')
const now = '2026-11-25T10:00:00Z'
let dir = ''

/** A judge command that answers every question it is asked with 4 and one hint; FAIL_EVERY=n fails every n-th call (a refused request: not retried). */
const JUDGE = `import { existsSync, readFileSync, writeFileSync } from 'node:fs'
const request = JSON.parse(readFileSync(0, 'utf8'))
const every = Number(process.env.FAIL_EVERY ?? 0)
if (every > 0) {
    const file = process.env.COUNT_FILE
    const n = (existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0) + 1
    writeFileSync(file, String(n))
    if (n % every === 0) { process.stderr.write('invalid request'); process.exit(1) }
}
const answers = request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'clear enough for an agent' }))
process.stdout.write(JSON.stringify({ answers, improvementHints: [{ targetField: 'description', suggestion: 'say what ' + request.unit + ' returns', priority: 'medium' }] }))
`

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-truth-'))
    if (!present) return
    for (const ns of ['bis', 'etherscan', 'frankfurter'])
        await cp(join(SAMPLE, ns), join(dir, 'src', ns), { recursive: true })
    await writeFile(join(dir, 'judge.mjs'), JUDGE)
    // Every test answered with data from recordings, so the tools are tested (etherscan's still wait for their key).
    await writeSyntheticRecordings(
        [join(dir, 'src', 'bis', 'bisStatistics.mjs'), join(dir, 'src', 'frankfurter', 'frankfurter.mjs')],
        join(dir, 'recordings')
    )
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

interface JsonRun {
    namespaces: Array<{
        namespace: string | null
        grade: string | null
        provisionalGrade: string | null
        mode: string
        rollupStatus: string | null
        rollupGrade: string | null
        units: Array<{ unit: string; improvementHints: unknown[] }>
    }>
    schemas: Array<{
        resumed: boolean
        grading: {
            schemaId: string
            status: string
            grade: string | null
            schemaGrade: string | null
            provisionalGrade: string | null
            mode: string
            unitGrades: Record<string, string | null>
            unitCounts: { kept: number; graded: number }
            units: Array<{
                unit: string
                status: string
                reason: string | null
                kept: boolean
                improvementHints: unknown[]
            }>
        }
    }>
}

async function grade(
    island: string,
    extra: string[] = [],
    env: Record<string, string> = {}
): Promise<{ code: number; json: JsonRun; text: string }> {
    const judge = [
        '--judge-command',
        `node ${join(dir, 'judge.mjs')}`,
        '--judge-model',
        'stand-in-model-1',
        '--judge-env',
        'FAIL_EVERY',
        '--judge-env',
        'COUNT_FILE'
    ]
    const jsonIo = memoryIo({}, { env: { PATH: process.env.PATH ?? '', ...env } })
    // The sample's tools carry one or two tests each: a bar of 1 lets the tested ones be graded.
    const tested = extra.includes('--offline')
        ? []
        : ['--recordings', join(dir, 'recordings'), '--min-working-tests', '1']
    const code = await run(
        [
            'grade',
            join(dir, 'src'),
            '--island',
            join(dir, island),
            '--now',
            now,
            '--json',
            ...tested,
            ...judge,
            ...extra.filter((a) => a !== '--offline')
        ],
        jsonIo
    )
    return { code, json: JSON.parse(jsonIo.out()) as JsonRun, text: jsonIo.err() }
}

async function entries(island: string): Promise<string[]> {
    const found: string[] = []
    const walk = async (d: string): Promise<void> => {
        for (const e of await readdir(d, { withFileTypes: true })) {
            if (e.isDirectory()) await walk(join(d, e.name))
            else if (d.endsWith('_gradings') && e.name.endsWith('.json'))
                found.push(join(d, e.name).slice(join(dir, island).length))
        }
    }
    await walk(join(dir, island))
    return found.sort()
}

/** What a maintainer compares between two runs: per schema and namespace, the grades and statuses said. */
const said = (r: JsonRun): unknown => ({
    schemas: r.schemas.map((s) => [
        s.grading.schemaId,
        s.grading.status,
        s.grading.grade,
        s.grading.schemaGrade,
        s.grading.unitGrades,
        s.grading.units.map((u) => [u.unit, u.status, u.reason])
    ]),
    namespaces: r.namespaces.map((n) => [n.namespace, n.grade, n.mode, n.rollupStatus, n.rollupGrade])
})

describe.skipIf(!present)('grades that tell the truth (copies of real sample schemas)', () => {
    it('a re-run reports the grade, unit grades and namespace rows the island holds, with the same exit code, and asks the judge nothing', async () => {
        const counting = { FAIL_EVERY: '1000000', COUNT_FILE: join(dir, 'calls') }
        const first = await grade('rerun', [], counting)
        const calls = Number(await readFile(join(dir, 'calls'), 'utf8'))
        const second = await grade('rerun', [], counting)
        expect(Number(await readFile(join(dir, 'calls'), 'utf8'))).toBe(calls)
        expect(second.code).toBe(first.code)
        expect(said(second.json)).toEqual(said(first.json))
        expect(second.json.namespaces.map((n) => n.namespace)).toEqual(['bis', 'etherscan', 'frankfurter'])
        // Schemas whose every unit is current are kept whole; the one with blocked tools runs again but keeps its graded units.
        const bis = second.json.schemas.find((s) => s.grading.schemaId === 'bis.bisStatistics')
        expect(bis?.resumed).toBe(true)
        expect(bis?.grading.grade).toBe(
            first.json.schemas.find((s) => s.grading.schemaId === 'bis.bisStatistics')?.grading.grade
        )
        expect(second.json.schemas.every((s) => s.grading.unitCounts.graded === 0)).toBe(true)
        const index = JSON.parse(await readFile(join(dir, 'rerun/providers/bis/index.json'), 'utf8')) as {
            grade: string
        }
        expect(second.json.namespaces.find((n) => n.namespace === 'bis')?.grade).toBe(index.grade)
    })

    it('a re-run fills every unit a failed judge call left, and keeps the rest', async () => {
        const clean = await grade('clean')
        const failing = await grade('holes', [], { FAIL_EVERY: '4', COUNT_FILE: join(dir, 'count') })
        const failed = failing.json.schemas.flatMap((s) => s.grading.units.filter((u) => u.status === 'error'))
        expect(failed.length).toBeGreaterThan(0)
        expect(failing.code).toBe(1)
        const before = await entries('holes')
        const refill = await grade('holes')
        const kept = refill.json.schemas.reduce((n, s) => n + s.grading.unitCounts.kept, 0)
        const filled = refill.json.schemas.reduce((n, s) => n + s.grading.unitCounts.graded, 0)
        expect(kept).toBeGreaterThan(0)
        expect(filled).toBeGreaterThanOrEqual(failed.length)
        const after = await entries('holes')
        expect(after.length).toBe((await entries('clean')).length)
        expect(after.length).toBeGreaterThan(before.length)
        expect(said(refill.json)).toEqual(said(clean.json))
    })

    it('untested is never better than tested: key-gated tools are blocked in index.json with the missing variable named, the schema has no grade', async () => {
        const result = await grade('keys')
        const etherscan = result.json.schemas.find((s) => s.grading.schemaId === 'etherscan.account')
        expect(etherscan?.grading.status).toBe('blocked')
        expect(etherscan?.grading.grade).toBeNull()
        expect(etherscan?.grading.schemaGrade).toBeNull()
        const tools = etherscan?.grading.units.filter((u) => u.unit.startsWith('single-test/')) ?? []
        expect(tools.length).toBe(7)
        for (const tool of tools)
            expect(tool).toMatchObject({ status: 'blocked', reason: expect.stringContaining('ETHERSCAN_API_KEY') })
        const index = JSON.parse(await readFile(join(dir, 'keys/providers/etherscan/index.json'), 'utf8')) as {
            schemas: Record<
                string,
                { status: string; grade?: string; tools: Record<string, { status: string; reason: string }> }
            >
        }
        expect(index.schemas.account?.status).toBe('blocked')
        expect(index.schemas.account?.grade).toBeUndefined()
        for (const node of Object.values(index.schemas.account?.tools ?? {})) {
            expect(node.status).toBe('blocked')
            expect(node.reason).toMatch(/^IDX-030: .*ETHERSCAN_API_KEY/)
        }
        // The text table says it too.
        const io = memoryIo({}, { env: { PATH: process.env.PATH ?? '' } })
        await run(['grade', join(dir, 'src', 'etherscan'), '--island', join(dir, 'keys'), '--now', now], io)
        expect(io.out()).toMatch(/etherscan\.account\s+\S+\s+-\s+-\s+blocked: 7 tools not tested here/)
        expect(io.out()).toContain('set ETHERSCAN_API_KEY')
        // With the key, the same tools are tested: not blocked for the key (offline they stay untested, not graded better).
        const keyed = memoryIo({}, { env: { PATH: process.env.PATH ?? '', ETHERSCAN_API_KEY: 'example-not-a-key' } })
        await run(['grade', join(dir, 'src', 'etherscan'), '--now', now, '--json'], keyed)
        const withKey = JSON.parse(keyed.out()) as JsonRun
        expect(withKey.schemas[0]?.grading.units.some((u) => u.reason?.includes('ETHERSCAN_API_KEY') === true)).toBe(
            false
        )
    })

    it('provisional is never a headline: tested without a judge the grade is null and the CLI says what finishes it', async () => {
        const tested = ['--recordings', join(dir, 'recordings'), '--min-working-tests', '1']
        const io = memoryIo()
        expect(await run(['grade', join(dir, 'src', 'bis'), '--now', now, '--json', ...tested], io)).toBe(0)
        const parsed = JSON.parse(io.out()) as JsonRun
        expect(parsed.schemas[0]?.grading).toMatchObject({
            mode: 'provisional',
            status: 'provisional',
            grade: null,
            schemaGrade: null,
            provisionalGrade: expect.stringMatching(/^[A-F]$/)
        })
        expect(parsed.namespaces[0]).toMatchObject({
            mode: 'provisional',
            grade: null,
            provisionalGrade: expect.stringMatching(/^[A-F]$/)
        })
        const text = memoryIo()
        await run(['grade', join(dir, 'src', 'bis'), '--now', now, ...tested], text)
        expect(text.out()).toMatch(/bis\.bisStatistics\s+0\/\d+\s+-\s+-\s+provisional \(deterministic only: [A-F]\)/)
        expect(text.out()).toContain('pass --judge-command')
    })

    it('untested is never graded: offline (the default) every tool is blocked untested, the run exits 0, and the CLI says how to test them', async () => {
        const io = memoryIo()
        expect(await run(['grade', join(dir, 'src', 'bis'), '--now', now, '--json'], io)).toBe(0)
        const grading = (JSON.parse(io.out()) as JsonRun).schemas[0]?.grading
        expect(grading).toMatchObject({ status: 'blocked', grade: null, schemaGrade: null })
        expect(
            grading?.units
                .filter((u) => u.unit.startsWith('single-test/'))
                .every((u) => u.status === 'blocked' && (u.reason ?? '').startsWith('untested'))
        ).toBe(true)
        const text = memoryIo()
        await run(['grade', join(dir, 'src', 'bis'), '--now', now], text)
        expect(text.out()).toMatch(/bis\.bisStatistics\s+\S+\s+-\s+-\s+blocked: \d+ tools? not tested/)
        expect(text.out()).toContain('--recordings')
    })

    it("the judge's improvement hints are kept in state.json beside the index and shown in --json", async () => {
        const result = await grade('hints')
        const unit = result.json.schemas
            .find((s) => s.grading.schemaId === 'frankfurter.frankfurter')
            ?.grading.units.find((u) => u.status === 'graded')
        expect(unit?.improvementHints).toEqual([
            { targetField: 'description', suggestion: `say what ${unit?.unit} returns`, priority: 'medium' }
        ])
        const state = JSON.parse(await readFile(join(dir, 'hints/providers/frankfurter/state.json'), 'utf8')) as {
            target: unknown
            areas: Array<{ unit: string; improvementHints: unknown[]; lastGradingRef: string | null; status: string }>
            done: number
            total: number
        }
        expect(state.target).toEqual({ namespace: 'frankfurter' })
        const line = state.areas.find((a) => a.unit === unit?.unit)
        expect(line?.improvementHints).toEqual(unit?.improvementHints)
        expect(line?.lastGradingRef).toMatch(/_gradings\/single-test--.*\.json$/)
        expect(state.done).toBe(state.total)
        // A kept unit shows the hints it was graded with.
        const again = await grade('hints')
        const keptUnit = again.json.schemas
            .find((s) => s.grading.schemaId === 'frankfurter.frankfurter')
            ?.grading.units.find((u) => u.unit === unit?.unit)
        expect(keptUnit).toMatchObject({ kept: true, improvementHints: unit?.improvementHints })
    })
})
