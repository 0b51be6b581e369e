import type { ErrorObject, ValidateFunction } from './types.js'
import { formats, ucs2length } from './runtime.js'
import { isObject } from '../model/object.js'

/**
 * A JSON Schema (draft 2020-12) interpreter for the keywords the shipped schemas use. It walks the
 * schema at run time, so the package builds no functions from strings (strict CSP, Workers) and
 * ships no generated code. Its findings have the shape, order, messages and params ajv 8 reports
 * with `allErrors` and `strict: false`, because the issue mappers were written against those;
 * test/validation/interpret.test.ts compares the two on every shipped schema.
 */

type Schema = boolean | Record<string, unknown>
type Obj = Record<string, unknown>

interface Ctx {
    readonly registry: ReadonlyMap<string, Obj>
    readonly errors: ErrorObject[]
}

/** Where a subschema sits: the document it belongs to (for `#` refs) and its error schema path. */
interface At {
    readonly base: string
    readonly schemaPath: string
    readonly instancePath: string
    readonly propertyName?: string
}

// ajv sorts keywords into groups that run in this order; a type error of a single declared type
// with keywords in that type's group is reported at the group's place, any other one first.
const TYPE_GROUPS: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['number', ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'format']],
    ['string', ['maxLength', 'minLength', 'pattern', 'format']],
    ['array', ['maxItems', 'minItems', 'prefixItems', 'items', 'contains']],
    ['object', ['maxProperties', 'minProperties', 'required', 'propertyNames', 'additionalProperties', 'properties']]
]
const UNTYPED = ['$ref', 'const', 'enum', 'not', 'oneOf', 'allOf', 'if']
/** Every keyword the interpreter knows; test/validation/interpret.test.ts checks the shipped schemas use no other. */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
    '$schema', '$id', '$defs', '$comment', 'title', 'description', 'examples', 'default', 'type', 'then', 'else',
    ...UNTYPED, ...TYPE_GROUPS.flatMap(([, keys]) => keys)
])

const patterns = new Map<string, RegExp>()
function regex(source: string): RegExp {
    let re = patterns.get(source)
    if (re === undefined) {
        re = new RegExp(source, 'u')
        patterns.set(source, re)
    }
    return re
}

function hasType(data: unknown, type: string): boolean {
    switch (type) {
        case 'object': return isObject(data)
        case 'array': return Array.isArray(data)
        case 'string': return typeof data === 'string'
        case 'number': return typeof data === 'number' && Number.isFinite(data)
        case 'integer': return typeof data === 'number' && Number.isFinite(data) && data % 1 === 0
        case 'boolean': return typeof data === 'boolean'
        case 'null': return data === null
        default: return false
    }
}

/** Deep equality of JSON values, as `const` and `enum` compare. */
export function jsonEqual(a: unknown, b: unknown): boolean {
    if (a === b) return true
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
    if (isObject(a) && isObject(b)) {
        const keys = Object.keys(a)
        return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
    }
    return a !== a && b !== b
}

function escapeKey(key: string | number): string {
    if (typeof key === 'number') return String(key)
    // Most keys need no escaping; a regex replace on every key was the interpreter's top cost.
    return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key
}

function child(at: At, keyword: string, data?: string | number): At {
    return { base: at.base, schemaPath: `${at.schemaPath}/${keyword}`, instancePath: data === undefined ? at.instancePath : `${at.instancePath}/${escapeKey(data)}`, ...(at.propertyName === undefined ? {} : { propertyName: at.propertyName }) }
}

function report(ctx: Ctx, at: At, keyword: string, params: Obj, message: string): void {
    ctx.errors.push({ instancePath: at.instancePath, schemaPath: `${at.schemaPath}/${keyword}`, keyword, params, message, ...(at.propertyName === undefined ? {} : { propertyName: at.propertyName }) })
}

/** What a schema object asks for, worked out once per schema object (the schemas never change). */
interface Plan {
    readonly base: string | null
    readonly types: readonly string[]
    /** Whether a type mismatch is reported before the keywords rather than at its type group. */
    readonly typeFirst: boolean
    readonly untyped: readonly string[]
    readonly groups: ReadonlyArray<readonly [string, readonly string[]]>
}
const plans = new WeakMap<Obj, Plan>()
function planOf(schema: Obj): Plan {
    let plan = plans.get(schema)
    if (plan !== undefined) return plan
    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]
    const groups = TYPE_GROUPS.map(([t, keys]) => [t, keys.filter((k) => k in schema)] as const).filter(([, keys]) => keys.length > 0)
    const single = types.length === 1 && groups.some(([t]) => t === types[0])
    plan = {
        base: typeof schema.$id === 'string' ? (schema.$id.split('#')[0] as string) : null,
        types,
        typeFirst: types.length > 0 && !single,
        untyped: UNTYPED.filter((k) => k in schema),
        groups
    }
    plans.set(schema, plan)
    return plan
}

/** Validates `data` against `schema`; appends findings to `ctx.errors` and returns whether none were added. */
function validate(ctx: Ctx, schema: Schema, data: unknown, at: At): boolean {
    const before = ctx.errors.length
    if (schema === true) return true
    if (schema === false) {
        ctx.errors.push({ instancePath: at.instancePath, schemaPath: at.schemaPath, keyword: 'false schema', params: {}, message: 'boolean schema is false' })
        return false
    }
    const plan = planOf(schema)
    const here: At = plan.base === null || plan.base === at.base ? at : { ...at, base: plan.base }
    const types = plan.types
    if (plan.typeFirst && !types.some((t) => hasType(data, t))) typeError(ctx, here, types)
    for (const keyword of plan.untyped) untyped(ctx, schema, keyword, data, here)
    for (const [type, keys] of plan.groups) {
        if (hasType(data, type)) {
            for (const keyword of keys) typed(ctx, schema, keyword, data, here)
        } else if (!plan.typeFirst && types[0] === type) {
            typeError(ctx, here, types)
        }
    }
    return ctx.errors.length === before
}

function typeError(ctx: Ctx, at: At, types: readonly string[]): void {
    report(ctx, at, 'type', { type: types.join(',') }, `must be ${types.join(',')}`)
}

/** Runs `schema` as part of a composite keyword and takes its findings back for the caller to keep or drop. */
function trial(ctx: Ctx, schema: Schema, data: unknown, at: At): { valid: boolean; found: ErrorObject[] } {
    const before = ctx.errors.length
    const valid = validate(ctx, schema, data, at)
    return { valid, found: ctx.errors.splice(before) }
}

function resolve(registry: ReadonlyMap<string, Obj>, ref: string, base: string): { schema: Schema; base: string } | null {
    const hash = ref.indexOf('#')
    const doc = hash === 0 ? base : hash < 0 ? ref : ref.slice(0, hash)
    let node: unknown = registry.get(doc)
    const fragment = hash < 0 ? '' : ref.slice(hash + 1)
    for (const raw of fragment.split('/').slice(1)) {
        const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
        node = isObject(node) || Array.isArray(node) ? (node as Obj)[key] : undefined
    }
    return typeof node === 'boolean' || isObject(node) ? { schema: node, base: doc } : null
}

function untyped(ctx: Ctx, schema: Obj, keyword: string, data: unknown, at: At): void {
    switch (keyword) {
        case '$ref': {
            const target = resolve(ctx.registry, schema.$ref as string, at.base)
            // An unresolvable reference is a defect of the shipped schemas, caught by the tests.
            if (target === null) return report(ctx, at, '$ref', { ref: schema.$ref }, `can't resolve reference ${String(schema.$ref)}`)
            validate(ctx, target.schema, data, { ...at, base: target.base, schemaPath: schema.$ref as string })
            return
        }
        case 'const':
            if (!jsonEqual(data, schema.const)) report(ctx, at, 'const', { allowedValue: schema.const }, 'must be equal to constant')
            return
        case 'enum': {
            const allowed = schema.enum as unknown[]
            if (!allowed.some((v) => jsonEqual(data, v))) report(ctx, at, 'enum', { allowedValues: allowed }, 'must be equal to one of the allowed values')
            return
        }
        case 'not':
            if (trial(ctx, schema.not as Schema, data, child(at, 'not')).valid) report(ctx, at, 'not', {}, 'must NOT be valid')
            return
        case 'allOf':
            ;(schema.allOf as Schema[]).forEach((s, i) => validate(ctx, s, data, child(at, `allOf/${i}`)))
            return
        case 'oneOf':
            return oneOf(ctx, schema.oneOf as Schema[], data, at)
        case 'if':
            return ifThen(ctx, schema, data, at)
    }
}

function oneOf(ctx: Ctx, branches: Schema[], data: unknown, at: At): void {
    // ajv's bookkeeping, kept literally so `passingSchemas` reads the same: a second passing branch
    // turns the result invalid and records the pair.
    let valid = false
    let passing: number | number[] | null = null
    const found: ErrorObject[] = []
    branches.forEach((s, i) => {
        const t = trial(ctx, s, data, child(at, `oneOf/${i}`))
        found.push(...t.found)
        if (t.valid && valid) {
            valid = false
            passing = [passing as number, i]
        } else if (t.valid) {
            valid = true
            passing = i
        }
    })
    if (valid) return
    ctx.errors.push(...found)
    report(ctx, at, 'oneOf', { passingSchemas: passing }, 'must match exactly one schema in oneOf')
}

function ifThen(ctx: Ctx, schema: Obj, data: unknown, at: At): void {
    const hasThen = schema.then !== undefined
    const hasElse = schema.else !== undefined
    if (!hasThen && !hasElse) return
    const cond = trial(ctx, schema.if as Schema, data, child(at, 'if')).valid
    const branch = cond ? 'then' : 'else'
    if (schema[branch] === undefined) return
    if (!validate(ctx, schema[branch] as Schema, data, child(at, branch))) {
        report(ctx, at, 'if', { failingKeyword: branch }, `must match "${branch}" schema`)
    }
}

const LIMITS: Readonly<Record<string, readonly [string, (a: number, b: number) => boolean]>> = {
    maximum: ['<=', (a, b) => a <= b],
    minimum: ['>=', (a, b) => a >= b],
    exclusiveMaximum: ['<', (a, b) => a < b],
    exclusiveMinimum: ['>', (a, b) => a > b]
}

function typed(ctx: Ctx, schema: Obj, keyword: string, data: unknown, at: At): void {
    const limit = schema[keyword] as number
    switch (keyword) {
        case 'maximum':
        case 'minimum':
        case 'exclusiveMaximum':
        case 'exclusiveMinimum': {
            const [comparison, holds] = LIMITS[keyword] as readonly [string, (a: number, b: number) => boolean]
            if (!holds(data as number, limit)) report(ctx, at, keyword, { comparison, limit }, `must be ${comparison} ${limit}`)
            return
        }
        case 'maxLength':
        case 'minLength':
            return lengthLimit(ctx, at, keyword, ucs2length(data as string), limit, 'characters')
        case 'pattern':
            if (!regex(schema.pattern as string).test(data as string)) report(ctx, at, keyword, { pattern: schema.pattern }, `must match pattern "${String(schema.pattern)}"`)
            return
        case 'format':
            return format(ctx, at, schema.format as string, data)
        case 'maxItems':
        case 'minItems':
            return lengthLimit(ctx, at, keyword, (data as unknown[]).length, limit, 'items')
        case 'prefixItems':
        case 'items':
        case 'contains':
            return arrayKeyword(ctx, schema, keyword, data as unknown[], at)
        case 'maxProperties':
        case 'minProperties':
            return lengthLimit(ctx, at, keyword, Object.keys(data as Obj).length, limit, 'properties')
        default:
            return objectKeyword(ctx, schema, keyword, data as Obj, at)
    }
}

function lengthLimit(ctx: Ctx, at: At, keyword: string, actual: number, limit: number, unit: string): void {
    const max = keyword.startsWith('max')
    if (max ? actual > limit : actual < limit) report(ctx, at, keyword, { limit }, `must NOT have ${max ? 'more' : 'fewer'} than ${limit} ${unit}`)
}

function format(ctx: Ctx, at: At, name: string, data: unknown): void {
    // Only string formats are shipped; an unknown format is ignored, as ajv does without strict mode.
    if (typeof data !== 'string') return
    const check = name === 'date-time' ? formats['date-time'].validate : name === 'uri' ? formats.uri : null
    if (check !== null && !check(data)) report(ctx, at, 'format', { format: name }, `must match format "${name}"`)
}

function arrayKeyword(ctx: Ctx, schema: Obj, keyword: string, data: unknown[], at: At): void {
    if (keyword === 'prefixItems') {
        ;(schema.prefixItems as Schema[]).forEach((s, i) => {
            if (i < data.length) validate(ctx, s, data[i], child(at, `prefixItems/${i}`, i))
        })
        return
    }
    if (keyword === 'items') {
        const start = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0
        // `items: false` is one finding on the array, as ajv reports it, not one per extra item.
        if (schema.items === false) {
            if (data.length > start) report(ctx, at, 'items', { limit: start }, `must NOT have more than ${start} items`)
            return
        }
        for (let i = start; i < data.length; i++) validate(ctx, schema.items as Schema, data[i], child(at, 'items', i))
        return
    }
    // contains (minContains 1): item findings are kept only when no item matches.
    const before = ctx.errors.length
    for (let i = 0; i < data.length; i++) {
        if (validate(ctx, schema.contains as Schema, data[i], child(at, 'contains', i))) {
            ctx.errors.length = before
            return
        }
    }
    report(ctx, at, 'contains', { minContains: 1 }, 'must contain at least 1 valid item(s)')
}

function objectKeyword(ctx: Ctx, schema: Obj, keyword: string, data: Obj, at: At): void {
    switch (keyword) {
        case 'required':
            for (const name of schema.required as string[]) {
                if (data[name] === undefined) report(ctx, at, 'required', { missingProperty: name }, `must have required property '${name}'`)
            }
            return
        case 'propertyNames':
            for (const key of Object.keys(data)) {
                const inner = { ...child(at, 'propertyNames'), propertyName: key }
                if (!validate(ctx, schema.propertyNames as Schema, key, inner)) report(ctx, at, 'propertyNames', { propertyName: key }, 'property name must be valid')
            }
            return
        case 'additionalProperties':
            return additional(ctx, schema, data, at)
        case 'properties':
            for (const [name, sub, keyword] of propertiesOf(schema.properties as Obj)) {
                if (data[name] !== undefined) validate(ctx, sub, data[name], child(at, keyword, name))
            }
            return
    }
}

const propertyLists = new WeakMap<Obj, ReadonlyArray<readonly [string, Schema, string]>>()
/** The entries of a `properties` keyword with their schema path segments, built once per schema. */
function propertiesOf(properties: Obj): ReadonlyArray<readonly [string, Schema, string]> {
    let list = propertyLists.get(properties)
    if (list === undefined) {
        list = Object.entries(properties).map(([name, sub]) => [name, sub as Schema, `properties/${escapeKey(name)}`] as const)
        propertyLists.set(properties, list)
    }
    return list
}

function additional(ctx: Ctx, schema: Obj, data: Obj, at: At): void {
    const extra = schema.additionalProperties as Schema
    if (extra === true) return
    const known = isObject(schema.properties) ? schema.properties : {}
    for (const key of Object.keys(data)) {
        if (Object.hasOwn(known, key)) continue
        if (extra === false) report(ctx, at, 'additionalProperties', { additionalProperty: key }, 'must NOT have additional properties')
        else validate(ctx, extra, data[key], child(at, 'additionalProperties', key))
    }
}

function valueAt(root: unknown, instancePath: string): unknown {
    let node = root
    if (instancePath === '') return node
    for (const raw of instancePath.slice(1).split('/')) {
        const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
        if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
        node = (node as Obj)[key]
    }
    return node
}

/**
 * A validator for the schema `ref` names (an absolute `$id`, optionally with a `#/...` fragment)
 * among `schemas`. Each finding carries `data`, the value at its `instancePath`, as ajv's
 * `verbose` option gives it: the issue mappers quote it.
 */
export function schemaValidator(schemas: readonly object[], ref: string): ValidateFunction {
    const registry = new Map<string, Obj>()
    for (const s of schemas as Obj[]) registry.set(String(s.$id).split('#')[0] as string, s)
    const hash = ref.indexOf('#')
    const target = resolve(registry, ref, hash < 0 ? ref : ref.slice(0, hash))
    // A wrong name here is a defect of this package, found when the module loads in any test.
    if (target === null) throw new Error(`No shipped schema has the reference ${ref}.`)
    const start: At = { base: target.base, schemaPath: hash < 0 ? '#' : ref.slice(hash), instancePath: '' }
    const run = ((data: unknown) => {
        const ctx: Ctx = { registry, errors: [] }
        validate(ctx, target.schema, data, start)
        run.errors = ctx.errors.length === 0 ? null : ctx.errors.map((e) => ({ ...e, data: valueAt(data, e.instancePath) }))
        return ctx.errors.length === 0
    }) as ValidateFunction
    return run
}
