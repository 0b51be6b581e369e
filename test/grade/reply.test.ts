import { describe, expect, it } from 'vitest'
import { askedOutputSchema, providerResponseSchema } from '../../src/areas/output.js'
import { AREA_CATALOGUE } from '../../src/areas/catalogue.js'
import { AREAS, type Area } from '../../src/model/constants.js'
import { extractReply, MAX_REPLY_LENGTH, repairRequest, replyProblems, tidyReply } from '../../src/grade/reply.js'
import { createIssue } from '../../src/errors/issue.js'
import type { JudgeRequest } from '../../src/index.js'

const REPLY = { answers: [{ questionId: 'Q-single-test-04', score: 4, reasoning: 'r' }] }
const TEXT = JSON.stringify(REPLY)

describe('extractReply: the reply object inside what a model wrote', () => {
    it.each([
        ['the bare object', TEXT, null],
        ['the object with whitespace', `\n  ${TEXT}\n`, null],
        ['a plain fence', `\`\`\`json\n${TEXT}\n\`\`\``, null],
        ['a fence without a language', `\`\`\`\n${TEXT}\n\`\`\``, null],
        ['a preamble sentence', `Sure! Here is my evaluation:\n${TEXT}`, 'text before it'],
        [
            'a fence followed by prose',
            `\`\`\`json\n${TEXT}\n\`\`\`\nLet me know if you need more.`,
            'text after it, with a Markdown fence'
        ],
        [
            'prose on both sides, with braces of its own in words',
            `I looked at {the tool}.\n${TEXT}\nDone.`,
            'text before it and text after it'
        ],
        ['a stray opening brace before it', `Note: { see below\n${TEXT}`, 'text before it'],
        ['the same object twice', `${TEXT}\nAgain: ${TEXT}`, 'text after it']
    ])('finds it in %s', (_name, text, around) => {
        const found = extractReply(text)
        expect(found).toEqual({ kind: 'json', value: REPLY, around })
    })

    it.each([
        ['a refusal', 'I am sorry, but I cannot evaluate this tool.', 'none'],
        ['an empty reply', '', 'none'],
        ['a reply cut at 60 %', TEXT.slice(0, Math.floor(TEXT.length * 0.6)), 'truncated'],
        ['a fenced reply cut off', `\`\`\`json\n${TEXT.slice(0, 30)}`, 'truncated'],
        ['two different reply objects', `${TEXT}\n${JSON.stringify({ ...REPLY, improvementHints: [] })}`, 'ambiguous'],
        ['a text past the limit', ' '.repeat(MAX_REPLY_LENGTH + 1), 'none']
    ])('does not guess on %s', (_name, text, kind) => {
        expect(extractReply(text).kind).toBe(kind)
    })

    it('reads a hostile text of unclosed braces in bounded time', () => {
        const found = extractReply('{'.repeat(100_000) + TEXT)
        expect(found.kind).toBe('truncated')
    })

    it('keeps a whole-text JSON value that is no object for the contract check (it goes to the repair turn)', () => {
        expect(extractReply('[1, 2]')).toEqual({ kind: 'json', value: [1, 2], around: null })
    })
})

const request = (area: Area, asked: readonly string[]): Pick<JudgeRequest, 'area' | 'outputSchema'> => ({
    area,
    outputSchema: askedOutputSchema(area, asked)
})

describe('tidyReply: nothing kept that the output does not have', () => {
    const single = request('single-test', ['Q-single-test-04', 'Q-single-test-05'])

    it('leaves a clean reply as it is', () => {
        expect(tidyReply(REPLY, single)).toEqual({ output: REPLY, dropped: [] })
    })

    it('drops an extra top-level field, an answer field and an invented question, naming each', () => {
        const tidied = tidyReply(
            {
                answers: [
                    { ...REPLY.answers[0], confidence: 0.8 },
                    { questionId: 'Q-made-up-1', score: 5, reasoning: 'x' }
                ],
                confidence: 0.9
            },
            single
        )
        expect(tidied.output).toEqual(REPLY)
        expect(tidied.dropped).toEqual([
            expect.stringContaining('"confidence", which the area output does not have'),
            expect.stringContaining('"Q-made-up-1"'),
            expect.stringContaining('answer field "confidence"')
        ])
    })

    it('reads a null naReason or evidence as not given (the provider form asks for null)', () => {
        expect(tidyReply({ answers: [{ ...REPLY.answers[0], naReason: null, evidence: null }] }, single)).toEqual({
            output: REPLY,
            dropped: []
        })
    })

    it('leaves a blocker and anything not an object to the contract check', () => {
        expect(tidyReply({ blocker: 'file', reason: 'missing', extra: 1 }, single).dropped).toEqual([])
        expect(tidyReply('text', single)).toEqual({ output: 'text', dropped: [] })
    })
})

describe('repairRequest and replyProblems', () => {
    const first = {
        unit: 'single-test/x',
        area: 'single-test',
        prompt: 'P',
        questions: [{ questionId: 'Q-single-test-04', question: 'q' }],
        messages: [{ role: 'system', content: 'S', cacheable: true, part: 'instructions' }]
    } as unknown as JudgeRequest

    it('appends one message quoting the problems, the messages before it unchanged', () => {
        const repaired = repairRequest(first, ['SCO-005 at /answers/0/score: a string'])
        expect(repaired.messages.slice(0, 1)).toEqual(first.messages)
        expect(repaired.messages).toHaveLength(2)
        expect(repaired.messages[1]?.content).toContain('- SCO-005 at /answers/0/score: a string')
        expect(repaired.repair).toEqual({ problems: ['SCO-005 at /answers/0/score: a string'] })
        expect(first.messages).toHaveLength(1)
    })

    it('quotes at most ten problems and counts the rest', () => {
        const repaired = repairRequest(
            first,
            Array.from({ length: 13 }, (_, i) => `problem ${i}`)
        )
        expect(repaired.messages[1]?.content).toContain('- and 3 more')
        expect(repaired.messages[1]?.content).not.toContain('problem 10')
    })

    it('names each problem at its pointer in the reply, none outside it', () => {
        expect(
            replyProblems([
                createIssue('SCO-005', '/output/answers/0/score', { value: '4' }),
                createIssue('ARE-019', '', { reason: 'x' })
            ])
        ).toEqual([expect.stringMatching(/^SCO-005 at \/answers\/0\/score: /), expect.stringMatching(/^ARE-019: /)])
    })
})

/** The structured-output rules of OpenAI's strict mode, the narrowest of the three providers: each problem found, with its place. */
function strictProblems(node: unknown, at = ''): string[] {
    if (node === null || typeof node !== 'object') return []
    const n = node as Record<string, unknown>
    const problems: string[] = []
    const allowed = new Set([
        'type',
        'properties',
        'required',
        'additionalProperties',
        'items',
        'enum',
        'const',
        'anyOf',
        'minimum',
        'maximum',
        'minItems',
        'maxItems',
        'description'
    ])
    for (const key of Object.keys(n)) if (!allowed.has(key)) problems.push(`${at}: ${key}`)
    if (n.type === 'object') {
        const keys = Object.keys((n.properties ?? {}) as object)
        if (n.additionalProperties !== false) problems.push(`${at}: additionalProperties must be false`)
        if (JSON.stringify([...((n.required ?? []) as string[])].sort()) !== JSON.stringify([...keys].sort()))
            problems.push(`${at}: every property required`)
        for (const [k, v] of Object.entries((n.properties ?? {}) as object))
            problems.push(...strictProblems(v, `${at}/${k}`))
    }
    if (n.items !== undefined) problems.push(...strictProblems(n.items, `${at}/items`))
    if (Array.isArray(n.anyOf)) n.anyOf.forEach((b, i) => problems.push(...strictProblems(b, `${at}/anyOf/${i}`)))
    return problems
}

describe('providerResponseSchema: the reply schema a provider enforces', () => {
    it.each(AREAS.map((a) => [a]))(
        '%s: a closed object OpenAI strict mode, Anthropic tool use and Ollama accept',
        (area) => {
            const asked = AREA_CATALOGUE[area].questionIds.slice(1)
            const schema = providerResponseSchema(askedOutputSchema(area, asked)) as {
                type: string
                anyOf?: unknown
                properties: {
                    answers: {
                        minItems: number
                        maxItems: number
                        items: { properties: { questionId: { enum: string[] } } }
                    }
                }
            }
            expect(schema.type).toBe('object')
            expect(schema.anyOf).toBeUndefined()
            expect(strictProblems(schema)).toEqual([])
            expect(schema.properties.answers).toMatchObject({ minItems: asked.length, maxItems: asked.length })
            expect(schema.properties.answers.items.properties.questionId.enum).toEqual(asked)
        }
    )

    it('is empty of answers for a schema without the envelope form', () => {
        const schema = providerResponseSchema({ type: 'string' }) as { properties: { answers: unknown } }
        expect(schema.properties.answers).toEqual({})
        expect(strictProblems(schema)).toEqual([])
    })
})
