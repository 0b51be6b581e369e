import { afterEach, describe, expect, it, vi } from 'vitest'
import {
    Areas,
    createMemoryFs,
    gradeSingleSchema,
    httpPortFromRecordings,
    type Judge,
    type JudgeRequest
} from '../../src/index.js'
import { AREAS } from '../../src/model/constants.js'
import { exampleMain, grader, recording } from './helpers.js'

// The slips a real model makes, one kind per run, against the judge path of one real schema:
// format slips cost nothing, content slips at most one repair turn per unit, and nothing the judge
// did not give is ever stored.

const now = '2026-11-22T18:00:00Z'
const BOOLEAN = new Set<string>(
    AREAS.flatMap((area) => Areas.questions({ area }).questions)
        .filter((q) => q.scoreType === 'boolean')
        .map((q) => q.id)
)
const instant = async (): Promise<void> => undefined

/** The reply a careful judge gives: every question asked, once, 4 or pass, with a reason. */
function cleanReply(request: JudgeRequest): { answers: Array<Record<string, unknown>>; improvementHints: unknown[] } {
    return {
        answers: request.questions.map((q) => ({
            questionId: q.questionId,
            score: BOOLEAN.has(q.questionId) ? 'pass' : 4,
            reasoning: `Checked ${q.questionId}.`
        })),
        improvementHints: []
    }
}
const clean = (request: JudgeRequest): string => JSON.stringify(cleanReply(request))

/** A judge that answers with `reply(request, nth)`, nth counting the calls for the same unit (1 first, 2 the repair turn). */
function judgeWith(reply: (request: JudgeRequest, nth: number) => string): { judge: Judge; asked: JudgeRequest[] } {
    const asked: JudgeRequest[] = []
    return {
        asked,
        judge: async (request) => {
            asked.push(request)
            return reply(request, asked.filter((r) => r.unit === request.unit).length)
        }
    }
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

const unitPath = (unit: string): string => `/units/${unit.replace(/~/g, '~0').replace(/\//g, '~1')}`

// The first answer's score as a numeric string; one answer left out; an answer to a question that does not exist; a field the output does not have; the reply cut at 60 %.
const SLIPS: Record<string, (request: JudgeRequest) => string> = {
    'a score sent as "4"': (r) => {
        const reply = cleanReply(r)
        const first = reply.answers.findIndex((a) => a.score === 4)
        reply.answers[Math.max(first, 0)] = { ...reply.answers[Math.max(first, 0)], score: '4' }
        return JSON.stringify(reply)
    },
    'one answer missing': (r) => JSON.stringify({ ...cleanReply(r), answers: cleanReply(r).answers.slice(1) }),
    'an invented question': (r) =>
        JSON.stringify({
            ...cleanReply(r),
            answers: [...cleanReply(r).answers, { questionId: 'Q-made-up-99', score: 5, reasoning: 'Invented.' }]
        }),
    'an extra top-level field confidence': (r) => JSON.stringify({ ...cleanReply(r), confidence: 0.9 }),
    'the reply cut at 60 %': (r) => clean(r).slice(0, Math.floor(clean(r).length * 0.6))
}

describe('judge replies as real models write them', async () => {
    const baseline = judgeWith(clean)
    const reference = await grade(baseline.judge)
    const units = new Set(baseline.asked.map((r) => r.unit))

    it('the clean reply grades every unit with one call each (the reference)', () => {
        expect(reference.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(reference.grading?.mode).toBe('full')
        expect(baseline.asked.length).toBe(units.size)
        expect(reference.grading?.judgeCalls).toMatchObject({
            calls: units.size,
            firstAsks: units.size,
            repairs: 0,
            retries: 0,
            usage: null
        })
    })

    it.each([
        ['a preamble sentence', (r: JudgeRequest) => `Sure! Here is my evaluation of the tool:\n\n${clean(r)}`, 1],
        [
            'a fence followed by trailing prose',
            (r: JudgeRequest) => `\`\`\`json\n${clean(r)}\n\`\`\`\n\nLet me know if you need anything else!`,
            1
        ],
        ['a plain fence', (r: JudgeRequest) => `\`\`\`json\n${clean(r)}\n\`\`\``, 0]
    ])(
        'format slip, %s: graded with one call per unit, the same grades, the stripped text noted once per run',
        async (_name, slip, notes) => {
            const { judge, asked } = judgeWith((r) => slip(r))
            const result = await grade(judge)
            expect(asked.length).toBe(units.size)
            expect(result.grading?.unitGrades).toEqual(reference.grading?.unitGrades)
            expect(result.grading?.grade).toBe(reference.grading?.grade)
            expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
            expect(result.errors.filter((e) => e.code === 'GRA-027')).toHaveLength(notes)
            // Never a warning per unit.
            expect(result.errors.filter((e) => e.severity === 'warning' && e.path.startsWith('/units/'))).toEqual([])
        }
    )

    it.each(Object.entries(SLIPS))(
        'content slip, %s, corrected on the repair turn: graded as the clean reply, at most one repair call per unit',
        async (name, slip) => {
            const { judge, asked } = judgeWith((r, nth) => (nth === 1 ? slip(r) : clean(r)))
            const result = await grade(judge)
            expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
            expect(result.grading?.unitGrades).toEqual(reference.grading?.unitGrades)
            for (const unit of units) expect(asked.filter((r) => r.unit === unit).length).toBeLessThanOrEqual(2)
            const repairs = asked.filter((r) => r.repair !== undefined)
            expect(result.grading?.judgeCalls).toMatchObject({
                calls: asked.length,
                firstAsks: asked.length - repairs.length,
                repairs: repairs.length,
                retries: 0
            })
            // What the judge did not give is never stored: no numeric string, no invented question, no extra field.
            const stored = JSON.stringify(result.entries)
            expect(stored).not.toContain('Q-made-up-99')
            expect(stored).not.toContain('confidence')
            expect(result.entries.flatMap((e) => e.gradings).some((g) => g.score === ('4' as never))).toBe(false)
            if (name === 'an invented question' || name === 'an extra top-level field confidence') {
                // Left out with a note per unit, never scored: no repair turn needed.
                expect(repairs).toEqual([])
                expect(
                    result.errors
                        .filter((e) => e.code === 'GRA-028')
                        .map((e) => e.path)
                        .sort()
                ).toEqual([...units].map(unitPath).sort())
            } else {
                expect(repairs.length).toBe(units.size)
                expect(result.errors.filter((e) => e.code === 'GRA-029')).toHaveLength(units.size)
            }
        }
    )

    it.each(
        Object.entries(SLIPS).filter(
            ([name]) => !['an invented question', 'an extra top-level field confidence'].includes(name)
        )
    )(
        'content slip, %s, repeated on the repair turn: each unit asked fails with one error at its own path, nothing stored',
        async (_name, slip) => {
            const { judge, asked } = judgeWith((r) => slip(r))
            const result = await grade(judge, { maxConsecutiveJudgeFailures: 10 })
            expect(result.entries.filter((e) => e.gradings.some((g) => g.determinism === 'non-deterministic'))).toEqual(
                []
            )
            const failed = result.grading?.units.filter((u) => asked.some((r) => r.unit === u.unit)) ?? []
            expect(failed.length).toBe(units.size)
            for (const unit of failed) {
                expect(unit.status).toBe('error')
                const own = result.errors.filter(
                    (e) => e.severity === 'error' && e.path.startsWith(unitPath(unit.unit))
                )
                expect(own, unit.unit).toHaveLength(1)
                expect(own[0]?.message).toMatch(/still, after one repair turn: /)
                expect(unit.issues).toEqual(own)
                expect(asked.filter((r) => r.unit === unit.unit)).toHaveLength(2)
            }
            // No issue points into a reply the caller never gave.
            expect(result.errors.filter((e) => e.path.includes('/output/'))).toEqual([])
        }
    )

    it("the schema's summary.json counts the judge calls and the repair turns among them", async () => {
        const { judge, asked } = judgeWith((r, nth) =>
            nth === 1 ? (SLIPS['one answer missing'] as (r: JudgeRequest) => string)(r) : clean(r)
        )
        const fs = createMemoryFs()
        const result = await grade(judge, { fs, root: '/island' })
        const path = (result.grading?.indexPath ?? '').replace(/index\.json$/, `${result.grading?.schema}/summary.json`)
        const summary = JSON.parse((await fs.readFile(path)) as string) as { judge?: unknown }
        expect(summary.judge).toMatchObject({
            calls: asked.length,
            firstAsks: units.size,
            repairCalls: units.size,
            retries: 0,
            estimated: result.grading?.judgeCalls?.estimated
        })
        expect(summary.judge).not.toHaveProperty('usage')
        expect(result.grading?.judgeCalls).toMatchObject({ calls: asked.length, repairs: units.size })
    })

    it('the repair turn repeats the request byte for byte and appends one message quoting the problems', async () => {
        const { judge, asked } = judgeWith((r, nth) =>
            nth === 1 ? (SLIPS['a score sent as "4"'] as (r: JudgeRequest) => string)(r) : clean(r)
        )
        await grade(judge)
        const first = asked[0] as JudgeRequest
        const second = asked[1] as JudgeRequest
        expect(second.unit).toBe(first.unit)
        expect(second.messages.slice(0, -1)).toEqual(first.messages)
        expect(second.messages.at(-1)).toMatchObject({ role: 'user', part: 'repair', cacheable: false })
        expect(second.messages.at(-1)?.content).toMatch(/SCO-005 at \/answers\/\d+\/score/)
        expect(second.repair?.problems[0]).toMatch(/SCO-005/)
        expect(second.prompt.startsWith(first.prompt)).toBe(true)
        expect(first.repair).toBeUndefined()
    })

    it('the reply is read as one object: two different candidate objects go to the repair turn, never a guess', async () => {
        const { judge, asked } = judgeWith((r, nth) =>
            nth === 1
                ? `Draft: ${clean(r)}\nFinal: ${JSON.stringify({ ...cleanReply(r), improvementHints: [{ targetField: 'description', suggestion: 'Say more.', priority: 'low' }] })}`
                : clean(r)
        )
        const result = await grade(judge)
        expect(result.grading?.unitGrades).toEqual(reference.grading?.unitGrades)
        expect(asked.filter((r) => r.repair !== undefined).length).toBe(units.size)
        expect(asked.find((r) => r.repair !== undefined)?.repair?.problems[0]).toMatch(/2 different JSON objects/)
    })

    it.each([
        [3, 2],
        [2, 1],
        [1, 0]
    ])(
        'a judge that always refuses gets its repair turn per unit and is stopped after maxConsecutiveJudgeFailures units (%i, retries %i)',
        async (limit, retries) => {
            const { judge, asked } = judgeWith(() => 'I am sorry, but I cannot evaluate this tool.')
            const result = await grade(judge, { maxConsecutiveJudgeFailures: limit, judgeRetries: retries })
            // A refusal is no failure to retry: one first ask and one repair turn per unit, then the stop.
            expect(asked.length).toBe(limit * 2)
            expect(asked.filter((r) => r.repair !== undefined)).toHaveLength(limit)
            expect(asked.find((r) => r.repair !== undefined)?.repair?.problems[0]).toMatch(
                /^no JSON object was found in the reply; it began: "I am sorry, but I cannot evaluate this tool\."$/
            )
            expect(result.grading?.judgeCalls).toMatchObject({ calls: limit * 2, firstAsks: limit, repairs: limit })
            const stop = result.errors.filter((e) => e.code === 'GRA-025')
            expect(stop).toHaveLength(1)
            expect(stop[0]?.message).toMatch(/last failure: .*no JSON object was found/)
            expect(stop[0]?.path).toBe(unitPath((asked.at(-1) as JudgeRequest).unit))
            const notJson = result.errors.filter((e) => e.code === 'GRA-007')
            expect(notJson).toHaveLength(limit)
            for (const e of notJson) {
                expect(e.path.startsWith('/units/')).toBe(true)
                expect(e.message).toMatch(
                    /still, after one repair turn: no JSON object was found in the reply; it began: "I am sorry/
                )
            }
            expect(result.entries.filter((e) => e.gradings.some((g) => g.determinism === 'non-deterministic'))).toEqual(
                []
            )
        }
    )

    it('a refusal answered on the repair turn is graded as the clean reply, the refusal noted (GRA-029)', async () => {
        const { judge, asked } = judgeWith((r, nth) => (nth === 1 ? 'I cannot help with that.' : clean(r)))
        const result = await grade(judge)
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading?.unitGrades).toEqual(reference.grading?.unitGrades)
        expect(asked.filter((r) => r.repair !== undefined)).toHaveLength(units.size)
        expect(asked.find((r) => r.repair !== undefined)?.messages.at(-1)?.content).toMatch(
            /no JSON object was found in the reply; it began: "I cannot help with that\."/
        )
        expect(result.errors.filter((e) => e.code === 'GRA-029')).toHaveLength(units.size)
    })

    it('a refusal quotes only its first words, with a key it echoes redacted', async () => {
        const key = 'sk-live-abcdefghijklmnop1234'
        const words = `Sorry, ${key} is not something I can grade because the policy says no and more words follow here`
        const { judge } = judgeWith(() => words)
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const result = await gradeSingleSchema({
            schema: { main: { ...main, requiredServerParams: ['OPEN_KEY'] } },
            schemaId: 'openmeteo.forecast',
            grader,
            options: {
                now,
                source,
                judge,
                sleep: instant,
                serverParams: { OPEN_KEY: key },
                maxConsecutiveJudgeFailures: 1
            }
        })
        const said = result.errors.filter((e) => e.code === 'GRA-007').map((e) => e.message)
        expect(said.length).toBeGreaterThan(0)
        for (const m of said) {
            expect(m).not.toContain(key)
            expect(m).not.toContain('more words follow here')
            expect(m).toMatch(/it began: "Sorry, /)
        }
    })
})

describe('a judge that never answers', () => {
    afterEach(() => vi.restoreAllMocks())
    const hanging = (_request: JudgeRequest): Promise<string> => new Promise<string>(() => undefined)

    it('without options: each call is given up after the default 120,000 ms, retried, and the run stops after 3 units', async () => {
        const asked: number[] = []
        // The platform's timer, observed: the library asks for 120 s per call (here it fires at once) and 300 s for
        // the schema's budget (left to run).
        const realSetTimeout = globalThis.setTimeout
        vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
            asked.push(ms)
            return realSetTimeout(fn, ms === 120_000 ? 0 : ms)
        }) as typeof setTimeout)
        let calls = 0
        const result = await grade(() => (calls++, hanging({} as JudgeRequest)))
        expect(new Set(asked)).toEqual(new Set([120_000, 300_000]))
        expect(calls).toBe(3 * (1 + 2))
        // Every call sent is counted: the first asks and the retries apart, none for the units never asked.
        expect(result.grading?.judgeCalls).toMatchObject({ calls: 9, firstAsks: 3, retries: 6, repairs: 0 })
        expect(result.errors.find((e) => e.code === 'GRA-025')?.message).toMatch(/no answer within 120000 ms/)
    })

    it('with judgeTimeoutMs and judgeRetries: given up after that time, tried that often', async () => {
        let calls = 0
        const result = await grade(() => (calls++, hanging({} as JudgeRequest)), {
            judgeTimeoutMs: 20,
            judgeRetries: 0,
            maxConsecutiveJudgeFailures: 2
        })
        expect(calls).toBe(2)
        expect(result.errors.filter((e) => e.code === 'GRA-006').map((e) => e.message)).toEqual([
            expect.stringMatching(/no answer within 20 ms/),
            expect.stringMatching(/no answer within 20 ms/)
        ])
    })

    it('with judgeTimeoutMs 0: no limit, and the run signal still ends the call', async () => {
        const timeout = vi.spyOn(globalThis, 'setTimeout')
        const controller = new AbortController()
        let calls = 0
        const result = await grade(
            () => {
                calls++
                setTimeout(() => controller.abort(), 30)
                return hanging({} as JudgeRequest)
            },
            { judgeTimeoutMs: 0, signal: controller.signal }
        )
        expect(timeout.mock.calls.map((c) => c[1])).not.toContain(120_000)
        expect(calls).toBe(1)
        const aborted = result.errors.filter((e) => e.code === 'GRA-026')
        expect(aborted).toHaveLength(1)
        expect(aborted[0]?.path).toMatch(/^\/units\//)
        expect(result.errors.find((e) => e.code === 'GRA-025')).toBeUndefined()
    })

    it('refuses a negative or fractional timeout (GRA-002), and takes 0', async () => {
        for (const bad of [-1, 1.5]) {
            const result = await grade(hanging, { judgeTimeoutMs: bad })
            expect(result.errors).toContainEqual(
                expect.objectContaining({ code: 'GRA-002', path: '/options/judgeTimeoutMs' })
            )
        }
    })
})
