import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { isCi, shared, sharedNeeds, sharedPathsAroundHelper, sharedReport } from './shared.js'

// A fake workspace: a test tree whose files ask for parts of a ../shared that has only some of them.
const work = mkdtempSync(join(tmpdir(), 'flowmcp-shared-'))
const root = join(work, 'shared')
const tests = join(work, 'repo', 'test')
mkdirSync(join(root, 'corpus-sample', 'schemas'), { recursive: true })
mkdirSync(join(tests, 'cli'), { recursive: true })
mkdirSync(join(tests, 'runtime'), { recursive: true })
// Built in two pieces so this file does not itself read as asking for a part.
const SAMPLE_PART = 'corpus-sample/schemas/'
const CORE_PART = 'flowmcp-core/package.json'
const ask = (part: string): string => ['shared', `('${part}')`].join('')
writeFileSync(join(tests, 'cli', 'needs-sample.test.ts'), `const { present } = ${ask('corpus-sample/schemas/')}\n`)
writeFileSync(
    join(tests, 'runtime', 'harness.ts'),
    `export const runtimePresent = ${ask('flowmcp-core/package.json')}.present\n`
)
writeFileSync(join(tests, 'runtime', 'uses-harness.test.ts'), `import { runtimePresent } from './harness.js'\n`)
writeFileSync(join(tests, 'cli', 'plain.test.ts'), `export const x = 1\n`)
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('tests that need ../shared say what they did not run', () => {
    it('reads CI as set unless empty, 0 or false', () => {
        expect([{}, { CI: '' }, { CI: '0' }, { CI: 'false' }, { CI: 'FALSE' }].map((env) => isCi(env))).toEqual([
            false,
            false,
            false,
            false,
            false
        ])
        expect([{ CI: 'true' }, { CI: '1' }, { CI: 'yes' }].map((env) => isCi(env))).toEqual([true, true, true])
    })

    it('answers a present part with its path, a missing one as absent (locally)', () => {
        expect(shared(SAMPLE_PART, { root, env: {} })).toEqual({
            path: join(root, 'corpus-sample/schemas/'),
            present: true
        })
        expect(shared(CORE_PART, { root, env: {} }).present).toBe(false)
    })

    it('throws under CI=true when a part is missing, naming the part and ../shared', () => {
        expect(() => shared(CORE_PART, { root, env: { CI: 'true' } })).toThrow(
            /missing flowmcp-core\/package\.json.*CI=true: failing instead of skipping/
        )
        expect(() => shared(SAMPLE_PART, { root, env: { CI: 'true' } })).not.toThrow()
    })

    it("counts a helper's parts for every test file that imports it", () => {
        expect(Object.fromEntries(sharedNeeds(tests))).toEqual({
            'test/cli/needs-sample.test.ts': ['corpus-sample/schemas/'],
            'test/runtime/uses-harness.test.ts': ['flowmcp-core/package.json']
        })
    })

    it('prints one line naming the skipped files and why, locally', () => {
        const line = sharedReport({ root, testRoot: tests, env: {} })
        expect(line).toBe(
            `skipped: ../shared is incomplete (${root}): missing flowmcp-core; 1 test file(s) need it: test/runtime/uses-harness.test.ts. Set CI=true to make this a failure.`
        )
        expect(line?.split('\n')).toHaveLength(1)
    })

    it('fails with that line under CI=true', () => {
        expect(() => sharedReport({ root, testRoot: tests, env: { CI: 'true' } })).toThrow(
            /missing flowmcp-core; 1 test file\(s\) need it: test\/runtime\/uses-harness\.test\.ts\. CI=true: failing instead of skipping/
        )
    })

    it('says nothing when every part is there, and every file of this suite finds its parts here', () => {
        mkdirSync(join(root, 'flowmcp-core'), { recursive: true })
        writeFileSync(join(root, 'flowmcp-core', 'package.json'), '{}')
        expect(sharedReport({ root, testRoot: tests, env: { CI: 'true' } })).toBeNull()
        // The real suite: the files that need ../shared are found (the sample and the runtime tests among them).
        const real = [...sharedNeeds().keys()]
        expect(real).toEqual(
            expect.arrayContaining([
                'test/cli/check.test.ts',
                'test/runtime/record-replay.test.ts',
                'test/cli/grade-runtime.test.ts'
            ])
        )
    })
})

describe('every test reaches ../shared through shared()', () => {
    // Each form written in pieces, so this file does not itself read as reaching the folder.
    const up = '..' + '/'
    const AROUND = [
        `const SAMPLE = new URL('${up}${up}${up}shared/corpus-sample/', import.meta.url)`,
        `const spec = readFileSync('${up}shared/spec/examples/a.json', 'utf8')`,
        `const core = \`\${ROOT}/${up}shared/flowmcp-core\``,
        `const dir = join(ROOT, '..', '${'shared'}')`,
        `const abs = '/work/${'shared'}/corpus-sample'`,
        `const root = process.env.${'FLOWMCP_SHARED'}_DIR`,
        `import { ${'SHARED'}_ROOT } from '../support/shared.js'`
    ]
    const ALLOWED = [
        `const { path, present } = ${'shared'}('corpus-sample/schemas/')`,
        `describe('the real corpus sample (${up}shared/corpus-sample)', () => {})`,
        `// read from ${up}${up}${up}shared/corpus-sample, never copied`,
        `import { createPrng } from '${up}${up}src/rubrics/shared/prng.js'`
    ]

    it('names each other way of reaching the folder, with its file and line', () => {
        const tree = mkdtempSync(join(tmpdir(), 'flowmcp-shared-paths-'))
        try {
            mkdirSync(join(tree, 'test', 'cli'), { recursive: true })
            writeFileSync(join(tree, 'test', 'cli', 'around.test.ts'), `${AROUND.join('\n')}\n`)
            writeFileSync(join(tree, 'test', 'cli', 'through.test.ts'), `${ALLOWED.join('\n')}\n`)
            const found = sharedPathsAroundHelper(join(tree, 'test'))
            expect(found).toEqual(AROUND.map((line, i) => `test/cli/around.test.ts:${i + 1}: ${line}`))
        } finally {
            rmSync(tree, { recursive: true, force: true })
        }
    })

    it('finds none in this suite (a clone without ../shared then skips what needs it instead of failing)', () => {
        expect(sharedPathsAroundHelper()).toEqual([])
    })
})
