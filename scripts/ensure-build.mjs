// Builds dist/ (scripts/build.mjs) only when it is missing or older than what it is built from: any file or
// folder under src/, tsup.config.ts, tsconfig.json, package.json or the build script. `npm run example`,
// `npm run bench` and `npm pack` (prepack) start with it, so a second run does not pay for a build.
// Usage: node scripts/ensure-build.mjs
import { readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildAll } from './build.mjs'

/** What a build writes last and what package.json points at: if one is missing or old, dist/ is stale. */
export const OUTPUTS = [
    'index.js',
    'index.cjs',
    'index.d.ts',
    'index.d.cts',
    'entry.js',
    'entry.cjs',
    'entry.d.ts',
    'entry.d.cts',
    'cli.js',
    'node.d.ts'
]

/** Files a build reads beside src/ and schemas/ (the validators are generated from those by scripts/validators.mjs). */
export const CONFIG_FILES = [
    'tsup.config.ts',
    'tsconfig.json',
    'package.json',
    'scripts/build.mjs',
    'scripts/validators.mjs'
]

function mtimeOf(path) {
    try {
        return statSync(path).mtimeMs
    } catch {
        return null
    }
}

/**
 * The newest input: every file and folder under src/ and schemas/ (a folder's time changes when a file is removed),
 * and the config files.
 */
function newestInput(root) {
    let newest = { path: null, mtimeMs: -Infinity }
    const see = (path) => {
        const t = mtimeOf(path)
        if (t !== null && t > newest.mtimeMs) newest = { path, mtimeMs: t }
    }
    const walk = (dir) => {
        see(dir)
        for (const e of readdirSync(dir, { withFileTypes: true })) {
            const path = join(dir, e.name)
            if (e.isDirectory()) walk(path)
            else see(path)
        }
    }
    walk(join(root, 'src'))
    if (mtimeOf(join(root, 'schemas')) !== null) walk(join(root, 'schemas'))
    for (const f of CONFIG_FILES) see(join(root, f))
    return newest
}

/**
 * Why dist/ under `root` needs a build, or `null` when it is current.
 * @returns e.g. `dist/cli.js is missing` or `src/index.ts is newer than dist/index.js`
 */
export function staleReason(root) {
    let oldest = { path: null, mtimeMs: Infinity }
    for (const f of OUTPUTS) {
        const t = mtimeOf(join(root, 'dist', f))
        if (t === null) return `dist/${f} is missing`
        if (t < oldest.mtimeMs) oldest = { path: `dist/${f}`, mtimeMs: t }
    }
    const input = newestInput(root)
    return input.mtimeMs > oldest.mtimeMs ? `${relative(root, input.path)} is newer than ${oldest.path}` : null
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
    const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
    const reason = staleReason(root)
    if (reason !== null) {
        process.stderr.write(`Building dist/ (${reason})\n`)
        process.exitCode = await buildAll(root, { silent: true })
    }
}
