import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createMemoryFs, gradeNamespace, gradeSingleSchema, type FsPort, type Issue } from '../../src/index.js'
import { aboutDeclarationIssues, aboutFileIn, declaredAboutFile } from '../../src/grade/about.js'
import { EXAMPLES, exampleMain, grader } from './helpers.js'

const now = '2026-11-22T18:00:00Z'
const aboutText = readFileSync(new URL('providers/openmeteo/resources/openmeteo-about.md', EXAMPLES), 'utf8')
const forecastSource = readFileSync(new URL('providers/openmeteo/forecast.mjs', EXAMPLES), 'utf8')
const declaration = /\n {4}resources: \{\n[^\n]*\n {4}\},/
/** The example schema with its `main.resources.about` declaration replaced (or removed with ''). */
const withResources = (block: string): string => {
    if (!declaration.test(forecastSource)) throw new Error('the example no longer declares its About as expected')
    return forecastSource.replace(declaration, block === '' ? '' : `\n    resources: { ${block} },`)
}
const aboutOf = (errors: readonly Issue[]): Issue[] =>
    errors.filter((e) => e.code === 'GRA-022' || e.code === 'GRA-023')

async function undeclaredMain(): Promise<Record<string, unknown>> {
    const { main } = await exampleMain('providers/openmeteo/forecast.mjs')
    const { resources: _dropped, ...rest } = main
    return rest
}

async function namespaceFolder(files: Record<string, string>): Promise<FsPort> {
    const fs = createMemoryFs()
    for (const dir of ['/src', '/src/openmeteo', '/src/openmeteo/resources']) await fs.mkdir(dir)
    for (const [name, text] of Object.entries(files)) await fs.writeFile(`/src/openmeteo/${name}`, text)
    return fs
}

describe('declaredAboutFile / aboutFileIn', () => {
    it.each([
        {
            main: {
                namespace: 'demo',
                resources: { about: { source: 'markdown', origin: 'inline', name: 'demo-about.md', description: 'd' } }
            },
            expected: 'demo-about.md'
        },
        {
            main: {
                namespace: 'demo',
                resources: { about: { source: 'markdown', origin: 'inline', name: 'guide.md', description: 'd' } }
            },
            expected: 'guide.md'
        },
        { main: { namespace: 'demo', resources: { about: {} } }, expected: 'demo-about.md' },
        { main: { namespace: 'demo', resources: { other: { name: 'demo-about.md' } } }, expected: null },
        { main: { namespace: 'demo' }, expected: null },
        { main: null, expected: null }
    ])('reads the declared About file of $main as $expected', ({ main, expected }) => {
        expect(declaredAboutFile(main)).toBe(expected)
    })

    it.each([
        { names: ['b-about.md', 'a-about.md', 'notes.md'], declared: [], expected: 'a-about.md' },
        { names: ['guide.md', 'a-about.md'], declared: ['guide.md'], expected: 'guide.md' },
        { names: ['a-about.md'], declared: ['demo-about.md'], expected: undefined },
        { names: ['second.md', 'a-about.md'], declared: ['first.md', 'second.md'], expected: 'second.md' },
        { names: ['notes.md'], declared: [], expected: undefined }
    ])('picks $expected from $names when $declared is declared', ({ names, declared, expected }) => {
        expect(aboutFileIn(names, declared)).toBe(expected)
    })

    it('says nothing when the About and its declaration agree', () => {
        expect(
            aboutDeclarationIssues({
                declared: 'demo-about.md',
                about: { text: '#' } as never,
                namespace: 'demo',
                path: '/options/about'
            })
        ).toEqual([])
        expect(
            aboutDeclarationIssues({ declared: null, about: undefined, namespace: 'demo', path: '/options/about' })
        ).toEqual([])
    })
})

describe('the About is found beside the schema and graded only when main.resources declares it (02-areas §2.6)', () => {
    it('the About is found: a declared About with its text gives an about-namespace prompt and no warning', async () => {
        const { main } = await exampleMain('providers/openmeteo/forecast.mjs')
        const result = await gradeSingleSchema({
            schema: { main },
            fileName: 'forecast.mjs',
            grader,
            options: { now, about: { name: 'openmeteo-about.md', text: aboutText } }
        })
        expect(aboutOf(result.errors)).toEqual([])
        expect(result.grading?.units.find((u) => u.unit === 'about-namespace')?.status).toBe('provisional')
        expect(result.prompts.map((p) => p.unit)).toContain('about-namespace')
    })

    it('an About present but not declared gets GRA-022 pointing at the fix, and about-namespace is not graded', async () => {
        const result = await gradeSingleSchema({
            schema: { main: await undeclaredMain() },
            fileName: 'forecast.mjs',
            grader,
            options: { now, about: { name: 'openmeteo-about.md', text: aboutText } }
        })
        expect(aboutOf(result.errors)).toEqual([
            {
                code: 'GRA-022',
                severity: 'warning',
                path: '/options/about',
                message:
                    "The About resources/openmeteo-about.md is not declared by the schema, so about-namespace is not graded: declare it in main.resources as about: { source: 'markdown', origin: 'inline', name: 'openmeteo-about.md', description: '…' }"
            }
        ])
        expect(result.grading?.units.find((u) => u.unit === 'about-namespace')?.status).toBe('skipped')
        expect(result.prompts.map((p) => p.unit)).not.toContain('about-namespace')
    })

    it('the declaration GRA-022 names is one the validator accepts and makes the About graded', async () => {
        const main = {
            ...(await undeclaredMain()),
            resources: {
                about: {
                    source: 'markdown',
                    origin: 'inline',
                    name: 'openmeteo-about.md',
                    description: 'What the namespace offers.'
                }
            }
        }
        const result = await gradeSingleSchema({
            schema: { main },
            fileName: 'forecast.mjs',
            grader,
            options: { now, about: { name: 'openmeteo-about.md', text: aboutText } }
        })
        expect(result.errors.filter((e) => e.severity === 'error')).toEqual([])
        expect(aboutOf(result.errors)).toEqual([])
        expect(result.prompts.map((p) => p.unit)).toContain('about-namespace')
    })

    it('an About declared but not supplied gets GRA-023 naming the file to add', async () => {
        const { main } = await exampleMain('providers/openmeteo/forecast.mjs')
        const result = await gradeSingleSchema({ schema: { main }, fileName: 'forecast.mjs', grader, options: { now } })
        expect(aboutOf(result.errors)).toEqual([
            {
                code: 'GRA-023',
                severity: 'warning',
                path: '/options/about',
                message:
                    'The schema declares the About resources/openmeteo-about.md in main.resources.about, but no About text came with it, so about-namespace is not graded: put the file at resources/openmeteo-about.md beside the schema, or pass options.about'
            }
        ])
        expect(result.grading?.units.find((u) => u.unit === 'about-namespace')?.status).toBe('gated')
    })

    it('gradeNamespace({ dir }) reads resources/<name> as the schema declares it, whatever else the folder holds', async () => {
        const guide = '# Open-Meteo guide\nThe declared one.\n'
        const fs = await namespaceFolder({
            'forecast.mjs': withResources(
                "about: { source: 'markdown', origin: 'inline', name: 'guide.md', description: 'The guide.' }"
            ),
            'resources/guide.md': guide,
            'resources/aaa-about.md': '# A decoy\n'
        })
        const result = await gradeNamespace({ dir: '/src/openmeteo', grader, options: { sourceFs: fs, now } })
        expect(aboutOf(result.errors)).toEqual([])
        const prompt = JSON.stringify(result.prompts.find((p) => p.unit === 'about-namespace'))
        expect(prompt).toContain('The declared one.')
        expect(prompt).not.toContain('A decoy')
    })

    it('gradeNamespace({ dir }) warns GRA-022 at /dir for an undeclared resources/*-about.md and GRA-023 for a declared file that is missing', async () => {
        const undeclared = await gradeNamespace({
            dir: '/src/openmeteo',
            grader,
            options: {
                sourceFs: await namespaceFolder({
                    'forecast.mjs': withResources(''),
                    'resources/openmeteo-about.md': aboutText
                }),
                now
            }
        })
        expect(aboutOf(undeclared.errors).map((e) => [e.code, e.path])).toEqual([['GRA-022', '/dir']])
        expect(undeclared.units.find((u) => u.unit === 'about-namespace')?.status).toBe('skipped')
        // A declared name is read as declared: another *-about.md is not taken in its place.
        const missing = await gradeNamespace({
            dir: '/src/openmeteo',
            grader,
            options: {
                sourceFs: await namespaceFolder({
                    'forecast.mjs': forecastSource,
                    'resources/other-about.md': aboutText
                }),
                now
            }
        })
        expect(aboutOf(missing.errors).map((e) => [e.code, e.path])).toEqual([['GRA-023', '/dir']])
        expect(aboutOf(missing.errors)[0]?.message).toContain(
            'put the file at resources/openmeteo-about.md beside the schema'
        )
    })
})
