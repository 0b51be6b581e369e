import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deltaText } from '../../src/cli/commands/grade-watch.js'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-22T18:00:00Z'
let dir = ''

/** A judge that answers 4 to every question and writes the unit it was asked about to calls.log. */
const JUDGE = `import { appendFileSync, readFileSync } from 'node:fs'
const request = JSON.parse(readFileSync(0, 'utf8'))
appendFileSync(new URL('./calls.log', import.meta.url), request.unit + ' ' + request.attachments.map((a) => a.name).join('+') + '\\n')
process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'clear' })), improvementHints: [] }))
`

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-watch-test-'))
    await cp(join(examples, 'providers/openmeteo'), join(dir, 'providers/openmeteo'), { recursive: true })
    await cp(join(examples, 'providers/etherscan'), join(dir, 'providers/etherscan'), { recursive: true })
    await writeFile(join(dir, 'judge.mjs'), JUDGE)
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

async function until(check: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 600; i += 1) {
        if (check()) return
        await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`timed out waiting for ${what}`)
}

const calls = async (): Promise<string[]> =>
    (await readFile(join(dir, 'calls.log'), 'utf8').catch(() => '')).split('\n').filter((l) => l !== '')

describe('grade --watch', () => {
    it('grades again on a save, asks the judge only for the units whose inputs changed (the other namespace keeps its units), prints what moved, and ends with 130', async () => {
        const stop = new AbortController()
        const io = memoryIo(
            {},
            { env: { PATH: process.env.PATH ?? '', CALLS_LOG: join(dir, 'calls.log') }, signal: stop.signal, cwd: dir }
        )
        const args = ['grade', join(dir, 'providers'), '--watch', '--recordings', join(examples, 'recordings')]
        const judge = ['--judge-command', `node ${join(dir, 'judge.mjs')}`, '--judge-model', 'stand-in', '--now', now]
        const done = run([...args, ...judge], io)
        const watching = (): number => io.err().split('for changes (Ctrl-C ends)').length - 1
        await until(() => watching() >= 1, 'the first pass')
        const first = await calls()
        expect(first.length).toBeGreaterThan(2)
        // An edit to one tool's description: that schema is graded again, nothing else.
        const file = join(dir, 'providers/openmeteo/forecast.mjs')
        const source = await readFile(file, 'utf8')
        const edited = source.replace(/description: '([^']+)'/, "description: '$1 Useful for planning outdoor work.'")
        expect(edited).not.toBe(source)
        await writeFile(file, edited)
        await until(() => watching() >= 2, 'the pass after the save')
        stop.abort()
        expect(await done).toBe(130)
        const second = (await calls()).slice(first.length)
        // The edited namespace's units are asked again (each depends on the schema's text); the other one's are kept.
        expect(second.length).toBeGreaterThan(0)
        expect(second.length).toBe(first.filter((line) => !line.includes('contracts.mjs')).length)
        expect(second.some((line) => line.includes('contracts.mjs'))).toBe(false)
        expect(first.some((line) => line.includes('contracts.mjs'))).toBe(true)
        expect(io.err()).toContain('forecast.mjs changed: grading again')
        expect(io.out()).toMatch(/what moved:/)
    }, 120_000)
})

describe('deltaText', () => {
    const seen = (grade: string, findings: Record<string, string> = {}) => ({
        grade,
        findings: new Map(Object.entries(findings))
    })
    it('says each schema whose grade or findings moved, with what was fixed and what is new', () => {
        const text = deltaText(
            new Map([
                ['a.b', seen('B 4.12', { x: 'SCH-WARN-003: few tests', y: 'Q-01: docs' })],
                ['c.d', seen('B 4.50')]
            ]),
            new Map([
                ['a.b', seen('B 4.62 (raw A)', { y: 'Q-01: docs', z: 'Q-02: output' })],
                ['c.d', seen('B 4.50')],
                ['e.f', seen('pending')]
            ])
        )
        expect(text).toBe(
            'what moved:\n  a.b: B 4.12 → B 4.62 (raw A)\n    fixed  SCH-WARN-003: few tests\n    new    Q-02: output\n  e.f: new, pending\n'
        )
    })
    it('says nothing moved when nothing did (a failing case: no line for an unchanged schema)', () => {
        expect(deltaText(new Map([['a.b', seen('B 4.5')]]), new Map([['a.b', seen('B 4.5')]]))).toBe(
            'what moved: nothing\n'
        )
    })
})
