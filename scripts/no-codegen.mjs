// Proves the built package needs no code generation from strings: the package (as a consumer
// bundles it) runs a fixed workload inside node:vm with `codeGeneration: { strings: false }` (what a
// strict CSP without 'unsafe-eval', or Cloudflare Workers, enforce), and the result must equal,
// byte for byte, the same workload run in plain Node against dist/.
// Usage: node scripts/no-codegen.mjs [package dir]   (defaults to this repository after `npm run build`)
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import vm from 'node:vm'
import assert from 'node:assert/strict'
import { build } from 'esbuild'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const pkgDir = resolve(process.argv[2] ?? root)
const examples = join(root, 'examples')
const providers = readdirSync(join(examples, 'providers')).flatMap((ns) =>
    readdirSync(join(examples, 'providers', ns)).filter((f) => f.endsWith('.mjs')).map((f) => join(examples, 'providers', ns, f))
)
// Virtual paths, so the workload's output does not depend on where the repository lives.
const virtual = (file) => `/src/${file.slice(join(examples, 'providers').length + 1)}`
const input = {
    now: '2026-11-22T18:00:00Z',
    sources: Object.fromEntries(providers.map((f) => [virtual(f), readFileSync(f, 'utf8')])),
    recordings: readdirSync(join(examples, 'recordings')).sort().map((f) => JSON.parse(readFileSync(join(examples, 'recordings', f), 'utf8'))),
    answers: JSON.parse(readFileSync(join(examples, 'answers.json'), 'utf8')),
    entries: Object.fromEntries(readdirSync(join(examples, 'entries')).sort().map((f) => [f, readFileSync(join(examples, 'entries', f), 'utf8')]))
}

// 1. Plain Node, the package imported from its ESM entry.
const { runWorkload } = await import(pathToFileURL(join(root, 'scripts', 'runtime-check', 'harness.mjs')).href)
const lib = await import(pathToFileURL(join(pkgDir, 'dist', 'index.js')).href)
const modules = Object.fromEntries(await Promise.all(providers.map(async (f) => [virtual(f), await import(pathToFileURL(f).href)])))
const expected = await runWorkload(lib, modules, input)

// 2. The same, bundled as a consumer would (package + schema modules + harness in one script).
const entry = [
    `import * as lib from ${JSON.stringify(join(pkgDir, 'dist', 'index.js'))}`,
    `import { runWorkload } from ${JSON.stringify(join(root, 'scripts', 'runtime-check', 'harness.mjs'))}`,
    ...providers.map((f, i) => `import * as m${i} from ${JSON.stringify(f)}`),
    `const modules = { ${providers.map((f, i) => `${JSON.stringify(virtual(f))}: m${i}`).join(', ')} }`,
    // The input is parsed inside the context: objects from another realm are not plain objects there.
    'globalThis.runWorkload = (text) => runWorkload(lib, modules, JSON.parse(text))'
].join('\n')
const bundled = await build({
    stdin: { contents: entry, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    nodePaths: [join(pkgDir, 'node_modules'), join(root, 'node_modules')]
})
const script = new vm.Script(bundled.outputFiles[0].text, { filename: 'flowmcp-grading.bundle.js' })

async function inContext(codeGeneration) {
    const logged = []
    const record = (...args) => logged.push(args.map(String).join(' '))
    // Only what every browser, worker and workerd provides; no Node globals.
    const context = vm.createContext({ console: { log: record, warn: record, error: record, info: record, debug: record }, TextEncoder, TextDecoder, URL, URLSearchParams }, { codeGeneration })
    script.runInContext(context)
    const text = await context.runWorkload(JSON.stringify(input))
    return { text, logged }
}

const open = await inContext({ strings: true, wasm: true })
const strict = await inContext({ strings: false, wasm: false })
// A guard that the context really forbids it: the check below would prove nothing otherwise.
assert.throws(() => vm.runInContext('new Function("return 1")', vm.createContext({}, { codeGeneration: { strings: false, wasm: false } })), { name: 'EvalError' })

assert.equal(open.text, expected, 'bundled in node:vm: output differs from plain Node')
assert.equal(strict.text, expected, 'node:vm without code generation: output differs from plain Node')
assert.deepEqual(strict.logged, [], 'node:vm without code generation: the package wrote to the console')
const parsed = JSON.parse(expected)
assert.ok(parsed.graded.length === providers.length && Object.keys(parsed.island.files).length > 0, 'the workload graded nothing')
process.stdout.write(`no-codegen: ok (${providers.length} schemas graded, ${Object.keys(parsed.island.files).length} island files, ${Object.keys(parsed.entries).length} entries validated; identical in Node, node:vm and node:vm without code generation)\n`)
