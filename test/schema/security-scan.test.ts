import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrorCodes, SecurityScan } from '../../src/index.js'
import { lex } from '../../src/schema/lexer.js'
import { CODE_PATTERNS, REQUIRED_WORDS } from '../../src/schema/security-scan.js'

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/schemas/${name}`, import.meta.url), 'utf8')
const codes = (source: string): string[] => SecurityScan.scan({ source }).findings.map((f) => f.code)

describe('SecurityScan.scan', () => {
    it.each([
        ['a static import', "import x from 'y'", 'SEC-001'],
        ['a dynamic import', "const m = await import('y')", 'SEC-001'],
        ['a re-export', "export * from './other.mjs'", 'SEC-001'],
        ['require(', "const x = require('y')", 'SEC-002'],
        ['eval(', "eval('1')", 'SEC-003'],
        ['an indirect eval', "const e = eval\ne('1')", 'SEC-003'],
        ['Function(', "const f = Function('return 1')", 'SEC-004'],
        [
            'the Function constructor through .constructor(',
            "const f = (() => {}).constructor('return this')",
            'SEC-004'
        ],
        ['new Function', "const f = new Function('a', 'return a')", 'SEC-005'],
        ['process.', 'const k = process.env.KEY', 'SEC-006'],
        ['process[', "const k = process['env']", 'SEC-006'],
        ['child_process in code', 'child_process.exec("ls")', 'SEC-007'],
        ['child_process in a required string', "const cp = require('child_process')", 'SEC-007'],
        ['fs.', 'fs.readFileSync(p)', 'SEC-008'],
        ['node:fs in an import', "import { readFile } from 'node:fs'", 'SEC-009'],
        ['fs/promises in an import', "import { readFile } from 'fs/promises'", 'SEC-010'],
        ['globalThis.', 'globalThis.fetch(u)', 'SEC-011'],
        ['globalThis[', "globalThis['fetch'](u)", 'SEC-011'],
        ['global.', 'global.x = 1', 'SEC-012'],
        ['global[', "global['x'] = 1", 'SEC-012'],
        ['__dirname', 'const d = __dirname', 'SEC-013'],
        ['__filename', 'const f = __filename', 'SEC-014']
    ])('finds %s', (_name, source, code) => {
        expect(codes(source)).toContain(code)
    })

    it.each([
        ['a word that contains eval', 'const medieval = retrieval(1)'],
        ['a method named eval on another object', 'calculator.eval(1)'],
        ['an object key named eval', 'const o = { eval: 1 }'],
        ['a property named process', 'job.process.start()'],
        ['a variable named processes', 'processes.length'],
        ['an identifier ending in fs', 'const refs = prefs.x'],
        ['the words in a line comment', '// eval( require( process.env fs.x import'],
        ['the words in a block comment', '/* new Function child_process\n globalThis.x __dirname */'],
        ['the words in a string', "const s = 'eval( process.env __filename global.x'"],
        ['the words in template text', 'const s = `import x from y; eval(1)`'],
        ['the words in a regex literal', 'const r = /process\\.env|eval\\(/g'],
        ['a string that ends in an escaped backslash', "const s = '\\\\'; const t = 'eval('"],
        ['an escaped quote inside a string', "const s = 'it\\'s eval( here'"]
    ])('does not flag %s', (_name, source) => {
        expect(codes(source)).toEqual([])
    })

    it('keeps code inside ${} of a template literal visible (the reference blanked it)', () => {
        expect(codes('const s = `value: ${ eval(x) }`')).toEqual(['SEC-003'])
        expect(codes('const s = `a ${ `b ${ process.env.X } c` } d`')).toEqual(['SEC-006'])
        expect(codes('const s = `${ { a: 1 }.a } eval(`')).toEqual([])
    })

    it('tells a regex from a division by the token before the slash', () => {
        expect(codes('const x = a / 2 / b; eval(x)')).toEqual(['SEC-003'])
        expect(codes("const x = 'a' / 2; const r = /eval(/")).toEqual([])
        expect(codes('return /process\\.env/.test(s)')).toEqual([])
    })

    it('reports 1-based lines and columns that point at the match', () => {
        const source = 'const a = 1\n// eval( in a comment\n    const b = eval(a)\r\nconst c = process.env'
        const findings = SecurityScan.scan({ source }).findings
        expect(findings.map((f) => [f.code, f.line, f.column])).toEqual([
            ['SEC-003', 3, 15],
            ['SEC-006', 4, 11]
        ])
    })

    it('keeps the length and every newline of the source when blanking', () => {
        fc.assert(
            fc.property(fc.string({ unit: 'binary-ascii' }), (source) => {
                const { code } = lex(source)
                expect(code.length).toBe(source.length)
                for (let i = 0; i < source.length; i += 1) if (source[i] === '\n') expect(code[i]).toBe('\n')
            })
        )
    })

    it('lists every imported module with its source kind', () => {
        const { modules } = SecurityScan.scan({ source: fixture('malicious-schema.mjs') })
        expect(modules).toEqual([
            { name: 'child_process', source: 'node', version: null, line: 1 },
            { name: 'node:https', source: 'node', version: null, line: 2 },
            { name: 'fs', source: 'node', version: null, line: 18 }
        ])
        expect(
            SecurityScan.scan({
                source: "import a from './local.mjs'\nimport b from 'ethers'\nimport c from 'https://cdn.invalid/x.js'"
            }).modules.map((m) => m.source)
        ).toEqual(['file', 'npm', 'url'])
    })

    it('marks code execution and shell modules as malicious-module evidence, everything else not (02 §13)', () => {
        const findings = SecurityScan.scan({ source: fixture('malicious-schema.mjs') }).findings
        const veto = findings.filter((f) => f.vetoClass === 'malicious-module').map((f) => `${f.code} ${f.line}`)
        expect(veto).toEqual(['SEC-001 1', 'SEC-007 1', 'SEC-003 16'])
        const penalties = [...new Set(findings.filter((f) => f.vetoClass === null).map((f) => f.code))].sort()
        expect(penalties).toEqual(['SEC-001', 'SEC-002', 'SEC-006', 'SEC-008', 'SEC-011', 'SEC-013'])
        expect(SecurityScan.scan({ source: "import x from 'ethers'" }).findings[0]).toMatchObject({
            code: 'SEC-001',
            vetoClass: null,
            module: 'ethers'
        })
    })

    it('finds nothing in a clean schema whose comments and strings mention every pattern', () => {
        expect(SecurityScan.scan({ source: fixture('clean-schema.mjs') })).toEqual({
            clean: true,
            findings: [],
            modules: [],
            errors: []
        })
    })

    it('finds a key-like literal in a comment and a writer next to the request struct (02 §13 (1), (2))', () => {
        const source = fixture('key-hygiene-schema.mjs')
        const result = SecurityScan.scan({ source, requiredServerParams: ['ETHERSCAN_API_KEY'] })
        expect(result.findings.map((f) => [f.code, f.line, f.nearServerParam ?? null])).toEqual([
            ['SEC-015', 1, null],
            ['SEC-016', 16, true],
            ['SEC-016', 20, false]
        ])
    })

    it.each([
        ['a provider key prefix', '// sk-abcdefghijklmnop1234567890'],
        ['a token assignment', '/* token: 9f8e7d6c5b4a39281706 */'],
        ['a declared server param with a value', '// MYAPI_SECRET = abc123xyz789'],
        ['an AWS access key id', '// AKIAABCDEFGHIJKLMNOP']
    ])('flags %s in a comment', (_name, comment) => {
        expect(
            SecurityScan.scan({ source: comment, requiredServerParams: ['MYAPI_SECRET'] }).findings.map((f) => f.code)
        ).toEqual(['SEC-015'])
    })

    it.each([
        ['a placeholder', '// apikey=<your-api-key>'],
        ['a value without digits', '// api_key=YourApiKeyToken'],
        ['an address', '// 0xdAC17F958D2ee523a2206206994597C13D831ec7'],
        ['a template placeholder', '// ETHERSCAN_API_KEY={{SERVER_PARAM:ETHERSCAN_API_KEY}}']
    ])('does not flag %s in a comment', (_name, comment) => {
        expect(SecurityScan.scan({ source: comment, requiredServerParams: ['ETHERSCAN_API_KEY'] }).findings).toEqual([])
    })

    it.each([
        ['no source', {}, 'SEC-017'],
        ['a number as source', { source: 42 }, 'SEC-019'],
        ['a source longer than the limit', { source: 'x'.repeat(2_000_001) }, 'SEC-018'],
        ['requiredServerParams that is not an array', { source: '', requiredServerParams: 'KEY' }, 'SEC-019']
    ])('reports %s with a coded issue', (_name, input, code) => {
        const result = SecurityScan.scan(input as never)
        expect(result.errors.map((e) => e.code)).toEqual([code])
    })

    it('never throws and codes every issue for any input (fuzz)', () => {
        fc.assert(
            fc.property(
                fc.oneof(fc.anything(), fc.record({ source: fc.string(), requiredServerParams: fc.anything() })),
                (input) => {
                    const result = SecurityScan.scan(input as never)
                    for (const e of result.errors) expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
                    for (const f of result.findings) expect(ErrorCodes.get({ code: f.code }).found).toBe(true)
                }
            )
        )
    })

    it('scans arbitrary JavaScript-like text without throwing and with positions inside the source', () => {
        const token = fc.constantFrom(
            'eval(',
            "'",
            '"',
            '`',
            '${',
            '}',
            '/',
            '//',
            '/*',
            '*/',
            '\\',
            '\n',
            'process.',
            'import ',
            ' ',
            'a',
            '(',
            ')',
            '[',
            ']'
        )
        fc.assert(
            fc.property(fc.array(token, { maxLength: 60 }), (parts) => {
                const source = parts.join('')
                const lines = source.split(/\r\n|\r|\n|\u2028|\u2029/)
                for (const f of SecurityScan.scan({ source }).findings) {
                    expect(f.line).toBeGreaterThanOrEqual(1)
                    expect(f.line).toBeLessThanOrEqual(lines.length)
                    expect(f.column).toBeGreaterThanOrEqual(1)
                }
            })
        )
    })
})

describe('SecurityScan.scan limits', () => {
    it('lists at most 1000 findings and says that it stopped (SEC-WARN-001)', () => {
        const result = SecurityScan.scan({ source: 'import '.repeat(5000) })
        expect(result.findings).toHaveLength(1000)
        expect(result.errors).toEqual([expect.objectContaining({ code: 'SEC-WARN-001', severity: 'warning' })])
    })

    it('skips a pattern only when the code lacks a word every match of it holds', () => {
        for (const pattern of CODE_PATTERNS) {
            const word = REQUIRED_WORDS[pattern.label]
            expect(word, pattern.label).toBeDefined()
            expect(pattern.regex.source, pattern.label).toContain(word)
        }
        // Each pattern still finds its construct, and nothing is found where its word is absent.
        expect(codes('const c = ({}).constructor("return 1")()')).toEqual(['SEC-004'])
        expect(codes('const x = new Function("a", "return a")')).toEqual(['SEC-005'])
        expect(codes('const f = () => a.b.c(1)')).toEqual([])
    })
})
