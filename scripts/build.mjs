// `npm run build`: dist/ from nothing. tsup (esbuild) writes the JavaScript while `tsc -b` writes the type
// declarations beside it, both at once: the declarations are emitted by the one TypeScript build the typecheck
// runs too (tsconfig.json, src/cli/tsconfig.json, kept in node_modules/.cache/flowmcp-grading/), so after
// `npm run typecheck` they are current and cost nothing here. Then the declarations each entry point of
// package.json's `exports` reaches are copied into dist/ as .d.ts, and for the entry points CommonJS can load
// also as .d.cts, whose imports name .cjs files so TypeScript reads them as CommonJS.
// Usage: node scripts/build.mjs
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, posix, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Where `tsc -b` writes the declarations of src/ (the layout of src/ under it). */
export const TYPES_DIR = 'node_modules/.cache/flowmcp-grading/types/src'
/** Entry points whose module is not src/<name>.ts: `flowmcp-grading/node` is src/cli/runtime/host.ts. */
const SOURCES = { node: 'cli/runtime/host.d.ts' }

/**
 * The entry points package.json's `exports` give types, by their dist/ name: the declaration file of their
 * module (relative to the types folder), and whether they have a CommonJS form (a `.d.cts` is named).
 */
export function typedEntries(exports) {
    const entries = new Map()
    const visit = (node) => {
        for (const [key, value] of Object.entries(node ?? {})) {
            const m =
                key === 'types' && typeof value === 'string' ? /^\.\/dist\/([\w-]+)\.d\.(c?)ts$/.exec(value) : null
            if (m === null) {
                if (typeof value === 'object') visit(value)
                continue
            }
            const source = SOURCES[m[1]] ?? `${m[1]}.d.ts`
            entries.set(m[1], { source, dual: entries.get(m[1])?.dual === true || m[2] === 'c' })
        }
    }
    visit(exports)
    return entries
}

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g

/** The declaration files (relative to `types`) that `start` reaches through its relative imports, itself included. */
export function reachable(types, start) {
    const seen = new Set()
    const visit = (rel) => {
        if (seen.has(rel)) return
        seen.add(rel)
        const text = readFileSync(join(types, rel), 'utf8')
        for (const m of text.matchAll(SPECIFIER)) {
            const target = posix.join(posix.dirname(rel), m[3])
            if (target.endsWith('.js')) visit(target.replace(/\.js$/, '.d.ts'))
        }
    }
    visit(start)
    return seen
}

/** A .d.ts as its .d.cts twin: relative `.js` imports become `.cjs`, which TypeScript reads as their .d.cts. */
export function asCommonJs(text) {
    return text.replace(SPECIFIER, (all, lead, quote, path) =>
        path.endsWith('.js') ? `${lead}${quote}${path.replace(/\.js$/, '.cjs')}${quote}` : all
    )
}

/**
 * Copies into `dist` the declarations each entry point (see typedEntries) reaches in `types`: as .d.ts, and also
 * as .d.cts where a dual entry point reaches them. An entry point whose module is elsewhere (node: cli/runtime/host,
 * or a folder's index.ts) is a one-line re-export of it. Returns how many files it wrote.
 */
export function copyDeclarations(types, dist, entries) {
    // An entry point whose module is a folder's index (src/<name>/index.ts) has its declarations there.
    const sourceOf = (name, source) =>
        source === `${name}.d.ts` && !existsSync(join(types, source)) && existsSync(join(types, name, 'index.d.ts'))
            ? `${name}/index.d.ts`
            : source
    entries = new Map([...entries].map(([name, e]) => [name, { ...e, source: sourceOf(name, e.source) }]))
    const files = new Map()
    const add = (rel, dual) => files.set(rel, files.get(rel) === true || dual)
    for (const { source, dual } of entries.values()) for (const rel of reachable(types, source)) add(rel, dual)
    let written = 0
    const write = (rel, text, dual) => {
        mkdirSync(dirname(join(dist, rel)), { recursive: true })
        writeFileSync(join(dist, rel), text)
        if (dual) writeFileSync(join(dist, rel.replace(/\.d\.ts$/, '.d.cts')), asCommonJs(text))
        written += dual ? 2 : 1
    }
    for (const [rel, dual] of files) write(rel, readFileSync(join(types, rel), 'utf8'), dual)
    for (const [name, { source, dual }] of entries)
        if (source !== `${name}.d.ts`)
            write(`${name}.d.ts`, `export * from './${source.replace(/\.d\.ts$/, '.js')}'\n`, dual)
    return written
}

/** Runs a local devDependency's bin with node (no shell); resolves to its exit status. */
function runBin(root, pkg, bin, args) {
    const require = createRequire(join(root, 'package.json'))
    const pkgPath = require.resolve(`${pkg}/package.json`)
    const rel = JSON.parse(readFileSync(pkgPath, 'utf8')).bin[bin]
    const child = spawn(process.execPath, [resolve(dirname(pkgPath), rel), ...args], { cwd: root, stdio: 'inherit' })
    return new Promise((done) => child.on('close', (code) => done(code ?? 1)))
}

/** Builds dist/ under `root` from nothing; resolves to 0 on success, else the first failing step's status. */
export async function buildAll(root, { silent = false } = {}) {
    rmSync(join(root, 'dist'), { recursive: true, force: true })
    const [js, types] = await Promise.all([
        runBin(root, 'tsup', 'tsup', silent ? ['--silent'] : []),
        runBin(root, 'typescript', 'tsc', ['-b', 'src/cli/tsconfig.json'])
    ])
    if (js !== 0 || types !== 0) return js !== 0 ? js : types
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    const written = copyDeclarations(join(root, TYPES_DIR), join(root, 'dist'), typedEntries(pkg.exports))
    if (!silent) process.stdout.write(`DTS ${written} declaration files copied into dist/\n`)
    return 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
    process.exitCode = await buildAll(resolve(fileURLToPath(new URL('..', import.meta.url))))
}
