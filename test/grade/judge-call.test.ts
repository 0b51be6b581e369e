import { describe, expect, it } from 'vitest'
import { gradeSingleSchema, httpPortFromRecordings, type JudgeRequest } from '../../src/index.js'
import { isRetryable } from '../../src/grade/judge-call.js'
import { exampleMain, grader, recording, replyFor } from './helpers.js'

/** The example's recorded responses: its tools are tested, so every unit asks the judge. */
const openmeteoHttp = (): ReturnType<typeof httpPortFromRecordings> =>
    httpPortFromRecordings({ recordings: [recording('openmeteo')] })

const now = '2026-11-22T18:00:00Z'
const codes = (errors: ReadonlyArray<{ code: string }>): string[] => errors.map((e) => e.code)
const count = (errors: ReadonlyArray<{ code: string }>, code: string): number =>
    errors.filter((e) => e.code === code).length

/** An error as an HTTP client throws it: a status, and a message. */
function httpError(status: number, message: string): Error & { status: number } {
    return Object.assign(new Error(message), { status })
}

async function forecast(): Promise<{ main: Record<string, unknown>; source: string }> {
    return exampleMain('providers/openmeteo/forecast.mjs')
}

describe('judges that fail well (retries, timeout, abort, stop after failures in a row)', () => {
    it('stops calling a judge that fails every call after 3 in a row, one issue per failure and one saying why it stopped', async () => {
        const { main, source } = await forecast()
        let calls = 0
        const judge = async (): Promise<string> => {
            calls++
            throw new Error('invalid request: the model does not exist')
        }
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: { now, source, http: openmeteoHttp(), judge }
        })
        // A non-retryable failure is tried once: three units, three calls, then the judge is left alone.
        expect(calls).toBe(3)
        expect(count(result.errors, 'GRA-006')).toBe(3)
        expect(count(result.errors, 'GRA-025')).toBe(1)
        expect(result.errors.find((e) => e.code === 'GRA-025')?.message).toMatch(
            /failed 3 units in a row.*last failure: [^:]+: invalid request: the model does not exist/
        )
        const errored = result.grading?.units.filter((u) => u.status === 'error') ?? []
        expect(errored.length).toBeGreaterThan(3)
        expect(errored.at(-1)?.reason).toMatch(/not called/)
    })

    it('honours maxConsecutiveJudgeFailures, and a success in between resets the count', async () => {
        const { main, source } = await forecast()
        let calls = 0
        const judge = async (r: JudgeRequest): Promise<string> => {
            calls++
            if (calls % 2 === 0) return JSON.stringify(replyFor(r.area))
            throw new Error('flaky')
        }
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: { now, source, http: openmeteoHttp(), judge, maxConsecutiveJudgeFailures: 2 }
        })
        expect(count(result.errors, 'GRA-025')).toBe(0)
        expect(result.grading?.units.some((u) => u.status === 'graded')).toBe(true)
    })

    it('retries a rate limit and a 5xx with a doubling backoff through sleep, and not a 400', async () => {
        const { main, source } = await forecast()
        const waits: number[] = []
        const sleep = async (ms: number): Promise<void> => {
            waits.push(ms)
        }
        const failures = [httpError(429, 'rate limited'), httpError(503, 'overloaded')]
        const asked: string[] = []
        const judge = async (r: JudgeRequest): Promise<string> => {
            asked.push(r.unit)
            const next = failures.shift()
            if (next !== undefined) throw next
            return JSON.stringify(replyFor(r.area))
        }
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: { now, source, http: openmeteoHttp(), judge, sleep, judgeBackoffMs: 100 }
        })
        expect(waits).toEqual([100, 200])
        expect(asked[0]).toBe(asked[2])
        expect(codes(result.errors)).not.toContain('GRA-006')

        let tries = 0
        const bad = async (): Promise<string> => {
            tries++
            throw httpError(400, 'bad request')
        }
        const refused = await gradeSingleSchema({
            schema: { main },
            grader,
            options: { now, source, http: openmeteoHttp(), judge: bad, sleep, maxConsecutiveJudgeFailures: 1 }
        })
        expect(tries).toBe(1)
        expect(codes(refused.errors)).toEqual(expect.arrayContaining(['GRA-006', 'GRA-025']))
    })

    it.each([
        [{ status: 429 }, true],
        [{ status: 502 }, true],
        [{ statusCode: 500 }, true],
        [{ status: 401 }, false],
        [{ retryable: true, status: 400 }, true],
        [{ name: 'TimeoutError' }, true],
        [new Error('plain'), false],
        ['text', false],
        [null, false]
    ])('classifies %j as retryable: %s', (cause, expected) => {
        expect(isRetryable(cause)).toBe(expected)
    })

    it('ends a judge that never answers after judgeTimeoutMs, and tells the judge through its signal', async () => {
        const { main, source } = await forecast()
        let heard = 0
        const judge = (
            _r: JudgeRequest,
            context?: { signal?: { addEventListener?: (t: 'abort', l: () => void) => void } }
        ): Promise<string> =>
            new Promise<string>(() => {
                context?.signal?.addEventListener?.('abort', () => {
                    heard++
                })
            })
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: { now, source, http: openmeteoHttp(), judge, judgeTimeoutMs: 20, judgeRetries: 0 }
        })
        expect(count(result.errors, 'GRA-006')).toBe(3)
        expect(result.errors.find((e) => e.code === 'GRA-006')?.message).toMatch(/no answer within 20 ms/)
        expect(count(result.errors, 'GRA-025')).toBe(1)
        expect(heard).toBe(3)
    })

    it('ends a hanging judge when the run is aborted, says so once and asks no further unit', async () => {
        const { main, source } = await forecast()
        const controller = new AbortController()
        let calls = 0
        const judge = (): Promise<string> => {
            calls++
            // The host aborts while the call hangs.
            queueMicrotask(() => controller.abort())
            return new Promise<string>(() => undefined)
        }
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: { now, source, http: openmeteoHttp(), judge, signal: controller.signal }
        })
        expect(calls).toBe(1)
        expect(count(result.errors, 'GRA-026')).toBe(1)
        expect(count(result.errors, 'GRA-006')).toBe(0)
    })

    it('redacts a key a failing judge leaks (sk-ant-…, Authorization: Bearer …, a server-param value)', async () => {
        const { main, source } = await forecast()
        const judge = async (): Promise<string> => {
            throw new Error(
                '401 from https://api.example/v1?key=live-value-123456 with x-api-key: sk-ant-api03-AAAAbbbbCCCCdddd1234 and Authorization: Bearer abcdefghijklmnop1234'
            )
        }
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: { now, source, http: openmeteoHttp(), judge, maxConsecutiveJudgeFailures: 1 }
        })
        const text = JSON.stringify(result.errors)
        expect(text).toContain('[redacted]')
        expect(text).not.toContain('sk-ant-api03')
        expect(text).not.toContain('abcdefghijklmnop1234')
        expect(text).not.toContain('live-value-123456')
    })

    it('refuses judge options that are not whole numbers (GRA-002) and grades nothing', async () => {
        const { main, source } = await forecast()
        const result = await gradeSingleSchema({
            schema: { main },
            grader,
            options: {
                now,
                source,
                http: openmeteoHttp(),
                judge: async () => '{}',
                judgeTimeoutMs: -1,
                maxConsecutiveJudgeFailures: 0
            }
        })
        expect(result.errors.filter((e) => e.code === 'GRA-002').map((e) => e.path)).toEqual([
            '/options/judgeTimeoutMs',
            '/options/maxConsecutiveJudgeFailures'
        ])
        expect(result.grading).toBeNull()
    })
})
