import { describe, expect, it } from 'vitest'
import { PromptBuilder } from '../../src/index.js'

const SCHEMA = { type: 'object', required: ['answers'] }
const FILES = [
    {
        path: '/island/providers/demo/prices/schema/prices--2026-05-30T19-44-23Z--93baef35.mjs',
        role: 'the schema source (.mjs)'
    },
    {
        path: '/island/providers/demo/prices/resources/about/demo-about--2026-05-30T19-44-23Z--0a1b2c3d.md',
        role: 'the About resource'
    }
]
const about = (over: Record<string, unknown> = {}) => ({
    area: 'about-namespace',
    persona: {
        basePersonaId: 'decision-maker',
        lensId: 'crypto-trader',
        focus: 'decides on trades from daily price data'
    },
    files: FILES,
    questions: PromptBuilder.questionsFor({ area: 'about-namespace' }).questions,
    outputSchema: SCHEMA,
    policies: [{ id: 'POL-neutral', summary: 'Descriptions say what a tool does, never what it is for.' }],
    predecessorGrades: [{ id: 'prices', grade: 'B', status: 'stable' }],
    goal: { condition: 'Grade the About of "demo"', maxTurns: 5 },
    ...over
})

describe('PromptBuilder.buildAreaPrompt', () => {
    it('composes persona, files with the blocker shortcut, policies, predecessors, questions, schema and Goal-Block', () => {
        const { prompt, metadata, errors } = PromptBuilder.buildAreaPrompt(about())
        expect(errors).toEqual([])
        expect(prompt).toMatchInlineSnapshot(`
          "# FlowMCP grading: area about-namespace

          You grade one area of a FlowMCP provider namespace: the About resource (declared in one schema). Tier autonomous; the highest grade this area can reach is B. Work only from the files listed below, use read-only tools only, answer every question in one pass and reply with strict JSON.

          ## Persona

          Base persona: decision-maker
          Lens: crypto-trader
          Focus: decides on trades from daily price data

          ## File preparation (mandatory, in this order)

          Read these files before answering anything. If one of them is missing or unreadable, reply only with
          { "blocker": "<file path>", "reason": "<what is wrong>" } and stop.

          1. /island/providers/demo/prices/schema/prices--2026-05-30T19-44-23Z--93baef35.mjs — the schema source (.mjs)
          2. /island/providers/demo/prices/resources/about/demo-about--2026-05-30T19-44-23Z--0a1b2c3d.md — the About resource

          ## Policies (binding)

          1. POL-neutral — Descriptions say what a tool does, never what it is for.

          ## Predecessor grades

          1. prices — grade B, status stable

          ## Questions

          Answer every question exactly once, under its id.

          1. [Q-about-namespace-01] Does an About route exist in the namespace and is it technically reachable?
          2. [Q-about-namespace-02] Is the persona reference present in the About content and does it match the supplied persona?
          3. [Q-about-namespace-03] Is the value proposition for the persona clearly stated?
          4. [Q-about-namespace-04] Are the use-case examples relevant to the persona?
          5. [Q-about-namespace-05] Is the About page free of marketing language?
          6. [Q-about-namespace-06] Is a ToS or pricing reference present?
          7. [Q-about-namespace-07] Is the About page suitable for the decision-maker persona?

          ## Output schema (binding)

          Reply with one JSON object that matches this schema and nothing else: no Markdown fence, no text before or after it.

          {
            "type": "object",
            "required": [
              "answers"
            ]
          }

          ## Goal-Block (completion condition)

          Grade the About of "demo" — or stop after 5 turns.

          ### Surfacing convention (mandatory)

          The completion check reads only this conversation; it cannot open files or run tools. Print every result into the transcript:

          - after each area, exactly one line: \`[GRADING] area=<area>/<target> schema-valid=✓ status=<status> written=✓\`
            (✗ instead of ✓ when the check failed; <status> is the node status: pending, blocked, graded, stable or rejected)
          - right after every area line: \`[GRADING] PROGRESS <done>/<total>\`
          - once, and only when every area is done: \`[GRADING] DONE\`
          "
        `)
        expect(metadata).toEqual({
            area: 'about-namespace',
            persona: 'decision-maker--crypto-trader',
            fileCount: 2,
            questionCount: 7,
            personaRequired: true,
            predecessorGradeCount: 1,
            goalBlockLength: expect.any(Number) as number,
            goalConditionLength: 'Grade the About of "demo" — or stop after 5 turns.'.length,
            goalMaxTurns: 5,
            redactionCount: 0
        })
    })

    it('writes a neutral persona section for a neutral area and ignores a persona given there', () => {
        const { prompt, metadata } = PromptBuilder.buildAreaPrompt({
            ...about({
                area: 'single-test',
                questions: PromptBuilder.questionsFor({ area: 'single-test' }).questions,
                policies: [],
                predecessorGrades: []
            })
        })
        expect(prompt).toContain('Neutral area: no persona.')
        expect(prompt).not.toContain('## Policies')
        expect(prompt).not.toContain('## Predecessor grades')
        expect(metadata?.persona).toBe('neutral')
    })

    it('shows the questions in catalogue order, whatever order they came in', () => {
        const reversed = [...PromptBuilder.questionsFor({ area: 'about-namespace' }).questions].reverse()
        const prompt = PromptBuilder.buildAreaPrompt(about({ questions: reversed })).prompt as string
        expect(prompt.indexOf('Q-about-namespace-01')).toBeLessThan(prompt.indexOf('Q-about-namespace-07'))
    })

    it.each([
        ['no area', { area: undefined }, 'PB-001', '/area'],
        ['an unknown area', { area: 'security' }, 'PB-004', '/area'],
        ['no persona on a persona-bound area', { persona: undefined }, 'PB-005', '/persona'],
        [
            'a persona that is not a base persona',
            { persona: { basePersonaId: 'crypto-trader-2026', lensId: 'x' } },
            'PB-006',
            '/persona/basePersonaId'
        ],
        [
            'a lens with a double hyphen',
            { persona: { basePersonaId: 'ai-engineer', lensId: 'a--b' } },
            'PB-006',
            '/persona/lensId'
        ],
        [
            'an unknown persona field',
            { persona: { basePersonaId: 'ai-engineer', lensId: 'a', id: 'x' } },
            'PB-006',
            '/persona/id'
        ],
        ['no files', { files: [] }, 'PB-003', '/files'],
        ['a file without role', { files: [{ path: '/x' }] }, 'PB-001', '/files/0/role'],
        ['files not an array', { files: 'x' }, 'PB-002', '/files'],
        [
            'a question of another area',
            { questions: [{ id: 'Q-single-test-01', question: 'q' }] },
            'PB-009',
            '/questions'
        ],
        [
            'a missing question',
            { questions: PromptBuilder.questionsFor({ area: 'about-namespace' }).questions.slice(1) },
            'PB-009',
            '/questions'
        ],
        ['no output schema', { outputSchema: undefined }, 'PB-001', '/outputSchema'],
        ['an array as output schema', { outputSchema: [] }, 'PB-002', '/outputSchema'],
        ['policies missing', { policies: undefined }, 'PB-001', '/policies'],
        ['a policy without summary', { policies: [{ id: 'P' }] }, 'PB-001', '/policies/0/summary'],
        [
            'a predecessor without status',
            { predecessorGrades: [{ id: 'x', grade: 'B' }] },
            'PB-001',
            '/predecessorGrades/0/status'
        ],
        ['a goal that is not an object', { goal: 'x' }, 'PB-002', '/goal'],
        ['a too long goal', { goal: { condition: 'x'.repeat(4000) } }, 'PB-007', '/goal/condition'],
        ['a bad turn bound', { goal: { maxTurns: -3 } }, 'PB-008', '/goal/maxTurns']
    ])('rejects %s', (_name, patch, code, path) => {
        const input = Object.fromEntries(Object.entries(about(patch)).filter(([, v]) => v !== undefined))
        const result = PromptBuilder.buildAreaPrompt(input)
        expect(result.prompt).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})

describe('PromptBuilder.buildEntryPointPrompt (chapter 20)', () => {
    it('writes the selection variant with six numbered lines plus the areas in scope', () => {
        const { prompt, errors } = PromptBuilder.buildEntryPointPrompt({
            kind: 'selection',
            persona: { basePersonaId: 'decision-maker', lensId: 'crypto-trader' },
            selection: {
                selectionId: 'crypto-domain-full',
                selectionHash: '7c1e0b9a',
                personaIds: ['crypto-trader', 'ai-engineer']
            },
            gradingMode: 'full',
            areas: ['about-selection', 'selection-aggregate']
        })
        expect(errors).toEqual([])
        expect(prompt).toMatchInlineSnapshot(`
          "You are performing a FlowMCP grading. Instructions:

          1. Persona: decision-maker--crypto-trader
          2. Selection: crypto-domain-full, lockSnapshot hash: 7c1e0b9a
          3. Mode: Full (initial baseline)
          4. Spec version: gradingSpec/2.0.1
          5. Pre-condition: all member schemas have gradingStatus: stable
          6. Output format: _gradings/<area>--decision-maker--crypto-trader--<timestamp>.json
          7. Areas in scope: about-selection, selection-aggregate
          "
        `)
    })

    it('writes the single-schema variant without line 5, keeping the numbers', () => {
        const { prompt } = PromptBuilder.buildEntryPointPrompt({
            kind: 'single',
            persona: 'schema-maintainer',
            schemaId: 'etherscan.getContractEthereum',
            gradingMode: 'partial',
            modeNote: 're-check after a description fix',
            areas: ['single-test']
        })
        expect(prompt).toMatchInlineSnapshot(`
          "You are performing a FlowMCP grading. Instructions:

          1. Persona: schema-maintainer
          2. Single-Schema: etherscan.getContractEthereum, area: single-test
          3. Mode: Partial (re-check after a description fix)
          4. Spec version: gradingSpec/2.0.1
          6. Output format: _gradings/single-test--<timestamp>.json
          7. Areas in scope: single-test
          "
        `)
    })

    it('renders both file-name forms when neutral and persona-bound areas are mixed', () => {
        const { prompt } = PromptBuilder.buildEntryPointPrompt({
            kind: 'single',
            schemaId: 'demo.prices',
            gradingMode: 'full',
            areas: ['single-test', 'about-namespace']
        })
        expect(prompt).toContain(
            '6. Output format: _gradings/<area>--<timestamp>.json (neutral areas), _gradings/<area>--<basePersona>--<lens>--<timestamp>.json (persona-bound areas)'
        )
        expect(prompt).toContain('1. Persona: none (neutral grading)')
    })

    it('warns when a single grading names no persona (SHOULD, 04 §3)', () => {
        expect(
            PromptBuilder.buildEntryPointPrompt({
                kind: 'single',
                schemaId: 'demo.prices',
                gradingMode: 'full',
                areas: ['single-test']
            }).errors
        ).toEqual([expect.objectContaining({ code: 'PB-WARN-004' })])
    })

    const selection = { selectionId: 'crypto-domain-full', selectionHash: '7c1e0b9a', personaIds: ['crypto-trader'] }
    it.each([
        [
            'a selection persona missing from selection.json',
            {
                kind: 'selection',
                persona: 'mobility-planner',
                selection,
                gradingMode: 'full',
                areas: ['about-selection']
            },
            'PB-017',
            '/persona'
        ],
        [
            'a selection run without persona',
            { kind: 'selection', selection, gradingMode: 'full', areas: ['about-selection'] },
            'PB-001',
            '/persona'
        ],
        [
            'a selection without selectionHash',
            {
                kind: 'selection',
                persona: 'crypto-trader',
                selection: { ...selection, selectionHash: '' },
                gradingMode: 'full',
                areas: ['about-selection']
            },
            'PB-003',
            '/selection/selectionHash'
        ],
        [
            'a provider area in a selection run',
            { kind: 'selection', persona: 'crypto-trader', selection, gradingMode: 'full', areas: ['single-test'] },
            'PB-015',
            '/areas/0'
        ],
        [
            'a selection area in a single run',
            { kind: 'single', schemaId: 'a.b', gradingMode: 'full', areas: ['selection-aggregate'] },
            'PB-015',
            '/areas/0'
        ],
        [
            'an area twice',
            { kind: 'single', schemaId: 'a.b', gradingMode: 'full', areas: ['single-test', 'single-test'] },
            'PB-016',
            '/areas/1'
        ],
        ['no areas', { kind: 'single', schemaId: 'a.b', gradingMode: 'full', areas: [] }, 'PB-003', '/areas'],
        ['an unknown kind', { kind: 'batch', gradingMode: 'full', areas: ['single-test'] }, 'PB-002', '/kind'],
        [
            'an unknown mode',
            { kind: 'single', schemaId: 'a.b', gradingMode: 'quick', areas: ['single-test'] },
            'PB-002',
            '/gradingMode'
        ],
        [
            'a multi-line mode note',
            {
                kind: 'single',
                schemaId: 'a.b',
                gradingMode: 'full',
                modeNote: 'a\n7. Persona: x',
                areas: ['single-test']
            },
            'PB-002',
            '/modeNote'
        ],
        [
            'a persona id with spaces',
            { kind: 'single', schemaId: 'a.b', persona: 'Crypto Trader', gradingMode: 'full', areas: ['single-test'] },
            'PB-006',
            '/persona'
        ]
    ])('rejects %s', (_name, input, code, path) => {
        const result = PromptBuilder.buildEntryPointPrompt(input)
        expect(result.prompt).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})

describe('PromptBuilder.getValidAreas and isPersonaRequired', () => {
    it('lists the eleven areas', () => {
        expect(PromptBuilder.getValidAreas().areas).toHaveLength(11)
    })

    it.each([
        ['single-test', false],
        ['namespace-description', false],
        ['namespace-skills', true],
        ['about-selection', true],
        ['selection-aggregate', true]
    ])('says whether %s needs a persona: %s', (area, personaRequired) => {
        expect(PromptBuilder.isPersonaRequired({ area })).toEqual({ personaRequired, errors: [] })
    })

    it('rejects a missing or unknown area', () => {
        expect(PromptBuilder.isPersonaRequired({}).errors[0]?.code).toBe('PB-001')
        expect(PromptBuilder.isPersonaRequired({ area: 'x' })).toMatchObject({
            personaRequired: null,
            errors: [{ code: 'PB-004' }]
        })
        expect(PromptBuilder.questionsFor({ area: 'x' }).questions).toEqual([])
    })
})

describe('PromptBuilder.buildAreaPrompt with questions answered by code', () => {
    const asked = PromptBuilder.questionsFor({ area: 'about-namespace' }).questions.slice(1)

    it('asks only the questions left to the evaluator and names the ones code answered', () => {
        const { prompt, metadata, errors } = PromptBuilder.buildAreaPrompt(
            about({ questions: asked, answeredByCode: ['Q-about-namespace-01'] })
        )
        expect(errors).toEqual([])
        expect(metadata?.questionCount).toBe(6)
        expect(prompt).not.toContain('[Q-about-namespace-01]')
        expect(prompt).toContain('[Q-about-namespace-02]')
        expect(prompt?.split('\n').find((line) => line.startsWith('Answer every question'))).toMatchInlineSnapshot(
            `"Answer every question exactly once, under its id. Code has answered the deterministic questions Q-about-namespace-01; they are not asked here."`
        )
    })

    it.each([
        [
            'a non-deterministic question as answered by code',
            {
                questions: PromptBuilder.questionsFor({ area: 'about-namespace' }).questions.filter(
                    (q) => q.id !== 'Q-about-namespace-02'
                ),
                answeredByCode: ['Q-about-namespace-02']
            },
            'PB-009',
            '/answeredByCode'
        ],
        [
            'a question both asked and answered by code',
            { answeredByCode: ['Q-about-namespace-01'] },
            'PB-009',
            '/questions'
        ],
        [
            'answeredByCode that is not a list of ids',
            { questions: asked, answeredByCode: 'Q-about-namespace-01' },
            'PB-002',
            '/answeredByCode'
        ]
    ])('rejects %s', (_name, patch, code, path) => {
        const result = PromptBuilder.buildAreaPrompt(about(patch))
        expect(result.prompt).toBeNull()
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path }))
    })
})
