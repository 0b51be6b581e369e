import { existsSync, readFileSync } from 'node:fs'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { judgeFromCommand } from '../../src/cli/judge-command.js'
import { gradeSingleSchema, httpPortFromRecordings, type Judge, type JudgeRequest } from '../../src/index.js'
import { exampleMain, grader, recording } from '../grade/helpers.js'

// The recipes of docs/judges.md, run as written against stand-ins of the tools they call (same
// names, same stdin/stdout): checks the plumbing (jq filter, pipes, the reply), not the real tools.
const DOC = readFileSync(new URL('../../docs/judges.md', import.meta.url), 'utf8')
const blocks = (lang: string): string[] =>
    [...DOC.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\`\\n`, 'g'))].map((m) => m[1] as string)
const recipe = (name: string): string => {
    const found = [...blocks('sh'), ...blocks('js')].find((b) =>
        b
            .split('\n')
            .slice(0, 2)
            .some((line) => line.includes(`// ${name}`) || line.includes(`# ${name}`))
    )
    if (found === undefined) throw new Error(`docs/judges.md has no recipe ${name}`)
    return `${found}\n`
}

// A stand-in LLM: answers every [Q-…] question id of the prompt text with 4.
const FAKE_TOOL = `#!/usr/bin/env node
let text = ''
process.stdin.on('data', (c) => (text += c))
process.stdin.on('end', () => {
    const ids = [...new Set((text.match(/\\[(Q-[A-Za-z0-9-]+)\\]/g) ?? []).map((s) => s.slice(1, -1)))]
    const attached = /<<<FLOWMCP-DATA-[0-9a-f]{16} name="/.test(text) ? 'with files' : 'without files'
    const reply = JSON.stringify({ answers: ids.map((questionId) => ({ questionId, score: 4, reasoning: 'stand-in ' + attached })) })
    // A chat model's habit: a sentence before the JSON (the library finds the object in it).
    process.stdout.write(process.argv[1].endsWith('claude') ? 'Here is my evaluation:\\n' + reply + '\\nLet me know if you need more.' : reply)
})
`

const JQ = existsSync('/usr/bin/jq')
const now = '2026-11-24T10:00:00Z'
let dir = ''
let server: Server | undefined
let baseUrl = ''
let anthropicUrl = ''
let authorization = ''
let anthropic: {
    key: string
    version: string
    body: {
        system: Array<{ text: string; cache_control?: unknown }>
        messages: Array<{ role: string; content: Array<{ text: string; cache_control?: unknown }> }>
        tools: Array<{ name: string; input_schema: unknown }>
        tool_choice: unknown
    }
} | null = null
// The last bodies the OpenAI-compatible and the Ollama stand-ins received.
let openaiBody: Record<string, any> | null = null
let ollamaBody: Record<string, any> | null = null

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-recipes-'))
    await writeFile(join(dir, 'judge-prompt.jq'), blocks('jq')[0] ?? '')
    for (const name of [
        'judge-llm.sh',
        'judge-ollama.sh',
        'judge-claude.sh',
        'judge-openai.mjs',
        'judge-anthropic.mjs',
        'judge-ollama.mjs',
        'judge-fixed.mjs'
    ])
        await writeFile(join(dir, name), recipe(name))
    for (const tool of ['llm', 'ollama', 'claude']) {
        await writeFile(join(dir, tool), FAKE_TOOL)
        await chmod(join(dir, tool), 0o755)
    }
    // A stand-in OpenAI-compatible endpoint on localhost.
    server = createServer((req, res) => {
        let body = ''
        req.on('data', (c) => (body += c))
        req.on('end', () => {
            const parsed = JSON.parse(body) as Record<string, any>
            if (req.url === '/v1/messages') {
                // Anthropic's Messages API: system blocks, one user turn of blocks, text content out.
                anthropic = {
                    key: String(req.headers['x-api-key'] ?? ''),
                    version: String(req.headers['anthropic-version'] ?? ''),
                    body: parsed as never
                }
                const text = (parsed.messages as Array<{ content: Array<{ text: string }> }>)
                    .flatMap((m) => m.content.map((c) => c.text))
                    .join('\n')
                const ids = [...new Set((text.match(/\[(Q-[A-Za-z0-9-]+)\]/g) ?? []).map((s) => s.slice(1, -1)))]
                const reply = {
                    answers: ids.map((questionId) => ({
                        questionId,
                        score: 4,
                        reasoning: 'anthropic stand-in',
                        naReason: null
                    })),
                    improvementHints: []
                }
                // Forced tool use: the reply is the tool call's input.
                res.writeHead(200, { 'content-type': 'application/json' }).end(
                    JSON.stringify({
                        content: [{ type: 'tool_use', name: 'submit_grading', input: reply }],
                        usage: {
                            input_tokens: 100,
                            cache_read_input_tokens: 900,
                            cache_creation_input_tokens: 50,
                            output_tokens: 40
                        }
                    })
                )
                return
            }
            if (req.url === '/api/chat') {
                // Ollama's chat API: the messages, the reply schema as `format`, one message out.
                ollamaBody = parsed
                const content = (parsed.messages as Array<{ content: string }>).map((m) => m.content).join('\n')
                const ids = [...new Set((content.match(/\[(Q-[A-Za-z0-9-]+)\]/g) ?? []).map((s) => s.slice(1, -1)))]
                const reply = {
                    answers: ids.map((questionId) => ({
                        questionId,
                        score: 4,
                        reasoning: 'ollama stand-in',
                        naReason: null
                    })),
                    improvementHints: []
                }
                res.writeHead(200, { 'content-type': 'application/json' }).end(
                    JSON.stringify({
                        message: { role: 'assistant', content: JSON.stringify(reply) },
                        prompt_eval_count: 700,
                        eval_count: 30
                    })
                )
                return
            }
            openaiBody = parsed
            authorization = req.headers.authorization ?? ''
            const content = (parsed.messages as Array<{ content: string }>).map((m) => m.content).join('\n')
            const ids = [...new Set((content.match(/\[(Q-[A-Za-z0-9-]+)\]/g) ?? []).map((s) => s.slice(1, -1)))]
            // The strict-mode form: every property present, null for an optional one not given.
            const reply = {
                answers: ids.map((questionId) => ({
                    questionId,
                    score: 4,
                    reasoning: 'endpoint stand-in',
                    naReason: null
                })),
                improvementHints: []
            }
            res.writeHead(200, { 'content-type': 'application/json' }).end(
                JSON.stringify({
                    choices: [{ message: { content: JSON.stringify(reply) } }],
                    usage: {
                        prompt_tokens: 1200,
                        completion_tokens: 60,
                        prompt_tokens_details: { cached_tokens: 1024 }
                    }
                })
            )
        })
    })
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r))
    const address = server.address()
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/v1`
    anthropicUrl = baseUrl.slice(0, -3)
})
afterAll(async () => {
    await new Promise((r) => server?.close(r))
    await rm(dir, { recursive: true, force: true })
})

const env = (): Record<string, string | undefined> => ({
    PATH: `${dir}:${process.env.PATH ?? ''}`,
    HOME: dir,
    OPENAI_API_KEY: 'sk-test-0123456789abcdef',
    OPENAI_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
    ANTHROPIC_BASE_URL: anthropicUrl,
    OLLAMA_HOST: anthropicUrl.replace(/^http:\/\//, '')
})

/** The requests a judge command was given, the last one of each area kept for comparison. */
function recorded(command: Judge): { judge: Judge; asked: JudgeRequest[] } {
    const asked: JudgeRequest[] = []
    return { asked, judge: async (r, c) => (asked.push(r), command(r, c)) }
}

async function gradeWith(judge: Judge): Promise<Awaited<ReturnType<typeof gradeSingleSchema>>> {
    const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
    return gradeSingleSchema({
        schema: { main },
        schemaId: 'openmeteo.forecast',
        grader,
        options: { now, source, judge, http: httpPortFromRecordings({ recordings: [recording('openmeteo')] }) }
    })
}

describe('the judge recipes of docs/judges.md', () => {
    it.skipIf(!JQ).each(['judge-llm.sh', 'judge-ollama.sh', 'judge-claude.sh'])(
        '%s completes a full grading with a stand-in tool',
        async (script) => {
            const asked: JudgeRequest[] = []
            const command = judgeFromCommand({ command: `sh ${script}`, cwd: dir, env: env(), timeoutMs: 30_000 })
            const result = await gradeWith(async (r, c) => (asked.push(r), command(r, c)))
            expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
            expect(result.grading?.mode).toBe('full')
            expect(result.prompts).toEqual([])
            expect(asked.length).toBeGreaterThan(2)
            // The attachments reached the model inline.
            const entry = result.entries.find((e) => e.area === 'tools-aggregate-schema')
            expect(entry?.gradings.find((g) => g.determinism === 'non-deterministic')?.reasoning).toBe(
                'stand-in with files'
            )
            // The stand-in claude writes a sentence around its JSON: read all the same, said once.
            expect(result.errors.filter((e) => e.code === 'GRA-027')).toHaveLength(script === 'judge-claude.sh' ? 1 : 0)
            // The shell recipes print the reply alone: calls counted, no usage reported.
            expect(result.grading?.judgeCalls).toMatchObject({ calls: asked.length, repairs: 0, usage: null })
        },
        60_000
    )

    it('judge-openai.mjs posts to an OpenAI-compatible endpoint with the key only in a header and the reply schema as a strict json_schema', async () => {
        const { judge, asked } = recorded(
            judgeFromCommand({
                command: 'node judge-openai.mjs',
                cwd: dir,
                env: env(),
                allowEnv: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
                timeoutMs: 30_000
            })
        )
        const result = await gradeWith(judge)
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading?.mode).toBe('full')
        expect(authorization).toBe('Bearer sk-test-0123456789abcdef')
        expect(openaiBody?.response_format).toEqual({
            type: 'json_schema',
            json_schema: { name: 'judge_reply', strict: true, schema: asked.at(-1)?.responseSchema }
        })
        // One call per unit: the stand-in's strict-mode reply (naReason: null) needs no repair turn.
        expect(result.grading?.judgeCalls).toMatchObject({ calls: asked.length, repairs: 0, retries: 0 })
        // The usage the endpoint reported, per call, totalled.
        expect(result.grading?.judgeCalls?.usage).toEqual({
            inputTokens: 1200 * asked.length,
            outputTokens: 60 * asked.length,
            cachedInputTokens: 1024 * asked.length,
            reportedCalls: asked.length
        })
    }, 60_000)

    it("judge-ollama.mjs posts to Ollama's chat API with the reply schema as format", async () => {
        const { judge, asked } = recorded(
            judgeFromCommand({
                command: 'node judge-ollama.mjs',
                cwd: dir,
                env: env(),
                allowEnv: ['OLLAMA_HOST'],
                timeoutMs: 30_000
            })
        )
        const result = await gradeWith(judge)
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading?.mode).toBe('full')
        expect(ollamaBody?.format).toEqual(asked.at(-1)?.responseSchema)
        expect(ollamaBody?.stream).toBe(false)
        expect(result.grading?.judgeCalls?.usage).toEqual({
            inputTokens: 700 * asked.length,
            outputTokens: 30 * asked.length,
            cachedInputTokens: 0,
            reportedCalls: asked.length
        })
    }, 60_000)

    it('judge-openai.mjs fails with JCMD-003 when the endpoint cannot be reached, the key redacted', async () => {
        const command = judgeFromCommand({
            command: 'node judge-openai.mjs',
            cwd: dir,
            env: { ...env(), OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
            allowEnv: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
            timeoutMs: 30_000
        })
        const result = await gradeWith(command)
        expect(result.errors.find((e) => e.code === 'GRA-006')?.message).toMatch(
            /JCMD-003: The judge command exited with code 1/
        )
        expect(JSON.stringify(result)).not.toContain('sk-test-0123456789abcdef')
    }, 60_000)

    it('judge-anthropic.mjs sends the system block and the cacheable user blocks with cache_control, the unit block without, and the reply schema as a forced tool', async () => {
        const { judge, asked } = recorded(
            judgeFromCommand({
                command: 'node judge-anthropic.mjs',
                cwd: dir,
                env: env(),
                allowEnv: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'],
                timeoutMs: 30_000
            })
        )
        const result = await gradeWith(judge)
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(result.grading?.mode).toBe('full')
        const sent = anthropic as NonNullable<typeof anthropic>
        expect(sent.key).toBe('sk-ant-test-0123456789')
        expect(sent.body.system.map((b) => b.cache_control)).toEqual([{ type: 'ephemeral' }])
        const blocks = sent.body.messages[0]?.content ?? []
        expect(blocks.map((b) => b.cache_control ?? null)).toEqual([{ type: 'ephemeral' }, { type: 'ephemeral' }, null])
        // The files reach the model in their data blocks, the boundary intact.
        expect(blocks[0]?.text).toMatch(/<<<FLOWMCP-DATA-[0-9a-f]{16} name="forecast\.mjs">>>/)
        expect(sent.body.system[0]?.text).toContain(
            blocks[0]?.text.match(/<<<(FLOWMCP-DATA-[0-9a-f]{16}) /)?.[1] ?? 'no boundary'
        )
        expect(sent.body.tools).toEqual([
            { name: 'submit_grading', description: expect.any(String), input_schema: asked.at(-1)?.responseSchema }
        ])
        expect(sent.body.tool_choice).toEqual({ type: 'tool', name: 'submit_grading' })
        // Anthropic's input is its three parts together; the cache reads are the cached part.
        expect(result.grading?.judgeCalls?.usage).toEqual({
            inputTokens: 1050 * asked.length,
            outputTokens: 40 * asked.length,
            cachedInputTokens: 900 * asked.length,
            reportedCalls: asked.length
        })
    }, 60_000)

    it('judge-fixed.mjs, the starting point, answers every question', async () => {
        const result = await gradeWith(judgeFromCommand({ command: 'node judge-fixed.mjs', cwd: dir, env: env() }))
        expect(result.grading?.mode).toBe('full')
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
    }, 60_000)
})
