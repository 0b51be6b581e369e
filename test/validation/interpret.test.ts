import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { jsonEqual, knownKeywords, schemaValidator } from '../../src/validation/interpret.js'
import type { ErrorObject, ValidateFunction } from '../../src/validation/types.js'
import * as shipped from '../../src/validation/validators.js'

const root = join(import.meta.dirname, '..', '..')
const AREA = 'https://flowmcp-grading.dev/schemas/area-output/'

function filesUnder(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]
    )
}
const schemaFiles = filesUnder(join(root, 'schemas')).filter((f) => f.endsWith('.json'))
const schemas = schemaFiles.map((f) => JSON.parse(readFileSync(f, 'utf8')) as { $id: string })

// The reference: plain ajv with the options the library has always validated with (01-model ⚠ A18).
const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true })
addFormats.default(ajv)
for (const s of schemas) ajv.addSchema(s)

const REFS: Readonly<Record<string, string>> = {
    validateGradingModel: 'https://flowmcp.org/spec/grading/2.0.0/grading-model.schema.json',
    validateIndexJson: 'https://flowmcp.org/grading/2.0.1/index.schema.json',
    validatePromptsV1: 'https://flowmcp-grading.dev/schemas/prompts-v1.schema.json',
    validateScoresV1: 'https://flowmcp-grading.dev/schemas/scores-v1.schema.json',
    validatePromptsV2: 'https://flowmcp-grading.dev/schemas/prompts-v2.schema.json',
    validateScoresV2: 'https://flowmcp-grading.dev/schemas/scores-v2.schema.json',
    validateWorkflowRubricSchema: 'https://flowmcp-grading.dev/schemas/workflow-rubric.schema.json',
    validateBlocker: `${AREA}_master.schema.json#/$defs/blocker`,
    validate_singleTest: `${AREA}single-test.schema.json#/$defs/envelope`,
    validate_toolsAggregateSchema: `${AREA}tools-aggregate-schema.schema.json#/$defs/envelope`,
    validate_toolsAggregateNamespace: `${AREA}tools-aggregate-namespace.schema.json#/$defs/envelope`,
    validate_namespaceDescription: `${AREA}namespace-description.schema.json#/$defs/envelope`,
    validate_namespaceSkills: `${AREA}namespace-skills.schema.json#/$defs/envelope`,
    validate_aboutNamespace: `${AREA}about-namespace.schema.json#/$defs/envelope`,
    validate_aboutSelection: `${AREA}about-selection.schema.json#/$defs/envelope`,
    validate_selectionSkillsL1: `${AREA}selection-skills-L1.schema.json#/$defs/envelope`,
    validate_selectionSkillsL2: `${AREA}selection-skills-L2.schema.json#/$defs/envelope`,
    validate_selectionSkillsL3: `${AREA}selection-skills-L3.schema.json#/$defs/envelope`,
    validate_selectionAggregate: `${AREA}selection-aggregate.schema.json#/$defs/envelope`
}

// Everything the issue mappers read except schemaPath, whose prefix after a `$ref` differs
// between ajv's inlined and called references; its keyword segments are compared below.
function view(errors: readonly ErrorObject[] | null | undefined): unknown[] {
    return (errors ?? []).map((e) => ({
        keyword: e.keyword,
        instancePath: e.instancePath,
        params: e.params,
        message: e.message,
        propertyName: e.propertyName,
        composite: ['/contains', 'allOf', '/oneOf/'].filter((s) => e.schemaPath.includes(s))
    }))
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

describe('runtime JSON Schema interpreter', () => {
    it('no source module imports ajv or builds a function from a string (the built package is checked by scripts/no-codegen.mjs)', () => {
        const offenders = filesUnder(join(root, 'src'))
            .filter((f) => f.endsWith('.ts') && !f.includes(join('src', 'cli')))
            .filter((f) => /from 'ajv|new Function\(/.test(readFileSync(f, 'utf8')))
        expect(offenders).toEqual([])
    })

    it('knows every keyword the shipped schemas use (an unknown keyword would be ignored silently)', () => {
        const used = new Set<string>()
        const walk = (node: unknown, keyPosition: boolean): void => {
            if (Array.isArray(node)) return node.forEach((n) => walk(n, false))
            if (node === null || typeof node !== 'object') return
            for (const [k, v] of Object.entries(node)) {
                if (keyPosition) walk(v, false)
                else {
                    used.add(k)
                    if (!['enum', 'const', 'examples', 'default', 'required'].includes(k))
                        walk(v, k === 'properties' || k === '$defs')
                }
            }
        }
        schemas.forEach((s) => walk(s, false))
        expect([...used].filter((k) => !knownKeywords().has(k))).toEqual([])
    })

    it.each(Object.keys(REFS))(
        '%s reports what ajv reports, in the same order, on every fixture and its mutants',
        (name) => {
            const ours = (shipped as Record<string, ValidateFunction>)[name] as ValidateFunction
            const reference = ajv.getSchema(REFS[name] as string)
            expect(reference).toBeDefined()
            let compared = 0
            for (const doc of documents) {
                const close = (reference!(doc), reference!.errors?.length ?? 0) <= 4
                for (const d of close ? [doc, ...mutants(doc, 60)] : [doc]) {
                    const expected = reference!(d)
                    expect({ valid: ours(d), errors: view(ours.errors) }).toEqual({
                        valid: expected,
                        errors: view(reference!.errors)
                    })
                    compared++
                }
            }
            expect(compared).toBeGreaterThan(documents.length)
        }
    )

    it('leaves errors null on a valid document and quotes the failing value as data', () => {
        const v = schemaValidator(
            [{ $id: 'https://x.test/s', type: 'object', properties: { n: { type: 'integer', minimum: 2 } } }],
            'https://x.test/s'
        )
        expect(v({ n: 3 })).toBe(true)
        expect(v.errors).toBeNull()
        expect(v({ n: 1 })).toBe(false)
        expect(v.errors).toEqual([
            {
                instancePath: '/n',
                schemaPath: '#/properties/n/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 2 },
                message: 'must be >= 2',
                data: 1
            }
        ])
    })

    it('counts string length in code points, as ajv does', () => {
        const v = schemaValidator([{ $id: 'https://x.test/s', type: 'string', maxLength: 1 }], 'https://x.test/s')
        expect(v('😀')).toBe(true)
        expect(v('ab')).toBe(false)
    })

    it('reports items: false after prefixItems once, on the array, as ajv does', () => {
        const schema = {
            $id: 'https://x.test/s',
            type: 'array',
            prefixItems: [{ type: 'integer' }, { type: 'integer' }],
            items: false,
            minItems: 2
        }
        const reference = new Ajv2020({ strict: false, allErrors: true }).compile(schema)
        const v = schemaValidator([schema], 'https://x.test/s')
        for (const d of [[1, 2], [1, 2, 3, 4], [1, 'x', 3], [1]]) {
            expect({ valid: v(d), errors: view(v.errors) }).toEqual({
                valid: reference(d),
                errors: view(reference.errors)
            })
        }
        expect(v([1, 2, 3])).toBe(false)
    })

    it('refuses at construction a reference no shipped schema has', () => {
        expect(() => schemaValidator([{ $id: 'https://x.test/s' }], 'https://x.test/other')).toThrow(
            /No shipped schema/
        )
    })

    it('jsonEqual compares JSON values deeply and tells different ones apart', () => {
        expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true)
        expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false)
        expect(jsonEqual([1, 2], [2, 1])).toBe(false)
        expect(jsonEqual('1', 1)).toBe(false)
    })
})
