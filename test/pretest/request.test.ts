import { describe, expect, it } from 'vitest'
import { buildRequest, formEncode } from '../../src/pretest/request.js'
import { schemaFixture } from '../schema/helpers.js'

type Main = Record<string, any>
const forms = (): Main => schemaFixture('real-forms')
const KEY = 'k3y-Value-0123456789abcdef'
const build = (
    main: Main,
    tool: string,
    test: Record<string, unknown>,
    serverParams: Record<string, string> = { PARLAMENTDEMO_API_KEY: KEY }
) => buildRequest(main, main.tools[tool], test, serverParams, 1000)

describe('buildRequest: requests exactly as the FlowMCP runtime builds them (05 §2.5, 03 ⚠ C26)', () => {
    it('fills a :key insert parameter in root + path and fills {{KEY}} header values from server params', () => {
        const { request, problems } = build(forms(), 'getMember', { _description: 'x', memberId: 101 })
        expect(problems).toEqual([])
        expect(request).toEqual({
            url: 'https://api.parlament-demo.org/v1/members/101',
            method: 'GET',
            headers: { 'X-Api-Key': KEY, Accept: 'application/json' },
            timeoutMs: 1000
        })
    })

    it('fills a {{key}} insert parameter and a {{KEY}} query value from server params', () => {
        expect(build(forms(), 'getVote', { voteId: '2024-117' }).request?.url).toBe(
            `https://api.parlament-demo.org/v1/votes/2024-117?apikey=${KEY}`
        )
    })

    it('inserts the raw value into the path, as the runtime does (no percent-encoding)', () => {
        expect(build(forms(), 'getVote', { voteId: 'a b' }).request?.url).toBe(
            `https://api.parlament-demo.org/v1/votes/a b?apikey=${KEY}`
        )
    })

    it("encodes the query string as URLSearchParams does (space as +, !'()~ escaped, * kept)", () => {
        expect(build(forms(), 'searchMembers', { q: 'Anna Müller' }).request?.url).toBe(
            'https://api.parlament-demo.org/v1/members?q=Anna+M%C3%BCller'
        )
        expect(build(forms(), 'searchMembers', { q: "O'Brien (Jr.) ~ *" }).request?.url).toBe(
            'https://api.parlament-demo.org/v1/members?q=O%27Brien+%28Jr.%29+%7E+*'
        )
        expect(formEncode('a&b=c/d?e#f')).toBe('a%26b%3Dc%2Fd%3Fe%23f')
        expect(formEncode('\uD800x')).toBe('%EF%BF%BDx')
    })

    it('leaves out an unset optional() or default() user parameter', () => {
        expect(build(forms(), 'getMember', { memberId: 7 }).request?.url).toBe(
            'https://api.parlament-demo.org/v1/members/7'
        )
        expect(build(forms(), 'searchMembers', { q: 'x', page: 2 }).request?.url).toBe(
            'https://api.parlament-demo.org/v1/members?q=x&page=2'
        )
        expect(build(forms(), 'searchMembers', { q: 'x' }).request?.url).toBe(
            'https://api.parlament-demo.org/v1/members?q=x'
        )
    })

    it('sends a JSON body for POST with Content-Type application/json, keeping the raw value of an exact {{USER_PARAM}}', () => {
        const { request } = build(forms(), 'searchSpeeches', { query: 'Haushalt', years: [2023, 2024] })
        expect(request).toMatchObject({
            method: 'POST',
            url: 'https://api.parlament-demo.org/v1/speeches/search',
            body: '{"query":"Haushalt","years":[2023,2024],"source":"flowmcp"}'
        })
        expect(request?.headers).toEqual({
            'Content-Type': 'application/json',
            'X-Api-Key': KEY,
            Accept: 'application/json'
        })
        expect(build(forms(), 'searchSpeeches', { query: 'Rente' }).request?.body).toBe(
            '{"query":"Rente","source":"flowmcp"}'
        )
    })

    it('sends no body for GET even with body parameters', () => {
        const main = forms()
        main.tools.searchSpeeches.method = 'GET'
        const { request } = build(main, 'searchSpeeches', { query: 'x' })
        expect(request).not.toHaveProperty('body')
        expect(request?.headers).not.toHaveProperty('Content-Type')
    })

    it('replaces the first {{USER_PARAM}} of a template only, as String#replace does', () => {
        const main = forms()
        main.tools.searchMembers.parameters[0].position.value = 'name:{{USER_PARAM}} OR {{USER_PARAM}}'
        expect(build(main, 'searchMembers', { q: 'Eva' }).request?.url).toBe(
            'https://api.parlament-demo.org/v1/members?q=name%3AEva+OR+%7B%7BUSER_PARAM%7D%7D'
        )
    })

    it('fills {{NAME}} left in the URL from server params (a key written into the path)', () => {
        const main = forms()
        main.tools.getVote.path = '/votes/{{voteId}}?token={{PARLAMENTDEMO_API_KEY}}'
        main.tools.getVote.parameters.pop()
        expect(build(main, 'getVote', { voteId: '1' }).request?.url).toBe(
            `https://api.parlament-demo.org/v1/votes/1?token=${KEY}`
        )
    })

    it('accepts the {{SERVER_PARAM:KEY}} form too', () => {
        const main = forms()
        main.tools.getVote.parameters[1].position.value = '{{SERVER_PARAM:PARLAMENTDEMO_API_KEY}}'
        expect(build(main, 'getVote', { voteId: '1' }).request?.url).toBe(
            `https://api.parlament-demo.org/v1/votes/1?apikey=${KEY}`
        )
    })

    it.each([
        [
            'a required parameter the test does not set',
            'searchMembers',
            { page: 1 },
            'test sets no value for required parameter q'
        ],
        [
            'an insert parameter without a value',
            'getMember',
            { lang: 'de' },
            'insert parameter memberId has no value in the test'
        ],
        [
            'a value template naming an undeclared server parameter (the runtime would send an empty value)',
            'listSpeeches',
            { PAGE_SIZE: 5 },
            'server parameter PAGE_SIZE is not declared in requiredServerParams (the runtime would send an empty value)'
        ]
    ])('reports a test the runtime could not resolve, never builds it: %s', (_name, tool, test, problem) => {
        const built = build(forms(), tool, test)
        expect(built.request).toBeNull()
        expect(built.problems).toContain(problem)
    })

    it('names a declared server parameter the host did not supply, without building the request', () => {
        expect(build(forms(), 'getVote', { voteId: '1' }, {})).toEqual({
            request: null,
            missingServerParams: ['PARLAMENTDEMO_API_KEY'],
            problems: []
        })
    })
})

describe('buildRequest: roots only handlers can resolve', () => {
    it.each(['https://explorer.--chain--.demo.network/api', 'https://chain-rpc-resolver.local', 'https://...'])(
        'never sends a request to the placeholder root %s',
        (root) => {
            const main: Main = { ...schemaFixture('real-forms'), root }
            const built = buildRequest(
                main,
                main.tools.getMember,
                { memberId: 1 },
                { PARLAMENTDEMO_API_KEY: 'x' },
                1000
            )
            expect(built.request).toBeNull()
            expect(built.problems.join(' ')).toMatch(/main\.root names no callable host .*handlers resolve it/)
        }
    )
})
