import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
    evidenceOf,
    namespaceInputsKey,
    runtimeInputsOf,
    schemaInputsKey,
    type SchemaInputs
} from '../../src/grade/inputs-key.js'
import type { PretestResult } from '../../src/pretest/data-pretest.js'
import { grader } from './helpers.js'

const pretest = (patch: Partial<PretestResult> = {}): PretestResult =>
    ({
        ran: true,
        reason: null,
        dryRun: false,
        checkedAt: '2026-11-25T10:00:00Z',
        minWorkingTests: 3,
        results: [
            {
                tool: 'getOne',
                testIndex: 0,
                status: 'passed',
                httpStatus: 200,
                hasData: true,
                working: true,
                responseBytes: 24,
                shape: { id: 'number' },
                outputSchemaMatch: true,
                error: null,
                verdict: 'working',
                requests: [{ method: 'GET', url: 'https://api.x.io/v1/getOne?id=1', status: 200 }]
            }
        ],
        tools: {},
        docs: [],
        blocked: [],
        ok: true,
        findings: [],
        errors: [],
        ...patch
    }) as unknown as PretestResult

const base: SchemaInputs = {
    schemaHash: 'a1b2c3d4',
    schemaText: 'export const main = {}\n',
    pretest: pretest(),
    grader,
    judgeGiven: true,
    runtime: null,
    runtimeTools: 'handlers',
    serverParamNames: []
}

describe('schemaInputsKey: every input of a schema unit is in its key', () => {
    it('is a sha256 that stays the same for the same inputs, and for a pretest run at another time', () => {
        const key = schemaInputsKey(base)
        expect(key).toMatch(/^sha256:[0-9a-f]{64}$/)
        expect(schemaInputsKey({ ...base })).toBe(key)
        expect(schemaInputsKey({ ...base, pretest: pretest({ checkedAt: '2027-01-01T00:00:00Z' }) })).toBe(key)
        // The order the host lists the keys it gave does not matter; only their names count, never the values.
        expect(schemaInputsKey({ ...base, serverParamNames: ['B', 'A'] })).toBe(
            schemaInputsKey({ ...base, serverParamNames: ['A', 'B'] })
        )
    })

    it('changes with the source (a comment), the hash, the evidence, the options, the About, the skills, the judge', () => {
        const key = schemaInputsKey(base)
        const changed: SchemaInputs[] = [
            { ...base, schemaText: '// a comment\nexport const main = {}\n' },
            { ...base, schemaHash: 'ffffffff' },
            { ...base, pretest: pretest({ minWorkingTests: 2 }) },
            {
                ...base,
                pretest: pretest({
                    results: [{ ...(pretest().results[0] as object), shape: [{ id: 'number' }] }] as never
                })
            },
            { ...base, runtime: { version: '2.0.0', isolation: null } },
            { ...base, runtimeTools: 'all' },
            { ...base, serverParamNames: ['ETHERSCAN_API_KEY'] },
            { ...base, grader: { ...grader, llmModel: 'another-model' } },
            { ...base, grader: null },
            { ...base, judgeGiven: false },
            { ...base, answers: { 'single-test/getOne': { answers: [] } } },
            { ...base, about: { name: 'x-about.md', text: '# X' } },
            { ...base, skills: [{ name: 'summarize', text: 'export const skill = {}' }] }
        ]
        const keys = changed.map(schemaInputsKey)
        for (const k of keys) expect(k).not.toBe(key)
        expect(new Set(keys).size).toBe(keys.length)
    })

    it('is null (nothing reused) when the answers cannot be hashed', () => {
        expect(schemaInputsKey({ ...base, answers: { unit: Number.NaN } })).toBeNull()
        expect(schemaInputsKey({ ...base, answers: { unit: () => 1 } })).toBeNull()
    })

    it('property: two pretests give one key exactly when they agree on everything but when they ran', () => {
        fc.assert(
            fc.property(fc.nat(3), fc.nat(3), fc.boolean(), fc.boolean(), (a, b, okA, okB) => {
                const p = pretest({ minWorkingTests: a + 1, ok: okA, checkedAt: '2026-01-01T00:00:00Z' })
                const q = pretest({ minWorkingTests: b + 1, ok: okB, checkedAt: '2026-02-02T00:00:00Z' })
                const same = a === b && okA === okB
                expect(schemaInputsKey({ ...base, pretest: p }) === schemaInputsKey({ ...base, pretest: q })).toBe(same)
            })
        )
    })

    it('evidenceOf leaves out when the pretest ran, and nothing else', () => {
        const evidence = evidenceOf(pretest())
        expect(evidence).not.toHaveProperty('checkedAt')
        expect(Object.keys(evidence).sort()).toEqual(
            [
                'blocked',
                'docs',
                'dryRun',
                'errors',
                'findings',
                'minWorkingTests',
                'ok',
                'ran',
                'reason',
                'results',
                'tools'
            ].sort()
        )
    })
})

describe('namespaceInputsKey: the namespace units rest on every schema of the tree', () => {
    const ns = { ...base, namespace: 'x' }
    const k1 = schemaInputsKey(base)
    const k2 = schemaInputsKey({ ...base, schemaHash: 'ffffffff' })

    it('ignores the order of the schemas; changes when one is added, removed, renamed or changed', () => {
        const key = namespaceInputsKey({
            ...ns,
            members: [
                { schemaFolder: 'a', inputsKey: k1 },
                { schemaFolder: 'b', inputsKey: k2 }
            ]
        })
        expect(key).toMatch(/^sha256:/)
        expect(
            namespaceInputsKey({
                ...ns,
                members: [
                    { schemaFolder: 'b', inputsKey: k2 },
                    { schemaFolder: 'a', inputsKey: k1 }
                ]
            })
        ).toBe(key)
        for (const members of [
            [{ schemaFolder: 'a', inputsKey: k1 }],
            [
                { schemaFolder: 'a', inputsKey: k1 },
                { schemaFolder: 'c', inputsKey: k2 }
            ],
            [
                { schemaFolder: 'a', inputsKey: k2 },
                { schemaFolder: 'b', inputsKey: k2 }
            ]
        ])
            expect(namespaceInputsKey({ ...ns, members })).not.toBe(key)
        expect(namespaceInputsKey({ ...ns, namespace: 'y', members: [{ schemaFolder: 'a', inputsKey: k1 }] })).not.toBe(
            namespaceInputsKey({ ...ns, members: [{ schemaFolder: 'a', inputsKey: k1 }] })
        )
    })

    it('is null when a schema has no key', () => {
        expect(namespaceInputsKey({ ...ns, members: [{ schemaFolder: 'a', inputsKey: null }] })).toBeNull()
    })
})

describe('runtimeInputsOf', () => {
    it("reads a runtime port's version and isolation, and null without a runtime", () => {
        expect(runtimeInputsOf({ version: '1.2.3', isolation: 'process', run: () => null })).toEqual({
            version: '1.2.3',
            isolation: 'process'
        })
        expect(runtimeInputsOf({})).toEqual({ version: null, isolation: null })
        expect(runtimeInputsOf(undefined)).toBeNull()
        expect(runtimeInputsOf('runtime')).toBeNull()
    })
})
