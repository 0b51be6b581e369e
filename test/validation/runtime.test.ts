import { Ajv2020 } from 'ajv/dist/2020.js'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formats, ucs2length } from '../../src/validation/runtime.js'

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
})
