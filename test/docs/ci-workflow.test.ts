import { Ajv } from 'ajv'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeSyntheticRecordings } from '../support/synthetic-recordings.js'
import { shared } from '../support/shared.js'
import { CORE_SOURCE, LINKED_PACKAGES, PROJECT_MODULES, runtimePresent } from '../runtime/harness.js'
import { esbuildValidators } from '../../scripts/validators.mjs'

// The pull-request workflow of docs/ci.md, run as written: every `run:` step of its YAML, in order,
// with the job's environment, in a git repository of two commits (the base and a pull request on it)
// made here; a stand-in `npx` runs this project's CLI. Real sample schemas are copied at test time.
const DOC = readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8')
const SAMPLE = shared('corpus-sample/schemas/frankfurter/').path
const KEYED = shared('corpus-sample/schemas/etherscan/').path
const EXAMPLES = new URL('../../examples/', import.meta.url).pathname
const RUNTIME_FIXTURES = new URL('../fixtures/runtime/', import.meta.url).pathname
const present =
    shared('corpus-sample/schemas/frankfurter/').present &&
    shared('corpus-sample/schemas/etherscan/').present &&
    runtimePresent
let dir = ''
let baseSha = ''

/** A `run:` step: its name, id, `if:`, own `env:` and script. */
type Step = { name: string; id: string; if: string; env: Record<string, string>; script: string }

/**
 * The job's `env:` and its `run:` steps (a one-line `run:` or a `run: |` block, with the step's `id:`, `if:` and
 * `env:`), from the first yaml block of the doc.
 */
function workflow(): { env: Record<string, string>; steps: Step[] } {
    const yaml = [...DOC.matchAll(/```yaml\n([\s\S]*?)\n```/g)][0]?.[1] ?? ''
    const lines = yaml.split('\n')
    const env: Record<string, string> = {}
    const envAt = lines.indexOf('    env:')
    for (const line of lines.slice(envAt + 1)) {
        const found = /^ {6}([A-Z_]+): (.*)$/.exec(line)
        if (found === null) break
        env[found[1] as string] = found[2] as string
    }
    const steps: Step[] = []
    const at = lines.indexOf('    steps:')
    type Open = { name: string; id: string; if: string; env: Record<string, string>; script: string[] }
    let current: Open | null = null
    let block = -1
    let inEnv = false
    const close = (step: Open | null): void => {
        if (step !== null && step.script.length > 0) steps.push({ ...step, script: step.script.join('\n') })
    }
    for (const line of lines.slice(at + 1)) {
        if (block >= 0 && (line.trim() === '' || line.search(/\S/) > block)) {
            current?.script.push(line.slice(block + 2))
            continue
        }
        block = -1
        if (line.startsWith('      - ')) {
            close(current)
            current = { name: /name: (.*)$/.exec(line)?.[1] ?? '', id: '', if: '', env: {}, script: [] }
            inEnv = false
        }
        const variable = /^ {10}([A-Z_]+): (.*)$/.exec(line)
        if (inEnv && variable !== null && current !== null) {
            current.env[variable[1] as string] = variable[2] as string
            continue
        }
        inEnv = line === '        env:'
        const field = /^ {8}(id|if): (.*)$/.exec(line)
        if (field !== null && current !== null) current[field[1] as 'id' | 'if'] = field[2] as string
        const run = /^(\s+)(?:- )?run: (.*)$/.exec(line)
        if (run !== null && current !== null) {
            if (run[2] === '|') block = line.indexOf('run:')
            else current.script.push(run[2] as string)
        }
    }
    close(current)
    return { env, steps }
}

/**
 * A workflow expression as GitHub fills it in for this test: the base commit, a secret, a step's outcome. Anything
 * else is a test failure.
 */
function expression(text: string, outcomes: Readonly<Record<string, string>> = {}): string {
    return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
        if (expr === 'github.event.pull_request.base.sha') return baseSha
        if (expr.startsWith('secrets.')) return 'secret-for-the-test'
        const outcome = /^steps\.([\w-]+)\.outcome$/.exec(expr)
        if (outcome !== null) return outcomes[outcome[1] as string] ?? 'skipped'
        throw new Error(`an expression this test does not know: ${expr}`)
    })
}

/** Whether GitHub runs a step, given whether an earlier one failed: after a failure only `always()`/`!cancelled()`. */
function runs(step: Step, failed: boolean): boolean {
    if (step.if === '') return !failed
    if (/^\$\{\{\s*(?:always\(\)|!cancelled\(\))\s*\}\}$/.test(step.if)) return true
    throw new Error(`a step condition this test does not know: ${step.if}`)
}

/** A judge that answers 4, and 2 for getLatest when its description says TODO. */
const JUDGE = `#!/usr/bin/env node
const { readFileSync } = require('node:fs')
const request = JSON.parse(readFileSync(0, 'utf8'))
const weak = request.unit === 'single-test/getLatest' && request.attachments.some((a) => a.content.includes("description: 'TODO'"))
process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: weak ? 2 : 4, reasoning: weak ? 'says nothing' : 'clear' })) }))
`
const BROKEN_JUDGE = "#!/bin/sh\necho 'HTTP 401 invalid key' >&2\nexit 1\n"

function sh(
    command: string,
    args: readonly string[],
    cwd: string,
    env: Record<string, string> = {}
): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        execFile(
            command,
            [...args],
            {
                cwd,
                env: {
                    PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
                    HOME: dir,
                    GIT_AUTHOR_NAME: 't',
                    GIT_AUTHOR_EMAIL: 't@example.org',
                    GIT_COMMITTER_NAME: 't',
                    GIT_COMMITTER_EMAIL: 't@example.org',
                    ...env
                },
                maxBuffer: 32 * 1024 * 1024
            },
            (error, stdout, stderr) =>
                resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr })
        )
    })
}

/**
 * A clone of the base repository with the pull request's change committed, and the workflow's steps
 * run in it as GitHub runs them (bash -e -o pipefail), stopping at the first that fails.
 */
async function pullRequest(
    name: string,
    change: (repo: string) => Promise<void>
): Promise<{ repo: string; summary: string; results: Array<Step & { code: number; stdout: string; stderr: string }> }> {
    const repo = join(dir, name)
    expect((await sh('git', ['clone', '-q', join(dir, 'origin'), repo], dir)).code).toBe(0)
    await change(repo)
    await sh('git', ['add', '-A'], repo)
    expect((await sh('git', ['commit', '-q', '-m', 'the pull request'], repo)).code).toBe(0)
    const { env, steps } = workflow()
    const summary = join(dir, `${name}-summary.md`)
    const jobEnv = {
        ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, expression(v)])),
        GITHUB_STEP_SUMMARY: summary
    }
    const results = []
    const outcomes: Record<string, string> = {}
    let failed = false
    // The npm install step is the stand-in `npx`.
    for (const step of steps.filter((s) => !s.script.startsWith('npm install'))) {
        if (!runs(step, failed)) continue
        const stepEnv = Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, expression(v, outcomes)]))
        const result = await sh(
            'bash',
            ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expression(step.script, outcomes)],
            repo,
            { ...jobEnv, ...stepEnv }
        )
        results.push({ ...step, ...result })
        if (step.id !== '') outcomes[step.id] = result.code === 0 ? 'success' : 'failure'
        if (result.code !== 0) failed = true
    }
    return { repo, summary, results }
}

const stepOf = (
    results: Array<Step & { code: number }>,
    name: string
): (Step & { code: number; stdout: string; stderr: string }) | undefined =>
    results.find((r) => r.name === name) as never

/**
 * What the "FlowMCP runtime" step reaches, with no network: flowmcp-core's repository (the runtime source of the
 * workspace, committed and tagged with the ref the workflow pins) behind its GitHub URL (git's `insteadOf`, in the
 * job's HOME), and a stand-in `npm` whose `install --prefix <dir>` gives `<dir>` what the real one installs from the
 * registry: the runtime's dependencies (the project's own zod and flatted, and a stand-in for the native
 * better-sqlite3, which grading never constructs). Each call is logged in `$HOME/npm-calls.txt`.
 */
async function fakeRuntimeRepository(): Promise<void> {
    const remote = join(dir, 'flowmcp-core-remote')
    await cp(join(CORE_SOURCE, 'src'), join(remote, 'src'), { recursive: true })
    await cp(join(CORE_SOURCE, 'package.json'), join(remote, 'package.json'))
    await sh('git', ['init', '-q', '-b', 'main'], remote)
    await sh('git', ['add', '-A'], remote)
    await sh('git', ['commit', '-q', '-m', 'flowmcp-core'], remote)
    const ref = workflow().env.FLOWMCP_CORE_REF ?? ''
    expect(ref).toMatch(/^[0-9a-f]{7,40}$/)
    expect((await sh('git', ['tag', ref], remote)).code).toBe(0)
    await writeFile(
        join(dir, '.gitconfig'),
        `[url "${remote}"]\n\tinsteadOf = https://github.com/FlowMCP/flowmcp-core.git\n`
    )
    const modules = join(dir, 'core-modules')
    await mkdir(join(modules, 'better-sqlite3'), { recursive: true })
    for (const name of LINKED_PACKAGES) await symlink(join(PROJECT_MODULES, name), join(modules, name), 'dir')
    await writeFile(
        join(modules, 'better-sqlite3', 'package.json'),
        JSON.stringify({ name: 'better-sqlite3', version: '0.0.0-stand-in', type: 'module', main: 'index.js' })
    )
    await writeFile(
        join(modules, 'better-sqlite3', 'index.js'),
        "export default class Database { constructor() { throw new Error('not used when grading') } }\n"
    )
    await writeFile(
        join(dir, 'bin', 'npm'),
        `#!/bin/sh\necho "$@" >> "$HOME/npm-calls.txt"\nprefix=''\n` +
            `while [ $# -gt 0 ]; do [ "$1" = --prefix ] && prefix="$2"; shift; done\n` +
            `[ -n "$prefix" ] && mkdir -p "$prefix/node_modules" && cp -R ${modules}/. "$prefix/node_modules/"\n`
    )
    await chmod(join(dir, 'bin', 'npm'), 0o755)
}

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-ci-'))
    if (!present) return
    // This project's CLI and its runtime child, bundled for the shell (the tests run before the package is built),
    // behind `npx`.
    const { build } = await import('esbuild')
    await mkdir(join(dir, 'cli'))
    await writeFile(join(dir, 'cli', 'package.json'), '{ "type": "module" }\n')
    const cli = join(dir, 'cli', 'cli.mjs')
    await build({
        entryPoints: [fileURLToPath(new URL('../../src/cli/runtime/child.ts', import.meta.url))],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: join(dir, 'cli', 'runtime-child.js'),
        logLevel: 'silent',
        plugins: [esbuildValidators]
    })
    await build({
        entryPoints: [fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: cli,
        logLevel: 'silent',
        plugins: [esbuildValidators],
        define: { __PACKAGE_VERSION__: JSON.stringify('0.0.0-test') },
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }
    })
    await mkdir(join(dir, 'bin'))
    await writeFile(join(dir, 'bin', 'npx'), `#!/bin/sh\n[ "$1" = flowmcp-grading ] && shift\nexec node ${cli} "$@"\n`)
    await chmod(join(dir, 'bin', 'npx'), 0o755)
    await fakeRuntimeRepository()
    // The base commit: three namespaces (one needs a key the job does not have), the config file of the doc, recordings, the judge.
    const origin = join(dir, 'origin')
    await cp(SAMPLE, join(origin, 'providers', 'frankfurter'), { recursive: true })
    await cp(KEYED, join(origin, 'providers', 'etherscan'), { recursive: true })
    await cp(join(EXAMPLES, 'providers', 'openmeteo'), join(origin, 'providers', 'openmeteo'), { recursive: true })
    const config = /```json\n([\s\S]*?)\n```/.exec(DOC)?.[1] ?? '{}'
    await writeFile(join(origin, 'flowmcp-grading.config.json'), config)
    const recordings = join(origin, (JSON.parse(config) as { recordings: string }).recordings)
    await writeSyntheticRecordings([join(SAMPLE, 'frankfurter.mjs')], recordings)
    await cp(join(EXAMPLES, 'recordings', 'openmeteo.json'), join(recordings, 'openmeteo.json'))
    // A handler schema, tested only through the FlowMCP runtime, and the recordings of its handlers' requests.
    await cp(join(RUNTIME_FIXTURES, 'plain', 'plain.mjs'), join(origin, 'providers', 'runtimefixture', 'plain.mjs'))
    for (const file of ['eu-api.json', 'us-api.json'])
        await cp(join(RUNTIME_FIXTURES, 'recordings', file), join(recordings, file))
    await writeFile(join(origin, 'judge.sh'), JUDGE)
    await chmod(join(origin, 'judge.sh'), 0o755)
    await writeFile(join(origin, 'README.md'), '# schemas\n')
    await sh('git', ['init', '-q', '-b', 'main'], origin)
    await sh('git', ['add', '-A'], origin)
    await sh('git', ['commit', '-q', '-m', 'the base'], origin)
    baseSha = (await sh('git', ['rev-parse', 'HEAD'], origin)).stdout.trim()
}, 60_000)
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe.skipIf(!present)('the pull-request workflow of docs/ci.md, run as written on a two-commit repository', () => {
    it('reads as the steps this test runs: no xargs, no artifact of another run', () => {
        const { steps } = workflow()
        expect(steps.map((s) => s.name)).toEqual(['', 'FlowMCP runtime', 'changed schema folders', 'baseline', 'check'])
        // Recordings, the config and About files start the job too, not only schema files.
        const yamlText = [...DOC.matchAll(/```yaml\n([\s\S]*?)\n```/g)][0]?.[1] ?? ''
        expect(yamlText).toContain("paths: ['providers/**', 'recordings/**', 'flowmcp-grading.config.json']")
        // The runtime is brought at a pinned ref and cached per ref; both grading steps run through it.
        expect(yamlText).toMatch(
            /uses: actions\/cache@v4\n\s+with: \{ path: flowmcp-core, key: 'flowmcp-core-\$\{\{ env\.FLOWMCP_CORE_REF \}\}' \}/
        )
        for (const name of ['baseline', 'check'])
            expect(steps.find((s) => s.name === name)?.script).toContain(
                '--runtime ./flowmcp-core --runtime-libraries .'
            )
        const yaml = [...DOC.matchAll(/```yaml\n([\s\S]*?)\n```/g)][0]?.[1] ?? ''
        expect(yaml).not.toMatch(/xargs|download-artifact/)
        // GitHub fills in these expressions; every other one would be a step this test cannot run as written.
        expect(() => workflow().steps.map((step) => expression(step.script))).not.toThrow()
    })

    it('fails a regression with exit 1 (the exit code of check), names it in the job summary, lists a removed namespace, and writes SARIF that validates and points at the line', async () => {
        const { repo, summary, results } = await pullRequest('regression', async (r) => {
            const file = join(r, 'providers', 'frankfurter', 'frankfurter.mjs')
            await writeFile(
                file,
                (await readFile(file, 'utf8')).replace(
                    /(getLatest: \{\n\s+method: 'GET',\n\s+path: '\/v1\/latest',\n\s+description: )'[^']*'/,
                    "$1'TODO'"
                )
            )
            await rm(join(r, 'providers', 'openmeteo'), { recursive: true })
        })
        expect(stepOf(results, 'baseline')?.code, stepOf(results, 'baseline')?.stderr).toBe(0)
        const check = stepOf(results, 'check')
        expect(check?.code, check?.stderr).toBe(1)
        expect(check?.stderr).not.toMatch(/ENOENT|internal error/)
        expect(check?.stdout).toMatch(/frankfurter\.frankfurter: grade fell from B to [CDF]/)
        expect(check?.stdout).toMatch(/openmeteo\.forecast\s+-\s+B\s+removed\s+removed/)
        const text = await readFile(summary, 'utf8')
        expect(text).toMatch(
            /## flowmcp-grading check: 1 schema failed[\s\S]*\| openmeteo\.forecast \| — \| B \| removed \| removed \|[\s\S]*### frankfurter\.frankfurter/
        )
        const sarif = JSON.parse(await readFile(join(repo, 'grading.sarif'), 'utf8')) as {
            runs: Array<{
                results: Array<{
                    ruleId: string
                    locations: Array<{
                        physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } }
                    }>
                }>
            }>
        }
        const require = createRequire(import.meta.url)
        const schema = JSON.parse(
            readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')
        ) as Record<string, unknown>
        const { id, $schema: _draft04, ...rest } = schema
        const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false })
        for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format as never)
        const validate = ajv.compile({ ...rest, $id: String(id) })
        expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
        const answer = sarif.runs[0]?.results.find((r) => r.ruleId.startsWith('Q-single-test'))
        const location = answer?.locations[0]?.physicalLocation
        expect(location?.artifactLocation.uri).toBe('providers/frankfurter/frankfurter.mjs')
        const source = (await readFile(join(repo, 'providers', 'frankfurter', 'frankfurter.mjs'), 'utf8')).split('\n')
        // An answer about a tool points at the tool (a hint naming a field points at that field, see check.test.ts).
        expect(source[(location?.region?.startLine ?? 0) - 1]).toContain('getLatest: {')
    }, 180_000)

    it('passes a pull request that changes no grade (the control), a schema that needs a key the job does not have included', async () => {
        const { results, summary } = await pullRequest('control', async (r) => {
            for (const file of [
                join(r, 'providers', 'frankfurter', 'frankfurter.mjs'),
                join(r, 'providers', 'etherscan', 'account.mjs')
            ])
                await writeFile(file, `// reviewed\n${await readFile(file, 'utf8')}`)
        })
        const check = stepOf(results, 'check')
        expect(check?.code, `${check?.stderr}\n${check?.stdout}`).toBe(0)
        expect(check?.stdout).toMatch(/frankfurter\.frankfurter\s+B \d\.\d\d(?: \(raw A\))?\s+B\s+\S+\s+ok\n/)
        expect(check?.stdout).toMatch(/etherscan\.account\s.*\sok\n/)
        expect(await readFile(summary, 'utf8')).toMatch(/^## flowmcp-grading check: passed/)
    }, 180_000)

    it('passes a pull request that changes no schema, with an empty SARIF log for the upload step', async () => {
        const { repo, results, summary } = await pullRequest('no-schema', async (r) =>
            writeFile(join(r, 'README.md'), '# schemas, renamed\n')
        )
        expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0])
        expect(
            (JSON.parse(await readFile(join(repo, 'grading.sarif'), 'utf8')) as { runs: Array<{ results: unknown[] }> })
                .runs[0]?.results
        ).toEqual([])
        expect(await readFile(summary, 'utf8')).toMatch(/^## flowmcp-grading check: passed/)
    }, 60_000)

    it('passes a pull request that adds a namespace with its recordings (an empty baseline: every schema is new)', async () => {
        // Added without its recordings it could not be tested here: a new schema not tested here is unverified.
        const folder = (JSON.parse(/```json\n([\s\S]*?)\n```/.exec(DOC)?.[1] ?? '{}') as { recordings: string })
            .recordings
        const { results } = await pullRequest('new-namespace', async (r) => {
            await cp(join(EXAMPLES, 'providers', 'quakefeed'), join(r, 'providers', 'quakefeed'), { recursive: true })
            await cp(join(EXAMPLES, 'recordings', 'quakefeed.json'), join(r, folder, 'quakefeed.json'))
        })
        const check = stepOf(results, 'check')
        expect(check?.code, check?.stderr).toBe(0)
        expect(check?.stderr).toContain('every schema is checked as new (--baseline-missing new)')
    }, 120_000)

    it('fails a pull request with a schema that does not parse at its file and line, and still checks the others', async () => {
        const { repo, results, summary } = await pullRequest('broken', async (r) => {
            await mkdir(join(r, 'providers', 'broken'), { recursive: true })
            await writeFile(
                join(r, 'providers', 'broken', 'broken.mjs'),
                "export const main = {\n    namespace: 'broken',\n    name: 'Broken'\n    tools: {}\n}\n"
            )
            const file = join(r, 'providers', 'etherscan', 'account.mjs')
            await writeFile(file, `// reviewed\n${await readFile(file, 'utf8')}`)
        })
        const check = stepOf(results, 'check')
        expect(check?.code, check?.stderr).toBe(1)
        expect(check?.stdout).toMatch(/broken\.broken\s+-\s+\S+\s+unreadable .*FAILS/)
        expect(check?.stdout).toMatch(/etherscan\.account\s.*\sok\n/)
        expect(await readFile(summary, 'utf8')).toMatch(/### broken\.broken[\s\S]*SRC-001/)
        const sarif = JSON.parse(await readFile(join(repo, 'grading.sarif'), 'utf8')) as {
            runs: Array<{
                results: Array<{
                    ruleId: string
                    locations: Array<{
                        physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } }
                    }>
                }>
            }>
        }
        const parse = sarif.runs[0]?.results.find((r) => r.ruleId === 'SRC-001')
        expect(parse?.locations[0]?.physicalLocation.artifactLocation.uri).toBe('providers/broken/broken.mjs')
        expect(parse?.locations[0]?.physicalLocation.region?.startLine).toBe(4)
    }, 180_000)

    it('when the judge fails in the baseline step (exit 1), the check still writes SARIF and the summary, and fails', async () => {
        const { repo, summary, results } = await pullRequest('broken-judge', async (r) => {
            await writeFile(join(r, 'judge.sh'), BROKEN_JUDGE)
            const file = join(r, 'providers', 'frankfurter', 'frankfurter.mjs')
            await writeFile(file, `// reviewed\n${await readFile(file, 'utf8')}`)
        })
        const baseline = stepOf(results, 'baseline')
        expect(baseline?.code).toBe(1)
        expect(baseline?.stdout + (baseline?.stderr ?? '')).toMatch(/HTTP 401 invalid key/)
        const check = stepOf(results, 'check')
        expect(check?.code, check?.stderr).toBe(1)
        const log = JSON.parse(await readFile(join(repo, 'grading.sarif'), 'utf8')) as { runs: unknown[] }
        expect(log.runs).toHaveLength(1)
        const text = await readFile(summary, 'utf8')
        expect(text).toMatch(/^## flowmcp-grading check: /)
        expect(text).toContain('**The baseline step failed**')
    }, 180_000)

    it('brings the FlowMCP runtime at the pinned ref and fails a pull request that breaks a handler schema', async () => {
        const { repo, results } = await pullRequest('broken-handler', async (r) => {
            const file = join(r, 'providers', 'runtimefixture', 'plain.mjs')
            await writeFile(
                file,
                (await readFile(file, 'utf8'))
                    .replace(
                        "const numbers = String( payload.userParams.numbers ).split( ',' ).map( Number )",
                        "throw new Error( 'the sum broke' )"
                    )
                    // The tool's description changes with it: what the island reuses is keyed on the schema's main.
                    .replace('computed locally.', 'computed locally by its handler.')
            )
        })
        expect(stepOf(results, 'FlowMCP runtime')?.code, stepOf(results, 'FlowMCP runtime')?.stderr).toBe(0)
        const ref = workflow().env.FLOWMCP_CORE_REF ?? ''
        const head = await sh('git', ['-C', join(repo, 'flowmcp-core'), 'describe', '--tags', '--exact-match'], repo)
        expect(head.stdout.trim()).toBe(ref)
        expect(await readFile(join(dir, 'npm-calls.txt'), 'utf8')).toContain('install --prefix flowmcp-core')
        expect(stepOf(results, 'baseline')?.code, stepOf(results, 'baseline')?.stderr).toBe(0)
        const check = stepOf(results, 'check')
        expect(check?.code, `${check?.stderr}\n${check?.stdout}`).toBe(1)
        expect(check?.stdout).toMatch(/runtimefixture\.plain\s.*FAILS/)
    }, 180_000)

    it('checks a recordings-only change: the schemas that read its host, as the island says, and no other', async () => {
        const { repo, results } = await pullRequest('recordings-only', async (r) => {
            const file = join(r, 'recordings', 'eu-api.json')
            await writeFile(file, (await readFile(file, 'utf8')).replace('"status": 200', '"status": 503'))
        })
        expect(stepOf(results, 'changed schema folders')?.code).toBe(0)
        // The schema's root names no host (a handler fills it in): only the island of the base knows it reads eu-api.
        expect(await readFile(join(repo, 'changed.txt'), 'utf8')).toBe('providers/runtimefixture\n')
        const check = stepOf(results, 'check')
        expect(check?.stdout).toMatch(/runtimefixture\.plain\s/)
        expect(check?.stdout).not.toMatch(/frankfurter\.frankfurter\s/)
    }, 180_000)
})
