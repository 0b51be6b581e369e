import { Areas, type GradingContext, type DeterministicAnswer } from '../../src/index.js'

/** A complete context for converting an area output of the fixtures into an entry. */
export function standardContext(area: string, output: unknown): GradingContext {
    const d = Areas.get({ area }).area
    const o = (output ?? {}) as { schemaHash?: string; persona?: { basePersonaId: string; lensId: string } | null }
    const persona = o.persona ?? undefined
    return {
        schemaId: 'coingecko-com.market-chart',
        version: 'flowmcp/4.2.0',
        schemaHash: typeof o.schemaHash === 'string' ? o.schemaHash : '3f9a1c2e',
        gradingMode: 'full',
        now: '2026-05-31T11:06:00Z',
        grader: { name: 'claude-opus-4-7', version: '1M' },
        llmModel: 'claude-opus-4-7',
        scriptGrader: { name: 'flowmcp-grading', version: '0.1.0' },
        selectionContext: { groupId: 'crypto', personaIds: [persona?.basePersonaId ?? 'schema-maintainer'] },
        ...(d?.tier === 'group-bound' ? { selectionId: 'crypto-domain-full' } : {}),
        ...(d?.perSkill === true ? { skillId: 'crypto-price-entry' } : {}),
        ...(d?.aboutHashRequired === true ? { aboutHash: '0a1b2c3d' } : {}),
        ...(d?.personaRequired === true && persona !== undefined
            ? { persona: persona as GradingContext['persona'] & object }
            : {})
    }
}

/** Code answers for every deterministic question of an area: all pass. */
export function codeAnswers(area: string): DeterministicAnswer[] {
    return (Areas.get({ area }).area?.deterministicQuestionIds ?? []).map((questionId) => ({
        questionId,
        score: 'pass',
        reasoning: 'computed by the deterministic pretest',
        evidence: { source: 'pretest' }
    }))
}

const LENSES: Record<string, [string, string]> = {
    'namespace-skills': ['schema-maintainer', 'documentation-dx-reviewer'],
    'about-namespace': ['decision-maker', 'crypto-trader'],
    'about-selection': ['decision-maker', 'crypto-trader'],
    'selection-skills-L1': ['ai-engineer', 'agent-builder'],
    'selection-skills-L2': ['hackathon-builder', 'weekend-prototype'],
    'selection-skills-L3': ['decision-maker', 'mobility-planner'],
    'selection-aggregate': ['decision-maker', 'crypto-trader']
}

/** A valid area output for any area: booleans pass, scales 4. */
export function validOutput(area: string, over: Record<string, unknown> = {}): Record<string, unknown> {
    const p = LENSES[area]
    return {
        gradingId: '3f9a1c2e--2026-05-31T11-05-00Z',
        schemaHash: '3f9a1c2e',
        area,
        iteration: 1,
        timestamp: '2026-05-31T11:05:00Z',
        persona: p === undefined ? null : { basePersonaId: p[0], lensId: p[1] },
        answers: Areas.questions({ area }).questions.map((q) => ({
            questionId: q.id,
            score: q.scoreType === 'boolean' ? 'pass' : 4,
            reasoning: `reason for ${q.id}`
        })),
        improvementHints: [],
        harness: 'claude-code',
        ...over
    }
}
