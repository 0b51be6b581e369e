import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keyForms, keyNameOf, maskKeyForms, wireForms } from '../../src/prompts/secret-forms.js'
import { redactMessage, secretForms } from '../../src/prompts/redact.js'

// The oracle is the platform's own encoders, not the module's: what a request really carries.
const form = (v: string): string => new URLSearchParams({ k: v }).toString().slice(2)
// The URL parser's query spelling, for a value a query can hold raw (no `#` or `&`, nothing the parser trims).
const query = (v: string): string[] =>
    /[#&]|^\s|\s$/.test(v) ? [] : [new URL(`https://h.example/?k=${v}`).search.slice(3)]
const lower = (v: string): string => v.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())
const json = (v: string): string => JSON.stringify(v).slice(1, -1)

/** The spellings a key takes through the platform's encoders, once and twice. */
export function platformSpellings(v: string): string[] {
    // The raw value and the URL parser's query spelling keep a literal `%41` as it is: only an encoder's own escapes
    // come in either hex case.
    const kept = [v, ...query(v)]
    const encoded = [encodeURIComponent(v), form(v), encodeURI(v)]
    const twice = [...kept, ...encoded].flatMap((s) => [encodeURIComponent(s), form(s)])
    return [...new Set([...kept, json(v), ...[...encoded, ...twice].flatMap((s) => [s, lower(s)])])]
}

const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 1
})
const anyText = fc.string({ unit: 'grapheme', minLength: 1 })

describe('wireForms: one place decides every spelling of a key', () => {
    it('holds every spelling the platform encoders give, once and twice encoded (printable ASCII and non-ASCII)', () => {
        fc.assert(
            fc.property(fc.oneof(printable, anyText), (v) => {
                const forms = new Set(wireForms(v))
                for (const s of platformSpellings(v)) expect(forms.has(s), `${JSON.stringify(v)} as ${s}`).toBe(true)
            }),
            { numRuns: 400 }
        )
    })

    it('spells the issue key raw, URI-, form- and twice-encoded, JSON- and HTML-escaped', () => {
        const key = "Qv7Marmot.Vesper+Ochre/Xylem=Zephyr!Tund 'x'"
        const forms = wireForms(key)
        expect(forms).toEqual(
            expect.arrayContaining([
                key,
                "Qv7Marmot.Vesper%2BOchre%2FXylem%3DZephyr!Tund%20'x'",
                'Qv7Marmot.Vesper%2BOchre%2FXylem%3DZephyr%21Tund+%27x%27',
                'Qv7Marmot.Vesper%252BOchre%252FXylem%253DZephyr%2521Tund%2B%2527x%2527',
                'Qv7Marmot.Vesper%2bOchre%2fXylem%3dZephyr%21Tund+%27x%27',
                "Qv7Marmot.Vesper+Ochre\\/Xylem=Zephyr!Tund 'x'",
                'Qv7Marmot.Vesper+Ochre/Xylem=Zephyr!Tund &#39;x&#39;'
            ])
        )
        // Longest first, each once.
        expect(forms).toEqual([...new Set(forms)].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0)))
    })

    it('gives a key of letters and digits one spelling, and a lone surrogate a form without throwing', () => {
        expect(wireForms('abcDEF123')).toEqual(['abcDEF123'])
        expect(() => wireForms('ab\ud800cd')).not.toThrow()
        expect(wireForms('ab\ud800cd')).toContain('ab%EF%BF%BDcd')
        expect(wireForms('')).toEqual([])
    })
})

describe('keyForms, maskKeyForms and keyNameOf', () => {
    it('writes every spelling of a key in a URL as its placeholder', () => {
        const key = 'Qv7Marmot.Vesper+Ochre/Xylem=Zephyr!Tund'
        const forms = keyForms({ ETHERSCAN_API_KEY: key, OTHER: 'short' }, 8)
        const url = `https://api.x.io/v1/${encodeURIComponent(key)}/a?apikey=${form(key)}&again=${encodeURIComponent(form(key))}`
        expect(maskKeyForms(url, forms)).toBe(
            'https://api.x.io/v1/{{SERVER_PARAM:ETHERSCAN_API_KEY}}/a?apikey={{SERVER_PARAM:ETHERSCAN_API_KEY}}' +
                '&again={{SERVER_PARAM:ETHERSCAN_API_KEY}}'
        )
        expect(keyNameOf(form(key), forms)).toBe('ETHERSCAN_API_KEY')
        expect(keyNameOf('short', forms)).toBeUndefined()
    })

    it('masks a key holding `$&` or `$$` as the runtime sends it (String#replace rewrites them)', () => {
        const key = 'Qv7a$&b$$cZx9'
        const forms = keyForms({ K: key })
        const sent = '{{K}}'.replace('{{K}}', key)
        expect(sent).not.toBe(key)
        expect(maskKeyForms(`https://h.dev/?k=${sent}&raw=${key}`, forms)).toBe(
            'https://h.dev/?k={{SERVER_PARAM:K}}&raw={{SERVER_PARAM:K}}'
        )
    })

    it('has no forms for what is not a record of keys, for empty values and for placeholders', () => {
        expect(keyForms(null)).toEqual([])
        expect(keyForms('KEY=value')).toEqual([])
        expect(keyForms({ A: '', B: 42, C: '{{SERVER_PARAM:C}}' })).toEqual([])
        expect(maskKeyForms('x?k=%7B%7BSERVER_PARAM%3AK%7D%7D', [])).toBe('x?k={{SERVER_PARAM:K}}')
    })

    it('makes secretForms and redactMessage erase every platform spelling', () => {
        fc.assert(
            fc.property(fc.oneof(printable, anyText), (body) => {
                const key = `Qk7${body}9Zx`
                const forms = secretForms({ KEY: key })
                for (const s of platformSpellings(key)) {
                    const text = `GET https://h.example/?note=${s} failed`
                    expect(redactMessage(text, forms)).not.toContain(s)
                }
            }),
            { numRuns: 200 }
        )
    })
})
