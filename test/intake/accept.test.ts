import { describe, expect, it } from 'vitest'
import { acceptGradingEntry, parseJson } from '../../src/entry.js'
import { acceptGradingEntry as rootAccept } from '../../src/index.js'
import { catalogueEntry } from '../grading/helpers.js'

const NOW = '2026-06-01T00:00:00Z'
const codes = (r: { errors: ReadonlyArray<{ code: string; severity: string }> }): string[] =>
    r.errors.filter((i) => i.severity === 'error').map((i) => i.code)

describe('acceptGradingEntry: one intake call (issue 45)', () => {
    const text = JSON.stringify(catalogueEntry('single-test'))

    it('takes bytes or text and returns the frozen checked entry, strict by default', () => {
        for (const input of [{ text }, { bytes: new TextEncoder().encode(text) }]) {
            const r = acceptGradingEntry({ ...input, now: NOW })
            if (!r.valid) throw new Error(JSON.stringify(r.errors))
            expect(Object.isFrozen(r.entry)).toBe(true)
            expect(r.errors).toEqual([])
            expect(r.agedGrade).toBe(r.entry.aggregateGrade)
        }
        expect(rootAccept).toBeTypeOf('function')
    })

    it('is strict unless told otherwise: without now it is GRD-074', () => {
        expect(codes(acceptGradingEntry({ text }))).toEqual(['GRD-074'])
        expect(acceptGradingEntry({ text, strict: false }).valid).toBe(true)
    })

    it('refuses what JSON.parse lets through: a duplicate key, a byte order mark, bytes that are not UTF-8', () => {
        const duplicate = text.replace('{"gradingId"', '{"aggregateGrade":"A","gradingId"')
        expect(JSON.parse(duplicate)).toBeTruthy()
        expect(codes(acceptGradingEntry({ text: duplicate, now: NOW }))).toEqual(['INP-006'])
        expect(codes(acceptGradingEntry({ text: `\uFEFF${text}`, now: NOW }))).toEqual(['INP-005'])
        const bad = new Uint8Array([...new TextEncoder().encode(text.slice(0, -1)), 0xc0, 0x80, 0x7d])
        expect(codes(acceptGradingEntry({ bytes: bad, now: NOW }))).toEqual(['INP-008'])
        expect(codes(acceptGradingEntry({ bytes: new Uint8Array([0xed, 0xa0, 0x80]), now: NOW }))).toEqual(['INP-008'])
        expect(codes(acceptGradingEntry({ now: NOW } as never))).toEqual(['INP-004'])
    })

    it('passes expect on: a consistent rewrite of the schemaId is refused', () => {
        const entry = catalogueEntry('single-test')
        const r = acceptGradingEntry({ text, now: NOW, expect: { schemaId: `${entry.schemaId}x` } })
        expect(codes(r)).toEqual(['BND-001'])
    })

    it('parseJson is on flowmcp-grading/entry too', () => {
        expect(parseJson({ text: '{"a":1,"a":2}' }).errors.map((e) => e.code)).toEqual(['INP-006'])
    })
})

describe('strict UTF-8 decoding', () => {
    it('agrees with a fatal TextDecoder on any bytes', async () => {
        const fc = (await import('fast-check')).default
        const { decodeUtf8 } = await import('../../src/intake/utf8.js')
        const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.uint8Array({ maxLength: 40 }),
                    fc.string({ unit: 'binary' }).map((s) => new TextEncoder().encode(s))
                ),
                (bytes) => {
                    let want: string | null
                    try {
                        want = decoder.decode(bytes)
                    } catch {
                        want = null
                    }
                    const got = decodeUtf8(bytes)
                    expect('text' in got ? got.text : null).toBe(want)
                }
            ),
            { numRuns: 2000 }
        )
    })
})
