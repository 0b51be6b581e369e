// The argument checks as callers see them, continued (see arg-checks-table.test.ts): for each entry point whose
// checks moved to valibot schemas through parseArgs, the bad inputs that reached each old hand-written check and what
// came back (code, path, message). Recorded on the hand-written checks before the move; the schemas keep it.
import { describe, it } from 'vitest'
import {
    createMemoryFs,
    Grading,
    HashGenerator,
    InjectionScan,
    Island,
    KeyDomain,
    ProviderProof,
    TaskId,
    Tos,
    Veto
} from '../../src/index.js'
import { validateGraderIdentity, validateVetoRecord } from '../../src/grading/veto-record.js'
import { checkInput } from '../../src/pretest/check.js'
import { checkName, normalizeDir } from '../../src/store/paths.js'
import { resolveLatest } from '../../src/store/resolve-latest.js'
import { normaliseRaw } from '../../src/rubrics/workflow/formulas.js'
import { auditTranscript, formatSurfacingLine, parseSurfacingLine } from '../../src/prompts/surfacing.js'
import { BAD, expectRecorded, rows, table, type Row } from './arg-rows.js'
import type { Issue } from '../../src/errors/types.js'

const NOW = '2026-05-31T11:00:00Z'
const entry = { gradingId: 'demo.prices--x', schemaHash: 'abcd1234', gradingMode: 'full', gradings: [] }

const grader = { kind: 'llm', name: 'g', version: '1' }
const veto = { triggeredBy: 'ai-security-veto', graderIdentity: grader, evidence: 'e', reasoning: 'r', timestamp: NOW }

const pretestBase = { main: { namespace: 'demo', tools: {} }, now: NOW }
const pretest = (over: Record<string, unknown>) => checkInput({ ...pretestBase, ...over }).early?.errors ?? []
const PRETEST_FIELDS = [
    'main',
    'now',
    'minWorkingTests',
    'parameterlessMinWorkingTests',
    'concurrency',
    'timeoutMs',
    'throttleMs',
    'dryRun',
    'checkDocs',
    'sleep',
    'transform',
    'http',
    'serverParams'
]

const keyMain = { namespace: 'demo', root: 'https://api.demo.xyz' }

const areaLine = {
    kind: 'area',
    area: 'single-test',
    target: 'demo',
    schemaValid: true,
    status: 'graded',
    written: true
}
const format = (over: Record<string, unknown>) => formatSurfacingLine({ ...areaLine, ...over }).errors
const progressLine = (over: Record<string, unknown>) =>
    formatSurfacingLine({ kind: 'progress', done: 1, total: 2, ...over }).errors

const isIssue = (issue: Issue | null): issue is Issue => issue !== null
const NOT_NUMBERS = Object.keys(BAD).filter((k) => typeof BAD[k] !== 'number')
const formulaPaths = { raw: '/criteria/2/rawScore', params: '/criteria/2/params', criterion: 'c' }
const normalise = (formula: string, raw: unknown) => normaliseRaw(formula, raw, undefined, formulaPaths).errors

const TABLE: Record<string, Row[]> = {
    'Grading.computeAggregateGrade': [
        ...rows('memberCount', (v) => Grading.computeAggregateGrade({ entry, memberCount: v as never }).errors),
        ...rows('domainKnowledge', (v) => Grading.computeAggregateGrade({ entry, domainKnowledge: v as never }).errors),
        ...rows(
            'both',
            (v) => Grading.computeAggregateGrade({ entry, memberCount: v as never, domainKnowledge: v as never }).errors
        )
    ],
    'Grading.addGrading': [
        ...rows('entry', (v) => Grading.addGrading({ entry: v, grading: {} }).errors),
        ...rows('entry.gradings', (v) => Grading.addGrading({ entry: { ...entry, gradings: v }, grading: {} }).errors),
        ...rows('grading', (v) => Grading.addGrading({ entry, grading: v }).errors),
        ...rows('input', (v) => Grading.addGrading(v as never).errors)
    ],
    'Grading.checkAging': [
        ...rows('entry', (v) => Grading.checkAging({ entry: v, now: NOW }).errors),
        ...rows('entry.gradings', (v) => Grading.checkAging({ entry: { ...entry, gradings: v }, now: NOW }).errors),
        ...rows('now', (v) => Grading.checkAging({ entry, now: v }).errors),
        ...rows('input', (v) => Grading.checkAging(v as never).errors)
    ],
    'Grading.applyRegradingTrigger': [
        ...rows('entry', (v) => Grading.applyRegradingTrigger({ entry: v, triggeredBy: 'scheduled', now: NOW }).errors),
        ...rows('input', (v) => Grading.applyRegradingTrigger(v as never).errors)
    ],
    'Grading.validateEntry': [
        ...rows('entry', (v) => Grading.validateEntry({ entry: v }).errors),
        ...rows('input', (v) => Grading.validateEntry(v as never).errors)
    ],
    'DataPretest.run (check input)': [
        ...rows('input', (v) => checkInput(v).early?.errors ?? []),
        ...table(PRETEST_FIELDS, (f, v) => pretest({ [f]: v })),
        ...rows('http.send', (v) => pretest({ http: { send: v } })),
        ...rows('http (a function port).send', (v) => pretest({ http: Object.assign(() => 1, { send: v }) })),
        ...rows('serverParams.constructor', (v) =>
            pretest({ serverParams: JSON.parse('{"constructor": 1}'), main: v })
        ),
        ...rows('serverParams.KEY', (v) => pretest({ serverParams: { KEY: v, OK: 's' } })),
        ...rows('concurrency, throttleMs with sleep', (v) => pretest({ concurrency: 100, throttleMs: v, sleep: v })),
        ...rows('now and main', (v) => pretest({ now: v, main: v, concurrency: v }))
    ],
    'KeyDomain.check': [
        ...rows('main', (v) => KeyDomain.check({ main: v }).errors),
        ...rows('input', (v) => KeyDomain.check(v as never).errors),
        ...rows(
            'requiredServerParams',
            (v) => KeyDomain.check({ main: { ...keyMain, requiredServerParams: v } }).errors
        ),
        ...rows(
            'requiredServerParams[1]',
            (v) =>
                KeyDomain.check({ main: { ...keyMain, requiredServerParams: ['FACEBOOK_API_KEY', v, 'X_KEY', v] } })
                    .errors
        ),
        ...rows(
            'requiredServerParams[0], no root',
            (v) =>
                KeyDomain.check({ main: { namespace: 'demo', requiredServerParams: [v, 'FACEBOOK_API_KEY'] } }).errors
        )
    ],
    'KeyDomain.registrableDomain': [
        ...rows('url', (v) => KeyDomain.registrableDomain({ url: v }).errors),
        ...rows('input', (v) => KeyDomain.registrableDomain(v as never).errors)
    ],
    'Tos.rootDomainMatch': [
        ...rows('apiRoot', (v) => Tos.rootDomainMatch({ apiRoot: v, tosUrl: 'https://flowmcp.org/terms' }).errors),
        ...rows('tosUrl', (v) => Tos.rootDomainMatch({ apiRoot: 'https://api.flowmcp.org', tosUrl: v }).errors),
        ...rows('both', (v) => Tos.rootDomainMatch({ apiRoot: v, tosUrl: v }).errors),
        ...rows('input', (v) => Tos.rootDomainMatch(v as never).errors)
    ],
    'Island.islandName': [
        ...rows('name', (v) => Island.islandName({ name: v, kind: 'schema' }).errors),
        ...rows('kind', (v) => Island.islandName({ name: 'prices', kind: v }).errors),
        ...rows('both', (v) => Island.islandName({ name: v, kind: v }).errors),
        ...rows('input', (v) => Island.islandName(v as never).errors)
    ],
    'Island.originalName': [
        ...rows('name', (v) => Island.originalName({ name: v }).errors),
        ...rows('input', (v) => Island.originalName(v as never).errors)
    ],
    'TaskId.generate': [
        ...rows('schemaIdSlug', (v) => TaskId.generate({ schemaIdSlug: v, areas: ['single-test'] }).errors),
        ...rows('areas', (v) => TaskId.generate({ schemaIdSlug: 'demo', areas: v }).errors),
        ...rows(
            'areas[1]',
            (v) => TaskId.generate({ schemaIdSlug: 'demo', areas: ['single-test', v, 'nope', v] }).errors
        ),
        ...rows('both', (v) => TaskId.generate({ schemaIdSlug: v, areas: v }).errors),
        ...rows('input', (v) => TaskId.generate(v as never).errors)
    ],
    'TaskId.parse': [
        ...rows('taskId', (v) => TaskId.parse({ taskId: v }).errors),
        ...rows('input', (v) => TaskId.parse(v as never).errors)
    ],
    'TaskId.matchesAreaSet': [
        ...rows('taskId', (v) => TaskId.matchesAreaSet({ taskId: v, areas: ['single-test'] }).errors),
        ...rows('areas', (v) => TaskId.matchesAreaSet({ taskId: 'demo--1a2b3c4d', areas: v }).errors)
    ],
    formatSurfacingLine: [
        ...table(['kind', 'marker', 'area', 'target', 'schemaValid', 'status', 'written'], (f, v) =>
            format({ [f]: v })
        ),
        ...rows('area line, all', (v) =>
            format({ marker: v, area: v, target: v, schemaValid: v, status: v, written: v })
        ),
        ...table(['done', 'total'], (f, v) => progressLine({ [f]: v })),
        ...rows('progress, both', (v) => progressLine({ done: v, total: v, marker: v })),
        ...rows('done line, marker', (v) => formatSurfacingLine({ kind: 'done', marker: v }).errors)
    ],
    parseSurfacingLine: [
        ...rows('line', (v) => parseSurfacingLine(v).errors),
        ...rows('line at /lines/3', (v) => parseSurfacingLine(v, '/lines/3').errors)
    ],
    auditTranscript: [
        ...rows('text', (v) => auditTranscript(v, 2).errors),
        ...rows('expectedTotal', (v) => auditTranscript('[GRADING] DONE', v).errors),
        ...rows('both', (v) => auditTranscript(v, v).errors)
    ],
    normaliseRaw: [
        // A number reaches the formula's own range rules (a non-finite one is refused before, by the rubric check).
        ...rows('rawScore (binary)', (v) => normalise('binary', v), NOT_NUMBERS),
        ...rows('rawScore (pairwise-ties)', (v) => normalise('pairwise-ties', v)),
        ...rows('rawScore (swe-fail-to-pass)', (v) => normalise('swe-fail-to-pass', v)),
        ...rows('rawScore.losses', (v) => normalise('pairwise-ties', { wins: 1, losses: v, ties: 0 })),
        ...rows('rawScore.passed, total', (v) => normalise('swe-pass-to-pass', { passed: v, total: v, extra: 1 })),
        ...rows('formulaId', (v) => normalise(v as string, 1))
    ],
    'HashGenerator.computeSchemaHash': [
        ...rows('schema', (v) => HashGenerator.computeSchemaHash({ schema: v }).errors),
        ...rows('input', (v) => HashGenerator.computeSchemaHash(v as never).errors)
    ],
    'HashGenerator.computeSelectionHash': rows(
        'selection',
        (v) => HashGenerator.computeSelectionHash({ selection: v }).errors
    ),
    'HashGenerator.hashBytes': [
        ...rows('text', (v) => HashGenerator.hashBytes({ text: v }).errors),
        ...rows('bytes', (v) => HashGenerator.hashBytes({ bytes: v }).errors),
        ...rows('text and bytes', (v) => HashGenerator.hashBytes({ text: v, bytes: v }).errors),
        ...rows('input', (v) => HashGenerator.hashBytes(v as never).errors)
    ],
    'Veto.applyVeto': [
        ...rows(
            'entry',
            (v) =>
                Veto.applyVeto({
                    entry: v,
                    triggeredBy: 'malicious-module',
                    graderIdentity: grader,
                    evidence: 'e',
                    timestamp: NOW
                }).errors
        ),
        ...rows('input', (v) => Veto.applyVeto(v as never).errors)
    ],
    'Veto.isVetoed': [
        ...rows('entry', (v) => Veto.isVetoed({ entry: v }).errors),
        ...rows('input', (v) => Veto.isVetoed(v as never).errors)
    ],
    'checkName, normalizeDir': [
        ...rows('checkName namespace', (v) => [checkName(v, 'namespace', '/target/namespace')].filter(isIssue)),
        ...rows('checkName field', (v) => [checkName(v, 'schema', '/files/0/name', 'files[0].name')].filter(isIssue)),
        ...rows('normalizeDir', (v) => [normalizeDir(v, '/sourceDir', 'sourceDir').issue].filter(isIssue)),
        ...rows('normalizeDir at root', (v) => [normalizeDir(v, '', 'root').issue].filter(isIssue))
    ],
    'InjectionScan.scan': [
        ...rows('input', (v) => InjectionScan.scan(v as never).errors),
        ...rows('main', (v) => InjectionScan.scan({ main: v }).errors),
        ...rows('files', (v) => InjectionScan.scan({ files: v }).errors),
        ...rows('files[1]', (v) => InjectionScan.scan({ files: [{ name: 'a', text: 't' }, v, v] }).errors),
        ...rows('files[0].text', (v) => InjectionScan.scan({ files: [{ name: 'a', text: v }] }).errors),
        ...rows('main and files', (v) => InjectionScan.scan({ main: v, files: v }).errors)
    ],
    validateGraderIdentity: [
        ...rows('graderIdentity', (v) => validateGraderIdentity(v, '/grader')),
        ...table(['kind', 'name', 'version'], (f, v) =>
            validateGraderIdentity({ ...grader, [f]: v }, '/veto/graderIdentity')
        ),
        ...rows('root graderIdentity.name', (v) => validateGraderIdentity({ ...grader, name: v }, ''))
    ],
    validateVetoRecord: [
        ...rows('categoricalVeto', (v) => validateVetoRecord(v, '/categoricalVeto')),
        ...table(['triggeredBy', 'graderIdentity', 'evidence', 'reasoning', 'timestamp'], (f, v) =>
            validateVetoRecord({ ...veto, [f]: v }, '/veto')
        ),
        ...rows('reasoning (manual)', (v) => validateVetoRecord({ ...veto, triggeredBy: 'manual', reasoning: v }, '')),
        ...rows('graderIdentity.version', (v) =>
            validateVetoRecord({ ...veto, graderIdentity: { ...grader, version: v } }, '/x/0')
        )
    ]
}

/** Rows of an entry point that returns a promise. */
async function rowsAsync(name: string, run: (value: unknown) => Promise<readonly Issue[]>): Promise<Row[]> {
    const list: Row[] = []
    for (const [label, value] of Object.entries(BAD)) {
        const issues = (await run(value)).map(({ code, path, message }) => ({ code, path, message }))
        list.push({ case: `${name} = ${label}`, issues })
    }
    return list
}

const proofIndex = { namespace: 'demo', status: 'graded', namespaceAggregate: {}, schemas: {}, blockers: [] }
async function proof(over: Record<string, unknown>): Promise<readonly Issue[]> {
    const base = { fs: createMemoryFs(), dir: '/export/providers/demo', index: proofIndex, now: NOW }
    return (await ProviderProof.write({ ...base, ...over })).errors
}
const startBase = { root: '/island', target: { namespace: 'demo' }, now: NOW }
async function startRun(over: Record<string, unknown>): Promise<readonly Issue[]> {
    return (await Island.startGradingRun({ fs: createMemoryFs(), ...startBase, ...over })).errors
}

const importBase = { root: '/island', now: NOW, files: [] }
async function importRun(over: Record<string, unknown>): Promise<readonly Issue[]> {
    return (await Island.importProvider({ fs: createMemoryFs(), ...importBase, ...over })).errors
}

async function latest(over: Record<string, unknown>): Promise<readonly Issue[]> {
    return (await resolveLatest({ fs: createMemoryFs(), dir: '/island/x', logicalName: 'prices', ...over } as never))
        .errors
}

const ASYNC: Record<string, () => Promise<Row[]>> = {
    resolveLatest: async () => [
        ...(await rowsAsync('dir', (v) => latest({ dir: v }))),
        ...(await rowsAsync('logicalName', (v) => latest({ logicalName: v }))),
        ...(await rowsAsync('both', (v) => latest({ dir: v, logicalName: v })))
    ],
    'Island.importProvider': async () => [
        ...(await rowsAsync('now', (v) => importRun({ now: v }))),
        ...(await rowsAsync('trustedLoader', (v) => importRun({ trustedLoader: v }))),
        ...(await rowsAsync('trustedLoader.load', (v) => importRun({ trustedLoader: { load: v } }))),
        ...(await rowsAsync('now and trustedLoader', (v) => importRun({ now: v, trustedLoader: v }))),
        ...(await rowsAsync('files', (v) => importRun({ files: v }))),
        ...(await rowsAsync('files[1]', (v) => importRun({ files: [{ name: 'a.mjs', text: 't' }, v, v] }))),
        ...(await rowsAsync('files[0].text', (v) => importRun({ files: [{ name: 'a.mjs', text: v }] })))
    ],
    'ProviderProof.write': async () => [
        ...(await rowsAsync('dir', (v) => proof({ dir: v }))),
        ...(await rowsAsync('index', (v) => proof({ index: v }))),
        ...(await rowsAsync('now', (v) => proof({ now: v }))),
        ...(await rowsAsync('index.namespace', (v) => proof({ index: { ...proofIndex, namespace: v } }))),
        ...(await rowsAsync('index.namespaceAggregate', (v) =>
            proof({ index: { ...proofIndex, namespaceAggregate: v } })
        )),
        ...(await rowsAsync('index.schemas', (v) => proof({ index: { ...proofIndex, schemas: v } }))),
        ...(await rowsAsync('index.blockers', (v) => proof({ index: { ...proofIndex, blockers: v } }))),
        ...(await rowsAsync('all', (v) => proof({ dir: v, index: v, now: v }))),
        ...(await rowsAsync('index fields', (v) =>
            proof({ index: { namespace: v, status: v, namespaceAggregate: v, schemas: v, blockers: v } })
        ))
    ],
    'Island.startGradingRun': async () => [
        ...(await rowsAsync('target', (v) => startRun({ target: v }))),
        ...(await rowsAsync('target.namespace', (v) => startRun({ target: { namespace: v } }))),
        ...(await rowsAsync('target both', (v) => startRun({ target: { namespace: 'demo', selection: v } })))
    ]
}

describe('argument checks keep their codes, paths and messages (table recorded on the hand-written checks), 3', () => {
    for (const [name, list] of Object.entries(TABLE)) {
        it(name, async () => {
            await expectRecorded(name, list)
        })
    }
    for (const [name, run] of Object.entries(ASYNC)) {
        it(name, async () => {
            await expectRecorded(name, await run())
        })
    }
})
