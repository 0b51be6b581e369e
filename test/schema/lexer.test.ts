import { pathToFileURL } from 'node:url'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lex } from '../../src/schema/lexer.js'
import { referenceLex } from './lexer-reference.js'
import { shared } from '../support/shared.js'

// The corpus sample, where present (../shared/corpus-sample is never copied into the project).
const SAMPLE = pathToFileURL(shared('corpus-sample/').path)
const files: string[] = shared('corpus-sample/files.json').present
    ? (JSON.parse(readFileSync(new URL('files.json', SAMPLE), 'utf8')) as string[])
    : []

// The pieces JavaScript's lexical corners are made of: quotes, escapes, comments, template
// substitutions (nested), regex literals after every kind of token, line breaks of every kind.
const PIECES = [
    "'",
    '"',
    '`',
    '\\',
    '/',
    '//',
    '/*',
    '*/',
    '${',
    '{',
    '}',
    '(',
    ')',
    '[',
    ']',
    ' ',
    '\t',
    '\n',
    '\r',
    '\r\n',
    '\u2028',
    '\u2029',
    '\u00a0',
    '\ufeff',
    'return',
    'typeof',
    'in',
    'x',
    'a1',
    '$',
    '_',
    '=',
    ';',
    ',',
    '.',
    '+',
    '2',
    'eval(',
    'process.env',
    '#!',
    'g',
    'i',
    '/re/g',
    'a / b',
    '\ud83d\ude00',
    '\ud800'
]
const source = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''))

describe('lex', () => {
    it('gives the output of the reference lexer on every corpus schema', () => {
        for (const file of files) {
            const text = readFileSync(new URL(`schemas/${file}`, SAMPLE), 'utf8')
            expect(lex(text), file).toEqual(referenceLex(text))
        }
    })

    it('gives the output of the reference lexer on arbitrary JavaScript-like text (fast-check)', () => {
        fc.assert(
            fc.property(fc.oneof(source, fc.string({ unit: 'binary' })), (text) => {
                expect(lex(text)).toEqual(referenceLex(text))
            }),
            { numRuns: 3000 }
        )
    })

    it('blanks strings, comments, template text and regex bodies, and keeps code inside ${…}', () => {
        const got = lex("const a = 'x' // c\nconst t = `v${ b / 2 }w` + /r[/]e/g")
        expect(got.code).toBe("const a = ' '     \nconst t = ` ${ b / 2 } ` + /     /g")
        expect(got.strings.map((s) => s.raw)).toEqual(['x', 'v', 'w'])
        expect(got.comments.map((c) => c.text)).toEqual(['// c'])
    })

    it('runs an unterminated literal to the end of its line or of the input, without throwing', () => {
        const got = lex("const a = 'open\nconst b = `never closed ${ x")
        expect(got.code.split('\n')[0]).toBe("const a = '    ")
        expect(got.strings.map((s) => s.raw)).toEqual(['open', 'never closed '])
    })
})
