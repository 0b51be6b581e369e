// `npm run build`: dist/ from nothing. tsup (esbuild) writes the JavaScript while `tsc -b` writes the type
// declarations beside it, both at once: the declarations are emitted by the one TypeScript build the typecheck
// runs too (tsconfig.json, src/cli/tsconfig.json, kept in node_modules/.cache/flowmcp-grading/), so after
// `npm run typecheck` they are current and cost nothing here. Then each public entry point's declarations
// (the files its .d.ts reaches) are copied into dist/ as .d.ts, and for the entry points CommonJS can load
// also as .d.cts, whose imports name .cjs files so TypeScript reads them as CommonJS.
// Usage: node scripts/build.mjs
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, posix, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** Where `tsc -b` writes the declarations of src/ (the layout of src/ under it). */
export const TYPES_DIR = 'node_modules/.cache/flowmcp-grading/types/src'
/** Entry points with a CommonJS form (package.json `require` conditions): their types also as .d.cts. */
const DUAL = ['index.d.ts', 'entry.d.ts', 'catalogue.d.ts']
/** ESM-only entry points: `flowmcp-grading/node` is src/cli/host.ts, re-exported as dist/node.d.ts. */
const ESM_ONLY = { 'node.d.ts': 'cli/host.d.ts' }

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

/** Copies the entry points' declarations from `types` into `dist`; returns how many files it wrote. */
export function copyDeclarations(types, dist) {
    let written = 0
    const write = (rel, text) => {
        mkdirSync(dirname(join(dist, rel)), { recursive: true })
        writeFileSync(join(dist, rel), text)
        written++
    }
    const dual = new Set(DUAL.flatMap((entry) => [...reachable(types, entry)]))
    for (const rel of dual) {
        const text = readFileSync(join(types, rel), 'utf8')
        write(rel, text)
        write(rel.replace(/\.d\.ts$/, '.d.cts'), asCommonJs(text))
    }
    for (const [entry, source] of Object.entries(ESM_ONLY)) {
        for (const rel of reachable(types, source))
            if (!dual.has(rel)) write(rel, readFileSync(join(types, rel), 'utf8'))
        write(entry, `export * from './${source.replace(/\.d\.ts$/, '.js')}'\n`)
    }
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
    const written = copyDeclarations(join(root, TYPES_DIR), join(root, 'dist'))
    if (!silent) process.stdout.write(`DTS ${written} declaration files copied into dist/\n`)
    return 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
    process.exitCode = await buildAll(resolve(fileURLToPath(new URL('..', import.meta.url))))
}
