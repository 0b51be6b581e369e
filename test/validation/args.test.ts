import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createIssue, typeOfValue } from '../../src/errors/issue.js'
import { nullAsMissing, objectArg, parseArgs, says, wholeArg } from '../../src/validation/args.js'

const CODES = { missing: 'DET-001', mismatch: 'DET-002', create: createIssue } as const
const NAMED = v.looseObject({ name: v.string(), tags: v.optional(v.array(v.string())) })

describe('parseArgs', () => {
    it('returns the value and no errors for a good argument', () => {
        expect(parseArgs(NAMED, { name: 'a', tags: ['x'] }, CODES)).toEqual({
            value: { name: 'a', tags: ['x'] },
            errors: []
        })
    })

    it('keeps its default wording: dotted field, the value itself, any undefined missing', () => {
        const { value, errors } = parseArgs(NAMED, { tags: [1] }, CODES)
        expect(value).toBeNull()
        expect(errors.map((e) => [e.code, e.path, e.message])).toEqual([
            ['DET-001', '/name', 'Required field missing: name'],
            ['DET-002', '/tags/0', 'Type mismatch for field tags.0: expected string, got 1']
        ])
    })

    it('words a call by its style: indexed field, the JSON type, only a key is missing', () => {
        const style = { field: 'indexed', actual: 'type', missing: 'keys' } as const
        const list = v.looseObject({ items: v.array(objectArg()) })
        const { errors } = parseArgs(list, { items: [undefined, []] }, CODES, style)
        expect(errors.map((e) => e.message)).toEqual([
            'Type mismatch for field items[0]: expected object, got undefined',
            'Type mismatch for field items[1]: expected object, got array'
        ])
        const key = parseArgs(v.looseObject({ a: v.looseObject({ b: v.string() }) }), { a: { b: 2 } }, CODES, {
            field: 'key'
        })
        expect(key.errors[0]?.message).toBe('Type mismatch for field b: expected string, got 2')
    })

    it('takes a schema\'s own wording: expected, field, a fixed "got", never missing when it says so', () => {
        const id = v.custom((x) => x === 'ok', says({ expected: 'the word ok', field: 'id (ok)', missing: false }))
        const fullRow = v.check(() => false, says({ expected: 'a full row', got: 'incomplete row' }))
        const { errors } = parseArgs(v.looseObject({ id }), { id: undefined }, CODES)
        expect(errors[0]?.message).toBe('Type mismatch for field id (ok): expected the word ok, got undefined')
        const row = parseArgs(v.pipe(v.unknown(), fullRow), {}, CODES)
        expect(row.errors[0]?.message).toBe('Type mismatch for field input: expected a full row, got incomplete row')
    })

    it("writes a wrong string as itself and any other value by its JSON type ('text')", () => {
        const grade = v.looseObject({ grade: v.picklist(['A', 'B']) })
        const style = { actual: 'text' } as const
        expect(parseArgs(grade, { grade: 'Z' }, CODES, style).errors[0]?.message).toMatch(/, got Z$/)
        expect(parseArgs(grade, { grade: [1] }, CODES, style).errors[0]?.message).toMatch(/, got array$/)
        const long = parseArgs(grade, { grade: 'x'.repeat(200) }, CODES, style).errors[0]?.message ?? ''
        expect(long.endsWith(`got ${'x'.repeat(117)}...`)).toBe(true)
    })

    it("writes a wrong number as itself and any other value by its JSON type ('number')", () => {
        const count = v.looseObject({ n: v.custom((x) => x === 1, says({ expected: 'one', actual: 'number' })) })
        const got = (n: unknown) => parseArgs(count, { n }, CODES).errors[0]?.message.split(', got ')[1]
        expect([-1, 1.5, Number.NaN, 'x', '', null, [], {}, () => 1, true].map(got)).toEqual([
            '-1',
            '1.5',
            'NaN',
            'string',
            'string',
            'null',
            'array',
            'object',
            'function',
            'boolean'
        ])
        expect(parseArgs(count, { n: 1 }, CODES)).toEqual({ value: { n: 1 }, errors: [] })
    })

    it('takes a null as absent where the API says so (nullAsMissing), and passes any other value on', () => {
        const list = v.looseObject({ list: nullAsMissing(v.array(v.string(), says('array'))) })
        expect(parseArgs(list, { list: null }, CODES).errors[0]?.message).toBe('Required field missing: list')
        expect(parseArgs(list, { list: 2 }, CODES).errors[0]?.message).toBe(
            'Type mismatch for field list: expected array, got 2'
        )
        expect(parseArgs(list, { list: ['a'] }, CODES)).toEqual({ value: { list: ['a'] }, errors: [] })
    })

    it('places the findings where the input stands (at) and reports a whole value once (wholeArg)', () => {
        const pair = wholeArg(v.tuple([v.string(), v.string()]), { expected: 'pair of strings', actual: 'type' })
        const { errors } = parseArgs(pair, ['a', 1], CODES, { at: ['pairs', 3] })
        expect(errors).toEqual([
            expect.objectContaining({
                code: 'DET-002',
                path: '/pairs/3',
                message: 'Type mismatch for field pairs.3: expected pair of strings, got array'
            })
        ])
    })

    it('a wrong type is always one finding at the value, worded with its JSON type (property)', () => {
        const style = { field: 'indexed', actual: 'type', missing: 'keys' } as const
        const schema = v.looseObject({ f: v.optional(v.string()) })
        fc.assert(
            fc.property(
                fc.anything().filter((x) => x !== undefined && typeof x !== 'string'),
                (x) => {
                    const { value, errors } = parseArgs(schema, { f: x }, CODES, style)
                    expect(value).toBeNull()
                    expect(errors).toHaveLength(1)
                    expect(errors[0]?.path).toBe('/f')
                    expect(errors[0]?.message).toBe(`Type mismatch for field f: expected string, got ${typeOfValue(x)}`)
                }
            )
        )
    })
})
