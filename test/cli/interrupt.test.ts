import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shared } from '../support/shared.js'
import { esbuildValidators } from '../../scripts/validators.mjs'

// Ctrl-C on a real process: the CLI bundled as it ships, a judge that never answers, SIGINT while it waits.
const SAMPLE = shared('corpus-sample/schemas/').path
const present = shared('corpus-sample/schemas/bis/').present && shared('corpus-sample/schemas/frankfurter/').present
let dir = ''
let cli = ''

beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'flowmcp-sigint-'))
    if (!present) return
    const { build } = await import('esbuild')
    cli = join(dir, 'cli.mjs')
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
    for (const ns of ['bis', 'frankfurter']) await cp(join(SAMPLE, ns), join(dir, 'providers', ns), { recursive: true })
    // The judge says it started, then hangs until it is killed.
    await writeFile(join(dir, 'judge.sh'), '#!/bin/sh\necho $$ > judge.pid\ntouch started\nexec sleep 60\n')
    await chmod(join(dir, 'judge.sh'), 0o755)
})
afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
})

describe.skipIf(!present)('Ctrl-C', () => {
    it('check exits 130 naming what was skipped, kills the waiting judge, and still writes SARIF and the summary', async () => {
        const child = spawn(
            process.execPath,
            [
                cli,
                'check',
                'providers',
                '--judge-command',
                './judge.sh',
                '--judge-model',
                'stand-in',
                '--sarif',
                'out.sarif',
                '--summary',
                'summary.md',
                '--now',
                '2026-11-25T10:00:00Z'
            ],
            { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] }
        )
        let stderr = ''
        let stdout = ''
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
        // Wait (by polling, not by a clock assertion) until the judge is running.
        for (let i = 0; i < 400 && !existsSync(join(dir, 'started')); i++) await new Promise((r) => setTimeout(r, 50))
        expect(existsSync(join(dir, 'started')), stderr).toBe(true)
        child.kill('SIGINT')
        const code = await exited
        expect(code, stderr).toBe(130)
        expect(stderr).toMatch(/interrupted; skipped: .*not started: providers\/frankfurter/)
        expect(stderr).toMatch(/units? of bis not answered/)
        expect(stdout).toMatch(/check interrupted; skipped:/)
        expect(existsSync(join(dir, 'out.sarif'))).toBe(true)
        // The judge's process group was killed, not left behind.
        const pid = Number(await readFile(join(dir, 'judge.pid'), 'utf8'))
        // Gone, or a zombie waiting to be reaped once its parent (the CLI) is gone: polled, not timed.
        const gone = async (): Promise<boolean> => {
            try {
                process.kill(pid, 0)
            } catch {
                return true
            }
            return (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.startsWith('Z') ?? true
        }
        let dead = await gone()
        for (let i = 0; i < 100 && !dead; i++) {
            await new Promise((r) => setTimeout(r, 50))
            dead = await gone()
        }
        expect(dead).toBe(true)
        const summary = await readFile(join(dir, 'summary.md'), 'utf8')
        expect(summary).toMatch(/\*\*Interrupted\*\* \(Ctrl-C\); skipped: .*frankfurter/)
        // Its heading never says passed, and what the run never reached is unverified, not ok.
        expect(summary).toMatch(/^## flowmcp-grading check: interrupted/)
        expect(summary).not.toContain('check: passed')
        expect(summary).toMatch(/\| frankfurter\.frankfurter \| — \| — \| pending \| \*\*unverified\*\* \|/)
        expect(stdout).toMatch(
            /frankfurter\.frankfurter: not verified: the run was interrupted \(Ctrl-C\) before its namespace was graded/
        )
    }, 60_000)
})
