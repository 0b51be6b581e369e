import { readFileSync } from 'node:fs'
import {
    Areas,
    type Area,
    type HttpPort,
    type HttpRequest,
    type HttpResponse,
    type JudgeRequest
} from '../../src/index.js'

export const EXAMPLES = new URL('../../examples/', import.meta.url)

/** Loads an example schema module's `main` without importing it (the test owns no loader). */
export async function exampleMain(path: string): Promise<{ main: Record<string, unknown>; source: string }> {
    const url = new URL(path, EXAMPLES)
    const mod = (await import(url.href)) as { main: Record<string, unknown> }
    return { main: mod.main, source: readFileSync(url, 'utf8') }
}

export function recording(name: string): { host: string; exchanges: [] } {
    return JSON.parse(readFileSync(new URL(`recordings/${name}.json`, EXAMPLES), 'utf8')) as {
        host: string
        exchanges: []
    }
}

/** A reply with every question of the area answered with `score`. */
export function replyFor(area: Area, score: number | ((id: string) => unknown) = 4): Record<string, unknown> {
    const questions = Areas.questions({ area }).questions
    return {
        answers: questions.map((q) => ({
            questionId: q.id,
            score: typeof score === 'function' ? score(q.id) : score,
            reasoning: `Checked ${q.dimension}.`
        })),
        improvementHints: []
    }
}

/** A judge that answers every area with a fixed score and records what it was asked. */
export function scriptedJudge(score = 4): { judge: (r: JudgeRequest) => Promise<string>; asked: JudgeRequest[] } {
    const asked: JudgeRequest[] = []
    return {
        asked,
        judge: async (request) => {
            asked.push(request)
            return JSON.stringify(replyFor(request.area, score))
        }
    }
}

export const grader = {
    name: 'area-grader',
    version: '1.0.0',
    llmModel: 'claude-opus-4-7',
    persona: { basePersonaId: 'schema-maintainer', lensId: 'weather' }
} as const

/** An HTTP port whose every request returns JSON data: each tool's tests run and work, so its tools can be graded. */
export function dataHttp(): HttpPort & { readonly requests: HttpRequest[] } {
    const requests: HttpRequest[] = []
    return {
        requests,
        async send(request: HttpRequest): Promise<HttpResponse> {
            requests.push(request)
            return {
                status: 200,
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ data: [{ id: 1, name: 'sample', value: 42 }] })
            }
        }
    }
}
