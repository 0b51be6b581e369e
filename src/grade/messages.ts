import { AREA_CATALOGUE } from '../areas/catalogue.js'
import type { Area } from '../model/constants.js'
import { Redact } from '../prompts/redact.js'

/**
 * One chat message of a judge request. The messages come in the order a provider's prefix cache
 * rewards: what is the same for every call of a run first, the unit's own part last.
 */
export interface JudgeMessage {
    readonly role: 'system' | 'user'
    readonly content: string
    /**
     * `true` when the same text opens other calls of the run (the instructions; a schema's files for
     * every unit of that schema; an area's questions for every unit of that area): worth a cache mark.
     */
    readonly cacheable: boolean
    /** Which part of the request it is: `instructions`, `files`, `area` or `unit`. */
    readonly part: 'instructions' | 'files' | 'area' | 'unit'
}

/**
 * The system message: the same for every call of every run of this library version, so a prefix
 * cache serves it after the first call. Nothing in it depends on the schema, the area or the unit.
 */
export const JUDGE_SYSTEM_MESSAGE = [
    'You are the judge of a FlowMCP schema grading (Grading-Spec 2.0.x). Each request grades one unit — a tool, the tool set of a schema, or a part of a namespace — from the files given in the conversation.',
    '',
    'Rules:',
    '1. Work only from the files given here. Call nothing and fetch nothing.',
    '2. Answer every question you are asked exactly once, by its questionId, and no other question. Questions answered by code are not asked.',
    '3. Score: a number from 1 (poor) to 5 (excellent), decimals allowed, for rated questions; "pass" or "fail" for yes/no questions; "n/a" with a naReason (not-applicable-to-tool-type, requires-private-data, blocked-by-precondition, out-of-scope-resource) only for what you could not check — never guess.',
    '4. Every answer has a "reasoning": one or two sentences naming what in the files the score rests on.',
    '5. Reply with one JSON object and nothing else: {"answers":[{"questionId":"…","score":…,"reasoning":"…"}],"improvementHints":[{"targetField":"…","suggestion":"…","priority":"low|medium|high"}]} (improvementHints optional, concrete changes to the schema).',
    '6. If a file you need is missing or unreadable, reply only {"blocker":"<file>","reason":"<what is wrong>"}.'
].join('\n')

/** The files message: every attached file inline, named, in the order given; nothing unit-specific, so all units of a schema share it. */
export function filesMessage(attachments: ReadonlyArray<{ readonly name: string; readonly content: string }>): JudgeMessage {
    const blocks = attachments.map((a) => `=== file ${a.name} ===\n${a.content.endsWith('\n') ? a.content : `${a.content}\n`}=== end of file ${a.name} ===`)
    return { role: 'user', content: `The files of this grading:\n\n${blocks.join('\n\n')}`, cacheable: true, part: 'files' }
}

/** The area message: what the area grades, the persona, and the questions asked (with their text). */
export function areaMessage(area: Area, persona: { readonly basePersonaId: string; readonly lensId: string } | null, questions: ReadonlyArray<{ readonly questionId: string; readonly question: string }>, answeredByCode: readonly string[]): JudgeMessage {
    const d = AREA_CATALOGUE[area]
    const lines = [
        `Area ${area}: it grades ${d.evaluates}. Tier ${d.tier}; the highest grade it can reach is ${d.maxGrade}.`,
        persona !== null ? `Persona: ${persona.basePersonaId}, lens ${persona.lensId}: judge as that reader would.` : 'Neutral area: judge what the text says, not who would use it.',
        '',
        'Questions:',
        ...questions.map((q) => `[${q.questionId}] ${q.question}`),
        ...(answeredByCode.length > 0 ? ['', `Answered by code, not asked: ${answeredByCode.join(', ')}.`] : [])
    ]
    return { role: 'user', content: lines.join('\n'), cacheable: true, part: 'area' }
}

/** The unit message: which unit, its notes, and the reply in its compact form (the ids to answer, one example answer). */
export function unitMessage(args: { unit: string; area: Area; focus: string | null; notes: readonly string[]; questionIds: readonly string[]; serverParams: Readonly<Record<string, string>> }): JudgeMessage {
    const focus = args.focus === null ? '' : ` (${args.area === 'single-test' ? 'tool' : 'skill'} ${args.focus})`
    const example = { answers: [{ questionId: args.questionIds[0] ?? 'Q-…', score: 4, reasoning: '…' }] }
    const lines = [
        `Grade ${args.unit}${focus}.`,
        ...args.notes.map((n) => `Note: ${n}`),
        `Answer ${args.questionIds.join(', ')}; reply like ${JSON.stringify(example)}.`
    ]
    // Notes are library text, but a host's key value must never reach a judge, whatever carries it.
    return { role: 'user', content: Redact.text({ text: lines.join('\n'), serverParams: args.serverParams }).text ?? '', cacheable: false, part: 'unit' }
}
