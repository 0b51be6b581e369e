import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { parseArgs, says } from '../validation/args.js'
import { own } from './shape.js'

/** The three id styles in use (01-model ⚠ A14). */
export type IdStyle = 'dot' | 'slash' | 'primitive'

/** Primitive kinds of a Schemas-Spec primitive id `namespace/<kind>/<name>`. */
export const PRIMITIVE_KINDS: readonly string[] = Object.freeze([
    'tool',
    'resource',
    'prompt',
    'skill',
    'selection',
    'agent'
])

/** One id, taken apart. */
export interface ParsedId {
    readonly style: IdStyle
    readonly namespace: string
    /** The schema slug (`dot` and `slash` styles); `null` for a primitive id. */
    readonly schema: string | null
    /** The primitive kind (`primitive` style only). */
    readonly primitive: string | null
    /** The primitive name (`primitive` style only). */
    readonly name: string | null
}

const SEGMENT = /^[a-zA-Z0-9_-]+$/
const NAMESPACE = /^[a-z][a-z0-9-]*$/
const FILE_EXTENSION = /\.(?:mjs|cjs|js|ts|mts|json)$/

/** The codes of the argument checks: SCH-004 missing, SCH-005 wrong type. */
const ID_ARGS = { missing: 'SCH-004', mismatch: 'SCH-005', create: createIssue } as const
const STYLE_ARG = v.picklist(['dot', 'slash'], says({ expected: "'dot' or 'slash'", actual: 'value', missing: false }))

/** The issues of a string argument `field` (its JSON type when it is not one). */
function stringArg(value: unknown, field: string): Issue[] {
    return parseArgs(v.string(), value, ID_ARGS, { actual: 'type', at: [field] }).errors
}

/** `'4.0.0'` → `'flowmcp/4.0.0'`; `'flowmcp/4.0.0'` stays (03 ⚠ C23). */
export function normalizeVersion(version: unknown): { version: string | null; errors: Issue[] } {
    if (typeof version !== 'string') return { version: null, errors: stringArg(version, 'version') }
    const m = /^(?:flowmcp\/)?(4\.\d+\.\d+)$/.exec(version.trim())
    if (m === null) {
        return { version: null, errors: [createIssue('SCH-008', '/version', { value: describeValue(version) })] }
    }
    return { version: `flowmcp/${m[1] as string}`, errors: [] }
}

/** The slug of a schema file: its base name without directory and extension. */
export function slugOfFileBase(fileBase: string): string {
    const base = fileBase.split(/[\\/]/).pop() ?? ''
    return base.replace(FILE_EXTENSION, '')
}

/** `<namespace>.<schemaSlug>` for grading entries (01-model ⚠ A14). */
export function schemaIdOf(main: unknown, fileBase: unknown): { schemaId: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    const namespace = own(main, 'namespace')
    if (typeof namespace !== 'string' || !NAMESPACE.test(namespace)) {
        errors.push(
            createIssue(namespace === undefined ? 'SCH-004' : 'SCH-007', '/main/namespace', {
                field: 'namespace',
                value: describeValue(namespace)
            })
        )
    }
    let slug = ''
    if (typeof fileBase !== 'string') {
        errors.push(...stringArg(fileBase, 'fileBase'))
    } else {
        slug = slugOfFileBase(fileBase)
        if (!SEGMENT.test(slug))
            errors.push(
                createIssue('SCH-031', '/fileBase', {
                    value: describeValue(fileBase),
                    detail: 'the file base must be [a-zA-Z0-9_-]+ after removing directory and extension'
                })
            )
    }
    return errors.length > 0 ? { schemaId: null, errors } : { schemaId: `${namespace as string}.${slug}`, errors }
}

/** Takes `ns.schema`, `ns/schema` or `ns/<kind>/<name>` apart. */
export function parseId(id: unknown): { id: ParsedId | null; errors: Issue[] } {
    if (typeof id !== 'string') return { id: null, errors: stringArg(id, 'id') }
    const bad = (detail: string): { id: null; errors: Issue[] } => ({
        id: null,
        errors: [createIssue('SCH-031', '/id', { value: describeValue(id), detail })]
    })
    const slash = id.split('/')
    if (slash.length === 1) {
        const dot = id.split('.')
        if (dot.length !== 2) return bad('expected ns.schema, ns/schema or ns/<kind>/<name>')
        const [ns, schema] = dot as [string, string]
        if (!SEGMENT.test(ns) || !SEGMENT.test(schema)) return bad('each part must be [a-zA-Z0-9_-]+')
        return { id: { style: 'dot', namespace: ns, schema, primitive: null, name: null }, errors: [] }
    }
    if (slash.length === 2) {
        const [ns, schema] = slash as [string, string]
        if (!SEGMENT.test(ns) || !SEGMENT.test(schema)) return bad('each part must be [a-zA-Z0-9_-]+')
        return { id: { style: 'slash', namespace: ns, schema, primitive: null, name: null }, errors: [] }
    }
    if (slash.length === 3) {
        const [ns, kind, name] = slash as [string, string, string]
        if (!SEGMENT.test(ns) || !SEGMENT.test(name)) return bad('each part must be [a-zA-Z0-9_-]+')
        if (!PRIMITIVE_KINDS.includes(kind))
            return bad(`unknown primitive kind ${kind} (expected ${PRIMITIVE_KINDS.join(', ')})`)
        return { id: { style: 'primitive', namespace: ns, schema: null, primitive: kind, name }, errors: [] }
    }
    return bad('too many slashes')
}

/** Rewrites a schema id into another style; a primitive id cannot become a schema id (its schema is unknown). */
export function convertId(id: unknown, to: unknown): { id: string | null; errors: Issue[] } {
    // An absent `to` is a wrong style (SCH-005), never SCH-004: the style has no default to fall back on.
    const style = parseArgs(STYLE_ARG, to, ID_ARGS, { at: ['to'] })
    if (style.value === null) return { id: null, errors: style.errors }
    const parsed = parseId(id)
    if (parsed.id === null) return { id: null, errors: parsed.errors }
    if (parsed.id.schema === null) {
        return {
            id: null,
            errors: [
                createIssue('SCH-031', '/id', {
                    value: describeValue(id),
                    detail: 'a primitive id names no schema; convert it with the tool-to-schema map of its namespace'
                })
            ]
        }
    }
    return { id: `${parsed.id.namespace}${to === 'dot' ? '.' : '/'}${parsed.id.schema}`, errors: [] }
}

/** `ns/tool/<name>` (Schemas-Spec primitive id) of one tool. */
export function toolIdOf(namespace: unknown, tool: unknown): { id: string | null; errors: Issue[] } {
    const errors: Issue[] = []
    if (typeof namespace !== 'string' || !SEGMENT.test(namespace))
        errors.push(
            createIssue('SCH-031', '/namespace', {
                value: describeValue(namespace),
                detail: 'namespace must be [a-zA-Z0-9_-]+'
            })
        )
    if (typeof tool !== 'string' || !SEGMENT.test(tool))
        errors.push(
            createIssue('SCH-031', '/tool', { value: describeValue(tool), detail: 'tool must be [a-zA-Z0-9_-]+' })
        )
    return errors.length > 0 ? { id: null, errors } : { id: `${namespace as string}/tool/${tool as string}`, errors }
}
