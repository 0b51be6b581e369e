// Compiles every TypeScript snippet of README.md and docs/*.md as a consumer would: a fresh project
// with the packed package installed, `tsc --strict`, module/moduleResolution nodenext, once with the
// DOM lib and once without (Node's types only). A fenced block tagged ```ts no-check is a fragment
// that is not meant to compile on its own; every other ```ts / ```typescript block must.
// Usage: node scripts/check-doc-types.mjs <flowmcp-grading-x.y.z.tgz>
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const tarball = process.argv[2] ? resolve(process.argv[2]) : null
if (tarball === null) throw new Error('usage: node scripts/check-doc-types.mjs <tarball>')

const docs = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => `docs/${f}`)
]
const snippets = []
for (const doc of docs) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n')
    let open = null
    lines.forEach((line, i) => {
        const fence = /^```(\S*)\s*(.*)$/.exec(line)
        if (fence === null) {
            if (open !== null) open.lines.push(line)
            return
        }
        if (open === null) open = { lang: fence[1], tags: fence[2].split(/\s+/), line: i + 1, lines: [] }
        else {
            if (['ts', 'typescript'].includes(open.lang) && !open.tags.includes('no-check'))
                snippets.push({ doc, line: open.line, code: open.lines.join('\n') })
            open = null
        }
    })
}

// Names the snippets use without defining them: what the surrounding prose says the reader has.
const GLOBALS = `import type { Clock, FsPort, GraderInput, GradingEntry, Judge, SchemaLoader } from 'flowmcp-grading'
declare global {
    const textFromAnLlmGrader: string
    function callYourLlm(prompt: string): Promise<string>
    const grader: GraderInput
    const fs: FsPort
    const root: string
    const now: string
    const judge: Judge
    const domainKnowledge: string
    const text: string
    const schemaLoader: SchemaLoader
    const clock: Clock
    const entry: GradingEntry
}
export {}
`

const project = mkdtempSync(join(tmpdir(), 'flowmcp-doc-types-'))
try {
    writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'doc-snippets', private: true, type: 'module' })
    )
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], {
        cwd: project,
        stdio: ['ignore', 'ignore', 'inherit']
    })
    mkdirSync(join(project, 'src'))
    writeFileSync(join(project, 'src', 'globals.d.ts'), GLOBALS)
    snippets.forEach((s, i) =>
        writeFileSync(join(project, 'src', `snippet-${i}.ts`), `// ${s.doc}:${s.line}\n${s.code}\n`)
    )
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
    let failed = false
    for (const [name, lib] of [
        ['with DOM', ['ES2022', 'DOM']],
        ['without DOM', ['ES2022']]
    ]) {
        const tsconfig = {
            compilerOptions: {
                strict: true,
                module: 'nodenext',
                moduleResolution: 'nodenext',
                target: 'ES2022',
                lib,
                noEmit: true,
                // Node's types come from this repository's devDependencies: the project must not need the registry for them.
                types: ['node'],
                typeRoots: [join(root, 'node_modules', '@types')]
            },
            include: ['src/**/*.ts']
        }
        writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
        const res = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' })
        if (res.status !== 0) {
            failed = true
            // Point each error at the markdown line it comes from.
            const out = res.stdout.replace(
                /src\/snippet-(\d+)\.ts\((\d+),(\d+)\)/g,
                (_m, i, l, c) => `${snippets[i].doc}:${snippets[i].line + Number(l) - 1}:${c}`
            )
            process.stderr.write(`doc snippets (${name}):\n${out}\n`)
        }
    }
    if (failed) process.exit(1)
    process.stdout.write(
        `doc types: ok (${snippets.length} snippets from ${docs.length} files; strict, nodenext, with and without DOM)\n`
    )
} finally {
    rmSync(project, { recursive: true, force: true })
}
