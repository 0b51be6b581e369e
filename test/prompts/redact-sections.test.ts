import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Areas, PromptBuilder, Redact } from '../../src/index.js'
import { hasBareHexRun, redactAroundInert, redactSections, SECTION_JOINER } from '../../src/prompts/redact.js'

const J = SECTION_JOINER

/** The questions and output-schema sections of a real area prompt: the block buildAreaPrompt redacts once. */
function realBlock(area: 'single-test' | 'tools-aggregate-schema' | 'namespace-description'): string {
    const { prompt } = PromptBuilder.buildAreaPrompt({
        area,
        files: [{ path: 'a.mjs', role: 'the schema' }],
        questions: PromptBuilder.questionsFor({ area }).questions,
        outputSchema: Areas.outputSchema({ area, selfContained: true }).schema as object,
        policies: []
    })
    const text = prompt as string
    return text.slice(text.indexOf('## Questions'), text.indexOf(`${J}## Goal-Block`))
}

const BLOCK = realBlock('single-test')
const HEAD =
    '# FlowMCP grading: area single-test\n\n## Policies (binding)\n\n1. reply — Reply with { "answers": [] }; "improvementHints" is optional.'
const TAIL =
    '## Goal-Block (completion condition)\n\nGrade single-test/getBalance for 262b4ccc — or stop after 25 turns.\n'

/** What a redaction of the joined text gives: the reference the sections must equal. */
const whole = (head: string, block: string, tail: string, serverParams?: unknown) =>
    Redact.text({ text: head + J + block + J + tail, serverParams })

describe('redactSections', () => {
    it('gives the bytes and redactions of redacting the joined text, without scanning an inert block again', () => {
        const serverParams = { ETHERSCAN_API_KEY: 'QX7Z2KJ4PLM9R8T6W5V3N1B0C' }
        const head = `${HEAD}\n2. key — never print QX7Z2KJ4PLM9R8T6W5V3N1B0C or https://x.io/?apikey=abc123def456`
        const tail = `${TAIL}Authorization: Bearer abcdefgh12345678 and sk-ant-api03-abcdefghijklmnopqrstuvwx\n`
        const got = redactSections(head, BLOCK, tail, serverParams)
        expect(got).toEqual(whole(head, BLOCK, tail, serverParams))
        expect(got.text).not.toContain('QX7Z2KJ4PLM9R8T6W5V3N1B0C')
        expect(got.text).not.toContain('abcdefgh12345678')
        expect(got.redactions.map((r) => r.kind)).toEqual([
            'server-param',
            'url-credential',
            'auth-header',
            'key-shape'
        ])
        // The shortcut was taken: the block was not redacted again.
        expect(redactAroundInert(head, BLOCK, tail, serverParams)).toEqual(got)
    })

    it('reports PB-002 for a bad server parameter, as Redact.text does', () => {
        const got = redactSections(HEAD, BLOCK, TAIL, { KEY: 42 })
        expect(got.text).toBeNull()
        expect(got.errors.map((e) => e.code)).toEqual(['PB-002'])
        expect(got).toEqual(whole(HEAD, BLOCK, TAIL, { KEY: 42 }))
    })

    // A secret split across a section border, or one that reaches into the block: each is found by the
    // redaction of the joined text, so the shortcut must step aside and give the same bytes.
    const SPLIT: ReadonlyArray<{
        name: string
        head: string
        block: string
        tail: string
        serverParams?: Record<string, string>
        secret: string
    }> = [
        {
            name: 'a "name": "value" pair whose value runs over the border to the first quote of the block',
            head: `${HEAD}\n{"apiKey": "sk12345678`,
            block: `## Questions\n\n1. [Q-1] Is "this" used?${J}${BLOCK}`,
            tail: TAIL,
            secret: 'sk12345678'
        },
        {
            name: 'a value whose closing quote starts the tail',
            head: `${HEAD}`,
            block: '## Block\n\n{"password": "p4ss',
            tail: 'w0rd"}\n',
            secret: 'p4ss'
        },
        {
            name: 'a private key from the head to the tail',
            head: `${HEAD}\n-----BEGIN RSA PRIVATE KEY-----\nMIIEabc`,
            block: BLOCK,
            tail: 'def\n-----END RSA PRIVATE KEY-----\n',
            secret: 'MIIEabc'
        },
        {
            name: 'Bearer at the end of the head, the token at the start of the block',
            head: `${HEAD}\nAuthorization: Bearer`,
            block: `abcdefgh12345678 is the token\n${BLOCK}`,
            tail: TAIL,
            secret: 'abcdefgh12345678'
        },
        {
            name: 'password = at the end of the head, the value at the start of the block',
            head: `${HEAD}\npassword =`,
            block: `hunter2hunter2 more\n${BLOCK}`,
            tail: TAIL,
            secret: 'hunter2hunter2'
        },
        {
            name: 'a key name at the end of the head, its separator and value in the block',
            head: `${HEAD}\napi_key`,
            block: `: abcd1234efgh\n${BLOCK}`,
            tail: TAIL,
            secret: 'abcd1234efgh'
        },
        {
            name: 'a "name" at the end of the head, ": value" in the block',
            head: `${HEAD}\n"token"`,
            block: `: "ab12cd34ef56gh78ij90"\n${BLOCK}`,
            tail: TAIL,
            secret: 'ab12cd34ef56gh78ij90'
        },
        {
            name: 'a server-parameter value holding the joiner',
            head: `${HEAD}\nkey: part-one`,
            block: BLOCK,
            tail: TAIL,
            serverParams: { KEY: `part-one${J}## Questions` },
            secret: 'part-one'
        },
        {
            name: 'a server-parameter value inside the block',
            head: HEAD,
            block: `${BLOCK}\nvalue-in-block-42`,
            tail: TAIL,
            serverParams: { KEY: 'value-in-block-42' },
            secret: 'value-in-block-42'
        }
    ]
    for (const c of SPLIT) {
        it(`still redacts ${c.name}`, () => {
            const got = redactSections(c.head, c.block, c.tail, c.serverParams)
            expect(got).toEqual(whole(c.head, c.block, c.tail, c.serverParams))
            expect(got.text).not.toContain(c.secret)
            expect(redactAroundInert(c.head, c.block, c.tail, c.serverParams)).toBeNull()
        })
    }

    it('does not take the shortcut for a block a pattern changes (and never keeps it)', () => {
        const block = `${BLOCK}\n"apiKey": "abcdef1234567890"`
        expect(redactAroundInert(HEAD, block, TAIL, undefined)).toBeNull()
        const got = redactSections(HEAD, block, TAIL, undefined)
        expect(got).toEqual(whole(HEAD, block, TAIL))
        expect(got.text).not.toContain('abcdef1234567890')
    })

    // Texts built from the pieces every pattern is made of, around real and random blocks: the
    // sections always redact to what the joined text redacts to.
    const PIECES = [
        '"',
        '\\',
        ':',
        '=',
        ' ',
        '\n',
        J,
        '\t',
        '#',
        '## Q',
        "'",
        '{',
        '}',
        'x',
        'a1',
        'Bearer',
        'Basic',
        'Token',
        'apiKey',
        'api_key',
        'password',
        'secret',
        'token',
        '"apiKey"',
        '"token": "',
        '"name": "',
        ': "',
        'abcdefgh12345678',
        'sk-abcdefghijklmnop1234',
        '0123456789abcdef0123456789abcdef',
        '-----BEGIN RSA PRIVATE KEY-----',
        '-----END RSA PRIVATE KEY-----',
        'PRIVATE KEY',
        'https://u:p4ssword@h.io/?apikey=abc123&key=ab12cd34ef56gh78ij',
        '{{X}}',
        'AKIAIOSFODNN7EXAMPLE',
        '\u00a0',
        'eyJabcdefghij.eyJabcdefghij.abcdefghij',
        'ghp_abcdefghijklmnopqrstuvwxyz',
        'p4ss-w0rd-value',
        'redacted'
    ]
    const text = (max: number) => fc.array(fc.constantFrom(...PIECES), { maxLength: max }).map((p) => p.join(''))
    const blocks = fc.oneof(
        {
            arbitrary: fc.constantFrom(BLOCK, realBlock('tools-aggregate-schema'), realBlock('namespace-description')),
            weight: 4
        },
        { arbitrary: text(20), weight: 1 },
        { arbitrary: text(6).map((t) => `${t}${J}${BLOCK}`), weight: 1 },
        { arbitrary: text(6).map((t) => `${BLOCK}${t}`), weight: 1 }
    )
    const params = fc.option(
        fc.dictionary(
            fc.constantFrom('KEY', 'OTHER', 'A$&B'),
            fc.oneof(fc.constantFrom('p4ss-w0rd-value', `x${J}y`, 'type', 'abcdefgh12345678', 'string'), text(4))
        ),
        { nil: undefined }
    )

    it('equals the redaction of the joined text for arbitrary heads, blocks, tails and server parameters (fast-check)', () => {
        fc.assert(
            fc.property(text(10), blocks, text(10), params, (head, block, tail, serverParams) => {
                expect(redactSections(head, block, tail, serverParams)).toEqual(whole(head, block, tail, serverParams))
            }),
            { numRuns: 1500 }
        )
    })

    // The border shapes alone (quotes, separators, scheme words, whitespace) around real blocks: here
    // the shortcut is mostly taken, so this is where a wrong "cannot cross" would show.
    const BORDER = [
        '"',
        '\\',
        ':',
        '=',
        ' ',
        '\n',
        J,
        '#',
        "'",
        'x',
        'a1',
        'Bearer',
        'Token',
        'apiKey',
        'password',
        '"token": "',
        '"name": "',
        ': "',
        'abcdefgh12345678',
        'p4ss-w0rd-value'
    ]
    const border = (max: number) =>
        fc.array(fc.constantFrom(...BORDER), { minLength: 1, maxLength: max }).map((p) => p.join(''))

    it('equals it too where the shortcut is taken, with secrets at the borders (fast-check)', () => {
        let shortcuts = 0
        fc.assert(
            fc.property(
                border(10),
                fc.constantFrom(BLOCK, realBlock('tools-aggregate-schema')),
                border(10),
                fc.constantFrom(undefined, { KEY: 'p4ss-w0rd-value' }),
                (head, block, tail, serverParams) => {
                    expect(redactSections(head, block, tail, serverParams)).toEqual(
                        whole(head, block, tail, serverParams)
                    )
                    if (redactAroundInert(head, block, tail, serverParams) !== null) shortcuts += 1
                }
            ),
            { numRuns: 1500 }
        )
        // The property is about the shortcut: it must have been taken often enough to mean something.
        expect(shortcuts).toBeGreaterThan(750)
    })

    it('erases a server-parameter value that has no URI form (a lone surrogate) instead of failing', () => {
        const got = Redact.text({ text: 'key abc\uD800defgh here', serverParams: { KEY: 'abc\uD800defgh' } })
        expect(got).toEqual({
            text: 'key [redacted:KEY] here',
            redactions: [{ path: '', kind: 'server-param', key: 'KEY' }],
            errors: []
        })
    })
})

describe('PromptBuilder.buildAreaPrompt with a secret at a section border', () => {
    it('redacts a "name": "value" pair running from the last policy into the questions, as a redaction of the whole prompt does', () => {
        const questions = PromptBuilder.questionsFor({ area: 'single-test' }).questions.map((q, i) =>
            i === 0 ? { ...q, question: 'Is "docs" reachable?' } : q
        )
        const { prompt, errors } = PromptBuilder.buildAreaPrompt({
            area: 'single-test',
            files: [{ path: 'a.mjs', role: 'the schema' }],
            questions,
            outputSchema: Areas.outputSchema({ area: 'single-test', selfContained: true }).schema as object,
            policies: [{ id: 'P-1', summary: 'Send {"apiKey": "sk12345678' }]
        })
        expect(prompt).not.toContain('sk12345678')
        expect(prompt).toContain('{"apiKey": "[redacted]"docs" reachable?')
        expect(errors.map((e) => e.code)).toEqual(['PB-WARN-001'])
    })

    it('leaves a prompt without secrets as composed', () => {
        const { prompt, metadata } = PromptBuilder.buildAreaPrompt({
            area: 'single-test',
            files: [{ path: 'a.mjs', role: 'the schema' }],
            questions: PromptBuilder.questionsFor({ area: 'single-test' }).questions,
            outputSchema: Areas.outputSchema({ area: 'single-test', selfContained: true }).schema as object,
            policies: [{ id: 'P-1', summary: 'Reply with { "answers": [] }; "improvementHints" is optional.' }]
        })
        expect(metadata?.redactionCount).toBe(0)
        expect(prompt).toContain(`"improvementHints" is optional.${J}## Questions`)
    })
})

describe('hasBareHexRun', () => {
    it('finds a run of 32 hex digits at the start of a word, and nothing else (fast-check against a regex)', () => {
        const reference = /(?<![0-9A-Za-z:_])[0-9a-fA-F\u0010-\u0019]{32}/
        const pieces = [
            '0',
            '9',
            'a',
            'f',
            'A',
            'F',
            'g',
            'x',
            '0x',
            ':',
            '_',
            ' ',
            '-',
            '\n',
            '0123456789abcdef',
            'ABCDEF0123456789',
            'deadbeef'
        ]
        fc.assert(
            fc.property(
                fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join('')),
                (text) => {
                    expect(hasBareHexRun(text, 32)).toBe(reference.test(text))
                }
            ),
            { numRuns: 3000 }
        )
    })

    it('lets a bare hex key be redacted, and passes over a 0x address without running the pattern', () => {
        const key = '5f4dcc3b5aa765d61d8327deb882cf99aa11bb22'
        expect(hasBareHexRun(`key ${key}`, 32)).toBe(true)
        expect(Redact.text({ text: `key ${key}` }).text).toBe('key [redacted]')
        expect(hasBareHexRun('token 0xdAC17F958D2ee523a2206206994597C13D831ec7', 32)).toBe(false)
        expect(hasBareHexRun('short deadbeef', 32)).toBe(false)
    })
})
