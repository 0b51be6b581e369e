import { Ajv2020 } from 'ajv/dist/2020.js'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { equal, formats, ucs2length, withData } from '../../src/validation/runtime.js'
import type { ValidateFunction } from '../../src/validation/types.js'

describe('runtime helpers copied from ajv and ajv-formats', () => {
    const samples = [
        '2026-05-29T10:00:00Z',
        '2026-05-29t10:00:00.123+02:00',
        '2024-02-29T23:59:60Z',
        '2023-02-29T10:00:00Z',
        '2026-05-29T10:00:00',
        '2026-05-29 10:00:00Z',
        '2026-13-01T00:00:00Z',
        '2026-05-29T24:00:00Z',
        '2026-05-29T10:00:00+24:00',
        '',
        'x',
        'https://example.com/a?b#c',
        'urn:isbn:0451450523',
        'mailto:a@b.c',
        'relative/path',
        '//host/x',
        'http://[::1]:80/',
        'http:// bad'
    ]
    it.each(samples)('date-time and uri agree with ajv-formats on %j', (s) => {
        const ref = fullFormats as unknown as Record<
            string,
            { validate: (s: string) => boolean } & ((s: string) => boolean)
        >
        expect(formats['date-time'].validate(s)).toBe(ref['date-time']!.validate(s))
        expect(formats.uri(s)).toBe(ref.uri!(s))
    })

    it('date-time, uri and ucs2length agree with ajv on arbitrary strings', () => {
        const ajv = new Ajv2020({ unicode: true })
        const minLen = ajv.compile({ type: 'string', minLength: 3 })
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.string(),
                    fc.string({ unit: 'binary' }),
                    fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
                ),
                (s) => {
                    const ref = fullFormats as unknown as Record<
                        string,
                        { validate: (s: string) => boolean } & ((s: string) => boolean)
                    >
                    expect(formats['date-time'].validate(s)).toBe(ref['date-time']!.validate(s))
                    expect(formats.uri(s)).toBe(ref.uri!(s))
                    expect(ucs2length(s) >= 3).toBe(minLen(s))
                }
            ),
            { seed: 10, numRuns: 500 }
        )
    })

    it('equal agrees with ajv on JSON values: a copy is equal, a changed value is not (property)', () => {
        const ajv = new Ajv2020()
        fc.assert(
            fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
                expect(equal(a, structuredClone(a))).toBe(true)
                // ajv's fast-deep-equal calls an own `toString` or `valueOf` key as a method and throws on JSON such
                // as {"toString":{}}; there is no answer of its to agree with (ours reads no method: below).
                let oracle: boolean
                try {
                    oracle = ajv.compile({ const: a })(b)
                } catch {
                    return
                }
                expect(equal(a, b)).toBe(oracle)
            })
        )
    })

    it('equal compares JSON whose keys are the names of Object methods, where ajv throws', () => {
        expect(equal({ toString: {} }, { toString: {} })).toBe(true)
        expect(equal({ valueOf: 1 }, { valueOf: 2 })).toBe(false)
        expect(equal({}, { toString: {} })).toBe(false)
        expect(() => new Ajv2020().compile({ const: {} })({ toString: {} })).toThrow(TypeError)
    })

    it('withData quotes the value at each instancePath and leaves errors null after a valid document', () => {
        const inner = ((data: unknown) => {
            const ok = (data as { a?: { 'b/c'?: unknown } }).a?.['b/c'] === 1
            inner.errors = ok
                ? null
                : [
                      { instancePath: '/a/b~1c', schemaPath: '#/x', keyword: 'const', params: {}, message: 'm' },
                      { instancePath: '/missing/0', schemaPath: '#/y', keyword: 'type', params: {}, message: 'n' }
                  ]
            return ok
        }) as ValidateFunction
        const v = withData(inner)
        expect(v.errors).toBeNull()
        expect(v({ a: { 'b/c': 2 } })).toBe(false)
        expect(v.errors?.map((e) => e.data)).toEqual([2, undefined])
        expect(v({ a: { 'b/c': 1 } })).toBe(true)
        expect(v.errors).toBeNull()
    })
})
