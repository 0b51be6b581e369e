import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

const examples = new URL('../../examples/', import.meta.url).pathname
const now = '2026-11-22T18:00:00Z'
const declaration = /\n {4}resources: \{\n[^\n]*\n {4}\},/
let dir = ''
let forecast = ''
let about = ''

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-cli-about-'))
    forecast = await readFile(join(examples, 'providers/openmeteo/forecast.mjs'), 'utf8')
    about = await readFile(join(examples, 'providers/openmeteo/resources/openmeteo-about.md'), 'utf8')
    if (!declaration.test(forecast)) throw new Error('the example no longer declares its About as expected')
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

/** A provider folder `<dir>/<name>/openmeteo/` with the schema and the given `resources/` files. */
async function provider(name: string, schema: string, resources: Record<string, string>): Promise<string> {
    const folder = join(dir, name, 'openmeteo')
    await mkdir(join(folder, 'resources'), { recursive: true })
    await writeFile(join(folder, 'forecast.mjs'), schema)
    for (const [file, text] of Object.entries(resources)) await writeFile(join(folder, 'resources', file), text)
    return folder
}

interface GradeJson {
    namespaces: Array<{
        units: Array<{ unit: string; status: string }>
        errors: Array<{ code: string; severity: string; path: string; message: string }>
    }>
}
const aboutIssues = (parsed: GradeJson): Array<{ code: string; severity: string; path: string; message: string }> =>
    parsed.namespaces.flatMap((n) => n.errors).filter((e) => e.code === 'GRA-022' || e.code === 'GRA-023')
const aboutUnit = (parsed: GradeJson): string | undefined =>
    parsed.namespaces[0]?.units.find((u) => u.unit === 'about-namespace')?.status

describe('flowmcp-grading grade: the About beside a schema', () => {
    it('the About is found: resources/<name> as main.resources.about declares it is read and about-namespace is asked, with no warning', async () => {
        const folder = await provider('declared', forecast.replace(/name: 'openmeteo-about\.md'/, "name: 'guide.md'"), {
            'guide.md': about,
            'aaa-about.md': '# A decoy\n'
        })
        const io = memoryIo()
        expect(await run(['grade', '--json', '--now', now, folder], io)).toBe(0)
        const parsed = JSON.parse(io.out()) as GradeJson & { schemas: Array<{ errors: Array<{ code: string }> }> }
        expect(aboutIssues(parsed)).toEqual([])
        expect(
            parsed.schemas.flatMap((s) => s.errors).filter((e) => e.code === 'GRA-022' || e.code === 'GRA-023')
        ).toEqual([])
        expect(aboutUnit(parsed)).not.toBe('skipped')
    })

    it('an About present but not declared gets GRA-022 pointing at the fix, in --json and in the table', async () => {
        const folder = await provider('undeclared', forecast.replace(declaration, ''), { 'openmeteo-about.md': about })
        const json = memoryIo()
        expect(await run(['grade', '--json', '--now', now, folder], json)).toBe(0)
        const parsed = JSON.parse(json.out()) as GradeJson
        expect(aboutIssues(parsed)).toEqual([
            {
                code: 'GRA-022',
                severity: 'warning',
                path: '/options/about',
                message:
                    "The About resources/openmeteo-about.md is not declared by the schema, so about-namespace is not graded: declare it in main.resources as about: { source: 'markdown', origin: 'inline', name: 'openmeteo-about.md', description: '…' }"
            }
        ])
        expect(aboutUnit(parsed)).toBe('skipped')
        const table = memoryIo()
        await run(['grade', '--now', now, folder], table)
        expect(table.out()).toMatch(/openmeteo \(namespace\).*GRA-022/)
        expect(table.out()).toContain(
            "declare it in main.resources as about: { source: 'markdown', origin: 'inline', name: 'openmeteo-about.md'"
        )
    })

    it('an About declared but missing gets GRA-023 naming the file, and another *-about.md is not taken in its place', async () => {
        const folder = await provider('missing', forecast, { 'other-about.md': about })
        const io = memoryIo()
        expect(await run(['grade', '--json', '--now', now, folder], io)).toBe(0)
        const parsed = JSON.parse(io.out()) as GradeJson
        expect(aboutIssues(parsed).map((e) => [e.code, e.severity])).toEqual([['GRA-023', 'warning']])
        expect(aboutIssues(parsed)[0]?.message).toContain(
            'put the file at resources/openmeteo-about.md beside the schema'
        )
        expect(aboutUnit(parsed)).toBe('gated')
    })
})
