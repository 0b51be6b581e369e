// Installs the packed tarball into a fresh temporary project and uses it the way a consumer does:
// ESM import and CJS require of every entry point, and the CLI grading the bundled examples offline.
// Usage: node scripts/pack-check.mjs <flowmcp-grading-x.y.z.tgz>
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import assert from 'node:assert/strict'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const tarball = resolve(process.argv[2] ?? '')
assert.ok(process.argv[2] && statSync(tarball).isFile(), 'usage: node scripts/pack-check.mjs <tarball>')

const listing = execFileSync('tar', ['-tzvf', tarball], { encoding: 'utf8' }).trim().split('\n')
const files = listing.map((l) => l.split(/\s+/).pop())
const unpacked = listing.reduce((n, l) => n + Number(l.split(/\s+/)[2]), 0)
assert.deepEqual(
    files.filter((f) => f.endsWith('.map')),
    [],
    'the tarball ships source maps'
)
for (const f of [
    'package/dist/index.js',
    'package/dist/index.cjs',
    'package/dist/index.d.ts',
    'package/dist/entry.js',
    'package/dist/entry.cjs',
    'package/dist/catalogue.js',
    'package/dist/catalogue.cjs',
    'package/dist/catalogue.d.ts',
    'package/dist/rubrics.js',
    'package/dist/rubrics.cjs',
    'package/dist/rubrics.d.ts',
    'package/dist/cli.js',
    'package/dist/node.js',
    'package/dist/node.d.ts',
    'package/dist/runtime-child.js',
    // The JSON Schemas of the --json documents (docs/cli.md, "--json documents").
    'package/schemas/cli/defs.schema.json',
    'package/schemas/cli/grade.schema.json'
])
    assert.ok(files.includes(f), `the tarball lacks ${f}`)
// The README is read where the package is (npm, an editor on node_modules): its links to docs/ must resolve there.
for (const [, target] of readFileSync(join(root, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#\s]+)/g))
    assert.ok(files.includes(`package/${target}`), `the README links to ${target}, which the tarball lacks`)

const project = mkdtempSync(join(tmpdir(), 'flowmcp-consumer-'))
try {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], {
        cwd: project,
        stdio: ['ignore', 'ignore', 'inherit']
    })

    writeFileSync(
        join(project, 'esm.mjs'),
        `
import { validateGradingEntry, getVersion, HashGenerator } from 'flowmcp-grading'
import * as entry from 'flowmcp-grading/entry'
import { STABLE_THRESHOLD, QUESTIONS } from 'flowmcp-grading/catalogue'
import { JudgeRubric, JUDGE_SYSTEM_VERSION } from 'flowmcp-grading/rubrics'
import { runtimePortFromChildProcess } from 'flowmcp-grading/node'
import schema from 'flowmcp-grading/schemas/grading-model.schema.json' with { type: 'json' }
import gradeJson from 'flowmcp-grading/schemas/cli/grade.schema.json' with { type: 'json' }
const r = validateGradingEntry({ entry: {} })
if (r.valid || r.errors.length === 0 || entry.validateGradingEntry({ entry: {} }).errors.length !== r.errors.length) throw new Error('esm: validateGradingEntry')
if (HashGenerator.computeHash({ value: { a: 1 } }).short.length !== 8 || typeof schema.$id !== 'string') throw new Error('esm')
if (gradeJson.$id !== 'https://flowmcp-grading.dev/schemas/cli/grade.schema.json') throw new Error('esm: schemas/cli')
if (STABLE_THRESHOLD !== 'B' || QUESTIONS.length === 0) throw new Error('esm: flowmcp-grading/catalogue')
if (JUDGE_SYSTEM_VERSION !== 'judgeSystem/1.0.0' || JudgeRubric.evaluate({}).errors.length === 0) throw new Error('esm: flowmcp-grading/rubrics')
if (runtimePortFromChildProcess({ runtime: '/nonexistent' }).errors.length === 0) throw new Error('esm: flowmcp-grading/node')
console.log('esm ' + getVersion().packageVersion)
`
    )
    writeFileSync(
        join(project, 'cjs.cjs'),
        `
const { validateGradingEntry, getVersion } = require('flowmcp-grading')
const entry = require('flowmcp-grading/entry')
const catalogue = require('flowmcp-grading/catalogue')
if (catalogue.STABLE_THRESHOLD !== 'B' || catalogue.QUESTIONS.length === 0) throw new Error('cjs: flowmcp-grading/catalogue')
const rubrics = require('flowmcp-grading/rubrics')
if (rubrics.WorkflowRubric.evaluate({}).errors.length === 0) throw new Error('cjs: flowmcp-grading/rubrics')
require('flowmcp-grading/package.json')
if (validateGradingEntry({ entry: {} }).valid || entry.validateGradingEntry({ entry: {} }).valid) throw new Error('cjs: validateGradingEntry')
console.log('cjs ' + getVersion().packageVersion)
`
    )
    const run = (args) => {
        const res = spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' })
        if (res.status !== 0 && res.status !== 1)
            throw new Error(`${args.join(' ')} exited ${res.status}: ${res.stderr}`)
        return res
    }
    const esm = run(['esm.mjs']).stdout.trim()
    const cjs = run(['cjs.cjs']).stdout.trim()
    // The bin as npm links it, grading the examples offline into a temporary island.
    const bin = join(project, 'node_modules', '.bin', 'flowmcp-grading')
    const island = join(project, 'island')
    const ex = join(root, 'examples')
    const grade = spawnSync(
        bin,
        [
            'grade',
            join(ex, 'providers'),
            '--island',
            island,
            '--recordings',
            join(ex, 'recordings'),
            '--answers',
            join(ex, 'answers.json'),
            '--now',
            '2026-11-22T18:00:00Z'
        ],
        { cwd: project, encoding: 'utf8', env: { ...process.env, ETHERSCAN_API_KEY: 'example-key-not-real' } }
    )
    assert.ok(grade.status === 0 || grade.status === 1, `cli grade exited ${grade.status}: ${grade.stderr}`)
    const index = JSON.parse(readFileSync(join(island, 'providers', 'openmeteo', 'index.json'), 'utf8'))
    assert.equal(index.grade, 'B', 'cli grade: openmeteo should grade B')
    // The runtime child of grade --runtime, as installed, starts under the permission model reading
    // only its own folder and a stand-in runtime, and answers one test over its JSON lines.
    const fake = join(project, 'fake-runtime')
    mkdirSync(fake)
    writeFileSync(
        join(fake, 'package.json'),
        JSON.stringify({ name: 'flowmcp-core', version: '0.0.0-pack-check', type: 'module', main: 'index.mjs' })
    )
    writeFileSync(
        join(fake, 'index.mjs'),
        `export const FlowMCP = { loadSchema: async () => ({ status: true, main: {}, handlerMap: {} }), fetch: async ({ routeName }) => ({ status: true, messages: [], data: { routeName } }) }\n`
    )
    const dist = join(project, 'node_modules', 'flowmcp-grading', 'dist')
    const flag =
        Number(process.versions.node.split('.')[0]) > 22 ||
        (process.versions.node.startsWith('22.') && Number(process.versions.node.split('.')[1]) >= 13)
            ? '--permission'
            : '--experimental-permission'
    const lines = [
        {
            type: 'init',
            entry: join(fake, 'index.mjs'),
            libraries: fake,
            lists: null,
            network: { mode: 'offline' },
            version: '0.0.0-pack-check'
        },
        {
            type: 'run',
            id: 1,
            schemaPath: join(fake, 'schema.mjs'),
            main: {},
            tool: 'ping',
            testIndex: 0,
            userParams: {},
            serverParamKeys: [],
            timeoutMs: 5000
        }
    ]
    const child = spawnSync(
        process.execPath,
        ['--no-warnings', flag, `--allow-fs-read=${dist}`, `--allow-fs-read=${fake}`, join(dist, 'runtime-child.js')],
        { input: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, encoding: 'utf8', env: {}, timeout: 20_000 }
    )
    const answers = child.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    assert.deepEqual(
        answers,
        [
            { type: 'ready' },
            {
                type: 'outcome',
                id: 1,
                outcome: { ok: true, data: { routeName: 'ping' }, httpStatus: null, messages: [] }
            }
        ],
        `runtime child: ${child.stdout} ${child.stderr}`
    )
    const help = spawnSync(bin, ['--help'], { encoding: 'utf8' })
    assert.match(help.stdout, /Usage: flowmcp-grading/)
    process.stdout.write(
        `pack-check: ok (${esm}, ${cjs}, cli grade, runtime child; ${files.length} files, ${(statSync(tarball).size / 1024).toFixed(1)} KB packed, ${(unpacked / 1024).toFixed(1)} KB unpacked)\n`
    )
} finally {
    rmSync(project, { recursive: true, force: true })
}
