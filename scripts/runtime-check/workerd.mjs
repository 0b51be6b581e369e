// Runs the workload in Cloudflare's workerd runtime (no code generation from strings there) and
// compares its output with plain Node. Not part of CI: needs the `workerd` binary, e.g.
//   npm install --no-save workerd && WORKERD=node_modules/.bin/workerd node scripts/runtime-check/workerd.mjs
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import assert from 'node:assert/strict'
import { bundleWorkload, expectedOutput, input, root } from './workload.mjs'

const workerd = process.env.WORKERD ?? 'workerd'
const pkgDir = resolve(process.argv[2] ?? root)
const port = 8700 + Math.floor(Math.random() * 200)
const expected = await expectedOutput(pkgDir)
const dir = mkdtempSync(join(tmpdir(), 'flowmcp-workerd-'))
const worker = await bundleWorkload(pkgDir, {
    format: 'esm',
    tail: `const INPUT = ${JSON.stringify(JSON.stringify(input))}
export default {
    async fetch() {
        try { return new Response(await globalThis.runWorkload(INPUT)) } catch (e) { return new Response(String(e && e.stack || e), { status: 500 }) }
    }
}`
})
writeFileSync(join(dir, 'worker.js'), worker)
writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ]
);
const w :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2024-09-23"
);
`
)
const child = spawn(workerd, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'inherit', 'inherit'] })
try {
    let res = null
    for (let i = 0; i < 50 && res === null; i++) {
        await new Promise((r) => setTimeout(r, 200))
        res = await fetch(`http://127.0.0.1:${port}/`).catch(() => null)
    }
    assert.ok(res !== null, 'workerd did not start')
    const text = await res.text()
    assert.equal(res.status, 200, text.slice(0, 2000))
    assert.equal(text, expected, 'workerd: output differs from plain Node')
    process.stdout.write('workerd: ok (output identical to plain Node)\n')
} finally {
    child.kill()
    rmSync(dir, { recursive: true, force: true })
}
