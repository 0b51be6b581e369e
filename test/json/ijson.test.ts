import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { describeInvisible, showInvisible } from '../../src/errors/invisible.js'
import { countMembers, ijsonIssues, mayBreakIJson } from '../../src/json/ijson.js'
import { parseJson, parseJsonText } from '../../src/json/guard.js'

describe('I-JSON: duplicate keys (RFC 7493 §2.3)', () => {
    it('reports a duplicate key at top level with its pointer, where JSON.parse would keep the last', () => {
        const text = '{"aggregateGrade":"F","gradingMode":"full","aggregateGrade":"B"}'
        const { value, errors } = parseJson({ text })
        expect(value).toBeUndefined()
        expect(errors).toEqual([
            expect.objectContaining({ code: 'INP-006', path: '/aggregateGrade', severity: 'error' })
        ])
        expect(errors[0]?.message).toContain('"aggregateGrade"')
    })

    it('reports a nested duplicate at its full pointer, inside arrays and escaped tokens', () => {
        const text = '{"gradings":[{"questionId":"Q-a","score":2},{"a/b":{"x":1,"x":2},"score":3,"score":5}]}'
        const { errors } = parseJsonText(text)
        expect(errors.map((e) => [e.code, e.path])).toEqual([
            ['INP-006', '/gradings/1/a~1b/x'],
            ['INP-006', '/gradings/1/score']
        ])
    })

    it('compares keys decoded: "a" and "\\u0061" are the same key', () => {
        expect(parseJsonText('{"a":1,"\\u0061":2}').errors[0]).toMatchObject({ code: 'INP-006', path: '/a' })
    })

    it('accepts equal keys in different objects and strings that look like members', () => {
        const text = '{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"\\"a\\":1, \\"a\\":2","d\\\\":":"}'
        expect(parseJsonText(text).errors).toEqual([])
        expect(ijsonIssues(text)).toEqual([])
    })

    it('names an invisible character in a duplicated key by its code point', () => {
        const { errors } = parseJsonText('{"Q-a\\u200b":1,"Q-a\u200b":2}')
        expect(errors[0]?.code).toBe('INP-006')
        expect(errors[0]?.message).toContain('"Q-a<U+200B>"')
        expect(errors[0]?.message).toContain('(holds U+200B)')
    })
})

describe('I-JSON: lone surrogates (RFC 7493 §2.1)', () => {
    it.each([
        ['a high surrogate escape in a value', '{"a":["x","\\ud800"]}', '/a/1', 'U+D800', 'a string'],
        ['a low surrogate escape in a value', '{"a":"x\\uDC00y"}', '/a', 'U+DC00', 'a string'],
        ['a reversed pair in a value', '["\\udc00\\ud800"]', '/0', 'U+DC00', 'a string'],
        ['a high surrogate escape in a key', '{"k\\ud800":1}', '/k\ud800', 'U+D800', 'a key'],
        ['a raw low surrogate in a key', '{"o":{"\udc01":true}}', '/o/\udc01', 'U+DC01', 'a key'],
        ['a raw high surrogate at the end of a value', '{"a":"x\ud83d"}', '/a', 'U+D83D', 'a string'],
        ['a lone surrogate as the whole text', '"\\ud800"', '', 'U+D800', 'a string']
    ])('reports %s with its pointer', (_name, text, path, codePoint, where) => {
        const { value, errors } = parseJsonText(text)
        expect(value).toBeUndefined()
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatchObject({ code: 'INP-007', path })
        expect(errors[0]?.message).toContain(codePoint)
        expect(errors[0]?.message).toContain(where)
    })

    it('accepts valid surrogate pairs, escaped and raw, in keys and values', () => {
        const text = '{"\\ud83d\\ude00":"\\uD83D\\uDE00 😀","😀x":["😀"]}'
        const { value, errors } = parseJsonText(text)
        expect(errors).toEqual([])
        expect(value).toEqual({ '😀': '😀 😀', '😀x': ['😀'] })
        // The escaped and the raw spelling are one key.
        expect(parseJsonText('{"\\ud83d\\ude00":1,"😀":2}').errors[0]).toMatchObject({ code: 'INP-006', path: '/😀' })
    })
})

describe('I-JSON: byte order mark and invisible characters', () => {
    it('rejects a leading byte order mark and names it', () => {
        const { value, errors } = parseJsonText('\ufeff{"a":1}')
        expect(value).toBeUndefined()
        expect(errors).toEqual([expect.objectContaining({ code: 'INP-005', path: '' })])
        expect(errors[0]?.message).toContain('Byte order mark (U+FEFF)')
    })

    it('names an invisible character that breaks the syntax by its code point', () => {
        const { errors } = parseJsonText('{"a":1,\u200b"b":2}')
        expect(errors[0]?.code).toBe('INP-004')
        expect(errors[0]?.message).toContain('(invisible: U+200B)')
        expect(parseJsonText('{"a":1 \ufeff}').errors[0]?.message).toContain('U+FEFF')
    })

    it('keeps a key that only holds U+200B (it is a distinct key) and parses it unchanged', () => {
        const { value, errors } = parseJsonText('{"Q-a":1,"Q-a\u200b":2}')
        expect(errors).toEqual([])
        expect(Object.keys(value as object)).toEqual(['Q-a', 'Q-a\u200b'])
    })
})

describe('describeInvisible / showInvisible', () => {
    it('names format, control and lone surrogate code points, once each', () => {
        expect(describeInvisible('Q-single-test-04\u200b\u200b')).toBe('U+200B')
        expect(describeInvisible('a\u00adb\tc\ud800')).toBe('U+00AD, U+0009, U+D800')
        expect(showInvisible('Q-a\u200b\ufeff')).toBe('Q-a<U+200B><U+FEFF>')
    })

    it('says nothing about visible text, spaces and emoji', () => {
        expect(describeInvisible('Q-single-test-04 😀 é')).toBe('')
        expect(showInvisible('plain text 😀')).toBe('plain text 😀')
    })
})

describe('the I-JSON scan runs only when needed', () => {
    it('counts the members of a text outside strings', () => {
        expect(countMembers('{"a":1,"b":{"c:":"d\\":"},"e":[{"f":2}]}')).toBe(5)
        expect(countMembers('[1,2,"x:y"]')).toBe(0)
    })

    it('asks for the scan when members are missing, a surrogate escape appears or the count is unknown', () => {
        expect(mayBreakIJson('{"a":1,"b":2}', 2)).toBe(false)
        expect(mayBreakIJson('{"a":1,"a":2}', 1)).toBe(true)
        expect(mayBreakIJson('["\\ud83d\\ude00"]', 0)).toBe(true)
        expect(mayBreakIJson('["😀"]', 0)).toBe(false)
        expect(mayBreakIJson('{"a":1}', -1)).toBe(true)
    })

    it('finds a duplicate 150 levels deep when the caller raised the depth limit', () => {
        const deep = `${'['.repeat(150)}{"a":1,"a":2}${']'.repeat(150)}`
        const { errors } = parseJsonText(deep, {
            maxDepth: 500,
            maxNodes: 1000,
            maxStringLength: 100,
            maxTextLength: 10_000
        })
        expect(errors[0]).toMatchObject({ code: 'INP-006', path: `${'/0'.repeat(150)}/a` })
    })
})

describe('property: JSON.stringify output is I-JSON', () => {
    it('parseJson returns any JSON value JSON.stringify wrote unchanged, with no issue', () => {
        fc.assert(
            fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 0, 2, '\t'), (value, space) => {
                const text = JSON.stringify(value, null, space)
                const parsed = parseJson({ text })
                expect(parsed.errors).toEqual([])
                // -0 becomes 0 through JSON text; compare with what the text means.
                expect(parsed.value).toEqual(JSON.parse(text))
                expect(JSON.stringify(parsed.value)).toBe(JSON.stringify(value))
            }),
            { numRuns: 300 }
        )
    })

    it('strings with any code unit, lone surrogates included, are accepted exactly when well formed', () => {
        fc.assert(
            fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), (record) => {
                const text = JSON.stringify(record)
                const wellFormed = Object.entries(record).every(
                    ([k, v]) =>
                        !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(`${k}\u0000${v}`)
                )
                const { errors } = parseJsonText(text)
                expect(errors.length === 0).toBe(wellFormed)
                if (!wellFormed) expect(errors.every((e) => e.code === 'INP-007')).toBe(true)
            }),
            { numRuns: 300 }
        )
    })
})
