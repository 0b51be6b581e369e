import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
    Areas,
    createMemoryFs,
    gradeNamespace,
    gradeSingleSchema,
    httpPortFromRecordings,
    type Judge,
    type JudgeCallContext,
    type JudgeRequest,
    type JudgeResponse
} from '../../src/index.js'
import { AREAS } from '../../src/model/constants.js'
import { dataHttp, exampleMain, grader, recording } from './helpers.js'
import { esbuildValidators } from '../../scripts/validators.mjs'

// `judgeCalls` and usage, held against what a counting judge saw: every request it was sent, the first asks, the
// repair turns and the retries apart, and the tokens it reported; for slips, retries, timeouts, a hang and a run the
// breaker stops early. And every wait bounded: the schema's judge budget, the timers that keep Node alive.

const now = '2026-11-22T18:00:00Z'
const instant = async (): Promise<void> => undefined
const BOOLEAN = new Set<string>(
    AREAS.flatMap((area) => Areas.questions({ area }).questions)
        .filter((q) => q.scoreType === 'boolean')
        .map((q) => q.id)
)
const clean = (request: JudgeRequest): string =>
    JSON.stringify({
        answers: request.questions.map((q) => ({
            questionId: q.questionId,
            score: BOOLEAN.has(q.questionId) ? 'pass' : 4,
            reasoning: `Checked ${q.questionId}.`
        })),
        improvementHints: []
    })
/** The first answer's score sent as the string "4": a content slip the repair turn fixes. */
const slipped = (request: JudgeRequest): string =>
    clean(request)
        .replace(/"score":4/, '"score":"4"')
        .replace(/"score":"pass"/, '"score":"4"')

/** How the counting judge answers one call. */
type Behaviour = 'clean' | 'slip' | 'refuse' | 'rate-limited' | 'broken' | 'hang'

/** What the counting judge saw: every call, and the usage it reported. */
interface Seen {
    calls: number
    firstAsks: number
    repairs: number
    retries: number
    usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number; reportedCalls: number }
    aborted: number
}

/**
 * A judge that counts what it is sent and answers per `plan(nth call overall, request)`; it reports usage derived from
 * the request on every answer it gives (none for a failure), and hears its signal.
 */
function countingJudge(plan: (n: number, request: JudgeRequest) => Behaviour, withUsage = true) {
    const seen: Seen = {
        calls: 0,
        firstAsks: 0,
        repairs: 0,
        retries: 0,
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reportedCalls: 0 },
        aborted: 0
    }
    const lastOf = new Map<string, JudgeRequest>()
    const judge: Judge = async (request, context: JudgeCallContext) => {
        const n = seen.calls
        seen.calls += 1
        // A retry is the same request again (the same object); a repair turn carries `repair`.
        if (lastOf.get(request.unit) === request) seen.retries += 1
        else if (request.repair !== undefined) seen.repairs += 1
        else seen.firstAsks += 1
        lastOf.set(request.unit, request)
        const behaviour = plan(n, request)
        if (behaviour === 'hang')
            return new Promise<string>((_, reject) => {
                context.signal.addEventListener('abort', () => {
                    seen.aborted += 1
                    reject(new Error('aborted'))
                })
            })
        if (behaviour === 'rate-limited') throw Object.assign(new Error('rate limited'), { status: 429 })
        if (behaviour === 'broken') throw Object.assign(new Error('bad request'), { status: 400 })
        const text =
            behaviour === 'clean' ? clean(request) : behaviour === 'slip' ? slipped(request) : 'I cannot do that.'
        if (!withUsage) return text
        const usage = {
            inputTokens: request.messages.length * 100 + n,
            outputTokens: 10 + n,
            cachedInputTokens: n % 2 === 0 ? 50 : 0
        }
        seen.usage.inputTokens += usage.inputTokens
        seen.usage.outputTokens += usage.outputTokens
        seen.usage.cachedInputTokens += usage.cachedInputTokens
        seen.usage.reportedCalls += 1
        return { text, usage } satisfies JudgeResponse
    }
    return { judge, seen }
}

async function grade(judge: Judge, options: Record<string, unknown> = {}) {
    const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
    return gradeSingleSchema({
        schema: { main },
        schemaId: 'openmeteo.forecast',
        grader,
        options: {
            now,
            source,
            judge,
            sleep: instant,
            http: httpPortFromRecordings({ recordings: [recording('openmeteo')] }),
            ...options
        }
    })
}

/** The count a run reports, held against what the judge saw. */
function expectSameCount(reported: unknown, seen: Seen): void {
    expect(reported).toMatchObject({
        calls: seen.calls,
        firstAsks: seen.firstAsks,
        repairs: seen.repairs,
        retries: seen.retries,
        usage: seen.usage.reportedCalls > 0 ? seen.usage : null
    })
}

describe('judgeCalls and usage equal what a counting judge saw', () => {
    it('clean replies: one first ask per unit, the usage totalled, the estimate beside it', async () => {
        const { judge, seen } = countingJudge(() => 'clean')
        const result = await grade(judge)
        expectSameCount(result.grading?.judgeCalls, seen)
        expect(seen.calls).toBeGreaterThan(2)
        const estimated = result.grading?.judgeCalls?.estimated
        // The estimate of the same calls: characters / 4, tokens of the same order as the messages.
        expect(estimated?.inputTokens).toBeGreaterThan(seen.calls * 100)
        expect(estimated?.outputTokens).toBeGreaterThan(0)
    })

    it('slips: the repair turns counted apart from the first asks', async () => {
        const { judge, seen } = countingJudge((_, r) => (r.repair === undefined ? 'slip' : 'clean'))
        const result = await grade(judge)
        expect(seen.repairs).toBeGreaterThan(0)
        expect(seen.repairs).toBe(seen.firstAsks)
        expectSameCount(result.grading?.judgeCalls, seen)
    })

    it('retries after a rate limit: each retry counted', async () => {
        const { judge, seen } = countingJudge((n) => (n % 3 === 0 ? 'rate-limited' : 'clean'))
        const result = await grade(judge)
        expect(seen.retries).toBeGreaterThan(0)
        expectSameCount(result.grading?.judgeCalls, seen)
    })

    it('timeouts that were retried: each timed-out call counted (none lost)', async () => {
        const { judge, seen } = countingJudge((n) => (n % 2 === 0 ? 'hang' : 'clean'))
        const result = await grade(judge, { judgeTimeoutMs: 20, maxConsecutiveJudgeFailures: 10 })
        expect(seen.aborted).toBeGreaterThan(0)
        expect(seen.retries).toBe(seen.aborted)
        expectSameCount(result.grading?.judgeCalls, seen)
    })

    it('a fail-fast run: the units the breaker never asked are not counted', async () => {
        const { judge, seen } = countingJudge(() => 'broken')
        const result = await grade(judge)
        expect(seen.calls).toBe(3)
        expect(result.grading?.units.filter((u) => u.status === 'error').length).toBeGreaterThan(3)
        expectSameCount(result.grading?.judgeCalls, seen)
    })

    it('a hang: the one call made is counted, ended by the schema budget (GRA-030), the judge told to stop', async () => {
        const { judge, seen } = countingJudge(() => 'hang')
        const result = await grade(judge, { judgeTimeoutMs: 0, judgeBudgetMs: 30 })
        expect(seen.calls).toBe(1)
        expect(seen.aborted).toBe(1)
        expectSameCount(result.grading?.judgeCalls, seen)
        const spent = result.errors.filter((e) => e.code === 'GRA-030')
        expect(spent).toHaveLength(1)
        expect(spent[0]?.message).toMatch(/judge budget of 30 ms/)
        expect(spent[0]?.path).toMatch(/^\/units\//)
        const asked = result.grading?.units.filter((u) => u.status === 'error') ?? []
        expect(asked.length).toBeGreaterThan(1)
        expect(asked.slice(1).every((u) => /budget of 30 ms/.test(u.reason ?? ''))).toBe(true)
    })

    it('summary.json and the result hold the same count', async () => {
        const { judge, seen } = countingJudge((_, r) => (r.repair === undefined ? 'slip' : 'clean'))
        const fs = createMemoryFs()
        const result = await grade(judge, { fs, root: '/island' })
        const path = (result.grading?.indexPath ?? '').replace(/index\.json$/, `${result.grading?.schema}/summary.json`)
        const summary = JSON.parse((await fs.readFile(path)) as string) as { judge: Record<string, unknown> }
        expect(summary.judge).toEqual({
            calls: seen.calls,
            firstAsks: seen.firstAsks,
            repairCalls: seen.repairs,
            retries: 0,
            usage: seen.usage,
            estimated: result.grading?.judgeCalls?.estimated
        })
    })

    it('property: for any mix of answers, slips, refusals, rate limits and failures, the count is what the judge saw', async () => {
        const behaviours: Behaviour[] = ['clean', 'slip', 'refuse', 'rate-limited', 'broken']
        await fc.assert(
            fc.asyncProperty(
                fc.array(fc.constantFrom(...behaviours), { minLength: 1, maxLength: 24 }),
                fc.boolean(),
                async (script, withUsage) => {
                    const { judge, seen } = countingJudge((n) => script[n % script.length] as Behaviour, withUsage)
                    const result = await grade(judge, { maxConsecutiveJudgeFailures: 100 })
                    expectSameCount(result.grading?.judgeCalls, seen)
                    const c = result.grading?.judgeCalls
                    expect(c?.calls).toBe((c?.firstAsks ?? 0) + (c?.repairs ?? 0) + (c?.retries ?? 0))
                }
            ),
            { numRuns: 25 }
        )
    })

    it('usage that is not whole numbers is not counted, and said (GRA-031); the call still is', async () => {
        let calls = 0
        const judge: Judge = async (request) => {
            calls++
            return { text: clean(request), usage: { inputTokens: -1, outputTokens: 1.5 } }
        }
        const result = await grade(judge)
        expect(result.grading?.judgeCalls).toMatchObject({ calls, usage: null })
        expect(result.errors.filter((e) => e.code === 'GRA-031')).toHaveLength(calls)
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
    })

    it('refuses a negative or fractional judgeBudgetMs (GRA-002), and takes 0 (no budget)', async () => {
        for (const bad of [-1, 2.5]) {
            const result = await grade(countingJudge(() => 'clean').judge, { judgeBudgetMs: bad })
            expect(result.errors).toContainEqual(
                expect.objectContaining({ code: 'GRA-002', path: '/options/judgeBudgetMs' })
            )
        }
        const { judge, seen } = countingJudge(() => 'clean')
        const result = await grade(judge, { judgeBudgetMs: 0 })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expectSameCount(result.grading?.judgeCalls, seen)
    })
})

describe('a judge that hangs on one schema of a namespace', () => {
    const forms = JSON.parse(
        readFileSync(new URL('../fixtures/schemas/real-forms.json', import.meta.url), 'utf8')
    ) as Record<string, any>
    const module = (file: string, tools: string[]): string =>
        `export const main = ${JSON.stringify({
            ...forms,
            namespace: 'parlamentdemo',
            name: `Demo ${file}`,
            tools: Object.fromEntries(tools.map((t) => [t, forms.tools[t]]))
        })}\n`

    it('ends that schema with GRA-030 when its budget runs out; the other schemas are graded', async () => {
        const fs = createMemoryFs()
        await fs.mkdir('/src/parlamentdemo')
        await fs.writeFile('/src/parlamentdemo/members.mjs', module('members', ['getMember', 'searchMembers']))
        await fs.writeFile('/src/parlamentdemo/votes.mjs', module('votes', ['getVote']))
        const { judge, seen } = countingJudge((_, r) =>
            r.envelope.gradingId.includes('members') || JSON.stringify(r.attachments).includes('Demo members')
                ? 'hang'
                : 'clean'
        )
        const result = await gradeNamespace({
            dir: '/src/parlamentdemo',
            grader,
            options: {
                sourceFs: fs,
                now,
                judge,
                judgeTimeoutMs: 0,
                judgeBudgetMs: 40,
                http: dataHttp(),
                serverParams: { PARLAMENTDEMO_API_KEY: 'demo-key-value-0001' }
            }
        })
        const members = result.schemas.find((s) => s.file.endsWith('members.mjs'))?.result
        const votes = result.schemas.find((s) => s.file.endsWith('votes.mjs'))?.result
        expect(members?.errors.filter((e) => e.code === 'GRA-030')).toHaveLength(1)
        expect(members?.grading?.judgeCalls?.calls).toBe(1)
        expect(votes?.errors.filter((e) => e.code === 'GRA-030')).toEqual([])
        expect(votes?.grading?.units.filter((u) => u.status === 'error')).toEqual([])
        expect(votes?.grading?.judgeCalls?.calls).toBeGreaterThan(0)
        // The namespace's own count is every schema's and its own units': what the judge saw, in all.
        expect(result.judgeCalls?.calls).toBe(seen.calls)
        expect(result.judgeCalls?.usage?.reportedCalls).toBe(seen.usage.reportedCalls)
    })
})

describe('a pending judge call keeps a Node process alive until it settles or is aborted', () => {
    it('a script whose judge never answers ends with its result, not silently with exit code 13', async () => {
        const { build } = await import('esbuild')
        const dir = mkdtempSync(join(tmpdir(), 'judge-alive-'))
        try {
            const library = join(dir, 'library.mjs')
            await build({
                entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))],
                bundle: true,
                platform: 'neutral',
                format: 'esm',
                outfile: library,
                define: { __PACKAGE_VERSION__: JSON.stringify('0.0.0-test') },
                logLevel: 'silent',
                plugins: [esbuildValidators]
            })
            const { main } = await exampleMain('providers/openmeteo/forecast.mjs')
            const script = (options: Record<string, number>): string => `
import { gradeSingleSchema, httpPortFromRecordings } from './library.mjs'
const result = await gradeSingleSchema({
    schema: { main: ${JSON.stringify(main)} },
    schemaId: 'openmeteo.forecast',
    grader: ${JSON.stringify(grader)},
    options: {
        now: '${now}',
        http: httpPortFromRecordings({ recordings: [${JSON.stringify(recording('openmeteo'))}] }),
        // Nothing else holds this promise: only the library's timers keep the process alive.
        judge: () => new Promise(() => {}),
        judgeRetries: 0,
        ...${JSON.stringify(options)}
    }
})
console.log(JSON.stringify({ calls: result.grading.judgeCalls.calls, codes: result.errors.map((e) => e.code) }))
`
            for (const [name, options, code] of [
                ['timeout', { judgeTimeoutMs: 50, judgeBudgetMs: 0, maxConsecutiveJudgeFailures: 1 }, 'GRA-006'],
                ['budget', { judgeTimeoutMs: 0, judgeBudgetMs: 50 }, 'GRA-030']
            ] as const) {
                const file = join(dir, `${name}.mjs`)
                writeFileSync(file, script(options))
                const out = execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 })
                const said = JSON.parse(out.trim()) as { calls: number; codes: string[] }
                expect(said.calls, name).toBe(1)
                expect(said.codes, name).toContain(code)
            }
        } finally {
            rmSync(dir, { recursive: true, force: true })
        }
    }, 60_000)
})
