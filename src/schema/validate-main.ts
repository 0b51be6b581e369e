import { SEVERITY } from '../model/constants.js'
import { createIssue, describeValue, typeOfValue } from '../errors/issue.js'
import { escapePointerToken, pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { inspectJson } from '../json/guard.js'
import { checkBeginnerMistakes } from './beginner-checks.js'
import { placeholderRootReason } from './root-host.js'
import { parseUrl } from './url.js'
import {
    isNonEmptyString,
    isRecord,
    keysOf,
    own,
    paramView,
    pathPlaceholders,
    requiredServerParamsOf,
    testInputKeys,
    testsOf,
    testSignature,
    valueServerParams
} from './shape.js'

/** Keys `main` may carry (05 §2.3, VAL003); `schemaHash` is a legacy key that is tolerated with a warning. */
export const MAIN_KEYS: readonly string[] = Object.freeze([
    'namespace',
    'name',
    'description',
    'version',
    'schemaVersion',
    'root',
    'tools',
    'resources',
    'docs',
    'tags',
    'requiredServerParams',
    'requiredLibraries',
    'headers',
    'sharedLists',
    'meta',
    'handlers',
    'skills',
    'termsOfService',
    'termsOfServiceCheckedAt',
    'termsOfServiceLanguage',
    'dataLicense',
    'dataLicenseName'
])
/** Keys a tool may carry (VAL076). */
export const TOOL_KEYS: readonly string[] = Object.freeze([
    'method',
    'path',
    'description',
    'parameters',
    'output',
    'outputSchema',
    'preload',
    'tests',
    'meta'
])
/** Keys a parameter may carry (VAL077). */
export const PARAMETER_KEYS: readonly string[] = Object.freeze(['position', 'z', 'description'])
/** HTTP methods a tool may use. */
export const TOOL_METHODS: readonly string[] = Object.freeze(['GET', 'POST', 'PUT', 'DELETE'])
/** Where a parameter value goes. */
export const PARAMETER_LOCATIONS: readonly string[] = Object.freeze(['insert', 'query', 'body'])
/** Output MIME types and the JSON Schema `type` each allows. */
export const OUTPUT_MIME_TYPES: Readonly<Record<string, readonly string[]>> = Object.freeze({
    'application/json': Object.freeze(['object', 'array']),
    'image/png': Object.freeze(['string']),
    'text/plain': Object.freeze(['string'])
})
/** Libraries a schema may request (05 §2.4, the LibraryLoader default allowlist). */
export const LIBRARY_ALLOWLIST: readonly string[] = Object.freeze([
    'zlib',
    'crypto',
    'buffer',
    'path',
    'url',
    'util',
    'stream',
    'querystring',
    'ethers',
    'ccxt',
    'indicatorts',
    'yahoo-finance2',
    'trading-signals',
    'talib',
    'technicalindicators',
    'moment',
    'vega-lite',
    'vega',
    'canvas',
    'pinata',
    'irys',
    'better-sqlite3'
])

/** Maximum number of tools in one schema (05 §2.3). */
export const MAX_TOOLS = 8
/** Maximum number of resources in one schema (05 §2.3). */
export const MAX_RESOURCES = 2
/** Maximum number of queries of one sqlite/http resource (05 §2.3). */
export const MAX_RESOURCE_QUERIES = 7
/** Tests a tool should have (TST001 warning below it). */
export const RECOMMENDED_TESTS = 3

export const NAMESPACE_PATTERN = /^[a-z][a-z0-9-]*$/
/** `4.x.y`, or the grading form `flowmcp/4.x.y` (03 ⚠ C23). */
export const SCHEMA_VERSION_PATTERN = /^(?:flowmcp\/)?4\.\d+\.\d+$/
export const SCHEMA_NAME_PATTERN = /^[A-Z][a-zA-Z0-9]*$/
export const TAG_PATTERN = /^[a-z][a-z0-9-]*$/
export const TOOL_NAME_PATTERN = /^[a-z][a-zA-Z0-9]*$/
const LIST_REF = /^\{\{list:[^{}]+\}\}$/
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

function typeIssue(path: string, field: string, expected: string, actual: unknown): Issue {
    return createIssue('SCH-005', path, { field, expected, actual: typeOfValue(actual) })
}

/** A type the spec asks for but the runtime never checks: a warning. */
function strictTypeIssue(path: string, field: string, expected: string, actual: unknown): Issue {
    return createIssue('SCH-WARN-020', path, { field, expected, actual: typeOfValue(actual) })
}

function checkStringArray(main: Record<string, unknown>, key: string, out: Issue[]): string[] {
    const value = own(main, key)
    if (value === undefined) return []
    if (!Array.isArray(value)) {
        out.push(typeIssue(pointer(key), key, 'array of strings', value))
        return []
    }
    const strings: string[] = []
    value.forEach((item, i) => {
        if (typeof item === 'string') strings.push(item)
        else out.push(strictTypeIssue(pointer(key, i), `${key}[${i}]`, 'string', item))
    })
    return strings
}

/**
 * Runtime: `root` starts with `https://` and has no trailing slash; '' only warns. Spec: a plain URL without query or
 * fragment.
 */
function checkRoot(root: string, out: Issue[]): void {
    if (root === '') {
        out.push(createIssue('SCH-WARN-004', '/root'))
        return
    }
    if (!root.startsWith('https://')) {
        out.push(createIssue('SCH-010', '/root', { value: describeValue(root), detail: 'must start with https://' }))
        return
    }
    if (root.endsWith('/')) {
        out.push(createIssue('SCH-010', '/root', { value: describeValue(root), detail: 'must not end with a slash' }))
        return
    }
    // A placeholder host (`--name--`, `.local`, …) is a real form: the schema's handlers resolve it.
    if (placeholderRootReason(root) !== null) return
    const url = parseUrl(root)
    if (url === null)
        out.push(createIssue('SCH-WARN-013', '/root', { value: describeValue(root), detail: 'is not a valid URL' }))
    else if (url.query !== null || url.fragment !== null)
        out.push(
            createIssue('SCH-WARN-013', '/root', {
                value: describeValue(root),
                detail: 'should not carry a query or fragment'
            })
        )
}

function checkOutput(output: unknown, base: string, out: Issue[]): void {
    if (!isRecord(output)) {
        out.push(typeIssue(base, 'output', 'object', output))
        return
    }
    const mime = own(output, 'mimeType')
    const allowed =
        typeof mime === 'string' && Object.hasOwn(OUTPUT_MIME_TYPES, mime) ? OUTPUT_MIME_TYPES[mime] : undefined
    if (allowed === undefined) {
        out.push(
            createIssue('SCH-018', `${base}/mimeType`, {
                value: describeValue(mime),
                expected: Object.keys(OUTPUT_MIME_TYPES).join(', ')
            })
        )
    }
    const schema = own(output, 'schema')
    if (schema === undefined) {
        out.push(createIssue('SCH-004', `${base}/schema`, { field: 'output.schema' }))
        return
    }
    if (!isRecord(schema)) {
        out.push(typeIssue(`${base}/schema`, 'output.schema', 'object', schema))
        return
    }
    const type = own(schema, 'type')
    if (typeof type !== 'string' || !['string', 'number', 'boolean', 'object', 'array'].includes(type)) {
        out.push(
            createIssue('SCH-019', `${base}/schema/type`, {
                value: describeValue(type),
                detail: 'expected one of string, number, boolean, object, array'
            })
        )
        return
    }
    if (allowed !== undefined && !allowed.includes(type)) {
        out.push(
            createIssue('SCH-019', `${base}/schema/type`, {
                value: type,
                detail: `${String(mime)} requires ${allowed.join(' or ')}`
            })
        )
    }
    if (mime === 'image/png' && own(schema, 'format') !== 'base64') {
        out.push(
            createIssue('SCH-019', `${base}/schema/format`, {
                value: describeValue(own(schema, 'format')),
                detail: 'image/png requires format: base64'
            })
        )
    }
    if (own(schema, 'properties') !== undefined && type !== 'object') {
        out.push(createIssue('SCH-020', `${base}/schema/properties`, { keyword: 'properties', type }))
    }
    if (own(schema, 'items') !== undefined && type !== 'array') {
        out.push(createIssue('SCH-020', `${base}/schema/items`, { keyword: 'items', type }))
    }
}

function checkPreload(preload: unknown, base: string, out: Issue[]): void {
    if (!isRecord(preload)) {
        out.push(typeIssue(base, 'preload', 'object', preload))
        return
    }
    if (typeof own(preload, 'enabled') !== 'boolean')
        out.push(createIssue('SCH-021', `${base}/enabled`, { detail: 'enabled must be a boolean' }))
    const ttl = own(preload, 'ttl')
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl <= 0)
        out.push(createIssue('SCH-021', `${base}/ttl`, { detail: 'ttl must be a positive integer' }))
    const description = own(preload, 'description')
    if (description !== undefined && typeof description !== 'string')
        out.push(createIssue('SCH-021', `${base}/description`, { detail: 'description must be a string' }))
}

const META_TYPES: Readonly<Record<string, 'boolean' | 'string' | 'array'>> = Object.freeze({
    isReadOnly: 'boolean',
    isConcurrencySafe: 'boolean',
    isDestructive: 'boolean',
    searchHint: 'string',
    aliases: 'array',
    alwaysLoad: 'boolean'
})

function checkToolMeta(meta: unknown, base: string, out: Issue[]): void {
    if (!isRecord(meta)) {
        out.push(typeIssue(base, 'meta', 'object', meta))
        return
    }
    for (const [key, expected] of Object.entries(META_TYPES)) {
        const value = own(meta, key)
        if (value === undefined) continue
        const ok = expected === 'array' ? Array.isArray(value) : typeof value === expected
        if (!ok) out.push(createIssue('SCH-022', `${base}/${key}`, { field: key, expected }))
    }
}

interface ToolContext {
    readonly declaredServerParams: readonly string[]
    readonly root: unknown
}

function checkParameter(param: unknown, base: string, out: Issue[], ctx: ToolContext): void {
    if (!isRecord(param)) {
        out.push(typeIssue(base, 'parameter', 'object', param))
        return
    }
    for (const key of Object.keys(param)) {
        if (!PARAMETER_KEYS.includes(key))
            out.push(createIssue('SCH-015', `${base}/${escapePointerToken(key)}`, { field: key }))
    }
    const position = own(param, 'position')
    if (!isRecord(position)) {
        out.push(
            position === undefined
                ? createIssue('SCH-004', `${base}/position`, { field: 'position' })
                : typeIssue(`${base}/position`, 'position', 'object', position)
        )
    } else {
        for (const field of ['key', 'value', 'location'] as const) {
            if (own(position, field) === undefined)
                out.push(createIssue('SCH-004', `${base}/position/${field}`, { field: `position.${field}` }))
        }
        const key = own(position, 'key')
        if (key !== undefined && !isNonEmptyString(key))
            out.push(typeIssue(`${base}/position/key`, 'position.key', 'non-empty string', key))
        const location = own(position, 'location')
        if (location !== undefined && (typeof location !== 'string' || !PARAMETER_LOCATIONS.includes(location))) {
            out.push(createIssue('SCH-016', `${base}/position/location`, { value: describeValue(location) }))
        }
        const value = own(position, 'value')
        if (typeof value === 'string') {
            for (const ref of valueServerParams(value)) {
                if (!ctx.declaredServerParams.includes(ref))
                    out.push(createIssue('SCH-WARN-014', `${base}/position/value`, { param: ref }))
            }
        }
    }
    const z = own(param, 'z')
    if (!isRecord(z)) {
        out.push(
            z === undefined
                ? createIssue('SCH-004', `${base}/z`, { field: 'z' })
                : typeIssue(`${base}/z`, 'z', 'object', z)
        )
        return
    }
    if (!isNonEmptyString(own(z, 'primitive')))
        out.push(createIssue('SCH-004', `${base}/z/primitive`, { field: 'z.primitive' }))
    const options = own(z, 'options')
    if (options !== undefined && !Array.isArray(options))
        out.push(typeIssue(`${base}/z/options`, 'z.options', 'array', options))
    const enumValues = own(z, 'enum')
    if (enumValues !== undefined) {
        if (!Array.isArray(enumValues)) out.push(typeIssue(`${base}/z/enum`, 'z.enum', 'array', enumValues))
        else
            enumValues.forEach((e, i) => {
                if (typeof e !== 'string' || !LIST_REF.test(e))
                    out.push(createIssue('SCH-017', `${base}/z/enum/${i}`, { value: describeValue(e) }))
            })
    }
}

function checkTool(name: string, tool: unknown, out: Issue[], ctx: ToolContext): void {
    const base = pointer('tools', name)
    if (!TOOL_NAME_PATTERN.test(name)) out.push(createIssue('SCH-WARN-005', base, { tool: name }))
    if (!isRecord(tool)) {
        out.push(typeIssue(base, `tools.${name}`, 'object', tool))
        return
    }
    for (const key of Object.keys(tool)) {
        if (!TOOL_KEYS.includes(key))
            out.push(createIssue('SCH-013', `${base}/${escapePointerToken(key)}`, { field: key, tool: name }))
    }
    const path = checkToolHead(tool, base, out)
    const declared = checkToolParameters(name, tool, base, out, ctx)
    if (typeof path === 'string') checkPathPlaceholders(name, path, base, declared, out, ctx)
    const output = own(tool, 'output')
    if (output !== undefined) checkOutput(output, `${base}/output`, out)
    const preload = own(tool, 'preload')
    if (preload !== undefined) checkPreload(preload, `${base}/preload`, out)
    const meta = own(tool, 'meta')
    if (meta !== undefined) checkToolMeta(meta, `${base}/meta`, out)
    checkToolTests(name, tool, base, declared, out)
    checkBeginnerMistakes(name, tool, base, out)
}

/** What a tool's parameters declare, for its path and its tests. */
interface DeclaredParameters {
    /** Parameter key → index of its first declaration. */
    readonly keys: Map<string, number>
    readonly insertKeys: Set<string>
    /** Server parameter named in a value template → the parameter key that holds it. */
    readonly valueTemplates: Map<string, string>
}

/** `method`, `path` and `description`; returns the path for the placeholder check. */
function checkToolHead(tool: Readonly<Record<string, unknown>>, base: string, out: Issue[]): unknown {
    const method = own(tool, 'method')
    if (method === undefined) out.push(createIssue('SCH-004', `${base}/method`, { field: 'method' }))
    else if (typeof method !== 'string' || !TOOL_METHODS.includes(method))
        out.push(createIssue('SCH-014', `${base}/method`, { value: describeValue(method) }))
    const path = own(tool, 'path')
    if (path === undefined) out.push(createIssue('SCH-004', `${base}/path`, { field: 'path' }))
    else if (typeof path !== 'string') out.push(typeIssue(`${base}/path`, 'path', 'string', path))
    const description = own(tool, 'description')
    // The runtime refuses a falsy description (`!route.description`): '' is missing too.
    if (description === undefined || description === '')
        out.push(createIssue('SCH-004', `${base}/description`, { field: 'description' }))
    else if (typeof description !== 'string')
        out.push(typeIssue(`${base}/description`, 'description', 'string', description))
    return path
}

function checkToolParameters(
    name: string,
    tool: Readonly<Record<string, unknown>>,
    base: string,
    out: Issue[],
    ctx: ToolContext
): DeclaredParameters {
    const declared: DeclaredParameters = { keys: new Map(), insertKeys: new Set(), valueTemplates: new Map() }
    const parameters = own(tool, 'parameters')
    if (parameters === undefined) out.push(createIssue('SCH-004', `${base}/parameters`, { field: 'parameters' }))
    else if (!Array.isArray(parameters)) out.push(typeIssue(`${base}/parameters`, 'parameters', 'array', parameters))
    else {
        parameters.forEach((param, i) => {
            const pbase = `${base}/parameters/${i}`
            checkParameter(param, pbase, out, ctx)
            const view = paramView(param)
            if (view === null) return
            if (declared.keys.has(view.key))
                out.push(createIssue('SCH-WARN-018', `${pbase}/position/key`, { key: view.key, tool: name }))
            else declared.keys.set(view.key, i)
            if (view.location === 'insert') declared.insertKeys.add(view.key)
            for (const ref of valueServerParams(view.value)) declared.valueTemplates.set(ref, view.key)
        })
    }
    return declared
}

function checkPathPlaceholders(
    name: string,
    path: string,
    base: string,
    declared: DeclaredParameters,
    out: Issue[],
    ctx: ToolContext
): void {
    // The runtime fills insert parameters in root + path, both as `:key` and `{{key}}`; server params fill `{{NAME}}`.
    for (const placeholder of pathPlaceholders(path)) {
        const key = placeholder.startsWith(':') ? placeholder.slice(1) : placeholder.slice(2, -2)
        if (declared.insertKeys.has(key) || (!placeholder.startsWith(':') && ctx.declaredServerParams.includes(key)))
            continue
        out.push(createIssue('SCH-WARN-015', `${base}/path`, { placeholder, tool: name }))
    }
    const url = `${typeof ctx.root === 'string' ? ctx.root : ''}${path}`
    for (const key of declared.insertKeys) {
        if (!url.includes(`:${key}`) && !url.includes(`{{${key}}}`))
            out.push(
                createIssue('SCH-WARN-016', `${base}/parameters/${declared.keys.get(key) ?? 0}`, { key, tool: name })
            )
    }
}

function checkToolTests(
    name: string,
    tool: Readonly<Record<string, unknown>>,
    base: string,
    declared: DeclaredParameters,
    out: Issue[]
): void {
    const tests = own(tool, 'tests')
    if (tests !== undefined && !Array.isArray(tests)) {
        out.push(typeIssue(`${base}/tests`, 'tests', 'array', tests))
        return
    }
    const list = testsOf(tool)
    if (list.length < RECOMMENDED_TESTS)
        out.push(
            createIssue('SCH-WARN-003', `${base}/tests`, { tool: name, count: list.length, minimum: RECOMMENDED_TESTS })
        )
    const seen = new Map<string, number>()
    list.forEach((test, i) => {
        const tbase = `${base}/tests/${i}`
        if (!isRecord(test)) {
            out.push(typeIssue(tbase, `tests[${i}]`, 'object', test))
            return
        }
        const description = own(test, '_description')
        if (description !== undefined && typeof description !== 'string')
            out.push(typeIssue(`${tbase}/_description`, '_description', 'string', description))
        for (const key of testInputKeys(test)) {
            if (declared.keys.has(key)) continue
            const named = declared.valueTemplates.get(key)
            out.push(
                createIssue('SCH-WARN-017', `${tbase}/${escapePointerToken(key)}`, {
                    key,
                    tool: name,
                    detail:
                        named === undefined
                            ? ''
                            : ` (it names the value template {{${key}}} of parameter ${named}, which the runtime fills from server parameters)`
                })
            )
        }
        const signature = testSignature(test)
        const first = seen.get(signature)
        if (first !== undefined) out.push(createIssue('SCH-WARN-009', tbase, { tool: name, index: i, first }))
        else seen.set(signature, i)
    })
}

function checkResources(resources: unknown, out: Issue[]): void {
    if (!isRecord(resources)) {
        out.push(typeIssue('/resources', 'resources', 'object', resources))
        return
    }
    const names = Object.keys(resources)
    if (names.length > MAX_RESOURCES)
        out.push(
            createIssue('SCH-029', '/resources', { detail: `${names.length} resources (at most ${MAX_RESOURCES})` })
        )
    for (const name of names) {
        const base = pointer('resources', name)
        const res = own(resources, name)
        if (!isRecord(res)) {
            out.push(typeIssue(base, `resources.${name}`, 'object', res))
            continue
        }
        const source = own(res, 'source')
        if (!isNonEmptyString(own(res, 'description')))
            out.push(createIssue('SCH-004', `${base}/description`, { field: 'description' }))
        if (source === 'markdown') {
            const origin = own(res, 'origin')
            if (origin !== 'global' && origin !== 'project' && origin !== 'inline')
                out.push(
                    createIssue('SCH-029', `${base}/origin`, {
                        detail: 'markdown origin must be global, project or inline'
                    })
                )
            const fileName = own(res, 'name')
            if (typeof fileName !== 'string' || !fileName.endsWith('.md'))
                out.push(createIssue('SCH-029', `${base}/name`, { detail: 'markdown name must end in .md' }))
            if (own(res, 'database') !== undefined || own(res, 'queries') !== undefined)
                out.push(createIssue('SCH-029', base, { detail: 'a markdown resource has no database or queries' }))
        } else if (source === 'sqlite' || source === 'http') {
            if (source === 'sqlite') {
                const database = own(res, 'database')
                if (typeof database !== 'string' || !database.endsWith('.db'))
                    out.push(createIssue('SCH-029', `${base}/database`, { detail: 'sqlite database must end in .db' }))
            } else if (!isNonEmptyString(own(res, 'path'))) {
                out.push(createIssue('SCH-029', `${base}/path`, { detail: 'http resource needs a non-empty path' }))
            }
            const queries = own(res, 'queries')
            if (!isRecord(queries))
                out.push(createIssue('SCH-029', `${base}/queries`, { detail: 'queries must be an object' }))
            else if (Object.keys(queries).length > MAX_RESOURCE_QUERIES)
                out.push(
                    createIssue('SCH-029', `${base}/queries`, {
                        detail: `${Object.keys(queries).length} queries (at most ${MAX_RESOURCE_QUERIES})`
                    })
                )
        } else {
            out.push(
                createIssue('SCH-029', `${base}/source`, {
                    detail: `source must be sqlite, markdown or http, got ${describeValue(source)}`
                })
            )
        }
    }
}

/**
 * Structural validation of a v4 `main` (05 §2.3, 03 §13.1). Returns every finding, errors and
 * warnings, in input order. Never throws.
 */
export function validateMain(main: unknown): Issue[] {
    if (main === undefined || main === null) {
        return [createIssue('SCH-001', '/main', { detail: 'missing' })]
    }
    if (!isRecord(main)) {
        return [createIssue('SCH-001', '/main', { detail: `expected a plain object, got ${typeOfValue(main)}` })]
    }
    const plain = inspectJson(main, undefined, '/main')
    if (plain.length > 0) {
        return plain
    }
    return validateInspectedMain(main)
}

/**
 * {@link validateMain} for a `main` the caller has already checked with `inspectJson` at the
 * default limits, without issue (gradeSingleSchema does, first thing): the same findings, without
 * walking the whole value a second time.
 */
export function validateInspectedMain(main: Record<string, unknown>): Issue[] {
    const out: Issue[] = []
    const toolNames = checkSkeleton(main, out)
    // Like the runtime validator: past a broken skeleton, the detailed checks would only add noise.
    if (out.some((i) => i.severity === SEVERITY.error)) return out
    checkRoot(own(main, 'root') as string, out)
    checkIdentity(main, toolNames, out)
    const declared = checkDeclarationLists(main, out)
    checkDocumentation(main, out)
    checkHeaders(main, declared, out)
    checkSharedLists(main, out)
    const ctx: ToolContext = { declaredServerParams: requiredServerParamsOf(main), root: own(main, 'root') }
    const tools = own(main, 'tools')
    for (const toolName of toolNames) checkTool(toolName, own(tools, toolName), out, ctx)
    const resources = own(main, 'resources')
    if (resources !== undefined) checkResources(resources, out)
    return out
}

/** Unknown keys and the runtime's required strings (MainValidator); returns the tool names. */
function checkSkeleton(main: Record<string, unknown>, out: Issue[]): string[] {
    if (own(main, 'skills') !== undefined) out.push(createIssue('SCH-002', '/skills'))
    for (const key of Object.keys(main)) {
        if (key === 'schemaHash') out.push(createIssue('SCH-WARN-007', '/schemaHash'))
        else if (!MAIN_KEYS.includes(key)) out.push(createIssue('SCH-003', pointer(key), { field: key }))
    }
    // Runtime (MainValidator): these five are required strings; anything wrong so far ends validation early.
    const required = ['namespace', 'name', 'description', 'version', 'root'] as const
    for (const key of required) {
        const value = own(main, key)
        if (value === undefined) out.push(createIssue('SCH-004', pointer(key), { field: key }))
        else if (typeof value !== 'string') out.push(typeIssue(pointer(key), key, 'string', value))
    }
    const tools = own(main, 'tools')
    const resources = own(main, 'resources')
    if (tools === undefined && resources === undefined) out.push(createIssue('SCH-006', '/tools'))
    if (tools !== undefined && !isRecord(tools)) out.push(typeIssue('/tools', 'tools', 'object', tools))
    return keysOf(tools)
}

/** Namespace, version and name patterns, and the tool count. */
function checkIdentity(main: Record<string, unknown>, toolNames: readonly string[], out: Issue[]): void {
    const namespace = own(main, 'namespace') as string
    if (!NAMESPACE_PATTERN.test(namespace))
        out.push(createIssue('SCH-007', '/namespace', { value: describeValue(namespace) }))
    const version = own(main, 'version') as string
    if (!SCHEMA_VERSION_PATTERN.test(version))
        out.push(createIssue('SCH-008', '/version', { value: describeValue(version) }))
    const name = own(main, 'name') as string
    if (!SCHEMA_NAME_PATTERN.test(name)) out.push(createIssue('SCH-WARN-011', '/name', { value: describeValue(name) }))
    if (toolNames.length > MAX_TOOLS)
        out.push(createIssue('SCH-011', '/tools', { count: toolNames.length, max: MAX_TOOLS }))
}

/** The cache-TTL tags of the public registry's convention (`cacheTtlDaily`, `cacheTtlStatic`, …). */
const CONVENTION_TAG = /^cacheTtl[A-Z][a-zA-Z]*$/

/** `tags`, `requiredServerParams` and `requiredLibraries`; returns the declared server params. */
function checkDeclarationLists(main: Record<string, unknown>, out: Issue[]): string[] {
    const tags = checkStringArray(main, 'tags', out)
    tags.forEach((tag, i) => {
        if (TAG_PATTERN.test(tag)) return
        const issue = createIssue('SCH-WARN-012', pointer('tags', i), { value: describeValue(tag) })
        // The registry's cache tags (cacheTtlDaily, …) break the spec's pattern by convention, and the runtime and the
        // registry accept them: a note, not a warning (docs/schema-checks.md, levels). Scored as before: by code.
        out.push(CONVENTION_TAG.test(tag) ? Object.freeze({ ...issue, severity: SEVERITY.info }) : issue)
    })
    const declared = checkStringArray(main, 'requiredServerParams', out)
    const seenParams = new Set<string>()
    declared.forEach((param, i) => {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(param))
            out.push(createIssue('SCH-WARN-019', pointer('requiredServerParams', i), { value: describeValue(param) }))
        if (seenParams.has(param)) out.push(createIssue('SCH-WARN-010', pointer('requiredServerParams', i), { param }))
        seenParams.add(param)
    })
    const libraries = checkStringArray(main, 'requiredLibraries', out)
    libraries.forEach((lib, i) => {
        if (!LIBRARY_ALLOWLIST.includes(lib))
            out.push(createIssue('SCH-WARN-006', pointer('requiredLibraries', i), { library: describeValue(lib) }))
    })
    return declared
}

/** Docs, terms of service and the optional string fields. */
function checkDocumentation(main: Record<string, unknown>, out: Issue[]): void {
    const docs = own(main, 'docs')
    if (!Array.isArray(docs) || docs.length === 0 || !docs.every(isNonEmptyString))
        out.push(createIssue('SCH-WARN-001', '/docs'))
    const tos = own(main, 'termsOfService')
    if (
        tos !== undefined &&
        tos !== null &&
        !(typeof tos === 'string' && (tos === 'no-tos-found' || /^https:\/\/[^\s/]+/.test(tos)))
    ) {
        out.push(createIssue('SCH-WARN-002', '/termsOfService', { value: describeValue(tos) }))
    }
    const checkedAt = own(main, 'termsOfServiceCheckedAt')
    if (
        checkedAt !== undefined &&
        checkedAt !== null &&
        !(typeof checkedAt === 'string' && DATE_ONLY.test(checkedAt))
    ) {
        out.push(createIssue('SCH-WARN-008', '/termsOfServiceCheckedAt', { value: describeValue(checkedAt) }))
    }
    for (const key of ['termsOfServiceLanguage', 'dataLicense', 'dataLicenseName', 'description'] as const) {
        const value = own(main, key)
        if (value !== undefined && value !== null && typeof value !== 'string')
            out.push(strictTypeIssue(pointer(key), key, 'string or null', value))
    }
}

/** Header values are strings; a server param they name must be declared. */
function checkHeaders(main: Record<string, unknown>, declared: readonly string[], out: Issue[]): void {
    const headers = own(main, 'headers')
    if (headers === undefined) return
    if (!isRecord(headers)) {
        out.push(strictTypeIssue('/headers', 'headers', 'object', headers))
        return
    }
    for (const key of Object.keys(headers)) {
        const value = own(headers, key)
        if (typeof value !== 'string') {
            out.push(strictTypeIssue(pointer('headers', key), `headers.${key}`, 'string', value))
            continue
        }
        for (const ref of valueServerParams(value)) {
            if (!declared.includes(ref)) out.push(createIssue('SCH-WARN-014', pointer('headers', key), { param: ref }))
        }
    }
}

function checkSharedLists(main: Record<string, unknown>, out: Issue[]): void {
    const sharedLists = own(main, 'sharedLists')
    if (sharedLists === undefined) return
    if (!Array.isArray(sharedLists)) {
        out.push(typeIssue('/sharedLists', 'sharedLists', 'array', sharedLists))
        return
    }
    sharedLists.forEach((entry, i) => {
        for (const field of ['ref', 'version'] as const) {
            if (!isNonEmptyString(own(entry, field)))
                out.push(createIssue('SCH-028', pointer('sharedLists', i, field), { field }))
        }
    })
}
