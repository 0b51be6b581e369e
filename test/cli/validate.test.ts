import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { run } from '../../src/cli/run.js'
import { memoryIo } from './helpers.js'

const valid = new URL('../fixtures/entries/valid/grading-autonomous.json', import.meta.url).pathname
const rejected = new URL('../fixtures/entries/valid/grading-rejected.json', import.meta.url).pathname

describe('flowmcp-grading validate', () => {
    it('prints a table and exits 0 when every file is valid', async () => {
        const io = memoryIo()
        expect(await run(['validate', valid, rejected], io)).toBe(0)
        expect(io.out()).toContain('grading-entry')
        expect(io.out()).not.toContain('INVALID')
    })

    it('exits 1 and names code and path for a finding', async () => {
        const io = memoryIo({ 'bad.json': JSON.stringify({ gradings: [], area: 'single-test' }) })
        expect(await run(['validate', 'bad.json'], io)).toBe(1)
        expect(io.out()).toContain('INVALID')
        expect(io.out()).toMatch(/GRD-023 at \/gradings/)
    })

    it('emits JSON with --json', async () => {
        const io = memoryIo({ 'x.json': '{"not":"an artefact"}' })
        expect(await run(['validate', '--json', 'x.json'], io)).toBe(1)
        const parsed = JSON.parse(io.out()) as { files: Array<{ kind: string; errors: Array<{ code: string }> }> }
        expect(parsed.files[0]).toMatchObject({ kind: 'unknown', errors: [{ code: 'ART-001' }] })
    })

    it('exits 2 for a file that cannot be read, and for no files', async () => {
        expect(await run(['validate', '/nonexistent/file.json'], memoryIo())).toBe(2)
        expect(await run(['validate'], memoryIo())).toBe(2)
    })

    it('--strict checks a grading entry as registry intake: a read-tolerant warning is an error (exit 1)', async () => {
        const entry = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(valid, 'utf8'))) as Record<
            string,
            unknown
        >
        const forged = JSON.stringify({ ...entry, gradingSystem: 'gradingSystem/2.0.0' })
        const tolerant = memoryIo({ 'forged.json': forged })
        expect(await run(['validate', 'forged.json'], tolerant)).toBe(0)
        expect(tolerant.out()).toContain('VER-004')
        const strict = memoryIo({ 'forged.json': forged })
        expect(await run(['validate', '--strict', '--now', '2026-06-01T00:00:00Z', 'forged.json'], strict)).toBe(1)
        expect(strict.out()).toMatch(/error\s+VER-004/)
    })

    it("--strict takes the clock's time without --now, and --now alone checks timestamps", async () => {
        expect(await run(['validate', '--strict', valid, rejected], memoryIo())).toBe(0)
        const io = memoryIo()
        expect(await run(['validate', '--now', '2026-05-01T00:00:00Z', valid], io)).toBe(1)
        expect(io.out()).toContain('GRD-061')
    })

    it('reports unparseable JSON as a coded finding', async () => {
        const io = memoryIo({ 'broken.json': '{' })
        expect(await run(['validate', 'broken.json'], io)).toBe(1)
        expect(io.out()).toContain('INP-004')
    })
})

describe('flowmcp-grading (usage)', () => {
    it('prints usage and exits 2 without a command, 0 with --help', async () => {
        expect(await run([], memoryIo())).toBe(2)
        const io = memoryIo()
        expect(await run(['--help'], io)).toBe(0)
        expect(io.out()).toContain('Usage: flowmcp-grading')
    })

    it('rejects an unknown command or option with exit 2', async () => {
        expect(await run(['frobnicate'], memoryIo())).toBe(2)
        expect(await run(['validate', '--nope'], memoryIo())).toBe(2)
    })

    it.each([
        [
            ['grade', '--bogus', 'x'],
            "CLI-002: usage error: unknown option --bogus (an argument that starts with '-' but is not an option goes after '--', as in: -- --bogus)"
        ],
        [
            ['validate', '-z'],
            "CLI-002: usage error: unknown option -z (an argument that starts with '-' but is not an option goes after '--', as in: -- -z)"
        ]
    ])('names an unknown option without a stray quote: %j', async (argv, line) => {
        const io = memoryIo()
        expect(await run(argv, io)).toBe(2)
        expect(io.err().split('\n')[0]).toBe(line)
        expect(io.err()).toContain('Usage: flowmcp-grading')
        expect(io.out()).toBe('')
    })

    it('keeps the message of any other argument error', async () => {
        const io = memoryIo()
        expect(await run(['grade', '--now'], io)).toBe(2)
        expect(io.err().split('\n')[0]).toBe("Option '--now <value>' argument missing")
    })

    it('prints the versions', async () => {
        const io = memoryIo()
        expect(await run(['version', '--json'], io)).toBe(0)
        expect(JSON.parse(io.out())).toMatchObject({ gradingSystem: 'gradingSystem/1.0.0' })
    })
})

describe('flowmcp-grading validate: registry intake (issue 45)', () => {
    const keys = (): { privateKey: unknown; publicKey: unknown } => {
        const pair = generateKeyPairSync('ed25519')
        return {
            privateKey: { ...pair.privateKey.export({ format: 'jwk' }), kid: 'ci' },
            publicKey: { ...pair.publicKey.export({ format: 'jwk' }), kid: 'ci' }
        }
    }

    it('--envelope with --trusted-keys verifies the signature; another key fails with ATT-003', async () => {
        const { Grading } = await import('../../src/index.js')
        const { readFileSync } = await import('node:fs')
        const text = readFileSync(valid, 'utf8')
        const signer = keys()
        const envelope = JSON.stringify(
            Grading.sign({ entry: JSON.parse(text), privateKey: signer.privateKey }).envelope
        )
        const files = {
            'e.json': text,
            'e.dsse.json': envelope,
            'keys.json': JSON.stringify({ keys: [signer.publicKey] }),
            'other.json': JSON.stringify([keys().publicKey])
        }
        const ok = memoryIo(files)
        expect(await run(['validate', '--envelope', 'e.dsse.json', '--trusted-keys', 'keys.json', 'e.json'], ok)).toBe(
            0
        )
        const bad = memoryIo(files)
        expect(
            await run(['validate', '--envelope', 'e.dsse.json', '--trusted-keys', 'other.json', 'e.json'], bad)
        ).toBe(1)
        expect(bad.out()).toContain('ATT-003')
        expect(await run(['validate', '--envelope', 'e.dsse.json', 'e.json', 'e.json'], memoryIo(files))).toBe(2)
    })

    it('--schema-id binds the entries to the registry’s schema (BND-001)', async () => {
        const io = memoryIo()
        expect(await run(['validate', '--schema-id', 'other.schema', valid], io)).toBe(1)
        expect(io.out()).toContain('BND-001')
    })

    it('--schema re-checks against the module source; a missing file exits 2', async () => {
        const io = memoryIo({ 's.mjs': 'export const main = { namespace: "example", tools: {} }' })
        expect(await run(['validate', '--schema', 's.mjs', valid], io)).toBe(1)
        expect(io.out()).toContain('BND-002')
        expect(await run(['validate', '--schema', '/nonexistent.mjs', valid], memoryIo())).toBe(2)
    })
})
