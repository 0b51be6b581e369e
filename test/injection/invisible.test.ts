import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { neutraliseInvisible } from '../../src/index.js'

const tags = (text: string): string =>
    [...text].map((c) => String.fromCodePoint(0xe0000 + (c.codePointAt(0) as number))).join('')

describe('neutraliseInvisible', () => {
    it.each([
        ['tag characters spelling hidden ASCII', `Weather${tags('HI')}`, 'Weather⟦U+E0048⟧⟦U+E0049⟧', ['tag', 'tag']],
        ['a cancel tag alone', 'a\u{E007F}b', 'a⟦U+E007F⟧b', ['tag']],
        ['the right-to-left override', 'abc\u202Edef', 'abc⟦U+202E⟧def', ['bidi']],
        ['bidi isolates', '\u2066x\u2069', '⟦U+2066⟧x⟦U+2069⟧', ['bidi', 'bidi']],
        [
            'the left-to-right and right-to-left marks and the Arabic letter mark',
            'a\u200Eb\u200Fc\u061Cd',
            'a⟦U+200E⟧b⟦U+200F⟧c⟦U+061C⟧d',
            ['bidi', 'bidi', 'bidi']
        ],
        ['a zero-width space inside a word', 'ig\u200Bnore', 'ig⟦U+200B⟧nore', ['invisible']],
        ['a word joiner and invisible operators', 'a\u2060b\u2062c', 'a⟦U+2060⟧b⟦U+2062⟧c', ['invisible', 'invisible']],
        ['a soft hyphen', 'dis\u00ADregard', 'dis⟦U+00AD⟧regard', ['invisible']],
        ['a byte-order mark after the start', 'a\uFEFFb', 'a⟦U+FEFF⟧b', ['invisible']],
        ['a zero-width joiner between Latin letters', 'a\u200Db', 'a⟦U+200D⟧b', ['invisible']],
        ['a zero-width non-joiner between Latin letters', 'a\u200Cb', 'a⟦U+200C⟧b', ['invisible']],
        [
            'a run of variation selectors (data smuggled after an emoji)',
            '❤\uFE0F\uFE01\u{E0100}',
            '❤⟦U+FE0F⟧⟦U+FE01⟧⟦U+E0100⟧',
            ['invisible', 'invisible', 'invisible']
        ]
    ])('escapes %s', (_name, input, text, kinds) => {
        const result = neutraliseInvisible(input)
        expect(result.text).toBe(text)
        expect(result.found.map((f) => f.kind)).toEqual(kinds)
        expect(result.count).toBe(kinds.length)
    })

    it.each([
        [
            'emoji ZWJ sequences (family, rainbow flag, technologist with skin tone, heart on fire)',
            '👨‍👩‍👧 🏳️‍🌈 👩🏽‍💻 ❤️‍🔥 🏃‍♂️'
        ],
        ['an emoji subdivision flag (tag sequence of Scotland)', 'Flag 🏴󠁧󠁢󠁳󠁣󠁴󠁿 of Scotland'],
        ['CJK text', '東京の天気予報を返します。北京天气。서울 날씨'],
        ['Persian with a zero-width non-joiner between letters', 'می‌خواهم'],
        ['Devanagari with a zero-width joiner after a virama', 'क्‍ष'],
        ['accents, combining marks and a single variation selector', 'Crème brûlée, e\u0301, ☺\uFE0F'],
        ['a byte-order mark at offset 0 (an encoding mark)', '\uFEFFexport const main = {}'],
        ['plain ASCII', 'Returns the hourly forecast.']
    ])('leaves %s as it is', (_name, input) => {
        const result = neutraliseInvisible(input)
        expect(result.text).toBe(input)
        expect(result.found).toEqual([])
    })

    it('reports each escaped character with its UTF-16 index and code point', () => {
        expect(neutraliseInvisible('ab\u200B\u{E0041}').found).toEqual([
            { index: 2, codePoint: 0x200b, kind: 'invisible' },
            { index: 3, codePoint: 0xe0041, kind: 'tag' }
        ])
    })

    it('answers a non-string with empty text', () => {
        expect(neutraliseInvisible(42 as never)).toEqual({ text: '', found: [], count: 0 })
    })

    it('leaves no tag character, bidi control or zero-width space in any text', () => {
        fc.assert(
            fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
                const out = neutraliseInvisible(s).text
                expect(out).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\u061C\u2060-\u2064]/)
                // Tag characters survive only inside a subdivision flag, whose tag sequence ends with U+E007F.
                if (!s.includes('\u{1F3F4}')) expect(out).not.toMatch(/\uDB40[\uDC00-\uDC7F]/)
            })
        )
    })
})
