import { describe, expect, it } from 'vitest'
import { Areas, PromptBuilder, Redact, ScoringProtocol } from '../../src/index.js'
import { redactMessage, secretForms } from '../../src/prompts/redact.js'

// Every value here is a secret that must never reach a prompt or prompts.json.
const SERVER_PARAMS = { ETHERSCAN_API_KEY: 'QX7Z2KJ4PLM9R8T6W5V3N1B0C', MORALIS_TOKEN: 'moralis-live-token-77af31' }
const LEAKS = [
    'QX7Z2KJ4PLM9R8T6W5V3N1B0C',
    'moralis-live-token-77af31',
    'hdr-secret-9f8e7d6c5b4a',
    'bearer-token-abcdef123456',
    'sk-ant-api03-abcdefghijklmnopqrstuvwx',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyA1234567890abcdefghijklmnopqrstuv',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'p4ssw0rd-in-url',
    'query-key-0123456789abcdef',
    '5f4dcc3b5aa765d61d8327deb882cf99aa11bb22',
    'xoxb-123456789012-abcdefghijkl',
    'hardcoded-param-value-42'
]
const SECRET_SCHEMA = {
    namespace: 'etherscan',
    name: 'Contracts',
    description: `Contract data. Example: apikey=QX7Z2KJ4PLM9R8T6W5V3N1B0C or token ${'sk-ant-api03-abcdefghijklmnopqrstuvwx'}.`,
    version: '4.2.0',
    root: 'https://user:p4ssw0rd-in-url@api.etherscan.io/api',
    requiredServerParams: ['ETHERSCAN_API_KEY', 'MORALIS_TOKEN'],
    headers: {
        'X-API-Key': 'hdr-secret-9f8e7d6c5b4a',
        Authorization: 'Bearer bearer-token-abcdef123456',
        Accept: 'application/json'
    },
    tools: {
        getAbi: {
            method: 'GET',
            path: '/?module=contract&action=getabi&apikey=QX7Z2KJ4PLM9R8T6W5V3N1B0C&key=query-key-0123456789abcdef',
            description:
                'Returns the ABI. Uses AKIAIOSFODNN7EXAMPLE and AIzaSyA1234567890abcdefghijklmnopqrstuv internally (do not do this).',
            parameters: [
                {
                    position: { key: 'address', value: '{{USER_PARAM}}', location: 'query' },
                    z: { primitive: 'string()', options: [] }
                },
                {
                    position: { key: 'apikey', value: 'hardcoded-param-value-42', location: 'query' },
                    z: { primitive: 'string()', options: [] }
                },
                {
                    position: { key: 'auth', value: '{{SERVER_PARAM:ETHERSCAN_API_KEY}}', location: 'query' },
                    z: { primitive: 'string()', options: [] }
                }
            ],
            tests: [{ _description: 'USDT', address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', token: 'USDT' }],
            meta: {
                note: 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U, gh ghp_abcdefghijklmnopqrstuvwxyz0123456789, md5 5f4dcc3b5aa765d61d8327deb882cf99aa11bb22, slack xoxb-123456789012-abcdefghijkl, moralis moralis-live-token-77af31'
            }
        }
    }
}

function assertNoLeak(text: string): void {
    for (const secret of LEAKS) expect(text, `leaked ${secret.slice(0, 6)}…`).not.toContain(secret)
}

describe('no secrets in prompts (04 ⚠ D9)', () => {
    it('keeps every secret of a schema full of them out of prompts.json v1, but keeps key names and public data', () => {
        const { prompts, redactions, errors } = ScoringProtocol.emitPrompts({
            schemaId: 'etherscan/contracts',
            schemaPath: '/abs/contracts.mjs',
            schema: SECRET_SCHEMA,
            serverParams: SERVER_PARAMS
        })
        const text = ScoringProtocol.serialize({ value: prompts }).text as string
        assertNoLeak(text)
        expect(text).toContain('{{SERVER_PARAM:ETHERSCAN_API_KEY}}')
        expect(text).toContain('0xdAC17F958D2ee523a2206206994597C13D831ec7')
        expect(prompts?.prompts[1]?.prompt).toContain('"token":"USDT"')
        expect(redactions.length).toBeGreaterThan(5)
        expect(errors.map((e) => e.code)).toEqual(['SPV-WARN-001'])
        for (const secret of LEAKS) expect(errors[0]?.message).not.toContain(secret)
    })

    it('keeps them out of area prompts, the entry-point prompt and prompts.json v2', () => {
        const area = PromptBuilder.buildAreaPrompt({
            area: 'single-test',
            files: [
                { path: '/island/etherscan/contracts.mjs', role: `schema (key ${SERVER_PARAMS.ETHERSCAN_API_KEY})` }
            ],
            questions: PromptBuilder.questionsFor({ area: 'single-test' }).questions,
            outputSchema: { description: JSON.stringify(SECRET_SCHEMA.headers) },
            policies: [{ id: 'P-1', summary: `never print ${SERVER_PARAMS.MORALIS_TOKEN}` }],
            serverParams: SERVER_PARAMS
        })
        assertNoLeak(area.prompt as string)
        expect(area.prompt).toContain('[redacted:ETHERSCAN_API_KEY]')
        expect(area.errors.map((e) => e.code)).toEqual(['PB-WARN-001'])

        const entry = PromptBuilder.buildEntryPointPrompt({
            kind: 'single',
            persona: 'schema-maintainer',
            schemaId: 'etherscan.contracts',
            gradingMode: 'full',
            modeNote: `key ${SERVER_PARAMS.ETHERSCAN_API_KEY}`,
            areas: ['single-test'],
            serverParams: SERVER_PARAMS
        })
        assertNoLeak(entry.prompt as string)

        const emitted = PromptBuilder.emitAreaPrompts({
            target: 'etherscan',
            flow: 'provider',
            areas: ['single-test', 'tools-aggregate-schema'],
            counts: { tools: 1, schemas: 1 },
            now: '2026-05-31T11:00:00Z',
            files: { schemaPath: `/island/etherscan/contracts.mjs?apikey=${SERVER_PARAMS.ETHERSCAN_API_KEY}` },
            emitSkill: `Run with ETHERSCAN_API_KEY=${SERVER_PARAMS.ETHERSCAN_API_KEY}`,
            pretests: [
                {
                    schemaName: 'contracts',
                    ok: false,
                    passedDownloadable: 0,
                    required: 3,
                    summaryPath: '/island/etherscan/contracts/summary.json',
                    errors: [
                        'DPT-004: Test failed: https://api.etherscan.io/api?apikey=QX7Z2KJ4PLM9R8T6W5V3N1B0C (HTTP 403)'
                    ]
                }
            ],
            serverParams: SERVER_PARAMS
        })
        expect(emitted.errors.filter((e) => e.severity === 'error')).toEqual([])
        assertNoLeak(JSON.stringify(emitted.prompts))
        assertNoLeak(JSON.stringify(emitted.state))
    })

    it('refuses request data in pretests outright (05 §1.6 F26)', () => {
        const emitted = PromptBuilder.emitAreaPrompts({
            target: 'etherscan',
            flow: 'provider',
            areas: ['tools-aggregate-schema'],
            counts: { schemas: 1 },
            now: '2026-05-31T11:00:00Z',
            pretests: [{ schemaName: 'c', ok: true, request: { url: 'x' }, nested: [{ _allParams: {} }] }]
        })
        expect(emitted.prompts).toBeNull()
        expect(emitted.errors.map((e) => [e.code, e.path])).toEqual([
            ['PB-018', '/pretests/0/request'],
            ['PB-018', '/pretests/0/nested/0/_allParams']
        ])
    })
})

describe('Redact', () => {
    it.each([
        ['https://x.io/v1?apikey=abc123def456&q=1', 'https://x.io/v1?apikey=[redacted]&q=1'],
        ['https://x.io/v1?api_key={{API_KEY}}', 'https://x.io/v1?api_key={{API_KEY}}'],
        ['https://x.io/v1?token=ETH', 'https://x.io/v1?token=ETH'],
        ['https://x.io/v1?token=a1b2c3d4e5f6g7h8i9', 'https://x.io/v1?token=[redacted]'],
        ['Authorization: Bearer abcdefgh12345678', 'Authorization: Bearer [redacted]'],
        ['Authorization: Bearer {{TOKEN}}', 'Authorization: Bearer {{TOKEN}}'],
        ['postgres://admin:hunter22@db.local/x', 'postgres://admin:[redacted]@db.local/x'],
        [
            'hash sha256:5f4dcc3b5aa765d61d8327deb882cf99aa11bb225f4dcc3b5aa765d61d832',
            'hash sha256:5f4dcc3b5aa765d61d8327deb882cf99aa11bb225f4dcc3b5aa765d61d832'
        ],
        ['address 0x5f4dcc3b5aa765d61d8327deb882cf99aa11bb22', 'address 0x5f4dcc3b5aa765d61d8327deb882cf99aa11bb22'],
        ['password = s3cretpassword1', 'password = [redacted]'],
        ['{"X-API-Key": "abc-123", "Accept": "json"}', '{"X-API-Key": "[redacted]", "Accept": "json"}'],
        ['{\\"apiKey\\":\\"abc-123\\"}', '{\\"apiKey\\":\\"[redacted]\\"}'],
        ['{"token": "USDT"}', '{"token": "USDT"}'],
        ['the token: symbol of the coin', 'the token: symbol of the coin'],
        ['-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', '[redacted]']
    ])('redacts %j as %j', (text, expected) => {
        expect(Redact.text({ text }).text).toBe(expected)
    })

    it('replaces server-parameter values (also URL-encoded) with their key name only', () => {
        const { text, redactions } = Redact.text({ text: 'k=a b&c+d / a%20b%26c%2Bd', serverParams: { K: 'a b&c+d' } })
        expect(text).toBe('k=[redacted:K] / [redacted:K]')
        expect(redactions).toEqual([
            { path: '', kind: 'server-param', key: 'K' },
            { path: '', kind: 'server-param', key: 'K' }
        ])
    })

    it('ignores server-parameter values too short to be credentials', () => {
        expect(Redact.text({ text: 'a 1 b', serverParams: { N: '1' } }).text).toBe('a 1 b')
    })

    it('redacts secret-named fields and header credentials in a value, keeping placeholders', () => {
        const { value, redactions } = Redact.value({
            value: {
                headers: { 'X-API-Key': 'abc', token: 'abc12345', Accept: 'json' },
                client_secret: '{{SECRET}}',
                password: 'pw',
                list: [{ key: 'api_key', value: 'v' }]
            }
        })
        expect(value).toEqual({
            headers: { 'X-API-Key': '[redacted]', token: '[redacted]', Accept: 'json' },
            client_secret: '{{SECRET}}',
            password: '[redacted]',
            list: [{ key: 'api_key', value: '[redacted]' }]
        })
        expect(redactions.map((r) => r.path)).toEqual([
            '/headers/X-API-Key',
            '/headers/token',
            '/password',
            '/list/0/value'
        ])
    })

    it('scans without changing the text, for a writer that aborts on a hit', () => {
        expect(Redact.scan({ text: 'clean text' })).toEqual({ clean: true, hits: [], errors: [] })
        expect(Redact.scan({ text: 'AKIAIOSFODNN7EXAMPLE' }).clean).toBe(false)
    })

    it.each([
        [() => Redact.text({}), 'PB-001', '/text'],
        [() => Redact.text({ text: 1 }), 'PB-002', '/text'],
        [() => Redact.text({ text: 'x', serverParams: [] }), 'PB-002', '/serverParams'],
        [() => Redact.text({ text: 'x', serverParams: { K: 5 } }), 'PB-002', '/serverParams/K'],
        [() => Redact.value({}), 'PB-001', '/value'],
        [() => Redact.value({ value: { a: Number.NaN } }), 'INP-001', '/value/a']
    ])('rejects bad input (%#) with %s', (call, code, path) => {
        expect(call().errors).toEqual([expect.objectContaining({ code, path })])
    })

    it('is reused by the area catalogue prompts without touching the output schema', () => {
        const schema = Areas.outputSchema({ area: 'single-test', selfContained: true }).schema
        expect(Redact.value({ value: schema }).redactions).toEqual([])
    })
})

describe('redactMessage: what the library and the CLI write', () => {
    it.each([
        ['sk-ant-api03-AAAAbbbbCCCCdddd1234 was refused', 'sk-ant-api03'],
        ['Authorization: Bearer abcdefghijklmnop1234', 'abcdefghijklmnop1234'],
        ['authorization: rawtoken-abcdef-123456', 'rawtoken-abcdef-123456'],
        ['GET https://api.example/v1?apikey=abc123def456ghi&x=1', 'abc123def456ghi'],
        ['key AKIAABCDEFGHIJKLMNOP leaked', 'AKIAABCDEFGHIJKLMNOP'],
        ['{"apiKey": "k3y-value-999999"}', 'k3y-value-999999'],
        ['the own value own-secret-value appears', 'own-secret-value']
    ])('redacts %j', (text, secret) => {
        const out = redactMessage(text, secretForms({ OWN: 'own-secret-value' }))
        expect(out).not.toContain(secret)
        expect(out).toContain('[redacted]')
    })

    it('leaves content hashes and ordinary text as they are', () => {
        const text =
            'schemaHash 9f2c1a7e0b3d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6 of weather.forecast: token symbol ETH'
        expect(redactMessage(text)).toBe(text)
    })
})
