import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { parseModuleSource } from './source-loader.js'

/**
 * Where a JSON Pointer of `main` sits in a schema module's source. The source is parsed once with
 * acorn (never run); objects and arrays are indexed the first time a pointer passes through them, so
 * locating many pointers in one schema costs one parse and one look-up per pointer token.
 */

/** A 1-based line and a 1-based column (counted in UTF-16 code units, as editors and SARIF do). */
export interface SourcePosition {
    readonly line: number
    readonly column: number
}

/** What {@link sourceLocations} yields. */
export interface SourceLocations {
    /**
     * The place of a JSON Pointer (RFC 6901) into `main`: a property's key, an array element's
     * start, the `main` declaration for `''`. A pointer that does not resolve all the way (a missing
     * key, an index past the end, a value that is not written as a literal) gives the place of its
     * deepest resolved ancestor. `null` only when `main` was not found.
     */
    readonly locate: (pointer: string) => SourcePosition | null
    /**
     * The place of a JSON Pointer into `main` only when it resolves all the way; `null` otherwise
     * (a key or index not written there, `main` not found). Tells a target that exists from one
     * that {@link locate} would place at an ancestor.
     */
    readonly resolve: (pointer: string) => SourcePosition | null
    /** SRC-001 does not parse, SRC-003 not a string, SRC-004 too long, SRC-005 exports neither main nor schema. */
    readonly errors: Issue[]
}

/** Most `const` and spread hops followed from one value: the reader refuses deeper nesting too. */
const MAX_HOPS = 100
/** Longest array-index token read as an index. */
const MAX_INDEX_DIGITS = 9

// Minimal shape of the ESTree nodes read here.
interface Node {
    readonly type: string
    readonly loc?: { readonly start: { readonly line: number; readonly column: number } } | null
    readonly [key: string]: unknown
}

/** Where a pointer target is written, and the node of its value (`null`: nothing to walk into). */
interface Slot {
    readonly at: SourcePosition
    readonly value: Node | null
}

interface ArrayIndex {
    readonly slots: readonly Slot[]
    /** False when a hole or a spread of something not written as an array literal hides the indexes after it. */
    readonly complete: boolean
}

function positionOf(node: Node): SourcePosition {
    const start = node.loc?.start
    return { line: start?.line ?? 1, column: (start?.column ?? 0) + 1 }
}

/** The property name of a non-computed key, as the reader names it; `null` for any other key. */
function keyName(key: Node): string | null {
    if (key.type === 'Identifier') return key.name as string
    if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number'))
        return String(key.value)
    return null
}

/** RFC 6901 §4: `~1` is `/`, then `~0` is `~`. */
function unescapeToken(token: string): string {
    return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token
}

function arrayIndexOf(token: string): number | null {
    if (token.length === 0 || token.length > MAX_INDEX_DIGITS) return null
    return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : null
}

class SourceIndex {
    private readonly objects = new Map<Node, ReadonlyMap<string, Slot>>()
    private readonly arrays = new Map<Node, ArrayIndex>()
    private readonly building = new Set<Node>()
    private readonly cache = new Map<string, { at: SourcePosition; resolved: boolean }>()

    constructor(
        private readonly bindings: ReadonlyMap<string, Node>,
        private readonly root: Slot
    ) {}

    /** The value a node stands for: a name bound by a top-level `const` is followed to its initialiser. */
    private resolve(node: Node | null): Node | null {
        let current = node
        for (let hops = 0; current !== null && current.type === 'Identifier'; hops += 1) {
            const init = this.bindings.get(current.name as string)
            if (init === undefined || hops >= MAX_HOPS) return null
            current = init
        }
        return current
    }

    /**
     * The properties of an object literal by name, the last one written winning, spreads of object literals merged in.
     */
    private objectIndex(node: Node, depth: number): ReadonlyMap<string, Slot> {
        const known = this.objects.get(node)
        if (known !== undefined) return known
        const index = new Map<string, Slot>()
        this.building.add(node)
        for (const prop of node.properties as Node[]) {
            if (prop.type === 'SpreadElement') {
                const target = this.resolve(prop.argument as Node)
                if (
                    target === null ||
                    target.type !== 'ObjectExpression' ||
                    depth >= MAX_HOPS ||
                    this.building.has(target)
                )
                    continue
                for (const [name, slot] of this.objectIndex(target, depth + 1)) index.set(name, slot)
                continue
            }
            if (prop.type !== 'Property' || prop.computed === true) continue
            const name = keyName(prop.key as Node)
            if (name === null) continue
            index.set(name, {
                at: positionOf(prop.key as Node),
                value: prop.kind === 'init' ? (prop.value as Node) : null
            })
        }
        this.building.delete(node)
        this.objects.set(node, index)
        return index
    }

    /** The elements of an array literal in order, spreads of array literals flattened in. */
    private arrayIndex(node: Node, depth: number): ArrayIndex {
        const known = this.arrays.get(node)
        if (known !== undefined) return known
        const slots: Slot[] = []
        let complete = true
        this.building.add(node)
        for (const element of node.elements as Array<Node | null>) {
            if (element === null) {
                complete = false
                break
            }
            if (element.type === 'SpreadElement') {
                const target = this.resolve(element.argument as Node)
                if (
                    target === null ||
                    target.type !== 'ArrayExpression' ||
                    depth >= MAX_HOPS ||
                    this.building.has(target)
                ) {
                    complete = false
                    break
                }
                const inner = this.arrayIndex(target, depth + 1)
                slots.push(...inner.slots)
                if (!inner.complete) {
                    complete = false
                    break
                }
                continue
            }
            slots.push({ at: positionOf(element), value: element })
        }
        this.building.delete(node)
        const index = { slots, complete }
        this.arrays.set(node, index)
        return index
    }

    /** One step down from a slot, or `null` when the token names nothing written there. */
    private step(slot: Slot, token: string): Slot | null {
        const value = this.resolve(slot.value)
        if (value === null) return null
        if (value.type === 'ObjectExpression') return this.objectIndex(value, 0).get(token) ?? null
        if (value.type === 'ArrayExpression') {
            const index = arrayIndexOf(token)
            return index === null ? null : (this.arrayIndex(value, 0).slots[index] ?? null)
        }
        return null
    }

    locate(pointer: unknown): SourcePosition {
        return this.walk(pointer).at
    }

    /** The deepest slot a pointer reaches, and whether it reached the end. */
    walk(pointer: unknown): { at: SourcePosition; resolved: boolean } {
        if (pointer === '') return { at: this.root.at, resolved: true }
        if (typeof pointer !== 'string' || !pointer.startsWith('/')) return { at: this.root.at, resolved: false }
        const cached = this.cache.get(pointer)
        if (cached !== undefined) return cached
        let slot = this.root
        let resolved = true
        for (const raw of pointer.slice(1).split('/')) {
            const next = this.step(slot, unescapeToken(raw))
            if (next === null) {
                resolved = false
                break
            }
            slot = next
        }
        const found = { at: slot.at, resolved }
        this.cache.set(pointer, found)
        return found
    }
}

const NOWHERE: SourceLocations['locate'] = () => null

/** The top-level `const` bindings and where `main` (else the legacy `schema`) is declared, with its value. */
function findMain(program: Node): { bindings: Map<string, Node>; root: Slot | null } {
    const bindings = new Map<string, Node>()
    const declared = new Map<string, SourcePosition>()
    const exported = new Map<string, { at: SourcePosition; value: Node | null; local: string | null }>()
    const collect = (decl: Node, isExport: boolean): void => {
        if (decl.type !== 'VariableDeclaration') return
        for (const d of decl.declarations as Node[]) {
            const id = d.id as Node
            if (id.type !== 'Identifier') continue
            const name = id.name as string
            const init = d.init as Node | null
            if (decl.kind === 'const' && init !== null) bindings.set(name, init)
            declared.set(name, positionOf(id))
            if (isExport) exported.set(name, { at: positionOf(id), value: init, local: null })
        }
    }
    for (const stmt of program.body as Node[]) {
        if (stmt.type === 'VariableDeclaration') collect(stmt, false)
        else if (stmt.type === 'ExportNamedDeclaration') {
            if (stmt.declaration !== null && typeof stmt.declaration === 'object')
                collect(stmt.declaration as Node, true)
            const from = stmt.source !== null && stmt.source !== undefined
            for (const spec of (stmt.specifiers as Node[] | undefined) ?? []) {
                const name = keyName(spec.exported as Node)
                const local = from ? null : keyName(spec.local as Node)
                if (name !== null)
                    exported.set(name, {
                        at: positionOf(spec.exported as Node),
                        value: local === null ? null : (spec.local as Node),
                        local
                    })
            }
        }
    }
    const main = exported.get('main') ?? exported.get('schema')
    if (main === undefined) return { bindings, root: null }
    // `export { m as main }`: the place is where `m` is declared.
    const at = main.local !== null ? (declared.get(main.local) ?? main.at) : main.at
    return { bindings, root: { at, value: main.value } }
}

/**
 * Where JSON Pointers of `main` sit in a schema module's source, for pointing a maintainer at a line.
 * Reads the module as {@link readModuleSource} does (parsed with acorn, never run): `main` (else the
 * legacy `schema`) from `export const main = …` or `export { m as main }`, names bound by a top-level
 * `const` followed to their initialisers, spreads of object and array literals merged in (a pointer
 * into a spread or `const` value resolves to the place in that value's literal). A property is
 * located at its key, an array element at its start, `''` at the `main` declaration. A pointer that
 * does not resolve all the way gives the place of its deepest resolved ancestor, never `null`
 * unless `main` itself was not found. Never throws.
 * @param input - `{ source }`: the module text
 * @returns `{ locate, resolve, errors }` (`resolve`: the place only when the pointer resolves all the way); SRC-001
 *   does not parse, SRC-003 not a string, SRC-004 too long, SRC-005 no main or schema export (`locate` then always
 *   returns `null`)
 * @example
 * sourceLocations({ source: "export const main = {\n    name: 'demo'\n}" }).locate('/name') // { line: 2, column: 5 }
 */
export function sourceLocations(input: { source?: unknown }): SourceLocations {
    const parsed = parseModuleSource(input)
    if ('errors' in parsed) return { locate: NOWHERE, resolve: NOWHERE, errors: parsed.errors }
    // The reader's node type names only the line; this module also reads columns, which acorn gives with `locations`.
    const program = parsed.program as unknown as Node
    const none = (errors: Issue[]): SourceLocations => ({ locate: NOWHERE, resolve: NOWHERE, errors })
    const { bindings, root } = findMain(program)
    if (root === null) return none([createIssue('SRC-005', '/source')])
    const index = new SourceIndex(bindings, root)
    const locate = (pointer: string): SourcePosition | null => {
        try {
            return index.locate(pointer)
        } catch {
            // A bug, or a stack overflow on an absurd source: the schema as a whole is still a place.
            return root.at
        }
    }
    const resolve = (pointer: string): SourcePosition | null => {
        try {
            const found = index.walk(pointer)
            return found.resolved ? found.at : null
        } catch {
            return null
        }
    }
    return { locate, resolve, errors: [] }
}
