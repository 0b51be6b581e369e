// Stages "read" and "check" of a schema's run: the module read from its syntax tree and who the schema is.
import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { schemaHashOfInspected } from '../hashing/hash-generator.js'
import { islandName } from '../store/paths.js'
import { inspectJson } from '../json/guard.js'
import { SEVERITY } from '../model/constants.js'
import type { LoadedModule } from '../ports/types.js'
import { redactSecretsDeep, secretForms } from '../prompts/redact.js'
import { SchemaCheck } from '../schema/schema-check.js'
import { kebabCase } from '../naming/case.js'
import { readModuleSource } from '../schema/source-loader.js'
import { validateInspectedMain } from '../schema/validate-main.js'
import type { GradeSingleSchemaInput } from './types.js'
import { isObject } from '../model/object.js'
import { ARGS, baseName, serverParamsFor, STYLE, type SchemaRunOptions } from './run-input.js'
import { objectArg, parseArgs, says } from '../validation/args.js'

type Obj = Record<string, unknown>

/** A schema module resolved: its `main` (null when none to grade), source and file base, whether it has handlers. */
type ResolvedSchema = {
    main: Obj | null
    source: string | null
    fileBase: string | null
    refused: boolean
    hasHandlers?: boolean
}

const MODULE = objectArg({ expected: '{ main } or a main object', actual: 'type' })
const SCHEMA_PATH = v.pipe(v.string(says('non-empty string')), v.minLength(1, says('non-empty string')))

/** Nothing to grade: no main, no source. */
const unread = (): ResolvedSchema => ({ main: null, source: null, fileBase: null, refused: false })

/** A module given as an object: its `main` or `schema` export, else the object itself as `main`. */
function givenSchema(mod: unknown, schemaPath: unknown, options: SchemaRunOptions, errors: Issue[]): ResolvedSchema {
    const checked = parseArgs(MODULE, mod, ARGS, { ...STYLE, at: ['schema'] })
    if (checked.value === null || !isObject(mod)) {
        errors.push(...checked.errors)
        return unread()
    }
    const main = isObject(mod.main) ? mod.main : isObject(mod.schema) ? mod.schema : mod
    const hasHandlers = main !== mod && Object.hasOwn(mod, 'handlers')
    return {
        main,
        source: options.source ?? null,
        fileBase: typeof schemaPath === 'string' ? baseName(schemaPath) : null,
        refused: false,
        hasHandlers
    }
}

/** The text of the file at `schemaPath` through the host's reader; null when there is none (the issue in `errors`). */
async function sourceAt(
    given: unknown,
    options: SchemaRunOptions,
    errors: Issue[]
): Promise<{ path: string; source: string } | null> {
    if (given === undefined) {
        // Neither schema nor schemaPath: the one missing field is named as the pair.
        errors.push(createIssue('GRA-001', '/schemaPath', { field: 'schemaPath or schema' }))
        return null
    }
    const checked = parseArgs(SCHEMA_PATH, given, ARGS, { ...STYLE, at: ['schemaPath'] })
    if (checked.value === null) {
        errors.push(...checked.errors)
        return null
    }
    const path = checked.value
    const reader = options.sourceFs ?? options.fs
    if (reader === undefined) {
        errors.push(
            createIssue('GRA-004', '/options/sourceFs', {
                detail: 'pass options.sourceFs (or fs) so the source can be read'
            })
        )
        return null
    }
    let source: string | null
    try {
        source = await reader.readFile(path)
    } catch (cause) {
        errors.push(
            createIssue('GRA-004', '/schemaPath', { detail: cause instanceof Error ? cause.message : 'read failed' })
        )
        return null
    }
    if (source === null) {
        errors.push(createIssue('GRA-004', '/schemaPath', { detail: `no file at ${path}` }))
        return null
    }
    return { path, source }
}

/** The module of a source: imported by the host's trustedLoader, else read from its syntax tree; or why it has none. */
async function moduleOf(
    path: string,
    source: string,
    options: SchemaRunOptions,
    errors: Issue[]
): Promise<{ ok: true; mod: LoadedModule; hasHandlers: boolean } | { ok: false; resolved: ResolvedSchema }> {
    // The source is read from its syntax tree, never run; only a host's explicit trustedLoader imports it.
    const trusted = options.trustedLoader
    if (trusted !== undefined) {
        try {
            return { ok: true, mod: await trusted.load(path), hasHandlers: false }
        } catch (cause) {
            errors.push(
                createIssue('GRA-003', '/schemaPath', {
                    detail: cause instanceof Error ? cause.message : 'load failed'
                })
            )
            return { ok: false, resolved: { main: null, source, fileBase: baseName(path), refused: false } }
        }
    }
    const read = readModuleSource({ source })
    errors.push(...read.errors.map((e) => ({ ...e, path: '/schemaPath' })))
    if (read.module === null) {
        return { ok: false, resolved: { main: null, source, fileBase: baseName(path), refused: true } }
    }
    return { ok: true, mod: read.module, hasHandlers: read.hasHandlers }
}

/**
 * Resolves the schema module: given as an object, or read from the syntax tree of `schemaPath` (never run unless the
 * host passes a trustedLoader).
 */
async function resolveSchema(
    input: { schemaPath?: unknown; schema?: unknown },
    options: SchemaRunOptions,
    errors: Issue[]
): Promise<ResolvedSchema> {
    if (input.schema !== undefined) return givenSchema(input.schema, input.schemaPath, options, errors)
    const file = await sourceAt(input.schemaPath, options, errors)
    if (file === null) return unread()
    const { path, source } = file
    const loaded = await moduleOf(path, source, options, errors)
    if (!loaded.ok) return loaded.resolved
    const { mod, hasHandlers } = loaded
    const main = isObject(mod) ? (isObject(mod.main) ? mod.main : isObject(mod.schema) ? mod.schema : null) : null
    if (main === null) {
        errors.push(
            options.trustedLoader !== undefined
                ? createIssue('GRA-003', '/schemaPath', { detail: 'the module exports neither main nor schema' })
                : createIssue('SRC-005', '/schemaPath')
        )
    }
    return {
        main,
        source,
        fileBase: baseName(path),
        refused: false,
        hasHandlers: hasHandlers || (isObject(mod) && Object.hasOwn(mod, 'handlers'))
    }
}

/** Why a schema slug (the id after `<namespace>.`) cannot name a folder, or null. */
function slugProblem(slug: string): string | null {
    if (slug.length === 0) return 'empty file base'
    if (slug.includes('/') || slug.includes('\\')) return 'contains a path separator'
    if (slug.includes('..')) return 'contains ..'
    if (/[\u0000-\u001f\u007f]/.test(slug)) return 'contains a control character'
    return null
}

/** A schema read and checked: the module as resolved, its `main`, and the structural validation of `main`. */
export interface ReadSchema {
    readonly resolved: Awaited<ReturnType<typeof resolveSchema>>
    readonly main: Obj
    readonly validation: { readonly valid: boolean; readonly errors: Issue[] }
}

/**
 * Stage "read and check": the schema resolved, guarded as plain JSON and validated; null when it cannot be graded at
 * all.
 */
export async function readSchema(
    input: GradeSingleSchemaInput,
    options: SchemaRunOptions,
    errors: Issue[]
): Promise<ReadSchema | null> {
    const resolved = await resolveSchema(input, options, errors)
    if (resolved.main === null) return null
    const main = resolved.main
    const guard = inspectJson(main, undefined, '/schema/main')
    if (guard.length > 0) {
        errors.push(...guard)
        return null
    }
    // main passed inspectJson just above: validated without walking it again.
    const structural = validateInspectedMain(main)
    const validation = { valid: !structural.some((i) => i.severity === SEVERITY.error), errors: structural }
    errors.push(...validation.errors.map((i) => ({ ...i, path: `/schema/main${i.path}` })))
    return { resolved, main, validation }
}

/**
 * Who the schema is: its namespace, version, id, island folder, the host's values for it, and its content hash
 * (GRA-017, GRA-002, GRA-020).
 */
export interface SchemaIdentity {
    readonly namespace: string
    readonly version: string
    readonly schemaId: string
    readonly slug: string
    readonly schemaFolder: string
    readonly serverParams: Record<string, string>
    readonly secrets: readonly string[]
    readonly schemaHash: string
}

/** Stage "identify": the schema's id, island folder and content hash, or null (its issues in `errors`). */
export function identifySchema(
    input: GradeSingleSchemaInput,
    main: Obj,
    resolvedFileBase: string | null,
    options: SchemaRunOptions,
    errors: Issue[]
): SchemaIdentity | null {
    const namespace = typeof main.namespace === 'string' ? main.namespace : null
    if (namespace === null || !isObject(main.tools)) return null
    const version = SchemaCheck.normalizeVersion({ version: main.version }).version
    if (version === null) return null
    // One id everywhere (01-model ⚠ A14, the public registry): `<namespace>.<file base>`.
    const fileBase = resolvedFileBase ?? (typeof input.fileName === 'string' ? baseName(input.fileName) : null)
    if (input.schemaId !== undefined && !input.schemaId.startsWith(`${namespace}.`)) {
        errors.push(createIssue('GRA-017', '/schemaId', { value: input.schemaId, namespace }))
        return null
    }
    // The slug is everything after `<namespace>.`: a file base, never a path (it names an island folder).
    let slug = input.schemaId !== undefined ? input.schemaId.slice(namespace.length + 1) : fileBase
    const badSlug = slug === null ? null : slugProblem(slug)
    if (badSlug !== null) {
        errors.push(
            createIssue('GRA-002', input.schemaId !== undefined ? '/schemaId' : '/fileName', {
                field: input.schemaId !== undefined ? 'schemaId' : 'fileName',
                expected: '<namespace>.<file base>, the file base without path separators, .. or control characters',
                actual: `${describeValue(input.schemaId ?? input.fileName ?? input.schemaPath)} (${badSlug})`
            })
        )
        return null
    }
    if (slug === null) {
        slug = kebabCase(typeof main.name === 'string' ? main.name : 'schema')
        errors.push(createIssue('GRA-020', '/fileName', { schemaId: `${namespace}.${slug}` }))
    }
    const schemaId = input.schemaId ?? `${namespace}.${slug}`
    // Folder names in the island: the runtime's names mapped through the reversible islandName.
    const schemaFolder = islandName(slug, 'schema')
    if (schemaFolder === null) {
        errors.push(
            createIssue('GRA-002', '/schemaId', {
                field: 'schema slug',
                expected: 'a name of at most 200 characters once escaped',
                actual: describeValue(slug)
            })
        )
        return null
    }
    const serverParams = serverParamsFor(options.serverParams, main, errors)
    // Every host-given value is erased from whatever leaves the library or reaches a file.
    const secrets = secretForms(serverParams)
    // The island stores a source holding a key redacted, so the hash is of that stored form. `main`
    // passed inspectJson above, and redacting strings keeps it plain JSON.
    const hashed = schemaHashOfInspected(redactSecretsDeep(main, secrets))
    if (hashed.short === null) {
        errors.push(...hashed.errors)
        return null
    }
    return { namespace, version, schemaId, slug, schemaFolder, serverParams, secrets, schemaHash: hashed.short }
}
