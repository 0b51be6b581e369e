import { escapePointerToken, pointer } from '../errors/pointer.js'
import type { ErrorObject, ValidateFunction } from './types.js'
import { formats, ucs2length } from './runtime.js'
import { isObject } from '../model/object.js'

/**
 * A JSON Schema (draft 2020-12) validator for the keywords the shipped schemas use. Each schema is
 * compiled once, at first use, into a tree of closures: no code is built from strings (strict CSP,
 * Workers) and no generated code ships. Its findings have the shape, order, messages and params
 * ajv 8 reports with `allErrors` and `strict: false`, because the issue mappers were written
 * against those; test/validation/interpret.test.ts compares the two on every shipped schema.
 */

type Schema = boolean | Record<string, unknown>
type Obj = Record<string, unknown>

/** One run: the findings so far and the instance path as tokens, turned into a pointer only when reported. */
interface Ctx {
    readonly errors: ErrorObject[]
    readonly path: Array<string | number>
    propertyName: string | undefined
    /** Above 0 while only validity counts (findings about to be dropped): a placeholder is counted instead. */
    quiet: number
}
/** A compiled schema or keyword: appends its findings to `ctx.errors`. */
type Check = (data: unknown, ctx: Ctx) => void

/** The schemas by document, for `$ref`. */
type Unit = ReadonlyMap<string, Obj>

// ajv sorts keywords into groups that run in this order; a type error of a single declared type
// with keywords in that type's group is reported at the group's place, any other one first.
const TYPE_GROUPS: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['number', ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'format']],
    ['string', ['maxLength', 'minLength', 'pattern', 'format']],
    ['array', ['maxItems', 'minItems', 'prefixItems', 'items', 'contains']],
    ['object', ['maxProperties', 'minProperties', 'required', 'propertyNames', 'additionalProperties', 'properties']]
]
const UNTYPED = ['$ref', 'const', 'enum', 'not', 'oneOf', 'allOf', 'if']
/** Every keyword the compiler knows; test/validation/interpret.test.ts checks the shipped schemas use no other. */
export function knownKeywords(): ReadonlySet<string> {
    return new Set([
        '$schema',
        '$id',
        '$defs',
        '$comment',
        'title',
        'description',
        'examples',
        'default',
        'type',
        'then',
        'else',
        ...UNTYPED,
        ...TYPE_GROUPS.flatMap(([, keys]) => keys)
    ])
}

/** A test per JSON Schema type, so a compiled step calls its own instead of switching on the name per value. */
const TYPE_TESTS: Readonly<Record<string, (data: unknown) => boolean>> = {
    object: isObject,
    array: Array.isArray,
    string: (data) => typeof data === 'string',
    number: (data) => typeof data === 'number' && Number.isFinite(data),
    integer: (data) => typeof data === 'number' && Number.isFinite(data) && data % 1 === 0,
    boolean: (data) => typeof data === 'boolean',
    null: (data) => data === null
}

/** The test of a declared type; an unknown type name matches nothing. */
const typeTest = (type: string): ((data: unknown) => boolean) =>
    Object.hasOwn(TYPE_TESTS, type) ? (TYPE_TESTS[type] as (data: unknown) => boolean) : () => false

/** Deep equality of JSON values, as `const` and `enum` compare. */
export function jsonEqual(a: unknown, b: unknown): boolean {
    if (a === b) return true
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
    if (isObject(a) && isObject(b)) {
        const keys = Object.keys(a)
        return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
    }
    return Number.isNaN(a) && Number.isNaN(b)
}

/** Stands for a finding that is about to be dropped, so none is built. */
const DROPPED = {} as ErrorObject

function report(ctx: Ctx, schemaPath: string, keyword: string, params: Obj, message: string): void {
    if (ctx.quiet > 0) {
        ctx.errors.push(DROPPED)
        return
    }
    const propertyName = ctx.propertyName
    ctx.errors.push({
        instancePath: pointer(...ctx.path),
        schemaPath: `${schemaPath}/${keyword}`,
        keyword,
        params,
        message,
        ...(propertyName === undefined ? {} : { propertyName })
    })
}

/** Runs `check` on `data` one level down (`key`), keeping the instance path in step. */
function down(check: Check, data: unknown, key: string | number, ctx: Ctx): void {
    ctx.path.push(key)
    check(data, ctx)
    ctx.path.pop()
}

/** Runs `check` and reports whether it added no finding; `keep: false` takes its findings back (and builds none). */
function passes(check: Check, data: unknown, ctx: Ctx, keep: boolean): boolean {
    const before = ctx.errors.length
    if (!keep) ctx.quiet++
    check(data, ctx)
    const valid = ctx.errors.length === before
    if (!keep) {
        ctx.quiet--
        // Truncating an array is not free even when nothing was added: only when a finding was.
        if (!valid) ctx.errors.length = before
    }
    return valid
}

function resolve(
    registry: ReadonlyMap<string, Obj>,
    ref: string,
    base: string
): { schema: Schema; base: string } | null {
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

const NOTHING: Check = () => undefined

/** A schema's verdict alone, for the places whose findings are dropped (`if`, `not`, a first pass of `oneOf`). */
type Predicate = (data: unknown) => boolean

const ANNOTATIONS: ReadonlySet<string> = new Set(['title', 'description', '$comment', 'examples', 'default'])
const isNumber = typeTest('number')
/** The limits {@link predicate} covers, each passing a value of another type as its compiled check does. */
const LIMITS: Readonly<Record<string, (data: unknown, limit: number) => boolean>> = {
    minimum: (data, limit) => !isNumber(data) || (data as number) >= limit,
    maximum: (data, limit) => !isNumber(data) || (data as number) <= limit,
    minLength: (data, limit) => typeof data !== 'string' || ucs2length(data) >= limit
}

/**
 * The verdict of a small schema as one function, exactly what its compiled check would say about
 * adding no finding (the same type tests and comparisons), without a context or a finding built;
 * `null` when the schema uses another keyword, and the compiled check decides instead.
 */
function predicate(schema: Schema): Predicate | null {
    if (typeof schema === 'boolean') return () => schema
    const tests: Predicate[] = []
    for (const keyword of Object.keys(schema)) {
        if (ANNOTATIONS.has(keyword)) continue
        const value = schema[keyword]
        const limit = Object.hasOwn(LIMITS, keyword)
            ? (LIMITS[keyword] as (data: unknown, limit: number) => boolean)
            : null
        if (limit !== null && typeof value === 'number') tests.push((data) => limit(data, value))
        else if (keyword === 'type') {
            const types = (Array.isArray(value) ? value : [value]).map((t) => typeTest(String(t)))
            tests.push((data) => types.some((test) => test(data)))
        } else if (keyword === 'const' || keyword === 'enum') {
            const allowed = keyword === 'const' ? [value] : (value as unknown[])
            tests.push((data) => allowed.some((v) => data === v || jsonEqual(data, v)))
        } else if (keyword === 'not') {
            const inner = predicate(value as Schema)
            if (inner === null) return null
            tests.push((data) => !inner(data))
        } else if (keyword === 'required') {
            const names = value as string[]
            tests.push((data) => !isObject(data) || names.every((name) => data[name] !== undefined))
        } else if (keyword === 'properties' && isObject(value)) {
            const names = Object.keys(value)
            const subs = names.map((name) => predicate(value[name] as Schema))
            if (subs.includes(null)) return null
            tests.push(
                (data) =>
                    !isObject(data) ||
                    names.every((name, i) => data[name] === undefined || (subs[i] as Predicate)(data[name]))
            )
        } else return null
    }
    return (data) => tests.every((test) => test(data))
}

/**
 * A quiet verdict on `schema`: its {@link predicate} when it has one, else its compiled check run without keeping
 * findings.
 */
function verdict(schema: Schema, check: Check): (data: unknown, ctx: Ctx) => boolean {
    const quick = predicate(schema)
    return quick === null ? (data, ctx) => passes(check, data, ctx, false) : (data) => quick(data)
}

/** Compiles `schema`, found at `schemaPath` in document `base`, into one check running its keywords in ajv's order. */
function compile(unit: Unit, schema: Schema, schemaPath: string, base: string): Check {
    if (schema === true) return NOTHING
    if (schema === false) {
        return (_data, ctx) => {
            ctx.errors.push(
                ctx.quiet > 0
                    ? DROPPED
                    : {
                          instancePath: pointer(...ctx.path),
                          schemaPath,
                          keyword: 'false schema',
                          params: {},
                          message: 'boolean schema is false'
                      }
            )
        }
    }
    const here = typeof schema.$id === 'string' ? (schema.$id.split('#')[0] as string) : base
    const types =
        schema.type === undefined
            ? []
            : Array.isArray(schema.type)
              ? (schema.type as string[])
              : [schema.type as string]
    const groups = TYPE_GROUPS.map(([t, keys]) => [t, keys.filter((k) => k in schema)] as const).filter(
        ([, keys]) => keys.length > 0
    )
    const typeFirst = types.length > 0 && !(types.length === 1 && groups.some(([t]) => t === types[0]))
    const typeList = types.join(',')
    const typeMessage = `must be ${typeList}`
    const typeError: Check = (_data, ctx) => report(ctx, schemaPath, 'type', { type: typeList }, typeMessage)
    const steps: Check[] = []
    if (typeFirst) {
        const tests = types.map(typeTest)
        const matches =
            tests.length === 1
                ? (tests[0] as (data: unknown) => boolean)
                : (data: unknown) => tests.some((test) => test(data))
        steps.push((data, ctx) => (matches(data) ? undefined : typeError(data, ctx)))
    }
    for (const keyword of UNTYPED) if (keyword in schema) steps.push(untyped(unit, schema, keyword, schemaPath, here))
    for (const [group, keys] of groups) {
        const inGroup = keys.map((keyword) => typed(unit, schema, keyword, schemaPath, here))
        const mismatch = !typeFirst && types[0] === group ? typeError : NOTHING
        const is = typeTest(group)
        const run = sequence(inGroup)
        steps.push((data, ctx) => (is(data) ? run(data, ctx) : mismatch(data, ctx)))
    }
    return sequence(steps)
}

/** The steps run in order; a schema of one step (most subschemas) is that step, one closure fewer per value. */
function sequence(steps: readonly Check[]): Check {
    if (steps.length < 2) return steps[0] ?? NOTHING
    return (data, ctx) => {
        for (let i = 0; i < steps.length; i++) (steps[i] as Check)(data, ctx)
    }
}

/** A `$ref`: its target is compiled on first run, so a schema that refers to itself compiles once per reference. */
function reference(unit: Unit, ref: string, schemaPath: string, base: string): Check {
    const target = resolve(unit, ref, base)
    // An unresolvable reference is a defect of the shipped schemas, caught by the tests.
    if (target === null)
        return (_data, ctx) => report(ctx, schemaPath, '$ref', { ref }, `can't resolve reference ${ref}`)
    let check: Check | undefined
    // biome-ignore lint/suspicious/noAssignInExpressions: compiled on first use, then kept
    return (data, ctx) => (check ??= compile(unit, target.schema, ref, target.base))(data, ctx)
}

function untyped(unit: Unit, schema: Obj, keyword: string, schemaPath: string, base: string): Check {
    const sub = (s: unknown, path: string): Check => compile(unit, s as Schema, `${schemaPath}/${path}`, base)
    switch (keyword) {
        case '$ref':
            return reference(unit, String(schema.$ref), schemaPath, base)
        case 'const': {
            const allowedValue = schema.const
            return (data, ctx) =>
                data === allowedValue || jsonEqual(data, allowedValue)
                    ? undefined
                    : report(ctx, schemaPath, 'const', { allowedValue }, 'must be equal to constant')
        }
        case 'enum': {
            const allowed = schema.enum as unknown[]
            // The shipped enums list strings and nulls: a Set answers for those at once (SameValueZero
            // agrees with jsonEqual on every primitive), the deep comparison is left for the rest.
            const primitives = new Set(allowed.filter((v) => v === null || typeof v !== 'object'))
            return (data, ctx) =>
                primitives.has(data) ||
                (data !== null && typeof data === 'object' && allowed.some((v) => jsonEqual(data, v)))
                    ? undefined
                    : report(
                          ctx,
                          schemaPath,
                          'enum',
                          { allowedValues: allowed },
                          'must be equal to one of the allowed values'
                      )
        }
        case 'not': {
            const inner = verdict(schema.not as Schema, sub(schema.not, 'not'))
            return (data, ctx) =>
                inner(data, ctx) ? report(ctx, schemaPath, 'not', {}, 'must NOT be valid') : undefined
        }
        case 'allOf': {
            const all = (schema.allOf as Schema[]).map((s, i) => sub(s, `allOf/${i}`))
            return (data, ctx) => {
                for (const check of all) check(data, ctx)
            }
        }
        case 'oneOf': {
            const branches = (schema.oneOf as Schema[]).map((s, i) => sub(s, `oneOf/${i}`))
            return oneOf(
                branches,
                (schema.oneOf as Schema[]).map((s, i) => verdict(s, branches[i] as Check)),
                schemaPath
            )
        }
        default:
            return ifThen(schema, sub, schemaPath)
    }
}

function oneOf(
    branches: readonly Check[],
    verdicts: ReadonlyArray<(data: unknown, ctx: Ctx) => boolean>,
    schemaPath: string
): Check {
    return (data, ctx) => {
        // ajv's bookkeeping, kept literally so `passingSchemas` reads the same: a second passing branch
        // turns the result invalid and records the pair.
        let valid = false
        let passing: number | number[] | null = null
        for (let i = 0; i < branches.length; i++) {
            const ok = (verdicts[i] as (data: unknown, ctx: Ctx) => boolean)(data, ctx)
            if (ok && valid) {
                valid = false
                passing = [passing as number, i]
            } else if (ok) {
                valid = true
                passing = i
            }
        }
        if (valid) return
        // Only now are the branches' findings kept: run again to build them, in branch order.
        for (const check of branches) check(data, ctx)
        report(ctx, schemaPath, 'oneOf', { passingSchemas: passing }, 'must match exactly one schema in oneOf')
    }
}

function ifThen(schema: Obj, sub: (s: unknown, path: string) => Check, schemaPath: string): Check {
    if (schema.then === undefined && schema.else === undefined) return NOTHING
    const cond = verdict(schema.if as Schema, sub(schema.if, 'if'))
    const branches = {
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, never awaited
        then: schema.then === undefined ? null : sub(schema.then, 'then'),
        else: schema.else === undefined ? null : sub(schema.else, 'else')
    }
    return (data, ctx) => {
        const branch = cond(data, ctx) ? 'then' : 'else'
        const check = branches[branch]
        if (check !== null && !passes(check, data, ctx, true))
            report(ctx, schemaPath, 'if', { failingKeyword: branch }, `must match "${branch}" schema`)
    }
}

const COMPARISONS: Readonly<Record<string, string>> = {
    maximum: '<=',
    minimum: '>=',
    exclusiveMaximum: '<',
    exclusiveMinimum: '>'
}

function typed(unit: Unit, schema: Obj, keyword: string, schemaPath: string, base: string): Check {
    const limit = schema[keyword] as number
    switch (keyword) {
        case 'maximum':
        case 'minimum':
        case 'exclusiveMaximum':
        case 'exclusiveMinimum': {
            const comparison = COMPARISONS[keyword] as string
            const below = comparison[0] === '<'
            const equal = comparison.length > 1
            return (data, ctx) => {
                const d = data as number
                if (d === limit ? !equal : below !== d < limit)
                    report(ctx, schemaPath, keyword, { comparison, limit }, `must be ${comparison} ${limit}`)
            }
        }
        case 'maxLength':
        case 'minLength':
            return lengthLimit(schemaPath, keyword, limit, 'characters', ucs2length)
        case 'pattern': {
            const source = String(schema.pattern)
            const re = new RegExp(source, 'u')
            return (data, ctx) =>
                re.test(data as string)
                    ? undefined
                    : report(ctx, schemaPath, keyword, { pattern: source }, `must match pattern "${source}"`)
        }
        case 'format':
            return format(schemaPath, String(schema.format))
        case 'maxItems':
        case 'minItems':
            return lengthLimit(schemaPath, keyword, limit, 'items', (a: unknown[]) => a.length)
        case 'maxProperties':
        case 'minProperties':
            return lengthLimit(schemaPath, keyword, limit, 'properties', (o: Obj) => Object.keys(o).length)
        case 'prefixItems':
        case 'items':
        case 'contains':
            return arrayKeyword(unit, schema, keyword, schemaPath, base)
        default:
            return objectKeyword(unit, schema, keyword, schemaPath, base)
    }
}

function lengthLimit<T>(
    schemaPath: string,
    keyword: string,
    limit: number,
    unit: string,
    size: (data: T) => number
): Check {
    const max = keyword.startsWith('max')
    const message = `must NOT have ${max ? 'more' : 'fewer'} than ${limit} ${unit}`
    return (data, ctx) => {
        const actual = size(data as T)
        if (max ? actual > limit : actual < limit) report(ctx, schemaPath, keyword, { limit }, message)
    }
}

function format(schemaPath: string, name: string): Check {
    // Only string formats are shipped; an unknown format is ignored, as ajv does without strict mode.
    const check = name === 'date-time' ? formats['date-time'].validate : name === 'uri' ? formats.uri : null
    if (check === null) return NOTHING
    // One entry's answers mostly share their timestamps: the last string checked is remembered (the check is pure).
    let last: string | null = null
    let lastOk = false
    const valid = (data: string): boolean => {
        if (data !== last) {
            lastOk = check(data)
            last = data
        }
        return lastOk
    }
    return (data, ctx) =>
        typeof data !== 'string' || valid(data)
            ? undefined
            : report(ctx, schemaPath, 'format', { format: name }, `must match format "${name}"`)
}

function arrayKeyword(unit: Unit, schema: Obj, keyword: string, schemaPath: string, base: string): Check {
    if (keyword === 'prefixItems') {
        const prefix = (schema.prefixItems as Schema[]).map((s, i) =>
            compile(unit, s, `${schemaPath}/prefixItems/${i}`, base)
        )
        return (data, ctx) => {
            const items = data as unknown[]
            for (let i = 0; i < prefix.length && i < items.length; i++) down(prefix[i] as Check, items[i], i, ctx)
        }
    }
    const start = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0
    // `items: false` is one finding on the array, as ajv reports it, not one per extra item.
    if (keyword === 'items' && schema.items === false) {
        return (data, ctx) =>
            (data as unknown[]).length > start
                ? report(ctx, schemaPath, 'items', { limit: start }, `must NOT have more than ${start} items`)
                : undefined
    }
    const each = compile(unit, schema[keyword] as Schema, `${schemaPath}/${keyword}`, base)
    if (keyword === 'items') {
        return (data, ctx) => {
            const items = data as unknown[]
            for (let i = start; i < items.length; i++) down(each, items[i], i, ctx)
        }
    }
    // contains (minContains 1): item findings are kept only when no item matches, so they are built only then.
    return (data, ctx) => {
        const items = data as unknown[]
        if (items.some((item) => passes(each, item, ctx, false))) return
        items.forEach((item, i) => {
            down(each, item, i, ctx)
        })
        report(ctx, schemaPath, 'contains', { minContains: 1 }, 'must contain at least 1 valid item(s)')
    }
}

function objectKeyword(unit: Unit, schema: Obj, keyword: string, schemaPath: string, base: string): Check {
    const sub = (s: unknown, path: string): Check => compile(unit, s as Schema, `${schemaPath}/${path}`, base)
    switch (keyword) {
        case 'required': {
            const names = schema.required as string[]
            return (data, ctx) => {
                for (let i = 0; i < names.length; i++) {
                    const name = names[i] as string
                    if ((data as Obj)[name] === undefined)
                        report(
                            ctx,
                            schemaPath,
                            'required',
                            { missingProperty: name },
                            `must have required property '${name}'`
                        )
                }
            }
        }
        case 'propertyNames': {
            const inner = sub(schema.propertyNames, 'propertyNames')
            return (data, ctx) => {
                const outer = ctx.propertyName
                for (const key of Object.keys(data as Obj)) {
                    ctx.propertyName = key
                    const ok = passes(inner, key, ctx, true)
                    ctx.propertyName = outer
                    if (!ok)
                        report(ctx, schemaPath, 'propertyNames', { propertyName: key }, 'property name must be valid')
                }
            }
        }
        case 'additionalProperties':
            return additional(schema, sub, schemaPath)
        default: {
            const names = Object.keys(schema.properties as Obj)
            const checks = names.map((name) =>
                sub((schema.properties as Obj)[name], `properties/${escapePointerToken(name)}`)
            )
            return (data, ctx) => {
                for (let i = 0; i < names.length; i++) {
                    const value = (data as Obj)[names[i] as string]
                    if (value !== undefined) down(checks[i] as Check, value, names[i] as string, ctx)
                }
            }
        }
    }
}

function additional(schema: Obj, sub: (s: unknown, path: string) => Check, schemaPath: string): Check {
    const extra = schema.additionalProperties as Schema
    if (extra === true) return NOTHING
    const known = new Set(isObject(schema.properties) ? Object.keys(schema.properties) : [])
    const check = extra === false ? null : sub(extra, 'additionalProperties')
    return (data, ctx) => {
        for (const key of Object.keys(data as Obj)) {
            if (known.has(key)) continue
            if (check === null)
                report(
                    ctx,
                    schemaPath,
                    'additionalProperties',
                    { additionalProperty: key },
                    'must NOT have additional properties'
                )
            else down(check, (data as Obj)[key], key, ctx)
        }
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
 * among `schemas`, compiled on its first call. Each finding carries `data`, the value at its
 * `instancePath`, as ajv's `verbose` option gives it: the issue mappers quote it.
 */
export function schemaValidator(schemas: readonly object[], ref: string): ValidateFunction {
    const registry = new Map<string, Obj>()
    for (const s of schemas as Obj[]) registry.set(String(s.$id).split('#')[0] as string, s)
    const hash = ref.indexOf('#')
    const target = resolve(registry, ref, hash < 0 ? ref : ref.slice(0, hash))
    // A wrong name here is a defect of this package, found when the module loads in any test.
    if (target === null) throw new Error(`No shipped schema has the reference ${ref}.`)
    let root: Check | null = null
    const run = ((data: unknown) => {
        root ??= compile(registry, target.schema, hash < 0 ? '#' : ref.slice(hash), target.base)
        const ctx: Ctx = { errors: [], path: [], propertyName: undefined, quiet: 0 }
        root(data, ctx)
        run.errors =
            ctx.errors.length === 0 ? null : ctx.errors.map((e) => ({ ...e, data: valueAt(data, e.instancePath) }))
        return ctx.errors.length === 0
    }) as ValidateFunction
    return run
}
