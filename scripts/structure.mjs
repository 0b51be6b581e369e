// The house rules on the shape of the code, measured with the TypeScript parser:
// - no function over 120 lines, and at most 8 over 80 in src/ (each a stage asking for its name);
// - no file in src/cli/ over 300 lines (the CLI parses, calls and prints).
// A lexer's scan loop and an object factory are exempt by name, each with its reason.
// Usage: node scripts/structure.mjs   (prints the long functions; exits 1 when a rule is broken)
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const LIMITS = Object.freeze({
    functionLines: 120,
    longFunctionLines: 80,
    maxLongFunctions: 8,
    cliFileLines: 300
})

/** `file#function` → why it may be long. Kept short on purpose: every row is a reviewed exception. */
export const EXEMPT = Object.freeze({
    'src/schema/lexer.ts#lex': 'a lexer scan loop: one state machine over the characters reads best whole',
    'src/ports/memory-fs.ts#createMemoryFs':
        'an object factory: each method of the port is short, the factory only gathers them'
})

function nameOf(node, sf) {
    if (node.name !== undefined) return node.name.getText(sf)
    const parent = node.parent
    if (
        parent !== undefined &&
        (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    )
        return parent.name.getText(sf)
    return '<anonymous>'
}

/**
 * Every function, method, accessor and arrow with a block body in `text`, with the lines its body spans.
 * @returns `[{ name, line, lines }]`, `line` 1-based where the body opens
 */
export function functionLengths(fileName, text) {
    const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true)
    const out = []
    const visit = (node) => {
        const isFunction =
            ts.isFunctionDeclaration(node) ||
            ts.isMethodDeclaration(node) ||
            ts.isArrowFunction(node) ||
            ts.isFunctionExpression(node) ||
            ts.isConstructorDeclaration(node) ||
            ts.isGetAccessorDeclaration(node) ||
            ts.isSetAccessorDeclaration(node)
        if (isFunction && node.body !== undefined && ts.isBlock(node.body)) {
            const first = sf.getLineAndCharacterOfPosition(node.body.getStart(sf)).line
            const last = sf.getLineAndCharacterOfPosition(node.body.getEnd()).line
            out.push({ name: nameOf(node, sf), line: first + 1, lines: last - first + 1 })
        }
        ts.forEachChild(node, visit)
    }
    visit(sf)
    return out
}

function sources(dir) {
    return readdirSync(dir).flatMap((name) => {
        const full = join(dir, name)
        return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : []
    })
}

/**
 * Measures `root`'s src/ against {@link LIMITS}.
 * @returns `{ long, tooLong, cliFiles, problems }`: functions over 80 lines (exempt ones marked), those over 120,
 *   CLI files over 300 lines, and one sentence per broken rule (empty when the house is in order)
 */
export function measureStructure(root) {
    const src = join(root, 'src')
    const long = []
    const cliFiles = []
    for (const file of sources(src)) {
        const rel = relative(root, file).split('\\').join('/')
        const text = readFileSync(file, 'utf8')
        for (const fn of functionLengths(rel, text)) {
            if (fn.lines > LIMITS.longFunctionLines)
                long.push({
                    at: `${rel}:${fn.line}`,
                    name: fn.name,
                    lines: fn.lines,
                    exempt: EXEMPT[`${rel}#${fn.name}`] ?? null
                })
        }
        const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
        if (rel.startsWith('src/cli/') && lines > LIMITS.cliFileLines) cliFiles.push({ file: rel, lines })
    }
    long.sort((a, b) => b.lines - a.lines)
    const counted = long.filter((f) => f.exempt === null)
    const tooLong = counted.filter((f) => f.lines > LIMITS.functionLines)
    const problems = [
        ...tooLong.map(
            (f) =>
                `${f.at} ${f.name} has ${f.lines} lines; no function may pass ${LIMITS.functionLines}: split it into named stages.`
        ),
        ...(counted.length > LIMITS.maxLongFunctions
            ? [
                  `${counted.length} functions pass ${LIMITS.longFunctionLines} lines; at most ${LIMITS.maxLongFunctions} may: name the stages of the longest.`
              ]
            : []),
        ...cliFiles.map(
            (f) =>
                `${f.file} has ${f.lines} lines; a CLI file may have ${LIMITS.cliFileLines}: move what is not parsing, calling or printing into the library.`
        )
    ]
    return { long, tooLong, cliFiles, problems }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
    const { long, problems } = measureStructure(root)
    for (const f of long)
        process.stdout.write(
            `${String(f.lines).padStart(4)}  ${f.name.padEnd(28)} ${f.at}${f.exempt !== null ? `  (exempt: ${f.exempt})` : ''}\n`
        )
    process.stdout.write(
        `${long.filter((f) => f.exempt === null).length} of at most ${LIMITS.maxLongFunctions} functions over ${LIMITS.longFunctionLines} lines\n`
    )
    for (const p of problems) process.stdout.write(`FAIL ${p}\n`)
    if (problems.length > 0) process.exitCode = 1
}
