// The argument checks as callers see them, continued (see arg-checks-table.test.ts): the last checks written
// `{ field, expected, actual: describeValue(x) }` — `now` of the index builders and of DeterministicAnswers, the
// trigger of a re-grading, the run header of an entry-point prompt, the per-unit counts of an emit, the schema of
// buildEvalPrompts. Recorded on the hand-written checks before their move to valibot schemas through parseArgs;
// the schemas keep what is recorded here.
import { describe } from 'vitest'
import { questionRows } from '../../src/deterministic/answers.js'
import type { Issue } from '../../src/errors/types.js'
import { createMemoryFs, DeterministicAnswers, Grading, RebuildIndex, ScoringProtocol } from '../../src/index.js'
import { BAD, recorded, recordedAsync, rows, type Row } from './arg-rows.js'
import { emit, entry, NOW } from './arg-calls.js'

const answersBase = { main: { namespace: 'demo', tools: {} }, questions: questionRows(), now: NOW }
const build = (over: Record<string, unknown>) => DeterministicAnswers.build({ ...answersBase, ...over } as never).errors
const nsBase = { schemas: [{ main: { tools: {} } }], questions: questionRows(), now: NOW }
const buildNamespace = (over: Record<string, unknown>) =>
    DeterministicAnswers.buildNamespace({ ...nsBase, ...over } as never).errors
const buildSelection = (over: Record<string, unknown>) =>
    DeterministicAnswers.buildSelection({ questions: questionRows(), now: NOW, ...over } as never).errors
const grader = (kind: unknown) => ({ kind, name: 'g', version: '1' })

const nsListing = { namespace: 'demo', schemas: [] }
const selListing = { selectionId: 'demo-sel', members: [] }
const index = { namespace: 'demo', status: 'stable', members: [] }

const oldEntry = { gradingId: 'abcd1234--2026-05-31T11-00Z', schemaHash: 'abcd1234', gradings: [] }
const regrade = (over: Record<string, unknown>) =>
    Grading.applyRegradingTrigger({ entry: oldEntry, triggeredBy: 'scheduled', now: NOW, ...over }).errors

const SCHEMA = { namespace: 'demo', description: 'd', tools: {} }
const evalPrompts = (input: Record<string, unknown>) => ScoringProtocol.buildEvalPrompts(input as never).errors

const TABLE: Record<string, Row[]> = {
    'PromptBuilder.buildEntryPointPrompt (run header)': [
        ...rows('kind, gradingMode', (v) => entry({ kind: v, gradingMode: v })),
        ...rows('kind, gradingMode, modeNote', (v) => entry({ kind: v, gradingMode: v, modeNote: v })),
        ...rows('gradingMode, modeNote', (v) => entry({ gradingMode: v, modeNote: v })),
        ...rows('kind single', (v) => entry({ kind: v, areas: ['single-test'], schemaId: 'demo.prices' }), [
            'string',
            'null'
        ])
    ],
    'PromptBuilder.emitAreaPrompts (counts)': [
        ...rows('counts.tools', (v) => emit({ counts: { tools: v, schemas: 1 } })),
        ...rows('counts.schemas', (v) => emit({ counts: { tools: 2, schemas: v } })),
        ...rows('counts.tools, counts.schemas', (v) => emit({ counts: { tools: v, schemas: v } })),
        ...rows('counts.tools, single-test only', (v) => emit({ areas: ['single-test'], counts: { tools: v } })),
        ...rows('counts.tools, no counts.schemas', (v) => emit({ counts: { tools: v } })),
        ...rows('counts.tools, counts.schemas, emitSkill', (v) =>
            emit({ counts: { tools: v, schemas: v }, emitSkill: v })
        )
    ],
    'DeterministicAnswers (now, grader.kind)': [
        ...rows('build now', (v) => build({ now: v })),
        ...rows('build now, questions', (v) => build({ now: v, questions: v })),
        ...rows('build now, grader', (v) => build({ now: v, grader: v })),
        ...rows('build grader.kind', (v) => build({ grader: grader(v) })),
        ...rows('build grader.kind llm', () => build({ grader: grader('llm') }), ['undefined']),
        ...rows('build now, grader.kind human', (v) => build({ now: v, grader: grader('human') })),
        ...rows('buildNamespace now', (v) => buildNamespace({ now: v })),
        ...rows('buildNamespace now, aboutFileExists', (v) => buildNamespace({ now: v, aboutFileExists: v })),
        ...rows('buildNamespace grader.kind human', (v) => buildNamespace({ now: v, grader: grader('human') })),
        ...rows('buildSelection now', (v) => buildSelection({ now: v })),
        ...rows('buildSelection now, aboutFileExists', (v) => buildSelection({ now: v, aboutFileExists: v })),
        ...rows('buildSelection grader.kind llm', (v) =>
            buildSelection({ now: v, grader: grader('llm'), aboutFileExists: true })
        )
    ],
    'RebuildIndex (now)': [
        ...rows(
            'buildNamespaceIndex now',
            (v) => RebuildIndex.buildNamespaceIndex({ listing: nsListing, now: v }).errors
        ),
        ...rows(
            'buildNamespaceIndex now, listing',
            (v) => RebuildIndex.buildNamespaceIndex({ listing: v, now: v }).errors
        ),
        ...rows(
            'buildNamespaceIndex file timestamp',
            (v) => RebuildIndex.buildNamespaceIndex({ listing: v, now: '2026-05-31T11-00-00Z' }).errors
        ),
        ...rows(
            'buildSelectionIndex now',
            (v) => RebuildIndex.buildSelectionIndex({ listing: selListing, now: v }).errors
        ),
        ...rows(
            'buildSelectionIndex now, listing',
            (v) => RebuildIndex.buildSelectionIndex({ listing: v, now: v }).errors
        ),
        ...rows('buildLockSnapshot now', (v) => RebuildIndex.buildLockSnapshot({ index, now: v }).errors),
        ...rows('buildLockSnapshot now, index', (v) => RebuildIndex.buildLockSnapshot({ index: v, now: v }).errors)
    ],
    'Grading.applyRegradingTrigger (triggeredBy, now)': [
        ...rows('triggeredBy', (v) => regrade({ triggeredBy: v })),
        ...rows('now', (v) => regrade({ now: v })),
        ...rows('triggeredBy, now', (v) => regrade({ triggeredBy: v, now: v })),
        ...rows('triggeredBy, now, no gradingId', (v) =>
            regrade({ entry: { ...oldEntry, gradingId: v }, triggeredBy: v, now: v })
        ),
        ...rows('now, user-report', (v) =>
            regrade({ triggeredBy: 'user-report', now: v, reportedIssue: v, requestedBy: v })
        ),
        ...rows('triggeredBy, case', () => regrade({ triggeredBy: 'Scheduled' }), ['undefined'])
    ],
    'ScoringProtocol.buildEvalPrompts (schema)': [
        ...rows('schema, skill', (v) => evalPrompts({ schema: v, skill: v })),
        ...rows('schema.description', (v) => evalPrompts({ schema: { ...SCHEMA, description: v } })),
        ...rows('schema, limits', (v) => evalPrompts({ schema: { a: [[[v]]] }, limits: { maxDepth: 2 } }))
    ]
}

/** The shells of the index rebuild: `now` checked with the port and the folder. */
async function rebuildRows(): Promise<Record<string, Row[]>> {
    const fs = createMemoryFs()
    const list: Row[] = []
    const push = (label: string, errors: readonly Issue[]) =>
        list.push({ case: label, issues: errors.map(({ code, path, message }) => ({ code, path, message })) })
    for (const [label, value] of Object.entries(BAD)) {
        const ns = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: '/island/providers/demo', now: value })
        push(`rebuildNamespaceIndex now = ${label}`, ns.errors)
        const bad = await RebuildIndex.rebuildNamespaceIndex({ fs: value, namespaceDir: value, now: value })
        push(`rebuildNamespaceIndex fs, namespaceDir, now = ${label}`, bad.errors)
        const sel = await RebuildIndex.rebuildSelectionIndex({
            fs,
            selectionDir: '/island/selections/demo',
            providersRoot: '/island/providers',
            now: value
        })
        push(`rebuildSelectionIndex now = ${label}`, sel.errors)
    }
    return { 'RebuildIndex (now), rebuild shells': list }
}

describe('argument checks keep their codes, paths and messages (table recorded on the hand-written checks), vbp', () => {
    recorded(TABLE)
    recordedAsync(rebuildRows)
})
