// The argument checks as callers see them, for the entry points whose checks moved to valibot schemas after those
// of arg-checks-table.test.ts: the bad inputs that reached each old hand-written check and what came back (code,
// path, message). Each table was recorded on the hand-written checks before the move; the schemas keep it word for word.
import { readFileSync } from 'node:fs'
import { describe } from 'vitest'
import {
    Areas,
    checkSummaryMarkdown,
    createMemoryFs,
    gradeNamespace,
    gradeSelection,
    gradeTree,
    JudgeCost,
    RebuildIndex,
    renderIslandReport,
    Sarif,
    ScoringProtocol,
    Scoring,
    SelectionDefinition,
    StablePromotion,
    Standing
} from '../../src/index.js'
import { grader as judgeGrader } from '../grade/helpers.js'
import { codeAnswers, standardContext, validOutput } from '../areas/helpers.js'
import { EMIT, SCHEMA, SCHEMA_SOURCE, SCORES } from '../protocol/fixtures.js'
import type { Issue } from '../../src/errors/types.js'
import { BAD, recorded, recordedAsync, rows, table, type Row } from './arg-rows.js'

const selection = JSON.parse(
    readFileSync(new URL('../fixtures/selections/valid/defi-core.json', import.meta.url), 'utf8')
) as Record<string, unknown>
const validate = (over: Record<string, unknown>) =>
    SelectionDefinition.validate({ definition: { ...selection, ...over } }).errors
const primitive = {
    namespace: 'weather',
    name: 'weather-core',
    version: '4.0.0',
    description: 'Forecasts from several weather providers.',
    whenToUse: 'When a forecast must be cross-checked.',
    tools: ['openmeteo/tool/getForecast']
}
const primitiveBase = {
    primitive,
    toolSchemas: { 'openmeteo/tool/getForecast': 'openmeteo.forecast' },
    personaIds: ['decision-maker']
}
const fromPrimitive = (over: Record<string, unknown>) =>
    SelectionDefinition.fromPrimitive({ ...primitiveBase, ...over }).errors

const reportBase = {
    prompts: ScoringProtocol.emitPrompts(EMIT).prompts,
    scores: SCORES,
    schemaSource: SCHEMA_SOURCE,
    validation: { passed: true, errors: [] },
    now: '2026-05-18T03:16:00Z'
}
const report = (over: Record<string, unknown>) =>
    ScoringProtocol.buildReport({ ...reportBase, ...over } as never).errors
const context = { groupId: 'demo', personaIds: ['schema-maintainer'] }
const toAnswers = (over: Record<string, unknown>) =>
    ScoringProtocol.toGradingAnswers({ scores: SCORES, selectionContext: context, ...over } as never).errors

// A registry entry in the public registry's shape, and a library report built from the protocol fixtures.
const registry = {
    schemaId: 'brightsky/bright-sky',
    schemaPath: 'schemas/v4.0.0/providers/brightsky/bright-sky.mjs',
    grade: 'A',
    score: 4.75,
    date: '2026-05-18',
    scoringProtocol: 'v1',
    schemaHash: 'sha256:b61d1abce8f409502d8ebfafd40b40c33cb6e540d3805d1be13c61f62c1189f9',
    dimensions: [
        { dimension: 'whenToUse', score: 4.5 },
        { dimension: 'parameters', score: 5 }
    ],
    validationPassed: true
}
const library = ScoringProtocol.buildReport(reportBase as never).report as unknown as Record<string, unknown>
const validateReport = (report: Record<string, unknown>, over: Record<string, unknown>) =>
    ScoringProtocol.validateReport({ report: { ...report, ...over } }).errors
const grader = { name: 'registry', version: 'v1', llmModel: 'unknown' }
const toEntry = (over: Record<string, unknown>) =>
    ScoringProtocol.reportToGradingEntry({ report: registry, version: 'v4.0.0', grader, ...over } as never).errors

const call = { key: 'demo', messages: [{ role: 'user', content: 'Grade it.' }] }
const estimate = (over: Record<string, unknown>) => JudgeCost.estimate({ calls: [call], ...over } as never).errors

// An area with code-answered questions, so that the code answers are read.
const AREA = 'single-test'
const areaOutput = validOutput(AREA)
const firstCode = codeAnswers(AREA)[0] as unknown as Record<string, unknown>
const toGradingEntry = (deterministic: unknown) =>
    Areas.toGradingEntry({ output: areaOutput, deterministic, context: standardContext(AREA, areaOutput) }).errors
const validateOutput = (output: unknown) => Areas.validateOutput({ area: AREA, output }).errors
const areaAnswer = (over: Record<string, unknown>) => {
    const answers = areaOutput.answers as Array<Record<string, unknown>>
    return validateOutput({ ...areaOutput, answers: [{ ...answers[0], ...over }, ...answers.slice(1)] })
}

const TABLE: Record<string, Row[]> = {
    'SelectionDefinition.validate': [
        ...rows('input', (v) => SelectionDefinition.validate(v as never).errors),
        ...table(
            ['definition', 'selectionId'],
            (f, v) => SelectionDefinition.validate({ definition: selection, [f]: v }).errors
        ),
        ...table(
            [
                'selectionId',
                'namespace',
                'name',
                'version',
                'description',
                'whenToUse',
                'personaIds',
                'members',
                'skills',
                'resources',
                'prompts'
            ],
            (f, v) => validate({ [f]: v })
        ),
        ...rows('personaIds[0]', (v) => validate({ personaIds: [v] })),
        ...rows('personaIds[1]', (v) => validate({ personaIds: ['a', v, v] })),
        ...rows('members[0]', (v) => validate({ members: [v] })),
        ...rows('members[0].schemaId', (v) => validate({ members: [{ schemaId: v }] })),
        ...rows('members[0].override', (v) => validate({ members: [{ schemaId: 'a.b', override: v }] })),
        ...rows('members[0].override.name', (v) => validate({ members: [{ schemaId: 'a.b', override: { name: v } }] })),
        ...rows('skills[0]', (v) => validate({ skills: [v] })),
        ...rows('skills[0].file', (v) => validate({ skills: [{ file: v }] }))
    ],
    'SelectionDefinition.fromPrimitive': [
        ...rows('input', (v) => SelectionDefinition.fromPrimitive(v as never).errors),
        ...table(['primitive', 'toolSchemas', 'personaIds'], (f, v) => fromPrimitive({ [f]: v })),
        ...table(['namespace', 'name', 'version', 'description', 'whenToUse', 'tools', 'skills', 'prompts'], (f, v) =>
            fromPrimitive({ primitive: { ...primitive, [f]: v } })
        ),
        ...rows('tools[0]', (v) => fromPrimitive({ primitive: { ...primitive, tools: [v] } })),
        ...rows('toolSchemas[tool]', (v) => fromPrimitive({ toolSchemas: { 'openmeteo/tool/getForecast': v } })),
        ...rows('personaIds[0]', (v) => fromPrimitive({ personaIds: [v] }))
    ],
    'ScoringProtocol.buildEvalPrompts': [
        ...rows('input', (v) => ScoringProtocol.buildEvalPrompts(v as never).errors),
        ...table(
            ['schema', 'skill'],
            (f, v) => ScoringProtocol.buildEvalPrompts({ schema: SCHEMA, [f]: v } as never).errors
        )
    ],
    'ScoringProtocol.emitPrompts': [
        ...rows('input', (v) => ScoringProtocol.emitPrompts(v as never).errors),
        ...table(['schemaId', 'schemaPath'], (f, v) => ScoringProtocol.emitPrompts({ ...EMIT, [f]: v } as never).errors)
    ],
    'ScoringProtocol.buildReport': [
        ...rows('input', (v) => ScoringProtocol.buildReport(v as never).errors),
        ...table(['schemaSource', 'now', 'startedAt', 'validation'], (f, v) => report({ [f]: v })),
        ...table(['passed', 'errors'], (f, v) => report({ validation: { ...reportBase.validation, [f]: v } })),
        ...rows('validation.errors[0]', (v) => report({ validation: { passed: false, errors: [v] } }))
    ],
    'ScoringProtocol.slug and suggestedFileName': [
        ...rows('input', (v) => ScoringProtocol.slug(v as never).errors),
        ...rows('schemaId', (v) => ScoringProtocol.slug({ schemaId: v } as never).errors),
        ...rows('suggestedFileName input', (v) => ScoringProtocol.suggestedFileName(v as never).errors),
        ...table(
            ['schemaId', 'date'],
            (f, v) => ScoringProtocol.suggestedFileName({ schemaId: 'a/b', date: '2026-05-18', [f]: v } as never).errors
        ),
        ...rows('serialize value', (v) => ScoringProtocol.serialize({ value: v }).errors)
    ],
    'ScoringProtocol.toGradingAnswers': [
        ...rows('input', (v) => ScoringProtocol.toGradingAnswers(v as never).errors),
        ...table(['selectionContext', 'evidence'], (f, v) => toAnswers({ [f]: v })),
        ...table(['groupId', 'personaIds', 'domainDocId', 'extra'], (f, v) =>
            toAnswers({ selectionContext: { ...context, [f]: v } })
        ),
        ...rows('personaIds[0]', (v) => toAnswers({ selectionContext: { ...context, personaIds: [v] } }))
    ],
    'ScoringProtocol.validateReport': [
        ...rows('input', (v) => ScoringProtocol.validateReport(v as never).errors),
        ...table(['report', 'text'], (f, v) => ScoringProtocol.validateReport({ [f]: v }).errors),
        ...table(
            [
                'schemaId',
                'schemaPath',
                'grade',
                'score',
                'date',
                'scoringProtocol',
                'schemaHash',
                'validationPassed',
                'dimensions'
            ],
            (f, v) => validateReport(registry, { [f]: v })
        ),
        ...rows('dimensions[0]', (v) => validateReport(registry, { dimensions: [v] })),
        ...table(['schemaIdSlug', 'validationErrors', 'timestamps'], (f, v) => validateReport(library, { [f]: v }))
    ],
    'ScoringProtocol.reportToGradingEntry': [
        ...rows('input', (v) => ScoringProtocol.reportToGradingEntry(v as never).errors),
        ...table(['version', 'grader', 'now', 'personaIds'], (f, v) => toEntry({ [f]: v })),
        ...table(['name', 'version', 'llmModel'], (f, v) => toEntry({ grader: { ...grader, [f]: v } })),
        ...rows('personaIds[0]', (v) => toEntry({ personaIds: [v] }))
    ],
    'ScoringProtocol.validatePrompts and validateScores': [
        ...rows('validatePrompts input', (v) => ScoringProtocol.validatePrompts(v as never).errors),
        ...table(['prompts', 'text'], (f, v) => ScoringProtocol.validatePrompts({ [f]: v }).errors),
        ...rows('validateScores input', (v) => ScoringProtocol.validateScores(v as never).errors),
        ...table(['scores', 'text'], (f, v) => ScoringProtocol.validateScores({ [f]: v } as never).errors)
    ],
    'Areas.toGradingEntry (code answers)': [
        ...rows('deterministic', (v) => toGradingEntry(v)),
        ...rows('deterministic[0]', (v) => toGradingEntry([v])),
        ...table(['questionId', 'score', 'reasoning', 'evidence', 'timestamp'], (f, v) =>
            toGradingEntry([{ ...firstCode, [f]: v }])
        )
    ],
    'Areas.validateOutput': [
        ...rows('output', (v) => validateOutput(v)),
        ...table(['score', 'evidence'], (f, v) => areaAnswer({ [f]: v }))
    ],
    'Scoring.computeWeightedMean': [
        ...rows('input', (v) => Scoring.computeWeightedMean(v as never).errors),
        ...rows('gradings', (v) => Scoring.computeWeightedMean({ gradings: v }).errors),
        ...rows('gradings[0]', (v) => Scoring.computeWeightedMean({ gradings: [v] }).errors),
        ...rows(
            'gradings[1]',
            (v) =>
                Scoring.computeWeightedMean({ gradings: [{ score: 0, weight: 1 }, v, { score: 4, weight: -1 }] }).errors
        )
    ],
    'Rollup (Standing, RebuildIndex, StablePromotion)': [
        ...rows('Standing.ofSchemaNode node', (v) => Standing.ofSchemaNode({ node: v }).errors),
        ...rows('Standing.ofIndex index', (v) => Standing.ofIndex({ index: v }).errors),
        ...rows('Standing.compare after', (v) => Standing.compare({ after: v as never }).errors),
        ...rows('RebuildIndex.validateIndex index', (v) => RebuildIndex.validateIndex({ index: v }).errors),
        ...rows(
            'RebuildIndex.buildLockSnapshot index',
            (v) => RebuildIndex.buildLockSnapshot({ index: v, now: '2026-06-01T10:00:00Z' }).errors
        ),
        ...rows(
            'RebuildIndex.buildNamespaceIndex listing',
            (v) => RebuildIndex.buildNamespaceIndex({ listing: v, now: '2026-06-01T10:00:00Z' }).errors
        ),
        ...rows(
            'StablePromotion.checkEligibility entries',
            (v) => StablePromotion.checkEligibility({ entries: v, threshold: 'B' }).errors
        )
    ],
    'checkSummaryMarkdown and Sarif.fromFixItems': [
        ...rows('checkSummaryMarkdown input', (v) => checkSummaryMarkdown(v as never).errors),
        ...rows('checkSummaryMarkdown rows', (v) => checkSummaryMarkdown({ rows: v } as never).errors),
        ...rows(
            'checkSummaryMarkdown rows[1]',
            (v) => checkSummaryMarkdown({ rows: [{ schema: 's', failures: [], fixes: [] }, v, v] } as never).errors
        ),
        ...rows('Sarif.fromFixItems items', (v) => Sarif.fromFixItems({ items: v } as never).errors),
        ...rows('Sarif.fromFixItems tool', (v) => Sarif.fromFixItems({ items: [], tool: v } as never).errors)
    ],
    'JudgeCost.estimate': [
        ...rows('input', (v) => JudgeCost.estimate(v as never).errors),
        ...table(['calls', 'prices'], (f, v) => estimate({ [f]: v })),
        ...table(['input', 'output', 'cachedInput'], (f, v) => estimate({ prices: { [f]: v } })),
        ...rows('calls[0]', (v) => estimate({ calls: [v] })),
        ...rows('calls[1]', (v) => estimate({ calls: [call, v, call, v] })),
        ...rows('calls[0].messages', (v) => estimate({ calls: [{ key: 'k', messages: v }] }))
    ]
}

/** The async entry points of the grade runs: only their argument checks are reached (nothing to grade is given). */
async function gradeRuns(): Promise<Record<string, Row[]>> {
    const list: Row[] = []
    const add = async (name: string, run: (value: unknown) => Promise<readonly Issue[]>, only?: readonly string[]) => {
        for (const [label, value] of Object.entries(BAD).filter(([k]) => only === undefined || only.includes(k))) {
            const issues = (await run(value)).map(({ code, path, message }) => ({ code, path, message }))
            list.push({ case: `${name} = ${label}`, issues })
        }
    }
    const ns = { schemas: [], grader: judgeGrader, options: { now: '2026-11-24T10:00:00Z', answers: {} } }
    await add('gradeNamespace input', async (v) => (await gradeNamespace(v as never)).errors)
    await add('gradeNamespace options', async (v) => (await gradeNamespace({ ...ns, options: v } as never)).errors)
    await add('gradeNamespace schemas', async (v) => (await gradeNamespace({ ...ns, schemas: v } as never)).errors)
    await add('gradeNamespace schemas[0]', async (v) => (await gradeNamespace({ ...ns, schemas: [v] } as never)).errors)
    await add('gradeTree input', async (v) => (await gradeTree(v as never)).errors)
    await add('gradeTree options', async (v) => (await gradeTree({ root: '/src', options: v } as never)).errors)
    const namespaceRows = list.splice(0)
    // No `now`: every run stops at its argument checks, whatever the value tried (nothing is written or graded).
    const sel = { selectionId: 'demo-sel', schemaIds: ['demo.prices'], options: { fs: createMemoryFs(), root: '/i' } }
    const select = async (over: Record<string, unknown>) => (await gradeSelection({ ...sel, ...over } as never)).errors
    const option = (over: Record<string, unknown>) => select({ options: { ...sel.options, ...over } })
    await add('gradeSelection input', async (v) => (await gradeSelection(v as never)).errors)
    await add('gradeSelection selection', (v) => select({ selection: v }))
    await add('gradeSelection selectionId', (v) => select({ selectionId: v }))
    await add('gradeSelection options', (v) => select({ options: v }))
    for (const name of ['root', 'about', 'skills'])
        await add(`gradeSelection options.${name}`, (v) => option({ [name]: v }))
    await add('gradeSelection options.skills[0]', (v) => option({ skills: [v] }))
    await add('gradeSelection options.skills[1]', (v) =>
        option({ skills: [{ name: 'a', level: 'L1', text: 't' }, v, v] })
    )
    const selectionRows = list.splice(0)
    const fs = createMemoryFs()
    await add('renderIslandReport input', async (v) => (await renderIslandReport(v as never)).errors)
    await add('renderIslandReport fs', async (v) => (await renderIslandReport({ fs: v, root: '/i' } as never)).errors)
    await add('renderIslandReport root', async (v) => (await renderIslandReport({ fs, root: v } as never)).errors, [
        ...Object.keys(BAD).filter((k) => k !== 'string')
    ])
    return {
        'gradeNamespace and gradeTree': namespaceRows,
        gradeSelection: selectionRows,
        renderIslandReport: list
    }
}

describe('argument checks keep their codes, paths and messages (tables recorded on the hand-written checks)', () => {
    recorded(TABLE)
    recordedAsync(gradeRuns)
})
