import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { filesUnder, SRC } from './support/files.js'

// Text you can grep: a message is one string on one line wherever it is written (the 120-column rule is for code,
// and the formatter never splits a string), a long regular expression is written one way (`rx`, src/model/regex.ts),
// and optional fields are carried by `definedFields` (src/model/fields.ts), not by a spread per field.

// Markup and data tables, laid out by their own structure (a CSS rule, a script statement, a script's letters).
const LAYOUT = new Set(['report/html-style.ts', 'report/html-script.ts', 'injection/confusables.ts'])

const sources = filesUnder(SRC, '.ts').map((file) => {
    const text = readFileSync(file, 'utf8')
    return { name: relative(SRC, file), sf: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) }
})

const isLiteral = (n: ts.Node): boolean =>
    ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)

function walk(sf: ts.SourceFile, visit: (n: ts.Node) => void): void {
    const go = (n: ts.Node): void => {
        visit(n)
        ts.forEachChild(n, go)
    }
    go(sf)
}

const at = (sf: ts.SourceFile, n: ts.Node): string =>
    `${sf.fileName.slice(SRC.length)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`

/** `'…' +` at a line end followed by a literal: one message written as pieces. */
export function splitLiterals(sf: ts.SourceFile): string[] {
    const found: string[] = []
    walk(sf, (n) => {
        if (!ts.isBinaryExpression(n) || n.operatorToken.kind !== ts.SyntaxKind.PlusToken) return
        let left: ts.Node = n.left
        while (ts.isBinaryExpression(left) && left.operatorToken.kind === ts.SyntaxKind.PlusToken) left = left.right
        let right: ts.Node = n.right
        while (ts.isParenthesizedExpression(right)) right = right.expression
        while (ts.isBinaryExpression(right) && right.operatorToken.kind === ts.SyntaxKind.PlusToken) right = right.left
        const line = (pos: number): number => sf.getLineAndCharacterOfPosition(pos).line
        if (isLiteral(left) && isLiteral(right) && line(left.end) !== line(right.getStart(sf))) found.push(at(sf, n))
    })
    return found
}

/** `...(x !== undefined ? { x } : {})`: an optional field carried by a spread of its own. */
export function fieldSpreads(sf: ts.SourceFile): string[] {
    const found: string[] = []
    walk(sf, (n) => {
        if (!ts.isSpreadAssignment(n)) return
        let e: ts.Expression = n.expression
        while (ts.isParenthesizedExpression(e)) e = e.expression
        if (!ts.isConditionalExpression(e) || !ts.isBinaryExpression(e.condition)) return
        const c = e.condition
        if (c.operatorToken.kind !== ts.SyntaxKind.ExclamationEqualsEqualsToken || c.right.getText(sf) !== 'undefined')
            return
        const t = e.whenTrue
        if (!ts.isObjectLiteralExpression(t) || t.properties.length !== 1) return
        const p = t.properties[0] as ts.ObjectLiteralElementLike
        const value = ts.isShorthandPropertyAssignment(p)
            ? p.name.getText(sf)
            : ts.isPropertyAssignment(p)
              ? p.initializer.getText(sf)
              : ''
        if (value.replaceAll('?.', '.') === c.left.getText(sf).replaceAll('?.', '.')) found.push(at(sf, n))
    })
    return found
}

/** The fixed text of a pattern argument: its literals and template parts, not what substitutions compute. */
function patternPieces(sf: ts.SourceFile, n: ts.Node): string[] {
    if (ts.isParenthesizedExpression(n)) return patternPieces(sf, n.expression)
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken)
        return [...patternPieces(sf, n.left), ...patternPieces(sf, n.right)]
    if (ts.isTemplateExpression(n))
        return [n.head.getText(sf), ...n.templateSpans.map((span) => span.literal.getText(sf))]
    return ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? [n.getText(sf)] : []
}

/** A regular expression written as an escaped string (`new RegExp('\\d…')`) or with `String.raw`, not with `rx`. */
export function escapedRegexes(sf: ts.SourceFile): string[] {
    const found: string[] = []
    walk(sf, (n) => {
        if (!ts.isNewExpression(n) || n.expression.getText(sf) !== 'RegExp') return
        const first = n.arguments?.[0]
        if (first === undefined) return
        const escaped = patternPieces(sf, first).some((piece) => piece.includes('\\\\'))
        const raw = ts.isTaggedTemplateExpression(first) && first.tag.getText(sf) === 'String.raw'
        if ((escaped || raw) && !sf.fileName.endsWith('model/regex.ts')) found.push(at(sf, n))
    })
    return found
}

function parse(text: string): ts.SourceFile {
    return ts.createSourceFile(`${SRC}sample.ts`, text, ts.ScriptTarget.Latest, true)
}

describe('text you can grep', () => {
    it('writes a message as one string on one line (no literal pieces joined over lines)', () => {
        const found = sources.filter((s) => !LAYOUT.has(s.name)).flatMap((s) => splitLiterals(s.sf))
        expect(found).toEqual([])
    })

    it('finds a message split over lines, and lets an expression between literals be', () => {
        expect(splitLiterals(parse("const m = 'one message ' +\n    'in two pieces'\n"))).toEqual(['sample.ts:1'])
        expect(splitLiterals(parse("const m = `a ${b}` +\n    ('c' + 'd')\n"))).toEqual(['sample.ts:1'])
        expect(splitLiterals(parse("const m = 'one line ' + 'is greppable'\n"))).toEqual([])
        expect(splitLiterals(parse("const m = 'a ' +\n    name +\n    ' b'\n"))).toEqual([])
    })

    it('carries optional fields with definedFields, not a spread per field', () => {
        expect(sources.flatMap((s) => fieldSpreads(s.sf))).toEqual([])
    })

    it('finds a spread per field, and lets a conditional that transforms the value be', () => {
        expect(fieldSpreads(parse('const o = { ...(x !== undefined ? { x } : {}) }\n'))).toEqual(['sample.ts:1'])
        expect(fieldSpreads(parse('const o = { ...(a?.b !== undefined ? { b: a.b } : {}) }\n'))).toEqual([
            'sample.ts:1'
        ])
        expect(fieldSpreads(parse('const o = { ...(x !== undefined ? { x: f(x) } : {}) }\n'))).toEqual([])
    })

    it('writes a long regular expression one way: rx, never an escaped string or String.raw', () => {
        expect(sources.flatMap((s) => escapedRegexes(s.sf))).toEqual([])
    })

    it('finds an escaped-string regex and a String.raw one, and lets a pattern built from escaped input be', () => {
        expect(escapedRegexes(parse("const r = new RegExp('\\\\d+' + x)\n"))).toEqual(['sample.ts:1'])
        expect(escapedRegexes(parse('const r = new RegExp(String.raw`\\d+`)\n'))).toEqual(['sample.ts:1'])
        expect(escapedRegexes(parse("const r = new RegExp(escapeRegExp(name), 'g')\n"))).toEqual([])
    })
})
