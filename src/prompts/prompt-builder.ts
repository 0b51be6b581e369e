import { AREA_CATALOGUE, isArea } from '../areas/catalogue.js'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { resolveLimits, type JsonLimits } from '../json/guard.js'
import { AREAS, type Area } from '../model/constants.js'
import {
    buildAreaPrompt,
    buildEntryPointPrompt,
    catalogueQuestions,
    type AreaPromptInput,
    type AreaPromptMetadata,
    type EntryPointInput
} from './compose.js'
import { emitAreaPrompts, type EmitInput, type EmitState, type PromptsV2 } from './emit.js'
import { buildGoalBlock, type GoalBlock } from './goal-block.js'
import { payloadToAreaOutputs, type PayloadEnvelope, type PayloadOutput } from './payload.js'
import {
    auditTranscript,
    formatSurfacingLine,
    parseSurfacingLine,
    type SurfacingEvent,
    type TranscriptAudit
} from './surfacing.js'
import { validatePromptsV2Doc, verifyScoresPayload, type VerifyResult } from './verify.js'
import { guardStatics } from '../errors/guard.js'

/**
 * Builds everything the harness reads (04 §3–§6, 05 §1.6): the entry-point prompt, area prompts
 * with their Goal-Block, the `[GRADING]` surfacing lines, prompts.json v2 with its state.json
 * baton; and checks what comes back (surfacing transcripts, scores payloads). Pure; secrets are
 * redacted from every prompt (see `Redact`).
 */
class PromptBuilderUnguarded {
    private constructor() {}

    /**
     * The entry-point prompt that starts a grading run after `/clear` (chapter 20).
     * @param input - `{ kind: 'selection' | 'single', persona, selection?: { selectionId, selectionHash, personaIds },
     *   schemaId?, gradingMode, modeNote?, areas, serverParams? }`
     * @returns `{ prompt, errors }`; PB-001/002/003 bad arguments, PB-004 unknown area, PB-015 area of the other side,
     *   PB-016 repeated area, PB-006 bad persona, PB-017 selection persona not in `personaIds`, PB-WARN-004 single run
     *   without persona.
     * @example
     * PromptBuilder.buildEntryPointPrompt({
     *     kind: 'single',
     *     persona: 'schema-maintainer',
     *     schemaId: 'etherscan.getContract',
     *     gradingMode: 'full',
     *     areas: ['single-test']
     * }).prompt
     */
    static buildEntryPointPrompt(input: EntryPointInput): { prompt: string | null; errors: Issue[] } {
        return buildEntryPointPrompt(input ?? {})
    }

    /**
     * One area prompt: persona, files to read first (with the blocker shortcut), policies,
     * predecessor grades, the area's questions, the binding output schema and the Goal-Block.
     * Deterministic questions code has answered go in `answeredByCode` instead of `questions`: they
     * are not asked, and the prompt names them as answered by code.
     * @param input - `{ area, persona?, files, questions, answeredByCode?, outputSchema, policies, predecessorGrades?,
     *   goal?, serverParams? }`
     * @returns `{ prompt, metadata, errors }`; PB-001..006 bad arguments, PB-005 persona missing for a persona-bound
     *   area, PB-007/008 goal limits, PB-009 questions (with `answeredByCode`) not the area's catalogue, or a
     *   non-deterministic question in `answeredByCode`, PB-WARN-001 redacted secrets.
     * @example
     * PromptBuilder.buildAreaPrompt({
     *     area: 'single-test',
     *     files,
     *     questions: PromptBuilder.questionsFor({ area: 'single-test' }).questions,
     *     outputSchema,
     *     policies: []
     * }).prompt
     */
    static buildAreaPrompt(input: AreaPromptInput): {
        prompt: string | null
        metadata: AreaPromptMetadata | null
        errors: Issue[]
    } {
        return buildAreaPrompt(input ?? {})
    }

    /**
     * The Goal-Block: `<condition> — or stop after <N> turns.` (N defaults to 25) plus the surfacing rules.
     * @param input - `{ condition?, area?, maxTurns? }`
     * @returns `{ goalBlock, condition, conditionLength, maxTurns, errors }`; PB-002/003 bad condition, PB-004 unknown
     *   area, PB-007 condition over 4000 characters (suffix included), PB-008 bad maxTurns.
     * @example
     * PromptBuilder.buildGoalBlock({ condition: 'Grade demoapi', maxTurns: 7 }).condition
     * // 'Grade demoapi — or stop after 7 turns.'
     */
    static buildGoalBlock(input: { condition?: unknown; area?: unknown; maxTurns?: unknown } = {}): GoalBlock {
        return buildGoalBlock(input?.condition, input?.area, input?.maxTurns)
    }

    /**
     * The eleven area ids, in spec order.
     * @returns `{ areas }` — a copy.
     * @example PromptBuilder.getValidAreas().areas.length // 11
     */
    static getValidAreas(): { areas: Area[] } {
        return { areas: [...AREAS] }
    }

    /**
     * Whether an area needs a persona (`about-*`, `*-skills`, `selection-aggregate`).
     * @param input - `{ area }`
     * @returns `{ personaRequired, errors }`; PB-001 missing area, PB-004 unknown area (then `personaRequired` is
     *   null).
     * @example PromptBuilder.isPersonaRequired({ area: 'about-namespace' }).personaRequired // true
     */
    static isPersonaRequired(input: { area?: unknown }): { personaRequired: boolean | null; errors: Issue[] } {
        const area = input?.area
        if (area === undefined)
            return { personaRequired: null, errors: [createIssue('PB-001', '/area', { field: 'area' })] }
        if (!isArea(area))
            return {
                personaRequired: null,
                errors: [createIssue('PB-004', '/area', { value: describeValue(area), expected: AREAS.join(', ') })]
            }
        return { personaRequired: AREA_CATALOGUE[area].personaRequired, errors: [] }
    }

    /**
     * The catalogue questions of an area as `{ id, question }`, ready for {@link PromptBuilder.buildAreaPrompt}.
     * @param input - `{ area }`
     * @returns `{ questions, errors }`; PB-001/PB-004 for a missing or unknown area.
     * @example PromptBuilder.questionsFor({ area: 'single-test' }).questions[0]?.id // 'Q-single-test-01'
     */
    static questionsFor(input: { area?: unknown }): {
        questions: Array<{ id: string; question: string }>
        errors: Issue[]
    } {
        const { personaRequired, errors } = PromptBuilder.isPersonaRequired(input)
        return personaRequired === null
            ? { questions: [], errors }
            : { questions: catalogueQuestions(input.area as Area), errors }
    }

    /**
     * Formats one `[GRADING]` line: `area=<area>/<target> schema-valid=✓ status=<status> written=✓`,
     * `PROGRESS <done>/<total>` or `DONE`.
     * @param input - `{ kind: 'area', area, target, schemaValid, status, written }`, `{ kind: 'progress', done, total
     *   }` or `{ kind: 'done' }`; `marker: 'ascii'` writes ok/fail instead of ✓/✗
     * @returns `{ line, errors }`; PB-001/002/003 bad fields, PB-004 unknown area, PB-012 bad status, PB-013 done >
     *   total.
     * @example
     * PromptBuilder.formatSurfacingLine({ kind: 'progress', done: 7, total: 12 }).line // '[GRADING] PROGRESS 7/12'
     */
    static formatSurfacingLine(input: Record<string, unknown>): { line: string | null; errors: Issue[] } {
        return formatSurfacingLine(input ?? {})
    }

    /**
     * Parses one `[GRADING]` line against the exact grammar (04 §6); anything else is rejected.
     * @param input - `{ line }`
     * @returns `{ event, errors }`; PB-010 not the grammar, PB-011 unknown area, PB-012 bad status, PB-013 done >
     *   total.
     * @example PromptBuilder.parseSurfacingLine({ line: '[GRADING] DONE' }).event // { kind: 'done' }
     */
    static parseSurfacingLine(input: { line?: unknown }): { event: SurfacingEvent | null; errors: Issue[] } {
        return parseSurfacingLine(input?.line)
    }

    /**
     * Audits the `[GRADING]` lines of a whole transcript, so a host can check a run without the evaluator.
     * @param input - `{ text, expectedTotal? }`
     * @returns `{ events, progress, complete, errors }` with paths `/lines/<index>`; the codes of {@link
     *   PromptBuilder.parseSurfacingLine}, PB-013 progress that changes total or goes back, PB-014 a misplaced or
     *   repeated DONE, PB-WARN-003 an area line without PROGRESS, INP-003 a transcript over the size limit.
     * @example PromptBuilder.auditTranscript({ text: transcript }).complete
     */
    static auditTranscript(input: { text?: unknown; expectedTotal?: unknown }): TranscriptAudit {
        return auditTranscript(input?.text, input?.expectedTotal)
    }

    /**
     * The prompts.json v2 object (and the state.json baton) of one emit (05 §1.6): target, flow, tier, max grade,
     * task id, goal, composed or deferred areas, skipped and gated areas, payload skeleton.
     * @param input - see {@link EmitInput}; `now` stamps the state only
     * @returns `{ prompts, state, errors }`; PB-001..009, PB-015 area of the other flow, PB-016 an area listed twice,
     *   PB-018 request data in pretests, NA-001 bad skip reason, TID-*, PB-WARN-001/002 warnings.
     * @example
     * PromptBuilder.emitAreaPrompts({
     *     target: 'demoapi',
     *     flow: 'provider',
     *     areas: ['single-test'],
     *     counts: { tools: 3 },
     *     now
     * }).prompts?.taskId
     */
    static emitAreaPrompts(input: EmitInput): { prompts: PromptsV2 | null; state: EmitState | null; errors: Issue[] } {
        return emitAreaPrompts(input ?? {})
    }

    /**
     * Validates a prompts.json v2 document against `schemas/prompts-v2.schema.json`.
     * @param input - `{ prompts, limits? }` — a value or JSON text
     * @returns `{ valid, prompts, errors }`; PB-024 with paths under `/prompts`, INP-* size and depth.
     * @example PromptBuilder.validatePromptsV2({ prompts: text }).valid
     */
    static validatePromptsV2(input: { prompts?: unknown; limits?: Partial<JsonLimits> }): {
        valid: boolean
        prompts: PromptsV2 | null
        errors: Issue[]
    } {
        return validatePromptsV2Doc(input?.prompts, resolveLimits(input?.limits))
    }

    /**
     * Verifies a scores payload against the open emit, with the CLI's checks in the CLI's order.
     * @param input - `{ prompts, state, scores, limits? }`; each a value or JSON text
     * @returns `{ accepted, legacy, acceptedAreas, missingAreas, taskComplete, payload, errors }`; PB-019 scores not an
     *   array, PB-020 no open emit, TID-008 unknown taskId, PB-021 area not in the emitted set, PB-022 per-area
     *   question-count mismatch, PB-023 an answer that is not 1–5 or "n/a", ARE-007 a question of another area,
     *   PB-024/025/026 malformed documents.
     * @example PromptBuilder.verifyScoresPayload({ prompts, state, scores }).taskComplete
     */
    static verifyScoresPayload(input: {
        prompts?: unknown
        state?: unknown
        scores?: unknown
        limits?: Partial<JsonLimits>
    }): VerifyResult {
        return verifyScoresPayload(input?.prompts, input?.state, input?.scores, resolveLimits(input?.limits))
    }

    /**
     * Turns the results of one accepted payload area into area output envelopes for `Areas.toGradingEntry`.
     * @param input - `{ area, results, envelope: { schemaHash, timestamp, iteration, persona?, improvementHints? },
     *   defaultNaReason?, limits? }`
     * @returns `{ outputs: [{ tool, output }], errors }`; PB-023 bad answer, PB-026 bad result, NA-001 n/a without a
     *   reason, ARE-009/010, GRD-030/031 bad envelope, plus the area output codes for missing or surplus questions.
     * @example PromptBuilder.payloadToAreaOutputs({ area: 'single-test', results, envelope }).outputs[0]?.output
     */
    static payloadToAreaOutputs(input: {
        area?: unknown
        results?: unknown
        envelope?: PayloadEnvelope | unknown
        defaultNaReason?: unknown
        limits?: Partial<JsonLimits>
    }): { outputs: PayloadOutput[]; errors: Issue[] } {
        return payloadToAreaOutputs(
            input?.area,
            input?.results,
            input?.envelope,
            input?.defaultNaReason,
            resolveLimits(input?.limits)
        )
    }
}

/**
 * The public PromptBuilder: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const PromptBuilder = /* @__PURE__ */ guardStatics(PromptBuilderUnguarded, 'PromptBuilder')
