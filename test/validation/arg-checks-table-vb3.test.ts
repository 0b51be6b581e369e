// The argument checks as callers see them, continued (see arg-checks-table.test.ts): for each entry point whose
// `{ field, expected, actual }` checks moved to valibot schemas through parseArgs, the bad inputs that reached each
// old hand-written check and what came back (code, path, message). Recorded on the hand-written checks before the
// move; the schemas keep it word for word.
import { describe, it } from 'vitest'
import { createMemoryFs, ErrorCodes, FixList, Redact, Sarif, SelectionSkills, SourceSnapshot } from '../../src/index.js'
import { redactSections } from '../../src/prompts/redact.js'
import type { Issue } from '../../src/errors/types.js'
import { convertId, normalizeVersion, parseId, schemaIdOf } from '../../src/schema/ids.js'
import { resolveRoot } from '../../src/island/root.js'
import { gradingFolderFor } from '../../src/island/targets.js'
import { formatSnapshotFilename } from '../../src/naming/snapshot-filename.js'
import { BAD, expectRecorded, recorded, rows, table, type Row } from './arg-rows.js'

const URIS = ['string', 'empty', 'number', 'null', 'object', 'array']
const uriRows = (field: string): Row[] => [
    ...rows(`Sarif.fromFixItems ${field}`, (v) => Sarif.fromFixItems({ items: [], [field]: v } as never).errors),
    ...[
        'https://x.test/a',
        'https://x.test/a/',
        'https://x.test/a#f',
        'rel/a/',
        `https://x.test/${'a'.repeat(5000)}/`
    ].map((uri) => ({
        case: `${field} = ${uri.slice(0, 24)}`,
        issues: Sarif.fromFixItems({ items: [], [field]: uri } as never).errors.map(({ code, path, message }) => ({
            code,
            path,
            message
        }))
    }))
]

const fileParts = { name: 'prices', timestamp: '2026-05-30T19:44:23Z', hash: '93baef35', ext: 'mjs' }

const TABLE: Record<string, Row[]> = {
    'Sarif.fromFixItems baseUri and docsUri': [
        ...uriRows('baseUri'),
        ...uriRows('docsUri'),
        ...rows('both', (v) => Sarif.fromFixItems({ items: [], baseUri: v, docsUri: v } as never).errors, URIS)
    ],
    'schema ids': [
        ...rows('normalizeVersion version', (v) => normalizeVersion(v).errors),
        ...rows('schemaIdOf fileBase', (v) => schemaIdOf({ namespace: 'demo' }, v).errors),
        ...rows('schemaIdOf both', (v) => schemaIdOf(v, v).errors),
        ...rows('parseId id', (v) => parseId(v).errors),
        ...rows('convertId to', (v) => convertId('a.b', v).errors),
        ...rows('convertId id', (v) => convertId(v, 'dot').errors)
    ],
    ErrorCodes: [
        ...rows('list input', (v) => ErrorCodes.list(v as never).errors),
        ...rows('list prefix', (v) => ErrorCodes.list({ prefix: v }).errors),
        ...rows('list severity', (v) => ErrorCodes.list({ severity: v }).errors),
        ...rows('list both', (v) => ErrorCodes.list({ prefix: v, severity: v }).errors),
        ...rows('get input', (v) => ErrorCodes.get(v as never).errors),
        ...rows('get code', (v) => ErrorCodes.get({ code: v }).errors),
        ...rows('format input', (v) => ErrorCodes.format(v as never).errors),
        ...rows('format issue', (v) => ErrorCodes.format({ issue: v }).errors),
        ...rows('format issue.code', (v) => ErrorCodes.format({ issue: { code: v, message: 'm', path: '' } }).errors),
        ...rows('format issue.path', (v) => ErrorCodes.format({ issue: { code: 'c', message: 'm', path: v } }).errors),
        ...rows('format issue.message', (v) => ErrorCodes.format({ issue: { code: 'c', message: v, path: '' } }).errors)
    ],
    Redact: [
        ...rows('text input', (v) => Redact.text(v as never).errors),
        ...rows('text text', (v) => Redact.text({ text: v }).errors),
        ...rows('text serverParams', (v) => Redact.text({ text: 't', serverParams: v }).errors),
        ...rows(
            'text serverParams value',
            (v) =>
                Redact.text({ text: 't', serverParams: { A_KEY: v, 'b.c': v, constructor: v, ok: 'abcdefgh' } }).errors
        ),
        ...rows('text both', (v) => Redact.text({ text: v, serverParams: v }).errors),
        ...rows('value serverParams', (v) => Redact.value({ value: {}, serverParams: v }).errors),
        ...rows('scan serverParams value', (v) => Redact.scan({ text: 't', serverParams: { K: v } }).errors),
        ...rows('redactSections serverParams', (v) => redactSections('h', 'b', 't', v).errors)
    ],
    'SelectionSkills.crossReferences': [
        ...rows('input', (v) => SelectionSkills.crossReferences(v as never).errors),
        ...rows('skills', (v) => SelectionSkills.crossReferences({ skills: v }).errors),
        ...rows(
            'skills item',
            (v) => SelectionSkills.crossReferences({ skills: [{ name: 'a', level: 'L3', text: 't' }, v, v] }).errors
        ),
        ...rows(
            'skill name',
            (v) => SelectionSkills.crossReferences({ skills: [{ name: v, level: 'L1', text: 't' }] }).errors
        ),
        ...rows(
            'skill level',
            (v) => SelectionSkills.crossReferences({ skills: [{ name: 'a', level: v, text: 't' }] }).errors
        ),
        ...rows(
            'skill text',
            (v) => SelectionSkills.crossReferences({ skills: [{ name: 'a', level: 'L2', text: v }] }).errors
        )
    ],
    'FixList.build and buildNamespace': [
        ...rows('build input', (v) => FixList.build(v as never).errors),
        ...rows('build schemaId', (v) => FixList.build({ schemaId: v, units: [] } as never).errors),
        ...rows('buildNamespace input', (v) => FixList.buildNamespace(v as never).errors),
        ...rows('buildNamespace namespace', (v) => FixList.buildNamespace({ namespace: v, units: [] } as never).errors)
    ],
    gradingFolderFor: [
        ...rows('input', (v) => gradingFolderFor(v as never).errors),
        ...rows('area', (v) => gradingFolderFor({ area: v, target: { namespace: 'demo' } }).errors),
        ...rows('target', (v) => gradingFolderFor({ area: 'single-test', target: v }).errors),
        ...rows(
            'target.tool',
            (v) => gradingFolderFor({ area: 'single-test', target: { namespace: 'demo', schema: 's', tool: v } }).errors
        )
    ],
    formatSnapshotFilename: [
        ...rows('input', (v) => formatSnapshotFilename(v as never).errors),
        ...table(
            ['name', 'timestamp', 'hash', 'ext'],
            (field, v) => formatSnapshotFilename({ ...fileParts, [field]: v }).errors
        ),
        ...rows('all four', (v) => formatSnapshotFilename({ name: v, timestamp: v, hash: v, ext: v }).errors)
    ],
    resolveRoot: [
        ...rows('input', (v) => resolveRoot(v as never).errors),
        ...rows('home', (v) => resolveRoot({ home: v }).errors),
        ...rows('env', (v) => resolveRoot({ home: '/h', env: v }).errors),
        ...rows('config', (v) => resolveRoot({ home: '/h', config: v }).errors),
        ...rows('flag', (v) => resolveRoot({ home: '/h', flag: v }).errors),
        ...rows('env value', (v) => resolveRoot({ home: '/h', env: { FLOWMCP_GRADING_DATA: v } }).errors),
        ...rows('config value', (v) => resolveRoot({ home: '/h', config: { gradingDataDir: v } }).errors)
    ]
}

describe('argument-check table (vb3)', () => recorded(TABLE))

const NOW = '2026-05-31T11:00:00Z'
const snapBase = { dir: '/island/p/s/schema', name: 'prices', ext: 'mjs', text: 'x', now: NOW }

/** Rows of an async entry point: one per bad value, each on a fresh memory file system. */
async function asyncRows(name: string, run: (value: unknown) => Promise<{ errors: readonly Issue[] }>): Promise<Row[]> {
    const out: Row[] = []
    for (const [label, value] of Object.entries(BAD)) {
        const { errors } = await run(value)
        out.push({
            case: `${name} = ${label}`,
            issues: errors.map(({ code, path, message }) => ({ code, path, message }))
        })
    }
    return out
}

describe('argument-check table (vb3), async entry points', () => {
    it('SourceSnapshot.create and list', async () => {
        const create = (over: Record<string, unknown>) =>
            SourceSnapshot.create({ fs: createMemoryFs(), ...snapBase, ...over } as never)
        const list: Row[] = [
            ...(await asyncRows('create name', (v) => create({ name: v }))),
            ...(await asyncRows('create ext', (v) => create({ ext: v }))),
            ...(await asyncRows('create text', (v) => create({ text: v }))),
            ...(await asyncRows('create all three', (v) => create({ name: v, ext: v, text: v }))),
            ...(await asyncRows('list name', (v) =>
                SourceSnapshot.list({ fs: createMemoryFs(), dir: snapBase.dir, name: v })
            ))
        ]
        await expectRecorded('SourceSnapshot.create-and-list', list)
    })
})
