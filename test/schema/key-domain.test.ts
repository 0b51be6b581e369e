import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ErrorCodes, KeyDomain, Tos } from '../../src/index.js'
import { tokenizeKey } from '../../src/schema/key-domain.js'

const judge = (param: string, root: string, namespace = 'provider') =>
    KeyDomain.check({ main: { namespace, root, requiredServerParams: [param] } }).checked[0]

describe('KeyDomain.check (api-key-domain-mismatch, 02 §13 (3))', () => {
    // [key, root, namespace, verdict, rule]
    const rows: Array<[string, string, string, string, string | null]> = [
        ['ETHERSCAN_API_KEY', 'https://api.etherscan.io', 'explorer', 'match', 'equal'],
        ['CMC_PRO_API_KEY', 'https://pro-api.coinmarketcap.com', 'marketdata', 'match', 'initialism'],
        ['ALCHEMY_API_KEY', 'https://eth-mainnet.g.alchemy.com/v2', 'nodes', 'match', 'equal'],
        ['MORALIS_API_KEY', 'https://deep-index.moralis.io/api/v2.2', 'wallets', 'match', 'equal'],
        ['INFURA_PROJECT_ID', 'https://mainnet.infura.io/v3', 'rpc', 'match', 'equal'],
        ['COINGECKO_PRO_API_KEY', 'https://pro-api.coingecko.com/api/v3', 'prices', 'match', 'equal'],
        ['DUNE_API_KEY', 'https://api.dune.com/api/v1', 'queries', 'match', 'equal'],
        ['OPENAI_API_KEY', 'https://api.etherscan.io', 'etherscan', 'mismatch', null],
        ['FACEBOOK_API_KEY', 'https://api.example.xyz', 'example', 'mismatch', null],
        ['EXAMPLE_API_KEY', 'https://api.example.xyz', 'feeds', 'match', 'equal'],
        ['API_KEY', 'https://api.example.xyz', 'feeds', 'no-brand', null],
        ['ACCESS_TOKEN', 'https://api.example.xyz', 'feeds', 'no-brand', null],
        ['CLIENT_SECRET', 'https://api.example.xyz', 'feeds', 'no-brand', null],
        ['CRYPTO_DATA_API_KEY', 'https://api.example.com/v2', 'cryptodata', 'no-brand', null],
        ['COIN_GECKO_API_KEY', 'https://api.coingecko.com/api/v3', 'prices', 'match', 'concatenation'],
        ['POLYGONSCAN_API_KEY', 'https://api.polygonscan.com', 'explorer', 'match', 'equal'],
        ['BSC_SCAN_API_KEY', 'https://api.bscscan.com', 'explorer', 'match', 'containment'],
        ['OPENWEATHER_API_KEY', 'https://api.openweathermap.org/data/2.5', 'weather', 'match', 'containment'],
        ['GOOGLE_MAPS_API_KEY', 'https://maps.googleapis.com/maps/api', 'geo', 'match', 'containment'],
        ['NASA_API_KEY', 'https://api.nasa.gov', 'space', 'match', 'equal'],
        ['HARVARD_ART_API_KEY', 'https://api.harvardartmuseums.org', 'museums', 'match', 'concatenation'],
        ['AVIATIONSTACK_API_KEY', 'https://api.aviationstack.com/v1', 'flights', 'match', 'equal'],
        ['EUROPEANA_API_KEY', 'https://api.europeana.eu/record/v2', 'culture', 'match', 'equal'],
        ['ALTMETRIC_API_KEY', 'https://api.altmetric.com/v1', 'research', 'match', 'equal'],
        ['THEGRAPH_API_KEY', 'https://gateway.thegraph.com/api', 'subgraphs', 'match', 'equal'],
        ['HELIUS_API_KEY', 'https://mainnet.helius-rpc.com', 'solana', 'match', 'equal'],
        ['BIRDEYE_API_KEY', 'https://public-api.birdeye.so', 'tokens', 'match', 'equal'],
        ['TWITTER_BEARER_TOKEN', 'https://api.x.com/2', 'social', 'match', 'alias'],
        ['X_API_KEY', 'https://api.x.com/2', 'social', 'match', 'equal'],
        ['STRIPE_SECRET_KEY', 'https://api.etherscan.io', 'etherscan', 'mismatch', null],
        ['ETHERSCAN_API_KEY', 'https://api.bscscan.com', 'bscscan', 'mismatch', null],
        ['LUKSO_API_KEY', 'https://api.universalprofile.cloud', 'lukso', 'match', 'equal'],
        ['FT_API_KEY', 'https://api.example.xyz', 'example', 'unrecognised', null],
        ['SANTIMENT_API_KEY', 'https://api.santiment.net/graphql', 'onchain', 'match', 'equal'],
        ['CRYPTOCOMPARE_API_KEY', 'https://min-api.cryptocompare.com/data', 'prices', 'match', 'equal'],
        ['DEFILLAMA_PRO_API_KEY', 'https://pro-api.llama.fi', 'tvl', 'match', 'containment'],
        ['HEROKU_API_KEY', 'https://myapp.herokuapp.com', 'myapp', 'match', 'containment'],
        ['coinGeckoApiKey', 'https://api.coingecko.com/api/v3', 'prices', 'match', 'concatenation'],
        ['SOLSCAN_API_KEY', 'https://pro-api.solscan.io/v2.0', 'solana', 'match', 'equal']
    ]

    it.each(rows)('judges %s on %s (namespace %s) as %s by %s', (key, root, namespace, verdict, rule) => {
        const checked = judge(key, root, namespace)
        expect(checked?.verdict).toBe(verdict)
        expect(checked?.rule ?? null).toBe(rule)
    })

    it('has at least 30 real-looking cases', () => {
        expect(rows.length).toBeGreaterThanOrEqual(30)
    })

    it('returns a mismatch with the param, brand, API host and pointer (veto evidence)', () => {
        const result = KeyDomain.check({
            main: {
                namespace: 'example',
                root: 'https://api.example.xyz',
                requiredServerParams: ['EXAMPLE_API_KEY', 'FACEBOOK_API_KEY']
            }
        })
        expect(result.mismatches).toEqual([
            {
                param: 'FACEBOOK_API_KEY',
                brand: 'facebook',
                apiHost: 'api.example.xyz',
                pointer: '/requiredServerParams/1'
            }
        ])
        expect(result.apiDomain).toBe('example.xyz')
        expect(result.errors).toEqual([])
    })

    it('never calls a key without a brand token a mismatch (property)', () => {
        const generic = fc.constantFrom(
            'API',
            'KEY',
            'TOKEN',
            'SECRET',
            'ACCESS',
            'PRO',
            'ID',
            'CLIENT',
            'PROJECT',
            'AUTH'
        )
        fc.assert(
            fc.property(fc.array(generic, { minLength: 1, maxLength: 4 }), fc.domain(), (parts, host) => {
                const checked = judge(parts.join('_'), `https://${host}`)
                expect(checked?.verdict).toBe('no-brand')
            })
        )
    })

    it('matches a brand on its own host whatever the suffix (property)', () => {
        const brand = fc
            .stringMatching(/^[a-z]{4,12}$/)
            .filter(
                (b) =>
                    ![
                        'data',
                        'crypto',
                        'price',
                        'chain',
                        'index',
                        'cloud',
                        'search',
                        'stats',
                        'email',
                        'token'
                    ].includes(b)
            )
        fc.assert(
            fc.property(brand, fc.constantFrom('com', 'io', 'co.uk', 'org', 'xyz'), (b, tld) => {
                expect(judge(`${b.toUpperCase()}_API_KEY`, `https://api.${b}.${tld}`)?.verdict).toBe('match')
            })
        )
    })

    it('tokenises snake, kebab and camel case', () => {
        expect(tokenizeKey('CMC_PRO_API_KEY')).toEqual(['cmc', 'pro', 'api', 'key'])
        expect(tokenizeKey('coinGeckoApiKey')).toEqual(['coin', 'gecko', 'api', 'key'])
        expect(tokenizeKey('x-api-key')).toEqual(['x', 'api', 'key'])
        expect(tokenizeKey('OPENAIKey')).toEqual(['openai', 'key'])
    })

    it.each([
        ['no main', {}, 'SEC-020', '/main'],
        ['a main that is a string', { main: 'x' }, 'SEC-019', '/main'],
        [
            'requiredServerParams that is not an array',
            { main: { root: 'https://a.io', requiredServerParams: 'KEY' } },
            'SEC-019',
            '/main/requiredServerParams'
        ],
        [
            'a non-string key',
            { main: { root: 'https://a.io', requiredServerParams: [7] } },
            'SEC-019',
            '/main/requiredServerParams/0'
        ],
        [
            'keys without a root host',
            { main: { root: 'not a url', requiredServerParams: ['A_KEY'] } },
            'SEC-021',
            '/main/root'
        ]
    ])('reports %s', (_name, input, code, path) => {
        expect(KeyDomain.check(input as never).errors).toContainEqual(expect.objectContaining({ code, path }))
    })

    // A veto only on certainty (01-model §6.1): a documented key gateway matches, a root the runtime cannot call is uncertain.
    it.each([
        ['https://api.nasa.gov', 'apod'],
        ['https://api.congress.gov/v3', 'congress'],
        ['https://api.open.fec.gov/v1', 'openfec'],
        ['https://api.nal.usda.gov/fdc/v1', 'fooddata'],
        ['https://api.si.edu/openaccess/api/v1.0', 'smithsonian']
    ])('matches API_DATA_GOV_KEY on %s through the api.data.gov key gateway', (root, namespace) => {
        const result = KeyDomain.check({ main: { namespace, root, requiredServerParams: ['API_DATA_GOV_KEY'] } })
        expect(result.mismatches).toEqual([])
        expect(result.checked[0]).toMatchObject({ verdict: 'match', rule: 'gateway', matched: 'api.data.gov' })
    })

    it('still vetoes an api.data.gov key on a host the gateway does not serve', () => {
        expect(judge('API_DATA_GOV_KEY', 'https://api.weather-demo.com', 'weather')).toMatchObject({
            verdict: 'mismatch'
        })
    })

    it.each([
        ['INFURA_API_KEY', 'https://--infura-subdomain--.infura.io', 'infura'],
        ['ALCHEMY_API_KEY', 'https://chain-rpc-resolver.local', 'ohlcv'],
        ['ALCHEMY_API_KEY', 'https://...', 'ohlcv'],
        ['ALCHEMY_API_KEY', 'https://localhost', 'ohlcv'],
        ['OPENAI_API_KEY', 'https://api.example.com', 'demo']
    ])(
        'does not veto %s on the placeholder root %s: uncertain, a SEC-WARN-002 warning for the grader',
        (param, root, namespace) => {
            const result = KeyDomain.check({ main: { namespace, root, requiredServerParams: [param] } })
            expect(result.mismatches).toEqual([])
            if (result.checked[0]?.verdict !== 'match') {
                expect(result.uncertain).toEqual([
                    expect.objectContaining({ param, pointer: '/requiredServerParams/0' })
                ])
                expect(result.errors).toContainEqual(
                    expect.objectContaining({
                        code: 'SEC-WARN-002',
                        severity: 'warning',
                        path: '/main/requiredServerParams/0'
                    })
                )
            }
        }
    )
})

describe('KeyDomain.registrableDomain (02 ⚠ B17, Public Suffix List)', () => {
    it.each([
        ['https://api.flowmcp.org/v1', 'flowmcp.org'],
        ['https://legal.flowmcp.org', 'flowmcp.org'],
        ['https://www.gov.uk/terms', 'www.gov.uk'],
        ['https://data.ons.gov.uk/api', 'ons.gov.uk'],
        ['https://api.bbc.co.uk', 'bbc.co.uk'],
        ['https://api.abc.net.au', 'abc.net.au'],
        ['https://data.example.com.au/x', 'example.com.au'],
        ['https://alice.github.io/docs', 'alice.github.io'],
        ['eth-mainnet.g.alchemy.com', 'alchemy.com'],
        ['https://user:pw@API.Example.COM:8443/path?q=1#f', 'example.com']
    ])('%s → %s', (url, domain) => {
        expect(KeyDomain.registrableDomain({ url })).toEqual({ domain, errors: [] })
    })

    it.each([['https://192.168.0.1/x'], ['https://co.uk'], ['not a url at all'], ['']])(
        'gives no domain for %j',
        (url) => {
            expect(KeyDomain.registrableDomain({ url })).toMatchObject({ domain: null, errors: [{ code: 'SEC-022' }] })
        }
    )

    it('reports a missing or non-string url', () => {
        expect(KeyDomain.registrableDomain({}).errors[0]?.code).toBe('SEC-020')
        expect(KeyDomain.registrableDomain({ url: 5 }).errors[0]?.code).toBe('SEC-019')
    })
})

describe('Tos.rootDomainMatch (02 §12 root-domain MUST)', () => {
    it.each([
        ['https://api.flowmcp.org', 'https://flowmcp.org/terms', true, null],
        ['https://api.flowmcp.org', 'https://legal.flowmcp.org', true, null],
        ['https://api.flowmcp.org', 'https://example.com/terms', false, 'different-domain'],
        ['https://api.bbc.co.uk', 'https://www.bbc.co.uk/usingthebbc/terms', true, null],
        ['https://api.bbc.co.uk', 'https://www.itv.co.uk/terms', false, 'different-domain'],
        ['https://alice.github.io', 'https://bob.github.io/tos', false, 'different-domain'],
        ['https://api.flowmcp.org', 'no-tos-found', false, 'no-tos-found'],
        ['https://10.0.0.1', 'https://flowmcp.org/terms', false, 'unknown-api-domain'],
        ['https://api.flowmcp.org', '/terms', false, 'unknown-tos-domain']
    ])('%s with %s → %s', (apiRoot, tosUrl, match, reason) => {
        expect(Tos.rootDomainMatch({ apiRoot, tosUrl })).toMatchObject({ match, reason, errors: [] })
    })

    it('reports missing and mistyped arguments', () => {
        expect(Tos.rootDomainMatch({}).errors.map((e) => [e.code, e.path])).toEqual([
            ['SEC-020', '/apiRoot'],
            ['SEC-020', '/tosUrl']
        ])
        expect(Tos.rootDomainMatch({ apiRoot: 1, tosUrl: 'x' }).errors[0]?.code).toBe('SEC-019')
    })
})

describe('KeyDomain and Tos under fuzzing', () => {
    it.each([
        ['KeyDomain.check', (i: never) => KeyDomain.check(i)],
        ['KeyDomain.registrableDomain', (i: never) => KeyDomain.registrableDomain(i)],
        ['Tos.rootDomainMatch', (i: never) => Tos.rootDomainMatch(i)]
    ])('%s never throws and codes every issue', (_name, fn) => {
        const arg = fc.oneof(
            fc.anything(),
            fc.record(
                {
                    main: fc.record(
                        {
                            root: fc.oneof(fc.webUrl(), fc.string()),
                            requiredServerParams: fc.array(fc.oneof(fc.string(), fc.anything())),
                            namespace: fc.anything()
                        },
                        { requiredKeys: [] }
                    ),
                    url: fc.oneof(fc.webUrl(), fc.string()),
                    apiRoot: fc.webUrl(),
                    tosUrl: fc.webUrl()
                },
                { requiredKeys: [] }
            )
        )
        fc.assert(
            fc.property(arg, (input) => {
                const result = fn(input as never) as { errors: Array<{ code: string }> }
                for (const e of result.errors) expect(ErrorCodes.get({ code: e.code }).found).toBe(true)
            })
        )
    })
})
