import { Ajv } from 'ajv'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeSyntheticRecordings } from '../support/synthetic-recordings.js'

// The check step of docs/ci.md, run as written: its shell line with a stand-in `npx` that runs this
// project's CLI, on a baseline island and a changed copy of a real sample schema (copied at test time).
const DOC = readFileSync(new URL('../../docs/ci.md', import.meta.url), 'utf8')
const SAMPLE = new URL('../../../shared/corpus-sample/schemas/frankfurter/', import.meta.url).pathname
const KEYED = new URL('../../../shared/corpus-sample/schemas/etherscan/', import.meta.url).pathname
const present = existsSync(SAMPLE) && existsSync(KEYED)
const now = '2026-11-25T10:00:00Z'
let dir = ''

/** The `run:` line of the workflow step named `name` (in the doc's `block`-th yaml block), and its `env:` values. */
function step(name = 'check', block = 0): { command: string; env: Record<string, string> } {
    const yaml = [...DOC.matchAll(/```yaml\n([\s\S]*?)\n```/g)][block]?.[1] ?? ''
    const lines = yaml.split('\n')
    const at = lines.findIndex((l) => l.trim() === `- name: ${name}`)
    const command = (lines[at + 1] ?? '').replace(/^\s*run:\s*/, '')
    const env: Record<string, string> = {}
    for (const line of lines.slice(at + 3)) {
        const found = /^\s{10}([A-Z_]+):\s*(.*)$/.exec(line)
        if (found === null) break
        env[found[1] as string] = (found[2] as string).startsWith('${{') ? 'secret-for-the-test' : (found[2] as string)
    }
    return { command, env }
}

const JUDGE = `#!/usr/bin/env node
const { readFileSync } = require('node:fs')
const request = JSON.parse(readFileSync(0, 'utf8'))
const weak = request.unit === 'single-test/getLatest' && request.attachments.some((a) => a.content.includes("description: 'TODO'"))
process.stdout.write(JSON.stringify({ answers: request.questions.map((q) => ({ questionId: q.questionId, score: weak ? 2 : 4, reasoning: weak ? 'says nothing' : 'clear' })) }))
`

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-ci-'))
    if (!present) return
    // This project's CLI, bundled for the shell (the tests run before the package is built).
    const { build } = await import('esbuild')
    const cli = join(dir, 'cli.mjs')
    await build({ entryPoints: [fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: cli, logLevel: 'silent', define: { __PACKAGE_VERSION__: JSON.stringify('0.0.0-test') }, banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } })
    await mkdir(join(dir, 'bin'))
    await writeFile(join(dir, 'bin', 'npx'), `#!/bin/sh\n[ "$1" = flowmcp-grading ] && shift\nexec node ${cli} "$@"\n`)
    await chmod(join(dir, 'bin', 'npx'), 0o755)
    await writeFile(join(dir, 'judge.sh'), JUDGE)
    await chmod(join(dir, 'judge.sh'), 0o755)
    await mkdir(join(dir, 'main'))
    await writeFile(join(dir, 'main', 'judge.sh'), JUDGE)
    await chmod(join(dir, 'main', 'judge.sh'), 0o755)
    // The main branch: the schemas as they are, one of them needing a key the jobs do not have.
    await cp(SAMPLE, join(dir, 'main', 'providers', 'frankfurter'), { recursive: true })
    await cp(KEYED, join(dir, 'main', 'providers', 'etherscan'), { recursive: true })
    // The pull request: a weaker description of getLatest; the key-gated schema unchanged.
    await cp(SAMPLE, join(dir, 'providers', 'frankfurter'), { recursive: true })
    await cp(KEYED, join(dir, 'providers', 'etherscan'), { recursive: true })
    const file = join(dir, 'providers', 'frankfurter', 'frankfurter.mjs')
    await writeFile(file, (await readFile(file, 'utf8')).replace(/(getLatest: \{\n\s+method: 'GET',\n\s+path: '\/v1\/latest',\n\s+description: )'[^']*'/, "$1'TODO'"))
    await writeFile(join(dir, 'changed.txt'), 'providers/etherscan\nproviders/frankfurter\n')
    // The repository's config file as docs/ci.md writes it, and recordings of the schemas' tests (every test answered with data).
    const config = /```json\n([\s\S]*?)\n```/.exec(DOC)?.[1] ?? '{}'
    for (const root of [dir, join(dir, 'main')]) {
        await writeFile(join(root, 'flowmcp-grading.config.json'), config)
        await writeSyntheticRecordings([join(SAMPLE, 'frankfurter.mjs')], join(root, (JSON.parse(config) as { recordings: string }).recordings))
    }
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

function sh(command: string, env: Record<string, string>, cwd = dir): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        execFile('/bin/sh', ['-c', command], { cwd, env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, HOME: dir, ...env } }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }))
    })
}

describe.skipIf(!present)('the pull-request workflow of docs/ci.md', () => {
    it('the baseline job passes on a main branch where a schema needs a key the job does not have, and writes the island', async () => {
        const { command, env } = step('grade', 1)
        expect(command).toContain('flowmcp-grading grade')
        const result = await sh(command, env, join(dir, 'main'))
        expect(result.code, result.stderr + result.stdout).toBe(0)
        expect(result.stdout).toMatch(/etherscan\.account\s.*blocked: \d+ tools? not tested/)
        // The artifact the pull-request job downloads.
        await cp(join(dir, 'main', 'grading-island'), join(dir, 'baseline-island'), { recursive: true })
        expect(existsSync(join(dir, 'baseline-island', 'providers', 'frankfurter', 'index.json'))).toBe(true)
    }, 120_000)

    it('fails on a regression, names the schema in the job summary, and writes SARIF that validates and points at the line', async () => {
        const { command, env } = step()
        expect(command).toContain('flowmcp-grading check')
        const summary = join(dir, 'step-summary.md')
        const result = await sh(command, { ...env, GITHUB_STEP_SUMMARY: summary })
        expect(result.code, result.stderr).toBe(123) // xargs: the command exited 1
        expect(result.stdout).toMatch(/frankfurter\.frankfurter: grade fell from B to [CDF]/)
        expect(await readFile(summary, 'utf8')).toMatch(/## flowmcp-grading check: 1 schema failed[\s\S]*### frankfurter\.frankfurter/)
        const sarif = JSON.parse(await readFile(join(dir, 'grading.sarif'), 'utf8')) as { runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }> }> }> }
        const require = createRequire(import.meta.url)
        const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>
        const { id, $schema: _draft04, ...rest } = schema
        const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false })
        for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format as never)
        const validate = ajv.compile({ ...rest, $id: String(id) })
        expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
        const answer = sarif.runs[0]?.results.find((r) => r.ruleId.startsWith('Q-single-test'))
        const location = answer?.locations[0]?.physicalLocation
        expect(location?.artifactLocation.uri).toBe('providers/frankfurter/frankfurter.mjs')
        const source = (await readFile(join(dir, 'providers', 'frankfurter', 'frankfurter.mjs'), 'utf8')).split('\n')
        // An answer about a tool points at the tool (a hint naming a field points at that field, see check.test.ts).
        expect(source[(location?.region?.startLine ?? 0) - 1]).toContain('getLatest: {')
    }, 120_000)

    it('fails a pull request with a schema that does not parse at its file and line, and still checks and reports the others', async () => {
        const { command, env } = step()
        await mkdir(join(dir, 'providers', 'broken'), { recursive: true })
        await writeFile(join(dir, 'providers', 'broken', 'broken.mjs'), "export const main = {\n    namespace: 'broken',\n    name: 'Broken'\n    tools: {}\n}\n")
        await writeFile(join(dir, 'changed.txt'), 'providers/broken\nproviders/etherscan\n')
        const summary = join(dir, 'step-summary-broken.md')
        const result = await sh(command, { ...env, GITHUB_STEP_SUMMARY: summary })
        expect(result.code, result.stderr).toBe(123) // xargs: the command exited 1
        expect(result.stdout).toMatch(/broken\.broken\s+-\s+\S+\s+unreadable .*FAILS/)
        // The key-gated schema is still checked, and passes.
        expect(result.stdout).toMatch(/etherscan\.account\s.*\sok\n/)
        expect(await readFile(summary, 'utf8')).toMatch(/### broken\.broken[\s\S]*SRC-001/)
        const sarif = JSON.parse(await readFile(join(dir, 'grading.sarif'), 'utf8')) as { runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }> }> }> }
        const parse = sarif.runs[0]?.results.find((r) => r.ruleId === 'SRC-001')
        expect(parse?.locations[0]?.physicalLocation.artifactLocation.uri).toBe('providers/broken/broken.mjs')
        expect(parse?.locations[0]?.physicalLocation.region?.startLine).toBe(4)
    }, 120_000)
})
