// The calls the recorded argument-check tables share (test/validation/arg-checks-table*.test.ts): a run's start and
// an entry-point prompt, an emission of area prompts, each from a base input a row overrides.
import type { Issue } from '../../src/errors/types.js'
import { startRun } from '../../src/grade/run-input.js'
import type { GradeSingleSchemaInput } from '../../src/grade/types.js'
import { PromptBuilder } from '../../src/index.js'

export const NOW = '2026-05-31T11:00:00Z'

export const grader = { name: 'g', version: '1', llmModel: 'm', persona: 'p' }
export const runBase = { schemaPath: 'demo.mjs', grader, options: { now: NOW, answers: {} } }

/** The argument checks of a schema run (`gradeSingleSchema`'s start stage) for `input`. */
export function start(input: unknown): Issue[] {
    const errors: Issue[] = []
    startRun(input as GradeSingleSchemaInput, errors)
    return errors
}

const emitBase = {
    target: 'demoapi',
    flow: 'provider',
    areas: ['single-test', 'tools-aggregate-schema'],
    counts: { tools: 2, schemas: 1 },
    now: NOW,
    files: { schemaPath: '/island/providers/demoapi/demoapi/schema/demoapi.mjs' }
}

/** `PromptBuilder.emitAreaPrompts`' issues for its base input with `over` in place. */
export const emit = (over: Record<string, unknown>): readonly Issue[] =>
    PromptBuilder.emitAreaPrompts({ ...emitBase, ...over }).errors

export const entryBase = {
    kind: 'selection',
    persona: { basePersonaId: 'decision-maker', lensId: 'crypto-trader' },
    selection: { selectionId: 'crypto-domain-full', selectionHash: '7c1e0b9a', personaIds: ['crypto-trader'] },
    gradingMode: 'full',
    areas: ['about-selection', 'selection-aggregate']
}

/** `PromptBuilder.buildEntryPointPrompt`'s issues for its base input with `over` in place. */
export const entry = (over: Record<string, unknown>): readonly Issue[] =>
    PromptBuilder.buildEntryPointPrompt({ ...entryBase, ...over }).errors
