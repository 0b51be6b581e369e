import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The workspace's read-only material beside the clone (../shared: the corpus sample, the FlowMCP
// runtime), never copied into the project. A test that needs a part of it asks `shared("<part>")`
// with the part written as a literal, so the suite can list, before it runs, what a clone without
// it does not run (`sharedReport`, printed once by test/support/shared-setup.ts).

/** ../shared beside the repository; `FLOWMCP_SHARED_DIR` points elsewhere (a missing folder shows what a clone without it runs). */
export const SHARED_ROOT = process.env.FLOWMCP_SHARED_DIR ?? fileURLToPath(new URL('../../../shared/', import.meta.url))
const TEST_ROOT = fileURLToPath(new URL('../', import.meta.url))

/** Whether the environment is a CI run (`CI` set to anything but empty, `0` or `false`). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
    const value = (env.CI ?? '').trim().toLowerCase()
    return value !== '' && value !== '0' && value !== 'false'
}

export interface SharedPart {
    /** Absolute path of the part. */
    readonly path: string
    /** Whether it exists; where it does not, the tests that need it skip (locally) or fail (CI). */
    readonly present: boolean
}

export interface SharedOptions {
    readonly root?: string
    readonly env?: NodeJS.ProcessEnv
}

function missingMessage(parts: readonly string[], root: string, files: readonly string[]): string {
    const what = files.length > 0 ? `${files.length} test file(s) need it: ${files.join(', ')}` : 'a test needs it'
    return `../shared is incomplete (${root}): missing ${parts.join(', ')}; ${what}.`
}

/**
 * A part of ../shared a test needs, e.g. `shared("corpus-sample/schemas/frankfurter/")`. Under CI a
 * missing part throws: a CI run never passes with tests it did not run.
 */
export function shared(part: string, options: SharedOptions = {}): SharedPart {
    const root = options.root ?? SHARED_ROOT
    const path = join(root, part)
    const present = existsSync(path)
    if (!present && isCi(options.env))
        throw new Error(`${missingMessage([part], root, [])} CI=true: failing instead of skipping.`)
    return { path, present }
}

function testFiles(dir: string): string[] {
    return readdirSync(dir)
        .sort()
        .flatMap((name) => {
            const full = join(dir, name)
            return statSync(full).isDirectory() ? testFiles(full) : full.endsWith('.ts') ? [full] : []
        })
}

/** The literal parts each file asks for, a helper's parts counted for every test file importing it. */
export function sharedNeeds(testRoot: string = TEST_ROOT): Map<string, string[]> {
    const own = new Map<string, string[]>()
    const imports = new Map<string, string[]>()
    for (const file of testFiles(testRoot)) {
        const text = readFileSync(file, 'utf8')
        const parts = [...text.matchAll(/\bshared\(\s*'([^']+)'/g)].map((m) => m[1] as string)
        if (parts.length > 0) own.set(file, parts)
        imports.set(
            file,
            [...text.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)].map((m) =>
                resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))
            )
        )
    }
    const needs = new Map<string, string[]>()
    for (const [file, targets] of imports) {
        if (!file.endsWith('.test.ts')) continue
        const parts = [...(own.get(file) ?? []), ...targets.flatMap((t) => own.get(t) ?? [])]
        if (parts.length > 0) needs.set(relative(resolve(testRoot, '..'), file), [...new Set(parts)])
    }
    return needs
}

// The ways a test could reach ../shared without the helper: a relative climb to it at the start of a string or
// after a slash (`'../../../shared/…'`, `${root}/../shared`), a `'..', 'shared'` path join, the workspace's
// absolute path, the environment variable or this module's root read directly.
const AROUND_THE_HELPER: readonly RegExp[] = [
    /(?:^|['"`/])(?:\.\.\/)+shared(?:\/|['"`]|$)/,
    /['"`]\.\.['"`]\s*,\s*['"`]shared['"`]/,
    /\/work\/shared\b/,
    /\bFLOWMCP_SHARED_DIR\b/,
    /\bSHARED_ROOT\b/
]

/** A line's code without its `//` comment (a `//` inside a string, as in a URL, is kept). */
function codeOf(line: string): string {
    const trimmed = line.trimStart()
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return ''
    const comment = line.search(/\s\/\/\s/)
    return comment === -1 ? line : line.slice(0, comment)
}

/**
 * Lines of test files (`file:line: code`) that reach ../shared some other way than `shared("<part>")`: such a
 * test is not counted by `sharedNeeds`, so a clone without ../shared fails on it instead of skipping it.
 * This module is the one place allowed to name the folder.
 */
export function sharedPathsAroundHelper(testRoot: string = TEST_ROOT): string[] {
    const helper = fileURLToPath(import.meta.url)
    const found: string[] = []
    for (const file of testFiles(testRoot)) {
        if (file === helper) continue
        readFileSync(file, 'utf8')
            .split('\n')
            .forEach((line, i) => {
                const code = codeOf(line)
                if (AROUND_THE_HELPER.some((rx) => rx.test(code)))
                    found.push(`${relative(resolve(testRoot, '..'), file)}:${i + 1}: ${line.trim()}`)
            })
    }
    return found
}

/**
 * One line naming the test files that do not run for want of ../shared, and why; null when nothing is
 * missing. Under CI it throws that line instead.
 */
export function sharedReport(options: SharedOptions & { readonly testRoot?: string } = {}): string | null {
    const root = options.root ?? SHARED_ROOT
    const needs = sharedNeeds(options.testRoot)
    const missing = new Set<string>()
    const files: string[] = []
    for (const [file, parts] of needs) {
        const absent = parts.filter((p) => !existsSync(join(root, p)))
        if (absent.length === 0) continue
        files.push(file)
        for (const p of absent) missing.add(p.split('/')[0] as string)
    }
    if (files.length === 0) return null
    const line = missingMessage([...missing].sort(), root, files)
    if (isCi(options.env)) throw new Error(`${line} CI=true: failing instead of skipping.`)
    return `skipped: ${line} Set CI=true to make this a failure.`
}
