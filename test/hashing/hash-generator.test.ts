import { schemaHashOfInspected } from '../../src/hashing/hash-generator.js'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { HashGenerator } from '../../src/index.js'

interface Vector {
    name: string
    value: unknown
    canonical: string
    hash: string
    short: string
}
const vectors = JSON.parse(
    readFileSync(new URL('../fixtures/hashing/vectors.json', import.meta.url), 'utf8')
) as Vector[]

describe('HashGenerator.canonicalize', () => {
    it.each(vectors)('produces the RFC 8785 form of $name', ({ value, canonical }) => {
        expect(HashGenerator.canonicalize({ value })).toEqual({ json: canonical, errors: [] })
    })

    it('rejects undefined, NaN and class instances with HSH codes and paths', () => {
        expect(HashGenerator.canonicalize({ value: undefined }).errors[0]?.code).toBe('HSH-001')
        expect(HashGenerator.canonicalize({ value: { a: [1, Number.NaN] } }).errors[0]).toMatchObject({
            code: 'HSH-003',
            path: '/a/1'
        })
        expect(HashGenerator.canonicalize({ value: { d: new Date(0) } }).errors[0]).toMatchObject({
            code: 'HSH-003',
            path: '/d'
        })
        expect(HashGenerator.canonicalize({ value: { u: undefined } }).errors[0]).toMatchObject({
            code: 'HSH-003',
            path: '/u'
        })
    })
})

describe('HashGenerator.computeHash', () => {
    it.each(vectors)('matches the golden vector $name', ({ value, hash, short }) => {
        expect(HashGenerator.computeHash({ value })).toEqual({ hash, short, errors: [] })
    })

    it('returns nulls and coded issues for bad input', () => {
        expect(HashGenerator.computeHash({ value: () => 1 })).toMatchObject({
            hash: null,
            short: null,
            errors: [{ code: 'HSH-003' }]
        })
        expect(HashGenerator.computeHash(undefined as never).errors[0]?.code).toBe('HSH-001')
    })

    it('ignores key order (property)', () => {
        fc.assert(
            fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
                const reversed = Object.fromEntries(Object.entries(obj).reverse())
                expect(HashGenerator.computeHash({ value: reversed }).hash).toBe(
                    HashGenerator.computeHash({ value: obj }).hash
                )
            })
        )
    })

    it('is stable and well-formed for any JSON value (property)', () => {
        fc.assert(
            fc.property(fc.jsonValue(), (value) => {
                const a = HashGenerator.computeHash({ value })
                const b = HashGenerator.computeHash({ value: JSON.parse(JSON.stringify(value)) })
                expect(a.errors).toEqual([])
                expect(a.hash).toMatch(/^sha256:[0-9a-f]{64}$/)
                expect(a.short).toBe(a.hash?.slice(7, 15))
                expect(b.hash).toBe(a.hash)
            })
        )
    })
})

describe('HashGenerator.computeSchemaHash', () => {
    const main = vectors.find((v) => v.name === 'spec-03-c9-etherscan') as Vector

    it('hashes the schema and ignores a legacy top-level schemaHash', () => {
        expect(HashGenerator.computeSchemaHash({ schema: main.value }).short).toBe('50f7f552')
        expect(
            HashGenerator.computeSchemaHash({ schema: { ...(main.value as object), schemaHash: 'deadbeef' } }).short
        ).toBe('50f7f552')
    })

    it('keeps a nested schemaHash (only the top-level field is its own)', () => {
        expect(HashGenerator.computeSchemaHash({ schema: { tools: { schemaHash: 'x' } } }).short).not.toBe(
            HashGenerator.computeSchemaHash({ schema: { tools: {} } }).short
        )
    })

    it('rejects a non-object schema', () => {
        expect(HashGenerator.computeSchemaHash({ schema: [1] }).errors[0]).toMatchObject({ code: 'HSH-002' })
        expect(HashGenerator.computeSchemaHash({ schema: null }).errors[0]).toMatchObject({ code: 'HSH-001' })
    })
})

describe('HashGenerator.computeSelectionHash', () => {
    it('ignores a top-level selectionHash', () => {
        const selection = { selectionId: 'crypto', members: [{ schemaId: 'etherscan.getBalance' }] }
        expect(
            HashGenerator.computeSelectionHash({ selection: { ...selection, selectionHash: '00000000' } }).hash
        ).toBe(HashGenerator.computeHash({ value: selection }).hash)
    })

    it('rejects a string selection', () => {
        expect(HashGenerator.computeSelectionHash({ selection: 'crypto' }).errors[0]?.code).toBe('HSH-002')
    })
})

describe('HashGenerator.hashBytes', () => {
    it('hashes raw text as UTF-8 bytes, without normalisation', () => {
        expect(HashGenerator.hashBytes({ text: 'abc' }).hash).toBe(
            'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
        )
        expect(HashGenerator.hashBytes({ bytes: new TextEncoder().encode('abc') }).short).toBe('ba7816bf')
        expect(HashGenerator.hashBytes({ text: 'a\r\n' }).hash).not.toBe(HashGenerator.hashBytes({ text: 'a\n' }).hash)
    })

    it('rejects missing or mistyped input', () => {
        expect(HashGenerator.hashBytes({}).errors[0]?.code).toBe('HSH-001')
        expect(HashGenerator.hashBytes({ text: 42 }).errors[0]).toMatchObject({ code: 'HSH-002', path: '/text' })
        expect(HashGenerator.hashBytes({ bytes: [1, 2] }).errors[0]).toMatchObject({ code: 'HSH-002', path: '/bytes' })
    })
})

describe('HashGenerator.isValidHash', () => {
    it('accepts the short and full forms', () => {
        expect(HashGenerator.isValidHash({ hash: 'a1b2c3d4' }).valid).toBe(true)
        expect(HashGenerator.isValidHash({ hash: `sha256:${'0'.repeat(64)}`, full: true }).valid).toBe(true)
    })

    it('rejects uppercase, wrong length and non-strings', () => {
        expect(HashGenerator.isValidHash({ hash: 'A1B2C3D4' }).valid).toBe(false)
        expect(HashGenerator.isValidHash({ hash: 'a1b2c3' }).valid).toBe(false)
        expect(HashGenerator.isValidHash({ hash: 12345678 }).valid).toBe(false)
    })
})

describe('schemaHashOfInspected', () => {
    it('gives the hash of computeSchemaHash for a schema that passed the JSON guard', () => {
        const schema = {
            namespace: 'demo',
            name: 'Demo',
            schemaHash: 'ignored',
            tools: { ping: { method: 'GET', path: '/ping', parameters: [] } }
        }
        expect(schemaHashOfInspected(schema)).toEqual(HashGenerator.computeSchemaHash({ schema }))
    })

    it('reports HSH-004 instead of throwing when the value was not plain JSON after all', () => {
        expect(schemaHashOfInspected({ a: Number.NaN })).toMatchObject({
            hash: null,
            short: null,
            errors: [{ code: 'HSH-004' }]
        })
    })
})
