import { readFileSync } from 'node:fs'
import { AREA_CATALOGUE, questionsOf } from '../../src/areas/catalogue.js'
import { Grading, type Area, type CreateEntryInput, type GradingAnswer, type GradingEntry } from '../../src/index.js'

export const example = (name: 'grading-autonomous' | 'grading-rejected'): GradingEntry =>
    JSON.parse(readFileSync(new URL(`../fixtures/entries/valid/${name}.json`, import.meta.url), 'utf8')) as GradingEntry

export const script = { kind: 'script', name: 'single-schema-validator', version: '0.1.0' } as const
export const llm = { kind: 'llm', name: 'claude-opus-4-7', version: '1m' } as const
export const context = { groupId: 'crypto', personaIds: ['decision-maker'] }

/** A deterministic script answer. */
export function det(
    questionId: string,
    score: GradingAnswer['score'],
    extra: Partial<GradingAnswer> = {}
): GradingAnswer {
    return {
        questionId,
        score,
        weight: 1,
        determinism: 'deterministic',
        graderIdentity: script,
        timestamp: '2026-05-29T10:00:00Z',
        ...extra
    } as GradingAnswer
}

/** A non-deterministic LLM answer. */
export function nd(
    questionId: string,
    score: GradingAnswer['score'],
    extra: Partial<GradingAnswer> = {}
): GradingAnswer {
    return {
        questionId,
        score,
        weight: 1,
        determinism: 'non-deterministic',
        graderIdentity: llm,
        llmModel: 'claude-opus-4-7',
        selectionContext: context,
        timestamp: '2026-05-29T10:00:00Z',
        reasoning: 'Scored against the question text.',
        ...extra
    } as GradingAnswer
}

/** The autonomous example with other answers. */
export function withAnswers(gradings: GradingAnswer[], extra: Partial<GradingEntry> = {}): GradingEntry {
    return { ...example('grading-autonomous'), gradings, ...extra } as GradingEntry
}

/**
 * A full entry as the library writes it for `area`: every catalogue question answered, the
 * deterministic ones by a script, the rest by an LLM (Grading.createEntry computes the grade).
 */
export function catalogueEntry(area: Area = 'single-test', score = 4): GradingEntry {
    const questions = questionsOf(area)
    const on = (q: (typeof questions)[number]): GradingAnswer['score'] => (q.scoreType === 'boolean' ? 'pass' : score)
    const gradings = questions.map((q) =>
        q.determinism === 'deterministic'
            ? det(q.id, on(q), { weight: q.weight })
            : nd(q.id, on(q), { weight: q.weight })
    )
    const tier = AREA_CATALOGUE[area].tier
    const extra = {
        ...(tier === 'group-bound' ? { selectionId: 'crypto' } : {}),
        ...(AREA_CATALOGUE[area].personaRequired
            ? { persona: { basePersonaId: 'decision-maker', lensId: 'crypto' } }
            : {}),
        ...(AREA_CATALOGUE[area].perSkill ? { skillId: 'balance-lookup' } : {}),
        ...(AREA_CATALOGUE[area].aboutHashRequired ? { aboutHash: 'b1c2d3e4' } : {})
    }
    const schemaId = tier === 'group-bound' ? 'crypto.crypto' : 'etherscan.getBalance'
    const { entry, errors } = Grading.createEntry({
        schemaId,
        area,
        version: 'flowmcp/4.0.0',
        schemaHash: 'a1b2c3d4',
        gradingMode: 'full',
        now: '2026-05-29T10:00:00Z',
        gradings,
        ...extra
    } as CreateEntryInput)
    if (entry === null || entry.aggregateGrade === null)
        throw new Error(`test setup: no entry for ${area}: ${JSON.stringify(errors)}`)
    return entry as GradingEntry
}
