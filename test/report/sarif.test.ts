import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv } from 'ajv'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
    Areas,
    ErrorCodes,
    FixList,
    gradeSingleSchema,
    httpPortFromRecordings,
    Sarif,
    sourceLocations,
    type FixItem,
    type SarifLog
} from '../../src/index.js'
import { fixEntriesOf } from '../../src/fix/fix-list.js'
import { genericText } from '../../src/report/sarif.js'
import { QUESTIONS } from '../../src/areas/catalogue.js'
import { exampleMain, grader, recording, scriptedJudge } from '../grade/helpers.js'

// The SARIF 2.1.0 schema as Microsoft's SARIF SDK ships it (sarif-2.1.0-rtm.5, a draft-04 document).
// ajv 8 reads it once its draft-04 `id` is spelt `$id` (it uses no draft-04-only keyword), and with
// regular expressions compiled without the `u` flag: one pattern of the schema is not valid in unicode mode.
const require = createRequire(import.meta.url)
const {
    id,
    $schema: _draft04,
    ...SARIF_SCHEMA
} = JSON.parse(
    readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')
) as Record<string, unknown>
const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false })
for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format)
const validateSarif = ajv.compile({ ...SARIF_SCHEMA, $id: String(id) })

function expectValid(log: SarifLog | null): SarifLog {
    expect(log).not.toBeNull()
    const valid = validateSarif(log)
    expect(validateSarif.errors ?? [], JSON.stringify(validateSarif.errors?.slice(0, 3))).toEqual([])
    expect(valid).toBe(true)
    return log as SarifLog
}

const FINDING: FixItem = {
    schemaId: 'coingecko.simple',
    file: 'providers/coingecko/simple.mjs',
    kind: 'finding',
    code: 'SCH-WARN-011',
    severity: 'warning',
    message: 'Tool getPrice: the description is shorter than 20 characters',
    pointer: '/tools/getPrice/description',
    line: 18,
    column: 13,
    cost: 0.5,
    tool: 'getPrice'
}
const ANSWER: FixItem = {
    schemaId: 'coingecko.simple',
    file: 'providers/coingecko/simple.mjs',
    kind: 'answer',
    code: 'Q-single-test-05',
    severity: 'info',
    message: 'The description is written in the imperative.',
    pointer: '/tools/getPrice/description',
    line: 18,
    column: 13,
    cost: 0.8,
    unit: 'single-test/getPrice',
    area: 'single-test',
    tool: 'getPrice',
    score: 3,
    question: "Does the description follow the specification's conventions (third person, no promotional copy)?",
    reasoning: 'The description is written in the imperative.'
}
const HINT: FixItem = {
    schemaId: 'coingecko.simple',
    file: 'providers/coingecko/simple.mjs',
    kind: 'hint',
    code: 'HINT-single-test',
    severity: 'info',
    message: 'Write it in the third person.',
    pointer: '/tools/getPrice/description',
    line: 18,
    column: 13,
    cost: 0,
    unit: 'single-test/getPrice',
    area: 'single-test',
    tool: 'getPrice',
    hint: {
        targetField: 'tools.getPrice.description',
        suggestion: 'Write it in the third person.',
        priority: 'medium'
    },
    placed: 'target'
}
const WHOLE: FixItem = {
    schemaId: 'coingecko.simple',
    file: null,
    kind: 'finding',
    code: 'SRC-006',
    severity: 'warning',
    message: 'Top-level code is not run',
    pointer: '',
    line: null,
    column: null,
    cost: 0
}

describe('Sarif.fromFixItems', () => {
    it('writes one result per item and one rule per code, valid against the SARIF 2.1.0 schema', () => {
        const { log, errors } = Sarif.fromFixItems({
            items: [FINDING, ANSWER, WHOLE],
            tool: { name: 'flowmcp-grading', version: '0.1.0' }
        })
        expect(errors).toEqual([])
        const run = expectValid(log).runs[0]
        expect(run.results.map((r) => [r.ruleId, r.level, r.ruleIndex])).toEqual([
            ['SCH-WARN-011', 'warning', 1],
            ['Q-single-test-05', 'note', 0],
            ['SRC-006', 'warning', 2]
        ])
        expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['Q-single-test-05', 'SCH-WARN-011', 'SRC-006'])
        expect(run.results[0]).toMatchInlineSnapshot(`
          {
            "level": "warning",
            "locations": [
              {
                "logicalLocations": [
                  {
                    "fullyQualifiedName": "coingecko.simple#/tools/getPrice/description",
                    "name": "description",
                  },
                ],
                "physicalLocation": {
                  "artifactLocation": {
                    "uri": "providers/coingecko/simple.mjs",
                    "uriBaseId": "SRCROOT",
                  },
                  "region": {
                    "startColumn": 13,
                    "startLine": 18,
                  },
                },
              },
            ],
            "message": {
              "text": "Tool getPrice: the description is shorter than 20 characters",
            },
            "partialFingerprints": {
              "flowmcpGrading/v1": "dbbaf8b703d8ccf41dcba6bf70dddc5b97bc08a7a9d9f726cab4072da1cd4754",
            },
            "properties": {
              "cost": 0.5,
              "kind": "finding",
              "pointer": "/tools/getPrice/description",
              "schemaId": "coingecko.simple",
              "tool": "getPrice",
            },
            "ruleId": "SCH-WARN-011",
            "ruleIndex": 1,
          }
        `)
        expect(run.results[2]?.locations).toEqual([
            { logicalLocations: [{ name: 'coingecko.simple', fullyQualifiedName: 'coingecko.simple#' }] }
        ])
    })

    it('explains an issue code from the error catalogue and a question id from the question catalogue', () => {
        const { log } = Sarif.fromFixItems({
            items: [FINDING, ANSWER],
            docsUri: 'https://example.org/flowmcp-grading/docs/errors.md'
        })
        const [question, finding] = expectValid(log).runs[0].tool.driver.rules
        const entry = ErrorCodes.get({ code: 'SCH-WARN-011' }).entry
        expect(finding?.shortDescription.text).toBe(genericText(entry?.template ?? ''))
        expect(finding?.fullDescription.text).toBe(`${genericText(entry?.template ?? '')} (${entry?.rule})`)
        expect(finding?.helpUri).toBe('https://example.org/flowmcp-grading/docs/errors.md#sch')
        expect(finding?.defaultConfiguration.level).toBe('warning')
        const asked = Areas.questions({ area: 'single-test' }).questions.find((q) => q.id === 'Q-single-test-05')
        expect(question?.shortDescription.text).toBe(asked?.question)
        expect(question?.helpUri).toBeUndefined()
        expect(question).toMatchInlineSnapshot(`
          {
            "defaultConfiguration": {
              "level": "note",
            },
            "fullDescription": {
              "text": "Does the description follow the specification's conventions (third person, no promotional copy)? (area single-test, dimension descriptionSpecConformance, weight 0.33)",
            },
            "help": {
              "text": "The judge is asked: Does the description follow the specification's conventions (third person, no promotional copy)? What it checks: Check the description for conformance with the specification: third person, descriptive, free of buzzwords.",
            },
            "id": "Q-single-test-05",
            "properties": {
              "area": "single-test",
              "dimension": "descriptionSpecConformance",
              "tags": [
                "flowmcp-grading",
                "question",
                "single-test",
              ],
              "weight": 0.33,
            },
            "shortDescription": {
              "text": "Does the description follow the specification's conventions (third person, no promotional copy)?",
            },
          }
        `)
    })

    it('leaves no {placeholder} unfilled in any rule text, for every code of the catalogue and every question', () => {
        const items = [
            ...ErrorCodes.list({}).codes.map((c) => ({ ...WHOLE, code: c.code })),
            ...QUESTIONS.map((q) => ({ ...WHOLE, code: q.id })),
            HINT
        ]
        const rules = expectValid(Sarif.fromFixItems({ items }).log).runs[0].tool.driver.rules
        expect(rules.length).toBeGreaterThan(200)
        const texts = rules.flatMap((r) =>
            [r.shortDescription.text, r.fullDescription.text, r.help.text].map((text) => [r.id, text])
        )
        expect(texts.filter(([, text]) => /\{[A-Za-z0-9_]+\}/.test(text as string))).toEqual([])
        expect(genericText('Tool {tool} is key-gated, not evaluable without {params}')).toBe(
            'The tool is key-gated, not evaluable without the params'
        )
        expect(genericText('Unknown level {value} (expected one of {expected})')).toBe(
            'Unknown level the value (expected one of the accepted values)'
        )
        expect(genericText('Test {index} of tool {tool} failed: {detail}')).toBe(
            'Test one of the tool failed: the details'
        )
    })

    it('writes a hint as a result of its own rule, and names the tool in every message, the message whole', () => {
        const long = `${'A sentence that goes on. '.repeat(40)}The end.`
        const { log } = Sarif.fromFixItems({ items: [HINT, { ...ANSWER, message: long }] })
        const run = expectValid(log).runs[0]
        expect(run.results.map((r) => r.message.text)).toEqual([
            'Write it in the third person. in tool getPrice',
            `${long} in tool getPrice`
        ])
        expect(run.results[0]?.properties).toMatchObject({
            kind: 'hint',
            placed: 'target',
            hint: { priority: 'medium' }
        })
        expect(run.results[1]?.properties).toMatchObject({ question: ANSWER.question, reasoning: ANSWER.reasoning })
        expect(run.tool.driver.rules.find((r) => r.id === 'HINT-single-test')?.shortDescription.text).toBe(
            'An improvement hint of the single-test grading'
        )
    })

    it('gives a code in neither catalogue a rule of its own, at the most severe level of its items', () => {
        const items = [
            { ...WHOLE, code: 'XYZ-1', severity: 'info' as const },
            { ...WHOLE, code: 'XYZ-1', severity: 'error' as const },
            { ...WHOLE, code: 'Q-security', severity: 'warning' as const }
        ]
        const rules = expectValid(Sarif.fromFixItems({ items }).log).runs[0].tool.driver.rules
        expect(rules.map((r) => [r.id, r.defaultConfiguration.level])).toEqual([
            ['Q-security', 'warning'],
            ['XYZ-1', 'error']
        ])
        expect(rules[0]?.shortDescription.text).toContain('security findings')
    })

    it('writes the same bytes for the same items, rules sorted', () => {
        const a = Sarif.fromFixItems({ items: [ANSWER, FINDING, WHOLE] })
        const b = Sarif.fromFixItems({ items: [ANSWER, FINDING, WHOLE] })
        expect(JSON.stringify(a)).toBe(JSON.stringify(b))
        const ids = a.log?.runs[0].tool.driver.rules.map((r) => r.id) ?? []
        expect(ids).toEqual([...ids].sort())
    })

    it('keeps the fingerprints when only the lines move, and changes them with the pointer or the code', () => {
        const before = Sarif.fromFixItems({ items: [FINDING, ANSWER] }).log?.runs[0].results.map(
            (r) => r.partialFingerprints
        )
        const after = Sarif.fromFixItems({
            items: [
                { ...FINDING, line: 40, column: 1 },
                { ...ANSWER, line: null, column: null }
            ]
        }).log?.runs[0].results.map((r) => r.partialFingerprints)
        expect(after).toEqual(before)
        expect(before?.[0]?.['flowmcpGrading/v1']).toMatch(/^[0-9a-f]{64}$/)
        const moved = Sarif.fromFixItems({
            items: [
                { ...FINDING, pointer: '/tools/getPrice/path' },
                { ...ANSWER, code: 'Q-single-test-04' }
            ]
        }).log?.runs[0].results.map((r) => r.partialFingerprints)
        expect(moved?.[0]).not.toEqual(before?.[0])
        expect(moved?.[1]).not.toEqual(before?.[1])
    })

    it('writes a valid log with no results for an empty item list', () => {
        const { log, errors } = Sarif.fromFixItems({ items: [] })
        expect(errors).toEqual([])
        const run = expectValid(log).runs[0]
        expect(run.results).toEqual([])
        expect(run.tool.driver.rules).toEqual([])
        expect(run.tool.driver.name).toBe('flowmcp-grading')
    })

    it('omits the region when the line is not known, and the column when only the line is', () => {
        const { log } = Sarif.fromFixItems({
            items: [
                { ...FINDING, line: null, column: 4 },
                { ...FINDING, column: null }
            ]
        })
        const [noLine, noColumn] = expectValid(log).runs[0].results
        expect(noLine?.locations[0]?.physicalLocation).toEqual({
            artifactLocation: { uri: 'providers/coingecko/simple.mjs', uriBaseId: 'SRCROOT' }
        })
        expect(noColumn?.locations[0]?.physicalLocation?.region).toEqual({ startLine: 18 })
    })

    it.each([
        ['a relative path', 'providers/x/a.mjs', undefined, { uri: 'providers/x/a.mjs', uriBaseId: 'SRCROOT' }],
        [
            'a ./ path with a space and an umlaut',
            './a b/ü.mjs',
            undefined,
            { uri: 'a%20b/%C3%BC.mjs', uriBaseId: 'SRCROOT' }
        ],
        [
            'a Windows relative path',
            'providers\\x\\a.mjs',
            undefined,
            { uri: 'providers/x/a.mjs', uriBaseId: 'SRCROOT' }
        ],
        ['a Windows absolute path', 'C:\\repo\\a.mjs', undefined, { uri: 'file:///C:/repo/a.mjs' }],
        ['an absolute POSIX path', '/home/me/a%b.mjs', undefined, { uri: 'file:///home/me/a%25b.mjs' }],
        [
            'an absolute path under a file: base',
            '/work/repo/providers/a.mjs',
            'file:///work/repo/',
            { uri: 'providers/a.mjs', uriBaseId: 'SRCROOT' }
        ],
        [
            'a Windows path under a file: base',
            'C:\\repo\\p\\a.mjs',
            'file:///C:/repo/',
            { uri: 'p/a.mjs', uriBaseId: 'SRCROOT' }
        ],
        [
            'an absolute path outside the base',
            '/elsewhere/a.mjs',
            'file:///work/repo/',
            { uri: 'file:///elsewhere/a.mjs' }
        ],
        ['a URI', 'https://example.org/a b.mjs', undefined, { uri: 'https://example.org/a%20b.mjs' }]
    ])('writes %s as a URI with forward slashes', (_name, file, baseUri, expected) => {
        const { log, errors } = Sarif.fromFixItems({
            items: [{ ...FINDING, file }],
            ...(baseUri !== undefined ? { baseUri } : {})
        })
        expect(errors).toEqual([])
        const run = expectValid(log).runs[0]
        expect(run.results[0]?.locations[0]?.physicalLocation?.artifactLocation).toEqual(expected)
        expect(run.originalUriBaseIds).toEqual(baseUri !== undefined ? { SRCROOT: { uri: baseUri } } : undefined)
    })

    it('names the tool it is given', () => {
        const { log } = Sarif.fromFixItems({
            items: [],
            tool: { name: 'registry-ci', version: '2.0.0', informationUri: 'https://example.org/ci' }
        })
        expect(expectValid(log).runs[0].tool.driver).toEqual({
            name: 'registry-ci',
            version: '2.0.0',
            informationUri: 'https://example.org/ci',
            rules: []
        })
    })

    it('valid against the SARIF 2.1.0 schema for any well-formed items', () => {
        const text = fc.string({ unit: 'binary', maxLength: 30 })
        const item = fc.record({
            schemaId: fc.string({ minLength: 1, maxLength: 20 }),
            file: fc.option(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), { nil: null }),
            kind: fc.constantFrom('finding' as const, 'answer' as const),
            code: fc.constantFrom('SCH-WARN-011', 'SRC-001', 'Q-single-test-01', 'Q-security', 'NEW-1'),
            severity: fc.constantFrom('error' as const, 'warning' as const, 'info' as const),
            message: text,
            pointer: fc
                .array(text, { maxLength: 4 })
                .map((tokens) => tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')),
            line: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
            column: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
            cost: fc.double({ noNaN: true, noDefaultInfinity: true }),
            score: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom('pass', 'fail', 'n/a'))
        })
        fc.assert(
            fc.property(
                fc.array(item, { maxLength: 6 }),
                fc.constantFrom(undefined, 'file:///work/repo/'),
                (items, baseUri) => {
                    const { log, errors } = Sarif.fromFixItems({ items, ...(baseUri !== undefined ? { baseUri } : {}) })
                    expect(errors).toEqual([])
                    expect(expectValid(log).runs[0].results).toHaveLength(items.length)
                }
            ),
            { seed: 21, numRuns: 150 }
        )
    })
})

describe('the fix list of a graded schema as SARIF', () => {
    it('locates every item in the source and writes a valid log', async () => {
        const { main, source } = await exampleMain('providers/openmeteo/forecast.mjs')
        const result = await gradeSingleSchema({
            schema: { main },
            schemaId: 'openmeteo.forecast',
            grader,
            options: {
                now: '2026-11-22T18:00:00Z',
                source,
                judge: scriptedJudge(2).judge,
                http: httpPortFromRecordings({ recordings: [recording('openmeteo')] })
            }
        })
        const units = result.grading?.units ?? []
        const { locate, errors } = sourceLocations({ source })
        expect(errors).toEqual([])
        const fix = FixList.build({
            schemaId: 'openmeteo.forecast',
            file: 'providers/openmeteo/forecast.mjs',
            errors: result.errors,
            units,
            entries: fixEntriesOf(units, result.entries),
            locate
        })
        expect(fix.items.length).toBeGreaterThan(0)
        for (const item of fix.items) expect({ line: item.line, column: item.column }).toEqual(locate(item.pointer))
        const { log, errors: sarifErrors } = Sarif.fromFixItems({
            items: fix.items,
            baseUri: 'file:///home/me/flowmcp-schemas/'
        })
        expect(sarifErrors).toEqual([])
        const results = expectValid(log).runs[0].results
        expect(results).toHaveLength(fix.items.length)
        expect(results.every((r) => r.locations[0]?.physicalLocation?.region !== undefined)).toBe(true)
    })
})

describe('Sarif.fromFixItems on input that is not a list of fix items', () => {
    const codes = (issues: ReadonlyArray<{ code: string; path: string }>): string[][] =>
        issues.map((i) => [i.code, i.path])

    it.each([
        ['no items', {}, [['SRF-001', '/items']]],
        ['items that are not an array', { items: { 0: FINDING } }, [['SRF-002', '/items']]],
        ['too many items', { items: new Array(100_001).fill(null) }, [['SRF-003', '/items']]],
        ['a tool that is a string', { items: [], tool: 'me' }, [['SRF-002', '/tool']]],
        [
            'a tool without a name and a version of 2 MB',
            { items: [], tool: { version: 'x'.repeat(2_000_000) } },
            [
                ['SRF-001', '/tool/name'],
                ['SRF-002', '/tool/version']
            ]
        ],
        [
            'a relative informationUri',
            { items: [], tool: { name: 'a', version: '1', informationUri: 'docs/x' } },
            [['SRF-002', '/tool/informationUri']]
        ],
        ['a baseUri without a trailing slash', { items: [], baseUri: 'file:///work/repo' }, [['SRF-002', '/baseUri']]],
        [
            'a docsUri with a fragment',
            { items: [], docsUri: 'https://example.org/errors.md#x' },
            [['SRF-002', '/docsUri']]
        ],
        ['no input object', undefined, [['SRF-001', '/items']]]
    ])('refuses %s with no log', (_name, input, expected) => {
        const { log, errors } = Sarif.fromFixItems(input as never)
        expect(log).toBeNull()
        expect(codes(errors)).toEqual(expected)
    })

    it('leaves out items that are not fix items, and writes the rest into a valid log', () => {
        const { code: _code, ...withoutCode } = FINDING
        const getter = Object.defineProperty({ ...FINDING }, 'message', {
            enumerable: true,
            get() {
                throw new Error('hostile')
            }
        })
        const items = [
            FINDING,
            null,
            'SCH-001',
            withoutCode,
            { ...ANSWER, severity: 'fatal' },
            { ...ANSWER, pointer: 'tools/x' },
            getter,
            ANSWER
        ]
        const { log, errors } = Sarif.fromFixItems({ items: items as never })
        expect(codes(errors)).toEqual([
            ['SRF-004', '/items/1'],
            ['SRF-004', '/items/2'],
            ['SRF-005', '/items/3/code'],
            ['SRF-005', '/items/4/severity'],
            ['SRF-005', '/items/5/pointer'],
            ['SRF-004', '/items/6']
        ])
        expect(errors.every((e) => e.severity === 'warning')).toBe(true)
        expect(errors[2]?.message).toMatchInlineSnapshot(
            `"Item 3: code must be a non-empty string of at most 200 characters, got undefined; the item is left out of the log"`
        )
        expect(expectValid(log).runs[0].results.map((r) => r.ruleId)).toEqual(['SCH-WARN-011', 'Q-single-test-05'])
    })

    it('leaves out a wrong optional field and keeps the item', () => {
        const { log, errors } = Sarif.fromFixItems({
            items: [
                { ...FINDING, line: 0, column: 2.5, cost: Number.NaN, hint: { targetField: 1 }, kind: 'other', file: 7 }
            ] as never
        })
        expect(codes(errors)).toEqual([
            ['SRF-006', '/items/0/file'],
            ['SRF-006', '/items/0/kind'],
            ['SRF-006', '/items/0/line'],
            ['SRF-006', '/items/0/column'],
            ['SRF-006', '/items/0/cost'],
            ['SRF-006', '/items/0/hint']
        ])
        const result = expectValid(log).runs[0].results[0]
        expect(result?.locations[0]?.physicalLocation).toBeUndefined()
        expect(result?.properties).toEqual({
            schemaId: 'coingecko.simple',
            pointer: '/tools/getPrice/description',
            tool: 'getPrice'
        })
    })

    it('lists the first 50 item problems and counts the rest in one SRF-007', () => {
        const { log, errors } = Sarif.fromFixItems({ items: [...new Array(120).fill(42), FINDING] as never })
        expect(errors).toHaveLength(51)
        expect(codes(errors.slice(-1))).toEqual([['SRF-007', '/items']])
        expect(errors.at(-1)?.message).toContain('70 more problems')
        expect(expectValid(log).runs[0].results).toHaveLength(1)
    })
})
