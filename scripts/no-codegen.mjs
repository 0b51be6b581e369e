// Proves the built package needs no code generation from strings: the package, bundled as a
// consumer would, runs a fixed workload inside node:vm with `codeGeneration: { strings: false }`
// (what a strict CSP without 'unsafe-eval' and Cloudflare Workers enforce), and the result must
// equal, byte for byte, the same workload run in plain Node against dist/.
// Usage: node scripts/no-codegen.mjs [package dir]   (defaults to this repository after `npm run build`)
import { resolve } from 'node:path'
import vm from 'node:vm'
import assert from 'node:assert/strict'
import { bundleWorkload, expectedOutput, input, providerCount, root } from './runtime-check/workload.mjs'

const pkgDir = resolve(process.argv[2] ?? root)
const expected = await expectedOutput(pkgDir)
const script = new vm.Script(await bundleWorkload(pkgDir), { filename: 'flowmcp-grading.bundle.js' })

async function inContext(codeGeneration) {
    const logged = []
    const record = (...args) => logged.push(args.map(String).join(' '))
    // Only what every browser, worker and workerd provides; no Node globals.
    const context = vm.createContext(
        {
            console: { log: record, warn: record, error: record, info: record, debug: record },
            TextEncoder,
            TextDecoder,
            URL,
            URLSearchParams
        },
        { codeGeneration }
    )
    script.runInContext(context)
    const text = await context.runWorkload(JSON.stringify(input))
    return { text, logged }
}

const open = await inContext({ strings: true, wasm: true })
const strict = await inContext({ strings: false, wasm: false })
// The context must really forbid it, or the comparison below proves nothing.
assert.throws(
    () =>
        vm.runInContext(
            'new Function("return 1")',
            vm.createContext({}, { codeGeneration: { strings: false, wasm: false } })
        ),
    { name: 'EvalError' }
)

assert.equal(open.text, expected, 'bundled in node:vm: output differs from plain Node')
assert.equal(strict.text, expected, 'node:vm without code generation: output differs from plain Node')
assert.deepEqual(strict.logged, [], 'node:vm without code generation: the package wrote to the console')
const parsed = JSON.parse(expected)
assert.ok(
    parsed.graded.length === providerCount && Object.keys(parsed.island.files).length > 0,
    'the workload graded nothing'
)
process.stdout.write(
    `no-codegen: ok (${providerCount} schemas graded, ${Object.keys(parsed.island.files).length} island files, ${Object.keys(parsed.entries).length} entries validated; identical in Node, node:vm and node:vm without code generation)\n`
)
