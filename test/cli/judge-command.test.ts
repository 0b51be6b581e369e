import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
    checkJudgeCommandOptions,
    judgeEnvironment,
    judgeFromCliOptions,
    judgeFromCommand,
    limitConcurrency
} from '../../src/cli/judge-command.js'
import { responseOfCommand, type CommandJudge, type JudgeCommandError } from '../../src/cli/judge-process.js'
import { gradeSingleSchema, httpPortFromRecordings, type JudgeRequest } from '../../src/index.js'
import { EXAMPLES, exampleMain, grader, recording } from '../grade/helpers.js'

/** The reply text of what a command judge returned (a string, or `{ text, usage }`). */
const textOf = (r: string | { text: string }): string => (typeof r === 'string' ? r : r.text)

// Fake LLM command-line tools: each reads the JudgeRequest on stdin like a real wrapper would.
const FAKES = {
    'judge.mjs': `let input = ''
process.stdin.on('data', (c) => (input += c))
process.stdin.on('end', () => {
    const request = JSON.parse(input)
    const answers = request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'Fake judge: ' + q.question.slice(0, 40) }))
    process.stdout.write(JSON.stringify({ answers, improvementHints: [] }))
})
`,
    'sleepy.mjs': `setTimeout(() => process.stdout.write('{}'), 60000)\n`,
    'failing.mjs': `process.stderr.write('model overloaded; token sk-abcdefghijklmnop0123456789 rejected\\n')\nprocess.exit(3)\n`,
    'env.mjs': `process.stdin.resume()\nprocess.stdin.on('end', () => process.stdout.write(JSON.stringify(process.env)))\n`,
    'chatty.mjs': `process.stdout.write('x'.repeat(4096))\n`
}

const request: JudgeRequest = {
    unit: 'tools-aggregate-schema',
    area: 'tools-aggregate-schema',
    prompt: 'Grade the tools.',
    questions: [{ questionId: 'Q-tools-aggregate-schema-01', question: 'Is it good?' }],
    outputSchema: {},
    responseSchema: {},
    envelope: {
        gradingId: 'g',
        schemaHash: 'h',
        area: 'tools-aggregate-schema',
        persona: null,
        harness: 'claude-code',
        iteration: 1,
        timestamp: '2026-11-24T10:00:00Z'
    },
    attachments: [],
    messages: []
}

let dir = ''
const node = (script: keyof typeof FAKES): string => `"${process.execPath}" "${join(dir, script)}"`
const env = {
    PATH: process.env.PATH,
    HOME: '/nonexistent-home',
    LANG: 'C.UTF-8',
    ETHERSCAN_API_KEY: 'etherscan-secret-1234',
    OPENAI_API_KEY: 'sk-abcdefghijklmnop0123456789'
}

async function rejection(promise: Promise<unknown>): Promise<JudgeCommandError> {
    try {
        await promise
    } catch (error) {
        return error as JudgeCommandError
    }
    throw new Error('expected a rejection')
}

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-judge-'))
    for (const [name, text] of Object.entries(FAKES)) await writeFile(join(dir, name), text)
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe('judgeFromCommand', () => {
    it('writes the request to the command stdin and returns its stdout as the reply', async () => {
        const judge = judgeFromCommand({ command: node('judge.mjs'), env })
        const reply = JSON.parse(textOf(await judge(request))) as {
            answers: Array<{ questionId: string; score: number }>
        }
        expect(reply.answers).toEqual([
            { questionId: 'Q-tools-aggregate-schema-01', score: 4, reasoning: 'Fake judge: Is it good?' }
        ])
    })

    it('kills a command that runs past the timeout and rejects with JCMD-002', async () => {
        const seen: string[] = []
        const judge = judgeFromCommand({
            command: node('sleepy.mjs'),
            env,
            timeoutMs: 300,
            onError: (e) => seen.push(e.code)
        })
        const error = await rejection(judge(request))
        expect(error.code).toBe('JCMD-002')
        expect(error.message).toMatch(/^JCMD-002: .*300 ms/)
        expect(seen).toEqual(['JCMD-002'])
    })

    it('rejects a non-zero exit with JCMD-003 carrying the redacted tail of stderr', async () => {
        const judge = judgeFromCommand({ command: node('failing.mjs'), env, allowEnv: ['OPENAI_API_KEY'] })
        const error = await rejection(judge(request))
        expect(error.code).toBe('JCMD-003')
        expect(error.message).toContain('code 3')
        expect(error.message).toContain('model overloaded')
        expect(error.message).not.toContain('sk-abcdefghijklmnop0123456789')
    })

    it('bounds the stderr tail shown in the error', async () => {
        const judge = judgeFromCommand({
            command: `i=0; while [ $i -lt 300 ]; do printf 'a b ' >&2; i=$((i+1)); done; printf END >&2; exit 1`,
            env
        })
        const error = await rejection(judge(request))
        expect(error.message).toMatch(/stderr follows: …[ab ]+END$/)
        expect(error.message.length).toBeLessThan(520)
    })

    it('names a missing program as exit 127 (command not found)', async () => {
        const error = await rejection(judgeFromCommand({ command: 'definitely-not-a-command-xyz', env })(request))
        expect(error.message).toMatch(/^JCMD-003: .*127 \(command not found\)/)
    })

    it('rejects with JCMD-001 when the shell itself cannot be started', async () => {
        const error = await rejection(
            judgeFromCommand({ command: 'true', env, shell: join(dir, 'no-such-shell') })(request)
        )
        expect(error.message).toMatch(/^JCMD-001: /)
    })

    it('kills a command whose output exceeds the limit (JCMD-004)', async () => {
        const error = await rejection(
            judgeFromCommand({ command: node('chatty.mjs'), env, maxOutputBytes: 1000 })(request)
        )
        expect(error.code).toBe('JCMD-004')
    })

    it('gives a judge that rejects with JCMD-005 for bad options, never a throw', async () => {
        const judge = judgeFromCommand({ command: '  ', env, timeoutMs: -1 })
        const error = await rejection(judge(request))
        expect(error.message).toMatch(/^JCMD-005: Invalid judge option command/)
        expect(checkJudgeCommandOptions({ command: 'x', allowEnv: ['A=B'] }).map((e) => e.code)).toEqual(['JCMD-005'])
    })
})

describe('the environment of a judge command', () => {
    it('holds PATH, HOME, LANG and the allowed names only: no server param leaks', async () => {
        const judge = judgeFromCommand({ command: node('env.mjs'), env, allowEnv: ['OPENAI_API_KEY'] })
        const seen = JSON.parse(textOf(await judge(request))) as Record<string, string>
        expect(seen.OPENAI_API_KEY).toBe(env.OPENAI_API_KEY)
        expect(seen.HOME).toBe('/nonexistent-home')
        expect(seen.ETHERSCAN_API_KEY).toBeUndefined()
        expect(JSON.stringify(seen)).not.toContain('etherscan-secret-1234')
    })

    it('never passes a denied name, even when it is allowed', () => {
        expect(
            judgeEnvironment({ env, allowEnv: ['ETHERSCAN_API_KEY', 'bad name'], denyEnv: ['ETHERSCAN_API_KEY'] })
        ).toEqual({ PATH: env.PATH, HOME: env.HOME, LANG: env.LANG })
    })
})

describe('limitConcurrency', () => {
    const slowJudge = (): { judge: CommandJudge; max: () => number } => {
        let active = 0
        let max = 0
        return {
            max: () => max,
            judge: async (r) => {
                active++
                max = Math.max(max, active)
                await new Promise((resolve) => setTimeout(resolve, 5))
                active--
                if (r.unit === 'fail') throw new Error('boom')
                return r.unit
            }
        }
    }

    it('runs at most n calls at once and answers each in full', async () => {
        const { judge, max } = slowJudge()
        const limited = limitConcurrency(judge, 2)
        const replies = await Promise.all(Array.from({ length: 7 }, (_, i) => limited({ ...request, unit: `u${i}` })))
        expect(replies).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6'])
        expect(max()).toBe(2)
    })

    it('frees the slot of a rejected call and treats a bad n as 1', async () => {
        const { judge, max } = slowJudge()
        const limited = limitConcurrency(judge, 0)
        const results = await Promise.allSettled([
            limited({ ...request, unit: 'fail' }),
            limited({ ...request, unit: 'ok' })
        ])
        expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled'])
        expect(max()).toBe(1)
    })
})

describe('judgeFromCliOptions', () => {
    it('builds a limited command judge from the command-line values', async () => {
        const { judge, model, harness, errors } = judgeFromCliOptions(
            {
                judgeCommand: node('judge.mjs'),
                judgeTimeout: '30',
                judgeConcurrency: '2',
                judgeEnv: ['OPENAI_API_KEY'],
                judgeModel: 'gpt-4o-mini'
            },
            env
        )
        expect(errors).toEqual([])
        expect({ model, harness }).toEqual({ model: 'gpt-4o-mini', harness: 'claude-code' })
        expect(JSON.parse(textOf((await judge?.(request)) ?? ''))).toMatchObject({
            answers: [{ questionId: 'Q-tools-aggregate-schema-01', score: 4 }]
        })
        expect(judgeFromCliOptions({}, env)).toEqual({ judge: null, model: null, harness: 'claude-code', errors: [] })
    })

    it('parses --judge-model and --judge-harness: the model as named (trimmed), the harness the spec allows', () => {
        expect(
            judgeFromCliOptions({ judgeCommand: 'x', judgeModel: ' llama3.1:8b ', judgeHarness: 'claude-code' }, env)
        ).toMatchObject({ model: 'llama3.1:8b', harness: 'claude-code', errors: [] })
    })

    it('reports wrong values as JCMD-005 usage errors', () => {
        expect(
            judgeFromCliOptions(
                {
                    judgeCommand: 'x',
                    judgeModel: 'm',
                    judgeTimeout: 'soon',
                    judgeConcurrency: '1.5',
                    judgeEnv: ['1BAD']
                },
                env
            ).errors.map((e) => e.split(':').slice(0, 2).join(':'))
        ).toEqual([
            'JCMD-005: Invalid judge option --judge-timeout',
            'JCMD-005: Invalid judge option --judge-concurrency',
            'JCMD-005: Invalid judge option allowEnv'
        ])
        expect(judgeFromCliOptions({ judgeTimeout: '5' }, env).errors[0]).toMatch(/need --judge-command/)
    })

    it.each([
        [
            'a command without --judge-model: nothing is guessed from the command line',
            { judgeCommand: 'node judge.mjs' },
            /--judge-model: --judge-command needs --judge-model <name>/
        ],
        ['an empty model', { judgeCommand: 'x', judgeModel: '  ' }, /--judge-model: an empty name/],
        [
            'a model of 201 characters',
            { judgeCommand: 'x', judgeModel: 'm'.repeat(201) },
            /--judge-model: longer than 200 characters/
        ],
        [
            'a model with a control character',
            { judgeCommand: 'x', judgeModel: 'gpt\u00074o' },
            /--judge-model: control characters/
        ],
        [
            'a harness no grading entry may record',
            { judgeCommand: 'x', judgeModel: 'm', judgeHarness: 'ollama' },
            /--judge-harness: expected claude-code .*got "ollama"/
        ],
        [
            '--judge-model without --judge-command',
            { judgeModel: 'm' },
            /--judge-model and --judge-harness need --judge-command/
        ],
        ['--judge-harness without --judge-command', { judgeHarness: 'claude-code' }, /need --judge-command/]
    ])('refuses %s (JCMD-005), building no judge', (_name, values, message) => {
        const built = judgeFromCliOptions(values, env)
        expect(built.judge).toBeNull()
        expect(built.model).toBeNull()
        expect(built.errors).toEqual([expect.stringMatching(message)])
        expect(built.errors[0]).toMatch(/^JCMD-005: /)
    })
})

describe('gradeSingleSchema with a command judge', () => {
    it('completes a full (non-provisional) grading of the example schema', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const judge = limitConcurrency(judgeFromCommand({ command: node('judge.mjs'), env }), 2)
        const result = await gradeSingleSchema({
            schema: { main },
            schemaId: 'openmeteo.forecast',
            grader,
            options: {
                now: '2026-11-24T10:00:00Z',
                source,
                judge,
                about: {
                    text: readFileSync(new URL('providers/openmeteo/resources/openmeteo-about.md', EXAMPLES), 'utf8')
                },
                http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
            }
        })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading).toMatchObject({ mode: 'full', veto: null })
        expect(result.grading?.units.map((u) => u.status)).toEqual([
            'graded',
            'graded',
            'graded',
            'graded',
            'graded',
            'graded'
        ])
        expect(result.prompts).toEqual([])
    })

    it('turns a failing command into GRA-006 carrying the JCMD code', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const judge = judgeFromCommand({ command: node('failing.mjs'), env })
        const result = await gradeSingleSchema({
            schema: { main },
            schemaId: 'openmeteo.forecast',
            grader,
            options: { now: '2026-11-24T10:00:00Z', source, judge }
        })
        const failed = result.errors.filter((e) => e.code === 'GRA-006')
        expect(failed.length).toBeGreaterThan(0)
        expect(failed[0]?.message).toContain('JCMD-003: ')
    })
})

describe('responseOfCommand', () => {
    it('reads { text, usage } as the reply with what it cost', () => {
        const printed = JSON.stringify({ text: '{"answers":[]}', usage: { inputTokens: 10, outputTokens: 2 } })
        expect(responseOfCommand(printed)).toEqual({
            text: '{"answers":[]}',
            usage: { inputTokens: 10, outputTokens: 2 }
        })
        expect(responseOfCommand(JSON.stringify({ text: 'no usage' }))).toEqual({ text: 'no usage' })
    })

    it('leaves a reply, prose or an object that is no envelope as the text it is', () => {
        for (const printed of [
            JSON.stringify({ answers: [], text: 'a reply with a text field' }),
            JSON.stringify({ blocker: 'x', reason: 'y', text: 'z' }),
            JSON.stringify({ text: 42 }),
            'Here is my "text": {',
            '["text"]',
            ''
        ])
            expect(responseOfCommand(printed)).toBe(printed)
    })
})
