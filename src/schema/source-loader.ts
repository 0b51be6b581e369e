import { SEVERITY } from '../model/constants.js'
import { parse } from 'acorn'
import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { FsPort, LoadedModule, SchemaLoader } from '../ports/types.js'
import { isObject } from '../model/object.js'

/**
 * Reading a FlowMCP module without running it. The source is parsed with acorn (a small, maintained
 * ECMAScript parser without dependencies that runs unchanged in Node, browsers and workers) and the
 * wanted exports are read from the syntax tree. Nothing of the source is ever evaluated, so no
 * spelling trick (`globalThis['ev'+'al']`, unicode escapes, regex-vs-division) can run code: a
 * construct that is not a plain value is a coded error, never a reason to import the module.
 */

/** Longest source read (characters); a real schema is well below 1 MB. */
export const MAX_SOURCE_LENGTH = 4_000_000
/** Deepest value nesting read; deeper values are refused before any recursion can overflow. */
const MAX_VALUE_DEPTH = 100
/** Most values built per module: `const` names can be reused, so the tree is bounded, not the text. */
const MAX_VALUES = 500_000
/** Most characters `JSON.stringify(…)` may make per module, counted before any string is built. */
const MAX_STRINGIFIED = 4_000_000
/** Widest indentation `JSON.stringify(value, null, n)` takes, as the platform does. */
const MAX_INDENT = 10

/** The exports a grading needs; `handlers` is only ever recorded, never read. */
export const READ_EXPORTS = ['main', 'schema', 'skill'] as const

/** What {@link readModuleSource} yields. */
export interface SourceModuleResult {
    /**
     * The read exports (`main`, `schema`, `skill` when present and readable), or `null` when the source does not parse.
     */
    readonly module: LoadedModule | null
    /** Whether the module exports `handlers` (never read, never run). */
    readonly hasHandlers: boolean
    /** Every exported name, sorted. */
    readonly exportNames: readonly string[]
    /** SRC-001…SRC-005 errors, SRC-006 warnings. */
    readonly errors: Issue[]
}

// Minimal shapes of the ESTree nodes we read; acorn's own types are broader than needed here.
interface Node {
    readonly type: string
    readonly loc?: { readonly start: { readonly line: number } } | null
    readonly [key: string]: unknown
}

class Refusal {
    constructor(
        readonly construct: string,
        readonly line: number
    ) {}
}

const LABELS: Readonly<Record<string, string>> = {
    CallExpression: 'a function call',
    NewExpression: 'a constructor call (new)',
    MemberExpression: 'a member access',
    ChainExpression: 'an optional chain',
    ArrowFunctionExpression: 'a function',
    FunctionExpression: 'a function',
    ClassExpression: 'a class',
    TaggedTemplateExpression: 'a tagged template',
    TemplateLiteral: 'a template string with expressions',
    BinaryExpression: 'an operator expression',
    LogicalExpression: 'a logical expression',
    ConditionalExpression: 'a conditional expression',
    AssignmentExpression: 'an assignment',
    UpdateExpression: 'an update expression',
    SequenceExpression: 'a sequence expression',
    AwaitExpression: 'await',
    YieldExpression: 'yield',
    ImportExpression: 'a dynamic import()',
    MetaProperty: 'import.meta',
    ThisExpression: 'this',
    UnaryExpression: 'a unary operator other than minus'
}

function lineOf(node: Node): number {
    return node.loc?.start.line ?? 0
}

function labelOf(node: Node): string {
    return LABELS[node.type] ?? `a ${node.type}`
}

/** One top-level binding: a `const` with its initializer, or a name bound any other way. */
type Binding =
    | { readonly kind: 'const'; readonly init: Node }
    | { readonly kind: 'other'; readonly what: string; readonly line: number }

interface Scope {
    readonly bindings: Map<string, Binding>
    readonly memo: Map<string, unknown>
    readonly active: Set<string>
    count: number
    /** Characters left for `JSON.stringify(…)` in this module. */
    stringified: number
}

/** `a.b.c` for a callee made of plain names and non-computed members, else `null`. */
function dottedName(node: Node): string | null {
    if (node.type === 'Identifier') return node.name as string
    if (node.type !== 'MemberExpression' || node.computed === true || node.optional === true) return null
    const object = dottedName(node.object as Node)
    const property = node.property as Node
    return object === null || property.type !== 'Identifier' ? null : `${object}.${property.name as string}`
}

/**
 * Whether the node is the literal `null` (checked on the raw text: acorn also gives `null` for an unsupported regex).
 */
function isNullLiteral(node: Node): boolean {
    return node.type === 'Literal' && node.raw === 'null'
}

/**
 * The characters `JSON.stringify` would make of a read value, at least: one per value plus strings,
 * keys and indentation. Walks the value as written out (shared `const` values count at every use)
 * and stops as soon as the count passes `limit`, so the walk costs at most `limit` steps.
 */
function stringifiedLength(value: unknown, indent: number, limit: number): number {
    let total = 0
    const walk = (v: unknown, level: number): void => {
        if (level > MAX_VALUE_DEPTH) throw new RangeError('nesting')
        total += 1 + indent * level
        if (total > limit) return
        if (typeof v === 'string') total += v.length
        else if (Array.isArray(v)) {
            for (const item of v) {
                walk(item, level + 1)
                if (total > limit) return
            }
        } else if (v !== null && typeof v === 'object') {
            for (const [key, item] of Object.entries(v)) {
                total += key.length + 3
                walk(item, level + 1)
                if (total > limit) return
            }
        }
    }
    walk(value, 0)
    return total
}

/**
 * `JSON.stringify(value)` or `JSON.stringify(value, null, n)` with the global `JSON`: the argument is
 * read like any value, and the string is made by our code from that plain value. The schema's code
 * never runs; every other call is refused, naming what was called.
 */
function readStringify(node: Node, scope: Scope, depth: number): string {
    const line = lineOf(node)
    const callee = node.callee as Node
    if (callee.type === 'MemberExpression' && callee.computed === true) {
        const object = dottedName(callee.object as Node)
        throw new Refusal(`a call through a computed member access (${object ?? '…'}[…])`, line)
    }
    const name = dottedName(callee)
    if (name !== 'JSON.stringify') throw new Refusal(name === null ? labelOf(node) : `${labelOf(node)} (${name})`, line)
    const shadow = scope.bindings.get('JSON')
    if (shadow !== undefined) {
        const what = shadow.kind === 'const' ? 'a const binding' : shadow.what
        throw new Refusal(`JSON.stringify with JSON bound in the module (${what}), not the global JSON`, line)
    }
    const args = node.arguments as Node[]
    if (args.some((arg) => arg.type === 'SpreadElement'))
        throw new Refusal('a spread argument in JSON.stringify(…)', line)
    if (args.length !== 1 && args.length !== 3)
        throw new Refusal(
            `JSON.stringify with ${args.length} arguments (read: JSON.stringify(value) or JSON.stringify(value, null, n))`,
            line
        )
    let indent = 0
    if (args.length === 3) {
        const replacer = args[1] as Node
        const space = args[2] as Node
        if (!isNullLiteral(replacer)) {
            const fn = replacer.type === 'ArrowFunctionExpression' || replacer.type === 'FunctionExpression'
            throw new Refusal(
                fn ? 'a replacer function in JSON.stringify(…)' : 'a replacer in JSON.stringify(…) (only null is read)',
                lineOf(replacer)
            )
        }
        if (
            space.type !== 'Literal' ||
            typeof space.value !== 'number' ||
            !Number.isInteger(space.value) ||
            space.value < 0 ||
            space.value > MAX_INDENT
        ) {
            throw new Refusal(
                `an indentation in JSON.stringify(…) that is not an integer literal from 0 to ${MAX_INDENT}`,
                lineOf(space)
            )
        }
        indent = space.value
    }
    let value: unknown
    try {
        value = evaluate(args[0] as Node, scope, depth + 1)
    } catch (cause) {
        if (cause instanceof Refusal) throw new Refusal(`${cause.construct} inside JSON.stringify(…)`, cause.line)
        throw cause
    }
    let length: number
    try {
        length = stringifiedLength(value, indent, scope.stringified)
    } catch {
        throw new Refusal(`nesting deeper than ${MAX_VALUE_DEPTH} inside JSON.stringify(…)`, line)
    }
    if (length > scope.stringified)
        throw new Refusal(`JSON.stringify(…) making more than ${MAX_STRINGIFIED} characters in the module`, line)
    // Our code on the read plain value, never the schema's: the platform's own output (-0 as 0, lone surrogates
    // escaped).
    const text = JSON.stringify(value, null, indent)
    scope.stringified -= text.length
    return text
}

function evaluate(node: Node, scope: Scope, depth: number): unknown {
    if (depth > MAX_VALUE_DEPTH) throw new Refusal(`nesting deeper than ${MAX_VALUE_DEPTH}`, lineOf(node))
    scope.count += 1
    if (scope.count > MAX_VALUES) throw new Refusal(`more than ${MAX_VALUES} values`, lineOf(node))
    switch (node.type) {
        case 'Literal': {
            if (node.regex !== undefined) throw new Refusal('a regular expression', lineOf(node))
            if (node.bigint !== undefined) throw new Refusal('a BigInt', lineOf(node))
            return node.value
        }
        case 'TemplateLiteral': {
            const quasis = node.quasis as Node[]
            const expressions = node.expressions as Node[]
            const cooked = (quasis[0]?.value as { cooked?: unknown } | undefined)?.cooked
            if (expressions.length > 0 || typeof cooked !== 'string') throw new Refusal(labelOf(node), lineOf(node))
            return cooked
        }
        case 'UnaryExpression': {
            if (node.operator !== '-') throw new Refusal(`the unary operator ${String(node.operator)}`, lineOf(node))
            const value = evaluate(node.argument as Node, scope, depth + 1)
            if (typeof value !== 'number') throw new Refusal('unary minus on a non-number', lineOf(node))
            return -value
        }
        case 'ArrayExpression': {
            const out: unknown[] = []
            for (const element of node.elements as Array<Node | null>) {
                if (element === null) throw new Refusal('an array hole', lineOf(node))
                if (element.type === 'SpreadElement') {
                    const spread = evaluate(element.argument as Node, scope, depth + 1)
                    if (!Array.isArray(spread))
                        throw new Refusal('a spread of a non-array into an array', lineOf(element))
                    out.push(...spread)
                } else out.push(evaluate(element, scope, depth + 1))
            }
            return out
        }
        case 'ObjectExpression': {
            const entries: Array<[string, unknown]> = []
            for (const prop of node.properties as Node[]) {
                if (prop.type === 'SpreadElement') {
                    const spread = evaluate(prop.argument as Node, scope, depth + 1)
                    if (!isObject(spread)) throw new Refusal('a spread of a non-object into an object', lineOf(prop))
                    entries.push(...Object.entries(spread))
                    continue
                }
                if (prop.kind !== 'init') throw new Refusal(`a ${String(prop.kind)}ter`, lineOf(prop))
                if (prop.method === true) throw new Refusal('a method', lineOf(prop))
                if (prop.computed === true) throw new Refusal('a computed property name', lineOf(prop))
                const key = prop.key as Node
                const name =
                    key.type === 'Identifier'
                        ? (key.name as string)
                        : key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')
                          ? String(key.value)
                          : null
                if (name === null) throw new Refusal(labelOf(key), lineOf(key))
                // `__proto__:` in a literal sets the prototype when run; a schema never needs it.
                if (name === '__proto__') throw new Refusal('a __proto__ key', lineOf(prop))
                entries.push([name, evaluate(prop.value as Node, scope, depth + 1)])
            }
            // Define semantics: no key, however named, reaches a prototype.
            return Object.fromEntries(entries)
        }
        case 'Identifier':
            return resolveName(node.name as string, node, scope, depth)
        case 'CallExpression':
            return readStringify(node, scope, depth)
        default:
            throw new Refusal(labelOf(node), lineOf(node))
    }
}

function resolveName(name: string, at: Node, scope: Scope, depth: number): unknown {
    if (scope.memo.has(name)) return scope.memo.get(name)
    const binding = scope.bindings.get(name)
    if (binding === undefined) throw new Refusal(`the name ${name} (not a top-level const)`, lineOf(at))
    if (binding.kind === 'other') throw new Refusal(`the name ${name} (${binding.what})`, lineOf(at))
    if (scope.active.has(name)) throw new Refusal(`a circular reference to ${name}`, lineOf(at))
    scope.active.add(name)
    const value = evaluate(binding.init, scope, depth + 1)
    scope.active.delete(name)
    scope.memo.set(name, value)
    return value
}

/** The names a destructuring pattern binds (`{ a, b: [c, ...d], e = 1 }` → a, c, d, e). */
function patternNames(pattern: Node | null): string[] {
    if (pattern === null) return []
    switch (pattern.type) {
        case 'Identifier':
            return [pattern.name as string]
        case 'ObjectPattern':
            return (pattern.properties as Node[]).flatMap((p) =>
                patternNames((p.type === 'RestElement' ? p.argument : p.value) as Node)
            )
        case 'ArrayPattern':
            return (pattern.elements as Array<Node | null>).flatMap((e) => patternNames(e))
        case 'RestElement':
            return patternNames(pattern.argument as Node)
        case 'AssignmentPattern':
            return patternNames(pattern.left as Node)
        default:
            return []
    }
}

function declarationBindings(decl: Node, bindings: Map<string, Binding>): string[] {
    const names: string[] = []
    if (decl.type === 'VariableDeclaration') {
        for (const d of decl.declarations as Node[]) {
            const id = d.id as Node
            if (id.type !== 'Identifier') {
                // A destructured name is not read, but it is bound: it can shadow a global such as JSON.
                for (const name of patternNames(id)) {
                    names.push(name)
                    bindings.set(name, { kind: 'other', what: 'a destructured binding', line: lineOf(d) })
                }
                continue
            }
            const name = id.name as string
            names.push(name)
            const init = d.init as Node | null
            bindings.set(
                name,
                decl.kind === 'const' && init !== null
                    ? { kind: 'const', init }
                    : { kind: 'other', what: `a ${String(decl.kind)} binding`, line: lineOf(d) }
            )
        }
    } else if (
        (decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') &&
        decl.id !== null &&
        typeof decl.id === 'object'
    ) {
        const name = (decl.id as Node).name as string
        names.push(name)
        bindings.set(name, {
            kind: 'other',
            what: decl.type === 'FunctionDeclaration' ? 'a function' : 'a class',
            line: lineOf(decl)
        })
    }
    return names
}

function exportName(node: unknown): string {
    const n = node as Node
    return n.type === 'Identifier' ? (n.name as string) : String(n.value)
}

/**
 * Parses a module's source with locations, once its input checks pass: SRC-003 not a string, SRC-004
 * too long, SRC-001 does not parse (with its line). Shared by the reader and `sourceLocations`.
 */
export function parseModuleSource(input: {
    source?: unknown
}): { program: Node; source: string } | { errors: Issue[] } {
    let source: unknown
    try {
        source = input?.source
    } catch {
        source = undefined
    }
    if (typeof source !== 'string')
        return { errors: [createIssue('SRC-003', '/source', { actual: source === null ? 'null' : typeof source })] }
    if (source.length > MAX_SOURCE_LENGTH)
        return { errors: [createIssue('SRC-004', '/source', { length: source.length, max: MAX_SOURCE_LENGTH })] }
    try {
        return {
            program: parse(source, {
                ecmaVersion: 'latest',
                sourceType: 'module',
                locations: true,
                allowHashBang: true
            }) as unknown as Node,
            source
        }
    } catch (cause) {
        const loc = (cause as { loc?: { line?: unknown } } | null)?.loc
        const line = typeof loc?.line === 'number' ? loc.line : 0
        const detail =
            cause instanceof RangeError
                ? 'nesting too deep to parse'
                : cause instanceof Error
                  ? cause.message
                  : 'parse failed'
        return { errors: [createIssue('SRC-001', '/source', { detail, line })] }
    }
}

/** Where an export comes from: a local binding, or nothing this reader follows (`local: null`). */
interface ExportEntry {
    readonly local: string | null
    readonly line: number
    readonly from: boolean
}

/** A module's top level as the reader sees it: its bindings, its exports, SRC-006 for code that is not run. */
interface TopLevel {
    readonly bindings: Map<string, Binding>
    readonly exported: Map<string, ExportEntry>
    readonly warnings: Issue[]
}

/** One pass over the top-level statements: records bindings and exports, evaluates nothing. */
function scanTopLevel(program: Node): TopLevel {
    const bindings = new Map<string, Binding>()
    const exported = new Map<string, ExportEntry>()
    const warnings: Issue[] = []
    for (const stmt of program.body as Node[]) {
        if (stmt.type === 'ExportNamedDeclaration') {
            if (stmt.declaration !== null && typeof stmt.declaration === 'object') {
                for (const name of declarationBindings(stmt.declaration as Node, bindings))
                    exported.set(name, { local: name, line: lineOf(stmt), from: false })
            }
            for (const spec of (stmt.specifiers as Node[] | undefined) ?? []) {
                const from = stmt.source !== null && stmt.source !== undefined
                exported.set(exportName(spec.exported), {
                    local: from ? null : exportName(spec.local),
                    line: lineOf(spec),
                    from
                })
            }
        } else if (stmt.type === 'ExportDefaultDeclaration') {
            exported.set('default', { local: null, line: lineOf(stmt), from: false })
        } else if (stmt.type === 'ExportAllDeclaration') {
            if (stmt.exported !== null && stmt.exported !== undefined)
                exported.set(exportName(stmt.exported), { local: null, line: lineOf(stmt), from: true })
        } else if (stmt.type === 'ImportDeclaration') {
            for (const spec of stmt.specifiers as Node[]) {
                const local = (spec.local as Node).name as string
                bindings.set(local, { kind: 'other', what: 'an imported binding', line: lineOf(spec) })
            }
        } else if (
            stmt.type === 'VariableDeclaration' ||
            stmt.type === 'FunctionDeclaration' ||
            stmt.type === 'ClassDeclaration'
        ) {
            declarationBindings(stmt, bindings)
        } else if (stmt.type !== 'EmptyStatement') {
            // Importing would run it (and it could change main); reading does not, so say so.
            warnings.push(
                createIssue('SRC-006', '/source', {
                    construct: labelOf(stmt.type === 'ExpressionStatement' ? (stmt.expression as Node) : stmt),
                    line: lineOf(stmt)
                })
            )
        }
    }
    return { bindings, exported, warnings }
}

/** The read exports (main, schema, skill), each resolved from its binding; SRC-002 for what cannot be read. */
function readExports(top: TopLevel): { read: Array<[string, unknown]>; errors: Issue[] } {
    const { bindings, exported } = top
    const scope: Scope = { bindings, memo: new Map(), active: new Set(), count: 0, stringified: MAX_STRINGIFIED }
    const errors: Issue[] = []
    const read: Array<[string, unknown]> = []
    for (const name of READ_EXPORTS) {
        const exp = exported.get(name)
        if (exp === undefined) continue
        if (exp.local === null) {
            errors.push(
                createIssue('SRC-002', '/source', {
                    name,
                    construct: exp.from ? 'a re-export from another module' : 'a default export',
                    line: exp.line
                })
            )
            continue
        }
        try {
            read.push([
                name,
                resolveName(exp.local, { type: 'Identifier', loc: { start: { line: exp.line } } }, scope, 0)
            ])
        } catch (cause) {
            if (!(cause instanceof Refusal)) {
                errors.push(
                    createIssue('SRC-002', '/source', {
                        name,
                        construct: cause instanceof RangeError ? 'nesting too deep' : 'an unreadable value',
                        line: exp.line
                    })
                )
                continue
            }
            errors.push(createIssue('SRC-002', '/source', { name, construct: cause.construct, line: cause.line }))
            scope.active.clear()
        }
    }
    return { read, errors }
}

/**
 * Reads `main` (and the legacy `schema`), `skill` from a FlowMCP module's source text without
 * executing any of it. Values may be literals, arrays, objects, template strings without
 * expressions, unary minus, `const` names bound to such values, spreads of them, and
 * `JSON.stringify(value)` / `JSON.stringify(value, null, n)` of such a value with the global `JSON`
 * (read as the string it makes, computed from the read value); anything else in a read export is
 * SRC-002 naming the construct and its line. `handlers` is only recorded.
 * Never throws.
 * @param input - `{ source }`: the module text
 * @returns `{ module, hasHandlers, exportNames, errors }`; SRC-001 does not parse, SRC-002 unsupported
 *   construct, SRC-003 not a string, SRC-004 too long, SRC-006 top-level code that is not run (warning)
 * @example readModuleSource({ source: "export const main = { namespace: 'demo' }" }).module?.main
 */
export function readModuleSource(input: { source?: unknown }): SourceModuleResult {
    const parsed = parseModuleSource(input)
    if ('errors' in parsed) return { module: null, hasHandlers: false, exportNames: [], errors: parsed.errors }
    const top = scanTopLevel(parsed.program)
    const { read, errors } = readExports(top)
    const { exported, warnings } = top
    return {
        module: errors.length > 0 ? null : Object.fromEntries(read),
        hasHandlers: exported.has('handlers'),
        exportNames: [...exported.keys()].sort(),
        errors: [...errors, ...warnings]
    }
}

/**
 * The default schema loader: reads the file through an {@link FsPort} and its exports from the
 * syntax tree ({@link readModuleSource}); the module is never imported or run. A read failure or a
 * coded error rejects with the issue's message, which callers turn into their own coded issue.
 * @param fs - where sources are read from
 * @returns a {@link SchemaLoader}
 * @example const loaded = await sourceSchemaLoader(fs).load('/src/demo.mjs')
 */
export function sourceSchemaLoader(fs: FsPort): SchemaLoader {
    return {
        async load(path: string): Promise<LoadedModule> {
            const source = await fs.readFile(path)
            if (source === null) throw new Error(`no file at ${path}`)
            const read = readModuleSource({ source })
            const problem = read.errors.find((e) => e.severity === SEVERITY.error)
            if (read.module === null || problem !== undefined)
                throw new Error(
                    problem !== undefined ? `${problem.code}: ${problem.message}` : 'the module could not be read'
                )
            return read.module
        }
    }
}
