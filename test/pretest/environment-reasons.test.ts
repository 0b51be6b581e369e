import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CONTENT_BLOCKED_REASONS, ENVIRONMENT_CAUSES } from '../../src/catalogue.js'
import {
    BLOCKED_REASONS,
    DataPretest,
    ENVIRONMENT_BLOCKED_REASONS,
    httpPortFromRecordings,
    isEnvironmentReason,
    type RuntimePort,
    type RuntimeTestOutcome
} from '../../src/index.js'

// Not tested here is one class: every blocked reason is either the environment's (another machine,
// with the key, the recordings, the runtime, the lists or the library, tests the tool) or the
// schema's content (blocked anywhere).
const now = '2026-12-01T10:00:00Z'

/** A handler schema of one tool (three tests) that declares shared lists and a library. */
function handlerSchema(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
        namespace: 'listed',
        name: 'Listed',
        description: 'A handler schema that reads a shared list.',
        version: '4.0.0',
        docs: ['https://docs.listed.io'],
        tags: ['test'],
        root: 'https://api.listed.io',
        requiredServerParams: [],
        ...extra,
        tools: {
            getChain: {
                method: 'GET',
                path: '/chain',
                description: 'One chain of the shared list, by alias.',
                parameters: [
                    {
                        position: { key: 'alias', value: '{{USER_PARAM}}', location: 'query' },
                        z: { primitive: 'string()', options: [] }
                    }
                ],
                tests: [
                    { _description: 'mainnet', alias: 'ETHEREUM_MAINNET' },
                    { _description: 'polygon', alias: 'POLYGON_MAINNET' },
                    { _description: 'base', alias: 'BASE_MAINNET' }
                ]
            }
        }
    }
}

/** A runtime port whose every test fails with `messages` (or works, `ok`), saying whether it was given lists. */
function runtime(outcome: RuntimeTestOutcome, hasLists?: boolean): RuntimePort {
    return { ...(hasLists !== undefined ? { hasLists } : {}), run: async () => outcome }
}

const TYPE_ERROR: RuntimeTestOutcome = {
    ok: false,
    httpStatus: null,
    messages: ["TypeError: Cannot read properties of undefined (reading 'filter')"]
}

const run = (main: Record<string, unknown>, port: RuntimePort) =>
    DataPretest.run({
        main,
        http: httpPortFromRecordings({ recordings: [] }),
        runtime: port,
        hasHandlers: true,
        schemaPath: '/schemas/listed.mjs',
        now,
        checkDocs: false
    })

describe('the two classes of blocked reasons', () => {
    it('every blocked reason is in exactly one class; the environment list is the one check, the fix lists and SARIF read', () => {
        const all = Object.values(BLOCKED_REASONS)
        for (const reason of all)
            expect(
                Number(ENVIRONMENT_BLOCKED_REASONS.includes(reason)) + Number(CONTENT_BLOCKED_REASONS.includes(reason))
            ).toBe(1)
        expect([...ENVIRONMENT_BLOCKED_REASONS].sort()).toEqual(
            [
                'handlers-need-runtime',
                'key-gated-missing-server-param',
                'library-not-installed',
                'missing-recording',
                'network-not-granted',
                'shared-lists-not-given',
                'untested'
            ].sort()
        )
        expect(ENVIRONMENT_CAUSES).toBe(ENVIRONMENT_BLOCKED_REASONS)
        expect(Object.isFrozen(ENVIRONMENT_BLOCKED_REASONS)).toBe(true)
    })

    it('isEnvironmentReason: true for the environment list only; a working-count reason, an unknown string or a non-string is content', () => {
        expect(isEnvironmentReason('missing-recording')).toBe(true)
        expect(isEnvironmentReason('unbuildable-tests')).toBe(false)
        expect(isEnvironmentReason('fewer-than-3-working-tests')).toBe(false)
        fc.assert(
            fc.property(fc.anything(), (value) => {
                expect(isEnvironmentReason(value)).toBe(
                    typeof value === 'string' && (ENVIRONMENT_BLOCKED_REASONS as readonly string[]).includes(value)
                )
            })
        )
    })
})

describe('shared lists not given: a named reason with a hint at --runtime-lists, not a raw TypeError', () => {
    const declared = { sharedLists: [{ ref: 'evmChains', version: '3.1.0' }] }

    it('a handler failing in a schema that declares sharedLists, run by a runtime given none: shared-lists-not-given', async () => {
        const result = await run(handlerSchema(declared), runtime(TYPE_ERROR, false))
        expect(result.results.map((r) => r.verdict)).toEqual([
            'shared-lists-not-given',
            'shared-lists-not-given',
            'shared-lists-not-given'
        ])
        expect(result.results[0]?.error).toMatch(
            /^DPT-020: the runtime reported a failure: TypeError: Cannot read properties of undefined \(reading 'filter'\); the schema declares the shared lists evmChains and the runtime was given none \(--runtime-lists\)$/
        )
        expect(result.blocked).toEqual([
            {
                tool: 'getChain',
                reason: 'shared-lists-not-given',
                detail: expect.stringMatching(
                    /^not tested here: the schema declares shared lists, the runtime has none; pass --runtime-lists <folder> \(listsDir\) \(0 of its tests returned data, 3 needed; test 0: the runtime reported a failure: TypeError/
                )
            }
        ])
        expect(isEnvironmentReason(result.blocked[0]?.reason)).toBe(true)
    })

    it('the same failure is the schema’s own where the runtime has the lists, says nothing of them, or the schema declares none', async () => {
        for (const [main, port] of [
            [handlerSchema(declared), runtime(TYPE_ERROR, true)],
            [handlerSchema(declared), runtime(TYPE_ERROR)],
            [handlerSchema(), runtime(TYPE_ERROR, false)]
        ] as const) {
            const result = await run(main, port)
            expect(result.results.map((r) => r.verdict)).toEqual(['handler-error', 'handler-error', 'handler-error'])
            expect(result.blocked.map((b) => b.reason)).toEqual(['fewer-than-3-working-tests'])
        }
    })
})

describe('a library not installed where the runtime runs', () => {
    it('the runtime’s "Library … not resolvable" is library-not-installed, an environment reason with what to install', async () => {
        const failed: RuntimeTestOutcome = {
            ok: false,
            httpStatus: null,
            messages: [
                'the runtime did not load the schema: Library "talib" not resolvable from any base — Cannot find module \'talib\''
            ]
        }
        const result = await run(handlerSchema({ requiredLibraries: ['talib'] }), runtime(failed, true))
        expect(result.results.every((r) => r.verdict === 'library-not-installed')).toBe(true)
        expect(result.blocked).toEqual([
            {
                tool: 'getChain',
                reason: 'library-not-installed',
                detail: expect.stringMatching(
                    /^not tested here: a library the schema requires is not installed here; install it in the --runtime-libraries folder \(0 of its tests returned data, 3 needed; test 0: .*Library "talib" not resolvable/
                )
            }
        ])
    })

    it('a library the runtime refuses (not on its allowlist, SEC020) stays the schema’s own', async () => {
        const refused: RuntimeTestOutcome = {
            ok: false,
            httpStatus: null,
            messages: ['the runtime did not load the schema: SEC020: Library "echarts" is not on the allowlist']
        }
        const result = await run(handlerSchema({ requiredLibraries: ['echarts'] }), runtime(refused, true))
        expect(result.blocked.map((b) => b.reason)).toEqual(['fewer-than-3-working-tests'])
    })
})

describe('a missing recording decides only when it is why the tool is below its bar', () => {
    /** A runtime whose test `i` works unless `missing[i]`, which lacks its recording, or `broken[i]`, an HTTP 500. */
    function mixed(missing: readonly boolean[], broken: readonly boolean[]): RuntimePort {
        return {
            run: async (request) => {
                const i = request.testIndex
                if (missing[i] === true)
                    return {
                        ok: false,
                        httpStatus: 404,
                        messages: ['HTTP 404'],
                        requests: [
                            { method: 'GET', url: 'https://api.listed.io/chain', status: 404, missingRecording: true }
                        ]
                    }
                if (broken[i] === true) return { ok: false, httpStatus: 500, messages: ['HTTP 500'] }
                return { ok: true, httpStatus: 200, data: { chain: i } }
            }
        }
    }

    it('property: missing-recording exactly when the working tests and the unrecorded ones reach the bar and some are unrecorded', async () => {
        await fc.assert(
            fc.asyncProperty(
                fc.array(fc.constantFrom('works', 'missing', 'broken'), { minLength: 3, maxLength: 3 }),
                async (kinds) => {
                    const result = await run(
                        handlerSchema(),
                        mixed(
                            kinds.map((k) => k === 'missing'),
                            kinds.map((k) => k === 'broken')
                        )
                    )
                    const working = kinds.filter((k) => k === 'works').length
                    const missing = kinds.filter((k) => k === 'missing').length
                    const expected =
                        working >= 3
                            ? []
                            : missing > 0 && working + missing >= 3
                              ? ['missing-recording']
                              : ['fewer-than-3-working-tests']
                    expect(result.blocked.map((b) => b.reason)).toEqual(expected)
                }
            )
        )
    })
})
