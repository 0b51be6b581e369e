import { readFileSync } from 'node:fs'
import type { GradingAnswer, GradingEntry } from '../../src/index.js'

export const example = (name: 'grading-autonomous' | 'grading-rejected'): GradingEntry =>
    JSON.parse(readFileSync(new URL(`../fixtures/entries/valid/${name}.json`, import.meta.url), 'utf8')) as GradingEntry

export const script = { kind: 'script', name: 'single-schema-validator', version: '0.1.0' } as const
export const llm = { kind: 'llm', name: 'claude-opus-4-7', version: '1m' } as const
export const context = { groupId: 'crypto', personaIds: ['decision-maker'] }

/** A deterministic script answer. */
export function det(questionId: string, score: GradingAnswer['score'], extra: Partial<GradingAnswer> = {}): GradingAnswer {
    return { questionId, score, weight: 1, determinism: 'deterministic', graderIdentity: script, timestamp: '2026-05-29T10:00:00Z', ...extra } as GradingAnswer
}

/** A non-deterministic LLM answer. */
export function nd(questionId: string, score: GradingAnswer['score'], extra: Partial<GradingAnswer> = {}): GradingAnswer {
    return { questionId, score, weight: 1, determinism: 'non-deterministic', graderIdentity: llm, llmModel: 'claude-opus-4-7', selectionContext: context, timestamp: '2026-05-29T10:00:00Z', reasoning: 'Scored against the question text.', ...extra } as GradingAnswer
}

/** The autonomous example with other answers. */
export function withAnswers(gradings: GradingAnswer[], extra: Partial<GradingEntry> = {}): GradingEntry {
    return { ...example('grading-autonomous'), gradings, ...extra } as GradingEntry
}
