import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrorCodes, Grading, HashGenerator, Scoring, validateGradingEntry, Veto } from '../../src/index.js'
import { example } from '../grading/helpers.js'

type Fn = (input: never) => unknown

/** Every public entry point of the core that takes external data. */
const ENTRY_POINTS: Array<[string, Fn]> = [
    ['Scoring.validateScore', Scoring.validateScore],
    ['Scoring.toNumeric', Scoring.toNumeric],
    ['Scoring.computeWeightedMean', Scoring.computeWeightedMean],
    ['Grading.createEntry', Grading.createEntry],
    ['Grading.addGrading', Grading.addGrading],
    ['Grading.computeAggregateGrade', Grading.computeAggregateGrade],
    ['Grading.checkAging', Grading.checkAging],
    ['Grading.applyRegradingTrigger', Grading.applyRegradingTrigger],
    ['Grading.readEntry', Grading.readEntry],
    ['Grading.formatGradingFilename', Grading.formatGradingFilename],
    ['Grading.parseGradingFilename', Grading.parseGradingFilename],
    ['validateGradingEntry', validateGradingEntry],
    ['Veto.validateVeto', Veto.validateVeto],
    ['Veto.applyVeto', Veto.applyVeto],
    ['Veto.isVetoed', Veto.isVetoed],
    ['HashGenerator.canonicalize', HashGenerator.canonicalize],
    ['HashGenerator.computeHash', HashGenerator.computeHash],
    ['HashGenerator.computeSchemaHash', HashGenerator.computeSchemaHash],
    ['HashGenerator.computeSelectionHash', HashGenerator.computeSelectionHash],
    ['HashGenerator.hashBytes', HashGenerator.hashBytes],
    ['HashGenerator.isValidHash', (input: never) => ({ ...HashGenerator.isValidHash(input), errors: [] })],
    ['ErrorCodes.get', ErrorCodes.get],
    ['ErrorCodes.format', ErrorCodes.format],
    ['ErrorCodes.list', ErrorCodes.list]
]

const KEYS = [
    'entry',
    'json',
    'score',
    'gradings',
    'grading',
    'value',
    'schema',
    'selection',
    'text',
    'bytes',
    'veto',
    'now',
    'code',
    'issue',
    'filename',
    'area',
    'timestamp',
    'triggeredBy',
    'limits'
]

function nested(depth: number): unknown {
    let v: unknown = { __proto__: 1 }
    for (let i = 0; i < depth; i += 1) v = { a: [v] }
    return v
}

const hostile = fc.constantFrom<unknown>(
    Number.NaN,
    -0,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.POSITIVE_INFINITY,
    1e308,
    2 ** 53 + 1,
    '',
    'x'.repeat(10_000_000),
    '\u0000\u001f\ud800',
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
    { toString: 'constructor' },
    nested(5000),
    new Array(70).fill(0).reduce((acc: unknown) => [acc], 1),
    Object.create(null),
    [undefined],
    new Date(0),
    () => 1,
    Symbol('s'),
    10n
)

const argument = fc.oneof(
    fc.anything(),
    hostile,
    fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(fc.anything(), hostile), { maxKeys: 6 }),
    fc.record({
        entry: fc.constant(example('grading-autonomous')),
        grading: fc.anything(),
        now: fc.oneof(fc.string(), hostile)
    })
)

describe('bad input never crashes the core', () => {
    it.each(ENTRY_POINTS)('%s returns coded issues for any input and never throws', (_name, fn) => {
        fc.assert(
            fc.property(argument, (input) => {
                const result = fn(input as never) as Record<string, unknown>
                expect(result).toBeTypeOf('object')
                expect(Array.isArray(result.errors)).toBe(true)
                for (const issue of result.errors as Array<{ code: string; path: string }>) {
                    expect(ErrorCodes.get({ code: issue.code }).found).toBe(true)
                    expect(issue.path === '' || issue.path.startsWith('/')).toBe(true)
                }
            }),
            { numRuns: 150 }
        )
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(Object.prototype).not.toHaveProperty('polluted')
    })
})
