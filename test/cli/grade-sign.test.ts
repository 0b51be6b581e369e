import { generateKeyPairSync } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { RebuildIndex, signGradingEntry } from '../../src/index.js'
import { nodeFs } from '../../src/cli/node.js'
import { memoryIo } from './helpers.js'

// `grade --sign-key <file>` (issue 45): every entry written to the island gets its DSSE envelope beside it, which
// `validate --envelope --trusted-keys` verifies; the private key reaches no output and no file.

const now = '2026-11-22T18:00:00Z'
const examples = new URL('../../examples/', import.meta.url).pathname
const provider = join(examples, 'providers/openmeteo')
const offline = ['--min-working-tests', '1', '--answers', join(examples, 'answers.json'), '--now', now]

async function filesUnder(dir: string): Promise<string[]> {
    const out: string[] = []
    for (const e of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, e.name)
        if (e.isDirectory()) out.push(...(await filesUnder(path)))
        else out.push(path)
    }
    return out
}

describe('grade --sign-key', () => {
    let dir = ''
    let keyFile = ''
    let trusted = ''
    let d = ''
    beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), 'flowmcp-sign-key-'))
        const pair = generateKeyPairSync('ed25519')
        const privateKey = { ...pair.privateKey.export({ format: 'jwk' }), kid: 'ci' }
        d = String(privateKey.d)
        keyFile = join(dir, 'grader.jwk')
        trusted = join(dir, 'trusted.json')
        await writeFile(keyFile, JSON.stringify(privateKey))
        await writeFile(trusted, JSON.stringify({ keys: [{ ...pair.publicKey.export({ format: 'jwk' }), kid: 'ci' }] }))
    })
    afterAll(async () => {
        await rm(dir, { recursive: true, force: true })
    })

    it('signs every entry it writes; validate --trusted-keys verifies each, a tampered entry fails (ATT-002)', async () => {
        const island = join(dir, 'island')
        const io = memoryIo()
        const code = await run(['grade', provider, '--island', island, '--sign-key', keyFile, ...offline], io)
        expect(code).not.toBe(2)
        const files = await filesUnder(island)
        const entries = files.filter((f) => f.includes('/_gradings/') && f.endsWith('.json'))
        const envelopes = files.filter((f) => f.endsWith('.json.dsse'))
        expect(entries.length).toBeGreaterThan(0)
        expect(envelopes.sort()).toEqual(entries.map((f) => `${f}.dsse`).sort())
        expect(io.err()).toContain(`signed: ${entries.length} entr`)
        expect(io.err()).toContain('with key ci')
        for (const entry of entries) {
            const ok = memoryIo()
            const args = ['validate', '--envelope', `${entry}.dsse`, '--trusted-keys', trusted, '--json', entry]
            expect(await run(args, ok)).toBe(0)
        }
        // One byte of the entry changed after signing: the envelope no longer covers it.
        const entry = entries[0] as string
        const text = await readFile(entry, 'utf8')
        const tampered = join(dir, 'tampered.json')
        const changed = JSON.parse(text) as { gradings: Array<{ timestamp: string }> }
        changed.gradings[0]!.timestamp = changed.gradings[0]!.timestamp.replace(/\d(?=Z$)/, (n) =>
            String((+n + 1) % 10)
        )
        await writeFile(tampered, JSON.stringify(changed, null, 4))
        const bad = memoryIo()
        expect(
            await run(['validate', '--envelope', `${entry}.dsse`, '--trusted-keys', trusted, '--json', tampered], bad)
        ).toBe(1)
        expect(bad.out()).toContain('ATT-002')
        // The private key is in no island file and no output.
        for (const f of files) expect(await readFile(f, 'utf8')).not.toContain(d)
        expect(io.out() + io.err()).not.toContain(d)
    }, 120_000)

    it('never replaces an envelope, and the index rebuild takes envelopes for no stray file (no IDX-010)', async () => {
        const island = join(dir, 'island-again')
        await run(['grade', provider, '--island', island, '--sign-key', keyFile, ...offline], memoryIo())
        const before = (await filesUnder(island)).filter((f) => f.endsWith('.dsse'))
        const texts = await Promise.all(before.map((f) => readFile(f, 'utf8')))
        const io = memoryIo()
        await run(['grade', provider, '--island', island, '--sign-key', keyFile, '--force', ...offline], io)
        expect(await Promise.all(before.map((f) => readFile(f, 'utf8')))).toEqual(texts)
        const rebuilt = await RebuildIndex.rebuildNamespaceIndex({
            fs: nodeFs(),
            namespaceDir: join(island, 'providers', 'openmeteo'),
            now,
            incremental: false
        })
        expect(rebuilt.status).toBe(true)
        expect(rebuilt.errors.map((e) => e.code)).not.toContain('IDX-010')
    }, 120_000)

    it.each([
        ['a missing file', () => join(dir, 'missing.jwk'), 'cannot read the key file (ENOENT)'],
        ['a file that is not JSON', async () => write('garbage.jwk', `not json ${d}`), 'the key file is not JSON'],
        [
            'a public key',
            async () => write('public.jwk', JSON.stringify(JSON.parse(await readFile(trusted, 'utf8')).keys[0])),
            'a private key needs d'
        ],
        [
            'another curve',
            async () => write('p256.jwk', JSON.stringify({ kty: 'EC', crv: 'P-256', d })),
            'expected kty OKP'
        ]
    ])('refuses %s with ATT-001 and exit 2 before grading anything', async (_name, file, detail) => {
        const island = join(dir, `refused-${_name.replace(/\W+/g, '-')}`)
        const io = memoryIo()
        expect(await run(['grade', provider, '--island', island, '--sign-key', await file(), ...offline], io)).toBe(2)
        expect(io.err()).toMatch(/^grade: --sign-key: ATT-001 /)
        expect(io.err()).toContain(detail)
        expect(io.err() + io.out()).not.toContain(d)
        await expect(readdir(island)).rejects.toThrow()
    })

    it('needs --island: without it nothing is written to sign (exit 2)', async () => {
        const io = memoryIo()
        expect(await run(['grade', provider, '--sign-key', keyFile, ...offline], io)).toBe(2)
        expect(io.err()).toContain('--sign-key signs the entries written to the island: it needs --island')
    })

    it('signGradingEntry signs a valid entry and refuses a bad key (ATT-001) without throwing', async () => {
        const entry = JSON.parse(
            await readFile(new URL('../fixtures/entries/valid/grading-autonomous.json', import.meta.url), 'utf8')
        )
        const privateKey = JSON.parse(await readFile(keyFile, 'utf8'))
        const signed = signGradingEntry({ entry, privateKey })
        expect(signed.envelope?.signatures[0]?.keyid).toBe('ci')
        const refused = signGradingEntry({ entry, privateKey: { ...privateKey, d: undefined } })
        expect(refused.envelope).toBeNull()
        expect(refused.errors.map((e) => e.code)).toEqual(['ATT-001'])
    })

    async function write(name: string, text: string): Promise<string> {
        const path = join(dir, name)
        await writeFile(path, text)
        return path
    }
})
