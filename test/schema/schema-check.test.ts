import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrorCodes, SchemaCheck } from '../../src/index.js'
import { validateInspectedMain } from '../../src/schema/validate-main.js'
import { schemaFixture } from './helpers.js'

type Main = Record<string, any>
const base = (): Main => schemaFixture('nominatim-geocoding')
const realForms = (): Main => schemaFixture('real-forms')
const codesAt = (main: unknown): Array<[string, string]> =>
    SchemaCheck.validateMain({ main }).errors.map((e) => [e.code, e.path])

describe('SchemaCheck.validateMain (05 §2.3, 03 §13.1)', () => {
    it.each(['etherscan-contracts', 'nominatim-geocoding', 'coingecko-simple', 'facebook-key-mismatch'] as const)(
        'accepts the %s fixture',
        (name) => {
            expect(SchemaCheck.validateMain({ main: schemaFixture(name) }).valid).toBe(true)
        }
    )

    it('accepts both version forms 4.x.y and flowmcp/4.x.y (03 ⚠ C23)', () => {
        for (const version of ['4.0.0', '4.12.3', 'flowmcp/4.2.0'])
            expect(SchemaCheck.validateMain({ main: { ...base(), version } }).valid).toBe(true)
        expect(codesAt({ ...base(), version: '3.1.0' })).toContainEqual(['SCH-008', '/version'])
    })

    const cases: Array<[string, (m: Main) => void, string, string]> = [
        ['skills in main (VAL016)', (m) => (m.skills = {}), 'SCH-002', '/skills'],
        ['an unknown main key such as routes (VAL003)', (m) => (m.routes = {}), 'SCH-003', '/routes'],
        ['a missing name', (m) => delete m.name, 'SCH-004', '/name'],
        ['a description that is not a string', (m) => (m.description = 7), 'SCH-005', '/description'],
        ['neither tools nor resources', (m) => (delete m.tools, delete m.resources), 'SCH-006', '/tools'],
        ['a namespace with capitals (VAL011)', (m) => (m.namespace = 'Nominatim'), 'SCH-007', '/namespace'],
        ['an http root', (m) => (m.root = 'http://nominatim.openstreetmap.org'), 'SCH-010', '/root'],
        ['a root with a trailing slash', (m) => (m.root = 'https://nominatim.openstreetmap.org/'), 'SCH-010', '/root'],
        ['a missing root when tools exist', (m) => delete m.root, 'SCH-004', '/root'],
        [
            'more than 8 tools',
            (m) => Array.from({ length: 7 }, (_, i) => (m.tools[`extra${i}`] = m.tools.search)),
            'SCH-011',
            '/tools'
        ],
        ['an unknown tool key (VAL076)', (m) => (m.tools.search.examples = []), 'SCH-013', '/tools/search/examples'],
        [
            'a method outside GET/POST/PUT/DELETE',
            (m) => (m.tools.search.method = 'PATCH'),
            'SCH-014',
            '/tools/search/method'
        ],
        [
            'an unknown parameter key (VAL077)',
            (m) => (m.tools.search.parameters[0].required = true),
            'SCH-015',
            '/tools/search/parameters/0/required'
        ],
        [
            'a parameter location outside insert/query/body',
            (m) => (m.tools.search.parameters[0].position.location = 'header'),
            'SCH-016',
            '/tools/search/parameters/0/position/location'
        ],
        [
            'a z.enum entry that is no list reference (VAL107)',
            (m) => (m.tools.search.parameters[0].z.enum = ['a']),
            'SCH-017',
            '/tools/search/parameters/0/z/enum/0'
        ],
        [
            'an output mimeType outside the three allowed',
            (m) => (m.tools.search.output.mimeType = 'text/html'),
            'SCH-018',
            '/tools/search/output/mimeType'
        ],
        [
            'a JSON output whose schema is a string',
            (m) => (m.tools.search.output.schema = { type: 'string' }),
            'SCH-019',
            '/tools/search/output/schema/type'
        ],
        [
            'a png output without base64',
            (m) => (m.tools.search.output = { mimeType: 'image/png', schema: { type: 'string' } }),
            'SCH-019',
            '/tools/search/output/schema/format'
        ],
        [
            'items on an object schema',
            (m) => (m.tools.reverse.output.schema.items = {}),
            'SCH-020',
            '/tools/reverse/output/schema/items'
        ],
        [
            'a preload without ttl',
            (m) => (m.tools.search.preload = { enabled: true }),
            'SCH-021',
            '/tools/search/preload/ttl'
        ],
        [
            'a tool meta flag that is not boolean (VAL100)',
            (m) => (m.tools.search.meta = { isReadOnly: 'yes' }),
            'SCH-022',
            '/tools/search/meta/isReadOnly'
        ],
        [
            'a shared list without version',
            (m) => (m.sharedLists = [{ ref: 'countries' }]),
            'SCH-028',
            '/sharedLists/0/version'
        ],
        [
            'three resources',
            (m) => Object.assign(m.resources, { b: m.resources.about, c: m.resources.about }),
            'SCH-029',
            '/resources'
        ],
        [
            'a missing root without tools (runtime: root is a required string)',
            (m) => (delete m.root, delete m.tools),
            'SCH-004',
            '/root'
        ],
        ['tags that are not an array', (m) => (m.tags = 'geo'), 'SCH-005', '/tags']
    ]

    it.each(cases)('rejects %s (runtime rule, 05 §2.3)', (_name, mutate, code, path) => {
        const main = base()
        mutate(main)
        const result = SchemaCheck.validateMain({ main })
        expect(result.valid).toBe(false)
        expect(result.errors.map((e) => [e.code, e.path])).toContainEqual([code, path])
    })

    const warnings: Array<[string, (m: Main) => void, string, string]> = [
        ['missing docs (VAL027)', (m) => delete m.docs, 'SCH-WARN-001', '/docs'],
        [
            'a ToS that is neither https nor no-tos-found (VAL028)',
            (m) => (m.termsOfService = 'see website'),
            'SCH-WARN-002',
            '/termsOfService'
        ],
        ['fewer than 3 tests (TST001)', (m) => m.tools.search.tests.pop(), 'SCH-WARN-003', '/tools/search/tests'],
        ['an empty root', (m) => (m.root = ''), 'SCH-WARN-004', '/root'],
        [
            'a tool name that is not camelCase',
            (m) => ((m.tools.get_place = m.tools.search), delete m.tools.search),
            'SCH-WARN-005',
            '/tools/get_place'
        ],
        [
            'a library off the allowlist (SEC020)',
            (m) => (m.requiredLibraries = ['left-pad']),
            'SCH-WARN-006',
            '/requiredLibraries/0'
        ],
        ['a legacy schemaHash', (m) => (m.schemaHash = 'abc'), 'SCH-WARN-007', '/schemaHash'],
        [
            'a ToS check date that is not YYYY-MM-DD',
            (m) => (m.termsOfServiceCheckedAt = 'May 2026'),
            'SCH-WARN-008',
            '/termsOfServiceCheckedAt'
        ],
        [
            'a duplicate test (DPT-008)',
            (m) => m.tools.search.tests.push({ _description: 'again', q: 'Berlin' }),
            'SCH-WARN-009',
            '/tools/search/tests/3'
        ],
        [
            'a server param listed twice',
            (m) => (m.requiredServerParams = ['A_KEY', 'A_KEY']),
            'SCH-WARN-010',
            '/requiredServerParams/1'
        ]
    ]

    // Spec-strict rules (03 §13.1) the FlowMCP runtime accepts: warnings that lower Q-schema-structure, never errors.
    const specStrict: Array<[string, (m: Main) => void, string, string]> = [
        ['a name that is not PascalCase', (m) => (m.name = 'geo coding'), 'SCH-WARN-011', '/name'],
        ['a tag that is not kebab-case', (m) => (m.tags = ['Geo Coding']), 'SCH-WARN-012', '/tags/0'],
        [
            'a root with a query string',
            (m) => (m.root = 'https://nominatim.openstreetmap.org?x=1'),
            'SCH-WARN-013',
            '/root'
        ],
        [
            'a SERVER_PARAM key missing from requiredServerParams',
            (m) =>
                m.tools.search.parameters.push({
                    position: { key: 'key', value: '{{SERVER_PARAM:NOMINATIM_KEY}}', location: 'query' },
                    z: { primitive: 'string()', options: [] }
                }),
            'SCH-WARN-014',
            '/tools/search/parameters/3/position/value'
        ],
        [
            'a {{KEY}} value missing from requiredServerParams',
            (m) =>
                m.tools.search.parameters.push({
                    position: { key: 'key', value: '{{NOMINATIM_KEY}}', location: 'query' },
                    z: { primitive: 'string()', options: [] }
                }),
            'SCH-WARN-014',
            '/tools/search/parameters/3/position/value'
        ],
        [
            'a SERVER_PARAM header missing from requiredServerParams',
            (m) => (m.headers = { 'x-key': '{{SERVER_PARAM:NOMINATIM_KEY}}' }),
            'SCH-WARN-014',
            '/headers/x-key'
        ],
        [
            'a path placeholder without an insert parameter',
            (m) => (m.tools.lookupPlace.path = '/details/{{osmType}}/{{osmId}}/{{format}}'),
            'SCH-WARN-015',
            '/tools/lookupPlace/path'
        ],
        [
            'a :name path segment without an insert parameter',
            (m) => (m.tools.lookupPlace.path = '/details/{{osmType}}/{{osmId}}/:format'),
            'SCH-WARN-015',
            '/tools/lookupPlace/path'
        ],
        [
            'an insert parameter without a path placeholder',
            (m) => (m.tools.lookupPlace.path = '/details/{{osmType}}'),
            'SCH-WARN-016',
            '/tools/lookupPlace/parameters/1'
        ],
        [
            'a test that sets an undeclared key',
            (m) => (m.tools.search.tests[0].country = 'de'),
            'SCH-WARN-017',
            '/tools/search/tests/0/country'
        ],
        [
            'a parameter key declared twice',
            (m) => m.tools.search.parameters.push(m.tools.search.parameters[1]),
            'SCH-WARN-018',
            '/tools/search/parameters/3/position/key'
        ],
        [
            'a requiredServerParams entry that is no env var name',
            (m) => (m.requiredServerParams = ['my key']),
            'SCH-WARN-019',
            '/requiredServerParams/0'
        ],
        ['a tag that is not a string', (m) => (m.tags = [7]), 'SCH-WARN-020', '/tags/0'],
        ['headers that are not an object', (m) => (m.headers = 'x'), 'SCH-WARN-020', '/headers']
    ]

    it.each(specStrict)('warns (spec-strict, runtime accepts) about %s', (_name, mutate, code, path) => {
        const main = base()
        mutate(main)
        const result = SchemaCheck.validateMain({ main })
        expect(result.valid).toBe(true)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path, severity: 'warning' }))
    })

    it('notes (info, not a warning) a cacheTtl… tag of the registry convention, and still scores it as the spec-strict SCH-WARN-012', async () => {
        const main = base()
        main.tags = ['cacheTtlDaily', 'Geo Coding']
        const result = SchemaCheck.validateMain({ main })
        expect(result.valid).toBe(true)
        expect(result.errors.filter((e) => e.code === 'SCH-WARN-012').map((e) => [e.path, e.severity])).toEqual([
            ['/tags/0', 'info'],
            ['/tags/1', 'warning']
        ])
        const { structureScore } = await import('../../src/deterministic/answers.js')
        expect(
            structureScore({ ...result, errors: result.errors.filter((e) => e.path === '/tags/0') }).strictCodes
        ).toEqual(['SCH-WARN-012'])
    })

    it('accepts the real forms the runtime runs: :id and {{id}} paths, {{KEY}} values and headers, names with spaces, camelCase tags', () => {
        const result = SchemaCheck.validateMain({ main: realForms() })
        expect(result.valid).toBe(true)
        // Its user parameters carry no description (SCH-WARN-022), as most of the corpus's do.
        expect(result.errors.filter((e) => e.code === 'SCH-WARN-022').map((e) => e.path)).toEqual([
            '/tools/getMember/parameters/0',
            '/tools/getMember/parameters/1',
            '/tools/getVote/parameters/0',
            '/tools/searchMembers/parameters/0',
            '/tools/searchMembers/parameters/1',
            '/tools/searchSpeeches/parameters/0',
            '/tools/searchSpeeches/parameters/1'
        ])
        expect(result.errors.filter((e) => e.code !== 'SCH-WARN-022').map((e) => [e.code, e.path])).toEqual([
            ['SCH-WARN-011', '/name'],
            ['SCH-WARN-012', '/tags/1'],
            ['SCH-WARN-014', '/tools/listSpeeches/parameters/0/position/value'],
            ['SCH-WARN-017', '/tools/listSpeeches/tests/0/PAGE_SIZE'],
            ['SCH-WARN-017', '/tools/listSpeeches/tests/1/PAGE_SIZE'],
            ['SCH-WARN-017', '/tools/listSpeeches/tests/2/PAGE_SIZE'],
            // years: [2023, 2024] for array(): the runtime's input schema is an array of strings.
            ['SCH-WARN-021', '/tools/searchSpeeches/tests/1/years']
        ])
        expect(result.errors.find((e) => e.code === 'SCH-WARN-017')?.message).toContain(
            'names the value template {{PAGE_SIZE}} of parameter size'
        )
    })

    it.each([
        ['a --label-- placeholder host', 'https://--node-subdomain--.rpcnode.io'],
        ['an elided host', 'https://...'],
        ['localhost', 'https://localhost'],
        ['a .local resolver', 'https://chain-rpc-resolver.local'],
        ['a reserved example domain', 'https://api.example.com']
    ])(
        'accepts a root the handlers resolve: %s (runtime checks only https:// and no trailing slash)',
        (_name, root) => {
            const result = SchemaCheck.validateMain({ main: { ...base(), root } })
            expect(result.valid).toBe(true)
            expect(result.errors.filter((e) => e.path === '/root')).toEqual([])
        }
    )

    it('stops after a broken skeleton like the runtime validator (an unknown key hides the root check)', () => {
        expect(codesAt({ ...base(), routes: {}, root: 'http://x.org/' })).toEqual([['SCH-003', '/routes']])
    })

    it.each(warnings)('warns about %s without making main invalid', (_name, mutate, code, path) => {
        const main = base()
        mutate(main)
        const result = SchemaCheck.validateMain({ main })
        expect(result.valid).toBe(true)
        expect(result.errors).toContainEqual(expect.objectContaining({ code, path, severity: 'warning' }))
    })

    it('reports the broken fixture precisely', () => {
        expect(codesAt(schemaFixture('broken-structure'))).toEqual([['SCH-003', '/routes']])
        const { routes: _routes, ...rest } = schemaFixture('broken-structure')
        expect(codesAt({ ...rest, root: 'https://api.broken.example' }).map(([c]) => c)).toEqual(
            expect.arrayContaining([
                'SCH-007',
                'SCH-008',
                'SCH-WARN-011',
                'SCH-013',
                'SCH-014',
                'SCH-015',
                'SCH-016',
                'SCH-018',
                'SCH-WARN-014',
                'SCH-WARN-015',
                'SCH-WARN-017',
                'SCH-WARN-005'
            ])
        )
    })

    it.each([
        ['no main', undefined, 'SCH-001', '/main'],
        ['an array', [], 'SCH-001', '/main'],
        ['a main with a function', { namespace: 'a', f: () => 1 }, 'INP-001', '/main/f']
    ])('rejects %s', (_name, main, code, path) => {
        expect(SchemaCheck.validateMain({ main })).toEqual({
            valid: false,
            errors: [expect.objectContaining({ code, path })]
        })
    })

    it('never throws and codes every issue for any input (fuzz)', () => {
        const mutated = fc.record({
            key: fc.constantFrom(
                'namespace',
                'tools',
                'root',
                'docs',
                'headers',
                'requiredServerParams',
                'resources',
                'sharedLists',
                'version',
                'tags'
            ),
            value: fc.anything()
        })
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.anything(),
                    mutated.map(({ key, value }) => ({ main: { ...base(), [key]: value } }))
                ),
                (input) => {
                    const result = SchemaCheck.validateMain(input as never)
                    expect(typeof result.valid).toBe('boolean')
                    for (const e of result.errors) expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
                }
            )
        )
    })
})

describe('SchemaCheck id helpers (01-model ⚠ A14)', () => {
    it.each([
        ['4.0.0', 'flowmcp/4.0.0'],
        ['flowmcp/4.2.1', 'flowmcp/4.2.1'],
        [' 4.10.0 ', 'flowmcp/4.10.0']
    ])('normalises version %j to %s', (version, expected) => {
        expect(SchemaCheck.normalizeVersion({ version })).toEqual({ version: expected, errors: [] })
    })

    it.each([['3.0.0'], ['flowmcp/5.0.0'], ['4.0'], ['v4.0.0']])('refuses version %j', (version) => {
        expect(SchemaCheck.normalizeVersion({ version }).errors[0]?.code).toBe('SCH-008')
    })

    it.each([
        ['prices.mjs', 'defillama.prices'],
        ['providers/defillama/prices.mjs', 'defillama.prices'],
        ['wallet-history', 'defillama.wallet-history']
    ])('derives the schemaId from file base %s', (fileBase, schemaId) => {
        expect(SchemaCheck.schemaIdOf({ main: { namespace: 'defillama' }, fileBase })).toEqual({ schemaId, errors: [] })
    })

    it('refuses a schemaId without a valid namespace or slug', () => {
        expect(SchemaCheck.schemaIdOf({ main: { namespace: 'Bad NS' }, fileBase: 'x.mjs' }).errors[0]?.code).toBe(
            'SCH-007'
        )
        expect(SchemaCheck.schemaIdOf({ main: {}, fileBase: 'x.mjs' }).errors[0]?.code).toBe('SCH-004')
        expect(SchemaCheck.schemaIdOf({ main: { namespace: 'ok' }, fileBase: 'a.b.mjs' }).errors[0]?.code).toBe(
            'SCH-031'
        )
    })

    it.each([
        ['defillama.prices', { style: 'dot', namespace: 'defillama', schema: 'prices', primitive: null, name: null }],
        ['defillama/prices', { style: 'slash', namespace: 'defillama', schema: 'prices', primitive: null, name: null }],
        [
            'etherscan/tool/getBalance',
            { style: 'primitive', namespace: 'etherscan', schema: null, primitive: 'tool', name: 'getBalance' }
        ]
    ])('parses %s', (id, parsed) => {
        expect(SchemaCheck.parseId({ id })).toEqual({ id: parsed, errors: [] })
    })

    it.each([['a.b.c'], ['a/b/c/d'], ['ns/widget/x'], [''], ['a b.c']])('refuses id %j', (id) => {
        expect(SchemaCheck.parseId({ id }).errors[0]?.code).toBe('SCH-031')
    })

    it('converts between the dot and slash styles and back (property)', () => {
        const seg = fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/)
        fc.assert(
            fc.property(seg, seg, (ns, schema) => {
                const slash = SchemaCheck.convertId({ id: `${ns}.${schema}`, to: 'slash' }).id
                expect(slash).toBe(`${ns}/${schema}`)
                expect(SchemaCheck.convertId({ id: slash, to: 'dot' }).id).toBe(`${ns}.${schema}`)
            })
        )
    })

    it('refuses to turn a primitive id into a schema id', () => {
        expect(SchemaCheck.convertId({ id: 'etherscan/tool/getBalance', to: 'dot' }).errors[0]?.code).toBe('SCH-031')
        expect(SchemaCheck.convertId({ id: 'a.b', to: 'colon' }).errors[0]?.code).toBe('SCH-005')
    })

    it('builds a tool id', () => {
        expect(SchemaCheck.toolIdOf({ namespace: 'etherscan', tool: 'getBalance' })).toEqual({
            id: 'etherscan/tool/getBalance',
            errors: []
        })
        expect(SchemaCheck.toolIdOf({ namespace: 'etherscan', tool: 'a/b' }).errors[0]?.code).toBe('SCH-031')
    })

    it.each([
        ['SchemaCheck.normalizeVersion', (i: never) => SchemaCheck.normalizeVersion(i)],
        ['SchemaCheck.schemaIdOf', (i: never) => SchemaCheck.schemaIdOf(i)],
        ['SchemaCheck.parseId', (i: never) => SchemaCheck.parseId(i)],
        ['SchemaCheck.convertId', (i: never) => SchemaCheck.convertId(i)],
        ['SchemaCheck.toolIdOf', (i: never) => SchemaCheck.toolIdOf(i)]
    ])('%s never throws and codes every issue (fuzz)', (_name, fn) => {
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.anything(),
                    fc.record(
                        {
                            version: fc.string(),
                            main: fc.anything(),
                            fileBase: fc.string(),
                            id: fc.string(),
                            to: fc.string(),
                            namespace: fc.string(),
                            tool: fc.string()
                        },
                        { requiredKeys: [] }
                    )
                ),
                (input) => {
                    for (const e of (fn(input as never) as { errors: Array<{ code: string }> }).errors)
                        expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
                }
            )
        )
    })
})

describe('validateInspectedMain (a main gradeSingleSchema has already checked as plain JSON)', () => {
    it('gives the findings validateMain gives, for a valid and a broken main', () => {
        for (const main of [base(), realForms(), { ...base(), version: '3.1.0', routes: {} }]) {
            expect(validateInspectedMain(main)).toEqual(SchemaCheck.validateMain({ main }).errors)
        }
        expect(validateInspectedMain({ ...base(), version: '3.1.0' }).map((e) => e.code)).toContain('SCH-008')
    })
})
