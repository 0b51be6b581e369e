import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

// `affected` maps a pull request's changed files to the schema folders a gate grades: a schema file
// its folder, an About its folder, the config file every folder, and a recording the folders of the
// schemas whose tests read its host (the island's summary.json files, and each schema's root).
const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-25T10:00:00Z'
let dir = ''

const io = () => memoryIo({}, { cwd: dir, env: {} })
async function affected(changed: readonly string[], ...flags: string[]): Promise<{ code: number; folders: string[] }> {
    await writeFile(join(dir, 'changed-files.txt'), changed.map((f) => `${f}\n`).join(''))
    const out = io()
    const code = await run(['affected', 'providers', '--changed-files', 'changed-files.txt', ...flags], out)
    return { code, folders: out.out().split('\n').filter(Boolean) }
}

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-affected-'))
    for (const ns of ['openmeteo', 'quakefeed', 'etherscan'])
        await cp(join(examples, 'providers', ns), join(dir, 'providers', ns), { recursive: true })
    await cp(join(examples, 'recordings'), join(dir, 'recordings'), { recursive: true })
    await writeFile(join(dir, 'flowmcp-grading.config.json'), JSON.stringify({ recordings: 'recordings' }))
    // The island of a grade of the tree (no judge): each schema's summary.json names the requests its tests sent.
    const graded = io()
    expect(await run(['grade', 'providers', '--island', 'island', '--now', now], graded)).toBe(0)
    // A schema whose handlers read a host its root does not name: only the island knows.
    const summary = join(dir, 'island', 'providers', 'quakefeed', 'events', 'summary.json')
    const read = JSON.parse(await readFile(summary, 'utf8')) as { perTool: Record<string, { tests: unknown[] }> }
    const tool = Object.keys(read.perTool)[0] as string
    read.perTool[tool]?.tests.push({ testIndex: 9, requests: [{ method: 'GET', url: 'https://api.open-meteo.com/x' }] })
    await writeFile(summary, JSON.stringify(read))
}, 60_000)
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe('flowmcp-grading affected', () => {
    it('a changed recording: the folders of every schema the island says read its host, and those whose root it is', async () => {
        const withIsland = await affected(['recordings/openmeteo.json'], '--island', 'island')
        expect(withIsland).toEqual({ code: 0, folders: ['providers/openmeteo', 'providers/quakefeed'] })
        // Without the island, only the schema whose root is the host.
        expect((await affected(['recordings/openmeteo.json'])).folders).toEqual(['providers/openmeteo'])
    })

    it('a recording the pull request removed is read in --base-tree; one read nowhere takes every folder', async () => {
        await mkdir(join(dir, 'base', 'recordings'), { recursive: true })
        await cp(join(examples, 'recordings', 'etherscan.json'), join(dir, 'base', 'recordings', 'gone.json'))
        expect((await affected(['recordings/gone.json'], '--base-tree', 'base')).folders).toEqual([
            'providers/etherscan'
        ])
        const out = io()
        await writeFile(join(dir, 'changed-files.txt'), 'recordings/nowhere.json\n')
        expect(await run(['affected', 'providers', '--changed-files', 'changed-files.txt'], out)).toBe(0)
        expect(out.out().split('\n').filter(Boolean)).toEqual([
            'providers/etherscan',
            'providers/openmeteo',
            'providers/quakefeed'
        ])
        expect(out.err()).toContain('recordings/nowhere.json: no recording of a host here or in --base')
    })

    it('schema files (a removed folder too), an About, the config file; files outside the folders are nothing', async () => {
        expect(
            (await affected(['providers/gone/old.mjs', 'providers/openmeteo/resources/openmeteo-about.md'])).folders
        ).toEqual(['providers/gone', 'providers/openmeteo'])
        expect((await affected(['flowmcp-grading.config.json'])).folders).toEqual([
            'providers/etherscan',
            'providers/openmeteo',
            'providers/quakefeed'
        ])
        expect(await affected(['README.md', 'judge.sh'])).toEqual({ code: 0, folders: [] })
    })

    it('--json says why each folder is taken', async () => {
        await writeFile(join(dir, 'changed-files.txt'), 'recordings/openmeteo.json\n')
        const out = io()
        await run(
            ['affected', 'providers', '--changed-files', 'changed-files.txt', '--island', 'island', '--json'],
            out
        )
        expect(JSON.parse(out.out())).toEqual({
            folders: [
                {
                    folder: 'providers/openmeteo',
                    because: [
                        { file: 'recordings/openmeteo.json', as: 'recording', host: 'https://api.open-meteo.com' }
                    ]
                },
                {
                    folder: 'providers/quakefeed',
                    because: [
                        { file: 'recordings/openmeteo.json', as: 'recording', host: 'https://api.open-meteo.com' }
                    ]
                }
            ]
        })
    })

    it('usage errors exit 2: no --changed-files, a list that cannot be read, no folder named', async () => {
        const none = io()
        expect(await run(['affected', 'providers'], none)).toBe(2)
        expect(none.err()).toContain('--changed-files <file>')
        const unreadable = io()
        expect(await run(['affected', 'providers', '--changed-files', 'missing.txt'], unreadable)).toBe(2)
        expect(unreadable.err()).toContain('cannot read --changed-files')
        const noFolder = io()
        expect(await run(['affected', '--changed-files', 'changed-files.txt'], noFolder)).toBe(2)
    })
})
