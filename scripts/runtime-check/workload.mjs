// Shared by the runtime checks: the workload's input (the examples), its output in plain Node,
// and the package + harness + example schemas bundled as a consumer would ship them.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

export const root = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const examples = join(root, 'examples')
const providers = readdirSync(join(examples, 'providers')).flatMap((ns) =>
    readdirSync(join(examples, 'providers', ns))
        .filter((f) => f.endsWith('.mjs'))
        .map((f) => join(examples, 'providers', ns, f))
)
// Virtual paths, so the output does not depend on where the repository lives.
const virtual = (file) => `/src/${file.slice(join(examples, 'providers').length + 1)}`

export const input = {
    now: '2026-11-22T18:00:00Z',
    sources: Object.fromEntries(providers.map((f) => [virtual(f), readFileSync(f, 'utf8')])),
    recordings: readdirSync(join(examples, 'recordings'))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(examples, 'recordings', f), 'utf8'))),
    answers: JSON.parse(readFileSync(join(examples, 'answers.json'), 'utf8')),
    entries: Object.fromEntries(
        readdirSync(join(examples, 'entries'))
            .sort()
            .map((f) => [f, readFileSync(join(examples, 'entries', f), 'utf8')])
    )
}
export const providerCount = providers.length

/** The workload run in this Node process against `<pkgDir>/dist/index.js`. */
export async function expectedOutput(pkgDir) {
    const { runWorkload } = await import(pathToFileURL(join(root, 'scripts', 'runtime-check', 'harness.mjs')).href)
    const lib = await import(pathToFileURL(join(pkgDir, 'dist', 'index.js')).href)
    const modules = Object.fromEntries(
        await Promise.all(providers.map(async (f) => [virtual(f), await import(pathToFileURL(f).href)]))
    )
    return runWorkload(lib, modules, input)
}

/**
 * One script with the package, the harness and the example schemas. It defines
 * `runWorkload(inputJsonText) → Promise<outputJsonText>` on `globalThis`; `tail` is appended
 * (e.g. a worker's message handler). The input is parsed inside the running realm: objects from
 * another realm are not plain objects there.
 */
export async function bundleWorkload(pkgDir, { format = 'iife', tail = '' } = {}) {
    const entry = [
        `import * as lib from ${JSON.stringify(join(pkgDir, 'dist', 'index.js'))}`,
        `import { runWorkload } from ${JSON.stringify(join(root, 'scripts', 'runtime-check', 'harness.mjs'))}`,
        ...providers.map((f, i) => `import * as m${i} from ${JSON.stringify(f)}`),
        `const modules = { ${providers.map((f, i) => `${JSON.stringify(virtual(f))}: m${i}`).join(', ')} }`,
        'globalThis.runWorkload = (text) => runWorkload(lib, modules, JSON.parse(text))',
        tail
    ].join('\n')
    const bundled = await build({
        stdin: { contents: entry, resolveDir: root, loader: 'js' },
        bundle: true,
        format,
        platform: 'browser',
        target: 'es2022',
        write: false,
        logLevel: 'silent',
        nodePaths: [join(pkgDir, 'node_modules'), join(root, 'node_modules')]
    })
    return bundled.outputFiles[0].text
}
