// Runs the workload in headless Chromium, in a page and in a Web Worker, both served with
// `Content-Security-Policy: script-src 'self'` (no 'unsafe-eval'), and compares each output with
// plain Node. Not part of CI: needs Chromium (Debian: apt-get install -y chromium).
//   CHROMIUM=chromium node scripts/runtime-check/browser.mjs
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import assert from 'node:assert/strict'
import { bundleWorkload, expectedOutput, input, root } from './workload.mjs'

const chromium = process.env.CHROMIUM ?? 'chromium'
const pkgDir = resolve(process.argv[2] ?? root)
const expected = await expectedOutput(pkgDir)
const inputText = JSON.stringify(input)
const post = (kind) => `(text) => fetch('/result/${kind}', { method: 'POST', body: text })`
const report = (kind) =>
    `globalThis.runWorkload(${JSON.stringify(inputText)}).then(${post(kind)}, (e) => ${post(kind)}('ERROR ' + (e && e.stack || e)))`
const pageJs = await bundleWorkload(pkgDir, { tail: `${report('page')}\nnew Worker('/worker.js')` })
const workerJs = await bundleWorkload(pkgDir, { tail: report('worker') })
const html = '<!doctype html><meta charset="utf-8"><title>flowmcp-grading</title><script src="/page.js"></script>'
const csp = "default-src 'self'; script-src 'self'; worker-src 'self'"

const results = {}
let done
const finished = new Promise((r) => (done = r))
const server = createServer((req, res) => {
    if (req.method === 'POST') {
        let body = ''
        req.on('data', (c) => (body += c))
        req.on('end', () => {
            results[req.url.split('/').pop()] = body
            res.end('ok')
            if (results.page !== undefined && results.worker !== undefined) done()
        })
        return
    }
    const files = {
        '/': [html, 'text/html'],
        '/page.js': [pageJs, 'text/javascript'],
        '/worker.js': [workerJs, 'text/javascript']
    }
    const file = files[req.url]
    if (file === undefined) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': `${file[1]}; charset=utf-8`, 'content-security-policy': csp }).end(file[0])
})
await new Promise((r) => server.listen(0, '127.0.0.1', r))
const profile = mkdtempSync(join(tmpdir(), 'flowmcp-chromium-'))
const browser = spawn(
    chromium,
    [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--user-data-dir=${profile}`,
        `http://127.0.0.1:${server.address().port}/`
    ],
    { stdio: 'ignore' }
)
try {
    const timeout = setTimeout(() => done(), 60_000)
    await finished
    clearTimeout(timeout)
    for (const kind of ['page', 'worker']) {
        assert.ok(results[kind] !== undefined, `chromium ${kind}: no result`)
        assert.equal(
            results[kind],
            expected,
            `chromium ${kind} (CSP script-src 'self'): output differs from plain Node: ${results[kind].slice(0, 500)}`
        )
    }
    process.stdout.write(
        "chromium: ok (page and Web Worker under CSP script-src 'self'; output identical to plain Node)\n"
    )
} finally {
    const exited = new Promise((r) => browser.once('exit', r))
    browser.kill()
    await exited
    server.close()
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 })
}
