import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { AJV_OPTIONS, generateValidators, VALIDATOR_REFS } from '../../scripts/validators.mjs'
import type { ErrorObject, ValidateFunction } from '../../src/validation/types.js'
import * as shipped from '../../src/validation/validators.js'
import { filesUnder } from '../support/files.js'

const root = join(import.meta.dirname, '..', '..')

const schemas = filesUnder(join(root, 'schemas'), '.json').map(
    (f) => JSON.parse(readFileSync(f, 'utf8')) as { $id: string }
)
const REFS = VALIDATOR_REFS

// The reference: ajv compiling the shipped schemas (with their prose) at run time, with the build's options.
const ajv = new Ajv2020(AJV_OPTIONS)
addFormats.default(ajv)
for (const s of schemas) ajv.addSchema(s)

// What the issue mappers read, and ajv's `verbose` data.
function view(errors: readonly ErrorObject[] | null | undefined, doc: unknown): unknown[] {
    return (errors ?? []).map((e) => ({
        keyword: e.keyword,
        instancePath: e.instancePath,
        schemaPath: e.schemaPath,
        params: e.params,
        message: e.message,
        propertyName: e.propertyName,
        data: 'data' in e ? e.data : at(doc, e.instancePath)
    }))
}
function at(doc: unknown, pointer: string): unknown {
    let node = doc
    for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
        const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
        if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
        node = (node as Record<string, unknown>)[key]
    }
    return node
}

// Every JSON document the tests use, and for each a handful of mutants at its first paths:
// a key removed, a value of the wrong type, an unknown key added.
function mutants(doc: unknown, limit: number): unknown[] {
    const out: unknown[] = []
    const walk = (node: unknown, replace: (v: unknown) => unknown): void => {
        if (out.length >= limit) return
        if (node === null || typeof node !== 'object') return
        const entries = Object.entries(node as Record<string, unknown>)
        for (const [k, v] of entries) {
            const at = (nv: unknown, remove = false): unknown => {
                const copy: Record<string, unknown> | unknown[] = Array.isArray(node)
                    ? [...node]
                    : { ...(node as Record<string, unknown>) }
                if (remove && !Array.isArray(copy)) delete copy[k]
                else (copy as Record<string, unknown>)[k] = nv
                return replace(copy)
            }
            out.push(at(undefined, true), at(7), at('x'), at(null), at([]), at({ zz: 1 }))
            walk(v, (nv) => at(nv))
        }
        if (!Array.isArray(node)) out.push(replace({ ...(node as Record<string, unknown>), unknownKey: 1 }))
    }
    walk(doc, (v) => v)
    return out.slice(0, limit)
}

const documents = [...filesUnder(join(root, 'test', 'fixtures')), ...filesUnder(join(root, 'examples'))]
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
        try {
            return [JSON.parse(readFileSync(f, 'utf8')) as unknown]
        } catch {
            return []
        }
    })

describe('JSON Schema validators generated at build time', () => {
    it('no source module imports ajv or builds a function from a string (the built package is checked by scripts/no-codegen.mjs)', () => {
        const offenders = filesUnder(join(root, 'src'))
            .filter((f) => f.endsWith('.ts') && !f.includes(join('src', 'cli')))
            .filter((f) => /from 'ajv|new Function\(/.test(readFileSync(f, 'utf8')))
        expect(offenders).toEqual([])
    })

    it('generates plain functions: no require, no new Function or eval, the helpers from src/validation/runtime.ts', () => {
        const code = generateValidators('/x/runtime.ts')
        expect(code.startsWith('import { equal, formats, ucs2length, withData } from "/x/runtime.ts"\n')).toBe(true)
        expect(code).not.toMatch(/require\(|new Function|\beval\(/)
        for (const name of Object.keys(REFS)) expect(code).toContain(`export const ${name} = `)
    })

    it('exports every validator the build generates, each a function with errors null before its first call', () => {
        expect(Object.keys(shipped).sort()).toEqual(Object.keys(REFS).sort())
        for (const v of Object.values(shipped) as ValidateFunction[]) expect(v.errors).toBeNull()
    })

    it.each(Object.keys(REFS))(
        '%s reports what ajv reports, in the same order, with the value at each path, on every fixture and its mutants',
        (name) => {
            const ours = (shipped as Record<string, ValidateFunction>)[name] as ValidateFunction
            const reference = ajv.getSchema(REFS[name] as string)
            expect(reference).toBeDefined()
            let compared = 0
            let rejected = 0
            for (const doc of documents) {
                const close = (reference!(doc), reference!.errors?.length ?? 0) <= 4
                for (const d of close ? [doc, ...mutants(doc, 60)] : [doc]) {
                    const expected = reference!(d)
                    const valid = ours(d)
                    expect({ valid, errors: view(ours.errors, d) }).toEqual({
                        valid: expected,
                        errors: view(reference!.errors, d)
                    })
                    if (valid) expect(ours.errors).toBeNull()
                    else rejected++
                    compared++
                }
            }
            expect(compared).toBeGreaterThan(documents.length)
            expect(rejected).toBeGreaterThan(0)
        }
    )

    it('quotes the failing value as data and leaves errors null on a valid document', () => {
        const model = shipped.validateGradingModel
        expect(model({ gradingId: 7 })).toBe(false)
        expect(model.errors?.find((e) => e.instancePath === '/gradingId')).toMatchObject({
            keyword: 'type',
            params: { type: 'string' },
            message: 'must be string',
            data: 7
        })
        const entry = JSON.parse(
            readFileSync(join(root, 'test', 'fixtures', 'entries', 'valid', 'grading-autonomous.json'), 'utf8')
        )
        expect(model(entry)).toBe(true)
        expect(model.errors).toBeNull()
    })
})
